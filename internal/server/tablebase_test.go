package server

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/engine/uci"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
	"github.com/morrisgame/morris/search"
)

// shared3v3 is the databases of build3v3, built once for the package's
// tests (a fraction of a second, but seconds under the race detector).
var shared3v3 struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared3v3.dir != "" {
		os.RemoveAll(shared3v3.dir)
	}
	os.Exit(code)
}

// build3v3 returns the databases of 3v3 nine men's morris (three pieces a
// side on the board, none in hand), opened as morris serve -tablebases
// opens them, and their folder.
func build3v3(t testing.TB) (*egdb.DB, string) {
	t.Helper()
	shared3v3.once.Do(func() {
		shared3v3.dir, shared3v3.err = os.MkdirTemp("", "morris-server-egdb")
		if shared3v3.err == nil {
			r := mill.MustRules("nine-mens-morris")
			_, shared3v3.err = egdb.Builder{Rules: r, Dir: shared3v3.dir, Keys: []egdb.Key{{White: 3, Black: 3}}}.Build(context.Background())
		}
	})
	if shared3v3.err != nil {
		t.Fatal(shared3v3.err)
	}
	db, err := egdb.Open(shared3v3.dir)
	if err != nil {
		t.Fatal(err)
	}
	return db, shared3v3.dir
}

// find3v3 returns a position of three pieces a side under r, white to move,
// for which want holds, its ply counter set to 40: past the first plies
// where the strongest level varies its moves, so that its choice is the
// search's.
func find3v3(t testing.TB, r *mill.Rules, seed uint64, want func(mill.Position) bool) mill.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	for range 100000 {
		perm := rng.Perm(r.Board().Len())
		var w, b mill.Points
		for _, p := range perm[:3] {
			w |= 1 << p
		}
		for _, p := range perm[3:6] {
			b |= 1 << p
		}
		p, err := r.SetUp(w, b, mill.White, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if o, _ := p.Status(); o != mill.NoOutcome || !want(p) {
			continue
		}
		f := strings.Fields(p.String())
		f[len(f)-1] = "40"
		return mill.MustParsePosition(strings.Join(f, " "))
	}
	t.Fatalf("no 3v3 position of %s found", r)
	return mill.Position{}
}

// shuffle plays four moves from start that bring the pieces back where they
// were (a piece there and back, each side): the game's last position repeats
// its first, which the search must see through the history. It returns nil
// if there are no such moves (a side with all its pieces in a mill).
func shuffle(start mill.Position) *mill.Game {
	quiet := func(p mill.Position, ok func(mill.Move) bool) []mill.Move {
		var out []mill.Move
		for _, m := range p.Moves(nil) {
			if m.NumCaptures() == 0 && m.From() != mill.NoPoint && ok(m) {
				out = append(out, m)
			}
		}
		return out
	}
	any := func(mill.Move) bool { return true }
	back := func(m mill.Move) func(mill.Move) bool {
		return func(c mill.Move) bool { return c.From() == m.To() && c.To() == m.From() }
	}
	for _, a := range quiet(start, any) {
		p1 := start.Play(a)
		for _, b := range quiet(p1, any) {
			p2 := p1.Play(b)
			for _, a2 := range quiet(p2, back(a)) {
				p3 := p2.Play(a2)
				for _, b2 := range quiet(p3, back(b)) {
					g := mill.NewGame(start.Rules(), mill.FromPosition(start))
					for _, m := range []mill.Move{a, b, a2, b2} {
						if err := g.Play(m); err != nil {
							panic(err)
						}
					}
					if g.Outcome() == mill.NoOutcome && g.Position().Key() == start.Key() {
						return g
					}
				}
			}
		}
	}
	return nil
}

// engineAnswer is what a search said: the fields of the engine protocol's
// last info line, and its move.
type engineAnswer struct {
	Best, Score string
	Nodes       uint64
	TBHits      uint64
	PV          string
}

// uciSearch asks `morris engine` (internal/engine/uci with its defaults: Hash 64
// MiB, one thread, level 10), with the databases of tbDir if not "", for
// go depth N in g's last position, given as the game's start and moves.
func uciSearch(t *testing.T, tbDir string, g *mill.Game, depth int) engineAnswer {
	t.Helper()
	var in strings.Builder
	if tbDir != "" {
		fmt.Fprintf(&in, "setoption name Tablebases value %s\n", tbDir)
	}
	fmt.Fprintf(&in, "ucinewgame\nposition %s", g.Start())
	if ms := g.Moves(); len(ms) > 0 {
		in.WriteString(" moves")
		ps := g.Positions()
		for i, m := range ms {
			in.WriteString(" " + ps[i].MoveText(m))
		}
	}
	fmt.Fprintf(&in, "\ngo depth %d\n", depth)
	open := func(dir string) (search.Tablebase, error) { // cmd/morris's openTablebase, without the built-in databases
		if dir == "" {
			return nil, nil // as the servers of these tests, which have none
		}
		db, err := egdb.Open(dir)
		if err != nil {
			return nil, err
		}
		return db, nil
	}
	var out strings.Builder
	if err := uci.Run(context.Background(), strings.NewReader(in.String()), &out, uci.WithTablebases(open)); err != nil {
		t.Fatal(err)
	}
	var a engineAnswer
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) > 1 && f[0] == "bestmove":
			a.Best = f[1]
		case len(f) > 1 && f[0] == "info" && f[1] == "depth":
			a = engineAnswer{}
			for i := 2; i < len(f); i++ {
				switch f[i] {
				case "score":
					a.Score = f[i+1] + " " + f[i+2]
				case "nodes":
					fmt.Sscan(f[i+1], &a.Nodes)
				case "tbhits":
					fmt.Sscan(f[i+1], &a.TBHits)
				case "pv":
					a.PV = strings.Join(f[i+1:], " ")
					i = len(f)
				}
			}
		case len(f) > 0 && f[0] == "info" && strings.Contains(sc.Text(), "error"):
			t.Fatalf("morris engine: %s\ninput:\n%s", sc.Text(), in.String())
		}
	}
	if a.Best == "" || a.Score == "" {
		t.Fatalf("morris engine answered\n%s\nto\n%s", out.String(), in.String())
	}
	return a
}

// TestEngineParity: the server's engine is `morris engine`. The same
// position (with the game before it, so that repetitions count), searched
// to the same depth, gives the same move, score, line and node count
// through the engine protocol (go depth N at level 10), through the
// server's engine moves (think, what the engine pool runs) and through its
// analysis; with the databases, without them, and under rules they do not
// cover, which neither probes them.
func TestEngineParity(t *testing.T) {
	db, dir := build3v3(t)
	nmm := db.Rules()
	noFlying := mill.MustRules("nine-mens-morris", "flying=never")

	// A game from the start, by random moves, 20 plies.
	rng := rand.New(rand.NewPCG(1, 2))
	middle := milltest.RandomGame(nmm, rng, 20)
	won := shuffle(find3v3(t, nmm, 1, func(p mill.Position) bool {
		v, ok := db.Value(p)
		return ok && v.Result == egdb.Win && v.Plies >= 9 && shuffle(p) != nil
	}))
	drawn := shuffle(find3v3(t, nmm, 2, func(p mill.Position) bool {
		v, ok := db.Value(p)
		return ok && v.Result == egdb.Draw && shuffle(p) != nil
	}))
	other := shuffle(find3v3(t, noFlying, 3, func(p mill.Position) bool { return shuffle(p) != nil }))

	for _, tc := range []struct {
		name   string
		game   *mill.Game
		depth  int
		tb     bool // the server and the engine have the databases
		probed bool // and they cover the game's rules: the search finds its positions there
	}{
		{"the middle game, no databases", middle, 6, false, false},
		{"the middle game, databases", middle, 6, true, false},
		{"3v3 won, no databases", won, 6, false, false},
		{"3v3 won, databases", won, 6, true, true},
		{"3v3 drawn, databases", drawn, 6, true, true},
		{"3v3 flying=never, databases of other rules", other, 6, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			history := tc.game.Positions()
			root := history[len(history)-1]
			tbDir, cfg := "", Config{EngineWorkers: 1}
			if tc.tb {
				tbDir, cfg.Tablebase = dir, db
			}
			want := uciSearch(t, tbDir, tc.game, tc.depth)
			t.Logf("%s, go depth %d: %+v", root, tc.depth, want)
			s := newService(t, cfg)

			// The engine pool's way: a fresh engine of the server, the
			// level's choice at level 10 (the random source is not
			// drawn from past the opening plies).
			res, hits := s.think(context.Background(), s.newEngine(), 101, history, 10, search.Limits{Depth: tc.depth}, rand.New(rand.NewPCG(0, 0)))
			pv := make([]string, 0, len(res.PV))
			p := root
			for _, m := range res.PV {
				pv = append(pv, p.MoveText(m))
				p = p.Play(m)
			}
			got := engineAnswer{Best: root.MoveText(res.Move), Score: search.ScoreText(res.Score), Nodes: res.Nodes, TBHits: hits, PV: strings.Join(pv, " ")}
			if got != want {
				t.Errorf("%s: the engine's move in a game: got %+v, want %+v (morris engine)", root, got, want)
			}

			a, err := s.Analyze(context.Background(), "", history, tc.depth, MaxAnalysis)
			if err != nil {
				t.Fatal(err)
			}
			got = engineAnswer{Best: a.Best, Score: a.ScoreText, Nodes: a.Nodes, TBHits: a.TBHits, PV: strings.Join(a.PV, " ")}
			if got != want {
				t.Errorf("%s: the analysis: got %+v, want %+v (morris engine)", root, got, want)
			}

			if probed := want.TBHits > 0; probed != tc.probed {
				t.Errorf("%s: %d probes hit the databases, want them probed: %v", root, want.TBHits, tc.probed)
			}
			if v, ok := db.Value(root); tc.probed && ok {
				if a.Tablebase != v.String() {
					t.Errorf("%s: the analysis's tablebase value: got %q, want %q", root, a.Tablebase, v)
				}
				if v.Result == egdb.Win && a.ScoreText != search.ScoreText(search.Mate-v.Plies) {
					t.Errorf("%s: a %s scored %s", root, v, a.ScoreText)
				}
			} else if a.Tablebase != "" {
				t.Errorf("%s: the analysis's tablebase value: got %q, want none", root, a.Tablebase)
			}
		})
	}
}

// TestEngineGameTablebase: a game against the engine from a 3v3 position
// that the databases call won: the engine, probing them, wins against their
// own best defence in exactly the plies they give, every move keeping the
// fastest win. A game of rules they do not cover goes on without them.
func TestEngineGameTablebase(t *testing.T) {
	db, _ := build3v3(t)
	r := db.Rules()
	won := find3v3(t, r, 4, func(p mill.Position) bool {
		v, ok := db.Value(p)
		return ok && v.Result == egdb.Win && v.Plies >= 11
	})
	v, _ := db.Value(won)
	s := newService(t, Config{EngineWorkers: 1, Tablebase: db})
	ctx := context.Background()
	ann := signUp(t, s, "ann")

	start := func(start mill.Position) int64 {
		t.Helper()
		ng := s.newGame(start.Rules(), GameSpec{Color: "black"}, ann.ID, s.engineID) // the engine is white, to move
		ng.Start, ng.EngineLevel = start.String(), 10
		g, err := s.st.CreateGame(ctx, ng)
		if err != nil {
			t.Fatal(err)
		}
		s.started(ctx, g)
		return g.ID
	}
	// waitFor waits for the game to reach ply n, or to end.
	waitFor := func(id int64, n int) GameView {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			gv, err := s.View(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if gv.Ply >= n || gv.Status == store.Finished {
				return gv
			}
			if time.Now().After(deadline) {
				t.Fatalf("game %d: the engine has not played ply %d in 15 s", id, n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	id := start(won)
	for ply := 0; ; ply += 2 {
		gv := waitFor(id, ply+1)
		if gv.Status == store.Finished {
			if gv.Play.Outcome() != mill.Won(mill.White) || gv.Ply != v.Plies {
				t.Errorf("%s (%s): the game ended %v by %v after %d plies", won, v, gv.Play.Outcome(), gv.Play.Method(), gv.Ply)
			}
			break
		}
		p := gv.Play.Position()
		// After each of the engine's moves the defence is lost in the
		// plies left: the engine never took a slower way.
		if got, ok := db.Value(p); !ok || got != (egdb.Value{Result: egdb.Loss, Plies: v.Plies - gv.Ply}) {
			t.Fatalf("after the engine's %s in %s: the databases say %v for the defence, want a loss in %d", gv.Moves[len(gv.Moves)-1].Text, gv.Play.Positions()[gv.Ply-1], got, v.Plies-gv.Ply)
		}
		m, _, ok := db.BestMove(p)
		if !ok {
			t.Fatalf("%s: no best defence in the databases", p)
		}
		if _, err := s.Move(ctx, ann, id, p.MoveText(m), gv.Ply); err != nil {
			t.Fatal(err)
		}
	}

	// Under flying=never the databases do not apply; the engine still moves.
	other := find3v3(t, mill.MustRules("nine-mens-morris", "flying=never"), 5, func(p mill.Position) bool { return len(p.Moves(nil)) > 2 })
	id = start(other)
	if gv := waitFor(id, 1); gv.Ply != 1 && gv.Status != store.Finished {
		t.Errorf("flying=never: the engine did not move")
	}
}

// TestTablebaseGate: one engine serves games of every rule set; it probes
// the databases in the games of rules they cover (those that play the
// moving phase as nine men's morris does, lasker among them) and not at
// all in the others.
func TestTablebaseGate(t *testing.T) {
	db, _ := build3v3(t)
	s := newService(t, Config{EngineWorkers: 1, Tablebase: db})
	e := s.newEngine()
	var probes int
	inner := e.tb.tb
	e.tb.tb = search.TablebaseFunc(func(p mill.Position) (int, int, bool) {
		probes++
		return inner.Probe(p)
	})
	for i, tc := range []struct {
		rules  string
		probed bool
	}{
		{"nine-mens-morris", true},
		{"nine-mens-morris,flying=never", false},
		{"lasker", true},
		{"nine-mens-morris,protection=always", false},
		{"nine-mens-morris,draw-after=0", true},
	} {
		r, err := mill.ParseRules(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		if db.Covers(r) != tc.probed {
			t.Fatalf("Covers(%s): got %v, want %v", r, !tc.probed, tc.probed)
		}
		// No mill to close at once: the search looks past the first ply.
		p := find3v3(t, r, uint64(i), func(p mill.Position) bool {
			for _, m := range p.Moves(nil) {
				if m.NumCaptures() > 0 {
					return false
				}
			}
			return true
		})
		probes = 0
		res, hits := s.think(context.Background(), e, int64(101+i), []mill.Position{p}, 10, search.Limits{Depth: 3}, rand.New(rand.NewPCG(0, 0)))
		if res.Move.IsZero() {
			t.Errorf("%s: no move", p)
		}
		if (probes > 0) != tc.probed || (hits > 0) != tc.probed {
			t.Errorf("%s: %d probes, %d hits; want the databases probed: %v", p, probes, hits, tc.probed)
		}
	}
}
