package suite

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Categories are the kinds of position, in the order of the file.
var Categories = []string{"blockade", "mill-in-two", "endgame", "capture"}

// An Entry is one line of the suite:
//
//	id | variant | position text | best moves | category | comment
//
// The variant is the preset of the position's rules (the first field of its
// text, which is the whole rule set); the best moves are every move that
// keeps the best value, in the standard notation, separated by spaces.
type Entry struct {
	Line     int // in the file, from 1; 0 if not read from one
	ID       string
	Variant  string
	Pos      mill.Position
	Best     []mill.Move
	Category string
	Comment  string
}

// String returns the entry as a line of the file.
func (e Entry) String() string {
	return strings.Join([]string{e.ID, e.Variant, e.Pos.String(), MovesText(e.Pos, e.Best), e.Category, e.Comment}, " | ")
}

// Solves reports whether m is one of the best moves.
func (e Entry) Solves(m mill.Move) bool { return slices.Contains(e.Best, m) }

// MovesText is ms in p's notation, separated by spaces.
func MovesText(p mill.Position, ms []mill.Move) string {
	var s []string
	for _, m := range ms {
		s = append(s, p.MoveText(m))
	}
	return strings.Join(s, " ")
}

// SameMoves reports whether a and b hold the same moves, in any order.
func SameMoves(a, b []mill.Move) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[mill.Move]bool{}
	for _, m := range a {
		in[m] = true
	}
	for _, m := range b {
		if !in[m] {
			return false
		}
	}
	return true
}

// ErrSyntax is the error of a line that is not an entry.
var ErrSyntax = errors.New("bad suite line")

// ParseLine parses one line of the suite (not a comment or blank).
func ParseLine(text string) (Entry, error) {
	fail := func(format string, args ...any) (Entry, error) {
		return Entry{}, fmt.Errorf("%w: %s", ErrSyntax, fmt.Sprintf(format, args...))
	}
	f := strings.SplitN(text, "|", 6)
	if len(f) != 6 {
		return fail("%d fields, want 6: id | variant | position | best moves | category | comment", len(f))
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	e := Entry{ID: f[0], Variant: f[1], Category: f[4], Comment: f[5]}
	if e.ID == "" || strings.ContainsAny(e.ID, " \t") {
		return fail("id %q: want one word", e.ID)
	}
	if _, err := mill.LookupVariant(e.Variant); err != nil {
		return fail("%s: %v", e.ID, err)
	}
	p, err := mill.ParsePosition(f[2])
	if err != nil {
		return fail("%s: %v", e.ID, err)
	}
	if v := p.Rules().Variant(); v != e.Variant {
		return fail("%s: the position is of %s, the line says %s", e.ID, v, e.Variant)
	}
	if !p.HasMoves() {
		return fail("%s: the game is over in %s", e.ID, p)
	}
	e.Pos = p
	for _, tok := range strings.Fields(f[3]) {
		m, err := p.ParseMove(tok)
		if err != nil {
			return fail("%s: best move %v", e.ID, err)
		}
		if p.MoveText(m) != tok {
			return fail("%s: best move %q: write it %q", e.ID, tok, p.MoveText(m))
		}
		if e.Solves(m) {
			return fail("%s: best move %s given twice", e.ID, tok)
		}
		e.Best = append(e.Best, m)
	}
	if len(e.Best) == 0 {
		return fail("%s: no best move", e.ID)
	}
	if !slices.Contains(Categories, e.Category) {
		return fail("%s: category %q, want one of %s", e.ID, e.Category, strings.Join(Categories, ", "))
	}
	return e, nil
}

// Parse reads a suite: one entry a line; blank lines and lines that start
// with # are skipped. An error names the file (name) and the line.
func Parse(r io.Reader, name string) ([]Entry, error) {
	var out []Entry
	ids := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		e, err := ParseLine(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if first, ok := ids[e.ID]; ok {
			return nil, fmt.Errorf("%s:%d: %w: id %s is already on line %d", name, n, ErrSyntax, e.ID, first)
		}
		ids[e.ID] = n
		e.Line = n
		out = append(out, e)
	}
	return out, sc.Err()
}

// Write writes a suite file: Header, then the entries of each category
// under a heading of its name, in the order of Categories.
func Write(w io.Writer, entries []Entry) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(Header)
	for _, cat := range Categories {
		fmt.Fprintf(bw, "\n# %s\n", cat)
		for _, e := range entries {
			if e.Category == cat {
				bw.WriteString(e.String() + "\n")
			}
		}
	}
	return bw.Flush()
}
