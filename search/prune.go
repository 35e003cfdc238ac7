package search

import "math"

// Late move reductions: a quiet move searched after the first lmrFrom moves
// of a node (its hash move, captures and killers first) is searched
// lmr[depth][i] plies shallower, one less at a principal-variation node,
// and again at full depth when it beats alpha. The reduction grows with the
// logarithms of the depth and of the move's index (ln d · ln i / 2),
// measured against the earlier fixed 1-or-2 ply reduction in
// docs/search.md.
const lmrFrom = 3

// lowMobility is the most moves a node may have for its replies to be
// searched a ply deeper.
const lowMobility = 2

var lmr = func() (t [64][64]int8) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(0.5 + math.Log(float64(d))*math.Log(float64(i))/2)
		}
	}
	return t
}()
