package suite

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestParseSuiteLine(t *testing.T) {
	const pos = "nine-mens-morris W1W4B/1W3B1B/8 w 0,0 - 0 40"
	good := "m1 | nine-mens-morris | " + pos + " | d2-d1xa4 | capture | takes a4: black is left with 2"
	e, err := ParseLine(good)
	if err != nil {
		t.Fatalf("%q: %v", good, err)
	}
	if e.ID != "m1" || e.Category != "capture" || len(e.Best) != 1 || e.Pos.MoveText(e.Best[0]) != "d2-d1xa4" || e.Comment != "takes a4: black is left with 2" {
		t.Errorf("%q parses to %+v", good, e)
	}
	if got := e.String(); got != good {
		t.Errorf("printed as %q, want %q", got, good)
	}
	for _, tc := range []struct{ line, want string }{
		{"m1 | nine-mens-morris | " + pos + " | d2-d1xa4 | capture", "5 fields"},
		{" | nine-mens-morris | " + pos + " | d2-d1xa4 | capture | x", "id"},
		{"m 1 | nine-mens-morris | " + pos + " | d2-d1xa4 | capture | x", "id"},
		{"m1 | nine-men | " + pos + " | d2-d1xa4 | capture | x", "unknown variant"},
		{"m1 | lasker | " + pos + " | d2-d1xa4 | capture | x", "the position is of nine-mens-morris"},
		{"m1 | nine-mens-morris | nine-mens-morris W1W4B/1W3B1B/7 w 0,0 - 0 40 | d2-d1xa4 | capture | x", "points"},
		{"m1 | nine-mens-morris | nine-mens-morris WWW5/BB6/8 b 0,0 - 0 40 | d2-d1xa4 | capture | x", "game is over"},
		{"m1 | nine-mens-morris | " + pos + " |  | capture | x", "no best move"},
		{"m1 | nine-mens-morris | " + pos + " | d2-d1 | capture | x", "illegal"},
		{"m1 | nine-mens-morris | " + pos + " | D2-D1,A4 | capture | x", `write it "d2-d1xa4"`},
		{"m1 | nine-mens-morris | " + pos + " | d2-d1xa4 d2-d1xa4 | capture | x", "twice"},
		{"m1 | nine-mens-morris | " + pos + " | d2-d1xa4 | tactics | x", "category"},
		{"m1 | nine-mens-morris | " + pos + " | z9 | capture | x", "z9"},
	} {
		_, err := ParseLine(tc.line)
		if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got error %v, want one that says %q", tc.line, err, tc.want)
		}
	}
}

func TestParseSuiteNamesTheLine(t *testing.T) {
	const line = "m1 | nine-mens-morris | nine-mens-morris W1W4B/1W3B1B/8 w 0,0 - 0 40 | d2-d1xa4 | capture | x\n"
	for _, tc := range []struct{ text, want string }{
		{"# a comment\n\n" + line + "m2 | bad\n", "s.txt:4: "},
		{line + "  # indented comment\n" + line, "s.txt:3: bad suite line: id m1 is already on line 1"},
	} {
		_, err := Parse(strings.NewReader(tc.text), "s.txt")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got error %v, want one that starts %q", tc.text, err, tc.want)
		}
	}
	entries, err := Parse(strings.NewReader("# only\n"+line), "s.txt")
	if err != nil || len(entries) != 1 || entries[0].Line != 2 {
		t.Errorf("got %v, %v; want one entry on line 2", entries, err)
	}
}

// FuzzParseSuiteLine: a line never panics the parser, and what parses
// prints back to a line that parses to the same entry.
func FuzzParseSuiteLine(f *testing.F) {
	if data, err := os.ReadFile("../testdata/suite.txt"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				f.Add(l)
			}
		}
	}
	f.Add("m1 | nine-mens-morris | nine-mens-morris W1W4B/1W3B1B/8 w 0,0 - 0 40 | d2-d1xa4 | capture | x")
	f.Add("a|b|c|d|e|f")
	f.Fuzz(func(t *testing.T, line string) {
		e, err := ParseLine(line)
		if err != nil {
			return
		}
		text := e.String()
		e2, err := ParseLine(text)
		if err != nil {
			t.Fatalf("%q printed as %q: %v", line, text, err)
		}
		if e2.String() != text || e2.Pos != e.Pos || !SameMoves(e2.Best, e.Best) {
			t.Fatalf("%q printed as %q parses to %q", line, text, e2.String())
		}
	})
}

// TestWriteParse: the suite file is what Write writes of its entries, so
// suite-gen's output format is the file's.
func TestWriteParse(t *testing.T) {
	data, err := os.ReadFile("../testdata/suite.txt")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := Parse(strings.NewReader(string(data)), "suite.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, entries); err != nil {
		t.Fatal(err)
	}
	if b.String() != string(data) {
		t.Errorf("Write of the %d entries differs from the file:\n%s", len(entries), b.String())
	}
}
