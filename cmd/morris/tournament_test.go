package main

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/tournament"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// TestTournamentsEndToEnd plays two events to their end over the HTTP API
// of a real morris serve process, killed once with SIGKILL in the middle
// of their rounds and started again on the same data: a Swiss of nine
// players and four rounds with a real-time clock, and a double round
// robin of six with days per move. Each player is a scripted client that
// finds its game in the event, plays random legal moves for a number of
// plies the game's round and board decide, and then resigns, or offers
// and accepts a draw, as they decide. The test checks that every round
// was paired once and as the tournament package pairs it from the same
// results (what a server that never stopped would have paired), the
// standings and tie-breaks as the package counts them, each player's
// colours, the exported records (every game, its players, result and
// moves) and the standings as CSV and JSON.
func TestTournamentsEndToEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	args := []string{"-data", dir, "-no-limits"}
	var cur atomic.Pointer[serverProc]
	cur.Store(startServer(t, args...))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// call is serverProc.call on the server of the moment, again while
	// it is down (a connection refused, a 5xx), until ctx ends.
	call := func(method, path, token string, body, out any) (int, error) {
		for {
			code, err := cur.Load().call(ctx, method, path, token, body, out)
			if err == nil || code >= 400 && code < 500 {
				return code, err
			}
			if ctx.Err() != nil {
				return code, err
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// text is a GET of a text answer (records, CSV) from the server of
	// the moment.
	text := func(path string) string {
		t.Helper()
		resp, err := http.Get("http://" + cur.Load().addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %v %s", path, resp.StatusCode, err, b)
		}
		return string(b)
	}
	must := func(method, path, token string, body, out any) {
		t.Helper()
		if _, err := call(method, path, token, body, out); err != nil {
			t.Fatal(err)
		}
	}

	p := cur.Load()
	org := p.account(t, "org")
	tokens := map[string]string{}
	var swissNames, rrNames []string
	for i := 1; i <= 9; i++ {
		swissNames = append(swissNames, fmt.Sprintf("s%d", i))
	}
	for i := 1; i <= 6; i++ {
		rrNames = append(rrNames, fmt.Sprintf("r%d", i))
	}
	for _, n := range append(slices.Clone(swissNames), rrNames...) {
		tokens[n] = p.account(t, n)
	}
	var swiss, rr wire.TournamentFull
	must("POST", "/api/tournament", org, map[string]any{"name": "Nine Swiss", "kind": "swiss", "rounds": 4, "rated": true,
		"clock": map[string]any{"initialMs": 600000, "incrementMs": 1000}}, &swiss)
	must("POST", "/api/tournament", org, map[string]any{"name": "Six Double", "kind": "roundrobin", "cycles": 2, "days": 3}, &rr)
	for _, ev := range []struct {
		id    int64
		names []string
	}{{swiss.ID, swissNames}, {rr.ID, rrNames}} {
		for _, n := range ev.names {
			must("POST", fmt.Sprintf("/api/tournament/%d/join", ev.id), tokens[n], nil, nil)
		}
		must("POST", fmt.Sprintf("/api/tournament/%d/start", ev.id), org, nil, nil)
	}

	// The players.
	var moves atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for _, ev := range []struct {
		id    int64
		names []string
	}{{swiss.ID, swissNames}, {rr.ID, rrNames}} {
		for _, n := range ev.names {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := playEvent(ctx, call, ev.id, n, tokens[n], &moves); err != nil {
					errs <- fmt.Errorf("%s: %w", n, err)
				}
			}()
		}
	}

	// The kill: when the Swiss is in its third round with a game over
	// and one going on, and the round robin has games going on.
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		for ctx.Err() == nil {
			var s, r wire.TournamentFull
			if _, err := call("GET", fmt.Sprintf("/api/tournament/%d", swiss.ID), "", nil, &s); err != nil {
				return
			}
			if _, err := call("GET", fmt.Sprintf("/api/tournament/%d", rr.ID), "", nil, &r); err != nil {
				return
			}
			if s.Round == 3 && countGames(s, 3, "finished") > 0 && countGames(s, 3, "active") > 0 && countGames(r, r.Round, "active") > 0 {
				p := cur.Load()
				if err := p.cmd.Process.Kill(); err != nil {
					t.Error(err)
					return
				}
				<-p.done
				t.Logf("killed in round 3 of %d (%d games over, %d going on) and round %d of %d; %d moves played",
					swiss.ID, countGames(s, 3, "finished"), countGames(s, 3, "active"), r.Round, rr.ID, moves.Load())
				cur.Store(startServer(t, args...))
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	wg.Wait()
	<-killed
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}

	must("GET", fmt.Sprintf("/api/tournament/%d", swiss.ID), "", nil, &swiss)
	must("GET", fmt.Sprintf("/api/tournament/%d", rr.ID), "", nil, &rr)
	t.Logf("%d moves played in %d + %d games", moves.Load(), countGames(swiss, 0, ""), countGames(rr, 0, ""))
	if swiss.Status != "finished" || swiss.Round != 4 || len(swiss.Pairings) != 4 || countGames(swiss, 0, "") != 16 {
		t.Errorf("the Swiss: %+v, %d games", swiss.Tournament, countGames(swiss, 0, ""))
	}
	if rr.Status != "finished" || rr.Rounds != 10 || len(rr.Pairings) != 10 || countGames(rr, 0, "") != 30 {
		t.Errorf("the round robin: %+v, %d games", rr.Tournament, countGames(rr, 0, ""))
	}
	var all []wire.GameSummary
	must("GET", "/api/games?limit=100", "", nil, &all)
	if len(all) != 46 {
		t.Errorf("%d games on the server, want 46: a round paired twice would have made more", len(all))
	}
	for _, ev := range []wire.TournamentFull{swiss, rr} {
		checkPairedAsThePackage(t, ev)
		checkColours(t, ev)
		checkExports(t, call, text, ev)
	}
}

// countGames counts the event's games of a round (0: every round) whose
// status is status ("": any).
func countGames(f wire.TournamentFull, round int, status string) int {
	n := 0
	for _, r := range f.Pairings {
		for _, g := range r.Games {
			if (round == 0 || r.Round == round) && (status == "" || g.Status == status) {
				n++
			}
		}
	}
	return n
}

// plan is what the players of a game do: random legal moves for plies
// plies, then the result: "1-0" (black resigns), "0-1" (white resigns),
// or a draw agreed. It follows from the event, round and board, so a
// game goes the same way whatever the kill interrupted.
func plan(event int64, round, board int) (int, string) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%d", event, round, board)
	v := h.Sum64()
	return 6 + int(v%20), [...]string{"1-0", "0-1", "1/2-1/2"}[(v/20)%3]
}

// playEvent is one player's client: it plays its games of the event, one
// at a time as they come, until the event is over.
func playEvent(ctx context.Context, call func(method, path, token string, body, out any) (int, error), event int64, name, token string, moves *atomic.Int64) error {
	for ctx.Err() == nil {
		var full wire.TournamentFull
		if _, err := call("GET", fmt.Sprintf("/api/tournament/%d", event), "", nil, &full); err != nil {
			return err
		}
		if full.Status == "finished" {
			return nil
		}
		var mine *wire.TournamentGame
		round := 0
		for _, r := range full.Pairings {
			for _, g := range r.Games {
				if g.Status == "active" && (g.White.Name == name || g.Black.Name == name) {
					mine, round = &g, r.Round
				}
			}
		}
		if mine == nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err := playGame(ctx, call, event, round, *mine, name, token, moves); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// playGame plays one game of the event as its plan says, until it is over.
func playGame(ctx context.Context, call func(method, path, token string, body, out any) (int, error), event int64, round int,
	g wire.TournamentGame, name, token string, moves *atomic.Int64) error {
	plies, result := plan(event, round, g.Board)
	white := g.White.Name == name
	for ctx.Err() == nil {
		var full wire.GameFull
		if _, err := call("GET", fmt.Sprintf("/api/game/%d", g.Game), "", nil, &full); err != nil {
			return err
		}
		st := full.State
		if st.Status != "active" {
			return nil
		}
		mine := st.ToMove == "white" == white
		switch {
		case st.Ply >= plies && result == "1-0" && !white, st.Ply >= plies && result == "0-1" && white:
			if code, err := call("POST", fmt.Sprintf("/api/game/%d/resign", g.Game), token, nil, nil); err != nil && code != 409 {
				return err
			}
		case st.Ply >= plies && result == "1/2-1/2":
			if code, err := call("POST", fmt.Sprintf("/api/game/%d/draw/offer", g.Game), token, nil, nil); err != nil && code != 409 {
				return err
			}
			time.Sleep(20 * time.Millisecond)
		case st.Ply < plies && mine:
			game := mill.NewGame(mill.MustRules(full.Rules))
			for _, m := range st.Moves {
				if err := game.PlayText(m); err != nil {
					return err
				}
			}
			pos := game.Position()
			legal := pos.Moves(nil)
			rng := rand.New(rand.NewPCG(uint64(g.Game), uint64(st.Ply)))
			m := legal[rng.IntN(len(legal))]
			code, err := call("POST", fmt.Sprintf("/api/game/%d/move", g.Game), token, map[string]any{"move": pos.MoveText(m), "ply": st.Ply}, nil)
			if err != nil && code != 409 { // 409: stored before the kill, its answer lost
				return err
			}
			if err == nil {
				moves.Add(1)
			}
		default:
			time.Sleep(15 * time.Millisecond)
		}
	}
	return ctx.Err()
}

// rounds are an event's rounds as the tournament package takes them, with
// their results, and its field.
func packageRounds(ev wire.TournamentFull) ([]tournament.Entrant, []tournament.Round) {
	var field []tournament.Entrant
	for _, e := range ev.Entrants {
		field = append(field, tournament.Entrant{ID: tournament.PlayerID(e.ID), Rating: e.Rating, Withdrawn: e.Withdrawn})
	}
	var rounds []tournament.Round
	for _, r := range ev.Pairings {
		var tr tournament.Round
		for _, g := range r.Games {
			res := map[string]tournament.Result{"1-0": tournament.WhiteWins, "0-1": tournament.BlackWins, "1/2-1/2": tournament.Draw}[g.Result]
			tr.Games = append(tr.Games, tournament.Game{White: tournament.PlayerID(g.White.ID), Black: tournament.PlayerID(g.Black.ID), Result: res})
		}
		if r.Bye != nil {
			tr.Bye = tournament.PlayerID(r.Bye.ID)
		}
		rounds = append(rounds, tr)
	}
	return field, rounds
}

// checkPairedAsThePackage: every round of the event is the round the
// tournament package pairs from the same field and the results before
// it, and the standings are the package's.
func checkPairedAsThePackage(t *testing.T, ev wire.TournamentFull) {
	t.Helper()
	field, rounds := packageRounds(ev)
	var want []tournament.Round
	tally := tournament.RoundRobinTally()
	switch ev.Kind {
	case "swiss":
		tally = tournament.SwissTally()
		for k := range rounds {
			r, err := tournament.Swiss{Rounds: ev.Rounds, Seed: *ev.Seed}.Pair(field, rounds[:k])
			if err != nil {
				t.Fatalf("%s round %d: %v", ev.Name, k+1, err)
			}
			want = append(want, r)
		}
	default:
		ids := make([]tournament.PlayerID, len(field))
		for i, e := range field {
			ids[i] = e.ID
		}
		slices.Sort(ids)
		all, err := tournament.RoundRobin(tournament.DrawLots(ids, *ev.Seed), ev.Cycles)
		if err != nil {
			t.Fatal(err)
		}
		want = all
	}
	if len(want) != len(rounds) {
		t.Fatalf("%s: %d rounds, the package pairs %d", ev.Name, len(rounds), len(want))
	}
	for k, r := range rounds {
		got := tournament.Round{Games: slices.Clone(r.Games), Bye: r.Bye}
		for i := range got.Games {
			got.Games[i].Result = tournament.Pending
		}
		if !reflect.DeepEqual(got.Games, want[k].Games) || got.Bye != want[k].Bye {
			t.Errorf("%s round %d: paired %+v, the package pairs %+v", ev.Name, k+1, got, want[k])
		}
	}
	sd, err := tally.Standings(field, rounds)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range sd {
		g := ev.Standings[i]
		if g.Rank != s.Rank || g.Player.ID != int64(s.Player) || g.Points != s.Points || !reflect.DeepEqual(g.TieBreaks, s.TieBreaks) || g.Games != s.Games {
			t.Errorf("%s standing %d: got %+v, the package counts %+v", ev.Name, i+1, g, s)
		}
	}
	t.Logf("%s: %s wins with %v points (tie-breaks %v: %v)", ev.Name, ev.Standings[0].Player.Name, ev.Standings[0].Points, ev.TieBreaks, ev.Standings[0].TieBreaks)
}

// checkColours: each player's colours in the crosstable are those of the
// pairings; nobody has a colour three times running, and in a Swiss
// nobody's whites and blacks differ by more than two.
func checkColours(t *testing.T, ev wire.TournamentFull) {
	t.Helper()
	colour := map[[2]int64]string{}
	for _, r := range ev.Pairings {
		for _, g := range r.Games {
			colour[[2]int64{int64(r.Round), g.White.ID}] = "white"
			colour[[2]int64{int64(r.Round), g.Black.ID}] = "black"
		}
	}
	for _, l := range ev.Standings {
		var hist []string
		diff := 0
		for ri, c := range l.Rounds {
			if c.Kind != "played" {
				if _, ok := colour[[2]int64{int64(ri + 1), l.Player.ID}]; ok {
					t.Errorf("%s: %s's round %d is %s, but they were paired", ev.Name, l.Player.Name, ri+1, c.Kind)
				}
				continue
			}
			if want := colour[[2]int64{int64(ri + 1), l.Player.ID}]; c.Colour != want {
				t.Errorf("%s: %s's colour in round %d is %s, paired %s", ev.Name, l.Player.Name, ri+1, c.Colour, want)
			}
			hist = append(hist, c.Colour[:1])
			if c.Colour == "white" {
				diff++
			} else {
				diff--
			}
		}
		h := strings.Join(hist, "")
		if strings.Contains(h, "www") || strings.Contains(h, "bbb") || ev.Kind == "swiss" && (diff > 2 || diff < -2) {
			t.Errorf("%s: %s's colours %s", ev.Name, l.Player.Name, h)
		}
	}
}

// checkExports: the records hold every game of the event with its
// players, round, board, result and moves; the CSV a line a player; the
// JSON the standings of the event.
func checkExports(t *testing.T, call func(method, path, token string, body, out any) (int, error), text func(path string) string, ev wire.TournamentFull) {
	t.Helper()
	recs := text(fmt.Sprintf("/api/tournament/%d/records", ev.ID))
	sc := record.NewScanner(strings.NewReader(recs))
	n := 0
	for sc.Scan() {
		r := sc.Record()
		var want wire.TournamentGame
		for _, p := range ev.Pairings {
			for _, g := range p.Games {
				if fmt.Sprint(p.Round) == r.Tag("Round") && fmt.Sprint(g.Board) == r.Tag("Board") {
					want = g
				}
			}
		}
		if r.Tag("Event") != ev.Name || r.Tag("White") != want.White.Name || r.Tag("Black") != want.Black.Name ||
			r.Tag("Result") != want.Result || r.Tag("Game") != fmt.Sprint(want.Game) {
			t.Errorf("%s record %d: tags %v, the pairing %+v", ev.Name, n, r.Tags, want)
		}
		var full wire.GameFull
		if _, err := call("GET", fmt.Sprintf("/api/game/%d", want.Game), "", nil, &full); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range r.Moves {
			got = append(got, m.Text)
		}
		if !slices.Equal(got, full.State.Moves) {
			t.Errorf("%s game %d: the record's moves %v, the game's %v", ev.Name, want.Game, got, full.State.Moves)
		}
		n++
	}
	if sc.Err() != nil || n != countGames(ev, 0, "") {
		t.Errorf("%s: %d records (%v), want %d", ev.Name, n, sc.Err(), countGames(ev, 0, ""))
	}
	csv := text(fmt.Sprintf("/api/tournament/%d/standings.csv", ev.ID))
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); len(lines) != len(ev.Entrants)+1 || !strings.HasPrefix(lines[0], "rank,player,rating,points,") {
		t.Errorf("%s: the CSV\n%s", ev.Name, csv)
	}
	var sd wire.TournamentStandings
	if _, err := call("GET", fmt.Sprintf("/api/tournament/%d/standings.json", ev.ID), "", nil, &sd); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sd.Standings, ev.Standings) || !reflect.DeepEqual(sd.TieBreaks, ev.TieBreaks) || sd.Status != "finished" {
		t.Errorf("%s: the JSON standings differ from the event's", ev.Name)
	}
}

// TestTournamentTwoProcesses: a Swiss of six players and three rounds on
// two morris serve processes sharing one PostgreSQL database, each
// player's client on one of them: the rounds are paired once whichever
// process ends a round's last game (the other sweeps for the same work),
// as the tournament package pairs them, and a stream of the event on the
// first process sees the rounds paired through the second.
func TestTournamentTwoProcesses(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	servers := []*serverProc{startServer(t, "-db", dsn, "-no-limits"), startServer(t, "-db", dsn, "-no-limits")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	callOn := func(p *serverProc) func(method, path, token string, body, out any) (int, error) {
		return func(method, path, token string, body, out any) (int, error) {
			return p.call(ctx, method, path, token, body, out)
		}
	}
	org := servers[0].account(t, "org")
	names := []string{"p1", "p2", "p3", "p4", "p5", "p6"}
	tokens := map[string]string{}
	for i, n := range names {
		tokens[n] = servers[i%2].account(t, n)
	}
	var ev wire.TournamentFull
	if _, err := servers[0].call(ctx, "POST", "/api/tournament", org, map[string]any{"name": "Two Servers", "kind": "swiss", "rounds": 3,
		"clock": map[string]any{"initialMs": 600000}}, &ev); err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		if _, err := servers[i%2].call(ctx, "POST", fmt.Sprintf("/api/tournament/%d/join", ev.ID), tokens[n], nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	// The stream on the first process.
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://%s/api/tournament/%d/stream", servers[0].addr, ev.ID), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := make(chan string, 1000)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	if _, err := servers[1].call(ctx, "POST", fmt.Sprintf("/api/tournament/%d/start", ev.ID), org, nil, nil); err != nil {
		t.Fatal(err)
	}
	var moves atomic.Int64
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := playEvent(ctx, callOn(servers[i%2]), ev.ID, n, tokens[n], &moves); err != nil {
				t.Errorf("%s: %v", n, err)
			}
		}()
	}
	wg.Wait()
	if _, err := servers[1].call(ctx, "GET", fmt.Sprintf("/api/tournament/%d", ev.ID), "", nil, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Status != "finished" || len(ev.Pairings) != 3 || countGames(ev, 0, "") != 9 {
		t.Fatalf("the event: %+v, %d games", ev.Tournament, countGames(ev, 0, ""))
	}
	var all []wire.GameSummary
	if _, err := servers[0].call(ctx, "GET", "/api/games?limit=100", "", nil, &all); err != nil {
		t.Fatal(err)
	}
	if len(all) != 9 {
		t.Errorf("%d games on the servers, want 9", len(all))
	}
	checkPairedAsThePackage(t, ev)
	rounds := map[int]bool{}
	timeout := time.After(10 * time.Second)
	for len(rounds) < 3 {
		select {
		case l := <-lines:
			for r := 1; r <= 3; r++ {
				if strings.HasPrefix(l, fmt.Sprintf(`{"type":"round","round":%d,`, r)) {
					rounds[r] = true
				}
			}
		case <-timeout:
			t.Fatalf("the stream on the first process saw %d of the 3 rounds", len(rounds))
		}
	}
}
