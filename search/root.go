package search

import (
	"context"
	"sync"
	"time"

	"github.com/morrisgame/morris/mill"
)

// Search finds the best move in the last position of history (the game's
// positions, start first: they let the search see repetitions). It stops
// when ctx is done or the limits are reached, and calls report (if not nil)
// after each iteration.
func (e *Engine) Search(ctx context.Context, history []mill.Position, lim Limits, report func(Info)) Result {
	root := history[len(history)-1]
	start := time.Now()
	soft, hard := lim.budget(root.SideToMove())
	if hard > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(hard))
		defer cancel()
	}
	if dl, ok := ctx.Deadline(); ok && pollClock {
		e.deadline = dl
		defer func() { e.deadline = time.Time{} }()
	}
	e.stop.Store(false)
	// A watcher turns the context's end into the stop flag the threads
	// poll. Search waits for it before returning (and before the deadline's
	// cancel runs), so that it cannot set the flag during a later search.
	done := make(chan struct{})
	var watcher sync.WaitGroup
	watcher.Add(1)
	go func() {
		defer watcher.Done()
		select {
		case <-ctx.Done():
			e.stop.Store(true)
		case <-done:
		}
	}()
	defer func() {
		close(done)
		watcher.Wait()
	}()

	// Keys of the positions that can repeat: those since the last
	// placement or capture.
	var game []uint64
	for i := len(history) - 2; i >= 0 && i >= len(history)-1-root.Quiet(); i-- {
		game = append(game, history[i].Key())
	}
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxPly {
		maxDepth = MaxPly
	}
	for _, w := range e.workers {
		w.game = game
		w.nodes.Store(0)
		w.tbHits.Store(0)
		w.maxNodes = 0
		w.weights = e.weights(root.Rules())
		w.tb = e.opts.Tablebase
		if e.noTablebase {
			w.tb = nil
		}
		w.drawAfter = root.Rules().Options().DrawAfter
		w.press = e.press
		w.noise = e.opts.Noise
		w.setPos(0, root)
		o := root.Rules().Options()
		w.millWins = o.MillWins
		w.handTakes = o.PlacingCaptures == mill.CaptureFromHand
		w.blockedRemoves = o.Blocked == mill.BlockedRemoves
	}
	main := e.workers[0]
	main.maxNodes = lim.Nodes

	var res Result
	legal := root.Moves(nil)
	if len(legal) == 0 {
		return res
	}
	res.Move = legal[0]
	if len(legal) == 1 && !lim.Infinite && lim.Depth == 0 && lim.Nodes == 0 {
		maxDepth = 1 // the only move: say so quickly
	}

	// Helper threads search the same tree, a ply deeper every other one,
	// and fill the shared table (lazy SMP).
	var wg sync.WaitGroup
	for _, w := range e.workers[1:] {
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			for d := 1 + w.id%2; d <= maxDepth && !e.stop.Load(); d++ {
				w.aspiration(d, 0)
			}
		}(w)
	}

	prev := 0
	for depth := 1; depth <= maxDepth; depth++ {
		main.selDepth = 0
		main.rootMove = mill.Move{}
		var score int
		if e.opts.driver == driverMTDF {
			score = main.mtdf(depth, prev)
		} else {
			score = main.aspiration(depth, prev)
		}
		if e.stop.Load() && depth > 1 {
			// An unfinished iteration: keep the last whole one, but for
			// a root move that this one proved better than the last
			// best (searched first, it is the one to beat). Not for
			// MTD(f), whose null windows prove bounds, not a best move.
			if m := main.rootMove; e.opts.driver != driverMTDF && !m.IsZero() && m != res.Move && main.pvLen[0] > 0 && main.pv[0][0] == m {
				res.Move = m
				res.PV = append(res.PV[:0], main.pv[0][:main.pvLen[0]]...)
			}
			break
		}
		prev = score
		res.Depth = depth
		res.Score = score
		if main.pvLen[0] > 0 {
			res.Move = main.pv[0][0]
			res.PV = append(res.PV[:0], main.pv[0][:main.pvLen[0]]...)
		}
		nodes := e.nodes()
		if report != nil {
			report(Info{Depth: depth, SelDepth: main.selDepth, Score: score, Nodes: nodes,
				Time: time.Since(start), PV: append([]mill.Move(nil), res.PV...), TBHits: e.tbHits()})
		}
		if e.stop.Load() {
			break
		}
		if lim.Infinite {
			continue
		}
		if soft > 0 && time.Since(start) > soft {
			break
		}
		if IsMate(score) && MatePlies(score)+mateMargin <= depth {
			break // the end is in sight: deeper search changes nothing
		}
	}
	if lim.Infinite {
		<-ctx.Done() // "go infinite" answers only when stopped
	}
	e.stop.Store(true)
	wg.Wait()
	res.Nodes = e.nodes()
	return res
}

func (e *Engine) nodes() uint64 {
	var n uint64
	for _, w := range e.workers {
		n += w.nodes.Load()
	}
	return n
}

func (e *Engine) tbHits() uint64 {
	var n uint64
	for _, w := range e.workers {
		n += w.tbHits.Load()
	}
	return n
}

const aspirationDelta = 30

// mateMargin is how many plies deeper than a forced end the iterations go
// before they stop: reductions can hide a faster end from the iteration
// whose depth equals its length.
const mateMargin = 4

// aspiration searches the root with a window around the previous score,
// widening it when the score falls outside.
func (w *worker) aspiration(depth, prev int) int {
	if depth < 4 || IsMate(prev) {
		return w.search(0, depth, -Infinity, Infinity)
	}
	delta := aspirationDelta
	alpha, beta := prev-delta, prev+delta
	for {
		score := w.search(0, depth, alpha, beta)
		if w.e.stop.Load() {
			return score
		}
		switch {
		case score <= alpha:
			alpha = max(alpha-delta, -Infinity)
		case score >= beta:
			beta = min(beta+delta, Infinity)
		default:
			return score
		}
		delta *= 2
		if delta > 500 {
			alpha, beta = -Infinity, Infinity
		}
	}
}

// mtdf finds the root's score by null-window searches converging on it
// (Plaat's MTD(f)), starting from the previous iteration's score.
func (w *worker) mtdf(depth, guess int) int {
	lower, upper := -Infinity, Infinity
	g := guess
	for lower < upper {
		beta := max(g, lower+1)
		g = w.search(0, depth, beta-1, beta)
		if w.e.stop.Load() {
			return g
		}
		if g < beta {
			upper = g
		} else {
			lower = g
		}
	}
	return g
}
