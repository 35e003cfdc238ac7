package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Blocks: a player blocks another (at most MaxBlocks). The blocked one
// cannot challenge them (challenges, pbm challenges) nor take their seeks,
// the two are never paired by seeks, and neither sees the other's seeks
// in the lobby; the open challenges between them are cancelled by the
// block. The blocked player's chat lines are left out of what the blocker
// reads: the full game (GET /api/game/{id}), the pages of its chat, and
// the game's stream and WebSocket signed in as the blocker (a WebSocket
// signed in by its first message from then on; the web client hides the
// lines it got before). A stream loads the blocks when its viewer is
// known and again after a block or unblock in its process; a stream on
// another process sees a new block at its next connection.

// mayPlay refuses a game between user and other (a challenge, a seek
// taken, a pbm challenge) when either blocks the other.
func (s *Service) mayPlay(ctx context.Context, user, other User) error {
	if blocks, err := s.st.Blocking(ctx, user.ID, other.ID); err != nil {
		return err
	} else if blocks {
		return errorf(Forbidden, "you block %s: unblock them first to play them", other.Name)
	}
	if blocked, err := s.st.Blocking(ctx, other.ID, user.ID); err != nil {
		return err
	} else if blocked {
		return errorf(Forbidden, "%s does not take challenges from you", other.Name)
	}
	return nil
}

// Block blocks the player named for user.
func (s *Service) Block(ctx context.Context, user User, name string) (wire.Block, error) {
	if err := ValidName(name); err != nil {
		return wire.Block{}, err
	}
	other, err := s.UserByName(ctx, name)
	if err != nil {
		return wire.Block{}, err
	}
	switch {
	case other.ID == user.ID:
		return wire.Block{}, errorf(BadRequest, "you cannot block yourself")
	case other.Bot || other.ID == s.engineID:
		return wire.Block{}, errorf(BadRequest, "the engine cannot be blocked: it does not chat, and plays only those who ask it")
	}
	now := s.now()
	err = s.st.AddBlock(ctx, store.Block{User: user.ID, Blocked: other.ID, At: now}, MaxBlocks)
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return wire.Block{}, errorf(Conflict, "you block %s already", other.Name)
	case errors.Is(err, store.ErrConflict):
		return wire.Block{}, errorf(Conflict, "you block %d players, the most: unblock one first", MaxBlocks)
	case err != nil:
		return wire.Block{}, err
	}
	s.blockGen.Add(1)
	// The challenges between them go: the blocked one's to the blocker,
	// and the blocker's own to the blocked one.
	open, err := s.st.OpenChallenges(ctx, user.ID)
	if err != nil {
		return wire.Block{}, err
	}
	for _, c := range open {
		if c.From == other.ID && c.To == user.ID || c.From == user.ID && c.To == other.ID {
			if err := s.st.CloseChallenge(ctx, c.ID, store.ChallengeCancelled); err == nil {
				c.Status = store.ChallengeCancelled
				s.announceChallenge(ctx, "challengeCanceled", c)
			} else if !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
				return wire.Block{}, err
			}
		}
	}
	return wire.Block{User: player(other.ID, other.Name), SinceMs: truncMs(now).UnixMilli()}, nil
}

// Unblock lifts user's block of the player named.
func (s *Service) Unblock(ctx context.Context, user User, name string) error {
	if err := ValidName(name); err != nil {
		return err
	}
	other, err := s.UserByName(ctx, name)
	if err != nil {
		return err
	}
	if err := s.st.DeleteBlock(ctx, user.ID, other.ID); errors.Is(err, store.ErrNotFound) {
		return errorf(NotFound, "you do not block %s", other.Name)
	} else if err != nil {
		return err
	}
	s.blockGen.Add(1)
	return nil
}

// Blocks returns the players user blocks, newest first.
func (s *Service) Blocks(ctx context.Context, user User) ([]wire.Block, error) {
	bs, err := s.st.Blocks(ctx, user.ID)
	if err != nil {
		return nil, err
	}
	out := []wire.Block{}
	for _, b := range bs {
		out = append(out, wire.Block{User: player(b.Blocked, b.BlockedName), SinceMs: b.At.UnixMilli()})
	}
	return out, nil
}

// A Viewer is who reads a game's chat, so that the lines of the players
// they block are left out. A nil Viewer, or one not signed in, hides
// nothing. A stream's viewer may sign in after it began (a WebSocket's
// first message).
type Viewer struct{ id atomic.Int64 }

// NewViewer returns the viewer u, or one not signed in with nil.
func NewViewer(u *User) *Viewer {
	v := &Viewer{}
	if u != nil {
		v.id.Store(u.ID)
	}
	return v
}

// SignIn names the viewer.
func (v *Viewer) SignIn(u User) { v.id.Store(u.ID) }

func (v *Viewer) user() int64 {
	if v == nil {
		return 0
	}
	return v.id.Load()
}

// chatMask hides, in one game, the chat lines of the players a viewer
// blocks. It looks the blocks up when the viewer is first known, and again
// after a block or unblock in this process (Service.blockGen).
type chatMask struct {
	s       *Service
	game    int64
	v       *Viewer
	players []wire.Player // the game's two, read once
	loaded  bool
	user    int64
	gen     uint64
	hidden  map[string]bool // the names of the game's players the viewer blocks
}

func (s *Service) maskFor(game int64, v *Viewer) *chatMask { return &chatMask{s: s, game: game, v: v} }

// names returns the names whose lines are hidden (nil: none).
func (m *chatMask) names(ctx context.Context) (map[string]bool, error) {
	u := m.v.user()
	if u == 0 {
		return nil, nil
	}
	gen := m.s.blockGen.Load()
	if m.loaded && m.user == u && m.gen == gen {
		return m.hidden, nil
	}
	if m.players == nil {
		g, err := m.s.st.Game(ctx, m.game)
		if err != nil {
			return nil, err
		}
		m.players = []wire.Player{player(g.White, g.WhiteName), player(g.Black, g.BlackName)}
	}
	hidden := map[string]bool{}
	for _, p := range m.players {
		if p.ID == u {
			continue
		}
		blocks, err := m.s.st.Blocking(ctx, u, p.ID)
		if err != nil {
			return nil, err
		}
		if blocks {
			hidden[p.Name] = true
		}
	}
	m.loaded, m.user, m.gen, m.hidden = true, u, gen, hidden
	return hidden, nil
}

// hides reports whether a line of the game's stream is a chat line the
// viewer does not see.
func (m *chatMask) hides(ctx context.Context, line []byte) (bool, error) {
	if !bytes.HasPrefix(line, []byte(`{"type":"chat"`)) {
		return false, nil
	}
	h, err := m.names(ctx)
	if len(h) == 0 || err != nil {
		return false, err
	}
	var c wire.Chat
	if err := json.Unmarshal(line, &c); err != nil {
		return false, err
	}
	return h[c.User], nil
}

// filter leaves out of chat the lines the viewer does not see.
func (m *chatMask) filter(ctx context.Context, chat []wire.Chat) ([]wire.Chat, error) {
	h, err := m.names(ctx)
	if len(h) == 0 || err != nil {
		return chat, err
	}
	return slices.DeleteFunc(chat, func(c wire.Chat) bool { return h[c.User] }), nil
}

// GameAs is Game as viewer reads it: the chat lines of the players they
// block left out.
func (s *Service) GameAs(ctx context.Context, id int64, viewer *Viewer) (wire.GameFull, error) {
	f, err := s.Game(ctx, id)
	if err != nil {
		return f, err
	}
	f.Chat, err = s.maskFor(id, viewer).filter(ctx, f.Chat)
	return f, err
}

// ChatHistoryAs is ChatHistory as viewer reads it (a page may then hold
// fewer lines than asked; More says whether older ones are left).
func (s *Service) ChatHistoryAs(ctx context.Context, id, before int64, limit int, viewer *Viewer) (wire.ChatPage, error) {
	p, err := s.ChatHistory(ctx, id, before, limit)
	if err != nil {
		return p, err
	}
	p.Chat, err = s.maskFor(id, viewer).filter(ctx, p.Chat)
	return p, err
}
