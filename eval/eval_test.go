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
		{"tempo", Weights{Tempo: [NumPhases]int{3, 7, 11}}, 7}, // white slides: the moving tempo
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

// TestRegionalRules: the evaluation of the regional rules' state. Marked
// points (da san qi) are neither steps nor holes of twos, and a marked piece
// is material lost; removals owed are pieces about to be lost (el filja,
// zhi qi, Shah); under blocked=removes a side shut in is not cramped.
func TestRegionalRules(t *testing.T) {
	piece := Weights{Piece: [NumPhases]int{1, 1, 1}}
	evalCases(t, []evalCase{
		// Black (to move): g7 steps to g4 and f6, d7 to d6 (not to the
		// marked a7), d5 to d6, c5 and e5: 6; white a1 2, d1 1, g1 2, b4 4.
		{"mark: no steps to a marked point", "da-san-qi WWW1BBX1/7W/5B2 b 8,8 - 0 8", Weights{Mobility: [NumPhases]int{1, 1, 1}}, 6 - 9},
		// a7-d7-g7 is no two of black's while a7 is marked; d7-d6-d5 is.
		{"mark: no two through a marked point", "da-san-qi WWW1BBX1/7W/5B2 b 8,8 - 0 8", Weights{Two: [NumPhases]int{1, 1, 1}}, 1},
		{"mark: the marked piece is lost", "da-san-qi WWW1BBX1/7W/5B2 b 8,8 - 0 8", piece, 3 + 8 - (4 + 8)},
		// White removes two black pieces, black one white piece.
		{"owed removals", "el-filja BWWBBWBW/BBWWBBWB/WWWBWBBW w 0,0 xw2,xb 0 24", piece, (12 - 1) - (12 - 2)},
		{"owed removals of one's own", "el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw,xb,own 0 24", piece, (12 - 1) - (12 - 1)},
		{"owed removals when the board fills (zhi qi)", "zhi-qi WBWBBWBW/BWBWWBWB/WBWBWBWB w 0,0 xw,xb 0 24", piece, (12 - 1) - (12 - 1)},
		{"Shah's deferred removal", "shah WBWBWBWB/BWBWBWBW/WBWBWBWB w 0,0 xw 0 24", piece, 12 - (12 - 1)},
		{"a hand emptied by mills (dooz)", "dooz WWW2BB1/8/8 b 9,9 - 0 5", piece, (2 + 9) - (3 + 9)},
		// White is shut in: it will remove a black piece, not lose.
		{"blocked=removes: no cramp", "zhi-qi WWWB1BWB/BBB3B1/3B4 w 0,0 - 0 40", Weights{Cramp: [NumPhases]int{0, -40, 0}}, 0},
		// The same board where a blocked side loses: white has no step
		// (4² squares short), black has 5.
		{"blocked=loses: cramp", "zhi-qi,blocked=loses WWWB1BWB/BBB3B1/3B4 w 0,0 - 0 40", Weights{Cramp: [NumPhases]int{0, -40, 0}}, -40 * 16},
	})
}

// TestReserved: the empty points next to a side's pieces and to none of the
// opponent's, counted for a sliding side, and under Taper as the room to
// come while both sides place.
func TestReserved(t *testing.T) {
	moving := Weights{Reserved: [NumPhases]int{0, 1, 0}}
	evalCases(t, []evalCase{
		// The cramped position of TestMobilityAndCramp, white to move.
		// Empty: a7 (next to black's a4 only), d7 (white's d6), g7
		// (white's g4), b6 and f6 (white's d6, b4, f4), d5 and c4 (both
		// sides'): white 4, black 1.
		{"moving", "nine-mens-morris WWBW3B/BBBW1W1W/WBBBW1B1 w 0,0 - 0 18", moving, 4 - 1},
		// White's pieces of the same board against black's g1, a4 and
		// e4, flying: nothing is out of black's reach.
		{"the opponent flies", "nine-mens-morris WWBW3B/3W1W1W/W2BW3 w 0,0 - 0 30", moving, 0 - 0},
		// Both placing (TestTaper's position): white d6, b4, f6 have b6,
		// d5, c4, b2 and f4 to themselves, black a1, g1, g7 have d1 and
		// g4. Without Taper the placing weight (0) counts; with it 9·3/9.
		{"placing", "nine-mens-morris B1B1B3/4WW1W/8 w 6,6 - 0 6", Weights{Reserved: [NumPhases]int{0, 9, 0}}, 0},
		{"placing, tapered", "nine-mens-morris B1B1B3/4WW1W/8 w 6,6 - 0 6", Weights{Reserved: [NumPhases]int{0, 9, 0}, Taper: true}, 3*5 - 3*2},
	})
}

// evalCase is a position text and the score the weights give it.
type evalCase struct {
	name, pos string
	w         Weights
	want      int // for the side to move
}

func evalCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := mill.ParsePosition(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.w.Evaluate(&p); got != tc.want {
				t.Errorf("%s: got %d, want %d", tc.pos, got, tc.want)
			}
		})
	}
}

// TestFor: nine men's morris (with any draw rules) gets the fitted weights
// and the net of the moving phase, Russian mill the same weights without
// the net; the weights differ from Default in the placing and moving
// columns only (the flying one is Default's); other rules get Default.
func TestFor(t *testing.T) {
	for _, r := range []*mill.Rules{mill.MustRules("nine-mens-morris"), mill.MustRules("nine-mens-morris", "repetition=0")} {
		if For(r) != nineMensMorris {
			t.Errorf("%s does not get nineMensMorris", r)
		}
	}
	if r := mill.MustRules("russian-mill"); For(r) != russianMill {
		t.Errorf("%s does not get russianMill", r)
	}
	if nineMensMorris.Net == nil || russianMill.Net != nil {
		t.Error("the net of the moving phase: want it in nineMensMorris only")
	}
	r := russianMill
	r.Net = nineMensMorris.Net
	if r != nineMensMorris {
		t.Error("russianMill differs from nineMensMorris by more than the net")
	}
	for _, r := range []*mill.Rules{
		mill.MustRules("twelve-man-morris"),
		mill.MustRules("twelve-man-morris", "first=white", "draw-after=50", "repetition=0"),
	} {
		if For(r) != twelveManMorris {
			t.Errorf("%s does not get twelveManMorris", r)
		}
	}
	if r := mill.MustRules("twelve-mens-morris", "first=white"); For(r) != twelveMensMorris {
		t.Errorf("%s does not get twelveMensMorris", r)
	}
	if r := mill.MustRules("nine-mens-morris", "first=lot"); For(r) != nineMensMorris {
		t.Errorf("%s (who moves first changes no weight) does not get nineMensMorris", r)
	}
	if For(mill.MustRules("twelve-mens-morris-small")) != twelveMensMorrisSmall || For(mill.MustRules("morabaraba")) != morabaraba {
		t.Error("twelve-mens-morris-small or morabaraba does not get its own weights")
	}
	for _, v := range []string{"shah", "lasker", "cheng-san-qi", "nine-man-morris-diagonal", "mill"} {
		if For(mill.MustRules(v)) != Default() {
			t.Errorf("%s does not get Default", v)
		}
	}
	// A rule that a weight may depend on takes the fitted weights away.
	for _, r := range []*mill.Rules{
		mill.MustRules("twelve-man-morris", "flying=4"),
		mill.MustRules("nine-mens-morris", "pieces=10"),
	} {
		if For(r) != Default() {
			t.Errorf("%s does not get Default", r)
		}
	}
	n, d := nineMensMorris, Default()
	n.Net = nil
	n.ChanceScale = d.ChanceScale // the units of the fitted moving weights, not a weight
	for _, a := range []*[NumPhases]int{&n.Mill, &n.Two, &n.Closable, &n.Double, &n.Mobility, &n.Blocked, &n.Cramp, &n.Reserved, &n.Tempo} {
		a[Placing], a[Moving] = 0, 0
	}
	for _, a := range []*[NumPhases]int{&d.Mill, &d.Two, &d.Closable, &d.Double, &d.Mobility, &d.Blocked, &d.Cramp, &d.Reserved, &d.Tempo} {
		a[Placing], a[Moving] = 0, 0
	}
	if n != d {
		t.Errorf("nineMensMorris differs from Default outside the placing and moving columns: %+v", n)
	}
}

// TestForCopies: the weights For and Default return are the caller's to
// change; the next caller gets the presets as they were.
func TestForCopies(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	w := For(r)
	w.Mill[Moving]++
	w.Net = nil
	d := Default()
	d.Piece[Placing] = 0
	if For(r) != nineMensMorris || For(r).Net == nil {
		t.Errorf("a change to For's weights changed the next For's: %+v", For(r))
	}
	if Default() != defaultWeights || Default().Piece[Placing] != 100 {
		t.Errorf("a change to Default's weights changed the next Default's: %+v", Default())
	}
}
