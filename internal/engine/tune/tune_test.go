package tune

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

var (
	tuneFlag = flag.Bool("tune", false, "run the self-play tuning (long); prints each step")
	pairs    = flag.Int("pairs", 100, "game pairs per comparison")
	depth    = flag.Int("depth", 4, "search depth of the tuning games")
	passes   = flag.Int("passes", 1, "passes over the weights")
)

func TestElo(t *testing.T) {
	elo, _ := Result{Wins: 3, Losses: 1}.Elo()
	if math.Abs(elo-190.85) > 0.01 {
		t.Errorf("75%%: got %.2f, want +190.85", elo)
	}
	if e, _ := (Result{Wins: 5, Draws: 2, Losses: 5}).Elo(); e != 0 {
		t.Errorf("50%%: got %.2f", e)
	}
}

func TestMatchSmoke(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	w := eval.Default()
	res := Match(context.Background(), r, &w, &w, 2, 6, 2, 1, 2)
	if res.Games() != 4 {
		t.Errorf("got %d games, want 4", res.Games())
	}
}

// TestTune runs coordinate tuning: each weight is moved up and down by a
// step; a move is kept when it scores above 50% by more than the margin's
// half. Run: go test ./internal/engine/tune -run TestTune -tune -v -timeout 0
func TestTune(t *testing.T) {
	if !*tuneFlag {
		t.Skip("tuning runs only with -tune")
	}
	r := mill.MustRules("nine-mens-morris")
	best := eval.Default()
	fields := []struct {
		name string
		at   func(*eval.Weights) *int
		step int
	}{
		{"Mill[moving]", func(w *eval.Weights) *int { return &w.Mill[eval.Moving] }, 10},
		{"Two[placing]", func(w *eval.Weights) *int { return &w.Two[eval.Placing] }, 8},
		{"Two[moving]", func(w *eval.Weights) *int { return &w.Two[eval.Moving] }, 8},
		{"Closable[moving]", func(w *eval.Weights) *int { return &w.Closable[eval.Moving] }, 12},
		{"Double[moving]", func(w *eval.Weights) *int { return &w.Double[eval.Moving] }, 20},
		{"Mobility[placing]", func(w *eval.Weights) *int { return &w.Mobility[eval.Placing] }, 3},
		{"Mobility[moving]", func(w *eval.Weights) *int { return &w.Mobility[eval.Moving] }, 4},
		{"Blocked[moving]", func(w *eval.Weights) *int { return &w.Blocked[eval.Moving] }, 4},
		{"Closable[flying]", func(w *eval.Weights) *int { return &w.Closable[eval.Flying] }, 15},
		{"Two[flying]", func(w *eval.Weights) *int { return &w.Two[eval.Flying] }, 10},
	}
	seed := uint64(time.Now().UnixNano())
	fmt.Printf("| change | games | +win =draw -loss | score | Elo ± 95%% | kept | time |\n|---|---|---|---|---|---|---|\n")
	for pass := 0; pass < *passes; pass++ {
		for _, f := range fields {
			for _, dir := range []int{+1, -1} {
				cand := best
				*f.at(&cand) += dir * f.step
				start := time.Now()
				res := Match(context.Background(), r, &cand, &best, *pairs, 8, *depth, seed, 2)
				seed++
				elo, margin := res.Elo()
				kept := elo > margin/2
				fmt.Printf("| %s %+d -> %d | %d | +%d =%d -%d | %.1f%% | %+.0f ± %.0f | %v | %s |\n",
					f.name, dir*f.step, *f.at(&cand), res.Games(), res.Wins, res.Draws, res.Losses, 100*res.Score(), elo, margin, kept, time.Since(start).Round(time.Second))
				if kept {
					best = cand
					break
				}
			}
		}
	}
	fmt.Printf("final: %+v\n", best)
	def := eval.Default()
	res := Match(context.Background(), r, &best, &def, 2**pairs, 8, *depth, seed, 2)
	elo, margin := res.Elo()
	fmt.Printf("verification, final vs eval.Default: %d games, +%d =%d -%d, %.1f%%, Elo %+.0f ± %.0f\n",
		res.Games(), res.Wins, res.Draws, res.Losses, 100*res.Score(), elo, margin)
}

var ablateFlag = flag.Bool("ablate", false, "run the ablation matches (long)")

// TestAblate plays the evaluation against itself with one feature group
// switched off: how much each feature is worth, in Elo.
// Run: go test ./internal/engine/tune -run TestAblate -ablate -v -timeout 0
func TestAblate(t *testing.T) {
	if !*ablateFlag {
		t.Skip("ablation runs only with -ablate")
	}
	r := mill.MustRules("nine-mens-morris")
	def := eval.Default()
	variants := []struct {
		name string
		edit func(*eval.Weights)
	}{
		{"material only", func(w *eval.Weights) {
			*w = eval.Weights{Piece: w.Piece}
		}},
		{"no mills", func(w *eval.Weights) { w.Mill = [eval.NumPhases]int{} }},
		{"no twos", func(w *eval.Weights) { w.Two = [eval.NumPhases]int{} }},
		{"no closable", func(w *eval.Weights) { w.Closable = [eval.NumPhases]int{} }},
		{"no running mills", func(w *eval.Weights) { w.Double = [eval.NumPhases]int{} }},
		{"no mobility", func(w *eval.Weights) { w.Mobility = [eval.NumPhases]int{} }},
		{"no blocked", func(w *eval.Weights) { w.Blocked = [eval.NumPhases]int{} }},
		{"no cramp", func(w *eval.Weights) { w.Cramp = [eval.NumPhases]int{} }},
		{"no reserved points", func(w *eval.Weights) { w.Reserved = [eval.NumPhases]int{} }},
	}
	fmt.Printf("| default against | games | +win =draw -loss | score | Elo ± 95%% |\n|---|---|---|---|---|\n")
	for i, v := range variants {
		cand := def
		v.edit(&cand)
		res := Match(context.Background(), r, &def, &cand, *pairs, 8, *depth, uint64(1000+i), 2)
		elo, margin := res.Elo()
		fmt.Printf("| %s | %d | +%d =%d -%d | %.1f%% | %+.0f ± %.0f |\n", v.name, res.Games(), res.Wins, res.Draws, res.Losses, 100*res.Score(), elo, margin)
	}
}

var compareFlag = flag.String("compare", "", `JSON edits of eval.Default to match against it, e.g. {"Taper":true}; several separated by ";"`)

// TestCompare plays candidate weights, given as JSON edits of eval.Default,
// against the defaults: the quick filter before a timed match.
// Run: go test ./internal/engine/tune -run TestCompare -compare '{"Taper":true}' -pairs 400 -depth 6 -v -timeout 0
func TestCompare(t *testing.T) {
	if *compareFlag == "" {
		t.Skip("comparison runs only with -compare")
	}
	r := mill.MustRules("nine-mens-morris")
	def := eval.Default()
	fmt.Printf("| candidate | depth | games | +win =draw -loss | score | Elo ± 95%% | time |\n|---|---|---|---|---|---|---|\n")
	for i, edit := range strings.Split(*compareFlag, ";") {
		cand := def
		if err := json.Unmarshal([]byte(edit), &cand); err != nil {
			t.Fatalf("%s: %v", edit, err)
		}
		start := time.Now()
		res := Match(context.Background(), r, &cand, &def, *pairs, 8, *depth, uint64(2000+i), 2)
		elo, margin := res.Elo()
		fmt.Printf("| `%s` | %d | %d | +%d =%d -%d | %.1f%% | %+.0f ± %.0f | %s |\n", edit, *depth, res.Games(), res.Wins, res.Draws, res.Losses, 100*res.Score(), elo, margin, time.Since(start).Round(time.Second))
	}
}

var (
	fitFlag        = flag.String("fit", "", "fit the placing weights to the samples in this file, made first if it does not exist")
	fitGames       = flag.Int("fit-games", 500, "with -fit: games played for the sample positions")
	fitTime        = flag.Duration("fit-movetime", 300*time.Millisecond, "with -fit: the search time that scores each sample")
	fitVariantName = flag.String("fit-variant", "nine-mens-morris", "with -fit and -fit-moving: the preset (or preset with overrides) whose games give the samples made, and whose weights (eval.For) the fit starts from unless it is nine men's morris")
)

// fitVariant returns the rules of -fit-variant and the plies of its placing
// phase when no mill is closed (two a piece).
func fitVariant(t *testing.T) (*mill.Rules, int) {
	t.Helper()
	r, err := mill.ParseRules(*fitVariantName)
	if err != nil {
		t.Fatalf("-fit-variant: %v", err)
	}
	return r, 2 * r.Options().Pieces
}

// placingParams are the weights of a side still placing, and the tempo of
// a side to move that places: the weights the placing positions decide.
var placingParams = []Param{
	{"Mill[placing]", func(w *eval.Weights) *int { return &w.Mill[eval.Placing] }},
	{"Two[placing]", func(w *eval.Weights) *int { return &w.Two[eval.Placing] }},
	{"Closable[placing]", func(w *eval.Weights) *int { return &w.Closable[eval.Placing] }},
	{"Mobility[placing]", func(w *eval.Weights) *int { return &w.Mobility[eval.Placing] }},
	{"Blocked[placing]", func(w *eval.Weights) *int { return &w.Blocked[eval.Placing] }},
	{"Cramp[placing]", func(w *eval.Weights) *int { return &w.Cramp[eval.Placing] }},
	{"Reserved[placing]", func(w *eval.Weights) *int { return &w.Reserved[eval.Placing] }},
	{"Tempo[placing]", func(w *eval.Weights) *int { return &w.Tempo[eval.Placing] }},
}

// movingParams are the weights of a side that slides, and the tempo of a
// side to move that slides: the weights the positions after placing decide
// (and, under Taper, part of a placing side's).
var movingParams = []Param{
	{"Mill[moving]", func(w *eval.Weights) *int { return &w.Mill[eval.Moving] }},
	{"Two[moving]", func(w *eval.Weights) *int { return &w.Two[eval.Moving] }},
	{"Closable[moving]", func(w *eval.Weights) *int { return &w.Closable[eval.Moving] }},
	{"Double[moving]", func(w *eval.Weights) *int { return &w.Double[eval.Moving] }},
	{"Mobility[moving]", func(w *eval.Weights) *int { return &w.Mobility[eval.Moving] }},
	{"Blocked[moving]", func(w *eval.Weights) *int { return &w.Blocked[eval.Moving] }},
	{"Cramp[moving]", func(w *eval.Weights) *int { return &w.Cramp[eval.Moving] }},
	{"Reserved[moving]", func(w *eval.Weights) *int { return &w.Reserved[eval.Moving] }},
	{"Tempo[moving]", func(w *eval.Weights) *int { return &w.Tempo[eval.Moving] }},
}

var (
	fitMoving     = flag.String("fit-moving", "", "fit the moving weights to the samples in this file (positions after placing), made first if it does not exist")
	fitMovingFrom = flag.String("fit-moving-from", "default", "with -fit-moving: the moving weights the fit starts from: default (eval.Default's, which scored testdata's samples) or nine (nine men's morris's eval.For, as committed)")
)

// TestFitMoving fits the moving weights of nine men's morris (or of
// -fit-variant) as TestFit
// fits the placing ones, on the positions of the first plies after placing
// (both hands empty, neither side flying, plies 18 to 31): the positions at
// the horizon of every search of the placing phase, where a blockade to
// come decides the game. The samples of nine men's morris's moving
// weights (5,826 positions of 400 games, each searched for 400 ms) are in
// testdata; to fit them again (seconds), or to make new ones (-fit-games,
// -fit-movetime; 20 minutes for these):
//
//	go test ./internal/engine/tune -run TestFitMoving -fit-moving testdata/moving-samples.tsv -v -timeout 0
func TestFitMoving(t *testing.T) {
	if *fitMoving == "" {
		t.Skip("fitting runs only with -fit-moving FILE")
	}
	r, placing := fitVariant(t)
	samples, train, hold := fitSamples(t, r, *fitMoving, placing+14, func(p mill.Position) bool {
		_, owed := p.Pending()
		return !owed && p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0 &&
			!p.Flying(mill.White) && !p.Flying(mill.Black)
	}, 5)
	const k = 150
	// The weights the samples of testdata were scored with: the fitted
	// placing ones, the moving ones of Default. Samples scored otherwise
	// (by the databases: TestExactSamples) may start from the weights as
	// committed.
	w := startWeights(r)
	def, preset := eval.Default(), eval.For(r)
	switch *fitMovingFrom {
	case "default":
		for _, p := range movingParams {
			*p.At(&w) = *p.At(&def)
		}
	case "nine":
	default:
		t.Fatalf("-fit-moving-from %q: want default or nine", *fitMovingFrom)
	}
	t.Logf("%d samples (%d held out); loss %.5f, held out %.5f", len(samples), len(hold), Loss(train, &w, k), Loss(hold, &w, k))
	Fit(train, &w, movingParams, k, 30, func(pass int, loss float64) { t.Logf("pass %d: loss %.5f", pass+1, loss) })
	t.Logf("held out %.5f", Loss(hold, &w, k))
	for _, p := range movingParams {
		t.Logf("%s = %d (was %d; eval.For(%s) has %d)", p.Name, *p.At(&w), *p.At(&def), r, *p.At(&preset))
	}
}

// startWeights returns the weights a fit under rules r starts from:
// eval.For(r) without its nets (nineWeights for nine men's morris), the
// weights that scored the samples made under r.
func startWeights(r *mill.Rules) eval.Weights {
	w := eval.For(r)
	w.Net, w.PlacingNet = nil, nil
	return w
}

// TestFit fits the placing weights of nine men's morris (or of
// -fit-variant) to deeper searches
// (docs/eval.md, "Fitted to deeper searches"): positions of the placing
// phase from varied games, each scored by a search of -fit-movetime, and
// the weights moved to bring the quiescence score of each position closest
// to its search's score. Every fifth sample is held out. Run:
//
//	go test ./internal/engine/tune -run TestFit -fit samples.tsv -v -timeout 0
func TestFit(t *testing.T) {
	if *fitFlag == "" {
		t.Skip("fitting runs only with -fit FILE")
	}
	r, placing := fitVariant(t)
	samples, train, hold := fitSamples(t, r, *fitFlag, placing, func(p mill.Position) bool {
		_, owed := p.Pending()
		return p.Ply() >= 6 && !owed && p.InHand(p.SideToMove()) > 0
	}, 3)
	const k = 150
	// Nine men's morris starts from the hand-set weights its first fit
	// started from; other rules from their own with Default's placing
	// column, the weights that scored the samples of testdata (a preset
	// fitted here, such as twelve-man-morris, has the fit's result in its
	// own).
	def := eval.Default()
	w := def
	if eval.For(r) != eval.For(mill.MustRules("nine-mens-morris")) {
		w = startWeights(r)
		for _, p := range placingParams {
			*p.At(&w) = *p.At(&def)
		}
	}
	t.Logf("%d samples (%d held out); loss %.5f, held out %.5f", len(samples), len(hold), Loss(train, &w, k), Loss(hold, &w, k))
	Fit(train, &w, placingParams, k, 30, func(pass int, loss float64) { t.Logf("pass %d: loss %.5f", pass+1, loss) })
	t.Logf("held out %.5f", Loss(hold, &w, k))
	for _, p := range placingParams {
		t.Logf("%s = %d (was %d)", p.Name, *p.At(&w), *p.At(&def))
	}
}

// fitSamples returns the samples of file, made first when it does not exist
// (-fit-games games under rules r up to ply maxPly, the positions keep
// accepts, each searched for -fit-movetime), and them split: every fifth
// held out.
func fitSamples(t *testing.T, r *mill.Rules, file string, maxPly int, keep func(mill.Position) bool, seed uint64) (samples, train, hold []Sample) {
	t.Helper()
	ctx := context.Background()
	if _, err := os.Stat(file); err != nil {
		start := time.Now()
		ps := Positions(ctx, r, *fitGames, 4, maxPly, keep, seed)
		t.Logf("%d positions from %d games in %v", len(ps), *fitGames, time.Since(start).Round(time.Second))
		start = time.Now()
		samples := Label(ctx, ps, nil, *fitTime, 2)
		t.Logf("scored at %v each in %v", *fitTime, time.Since(start).Round(time.Second))
		writeSamples(t, file, samples)
	}
	return split(readSamples(t, file))
}

// readSamples reads the sample file named file.
func readSamples(t *testing.T, file string) []Sample {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	samples, err := ReadSamples(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return samples
}

// writeSamples writes samples to the file named file.
func writeSamples(t *testing.T, file string, samples []Sample) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteSamples(f, samples); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// split returns samples and them split: every fifth held out.
func split(samples []Sample) (all, train, hold []Sample) {
	for i, s := range samples {
		if i%5 == 4 {
			hold = append(hold, s)
		} else {
			train = append(train, s)
		}
	}
	return samples, train, hold
}

var (
	relabel    = flag.String("relabel", "", "score the positions of this sample file again, with the weights of eval.For and -fit-movetime, into -relabel-out")
	relabelOut = flag.String("relabel-out", "", "with -relabel: the file written")
	fitJoint   = flag.String("fit-joint", "", "PLACING,MOVING: fit the placing and the moving weights together to the samples of both files, from nine men's morris's eval.For")
)

// TestRelabel scores the positions of a sample file again with the engine
// as it is (its weights, a search of -fit-movetime), so that a fit can start
// from the weights that scored its samples (docs/eval.md, "Fitted again").
// The positions stay; only the scores change. For the two files of
// testdata, 15 and 17 minutes on 2 threads:
//
//	go test ./internal/engine/tune -run TestRelabel -relabel testdata/placing-samples.tsv -relabel-out placing-2.tsv -fit-movetime 300ms -v -timeout 0
func TestRelabel(t *testing.T) {
	if *relabel == "" || *relabelOut == "" {
		t.Skip("relabelling runs only with -relabel FILE -relabel-out FILE")
	}
	samples := readSamples(t, *relabel)
	ps := make([]mill.Position, len(samples))
	for i, s := range samples {
		ps[i] = s.Pos
	}
	start := time.Now()
	out := Label(context.Background(), ps, nil, *fitTime, 2)
	t.Logf("%d positions scored at %v each in %v", len(out), *fitTime, time.Since(start).Round(time.Second))
	writeSamples(t, *relabelOut, out)
}

// TestFitJoint fits the placing and the moving weights of nine men's
// morris together, from nine men's morris's weights (eval.For), to a file of placing samples
// and one of moving samples (made by TestFit and TestFitMoving, or scored
// again by TestRelabel): under Taper the moving weights count in placing
// positions too. Every fifth sample of each file is held out.
//
//	go test ./internal/engine/tune -run TestFitJoint -fit-joint placing-2.tsv,moving-2.tsv -v -timeout 0
func TestFitJoint(t *testing.T) {
	placing, moving, ok := strings.Cut(*fitJoint, ",")
	if !ok {
		t.Skip("fitting runs only with -fit-joint PLACING,MOVING")
	}
	_, trainP, holdP := split(readSamples(t, placing))
	_, trainM, holdM := split(readSamples(t, moving))
	train := append(trainP, trainM...)
	params := append(append([]Param{}, placingParams...), movingParams...)
	const k = 150
	w := nineWeights()
	t.Logf("%d samples; held out: placing %.5f, moving %.5f", len(train)+len(holdP)+len(holdM), Loss(holdP, &w, k), Loss(holdM, &w, k))
	Fit(train, &w, params, k, 30, func(pass int, loss float64) { t.Logf("pass %d: loss %.5f", pass+1, loss) })
	t.Logf("held out: placing %.5f, moving %.5f", Loss(holdP, &w, k), Loss(holdM, &w, k))
	nine := eval.For(mill.MustRules("nine-mens-morris"))
	for _, p := range params {
		t.Logf("%s = %d (nine men's morris's weights have %d)", p.Name, *p.At(&w), *p.At(&nine))
	}
}

// nineWeights are nine men's morris's weights (eval.For) without their
// nets: the fits move the weights of the sums alone, and a net is trained
// over them (TestFitNet), as the figures of docs/eval.md were made.
func nineWeights() eval.Weights {
	w := eval.For(mill.MustRules("nine-mens-morris"))
	w.Net, w.PlacingNet = nil, nil
	return w
}
