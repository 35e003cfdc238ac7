package server

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// enginePool plays the engine's moves off the request path: a bounded
// number of workers, each with an engine of its own, take the games whose
// turn is the engine's. However many games are waiting, at most that many
// searches run, so games between people keep their processors.
//
// The turns are jobs in the store (store.QueueEngineJob), not in memory,
// so that every process sharing a PostgreSQL database takes them: adding
// a process adds workers, and a job taken by a process that dies in the
// middle of its search is taken again by another once its lease (jobLease)
// has run out. A worker looks for a job when it is woken (a job queued
// here, or through the relay by another process) and at least every
// jobPoll. The store hands the jobs out round robin by player
// (store.TakeEngineJob), so that one player's many games do not keep the
// others' waiting; Quotas.EngineGames bounds how many a player has.
type enginePool struct {
	s *Service
	// busy counts the searches running; peak is the most seen at once
	// (a test checks that it never passes the workers).
	busy, peak atomic.Int64
	wake       chan struct{} // a job may be waiting
	wg         sync.WaitGroup
	closing    chan struct{}
}

// jobPoll is how often an idle worker looks for jobs it was not told of.
const jobPoll = time.Second

func newEnginePool(s *Service, workers int) *enginePool {
	p := &enginePool{s: s, wake: make(chan struct{}, workers), closing: make(chan struct{})}
	for i := range workers {
		e := s.newEngine()
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(i)))
		p.wg.Add(1)
		go p.work(e, rng, i)
	}
	return p
}

// engine is a search engine of the server, built as `morris engine` builds
// its own (internal/engine/uci): one thread, a table of Config.EngineHashMB (64
// MiB, the engine's default Hash), and the endgame databases. It keeps
// what it learns as the engine protocol does: the table lives through the
// moves of a game and is cleared when the engine turns to another game
// (ucinewgame). An engine runs one search at a time.
type engine struct {
	*search.Engine
	tb    *tbGate // nil without databases
	table string  // what the table was filled for: "game 101", "analysis RULES"; "" for nothing
}

// tbGate passes the search's probes to the databases while it is open. It
// is opened for a search under rules the databases were built for and shut
// otherwise: one engine serves games of every variant, and a game of other
// rules must not probe them.
type tbGate struct {
	tb   search.Tablebase // the databases (*egdb.DB)
	open bool
}

func (g *tbGate) Probe(p mill.Position) (result, plies int, ok bool) {
	if !g.open {
		return 0, 0, false
	}
	return g.tb.Probe(p)
}

func (s *Service) newEngine() *engine {
	en := &engine{}
	o := search.Options{HashMB: s.cfg.EngineHashMB, Threads: 1, Book: book.Default()}
	if db := s.cfg.Tablebase; db != nil {
		en.tb = &tbGate{tb: db}
		o.Tablebase = en.tb
	}
	en.Engine = search.New(o)
	return en
}

// prepare readies en for a search for table (a game, or the analysis of a
// rule set) under rules r: the table is cleared if it was filled for
// something else, and the databases are probed only if they cover r. It
// reports whether they are.
func (en *engine) prepare(table string, r *mill.Rules, db egdb.Perfect) bool {
	if en.table != table {
		en.Clear()
		en.table = table
	}
	if en.tb == nil {
		return false
	}
	en.tb.open = db.Covers(r)
	return en.tb.open
}

// enqueue asks for the engine's move in a game at ply: a job in the store,
// which this process's workers are told of at once and the others through
// the relay.
func (p *enginePool) enqueue(id int64, ply int) {
	if err := p.s.st.QueueEngineJob(p.s.ctx, id, ply, p.s.now()); err != nil {
		if p.s.ctx.Err() == nil {
			p.s.log.Error("queueing the engine's move", "game", id, "err", err)
		}
		return
	}
	p.poke()
	p.s.hub.relayJob()
}

// poke wakes an idle worker, if one is asleep.
func (p *enginePool) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *enginePool) close() {
	close(p.closing)
	p.wg.Wait()
}

// take takes a job that is free, if any: a read first, so that idle
// workers polling cost no writes.
func (p *enginePool) take(worker string) (store.EngineJob, bool) {
	ctx, now := p.s.ctx, p.s.now()
	n, err := p.s.st.EngineJobsWaiting(ctx, now)
	if err == nil {
		p.s.metrics.engineWaiting(n)
	}
	if err != nil || n == 0 {
		return store.EngineJob{}, false
	}
	j, ok, err := p.s.st.TakeEngineJob(ctx, worker, now, p.s.cfg.EngineLease)
	if err != nil {
		if ctx.Err() == nil {
			p.s.log.Warn("taking an engine job", "err", err)
		}
		return store.EngineJob{}, false
	}
	return j, ok
}

func (p *enginePool) work(e *engine, rng *rand.Rand, i int) {
	defer p.wg.Done()
	worker := p.s.process + "/" + strconv.Itoa(i)
	poll := time.NewTicker(jobPoll + time.Duration(i)*37*time.Millisecond)
	defer poll.Stop()
	for {
		j, ok := p.take(worker)
		if !ok {
			select {
			case <-p.closing:
				return
			case <-p.wake:
			case <-poll.C:
			}
			continue
		}
		for n := p.busy.Add(1); ; {
			if old := p.peak.Load(); n <= old || p.peak.CompareAndSwap(old, n) {
				break
			}
		}
		var out jobOutcome
		if err := Safely(p.s.log, "engine move", func() { out = p.s.engineMove(e, rng, j.Game, j.Ply) }, "game", j.Game, "ply", j.Ply); err != nil {
			// A search or a move that panics would panic again on the
			// same position: the job fails for good, and the engine,
			// stopped in the middle of whatever it was doing, is built
			// afresh.
			out = jobFailed
			e = p.s.newEngine()
		}
		p.busy.Add(-1)
		if p.s.ctx.Err() != nil {
			// Stopped in the middle: the job goes back for another
			// process to take now rather than when its lease runs out.
			ctx, cancel := context.WithTimeout(context.WithoutCancel(p.s.ctx), 5*time.Second)
			if err := p.s.st.ReleaseEngineJob(ctx, j.Game, j.Ply, worker); err != nil {
				p.s.log.Warn("giving an engine job back", "game", j.Game, "err", err)
			}
			cancel()
			return
		}
		switch out {
		case jobRetry:
			// The move was not stored (or the game not read): the job
			// stays taken, and is taken again, here or by another
			// process, when its lease runs out (Config.EngineLease).
		case jobFailed:
			p.s.engineFailed(j.Game, j.Ply)
			fallthrough
		default:
			if err := p.s.st.DoneEngineJob(p.s.ctx, j.Game, j.Ply); err != nil && p.s.ctx.Err() == nil {
				p.s.log.Warn("an engine job done", "game", j.Game, "err", err)
			}
		}
		select {
		case <-p.closing:
			return
		default:
		}
	}
}

// jobOutcome is what became of an engine job.
type jobOutcome int

const (
	// jobDone: the move was stored, or the game no longer waits for it
	// (over, moved on, not the engine's turn): the job goes.
	jobDone jobOutcome = iota
	// jobRetry: the move could not be stored, or the game not read (the
	// store failing, a full disk): the job stays, to be tried again.
	jobRetry
	// jobFailed: the search or the move failed in a way that another try
	// would repeat (a panic, no move, a move the rules refuse): the job
	// goes and the game ends (engineFailed).
	jobFailed
)

// engineMove searches and plays the engine's move in a game at ply, if it
// is its turn there, and says what became of the job. The owner is not
// held during the search: the move is played with the ply it was searched
// at, and refused if the game moved on meanwhile.
func (s *Service) engineMove(e *engine, rng *rand.Rand, id int64, atPly int) jobOutcome {
	ctx := s.ctx
	var history []mill.Position
	var ply, level int
	var lim search.Limits
	err := s.locked(ctx, id, func(o *owner) error {
		if !o.active() || o.g.Ply != atPly || o.g.EngineLevel == 0 || o.userOf(o.game.Position().SideToMove()) != s.engineID {
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
	switch {
	case KindOf(err) == NotFound:
		return jobDone
	case err != nil:
		if ctx.Err() == nil {
			s.log.Warn("engine move: reading the game", "game", id, "err", err)
		}
		return jobRetry
	case history == nil:
		return jobDone
	}
	if h := s.cfg.hooks.engineMove; h != nil {
		h(id)
	}
	// Without a clock the level's own time decides, as for a go without
	// limits in the engine protocol; the levels that have none (they stop at
	// a depth) get a bound that they do not reach on a healthy server.
	if lim.Time == [2]time.Duration{} && search.LevelFor(level).MoveTime == 0 {
		lim.MoveTime = 5 * time.Second
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	res, _ := s.think(sctx, e, id, history, level, lim, rng)
	cancel()
	if ctx.Err() != nil {
		return jobRetry // closing: the caller gives the job back
	}
	if res.Move.IsZero() {
		s.log.Error("engine move: the search found no move", "game", id, "ply", ply)
		return jobFailed
	}
	text := history[len(history)-1].MoveText(res.Move)
	err = s.locked(ctx, id, func(o *owner) error {
		_, err := s.playLocked(ctx, o, s.engineID, text, ply)
		return err
	})
	switch k := KindOf(err); {
	case err == nil:
	case k == Conflict || k == Forbidden || k == NotFound:
		// The game moved on meanwhile (a take-back, an end, another
		// process's move): this move is no longer wanted.
		s.log.Info("engine move not played", "game", id, "move", text, "err", err)
		return jobDone
	case k == BadRequest:
		s.log.Error("engine move refused by the rules", "game", id, "move", text, "err", err)
		return jobFailed
	default:
		// Not stored (the store failing): another try will do.
		s.log.Warn("engine move not stored: to be tried again", "game", id, "move", text, "err", err)
		return jobRetry
	}
	s.playQueued(id)
	return jobDone
}

// engineFailed ends a game whose engine move failed for good (jobFailed):
// the engine cannot play on from there, so rather than leave the player
// waiting for a move that never comes, it abandons the game, which the
// player wins. A game that moved on meanwhile is left alone.
func (s *Service) engineFailed(id int64, ply int) {
	err := s.locked(s.ctx, id, func(o *owner) error {
		side := o.game.Position().SideToMove()
		if !o.active() || o.g.Ply != ply || o.userOf(side) != s.engineID {
			return nil
		}
		s.log.Error("engine move failed: the engine abandons the game", "game", id, "ply", ply)
		return s.finishLocked(s.ctx, o, mill.Won(side.Other()), mill.Abandonment)
	})
	if err != nil && s.ctx.Err() == nil {
		s.log.Error("engine move failed: ending the game", "game", id, "err", err)
	}
}

// think chooses the engine's move in the last position of history (game
// id's positions, start first, so that the search sees repetitions) at a
// level, as `morris engine` answers go with the same limits: the level's
// choice (search.Engine.Choose) by an engine prepared for the game. It
// returns the search's result and the probes of the databases that hit.
func (s *Service) think(ctx context.Context, e *engine, id int64, history []mill.Position, level int, lim search.Limits, rng *rand.Rand) (search.Result, uint64) {
	root := history[len(history)-1]
	e.prepare("game "+strconv.FormatInt(id, 10), root.Rules(), s.cfg.Tablebase)
	var hits uint64
	res := e.Choose(ctx, history, search.LevelFor(level), lim, rng, func(in search.Info) { hits = in.TBHits })
	s.metrics.tablebaseHits(hits)
	return res, hits
}
