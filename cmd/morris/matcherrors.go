package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/morrisgame/morris/internal/engine/match"
)

// cmdMatchErrors counts the errors against the endgame databases of the
// whole game in the game records of matches (match.Errors): per player and
// phase, the moves judged, the errors and the errors per 1,000 moves.
func cmdMatchErrors(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	const synopsis = "-tablebases DIR [-v] FILE... (\"-\" reads standard input)"
	fs := newFlags("match-errors", synopsis, stderr)
	dir := fs.String("tablebases", "", "the endgame databases of the whole game (morris solve -game -dir DIR, or their compact file: morris solve -compact FILE)")
	verbose := fs.Bool("v", false, "list every error: game, ply, player, move, what it threw away")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	switch {
	case *dir == "":
		return badInput("-tablebases DIR: the databases to judge the moves by")
	case fs.NArg() == 0:
		return badInput("give the record files (\"-\" reads standard input)")
	}
	db, err := match.OpenTruth(*dir, false)
	if err != nil {
		return usageError{err}
	}
	var all match.ErrorTally
	for _, name := range fs.Args() {
		t, err := matchErrorsOf(name, stdin, db)
		if err != nil {
			return err
		}
		if *verbose {
			for _, e := range t.List {
				fmt.Fprintf(stdout, "%s: %s\n", name, e)
			}
		}
		all.Merge(t)
	}
	return writeErrorTally(stdout, all)
}

// matchErrorsOf judges the moves of the records of the file name ("-":
// stdin) by db.
func matchErrorsOf(name string, stdin io.Reader, db match.Truth) (match.ErrorTally, error) {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return match.ErrorTally{}, usageError{err}
		}
		defer f.Close()
		in = f
	}
	t, err := match.Errors(in, db)
	if err != nil {
		return t, badInput("%s: %v", name, err)
	}
	return t, nil
}

// writeErrorTally prints the errors of all, by player and phase, as a
// table.
func writeErrorTally(stdout io.Writer, all match.ErrorTally) error {
	fmt.Fprintf(stdout, "%d game(s); an error turns a draw into a loss, or a win into a draw or a loss (the databases' values, no-progress counter ignored)\n", all.Games)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\tphase\tmoves\terrors\tper 1000\tnot judged\t")
	row := func(name, phase string, c match.ErrorCount) {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f\t%d\t\n", name, phase, c.Moves, c.Errors, c.PerThousand(), c.Uncovered)
	}
	for _, p := range append(all.Players, all.Total()) {
		for _, ph := range match.Phases {
			row(p.Name, ph.String(), p.Phases[ph])
		}
		row(p.Name, "all", p.Total())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if all.Opening > 0 {
		fmt.Fprintf(stdout, "%d move(s) of the openings not counted: drawn at random, they are no player's\n", all.Opening)
	}
	if n := all.Total().Total().Uncovered; n > 0 {
		fmt.Fprintf(stdout, "%d move(s) not judged: the databases do not hold their positions (or one after a move); they are not counted as moves or errors\n", n)
	}
	return nil
}
