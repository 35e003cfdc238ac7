package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/server/clock"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
)

// owner serialises the changes to one game: whoever holds mu is the only
// one changing it in this process. It caches the stored game, its moves
// replayed by the rules core and its offers; the store stays the truth:
// every write carries the ply the owner saw, and a write refused because
// another process moved on makes the owner load the game again.
type owner struct {
	s  *Service
	id int64
	mu sync.Mutex

	loaded    bool
	g         store.Game
	moves     []store.Move
	offers    []store.Offer
	game      *mill.Game
	followers []store.Subscription
	timer     *time.Timer
	// queued says that a player may have a move queued in the game: set
	// at load and by Queue, cleared when none is left. (A move queued
	// through another process sharing the database is found by the
	// sweeper instead.)
	queued bool
	// offerLog is what the quotas of offers remember (quotas.go): outside
	// the copy, so that a reload keeps it.
	offerLog offerLog

	// heard holds the changes other processes made to the game while mu
	// was held here (Service.follow); the next to lock the owner plays
	// them on the copy first (lock). Guarded by hmu, not mu.
	hmu   sync.Mutex
	heard []heardChange
}

// heardChange is a change another process made to the game, waiting for
// the owner's lock.
type heardChange struct {
	version int64
	c       *Change
}

// maxHeard bounds the changes waiting for the owner's lock; past it the
// copy is dropped instead (read afresh at next use).
const maxHeard = 64

// lock locks the owner and brings its copy up to the changes other
// processes made while it was held.
func (o *owner) lock() {
	o.mu.Lock()
	o.catchUp()
}

// catchUp plays on the copy the changes heard while the owner was held.
// o.mu is held.
func (o *owner) catchUp() {
	o.hmu.Lock()
	heard := o.heard
	o.heard = nil
	o.hmu.Unlock()
	for _, h := range heard {
		o.follow(h.version, h.c)
	}
}

// hear keeps a change for the next holder of the owner's lock.
func (o *owner) hear(version int64, c *Change) {
	o.hmu.Lock()
	defer o.hmu.Unlock()
	if len(o.heard) >= maxHeard {
		// Too many to play one by one: a version no copy is at drops it.
		o.heard = append(o.heard[:0], heardChange{version: 1<<63 - 1})
		return
	}
	o.heard = append(o.heard, heardChange{version, c})
}

// owner returns the owner of a game, made on first use.
func (s *Service) owner(id int64) *owner {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.owners[id]
	if o == nil {
		o = &owner{s: s, id: id}
		s.owners[id] = o
	}
	return o
}

// forget drops the owner of a finished game from the cache.
func (s *Service) forget(o *owner) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.owners[o.id] == o {
		delete(s.owners, o.id)
	}
}

// locked runs fn with the game's owner locked and loaded.
func (s *Service) locked(ctx context.Context, id int64, fn func(o *owner) error) error {
	o := s.owner(id)
	o.lock()
	defer o.mu.Unlock()
	if !o.loaded {
		if err := o.load(ctx); err != nil {
			if KindOf(err) == NotFound {
				s.forget(o)
				return errorf(NotFound, "no game %d", id)
			}
			return err
		}
	}
	err := fn(o)
	if err != nil && s.shared && o.loaded {
		switch stale, serr := s.stale(ctx, o, err); {
		case serr != nil:
			// The stored game could not be read to tell: the refusal
			// may be the copy's, so the answer is the store's error.
			err = serr
		case stale:
			// Another process sharing the database changed the game:
			// what was refused may be right on the stored game. Once
			// more on it.
			err = fn(o)
		}
	}
	if o.loaded && !o.active() {
		// Finished games are read from the store, not kept.
		o.stopTimer()
		s.forget(o)
	}
	return err
}

// stale reports whether fn's refusal may come from a copy older than the
// stored game, and if so leaves o loaded afresh. Every write is
// conditional on the ply (or on the game being active), so a stale copy
// can only make a call fail, never make a wrong change: the copy is
// checked when a call fails, not before each one, which spares a round
// trip on every move. If the store cannot be read to tell (a database
// restarting), that error is returned: the refusal is not to be trusted.
func (s *Service) stale(ctx context.Context, o *owner, err error) (bool, error) {
	if errors.Is(err, store.ErrConflict) {
		return o.loaded, nil // the store refused a write; reloadAfter has reloaded
	}
	switch KindOf(err) {
	case Conflict, Forbidden, BadRequest:
	default:
		return false, nil
	}
	v, verr := s.st.GameVersion(ctx, o.id)
	if verr != nil {
		o.loaded = false // read afresh next time
		return false, verr
	}
	if v == o.g.Version {
		return false, nil
	}
	if lerr := o.load(ctx); lerr != nil {
		s.log.Error("reloading a game", "game", o.id, "err", lerr)
		return false, lerr
	}
	return true, nil
}

// load reads the game from the store and replays its moves.
func (o *owner) load(ctx context.Context) error {
	o.loaded = false
	snap, err := o.s.st.Snapshot(ctx, o.id)
	if err != nil {
		return err
	}
	game, err := Replay(snap.Game, snap.Moves)
	if err != nil {
		return fmt.Errorf("server: game %d does not replay: %w", o.id, err)
	}
	followers, err := o.s.st.Subscribers(ctx, o.id)
	if err != nil {
		return err
	}
	queued, err := o.s.st.QueuedMoves(ctx, o.id)
	if err != nil {
		return err
	}
	o.g, o.moves, o.offers, o.game, o.followers = snap.Game, snap.Moves, snap.Offers, game, followers
	o.queued = len(queued) > 0
	o.loaded = true
	o.s.metrics.loaded()
	return nil
}

// Replay rebuilds a stored game with the rules core: its rules, start,
// seed and moves (the tools that read the store, morris puzzles, use it too).
func Replay(g store.Game, moves []store.Move) (*mill.Game, error) {
	r, err := mill.ParseRules(g.Rules)
	if err != nil {
		return nil, err
	}
	var opts []mill.GameOption
	if g.Start != "" {
		p, err := mill.ParsePosition(g.Start)
		if err != nil {
			return nil, err
		}
		opts = append(opts, mill.FromPosition(p))
	}
	if g.HasSeed {
		opts = append(opts, mill.WithSeed(g.Seed))
	}
	game := mill.NewGame(r, opts...)
	for _, m := range moves {
		if err := game.PlayText(m.Text); err != nil {
			return nil, fmt.Errorf("ply %d %q: %w", m.Ply, m.Text, err)
		}
	}
	return game, nil
}

// side returns the colour user plays in the game, or false.
func (o *owner) side(user int64) (mill.Color, bool) {
	switch user {
	case o.g.White:
		return mill.White, true
	case o.g.Black:
		return mill.Black, true
	}
	return 0, false
}

func (o *owner) userOf(c mill.Color) int64 {
	if c == mill.White {
		return o.g.White
	}
	return o.g.Black
}

func (o *owner) active() bool { return o.g.Status == store.Active }

func (o *owner) control() clock.Control {
	c := o.g.Control
	return clock.Control{Initial: c.Initial, Increment: c.Increment, NagDays: c.NagDays, ForfeitDays: c.ForfeitDays}
}

func (o *owner) clocks() clock.State {
	c := o.g.Clocks
	return clock.State{Left: c.Left, Running: clock.Side(c.Running), Since: c.Since}
}

func storeClocks(st clock.State) store.Clocks {
	// Milliseconds are what the store keeps; rounding here keeps the
	// owner's copy equal to what a reload would read.
	return store.Clocks{Left: [2]time.Duration{st.Left[0].Truncate(time.Millisecond), st.Left[1].Truncate(time.Millisecond)},
		Running: int(st.Running), Since: truncMs(st.Since)}
}

func truncMs(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return time.UnixMilli(t.UnixMilli()).UTC()
}

// player checks that user plays the game, and returns the side.
func (o *owner) player(user int64) (mill.Color, error) {
	c, ok := o.side(user)
	if !ok {
		return 0, errorf(Forbidden, "you do not play in game %d", o.id)
	}
	return c, nil
}

// activePlayer checks that user plays the game and that it goes on, and
// returns the side.
func (o *owner) activePlayer(user int64) (mill.Color, error) {
	c, err := o.player(user)
	if err != nil {
		return 0, err
	}
	return c, o.mustBeActive()
}

func (o *owner) mustBeActive() error {
	if !o.active() {
		return errorf(Conflict, "game %d is over (%s by %s)", o.id, o.g.Result, o.g.Method)
	}
	return nil
}

// reloadAfter answers a write that failed: on a conflict (another process
// or request changed the game) the owner loads the game again so that the
// next attempt sees the truth.
func (o *owner) reloadAfter(ctx context.Context, err error) error {
	if loadErr := o.load(context.WithoutCancel(ctx)); loadErr != nil {
		o.s.log.Error("reloading a game", "game", o.id, "err", loadErr)
	}
	if errors.Is(err, store.ErrConflict) {
		return &Error{Kind: Conflict, Msg: fmt.Sprintf("game %d changed meanwhile: it is at move %d", o.id, o.g.Ply+1), Err: err}
	}
	return err
}
