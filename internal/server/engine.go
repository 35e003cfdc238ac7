package server

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// enginePool plays the engine's moves off the request path: a bounded
// number of workers, each with an engine of its own, take the games whose
// turn is the engine's. However many games are waiting, at most that many
// searches run, so games between people keep their processors.
type enginePool struct {
	s *Service
	// busy counts the searches running; peak is the most seen at once
	// (a test checks that it never passes the workers).
	busy, peak atomic.Int64
	mu         sync.Mutex
	queued     map[int64]bool // games waiting or being searched
	jobs       chan int64
	wg         sync.WaitGroup
	closing    chan struct{}
}

func newEnginePool(s *Service, workers, hashMB int) *enginePool {
	p := &enginePool{s: s, queued: map[int64]bool{}, jobs: make(chan int64, 1<<16), closing: make(chan struct{})}
	for i := range workers {
		e := search.New(search.Options{HashMB: hashMB})
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(i)))
		p.wg.Add(1)
		go p.work(e, rng)
	}
	return p
}

// enqueue asks for the engine's move in a game; a game already waiting is
// not queued twice.
func (p *enginePool) enqueue(id int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.queued[id] {
		return
	}
	select {
	case p.jobs <- id:
		p.queued[id] = true
		p.s.metrics.engineQueued(1)
	default:
		p.s.log.Error("engine queue full", "game", id)
	}
}

func (p *enginePool) close() {
	close(p.closing)
	p.wg.Wait()
}

func (p *enginePool) work(e *search.Engine, rng *rand.Rand) {
	defer p.wg.Done()
	for {
		select {
		case <-p.closing:
			return
		case id := <-p.jobs:
			p.s.metrics.engineQueued(-1)
			p.mu.Lock()
			delete(p.queued, id)
			p.mu.Unlock()
			for n := p.busy.Add(1); ; {
				if old := p.peak.Load(); n <= old || p.peak.CompareAndSwap(old, n) {
					break
				}
			}
			p.s.engineMove(e, rng, id)
			p.busy.Add(-1)
		}
	}
}

// engineMove searches and plays the engine's move in a game, if it is its
// turn. The owner is not held during the search: the move is played with
// the ply it was searched at, and refused if the game moved on meanwhile.
func (s *Service) engineMove(e *search.Engine, rng *rand.Rand, id int64) {
	ctx := s.ctx
	var history []mill.Position
	var ply, level int
	var lim search.Limits
	err := s.locked(ctx, id, func(o *owner) error {
		if !o.active() || o.g.EngineLevel == 0 || o.userOf(o.game.Position().SideToMove()) != s.engineID {
			return nil
		}
		history = o.game.Positions()
		ply, level = o.g.Ply, o.g.EngineLevel
		if o.control().RealTime() {
			st := o.clocks()
			now := s.now()
			lim.Time = [2]time.Duration{st.Remaining(0, now), st.Remaining(1, now)}
			lim.Inc = [2]time.Duration{o.g.Control.Increment, o.g.Control.Increment}
		}
		return nil
	})
	if err != nil || history == nil {
		return
	}
	lv := search.LevelFor(level)
	if lim.Time == [2]time.Duration{} && lv.MoveTime == 0 {
		lim.MoveTime = 5 * time.Second // a bound for the depth-limited levels
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	e.Clear()
	res := e.Choose(sctx, history, lv, lim, rng, nil)
	cancel()
	if res.Move.IsZero() || ctx.Err() != nil {
		return
	}
	text := history[len(history)-1].MoveText(res.Move)
	err = s.locked(ctx, id, func(o *owner) error {
		_, err := s.playLocked(ctx, o, s.engineID, text, ply)
		return err
	})
	if err != nil {
		s.log.Info("engine move not played", "game", id, "move", text, "err", err)
		return
	}
	s.playQueued(ctx, id)
}
