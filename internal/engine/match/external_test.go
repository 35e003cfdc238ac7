package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// The test binary doubles as a tiny fake engine: run with fakeEnv=1, it
// speaks the protocol on its standard streams instead of running the tests,
// so the external player is tested without any other package's engine.
const fakeEnv = "MORRIS_MATCH_FAKE_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" {
		mode := ""
		if len(os.Args) > 1 {
			mode = os.Args[1]
		}
		os.Exit(fakeEngine(mode, os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// fakeEngine plays the first legal move of the position it is given. Its
// mode makes it misbehave at the third "go": "illegal" answers an occupied
// point or a bad slide, "crash" exits, "hang" never answers, "garbage"
// answers something that is not a move, "none" answers "bestmove (none)"
// (no move: by its rules the game is over) though it has moves.
func fakeEngine(mode string, in io.Reader, out io.Writer) int {
	w := bufio.NewWriter(out)
	say := func(format string, args ...any) {
		fmt.Fprintf(w, format+"\n", args...)
		w.Flush()
	}
	variant, overrides := "nine-mens-morris", ""
	var g *mill.Game
	gos := 0
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			say("id name Fake")
			say("id author the match tests")
			say("option name Variant type string default nine-mens-morris")
			say("uciok")
		case "isready":
			say("readyok")
		case "setoption":
			// setoption name N value V (V may be empty)
			if len(f) < 4 || f[1] != "name" || f[3] != "value" {
				say("info string error: bad setoption")
				continue
			}
			v := strings.Join(f[4:], " ")
			switch f[2] {
			case "Variant":
				variant = v
			case "Rules":
				overrides = v
			}
		case "ucinewgame":
			g = nil
		case "position":
			var err error
			g, err = fakePosition(variant, overrides, f[1:])
			if err != nil {
				say("info string error: %v", err)
			}
		case "go":
			gos++
			if g == nil {
				say("info string error: no position")
				say("bestmove (none)")
				continue
			}
			moves := g.LegalMoves()
			if len(moves) == 0 {
				say("bestmove (none)")
				continue
			}
			if gos >= 3 {
				switch mode {
				case "crash":
					return 3
				case "hang":
					continue
				case "garbage":
					say("bestmove zz99")
					continue
				case "none":
					say("bestmove (none)")
					continue
				case "illegal":
					p := g.Position()
					if p.OnBoard(mill.White)+p.OnBoard(mill.Black) == 0 {
						say("bestmove pass")
					}
					for pt := mill.Point(0); int(pt) < p.Rules().Board().Len(); pt++ {
						if _, ok := p.At(pt); ok {
							say("bestmove %s", p.Rules().Board().Name(pt))
							break
						}
					}
					continue
				}
			}
			say("info depth 1 score cp 0 nodes 1 nps 1 time 0 pv %s", g.Position().MoveText(moves[0]))
			say("bestmove %s", g.Position().MoveText(moves[0]))
		case "stop":
		case "quit":
			return 0
		default:
			say("info string error: unknown command %s", f[0])
		}
	}
	return 0
}

func fakePosition(variant, overrides string, f []string) (*mill.Game, error) {
	var ov []string
	if overrides != "" {
		ov = strings.Split(overrides, ",")
	}
	r, err := mill.NewRules(variant, ov...)
	if err != nil {
		return nil, err
	}
	var g *mill.Game
	switch {
	case len(f) >= 1 && f[0] == "startpos":
		f = f[1:]
		if len(f) >= 2 && f[0] == "seed" {
			seed, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return nil, err
			}
			g = mill.NewGame(r, mill.WithSeed(seed))
			f = f[2:]
		} else {
			if r.Options().FirstPlayer == mill.FirstLot {
				return nil, fmt.Errorf("startpos without a seed under %s", r)
			}
			g = mill.NewGame(r)
		}
	case len(f) >= 7:
		p, err := mill.ParsePosition(strings.Join(f[:7], " "))
		if err != nil {
			return nil, err
		}
		g = mill.NewGame(p.Rules(), mill.FromPosition(p))
		f = f[7:]
	default:
		return nil, fmt.Errorf("bad position command")
	}
	if len(f) > 0 {
		if f[0] != "moves" {
			return nil, fmt.Errorf("want moves, got %q", f[0])
		}
		for _, m := range f[1:] {
			if err := g.PlayText(m); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}

// fakeSpec returns the spec of the fake engine in the given mode.
func fakeSpec(t *testing.T, mode, settings string) Spec {
	t.Helper()
	t.Setenv(fakeEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSpec("cmd"+settings+":"+exe+" "+mode, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s.Name = "fake-" + mode
	inner := s.New
	s.New = func() (Player, error) {
		p, err := inner()
		if x, ok := p.(*External); ok {
			x.name = s.Name
		}
		return p, err
	}
	return s
}

func TestExternalPlays(t *testing.T) {
	for _, tc := range []struct {
		name     string
		rules    *mill.Rules
		openings []Opening
	}{
		{"nine-mens-morris", mill.MustRules("nine-mens-morris"), nil},
		{"lot", mill.MustRules("twelve-mens-morris"), nil},
		{"overrides", mill.MustRules("nine-mens-morris", "flying=never"), nil},
		{"set-up", mill.MustRules("nine-mens-morris"), []Opening{{Start: ptr(mill.MustParsePosition("nine-mens-morris W2B4/8/8 b 8,8 - 0 2"))}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			openings := tc.openings
			if openings == nil {
				openings = RandomOpenings(tc.rules, 2, 2, newRand(1))
			}
			cfg := Config{Rules: tc.rules, A: fakeSpec(t, "good", ",movetime=50"), B: mustSpec(t, "random"),
				Openings: openings, Pairs: 2, Concurrency: 2, Seed: 1}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Tally.Games() != 4 {
				t.Fatalf("got %d games, want 4", res.Tally.Games())
			}
			for _, g := range res.Games {
				if g.Fault != "" {
					t.Errorf("game %d: %s\n%s", g.Index, g.Fault, g.Game.Position())
				}
			}
		})
	}
}

func TestExternalFaults(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	for _, tc := range []struct {
		mode, want string
	}{
		{"illegal", "played an illegal move"},
		{"garbage", "played an illegal move"},
		{"crash", "the engine exited"},
		{"hang", "no bestmove within"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			cfg := Config{Rules: r, A: fakeSpec(t, tc.mode, ",movetime=20,timeout=300"), B: mustSpec(t, "random"),
				Openings: RandomOpenings(r, 2, 0, newRand(2)), Pairs: 2, Concurrency: 1}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Tally.Losses != 4 || res.Tally.Faults[0] != 4 {
				t.Errorf("got %+v, want 4 losses by faults of A", res.Tally)
			}
			for _, g := range res.Games {
				if !strings.Contains(g.Fault, tc.want) || !strings.Contains(g.Fault, "fake-"+tc.mode) {
					t.Errorf("game %d: got fault %q, want %q", g.Index, g.Fault, tc.want)
				}
				if g.Game.Method() != mill.Abandonment {
					t.Errorf("game %d: got %s by %s, want a loss by abandonment", g.Index, g.Game.Outcome(), g.Game.Method())
				}
			}
		})
	}
}

// TestExternalClaimsDraw: an engine that answers no move in a position our
// rules call live claims a draw (its rules differ: Sanmill's at the 100th
// ply without a capture, when that ply captures). The match scores a draw,
// not the engine's loss, counts it apart in the tally and its line, says so
// in the record, and Resume reads the record back to the same game and
// tally; the sequential test counts the pair as two draws.
func TestExternalClaimsDraw(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	const event = "test"
	cfg := Config{Rules: r, A: fakeSpec(t, "none", ",movetime=20"), B: mustSpec(t, "random"),
		Openings: RandomOpenings(r, 1, 0, newRand(2)), Pairs: 1, Concurrency: 1}
	sprt, err := NewSPRT(0, 10, 0.05, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	cfg.SPRT = sprt
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := Tally{Draws: 2, Claimed: 2}
	if res.Tally != want {
		t.Errorf("got %+v, want %+v: two draws claimed, no faults", res.Tally, want)
	}
	if got := res.Tally.String(); !strings.HasPrefix(got, "+0 =2 -0 (claimed draws 2), score 50.0%") {
		t.Errorf("got the line %q, want it to begin \"+0 =2 -0 (claimed draws 2), score 50.0%%\"", got)
	}
	if got := sprt.Pairs(); got != [5]int{0, 0, 1, 0, 0} {
		t.Errorf("got the test's pairs %v, want one pair scoring 1 (two draws)", got)
	}
	for _, g := range res.Games {
		if g.Fault != "" || !strings.Contains(g.Claim, "(fake-none) answered no move at ply") {
			t.Errorf("game %d: got fault %q, claim %q; want no fault and a claim by fake-none", g.Index, g.Fault, g.Claim)
		}
		if g.Game.Outcome() != mill.Draw || g.Game.Method() != mill.Agreement {
			t.Errorf("game %d: got %s by %s, want a draw by agreement", g.Index, g.Game.Outcome(), g.Game.Method())
		}
	}
	text := recordsText(t, event, res.Games)
	for _, w := range []string{`[Result "1/2-1/2"]`, `[Termination "agreement"]`, "claimed draw:"} {
		if got := strings.Count(string(text), w); got != 2 {
			t.Errorf("got %q %d times in the records, want twice:\n%s", w, got, text)
		}
	}
	played, err := Resume(cfg, event, readRecords(t, text))
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range played {
		if g.Claim != res.Games[i].Claim {
			t.Errorf("resumed game %d: got claim %q, want %q", i, g.Claim, res.Games[i].Claim)
		}
	}
	cfg.Played = played
	cfg.SPRT = nil
	again, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if again.Tally != res.Tally {
		t.Errorf("resumed: got %+v, want %+v", again.Tally, res.Tally)
	}
}

func TestExternalNotFound(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	s, err := ParseSpec("cmd:/nonexistent/engine", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Rules: r, A: s, B: mustSpec(t, "random"), Pairs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tally.Losses != 2 || !strings.Contains(res.Games[0].Fault, "could not start") {
		t.Errorf("got %+v, fault %q; want 2 losses that say the engine could not start", res.Tally, res.Games[0].Fault)
	}
}

func TestPositionCommand(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	g := mill.NewGame(r)
	if got := PositionCommand(g); got != "position startpos" {
		t.Errorf("got %q", got)
	}
	g.PlayText("d6")
	g.PlayText("D5")
	if got, want := PositionCommand(g), "position startpos moves d6 d5"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	g = mill.NewGame(mill.MustRules("twelve-mens-morris"), mill.WithSeed(7))
	if got, want := PositionCommand(g), "position startpos seed 7"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	p := mill.MustParsePosition("nine-mens-morris W2B4/8/8 b 8,8 - 0 2")
	g = mill.NewGame(r, mill.FromPosition(p))
	g.PlayText("a4")
	if got, want := PositionCommand(g), "position nine-mens-morris W2B4/8/8 b 8,8 - 0 2 moves a4"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func ptr[T any](v T) *T { return &v }
