package server

import "sync"

// Event is a change announced to the streams: one JSON line (without its
// line break) and the game's version it brings the listener to (0 for the
// account events, which have no version).
type Event struct {
	Version int64
	Data    []byte
}

// sub is one listener. Events go into a bounded buffer; a listener that
// falls behind loses events, is told so through kick, and catches up from
// the store, which holds everything a game stream sends (hub.go only
// carries the news fast within one process).
type sub struct {
	c    chan Event
	kick chan struct{}
}

const subBuffer = 256

func newSub() *sub { return &sub{c: make(chan Event, subBuffer), kick: make(chan struct{}, 1)} }

func (s *sub) send(e Event) {
	select {
	case s.c <- e:
	default:
		select {
		case s.kick <- struct{}{}:
		default:
		}
	}
}

// hub carries events to the listeners of games and of accounts in this
// process. It holds no game state: what it loses, the store still has.
type hub struct {
	mu    sync.Mutex
	games map[int64]map[*sub]struct{}
	users map[int64]map[*sub]struct{}
}

func newHub() *hub {
	return &hub{games: map[int64]map[*sub]struct{}{}, users: map[int64]map[*sub]struct{}{}}
}

func add(m map[int64]map[*sub]struct{}, k int64, s *sub) {
	if m[k] == nil {
		m[k] = map[*sub]struct{}{}
	}
	m[k][s] = struct{}{}
}

func remove(m map[int64]map[*sub]struct{}, k int64, s *sub) {
	delete(m[k], s)
	if len(m[k]) == 0 {
		delete(m, k)
	}
}

func (h *hub) watchGame(id int64) (*sub, func()) {
	s := newSub()
	h.mu.Lock()
	add(h.games, id, s)
	h.mu.Unlock()
	return s, func() { h.mu.Lock(); remove(h.games, id, s); h.mu.Unlock() }
}

func (h *hub) watchUser(id int64) (*sub, func()) {
	s := newSub()
	h.mu.Lock()
	add(h.users, id, s)
	h.mu.Unlock()
	return s, func() { h.mu.Lock(); remove(h.users, id, s); h.mu.Unlock() }
}

// watched reports whether anyone in this process listens to a game, so
// that a change nobody listens to costs no JSON.
func (h *hub) watched(id int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.games[id]) > 0
}

func (h *hub) publishGame(id int64, e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.games[id] {
		s.send(e)
	}
}

func (h *hub) publishUser(id int64, e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.users[id] {
		s.send(e)
	}
}

// counts returns the number of game and account listeners.
func (h *hub) counts() (games, users int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range h.games {
		games += len(m)
	}
	for _, m := range h.users {
		users += len(m)
	}
	return games, users
}
