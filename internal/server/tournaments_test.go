package server

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/auth"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/tournament"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// tourConfig is a service's configuration for the tournament tests: a
// quick sweep, rates that sign-ups and creations do not meet.
func tourConfig() Config {
	return Config{TournamentSweepEvery: 20 * time.Millisecond, Rates: Rates{Signup: 1000, SignupBurst: 1000}}
}

func players(t *testing.T, s *Service, names ...string) []User {
	t.Helper()
	var us []User
	for _, n := range names {
		us = append(us, signUp(t, s, n))
	}
	return us
}

// outcomeOf is the result the tests give a board: white wins, black wins
// or a draw, by the round and board.
func outcomeOf(round, board int) string {
	return [...]string{"1-0", "0-1", "1/2-1/2"}[(round*7+board*3)%3]
}

// endGame ends a game of the event with a result: the loser resigns, or
// the players agree a draw. In a game against the engine the human
// resigns (the engine neither resigns nor takes draws).
func endGame(t *testing.T, s *Service, users map[int64]User, g wire.TournamentGame, result string) {
	t.Helper()
	ctx := context.Background()
	w, b := users[g.White.ID], users[g.Black.ID]
	var err error
	switch {
	case g.White.Bot:
		err = s.Resign(ctx, b, g.Game)
	case g.Black.Bot:
		err = s.Resign(ctx, w, g.Game)
	case result == "1-0":
		err = s.Resign(ctx, b, g.Game)
	case result == "0-1":
		err = s.Resign(ctx, w, g.Game)
	default:
		if err = s.Offer(ctx, w, g.Game, Draw); err == nil {
			err = s.Offer(ctx, b, g.Game, Draw)
		}
	}
	if err != nil {
		t.Fatalf("ending game %d (%s): %v", g.Game, result, err)
	}
}

// waitTour polls an event until ok holds (the director works in its own
// goroutine), and returns it.
func waitTour(t *testing.T, s *Service, id int64, what string, ok func(wire.TournamentFull) bool) wire.TournamentFull {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		full, err := s.Tournament(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if ok(full) {
			return full
		}
		if time.Now().After(deadline) {
			t.Fatalf("tournament %d: no %s within 10 s: %+v", id, what, full.Tournament)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// playRound ends every game of the event's last round, each by
// outcomeOf, and returns the event once the director has moved past it.
func playRound(t *testing.T, s *Service, users map[int64]User, full wire.TournamentFull) wire.TournamentFull {
	t.Helper()
	r := full.Pairings[len(full.Pairings)-1]
	for _, g := range r.Games {
		if g.Status == "active" {
			endGame(t, s, users, g, outcomeOf(r.Round, g.Board))
		}
	}
	return waitTour(t, s, full.ID, fmt.Sprintf("round after %d", r.Round), func(f wire.TournamentFull) bool {
		return f.Round > r.Round || f.Status == "finished"
	})
}

// replayed checks the event's pairings against the tournament package
// fed the same field and results, round by round, and its standings
// against the package's count: what a server that never stopped would
// have paired and counted.
func replayed(t *testing.T, full wire.TournamentFull) {
	t.Helper()
	// fieldAt is the field that pairs round (1, ...): those who sat it
	// out asked to.
	fieldAt := func(round int) []tournament.Entrant {
		var out []tournament.Entrant
		for _, e := range full.Entrants {
			if max(e.FromRound, 1) <= round {
				en := tournament.Entrant{ID: tournament.PlayerID(e.ID), Rating: e.Rating, Withdrawn: e.Withdrawn}
				if round <= len(full.Pairings) {
					en.HalfBye = slices.ContainsFunc(full.Pairings[round-1].HalfByes, func(p wire.Player) bool { return p.ID == e.ID })
				}
				out = append(out, en)
			}
		}
		return out
	}
	var rounds []tournament.Round
	for _, r := range full.Pairings {
		var tr tournament.Round
		for _, g := range r.Games {
			res := tournament.Pending
			switch g.Result {
			case "1-0":
				res = tournament.WhiteWins
			case "0-1":
				res = tournament.BlackWins
			case "1/2-1/2":
				res = tournament.Draw
			}
			tr.Games = append(tr.Games, tournament.Game{White: tournament.PlayerID(g.White.ID), Black: tournament.PlayerID(g.Black.ID), Result: res})
		}
		if r.Bye != nil {
			tr.Bye = tournament.PlayerID(r.Bye.ID)
		}
		for _, p := range r.HalfByes {
			tr.HalfByes = append(tr.HalfByes, tournament.PlayerID(p.ID))
		}
		rounds = append(rounds, tr)
	}
	var want []tournament.Round
	switch full.Kind {
	case Swiss:
		for k := range rounds {
			r, err := tournament.Swiss{Rounds: full.Rounds, Seed: *full.Seed}.Pair(fieldAt(k+1), rounds[:k])
			if err != nil {
				t.Fatalf("round %d: %v", k+1, err)
			}
			want = append(want, r)
		}
	case RoundRobin, Correspondence:
		ids := make([]tournament.PlayerID, len(full.Entrants))
		for i, e := range full.Entrants {
			ids[i] = tournament.PlayerID(e.ID)
		}
		slices.Sort(ids)
		all, err := tournament.RoundRobin(tournament.DrawLots(ids, *full.Seed), full.Cycles)
		if err != nil {
			t.Fatal(err)
		}
		want = all[:len(rounds)]
		for _, e := range full.Entrants {
			for i, id := range tournament.DrawLots(ids, *full.Seed) {
				if int64(id) == e.ID && e.Number != i+1 {
					t.Errorf("%s has number %d, want %d", e.Name, e.Number, i+1)
				}
			}
		}
	default:
		return
	}
	for k := range rounds {
		got := tournament.Round{Games: slices.Clone(rounds[k].Games), Bye: rounds[k].Bye, HalfByes: rounds[k].HalfByes}
		w := want[k]
		for i := range got.Games {
			got.Games[i].Result = tournament.Pending
		}
		if !reflect.DeepEqual(got.Games, w.Games) || got.Bye != w.Bye || !slices.Equal(got.HalfByes, w.HalfByes) {
			t.Errorf("round %d: paired %+v, the package pairs %+v", k+1, got, w)
		}
	}
	tl := tally(full.Kind)
	sd, err := tl.Standings(fieldAt(len(rounds)+1), rounds)
	if err != nil {
		t.Fatal(err)
	}
	if len(sd) != len(full.Standings) {
		t.Fatalf("%d standings, the package counts %d", len(full.Standings), len(sd))
	}
	for i, s := range sd {
		g := full.Standings[i]
		if g.Rank != s.Rank || g.Player.ID != int64(s.Player) || g.Points != s.Points || !reflect.DeepEqual(g.TieBreaks, s.TieBreaks) || g.Games != s.Games {
			t.Errorf("standing %d: got %+v, the package counts %+v", i+1, g, s)
		}
	}
}

func TestTournamentSwiss(t *testing.T) { storetest.Each(t, testTournamentSwiss) }

// testTournamentSwiss: a Swiss of five players and three rounds (a bye a
// round) from its creation to its end, with a late entrant: each round
// paired by the director as the last game of the one before ends, every
// round as the tournament package pairs it from the same results, the
// standings as it counts them, the records of every game, the stream's
// lines as the event goes.
func testTournamentSwiss(t *testing.T, dsn string) {
	s := newServiceOn(t, dsn, tourConfig())
	ctx := context.Background()
	us := players(t, s, "ann", "bob", "cy", "dee", "eve", "fay")
	users := map[int64]User{}
	for _, u := range us {
		users[u.ID] = u
	}
	full, err := s.CreateTournament(ctx, us[0], TournamentSpec{Name: "Tuesday Swiss", Kind: Swiss, Rated: true,
		Control: TimeControl{Initial: 5 * time.Minute}, Rounds: 3, LateEntryUntil: 3})
	if err != nil {
		t.Fatal(err)
	}
	id := full.ID
	if full.Status != "upcoming" || full.Rounds != 3 || full.MaxPlayers != MaxSwissField || full.Seed != nil || full.Organiser.Name != "ann" {
		t.Fatalf("CreateTournament: %+v", full.Tournament)
	}
	var lines lineRecorder
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.WatchTournament(sctx, id, lines.send)
	lines.waitFor(t, "the event in full", 5*time.Second, func(l string) bool { return strings.HasPrefix(l, `{"type":"tournament"`) })
	for _, u := range us[:5] {
		if _, err := s.JoinTournament(ctx, u, id); err != nil {
			t.Fatalf("%s joins: %v", u.Name, err)
		}
	}
	lines.waitFor(t, "the field", 5*time.Second, func(l string) bool { return strings.HasPrefix(l, `{"type":"entrants"`) && strings.Contains(l, `"eve"`) })
	accounts := map[int64]func() []wire.Event{}
	for _, u := range us[:5] {
		accounts[u.ID], _ = events(t, s, u)
	}
	full, err = s.StartTournament(ctx, us[0], id)
	if err != nil {
		t.Fatal(err)
	}
	if full.Status != "running" || full.Round != 1 || len(full.Pairings[0].Games) != 2 || full.Pairings[0].Bye == nil {
		t.Fatalf("after the start: %+v %+v", full.Tournament, full.Pairings)
	}
	// Each paired player's account stream names the event of the game,
	// as it happens and again to a stream that connects later.
	for _, pg := range full.Pairings[0].Games {
		for _, p := range []int64{pg.White.ID, pg.Black.ID} {
			live := accounts[p]
			waitFor(t, "the pairing's gameStart with its event", func() bool {
				return slices.ContainsFunc(live(), func(e wire.Event) bool { return e.Type == "gameStart" && e.Game.ID == pg.Game && e.Game.Event == id })
			})
		}
		later, _ := events(t, s, users[pg.White.ID])
		waitFor(t, "the replayed gameStart with its event, then synced", func() bool {
			evs := later()
			i := slices.IndexFunc(evs, func(e wire.Event) bool { return e.Type == "gameStart" && e.Game.ID == pg.Game && e.Game.Event == id })
			return i >= 0 && slices.ContainsFunc(evs[i:], func(e wire.Event) bool { return e.Type == "synced" })
		})
	}
	lines.waitFor(t, "round 1", 5*time.Second, func(l string) bool { return strings.HasPrefix(l, `{"type":"round","round":1`) })
	g := full.Pairings[0].Games[0]
	if info, err := s.GameInfo(ctx, g.Game); err != nil || !info.Rated || info.Control.Initial != 5*time.Minute || info.White != g.White.ID {
		t.Errorf("a game of round 1: %+v, %v", info, err)
	}
	full = playRound(t, s, users, full)
	lines.waitFor(t, "a result", 5*time.Second, func(l string) bool { return strings.HasPrefix(l, `{"type":"result","round":1`) })
	// fay enters late (late entries until 3 rounds are paired): in
	// round 2 or, if the director has paired it already, in round 3.
	e, err := s.JoinTournament(ctx, us[5], id)
	if err != nil || e.FromRound != 2 && e.FromRound != 3 {
		t.Fatalf("fay joins late: %+v, %v", e, err)
	}
	full = waitTour(t, s, id, "round 2", func(f wire.TournamentFull) bool { return f.Round >= 2 })
	full = playRound(t, s, users, full)
	if _, err := s.JoinTournament(ctx, signUp(t, s, "gus"), id); KindOf(err) != Conflict || !strings.Contains(err.Error(), "late entries until 3") {
		t.Errorf("joining after round 3 is paired: got %v, want a conflict", err)
	}
	full = playRound(t, s, users, full)
	full = waitTour(t, s, id, "the end", func(f wire.TournamentFull) bool { return f.Status == "finished" })
	if full.Round != 3 || full.Note != "" || full.FinishedMs == 0 {
		t.Errorf("the end: %+v", full.Tournament)
	}
	replayed(t, full)
	lines.waitFor(t, "the end", 5*time.Second, func(l string) bool {
		return strings.HasPrefix(l, `{"type":"status"`) && strings.Contains(l, `"status":"finished"`)
	})
	lines.waitFor(t, "the standings", 5*time.Second, func(l string) bool { return strings.HasPrefix(l, `{"type":"standings"`) })
	if full.TieBreaks[0] != "Buchholz" || len(full.Standings) != 6 || len(full.Standings[0].Rounds) != 3 {
		t.Errorf("the standings: %v %+v", full.TieBreaks, full.Standings)
	}

	// The records: every game, its round, board and result.
	recs, err := s.TournamentRecords(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	sc := record.NewScanner(strings.NewReader(string(recs)))
	n := 0
	for sc.Scan() {
		r := sc.Record()
		round, board := r.Tag("Round"), r.Tag("Board")
		var want wire.TournamentGame
		for _, p := range full.Pairings {
			for _, g := range p.Games {
				if fmt.Sprint(p.Round) == round && fmt.Sprint(g.Board) == board {
					want = g
				}
			}
		}
		if r.Tag("Event") != "Tuesday Swiss" || r.Tag("White") != want.White.Name || r.Tag("Black") != want.Black.Name || r.Tag("Result") != want.Result {
			t.Errorf("record %d (round %s board %s): %v, want %+v", n, round, board, r.Tags, want)
		}
		n++
	}
	games := 0
	for _, p := range full.Pairings {
		games += len(p.Games)
	}
	if sc.Err() != nil || n != games || games < 7 {
		t.Errorf("%d records (%v), want %d", n, sc.Err(), games)
	}
	csv, err := s.TournamentStandingsCSV(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(csv), "rank,player,rating,points,Buchholz,median Buchholz,performance,games,r1,r2,r3\n") || strings.Count(string(csv), "\n") != 7 {
		t.Errorf("the CSV:\n%s", csv)
	}
}

func TestTournamentHalfByes(t *testing.T) { storetest.Each(t, testTournamentHalfByes) }

// testTournamentHalfByes: players of a Swiss ask to sit out rounds for
// half a point, before the start and while it runs: the rounds they asked
// for pair without them and give them ½ (as the tournament package does
// from the same requests), the refusals change nothing, and a withdrawal
// drops a player's requests.
func testTournamentHalfByes(t *testing.T, dsn string) {
	s := newServiceOn(t, dsn, tourConfig())
	ctx := context.Background()
	us := players(t, s, "ann", "bob", "cy", "dee", "eve", "fay", "gus")
	ann, bob, cy, gus := us[0], us[1], us[2], us[6]
	users := map[int64]User{}
	for _, u := range us {
		users[u.ID] = u
	}
	rr, err := s.CreateTournament(ctx, ann, TournamentSpec{Name: "Round robin", Kind: RoundRobin, Control: TimeControl{Initial: 5 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.JoinTournament(ctx, bob, rr.ID); err != nil {
		t.Fatal(err)
	}
	full, err := s.CreateTournament(ctx, ann, TournamentSpec{Name: "Open", Kind: Swiss, Control: TimeControl{Initial: 5 * time.Minute}, Rounds: 4})
	if err != nil {
		t.Fatal(err)
	}
	id := full.ID
	for _, u := range us[:6] {
		if _, err := s.JoinTournament(ctx, u, id); err != nil {
			t.Fatal(err)
		}
	}
	refused := func(what string, want Kind, user User, tid int64, round int, on bool) {
		t.Helper()
		before, _ := s.tournamentState(ctx, tid)
		_, err := s.SetHalfBye(ctx, user, tid, round, on)
		if KindOf(err) != want {
			t.Errorf("%s: got %v, want %v", what, err, want)
		}
		if after, _ := s.tournamentState(ctx, tid); after.Tournament.Version != before.Tournament.Version {
			t.Errorf("%s: refused, but the event changed", what)
		}
	}
	refused("a bye in a round robin", BadRequest, bob, rr.ID, 1, true)
	refused("a bye for one not in", NotFound, gus, id, 1, true)
	refused("a bye in the last round", BadRequest, bob, id, 4, true)
	refused("a bye in round 0", BadRequest, bob, id, 0, true)
	refused("a bye of no event", NotFound, bob, 999, 1, true)
	for _, r := range []int{1, 2} {
		if _, err := s.SetHalfBye(ctx, bob, id, r, true); err != nil {
			t.Fatalf("bob sits out round %d: %v", r, err)
		}
	}
	refused("a bye asked for twice", Conflict, bob, id, 1, true)
	refused("a third bye", Conflict, bob, id, 3, true)
	refused("taking back a bye not asked for", NotFound, bob, id, 3, false)
	if e, err := s.SetHalfBye(ctx, cy, id, 3, true); err != nil || !slices.Equal(e.HalfByes, []int{3}) {
		t.Fatalf("cy sits out round 3: %+v, %v", e, err)
	}

	full, err = s.StartTournament(ctx, ann, id)
	if err != nil {
		t.Fatal(err)
	}
	r1 := full.Pairings[0]
	if len(r1.Games) != 2 || r1.Bye == nil || len(r1.HalfByes) != 1 || r1.HalfByes[0].Name != "bob" {
		t.Fatalf("round 1: %+v", r1)
	}
	refused("taking back a bye of a round paired", Conflict, bob, id, 1, false)
	full = playRound(t, s, users, full)
	full = waitTour(t, s, id, "round 2", func(f wire.TournamentFull) bool { return f.Round >= 2 })
	if r2 := full.Pairings[1]; len(r2.HalfByes) != 1 || r2.HalfByes[0].Name != "bob" || len(r2.Games) != 2 {
		t.Fatalf("round 2: %+v", r2)
	}
	replayed(t, full)
	if _, err := s.WithdrawTournament(ctx, cy, id); err != nil {
		t.Fatal(err)
	}
	full = waitTour(t, s, id, "cy withdrawn", func(f wire.TournamentFull) bool {
		return slices.ContainsFunc(f.Entrants, func(e wire.TournamentEntrant) bool { return e.Name == "cy" && e.Withdrawn })
	})
	for _, e := range full.Entrants {
		want := map[string][]int{"bob": {1, 2}}[e.Name]
		if !slices.Equal(e.HalfByes, want) {
			t.Errorf("%s has asked to sit out %v, want %v", e.Name, e.HalfByes, want)
		}
	}
	for _, st := range full.Standings {
		if st.Player.Name != "bob" {
			continue
		}
		if st.Points != 1 || st.Games != 0 || len(st.Rounds) != 2 || st.Rounds[0].Kind != "halfBye" || st.Rounds[0].Points != 0.5 || st.Rounds[1].Kind != "halfBye" {
			t.Errorf("bob's standing after round 1 and with round 2 going on: %+v", st)
		}
	}

	// Two of three who would sit out round 1 would leave it unpairable:
	// it is paired with them, and the event goes on.
	small, err := s.CreateTournament(ctx, gus, TournamentSpec{Name: "Small", Kind: Swiss, Control: TimeControl{Initial: 5 * time.Minute}, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []User{gus, us[3], us[4]} {
		if _, err := s.JoinTournament(ctx, u, small.ID); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range us[3:5] {
		if _, err := s.SetHalfBye(ctx, u, small.ID, 1, true); err != nil {
			t.Fatal(err)
		}
	}
	full, err = s.StartTournament(ctx, gus, small.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r1 := full.Pairings[0]; len(r1.Games) != 1 || r1.Bye == nil || len(r1.HalfByes) != 0 {
		t.Errorf("round 1 of three, two of whom asked to sit out: %+v", r1)
	}
}

func TestTournamentRoundRobinRestart(t *testing.T) {
	storetest.Each(t, testTournamentRoundRobinRestart)
}

// testTournamentRoundRobinRestart: a double round robin of four players,
// its service stopped twice in the middle: once with a round over but
// not yet paired (the last game ended in the store by a process that
// died before directing), once with games going on. Each restarted
// service goes on from the store: every round paired once, as the Berger
// tables say, the standings as the package counts them.
func testTournamentRoundRobinRestart(t *testing.T, dsn string) {
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	open := func() *Service {
		cfg := tourConfig()
		cfg.Store, cfg.Hash = st, auth.Test
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Start(ctx); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := open()
	us := players(t, s, "ann", "bob", "cy", "dee")
	users := map[int64]User{}
	for _, u := range us {
		users[u.ID] = u
	}
	full, err := s.CreateTournament(ctx, us[0], TournamentSpec{Name: "Club round robin", Kind: RoundRobin, Cycles: 2,
		Control: TimeControl{NagDays: 1, ForfeitDays: 2}})
	if err != nil {
		t.Fatal(err)
	}
	id := full.ID
	for _, u := range us {
		if _, err := s.JoinTournament(ctx, u, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.StartTournament(ctx, us[1], id); KindOf(err) != Forbidden {
		t.Errorf("bob starts ann's event: got %v, want forbidden", err)
	}
	full, err = s.StartTournament(ctx, us[0], id)
	if err != nil {
		t.Fatal(err)
	}
	if full.Rounds != 6 || full.Round != 1 {
		t.Fatalf("a double round robin of 4: %+v", full.Tournament)
	}
	full = playRound(t, s, users, full)
	full = playRound(t, s, users, full)

	// Round 3: one game ended through the service, then the service
	// stops; the other game ends in the store, as a process that died
	// before its director ran would leave it.
	r := full.Pairings[2]
	endGame(t, s, users, r.Games[0], outcomeOf(3, 1))
	s.Close()
	g := r.Games[1]
	info, err := st.Game(ctx, g.Game)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.FinishGame(ctx, g.Game, store.Finish{Ply: info.Ply, At: time.Now(), Ending: store.Ending{Result: outcomeOf(3, 2), Method: "resignation"}}); err != nil {
		t.Fatal(err)
	}
	s = open()
	full = waitTour(t, s, id, "round 4 after the restart", func(f wire.TournamentFull) bool { return f.Round == 4 })
	// Round 4 going on when the service stops; it ends after the restart.
	s.Close()
	s = open()
	defer s.Close()
	for full.Status != "finished" {
		full = playRound(t, s, users, full)
	}
	replayed(t, full)
	games := 0
	for _, p := range full.Pairings {
		games += len(p.Games)
	}
	if games != 12 || len(full.Pairings) != 6 {
		t.Errorf("%d games in %d rounds, want 12 in 6", games, len(full.Pairings))
	}
	// Colours: nobody has one colour three times running.
	for _, line := range full.Standings {
		run, last := 0, ""
		for _, c := range line.Rounds {
			if c.Colour == last {
				run++
			} else {
				run, last = 1, c.Colour
			}
			if run >= 3 {
				t.Errorf("%s has %s three times running: %+v", line.Player.Name, last, line.Rounds)
			}
		}
	}
	if full.TieBreaks[0] != "Sonneborn-Berger" {
		t.Errorf("tie-breaks: %v", full.TieBreaks)
	}
}

func TestTournamentRefusals(t *testing.T) { storetest.Each(t, testTournamentRefusals) }

// testTournamentRefusals: bad input and calls by the wrong player get a
// clear error of the right kind, and change nothing.
func testTournamentRefusals(t *testing.T, dsn string) {
	cfg := tourConfig()
	cfg.Quotas = Quotas{Tournaments: 3, TournamentsJoined: 3}
	cfg.Rates.Tournament, cfg.Rates.TournamentBurst = 1e-9, 2
	s := newServiceOn(t, dsn, cfg)
	ctx := context.Background()
	us := players(t, s, "ann", "bob", "cy", "dee")
	ann, bob, cy, dee := us[0], us[1], us[2], us[3]
	guest, _, _, err := s.Guest(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	rt := TimeControl{Initial: time.Minute}
	ok := TournamentSpec{Name: "Fine", Kind: Swiss, Rounds: 2, Control: rt}
	with := func(f func(*TournamentSpec)) TournamentSpec { sp := ok; f(&sp); return sp }
	for _, c := range []struct {
		what string
		user User
		spec TournamentSpec
		kind Kind
		msg  string
	}{
		{"no kind", ann, with(func(sp *TournamentSpec) { sp.Kind = "" }), BadRequest, "needs a kind"},
		{"an unknown kind", ann, with(func(sp *TournamentSpec) { sp.Kind = "knockout" }), BadRequest, "unknown kind"},
		{"an unknown preset", ann, with(func(sp *TournamentSpec) { sp.Variant = "chess" }), BadRequest, "chess"},
		{"a short name", ann, with(func(sp *TournamentSpec) { sp.Name = "ab" }), BadRequest, "3 to 60"},
		{"a name with a control character", ann, with(func(sp *TournamentSpec) { sp.Name = "Bad\x07Name" }), BadRequest, "control"},
		{"a long name", ann, with(func(sp *TournamentSpec) { sp.Name = strings.Repeat("x", 61) }), BadRequest, "3 to 60"},
		{"no clock", ann, with(func(sp *TournamentSpec) { sp.Control = TimeControl{} }), BadRequest, "clock or days"},
		{"a clock too short", ann, with(func(sp *TournamentSpec) { sp.Control = TimeControl{Initial: time.Second} }), BadRequest, "10 seconds"},
		{"no rounds", ann, with(func(sp *TournamentSpec) { sp.Rounds = 0 }), BadRequest, "1 to 20 rounds"},
		{"too many rounds", ann, with(func(sp *TournamentSpec) { sp.Rounds = 21 }), BadRequest, "1 to 20 rounds"},
		{"rounds of a round robin", ann, with(func(sp *TournamentSpec) { sp.Kind = RoundRobin }), BadRequest, "a Swiss's"},
		{"three cycles", ann, TournamentSpec{Name: "Round robin", Kind: RoundRobin, Cycles: 3, Control: rt}, BadRequest, "1 cycle"},
		{"an arena without a duration", ann, TournamentSpec{Name: "Arena", Kind: Arena, Control: rt}, BadRequest, "an arena lasts"},
		{"an arena of days", ann, TournamentSpec{Name: "Arena", Kind: Arena, Duration: time.Hour, Control: TimeControl{ForfeitDays: 3}}, BadRequest, "real-time"},
		{"a correspondence event with a clock", ann, TournamentSpec{Name: "Corr", Kind: Correspondence, Control: rt}, BadRequest, "days per move"},
		{"a field too big", ann, with(func(sp *TournamentSpec) { sp.MaxPlayers = MaxSwissField + 1 }), BadRequest, "2 to 200 players"},
		{"a round robin too big", ann, TournamentSpec{Name: "Round robin", Kind: RoundRobin, MaxPlayers: 21, Control: rt}, BadRequest, "2 to 20 players"},
		{"a start in the past", ann, with(func(sp *TournamentSpec) { sp.StartsAt = time.Now().Add(-time.Hour) }), BadRequest, "not in the past"},
		{"a start next year", ann, with(func(sp *TournamentSpec) { sp.StartsAt = time.Now().Add(200 * 24 * time.Hour) }), BadRequest, "within 90 days"},
		{"a band upside down", ann, with(func(sp *TournamentSpec) { sp.MinRating, sp.MaxRating = 1800, 1500 }), BadRequest, "rating band"},
		{"an engine level 11", ann, with(func(sp *TournamentSpec) { sp.EngineLevel = 11 }), BadRequest, "1 to 10"},
		{"late entries past the rounds", ann, with(func(sp *TournamentSpec) { sp.LateEntryUntil = 3 }), BadRequest, "lateEntryUntil"},
		{"a club that is not", ann, with(func(sp *TournamentSpec) { sp.Club = 99 }), NotFound, "no club 99"},
		{"a guest", guest, ok, Forbidden, "guest"},
	} {
		before, _ := s.Tournaments(ctx, TournamentsQuery{})
		_, err := s.CreateTournament(ctx, c.user, c.spec)
		if KindOf(err) != c.kind || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v (kind %d), want kind %d saying %q", c.what, err, KindOf(err), c.kind, c.msg)
		}
		if after, _ := s.Tournaments(ctx, TournamentsQuery{}); len(after.Tournaments) != len(before.Tournaments) {
			t.Errorf("%s: an event was made", c.what)
		}
	}

	// A club's event: made by its leaders only, joined by its members only.
	club, err := s.CreateClub(ctx, bob, "Mill Club", "", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTournament(ctx, ann, with(func(sp *TournamentSpec) { sp.Club = club.ID })); KindOf(err) != Forbidden {
		t.Errorf("a club event by a non-leader: got %v, want forbidden", err)
	}
	clubEvent, err := s.CreateTournament(ctx, bob, with(func(sp *TournamentSpec) { sp.Name = "Club night"; sp.Club = club.ID }))
	if err != nil {
		t.Fatal(err)
	}
	event, err := s.CreateTournament(ctx, ann, with(func(sp *TournamentSpec) { sp.MinRating, sp.MaxRating = 1400, 1600 }))
	if err != nil {
		t.Fatal(err)
	}
	// The rate: 2 events, then one in 30 years; the quota: 3 events
	// organised at once, then 2 (the quota is looked at first).
	okEvent, err := s.CreateTournament(ctx, ann, ok)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTournament(ctx, ann, ok); KindOf(err) != TooMany || !strings.Contains(err.Error(), "too many tournaments lately") {
		t.Errorf("a third event in a moment: got %v, want the rate", err)
	}
	s.cfg.Quotas.Tournaments = 2
	if _, err := s.CreateTournament(ctx, ann, ok); KindOf(err) != Conflict || !strings.Contains(err.Error(), "you organise 2") {
		t.Errorf("a third event: got %v, want the quota", err)
	}

	state := func(id int64) wire.TournamentFull {
		f, err := s.Tournament(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	unchanged := func(what string, before wire.TournamentFull) {
		t.Helper()
		if after := state(before.ID); !reflect.DeepEqual(before, after) {
			t.Errorf("%s changed the event:\n%+v\n%+v", what, before.Tournament, after.Tournament)
		}
	}
	if _, err := s.JoinTournament(ctx, ann, clubEvent.ID); KindOf(err) != Forbidden || !strings.Contains(err.Error(), "members of club") {
		t.Errorf("a non-member joins a club's event: got %v", err)
	}
	unchanged("a non-member's join", clubEvent)
	if _, err := s.JoinTournament(ctx, bob, clubEvent.ID); err != nil {
		t.Errorf("a member joins: %v", err)
	}
	if _, err := s.JoinTournament(ctx, ann, event.ID); err != nil { // 1500: in the band
		t.Fatal(err)
	}
	if err := s.st.SetRating(ctx, store.Rating{User: cy.ID, Variant: "nine-mens-morris", R: 1750, RD: 60, Sigma: 0.06, Games: 30}); err != nil {
		t.Fatal(err)
	}
	before := state(event.ID)
	for _, c := range []struct {
		what string
		do   func() error
		kind Kind
	}{
		{"joining twice", func() error { _, err := s.JoinTournament(ctx, ann, event.ID); return err }, Conflict},
		{"a rating outside the band", func() error { _, err := s.JoinTournament(ctx, cy, event.ID); return err }, Forbidden},
		{"a guest joining", func() error { _, err := s.JoinTournament(ctx, guest, event.ID); return err }, Forbidden},
		{"joining no event", func() error { _, err := s.JoinTournament(ctx, ann, 999); return err }, NotFound},
		{"withdrawing when not in", func() error { _, err := s.WithdrawTournament(ctx, dee, event.ID); return err }, NotFound},
		{"a start by another", func() error { _, err := s.StartTournament(ctx, bob, event.ID); return err }, Forbidden},
		{"a pairing by another", func() error { _, err := s.PairTournament(ctx, bob, event.ID); return err }, Forbidden},
		{"a start with one player", func() error { _, err := s.StartTournament(ctx, ann, event.ID); return err }, Conflict},
		{"pairing an event not started", func() error { _, err := s.PairTournament(ctx, ann, event.ID); return err }, Conflict},
		{"berserk in a Swiss", func() error { _, err := s.Berserk(ctx, ann, event.ID); return err }, BadRequest},
	} {
		if err := c.do(); KindOf(err) != c.kind {
			t.Errorf("%s: got %v (kind %d), want kind %d", c.what, err, KindOf(err), c.kind)
		}
		unchanged(c.what, before)
	}
	// A Swiss of 2 rounds needs 3 players (2 rounds of 2 would repeat).
	if _, err := s.JoinTournament(ctx, dee, event.ID); err != nil {
		t.Fatal(err)
	}
	before = state(event.ID)
	if _, err := s.StartTournament(ctx, ann, event.ID); KindOf(err) != Conflict || !strings.Contains(err.Error(), "at most 1 rounds, not 2") {
		t.Errorf("a Swiss of 2 rounds with 2 players: got %v", err)
	}
	unchanged("a start the field cannot have", before)
	// The quota of events joined: dee plays in one, and may play in one.
	s.cfg.Quotas.TournamentsJoined = 1
	before = state(okEvent.ID)
	if _, err := s.JoinTournament(ctx, dee, okEvent.ID); KindOf(err) != Conflict || !strings.Contains(err.Error(), "you play in 1") {
		t.Errorf("dee joins a second event: got %v, want the quota", err)
	}
	unchanged("a join past the quota", before)
	if _, err := s.Tournaments(ctx, TournamentsQuery{Status: "paused"}); KindOf(err) != BadRequest {
		t.Errorf("listing by a bad status: %v", err)
	}
	if _, err := s.Tournaments(ctx, TournamentsQuery{Limit: 101}); KindOf(err) != BadRequest {
		t.Errorf("a page of 101: %v", err)
	}
}

// TestTournamentPairedOnce: two services on one PostgreSQL database, two
// processes as far as the store is concerned, race to pair the same
// round of a Swiss, their directors and direct calls of both at once: the
// round is paired once, its games made once.
func TestTournamentPairedOnce(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	a := newServiceOn(t, dsn, tourConfig())
	b := newServiceOn(t, dsn, tourConfig())
	ctx := context.Background()
	us := players(t, a, "ann", "bob", "cy", "dee", "eve", "fay")
	users := map[int64]User{}
	for _, u := range us {
		users[u.ID] = u
	}
	full, err := a.CreateTournament(ctx, us[0], TournamentSpec{Name: "Race", Kind: Swiss, Rounds: 3, Control: TimeControl{Initial: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range us {
		svc := []*Service{a, b}[i%2]
		if _, err := svc.JoinTournament(ctx, u, full.ID); err != nil {
			t.Fatal(err)
		}
	}
	var directs atomic.Int64
	for _, svc := range []*Service{a, b} {
		svc.cfg.hooks.direct = func(int64) { directs.Add(1) }
	}
	if full, err = b.StartTournament(ctx, us[0], full.ID); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 3; round++ {
		r := full.Pairings[len(full.Pairings)-1]
		// All but the last game end; the last ends through a, and both
		// services direct the event again and again at once.
		for _, g := range r.Games[:len(r.Games)-1] {
			endGame(t, b, users, g, outcomeOf(round, g.Board))
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				svc := []*Service{a, b}[i%2]
				for range 5 {
					if err := svc.direct(ctx, full.ID); err != nil {
						t.Error(err)
					}
				}
			}()
		}
		g := r.Games[len(r.Games)-1]
		endGame(t, a, users, g, outcomeOf(round, g.Board))
		close(start)
		wg.Wait()
		full = waitTour(t, b, full.ID, "the next round", func(f wire.TournamentFull) bool { return f.Round > round || f.Status == "finished" })
	}
	full = waitTour(t, a, full.ID, "the end", func(f wire.TournamentFull) bool { return f.Status == "finished" })
	games := 0
	for _, p := range full.Pairings {
		games += len(p.Games)
	}
	if len(full.Pairings) != 3 || games != 9 {
		t.Errorf("%d rounds, %d games; want 3 and 9", len(full.Pairings), games)
	}
	all, err := a.st.Games(ctx, store.GameQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 9 {
		t.Errorf("%d games in the store, want 9: a round paired twice made games", len(all))
	}
	replayed(t, full)
	t.Logf("%d directions of the event by two processes", directs.Load())
}

// TestTournamentArena: an arena from its start to its end, on a clock the
// test moves: players paired as soon as they are free, a streak and a
// berserk scored as lichess scores them, a withdrawal that pauses, no
// pairing after the end, the end when its last game is over.
func TestTournamentArena(t *testing.T) {
	var offset atomic.Int64
	cfg := tourConfig()
	cfg.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	s := newService(t, cfg)
	ctx := context.Background()
	us := players(t, s, "ann", "bob", "cy", "dee")
	users := map[int64]User{}
	for _, u := range us {
		users[u.ID] = u
	}
	ann, bob := us[0], us[1]
	full, err := s.CreateTournament(ctx, ann, TournamentSpec{Name: "Hourly Arena", Kind: Arena, Duration: time.Hour, Control: TimeControl{Initial: 2 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	id := full.ID
	for _, u := range us[:2] {
		if _, err := s.JoinTournament(ctx, u, id); err != nil {
			t.Fatal(err)
		}
	}
	if full, err = s.StartTournament(ctx, ann, id); err != nil {
		t.Fatal(err)
	}
	if full.EndsMs == 0 || len(full.Pairings) != 1 || len(full.Pairings[0].Games) != 1 {
		t.Fatalf("the start: %+v %+v", full.Tournament, full.Pairings)
	}
	if _, err := s.PairTournament(ctx, ann, id); KindOf(err) != Conflict {
		t.Errorf("pairing with nobody waiting: %v", err)
	}
	// ann wins three running, berserking in the third; bob wins the fourth.
	win := func(winner User, berserk bool) {
		t.Helper()
		full = waitTour(t, s, id, "a game", func(f wire.TournamentFull) bool { return activeOf(f, winner.ID) != nil })
		g := activeOf(full, winner.ID)
		if berserk {
			bg, err := s.Berserk(ctx, winner, id)
			if err != nil {
				t.Fatal(err)
			}
			info, _ := s.GameInfo(ctx, g.Game)
			side := 0
			if g.Black.ID == winner.ID {
				side = 1
			}
			if !(bg.WhiteBerserk || bg.BlackBerserk) || info.Clocks.Left[side] > time.Minute {
				t.Errorf("after a berserk: %+v, clocks %v", bg, info.Clocks.Left)
			}
			if _, err := s.Berserk(ctx, winner, id); KindOf(err) != Conflict {
				t.Errorf("a second berserk: %v", err)
			}
			// A win by resignation at once: the berserk point needs 14 plies.
			mg := mill.NewGame(mill.MustRules("nine-mens-morris"))
			for ply := 0; ply < ArenaBerserkPlies; ply++ {
				p := mg.Position()
				m := p.Moves(nil)[0]
				mover := users[g.White.ID]
				if p.SideToMove() == mill.Black {
					mover = users[g.Black.ID]
				}
				if _, err := s.Move(ctx, mover, g.Game, p.MoveText(m), ply); err != nil {
					t.Fatal(err)
				}
				mg.Play(m)
			}
		}
		loser := users[g.White.ID]
		if loser.ID == winner.ID {
			loser = users[g.Black.ID]
		}
		if err := s.Resign(ctx, loser, g.Game); err != nil {
			t.Fatal(err)
		}
	}
	win(ann, false)
	win(ann, false)
	win(ann, true)
	win(bob, false)
	full = waitTour(t, s, id, "the fifth game", func(f wire.TournamentFull) bool { return len(f.Pairings) == 5 })
	line := func(u User) wire.TournamentStanding {
		for _, l := range full.Standings {
			if l.Player.ID == u.ID {
				return l
			}
		}
		t.Fatalf("%s has no line", u.Name)
		return wire.TournamentStanding{}
	}
	// 2, 2, then on fire: 4 + 1 for the berserk, then a loss.
	if l := line(ann); !reflect.DeepEqual(l.Sheet, []int{2, 2, 5, 0}) || l.Points != 9 || l.Rank != 1 || l.OnFire {
		t.Errorf("ann: %+v", l)
	}
	if l := line(bob); !reflect.DeepEqual(l.Sheet, []int{0, 0, 0, 2}) || l.Points != 2 {
		t.Errorf("bob: %+v", l)
	}
	// Two more come; bob pauses (withdraws: his game is resigned) and
	// comes back.
	for _, u := range us[2:] {
		if _, err := s.JoinTournament(ctx, u, id); err != nil {
			t.Fatal(err)
		}
	}
	full = waitTour(t, s, id, "cy and dee paired", func(f wire.TournamentFull) bool { return activeOf(f, us[2].ID) != nil })
	if _, err := s.WithdrawTournament(ctx, bob, id); err != nil {
		t.Fatal(err)
	}
	full = waitTour(t, s, id, "bob's game resigned", func(f wire.TournamentFull) bool { return activeOf(f, bob.ID) == nil })
	if _, err := s.JoinTournament(ctx, bob, id); err != nil {
		t.Errorf("bob comes back: %v", err)
	}
	// The end: no more pairings; the games going on finish, then the arena.
	offset.Store(int64(2 * time.Hour))
	if _, err := s.JoinTournament(ctx, signUp(t, s, "eve"), id); KindOf(err) != Conflict {
		t.Errorf("joining after the end: %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	full, _ = s.Tournament(ctx, id)
	n := len(full.Pairings)
	for _, r := range full.Pairings {
		for _, g := range r.Games {
			if g.Status == "active" {
				if err := s.Resign(ctx, users[g.White.ID], g.Game); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	full = waitTour(t, s, id, "the end", func(f wire.TournamentFull) bool { return f.Status == "finished" })
	if len(full.Pairings) != n {
		t.Errorf("paired after the end: %d waves, then %d", n, len(full.Pairings))
	}
}

func activeOf(f wire.TournamentFull, user int64) *wire.TournamentGame {
	for _, r := range f.Pairings {
		for _, g := range r.Games {
			if g.Status == "active" && (g.White.ID == user || g.Black.ID == user) {
				return &g
			}
		}
	}
	return nil
}

// TestTournamentCorrespondence: a correspondence round robin of three
// players and the engine: every game started at once, the engine's at
// its level and unrated; a withdrawal resigns the player's games; the
// event ends with its last game.
func TestTournamentCorrespondence(t *testing.T) {
	cfg := tourConfig()
	cfg.EngineWorkers = 1
	s := newService(t, cfg)
	ctx := context.Background()
	us := players(t, s, "ann", "bob", "cy")
	users := map[int64]User{}
	for _, u := range us {
		users[u.ID] = u
	}
	full, err := s.CreateTournament(ctx, us[0], TournamentSpec{Name: "Postal", Kind: Correspondence, Rated: true,
		Control: TimeControl{NagDays: 2, ForfeitDays: 3}, EngineLevel: 1, StartsAt: time.Now().Add(200 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Entrants) != 1 || !full.Entrants[0].Bot || full.Entrants[0].Rating != 900 {
		t.Fatalf("the engine's entry: %+v", full.Entrants)
	}
	for _, u := range us {
		if _, err := s.JoinTournament(ctx, u, full.ID); err != nil {
			t.Fatal(err)
		}
	}
	// The director starts it at its time.
	full = waitTour(t, s, full.ID, "the start", func(f wire.TournamentFull) bool { return f.Status == "running" })
	games := 0
	for _, r := range full.Pairings {
		for _, g := range r.Games {
			games++
			info, err := s.GameInfo(ctx, g.Game)
			if err != nil {
				t.Fatal(err)
			}
			engine := g.White.Bot || g.Black.Bot
			if info.Control.ForfeitDays != 3 || info.Rated == engine || (info.EngineLevel == 1) != engine {
				t.Errorf("game %d: rated %v, engine level %d, control %+v", g.Game, info.Rated, info.EngineLevel, info.Control)
			}
		}
	}
	if games != 6 || full.Round != 3 || full.Rounds != 3 {
		t.Fatalf("%d games in %d rounds of %d, want 6 in 3", games, full.Round, full.Rounds)
	}
	if _, err := s.PairTournament(ctx, us[0], full.ID); KindOf(err) != Conflict {
		t.Errorf("pairing a correspondence event: %v", err)
	}
	if _, err := s.WithdrawTournament(ctx, us[2], full.ID); err != nil {
		t.Fatal(err)
	}
	full = waitTour(t, s, full.ID, "cy's games resigned", func(f wire.TournamentFull) bool {
		for _, r := range f.Pairings {
			for _, g := range r.Games {
				if g.Status == "active" && (g.White.ID == us[2].ID || g.Black.ID == us[2].ID) {
					return false
				}
			}
		}
		return true
	})
	for _, r := range full.Pairings {
		for _, g := range r.Games {
			if g.Status == "active" {
				endGame(t, s, users, g, outcomeOf(r.Round, g.Board))
			}
		}
	}
	full = waitTour(t, s, full.ID, "the end", func(f wire.TournamentFull) bool { return f.Status == "finished" })
	replayed(t, full)
	if l := full.Standings[len(full.Standings)-1]; l.Player.ID != us[2].ID || l.Points != 0 || !l.Withdrawn {
		t.Errorf("cy, who withdrew, last: %+v", l)
	}
}

// TestTournamentCancelled: an event whose start time comes with too few
// players is cancelled, with a note.
func TestTournamentCancelled(t *testing.T) {
	s := newService(t, tourConfig())
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	full, err := s.CreateTournament(ctx, ann, TournamentSpec{Name: "Lonely", Kind: Swiss, Rounds: 3,
		Control: TimeControl{Initial: time.Minute}, StartsAt: time.Now().Add(100 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.JoinTournament(ctx, ann, full.ID); err != nil {
		t.Fatal(err)
	}
	full = waitTour(t, s, full.ID, "the cancellation", func(f wire.TournamentFull) bool { return f.Status == "finished" })
	if !full.Cancelled || !strings.Contains(full.Note, "1 players joined") {
		t.Errorf("cancelled: %+v", full.Tournament)
	}
}

// TestTournamentManualAndCancel: a Swiss paired by hand waits for its
// organiser when a round is over, and is paired by the director once it
// has waited ManualPairingWait; an organiser cancels an event before its
// start, and nobody else does.
func TestTournamentManualAndCancel(t *testing.T) {
	var offset atomic.Int64
	cfg := tourConfig()
	cfg.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	s := newService(t, cfg)
	ctx := context.Background()
	us := players(t, s, "ann", "bob", "cy", "dee")
	users := map[int64]User{}
	for _, u := range us {
		users[u.ID] = u
	}
	full, err := s.CreateTournament(ctx, us[0], TournamentSpec{Name: "By hand", Kind: Swiss, Rounds: 3, ManualPairing: true,
		Control: TimeControl{NagDays: 3, ForfeitDays: 5}})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range us {
		if _, err := s.JoinTournament(ctx, u, full.ID); err != nil {
			t.Fatal(err)
		}
	}
	if full, err = s.StartTournament(ctx, us[0], full.ID); err != nil {
		t.Fatal(err)
	}
	for _, g := range full.Pairings[0].Games {
		endGame(t, s, users, g, outcomeOf(1, g.Board))
	}
	time.Sleep(200 * time.Millisecond) // ten sweeps
	if full, _ = s.Tournament(ctx, full.ID); full.Round != 1 {
		t.Fatalf("a Swiss paired by hand paired by the director: round %d", full.Round)
	}
	if _, err := s.PairTournament(ctx, us[1], full.ID); KindOf(err) != Forbidden {
		t.Errorf("bob pairs ann's event: %v", err)
	}
	if full, err = s.PairTournament(ctx, us[0], full.ID); err != nil || full.Round != 2 {
		t.Fatalf("ann pairs round 2: round %d, %v", full.Round, err)
	}
	for _, g := range full.Pairings[1].Games {
		endGame(t, s, users, g, outcomeOf(2, g.Board))
	}
	offset.Store(int64(ManualPairingWait + time.Minute))
	full = waitTour(t, s, full.ID, "round 3 paired by the director after the wait", func(f wire.TournamentFull) bool { return f.Round == 3 })
	replayed(t, full)

	up, err := s.CreateTournament(ctx, us[1], TournamentSpec{Name: "Never mind", Kind: Arena, Duration: time.Hour, Control: TimeControl{Initial: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CancelTournament(ctx, us[0], up.ID); KindOf(err) != Forbidden {
		t.Errorf("ann cancels bob's event: %v", err)
	}
	if _, err := s.CancelTournament(ctx, us[0], full.ID); KindOf(err) != Conflict {
		t.Errorf("cancelling a running event: %v", err)
	}
	up, err = s.CancelTournament(ctx, us[1], up.ID)
	if err != nil || up.Status != "finished" || !up.Cancelled || up.Note != "cancelled by its organiser" {
		t.Errorf("bob cancels: %+v, %v", up.Tournament, err)
	}
}
