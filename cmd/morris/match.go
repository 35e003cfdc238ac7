package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/engine/match"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

const matchSynopsis = `-a SPEC -b SPEC [-variant V] [-rules LIST] [-games N] [-openings N | -openings-file F]
       [-opening-plies K] [-movetime MS | -depth D] [-concurrency N] [-max-plies N] [-records FILE [-resume]]
       [-adjudicate DIR] [-drawn-openings DIR] [-seed N] [-sprt ELO0,ELO1 [-alpha A] [-beta B]]

Plays N pairs of games between A and B, each opening once with A as white and
once as black, and prints A's result: wins, draws, losses, score, and the Elo
difference with its 95% margin. A player that plays an illegal move, crashes or
times out loses that game; a game longer than -max-plies is drawn.

With -sprt the match is a sequential test of H0 (A is ELO0 better than B)
against H1 (A is ELO1 better), on the pairs' scores: it stops as soon as one is
accepted, with error rates -alpha (H1 accepted when H0 holds) and -beta, and
-games is the most pairs it plays. See docs/strength.md, "Tuning with SPRT".

The records are written game by game, in the order of the games. A match
that was stopped (interrupted, killed, the machine restarted) goes on with
-resume and the same flags: the games in -records FILE are checked against
the match (players, rules, openings) and counted, and only the games it
lacks are played and added to the file.

With -adjudicate DIR a game ends as soon as the endgame databases in DIR
prove its position won or lost. With -drawn-openings DIR the random openings
are only those the databases in DIR call drawn (the others are drawn again),
so that no pair is decided by its opening: after 4 random placements of nine
men's morris, about one opening in eight is already won for white.

Player specs:
  ` + match.SpecSyntax + `

Flags:`

func cmdMatch(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("match", matchSynopsis, stderr)
	a := fs.String("a", "", "player A (required)")
	b := fs.String("b", "", "player B (required)")
	variant := fs.String("variant", "", "preset, optionally with overrides (default nine-mens-morris)")
	rules := fs.String("rules", "", "rule overrides, comma-separated name=value")
	pairs := fs.Int("games", 10, "pairs of games (each opening with the colours swapped); with -sprt, the most to play")
	nOpenings := fs.Int("openings", 0, "random openings to play (default: one per pair); pairs cycle through them")
	openingsFile := fs.String("openings-file", "", "read the openings from a file, one a line: moves, or a position text then moves")
	openingPlies := fs.Int("opening-plies", 4, "random moves in each random opening")
	movetime := fs.Int("movetime", 0, "milliseconds per move for players without their own limits")
	depth := fs.Int("depth", 0, "search depth for players without their own limits")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	maxPlies := fs.Int("max-plies", 1000, "a game not over after this many plies is drawn (adjudicated)")
	records := fs.String("records", "", "write the game records to this file")
	resume := fs.Bool("resume", false, "go on with the match whose first games -records FILE holds (run with the same flags): count them and play the rest")
	seed := fs.Uint64("seed", 1, "seed of the openings and the players' random choices")
	quiet := fs.Bool("q", false, "print no progress")
	adjudicate := fs.String("adjudicate", "", "end a game as soon as the endgame databases in this directory prove it won or lost (before the no-progress draw); drawn positions are played on")
	drawnOpenings := fs.String("drawn-openings", "", "keep only the random openings that the endgame databases in this directory call drawn, so that no game is decided before it starts")
	sprtBounds := fs.String("sprt", "", "stop at a verdict of the sequential test of Elo ELO0 against ELO1 (e.g. 0,10)")
	alpha := fs.Float64("alpha", 0.05, "with -sprt, the chance of accepting ELO1 when ELO0 holds")
	beta := fs.Float64("beta", 0.05, "with -sprt, the chance of accepting ELO0 when ELO1 holds")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	sprt, err := sprtFlags(fs, *sprtBounds, *alpha, *beta)
	if err != nil {
		return err
	}
	switch {
	case *a == "" || *b == "":
		return badInput("want both players: -a SPEC -b SPEC")
	case *pairs < 1:
		return badInput("-games %d: want at least 1 pair", *pairs)
	case *movetime < 0 || *depth < 0 || *concurrency < 1 || *maxPlies < 1 || *openingPlies < 0 || *nOpenings < 0:
		return badInput("-movetime, -depth, -openings, -opening-plies: want 0 or more; -concurrency, -max-plies: 1 or more")
	case *nOpenings > 0 && *openingsFile != "":
		return badInput("give -openings or -openings-file, not both")
	case *resume && *records == "":
		return badInput("-resume goes on with the games of -records FILE: give the file")
	case *drawnOpenings != "" && *openingsFile != "":
		return badInput("-drawn-openings chooses among random openings, not those of -openings-file")
	}
	pf := positionFlags{variant: *variant, rules: *rules}
	g, err := pf.game()
	if err != nil {
		return err
	}
	r := g.Rules()
	def := match.Limits{Depth: *depth, MoveTime: time.Duration(*movetime) * time.Millisecond}
	specA, err := match.ParseSpec(*a, def)
	if err != nil {
		return usageError{err}
	}
	specB, err := match.ParseSpec(*b, def)
	if err != nil {
		return usageError{err}
	}
	for _, s := range []match.Spec{specA, specB} {
		if s.Check != nil {
			if err := s.Check(r); err != nil {
				return usageError{err}
			}
		}
	}
	if specA.Name == specB.Name {
		specA.Name += " (A)"
		specB.Name += " (B)"
	}

	// openDB opens the databases of a flag. They are shared with the players
	// that read the same directory. The games wait for the checks of the
	// files, so that every game is judged by the whole set (once a
	// directory: both flags may name the same).
	checked := map[string]bool{}
	openDB := func(flag, dir string) (*egdb.DB, error) {
		db, err := match.OpenTablebases(dir)
		if err != nil {
			return nil, usageError{err}
		}
		if !db.Covers(r) {
			return nil, badInput("-%s %s: the databases are of %s, not of %s", flag, dir, db.Rules(), r)
		}
		if !*quiet && !checked[dir] {
			fmt.Fprintf(stderr, "checking the files of %s\n", dir)
		}
		checked[dir] = true
		if err := db.Wait(); err != nil {
			return nil, fmt.Errorf("-%s %s: %w", flag, dir, err)
		}
		return db, nil
	}
	var adj match.Adjudicator
	if *adjudicate != "" {
		db, err := openDB("adjudicate", *adjudicate)
		if err != nil {
			return err
		}
		adj = func(p mill.Position) (mill.Outcome, string, bool) {
			o, v, ok := db.Verdict(p)
			if !ok {
				return mill.NoOutcome, "", false
			}
			return o, fmt.Sprintf("the databases: %s for %s at ply %d", v, p.SideToMove(), p.Ply()), true
		}
	}

	var openings []match.Opening
	if *openingsFile != "" {
		f, err := os.Open(*openingsFile)
		if err != nil {
			return usageError{err}
		}
		openings, err = match.ReadOpenings(r, f, *seed)
		f.Close()
		if err != nil {
			return badInput("%s: %v", *openingsFile, err)
		}
	} else {
		n := *nOpenings
		if n == 0 {
			n = *pairs
		}
		rng := rand.New(rand.NewPCG(*seed, 0x6f70656e))
		if *drawnOpenings == "" {
			openings = match.RandomOpenings(r, n, *openingPlies, rng)
		} else {
			db, err := openDB("drawn-openings", *drawnOpenings)
			if err != nil {
				return err
			}
			// A position the databases do not hold is refused too: it is
			// not known to be drawn.
			held := false
			drawn := func(p mill.Position) bool {
				v, ok := db.Probe(p)
				held = held || ok
				return ok && v.Result == egdb.Draw
			}
			var refused int
			openings, refused, err = match.RandomOpeningsWhere(r, n, *openingPlies, rng, drawn)
			switch {
			case err != nil && !held:
				return badInput("-drawn-openings: the databases of %s hold no position after %d plies (the placing phase is built by morris solve -game)", *drawnOpenings, *openingPlies)
			case err != nil:
				return badInput("-drawn-openings: %v", err)
			}
			if !*quiet {
				fmt.Fprintf(stderr, "openings: %d drawn by the databases, %d refused as won or lost\n", len(openings), refused)
			}
		}
	}

	cfg := match.Config{Rules: r, A: specA, B: specB, Openings: openings, Pairs: *pairs,
		Concurrency: *concurrency, MaxPlies: *maxPlies, Seed: *seed, SPRT: sprt, Adjudicate: adj}
	event := fmt.Sprintf("morris match: %s vs %s", specA.Name, specB.Name)
	sep := "" // what the file needs before a record is added to it
	if *resume {
		cfg.Played, sep, err = resumeRecords(*records, cfg, event)
		if err != nil {
			return err
		}
		if !*quiet {
			var t match.Tally
			for _, g := range cfg.Played {
				t.Add(g)
			}
			fmt.Fprintf(stderr, "resuming after %d of %d games (%s): A %+d =%d -%d\n",
				len(cfg.Played), 2**pairs, *records, t.Wins, t.Draws, t.Losses)
		}
	}
	var w *record.Writer
	if *records != "" {
		flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if *resume {
			flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := os.OpenFile(*records, flags, 0o644)
		if err != nil {
			return usageError{err}
		}
		defer f.Close()
		w = record.NewWriter(&separated{w: f, sep: sep})
		defer w.Flush()
	}
	var writeErr error
	start := time.Now()
	progress := func(gm *match.Game, t match.Tally) {
		if w != nil && writeErr == nil {
			// Each game reaches the file as it ends, so that a match
			// stopped at any moment can be resumed from it.
			writeErr = w.Write(gm.Record(event))
			if writeErr == nil {
				writeErr = w.Flush()
			}
		}
		if *quiet {
			return
		}
		mg := gm.Game
		how := mg.Method().String()
		switch {
		case gm.Adjudicated:
			how = "the ply limit"
		case gm.Verdict != "":
			how = gm.Verdict
		case gm.Fault != "":
			how = gm.Fault
		case gm.Claim != "":
			how = "a claimed draw: " + gm.Claim
		}
		test := ""
		if sprt != nil {
			lower, upper := sprt.Bounds()
			test = fmt.Sprintf("; LLR %.2f [%.2f, %.2f]", sprt.LLR(), lower, upper)
		}
		// What is left, at the pace of this run's games so far.
		eta := ""
		if done, left := gm.Index+1-len(cfg.Played), 2**pairs-gm.Index-1; done > 0 && left > 0 {
			eta = fmt.Sprintf("; about %v left", (time.Since(start) * time.Duration(left) / time.Duration(done)).Round(time.Second))
		}
		fmt.Fprintf(stderr, "game %d/%d: %s - %s %s by %s, %d plies; A %+d =%d -%d (%.1f%%)%s%s\n",
			gm.Index+1, 2**pairs, gm.Names[0], gm.Names[1], mg.Outcome(), how, mg.Position().Ply(),
			t.Wins, t.Draws, t.Losses, 100*t.Score(), test, eta)
	}

	cfg.Progress = progress
	res, runErr := match.Run(ctx, cfg)
	if runErr != nil && res.Tally.Games() == 0 {
		return runErr
	}
	t := res.Tally
	if !*quiet {
		fmt.Fprintf(stderr, "%d games in %v\n", t.Games(), time.Since(start).Round(time.Second))
	}
	if runErr != nil {
		fmt.Fprintf(stdout, "interrupted after %d of %d games\n", t.Games(), 2**pairs)
	}
	fmt.Fprintf(stdout, "%s vs %s: %v\n", specA.Name, specB.Name, t)
	if sprt != nil {
		p := sprt.Pairs()
		fmt.Fprintf(stdout, "%v after %d games\npairs scoring 0, 0.5, 1, 1.5, 2: %d %d %d %d %d\n",
			sprt, sprt.Games(), p[0], p[1], p[2], p[3], p[4])
	}
	if t.Faults[0]+t.Faults[1] > 0 {
		fmt.Fprintf(stdout, "games lost by an illegal move, a crash or a time-out: %d by %s, %d by %s\n",
			t.Faults[0], specA.Name, t.Faults[1], specB.Name)
		for _, gm := range res.Games {
			if gm.Fault != "" {
				fmt.Fprintf(stdout, "  game %d: %s\n", gm.Index+1, gm.Fault)
			}
		}
	}
	if t.Claimed > 0 {
		// Scored as draws: a loss would count a disagreement on the
		// rules (Sanmill's no-progress count) as a win.
		fmt.Fprintf(stdout, "claimed draws (no move where our rules play on), scored as draws: %d\n", t.Claimed)
		for _, gm := range res.Games {
			if gm.Claim != "" {
				fmt.Fprintf(stdout, "  game %d: %s\n", gm.Index+1, gm.Claim)
			}
		}
	}
	if t.Adjudicated > 0 {
		fmt.Fprintf(stdout, "games drawn at the ply limit of %d: %d\n", *maxPlies, t.Adjudicated)
	}
	if t.Verdicts > 0 {
		fmt.Fprintf(stdout, "games ended by the databases' verdict: %d\n", t.Verdicts)
	}
	if writeErr != nil {
		return fmt.Errorf("writing the records: %w", writeErr)
	}
	if w != nil {
		if err := w.Flush(); err != nil {
			return fmt.Errorf("writing the records: %w", err)
		}
	}
	if errors.Is(runErr, context.Canceled) {
		return errors.New("interrupted")
	}
	return runErr
}

// sprtFlags reads -sprt ELO0,ELO1 with -alpha and -beta: nil without -sprt.
func sprtFlags(fs *flag.FlagSet, bounds string, alpha, beta float64) (*match.SPRT, error) {
	if bounds == "" {
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "alpha" || f.Name == "beta" })
		if set {
			return nil, badInput("-alpha and -beta are for -sprt")
		}
		return nil, nil
	}
	text0, text1, ok := strings.Cut(bounds, ",")
	elo0, err0 := strconv.ParseFloat(strings.TrimSpace(text0), 64)
	elo1, err1 := strconv.ParseFloat(strings.TrimSpace(text1), 64)
	if !ok || err0 != nil || err1 != nil {
		return nil, badInput("-sprt %s: want two Elo differences, ELO0,ELO1 (e.g. 0,10)", bounds)
	}
	sprt, err := match.NewSPRT(elo0, elo1, alpha, beta)
	if err != nil {
		return nil, usageError{err}
	}
	return sprt, nil
}

// resumeRecords reads the games of an earlier run of the match cfg from the
// records file path (none if there is no such file yet), and returns what
// must come before a record added to the file (the end of the line and the
// blank line between records that the file lacks). A file that does not
// read to its end, or whose games are not this match's, is an error, and
// the file is left as it is.
func resumeRecords(path string, cfg match.Config, event string) (games []*match.Game, sep string, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", usageError{err}
	}
	var recs []*record.Record
	sc := record.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		recs = append(recs, sc.Record())
	}
	if err := sc.Err(); err != nil {
		return nil, "", badInput("-resume: %s: the records after game %d do not read (%v); a run stopped while writing one leaves it cut short: remove it and resume again", path, len(recs), err)
	}
	played, err := match.Resume(cfg, event, recs)
	if err != nil {
		return nil, "", badInput("-resume: %s: %v", path, err)
	}
	if len(played) > 0 {
		trimmed := bytes.TrimRight(data, "\n")
		sep = "\n\n"[:2-min(2, len(data)-len(trimmed))]
	}
	return played, sep, nil
}

// separated writes sep before the first bytes written through it: the
// blank line between the records of a file and those added to it.
type separated struct {
	w   io.Writer
	sep string
}

func (s *separated) Write(p []byte) (int, error) {
	if s.sep != "" && len(p) > 0 {
		if _, err := io.WriteString(s.w, s.sep); err != nil {
			return 0, err
		}
		s.sep = ""
	}
	return s.w.Write(p)
}
