package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// cmdBook builds an opening book by the engine's own analysis, appending to
// its file as it goes (an interrupted build resumes where it stopped), or
// with -show prints what a book knows of a position.
func cmdBook(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	c, err := parseBookFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	switch {
	case c.show:
		return showBook(&c.pf, c.file, stdout)
	case c.count:
		return c.runCount(ctx, stdout)
	}
	return c.build(ctx, stdout, stderr)
}

// bookConfig is what book's flags say: a book to build (or count), or,
// with show, one to read.
type bookConfig struct {
	pf                    positionFlags
	plies, deeper, margin int
	movetime, depth, hash int
	out                   string
	count, quiet          bool
	show                  bool
	file                  string          // with show: the book file ("": the built-in book)
	set                   map[string]bool // the flags given

	r *mill.Rules // set by validate, to build or count
}

func parseBookFlags(args []string, stderr io.Writer) (*bookConfig, error) {
	const synopsis = "-plies N [-deeper K -margin CP] [-movetime MS | -depth D] -out FILE [-variant V] [-count]\n" +
		"       morris book -show [position flags] [-book FILE]"
	c := &bookConfig{set: map[string]bool{}}
	fs := newFlags("book", synopsis, stderr)
	c.pf.register(fs)
	fs.IntVar(&c.plies, "plies", 0, "every position reached in at most this many plies (required to build)")
	fs.IntVar(&c.deeper, "deeper", 0, "then this many plies more along the moves within -margin of the best")
	fs.IntVar(&c.margin, "margin", 0, "with -deeper: the moves within this many hundredths of a piece of the best")
	fs.IntVar(&c.movetime, "movetime", 0, "analyse each position this many milliseconds (the default is 1000 without -depth)")
	fs.IntVar(&c.depth, "depth", 0, "analyse each position to this depth (reproducible, whatever the machine's load)")
	fs.IntVar(&c.hash, "hash", 64, "transposition table size in MiB (cleared for each position)")
	fs.StringVar(&c.out, "out", "", "the book file to build, or to go on building (required to build)")
	fs.BoolVar(&c.count, "count", false, "only print how many positions each ply of -plies has")
	fs.BoolVar(&c.quiet, "q", false, "no progress on standard error")
	fs.BoolVar(&c.show, "show", false, "print the book's moves for the position of the position flags")
	fs.StringVar(&c.file, "book", "", "with -show: the book file to read (default: the book built into the program)")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	return c, nil
}

// validate checks that the flags are those of -show or of a build, and
// for a build their values and the rules.
func (c *bookConfig) validate() error {
	if c.show {
		for _, name := range []string{"plies", "deeper", "margin", "movetime", "depth", "hash", "out", "count", "q"} {
			if c.set[name] {
				return badInput("-%s is for building a book, not for -show", name)
			}
		}
		return nil
	}
	for _, name := range []string{"position", "moves", "seed", "book"} {
		if c.set[name] {
			return badInput("-%s is for -show", name)
		}
	}
	switch {
	case c.plies < 1 || c.plies > search.MaxPly:
		return badInput("-plies %d: want 1..%d", c.plies, search.MaxPly)
	case c.deeper < 0 || c.plies+c.deeper > search.MaxPly:
		return badInput("-deeper %d: want 0..%d", c.deeper, search.MaxPly-c.plies)
	case c.margin < 0:
		return badInput("-margin %d: want 0 or more", c.margin)
	}
	if err := checkSearchFlags(c.depth, c.movetime, c.hash); err != nil {
		return err
	}
	if c.out == "" && !c.count {
		return badInput("-out is required: the book file to build")
	}
	g, err := c.pf.game()
	if err != nil {
		return err
	}
	c.r = g.Rules()
	return nil
}

// runCount prints how many positions each ply has, up to -plies.
func (c *bookConfig) runCount(ctx context.Context, stdout io.Writer) error {
	counts, err := book.Count(ctx, c.r, c.plies)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: the positions at each ply, up to symmetry\n", c.r)
	total := 0
	for i, n := range counts {
		fmt.Fprintf(stdout, "ply %d: %d\n", i+1, n)
		total += n
	}
	fmt.Fprintf(stdout, "total: %d\n", total)
	return nil
}

// limits are the search's limits for each position.
func (c *bookConfig) limits() search.Limits {
	lim := search.Limits{Depth: c.depth, MoveTime: time.Duration(c.movetime) * time.Millisecond}
	if lim.Depth == 0 {
		if lim.MoveTime == 0 {
			lim.MoveTime = time.Second
		}
		// A depth, even the deepest, keeps the search from answering a
		// position with one legal move at depth 1.
		lim.Depth = search.MaxPly
	}
	return lim
}

// madeBy is the command that makes the book, as its file's comments say.
func (c *bookConfig) madeBy(lim search.Limits) string {
	made := fmt.Sprintf("morris book -variant %s -plies %d -deeper %d -margin %d", c.r, c.plies, c.deeper, c.margin)
	if c.depth > 0 {
		made += fmt.Sprintf(" -depth %d", c.depth)
	} else {
		made += fmt.Sprintf(" -movetime %d", lim.MoveTime.Milliseconds())
	}
	return made + fmt.Sprintf(" -hash %d", c.hash)
}

// build builds the book into -out, going on from what the file holds.
func (c *bookConfig) build(ctx context.Context, stdout, stderr io.Writer) error {
	lim := c.limits()
	f, err := os.OpenFile(c.out, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return usageError{err}
	}
	defer f.Close()
	b, err := resumeBook(f, c.out, c.madeBy(lim))
	if err != nil {
		return err
	}
	before := b.Len()
	var progress io.Writer = stderr
	if c.quiet {
		progress = nil
	}
	e := search.New(search.Options{HashMB: c.hash, Threads: 1})
	analyze := func(ctx context.Context, p mill.Position) (score, depth int) {
		switch o, _ := p.Status(); o {
		case mill.NoOutcome:
		case mill.Draw:
			return 0, 0
		case mill.Won(p.SideToMove()):
			return search.Mate, 0
		default:
			return -search.Mate, 0
		}
		// A fresh table for each position: the score does not depend on
		// the positions analysed before (with -depth, the book is the same
		// on every machine).
		e.Clear()
		res := e.Search(ctx, []mill.Position{p}, lim, nil)
		return res.Score, res.Depth
	}
	o := book.BuildOptions{Plies: c.plies, Deeper: c.deeper, Margin: c.margin}
	err = b.Build(ctx, c.r, o, analyze, f, progress)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: %d positions in %s (%d new); the same command goes on from there", b.Len(), c.out, b.Len()-before)
	}
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d positions (%d new)\n", c.out, b.Len(), b.Len()-before)
	return nil
}

// resumeBook reads the book in f (named name), cuts a line half written by
// an interrupted run, and leaves f at the end of the last whole one after
// the comments a new book starts with and the command made (each command
// once).
func resumeBook(f *os.File, name, made string) (*book.Book, error) {
	text, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	b, n, err := book.Resume(bytes.NewReader(text))
	if err != nil {
		return nil, usageError{fmt.Errorf("%s: %w", name, err)}
	}
	if err := f.Truncate(n); err != nil {
		return nil, err
	}
	if _, err := f.Seek(n, io.SeekStart); err != nil {
		return nil, err
	}
	var header string
	if n == 0 {
		header = "# An opening book of Morris, by the engine's own analysis: a position a line, up to symmetry:\n" +
			"# its position text (7 fields), its score for the side to move (hundredths of a piece), the search depth.\n"
	}
	if made = "# Made by: " + made + "\n"; !bytes.Contains(text[:n], []byte(made)) {
		header += made
	}
	if _, err := io.WriteString(f, header); err != nil {
		return nil, err
	}
	return b, nil
}

// showBook prints what a book (the built-in one without a file) knows of
// the position of pf: the score of the position and of each of its moves.
func showBook(pf *positionFlags, file string, stdout io.Writer) error {
	b := book.Default()
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return usageError{err}
		}
		defer f.Close()
		if b, err = book.Parse(f); err != nil {
			return usageError{fmt.Errorf("%s: %w", file, err)}
		}
	}
	g, err := pf.game()
	if err != nil {
		return err
	}
	p := g.Position()
	fmt.Fprintf(stdout, "position: %s\n", p)
	if score, depth, ok := b.Probe(p); ok {
		fmt.Fprintf(stdout, "score:    %s for %s, the side to move (depth %d)\n", search.ScoreText(score), p.SideToMove(), depth)
	}
	entries := b.Lookup(p)
	n := p.NumMoves()
	switch {
	case len(entries) == 0:
		fmt.Fprintf(stdout, "book:     none of the %d moves\n", n)
	case len(entries) < n:
		fmt.Fprintf(stdout, "book:     %d of the %d moves (not enough to choose: the best may be missing)\n", len(entries), n)
	default:
		fmt.Fprintf(stdout, "book:     all %d moves\n", n)
	}
	for _, e := range entries {
		line := fmt.Sprintf("  %-13s %-9s depth %d", p.MoveText(e.Move), search.ScoreText(moveScore(e.Score)), e.Depth)
		fmt.Fprintln(stdout, strings.TrimRight(line, " "))
	}
	return nil
}

// moveScore is the score of a book move on the search's scale: a forced
// end, counted by the book from the position the move leads to, is a ply
// further away from the position where it is played.
func moveScore(s int) int {
	switch {
	case s > search.MateBound:
		return s - 1
	case s < -search.MateBound:
		return s + 1
	}
	return s
}
