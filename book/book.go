package book

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Book is a set of positions with their scores, each stored once for all its
// images under the symmetries of the board (mill.Position.Canonical). The
// zero Book is empty and ready to use. Lookup, Choose, Probe, Len and Write
// may be called from several goroutines at once; Add may not run alongside
// anything else.
type Book struct {
	entries map[string]stored // by key: the canonical position text without the counters
}

// stored is what the book knows of one position.
type stored struct {
	pos   mill.Position // the canonical image, with the counters of the first way it was reached
	score int           // for the side to move in pos
	depth int           // of the search that gave score
}

// Entry is a move of a position the book knows the result of.
type Entry struct {
	Move mill.Move
	// Score is the value of the move for the side that plays it: the score
	// of the position it leads to, turned to the mover's point of view. A
	// forced end of the game counts its plies from that position, one ply
	// less than from the position where the move is played.
	Score int
	Depth int // the depth of the search that gave Score
}

// key appends to dst the key of p's entry: the text of its canonical image
// without the two counters, which do not make a position different (as in
// mill.Position.Key). The rules are the text's first field, so positions of
// different rules never share a key.
func key(dst []byte, p mill.Position) ([]byte, mill.Position) {
	c, _ := p.Canonical()
	dst = c.AppendText(dst)
	i := bytes.LastIndexByte(dst, ' ')
	i = bytes.LastIndexByte(dst[:i], ' ')
	return dst[:i], c
}

// Len returns the number of positions in the book.
func (b *Book) Len() int {
	if b == nil {
		return 0
	}
	return len(b.entries)
}

// Add puts p in the book with its score for the side to move in p and the
// depth of the search that gave it, replacing what the book knew of p or of
// any of its symmetric images.
func (b *Book) Add(p mill.Position, score, depth int) {
	var buf [160]byte
	k, c := key(buf[:0], p)
	if b.entries == nil {
		b.entries = make(map[string]stored)
	}
	b.entries[string(k)] = stored{pos: c, score: score, depth: depth}
}

// Probe returns the score of p for its side to move and the depth of the
// search that gave it, if p or one of its symmetric images is in the book.
func (b *Book) Probe(p mill.Position) (score, depth int, ok bool) {
	if b.Len() == 0 || p.Rules() == nil {
		return 0, 0, false
	}
	var buf [160]byte
	k, _ := key(buf[:0], p)
	e, ok := b.entries[string(k)]
	return e.score, e.depth, ok
}

// Lookup returns the legal moves of p whose positions are in the book, best
// first (the highest Score; moves of equal score in the order of
// p.Moves). It returns nil when p has none in the book. The moves are p's own:
// the book finds the positions they lead to whatever the symmetric image
// it stores.
func (b *Book) Lookup(p mill.Position) []Entry {
	if b.Len() == 0 || p.Rules() == nil {
		return nil
	}
	var buf [160]byte
	var out []Entry
	for _, m := range p.Moves(nil) {
		c := p.Play(m)
		k, _ := key(buf[:0], c)
		e, ok := b.entries[string(k)]
		if !ok {
			continue
		}
		s := e.score
		if c.SideToMove() != p.SideToMove() {
			s = -s
		}
		out = append(out, Entry{Move: m, Score: s, Depth: e.depth})
	}
	slices.SortStableFunc(out, func(x, y Entry) int { return cmp.Compare(y.Score, x.Score) })
	return out
}

// Choose returns a book move for p, with its score for the side to move
// and the depth that gave it: one of the moves within margin of the best,
// at random (rng), so that games differ; with margin 0 one of the moves of
// the best score (several for symmetric moves), or with a nil rng the first
// of them. It answers only when the book knows every legal move of p,
// which Build makes sure of for the positions it expands: else the best
// move might be one the book does not know, and ok is false.
func (b *Book) Choose(p mill.Position, margin int, rng *rand.Rand) (e Entry, ok bool) {
	return b.ChooseFrom(p, margin, rng, nil)
}

// ChooseFrom is Choose among the moves keep allows (nil: every move): the
// engine passes those that keep the value its databases give p, so that
// the book chooses how to play, never whether to throw a draw away. The
// book must still know every legal move of p, and ok is false when keep
// allows none it knows.
func (b *Book) ChooseFrom(p mill.Position, margin int, rng *rand.Rand, keep func(mill.Move) bool) (e Entry, ok bool) {
	es := b.Lookup(p)
	if len(es) == 0 || len(es) < p.NumMoves() {
		return Entry{}, false
	}
	if keep != nil {
		es = slices.DeleteFunc(es, func(e Entry) bool { return !keep(e.Move) })
		if len(es) == 0 {
			return Entry{}, false
		}
	}
	n := 1
	for n < len(es) && es[n].Score >= es[0].Score-max(margin, 0) {
		n++
	}
	if rng == nil {
		return es[0], true
	}
	return es[rng.IntN(n)], true
}

// Write prints the book in its text form (see the package documentation),
// sorted by rules, then ply, then position text: the same book always
// prints the same.
func (b *Book) Write(w io.Writer) error {
	type line struct {
		rules string
		ply   int
		text  []byte
	}
	all := make([]line, 0, b.Len())
	if b != nil {
		for _, e := range b.entries {
			all = append(all, line{e.pos.Rules().String(), e.pos.Ply(), appendLine(nil, e.pos, e.score, e.depth)})
		}
	}
	slices.SortFunc(all, func(x, y line) int {
		return cmp.Or(cmp.Compare(x.rules, y.rules), cmp.Compare(x.ply, y.ply), bytes.Compare(x.text, y.text))
	})
	bw := bufio.NewWriter(w)
	for _, l := range all {
		if _, err := bw.Write(l.text); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendLine appends the line of a book entry to dst.
func appendLine(dst []byte, p mill.Position, score, depth int) []byte {
	dst = p.AppendText(dst)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(score), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(depth), 10)
	return append(dst, '\n')
}

// ErrSyntax is wrapped by the errors of a book text that does not parse.
var ErrSyntax = errors.New("syntax error")

// SyntaxError reports a line of a book that does not parse.
type SyntaxError struct {
	Line int    // from 1
	Msg  string // what is wrong
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// maxLine is the longest line a book may have; the lines of the longest
// position texts are about 100 bytes.
const maxLine = 1024

// Parse reads a book in its text form (see the package documentation),
// or the same text compressed with gzip.
func Parse(r io.Reader) (*Book, error) {
	br := bufio.NewReaderSize(r, maxLine)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		br = bufio.NewReaderSize(zr, maxLine)
	}
	b := new(Book)
	if _, err := b.read(br, false); err != nil {
		return nil, err
	}
	return b, nil
}

// Resume reads a book that Build may have been writing when it was
// stopped: as Parse (but not gzip), except that a last line without its
// newline, half written, is left out. n is the length of the complete
// lines: the place to cut the file and go on appending.
func Resume(r io.Reader) (b *Book, n int64, err error) {
	br := bufio.NewReaderSize(r, maxLine)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		// Not to be cut as a half-written line.
		return nil, 0, errors.New("compressed with gzip: uncompress it to go on building")
	}
	b = new(Book)
	n, err = b.read(br, true)
	if err != nil {
		return nil, 0, err
	}
	return b, n, nil
}

// read adds to b the entries of a book text and returns the length of the
// complete lines read. With partial, a last line without a newline is
// not read.
func (b *Book) read(br *bufio.Reader, partial bool) (int64, error) {
	var n int64
	lines := map[string]int{} // the line of each key, for duplicates
	for no := 1; ; no++ {
		line, err := br.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			return n, &SyntaxError{Line: no, Msg: fmt.Sprintf("longer than %d bytes", maxLine)}
		case err == io.EOF && (len(line) == 0 || partial):
			return n, nil
		case err != nil && err != io.EOF:
			return n, err
		}
		n += int64(len(line))
		if err := b.parseLine(string(line), no, lines); err != nil {
			return n, err
		}
		if err == io.EOF {
			return n, nil
		}
	}
}

// parseLine adds the entry of one line, if it has one.
func (b *Book) parseLine(line string, no int, lines map[string]int) error {
	fields := strings.Fields(line)
	if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
		return nil
	}
	fail := func(format string, args ...any) error {
		return &SyntaxError{Line: no, Msg: fmt.Sprintf(format, args...)}
	}
	if len(fields) != 9 {
		return fail("want a position text (7 fields), a score and a depth; have %d fields", len(fields))
	}
	p, err := mill.ParsePosition(strings.Join(fields[:7], " "))
	if err != nil {
		return fail("%v", err)
	}
	score, err := strconv.ParseInt(fields[7], 10, 32)
	if err != nil {
		return fail("score %q: want an integer", fields[7])
	}
	depth, err := strconv.ParseInt(fields[8], 10, 32)
	if err != nil || depth < 0 {
		return fail("depth %q: want a number of plies, 0 or more", fields[8])
	}
	var buf [160]byte
	k, c := key(buf[:0], p)
	if first, ok := lines[string(k)]; ok {
		return fail("the position of line %d again (or a symmetric image of it)", first)
	}
	if _, ok := b.entries[string(k)]; ok {
		return fail("a position already in the book (or a symmetric image of it)")
	}
	lines[string(k)] = no
	if b.entries == nil {
		b.entries = make(map[string]stored)
	}
	b.entries[string(k)] = stored{pos: c, score: int(score), depth: int(depth)}
	return nil
}
