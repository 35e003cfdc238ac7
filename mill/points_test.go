package mill

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPoints checks Has, Len and All against the set's bits, one by one.
func TestPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(46, 7))
	sets := []Points{0, 1, 1 << 31, 0xFFFFFFFF, 0x00FFFFFF}
	for range 200 {
		sets = append(sets, Points(rng.Uint32()))
	}
	for _, s := range sets {
		var want []Point
		for p := range Point(MaxPoints) {
			if s>>p&1 != 0 {
				want = append(want, p)
			}
			if got := s.Has(p); got != (s>>p&1 != 0) {
				t.Errorf("%#x.Has(%d) = %v, want %v", uint32(s), p, got, !got)
			}
		}
		if got := slices.Collect(s.All()); !slices.Equal(got, want) {
			t.Errorf("%#x.All() = %v, want %v", uint32(s), got, want)
		}
		if got := s.Len(); got != len(want) {
			t.Errorf("%#x.Len() = %d, want %d", uint32(s), got, len(want))
		}
		if s.Has(NoPoint) {
			t.Errorf("%#x.Has(NoPoint) = true, want false", uint32(s))
		}
		// Stopping early stops the iterator.
		n := 0
		for range s.All() {
			if n++; n == 2 {
				break
			}
		}
		if n != min(2, len(want)) {
			t.Errorf("%#x: a loop broken after 2 points ran %d times", uint32(s), n)
		}
	}
}

// TestPointsNoAllocs fails if a range over Points.All allocates: the
// evaluation and the solver run it in their hot loops.
func TestPointsNoAllocs(t *testing.T) {
	s := Points(0x00A5F00F)
	sum := 0
	if n := testing.AllocsPerRun(100, func() {
		for p := range s.All() {
			sum += int(p)
		}
	}); n != 0 {
		t.Errorf("a range over Points.All allocates %v times", n)
	}
	_ = sum
}
