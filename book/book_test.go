package book

import (
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
	"testing"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
)

// play returns the position after the moves of text from the start of rules.
func play(t testing.TB, rules, moves string) mill.Position {
	t.Helper()
	g := mill.NewGame(mill.MustRules(rules))
	for _, m := range strings.Fields(moves) {
		if err := g.PlayText(m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	return g.Position()
}

// fakeScore is a score that depends on the position only, not on its image:
// spread out, so that few moves tie.
func fakeScore(p mill.Position) int {
	c, _ := p.Canonical()
	return int(c.Key()%201) - 100
}

// withChildren returns a book of the positions the moves of p lead to,
// scored by fakeScore.
func withChildren(p mill.Position) *Book {
	b := new(Book)
	for _, m := range p.Moves(nil) {
		c := p.Play(m)
		b.Add(c, fakeScore(c), 7)
	}
	return b
}

// transformMove returns the image of m under symmetry s of board b.
func transformMove(b *mill.Board, s int, m mill.Move) mill.Move {
	perm := b.Symmetries[s]
	var t mill.Move
	switch m.Kind() {
	case mill.PlaceMove:
		t = mill.Place(perm[m.To()])
	case mill.SlideMove:
		t = mill.Slide(perm[m.From()], perm[m.To()])
	case mill.RemoveMove:
		return mill.Remove(perm[m.Capture(0)])
	case mill.PassMove:
		return mill.Pass
	}
	for i := 0; i < m.NumCaptures(); i++ {
		t = t.WithCapture(perm[m.Capture(i)])
	}
	return t
}

// positions for the tests: the placing phase, sliding, flying, and the
// capture states of the rules that have them.
var testPositions = []struct{ rules, moves, text string }{
	{"nine-mens-morris", "", ""},
	{"nine-mens-morris", "d2 f4 b4", ""},
	{"nine-mens-morris", "d7 d1 a7 g1", ""},
	{"twelve-mens-morris", "a1 g7", ""},
	{"lasker", "d2 d6 b4", ""},
	{"", "", "nine-mens-morris W1W4B/1W3B1B/8 w 0,0 - 0 40"},
	{"", "", "nine-mens-morris WWW5/1B3B1B/8 b 0,0 - 3 40"},
	{"", "", "shah WWBBBBBW/WWWWWBBB/WBWWBWBB b 0,0 xb 0 24"},
	{"", "", "twelve-man-morris WWB4B/1WWW1B1B/BB3BBB w 0,0 bw=a1-b2 0 40"},
	{"", "", "russian-mill B1B1BW1W/WWBBBW1W/B2B3W w 0,0 uw=8000,ub=2020 1 20"},
}

func testPosition(t testing.TB, i int) mill.Position {
	tp := testPositions[i]
	if tp.text != "" {
		return mill.MustParsePosition(tp.text)
	}
	return play(t, tp.rules, tp.moves)
}

// TestSymmetry looks the moves of every image of a position up: the book
// answers with the images of the moves of the position, with the same
// scores, and chooses the image of the move it chooses there (or of one
// that leads to the same position).
func TestSymmetry(t *testing.T) {
	for i := range testPositions {
		p := testPosition(t, i)
		t.Run(p.String(), func(t *testing.T) {
			b := withChildren(p)
			want := b.Lookup(p)
			if n := p.NumMoves(); len(want) != n || n == 0 {
				t.Fatalf("%s: got %d moves, want all %d", p, len(want), n)
			}
			ce, ok := b.Choose(p, 0, nil)
			choice := ce.Move
			if !ok {
				t.Fatalf("%s: Choose: no move", p)
			}
			board := p.Rules().Board()
			for s := range board.Symmetries {
				q := p.Transform(s)
				got := b.Lookup(q)
				if len(got) != len(want) {
					t.Fatalf("image %d %s: got %d moves, want %d", s, q, len(got), len(want))
				}
				scores := map[mill.Move]Entry{}
				for _, e := range got {
					scores[e.Move] = e
				}
				for _, e := range want {
					tm := transformMove(board, s, e.Move)
					g, ok := scores[tm]
					if !ok || g.Score != e.Score || g.Depth != e.Depth {
						t.Errorf("image %d %s: move %s (image of %s): got %+v (%v), want score %d depth %d",
							s, q, q.MoveText(tm), p.MoveText(e.Move), g, ok, e.Score, e.Depth)
					}
				}
				qe, ok := b.Choose(q, 0, nil)
				qc := qe.Move
				tc := transformMove(board, s, choice)
				pc, _ := p.Play(choice).Canonical()
				cc, _ := q.Play(qc).Canonical()
				if !ok || (qc != tc && pc != cc) {
					t.Errorf("image %d %s: chose %s, want %s, the image of %s", s, q, q.MoveText(qc), q.MoveText(tc), p.MoveText(choice))
				}
			}
		})
	}
}

// TestLookupScores checks the point of view of the scores: the book stores
// a position's score for its side to move, and Lookup gives the score of
// the move for the side that plays it.
func TestLookupScores(t *testing.T) {
	p := play(t, "nine-mens-morris", "d2 f4")
	b := new(Book)
	d6 := p.Play(mustMove(t, p, "d6"))
	b4 := p.Play(mustMove(t, p, "b4"))
	b.Add(d6, -30, 5) // black to move in d6: bad for black, good for white who played d6
	b.Add(b4, 40, 6)
	got := b.Lookup(p)
	want := []Entry{{mustMove(t, p, "d6"), 30, 5}, {mustMove(t, p, "b4"), -40, 6}}
	if !slices.Equal(got, want) {
		t.Errorf("%s: got %+v, want %+v", p, got, want)
	}
	if s, d, ok := b.Probe(d6.Transform(3)); !ok || s != -30 || d != 5 {
		t.Errorf("Probe of an image of %s: got %d %d %v, want -30 5 true", d6, s, d, ok)
	}
	// Shah: the side that placed last may remove next, and keep the move.
	// Find such a position in random games.
	rng := rand.New(rand.NewPCG(3, 4))
	r := mill.MustRules("shah")
	for game := 0; ; game++ {
		if game == 200 {
			t.Fatal("shah: no position where the mover moves again in 200 random games")
		}
		sh := milltest.PlayoutUntil(r.Start(), rng, 100, func(p mill.Position) bool { return p.InHand(mill.White)+p.InHand(mill.Black) <= 1 })
		if sh.InHand(sh.SideToMove()) != 1 {
			continue
		}
		b = withChildren(sh)
		stays := false
		for _, e := range b.Lookup(sh) {
			c := sh.Play(e.Move)
			want := fakeScore(c)
			if c.SideToMove() != sh.SideToMove() {
				want = -want
			} else {
				stays = true
			}
			if e.Score != want {
				t.Errorf("%s %s: got %d, want %d (side to move after it: %s)", sh, sh.MoveText(e.Move), e.Score, want, c.SideToMove())
			}
		}
		if stays {
			break
		}
	}
}

func mustMove(t testing.TB, p mill.Position, s string) mill.Move {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRulesKept: the same board under other rules is another position.
func TestRulesKept(t *testing.T) {
	p := play(t, "nine-mens-morris", "d2 f4 b4")
	b := withChildren(p)
	for _, rules := range []string{"nine-mens-morris,flying=never", "russian-mill", "lasker"} {
		f := strings.Fields(p.String())
		f[0] = rules
		if rules == "lasker" { // 10 men
			f[3] = fmt.Sprintf("%d,%d", p.InHand(mill.White)+1, p.InHand(mill.Black)+1)
		}
		text := strings.Join(f, " ")
		q := mill.MustParsePosition(text)
		if got := b.Lookup(q); len(got) != 0 {
			t.Errorf("%s: got %d moves from a book of %s, want none", q, len(got), p.Rules())
		}
	}
}

func TestChoose(t *testing.T) {
	p := play(t, "nine-mens-morris", "d2 f4 b4")
	b := withChildren(p)
	es := b.Lookup(p)
	for _, margin := range []int{0, 5, 20, 1000} {
		near := map[mill.Move]bool{}
		for _, e := range es {
			if e.Score >= es[0].Score-margin {
				near[e.Move] = true
			}
		}
		if e, ok := b.Choose(p, margin, nil); !ok || e != es[0] {
			m := e.Move
			t.Errorf("margin %d, no rng: got %s %v, want the first best move %s", margin, p.MoveText(m), ok, p.MoveText(es[0].Move))
		}
		rng := rand.New(rand.NewPCG(1, 2))
		seen := map[mill.Move]bool{}
		for range 50 * len(near) {
			e, ok := b.Choose(p, margin, rng)
			m := e.Move
			if !ok || !near[m] {
				t.Fatalf("margin %d: got %s %v, want a move within %d of the best", margin, p.MoveText(m), ok, margin)
			}
			seen[m] = true
		}
		if len(seen) != len(near) {
			t.Errorf("margin %d: chose %d different moves, want all %d within the margin", margin, len(seen), len(near))
		}
	}
	// A book that lacks a move of p does not choose: the missing one could
	// be the best.
	missing := new(Book)
	best, _ := p.Play(es[0].Move).Canonical()
	for _, e := range es[1:] {
		if c, _ := p.Play(e.Move).Canonical(); c != best {
			missing.Add(c, fakeScore(c), 7)
		}
	}
	if e, ok := missing.Choose(p, 10, nil); ok {
		t.Errorf("a book without the best move: chose %s, want no move", p.MoveText(e.Move))
	}
	if e, ok := new(Book).Choose(p, 0, nil); ok {
		t.Errorf("an empty book: chose %s, want no move", p.MoveText(e.Move))
	}
	var none *Book
	if got := none.Lookup(p); got != nil || none.Len() != 0 {
		t.Errorf("a nil book: got %v, %d", got, none.Len())
	}
}

// testBook returns a book of the positions of testPositions and their
// children, over several rule sets.
func testBook(t testing.TB) *Book {
	b := new(Book)
	for i := range testPositions {
		p := testPosition(t, i)
		if p.Ply() > 0 {
			b.Add(p, fakeScore(p), 3)
		}
		for _, m := range p.Moves(nil) {
			c := p.Play(m)
			b.Add(c, fakeScore(c)*7, i)
		}
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	b := testBook(t)
	var first bytes.Buffer
	if err := b.Write(&first); err != nil {
		t.Fatal(err)
	}
	b2, err := Parse(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatalf("%v: the book written:\n%s", err, first.Bytes())
	}
	if b2.Len() != b.Len() {
		t.Errorf("got %d positions, want %d", b2.Len(), b.Len())
	}
	var second bytes.Buffer
	if err := b2.Write(&second); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("written again, the book differs:\n%s\nthe first:\n%s", second.Bytes(), first.Bytes())
	}
	for i := range testPositions {
		p := testPosition(t, i)
		if got, want := b2.Lookup(p), b.Lookup(p); !slices.Equal(got, want) {
			t.Errorf("%s: read back, got %v, want %v", p, got, want)
		}
	}
	// Sorted by rules, then ply: the lines of one ply together.
	lines := strings.Split(strings.TrimSpace(first.String()), "\n")
	if !slices.IsSortedFunc(lines, func(x, y string) int {
		fx, fy := strings.Fields(x), strings.Fields(y)
		px, _ := strconv.Atoi(fx[6])
		py, _ := strconv.Atoi(fy[6])
		return cmp.Or(strings.Compare(fx[0], fy[0]), cmp.Compare(px, py))
	}) {
		t.Errorf("not sorted by rules and ply:\n%s", first.String())
	}
}

// TestParseImages: any image of a position may be written; the book keeps
// the canonical one, and two images of one position are a duplicate.
func TestParseImages(t *testing.T) {
	p := play(t, "nine-mens-morris", "d2 f4 b4")
	q := p.Transform(5)
	b, err := Parse(strings.NewReader(q.String() + " 12 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s, d, ok := b.Probe(p); !ok || s != 12 || d != 3 {
		t.Errorf("Probe %s: got %d %d %v, want 12 3 true", p, s, d, ok)
	}
	var out bytes.Buffer
	b.Write(&out)
	c, _ := p.Canonical()
	if want := c.String() + " 12 3\n"; out.String() != want {
		t.Errorf("Write: got %q, want %q", out.String(), want)
	}
	_, err = Parse(strings.NewReader(p.String() + " 12 3\n" + q.String() + " 12 3\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2: the position of line 1 again") {
		t.Errorf("two images: got %v, want an error at line 2", err)
	}
}

func TestParseErrors(t *testing.T) {
	const good = "nine-mens-morris 8/2W5/8 b 8,9 - 0 1 -7 8\n"
	for _, tc := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"fields", "# a book\n\nnine-mens-morris 8/2W5/8 b 8,9 - 0 1 -7\n", 3, "want a position text (7 fields), a score and a depth; have 8 fields"},
		{"extra", good + "nine-mens-morris 8/2W5/8 b 8,9 - 0 1 -7 8 9\n", 2, "have 10 fields"},
		{"position", "nine-mens-morris 8/2W5/9 b 8,9 - 0 1 -7 8\n", 1, "'9' is not W, B or a digit 1-8"},
		{"rules", "nine-mans-morris 8/2W5/8 b 8,9 - 0 1 -7 8\n", 1, "unknown variant"},
		{"score", "nine-mens-morris 8/2W5/8 b 8,9 - 0 1 -7x 8\n", 1, `score "-7x": want an integer`},
		{"big score", "nine-mens-morris 8/2W5/8 b 8,9 - 0 1 99999999999 8\n", 1, "want an integer"},
		{"depth", good + "nine-mens-morris 8/3W4/8 b 8,9 - 0 1 -7 -1\n", 2, `depth "-1": want a number of plies`},
		{"duplicate", good + "# again\n" + good, 3, "the position of line 1 again"},
		{"image", good + "nine-mens-morris 8/W7/8 b 8,9 - 0 1 -7 8\n", 2, "the position of line 1 again"},
		{"counters", good + "nine-mens-morris 8/2W5/8 b 8,9 - 3 5 -7 8\n", 2, "the position of line 1 again"},
		{"long", good + "#" + strings.Repeat("x", 2000) + "\n", 2, "longer than 1024 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.text))
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("got %v, want a *SyntaxError", err)
			}
			if se.Line != tc.line || !strings.Contains(se.Msg, tc.want) {
				t.Errorf("got %q, want line %d: %q", err, tc.line, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Errorf("got %q, want it to start with the line", err)
			}
		})
	}
}

// TestResume: a half-written last line is left out, and n is where it
// starts; Parse, unlike Resume, takes a last line without its newline.
func TestResume(t *testing.T) {
	const l1 = "# made by a test\n"
	const l2 = "nine-mens-morris 8/2W5/8 b 8,9 - 0 1 -7 8\n"
	const l3 = "nine-mens-morris 8/3W4/8 b 8,9 - 0 1 -11 8\n"
	for _, tc := range []struct {
		text string
		n    int
		len  int
	}{
		{"", 0, 0},
		{l1, len(l1), 0},
		{l1 + l2, len(l1 + l2), 1},
		{l1 + l2 + l3[:10], len(l1 + l2), 1},
		{l1 + l2 + l3[:len(l3)-1], len(l1 + l2), 1}, // all but the newline: maybe not all of the depth
		{l1 + l2 + l3, len(l1 + l2 + l3), 2},
		{l1 + l2 + "nine-mens-morris 8/3W", len(l1 + l2), 1}, // not a position yet: no matter
	} {
		b, n, err := Resume(strings.NewReader(tc.text))
		if err != nil || int(n) != tc.n || b.Len() != tc.len {
			t.Errorf("%q: got n %d, %d positions, %v; want %d, %d", tc.text, n, b.Len(), err, tc.n, tc.len)
		}
	}
	var zipped bytes.Buffer
	gzipTo(&zipped, []byte(l2))
	if _, _, err := Resume(&zipped); err == nil {
		t.Errorf("Resume of a gzip file: got no error")
	}
	if b, err := Parse(strings.NewReader(l2 + l3[:len(l3)-1])); err != nil || b.Len() != 2 {
		t.Errorf("Parse without the last newline: got %v", err)
	}
	if _, _, err := Resume(strings.NewReader(l1 + "nine-mens-morris 8/3W4/8 b 8,9 - 0 1 x 8\n" + l2)); err == nil {
		t.Errorf("Resume of a bad whole line: got no error")
	}
}

func TestParseGzip(t *testing.T) {
	b := testBook(t)
	var plain, zipped bytes.Buffer
	b.Write(&plain)
	if err := gzipTo(&zipped, plain.Bytes()); err != nil {
		t.Fatal(err)
	}
	b2, err := Parse(&zipped)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	b2.Write(&again)
	if !bytes.Equal(again.Bytes(), plain.Bytes()) {
		t.Errorf("from gzip: got a different book")
	}
}

func gzipTo(w io.Writer, text []byte) error {
	zw := gzip.NewWriter(w)
	if _, err := zw.Write(text); err != nil {
		return err
	}
	return zw.Close()
}

func FuzzParse(f *testing.F) {
	f.Add("nine-mens-morris 8/2W5/8 b 8,9 - 0 1 -7 8\n")
	f.Add("# comment\n\nnine-mens-morris 8/8/8 w 9,9 - 0 0 0 0\nnine-mens-morris 8/3W4/8 b 8,9 - 0 1 -11 8")
	f.Add("shah W1WB3B/1B3B1B/7B b 0,0 xb 0 24 30 2\n")
	f.Add("twelve-man-morris WWB4B/1WWW1B1B/BB3BBB w 0,0 bw=a1-b2 0 40 -5 1\n")
	f.Add("russian-mill B1B1BW1W/WWBBBW1W/B2B3W w 0,0 uw=8000,ub=2020 1 20 +4 0\n")
	f.Add("nine-mens-morris 8/2W5/8 b 8,9 - 0 1 -7 8\nnine-mens-morris 8/8/2W5 b 8,9 - 0 1 -7 8\n")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		var first bytes.Buffer
		if err := b.Write(&first); err != nil {
			t.Fatal(err)
		}
		b2, err := Parse(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("%q printed as\n%s\ndoes not parse: %v", s, first.Bytes(), err)
		}
		var second bytes.Buffer
		b2.Write(&second)
		if b2.Len() != b.Len() || !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("%q: printed\n%s\nthen\n%s", s, first.Bytes(), second.Bytes())
		}
	})
}

// TestDefault parses the books embedded in the program: each file alone,
// with the command that made it in its comments, and all together.
func TestDefault(t *testing.T) {
	files, err := data.ReadDir("data")
	if err != nil || len(files) == 0 {
		t.Fatalf("data/: %v, %d files", err, len(files))
	}
	total := 0
	for _, f := range files {
		text, err := data.ReadFile("data/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		b, err := Parse(bytes.NewReader(text))
		if err != nil {
			t.Fatalf("data/%s: %v", f.Name(), err)
		}
		total += b.Len()
		if !bytes.Contains(text, []byte("# Made by: morris book ")) && !bytes.HasPrefix(text, []byte{0x1f, 0x8b}) {
			t.Errorf("data/%s: no comment says which command made it", f.Name())
		}
	}
	d := Default()
	if d.Len() != total || d != Default() {
		t.Errorf("Default: got %d positions, want %d, parsed once", d.Len(), total)
	}
	start := mill.MustRules("nine-mens-morris").Start()
	if _, ok := d.Choose(start, 0, nil); !ok {
		t.Errorf("Default: no move at the start of nine men's morris")
	}
}
