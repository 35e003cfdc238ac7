package server

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Send writes one line of a stream (a JSON value), or a keep-alive when
// line is nil. An error ends the stream.
type Send func(line []byte) error

// WatchGame streams a game to send until ctx ends or send fails: first the
// full game (since < 0), or what came after version since (a client that
// reconnects), then every change in order, and a keep-alive now and then.
// Anyone may watch. Nothing is missed: a change that the hub does not
// bring (a slow listener, another process) is read from the store.
func (s *Service) WatchGame(ctx context.Context, id int64, since int64, send Send) error {
	return s.WatchGameAs(ctx, id, since, nil, send)
}

// WatchGameAs is WatchGame for a viewer: the chat lines of the players
// they block are left out from the moment the viewer is signed in
// (blocks.go). The versions of the lines left out are passed over, as a
// client that reconnects with ?since is sent nothing for them either.
func (s *Service) WatchGameAs(ctx context.Context, id int64, since int64, viewer *Viewer, send Send) error {
	mask := s.maskFor(id, viewer)
	sub, stop := s.hub.watchGame(id)
	defer stop()
	s.metrics.streamOpened()
	defer s.metrics.streamClosed()

	var last int64
	if since < 0 {
		snap, game, err := s.snapshot(ctx, id)
		if err != nil {
			return err
		}
		f, err := s.full(ctx, snap, game)
		if err != nil {
			return err
		}
		if f.Chat, err = mask.filter(ctx, f.Chat); err != nil {
			return err
		}
		if err := send(mustJSON(f)); err != nil {
			return err
		}
		last = snap.Game.Version
	} else {
		var err error
		if last, err = s.catchUp(ctx, id, since, mask, send); err != nil {
			return err
		}
	}
	s.hub.seen(id, last)
	keep := time.NewTicker(s.cfg.KeepAlive)
	defer keep.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			return nil
		case <-s.streams.Done():
			return nil
		case ev := <-sub.c:
			switch {
			case ev.Version <= last:
			case ev.Version == last+1:
				var hide bool
				if hide, err = mask.hides(ctx, ev.Data); err == nil && !hide {
					err = send(ev.Data)
				}
				last = ev.Version
			default:
				last, err = s.catchUp(ctx, id, last, mask, send)
				s.hub.seen(id, last)
			}
		case <-sub.kick:
			// Events lost (a full buffer), or the poll found the
			// store ahead of what the events brought.
			last, err = s.catchUp(ctx, id, last, mask, send)
			s.hub.seen(id, last)
		case <-keep.C:
			err = send(nil)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// catchUp sends what changed in a game after version since, from the
// store: the moves and chat messages that have their versions, and then,
// if any change had none of its own (an offer, a take-back, an end off the
// board), the game's state. It returns the version the listener is at.
// The chat lines mask hides are passed over.
func (s *Service) catchUp(ctx context.Context, id, since int64, mask *chatMask, send Send) (int64, error) {
	snap, game, err := s.snapshot(ctx, id)
	if err != nil {
		return since, err
	}
	g := snap.Game
	if g.Version == since {
		return since, nil
	}
	if g.Version < since {
		// A version this game never had (another game's, or made up):
		// the client's view cannot be trusted, so it gets the game afresh.
		f, err := s.full(ctx, snap, game)
		if err != nil {
			return since, err
		}
		if f.Chat, err = mask.filter(ctx, f.Chat); err != nil {
			return since, err
		}
		return g.Version, send(mustJSON(f))
	}
	// At most the last ChatHistory messages, as the full game has: the
	// versions of older ones are not covered, so the state follows them.
	chat, _, err := s.st.ChatPage(ctx, id, since, g.Version+1, ChatHistory)
	if err != nil {
		return since, err
	}
	type line struct {
		v    int64
		data []byte
	}
	var lines []line
	// Replay to give each move event its position.
	replayed, err := Replay(g, nil)
	if err != nil {
		return since, err
	}
	covered := map[int64]bool{}
	for i, m := range snap.Moves {
		if err := replayed.PlayText(m.Text); err != nil {
			return since, err
		}
		if m.Version <= since || m.Version > g.Version {
			continue
		}
		p := replayed.Position()
		ev := wire.Move{Type: "move", Version: m.Version, Ply: m.Ply, Move: m.Text, Position: p.String(),
			ToMove: colorName(p.SideToMove()), Status: string(store.Active), Result: "*"}
		if g.Control.Initial > 0 {
			ev.Clocks = &wire.Clocks{WhiteMs: m.Left[0].Milliseconds(), BlackMs: m.Left[1].Milliseconds(), AtMs: m.At.UnixMilli()}
		}
		if i == len(snap.Moves)-1 && m.Version == g.Version {
			ev.Status, ev.Result, ev.Method = string(g.Status), g.Result, g.Method
		}
		lines = append(lines, line{m.Version, mustJSON(ev)})
		covered[m.Version] = true
	}
	hidden, err := mask.names(ctx)
	if err != nil {
		return since, err
	}
	for _, c := range chat {
		if c.Version > g.Version {
			continue
		}
		covered[c.Version] = true
		if hidden[c.UserName] {
			continue
		}
		lines = append(lines, line{c.Version, mustJSON(wire.Chat{Type: "chat", Version: c.Version, User: c.UserName, Text: c.Text, AtMs: c.At.UnixMilli()})})
	}
	slices.SortFunc(lines, func(a, b line) int { return int(a.v - b.v) })
	for _, l := range lines {
		if err := send(l.data); err != nil {
			return since, err
		}
	}
	for v := since + 1; v <= g.Version; v++ {
		if !covered[v] {
			var deadline time.Time
			if g.Control.ForfeitDays > 0 {
				_, deadline = s.deadlinesOf(ctx, g, game.Position().SideToMove())
			}
			if err := send(mustJSON(state(g, snap.Moves, snap.Offers, game, s.now(), deadline))); err != nil {
				return since, err
			}
			break
		}
	}
	return g.Version, nil
}

// WatchAccount streams a user's events: first a gameStart for each game
// they play that is going on and a challenge for each open challenge to or
// from them, closed by a synced line, then what happens (games starting and ending, challenges,
// reminders, the moves of games they follow, the games of the players
// they follow starting and ending), with keep-alives.
func (s *Service) WatchAccount(ctx context.Context, user User, send Send) error {
	sub, stop := s.hub.watchUser(user.ID)
	defer stop()
	s.metrics.streamOpened()
	defer s.metrics.streamClosed()
	follows, blocked, err := s.followState(ctx, user)
	if err != nil {
		return err
	}
	s.hub.watchFollowed(sub, follows)
	if err := s.accountState(ctx, user, send); err != nil {
		return err
	}
	keep := time.NewTicker(s.cfg.KeepAlive)
	defer keep.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			return nil
		case <-s.streams.Done():
			return nil
		case ev := <-sub.c:
			if ev.Followed == [2]int64{} || passFollowed(user.ID, ev, blocked) {
				err = send(ev.Data)
			}
		case <-sub.reload:
			// Whom the user follows or blocks changed (friends.go).
			if follows, blocked, err = s.followState(ctx, user); err == nil {
				s.hub.watchFollowed(sub, follows)
			}
		case <-sub.kick:
			// The listener fell behind and lost events: it is sent the
			// account's state again (its games going on and its open
			// challenges), from which it can tell what it missed.
			err = s.accountState(ctx, user, send)
		case <-keep.C:
			err = send(nil)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// syncedLine ends the account's state on its stream.
var syncedLine = mustJSON(wire.Event{Type: "synced"})

// accountState sends a gameStart for each game user plays that is going
// on, a challenge for each open challenge to or from them, and a warning
// for each warning of a moderator's they have not acknowledged; then a
// synced line, which tells a client that what follows happens now (a
// gameStart after it is a game that has just started).
func (s *Service) accountState(ctx context.Context, user User, send Send) error {
	games, err := s.st.Games(ctx, store.GameQuery{User: user.ID, Status: store.Active})
	if err != nil {
		return err
	}
	for _, g := range slices.Backward(games) {
		sum := s.summaryOf(g)
		switch ev, err := s.st.TournamentOfGame(ctx, g.ID); {
		case err == nil:
			sum.Event = ev
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		if err := send(mustJSON(wire.Event{Type: "gameStart", Game: sum})); err != nil {
			return err
		}
	}
	chs, err := s.st.OpenChallenges(ctx, user.ID)
	if err != nil {
		return err
	}
	for _, c := range chs {
		wc, err := s.wireChallenge(ctx, c)
		if err != nil {
			return err
		}
		if err := send(mustJSON(wire.Event{Type: "challenge", Challenge: &wc})); err != nil {
			return err
		}
	}
	if err := s.sendWarnings(ctx, user, send); err != nil {
		return err
	}
	return send(syncedLine)
}
