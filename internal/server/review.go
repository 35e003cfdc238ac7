package server

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/review"
	"github.com/morrisgame/morris/search"
)

// Game reviews: anyone may ask for the engine's review of a finished game
// (package review: every move judged against the engine's best). The
// review runs off the request path, one at a time in each process, in
// whichever process takes it first (the reviews table, with a lease, as
// the engine's moves); its progress is stored as it goes, and the finished
// review is kept with the game for everyone who opens it.

// reviewLease is how long a review taken by a process stays its own
// without a word of progress; another process takes it after that.
const reviewLease = time.Minute

// RequestReview asks for the review of a finished game, for a caller at
// address from, and returns where it stands (done at once if it was done
// before). A new review spends from's review rate and takes one of its
// slots (reviewSlot).
func (s *Service) RequestReview(ctx context.Context, from string, id int64) (wire.Review, error) {
	// The game's row says what is needed (its end, its moves' count):
	// the moves themselves are the worker's to read.
	g, err := s.st.Game(ctx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return wire.Review{}, errorf(NotFound, "no game %d", id)
		}
		return wire.Review{}, err
	}
	if g.Status != store.Finished {
		return wire.Review{}, errorf(Conflict, "game %d is not over: a game is reviewed when it has ended", id)
	}
	if g.Ply == 0 {
		return wire.Review{}, errorf(Conflict, "game %d has no move to review", id)
	}
	if r, err := s.st.Review(ctx, id); err == nil {
		return wireReview(r) // asked for already: nothing new to do
	} else if !errors.Is(err, store.ErrNotFound) {
		return wire.Review{}, err
	}
	slot, err := s.reviewSlot(ctx, from)
	if err != nil {
		return wire.Review{}, err
	}
	r, err := s.st.RequestReview(ctx, id, g.Ply, s.now())
	slot(r.ID, err)
	if err != nil {
		return wire.Review{}, err
	}
	s.wakeReviewer()
	return wireReview(r)
}

// Review returns a game's review, status "none" if nobody asked for one;
// NotFound if there is no such game.
func (s *Service) Review(ctx context.Context, id int64) (wire.Review, error) {
	r, err := s.st.Review(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		if _, gerr := s.st.GameVersion(ctx, id); errors.Is(gerr, store.ErrNotFound) {
			return wire.Review{}, errorf(NotFound, "no game %d", id)
		} else if gerr != nil {
			return wire.Review{}, gerr
		}
		return wire.Review{Game: id, Status: "none"}, nil
	}
	if err != nil {
		return wire.Review{}, err
	}
	return wireReview(r)
}

func wireReview(r store.Review) (wire.Review, error) {
	if r.Status == store.ReviewDone {
		var w wire.Review
		if err := json.Unmarshal([]byte(r.Result), &w); err != nil {
			return wire.Review{}, fmt.Errorf("server: the stored review %d: %w", r.ID, err)
		}
		w.ID, w.Game = r.ID, r.Game
		return w, nil
	}
	if r.Status == store.ReviewFailed {
		return wire.Review{ID: r.ID, Game: r.Game, Status: string(r.Status), Done: r.Done, Total: r.Total, Error: r.Result}, nil
	}
	return wire.Review{ID: r.ID, Game: r.Game, Status: string(r.Status), Done: r.Done, Total: r.Total}, nil
}

// MaxRecordReviews is how many reviews of moves from elsewhere may wait
// at once; one more is refused until the engine has caught up.
const MaxRecordReviews = 20

// RequestRecordReview asks for the review of moves from elsewhere (an
// imported record): the position they start from (its text, or "" for the
// start of rules), checked by the rules core. It runs as a game's does,
// one at a time in each process; the answer's id is for RecordReview. It
// spends the review rate of the caller's address from and takes one of
// its slots (reviewSlot).
func (s *Service) RequestRecordReview(ctx context.Context, from, rules, start string, moves []string) (wire.Review, error) {
	if len(moves) == 0 || len(moves) > 1000 {
		return wire.Review{}, errorf(BadRequest, "a review takes 1 to 1000 moves, not %d", len(moves))
	}
	g, err := recordGame(rules, start, moves)
	if err != nil {
		return wire.Review{}, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
	}
	if start != "" {
		start = g.Start().String()
	}
	// The moves in standard notation, each from the position it was played in.
	ps := g.Positions()
	texts := make([]string, 0, len(moves))
	for i, m := range g.Moves() {
		texts = append(texts, ps[i].MoveText(m))
	}
	slot, err := s.reviewSlot(ctx, from)
	if err != nil {
		return wire.Review{}, err
	}
	r, err := s.st.RequestRecordReview(ctx, g.Rules().String(), start, texts, s.now(), MaxRecordReviews)
	slot(r.ID, err)
	if errors.Is(err, store.ErrBusy) {
		return wire.Review{}, errorf(Unavailable, "the engine has %d reviews to do already: ask again in a while", MaxRecordReviews)
	}
	if err != nil {
		return wire.Review{}, err
	}
	s.wakeReviewer()
	return wireReview(r)
}

// RecordReview returns a review of moves from elsewhere by its id.
func (s *Service) RecordReview(ctx context.Context, id int64) (wire.Review, error) {
	r, err := s.st.ReviewByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.Review{}, errorf(NotFound, "no review %d", id)
	}
	if err != nil {
		return wire.Review{}, err
	}
	return wireReview(r)
}

// recordGame replays moves (in either notation) from start, or from the
// start of rules when start is "".
func recordGame(rules, start string, moves []string) (*mill.Game, error) {
	var g *mill.Game
	if start != "" {
		p, err := mill.ParsePosition(start)
		if err != nil {
			return nil, err
		}
		g = mill.NewGame(p.Rules(), mill.FromPosition(p))
	} else {
		r, err := mill.ParseRules(cmp.Or(rules, "nine-mens-morris"))
		if err != nil {
			return nil, err
		}
		var opts []mill.GameOption
		if r.Options().FirstPlayer == mill.FirstLot {
			opts = append(opts, mill.WithSeed(0))
		}
		g = mill.NewGame(r, opts...)
	}
	for i, m := range moves {
		if err := g.PlayText(strings.TrimSpace(m)); err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, m, err)
		}
	}
	return g, nil
}

// reviewer is the process's review worker; one of the service's
// goroutines (s.wg).
func (s *Service) reviewer() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.ReviewPollEvery)
	defer t.Stop()
	var e *engine
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.reviewKick:
		case <-t.C:
		}
		for s.ctx.Err() == nil {
			r, ok, err := s.st.TakeReview(s.ctx, s.process, s.now(), reviewLease)
			if err != nil {
				if s.ctx.Err() == nil {
					s.log.Warn("review: taking one", "err", err)
				}
				break
			}
			if !ok {
				break
			}
			if e == nil {
				e = s.newEngine()
			}
			if perr := Safely(s.log, "review", func() { err = s.runReview(s.ctx, e, r) }, "review", r.ID, "game", r.Game); perr != nil {
				// It would panic again: failed for good, and the
				// engine, stopped in the middle, is built afresh.
				e = nil
				s.failReview(r, "the engine failed on this review")
				continue
			}
			var bad *unreviewable
			switch {
			case errors.As(err, &bad):
				s.log.Error("review: cannot be done", "review", r.ID, "game", r.Game, "err", err)
				s.failReview(r, bad.Error())
			case err != nil && s.ctx.Err() == nil:
				// Most likely the store: the review is taken again when
				// its lease runs out.
				s.log.Warn("review", "review", r.ID, "game", r.Game, "err", err)
			}
		}
	}
}

// unreviewable is a review that no other try can do: the game's moves do
// not replay.
type unreviewable struct{ err error }

func (u *unreviewable) Error() string {
	return "this review cannot be done: the moves do not replay (" + u.err.Error() + ")"
}
func (u *unreviewable) Unwrap() error { return u.err }

// failReview marks a review failed for good (store.ReviewFailed), why
// being what its readers are told.
func (s *Service) failReview(r store.Review, why string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 5*time.Second)
	defer cancel()
	if err := s.st.FailReview(ctx, r.ID, s.process, why, s.now()); err != nil {
		s.log.Warn("review: marking it failed", "review", r.ID, "err", err)
	}
}

// runReview reviews a game taken by this process and stores the result.
func (s *Service) runReview(ctx context.Context, e *engine, rv store.Review) error {
	var g *mill.Game
	if rv.Game != 0 {
		snap, err := s.st.Snapshot(ctx, rv.Game)
		if err != nil {
			return err
		}
		if g, err = Replay(snap.Game, snap.Moves); err != nil {
			return &unreviewable{err}
		}
	} else {
		var err error
		if g, err = recordGame(rv.Rules, rv.Start, rv.Moves); err != nil {
			return &unreviewable{err}
		}
	}
	if h := s.cfg.hooks.review; h != nil {
		h(rv.ID)
	}
	id := rv.ID
	// The databases, where they cover the game's rules, score the
	// positions they hold exactly.
	e.prepare("review "+strconv.FormatInt(id, 10), g.Rules(), s.cfg.Tablebase)
	lim := s.cfg.ReviewLimits
	last := time.Now()
	moves, err := review.Game(ctx, e.Engine, g, lim, func(done, total int) {
		if time.Since(last) < 500*time.Millisecond && done < total {
			return
		}
		last = time.Now()
		now := s.now()
		if perr := s.st.ReviewProgress(ctx, id, s.process, done, total, now, now.Add(reviewLease)); perr != nil && ctx.Err() == nil {
			s.log.Warn("review: progress", "game", id, "err", perr)
		}
	})
	if err != nil {
		return err
	}
	w := wire.Review{ID: id, Game: rv.Game, Status: string(store.ReviewDone), Done: len(moves), Total: len(moves),
		Depth: lim.Depth, MoveTimeMs: int(lim.MoveTime.Milliseconds())}
	const bound = 1000
	clamp := func(v int) int {
		if search.IsMate(v) {
			if v > 0 {
				return bound
			}
			return -bound
		}
		return max(-bound, min(bound, v))
	}
	for i, m := range moves {
		b := m.Before
		if i == 0 {
			w.Evals = append(w.Evals, clamp(m.White(m.BestScore)))
		}
		w.Evals = append(w.Evals, clamp(m.White(m.PlayedScore)))
		w.Moves = append(w.Moves, wire.ReviewMove{
			Ply: m.Ply, Side: colorName(m.Side), Move: b.MoveText(m.Played), Best: b.MoveText(m.Best),
			Score: m.BestScore, ScoreText: search.ScoreTextAlong(b, m.BestLine, m.BestScore),
			Played: m.PlayedScore, PlayedText: search.ScoreTextAlong(b, m.PlayedLine, m.PlayedScore),
			Proved: provedText(m.BestScore), PlayedProved: provedText(m.PlayedScore),
			Loss: m.Loss, Drop: math.Round(m.Drop*1000) / 1000, Mark: m.Mark.Name(), Note: m.Note,
		})
	}
	w.Summary = map[string]wire.ReviewSummary{}
	for c, sm := range review.Summarize(moves) {
		w.Summary[colorName(mill.Color(c))] = wire.ReviewSummary{Moves: sm.Moves, AverageLoss: sm.AverageLoss,
			Inaccuracies: sm.Inaccuracies, Mistakes: sm.Mistakes, Blunders: sm.Blunders}
	}
	b, err := json.Marshal(w)
	if err != nil {
		return err
	}
	return s.st.FinishReview(ctx, id, s.process, string(b), s.now())
}

// wakeReviewer has this process's review worker look for reviews now.
func (s *Service) wakeReviewer() {
	select {
	case s.reviewKick <- struct{}{}:
	default:
	}
}
