package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/engine/tune"
	"github.com/morrisgame/morris/mill"
)

func cmdCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("calibrate", "", `The calibration of the review's marks against the truth (docs/api.md, "How
the marks were calibrated"): games between levels 3 to 7 are reviewed, and
each move's mark is compared with what the move did to the position's value in
the databases of the whole game (a win given away, a draw lost). Prints, for
each phase of the side that moved and each mark, how many moves got it and how
many of them lost value. For example, with the databases of six men's morris
(morris solve -variant six-mens-morris -game -dir DIR):

  morris-dev calibrate -db DIR`, stderr)
	dir := fs.String("db", "", "the databases of the whole game (morris solve -game; required)")
	variant := fs.String("variant", "six-mens-morris", "the rules of the games")
	games := fs.Int("games", 20, "games to play and review")
	nodes := fs.Uint64("nodes", 100000, "nodes of each search of the review")
	seed := fs.Uint64("seed", 1, "the seed of the games")
	out := fs.String("o", "", "also write each move as a line of this file (tab-separated: game, ply, phase, best score, played score, loss, mark, value before, value after)")
	if err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := need(fs, "db"); err != nil {
		return err
	}
	r, err := mill.ParseRules(*variant)
	if err != nil {
		return usageError{err}
	}
	db, err := egdb.Open(*dir, egdb.ForRules(r))
	if err != nil {
		return err
	}
	defer db.Close()
	var rows io.Writer
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprintln(f, tune.CalibrateHeader)
		rows = f
	}
	c, err := tune.Calibrate(ctx, r, db.Probe, tune.CalibrateOptions{Games: *games, Nodes: *nodes, Seed: *seed}, rows,
		func(game, plies, a, b int) {
			fmt.Fprintf(stderr, "game %d: %d plies, levels %d and %d\n", game, plies, a, b)
		})
	if err != nil {
		return err
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return err
		}
	}
	return c.WriteTable(stdout)
}
