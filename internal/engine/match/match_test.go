package match

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

func mustSpec(t *testing.T, text string) Spec {
	t.Helper()
	s, err := ParseSpec(text, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func play(t *testing.T, a, b string, pairs int, seed uint64) Result {
	t.Helper()
	r := mill.MustRules("nine-mens-morris")
	res, err := Run(context.Background(), Config{Rules: r, A: mustSpec(t, a), B: mustSpec(t, b),
		Openings: RandomOpenings(r, pairs, 4, newRand(seed)), Pairs: pairs, Concurrency: 2, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tally.Games() != 2*pairs {
		t.Fatalf("%s vs %s: got %d games, want %d", a, b, res.Tally.Games(), 2*pairs)
	}
	t.Logf("%s vs %s: %v", a, b, res.Tally)
	return res
}

func TestRandomVsRandom(t *testing.T) {
	res := play(t, "random", "random", 100, 1)
	s := res.Tally.Score()
	_, margin := res.Tally.EloDiff()
	if s < 0.4 || s > 0.6 {
		t.Errorf("got score %.3f, want about 0.5", s)
	}
	if margin < 30 {
		t.Errorf("got a margin of %.0f after 200 games, want a wide one", margin)
	}
	lo, hi := res.Tally.EloInterval()
	if lo > 0 || hi < 0 {
		t.Errorf("got the interval [%.0f, %.0f], want it to hold 0", lo, hi)
	}
}

func TestGreedyBeatsRandom(t *testing.T) {
	res := play(t, "greedy", "random", 20, 2)
	if s := res.Tally.Score(); s < 0.8 {
		t.Errorf("got score %.3f (%v), want at least 0.8", s, res.Tally)
	}
}

func TestEngineBeatsRandom(t *testing.T) {
	pairs := 3
	if testing.Short() {
		pairs = 1 // the race detector makes the engine slow
	}
	res := play(t, "level:3,depth=2", "random", pairs, 3)
	if res.Tally.Wins != 2*pairs {
		t.Errorf("got %v, want every game won", res.Tally)
	}
}

func TestElo(t *testing.T) {
	for _, tc := range []struct{ s, want float64 }{
		{0.5, 0}, {0.75, 190.85}, {0.25, -190.85}, {0.9, 381.70}, {0.6, 70.44},
	} {
		if got := Elo(tc.s); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("Elo(%v): got %.2f, want %.2f", tc.s, got, tc.want)
		}
	}
	if !math.IsInf(Elo(1), 1) || !math.IsInf(Elo(0), -1) {
		t.Errorf("Elo(1), Elo(0): got %v, %v, want +inf, -inf", Elo(1), Elo(0))
	}
	// 60 wins, 20 draws, 20 losses: s = 0.7, variance 0.16, standard error
	// 0.04, so the score is 0.7 ± 0.0784 and the Elo 147.2 in [86.2, 218.3].
	tl := Tally{Wins: 60, Draws: 20, Losses: 20}
	diff, margin := tl.EloDiff()
	lo, hi := tl.EloInterval()
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"diff", diff, 147.19}, {"margin", margin, 66.01}, {"low", lo, 86.23}, {"high", hi, 218.25}} {
		if math.Abs(c.got-c.want) > 0.01 {
			t.Errorf("%+v: %s: got %.2f, want %.2f", tl, c.name, c.got, c.want)
		}
	}
	for _, tc := range []struct {
		t    Tally
		want string
	}{
		{Tally{Wins: 12, Draws: 3, Losses: 5}, "+12 =3 -5, score 67.5%, Elo +127 ± 163 (95%)"},
		{Tally{Wins: 10, Draws: 10, Losses: 10}, "+10 =10 -10, score 50.0%, Elo 0 ± 105 (95%)"},
		{Tally{Wins: 8}, "+8 =0 -0, score 100.0%, Elo +inf (every game won)"},
		{Tally{Wins: 9, Draws: 1}, "+9 =1 -0, score 95.0%, Elo +512, 95% interval [+311, +inf]"},
		{Tally{}, "+0 =0 -0, score 50.0%"},
	} {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.t, got, tc.want)
		}
	}
}

func TestGreedyScore(t *testing.T) {
	// White to move has a1 and d1 on the line a1-d1-g1 (g1 closes a mill);
	// black has b2 and d2 on the line b2-d2-f2 (f2 blocks it).
	p := mill.MustParsePosition("nine-mens-morris WW6/BB6/8 w 7,7 - 0 4")
	best, bestText := -1, ""
	for _, m := range p.Moves(nil) {
		if s := GreedyScore(p, m); s > best {
			best, bestText = s, p.MoveText(m)
		}
	}
	if !strings.HasPrefix(bestText, "g1x") {
		t.Errorf("got %s (score %d), want the capture g1x...", bestText, best)
	}
	f2 := mill.Place(pointOf(t, p, "f2"))
	a7 := mill.Place(pointOf(t, p, "a7"))
	if GreedyScore(p, f2) != 10 || GreedyScore(p, a7) != 0 {
		t.Errorf("got f2 %d, a7 %d, want 10 (a block) and 0", GreedyScore(p, f2), GreedyScore(p, a7))
	}
}

func pointOf(t *testing.T, p mill.Position, name string) mill.Point {
	t.Helper()
	pt, ok := p.Rules().Board().PointByName(name)
	if !ok {
		t.Fatalf("no point %s", name)
	}
	return pt
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		text, name, err string
	}{
		{"random", "random", ""},
		{"greedy,name=G", "G", ""},
		{"level:10", "level:10", ""},
		{"level:5,depth=3,movetime=100", "level:5,depth=3,movetime=100", ""},
		{"cmd:./morris engine", "./morris engine", ""},
		{"cmd,movetime=100,Level=3:./morris engine", "./morris engine", ""},
		{"level:11", "", "1 to 10"},
		{"level:x", "", "1 to 10"},
		{"level:3,depth=0", "", "positive"},
		{"level:3,Hash=4", "", "unknown setting"},
		{"random,depth=3", "", "no depth"},
		{"cmd", "", "cmd:PATH"},
		{"cmd:  ", "", "cmd:PATH"},
		{"human", "", "want level:N"},
		{"level:10,tablebases=/some/dir", "level:10,tablebases=/some/dir", ""},
		{"level:10,tablebases=", "", "want a directory"},
		{"greedy,tablebases=/some/dir", "", "no tablebases"},
	} {
		s, err := ParseSpec(tc.text, Limits{})
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: got error %v, want one with %q", tc.text, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.text, err)
		case tc.err == "" && s.Name != tc.name:
			t.Errorf("%q: got name %q, want %q", tc.text, s.Name, tc.name)
		}
	}
	// The defaults apply to a player without limits of its own.
	s, _ := ParseSpec("level:10", Limits{MoveTime: 100 * time.Millisecond})
	p, _ := s.New()
	if e := p.(*Engine); e.lim.MoveTime != 100*time.Millisecond {
		t.Errorf("got %+v, want movetime 100ms", e.lim)
	}
	// Databases are opened by the first game: a directory without any
	// fails it with a clear error.
	s, _ = ParseSpec("level:10,tablebases="+t.TempDir(), Limits{})
	if _, err := s.New(); err == nil || !strings.Contains(err.Error(), "no databases") {
		t.Errorf("level:10 with an empty tablebases directory: got %v, want an error about no databases", err)
	}
	s, _ = ParseSpec("cmd,tablebases=/db:eng", Limits{})
	p, _ = s.New()
	if x := p.(*External); len(x.options) != 1 || x.options[0] != [2]string{"Tablebases", "/db"} {
		t.Errorf("cmd,tablebases=/db: got options %v, want Tablebases=/db", x.options)
	}
	s, _ = ParseSpec("cmd,Level=3,movetime=50:eng -x", Limits{Depth: 4})
	p, _ = s.New()
	if x := p.(*External); x.path != "eng" || len(x.args) != 1 || x.lim.MoveTime != 50*time.Millisecond || x.lim.Depth != 0 || len(x.options) != 1 {
		t.Errorf("got %+v", x)
	}
}

func TestReadOpenings(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	in := "# openings\n\nd6 d5 b4\nnine-mens-morris W2B4/8/8 b 8,8 - 0 2 moves a4\nD2 F2\n"
	ops, err := ReadOpenings(r, strings.NewReader(in), 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range ops {
		got = append(got, o.Text(r))
	}
	want := []string{"d6 d5 b4", "nine-mens-morris W2B4/8/8 b 8,8 - 0 2 a4", "d2 f2"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, tc := range []struct{ in, err string }{
		{"d6 d6", "line 1: move d6"},
		{"d6\nq9", "line 2: move q9"},
		{"lasker 8/8/8 w 10,10 - 0 0", "played under lasker"},
		{"# nothing\n", "no openings"},
	} {
		if _, err := ReadOpenings(r, strings.NewReader(tc.in), 1); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: got %v, want an error with %q", tc.in, err, tc.err)
		}
	}
}

func TestRandomOpenings(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	ops := RandomOpenings(r, 30, 4, newRand(9))
	seen := map[string]bool{}
	for _, o := range ops {
		text := o.Text(r)
		if len(strings.Fields(text)) != 4 || seen[text] {
			t.Errorf("got opening %q: want 4 moves, each opening once", text)
		}
		seen[text] = true
	}
}

// TestRandomOpeningsWhere: the openings kept are those RandomOpenings draws
// from the same seed, less the refused ones, in the same order; a filter
// that keeps nothing ends with an error, not a loop.
func TestRandomOpeningsWhere(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	// Keep the openings without a white piece on a ring's corner.
	corners := map[string]bool{"a1": true, "g1": true, "a7": true, "g7": true, "b2": true, "f2": true,
		"b6": true, "f6": true, "c3": true, "e3": true, "c5": true, "e5": true}
	keep := func(p mill.Position) bool {
		b := p.Rules().Board()
		for pt := range mill.Point(b.Len()) {
			if c, ok := p.At(pt); ok && c == mill.White && corners[b.Name(pt)] {
				return false
			}
		}
		return true
	}
	all := RandomOpenings(r, 60, 4, newRand(9))
	var want []string
	for _, o := range all {
		if keep(o.Game(r).Position()) {
			want = append(want, o.Text(r))
		}
	}
	if len(want) < 10 || len(want) == len(all) {
		t.Fatalf("%d of %d random openings kept: want a filter that keeps some and refuses some", len(want), len(all))
	}
	got, refused, err := RandomOpeningsWhere(r, 10, 4, newRand(9), keep)
	if err != nil || len(got) != 10 || refused == 0 {
		t.Fatalf("got %d openings, %d refused, error %v: want 10, some refused, no error", len(got), refused, err)
	}
	for i, o := range got {
		if o.Text(r) != want[i] {
			t.Errorf("opening %d: got %q, want %q (the unfiltered ones in order, less the refused)", i+1, o.Text(r), want[i])
		}
	}
	if got, refused, err := RandomOpeningsWhere(r, 3, 2, newRand(9), func(mill.Position) bool { return false }); err == nil || len(got) != 0 || refused == 0 {
		t.Errorf("a filter that keeps nothing: got %d openings, %d refused, error %v; want none and an error", len(got), refused, err)
	}
}

func TestRecordsAndAdjudication(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	res, err := Run(context.Background(), Config{Rules: r, A: mustSpec(t, "random"), B: mustSpec(t, "greedy"),
		Openings: RandomOpenings(r, 2, 2, newRand(4)), Pairs: 2, MaxPlies: 12, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	for _, g := range res.Games {
		if !g.Adjudicated || g.Game.Outcome() != mill.Draw {
			t.Errorf("game %d: got %s by %s after %d plies, want a draw at the ply limit 12", g.Index,
				g.Game.Outcome(), g.Game.Method(), g.Game.Position().Ply())
		}
		if err := w.Write(g.Record("test")); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	sc := record.NewScanner(&buf)
	n := 0
	for sc.Scan() {
		rec := sc.Record()
		if _, err := rec.Game(); err != nil {
			t.Errorf("record %d: %v", n, err)
		}
		if want := res.Games[n].Names[0]; rec.Tag("White") != want || !strings.Contains(rec.Comment, "adjudicated") {
			t.Errorf("record %d: got White %q and comment %q, want %q and the adjudication", n, rec.Tag("White"), rec.Comment, want)
		}
		n++
	}
	if sc.Err() != nil || n != 4 {
		t.Errorf("read %d records (%v), want 4", n, sc.Err())
	}
	if res.Tally.Adjudicated != 4 || !res.Games[0].AWhite || res.Games[1].AWhite {
		t.Errorf("got %+v", res.Tally)
	}
}

func TestCancel(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Run(ctx, Config{Rules: r, A: mustSpec(t, "random"), B: mustSpec(t, "random"), Pairs: 100,
		Progress: func(*Game, Tally) {
			if n++; n == 3 {
				cancel()
			}
		}})
	if err == nil {
		t.Errorf("got no error from a cancelled match")
	}
}

// TestOpenTablebasesShared: the databases of a directory are opened once
// for the process, whatever the spelling of its path, and a directory
// without them is an error each time.
func TestOpenTablebasesShared(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	_, dir := egdbtest.Build(t, mill.MustRules("nine-mens-morris"))
	a, err := OpenTablebases(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenTablebases(filepath.Join(dir, ".", "x", ".."))
	if err != nil || a != b {
		t.Errorf("opened again: %p and %p (%v), want the same", a, b, err)
	}
	for range 2 {
		if _, err := OpenTablebases(t.TempDir()); err == nil {
			t.Error("a directory without databases: no error")
		}
	}
}
