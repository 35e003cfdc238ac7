package egdb

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// slowIndexer is the plain twin of the index: symmetries applied point by
// point from the board's data, canonical forms found by trying all of them,
// classes and ranks found by listing every set in order.
type slowIndexer struct {
	b    *mill.Board
	reps map[int][]uint32 // canonical sets of each size, increasing
}

func newSlowIndexer(b *mill.Board) *slowIndexer {
	return &slowIndexer{b: b, reps: map[int][]uint32{}}
}

func (x *slowIndexer) image(s int, set uint32) uint32 {
	var out uint32
	for p := 0; p < x.b.Len(); p++ {
		if set&(1<<p) != 0 {
			out |= 1 << x.b.Symmetries[s][p]
		}
	}
	return out
}

// canonical returns the image of (W, B) with the smallest W, and among
// those the smallest B.
func (x *slowIndexer) canonical(W, B uint32) (uint32, uint32) {
	bw, bb := W, B
	for s := range x.b.Symmetries {
		w, b := x.image(s, W), x.image(s, B)
		if w < bw || (w == bw && b < bb) {
			bw, bb = w, b
		}
	}
	return bw, bb
}

// sets lists the subsets of free with k elements, in increasing order.
func sets(free uint32, k int) []uint32 {
	out := unsortedSets(free, k)
	slices.Sort(out)
	return out
}

func unsortedSets(free uint32, k int) []uint32 {
	var out []uint32
	var rec func(rest uint32, k int, acc uint32)
	rec = func(rest uint32, k int, acc uint32) {
		if k == 0 {
			out = append(out, acc)
			return
		}
		for r := rest; r != 0; r &= r - 1 {
			low := r & -r
			rec(r&^low&^(low-1), k-1, acc|low)
		}
	}
	rec(free, k, 0)
	return out
}

func (x *slowIndexer) classes(k int) []uint32 {
	if r, ok := x.reps[k]; ok {
		return r
	}
	var reps []uint32
	for _, s := range sets(uint32(1<<x.b.Len()-1), k) {
		if w, _ := x.canonical(s, 0); w == s {
			reps = append(reps, s)
		}
	}
	x.reps[k] = reps
	return reps
}

// index is the slow twin of layout.index.
func (x *slowIndexer) index(W, B uint32) int64 {
	W0, B0 := x.canonical(W, B)
	w, b := bits.OnesCount32(W), bits.OnesCount32(B)
	class, _ := slices.BinarySearch(x.classes(w), W0)
	// The rank of B0: how many sets of b free points come before it.
	var rank, total int64
	for _, s := range unsortedSets(uint32(1<<x.b.Len()-1)&^W0, b) {
		total++
		if s < B0 {
			rank++
		}
	}
	return int64(class)*total + rank
}

func randomSet(rng *rand.Rand, free uint32, k int) uint32 {
	var set uint32
	for range k {
		for {
			p := uint32(1) << rng.IntN(32)
			if free&p != 0 && set&p == 0 {
				set |= p
				break
			}
		}
	}
	return set
}

func TestIndexAgainstSlowTwin(t *testing.T) {
	variants := []string{"nine-mens-morris", "twelve-mens-morris-small", "twelve-mens-morris-large"}
	if testing.Short() {
		variants = variants[:1]
	}
	for _, variant := range variants {
		r := mill.MustRules(variant)
		x := newIndexer(r.Board())
		slow := newSlowIndexer(r.Board())
		rng := rand.New(rand.NewPCG(1, 2))
		for _, wb := range [][2]int{{3, 3}, {4, 3}, {3, 5}, {5, 4}, {2, 6}} {
			lay := x.layout(wb[0], wb[1])
			n := 200
			if testing.Short() {
				n = 30
			}
			for range n {
				W := randomSet(rng, x.all, wb[0])
				B := randomSet(rng, x.all&^W, wb[1])
				got, want := lay.index(W, B), slow.index(W, B)
				if got != want {
					t.Fatalf("%s %v: W %x B %x: got index %d, want %d", variant, wb, W, B, got, want)
				}
				W0, B0 := slow.canonical(W, B)
				gw, gb, valid := lay.position(got)
				if gw != W0 || gb != B0 || !valid {
					t.Fatalf("%s %v: position(%d) = %x %x %v, want %x %x true", variant, wb, got, gw, gb, valid, W0, B0)
				}
			}
		}
	}
}

// TestIndexCoversEveryPosition: every position of 3v3 has a valid index,
// each valid index is the index of its own position, and unused indices
// are exactly the duplicates.
func TestIndexCoversEveryPosition(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	x := newIndexer(r.Board())
	sizes := [][2]int{{3, 3}, {2, 5}}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, wb := range sizes {
		lay := x.layout(wb[0], wb[1])
		hit := make([]bool, lay.size)
		for _, W := range sets(x.all, wb[0]) {
			for _, B := range sets(x.all&^W, wb[1]) {
				i := lay.index(W, B)
				if _, _, valid := lay.position(i); !valid {
					t.Fatalf("%v: W %x B %x: index %d is not valid", wb, W, B, i)
				}
				hit[i] = true
			}
		}
		unused := 0
		for i := range lay.size {
			W, B, valid := lay.position(i)
			if valid != hit[i] {
				t.Fatalf("%v: index %d: valid %v, reached %v", wb, i, valid, hit[i])
			}
			if valid && lay.index(W, B) != i {
				t.Fatalf("%v: index %d: position %x %x has index %d", wb, i, W, B, lay.index(W, B))
			}
			if !valid {
				unused++
			}
		}
		t.Logf("%v: %d indices, %d unused", wb, lay.size, unused)
	}
}

func TestKeys(t *testing.T) {
	for _, s := range []string{"3v3", "5v4", "12v3", "5v3h2-1"} {
		k, err := ParseKey(s)
		if err != nil || k.String() != s {
			t.Errorf("ParseKey(%q): got %v %v, want it back", s, k, err)
		}
	}
	for _, s := range []string{"", "3", "3v", "v3", "3x3", "3v3h1", "-1v3", "3v3h1,x", "3v3h1-", "3v3h1,0"} {
		if _, err := ParseKey(s); err == nil {
			t.Errorf("ParseKey(%q): got no error", s)
		}
	}
	got := MovingSectors(mill.MustRules("nine-mens-morris"), 10)
	var names []string
	for _, k := range got {
		names = append(names, k.String())
	}
	want := []string{"3v3", "4v3", "3v4", "5v3", "4v4", "3v5", "6v3", "5v4", "4v5", "3v6", "7v3", "6v4", "5v5", "4v6", "3v7"}
	if !slices.Equal(names, want) {
		t.Errorf("MovingSectors(10): got %v, want %v", names, want)
	}
}

// TestRankPacked: the packed rank of the children (rankPacked over
// freeRanks) equals rankIn on every board, for sets of every size it takes,
// and colex (rankPacked's lookups) is rankIn of a set among all the points
// and unrank's inverse.
func TestRankPacked(t *testing.T) {
	for _, variant := range []string{"nine-mens-morris", "twelve-mens-morris-small", "twelve-mens-morris-large"} {
		x := newIndexer(mill.MustRules(variant).Board())
		rng := rand.New(rand.NewPCG(3, 4))
		for range 20000 {
			taken := randomSet(rng, x.all, rng.IntN(13))
			k := rng.IntN(min(maxPacked, x.n-bits.OnesCount32(taken)) + 1)
			set := randomSet(rng, x.all&^taken, k)
			var fr [mill.MaxPoints]uint8
			x.freeRanks(&fr, taken)
			var packed uint32
			for f := set; f != 0; f &= f - 1 {
				packed |= 1 << fr[bits.TrailingZeros32(f)]
			}
			if got, want := x.rankPacked(packed), x.rankIn(set, taken); got != want {
				t.Fatalf("%s: set %x among the points not in %x: packed rank %d, rankIn %d", variant, set, taken, got, want)
			}
			// colex takes rankPacked's lookups; rankIn of nothing taken
			// and unrank are the step-per-point forms.
			if got, want := x.colex(set), x.rankIn(set, 0); got != want {
				t.Fatalf("%s: set %x: colex %d, rankIn %d", variant, set, got, want)
			}
			if got := x.unrank(x.colex(set), k); got != set {
				t.Fatalf("%s: set %x: colex %d unranks to %x", variant, set, x.colex(set), got)
			}
		}
	}
}

// TestCursor: stepping through consecutive indices (and jumping, and
// changing layouts) gives what position gives, on boards of 24 and 32
// points, for classes wide and narrow.
func TestCursor(t *testing.T) {
	var cu cursor // one cursor for every layout: it must notice the change
	rng := rand.New(rand.NewPCG(5, 6))
	for _, variant := range []string{"nine-mens-morris", "twelve-mens-morris", "twelve-mens-morris-large"} {
		x := newIndexer(mill.MustRules(variant).Board())
		for _, wb := range [][2]int{{3, 3}, {5, 4}, {4, 9}, {9, 9}, {2, 1}, {1, 0}, {3, 2}} {
			if x.n > 24 && wb[0] > 5 {
				continue // its class table alone takes seconds to make
			}
			l := x.layout(wb[0], wb[1])
			check := func(i int64) {
				W, B, valid := cu.position(&l, i)
				wW, wB, wValid := l.position(i)
				if W != wW || B != wB || valid != wValid {
					t.Fatalf("%s %dv%d index %d: cursor (%x, %x, %v), position (%x, %x, %v)", variant, wb[0], wb[1], i, W, B, valid, wW, wB, wValid)
				}
			}
			for range 4 {
				// A run across class boundaries, from anywhere.
				i := rng.Int64N(l.size)
				for j := i; j < min(i+3*l.stride+7, l.size); j++ {
					check(j)
				}
				check(rng.Int64N(l.size))
				check(l.size - 1)
			}
		}
	}
}

func TestNextColex(t *testing.T) {
	for k := 1; k <= 6; k++ {
		all := sets(1<<12-1, k)
		for i := 0; i+1 < len(all); i++ {
			if got := nextColex(all[i]); got != all[i+1] {
				t.Fatalf("nextColex(%b) = %b, want %b", all[i], got, all[i+1])
			}
		}
	}
}

// TestToggleImages: the images of a set followed through changes are the
// images of the set, and their smallest is canon's.
func TestToggleImages(t *testing.T) {
	for _, variant := range []string{"nine-mens-morris", "twelve-mens-morris", "twelve-mens-morris-large"} {
		x := newIndexer(mill.MustRules(variant).Board())
		rng := rand.New(rand.NewPCG(7, 8))
		var img, want images
		set := randomSet(rng, x.all, 5)
		x.imagesOf(&img, set)
		for range 5000 {
			next := randomSet(rng, x.all, rng.IntN(13))
			if rng.IntN(2) == 0 {
				next = set ^ randomSet(rng, x.all, 1+rng.IntN(2)) // a move: a point or two
			}
			x.toggle(&img, set^next)
			set = next
			x.imagesOf(&want, set)
			if img != want {
				t.Fatalf("%s: set %x: toggled images %x, want %x", variant, set, img[:x.nsym], want[:x.nsym])
			}
			b0, syms := x.minImages(&img)
			if wb, ws := x.canon(set); b0 != wb || syms != ws {
				t.Fatalf("%s: set %x: minImages (%x, %b), canon (%x, %b)", variant, set, b0, syms, wb, ws)
			}
		}
	}
}
