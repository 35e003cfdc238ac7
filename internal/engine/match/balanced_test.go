package match

import (
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestBalance: on the small twelve men's board (diagonals), an opening
// that leaves white a fork a ply away is refused, the start and a quiet
// symmetric opening are kept, every score is the same when searched
// again (so a seed draws the same openings on any machine), and the
// openings drawn with it are all within the margin.
func TestBalance(t *testing.T) {
	r := mill.MustRules("twelve-mens-morris-small")
	b := NewBalance(r, 6, 50)
	if b.Start() != b.Score(mill.NewGame(r).Position()) {
		t.Fatalf("the start scored %d, then %d", b.Start(), b.Score(mill.NewGame(r).Position()))
	}
	after := func(moves ...string) mill.Position {
		t.Helper()
		g := mill.NewGame(r)
		for _, m := range moves {
			if err := g.PlayText(m); err != nil {
				t.Fatalf("%v: %v", moves, err)
			}
		}
		return g.Position()
	}
	cases := []struct {
		moves []string
		keep  bool
	}{
		{nil, true},
		// White's a4, b2, d1 meet at a1 (the a file, the diagonal
		// a1-b2-c3, the first row): black's random d3 and d2 leave
		// the fork to white.
		{[]string{"a4", "d3", "b2", "d2", "d1"}, false},
	}
	for _, c := range cases {
		p := after(c.moves...)
		if got := b.Keep(p); got != c.keep {
			t.Errorf("%v: kept %v (score %+d for white, the start %+d), want %v", c.moves, got, b.Score(p), b.Start(), c.keep)
		}
	}
	os, refused, err := RandomOpeningsWhere(r, 6, 4, newRand(3), b.Keep)
	if err != nil {
		t.Fatal(err)
	}
	if refused == 0 {
		t.Errorf("no random opening refused: want some on this board")
	}
	again, _, _ := RandomOpeningsWhere(r, 6, 4, newRand(3), NewBalance(r, 6, 50).Keep)
	for i, o := range os {
		g := o.Game(r)
		if d := b.Score(g.Position()) - b.Start(); d < -50 || d > 50 {
			t.Errorf("opening %d (%s): %+d from the start's score, want within 50", i, o.Text(r), d)
		}
		if o.Text(r) != again[i].Text(r) {
			t.Errorf("opening %d: %s, then %s from the same seed", i, o.Text(r), again[i].Text(r))
		}
	}
}
