package server

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// The work off the request path (engine.go, review.go, explorer.go,
// timers.go, play.go's queued moves): a panic there is recovered and its
// job failed, a move not stored is tried again, and nothing depends on the
// context of the request that caused it.

func newLog() (*slog.Logger, *storetest.Log) {
	var b storetest.Log
	return slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug})), &b
}

// waitLong polls ok until it holds, or fails the test after d.
func waitLong(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func view(t *testing.T, s *Service, id int64) Game {
	t.Helper()
	v, err := s.View(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return v.Game
}

// TestSafely: a panic becomes a *PanicError, logged with its stack; a
// function that returns is left alone.
func TestSafely(t *testing.T) {
	log, out := newLog()
	if err := Safely(log, "calm", func() {}); err != nil {
		t.Errorf("Safely of a function that returns: got %v, want nil", err)
	}
	err := Safely(log, "work", func() { panic("boom") }, "game", 7)
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Value != "boom" || len(pe.Stack) == 0 {
		t.Fatalf("Safely of a panic: got %#v, want a *PanicError of boom with a stack", err)
	}
	for _, want := range []string{"level=ERROR", "work: panic recovered", "game=7", "panic=boom", "background_test.go"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
}

// TestEngineJobPanics: an engine move that panics (every time, as a bug
// in the search would) does not end the process: it is logged with its
// stack, the game it was for ends (the engine abandons it, its opponent
// wins) and its job goes, so that a restart does not meet it again; the
// worker goes on with the other games.
func TestEngineJobPanics(t *testing.T) {
	var bad atomic.Int64
	var panics atomic.Int32
	log, out := newLog()
	dsn := filepath.Join(t.TempDir(), "morris.db")
	cfg := Config{EngineWorkers: 1, Logger: log, hooks: testHooks{engineMove: func(id int64) {
		if id == bad.Load() {
			panics.Add(1)
			panic("the search fell over")
		}
	}}}
	s := newServiceOn(t, dsn, cfg)
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	var games []int64
	for range 2 {
		g, err := s.PlayEngine(ctx, ann, 1, GameSpec{Color: "white"})
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g.ID)
	}
	bad.Store(games[0])
	for _, id := range games {
		if _, err := s.Move(ctx, ann, id, "d6", 0); err != nil {
			t.Fatal(err)
		}
	}
	waitLong(t, 30*time.Second, "the engine's reply in the good game", func() bool { return view(t, s, games[1]).Ply == 2 })
	waitLong(t, 10*time.Second, "the end of the game whose engine move panics", func() bool { return view(t, s, games[0]).Status == store.Finished })
	g := view(t, s, games[0])
	if g.Result != "1-0" || g.Method != mill.Abandonment.String() || g.Ply != 1 {
		t.Errorf("the game whose engine move panics: %s by %s at ply %d, want 1-0 by %s at ply 1", g.Result, g.Method, g.Ply, mill.Abandonment)
	}
	waitLong(t, 5*time.Second, "the job's end", func() bool {
		js, err := s.st.EngineJobs(ctx)
		return err == nil && len(js) == 0
	})
	for _, want := range []string{"engine move: panic recovered", "the search fell over", "engine.go"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	// A restart meets no job of it again.
	s.Close()
	n := panics.Load()
	s2 := newServiceOn(t, dsn, cfg)
	time.Sleep(3 * jobPoll / 2)
	if got := panics.Load(); got != n {
		t.Errorf("after a restart the engine move panicked %d times more, want 0", got-n)
	}
	if g := view(t, s2, games[0]); g.Status != store.Finished {
		t.Errorf("after a restart the game is %s, want finished", g.Status)
	}
}

// failMoves makes the SQLite database at path refuse to store the moves at
// ply (a trigger, as a failing disk would refuse them), until the returned
// func is called.
func failMoves(t *testing.T, path string, ply int) (heal func()) {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		`CREATE TABLE test_failing (ply INTEGER)`,
		`CREATE TRIGGER test_fail_moves BEFORE INSERT ON moves WHEN NEW.ply IN (SELECT ply FROM test_failing)
			BEGIN SELECT RAISE(ABORT, 'the disk is failing'); END`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO test_failing (ply) VALUES (?)`, ply); err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := db.Exec(`DELETE FROM test_failing`); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEngineMoveNotStored: an engine move the store refuses (a failing
// disk) leaves its job in place, taken again when its lease runs out; once
// the store takes writes again the engine's move is played. (The job used
// to be deleted all the same, and the game waited for ever.)
func TestEngineMoveNotStored(t *testing.T) {
	log, out := newLog()
	path := filepath.Join(t.TempDir(), "morris.db")
	s := newServiceOn(t, path, Config{EngineWorkers: 1, EngineLease: 300 * time.Millisecond, Logger: log})
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	g, err := s.PlayEngine(ctx, ann, 1, GameSpec{Color: "white"})
	if err != nil {
		t.Fatal(err)
	}
	heal := failMoves(t, path, 1)
	if _, err := s.Move(ctx, ann, g.ID, "d6", 0); err != nil {
		t.Fatal(err)
	}
	waitLong(t, 30*time.Second, "two tries of the engine's move", func() bool {
		return strings.Count(out.String(), "engine move not stored") >= 2
	})
	if got := view(t, s, g.ID).Ply; got != 1 {
		t.Fatalf("with the store refusing, the game is at ply %d, want 1", got)
	}
	js, err := s.st.EngineJobs(ctx)
	if err != nil || len(js) != 1 || js[0].Game != g.ID || js[0].Ply != 1 {
		t.Fatalf("the jobs with the move not stored: got %+v, %v; want game %d's at ply 1", js, err, g.ID)
	}
	heal()
	waitLong(t, 30*time.Second, "the engine's move once the store takes it", func() bool { return view(t, s, g.ID).Ply == 2 })
}

// TestQueuedMoveOutlivesRequest: the move a player queued is played after
// the opponent's move even when the opponent's request ends (cancelled)
// right after their move was stored; and a queued move that was taken but
// not stored goes back to the queue, for the sweeper to play.
func TestQueuedMoveOutlivesRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "morris.db")
	s := newServiceOn(t, path, Config{})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	start := func() int64 {
		t.Helper()
		c, err := s.Challenge(ctx, ann, "bob", GameSpec{Color: "white"})
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.Accept(ctx, bob, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		return a.Game
	}

	// The request is cancelled as soon as ann's move is stored (it is
	// published then, under the owner's lock).
	id := start()
	if played, err := s.Queue(ctx, bob, id, "d5", 1); err != nil || played {
		t.Fatalf("bob queues d5: played %v, %v; want queued", played, err)
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.hub.setRelay(func(kind string, game int64, e Event) {
		if kind == "g" && game == id && e.Change != nil && e.Change.Ply == 0 {
			cancel()
		}
	})
	if _, err := s.Move(rctx, ann, id, "d6", 0); err != nil {
		t.Fatal(err)
	}
	s.hub.setRelay(nil)
	if rctx.Err() == nil {
		t.Fatal("the request was not cancelled: the test did not test")
	}
	v, err := s.View(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if v.Game.Ply != 2 || v.Moves[1].Text != "d5" {
		t.Fatalf("after ann's move, its request cancelled: the game is at ply %d (%v), want bob's queued d5 played", v.Game.Ply, v.Moves)
	}

	// Taken from the queue, refused by the store: queued again.
	id = start()
	if _, err := s.Queue(ctx, bob, id, "d5", 1); err != nil {
		t.Fatal(err)
	}
	heal := failMoves(t, path, 1)
	if _, err := s.Move(ctx, ann, id, "d6", 0); err != nil {
		t.Fatal(err)
	}
	if got := view(t, s, id).Ply; got != 1 {
		t.Fatalf("with the store refusing bob's move the game is at ply %d, want 1", got)
	}
	if q, ok, err := s.st.QueuedMoveOf(ctx, id, bob.ID); err != nil || !ok || q.Move != "d5" {
		t.Fatalf("bob's queued move after the store refused it: %+v, %v, %v; want d5 queued again", q, ok, err)
	}
	heal()
	if err := s.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if got := view(t, s, id).Ply; got != 2 {
		t.Errorf("after the sweep the game is at ply %d, want 2 (bob's queued move)", got)
	}
}

// TestCloseWhileFlagTimerRuns: Close stops the flag timers while a timer's
// callback may be re-arming its own (under the owner's lock). Run with
// -race: it used to report the race on owner.timer.
func TestCloseWhileFlagTimerRuns(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	c, err := s.Challenge(ctx, ann, "bob", GameSpec{Control: TimeControl{Initial: 10 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Accept(ctx, bob, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	// What the game's timer runs when it fires before the flag's time:
	// it arms itself again.
	go s.checkFlag(a.Game)
	time.Sleep(100 * time.Millisecond)
	s.Close()
	s.Close() // a second Close does nothing
}

// TestFlagTimerPanics: a panic in a flag's timer (a goroutine of the
// runtime's) is recovered and logged instead of ending the process.
func TestFlagTimerPanics(t *testing.T) {
	var fired atomic.Int32
	log, out := newLog()
	var offset atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	dsn := filepath.Join(t.TempDir(), "morris.db")
	cfg := Config{Now: now, Logger: log, hooks: testHooks{flag: func(int64) { fired.Add(1); panic("the flag fell over") }}}
	s := newServiceOn(t, dsn, cfg)
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	c, err := s.Challenge(ctx, ann, "bob", GameSpec{Control: TimeControl{Initial: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Accept(ctx, bob, c.ID); err != nil {
		t.Fatal(err)
	}
	// Past the flag: the restarted service's timer fires at once.
	s.Close()
	offset.Store(int64(time.Minute))
	newServiceOn(t, dsn, cfg)
	waitLong(t, 10*time.Second, "the flag's timer", func() bool { return fired.Load() > 0 })
	waitLong(t, 5*time.Second, "the panic in the log", func() bool { return strings.Contains(out.String(), "flag timer: panic recovered") })
}

// TestReviewPanics: a review on which the engine panics is marked failed,
// with a reason its readers see, and is not taken again (not after a
// restart either); the reviewer goes on with the next review.
func TestReviewPanics(t *testing.T) {
	var bad atomic.Int64
	var panics atomic.Int32
	dsn := filepath.Join(t.TempDir(), "morris.db")
	cfg := Config{ReviewLimits: search.Limits{Depth: 1}, ReviewPollEvery: 50 * time.Millisecond, hooks: testHooks{review: func(id int64) {
		if id == bad.Load() {
			panics.Add(1)
			panic("the review fell over")
		}
	}}}
	s := newServiceOn(t, dsn, cfg)
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	var games []int64
	for range 2 {
		c, err := s.Challenge(ctx, ann, "bob", GameSpec{Color: "white"})
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.Accept(ctx, bob, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		for ply, m := range []string{"d6", "d5"} {
			u := ann
			if ply == 1 {
				u = bob
			}
			if _, err := s.Move(ctx, u, a.Game, m, ply); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Resign(ctx, bob, a.Game); err != nil {
			t.Fatal(err)
		}
		games = append(games, a.Game)
	}
	r, err := s.RequestReview(ctx, "test", games[0])
	if err != nil {
		t.Fatal(err)
	}
	bad.Store(r.ID)
	s.wakeReviewer()
	if _, err := s.RequestReview(ctx, "test", games[1]); err != nil {
		t.Fatal(err)
	}
	waitLong(t, 30*time.Second, "both reviews to end", func() bool {
		a, _ := s.Review(ctx, games[0])
		b, _ := s.Review(ctx, games[1])
		return a.Status == "failed" && b.Status == "done"
	})
	if got, _ := s.Review(ctx, games[0]); got.Error == "" || strings.Contains(got.Error, "fell over") {
		t.Errorf("the failed review says %q; want a reason, without the panic's text", got.Error)
	}
	s.Close()
	n := panics.Load()
	s2 := newServiceOn(t, dsn, cfg)
	s2.wakeReviewer()
	time.Sleep(300 * time.Millisecond)
	if got := panics.Load(); got != n {
		t.Errorf("after a restart the review panicked %d times more, want 0", got-n)
	}
	if got, _ := s2.Review(ctx, games[0]); got.Status != "failed" {
		t.Errorf("after a restart the review is %s, want failed", got.Status)
	}
}

// TestExplorerSkipsBadGames: a finished game whose moves do not replay,
// and one whose exploring panics, are logged and marked explored; the
// games after them are explored all the same. (The first used to stop the
// explorer at every look.)
func TestExplorerSkipsBadGames(t *testing.T) {
	var bad atomic.Int64
	log, out := newLog()
	s := newService(t, Config{ExploreEvery: time.Hour, Logger: log, hooks: testHooks{explore: func(id int64) {
		if id == bad.Load() {
			panic("the explorer fell over")
		}
	}}})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	r := mill.MustRules("nine-mens-morris")
	// A game stored with a move the rules refuse (a store written by
	// another version, a hand-edited database).
	g, err := s.st.CreateGame(ctx, s.newGame(r, GameSpec{Color: "white"}, ann.ID, bob.ID))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.st.AppendMove(ctx, g.ID, store.Append{Ply: 0, Move: "z9", At: time.Now(), End: &store.Ending{Result: "1-0", Method: "resignation"}}); err != nil {
		t.Fatal(err)
	}
	play := func(first string) int64 {
		c, err := s.Challenge(ctx, ann, "bob", GameSpec{Color: "white"})
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.Accept(ctx, bob, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Move(ctx, ann, a.Game, first, 0); err != nil {
			t.Fatal(err)
		}
		if err := s.Resign(ctx, bob, a.Game); err != nil {
			t.Fatal(err)
		}
		return a.Game
	}
	bad.Store(g.ID + 1)
	if id := play("a1"); id != g.ID+1 {
		t.Fatalf("the second game is %d, want %d", id, g.ID+1)
	}
	play("d6")
	s.kickExplorer()
	startPos := mill.NewGame(r).Position()
	waitLong(t, 10*time.Second, "the good game in the explorer", func() bool {
		e, err := s.Explore(ctx, startPos)
		return err == nil && e.Games == 1 && len(e.Moves) > 0 && e.Moves[0].Move == "d6"
	})
	if ids, err := s.st.UnexploredGames(ctx, 10); err != nil || len(ids) != 0 {
		t.Errorf("games left unexplored: %v, %v; want none", ids, err)
	}
	for _, want := range []string{"explorer: a game that does not replay, skipped", "explorer: panic recovered"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the log lacks %q", want)
		}
	}
}

// TestEngineFirstMoveOutlivesRequest: a game against the engine that
// moves first gets the engine's move even when the request that started
// it ends (cancelled) right after the game was stored. (Its timers and
// the engine's job used to be set up under the request's context, and
// skipped.)
func TestEngineFirstMoveOutlivesRequest(t *testing.T) {
	s := newService(t, Config{EngineWorkers: 1})
	ann := signUp(t, s, "ann")
	rctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.hub.setRelay(func(kind string, _ int64, e Event) {
		if kind == "u" && strings.Contains(string(e.Data), `"gameStart"`) {
			cancel()
		}
	})
	g, err := s.PlayEngine(rctx, ann, 1, GameSpec{Color: "black"})
	s.hub.setRelay(nil)
	if err != nil {
		t.Fatal(err)
	}
	if rctx.Err() == nil {
		t.Fatal("the request was not cancelled: the test did not test")
	}
	waitLong(t, 30*time.Second, "the engine's first move", func() bool { return view(t, s, g.ID).Ply == 1 })
}

// TestHandedAnalysisAndRelayPanics: with two services on one PostgreSQL
// database, an analysis handed to the other process that panics there is
// answered with an error at once (not when the asker's wait runs out),
// and a notification that panics the relay's listener costs that
// notification only: the next ones come.
func TestHandedAnalysisAndRelayPanics(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	var boom atomic.Bool
	var relayPanics atomic.Int32
	boom.Store(true)
	a := newServiceOn(t, dsn, Config{PollEvery: time.Hour})
	b := newServiceOn(t, dsn, Config{PollEvery: time.Hour, hooks: testHooks{
		analysis: func() {
			if boom.Load() {
				panic("the analysis fell over")
			}
		},
		relay: func(payload string) {
			if boom.Load() && strings.Contains(payload, "panic here") {
				relayPanics.Add(1)
				panic("the relay fell over")
			}
		},
	}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	history := []mill.Position{mill.NewGame(mill.MustRules("nine-mens-morris")).Position()}

	a.analysis.sem <- struct{}{} // a's analyst is busy: b takes it
	began := time.Now()
	_, err := a.Analyze(ctx, "test", history, 4, time.Second)
	if err == nil || !strings.Contains(err.Error(), "the engine failed") || time.Since(began) > 5*time.Second {
		t.Fatalf("an analysis that panics where it was handed: got %v after %v, want the engine's failure at once", err, time.Since(began))
	}
	boom.Store(false)
	if res, err := a.Analyze(ctx, "test", history, 4, time.Second); err != nil || res.Best == "" {
		t.Fatalf("the next analysis handed over: %+v, %v", res, err)
	}
	<-a.analysis.sem

	boom.Store(true)
	ann, bob := signUp(t, a, "ann"), signUp(t, a, "bob")
	c, err := a.Challenge(ctx, ann, "bob", GameSpec{Color: "white"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := a.Accept(ctx, bob, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var lines lineRecorder
	go b.WatchGame(ctx, g.Game, -1, lines.send)
	lines.waitFor(t, "gameFull", 5*time.Second, func(l string) bool { return strings.Contains(l, `"type":"gameFull"`) })
	time.Sleep(200 * time.Millisecond) // b's listener in place
	if err := a.Chat(ctx, ann, g.Game, "panic here"); err != nil {
		t.Fatal(err)
	}
	if err := a.Chat(ctx, ann, g.Game, "and then this"); err != nil {
		t.Fatal(err)
	}
	lines.waitFor(t, "the chat after the one that panicked", 5*time.Second, func(l string) bool { return strings.Contains(l, "and then this") })
	if relayPanics.Load() == 0 {
		t.Error("the relay's hook never panicked: the test did not test")
	}
}
