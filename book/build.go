package book

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/morrisgame/morris/mill"
)

// BuildOptions say which positions Build puts in a book.
type BuildOptions struct {
	// Plies: every position reached from the start in at most this many
	// plies, by any moves of both sides.
	Plies int
	// Deeper: then up to this many plies more, along the moves within
	// Margin of the best move of each position (the lines a player that
	// takes the best move, or one about as good, goes down).
	Deeper int
	// Margin, in the scores' unit (hundredths of a piece for the engine's).
	Margin int
}

func (o BuildOptions) check() error {
	switch {
	case o.Plies < 1:
		return fmt.Errorf("book: %d plies: want at least 1", o.Plies)
	case o.Deeper < 0:
		return fmt.Errorf("book: %d plies deeper: want 0 or more", o.Deeper)
	case o.Margin < 0:
		return fmt.Errorf("book: margin %d: want 0 or more", o.Margin)
	}
	return nil
}

// Analyzer returns the score of p for its side to move, and the depth of the
// search that gave it. It must score positions where the game is over too
// (moves that end the game are book moves like the others). Build calls it
// for one position at a time, and throws its answer away if ctx ended
// while it ran.
type Analyzer func(ctx context.Context, p mill.Position) (score, depth int)

// Build adds to b the positions that o asks for under rules r, analysing
// those b does not have yet with analyze, and writes each new entry's
// line to out (if not nil) as soon as it has it, in one Write: a book file
// written this way and cut short by an interruption is read back by Resume,
// and Build, given what Resume read, goes on where it stopped. To progress
// (if not nil) it writes how many positions each ply has, before it starts,
// and how the analysis goes.
//
// Build goes ply by ply from the start (both starts under rules whose first
// player is drawn by lot). A position is expanded when it is at most
// o.Plies-1 plies from the start, or, below that and less than
// o.Plies+o.Deeper plies from the start, when a move within o.Margin of the
// best leads to it from an expanded position. Every move of an expanded
// position leads to a position of the book, so that Choose can answer
// there. Each position is analysed once, whatever its number of symmetric
// images and of move orders that reach it.
func (b *Book) Build(ctx context.Context, r *mill.Rules, o BuildOptions, analyze Analyzer, out, progress io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	if progress == nil {
		progress = io.Discard
	}
	bd := &builder{book: b, expanded: map[string]bool{}}
	// The first o.Plies plies do not depend on the scores: count them first,
	// to say what the build will cost.
	level := bd.roots(r)
	full := [][]mill.Position{level}
	for d := 0; d < o.Plies; d++ {
		kids, err := children(ctx, level)
		if err != nil {
			return err
		}
		full = append(full, kids)
		if d+1 < o.Plies {
			level = bd.expand(kids)
		}
	}
	fmt.Fprintf(progress, "%s: the positions at each ply, up to symmetry:\n", r)
	for d := 1; d <= o.Plies; d++ {
		fmt.Fprintf(progress, "  ply %d: %d positions, %d in the book\n", d, len(full[d]), bd.known(full[d]))
	}
	if o.Deeper > 0 {
		fmt.Fprintf(progress, "  then %d plies more along the moves within %d of the best\n", o.Deeper, o.Margin)
	}

	bd.expanded = map[string]bool{}
	level = bd.expand(full[0])
	for d := 0; d < o.Plies+o.Deeper && len(level) > 0; d++ {
		var kids []mill.Position
		if d < o.Plies {
			kids = full[d+1]
		} else {
			var err error
			if kids, err = children(ctx, level); err != nil {
				return err
			}
			fmt.Fprintf(progress, "  ply %d: %d positions, %d in the book\n", d+1, len(kids), bd.known(kids))
		}
		if err := bd.analyse(ctx, d+1, kids, analyze, out, progress); err != nil {
			return err
		}
		switch {
		case d+1 == o.Plies+o.Deeper:
		case d+1 < o.Plies:
			level = bd.expand(kids)
		default:
			level = bd.expand(bd.good(level, o.Margin))
		}
	}
	return nil
}

type builder struct {
	book     *Book
	expanded map[string]bool // the keys of the positions expanded (or counted as such)
}

// roots returns the starting positions of r.
func (bd *builder) roots(r *mill.Rules) []mill.Position {
	roots := []mill.Position{r.Start()}
	if r.Options().FirstPlayer == mill.FirstLot {
		roots = append(roots, r.StartWith(mill.Black))
	}
	return bd.expand(roots)
}

// expand marks the positions of ps to be expanded and returns those that
// were not yet: a position expanded once is not again at a later ply.
func (bd *builder) expand(ps []mill.Position) []mill.Position {
	var out []mill.Position
	var buf [160]byte
	for _, p := range ps {
		k, _ := key(buf[:0], p)
		if !bd.expanded[string(k)] {
			bd.expanded[string(k)] = true
			out = append(out, p)
		}
	}
	return out
}

// known returns how many of ps the book has.
func (bd *builder) known(ps []mill.Position) int {
	n := 0
	for _, p := range ps {
		if _, _, ok := bd.book.Probe(p); ok {
			n++
		}
	}
	return n
}

// children returns the positions the moves of ps lead to: canonical
// images, each once, sorted by text.
func children(ctx context.Context, ps []mill.Position) ([]mill.Position, error) {
	seen := map[string]mill.Position{}
	var buf [160]byte
	var moves []mill.Move
	for i, p := range ps {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		moves = p.Moves(moves[:0])
		for _, m := range moves {
			k, c := key(buf[:0], p.Play(m))
			if _, ok := seen[string(k)]; !ok {
				seen[string(k)] = c
			}
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]mill.Position, len(keys))
	for i, k := range keys {
		out[i] = seen[k]
	}
	return out, nil
}

// good returns the positions the moves within margin of the best lead to,
// from the positions of ps, whose every move the book knows.
func (bd *builder) good(ps []mill.Position, margin int) []mill.Position {
	var out []mill.Position
	for _, p := range ps {
		es := bd.book.Lookup(p)
		for _, e := range es {
			if e.Score < es[0].Score-margin {
				break
			}
			c, _ := p.Play(e.Move).Canonical()
			out = append(out, c)
		}
	}
	return out // in any order: children sorts what comes of it
}

// progressEvery is how often analyse says how far it has come.
const progressEvery = time.Minute

// analyse analyses the positions of ps (of one ply) that the book does not have.
func (bd *builder) analyse(ctx context.Context, ply int, ps []mill.Position, analyze Analyzer, out, progress io.Writer) error {
	todo := 0
	for _, p := range ps {
		if _, _, ok := bd.book.Probe(p); !ok {
			todo++
		}
	}
	if todo == 0 {
		return nil
	}
	start := time.Now()
	last := start
	done := 0
	var line []byte
	for _, p := range ps {
		if _, _, ok := bd.book.Probe(p); ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		score, depth := analyze(ctx, p)
		if err := ctx.Err(); err != nil {
			return err // the analysis was cut short: not an answer
		}
		bd.book.Add(p, score, depth)
		if out != nil {
			line = appendLine(line[:0], p, score, depth)
			if _, err := out.Write(line); err != nil {
				return err
			}
		}
		done++
		if now := time.Now(); now.Sub(last) >= progressEvery {
			last = now
			el := now.Sub(start)
			left := el / time.Duration(done) * time.Duration(todo-done)
			fmt.Fprintf(progress, "  ply %d: %d of %d analysed in %v, about %v to go\n",
				ply, done, todo, el.Round(time.Second), left.Round(time.Second))
		}
	}
	fmt.Fprintf(progress, "  ply %d: %d analysed in %v\n", ply, done, time.Since(start).Round(time.Millisecond))
	return nil
}

// Count returns the number of positions, up to symmetry, at each ply from 1
// to plies that Build with o.Plies = plies would put in the book: every
// position that many plies from the start, by any moves (the first
// element is for ply 1).
func Count(ctx context.Context, r *mill.Rules, plies int) ([]int, error) {
	if plies < 1 {
		return nil, errors.New("book: want at least 1 ply")
	}
	bd := &builder{expanded: map[string]bool{}}
	level := bd.roots(r)
	var counts []int
	for d := 0; d < plies; d++ {
		kids, err := children(ctx, level)
		if err != nil {
			return nil, err
		}
		counts = append(counts, len(kids))
		level = bd.expand(kids)
	}
	return counts, nil
}
