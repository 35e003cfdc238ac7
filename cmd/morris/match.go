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
       [-adjudicate DIR] [-drawn-openings DIR] [-balanced-openings CP [-balance-depth D]] [-seed N] [-sprt ELO0,ELO1 [-alpha A] [-beta B]]

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
men's morris, about one opening in eight is already won for white. Either
flag, and perfect:, also takes the databases' compact file (morris solve
-compact FILE; -adjudicate and perfect: with its distances). Where no
such databases exist, -balanced-openings MARGIN keeps the random openings
whose score by a search of the engine (-balance-depth plies, one thread, a
cleared table: the same openings on every machine) is within MARGIN
hundredths of a piece of the start position's.

Player specs:
  ` + match.SpecSyntax + `

Flags:`

func cmdMatch(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	c, err := parseMatchFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	return c.run(ctx, stdout, stderr)
}

// matchConfig is what match's flags say. validate checks them and
// resolves what they name: the rules, the players, the sequential test.
type matchConfig struct {
	a, b                      string // the players' specs
	variant, rules            string
	pairs                     int // pairs of games; with -sprt, the most
	nOpenings, openingPlies   int
	openingsFile              string
	movetime, depth           int // the players' limits, unless their specs set them
	concurrency, maxPlies     int
	records                   string
	resume, quiet             bool
	seed                      uint64
	adjudicate, drawnOpenings string // directories of endgame databases
	balanced, balanceDepth    int    // -balanced-openings MARGIN, -balance-depth D
	sprtBounds                string
	alpha, beta               float64
	set                       map[string]bool // the flags given

	// Set by validate.
	r            *mill.Rules
	specA, specB match.Spec
	sprt         *match.SPRT // nil without -sprt
}

func parseMatchFlags(args []string, stderr io.Writer) (*matchConfig, error) {
	c := &matchConfig{set: map[string]bool{}}
	fs := newFlags("match", matchSynopsis, stderr)
	fs.StringVar(&c.a, "a", "", "player A (required)")
	fs.StringVar(&c.b, "b", "", "player B (required)")
	fs.StringVar(&c.variant, "variant", "", "preset, optionally with overrides (default nine-mens-morris)")
	fs.StringVar(&c.rules, "rules", "", "rule overrides, comma-separated name=value")
	fs.IntVar(&c.pairs, "games", 10, "pairs of games (each opening with the colours swapped); with -sprt, the most to play")
	fs.IntVar(&c.nOpenings, "openings", 0, "random openings to play (default: one per pair); pairs cycle through them")
	fs.StringVar(&c.openingsFile, "openings-file", "", "read the openings from a file, one a line: moves, or a position text then moves")
	fs.IntVar(&c.openingPlies, "opening-plies", 4, "random moves in each random opening")
	fs.IntVar(&c.movetime, "movetime", 0, "milliseconds per move for players without their own limits")
	fs.IntVar(&c.depth, "depth", 0, "search depth for players without their own limits")
	fs.IntVar(&c.concurrency, "concurrency", 1, "games played at once")
	fs.IntVar(&c.maxPlies, "max-plies", 1000, "a game not over after this many plies is drawn (adjudicated)")
	fs.StringVar(&c.records, "records", "", "write the game records to this file")
	fs.BoolVar(&c.resume, "resume", false, "go on with the match whose first games -records FILE holds (run with the same flags): count them and play the rest")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the openings and the players' random choices")
	fs.BoolVar(&c.quiet, "q", false, "print no progress")
	fs.StringVar(&c.adjudicate, "adjudicate", "", "end a game as soon as the endgame databases in this directory (or compact file with its distances) prove it won or lost (before the no-progress draw); drawn positions are played on")
	fs.StringVar(&c.drawnOpenings, "drawn-openings", "", "keep only the random openings that the endgame databases in this directory (or compact file) call drawn, so that no game is decided before it starts")
	fs.IntVar(&c.balanced, "balanced-openings", 0, "keep only the random openings whose score, by a search of the engine to -balance-depth plies, is within this many hundredths of a piece of the start position's (for white); 0 keeps them all")
	fs.IntVar(&c.balanceDepth, "balance-depth", 12, "with -balanced-openings, the depth of the searches that judge the openings")
	fs.StringVar(&c.sprtBounds, "sprt", "", "stop at a verdict of the sequential test of Elo ELO0 against ELO1 (e.g. 0,10)")
	fs.Float64Var(&c.alpha, "alpha", 0.05, "with -sprt, the chance of accepting ELO1 when ELO0 holds")
	fs.Float64Var(&c.beta, "beta", 0.05, "with -sprt, the chance of accepting ELO0 when ELO1 holds")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	return c, nil
}

// validate checks the flags, and resolves the rules, the players (checked
// against the rules: a perfect player's databases are opened for that)
// and the sequential test.
func (c *matchConfig) validate() error {
	sprt, err := parseSPRT(c.sprtBounds, c.alpha, c.beta, c.set["alpha"] || c.set["beta"])
	if err != nil {
		return err
	}
	switch {
	case c.a == "" || c.b == "":
		return badInput("want both players: -a SPEC -b SPEC")
	case c.pairs < 1:
		return badInput("-games %d: want at least 1 pair", c.pairs)
	case c.movetime < 0 || c.depth < 0 || c.concurrency < 1 || c.maxPlies < 1 || c.openingPlies < 0 || c.nOpenings < 0:
		return badInput("-movetime, -depth, -openings, -opening-plies: want 0 or more; -concurrency, -max-plies: 1 or more")
	case c.nOpenings > 0 && c.openingsFile != "":
		return badInput("give -openings or -openings-file, not both")
	case c.resume && c.records == "":
		return badInput("-resume goes on with the games of -records FILE: give the file")
	case c.drawnOpenings != "" && c.openingsFile != "":
		return badInput("-drawn-openings chooses among random openings, not those of -openings-file")
	case c.balanced < 0 || c.balanceDepth < 1 || c.balanceDepth > 40:
		return badInput("-balanced-openings %d, -balance-depth %d: want a margin of 0 or more and a depth of 1 to 40", c.balanced, c.balanceDepth)
	case c.balanced > 0 && c.openingsFile != "":
		return badInput("-balanced-openings chooses among random openings, not those of -openings-file")
	}
	pf := positionFlags{variant: c.variant, rules: c.rules}
	g, err := pf.game()
	if err != nil {
		return err
	}
	r := g.Rules()
	def := match.Limits{Depth: c.depth, MoveTime: time.Duration(c.movetime) * time.Millisecond}
	specA, err := match.ParseSpec(c.a, def)
	if err != nil {
		return usageError{err}
	}
	specB, err := match.ParseSpec(c.b, def)
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
	c.r, c.specA, c.specB, c.sprt = r, specA, specB, sprt
	return nil
}

// games is the most games the match plays.
func (c *matchConfig) games() int { return 2 * c.pairs }

// run plays the match that validate checked, writes its records and
// prints its result.
func (c *matchConfig) run(ctx context.Context, stdout, stderr io.Writer) error {
	dbs := &matchDatabases{rules: c.r, quiet: c.quiet, stderr: stderr, checked: map[string]bool{}}
	adj, err := c.adjudicator(dbs)
	if err != nil {
		return err
	}
	openings, err := c.openings(dbs, stderr)
	if err != nil {
		return err
	}
	cfg := match.Config{Rules: c.r, A: c.specA, B: c.specB, Openings: openings, Pairs: c.pairs,
		Concurrency: c.concurrency, MaxPlies: c.maxPlies, Seed: c.seed, SPRT: c.sprt, Adjudicate: adj}
	event := fmt.Sprintf("morris match: %s vs %s", c.specA.Name, c.specB.Name)
	sep := "" // what the file needs before a record is added to it
	if c.resume {
		cfg.Played, sep, err = resumeRecords(c.records, cfg, event)
		if err != nil {
			return err
		}
		if !c.quiet {
			var t match.Tally
			for _, g := range cfg.Played {
				t.Add(g)
			}
			fmt.Fprintf(stderr, "resuming after %d of %d games (%s): A %+d =%d -%d\n",
				len(cfg.Played), c.games(), c.records, t.Wins, t.Draws, t.Losses)
		}
	}
	w, closeRecords, err := c.openRecords(sep)
	if err != nil {
		return err
	}
	defer closeRecords()
	var writeErr error
	start := time.Now()
	cfg.Progress = func(gm *match.Game, t match.Tally) {
		if w != nil && writeErr == nil {
			// Each game reaches the file as it ends, so that a match
			// stopped at any moment can be resumed from it.
			writeErr = w.Write(gm.Record(event))
			if writeErr == nil {
				writeErr = w.Flush()
			}
		}
		if !c.quiet {
			c.progress(stderr, gm, t, len(cfg.Played), start)
		}
	}
	res, runErr := match.Run(ctx, cfg)
	if runErr != nil && res.Tally.Games() == 0 {
		return runErr
	}
	if !c.quiet {
		fmt.Fprintf(stderr, "%d games in %v\n", res.Tally.Games(), time.Since(start).Round(time.Second))
	}
	c.report(stdout, res, runErr != nil)
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

// matchDatabases opens the endgame databases of a match's flags. They are
// shared with the players that read the same directory. The games wait for
// the checks of the files, so that every game is judged by the whole set
// (once a directory: both flags may name the same).
type matchDatabases struct {
	rules   *mill.Rules
	quiet   bool
	stderr  io.Writer
	checked map[string]bool
}

// open opens the databases of flag: a directory, or a compact file
// (morris solve -compact); distances asks that a compact file has its
// distances beside it (-adjudicate: a win is
// adjudged only when it comes before the no-progress draw).
func (d *matchDatabases) open(flag, dir string, distances bool) (match.Truth, error) {
	if !d.quiet && !d.checked[dir] {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			fmt.Fprintf(d.stderr, "checking the files of %s\n", dir)
		}
	}
	d.checked[dir] = true
	db, err := match.OpenTruth(dir, distances)
	if err != nil {
		return nil, usageError{fmt.Errorf("-%s %s: %w", flag, dir, err)}
	}
	if !db.Covers(d.rules) {
		return nil, badInput("-%s %s: the databases are of %s, not of %s", flag, dir, db.Rules(), d.rules)
	}
	return db, nil
}

// adjudicator is the verdict of the databases of -adjudicate (nil without).
func (c *matchConfig) adjudicator(dbs *matchDatabases) (match.Adjudicator, error) {
	if c.adjudicate == "" {
		return nil, nil
	}
	db, err := dbs.open("adjudicate", c.adjudicate, true)
	if err != nil {
		return nil, err
	}
	return func(p mill.Position) (mill.Outcome, string, bool) {
		o, v, ok := egdb.Verdict(db, p)
		if !ok {
			return mill.NoOutcome, "", false
		}
		return o, fmt.Sprintf("the databases: %s for %s at ply %d", v, p.SideToMove(), p.Ply()), true
	}, nil
}

// openings reads the openings of -openings-file, or draws random ones
// (those the databases of -drawn-openings call drawn, with that flag).
func (c *matchConfig) openings(dbs *matchDatabases, stderr io.Writer) ([]match.Opening, error) {
	if c.openingsFile != "" {
		f, err := os.Open(c.openingsFile)
		if err != nil {
			return nil, usageError{err}
		}
		defer f.Close()
		openings, err := match.ReadOpenings(c.r, f, c.seed)
		if err != nil {
			return nil, badInput("%s: %v", c.openingsFile, err)
		}
		return openings, nil
	}
	n := c.nOpenings
	if n == 0 {
		n = c.pairs
	}
	rng := rand.New(rand.NewPCG(c.seed, 0x6f70656e))
	if c.drawnOpenings == "" && c.balanced == 0 {
		return match.RandomOpenings(c.r, n, c.openingPlies, rng), nil
	}
	var drawn func(mill.Position) bool
	held := false
	if c.drawnOpenings != "" {
		db, err := dbs.open("drawn-openings", c.drawnOpenings, false)
		if err != nil {
			return nil, err
		}
		// A position the databases do not hold is refused too: it is not
		// known to be drawn.
		drawn = func(p mill.Position) bool {
			v, ok := db.Value(p)
			held = held || ok
			return ok && v.Result == egdb.Draw
		}
	}
	var bal *match.Balance
	if c.balanced > 0 {
		bal = match.NewBalance(c.r, c.balanceDepth, c.balanced)
	}
	keep := func(p mill.Position) bool {
		if drawn != nil && !drawn(p) {
			return false
		}
		return bal == nil || bal.Keep(p)
	}
	openings, refused, err := match.RandomOpeningsWhere(c.r, n, c.openingPlies, rng, keep)
	switch {
	case err != nil && drawn != nil && !held:
		return nil, badInput("-drawn-openings: the databases of %s hold no position after %d plies (the placing phase is built by morris solve -game)", c.drawnOpenings, c.openingPlies)
	case err != nil:
		return nil, badInput("openings: %v", err)
	}
	if !c.quiet {
		switch {
		case bal != nil && drawn != nil:
			fmt.Fprintf(stderr, "openings: %d drawn by the databases and within %d of the start's score %+d at depth %d, %d refused\n", len(openings), bal.Margin, bal.Start(), bal.Depth, refused)
		case bal != nil:
			fmt.Fprintf(stderr, "openings: %d within %d of the start's score %+d for white at depth %d, %d refused\n", len(openings), bal.Margin, bal.Start(), bal.Depth, refused)
		default:
			fmt.Fprintf(stderr, "openings: %d drawn by the databases, %d refused as won or lost\n", len(openings), refused)
		}
	}
	return openings, nil
}

// openRecords opens the file of -records (nil without), truncated or, with
// -resume, to append to after sep, and returns the call that flushes and
// closes it.
func (c *matchConfig) openRecords(sep string) (*record.Writer, func(), error) {
	if c.records == "" {
		return nil, func() {}, nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if c.resume {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(c.records, flags, 0o644)
	if err != nil {
		return nil, nil, usageError{err}
	}
	w := record.NewWriter(&separated{w: f, sep: sep})
	return w, func() { w.Flush(); f.Close() }, nil
}

// progress prints a line on the game gm that has just ended, the tally t
// after it: how it ended, the score, the test's state and the time left
// at the pace of this run's games so far (played of them were played
// before a resume).
func (c *matchConfig) progress(stderr io.Writer, gm *match.Game, t match.Tally, played int, start time.Time) {
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
	case gm.Dispute != "":
		how = "a disputed draw: " + gm.Dispute
	}
	test := ""
	if c.sprt != nil {
		lower, upper := c.sprt.Bounds()
		test = fmt.Sprintf("; LLR %.2f [%.2f, %.2f]", c.sprt.LLR(), lower, upper)
	}
	eta := ""
	if done, left := gm.Index+1-played, c.games()-gm.Index-1; done > 0 && left > 0 {
		eta = fmt.Sprintf("; about %v left", (time.Since(start) * time.Duration(left) / time.Duration(done)).Round(time.Second))
	}
	fmt.Fprintf(stderr, "game %d/%d: %s - %s %s by %s, %d plies; A %+d =%d -%d (%.1f%%)%s%s\n",
		gm.Index+1, c.games(), gm.Names[0], gm.Names[1], mg.Outcome(), how, mg.Position().Ply(),
		t.Wins, t.Draws, t.Losses, 100*t.Score(), test, eta)
}

// report prints the result of the match: the score and Elo, the test's
// verdict, and the games lost by a fault, claimed, disputed, drawn at the
// ply limit or ended by the databases.
func (c *matchConfig) report(stdout io.Writer, res match.Result, interrupted bool) {
	t := res.Tally
	if interrupted {
		fmt.Fprintf(stdout, "interrupted after %d of %d games\n", t.Games(), c.games())
	}
	fmt.Fprintf(stdout, "%s vs %s: %v\n", c.specA.Name, c.specB.Name, t)
	if c.sprt != nil {
		p := c.sprt.Pairs()
		fmt.Fprintf(stdout, "%v after %d games\npairs scoring 0, 0.5, 1, 1.5, 2: %d %d %d %d %d\n",
			c.sprt, c.sprt.Games(), p[0], p[1], p[2], p[3], p[4])
	}
	if t.Faults[0]+t.Faults[1] > 0 {
		fmt.Fprintf(stdout, "games lost by an illegal move, a crash or a time-out: %d by %s, %d by %s\n",
			t.Faults[0], c.specA.Name, t.Faults[1], c.specB.Name)
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
	if t.Disputed > 0 {
		// Ended where the players' rules part: from there on they would
		// not play the same game.
		fmt.Fprintf(stdout, "disputed draws (ended where the players' rules part), scored as draws: %d\n", t.Disputed)
		for _, gm := range res.Games {
			if gm.Dispute != "" {
				fmt.Fprintf(stdout, "  game %d: %s\n", gm.Index+1, gm.Dispute)
			}
		}
	}
	if t.Adjudicated > 0 {
		fmt.Fprintf(stdout, "games drawn at the ply limit of %d: %d\n", c.maxPlies, t.Adjudicated)
	}
	if t.Verdicts > 0 {
		fmt.Fprintf(stdout, "games ended by the databases' verdict: %d\n", t.Verdicts)
	}
}

// parseSPRT reads -sprt ELO0,ELO1 with -alpha and -beta (errorsSet: one
// of them was given): nil without -sprt.
func parseSPRT(bounds string, alpha, beta float64, errorsSet bool) (*match.SPRT, error) {
	if bounds == "" {
		if errorsSet {
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
