package server

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Who is online.
//
// # What "online" means
//
// A player is online while they hold a live connection to a process (an
// account stream or a game's WebSocket signed in: a session), or within
// Config.OnlineWindow (5 minutes) of their last call with a token, their
// last sign-in or their last pbmserv command. It is what a person means
// by it ("here lately") and costs no more than a map per process:
//
//   - each authenticated call writes the time into a map in memory (a
//     mutex and a map write: no store access on the hot path);
//   - every Config.PresenceEvery (10 s) the process writes the times to
//     the store's last_seen, in one transaction for all, but only those
//     of players it has not written in the last minute (presenceWrite)
//     or not at all: a player who stays on costs one row a minute, and
//     the store's time is at most a minute (and PresenceEvery) behind
//     the last call; one who comes on is written within a second (the
//     writer is woken); the players with a session are seen at each
//     writing;
//   - the players online are read from the store (those seen in the
//     window, by the index of the times) at most every onlineCacheTTL
//     (2 s) per process, and the lists are served from that copy.
//
// So every process sharing a PostgreSQL database sees who is online
// through any of them, within PresenceEvery plus onlineCacheTTL; a
// player who closes their last connection is online for the window
// after; and a player's page says when they were last seen, after a
// restart too. A closed or deleted account is never listed, nor the
// engine; guests are counted, not listed.

// presenceWrite: a player seen again is written again once the time
// written is this old.
const presenceWrite = time.Minute

// onlineCacheTTL is how long a process serves the players online from
// its copy before it reads them again.
const onlineCacheTTL = 2 * time.Second

// MaxOnlineListed bounds the players online a process keeps in its copy
// and lists (the most recently seen; Online.Count counts them all).
const MaxOnlineListed = 1000

// MaxOnlinePage is the most players online a page lists.
const MaxOnlinePage = 100

// presence is what a process knows of the players seen lately.
type presence struct {
	mu sync.Mutex
	// seen are the players seen since the last writing, and when.
	seen map[int64]time.Time
	// written is when each player seen in the window was written last.
	written map[int64]time.Time
	// wake makes the writer write at once (a player newly online).
	wake chan struct{}

	cacheMu sync.Mutex // one read of the store at a time
	cache   onlineCopy
}

// onlineCopy is the players online as last read from the store.
type onlineCopy struct {
	at              time.Time // when read; zero: never, or to be read again
	list            []store.Seen
	players, guests int
	ids             map[int64]bool
}

func newPresence() presence {
	return presence{seen: map[int64]time.Time{}, written: map[int64]time.Time{}, wake: make(chan struct{}, 1)}
}

// seenNow records that user was seen now (an authenticated call).
func (s *Service) seenNow(u User) {
	if u.Bot || u.ID == 0 {
		return
	}
	now := s.now()
	p := &s.presence
	p.mu.Lock()
	p.seen[u.ID] = now
	w, ok := p.written[u.ID]
	fresh := !ok || now.Sub(w) >= s.cfg.OnlineWindow
	p.mu.Unlock()
	if fresh {
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
}

// sessionUsers returns the users with a session (a live connection) in
// this process.
func (s *Service) sessionUsers() map[int64]bool {
	s.sessions.mu.Lock()
	defer s.sessions.mu.Unlock()
	out := make(map[int64]bool, len(s.sessions.m))
	for x := range s.sessions.m {
		out[x.user] = true
	}
	return out
}

// presenceWriter writes the times seen to the store every PresenceEvery,
// or soon after a player comes online, until the service closes.
func (s *Service) presenceWriter() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.PresenceEvery)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		case <-s.presence.wake:
			// A moment for the others who come on with this one.
			select {
			case <-s.ctx.Done():
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
		_ = Safely(s.log, "presence writer", s.writePresence)
	}
}

// writePresence writes to the store the times of the players to write:
// those seen and not written in the last presenceWrite, and those with a
// session, as of now.
func (s *Service) writePresence() {
	now := s.now()
	live := s.sessionUsers()
	p := &s.presence
	p.mu.Lock()
	batch := map[int64]time.Time{}
	for id, at := range p.seen {
		w, ok := p.written[id]
		switch {
		case ok && !at.After(w):
			delete(p.seen, id) // written already
		case !ok || now.Sub(w) >= presenceWrite:
			// A time newer than the one written waits at most a
			// minute: the store's is never more than that behind.
			batch[id] = at
			delete(p.seen, id)
		}
	}
	for id := range live {
		if w, ok := p.written[id]; !ok || now.Sub(w) >= presenceWrite {
			batch[id] = now
		}
	}
	p.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, time.Minute)
	defer cancel()
	if err := s.st.SetSeen(ctx, batch); err != nil {
		if s.ctx.Err() == nil {
			s.log.Warn("writing when players were seen", "players", len(batch), "err", err)
		}
		// Seen again at the next writing.
		p.mu.Lock()
		for id, at := range batch {
			if old, ok := p.seen[id]; !ok || old.Before(at) {
				p.seen[id] = at
			}
		}
		p.mu.Unlock()
		return
	}
	fresh := false
	p.mu.Lock()
	for id, at := range batch {
		// Newly online: never written, or last written so long ago that
		// the lists read since have left the player out (the sweep below
		// may not have dropped that old time yet).
		if w, ok := p.written[id]; !ok || now.Sub(w) >= s.cfg.OnlineWindow {
			fresh = true
		}
		p.written[id] = at
	}
	for id, at := range p.written {
		if now.Sub(at) >= s.cfg.OnlineWindow {
			delete(p.written, id)
		}
	}
	p.mu.Unlock()
	if fresh {
		// Newcomers: this process lists them at once.
		s.presence.cacheMu.Lock()
		s.presence.cache.at = time.Time{}
		s.presence.cacheMu.Unlock()
	}
}

// online returns the copy of the players online, read again from the
// store when it is older than onlineCacheTTL.
func (s *Service) online(ctx context.Context) (onlineCopy, error) {
	p := &s.presence
	p.cacheMu.Lock()
	defer p.cacheMu.Unlock()
	now := s.now()
	if !p.cache.at.IsZero() && now.Sub(p.cache.at) < onlineCacheTTL && !now.Before(p.cache.at) {
		return p.cache, nil
	}
	list, players, guests, err := s.st.SeenSince(ctx, now.Add(-s.cfg.OnlineWindow), MaxOnlineListed)
	if err != nil {
		return onlineCopy{}, err
	}
	c := onlineCopy{at: now, list: list, players: players, guests: guests, ids: make(map[int64]bool, len(list))}
	for _, x := range list {
		c.ids[x.User] = true
	}
	p.cache = c
	return c, nil
}

// Online returns a page of the players online, by name, after the name
// after (""), at most limit (1 to MaxOnlinePage; 0: 50); with a viewer,
// without the players they block. Count and Guests count everyone.
func (s *Service) Online(ctx context.Context, viewer *User, after string, limit int) (wire.Online, error) {
	if limit <= 0 {
		limit = 50
	}
	if limit > MaxOnlinePage {
		return wire.Online{}, errorf(BadRequest, "a page lists 1 to %d players", MaxOnlinePage)
	}
	if after != "" {
		if err := ValidName(after); err != nil {
			return wire.Online{}, errorf(BadRequest, "after %q is not a player's name", after)
		}
	}
	c, err := s.online(ctx)
	if err != nil {
		return wire.Online{}, err
	}
	var hide map[int64]bool
	if viewer != nil {
		bs, err := s.st.Blocks(ctx, viewer.ID)
		if err != nil {
			return wire.Online{}, err
		}
		hide = map[int64]bool{}
		for _, b := range bs {
			hide[b.Blocked] = true
		}
	}
	out := wire.Online{Count: c.players, Guests: c.guests, Players: []wire.Player{}}
	key := strings.ToLower(after)
	for _, x := range c.list {
		if hide[x.User] || after != "" && strings.ToLower(x.Name) <= key {
			continue
		}
		if len(out.Players) == limit {
			out.More = true
			break
		}
		out.Players = append(out.Players, player(x.User, x.Name))
	}
	return out, nil
}

// isOnline reports whether user is online, given the copy of the players
// online: a session here, a call here within the window, or the store's
// time within it.
func (s *Service) isOnline(c onlineCopy, user int64) bool {
	if c.ids[user] {
		return true
	}
	if s.sessionUsers()[user] {
		return true
	}
	now := s.now()
	p := &s.presence
	p.mu.Lock()
	defer p.mu.Unlock()
	at, ok := p.seen[user]
	if !ok {
		at, ok = p.written[user]
	}
	return ok && now.Sub(at) < s.cfg.OnlineWindow
}

// Presence is whether a player is online and when they were last seen
// (zero: never), for their page. A closed account is neither.
type Presence struct {
	Online bool
	Seen   time.Time
}

// PresenceOf returns the presence of user.
func (s *Service) PresenceOf(ctx context.Context, user User) (Presence, error) {
	u, err := s.st.User(ctx, user.ID)
	if err != nil {
		return Presence{}, err
	}
	if !u.ClosedAt.IsZero() || u.Bot {
		return Presence{}, nil
	}
	seen, err := s.st.LastSeen(ctx, user.ID)
	if err != nil {
		return Presence{}, err
	}
	p := &s.presence
	p.mu.Lock()
	if at, ok := p.seen[user.ID]; ok && at.After(seen) {
		seen = at
	}
	p.mu.Unlock()
	live := s.sessionUsers()[user.ID]
	if live {
		seen = s.now()
	}
	online := live || !seen.IsZero() && s.now().Sub(seen) < s.cfg.OnlineWindow
	return Presence{Online: online, Seen: truncMs(seen)}, nil
}

// onlineSet returns which of ids are online, for the lists of follows.
func (s *Service) onlineSet(ctx context.Context, ids []int64) (map[int64]bool, error) {
	c, err := s.online(ctx)
	if err != nil {
		return nil, err
	}
	out := map[int64]bool{}
	for _, id := range ids {
		if s.isOnline(c, id) {
			out[id] = true
		}
	}
	return out, nil
}
