package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/engine/tune"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// exactFlags are the flags of the commands that score samples by the
// databases of nine men's morris.
type exactFlags struct {
	dir, out string
	games    int
}

func (e *exactFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&e.dir, "db", "", "a directory of nine men's morris databases (morris solve; required)")
	fs.StringVar(&e.out, "o", "", "the sample file written (required)")
	fs.IntVar(&e.games, "games", 500, "games played for the positions")
}

// open parses args and opens the databases.
func (e *exactFlags) open(fs *flag.FlagSet, args []string) (*mill.Rules, *egdb.DB, error) {
	if err := parse(fs, args, 0, 0); err != nil {
		return nil, nil, err
	}
	if err := need(fs, "db", "o"); err != nil {
		return nil, nil, err
	}
	return openNine(e.dir)
}

// openNine opens the databases of nine men's morris in dir (morris solve).
func openNine(dir string) (*mill.Rules, *egdb.DB, error) {
	r := mill.MustRules("nine-mens-morris")
	db, err := egdb.Open(dir, egdb.ForRules(r))
	return r, db, err
}

func cmdExactSamples(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("exact-samples", "", `Plays -games games of nine men's morris as fit-moving does and scores the
positions after placing (both hands empty, no removal owed, plies 18 to 31) by
the databases of the moving phase (-db, morris solve) instead of a search:
exact samples, for fits (fit-moving -from nine, fit-joint, fit-net) that learn
what no search of the engine sees (docs/search.md, "What to try next"). The
databases take 3 hours to build; the samples can be kept.`, stderr)
	var e exactFlags
	e.register(fs)
	r, db, err := e.open(fs, args)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	ps := tune.AfterPlacingPositions(ctx, r, e.games)
	samples := tune.LabelExact(ps, db.Probe)
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d positions from %d games, %d in the databases, in %v\n", len(ps), e.games, len(samples), time.Since(start).Round(time.Second))
	return writeSamples(e.out, samples)
}

func cmdExactPlacingSamples(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("exact-placing-samples", "", `Plays -games games of nine men's morris as fit does and scores their
positions of the placing phase from ply -min-ply on exactly: a full-width
search to the end of placing that reads the databases of the moving phase
there (tune.ExactPlacing). A fit of the placing weights to them learns what is
decided when placing ends, which no search of the engine sees from the early
placements.`, stderr)
	var e exactFlags
	e.register(fs)
	minPly := fs.Int("min-ply", 10, "the first ply of the positions scored")
	nodes := fs.Int("nodes", 2000000, "the positions the search may visit for one sample (one it cannot solve is left out)")
	r, db, err := e.open(fs, args)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	ps := tune.ExactPlacingPositions(ctx, r, e.games, *minPly)
	fmt.Fprintf(stderr, "%d positions from %d games in %v\n", len(ps), e.games, time.Since(start).Round(time.Second))
	start = time.Now()
	samples := tune.LabelExactPlacing(ps, db.Probe, *nodes, 2)
	fmt.Fprintf(stdout, "%d of %d positions solved in %v\n", len(samples), len(ps), time.Since(start).Round(time.Second))
	return writeSamples(e.out, samples)
}

func cmdExactRecords(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("exact-records", "FILE...", `Finds where the games a player lost were lost: for each lost game of nine
men's morris in the records (morris match -records), the value for the player
of every position from ply 8 on (tune.ExactPlacing in the placing phase, the
databases after it) up to the first move of the player's that turned a
position not lost into a lost one, and the moves that would have kept its
value. Positions that cannot be solved within -nodes show as "?".`, stderr)
	dir := fs.String("db", "", "a directory of nine men's morris databases (morris solve; required)")
	player := fs.String("player", "morris", "the player whose lost games are traced (the White or Black tag)")
	nodes := fs.Int("nodes", 2000000, "the positions the search of the placing phase may visit for one position")
	if err := parse(fs, args, 1, -1); err != nil {
		return err
	}
	if err := need(fs, "db"); err != nil {
		return err
	}
	_, db, err := openNine(*dir)
	if err != nil {
		return err
	}
	defer db.Close()
	probe := db.Probe
	value := tune.ExactValue(probe, tune.NewExactSolver(probe, *nodes))
	for _, file := range fs.Args() {
		if err := traceLosses(file, *player, value, stdout); err != nil {
			return err
		}
	}
	return nil
}

// traceLosses writes where player lost each lost game of nine men's
// morris in the record file.
func traceLosses(file, player string, value func(mill.Position) (int, bool), stdout io.Writer) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	word := map[int]string{1: "win", 0: "draw", -1: "loss"}
	sc := record.NewScanner(f)
	for sc.Scan() {
		rec := sc.Record()
		if rec.Tag("Variant") != "nine-mens-morris" {
			continue
		}
		var us mill.Color
		switch player {
		case rec.Tag("White"):
			us = mill.White
		case rec.Tag("Black"):
			us = mill.Black
		default:
			continue
		}
		if rec.Result != mill.Won(us.Other()) {
			continue
		}
		g, err := rec.Game()
		if err != nil {
			return fmt.Errorf("%s, round %s: %v", file, rec.Tag("Round"), err)
		}
		l := tune.FindLosingMove(g, us, 8, value)
		if !l.Found {
			fmt.Fprintf(stdout, "%s round %s (%s): no losing move found (%s)\n", file, rec.Tag("Round"), us, strings.Join(l.Values, " "))
			continue
		}
		fmt.Fprintf(stdout, "%s round %s (%s): lost at ply %d by %s; kept the %s: %s\n", file, rec.Tag("Round"), us, l.Ply, l.Move, word[l.Was], strings.Join(l.Keep, " "))
		fmt.Fprintf(stdout, "  values: %s\n", strings.Join(l.Values, " "))
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	return nil
}
