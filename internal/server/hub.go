package server

import (
	"maps"
	"sync"
)

// Event is a change announced to the streams: one JSON line (without its
// line break) and the game's version it brings the listener to (0 for the
// account events, which have no version).
type Event struct {
	Version int64
	Data    []byte
	// Change, if not nil, is what the event did to the game, relayed to
	// the other processes so that their copies of the game follow it
	// (Service.follow); the streams do not see it.
	Change *Change
	// Followed, for an event of the games of players followed (a game of
	// theirs starting or ending: friends.go), are the game's two players,
	// so that each follower's stream can leave out what it must not send.
	Followed [2]int64
}

// sub is one listener. Events go into a bounded buffer; a listener that
// falls behind loses events, is told so through kick, and catches up from
// the store, which holds everything a game stream sends (hub.go only
// carries the news fast within one process).
type sub struct {
	c    chan Event
	kick chan struct{}
	// reload tells an account's listener that the players it follows,
	// or its blocks, changed (friends.go); follows are the players it
	// listens to the games of (hub.followed), kept under the hub's lock.
	reload  chan struct{}
	follows []int64
}

const subBuffer = 256

func newSub() *sub {
	return &sub{c: make(chan Event, subBuffer), kick: make(chan struct{}, 1), reload: make(chan struct{}, 1)}
}

func (s *sub) send(e Event) {
	select {
	case s.c <- e:
	default:
		s.kickNow()
	}
}

// hub carries events to the listeners of games and of accounts in this
// process. It holds no game state: what it loses, the store still has.
type hub struct {
	mu    sync.Mutex
	games map[int64]map[*sub]struct{}
	users map[int64]map[*sub]struct{}
	// followed are, for each player followed by an account listening
	// here, the listeners of those who follow them (friends.go).
	followed map[int64]map[*sub]struct{}
	// versions is, for each game listened to here, the latest version
	// its listeners were brought (an event delivered, or a catch-up from
	// the store): the poll (Service.pollStreams) compares it with the
	// store's to find the changes that came through no event.
	versions map[int64]int64
	// relay, if not nil, also sends what is published here to the other
	// processes sharing the database (relay.go): "g" for a game's event,
	// "u" for an account's. It never blocks.
	relay func(kind string, id int64, e Event)
}

// setRelay sets the hub's relay; call it before the hub is used.
func (h *hub) setRelay(fn func(kind string, id int64, e Event)) { h.relay = fn }

func newHub() *hub {
	return &hub{games: map[int64]map[*sub]struct{}{}, users: map[int64]map[*sub]struct{}{}, followed: map[int64]map[*sub]struct{}{},
		versions: map[int64]int64{}}
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
	return s, func() {
		h.mu.Lock()
		remove(h.games, id, s)
		if h.games[id] == nil {
			delete(h.versions, id)
		}
		h.mu.Unlock()
	}
}

// seen records that a game's listener is at version v.
func (h *hub) seen(id, v int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sawLocked(id, v)
}

func (h *hub) sawLocked(id, v int64) {
	if h.games[id] == nil {
		return
	}
	if cur, ok := h.versions[id]; !ok || v > cur {
		h.versions[id] = v
	}
}

// watchedGames returns the games listened to here and the versions their
// listeners were brought.
func (h *hub) watchedGames() map[int64]int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.versions)
}

func (h *hub) watchUser(id int64) (*sub, func()) {
	s := newSub()
	h.mu.Lock()
	add(h.users, id, s)
	h.mu.Unlock()
	return s, func() {
		h.mu.Lock()
		remove(h.users, id, s)
		for _, f := range s.follows {
			remove(h.followed, f, s)
		}
		s.follows = nil
		h.mu.Unlock()
	}
}

// watchFollowed makes an account's listener s listen to the games of the
// players ids, instead of those it listened to.
func (h *hub) watchFollowed(s *sub, ids []int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range s.follows {
		remove(h.followed, f, s)
	}
	s.follows = ids
	for _, f := range ids {
		add(h.followed, f, s)
	}
}

// publishFollowed sends the event of a game of players e.Followed to the
// listeners of those who follow either, here and, through the relay, in
// the other processes.
func (h *hub) publishFollowed(e Event) {
	h.deliverFollowed(e)
	if h.relay != nil {
		h.relay("f", 0, e)
	}
}

// deliverFollowed sends the event of a game of players e.Followed to the
// listeners here of those who follow either, once each.
func (h *hub) deliverFollowed(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	a, b := h.followed[e.Followed[0]], h.followed[e.Followed[1]]
	for s := range a {
		s.send(e)
	}
	for s := range b {
		if _, twice := a[s]; !twice {
			s.send(e)
		}
	}
}

// reloadFollows tells the listeners of the account user, here and in the
// other processes, that whom it follows or blocks changed.
func (h *hub) reloadFollows(user int64) {
	h.deliverReload(user)
	if h.relay != nil {
		h.relay("F", user, Event{})
	}
}

func (h *hub) deliverReload(user int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.users[user] {
		select {
		case s.reload <- struct{}{}:
		default:
		}
	}
}

// watched reports whether anyone may listen to a game, so that a change
// nobody listens to costs no JSON: someone in this process, or anyone at
// all when events are relayed to other processes.
func (h *hub) watched(id int64) bool {
	if h.relay != nil {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.games[id]) > 0
}

// publishGame sends a game's event to its listeners here and, through the
// relay, in the other processes.
func (h *hub) publishGame(id int64, e Event) {
	h.deliverGame(id, e)
	if h.relay != nil {
		h.relay("g", id, e)
	}
}

// publishUser sends an account's event to its listeners here and, through
// the relay, in the other processes.
func (h *hub) publishUser(id int64, e Event) {
	h.deliverUser(id, e)
	if h.relay != nil {
		h.relay("u", id, e)
	}
}

// relayJob tells the other processes that an engine job was queued, so
// that an idle worker there may take it at once.
func (h *hub) relayJob() {
	if h.relay != nil {
		h.relay("j", 0, Event{})
	}
}

// relayAnalysis tells the other processes that an analysis was handed
// over, so that an idle analyst there may take it at once.
func (h *hub) relayAnalysis() {
	if h.relay != nil {
		h.relay("a", 0, Event{})
	}
}

// relayAnalysisAnswered tells the other processes that the analysis id
// handed over has its answer, so that the one that asked reads it at once.
func (h *hub) relayAnalysisAnswered(id int64) {
	if h.relay != nil {
		h.relay("A", id, Event{})
	}
}

// relayTournament tells the other processes that an event changed, so
// that its streams there read it again.
func (h *hub) relayTournament(id int64) {
	if h.relay != nil {
		h.relay("T", id, Event{})
	}
}

// relaying reports whether events go to other processes too.
func (h *hub) relaying() bool { return h.relay != nil }

// deliverGame sends a game's event to its listeners in this process.
func (h *hub) deliverGame(id int64, e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sawLocked(id, e.Version)
	for s := range h.games[id] {
		s.send(e)
	}
}

// deliverUser sends an account's event to its listeners in this process.
func (h *hub) deliverUser(id int64, e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.users[id] {
		s.send(e)
	}
}

// kickNow tells a listener to catch up from the store.
func (s *sub) kickNow() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// kickGame makes a game's listeners here catch up from the store.
func (h *hub) kickGame(id int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.games[id] {
		s.kickNow()
	}
}

// kickUser makes an account's listeners here catch up (their account's
// state sent again).
func (h *hub) kickUser(id int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.users[id] {
		s.kickNow()
	}
}

// kickAll makes every listener here catch up from the store.
func (h *hub) kickAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range []map[int64]map[*sub]struct{}{h.games, h.users} {
		for _, subs := range m {
			for s := range subs {
				s.kickNow()
			}
		}
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
