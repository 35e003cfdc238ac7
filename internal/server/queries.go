package server

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// snapshot reads a game from the store and replays it.
func (s *Service) snapshot(ctx context.Context, id int64) (store.Snapshot, *mill.Game, error) {
	snap, err := s.st.Snapshot(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return snap, nil, errorf(NotFound, "no game %d", id)
	}
	if err != nil {
		return snap, nil, err
	}
	game, err := Replay(snap.Game, snap.Moves)
	if err != nil {
		return snap, nil, err
	}
	if snap.Game.Status == store.Finished && game.Outcome() == mill.NoOutcome {
		o, _ := mill.ParseOutcome(snap.Game.Result)
		m, _ := mill.ParseMethod(snap.Game.Method)
		if o != mill.NoOutcome && m != mill.NoMethod {
			_ = game.End(o, m)
		}
	}
	return snap, game, nil
}

// Game is a game without its moves, as the service returns it (GameInfo,
// PbmChallenge, GameView): players, rules, status, result, time control,
// clocks, ply and version. It is the store's row under the service's
// name: the same fields, converted as it is. Status is Active or Finished.
type Game store.Game

// The life of a game (Game.Status).
const (
	Active   = store.Active   // being played
	Finished = store.Finished // over: Result and Method say how
)

// GameView is a game as read from the store: for boards, records, lists.
type GameView struct {
	Game
	Moves []store.Move
	Play  *mill.Game // the game replayed by the rules core
}

// View reads a game.
func (s *Service) View(ctx context.Context, id int64) (GameView, error) {
	snap, game, err := s.snapshot(ctx, id)
	if err != nil {
		return GameView{}, err
	}
	return GameView{Game: Game(snap.Game), Moves: snap.Moves, Play: game}, nil
}

// Game returns a game in full (gameFull).
func (s *Service) Game(ctx context.Context, id int64) (wire.GameFull, error) {
	snap, game, err := s.snapshot(ctx, id)
	if err != nil {
		return wire.GameFull{}, err
	}
	return s.full(ctx, snap, game)
}

// Export returns a game as a record (record package's PGN-like text).
func (s *Service) Export(ctx context.Context, id int64) ([]byte, error) {
	v, err := s.View(ctx, id)
	if err != nil {
		return nil, err
	}
	date := v.CreatedAt.UTC().Format("2006.01.02")
	rec := record.FromGame(v.Play,
		record.Tag{Name: "Event", Value: "Morris game " + strconv.FormatInt(v.ID, 10)},
		record.Tag{Name: "Site", Value: "morris server"},
		record.Tag{Name: "Date", Value: date},
		record.Tag{Name: "White", Value: v.WhiteName},
		record.Tag{Name: "Black", Value: v.BlackName})
	if v.Status == store.Finished {
		if o, ok := mill.ParseOutcome(v.Result); ok {
			rec.Result = o
			rec.SetTag("Result", v.Result)
		}
		if v.Method != "" {
			rec.SetTag("Termination", v.Method)
		}
	}
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// GamesQuery selects games for Games.
type GamesQuery struct {
	User    string // a player's name; "" for everyone's
	Active  bool   // only games going on
	Over    bool   // only finished games
	Variant string
	Before  int64 // paging: ids below this one
	Limit   int   // at most this many (default and maximum 100)
}

// Games lists games, newest first.
func (s *Service) Games(ctx context.Context, q GamesQuery) ([]wire.GameSummary, error) {
	sq := store.GameQuery{Variant: q.Variant, Before: q.Before, Limit: q.Limit}
	if sq.Limit <= 0 || sq.Limit > 100 {
		sq.Limit = 100
	}
	if q.User != "" {
		u, err := s.UserByName(ctx, q.User)
		if err != nil {
			return nil, err
		}
		sq.User = u.ID
	}
	switch {
	case q.Active && q.Over:
		return nil, errorf(BadRequest, "a game is active or over, not both")
	case q.Active:
		sq.Status = store.Active
	case q.Over:
		sq.Status = store.Finished
	}
	gs, err := s.st.Games(ctx, sq)
	if err != nil {
		return nil, err
	}
	out := make([]wire.GameSummary, 0, len(gs))
	for _, g := range gs {
		out = append(out, *s.summaryOf(g))
	}
	return out, nil
}

func wireRating(r store.Rating) wire.Rating {
	return wire.Rating{Variant: r.Variant, User: r.Name, Rating: r.R, Deviation: r.RD, Volatility: r.Sigma,
		Games: r.Games, Provisional: rating.Rating{R: r.R, RD: r.RD, Sigma: r.Sigma}.Provisional()}
}

// Standings returns the rating list of a variant, best first.
func (s *Service) Standings(ctx context.Context, variant string, limit int) ([]wire.Rating, error) {
	if _, err := mill.LookupVariant(variant); err != nil {
		return nil, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
	}
	if limit <= 0 || limit > 500 {
		limit = 500
	}
	rs, err := s.st.Standings(ctx, variant, limit)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Rating, 0, len(rs))
	for _, r := range rs {
		out = append(out, wireRating(r))
	}
	return out, nil
}

// Ratings returns a user's ratings in every variant they have played rated.
func (s *Service) Ratings(ctx context.Context, name string) ([]wire.Rating, error) {
	u, err := s.UserByName(ctx, name)
	if err != nil {
		return nil, err
	}
	var out []wire.Rating
	for _, v := range mill.Variants() {
		r, err := s.st.Rating(ctx, u.ID, v.ID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, wireRating(r))
	}
	if out == nil {
		out = []wire.Rating{}
	}
	return out, nil
}

// deadlines returns the reminder and forfeit times of the side to move in
// a correspondence game, with its vacations counted out.
func (s *Service) deadlines(ctx context.Context, o *owner) (nag, forfeit time.Time, err error) {
	vs, err := s.st.Vacations(ctx, o.userOf(o.game.Position().SideToMove()), o.g.LastMoveAt)
	if err != nil {
		return nag, forfeit, err
	}
	nag, forfeit = o.control().Deadlines(o.g.LastMoveAt, intervals(vs))
	return nag, forfeit, nil
}

func (s *Service) deadlinesOf(ctx context.Context, g store.Game, toMove mill.Color) (nag, forfeit time.Time) {
	user := g.White
	if toMove == mill.Black {
		user = g.Black
	}
	vs, _ := s.st.Vacations(ctx, user, g.LastMoveAt)
	o := &owner{g: g}
	return o.control().Deadlines(g.LastMoveAt, intervals(vs))
}
