package tune

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

// TestFitSmall runs the whole fitting on a few positions: samples made,
// written and read back the same, and a fit that never raises the loss.
func TestFitSmall(t *testing.T) {
	ctx := context.Background()
	r := mill.MustRules("nine-mens-morris")
	ps := Positions(ctx, r, 2, 4, 12, func(p mill.Position) bool { return p.InHand(p.SideToMove()) > 0 }, 1)
	if len(ps) < 8 {
		t.Fatalf("%d positions from 2 games of 12 plies, want at least 8", len(ps))
	}
	samples := Label(ctx, ps, nil, 5*time.Millisecond, 2)
	var buf bytes.Buffer
	if err := WriteSamples(&buf, samples); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSamples(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(samples) {
		t.Fatalf("read %d samples, wrote %d", len(back), len(samples))
	}
	for i := range back {
		if back[i].Pos.Key() != samples[i].Pos.Key() || back[i].Score != samples[i].Score {
			t.Fatalf("sample %d read back as %v, written %v", i, back[i], samples[i])
		}
	}
	w := eval.Default()
	before := Loss(samples, &w, 150)
	after := Fit(samples, &w, PlacingParams[:2], 150, 2, nil)
	if after > before {
		t.Errorf("the fit raised the loss from %.5f to %.5f", before, after)
	}
	if got := Loss(samples, &w, 150); got != after {
		t.Errorf("Fit returned %.5f, the weights it left give %.5f", after, got)
	}
}

func TestReadSamplesErrors(t *testing.T) {
	for _, in := range []string{
		"nine-mens-morris 8/8/8 w 9,9 - 0 0",     // no score
		"nine-mens-morris 8/8/8 w 9,9 - 0 0\tx",  // a score that is not a number
		"nine-mens-morris 9/8/8 w 9,9 - 0 0\t10", // a bad position
	} {
		if _, err := ReadSamples(strings.NewReader(in + "\n")); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// TestLabelExact scores positions of three pieces a side by the databases
// of that sector: each sample's sign is the probe's result, wins and losses
// within the clamp, and positions the databases do not hold are left out.
func TestLabelExact(t *testing.T) {
	db, _ := egdbtest.Build(t, mill.MustRules("nine-mens-morris"))
	var ps []mill.Position
	for _, text := range []string{
		"nine-mens-morris 6W1/2B1W3/3B2WB w 0,0 - 0 40", // a win in 5
		"nine-mens-morris B5W1/2BB4/W4W2 w 0,0 - 0 40",  // a loss in 6
		"nine-mens-morris 1B6/WBW5/WB6 w 0,0 - 0 40",    // a draw
		"nine-mens-morris 8/8/8 w 9,9 - 0 0",            // the start: no sector of the moving phase
	} {
		ps = append(ps, mill.MustParsePosition(text))
	}
	samples := LabelExact(ps, db.Probe)
	if len(samples) != 3 {
		t.Fatalf("%d samples, want the 3 positions of 3v3", len(samples))
	}
	want := []egdb.Value{{Result: egdb.Win, Plies: 5}, {Result: egdb.Loss, Plies: 6}, {Result: egdb.Draw}}
	for i, s := range samples {
		if v, _ := db.Value(s.Pos); v != want[i] {
			t.Fatalf("%s: the databases say %s, the test wants %s", s.Pos, v, want[i])
		}
	}
	if got := []int{samples[0].Score, samples[1].Score, samples[2].Score}; got[0] != fitClamp-5 || got[1] != -(fitClamp-6) || got[2] != 0 {
		t.Errorf("scores %v, want [%d %d 0]", got, fitClamp-5, -(fitClamp - 6))
	}
}

// TestPositionsRepeat checks that Positions gives the same positions for
// the same seed, whichever of its goroutines plays which game.
func TestPositionsRepeat(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	keep := func(p mill.Position) bool { return p.Ply()%2 == 0 }
	var runs [2][]uint64
	for i := range runs {
		for _, p := range Positions(t.Context(), r, 4, 4, 12, keep, 9) {
			runs[i] = append(runs[i], p.Key())
		}
	}
	if len(runs[0]) < 12 {
		t.Fatalf("%d positions from 4 games", len(runs[0]))
	}
	for i := 1; i < len(runs); i++ {
		if !slices.Equal(runs[i], runs[0]) {
			t.Fatalf("run %d gave other positions than run 0", i)
		}
	}
}

func TestSplit(t *testing.T) {
	var samples []Sample
	for i := range 12 {
		samples = append(samples, Sample{Score: i})
	}
	train, hold := Split(samples)
	if len(train) != 10 || len(hold) != 2 || hold[0].Score != 4 || hold[1].Score != 9 {
		t.Errorf("12 samples split into %v and %v, want every fifth held out", train, hold)
	}
}

// TestStarts: the fits of nine men's morris start where the samples of
// testdata were scored.
func TestStarts(t *testing.T) {
	nine := mill.MustRules("nine-mens-morris")
	def := eval.Default()
	if w := PlacingStart(nine); w != def {
		t.Errorf("the placing fit of nine men's morris starts from %+v, want eval.Default()", w)
	}
	w, err := MovingStart(nine, "default")
	if err != nil {
		t.Fatal(err)
	}
	nw := NineWeights()
	for _, p := range MovingParams {
		if *p.At(&w) != *p.At(&def) {
			t.Errorf("%s: %d, want eval.Default()'s %d", p.Name, *p.At(&w), *p.At(&def))
		}
	}
	for _, p := range PlacingParams {
		if *p.At(&w) != *p.At(&nw) {
			t.Errorf("%s: %d, want nine men's morris's %d", p.Name, *p.At(&w), *p.At(&nw))
		}
	}
	if w.Net != nil || w.PlacingNet != nil {
		t.Error("a fit starts with nets")
	}
	if _, err := MovingStart(nine, "ten"); err == nil {
		t.Error("MovingStart took ten")
	}
}
