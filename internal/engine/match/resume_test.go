package match

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// recordsText writes the records of games as a file of match records does.
func recordsText(t *testing.T, event string, games []*Game) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	for _, g := range games {
		rec := g.Record(event)
		rec.DeleteTag("Date") // a resumed match may end on another day
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readRecords(t *testing.T, text []byte) []*record.Record {
	t.Helper()
	var recs []*record.Record
	sc := record.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		recs = append(recs, sc.Record())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestResume stops a match after k games for several k and resumes it
// from the records of those games: the games, the records and the tally are
// those of the match played at once, and the games given back are not
// played again.
func TestResume(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	const pairs, event = 4, "test"
	cfg := Config{Rules: r, A: mustSpec(t, "random"), B: mustSpec(t, "greedy"),
		Openings: RandomOpenings(r, 3, 4, newRand(5)), Pairs: pairs, Concurrency: 2, MaxPlies: 40, Seed: 9}
	whole, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := recordsText(t, event, whole.Games)
	if whole.Tally.Adjudicated == 0 || whole.Tally.Adjudicated == 2*pairs {
		t.Fatalf("got %v: want some games adjudicated at the ply limit and some not, to read both back", whole.Tally)
	}
	recs := readRecords(t, want)
	for _, k := range []int{0, 1, 4, 7, 8} {
		played, err := Resume(cfg, event, recs[:k])
		if err != nil {
			t.Fatalf("after %d games: %v", k, err)
		}
		c := cfg
		c.Played = played
		var progressed []int
		c.Progress = func(g *Game, _ Tally) { progressed = append(progressed, g.Index) }
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatalf("after %d games: %v", k, err)
		}
		if got := recordsText(t, event, res.Games); !bytes.Equal(got, want) {
			t.Errorf("resumed after %d games: the records differ from the match played at once:\n%s\nwant\n%s", k, got, want)
		}
		if res.Tally != whole.Tally {
			t.Errorf("resumed after %d games: got %+v, want %+v", k, res.Tally, whole.Tally)
		}
		if len(progressed) != 2*pairs-k || len(progressed) > 0 && progressed[0] != k {
			t.Errorf("resumed after %d games: Progress saw games %v, want %d to %d", k, progressed, k, 2*pairs-1)
		}
	}
}

// TestResumeEnds reads back each way a game of a match ends besides the
// board: a fault, the ply limit, the databases' verdict.
func TestResumeEnds(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	cfg := Config{Rules: r, A: mustSpec(t, "greedy"), B: mustSpec(t, "random"),
		Openings: RandomOpenings(r, 1, 2, newRand(6)), Pairs: 2}
	var games []*Game
	for i, end := range []struct {
		o           mill.Outcome
		how         mill.Method
		fault, verd string
		adj         bool
	}{
		{mill.BlackWon, mill.Abandonment, "white (greedy) failed at ply 3: the process ended", "", false},
		{mill.Draw, mill.NoMethod, "", "", true},
		{mill.WhiteWon, mill.NoMethod, "", "the databases: win for white at ply 3", false},
		{mill.BlackWon, mill.Abandonment, "white (random) played an illegal move at ply 3: a1", "", false},
	} {
		mg := cfg.Openings[0].Game(r)
		if err := mg.End(end.o, end.how); err != nil {
			t.Fatal(err)
		}
		names := [2]string{"greedy", "random"}
		if i%2 == 1 {
			names = [2]string{"random", "greedy"}
		}
		games = append(games, &Game{Index: i, OpeningPlies: 2, AWhite: i%2 == 0, Game: mg, Names: names,
			Fault: end.fault, Adjudicated: end.adj, Verdict: end.verd})
	}
	played, err := Resume(cfg, "ends", readRecords(t, recordsText(t, "ends", games)))
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range played {
		w := games[i]
		if g.Fault != w.Fault || g.Adjudicated != w.Adjudicated || g.Verdict != w.Verdict ||
			g.Game.Outcome() != w.Game.Outcome() || g.Game.Method() != w.Game.Method() || g.ScoreA() != w.ScoreA() {
			t.Errorf("game %d: got %q %v %q %s by %s, want %q %v %q %s by %s", i+1,
				g.Fault, g.Adjudicated, g.Verdict, g.Game.Outcome(), g.Game.Method(),
				w.Fault, w.Adjudicated, w.Verdict, w.Game.Outcome(), w.Game.Method())
		}
	}
	res, err := Run(context.Background(), Config{Rules: r, A: cfg.A, B: cfg.B, Openings: cfg.Openings, Pairs: 2, Played: played})
	if err != nil || len(res.Games) != 4 || res.Tally.Faults != [2]int{1, 1} || res.Tally.Adjudicated != 1 || res.Tally.Verdicts != 1 {
		t.Errorf("a match with every game played: got %+v (%v), want the four games counted", res.Tally, err)
	}
}

// TestResumeErrors: records that are not the games of the match at their
// places are refused.
func TestResumeErrors(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	cfg := Config{Rules: r, A: mustSpec(t, "greedy"), B: mustSpec(t, "random"),
		Openings: RandomOpenings(r, 2, 4, newRand(7)), Pairs: 2, MaxPlies: 30, Seed: 3}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	text := recordsText(t, "e", res.Games)
	recs := readRecords(t, text)
	other := cfg
	other.Openings = RandomOpenings(r, 2, 4, newRand(8))
	swapped := cfg
	swapped.A, swapped.B = cfg.B, cfg.A
	lasker := cfg
	lasker.Rules = mill.MustRules("lasker")
	for _, tc := range []struct {
		name string
		cfg  Config
		evt  string
		recs []*record.Record
		want string
	}{
		{"more games than the match", Config{Rules: r, A: cfg.A, B: cfg.B, Openings: cfg.Openings, Pairs: 1}, "e", recs, "4 games recorded"},
		{"another event", cfg, "f", recs, "the event"},
		{"out of order", cfg, "e", []*record.Record{recs[1], recs[0]}, "the round"},
		{"other players", swapped, "e", recs, "white"},
		{"other openings", other, "e", recs, "opening 1"},
		{"other rules", lasker, "e", recs, "played under"},
	} {
		if _, err := Resume(tc.cfg, tc.evt, tc.recs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	bad := *recs[0]
	bad.Comment = "an opening of another tool"
	if _, err := Resume(cfg, "e", []*record.Record{&bad}); err == nil || !strings.Contains(err.Error(), "comment") {
		t.Errorf("a foreign comment: got %v, want an error", err)
	}
	if _, err := Run(context.Background(), Config{Rules: r, A: cfg.A, B: cfg.B, Pairs: 1, Played: res.Games}); err == nil {
		t.Errorf("Run with more games played than the match has: got no error")
	}
}
