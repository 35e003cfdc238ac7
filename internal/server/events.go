package server

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

func colorName(c mill.Color) string {
	if c == mill.White {
		return "white"
	}
	return "black"
}

func wireControl(c store.TimeControl) wire.Control {
	return wire.Control{InitialMs: c.Initial.Milliseconds(), IncrementMs: c.Increment.Milliseconds(), NagDays: c.NagDays, ForfeitDays: c.ForfeitDays}
}

// wireClocks is the clocks of a real-time game at now, nil for the others.
func wireClocks(g store.Game, now time.Time) *wire.Clocks {
	if g.Control.Initial == 0 {
		return nil
	}
	c := &wire.Clocks{WhiteMs: g.Clocks.Left[0].Milliseconds(), BlackMs: g.Clocks.Left[1].Milliseconds(), AtMs: now.UnixMilli()}
	if !g.Clocks.Since.IsZero() {
		c.Running = colorName(mill.Color(g.Clocks.Running))
		run := now.Sub(g.Clocks.Since).Milliseconds()
		if run > 0 {
			if g.Clocks.Running == 0 {
				c.WhiteMs = max(0, c.WhiteMs-run)
			} else {
				c.BlackMs = max(0, c.BlackMs-run)
			}
		}
	}
	return c
}

func wireOffers(offers []store.Offer) []wire.Offer {
	out := []wire.Offer{}
	for _, of := range offers {
		out = append(out, wire.Offer{Kind: string(of.Kind), By: colorName(mill.Color(of.Side))})
	}
	return out
}

// state is the wire.GameState of a game replayed.
func state(g store.Game, moves []store.Move, offers []store.Offer, game *mill.Game, now time.Time, deadline time.Time) wire.GameState {
	ms := make([]string, len(moves))
	for i, m := range moves {
		ms[i] = m.Text
	}
	p := game.Position()
	st := wire.GameState{
		Type: "gameState", Version: g.Version, Ply: g.Ply, Moves: ms, Position: p.String(),
		ToMove: colorName(p.SideToMove()), Status: string(g.Status), Result: g.Result, Method: g.Method,
		Clocks: wireClocks(g, now), Offers: wireOffers(offers),
	}
	if !deadline.IsZero() && g.Status == store.Active {
		st.DeadlineMs = deadline.UnixMilli()
	}
	return st
}

func (o *owner) state() wire.GameState {
	var deadline time.Time
	if o.control().Correspondence() {
		// The deadline without vacations: the sweeper has the exact one,
		// and reading vacations here would cost a query per change.
		_, deadline = o.control().Deadlines(o.g.LastMoveAt, nil)
	}
	return state(o.g, o.moves, o.offers, o.game, o.s.now(), deadline)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the wire types always marshal
	}
	return b
}

func (s *Service) publishMove(o *owner) {
	s.publishFollowers(o)
	if !s.hub.watched(o.id) {
		return
	}
	m := o.moves[len(o.moves)-1]
	p := o.game.Position()
	ev := wire.Move{
		Type: "move", Version: o.g.Version, Ply: m.Ply, Move: m.Text, Position: p.String(),
		ToMove: colorName(p.SideToMove()), Clocks: wireClocks(o.g, s.now()), Status: string(o.g.Status),
		Result: o.g.Result, Method: o.g.Method,
	}
	e := Event{Version: o.g.Version, Data: mustJSON(ev)}
	if s.hub.relaying() {
		e.Change = moveChange(o) // for the other processes' copies only
	}
	s.hub.publishGame(o.id, e)
}

// publishFollowers tells the account streams of a game's followers that
// it moved.
func (s *Service) publishFollowers(o *owner) {
	for _, f := range o.followers {
		if f.Kind == store.FollowMoves && f.User != o.g.White && f.User != o.g.Black {
			s.hub.publishUser(f.User, Event{Data: mustJSON(wire.Event{Type: "gameMove", Game: o.summary()})})
		}
	}
}

func (s *Service) publishState(o *owner) {
	if !s.hub.watched(o.id) {
		return
	}
	s.hub.publishGame(o.id, Event{Version: o.g.Version, Data: mustJSON(o.state())})
}

func (s *Service) publishChat(o *owner, m store.ChatMessage) {
	ev := wire.Chat{Type: "chat", Version: m.Version, User: m.UserName, Text: m.Text, AtMs: m.At.UnixMilli()}
	s.hub.publishGame(o.id, Event{Version: m.Version, Data: mustJSON(ev), Change: &Change{Chat: true}})
}

// announceEnd tells the players and followers' account streams that a game ended, and
// those of the players' followers (friends.go).
func (s *Service) announceEnd(o *owner) {
	ev := Event{Data: mustJSON(wire.Event{Type: "gameFinish", Game: o.summary()})}
	s.hub.publishUser(o.g.White, ev)
	s.hub.publishUser(o.g.Black, ev)
	for _, f := range o.followers {
		if f.User != o.g.White && f.User != o.g.Black {
			s.hub.publishUser(f.User, ev)
		}
	}
	s.announceFollowed("followedGameFinish", o.summary())
	s.metrics.gameEnded()
	s.kickExplorer()
	s.tournamentGameEnded(o.id)
}

// announceStart tells the players of g, a game of event (0 for none), and
// their followers that it started.
func (s *Service) announceStart(g store.Game, event int64) {
	sum := s.summaryOf(g)
	withEvent := *sum
	withEvent.Event = event
	ev := Event{Data: mustJSON(wire.Event{Type: "gameStart", Game: &withEvent})}
	s.hub.publishUser(g.White, ev)
	s.hub.publishUser(g.Black, ev)
	s.announceFollowed("followedGameStart", sum)
	s.metrics.gameStarted()
}

func (o *owner) summary() *wire.GameSummary {
	sum := summary(o.g, colorName(o.game.Position().SideToMove()))
	o.s.markBots(sum)
	return sum
}

// summaryOf is the summary of a stored game, the side to move worked out
// from its start and ply, or its moves.
func (s *Service) summaryOf(g store.Game) *wire.GameSummary {
	sum := summary(g, s.toMoveOf(g))
	s.markBots(sum)
	return sum
}

func (s *Service) markBots(sum *wire.GameSummary) {
	sum.White.Bot = sum.White.ID == s.engineID
	sum.Black.Bot = sum.Black.ID == s.engineID
}

// toMoveOf returns the side to move of an active stored game ("" when it
// is over). Where turns alternate it follows from the start position's
// side and the ply; where a side may move twice running (twiceRunning)
// the moves are read and replayed.
func (s *Service) toMoveOf(g store.Game) string {
	if g.Status != store.Active {
		return ""
	}
	bare := store.Game{Rules: g.Rules, Start: g.Start, Seed: g.Seed, HasSeed: g.HasSeed}
	game, err := Replay(bare, nil)
	if err != nil {
		return ""
	}
	if g.Ply > 0 && twiceRunning(game.Rules()) {
		moves, err := s.st.Moves(s.ctx, g.ID)
		if err != nil {
			return ""
		}
		if len(moves) > g.Ply {
			moves = moves[:g.Ply] // a move played since g was read
		}
		if game, err = Replay(bare, moves); err != nil {
			return ""
		}
		return colorName(game.Position().SideToMove())
	}
	c := game.Position().SideToMove()
	if g.Ply%2 == 1 {
		c = c.Other()
	}
	return colorName(c)
}

func player(id int64, name string) wire.Player { return wire.Player{ID: id, Name: name} }

func summary(g store.Game, toMove string) *wire.GameSummary {
	if g.Status != store.Active {
		toMove = ""
	}
	return &wire.GameSummary{
		ID: g.ID, Variant: g.Variant, Rules: g.Rules, Rated: g.Rated,
		White: player(g.White, g.WhiteName), Black: player(g.Black, g.BlackName),
		Status: string(g.Status), Result: g.Result, Method: g.Method, Ply: g.Ply, ToMove: toMove,
		Control: wireControl(g.Control), UpdatedMs: g.UpdatedAt.UnixMilli(),
	}
}

// afterChange arms what a game's new state needs: the flag timer of a
// real-time game, the engine's turn; a finished game leaves the cache.
func (s *Service) afterChange(o *owner) {
	o.stopTimer()
	if !o.active() {
		s.forget(o)
		return
	}
	if o.control().RealTime() {
		o.armFlag()
	}
	if o.g.EngineLevel != 0 && o.userOf(o.game.Position().SideToMove()) == s.engineID && s.engine != nil {
		s.engine.enqueue(o.id, o.g.Ply)
	}
}

// full returns the gameFull of a game from the store.
func (s *Service) full(ctx context.Context, snap store.Snapshot, game *mill.Game) (wire.GameFull, error) {
	g := snap.Game
	// The last ChatHistory messages; the older ones are a GET away.
	chat, more, err := s.st.ChatPage(ctx, g.ID, 0, g.Version+1, ChatHistory)
	if err != nil {
		return wire.GameFull{}, err
	}
	f := wire.GameFull{
		Type: "gameFull", ID: g.ID, Variant: g.Variant, Rules: g.Rules, Rated: g.Rated,
		White: player(g.White, g.WhiteName), Black: player(g.Black, g.BlackName),
		Start: game.Start().String(), Control: wireControl(g.Control), EngineLevel: g.EngineLevel,
		CreatedMs: g.CreatedAt.UnixMilli(), Chat: []wire.Chat{}, ChatMore: more,
	}
	if g.HasSeed {
		seed := g.Seed
		f.Seed = &seed
	}
	f.White.Bot = g.White == s.engineID
	f.Black.Bot = g.Black == s.engineID
	for _, p := range []*wire.Player{&f.White, &f.Black} {
		if r, err := s.st.Rating(ctx, p.ID, g.Variant); err == nil {
			p.Rating = math.Round(r.R)
			p.Provisional = rating.Rating{R: r.R, RD: r.RD, Sigma: r.Sigma}.Provisional()
		}
	}
	var deadline time.Time
	if g.Control.ForfeitDays > 0 {
		_, deadline = s.deadlinesOf(ctx, g, game.Position().SideToMove())
	}
	f.State = state(g, snap.Moves, snap.Offers, game, s.now(), deadline)
	// The chat messages in the snapshot's time only: a later one comes
	// with its event.
	for _, m := range chat {
		if m.Version <= g.Version {
			f.Chat = append(f.Chat, wire.Chat{Version: m.Version, User: m.UserName, Text: m.Text, AtMs: m.At.UnixMilli()})
		}
	}
	return f, nil
}
