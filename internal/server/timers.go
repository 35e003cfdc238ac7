package server

import (
	"context"
	"time"

	"github.com/morrisgame/morris/internal/server/clock"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// armFlag sets a timer for the moment the running clock runs out; the
// flag then falls on the server whether or not anyone is connected.
func (o *owner) armFlag() {
	_, at, ok := o.clocks().FlagAt()
	if !ok {
		return
	}
	s, id := o.s, o.id
	o.timer = time.AfterFunc(max(at.Sub(s.now()), 0)+time.Millisecond, func() {
		// The timer's own goroutine: a panic here would end the process.
		_ = Safely(s.log, "flag timer", func() { s.checkFlag(id) }, "game", id)
	})
}

// stopTimer stops the game's flag timer; o.mu is held (Close takes it
// too: the timer's callback re-arms the timer under it).
func (o *owner) stopTimer() {
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
}

// checkFlag ends a real-time game whose running clock has run out.
func (s *Service) checkFlag(id int64) {
	if s.ctx.Err() != nil {
		return
	}
	if h := s.cfg.hooks.flag; h != nil {
		h(id)
	}
	err := s.locked(s.ctx, id, func(o *owner) error {
		if !o.active() || !o.control().RealTime() {
			return nil
		}
		side, flagged := o.clocks().Flagged(s.now())
		if !flagged {
			o.stopTimer()
			o.armFlag()
			return nil
		}
		return s.finishLocked(s.ctx, o, mill.Won(mill.Color(side).Other()), mill.Time)
	})
	if err != nil && s.ctx.Err() == nil {
		s.log.Warn("flag", "game", id, "err", err)
	}
}

// sweepFlags makes the flags fall that no process's timer did: with
// several processes on one PostgreSQL database, a game's timer lives in
// the process that last changed it, and if that process dies the others
// find the game here, FlagGrace after its time ran out, every
// Config.FlagSweepEvery. Several processes may find it: the store lets one
// end through.
func (s *Service) sweepFlags() {
	ids, err := s.st.FlaggedGames(s.ctx, s.now().Add(-FlagGrace))
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Warn("flag sweep", "err", err)
		}
		return
	}
	for _, id := range ids {
		s.log.Info("flag sweep: a flag no timer took", "game", id)
		s.checkFlag(id)
	}
}

// FlagGrace is how long after a flag's time the flag sweep takes it, so
// that a live process's own timer normally does it first.
const FlagGrace = time.Second

func intervals(vs []store.Vacation) []clock.Interval {
	out := make([]clock.Interval, len(vs))
	for i, v := range vs {
		out[i] = clock.Interval{From: v.From, To: v.To}
	}
	return out
}

// sweepTimers checks the correspondence timers (every Config.SweepEvery).
func (s *Service) sweepTimers() {
	if err := s.Sweep(s.ctx); err != nil && s.ctx.Err() == nil {
		s.log.Error("correspondence sweep", "err", err)
	}
	s.sweepTokens()
}

// every runs fn every d until the service closes; it is one of the
// service's goroutines (s.wg). A run of fn that panics is logged and the
// next one runs at its time.
func (s *Service) every(what string, d time.Duration, fn func()) {
	defer s.wg.Done()
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			_ = Safely(s.log, what, fn)
		}
	}
}

// Sweep sends the reminders that are due and forfeits the games past
// their deadline, expires the challenges nobody answered and ends the
// games against the engine their player abandoned (held.go). Several
// processes may sweep at once: the store lets one reminder through per
// turn, and one end per game.
func (s *Service) Sweep(ctx context.Context) error {
	// Moves queued through another process sharing the database, whose
	// turn came here.
	queued, err := s.st.AllQueuedMoves(ctx)
	if err != nil {
		return err
	}
	for _, q := range queued {
		_ = s.locked(ctx, q.Game, func(o *owner) error { o.queued = true; return nil })
		s.playQueued(q.Game)
	}
	if err := s.expireChallenges(ctx); err != nil {
		return err
	}
	games, err := s.st.Games(ctx, store.GameQuery{Status: store.Active})
	if err != nil {
		return err
	}
	now := s.now()
	for _, g := range games {
		untimedEngine := g.EngineLevel > 0 && g.Control == (store.TimeControl{})
		if g.Control.ForfeitDays <= 0 && g.Control.NagDays <= 0 && !untimedEngine {
			continue
		}
		err := s.locked(ctx, g.ID, func(o *owner) error {
			if !o.active() {
				return nil
			}
			if winner, ok := s.abandoned(o, now); ok {
				s.log.Info("a game against the engine abandoned", "game", o.id, "idle", now.Sub(o.g.LastMoveAt).Round(time.Second))
				return s.finishLocked(ctx, o, mill.Won(winner), mill.Abandonment)
			}
			if untimedEngine {
				return nil
			}
			nag, forfeit, err := s.deadlines(ctx, o)
			if err != nil {
				return err
			}
			toMove := o.game.Position().SideToMove()
			if !forfeit.IsZero() && !now.Before(forfeit) {
				s.log.Info("correspondence forfeit", "game", o.id, "side", toMove)
				return s.finishLocked(ctx, o, mill.Won(toMove.Other()), mill.Time)
			}
			if !nag.IsZero() && !now.Before(nag) && o.g.NagSentPly < o.g.Ply {
				ok, err := s.st.MarkNagged(ctx, o.id, o.g.Ply)
				if err != nil {
					return err
				}
				o.g.NagSentPly = o.g.Ply
				if ok {
					s.hub.publishUser(o.userOf(toMove), Event{Data: mustJSON(wire.Event{Type: "reminder", Game: o.summary()})})
					s.metrics.reminded()
				}
			}
			return nil
		})
		if err != nil {
			s.log.Warn("correspondence timers", "game", g.ID, "err", err)
		}
	}
	return nil
}
