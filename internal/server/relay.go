package server

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
)

// The relay carries events between the server processes that share one
// PostgreSQL database, so that a move, an offer, a chat message or a game's
// end made through one process reaches the streams open on every other
// within a millisecond or two, instead of at the next poll of the store
// (Config.PollEvery, which stays as the fallback that heals a notification
// lost while a listener was reconnecting).
//
// Every event the hub publishes is also queued for the other processes and
// sent in batches through store.Notify (PostgreSQL's NOTIFY, on the
// database's and schema's channel): the event's JSON line itself when it
// fits in a notification, else only which game or account changed. Every
// process listens (store.Listen) and hands what others sent to its own
// hub: a game's event to the game's streams, which take it like one made
// here (and catch up from the store when it does not follow the version
// they are at), or, for a change without its line, a kick that makes them
// catch up from the store. Each time the listener is listening again after
// a lost connection, every stream of this process catches up from the
// store, so nothing sent meanwhile is lost for good. No broker: the
// database the processes already share carries the news.

// relayNote is one notification's payload.
type relayNote struct {
	Origin  string          `json:"o"`           // the sending process
	Kind    string          `json:"k"`           // "g": a game's stream, "u": an account's, "j": an engine job queued, "a": an analysis handed over, "A": one answered, "t": tokens revoked, "f": a game of players followed, "F": an account's follows changed, "T": an event changed
	ID      int64           `json:"id"`          // the game or the account
	Version int64           `json:"v,omitempty"` // the game's version the event brings
	Data    json.RawMessage `json:"d,omitempty"` // the event's line; absent: catch up from the store
	Change  *Change         `json:"c,omitempty"` // what the event did to the game, for the copies of it (follow)
	// Players, kind "f": the game's two players, whose followers' streams
	// are sent Data (always there: a game's summary fits).
	Players []int64 `json:"p,omitempty"`
	// Kind "t", tokens revoked (account.go): those of the account ID but
	// Keep's, or only Token's (hashes).
	Keep  string `json:"keep,omitempty"`
	Token string `json:"tok,omitempty"`
}

// relayQueue is how many events may wait for the sender; more are dropped
// (and healed by the poll).
const relayQueue = 4096

type relay struct {
	s      *Service
	origin string
	q      chan relayNote
}

func newRelay(s *Service) *relay {
	return &relay{s: s, origin: s.process, q: make(chan relayNote, relayQueue)}
}

// send queues an event for the other processes; it never blocks.
func (r *relay) send(kind string, id int64, e Event) {
	select {
	case r.q <- relayNote{Origin: r.origin, Kind: kind, ID: id, Version: e.Version, Data: e.Data, Change: e.Change, Players: eventPlayers(e)}:
	default:
		r.s.metrics.relayDropped()
	}
}

// eventPlayers are the players of a followed game's event, nil for the others.
func eventPlayers(e Event) []int64 {
	if e.Followed == [2]int64{} {
		return nil
	}
	return e.Followed[:]
}

// payload is n as a notification: with its line if it fits, else without.
func (r *relay) payload(n relayNote) string {
	b, err := json.Marshal(n)
	if err != nil || len(b) > store.MaxNotifyPayload {
		n.Data = nil
		b, _ = json.Marshal(n)
	}
	return string(b)
}

// sender sends what is queued, in batches of what has come meanwhile,
// until ctx ends.
func (r *relay) sender(ctx context.Context) {
	batch := make([]string, 0, 256)
	for {
		batch = batch[:0]
		select {
		case <-ctx.Done():
			return
		case n := <-r.q:
			batch = append(batch, r.payload(n))
		}
	more:
		for len(batch) < cap(batch) {
			select {
			case n := <-r.q:
				batch = append(batch, r.payload(n))
			default:
				break more
			}
		}
		if err := r.s.st.Notify(ctx, batch); err != nil {
			if ctx.Err() != nil {
				return
			}
			r.s.metrics.relayDropped()
			r.s.log.Warn("relay: notifying the other processes", "events", len(batch), "err", err)
			continue
		}
		r.s.metrics.relaySent(len(batch))
	}
}

// listener hands what the other processes send to this process's hub,
// until ctx ends.
func (r *relay) listener(ctx context.Context) {
	first := true
	r.s.st.Listen(ctx, r.heard, func() {
		if !first {
			// Back after a lost connection: whatever was sent meanwhile
			// is in the store.
			r.s.hub.kickAll()
			// A revocation missed meanwhile must not live on in the
			// token cache (account.go).
			r.s.tokens.dropAll()
			r.s.log.Info("relay: listening again; the streams catch up from the store")
		}
		first = false
	}, func(err error) {
		r.s.log.Warn("relay: the listening connection failed; connecting again", "err", err)
	})
}

// heard takes one notification of another process. A panic on it (a
// change that this process's copy of the game cannot take) is logged and
// costs that notification only: the streams catch up from the store.
func (r *relay) heard(payload string) {
	_ = Safely(r.s.log, "relay: a notification", func() { r.take(payload) })
}

func (r *relay) take(payload string) {
	if h := r.s.cfg.hooks.relay; h != nil {
		h(payload)
	}
	var n relayNote
	if err := json.Unmarshal([]byte(payload), &n); err != nil {
		r.s.log.Warn("relay: a notification that is not ours", "err", err)
		return
	}
	if n.Origin == r.origin {
		return
	}
	r.s.metrics.relayHeard()
	switch n.Kind {
	case "g":
		// The copy first, so that a player who answers the event at
		// once finds this process's copy of the game up to date.
		r.s.follow(n.ID, n.Version, n.Change)
		if n.Data == nil {
			r.s.hub.kickGame(n.ID)
			return
		}
		r.s.hub.deliverGame(n.ID, Event{Version: n.Version, Data: n.Data})
	case "u":
		if n.Data == nil {
			r.s.hub.kickUser(n.ID)
			return
		}
		r.s.hub.deliverUser(n.ID, Event{Data: n.Data})
	case "j":
		if r.s.engine != nil {
			r.s.engine.poke()
		}
	case "t":
		r.s.dropTokens(n.ID, n.Keep, n.Token)
	case "f":
		if n.Data != nil && len(n.Players) == 2 {
			r.s.hub.deliverFollowed(Event{Data: n.Data, Followed: [2]int64{n.Players[0], n.Players[1]}})
		}
	case "F":
		r.s.hub.deliverReload(n.ID)
	case "a":
		select {
		case r.s.analysis.wake <- struct{}{}:
		default:
		}
	case "A":
		r.s.analysisAnswered(n.ID)
	case "T":
		r.s.tournamentNews(n.ID)
	}
}

// startRelay starts the relay's sender and listener if the store can
// notify (PostgreSQL).
func (s *Service) startRelay() {
	if !s.st.CanNotify() {
		return
	}
	r := newRelay(s)
	s.hub.setRelay(r.send)
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.restarting("relay sender", r.sender) }()
	go func() { defer s.wg.Done(); s.restarting("relay listener", r.listener) }()
}

// restarting runs fn until the service closes, again after a second if it
// panics (logged): the relay's goroutines serve every game of the process.
func (s *Service) restarting(what string, fn func(ctx context.Context)) {
	for {
		if Safely(s.log, what, func() { fn(s.ctx) }) == nil {
			return
		}
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// Change is what a game's event did to the game, in the terms of the
// store: a move with what was stored with it, or a chat message, which
// changes only the game's version. The other processes' copies of the game
// follow it (Service.follow) instead of reading the game again.
type Change struct {
	Chat    bool     `json:"chat,omitempty"`
	Ply     int      `json:"p"`
	Move    string   `json:"m,omitempty"`
	AtMs    int64    `json:"at,omitempty"`
	LeftMs  [2]int64 `json:"l"`
	Running int      `json:"r"`
	SinceMs int64    `json:"s,omitempty"` // 0: no clock running
	Ended   bool     `json:"e,omitempty"`
}

// moveChange is the Change of the move o's copy just stored.
func moveChange(o *owner) *Change {
	m := o.moves[len(o.moves)-1]
	c := &Change{Ply: m.Ply, Move: m.Text, AtMs: m.At.UnixMilli(), Running: o.g.Clocks.Running, Ended: !o.active(),
		LeftMs: [2]int64{o.g.Clocks.Left[0].Milliseconds(), o.g.Clocks.Left[1].Milliseconds()}}
	if !o.g.Clocks.Since.IsZero() {
		c.SinceMs = o.g.Clocks.Since.UnixMilli()
	}
	return c
}

// follow brings this process's copy of a game, if it keeps one, up to a
// change another process made. A move is played on the copy when the copy
// is at the version just before it, as the process that made it did; a
// chat message moves the copy's version. Anything else (another kind of
// change, a move that ends the game and so changes ratings, a copy that
// missed an event) drops the copy, which is read afresh when next used.
// Without this, each move made through another process cost the next move
// here a refused write and a reload.
//
// The change is kept on the owner first, then played if the owner is
// free. A copy in use at that moment is not waited for (the listener
// serves every game): its next holder plays the change first (owner.lock).
func (s *Service) follow(id, version int64, c *Change) {
	s.mu.Lock()
	o := s.owners[id]
	s.mu.Unlock()
	if o == nil {
		return
	}
	o.hear(version, c)
	if !o.mu.TryLock() {
		return
	}
	defer o.mu.Unlock()
	o.catchUp()
}

// follow plays one change another process made on the copy, or drops the
// copy (Service.follow). o.mu is held.
func (o *owner) follow(version int64, c *Change) {
	if !o.loaded || version <= o.g.Version {
		return // nothing to follow, or the copy has it already
	}
	if c != nil && version == o.g.Version+1 {
		if c.Chat {
			o.g.Version = version
			return
		}
		if c.Move != "" && !c.Ended && c.Ply == o.g.Ply && o.apply(version, c) {
			o.s.metrics.followed()
			return
		}
	}
	o.loaded = false
}

// apply plays a move another process stored (follow), and reports
// whether the copy took it.
func (o *owner) apply(version int64, c *Change) bool {
	next := *o.game // a shallow copy to try the move on, as playLocked does
	if err := next.PlayText(c.Move); err != nil || next.Outcome() != mill.NoOutcome {
		return false
	}
	at := time.UnixMilli(c.AtMs).UTC()
	clocks := store.Clocks{Left: [2]time.Duration{time.Duration(c.LeftMs[0]) * time.Millisecond, time.Duration(c.LeftMs[1]) * time.Millisecond}, Running: c.Running}
	if c.SinceMs != 0 {
		clocks.Since = time.UnixMilli(c.SinceMs).UTC()
	}
	o.game = &next
	o.moves = append(o.moves, store.Move{Ply: c.Ply, Text: c.Move, At: at, Left: clocks.Left, Version: version})
	o.offers = nil // a move withdraws the offers
	o.g.Ply++
	o.g.Version = version
	o.g.Clocks = clocks
	o.g.LastMoveAt, o.g.UpdatedAt = at, at
	// The flag's timer lives in the process that made the move (and the
	// flag sweep stands in for it if that process dies).
	o.stopTimer()
	return true
}

// pollStreams looks, in one query, whether the store holds changes to the
// games streamed here that no event brought, and makes those games'
// streams catch up. With the relay this finds only what a lost
// notification missed; it used to be a query per stream every PollEvery,
// which at 10,000 streams was 5,000 queries a second.
func (s *Service) pollStreams() {
	seen := s.hub.watchedGames()
	if len(seen) == 0 {
		return
	}
	ids := slices.Collect(maps.Keys(seen))
	stored, err := s.st.GameVersions(s.ctx, ids)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Warn("stream poll", "err", err)
		}
		return
	}
	for id, v := range stored {
		if v > seen[id] {
			s.hub.kickGame(id)
		}
	}
}
