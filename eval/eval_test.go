package eval

import (
	"testing"

	"github.com/morrisgame/morris/mill"
)

// cramped is the position after placing in a game lost by blockade (black
// was blocked 11 plies later): white to move, white has 10 steps, black 3
// (c5-c4, c5-d5, a4-a7), white 8 pieces and black 9.
func cramped(t *testing.T) mill.Position {
	t.Helper()
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	for _, m := range []string{"b4", "b2", "e5", "e3", "d6", "d3", "c3", "d2", "d1", "f2xd1",
		"d1", "c5", "f4", "a4", "g4", "e4", "a1", "g1"} {
		if err := g.PlayText(m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	return g.Position()
}

func TestMobilityAndCramp(t *testing.T) {
	p := cramped(t)
	for _, tc := range []struct {
		name string
		w    Weights
		want int // for white, the side to move
	}{
		{"mobility", Weights{Mobility: [NumPhases]int{0, 1, 0}}, 10 - 3},
		{"pieces", Weights{Piece: [NumPhases]int{0, 1, 0}}, 8 - 9},
		// Black is one step short of CrampBelow: (4-3)² = 1; white is not cramped.
		{"cramp", Weights{Cramp: [NumPhases]int{0, -40, 0}}, 0 - (-40)},
		{"tempo", Weights{Tempo: 7}, 7},
	} {
		if got := tc.w.Evaluate(&p); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// Taper mixes a placing side's mobility weight towards the moving one in
// the proportion of its pieces placed.
func TestTaper(t *testing.T) {
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	for _, m := range []string{"d6", "a1", "b4", "g1", "f6", "g7"} {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	p := g.Position() // white to move, 6 in hand each, 3 placed each
	w := Weights{Mobility: [NumPhases]int{0, 9, 0}}
	if got := w.Evaluate(&p); got != 0 {
		t.Errorf("without taper the placing weight (0) counts: %d, want 0", got)
	}
	w.Taper = true
	// White: d6 (3 steps: f6 is its own), b4 (4), f6 (1): 8. Black: a1, g1
	// and g7 (2 each): 6. Both have placed 3 of 9: the weight is 9·3/9 = 3.
	if got, want := w.Evaluate(&p), 3*8-3*6; got != want {
		t.Errorf("with taper: %d, want %d", got, want)
	}
}
