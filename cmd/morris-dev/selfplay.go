package main

import (
	"context"
	"flag"
	"io"
	"strings"
	"time"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/internal/engine/tune"
	"github.com/morrisgame/morris/mill"
)

// matchFlags are the flags of the self-play experiments.
type matchFlags struct {
	variant      string
	pairs, depth int
}

func (m *matchFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.variant, "variant", "nine-mens-morris", "the rules of the games: a preset, optionally with overrides")
	fs.IntVar(&m.pairs, "pairs", tune.DefaultMatch.Pairs, "game pairs per comparison (the colours swapped)")
	fs.IntVar(&m.depth, "depth", tune.DefaultMatch.Depth, "the search depth of every move")
}

func (m *matchFlags) options() (tune.MatchOptions, error) {
	r, err := mill.ParseRules(m.variant)
	if err != nil {
		return tune.MatchOptions{}, usageError{err}
	}
	if m.pairs < 1 || m.depth < 1 {
		return tune.MatchOptions{}, badUsage("-pairs and -depth must be at least 1")
	}
	o := tune.DefaultMatch
	o.Rules, o.Pairs, o.Depth = r, m.pairs, m.depth
	return o, nil
}

func cmdTune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("tune", "", `Coordinate tuning of eval.Default()'s weights by self-play (tune.Tune): each
weight of tune.TuneSteps is moved up and then down by its step, and the move is
kept when it scores above 50% by more than half its 95% margin. Prints a row of
a Markdown table a match, the weights found, and a match of twice the pairs
against eval.Default(). Hours at the defaults.`, stderr)
	var m matchFlags
	m.register(fs)
	passes := fs.Int("passes", 1, "passes over the weights")
	seed := fs.Uint64("seed", 0, "the seed of the first match's openings, the next match's the next (0: from the clock)")
	if err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	o, err := m.options()
	if err != nil {
		return err
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	tune.Tune(ctx, eval.Default(), tune.TuneSteps, *passes, o, *seed, stdout)
	return ctx.Err()
}

func cmdAblate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("ablate", "", `eval.Default() against itself with each feature group switched off
(tune.Ablations): how much each is worth, in Elo. Prints a Markdown table.`, stderr)
	var m matchFlags
	m.register(fs)
	if err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	o, err := m.options()
	if err != nil {
		return err
	}
	tune.Ablate(ctx, eval.Default(), tune.Ablations, o, stdout)
	return ctx.Err()
}

func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("compare", "EDIT...", `Candidate weights, each given as JSON edits of eval.Default(), against
it: the quick filter before a timed match (morris match -sprt).
An argument may hold several edits separated by ";". Prints a Markdown table.
For example: morris-dev compare -pairs 400 -depth 6 '{"Taper":true}'`, stderr)
	var m matchFlags
	m.register(fs)
	if err := parse(fs, args, 1, -1); err != nil {
		return err
	}
	o, err := m.options()
	if err != nil {
		return err
	}
	var edits []string
	for _, a := range fs.Args() {
		edits = append(edits, strings.Split(a, ";")...)
	}
	if err := tune.Compare(ctx, eval.Default(), edits, o, stdout); err != nil {
		return usageError{err}
	}
	return ctx.Err()
}
