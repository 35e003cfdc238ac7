package puzzle

import (
	"bytes"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/builtin"
)

// TestTextRoundTrip: the built-in puzzles written and read again are the
// same, and their text is the files' own.
func TestTextRoundTrip(t *testing.T) {
	pz := Builtin()
	var b bytes.Buffer
	if err := Write(&b, pz); err != nil {
		t.Fatal(err)
	}
	again, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(pz) {
		t.Fatalf("read %d puzzles of %d", len(again), len(pz))
	}
	for i := range pz {
		a, b := pz[i], again[i]
		if a.Position != b.Position || a.Goal != b.Goal || a.Plies != b.Plies || !equalMoves(a.Texts(), b.Texts()) {
			t.Fatalf("puzzle %d: wrote %+v, read %+v", i, a, b)
		}
	}
}

func equalMoves(a, b []string) bool { return strings.Join(a, " ") == strings.Join(b, " ") }

// TestReadRefuses: each bad line is refused with what is wrong.
func TestReadRefuses(t *testing.T) {
	const pos = "nine-mens-morris W2W4/2W5/2BBB3 w 0,0 - 0 0"
	for _, tc := range []struct{ line, want string }{
		{pos + "\twin\t3", "want 4 fields"},
		{"nine-mens-morris W2W4 w\twin\t3\tf2-g1", "want 7 fields"},
		{pos + "\tlose\t3\tf2-g1", "goal"},
		{pos + "\twin\tx\tf2-g1", "plies"},
		{pos + "\twin\t-1\tf2-g1", "plies"},
		{pos + "\twin\t0\tf2-g1", "a win has plies"},
		{pos + "\tdraw\t3\tf2-g1", "a draw has 0 plies"},
		{pos + "\twin\t3\t", "no solution"},
		{pos + "\twin\t3\tf2-g1 d1-d2", "must end with the solver's move"},
		{pos + "\tdraw\t0\tf2-g1 d1-d2 g1-f2", "one move"},
		{pos + "\twin\t3\ta7-a1", "a7"},
		{"nine-mens-morris W7/1W2B2B/8 b 0,0 - 0 40\twin\t3\td2-d1", "over"},
		{strings.Repeat("x", maxLine+1), "more than"},
	} {
		_, err := Read(strings.NewReader("# a comment\n\n" + tc.line + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error with %q", tc.line, err, tc.want)
		}
	}
}

// TestBuiltin checks every built-in puzzle against the built-in databases
// (package egdb/builtin: wins, draws and losses, an independent file): the
// position is won, each of the solver's moves is the only one that keeps
// the win, and each defence loses.
func TestBuiltin(t *testing.T) {
	all := Builtin()
	if len(all) < 500 {
		t.Fatalf("%d built-in puzzles", len(all))
	}
	shelf := builtin.Shelf()
	by := map[string]int{}
	for _, pz := range all {
		by[pz.Position.Rules().String()]++
		if pz.Goal != "win" {
			continue
		}
		q := pz.Position
		for i, m := range pz.Solution {
			mv, ok := shelf.MoveValues(q)
			if !ok {
				t.Fatalf("%s: move %d: not in the built-in databases", pz.Position, i)
			}
			if i%2 == 0 {
				if mv[0].Move != m || mv[0].Value.Result != egdb.Win || len(mv) > 1 && mv[1].Value.Result == egdb.Win {
					t.Fatalf("%s: move %d %s is not the only win: %v", pz.Position, i, q.MoveText(m), mv)
				}
			} else if mv[0].Value.Result != egdb.Loss {
				t.Fatalf("%s: the defence at %d has %v", pz.Position, i, mv[0].Value)
			}
			q = q.Play(m)
		}
	}
	for _, v := range []string{"nine-mens-morris", "six-mens-morris", "seven-mens-morris", "twelve-mens-morris", "twelve-mens-morris-small", "twelve-mens-morris-large", "mill", "cheng-san-qi", "el-filja"} {
		if by[v] == 0 {
			t.Errorf("no built-in puzzle of %s (have %v)", v, by)
		}
	}
}

// FuzzRead: any text is read or refused, never a panic; what is read
// writes and reads back the same.
func FuzzRead(f *testing.F) {
	f.Add("nine-mens-morris W2W4/2W5/2BBB3 w 0,0 - 0 0\twin\t3\tf2-g1\n")
	f.Add("# c\n\nsix-mens-morris 8/8 w 6,6 - 0 0\tdraw\t0\td7\n")
	f.Fuzz(func(t *testing.T, s string) {
		pz, err := Read(strings.NewReader(s))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Write(&b, pz); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&b)
		if err != nil || len(again) != len(pz) {
			t.Fatalf("wrote %d puzzles, read back %d: %v", len(pz), len(again), err)
		}
	})
}
