package tune

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
	"github.com/morrisgame/morris/record"
)

// TestExactPlacing solves three men's morris on the nine men's board
// (nine-mens-morris,pieces=3) whole, placing phase included, and checks
// ExactPlacing, which reads only the moving phase's positions, against
// the databases' own values of placing positions of random games.
func TestExactPlacing(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a whole game (seconds)")
	}
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	dir := t.TempDir()
	if _, err := (egdb.Builder{Rules: r, Dir: dir, Keys: []egdb.Key{egdb.StartKey(r)}}).Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(dir, egdb.ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tb := db.Probe
	// moving knows the moving phase only, as the databases do before
	// morris solve -game.
	moving := func(p mill.Position) (int, int, bool) {
		if p.InHand(mill.White) != 0 || p.InHand(mill.Black) != 0 {
			return 0, 0, false
		}
		return tb(p)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	counts := map[int]int{}
	var ps []mill.Position
	for i := 0; i < 300; i++ {
		p := milltest.PlayoutUntil(r.Start(), rng, rng.IntN(6), func(p mill.Position) bool { return p.InHand(p.SideToMove()) == 0 })
		if o, _ := p.Status(); o != mill.NoOutcome || p.InHand(p.SideToMove()) == 0 {
			continue
		}
		want, ok := db.Value(p)
		if !ok {
			t.Fatalf("%s: not in the databases", p)
		}
		got, ok := ExactPlacing(p, moving, 1<<20)
		if !ok {
			t.Fatalf("%s: gave up", p)
		}
		if got != int(want.Result) {
			t.Fatalf("%s: ExactPlacing %d, the databases %s", p, got, want)
		}
		// Databases that hold the placing phase answer at once.
		if v, ok := ExactPlacing(p, tb, 0); !ok || v != got {
			t.Fatalf("%s: with the placing phase's databases %d (solved: %v), want %d at once", p, v, ok, got)
		}
		counts[got]++
		ps = append(ps, p)
	}
	// One solver for every position, its memory carried over: first with
	// a budget so small that most searches give up (what they proved
	// stays), then with enough.
	x := NewExactSolver(moving, 60)
	gaveUp := 0
	for _, p := range ps {
		if _, ok := x.Solve(p); !ok {
			gaveUp++
		}
	}
	if gaveUp == 0 {
		t.Error("no search gave up within 60 positions")
	}
	x.maxNodes = 1 << 20
	for _, p := range ps {
		want, _ := db.Value(p)
		if got, ok := x.Solve(p); !ok || got != int(want.Result) {
			t.Fatalf("%s: the solver carried over says %d (%v), the databases %s", p, got, ok, want)
		}
	}
	// The same on two goroutines, as samples.
	samples := LabelExactPlacing(ps, moving, 1<<20, 2)
	if len(samples) != len(ps) {
		t.Fatalf("%d samples of %d positions", len(samples), len(ps))
	}
	for i, s := range samples {
		want, _ := db.Value(ps[i])
		if s.Pos != ps[i] || s.Score != int(want.Result)*exactPlacingScore {
			t.Fatalf("sample %d: %s %d, the databases %s", i, s.Pos, s.Score, want)
		}
	}
	t.Logf("wins %d, draws %d, losses %d", counts[1], counts[0], counts[-1])
	if counts[1] == 0 || counts[0] == 0 || counts[-1] == 0 {
		t.Errorf("not every value met: %v", counts)
	}
	if _, ok := ExactPlacing(r.Start(), moving, 10); ok {
		t.Error("the start solved within 10 positions")
	}
}

var (
	exactPlacingOut = flag.String("exact-placing-out", "", "with -exact: score positions of the placing phase by ExactPlacing into this file")
	exactMinPly     = flag.Int("exact-min-ply", 10, "with -exact-placing-out: the first ply of the positions scored")
	exactNodes      = flag.Int("exact-nodes", 2000000, "with -exact-placing-out: the positions ExactPlacing may visit for one sample")
)

// TestExactPlacingSamples plays -fit-games games as TestFit does and
// scores their positions of the placing phase from ply -exact-min-ply on
// exactly: a full-width search to the end of placing that reads the
// databases of the moving phase there (ExactPlacing). A fit of the placing
// weights to them learns what is decided when placing ends, which no
// search of the engine sees from the early placements.
//
//	go test ./internal/engine/tune -run TestExactPlacingSamples -exact DIR -exact-placing-out placing-exact.tsv -fit-games 2000 -v -timeout 0
func TestExactPlacingSamples(t *testing.T) {
	if *exactDB == "" || *exactPlacingOut == "" {
		t.Skip("runs only with -exact DIR -exact-placing-out FILE")
	}
	r, db := openExact(t)
	start := time.Now()
	ps := Positions(context.Background(), r, *fitGames, 4, 18, func(p mill.Position) bool {
		_, owed := p.Pending()
		return p.Ply() >= *exactMinPly && !owed && p.InHand(p.SideToMove()) > 0
	}, 13)
	t.Logf("%d positions from %d games in %v", len(ps), *fitGames, time.Since(start).Round(time.Second))
	start = time.Now()
	samples := LabelExactPlacing(ps, db.Probe, *exactNodes, 2)
	t.Logf("%d of them solved in %v", len(samples), time.Since(start).Round(time.Second))
	writeSamples(t, *exactPlacingOut, samples)
}

var (
	exactRecords = flag.String("exact-records", "", "with -exact: game records (comma-separated files) whose games -exact-player lost are traced")
	exactPlayer  = flag.String("exact-player", "morris", "with -exact-records: the player whose lost games are traced")
)

// TestExactRecords finds where the games a player lost were lost: for
// each lost game of nine men's morris in the records, the value for the
// player of every position from ply 8 on (ExactPlacing in the placing
// phase, the databases after it) up to the first move of the player's that
// turned a position not lost into a lost one, and the moves that would
// have kept its value. Positions ExactPlacing
// cannot solve within -exact-nodes show as "?".
//
//	go test ./internal/engine/tune -run TestExactRecords -exact DIR -exact-records games.pgn -v -timeout 0
func TestExactRecords(t *testing.T) {
	if *exactDB == "" || *exactRecords == "" {
		t.Skip("runs only with -exact DIR -exact-records FILES")
	}
	_, db := openExact(t)
	probe := db.Probe
	solver := NewExactSolver(probe, *exactNodes)
	value := func(p mill.Position) (int, bool) {
		if v, _, ok := probe(p); ok {
			return v, true
		}
		if p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0 {
			return 0, false
		}
		return solver.Solve(p)
	}
	sign := map[bool]int{true: 1, false: -1}
	word := map[int]string{1: "win", 0: "draw", -1: "loss"}
	for _, file := range strings.Split(*exactRecords, ",") {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := record.NewScanner(f)
		for sc.Scan() {
			rec := sc.Record()
			if rec.Tag("Variant") != "nine-mens-morris" {
				continue
			}
			var us mill.Color
			switch *exactPlayer {
			case rec.Tag("White"):
				us = mill.White
			case rec.Tag("Black"):
				us = mill.Black
			default:
				continue
			}
			if rec.Result != mill.Won(us.Other()) {
				continue
			}
			g, err := rec.Game()
			if err != nil {
				t.Fatalf("%s, round %s: %v", file, rec.Tag("Round"), err)
			}
			pos, moves := g.Positions(), g.Moves()
			var line []string
			prev, found := 2, false
			for i := 8; i < len(pos) && i < len(moves); i++ {
				p := pos[i]
				v, ok := value(p)
				if !ok {
					line = append(line, "?")
					prev = 2
					continue
				}
				v *= sign[p.SideToMove() == us]
				line = append(line, fmt.Sprintf("%d:%s", i, word[v]))
				if !found && v == -1 && prev != 2 && prev > -1 && pos[i-1].SideToMove() == us {
					found = true
					q := pos[i-1]
					var keep []string
					for _, m := range q.Moves(nil) {
						c := q.Play(m)
						if v, ok := value(c); ok && v*sign[c.SideToMove() == us] == prev {
							keep = append(keep, q.MoveText(m))
						}
					}
					t.Logf("%s round %s (%s): lost at ply %d by %s; kept the %s: %s", file, rec.Tag("Round"), us, i-1, q.MoveText(moves[i-1]), word[prev], strings.Join(keep, " "))
				}
				if found {
					break
				}
				prev = v
			}
			if !found {
				t.Logf("%s round %s (%s): no losing move found (%s)", file, rec.Tag("Round"), us, strings.Join(line, " "))
			} else {
				t.Logf("  values: %s", strings.Join(line, " "))
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		f.Close()
	}
}

var (
	exactDB  = flag.String("exact", "", "a directory of nine men's morris databases (morris solve): score positions after placing by them into -exact-out")
	exactOut = flag.String("exact-out", "", "with -exact: the sample file written")
)

// TestExactSamples plays -fit-games games as TestFitMoving does and scores
// the positions after placing (both hands empty, no removal owed, plies 18
// to 31) by the databases of the moving phase instead of a search: exact
// samples, for fits (TestFitMoving, TestFitJoint) that learn what no search
// of the engine sees (docs/search.md, "What to try next"). The databases
// take 3 hours to build here and cannot be kept; the samples can.
//
//	go test ./internal/engine/tune -run TestExactSamples -exact DIR -exact-out exact.tsv -fit-games 4000 -v -timeout 0
func TestExactSamples(t *testing.T) {
	if *exactDB == "" || *exactOut == "" {
		t.Skip("runs only with -exact DIR -exact-out FILE")
	}
	r, db := openExact(t)
	start := time.Now()
	ps := Positions(context.Background(), r, *fitGames, 4, 32, func(p mill.Position) bool {
		_, owed := p.Pending()
		return !owed && p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0
	}, 7)
	samples := LabelExact(ps, db.Probe)
	t.Logf("%d positions from %d games, %d in the databases, in %v", len(ps), *fitGames, len(samples), time.Since(start).Round(time.Second))
	writeSamples(t, *exactOut, samples)
}

// openExact opens the databases of -exact for nine men's morris, closed
// when the test ends.
func openExact(t *testing.T) (*mill.Rules, *egdb.DB) {
	t.Helper()
	r := mill.MustRules("nine-mens-morris")
	db, err := egdb.Open(*exactDB, egdb.ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return r, db
}
