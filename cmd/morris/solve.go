package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

func cmdSolve(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	c, err := parseSolveFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	return c.run(ctx, stdout, stderr)
}

// solveConfig is what solve's flags say. validate checks them and
// resolves the rules and the sectors asked for.
type solveConfig struct {
	variant, rules string
	dir            string
	maxPieces      int    // every sector of the moving phase with at most this many pieces
	sectors        string // or these sectors
	whole          bool   // or the whole game
	threads        int
	verify, quiet  bool
	every          time.Duration // between checkpoints; 0: never
	residentGB     float64
	cpuProfile     string
	compact        string // write the values as a compact file here after the build
	placed         int    // with compact: only the placing phase's sectors with at most this many pieces placed; -1: every sector
	distances      bool   // with compact: write the distances beside it too
	wdlPlacing     bool   // keep the placing phase's sectors as W/D/L alone
	checkEvery     int64  // after the build, check one index in this many of every sector by the rules (0: none)
	prove          bool   // with -game: prove the start's value and the first placements' from the moving phase

	// Set by validate.
	r    *mill.Rules
	keys []egdb.Key
}

func parseSolveFlags(args []string, stderr io.Writer) (*solveConfig, error) {
	c := &solveConfig{}
	fs := newFlags("solve", "-variant V -dir DIR [-max N | -sectors 3v3,4v3,... | -game] [-threads N] [-verify]", stderr)
	fs.StringVar(&c.variant, "variant", "nine-mens-morris", "preset, optionally with overrides: nine-mens-morris,protection=always")
	fs.StringVar(&c.rules, "rules", "", "rule overrides, comma-separated name=value")
	fs.StringVar(&c.dir, "dir", "", "directory of the database files (required); a summary goes to DIR/summary.txt")
	fs.IntVar(&c.maxPieces, "max", 10, "build every sector of the moving phase with at most this many pieces on the board")
	fs.StringVar(&c.sectors, "sectors", "", "build these sectors (and what they depend on) instead: 3v3,4v3 (side to move first), 8v8h1-1 (and pieces in hand)")
	fs.BoolVar(&c.whole, "game", false, "build the whole game: every sector reachable from the start, the placing phase and the moving phase (the start's value is sector 0v0hN-N)")
	fs.BoolVar(&c.wdlPlacing, "wdl-placing", false, "with -game or placing sectors: keep the placing phase's sectors as win/draw/loss alone, 2 bits a position instead of 2 bytes and no distances (the placing phase of twelve men's morris fits a disk only so; docs/egdb.md)")
	fs.BoolVar(&c.prove, "prove", false, "with -game: prove the values of the start, of each first placement and of each pair of placements (up to symmetry) from the moving phase's values alone, by the strategies they imply and the rules engine's own moves (docs/solved.md)")
	fs.Int64Var(&c.checkEvery, "check-by-rules", 0, "after the build, check one position in N of every sector against the moves of the rules engine (mill) and the values of the positions after them, independently of the solver's own moves (1: every position)")
	fs.IntVar(&c.threads, "threads", runtime.GOMAXPROCS(0), "goroutines")
	fs.BoolVar(&c.verify, "verify", false, "after solving, re-derive every value from its children (also for sectors already built)")
	fs.BoolVar(&c.quiet, "q", false, "no progress bar")
	fs.StringVar(&c.compact, "compact", "", "after the build, write every sector's win/draw/loss as one compact file FILE (resumed from FILE.parts after a stop; docs/egdb.md)")
	fs.BoolVar(&c.distances, "distances", false, "with -compact FILE: also write the plies to the end of every won and lost position, as FILE's name with .dist for .wdl, which every -tablebases FILE then reads (resumed from its .parts after a stop; docs/egdb.md, \"The distances\")")
	fs.IntVar(&c.placed, "placed", -1, "with -compact: write only the sectors of the placing phase with at most N pieces placed, both sides together (the positions of the first N plies: an opening file)")
	fs.DurationVar(&c.every, "checkpoint-every", 10*time.Minute, "keep the state of the group being solved in DIR/.NAMES.ckpt at most this often, so that a build killed in the middle of a group goes on from there (0: never)")
	fs.Float64Var(&c.residentGB, "resident", 6, "copy the sectors the group being solved reads into memory, up to this many GB in all (reads from memory are faster than through the files' maps; 0: none)")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the build to this file (go tool pprof)")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	return c, nil
}

// validate checks the flags and resolves the rules and the sectors to
// build.
func (c *solveConfig) validate() error {
	switch {
	case c.dir == "":
		return badInput("-dir is required")
	case c.every < 0:
		return badInput("-checkpoint-every %v: want 0 (never) or more", c.every)
	case c.residentGB < 0 || math.IsNaN(c.residentGB) || c.residentGB > 1<<20:
		return badInput("-resident %v: want a number of GB, 0 or more", c.residentGB)
	case c.threads < 1:
		return badInput("-threads %d: want at least 1", c.threads)
	case c.placed < -1:
		return badInput("-placed %d: want a number of pieces placed, 0 or more", c.placed)
	case c.placed >= 0 && c.compact == "":
		return badInput("-placed is for -compact: it says which sectors the compact file holds")
	case c.distances && c.compact == "":
		return badInput("-distances is for -compact: they are written beside the compact file")
	case c.prove && !c.whole:
		return badInput("-prove is for -game: it proves the values of the start and the first placements")
	case c.checkEvery < 0:
		return badInput("-check-by-rules %d: want one position in N, N 1 or more (0: no check)", c.checkEvery)
	}
	parts := strings.Split(c.variant, ",")
	if c.rules != "" {
		parts = append(parts, strings.Split(c.rules, ",")...)
	}
	r, err := mill.NewRules(parts[0], parts[1:]...)
	if err != nil {
		return usageError{err}
	}
	if err := egdb.Supported(r); err != nil {
		return usageError{err}
	}
	var keys []egdb.Key
	switch {
	case c.whole && c.sectors != "":
		return badInput("-game and -sectors: choose one")
	case c.whole:
		if err := egdb.PlacingSupported(r); err != nil {
			return usageError{err}
		}
		keys = []egdb.Key{egdb.StartKey(r)}
	case c.sectors != "":
		for _, s := range strings.Split(c.sectors, ",") {
			k, err := egdb.ParseKey(strings.TrimSpace(s))
			if err != nil {
				return usageError{err}
			}
			keys = append(keys, k)
		}
	default:
		keys = egdb.MovingSectors(r, c.maxPieces)
		if len(keys) == 0 {
			return badInput("-max %d: no sector of %s has so few pieces", c.maxPieces, r)
		}
	}
	c.r, c.keys = r, keys
	return nil
}

// run builds the sectors (and those they depend on), prints and writes
// their counts to DIR/summary.txt, and for the whole game its values to
// DIR/game.txt.
func (c *solveConfig) run(ctx context.Context, stdout, stderr io.Writer) error {
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	bar := &progressBar{w: stderr, quiet: c.quiet}
	b := egdb.Builder{
		Rules:           c.r,
		Dir:             c.dir,
		Keys:            c.keys,
		Threads:         c.threads,
		Verify:          c.verify,
		Progress:        bar.update,
		Done:            bar.done,
		CheckpointEvery: c.every,
		Resident:        int64(c.residentGB * (1 << 30)),
		WDLPlacing:      c.wdlPlacing,
	}
	if c.every == 0 {
		b.CheckpointEvery = -1 // egdb: never
	}
	plan, err := b.Plan()
	if err != nil {
		if errors.Is(err, egdb.ErrSector) {
			return usageError{err}
		}
		return err
	}
	for _, p := range plan {
		bar.left += p.Indices
	}
	if !c.quiet {
		fmt.Fprintf(stderr, "%d sectors, %d indices, %.1f GB of files (sectors already built are checked and kept)\n",
			len(plan), bar.left, float64(2*bar.left)/1e9)
	}
	start := time.Now()
	results, err := b.Build(ctx)
	bar.clear()
	if err != nil {
		if errors.Is(err, egdb.ErrSector) {
			return usageError{err}
		}
		return err
	}
	var table bytes.Buffer
	writeSummary(&table, c.r, results, time.Since(start), c.verify)
	if _, err := stdout.Write(table.Bytes()); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(c.dir, "summary.txt"), table.Bytes(), 0o644); err != nil {
		return err
	}
	if c.checkEvery > 0 {
		if err := c.checkByRules(ctx, stdout, results); err != nil {
			return err
		}
	}
	if c.whole {
		if err := c.gameValues(stdout); err != nil {
			return err
		}
		if c.prove {
			if err := c.proveGame(ctx, stdout); err != nil {
				return err
			}
		}
	}
	if c.compact != "" {
		return c.writeCompact(stdout, stderr)
	}
	return nil
}

// proveGame proves the values of the start, of each first placement and
// of each pair of placements up to symmetry (those gameValues prints) from
// the moving phase (egdb.Prover), and says what the proofs went through.
func (c *solveConfig) proveGame(ctx context.Context, stdout io.Writer) error {
	db, err := egdb.Open(c.dir, egdb.ForRules(c.r))
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	pr := egdb.NewProver(ctx, db)
	var proved int
	for _, p := range openingPositions(c.r) {
		if _, err := pr.Prove(p); err != nil {
			return err
		}
		proved++
	}
	pf := pr.Proof()
	_, err = fmt.Fprintf(stdout, "\nproved from the moving phase, with the rules engine's moves: the start, the first placements and the pairs of placements (%d positions), each the value above; the proofs went through %d positions of the placing phase, read %d of the moving phase and %d ends, in %v\n",
		proved, pf.Positions, pf.Leaves, pf.Ends, time.Since(start).Round(time.Second))
	return err
}

// openingPositions returns the start of r, then the positions after each
// first placement and after each pair of placements, up to the board's
// symmetries (gameValues's).
func openingPositions(r *mill.Rules) []mill.Position {
	start := r.Start()
	out := []mill.Position{start}
	seen := map[string]bool{}
	add := func(p mill.Position) {
		c, _ := p.Canonical()
		if k := c.String(); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	for _, m1 := range start.Moves(nil) {
		p1 := start.Play(m1)
		add(p1)
		for _, m2 := range p1.Moves(nil) {
			add(p1.Play(m2))
		}
	}
	return out
}

// checkByRules checks one position in c.checkEvery of each sector built
// against mill's moves (egdb.CheckByRules) and says how many agreed.
func (c *solveConfig) checkByRules(ctx context.Context, stdout io.Writer, results []egdb.SectorResult) error {
	db, err := egdb.Open(c.dir, egdb.ForRules(c.r))
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	var checked int64
	for _, res := range results {
		n, err := egdb.CheckByRules(ctx, db, res.Key, c.checkEvery)
		if err != nil {
			return err
		}
		checked += n
	}
	_, err = fmt.Fprintf(stdout, "checked by the rules: %d positions (one index in %d of %d sectors), every one as its moves give it, in %v\n",
		checked, c.checkEvery, len(results), time.Since(start).Round(time.Second))
	return err
}

// writeCompact writes the sectors of DIR as the compact file c.compact,
// each sector read back and compared with its file, and says its size.
func (c *solveConfig) writeCompact(stdout, stderr io.Writer) error {
	opts := []egdb.OpenOption{egdb.ForRules(c.r)}
	if c.placed >= 0 {
		pieces := c.r.Options().Pieces
		opts = append(opts, egdb.OnlySectors(func(k egdb.Key) bool {
			return !k.Moving() && 2*pieces-k.WhiteHand-k.BlackHand <= c.placed
		}))
	}
	db, err := egdb.Open(c.dir, opts...)
	if err != nil {
		return err
	}
	defer db.Close()
	if len(db.Keys()) == 0 {
		return fmt.Errorf("-placed %d: %s holds no sector of the placing phase with so few pieces placed", c.placed, c.dir)
	}
	start := time.Now()
	var positions, resumed int64
	err = egdb.WriteCompact(db, c.compact, c.progress(stderr, "compact", &resumed, &positions))
	if err != nil {
		return err
	}
	fi, err := os.Stat(c.compact)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "compact file %s: %d sectors, %d indices, %d bytes (%.3f bits an index), every value checked, in %v (%d sectors kept from an earlier run)\n",
		c.compact, len(db.Keys()), positions, fi.Size(), float64(8*fi.Size())/float64(positions), time.Since(start).Round(time.Second), resumed)
	if err != nil || !c.distances {
		return err
	}
	return c.writeDistances(db, stdout, stderr)
}

// progress returns the progress function of a compact writer: it counts
// the sectors resumed and the indices written, and unless -q prints a
// line a sector to stderr, headed what.
func (c *solveConfig) progress(stderr io.Writer, what string, resumed, indices *int64) func(egdb.CompactProgress) {
	return func(p egdb.CompactProgress) {
		*indices += p.Indices
		if p.Resumed {
			*resumed++
		}
		if !c.quiet {
			how := fmt.Sprintf("coded in %v and checked in %v", p.Coded.Round(time.Second/10), p.Checked.Round(time.Second/10))
			if p.Resumed {
				how = "kept from the last run"
			}
			fmt.Fprintf(stderr, "%s: %d/%d %s: %d bytes, %s\n", what, p.Done, p.Sectors, p.Key, p.Bytes, how)
		}
	}
}

// writeDistances writes the distances of db's sectors beside the compact
// file, each sector read back and compared with its file, and says their
// size.
func (c *solveConfig) writeDistances(db *egdb.DB, stdout, stderr io.Writer) error {
	path := egdb.DistancesPath(c.compact)
	start := time.Now()
	var decisive, resumed int64
	var indices int64
	err := egdb.WriteDistances(db, path, c.progress(stderr, "distances", &resumed, &indices))
	if err != nil {
		return err
	}
	for _, k := range db.Keys() {
		n, _ := db.Counts(k)
		decisive += n.Wins + n.Losses
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "distances %s: %d won or lost positions, %d bytes (%.3f bits each), every one checked, in %v (%d sectors kept from an earlier run)\n",
		path, decisive, fi.Size(), float64(8*fi.Size())/float64(max(decisive, 1)), time.Since(start).Round(time.Second), resumed)
	return err
}

// gameValues prints the values of the whole game once it is built, and
// writes them to DIR/game.txt.
func (c *solveConfig) gameValues(stdout io.Writer) error {
	db, err := egdb.Open(c.dir, egdb.ForRules(c.r))
	if err != nil {
		return err
	}
	defer db.Close()
	var values bytes.Buffer
	if err := writeGameValues(&values, c.r, db); err != nil {
		return err
	}
	if _, err := stdout.Write(values.Bytes()); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(c.dir, "game.txt"), values.Bytes(), 0o644)
}

// writeGameValues prints, from the databases of the whole game of r, the
// value of the start, of each first placement and of each position after
// the first two placements, up to the symmetries of the board (a pair of
// points is shown by its smallest image).
func writeGameValues(w io.Writer, r *mill.Rules, db *egdb.DB) error {
	start := r.Start()
	v, ok := db.Value(start)
	if !ok {
		return fmt.Errorf("the start of %s is not in the databases", r)
	}
	first := start.SideToMove()
	fmt.Fprintf(w, "the whole game of %s: the start is a %s for %s, the first to move (plies to the end with best play)\n", r, v, first)
	syms := r.Board().Symmetries
	canon := func(a, b mill.Point) [2]mill.Point {
		best := [2]mill.Point{a, b}
		for _, s := range syms {
			if c := [2]mill.Point{s[a], s[b]}; c[0] < best[0] || c[0] == best[0] && c[1] < best[1] {
				best = c
			}
		}
		return best
	}
	fmt.Fprintf(w, "\nthe first placement, up to symmetry: its value for %s\n", first)
	counts := map[egdb.Result]int{}
	var pairs []string
	for _, m1 := range start.Moves(nil) {
		p1 := start.Play(m1)
		v1, ok := db.Value(p1)
		if !ok {
			return fmt.Errorf("%s is not in the databases", p1)
		}
		if c := canon(m1.To(), m1.To()); c[0] == m1.To() {
			fmt.Fprintf(w, "  %-4s %s\n", start.MoveText(m1), v1.Parent())
		}
		for _, m2 := range p1.Moves(nil) {
			if c := canon(m1.To(), m2.To()); c != [2]mill.Point{m1.To(), m2.To()} {
				continue
			}
			p2 := p1.Play(m2)
			v2, ok := db.Value(p2)
			if !ok {
				return fmt.Errorf("%s is not in the databases", p2)
			}
			counts[v2.Result]++
			pairs = append(pairs, fmt.Sprintf("  %-4s %-4s %s", start.MoveText(m1), p1.MoveText(m2), v2))
		}
	}
	fmt.Fprintf(w, "\nafter two placements, up to symmetry: %d positions, %d won, %d drawn and %d lost for %s, to move\n",
		len(pairs), counts[egdb.Win], counts[egdb.Draw], counts[egdb.Loss], first)
	for _, p := range pairs {
		fmt.Fprintln(w, p)
	}
	return nil
}

// writeSummary prints the counts of each sector as a table.
func writeSummary(w io.Writer, r *mill.Rules, results []egdb.SectorResult, took time.Duration, verified bool) {
	fmt.Fprintf(w, "endgame databases of %s: positions up to symmetry, values for the side to move\n", r)
	fmt.Fprintf(w, "%-7s %12s %12s %12s %12s %7s %7s %6s %9s %9s\n",
		"sector", "positions", "wins", "draws", "losses", "win%", "draw%", "max", "solve", "verify")
	var total egdb.Counts
	for _, res := range results {
		c := res.Counts
		total.Wins += c.Wins
		total.Draws += c.Draws
		total.Losses += c.Losses
		total.LongestWin = max(total.LongestWin, c.LongestWin)
		total.LongestLoss = max(total.LongestLoss, c.LongestLoss)
		solve := "on disk"
		if !res.Resumed {
			solve = res.Solve.Round(100 * time.Millisecond).String()
		}
		ver := "-"
		if res.Verified {
			ver = res.Verify.Round(100 * time.Millisecond).String()
		}
		longest := strconv.Itoa(max(c.LongestWin, c.LongestLoss))
		if res.WDL {
			longest = "-" // kept without distances
		}
		fmt.Fprintf(w, "%-7s %12d %12d %12d %12d %7s %7s %6s %9s %9s\n", res.Key, c.Positions(), c.Wins, c.Draws, c.Losses,
			percent(c.Wins, c.Positions()), percent(c.Draws, c.Positions()), longest, solve, ver)
	}
	fmt.Fprintf(w, "%-7s %12d %12d %12d %12d %7s %7s %6d\n", "total", total.Positions(), total.Wins, total.Draws, total.Losses,
		percent(total.Wins, total.Positions()), percent(total.Draws, total.Positions()), max(total.LongestWin, total.LongestLoss))
	// The run's time alone would read as the whole work's when the run
	// went on from sectors built or verified before: the verifying time
	// is summed from every sector (the marks keep the earlier runs'), the
	// solving time of the sectors found on disk is not known.
	state := "not verified"
	if verified {
		var verifying time.Duration
		for _, res := range results {
			verifying += res.Verify
		}
		state = fmt.Sprintf("every value verified (%v of verifying in all, earlier runs' included)", verifying.Round(time.Second))
	}
	legend := "max: the longest win or loss in plies"
	if slices.ContainsFunc(results, func(r egdb.SectorResult) bool { return r.WDL }) {
		legend += "; -: a sector kept as win/draw/loss alone"
	}
	fmt.Fprintf(w, "%d sectors, %s; this run %v (%s)\n", len(results), state, took.Round(time.Second), legend)
}

func percent(n, of int64) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", 100*float64(n)/float64(of))
}

// progressBar draws the progress of a build on one line of stderr.
type progressBar struct {
	w     io.Writer
	quiet bool
	// For the estimate of the time left: the indices of the sectors not
	// yet finished, those solved (not found on disk), and the solving time
	// of their components (both sectors of a component report the same);
	// those verified in this run and the time it took.
	left, solved, verified int64
	took, verifyTook       time.Duration
	lastSolve              time.Duration

	last     egdb.Progress
	lastTime time.Time
	rate     float64
	width    int
}

func (b *progressBar) update(p egdb.Progress) {
	if b.quiet {
		return
	}
	switch p.Phase {
	case "checkpoint", "resumed":
		// A line of its own, kept above the bar.
		b.clear()
		if p.Phase == "checkpoint" {
			fmt.Fprintf(b.w, "%s: checkpoint before level %d, written in %v\n", p.Sectors, p.Level, p.Took.Round(100*time.Millisecond))
		} else {
			fmt.Fprintf(b.w, "%s: going on from its checkpoint, at level %d\n", p.Sectors, p.Level)
		}
		return
	}
	now := time.Now()
	if p.Sectors != b.last.Sectors || p.Phase != b.last.Phase || p.Done < b.last.Done {
		b.rate = 0
	} else if dt := now.Sub(b.lastTime).Seconds(); dt > 0 {
		r := float64(p.Done-b.last.Done) / dt
		if b.rate == 0 {
			b.rate = r
		} else {
			b.rate = 0.7*b.rate + 0.3*r
		}
	}
	b.last, b.lastTime = p, now
	frac := 0.0
	if p.Total > 0 {
		frac = float64(p.Done) / float64(p.Total)
	}
	const cells = 30
	fill := min(cells, int(frac*cells))
	phase := p.Phase
	if phase == "levels" {
		phase = fmt.Sprintf("level %d", p.Level)
	}
	line := fmt.Sprintf("%-9s %-9s [%s%s] %5.1f%% %7.2fM pos/s", p.Sectors, phase,
		strings.Repeat("#", fill), strings.Repeat(".", cells-fill), 100*frac, b.rate/1e6)
	pad := max(0, b.width-len(line))
	b.width = len(line)
	fmt.Fprintf(b.w, "\r%s%s", line, strings.Repeat(" ", pad))
}

func (b *progressBar) clear() {
	if b.quiet || b.width == 0 {
		return
	}
	fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", b.width))
	b.width = 0
}

func (b *progressBar) done(res egdb.SectorResult) {
	if b.quiet {
		return
	}
	b.clear()
	how := "solved in " + res.Solve.Round(100*time.Millisecond).String()
	if res.FromCheckpoint {
		how += " (going on from a checkpoint)"
	}
	if res.Resumed {
		how = "already built"
	}
	if res.Verified {
		how += ", verified in " + res.Verify.Round(100*time.Millisecond).String()
	}
	c := res.Counts
	b.left -= res.Indices
	eta := ""
	if !res.Resumed {
		b.solved += res.Indices
		if res.Solve != b.lastSolve {
			b.took += res.Solve
			b.lastSolve = res.Solve
		}
	}
	if res.Verified && !res.VerifiedBefore {
		b.verified += res.Indices
		b.verifyTook += res.Verify
	}
	// The time left at the rates of this run: of solving, of verifying, or
	// both where this run has done both (a build with -verify).
	var left time.Duration
	var at []string
	for _, part := range []struct {
		name string
		n    int64
		took time.Duration
	}{{"solving", b.solved, b.took}, {"verifying", b.verified, b.verifyTook}} {
		if part.n > 0 && part.took > 0 {
			rate := float64(part.n) / part.took.Seconds()
			left += time.Duration(float64(b.left) / rate * float64(time.Second))
			at = append(at, fmt.Sprintf("%s at %.2fM indices/s", part.name, rate/1e6))
		}
	}
	if b.left > 0 && len(at) > 0 {
		done := max(b.solved, b.verified)
		eta = fmt.Sprintf("; %.0f%% of the indices left, about %v of %s", 100*float64(b.left)/float64(b.left+done),
			left.Round(time.Minute), strings.Join(at, " and "))
	}
	fmt.Fprintf(b.w, "%s: %s: %d positions, %d wins, %d draws, %d losses%s\n", res.Key, how, c.Positions(), c.Wins, c.Draws, c.Losses, eta)
}
