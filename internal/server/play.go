package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/morrisgame/morris/internal/server/clock"
	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
)

// Played is what a move did.
type Played struct {
	Game    int64
	Ply     int    // the move's ply (0 for the first move)
	Move    string // in standard notation
	Version int64  // the game's version after it
	Over    bool
	Result  string
	Method  string
}

// AnyPly lets a move through whatever the game's ply (no retry safety).
const AnyPly = -1

// Move plays a move of user's in a game: text in either notation, ply the
// ply the caller expects the move to have (the number of moves played
// before it), or AnyPly. The move is stored before Move returns. A ply
// that is not the game's is Conflict, so a retried request never plays
// twice.
func (s *Service) Move(ctx context.Context, user User, id int64, text string, ply int) (Played, error) {
	start := time.Now()
	var p Played
	err := s.locked(ctx, id, func(o *owner) error {
		var err error
		p, err = s.playLocked(ctx, o, user.ID, text, ply)
		return err
	})
	if err != nil {
		s.metrics.moveRefused()
		return Played{}, err
	}
	s.metrics.moveLatency(time.Since(start))
	s.playQueued(id)
	return p, nil
}

func (s *Service) playLocked(ctx context.Context, o *owner, user int64, text string, ply int) (Played, error) {
	if err := o.mustBeActive(); err != nil {
		return Played{}, err
	}
	side, err := o.player(user)
	if err != nil {
		return Played{}, err
	}
	if ply != AnyPly && ply != o.g.Ply {
		return Played{}, errorf(Conflict, "game %d is at move %d, not move %d (ply %d, not %d)", o.id, o.g.Ply+1, ply+1, o.g.Ply, ply)
	}
	pos := o.game.Position()
	if pos.SideToMove() != side {
		return Played{}, errorf(Forbidden, "it is not your turn in game %d", o.id)
	}
	if len(text) > 64 {
		return Played{}, errorf(BadRequest, "a move is at most 64 characters")
	}
	m, err := pos.ParseMove(strings.TrimSpace(text))
	if err != nil {
		return Played{}, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
	}
	now := s.now()
	st := o.clocks()
	ctl := o.control()
	if ctl.RealTime() {
		if err := st.Moved(ctl, now); errors.Is(err, clock.ErrFlagged) {
			if ferr := s.finishLocked(ctx, o, mill.Won(side.Other()), mill.Time); ferr != nil {
				return Played{}, ferr
			}
			return Played{}, errorf(Conflict, "your time ran out in game %d", o.id)
		} else if err != nil {
			return Played{}, err
		}
	}
	next := *o.game // a shallow copy to try the move on
	game := &next
	if err := game.Play(m); err != nil {
		return Played{}, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
	}
	outcome, method := game.Outcome(), game.Method()
	moveText := pos.MoveText(m)
	if outcome != mill.NoOutcome {
		st.Stop(now)
	} else if ctl.RealTime() {
		// The clock of the side to move runs: the other side's after most
		// moves, the mover's again when it moves twice running (a removal
		// it owes, a blocked side's removal, the second player moving
		// first after placing). Moved gave the mover its increment for
		// this move either way.
		st.Running = clock.Side(game.Position().SideToMove())
	}
	// On a shared store another process may have made an offer this copy
	// does not show: a move withdraws the offers whatever the copy says.
	a := store.Append{Ply: o.g.Ply, Move: moveText, At: now, Clocks: storeClocks(st), ClearOffers: len(o.offers) > 0 || s.shared}
	var version int64
	for try := 0; ; try++ {
		if outcome != mill.NoOutcome {
			if a.End, err = s.ending(ctx, o, outcome, method); err != nil {
				return Played{}, err
			}
		}
		version, err = s.st.AppendMove(ctx, o.id, a)
		if err == nil {
			break
		}
		// A conflict over ratings (another game of a player ended at
		// once) is worth another try; one over the ply is not.
		if !errors.Is(err, store.ErrConflict) || a.End == nil || len(a.End.Ratings) == 0 || try == 2 {
			return Played{}, o.reloadAfter(ctx, err)
		}
		if g, gerr := s.st.Game(ctx, o.id); gerr != nil || g.Ply != o.g.Ply || g.Status != store.Active {
			return Played{}, o.reloadAfter(ctx, err)
		}
	}
	// Stored: now the owner's copy follows.
	s.metrics.moved()
	g := game
	o.game = g
	o.moves = append(o.moves, store.Move{Ply: a.Ply, Text: moveText, At: truncMs(now), Left: a.Clocks.Left, Version: version})
	o.offers = nil
	o.g.Ply++
	o.g.Version = version
	o.g.Clocks = a.Clocks
	o.g.LastMoveAt, o.g.UpdatedAt = truncMs(now), truncMs(now)
	if a.End != nil {
		o.g.Status, o.g.Result, o.g.Method = store.Finished, a.End.Result, a.End.Method
	}
	s.publishMove(o)
	if a.End != nil {
		s.announceEnd(o)
	}
	s.afterChange(o)
	return Played{Game: o.id, Ply: a.Ply, Move: moveText, Version: version, Over: a.End != nil, Result: o.g.Result, Method: o.g.Method}, nil
}

// ending is the store's Ending of an outcome, with the new ratings when
// the game is rated.
func (s *Service) ending(ctx context.Context, o *owner, outcome mill.Outcome, method mill.Method) (*store.Ending, error) {
	e := &store.Ending{Result: outcome.String(), Method: method.String()}
	if !o.g.Rated || o.g.EngineLevel != 0 {
		return e, nil
	}
	score := 0.5
	switch outcome {
	case mill.WhiteWon:
		score = 1
	case mill.BlackWon:
		score = 0
	}
	get := func(user int64) (store.Rating, error) {
		r, err := s.st.Rating(ctx, user, o.g.Variant)
		if errors.Is(err, store.ErrNotFound) {
			d := rating.Default()
			return store.Rating{User: user, Variant: o.g.Variant, R: d.R, RD: d.RD, Sigma: d.Sigma}, nil
		}
		return r, err
	}
	w, err := get(o.g.White)
	if err != nil {
		return nil, err
	}
	b, err := get(o.g.Black)
	if err != nil {
		return nil, err
	}
	nw, nb, err := rating.Game(rating.Rating{R: w.R, RD: w.RD, Sigma: w.Sigma}, rating.Rating{R: b.R, RD: b.RD, Sigma: b.Sigma}, score, rating.DefaultTau)
	if err != nil {
		return nil, err
	}
	e.Ratings = []store.Rating{
		{User: o.g.White, Variant: o.g.Variant, R: nw.R, RD: nw.RD, Sigma: nw.Sigma, Games: w.Games + 1},
		{User: o.g.Black, Variant: o.g.Variant, R: nb.R, RD: nb.RD, Sigma: nb.Sigma, Games: b.Games + 1},
	}
	return e, nil
}

// finishLocked ends an active game off the board: resignation, agreement,
// time, abandonment.
func (s *Service) finishLocked(ctx context.Context, o *owner, outcome mill.Outcome, method mill.Method) error {
	now := s.now()
	st := o.clocks()
	st.Stop(now)
	f := store.Finish{Ply: o.g.Ply, At: now, Clocks: storeClocks(st)}
	var version int64
	for try := 0; ; try++ {
		e, err := s.ending(ctx, o, outcome, method)
		if err != nil {
			return err
		}
		f.Ending = *e
		version, err = s.st.FinishGame(ctx, o.id, f)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrConflict) || len(e.Ratings) == 0 || try == 2 {
			return o.reloadAfter(ctx, err)
		}
		if g, gerr := s.st.Game(ctx, o.id); gerr != nil || g.Ply != o.g.Ply || g.Status != store.Active {
			return o.reloadAfter(ctx, err)
		}
	}
	o.g.Version, o.g.UpdatedAt = version, truncMs(now)
	o.g.Status, o.g.Result, o.g.Method = store.Finished, f.Result, f.Method
	o.g.Clocks = f.Clocks
	o.offers = nil
	if err := o.game.End(outcome, method); err != nil {
		// The position had ended already (not reachable: an ended
		// position finishes the game with its move).
		s.log.Warn("ending a game", "game", o.id, "err", err)
	}
	s.publishState(o)
	s.announceEnd(o)
	s.afterChange(o)
	return nil
}

// Resign gives up a game.
func (s *Service) Resign(ctx context.Context, user User, id int64) error {
	return s.locked(ctx, id, func(o *owner) error {
		side, err := o.activePlayer(user.ID)
		if err != nil {
			return err
		}
		return s.finishLocked(ctx, o, mill.Won(side.Other()), mill.Resignation)
	})
}

// ClaimVictory ends a game the opponent has left: it is their turn and
// they have been silent for Config.ClaimAfter (games without a clock), or
// past their forfeit deadline (correspondence). In a real-time game the
// flag falls by itself.
func (s *Service) ClaimVictory(ctx context.Context, user User, id int64) error {
	return s.locked(ctx, id, func(o *owner) error {
		side, err := o.activePlayer(user.ID)
		if err != nil {
			return err
		}
		if o.game.Position().SideToMove() == side {
			return errorf(Forbidden, "it is your turn: only the side waiting may claim")
		}
		ctl := o.control()
		now := s.now()
		switch {
		case ctl.RealTime():
			if _, flagged := o.clocks().Flagged(now); !flagged {
				return errorf(Forbidden, "the opponent's clock is still running")
			}
			return s.finishLocked(ctx, o, mill.Won(side), mill.Time)
		case ctl.Correspondence():
			_, forfeit, err := s.deadlines(ctx, o)
			if err != nil {
				return err
			}
			if now.Before(forfeit) {
				return errorf(Forbidden, "the opponent has until %s to move", forfeit.UTC().Format(time.RFC3339))
			}
		default:
			if wait := o.g.LastMoveAt.Add(s.cfg.ClaimAfter).Sub(now); wait > 0 {
				return errorf(Forbidden, "the opponent may still move: claim in %s", wait.Round(time.Second))
			}
		}
		return s.finishLocked(ctx, o, mill.Won(side), mill.Abandonment)
	})
}

// OfferKind is what a player offers the opponent: a draw or a take-back.
type OfferKind string

// Offer kinds: the store's, under the service's type.
const (
	Draw     = OfferKind(store.DrawOffer)
	Takeback = OfferKind(store.TakebackOffer)
)

func (o *owner) pending(kind store.OfferKind) (store.Offer, bool) {
	for _, of := range o.offers {
		if of.Kind == kind {
			return of, true
		}
	}
	return store.Offer{}, false
}

// Offer offers a draw or asks for a take-back. An offer the opponent made
// already is accepted instead. In a game against the engine a take-back
// is granted at once and a draw offer declined.
func (s *Service) Offer(ctx context.Context, user User, id int64, offer OfferKind) error {
	kind := store.OfferKind(offer)
	return s.locked(ctx, id, func(o *owner) error {
		side, err := o.activePlayer(user.ID)
		if err != nil {
			return err
		}
		if of, ok := o.pending(kind); ok {
			if of.Side != int(side) {
				return s.answerLocked(ctx, o, side, kind, true)
			}
			return nil // made already: nothing new to tell the opponent
		}
		if kind == store.TakebackOffer {
			if _, err := o.takebackTo(side); err != nil {
				return err
			}
		}
		now := s.now()
		if o.g.EngineLevel != 0 && kind == store.TakebackOffer {
			return s.takebackLocked(ctx, o, side) // the engine grants them all
		}
		if err := s.mayOffer(o, side, kind, now); err != nil {
			return err
		}
		if o.g.EngineLevel != 0 {
			o.offerLog.offered(side, kind, o.g.Ply)
			return errorf(Conflict, "the engine declines the draw")
		}
		of := store.Offer{Kind: kind, Side: int(side), Ply: o.g.Ply, At: now}
		v, err := s.st.SetOffer(ctx, o.id, of)
		if err != nil {
			return o.reloadAfter(ctx, err)
		}
		o.offerLog.offered(side, kind, o.g.Ply)
		o.g.Version = v
		o.offers = append(removeOffer(o.offers, kind), of)
		s.publishState(o)
		return nil
	})
}

func removeOffer(offers []store.Offer, kind store.OfferKind) []store.Offer {
	var out []store.Offer
	for _, of := range offers {
		if of.Kind != kind {
			out = append(out, of)
		}
	}
	return out
}

// Answer accepts or declines the opponent's pending offer of that kind.
func (s *Service) Answer(ctx context.Context, user User, id int64, kind OfferKind, accept bool) error {
	return s.locked(ctx, id, func(o *owner) error {
		side, err := o.activePlayer(user.ID)
		if err != nil {
			return err
		}
		return s.answerLocked(ctx, o, side, store.OfferKind(kind), accept)
	})
}

// PendingOffer returns the kind of the opponent's pending offer to user,
// for pbmserv's accept and reject, which do not say which.
func (s *Service) PendingOffer(ctx context.Context, user User, id int64) (OfferKind, error) {
	var kind OfferKind
	err := s.locked(ctx, id, func(o *owner) error {
		side, err := o.player(user.ID)
		if err != nil {
			return err
		}
		for _, of := range o.offers {
			if of.Side != int(side) {
				kind = OfferKind(of.Kind)
				return nil
			}
		}
		return errorf(Conflict, "there is no offer to answer in game %d", o.id)
	})
	return kind, err
}

func (s *Service) answerLocked(ctx context.Context, o *owner, side mill.Color, kind store.OfferKind, accept bool) error {
	of, ok := o.pending(kind)
	if !ok || of.Side == int(side) {
		return errorf(Conflict, "there is no %s offer from your opponent in game %d", kind, o.id)
	}
	if accept {
		if kind == store.DrawOffer {
			return s.finishLocked(ctx, o, mill.Draw, mill.Agreement)
		}
		if err := s.takebackLocked(ctx, o, side.Other()); err != nil {
			return err
		}
		o.offerLog.answered(side.Other(), kind, true, s.now())
		return nil
	}
	v, err := s.st.ClearOffer(ctx, o.id, kind)
	if err != nil {
		return o.reloadAfter(ctx, err)
	}
	o.offerLog.answered(side.Other(), kind, false, s.now())
	o.g.Version = v
	o.offers = removeOffer(o.offers, kind)
	s.publishState(o)
	return nil
}

// takebackTo returns the ply to go back to so that side is to move again
// with its last move undone: the last ply before now at which side was to
// move. When turns alternate that is one ply back if the opponent is to
// move, two if side is (its move and the reply); when a side moves twice
// running (removals) only its last move, and the opponent's after it, are
// undone.
func (o *owner) takebackTo(side mill.Color) (int, error) {
	ps := o.game.Positions()
	for to := o.g.Ply - 1; to >= 0 && to < len(ps); to-- {
		if ps[to].SideToMove() == side {
			return to, nil
		}
	}
	return 0, errorf(Conflict, "there is no move of yours to take back in game %d", o.id)
}

// takebackLocked takes back side's last move (and the reply to it).
func (s *Service) takebackLocked(ctx context.Context, o *owner, side mill.Color) error {
	to, err := o.takebackTo(side)
	if err != nil {
		return err
	}
	now := s.now()
	st := o.clocks()
	if o.control().RealTime() {
		// The time spent stays spent; the clock of the side to move after
		// the take-back runs from now.
		st.Stop(now)
		st.Running, st.Since = clock.Side(side), now
	}
	t := store.TakeBack{Ply: o.g.Ply, To: to, At: now, Clocks: storeClocks(st)}
	v, err := s.st.TakeBackMoves(ctx, o.id, t)
	if err != nil {
		return o.reloadAfter(ctx, err)
	}
	for o.game.Moves() != nil && len(o.game.Moves()) > to {
		o.game.Undo()
	}
	o.moves = o.moves[:to]
	o.offers = nil
	o.g.Ply, o.g.Version, o.g.Clocks, o.g.LastMoveAt = to, v, t.Clocks, truncMs(now)
	s.publishState(o)
	s.afterChange(o)
	return nil
}

// MaxChat is the longest chat message, in bytes.
const MaxChat = 500

// Chat sends a message to a game's players and watchers. Only the players
// speak; spectators watch. A player's messages in a game are rate limited
// (Rates.Chat), and a finished game's chat closes Quotas.ChatAfterEnd
// after the end. A player a moderator muted cannot chat (moderation.go).
func (s *Service) Chat(ctx context.Context, user User, id int64, text string) error {
	text = strings.TrimSpace(text)
	if text == "" || len(text) > MaxChat || !utf8.ValidString(text) {
		return errorf(BadRequest, "a chat message is 1 to %d bytes of text", MaxChat)
	}
	for _, r := range text {
		if unicode.IsControl(r) {
			return errorf(BadRequest, "a chat message holds no control characters")
		}
	}
	if err := s.mayChat(ctx, user); err != nil {
		return err
	}
	if err := s.spend(kindChat, chatKey(user.ID, id), fmt.Sprintf("too many chat messages in game %d", id)); err != nil {
		return err
	}
	return s.locked(ctx, id, func(o *owner) error {
		if _, err := o.player(user.ID); err != nil {
			return err
		}
		now := s.now()
		if err := s.chatOpen(o); err != nil {
			return err
		}
		v, err := s.st.AddChatKeeping(ctx, store.ChatMessage{Game: o.id, User: user.ID, Text: text, At: now}, s.cfg.Quotas.ChatKept)
		if err != nil {
			return o.reloadAfter(ctx, err)
		}
		o.g.Version = v
		s.publishChat(o, store.ChatMessage{Game: o.id, Version: v, User: user.ID, UserName: user.Name, Text: text, At: truncMs(now)})
		return nil
	})
}

// Queue stores a move to be played for user when their turn comes at ply
// (pbmserv "queue"); if it is their turn already, it is played now.
func (s *Service) Queue(ctx context.Context, user User, id int64, text string, ply int) (played bool, err error) {
	var now bool
	err = s.locked(ctx, id, func(o *owner) error {
		side, err := o.activePlayer(user.ID)
		if err != nil {
			return err
		}
		if len(text) > 64 {
			return errorf(BadRequest, "a move is at most 64 characters")
		}
		if _, err := o.game.Rules().Board().ParseMove(text); err != nil {
			return &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
		}
		if o.game.Position().SideToMove() == side && (ply == AnyPly || ply == o.g.Ply) {
			now = true
			return nil
		}
		if ply == AnyPly {
			// The player's next turn: after the opponent's move, or after
			// their own if they are to move and gave another ply.
			ply = o.g.Ply + 1
			if o.game.Position().SideToMove() == side {
				ply = o.g.Ply + 2
			}
		}
		if ply <= o.g.Ply {
			return errorf(Conflict, "game %d is at move %d already", o.id, o.g.Ply+1)
		}
		// Where turns alternate, the player's are every other ply. Where a
		// side may move twice running, which plies are whose depends on
		// the moves to come: the move waits for the player's first turn
		// from that ply on (playQueued).
		mine := o.g.Ply
		if o.game.Position().SideToMove() != side {
			mine++
		}
		if (ply-mine)%2 != 0 && !twiceRunning(o.game.Rules()) {
			return errorf(BadRequest, "move %d is your opponent's, not yours", ply+1)
		}
		if err := s.st.QueueMove(ctx, store.QueuedMove{Game: o.id, User: user.ID, Move: text, Ply: ply, At: s.now()}); err != nil {
			return err
		}
		o.queued = true
		return nil
	})
	if err != nil || !now {
		return false, err
	}
	_, err = s.Move(ctx, user, id, text, ply)
	return err == nil, err
}

// playQueued plays the queued move of the player to move, if there is one
// for this turn and it is legal; a move that is not legal then is dropped.
// A move queued for a later turn of the player's stays queued. The turn
// is the player's first from the queued ply on: the ply itself where turns
// alternate, maybe a later one where the opponent moves twice running; a
// move whose turn has passed is dropped.
//
// It runs under the service's context, not the caller's: the queued move
// is the other player's, owed once the move before it is stored, and a
// request that ends meanwhile (the client gone, its deadline passed) must
// not take it away; the service's shutdown stops it. A move taken from
// the queue but not stored (the store failing, the service closing) goes
// back to the queue, for the next move or the sweeper to play.
func (s *Service) playQueued(id int64) {
	ctx := s.ctx
	for range 4 { // a queued move may meet the opponent's queued reply, and a side may move twice
		var user int64
		var ply, last int
		_ = s.locked(ctx, id, func(o *owner) error {
			if o.active() && o.queued {
				side := o.game.Position().SideToMove()
				user, ply = o.userOf(side), o.g.Ply
				last = o.lastTurn(side)
			}
			return nil
		})
		if user == 0 {
			return
		}
		q, ok, err := s.st.QueuedMoveOf(ctx, id, user)
		if err != nil || !ok || q.Ply > ply {
			return
		}
		if q, err = s.st.TakeQueuedMove(ctx, id, user); err != nil {
			return
		}
		if left, err := s.st.QueuedMoves(ctx, id); err == nil && len(left) == 0 {
			_ = s.locked(ctx, id, func(o *owner) error { o.queued = false; return nil })
		}
		if q.Ply <= last {
			s.log.Info("queued move dropped: its turn has passed", "game", id, "user", user, "move", q.Move)
			return
		}
		err = s.locked(ctx, id, func(o *owner) error {
			_, err := s.playLocked(ctx, o, user, q.Move, ply)
			return err
		})
		if err != nil {
			var e *Error
			if errors.As(err, &e) && !errors.Is(err, store.ErrConflict) && e.Kind != Internal && e.Kind != Unavailable {
				// Refused by the rules or the game's state: dropped.
				s.log.Info("queued move dropped", "game", id, "user", user, "move", q.Move, "err", err)
				return
			}
			s.requeue(id, q, err)
			if !errors.Is(err, store.ErrConflict) {
				return
			}
			// Another process moved the game: once more on the copy
			// read afresh, which drops the move if its turn has passed.
		}
	}
}

// requeue puts back a queued move that was taken but not stored, unless
// the player has queued another since.
func (s *Service) requeue(id int64, q store.QueuedMove, why error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 5*time.Second)
	defer cancel()
	_, ok, err := s.st.QueuedMoveOf(ctx, id, q.User)
	if err == nil && !ok {
		err = s.st.QueueMove(ctx, q)
	}
	if err != nil {
		s.log.Error("a queued move not played and not queued again: lost", "game", id, "user", q.User, "move", q.Move, "err", err, "why", why)
		return
	}
	_ = s.locked(ctx, id, func(o *owner) error { o.queued = true; return nil })
	s.log.Warn("queued move not played: queued again", "game", id, "user", q.User, "move", q.Move, "err", why)
}

// lastTurn returns the last ply before side's present turn at which side
// was to move, or -1 if none; side is to move now. A move queued for a
// later ply was queued for the present turn: side has not moved since.
func (o *owner) lastTurn(side mill.Color) int {
	ps := o.game.Positions()
	k := min(o.g.Ply, len(ps)-1)
	for k > 0 && ps[k-1].SideToMove() == side {
		k-- // the present turn: side moves twice running
	}
	for k--; k >= 0 && ps[k].SideToMove() != side; k-- {
	}
	return k
}

// twiceRunning reports whether the rules let a side move twice running:
// the removals owed when placing ends (Shah's, the counted mills, a full
// board's), a blocked side's removal, the second player moving first
// after placing. Under the others turns alternate, and the side to move
// follows from the ply.
func twiceRunning(r *mill.Rules) bool {
	o := r.Options()
	switch o.PlacingCaptures {
	case mill.CaptureDeferred, mill.CaptureCounted, mill.CaptureCountedEach:
		return true
	}
	return o.FullBoard == mill.FullBoardRemovals || o.Blocked == mill.BlockedRemoves || o.SecondMovesFirst
}
