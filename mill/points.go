package mill

import (
	"iter"
	"math/bits"
)

// Points is a set of the points of a board: point p is in the set when
// bit p is set, so the set operators are Go's bit operators (a|b, a&b,
// a&^b). The zero Points is the empty set. Boards have at most MaxPoints
// points, so a set of any board fits.
type Points uint32

// Has reports whether p is in s; never for NoPoint (a shift past the
// width of the set is zero).
func (s Points) Has(p Point) bool { return s&(1<<p) != 0 }

// Len returns the number of points in s.
func (s Points) Len() int { return bits.OnesCount32(uint32(s)) }

// All returns the points of s in increasing order.
//
// A range over it compiles to the loop over the set's bits that callers
// used to write by hand: it is inlined and does not allocate, so hot
// loops (the evaluation, the solver) use it too.
func (s Points) All() iter.Seq[Point] {
	return func(yield func(Point) bool) {
		for ; s != 0; s &= s - 1 {
			if !yield(Point(bits.TrailingZeros32(uint32(s)))) {
				return
			}
		}
	}
}
