package mill

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type perftCase struct {
	line  int
	start Position
	depth int
	want  uint64
}

func readPerftCases(t *testing.T) []perftCase {
	t.Helper()
	f, err := os.Open("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, ";")
		if len(parts) != 3 {
			t.Fatalf("perft.txt:%d: want 3 fields", n)
		}
		kind, arg, _ := strings.Cut(strings.TrimSpace(parts[0]), " ")
		var p Position
		switch kind {
		case "start":
			r, err := ParseRules(arg)
			if err != nil {
				t.Fatalf("perft.txt:%d: %v", n, err)
			}
			p = r.Start()
		case "position":
			if p, err = ParsePosition(arg); err != nil {
				t.Fatalf("perft.txt:%d: %v", n, err)
			}
		default:
			t.Fatalf("perft.txt:%d: unknown kind %q", n, kind)
		}
		depth, err1 := strconv.Atoi(strings.TrimSpace(parts[1]))
		want, err2 := strconv.ParseUint(strings.TrimSpace(parts[2]), 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("perft.txt:%d: bad depth or count", n)
		}
		cases = append(cases, perftCase{n, p, depth, want})
	}
	return cases
}

func TestPerft(t *testing.T) {
	for _, c := range readPerftCases(t) {
		if testing.Short() && c.want > 20_000_000 {
			continue
		}
		if got := Perft(c.start, c.depth); got != c.want {
			t.Errorf("perft.txt:%d: perft(%d) of %s: got %d, want %d", c.line, c.depth, c.start, got, c.want)
		}
	}
}

// TestPerftSlowTwin counts the table's smaller cases again with the slow
// twin of slow_test.go, which shares no code with the move generator.
func TestPerftSlowTwin(t *testing.T) {
	limit := uint64(1_000_000)
	if testing.Short() {
		limit = 60_000
	}
	for _, c := range readPerftCases(t) {
		if c.want > limit {
			continue
		}
		sr := newSlowRules(c.start.Rules())
		if got := sr.perft(sr.fromPosition(c.start), c.depth); got != c.want {
			t.Errorf("perft.txt:%d: the slow twin's perft(%d) of %s: got %d, want %d", c.line, c.depth, c.start, got, c.want)
		}
	}
}

// TestDivide checks that divide lists every legal move once and that its
// counts add up to perft, and that the detailed perft agrees, from every
// position of the table.
func TestDivide(t *testing.T) {
	for _, c := range readPerftCases(t) {
		if c.want > 500_000 {
			continue
		}
		entries := Divide(c.start, c.depth)
		var sum uint64
		seen := map[Move]bool{}
		for _, e := range entries {
			if seen[e.Move] {
				t.Errorf("perft.txt:%d: %s listed twice", c.line, c.start.MoveText(e.Move))
			}
			seen[e.Move] = true
			sum += e.Count
		}
		if len(entries) != c.start.NumMoves() {
			t.Errorf("perft.txt:%d: divide lists %d moves, want %d", c.line, len(entries), c.start.NumMoves())
		}
		if sum != c.want {
			t.Errorf("perft.txt:%d: divide sums to %d, want %d", c.line, sum, c.want)
		}
		d := PerftDetailed(c.start, c.depth)
		if d.Total != c.want || d.Placements+d.Slides+d.Flights+d.Removals+d.Passes != d.Total {
			t.Errorf("perft.txt:%d: detailed perft %+v, want total %d", c.line, d, c.want)
		}
	}
}
