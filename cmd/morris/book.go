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
	const synopsis = "-plies N [-deeper K -margin CP] [-movetime MS | -depth D] -out FILE [-variant V] [-count]\n" +
		"       morris book -show [position flags] [-book FILE]"
	fs := newFlags("book", synopsis, stderr)
	var pf positionFlags
	pf.register(fs)
	plies := fs.Int("plies", 0, "every position reached in at most this many plies (required to build)")
	deeper := fs.Int("deeper", 0, "then this many plies more along the moves within -margin of the best")
	margin := fs.Int("margin", 0, "with -deeper: the moves within this many hundredths of a piece of the best")
	movetime := fs.Int("movetime", 0, "analyse each position this many milliseconds (the default is 1000 without -depth)")
	depth := fs.Int("depth", 0, "analyse each position to this depth (reproducible, whatever the machine's load)")
	hash := fs.Int("hash", 64, "transposition table size in MiB (cleared for each position)")
	out := fs.String("out", "", "the book file to build, or to go on building (required to build)")
	count := fs.Bool("count", false, "only print how many positions each ply of -plies has")
	quiet := fs.Bool("q", false, "no progress on standard error")
	show := fs.Bool("show", false, "print the book's moves for the position of the position flags")
	file := fs.String("book", "", "with -show: the book file to read (default: the book built into the program)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *show {
		for _, name := range []string{"plies", "deeper", "margin", "movetime", "depth", "hash", "out", "count", "q"} {
			if set[name] {
				return badInput("-%s is for building a book, not for -show", name)
			}
		}
		return showBook(&pf, *file, stdout)
	}
	for _, name := range []string{"position", "moves", "seed", "book"} {
		if set[name] {
			return badInput("-%s is for -show", name)
		}
	}
	switch {
	case *plies < 1 || *plies > search.MaxPly:
		return badInput("-plies %d: want 1..%d", *plies, search.MaxPly)
	case *deeper < 0 || *plies+*deeper > search.MaxPly:
		return badInput("-deeper %d: want 0..%d", *deeper, search.MaxPly-*plies)
	case *margin < 0:
		return badInput("-margin %d: want 0 or more", *margin)
	}
	if err := checkSearchFlags(*depth, *movetime, *hash); err != nil {
		return err
	}
	if *out == "" && !*count {
		return badInput("-out is required: the book file to build")
	}
	g, err := pf.game()
	if err != nil {
		return err
	}
	r := g.Rules()
	if *count {
		counts, err := book.Count(ctx, r, *plies)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: the positions at each ply, up to symmetry\n", r)
		total := 0
		for i, n := range counts {
			fmt.Fprintf(stdout, "ply %d: %d\n", i+1, n)
			total += n
		}
		fmt.Fprintf(stdout, "total: %d\n", total)
		return nil
	}

	lim := search.Limits{Depth: *depth, MoveTime: time.Duration(*movetime) * time.Millisecond}
	if lim.Depth == 0 {
		if lim.MoveTime == 0 {
			lim.MoveTime = time.Second
		}
		// A depth, even the deepest, keeps the search from answering a
		// position with one legal move at depth 1.
		lim.Depth = search.MaxPly
	}
	made := fmt.Sprintf("morris book -variant %s -plies %d -deeper %d -margin %d", r, *plies, *deeper, *margin)
	if *depth > 0 {
		made += fmt.Sprintf(" -depth %d", *depth)
	} else {
		made += fmt.Sprintf(" -movetime %d", lim.MoveTime.Milliseconds())
	}
	made += fmt.Sprintf(" -hash %d", *hash)

	f, err := os.OpenFile(*out, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return usageError{err}
	}
	defer f.Close()
	text, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	b, n, err := book.Resume(bytes.NewReader(text))
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", *out, err)}
	}
	// Cut a line half written by an interrupted run, and go on after the
	// last whole one.
	if err := f.Truncate(n); err != nil {
		return err
	}
	if _, err := f.Seek(n, io.SeekStart); err != nil {
		return err
	}
	before := b.Len()
	// The comments say which commands made the book: each one once.
	var header string
	if n == 0 {
		header = "# An opening book of Morris, by the engine's own analysis: a position a line, up to symmetry:\n" +
			"# its position text (7 fields), its score for the side to move (hundredths of a piece), the search depth.\n"
	}
	if made = "# Made by: " + made + "\n"; !bytes.Contains(text[:n], []byte(made)) {
		header += made
	}
	if _, err := io.WriteString(f, header); err != nil {
		return err
	}

	var progress io.Writer = stderr
	if *quiet {
		progress = nil
	}
	e := search.New(search.Options{HashMB: *hash, Threads: 1})
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
	o := book.BuildOptions{Plies: *plies, Deeper: *deeper, Margin: *margin}
	err = b.Build(ctx, r, o, analyze, f, progress)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: %d positions in %s (%d new); the same command goes on from there", b.Len(), *out, b.Len()-before)
	}
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d positions (%d new)\n", *out, b.Len(), b.Len()-before)
	return nil
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
