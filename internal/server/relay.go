package server

import (
	"context"
	"encoding/json"

	"github.com/morrisgame/morris/internal/store"
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
	Kind    string          `json:"k"`           // "g": a game's stream, "u": an account's, "j": an engine job queued, "a": an analysis handed over
	ID      int64           `json:"id"`          // the game or the account
	Version int64           `json:"v,omitempty"` // the game's version the event brings
	Data    json.RawMessage `json:"d,omitempty"` // the event's line; absent: catch up from the store
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
	case r.q <- relayNote{Origin: r.origin, Kind: kind, ID: id, Version: e.Version, Data: e.Data}:
	default:
		r.s.metrics.relayDropped()
	}
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
			r.s.log.Info("relay: listening again; the streams catch up from the store")
		}
		first = false
	}, func(err error) {
		r.s.log.Warn("relay: the listening connection failed; connecting again", "err", err)
	})
}

func (r *relay) heard(payload string) {
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
	case "a":
		select {
		case r.s.analysis.wake <- struct{}{}:
		default:
		}
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
	go func() { defer s.wg.Done(); r.sender(s.ctx) }()
	go func() { defer s.wg.Done(); r.listener(s.ctx) }()
}
