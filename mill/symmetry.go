package mill

import "math/bits"

// Transform returns p with board symmetry s applied (an index into
// Board.Symmetries; 0 is the identity). A symmetry keeps edges and mill lines,
// so the transformed position plays exactly like p with every point renamed:
// opening books, endgame databases and transposition tables can store one
// position for all its images. Everything that names a point or a line moves
// with the pieces: the marked pieces, the re-forming ban and the one-time
// mills used by each side (a line goes to the mill line through the images
// of its points).
// The counters and the rest of the capture state do not depend on points.
func (p Position) Transform(s int) Position {
	r := p.rules
	perm := r.board.Symmetries[s]
	q := p
	q.pieceKey = 0
	q.marked = permutePoints(perm, p.marked)
	for c := range p.occ {
		q.occ[c] = permutePoints(perm, p.occ[c])
		for set := q.occ[c]; set != 0; set &= set - 1 {
			q.pieceKey ^= zobPiece[c][bits.TrailingZeros32(set)]
		}
		if p.banFrom[c] != 0 {
			q.banFrom[c] = uint8(perm[p.banFrom[c]-1]) + 1
			q.banTo[c] = uint8(perm[p.banTo[c]-1]) + 1
		}
		q.used[c] = 0
		for lines := p.used[c]; lines != 0; lines &= lines - 1 {
			q.used[c] |= 1 << r.millLineOf(permutePoints(perm, uint32(r.lines[bits.TrailingZeros32(lines)])))
		}
	}
	return q
}

// Canonical returns the image of p under the symmetry with the smallest Key,
// and that symmetry (the lowest index on a tie): one representative for all
// the positions that differ only by a symmetry of the board, so a book or a
// database needs one entry for the 16 of them. p.Transform(s) is the result.
func (p Position) Canonical() (Position, int) {
	best, bestS := p, 0
	bestKey := p.Key()
	for s := 1; s < len(p.rules.board.Symmetries); s++ {
		q := p.Transform(s)
		if k := q.Key(); k < bestKey {
			best, bestS, bestKey = q, s, k
		}
	}
	return best, bestS
}

// permutePoints returns the image of the point set set under perm.
func permutePoints(perm []Point, set uint32) uint32 {
	var out uint32
	for ; set != 0; set &= set - 1 {
		out |= 1 << perm[bits.TrailingZeros32(set)]
	}
	return out
}

// millLineOf returns the index of the mill line with the point set set. A
// symmetry maps mill lines to mill lines, so the image of one is found.
func (r *Rules) millLineOf(set uint32) int {
	for i, l := range r.lines {
		if uint32(l) == set {
			return i
		}
	}
	panic("mill: a symmetry maps a mill line to no mill line")
}
