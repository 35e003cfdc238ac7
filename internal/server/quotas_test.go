package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// retryAfterOf is the RetryAfter of an error of the service, 0 if none.
func retryAfterOf(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// wantRefused checks an error's kind, and for TooMany and Unavailable that it
// says when to come back.
func wantRefused(t *testing.T, what string, err error, want Kind) {
	t.Helper()
	if got := KindOf(err); err == nil || got != want {
		t.Fatalf("%s: got %v (kind %d), want kind %d", what, err, got, want)
	}
	if (want == TooMany || want == Unavailable) && retryAfterOf(err) <= 0 {
		t.Errorf("%s: %v has no RetryAfter", what, err)
	}
}

// TestChatQuota: a player's chat in a game is a burst of 10, then limited
// (per player and game: the opponent and another game are not); a
// finished game's chat stays open for ChatAfterEnd, then closes.
func TestChatQuota(t *testing.T) {
	s := newService(t, Config{Quotas: Quotas{ChatAfterEnd: 300 * time.Millisecond}})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	g1, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := s.Chat(ctx, ann, g1.ID, fmt.Sprintf("hello %d", i)); err != nil {
			t.Fatalf("message %d of the burst: %v", i+1, err)
		}
	}
	before, _ := s.st.GameVersion(ctx, g1.ID)
	wantRefused(t, "the 11th message at once", s.Chat(ctx, ann, g1.ID, "one too many"), TooMany)
	if after, _ := s.st.GameVersion(ctx, g1.ID); after != before {
		t.Errorf("a refused message changed the game: version %d, want %d", after, before)
	}
	if err := s.Chat(ctx, bob, g1.ID, "the opponent may still speak"); err != nil {
		t.Errorf("bob in the same game: %v", err)
	}
	if err := s.Chat(ctx, ann, g2.ID, "another game"); err != nil {
		t.Errorf("ann in another game: %v", err)
	}

	// The end: bob may chat for a while (300 ms here, 10 minutes by
	// default), not after.
	if err := s.Resign(ctx, ann, g2.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Chat(ctx, bob, g2.ID, "good game"); err != nil {
		t.Errorf("just after the end: %v", err)
	}
	time.Sleep(400 * time.Millisecond)
	wantRefused(t, "400 ms after the end", s.Chat(ctx, bob, g2.ID, "still there?"), Conflict)
}

// TestChatHistory: a game keeps ChatKept messages, the full game carries
// the last ChatHistory of them and says there are more, and the pages of
// ChatHistory go back to the oldest kept; bad pages are refused.
func TestChatHistory(t *testing.T) {
	storetest.Each(t, testChatHistory)
}

func testChatHistory(t *testing.T, dsn string) {
	rates := DefaultRates
	rates.Chat, rates.ChatBurst = 1e6, 1e6
	s := newServiceOn(t, dsn, Config{Rates: rates, Quotas: Quotas{ChatKept: 250}})
	ctx := context.Background()
	ann, _ := signUp(t, s, "ann"), signUp(t, s, "bob")
	g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	const sent = 260
	for i := range sent {
		if err := s.Chat(ctx, ann, g.ID, fmt.Sprintf("m%d", i)); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	full, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Chat) != ChatHistory || !full.ChatMore || full.Chat[0].Text != "m60" || full.Chat[ChatHistory-1].Text != fmt.Sprintf("m%d", sent-1) {
		t.Fatalf("the full game's chat: got %d messages (more %v) from %q, want %d from m60 and more", len(full.Chat), full.ChatMore, full.Chat[0].Text, ChatHistory)
	}
	older, err := s.ChatHistory(ctx, g.ID, full.Chat[0].Version, ChatHistory)
	if err != nil {
		t.Fatal(err)
	}
	// 250 kept: m10..m259; the page before m60 is m10..m59, the last.
	if len(older.Chat) != 50 || older.More || older.Chat[0].Text != "m10" || older.Chat[49].Text != "m59" {
		t.Errorf("the page before: got %d messages from %q (more %v), want m10..m59 and no more", len(older.Chat), older.Chat[0].Text, older.More)
	}
	latest, err := s.ChatHistory(ctx, g.ID, 0, 0)
	if err != nil || len(latest.Chat) != 50 || !latest.More || latest.Chat[49].Text != fmt.Sprintf("m%d", sent-1) {
		t.Errorf("the latest page: got %d messages (more %v), %v; want the last 50", len(latest.Chat), latest.More, err)
	}
	for _, tc := range []struct {
		name       string
		id, before int64
		limit      int
		want       Kind
	}{
		{"a page too long", g.ID, 0, ChatHistory + 1, BadRequest},
		{"a negative limit", g.ID, 0, -1, BadRequest},
		{"a negative version", g.ID, -5, 10, BadRequest},
		{"no such game", 99999, 0, 10, NotFound},
	} {
		_, err := s.ChatHistory(ctx, tc.id, tc.before, tc.limit)
		if KindOf(err) != tc.want || err == nil {
			t.Errorf("%s: got %v, want kind %d", tc.name, err, tc.want)
		}
	}
}

// TestOfferQuotas: an offer standing is not made again (nothing is sent);
// a draw is offered once in DrawOfferPlies plies; a take-back asked for
// again after the n-th declined waits n² TakebackDelay, and one accepted
// starts the count afresh.
func TestOfferQuotas(t *testing.T) {
	s := newService(t, Config{Quotas: Quotas{DrawOfferPlies: 4, TakebackDelay: 100 * time.Millisecond}})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	move := func(u User, m string) {
		t.Helper()
		if _, err := s.Move(ctx, u, g.ID, m, AnyPly); err != nil {
			t.Fatalf("%s %s: %v", u.Name, m, err)
		}
	}
	version := func() int64 { v, _ := s.st.GameVersion(ctx, g.ID); return v }

	// Draws.
	move(ann, "a1")
	if err := s.Offer(ctx, bob, g.ID, Draw); err != nil {
		t.Fatal(err)
	}
	v := version()
	if err := s.Offer(ctx, bob, g.ID, Draw); err != nil || version() != v {
		t.Errorf("the same offer again: %v, version %d, want none and %d", err, version(), v)
	}
	if err := s.Answer(ctx, ann, g.ID, Draw, false); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, "a draw offered again at once", s.Offer(ctx, bob, g.ID, Draw), Conflict)
	move(bob, "d6")
	move(ann, "a4")
	move(bob, "g7")
	wantRefused(t, "a draw offered 3 plies after", s.Offer(ctx, bob, g.ID, Draw), Conflict)
	move(ann, "g1")
	if err := s.Offer(ctx, bob, g.ID, Draw); err != nil {
		t.Errorf("a draw offered 4 plies after: %v", err)
	}
	move(bob, "d7") // declines the offer

	// Take-backs.
	move(ann, "b2")
	for n, wait := range []time.Duration{100 * time.Millisecond, 400 * time.Millisecond} {
		if err := s.Offer(ctx, ann, g.ID, Takeback); err != nil {
			t.Fatalf("take-back %d: %v", n+1, err)
		}
		if err := s.Answer(ctx, bob, g.ID, Takeback, false); err != nil {
			t.Fatal(err)
		}
		err := s.Offer(ctx, ann, g.ID, Takeback)
		wantRefused(t, fmt.Sprintf("a take-back again at once after %d declined", n+1), err, TooMany)
		if got := retryAfterOf(err); got > wait || got < wait-50*time.Millisecond {
			t.Errorf("after %d declined: retry after %v, want about %v", n+1, got, wait)
		}
		time.Sleep(wait)
	}
	if err := s.Offer(ctx, ann, g.ID, Takeback); err != nil {
		t.Fatalf("a take-back after the wait: %v", err)
	}
	if err := s.Answer(ctx, bob, g.ID, Takeback, true); err != nil {
		t.Fatal(err)
	}
	move(ann, "b2")
	if err := s.Offer(ctx, ann, g.ID, Takeback); err != nil {
		t.Errorf("a take-back after one accepted: %v", err)
	}
}

// TestVacationQuota: one vacation at a time, and no more than VacationDays
// in 365 days; the days of a vacation older than that count no more.
func TestVacationQuota(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)}
	s := newService(t, Config{Now: clk.now})
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	day := 24 * time.Hour
	for _, step := range []struct {
		name  string
		after time.Duration // the clock moves on by this first
		days  int
		want  Kind // Internal: accepted
	}{
		{"a first vacation", 0, 10, Internal},
		{"a second while the first runs", day, 3, Conflict},
		{"61 days", 0, 61, BadRequest},
		{"no day", 0, 0, BadRequest},
		{"after the first: 45 more, 55 in all", 10 * day, 45, Internal},
		{"10 more would be 65", 46 * day, 10, Conflict},
		{"5 more make 60", 0, 5, Internal},
		{"the year full", 6 * day, 1, Conflict},
		{"a year after the first ended, its 10 days are back", 313 * day, 10, Internal},
	} {
		clk.add(step.after)
		_, _, err := s.Vacation(ctx, ann, step.days)
		if step.want == Internal {
			if err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
			continue
		}
		wantRefused(t, step.name, err, step.want)
	}
	vs, err := s.st.Vacations(ctx, ann.ID, time.Time{})
	if err != nil || len(vs) != 4 {
		t.Errorf("vacations stored: got %d (%v), want 4", len(vs), err)
	}
}

// TestAnalysisQueue: the analyses of an address run one at a time (a
// second waits a moment for the slot, then is TooMany), and no more than
// AnalysisQueue wait or run at once (Unavailable); each says when to ask
// again, and a slot freed is taken again.
func TestAnalysisQueue(t *testing.T) {
	s := newService(t, Config{Quotas: Quotas{AnalysisQueue: 2}})
	ctx := context.Background()
	history := []mill.Position{mill.NewGame(mill.MustRules("nine-mens-morris")).Position()}
	s.analysis.sem <- struct{}{} // the analyst is busy: the analyses wait
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, from := range []string{"192.0.2.1", "192.0.2.2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Analyze(ctx, from, history, 2, 100*time.Millisecond)
		}()
	}
	waitFor(t, "two analyses waiting", func() bool {
		s.analysis.queue.mu.Lock()
		defer s.analysis.queue.mu.Unlock()
		return s.analysis.queue.n == 2
	})
	start := time.Now()
	_, err := s.Analyze(ctx, "192.0.2.1", history, 2, 100*time.Millisecond)
	wantRefused(t, "the queue full", err, Unavailable)
	if waited := time.Since(start); waited > analysisSlotWait/2 {
		t.Errorf("a full queue answered after %v, want at once", waited)
	}
	<-s.analysis.sem // the analyst comes free
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("analysis %d: %v", i+1, err)
		}
	}

	// One address: its second analysis waits for the first's slot, and is
	// refused if the slot stays taken.
	s.analysis.sem <- struct{}{}
	done := make(chan error, 1)
	go func() {
		_, err := s.Analyze(ctx, "192.0.2.3", history, 2, 100*time.Millisecond)
		done <- err
	}()
	waitFor(t, "an analysis waiting", func() bool {
		s.analysis.queue.mu.Lock()
		defer s.analysis.queue.mu.Unlock()
		return s.analysis.queue.byAddr["192.0.2.3"] == 1
	})
	start = time.Now()
	_, err = s.Analyze(ctx, "192.0.2.3", history, 2, 100*time.Millisecond)
	wantRefused(t, "a second analysis of one address", err, TooMany)
	if waited := time.Since(start); waited < analysisSlotWait*9/10 {
		t.Errorf("refused after %v, want after waiting %v for the slot", waited, analysisSlotWait)
	}
	// The slot freed while a second waits for it: the second runs.
	second := make(chan error, 1)
	go func() {
		_, err := s.Analyze(ctx, "192.0.2.3", history, 2, 100*time.Millisecond)
		second <- err
	}()
	time.Sleep(100 * time.Millisecond)
	<-s.analysis.sem
	for _, c := range []chan error{done, second} {
		if err := <-c; err != nil {
			t.Errorf("an analysis of 192.0.2.3: %v", err)
		}
	}
}

// TestAnalysisAnswerWakes: an analysis handed to another process sharing
// the PostgreSQL database learns of its answer from the answer's
// notification, not by looking in the store every 20 ms: with the safety
// poll an hour apart, the answer comes as soon as it is there, after a
// look or two.
func TestAnalysisAnswerWakes(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	a := newServiceOn(t, dsn, Config{AnalysisPollEvery: time.Hour})
	newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	history := []mill.Position{mill.NewGame(mill.MustRules("nine-mens-morris")).Position()}
	a.analysis.sem <- struct{}{} // a's analyst is busy: b answers
	defer func() { <-a.analysis.sem }()
	start := time.Now()
	res, err := a.Analyze(ctx, "", history, 0, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if res.Best == "" {
		t.Fatalf("the analysis: %+v", res)
	}
	if took > 3*time.Second {
		t.Errorf("the answer came after %v, want soon after the 1 s search", took)
	}
	if n := a.analysis.polls.Load(); n > 2 {
		t.Errorf("the store was looked at %d times for the answer of a %v analysis, want 1 or 2", n, took.Round(time.Millisecond))
	}
}

// TestReviewQuota: an address has ReviewsQueued reviews waiting or running
// at most (another address has its own), and asks for new reviews at the
// review rate; a review asked for before is answered without either.
func TestReviewQuota(t *testing.T) {
	rates := DefaultRates
	rates.Review, rates.ReviewBurst = 1.0/3600, 5
	// Long searches: the first review runs while the others wait.
	s := newService(t, Config{Rates: rates, ReviewLimits: search.Limits{MoveTime: 5 * time.Second}, Quotas: Quotas{ReviewsQueued: 2}})
	ctx := context.Background()
	moves := []string{"a1", "d6", "a4", "g1"}
	for i := range 2 {
		if _, err := s.RequestRecordReview(ctx, "192.0.2.1", "", "", moves); err != nil {
			t.Fatalf("review %d: %v", i+1, err)
		}
	}
	wantRefused(t, "a third review waiting", func() error { _, err := s.RequestRecordReview(ctx, "192.0.2.1", "", "", moves); return err }(), TooMany)
	var last int64
	for i := range 2 {
		rv, err := s.RequestRecordReview(ctx, "192.0.2.2", "", "", moves)
		if err != nil {
			t.Fatalf("another address's review %d: %v", i+1, err)
		}
		last = rv.ID
	}
	// The rate: a burst of 5 from a fresh address, then one an hour.
	s.cfg.Quotas.ReviewsQueued = 100
	for i := range 5 {
		if _, err := s.RequestRecordReview(ctx, "192.0.2.3", "", "", moves); err != nil {
			t.Fatalf("review %d of the burst: %v", i+1, err)
		}
	}
	err := func() error { _, err := s.RequestRecordReview(ctx, "192.0.2.3", "", "", moves); return err }()
	wantRefused(t, "a 6th review at once", err, TooMany)
	if got := retryAfterOf(err); got < time.Hour-time.Second || got > time.Hour+time.Second {
		t.Errorf("the review rate's retry: got %v, want 1h0m0s", got)
	}
	if _, err := s.RecordReview(ctx, last); err != nil {
		t.Errorf("reading a review: %v", err)
	}

	// A game's review asked for again is answered, quota or not.
	ann, _ := signUp(t, s, "ann"), signUp(t, s, "bob")
	g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Move(ctx, ann, g.ID, "a1", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Resign(ctx, ann, g.ID); err != nil {
		t.Fatal(err)
	}
	s.cfg.Quotas.ReviewsQueued = 2
	wantRefused(t, "a game's review from a full address", func() error { _, err := s.RequestReview(ctx, "192.0.2.1", g.ID); return err }(), TooMany)
	if _, err := s.RequestReview(ctx, "192.0.2.4", g.ID); err != nil {
		t.Fatal(err)
	}
	if rv, err := s.RequestReview(ctx, "192.0.2.1", g.ID); err != nil || rv.Game != g.ID {
		t.Errorf("a game's review asked for already, from a full address: %+v, %v", rv, err)
	}
}

// TestPuzzleRate: puzzle moves are limited per user, and per address
// without one; a refused attempt is kept nowhere.
func TestPuzzleRate(t *testing.T) {
	rates := DefaultRates
	rates.Puzzle, rates.PuzzleBurst = 1.0/60, 3
	s := newService(t, Config{Rates: rates})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	const pos = "nine-mens-morris W1W1B1B1/1W1B1B1W/8 w 0,0 - 0 18"
	p := addTestPuzzle(t, s, pos, []string{"d2-d3", "a7-a4", "d3-d2"})
	for _, who := range []struct {
		name string
		user *User
		from string
	}{
		{"ann", &ann, "192.0.2.1"},
		{"bob, from ann's address", &bob, "192.0.2.1"},
		{"anonymous", nil, "192.0.2.1"},
		{"anonymous elsewhere", nil, "192.0.2.2"},
	} {
		for i := range 3 {
			if _, err := s.PuzzleMoves(ctx, who.from, who.user, p, []string{"d2-d3"}); err != nil {
				t.Fatalf("%s: move %d: %v", who.name, i+1, err)
			}
		}
		_, err := s.PuzzleMoves(ctx, who.from, who.user, p, []string{"a1-a4"})
		wantRefused(t, who.name+": a 4th move at once", err, TooMany)
	}
	h, err := s.PuzzleHistory(ctx, "ann", 10)
	if err != nil || len(h.Attempts) != 0 {
		t.Errorf("ann's attempts: got %+v (%v), want none (none ended)", h.Attempts, err)
	}
}
