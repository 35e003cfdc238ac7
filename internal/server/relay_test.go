package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/mill"
)

// lineRecorder keeps the lines a stream sends.
type lineRecorder struct {
	mu    sync.Mutex
	lines []string
	at    []time.Time
}

func (r *lineRecorder) send(b []byte) error {
	if b == nil {
		return nil // a keep-alive
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, string(b))
	r.at = append(r.at, time.Now())
	return nil
}

// waitFor waits until a line satisfies ok and returns when it came.
func (r *lineRecorder) waitFor(t *testing.T, what string, d time.Duration, ok func(line string) bool) time.Time {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		r.mu.Lock()
		for i, l := range r.lines {
			if ok(l) {
				at := r.at[i]
				r.mu.Unlock()
				return at
			}
		}
		lines := slices.Clone(r.lines)
		r.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v; the stream sent:\n%s", what, d, strings.Join(lines, "\n"))
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRelayAcrossProcesses: two services on one PostgreSQL database (two
// processes, as far as the store is concerned: they share nothing in
// memory), polling the store only once an hour. A game stream and an
// account stream opened on the second see, at once, the moves, a chat
// message, an offer and the end of a game made through the first, and a
// challenge made through it; after the second's listening connection is
// killed, it connects again and a move made meanwhile still arrives.
func TestRelayAcrossProcesses(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	cfg := Config{PollEvery: time.Hour}
	a := newServiceOn(t, dsn, cfg)
	b := newServiceOn(t, dsn, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ann, bob := signUp(t, a, "ann"), signUp(t, a, "bob")
	g, err := pbmChallenge(ctx, a, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	var game, account lineRecorder
	go b.WatchGame(ctx, g.ID, -1, game.send)
	go b.WatchAccount(ctx, bob, account.send)
	game.waitFor(t, "gameFull", 5*time.Second, func(l string) bool { return strings.Contains(l, `"type":"gameFull"`) })
	// Give the listener of b a moment to be in place.
	time.Sleep(200 * time.Millisecond)

	var lat []time.Duration
	mg := mill.NewGame(mill.MustRules("nine-mens-morris"))
	for ply := range 8 {
		p := mg.Position()
		m := p.Moves(nil)[0]
		text := p.MoveText(m)
		who := ann
		if p.SideToMove() == mill.Black {
			who = bob
		}
		start := time.Now()
		if _, err := a.Move(ctx, who, g.ID, text, ply); err != nil {
			t.Fatal(err)
		}
		at := game.waitFor(t, "the move "+text, 5*time.Second, func(l string) bool {
			return strings.Contains(l, `"type":"move"`) && strings.Contains(l, fmt.Sprintf(`"ply":%d,`, ply)) && strings.Contains(l, `"move":"`+text+`"`)
		})
		lat = append(lat, at.Sub(start))
		mg.Play(m)
	}
	slices.Sort(lat)
	t.Logf("a move made on one service seen on the other's stream after %v (median), %v at most", lat[len(lat)/2], lat[len(lat)-1])

	if err := a.Chat(ctx, ann, g.ID, "hello from a"); err != nil {
		t.Fatal(err)
	}
	game.waitFor(t, "the chat message", 5*time.Second, func(l string) bool { return strings.Contains(l, "hello from a") })
	if err := a.Offer(ctx, ann, g.ID, Draw); err != nil {
		t.Fatal(err)
	}
	game.waitFor(t, "the draw offer", 5*time.Second, func(l string) bool {
		return strings.Contains(l, `"type":"gameState"`) && strings.Contains(l, `"kind":"draw"`)
	})
	if _, err := a.Challenge(ctx, ann, "bob", GameSpec{}); err != nil {
		t.Fatal(err)
	}
	account.waitFor(t, "the challenge on bob's account stream", 5*time.Second, func(l string) bool { return strings.Contains(l, `"type":"challenge"`) })

	// Kill b's listening connection, move at once: the move comes, from
	// the notification if b is listening again by then, else from the
	// store when it is.
	admin, err := sql.Open("pgx", os.Getenv(storetest.Env))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var killed int
	if err := admin.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = $1`,
		fmt.Sprintf("LISTEN %q", b.st.NotifyChannel())).Scan(&killed); err != nil || killed != 2 {
		t.Fatalf("killed %d listening connections (%v), want 2 (a's and b's)", killed, err)
	}
	p := mg.Position()
	m := p.Moves(nil)[0]
	if _, err := a.Move(ctx, ann, g.ID, p.MoveText(m), 8); err != nil { // white's ninth placement
		t.Fatal(err)
	}
	game.waitFor(t, "the move made while the listener was down", 10*time.Second, func(l string) bool {
		return strings.Contains(l, `"move":"`+p.MoveText(m)+`"`) || strings.Contains(l, `"`+p.MoveText(m)+`"]`)
	})
	if err := a.Resign(ctx, ann, g.ID); err != nil {
		t.Fatal(err)
	}
	game.waitFor(t, "the end", 10*time.Second, func(l string) bool { return strings.Contains(l, `"resignation"`) })
	account.waitFor(t, "gameFinish on bob's account stream", 10*time.Second, func(l string) bool { return strings.Contains(l, `"type":"gameFinish"`) })
}

// TestRelayPayload: an event too long for a notification goes without its
// line (the listeners catch up from the store).
func TestRelayPayload(t *testing.T) {
	r := &relay{origin: "o1"}
	short := r.payload(relayNote{Origin: "o1", Kind: "g", ID: 7, Version: 3, Data: json.RawMessage(`{"type":"move"}`)})
	if short != `{"o":"o1","k":"g","id":7,"v":3,"d":{"type":"move"}}` {
		t.Errorf("got %s", short)
	}
	long := r.payload(relayNote{Origin: "o1", Kind: "g", ID: 7, Version: 3, Data: json.RawMessage(`{"x":"` + strings.Repeat("a", store.MaxNotifyPayload) + `"}`)})
	if long != `{"o":"o1","k":"g","id":7,"v":3}` {
		t.Errorf("a long event: got %.80s", long)
	}
}

// TestAnalysisHandedOver: with two services on one PostgreSQL database, an
// analysis asked of a service whose analyst is busy is run by the other,
// whose analyst is idle; when both are busy, it waits, and the first
// analyst to come free (its own, here) runs it. The requests are gone
// from the store afterwards.
func TestAnalysisHandedOver(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	a := newServiceOn(t, dsn, Config{})
	b := newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	start := mill.NewGame(mill.MustRules("nine-mens-morris")).Position()
	history := []mill.Position{start}

	a.analysis.sem <- struct{}{} // a's analyst is busy
	began := time.Now()
	res, err := a.Analyze(ctx, "", history, 4, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Best == "" || res.Depth < 4 {
		t.Fatalf("the analysis run by the other process: %+v", res)
	}
	t.Logf("a's analyst busy: b answered in %v (depth %d, %s)", time.Since(began).Round(time.Millisecond), res.Depth, res.Best)

	b.analysis.sem <- struct{}{} // both busy
	done := make(chan error, 1)
	go func() {
		_, err := a.Analyze(ctx, "", history, 4, time.Second)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("both analysts busy, yet an answer came: %v", err)
	case <-time.After(700 * time.Millisecond):
	}
	<-a.analysis.sem // a's own comes free: it takes the request back
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a's analyst came free and the analysis did not end")
	}
	<-b.analysis.sem
	if n, err := a.st.AnalysesWaiting(ctx); err != nil || n != 0 {
		t.Errorf("analyses left waiting: %d (%v)", n, err)
	}
}

// copyState is what a process's copy of a game holds, for comparing with
// the store.
type copyState struct {
	loaded   bool
	g        store.Game
	moves    []store.Move
	offers   int
	position string
}

// copyOf returns s's copy of a game, and false if s keeps none.
func copyOf(s *Service, id int64) (copyState, bool) {
	s.mu.Lock()
	o := s.owners[id]
	s.mu.Unlock()
	if o == nil {
		return copyState{}, false
	}
	o.lock()
	defer o.mu.Unlock()
	c := copyState{loaded: o.loaded, g: o.g, moves: slices.Clone(o.moves), offers: len(o.offers)}
	if o.loaded {
		c.position = o.game.Position().String()
	}
	c.g.UpdatedAt = time.Time{} // written by the store a moment after the move's time; not compared
	return c, true
}

// storedCopy is a copy of the game read afresh from the store.
func storedCopy(t *testing.T, s *Service, id int64) copyState {
	t.Helper()
	o := &owner{s: s, id: id}
	if err := o.load(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := copyState{loaded: true, g: o.g, moves: o.moves, offers: len(o.offers), position: o.game.Position().String()}
	c.g.UpdatedAt = time.Time{}
	return c
}

// TestRelayKeepsCopies: with the players of a real-time game on two
// processes, each move made through one is played on the other's copy of
// the game from the relayed event, so that the copy equals the game read
// from the store (clocks included) and the next move there is taken at
// once: no move is refused, and each process reads the game from the
// store once. A move heard while the copy is in use (its owner locked)
// waits for the owner's next holder instead of being lost. A chat message
// moves the copy's version; an offer, which the copy does not follow,
// drops it, and it is read again at next use.
func TestRelayKeepsCopies(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	ma, mb := NewMetrics(prometheus.NewRegistry()), NewMetrics(prometheus.NewRegistry())
	a := newServiceOn(t, dsn, Config{PollEvery: time.Hour, Metrics: ma})
	b := newServiceOn(t, dsn, Config{PollEvery: time.Hour, Metrics: mb})
	ctx := context.Background()
	ann, bob := signUp(t, a, "ann"), signUp(t, a, "bob")
	g, err := pbmChallenge(ctx, a, "ann", "bob", GameSpec{Color: "white", Control: TimeControl{Initial: 5 * time.Minute, Increment: 2 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the listeners in place

	// waitCopy waits until s's copy is at version v (or dropped), and
	// returns it.
	waitCopy := func(s *Service, v int64) copyState {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			c, ok := copyOf(s, g.ID)
			if ok && (!c.loaded || c.g.Version >= v) {
				return c
			}
			if time.Now().After(deadline) {
				t.Fatalf("the copy is at version %d (kept %v), not %d, after 5 s", c.g.Version, ok, v)
			}
			time.Sleep(time.Millisecond)
		}
	}
	mg := mill.NewGame(mill.MustRules("nine-mens-morris"))
	metrics := map[*Service]*Metrics{a: ma, b: mb}
	// play makes the move of ply on the mover's process. With hold, the
	// other process's copy is in use (its owner locked) while the move's
	// event arrives there: the change waits for the owner's next holder,
	// who plays it first, and the copy is not dropped.
	play := func(ply int, hold bool) Played {
		t.Helper()
		p := mg.Position()
		m := p.Moves(nil)[(ply*7)%len(p.Moves(nil))]
		s, u, other := a, ann, b
		if p.SideToMove() == mill.Black {
			s, u, other = b, bob, a
		}
		var held *owner
		heard := counted(metrics[other].relay.WithLabelValues("heard"))
		if hold {
			other.mu.Lock()
			held = other.owners[g.ID]
			other.mu.Unlock()
			held.mu.Lock()
		}
		pl, err := s.Move(ctx, u, g.ID, p.MoveText(m), ply)
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		mg.Play(m)
		if hold {
			for deadline := time.Now().Add(5 * time.Second); counted(metrics[other].relay.WithLabelValues("heard")) == heard; {
				if time.Now().After(deadline) {
					t.Fatalf("ply %d: the other process heard nothing in 5 s", ply)
				}
				time.Sleep(time.Millisecond)
			}
			held.mu.Unlock()
		}
		if ply > 0 { // the other process keeps a copy from the first move it made
			c := waitCopy(other, pl.Version)
			if want := storedCopy(t, other, g.ID); !reflect.DeepEqual(c, want) {
				t.Fatalf("after ply %d the other process's copy is\n%+v\nthe store's\n%+v", ply, c, want)
			}
		}
		return pl
	}
	for ply := range 14 {
		play(ply, ply >= 12)
	}
	refused := counted(ma.movesRefused) + counted(mb.movesRefused)
	loads := counted(ma.loads) + counted(mb.loads)
	followed := counted(ma.relay.WithLabelValues("followed")) + counted(mb.relay.WithLabelValues("followed"))
	// a reads the game for ann's first move; b reads it for bob's first,
	// and the store reads made by storedCopy count too (one a ply from 1).
	if refused != 0 || loads != 2+13 || followed != 13 {
		t.Fatalf("%v moves refused, %v loads, %v moves followed; want 0, 15, 13", refused, loads, followed)
	}

	if err := a.Chat(ctx, ann, g.ID, "hello"); err != nil {
		t.Fatal(err)
	}
	ver := storedCopy(t, b, g.ID).g.Version
	if c := waitCopy(b, ver); !c.loaded || c.g.Version != ver {
		t.Fatalf("after a chat message b's copy is at version %d (loaded %v), the store at %d", c.g.Version, c.loaded, ver)
	}
	if err := a.Offer(ctx, ann, g.ID, Draw); err != nil {
		t.Fatal(err)
	}
	ver = storedCopy(t, b, g.ID).g.Version
	if c := waitCopy(b, ver); c.loaded {
		t.Fatalf("after an offer made on a, b's copy is still kept (version %d, the store's %d)", c.g.Version, ver)
	}
	// ann's move on a withdraws the offer; b's copy, dropped, is read
	// again for bob's move, and a's follows that.
	p := mg.Position()
	m := p.Moves(nil)[0]
	if _, err := a.Move(ctx, ann, g.ID, p.MoveText(m), 14); err != nil {
		t.Fatal(err)
	}
	mg.Play(m)
	before := counted(mb.loads)
	play(15, false)
	if n, l := counted(ma.movesRefused)+counted(mb.movesRefused), counted(mb.loads)-before; n != 0 || l != 1 {
		t.Fatalf("%v moves refused, b read the game %v times; want 0, 1", n, l)
	}
}

// counted is a counter's value.
func counted(c prometheus.Counter) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		panic(err)
	}
	return m.GetCounter().GetValue()
}

// TestPollHealsALostNotification: a move stored without any event (as if
// its notification were lost) reaches a stream on another process through
// the process's poll of the store, one query for all its streams.
func TestPollHealsALostNotification(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	a := newServiceOn(t, dsn, Config{PollEvery: time.Hour})
	b := newServiceOn(t, dsn, Config{PollEvery: 100 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signUp(t, a, "ann")
	signUp(t, a, "bob")
	var games []int64
	for range 3 {
		g, err := pbmChallenge(ctx, a, "ann", "bob", GameSpec{Color: "white"})
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g.ID)
	}
	var lines [3]lineRecorder
	for i, id := range games {
		go b.WatchGame(ctx, id, -1, lines[i].send)
		lines[i].waitFor(t, "gameFull", 5*time.Second, func(l string) bool { return strings.Contains(l, `"type":"gameFull"`) })
	}
	// The second game moves in the store alone: no process publishes it.
	if _, err := a.st.AppendMove(ctx, games[1], store.Append{Ply: 0, Move: "d2", At: time.Now(), ClearOffers: true}); err != nil {
		t.Fatal(err)
	}
	lines[1].waitFor(t, "the move stored without an event", 3*time.Second, func(l string) bool {
		return strings.Contains(l, `"type":"move"`) && strings.Contains(l, `"move":"d2"`)
	})
	for _, i := range []int{0, 2} {
		lines[i].mu.Lock()
		n := len(lines[i].lines)
		lines[i].mu.Unlock()
		if n != 1 {
			t.Errorf("game %d's stream sent %d lines, want only its gameFull", games[i], n)
		}
	}
}
