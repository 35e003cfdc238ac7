package mill

// Zobrist keys: fixed pseudo-random numbers from splitmix64, the same in every
// build, so keys can be stored (opening books, databases).
var (
	zobPiece [2][MaxPoints]uint64
	zobHand  [2][16]uint64
	zobSide  uint64
)

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func init() {
	seed := uint64(0x6d696c6c) // "mill"
	next := func() uint64 { seed = mix(seed); return seed }
	for c := range zobPiece {
		for p := range zobPiece[c] {
			zobPiece[c][p] = next()
		}
	}
	for c := range zobHand {
		for n := range zobHand[c] {
			zobHand[c][n] = next()
		}
	}
	zobSide = next()
}
