package search

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

// placingProbePlies is the deepest ply at which the search reads the
// databases of the placing phase. With the moving phase's they are larger
// than the memory of the machines we play on (37 GB and 18 GB for nine
// men's morris), so a probe there is mostly a read from the disk: 289 µs
// a probe of a sector not in the page cache against 0.66 µs of one in it
// (3,000 random probes of 9v6 here), the time of about 700 nodes. The
// root's children read exactly are what keeps the root's value: each
// move's value is known, and the search ranks the moves of equal value
// with its own evaluation, reading the moving phase's databases (which the
// page cache holds once warm) where placing ends, as without the placing
// phase's.
const placingProbePlies = 1

// MaxPly is the deepest the search goes.
const MaxPly = 100

const maxQPly = 8 // plies of quiescence below the horizon

// Tablebase is what the search needs of endgame databases. The databases
// of package egdb satisfy it as they are: pass an *egdb.DB (egdb.Open).
type Tablebase interface {
	// Probe returns the value of p for the side to move: +1 won, 0 drawn,
	// -1 lost, with the plies to the end of the game under best play; ok is
	// false when p is not in the databases.
	Probe(p mill.Position) (result, plies int, ok bool)
}

// TablebaseFunc adapts a function to Tablebase: a probe that counts,
// filters or changes the databases' answers (tests do).
type TablebaseFunc func(p mill.Position) (result, plies int, ok bool)

// Probe calls f.
func (f TablebaseFunc) Probe(p mill.Position) (result, plies int, ok bool) { return f(p) }

// Options configure an Engine.
type Options struct {
	HashMB    int           // transposition table size in MiB (default 64)
	Threads   int           // search threads (default 1)
	Weights   *eval.Weights // evaluation, copied at the start of each search (default eval.For the rules of its root)
	Tablebase Tablebase     // endgame databases, or nil
	Noise     func(int) int // added to the evaluation (weak levels), or nil
	Book      *book.Book    // the opening book Choose plays from (levels BookLevel and up), or nil

	// driver chooses how each iteration searches the root: PVS with
	// aspiration windows (the default), or MTD(f) (kept for the measurement
	// that chose between them: docs/search.md).
	driver int
}

const (
	driverPVS = iota
	driverMTDF
)

// Info reports a finished iteration.
type Info struct {
	Depth    int
	SelDepth int
	Score    int
	Nodes    uint64
	Time     time.Duration
	PV       []mill.Move
	TBHits   uint64
}

// Result is the outcome of a search.
type Result struct {
	Move  mill.Move // zero if the game is over
	Score int
	Depth int
	Nodes uint64
	PV    []mill.Move
}

// Engine searches positions. It is not safe for concurrent searches; one
// Search at a time may run (it uses several threads itself).
type Engine struct {
	opts    Options
	tt      *table
	workers []*worker
	stop    atomic.Bool
	// press is set while Choose plays a move within a time: a position
	// the databases call drawn is not cut off with 0 but searched on, its
	// wins and losses still exact where the databases hold them. Every
	// such position is a draw with best play, but not every one is as easy
	// to hold: among the moves that keep the draw the engine takes the one
	// its search likes best, which leaves the opponent the most to get
	// wrong, while a proved win or loss outweighs any of them. Analysis
	// (Search, and Choose asked for a depth or nodes) scores them 0.
	press bool
	// noTablebase is set while Choose plays at a level below
	// TablebaseLevel: the search reads no databases.
	noTablebase bool
}

// New returns an engine.
func New(o Options) *Engine {
	if o.HashMB <= 0 {
		o.HashMB = 64
	}
	if o.Threads <= 0 {
		o.Threads = 1
	}
	e := &Engine{opts: o, tt: newTable(o.HashMB)}
	for i := 0; i < o.Threads; i++ {
		e.workers = append(e.workers, newWorker(e, i))
	}
	return e
}

// weights returns the evaluation for a search under rules r.
func (e *Engine) weights(r *mill.Rules) eval.Weights {
	if e.opts.Weights != nil {
		return *e.opts.Weights
	}
	return eval.For(r)
}

// Options returns the engine's options.
func (e *Engine) Options() Options { return e.opts }

// Clear forgets everything learned: the table, killers and history (a new game).
func (e *Engine) Clear() {
	e.tt.clear()
	for _, w := range e.workers {
		w.killers = [MaxPly + 1][2]mill.Move{}
		w.history = [2][33][33]int32{}
	}
}

type frame struct {
	pos    mill.Position
	key    uint64
	moves  []mill.Move
	scores []int32
}

// scoreInto gives the moves of the node f at ply their ordering scores
// (score) in f.scores, which grows to hold them.
func (w *worker) scoreInto(f *frame, ply int, moves []mill.Move, ttMove mill.Move) {
	if cap(f.scores) < len(moves) {
		f.scores = make([]int32, len(moves)*2)
	}
	w.score(ply, &f.pos, moves, ttMove, f.scores)
}

// stackSize is the plies of a worker's stack: the search's and the
// quiescence's below it.
const stackSize = MaxPly + maxQPly + 2

type worker struct {
	e         *Engine
	id        int
	nodes     atomic.Uint64
	tbHits    atomic.Uint64
	stack     [stackSize]frame
	killers   [MaxPly + 1][2]mill.Move
	history   [2][33][33]int32
	pv        [MaxPly + 1][MaxPly + 1]mill.Move
	pvLen     [MaxPly + 1]int
	game      []uint64 // keys of the game's reversible positions before the root
	rootPly   int
	selDepth  int
	maxNodes  uint64
	weights   eval.Weights
	tb        Tablebase
	drawAfter int // the root's no-progress draw (plies), 0 if none
	press     bool
	noise     func(int) int
	rootMove  mill.Move // the last root move of this iteration that raised alpha
	rootDepth int       // the depth of the iteration: extensions stop at twice it

	// The sums of the evaluation's nets by ply (eval.Accumulator), [0]
	// for its Net and [1] for its PlacingNet, and whether those of a ply
	// are the sums of the ply's position: setPos clears that, and evaluate
	// brings them up to date from the nearest ply above that has them.
	acc   [2][stackSize]eval.Accumulator
	accOK [2][stackSize]bool
	// scratchNets makes evaluate sum the nets' inputs afresh at every
	// position (Weights.Evaluate): tests compare the two ways.
	scratchNets bool

	// The root's rules, as the quiescence search and the ordering need
	// them: a mill wins the game (mill-wins); a placement's mill takes
	// from the opponent's hand (placing-captures=hand), a capture that
	// names no piece; a blocked side removes a piece (blocked=removes).
	millWins, handTakes, blockedRemoves bool
}

func newWorker(e *Engine, id int) *worker {
	w := &worker{e: e, id: id}
	for i := range w.stack {
		w.stack[i].moves = make([]mill.Move, 0, 256)
		w.stack[i].scores = make([]int32, 256)
	}
	return w
}

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

func (w *worker) stopped() bool {
	n := w.nodes.Add(1)
	if n&1023 == 0 && w.maxNodes > 0 && n >= w.maxNodes {
		w.e.stop.Store(true)
	}
	return w.e.stop.Load()
}

// repeated reports whether the position at ply has occurred before, in the
// search path or in the game: a draw under the repetition rule (we score the
// first repetition as a draw, as a player who can repeat once can repeat again).
func (w *worker) repeated(ply int) bool {
	p := &w.stack[ply].pos
	if p.Rules().Options().Repetition == 0 {
		return false
	}
	key := w.stack[ply].key
	quiet := p.Quiet()
	for i := ply - 2; i >= 0 && ply-i <= quiet; i -= 2 {
		if w.stack[i].key == key {
			return true
		}
	}
	// The game before the root: game[0] is the position just before it.
	for i := range w.game {
		back := ply + 1 + i
		if back > quiet {
			break
		}
		if back%2 == 0 && w.game[i] == key {
			return true
		}
	}
	return false
}

func terminal(p *mill.Position, ply int) int {
	o, _ := p.Status()
	switch o {
	case mill.Draw, mill.NoOutcome:
		return 0
	case mill.Won(p.SideToMove()):
		return Mate - ply
	}
	return -(Mate - ply)
}

// setPos puts p on the stack at ply: the position a search or quiescence
// of that ply works on.
func (w *worker) setPos(ply int, p mill.Position) {
	w.stack[ply].pos = p
	w.accOK[0][ply], w.accOK[1][ply] = false, false
}

// evaluate returns the evaluation of the position at ply. The nets' sums
// are kept by ply (netOutput), so that a net costs the pieces that moved,
// not the pieces on the board.
func (w *worker) evaluate(ply int) int {
	p := &w.stack[ply].pos
	var s int
	if w.scratchNets {
		s = w.weights.Evaluate(p)
	} else {
		s = w.weights.Linear(p)
		if k, n := w.weights.NetFor(p); n != nil {
			s += w.netOutput(k, n, ply)
		}
	}
	if w.noise != nil {
		s += w.noise(s)
	}
	return s
}

// netOutput returns the output of net k (as Weights.NetFor numbers
// them), n, for the position at ply, bringing its sums there up to
// date: from the nearest ply above whose sums are kept, move by move, or
// from the pieces of the root.
func (w *worker) netOutput(k int, n *eval.Net, ply int) int {
	acc, ok := &w.acc[k], &w.accOK[k]
	from := ply
	for from > 0 && !ok[from] {
		from--
	}
	if !ok[from] {
		n.Init(&acc[from], &w.stack[from].pos)
		ok[from] = true
	}
	for i := from + 1; i <= ply; i++ {
		n.Update(&acc[i], &acc[i-1], &w.stack[i-1].pos, &w.stack[i].pos)
		ok[i] = true
	}
	return n.Output(&acc[ply], &w.stack[ply].pos)
}

func toTT(score, ply int) int {
	switch {
	case score > MateBound:
		return score + ply
	case score < -MateBound:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score > MateBound:
		return score - ply
	case score < -MateBound:
		return score + ply
	}
	return score
}

// Late move reductions: a quiet move searched after the first lmrFrom moves
// of a node (its hash move, captures and killers first) is searched
// lmr[depth][i] plies shallower, one less at a principal-variation node,
// and again at full depth when it beats alpha. The reduction grows with the
// logarithms of the depth and of the move's index (ln d · ln i / 2),
// measured against the earlier fixed 1-or-2 ply reduction in
// docs/search.md.
const lmrFrom = 3

// lowMobility is the most moves a node may have for its replies to be
// searched a ply deeper.
const lowMobility = 2

var lmr = func() (t [64][64]int8) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(0.5 + math.Log(float64(d))*math.Log(float64(i))/2)
		}
	}
	return t
}()

// window returns the window in which to search a child of a node searched
// in (alpha, beta), and the sign that turns the child's score into the
// node's. Negamax negates both; but where the same side moves again (a
// removal owed when placing ends, a blocked side's removal, the second
// player moving first after placing last: same), the child's score is
// already the node's, and so is its window. It is inlined: the alternating
// case pays a predictable branch.
func window(alpha, beta int, same bool) (lo, hi, sign int) {
	if same {
		return alpha, beta, 1
	}
	return -beta, -alpha, -1
}

// search is a principal variation search of the position at ply.
func (w *worker) search(ply, depth, alpha, beta int) int {
	if ply == 0 {
		w.rootDepth = depth
	}
	f := &w.stack[ply]
	p := &f.pos
	f.key = p.Key()
	w.pvLen[ply] = 0
	if w.stopped() && ply > 0 {
		return 0
	}
	if ply > w.selDepth {
		w.selDepth = ply
	}
	if ply > 0 {
		if w.repeated(ply) {
			return 0
		}
		// Mate distance pruning: no result here beats a shorter one found.
		// The side to move wins at the next ply at the soonest, or here
		// when it has just moved too (a removal that leaves the opponent
		// two pieces, and the same side to move).
		alpha = max(alpha, -(Mate - ply))
		if w.stack[ply-1].pos.SideToMove() == p.SideToMove() {
			beta = min(beta, Mate-ply)
		} else {
			beta = min(beta, Mate-ply-1)
		}
		if alpha >= beta {
			return alpha
		}
		if w.tb != nil && (ply <= placingProbePlies || p.InHand(mill.White)+p.InHand(mill.Black) == 0) {
			if res, plies, ok := w.tb.Probe(*p); ok {
				w.tbHits.Add(1)
				switch {
				case res != 0 && w.drawAfter > 0 && p.Quiet()+plies >= w.drawAfter:
					// The databases know nothing of the no-progress
					// draw: this win (or loss) may take longer than the
					// plies left before it, so it is not proved. In the
					// moving phase it is searched on, where a capture on
					// the way makes it exact again, and scored TBWin less
					// its plies at the leaves (see TBWin). A placing
					// position is scored so at once: below it the search
					// reads no placing databases (placingProbePlies), so
					// searching on would trade the databases' value for
					// the evaluation's guess, and a move into a loss of
					// 124 plies looked as good as the one draw.
					if depth <= 0 || p.InHand(mill.White)+p.InHand(mill.Black) > 0 {
						if res > 0 {
							return TBWin - plies
						}
						return -(TBWin - plies)
					}
				case res > 0:
					return Mate - ply - plies
				case res < 0:
					return -(Mate - ply - plies)
				case !w.press:
					return 0
				}
				// At play a drawn position is searched on (see press).
			}
		}
	}
	if ply >= MaxPly {
		return w.evaluate(ply)
	}
	if depth <= 0 {
		return w.quiesce(ply, alpha, beta, 0)
	}
	pvNode := beta-alpha > 1
	ttMove, ttScore, ttDepth, ttBound, hit := w.e.tt.probe(f.key)
	if hit && ply > 0 && !pvNode && ttDepth >= depth {
		s := fromTT(ttScore, ply)
		switch {
		case ttBound == boundExact,
			ttBound == boundLower && s >= beta,
			ttBound == boundUpper && s <= alpha:
			return s
		}
	}
	moves := p.Moves(f.moves[:0])
	f.moves = moves[:0]
	if len(moves) == 0 {
		return terminal(p, ply)
	}
	w.scoreInto(f, ply, moves, ttMove)

	// A side with one or two moves is near a blockade: its replies are
	// searched a ply deeper (the few moves cost little), so that a
	// blockade closing in is seen before the horizon hides it.
	ext := 0
	if len(moves) <= lowMobility && ply < 2*w.rootDepth {
		ext = 1
	}
	origAlpha := alpha
	best := -Infinity
	var bestMove mill.Move
	us := p.SideToMove()
	for i := range moves {
		pickBest(moves, f.scores, i)
		m := moves[i]
		w.setPos(ply+1, p.Play(m))
		same := w.stack[ply+1].pos.SideToMove() == us
		var score int
		if i == 0 {
			lo, hi, sign := window(alpha, beta, same)
			score = sign * w.search(ply+1, depth-1+ext, lo, hi)
		} else {
			r := 0
			if depth >= 3 && i >= lmrFrom && m.NumCaptures() == 0 && f.scores[i] < orderKiller {
				r = int(lmr[min(depth, len(lmr)-1)][min(i, len(lmr[0])-1)])
				if pvNode {
					r--
				}
				r = max(0, min(r, depth-2))
			}
			lo, hi, sign := window(alpha, alpha+1, same)
			score = sign * w.search(ply+1, depth-1+ext-r, lo, hi)
			if score > alpha && (r > 0 || score < beta) {
				lo, hi, sign = window(alpha, beta, same)
				score = sign * w.search(ply+1, depth-1+ext, lo, hi)
			}
		}
		if w.e.stop.Load() {
			if ply > 0 {
				return 0
			}
			// At the root: keep what is searched, but not this move,
			// whose search was cut off and whose score means nothing.
			break
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				w.pv[ply][0] = m
				copy(w.pv[ply][1:], w.pv[ply+1][:w.pvLen[ply+1]])
				w.pvLen[ply] = w.pvLen[ply+1] + 1
				if ply == 0 {
					w.rootMove = m
				}
				if score >= beta {
					w.rememberCut(ply, us, m, depth)
					break
				}
			}
		}
	}
	bound := boundExact
	switch {
	case best >= beta:
		bound = boundLower
	case best <= origAlpha:
		bound = boundUpper
	}
	if !w.e.stop.Load() {
		w.e.tt.store(f.key, bestMove, toTT(best, ply), depth, bound)
	}
	return best
}

// closingMoves appends to dst the moves of p that close a mill of the side
// to move and returns it: under mill-wins they win the game, so the
// quiescence search looks at them as it looks at captures elsewhere.
func closingMoves(p *mill.Position, dst []mill.Move) []mill.Move {
	us := p.SideToMove()
	ms := p.Moves(dst)
	n := 0
	for _, m := range ms {
		if np := p.Play(m); np.InMills(us) != 0 {
			ms[n] = m
			n++
		}
	}
	return ms[:n]
}

// handTakes filters moves, the legal moves of p, down to those that take
// something: the captures, and the placements that close a mill of the side
// to move, which under placing-captures=hand take from the opponent's hand
// and name no capture.
func handTakes(p *mill.Position, moves []mill.Move) []mill.Move {
	holes, _ := twos(p, p.SideToMove())
	n := 0
	for _, m := range moves {
		if m.NumCaptures() > 0 || (m.Kind() == mill.PlaceMove && holes.Has(m.To())) {
			moves[n] = m
			n++
		}
	}
	return moves[:n]
}

// takes filters moves down to the captures, in place.
func takes(moves []mill.Move) []mill.Move {
	n := 0
	for _, m := range moves {
		if m.NumCaptures() > 0 {
			moves[n] = m
			n++
		}
	}
	return moves[:n]
}

// quiesce searches captures only (the moves that win, under mill-wins), standing pat on the evaluation, so that
// the horizon does not fall in the middle of an exchange of pieces. A side
// that must remove (a removal owed, or a blocked side's under
// blocked=removes) cannot stand pat: every removal is searched. Under
// placing-captures=hand the placements whose mill takes from the
// opponent's hand count as captures.
func (w *worker) quiesce(ply, alpha, beta, qply int) int {
	f := &w.stack[ply]
	p := &f.pos
	w.pvLen[ply] = 0
	if w.stopped() {
		return 0
	}
	if ply > w.selDepth {
		w.selDepth = ply
	}
	us := p.SideToMove()
	_, forced := p.Pending()
	var moves []mill.Move
	if !forced && w.blockedRemoves {
		// Only the whole list says whether the side is blocked and removes.
		moves = p.Moves(f.moves[:0])
		if len(moves) == 0 {
			return terminal(p, ply)
		}
		forced = moves[0].Kind() == mill.RemoveMove
	}
	stand := 0
	switch {
	case forced:
		if moves == nil {
			moves = p.Moves(f.moves[:0])
		}
		if len(moves) == 0 {
			return terminal(p, ply)
		}
	default:
		if moves == nil && !p.HasMoves() {
			return terminal(p, ply)
		}
		stand = w.evaluate(ply)
		if stand >= beta || qply >= maxQPly {
			return stand
		}
		alpha = max(alpha, stand)
		switch {
		case w.millWins:
			moves = closingMoves(p, f.moves[:0])
		case w.handTakes && p.InHand(us) > 0 && p.InHand(us.Other()) > 0:
			if moves == nil {
				moves = p.Moves(f.moves[:0])
			}
			moves = handTakes(p, moves)
		case moves != nil:
			moves = takes(moves)
		default:
			moves = p.Captures(f.moves[:0])
		}
	}
	f.moves = moves[:0]
	best := stand
	if forced {
		best = -Infinity
	}
	// Taken best first, as the search orders its moves (the pieces that
	// threaten a mill first): where any piece may be taken and mills close
	// while placing (twelve-man-morris), a mill offers a dozen captures at
	// every ply of an exchange, and in the order generated a quiescence
	// search of the placing phase ran to millions of nodes.
	if len(moves) > 1 {
		w.scoreInto(f, ply, moves, mill.Move{})
	}
	for i := range moves {
		pickBest(moves, f.scores, i) // nothing to pick among one move
		m := moves[i]
		w.setPos(ply+1, p.Play(m))
		lo, hi, sign := window(alpha, beta, w.stack[ply+1].pos.SideToMove() == us)
		score := sign * w.quiesce(ply+1, lo, hi, qply+1)
		if w.e.stop.Load() {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// Quiesce returns the score of p for the side to move by the quiescence
// search alone: the evaluation once the captures (and removals owed) have
// been played out. Tuning fits the evaluation's weights against deeper
// searches with it (internal/engine/tune). It uses the first thread's stack and
// must not run during a Search.
func (e *Engine) Quiesce(p mill.Position) int {
	w := e.workers[0]
	e.stop.Store(false)
	w.maxNodes = 0
	w.weights = e.weights(p.Rules())
	w.noise = nil
	o := p.Rules().Options()
	w.millWins = o.MillWins
	w.handTakes = o.PlacingCaptures == mill.CaptureFromHand
	w.blockedRemoves = o.Blocked == mill.BlockedRemoves
	w.setPos(0, p)
	return w.quiesce(0, -Infinity, Infinity, 0)
}
