package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/internal/engine/tune"
	"github.com/morrisgame/morris/mill"
)

// sampleFlags are the flags of the fits that make their samples when the
// file does not exist.
type sampleFlags struct {
	variant  string
	games    int
	movetime time.Duration
}

func (s *sampleFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.variant, "variant", "nine-mens-morris", "the preset (or preset with overrides) whose games give the samples made, and whose weights (eval.For) the fit starts from unless it is nine men's morris")
	fs.IntVar(&s.games, "games", 500, "games played for the sample positions, when FILE is made")
	fs.DurationVar(&s.movetime, "movetime", 300*time.Millisecond, "the search time that scores each sample, when FILE is made")
}

// samples reads the samples of file, made first when it does not exist:
// the positions of s.games games (positions), each searched for s.movetime.
func (s *sampleFlags) samples(ctx context.Context, file string, r *mill.Rules, positions func(context.Context, *mill.Rules, int) []mill.Position, stderr io.Writer) ([]tune.Sample, error) {
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		start := time.Now()
		ps := positions(ctx, r, s.games)
		fmt.Fprintf(stderr, "%d positions from %d games in %v\n", len(ps), s.games, time.Since(start).Round(time.Second))
		start = time.Now()
		samples := tune.Label(ctx, ps, nil, s.movetime, 2)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "scored at %v each in %v\n", s.movetime, time.Since(start).Round(time.Second))
		if err := writeSamples(file, samples); err != nil {
			return nil, err
		}
	}
	return readSamples(file)
}

// readSamples reads sample files (tune.WriteSamples), one after the other.
func readSamples(files ...string) ([]tune.Sample, error) {
	var all []tune.Sample
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		s, err := tune.ReadSamples(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		all = append(all, s...)
	}
	return all, nil
}

func writeSamples(file string, samples []tune.Sample) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := tune.WriteSamples(f, samples); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fit fits params of w to the samples (every fifth held out), telling
// stderr each pass, and prints the losses and the weights found to stdout,
// each with was (its value before) and what more says of it.
func fit(samples []tune.Sample, w *eval.Weights, params []tune.Param, stdout, stderr io.Writer, more func(tune.Param) string) {
	train, hold := tune.Split(samples)
	fmt.Fprintf(stdout, "%d samples (%d held out); loss %.5f, held out %.5f\n", len(samples), len(hold), tune.Loss(train, w, tune.FitK), tune.Loss(hold, w, tune.FitK))
	was := *w
	tune.Fit(train, w, params, tune.FitK, tune.FitPasses, func(pass int, loss float64) { fmt.Fprintf(stderr, "pass %d: loss %.5f\n", pass+1, loss) })
	fmt.Fprintf(stdout, "held out %.5f\n", tune.Loss(hold, w, tune.FitK))
	for _, p := range params {
		fmt.Fprintf(stdout, "%s = %d (was %d%s)\n", p.Name, *p.At(w), *p.At(&was), more(p))
	}
}

func cmdFit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("fit", "FILE", `Fits the placing weights (tune.PlacingParams) of nine men's morris, or of
-variant, to deeper searches (docs/eval.md, "Fitted to deeper searches"):
positions of the placing phase from varied games, each scored by a search of
-movetime, and the weights moved to bring the quiescence score of each
position closest to its search's score. Every fifth sample is held out. FILE
holds the samples (tune.WriteSamples); it is made first when it does not exist.`, stderr)
	var s sampleFlags
	s.register(fs)
	if err := parse(fs, args, 1, 1); err != nil {
		return err
	}
	r, err := mill.ParseRules(s.variant)
	if err != nil {
		return usageError{err}
	}
	samples, err := s.samples(ctx, fs.Arg(0), r, tune.PlacingPositions, stderr)
	if err != nil {
		return err
	}
	w := tune.PlacingStart(r)
	fit(samples, &w, tune.PlacingParams, stdout, stderr, func(tune.Param) string { return "" })
	return nil
}

func cmdFitMoving(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("fit-moving", "FILE", `Fits the moving weights (tune.MovingParams) of nine men's morris, or of
-variant, as fit fits the placing ones, on the positions of the first plies
after placing (both hands empty, neither side flying, plies 18 to 31 in nine
men's morris): the positions at the horizon of every search of the placing
phase. The samples of nine men's morris's moving weights (eval.For) are
internal/engine/tune/testdata/moving-samples.tsv (5,826 positions of 400
games, each searched for 400 ms); fitting them again takes seconds, making new
ones (-games, -movetime) 20 minutes.`, stderr)
	var s sampleFlags
	s.register(fs)
	from := fs.String("from", "default", "the moving weights the fit starts from: default (eval.Default's, which scored testdata's samples) or nine (nine men's morris's eval.For, as committed; for samples scored by the databases)")
	if err := parse(fs, args, 1, 1); err != nil {
		return err
	}
	r, err := mill.ParseRules(s.variant)
	if err != nil {
		return usageError{err}
	}
	w, err := tune.MovingStart(r, *from)
	if err != nil {
		return usageError{err}
	}
	samples, err := s.samples(ctx, fs.Arg(0), r, tune.MovingPositions, stderr)
	if err != nil {
		return err
	}
	def, preset := eval.Default(), eval.For(r)
	fit(samples, &w, tune.MovingParams, stdout, stderr, func(p tune.Param) string {
		return fmt.Sprintf("; eval.Default() has %d, eval.For(%s) %d", *p.At(&def), r, *p.At(&preset))
	})
	return nil
}

func cmdFitJoint(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("fit-joint", "PLACING MOVING", `Fits the placing and the moving weights of nine men's morris together, from
nine men's morris's weights (eval.For, without nets), to a file of placing samples and one
of moving samples (made by fit and fit-moving, scored again by relabel, or by
the databases: exact-samples, exact-placing-samples): under Taper the moving
weights count in placing positions too. Every fifth sample of each file is
held out.`, stderr)
	if err := parse(fs, args, 2, 2); err != nil {
		return err
	}
	placing, err := readSamples(fs.Arg(0))
	if err != nil {
		return err
	}
	moving, err := readSamples(fs.Arg(1))
	if err != nil {
		return err
	}
	trainP, holdP := tune.Split(placing)
	trainM, holdM := tune.Split(moving)
	train := append(trainP, trainM...)
	params := append(append([]tune.Param{}, tune.PlacingParams...), tune.MovingParams...)
	w := tune.NineWeights()
	nine := eval.For(mill.MustRules("nine-mens-morris"))
	fmt.Fprintf(stdout, "%d samples; held out: placing %.5f, moving %.5f\n", len(placing)+len(moving), tune.Loss(holdP, &w, tune.FitK), tune.Loss(holdM, &w, tune.FitK))
	tune.Fit(train, &w, params, tune.FitK, tune.FitPasses, func(pass int, loss float64) { fmt.Fprintf(stderr, "pass %d: loss %.5f\n", pass+1, loss) })
	fmt.Fprintf(stdout, "held out: placing %.5f, moving %.5f\n", tune.Loss(holdP, &w, tune.FitK), tune.Loss(holdM, &w, tune.FitK))
	for _, p := range params {
		fmt.Fprintf(stdout, "%s = %d (nine men's morris's weights have %d)\n", p.Name, *p.At(&w), *p.At(&nine))
	}
	return nil
}

func cmdRelabel(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("relabel", "FILE", `Scores the positions of a sample file again with the engine as it is (the
weights of eval.For, a search of -movetime on two threads) into -o, so that a
fit can start from the weights that scored its samples (docs/eval.md, "Fitted
again"). The positions stay; only the scores change. For the two files of
internal/engine/tune/testdata, 15 and 17 minutes.`, stderr)
	movetime := fs.Duration("movetime", 300*time.Millisecond, "the search time that scores each position")
	out := fs.String("o", "", "the sample file written (required)")
	if err := parse(fs, args, 1, 1); err != nil {
		return err
	}
	if err := need(fs, "o"); err != nil {
		return err
	}
	samples, err := readSamples(fs.Arg(0))
	if err != nil {
		return err
	}
	ps := make([]mill.Position, len(samples))
	for i, s := range samples {
		ps[i] = s.Pos
	}
	start := time.Now()
	scored := tune.Label(ctx, ps, nil, *movetime, 2)
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d positions scored at %v each in %v\n", len(scored), *movetime, time.Since(start).Round(time.Second))
	return writeSamples(*out, scored)
}

func cmdFitNet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("fit-net", "FILE...", `Trains a net (eval.Net) to add to the weighted sum of nine men's morris
(nine men's morris's eval.For without its nets), in the moving phase or with -hands 9
in the placing phase, on sample files (exact-samples writes them scored by the
databases; every fifth sample held out), and prints the loss of the held out
fifth with and without it, as tune.Loss computes it (through the quiescence
search, the net in fixed point as the engine plays it).`, stderr)
	out := fs.String("o", "", "write the net here")
	hidden := fs.Int("hidden", 32, "hidden units")
	epochs := fs.Int("epochs", 30, "epochs")
	rate := fs.Float64("rate", 0.002, "Adam's learning rate")
	decay := fs.Float64("decay", 1e-5, "L2 decay of the weights a step")
	noSym := fs.Bool("nosym", false, "do not train on the board's symmetric images")
	baseDefault := fs.Bool("base-default", false, "the net adds to eval.Default() instead of nine men's morris's weights")
	hands := fs.Int("hands", 0, "0 trains a net of the moving phase (eval.Weights.Net), 9 one of the placing phase (PlacingNet)")
	if err := parse(fs, args, 1, -1); err != nil {
		return err
	}
	all, err := readSamples(fs.Args()...)
	if err != nil {
		return err
	}
	base := tune.NineWeights()
	if *baseDefault {
		base = eval.Default()
	}
	shape := &eval.Net{Hands: *hands}
	train, hold := tune.Split(all)
	train, hold = tune.Applying(train, shape), tune.Applying(hold, shape)
	fmt.Fprintf(stdout, "%d samples to train on, %d held out; held out loss without a net %.5f (train %.5f)\n",
		len(train), len(hold), tune.Loss(hold, &base, tune.FitK), tune.Loss(train, &base, tune.FitK))
	start := time.Now()
	n := tune.TrainNet(train, &base, tune.NetOptions{Hands: *hands, Hidden: *hidden, Epochs: *epochs, Batch: 256, Rate: *rate, Decay: *decay, K: tune.FitK, Symmetries: !*noSym, Seed: 1},
		func(epoch int, loss float64) {
			fmt.Fprintf(stderr, "epoch %d: %.5f (%v)\n", epoch+1, loss, time.Since(start).Round(time.Second))
		})
	if n == nil {
		return fmt.Errorf("no sample is one a net of hands %d applies to", *hands)
	}
	w := base
	if *hands > 0 {
		w.PlacingNet = n
	} else {
		w.Net = n
	}
	fmt.Fprintf(stdout, "with the net: held out %.5f, train %.5f\n", tune.Loss(hold, &w, tune.FitK), tune.Loss(train, &w, tune.FitK))
	if *out == "" {
		return nil
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := n.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func cmdNetSamples(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("net-samples", "", `Makes a sample file for fit-net: the positions where both sides slide
(plies 18 to 47) of -games games of nine men's morris between levels 7 and 8
from random openings, each scored by a search of -movetime on two threads.
Positions that the files of -skip have already are left out, so that the files
can be joined.`, stderr)
	games := fs.Int("games", 500, "games played for the positions")
	seed := fs.Uint64("seed", 11, "the seed of the games")
	movetime := fs.Duration("movetime", 300*time.Millisecond, "the search time that scores each sample")
	skip := fs.String("skip", "internal/engine/tune/testdata/moving-samples.tsv", "sample files (comma-separated) whose positions are left out; empty for none")
	out := fs.String("o", "", "the sample file written (required)")
	if err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := need(fs, "o"); err != nil {
		return err
	}
	var have []tune.Sample
	if *skip != "" {
		var err error
		if have, err = readSamples(splitList(*skip)...); err != nil {
			return err
		}
	}
	r := mill.MustRules("nine-mens-morris")
	start := time.Now()
	ps := tune.NetPositions(ctx, r, *games, *seed, have)
	fmt.Fprintf(stderr, "%d positions from %d games in %v\n", len(ps), *games, time.Since(start).Round(time.Second))
	start = time.Now()
	samples := tune.Label(ctx, ps, nil, *movetime, 2)
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d samples scored at %v each in %v\n", len(samples), *movetime, time.Since(start).Round(time.Second))
	return writeSamples(*out, samples)
}
