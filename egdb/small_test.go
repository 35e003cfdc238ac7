package egdb

import (
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestSmallBoardsAgainstBrute builds 4v3 (and 3v3 and 3v4, which it needs)
// of six and seven men's morris, on boards of 16 points with 16 symmetries
// and of 17 points with a centre, 8 symmetries and six lines through one
// point, and of seven men's morris with flying, and compares every position
// with the brute-force solver.
func TestSmallBoardsAgainstBrute(t *testing.T) {
	rules := []string{"six-mens-morris", "seven-mens-morris", "seven-mens-morris,flying=3"}
	if testing.Short() {
		rules = rules[:2]
	}
	for _, text := range rules {
		t.Run(text, func(t *testing.T) {
			r, err := mill.ParseRules(text)
			if err != nil {
				t.Fatal(err)
			}
			db := buildForTest(t, r, Key{White: 4, Black: 3})
			bf := newBrute(r)
			bf.solve([][2]int{{3, 3}})
			bf.solve([][2]int{{4, 3}, {3, 4}})
			compareWithBrute(t, db, bf, [][2]int{{3, 3}, {4, 3}, {3, 4}})
		})
	}
}

// TestSmallBoardsPlacing solves the whole game of three men a side on the
// boards of six and seven men's morris (pieces=3: the first mill decides,
// as the loser is left with two) and checks the placing phase against a
// memoised minimax.
func TestSmallBoardsPlacing(t *testing.T) {
	if testing.Short() {
		t.Skip("solves whole games")
	}
	for _, text := range []string{"six-mens-morris,pieces=3", "seven-mens-morris,pieces=3"} {
		t.Run(text, func(t *testing.T) {
			r, err := mill.ParseRules(text)
			if err != nil {
				t.Fatal(err)
			}
			db, _, placing, checked, v := placingAgainstBrute(t, r)
			defer db.Close()
			t.Logf("%d placing sectors; %d positions of the placing phase checked; the start: %s", placing, checked, fromRetro(v))
			if placing < 6 || checked < 10000 {
				t.Errorf("only %d placing sectors and %d positions", placing, checked)
			}
		})
	}
}
