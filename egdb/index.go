package egdb

import (
	"math/bits"
	"sync"

	"github.com/morrisgame/morris/mill"
)

// indexer ranks positions of a sector (the point set of the side to move,
// W, and of the opponent, B) into dense indices, one per position up to the
// symmetries of the board.
//
// W is replaced by the smallest of its images under the symmetries (as a
// number), W0; the symmetries that map W to W0 map B too, and the smallest
// image of B among them is kept. The index is
//
//	class(W0) * C(n-|W|, |B|) + rank of B among the n-|W| points not in W0
//
// where class numbers the canonical sets of |W| points in increasing order
// and ranks are colexicographic. When W0 is symmetric (some symmetry other
// than the identity keeps it), several indices show the same position: the
// one with the smallest image of B is the position, the others are unused.
type indexer struct {
	n     int
	all   uint32
	nsym  int
	perm  [][4][256]uint32 // perm[s][k][byte]: the image under s of the points 8k..8k+7 in byte
	binom [mill.MaxPoints + 1][mill.MaxPoints + 1]int64
	pmap  [][mill.MaxPoints]uint8 // pmap[s][p]: the image under s of the point p
	// crank[k][v][o]: the share in a colex rank of the points 8k..8k+7 in
	// the byte v, when o points of the set lie below them (rankPacked).
	crank [4][256][maxPacked + 1]int64

	mu      sync.Mutex
	classes [mill.MaxPoints + 1]*classTable
}

// classTable lists the canonical sets of one size.
type classTable struct {
	reps []uint32 // the canonical sets, by class number
	of   []int32  // colex rank of a set -> its class, or -1 if it is not canonical
	stab []uint32 // per class: the symmetries that keep the set (bit s), the identity included
}

func newIndexer(b *mill.Board) *indexer {
	x := &indexer{n: b.Len(), nsym: len(b.Symmetries)}
	x.all = uint32(1<<uint(x.n) - 1)
	if x.nsym > 32 {
		panic("egdb: more than 32 symmetries")
	}
	for i := 0; i <= mill.MaxPoints; i++ {
		x.binom[i][0] = 1
		for j := 1; j <= i; j++ {
			x.binom[i][j] = x.binom[i-1][j-1] + x.binom[i-1][j]
		}
	}
	x.perm = make([][4][256]uint32, x.nsym)
	x.pmap = make([][mill.MaxPoints]uint8, x.nsym)
	for s, perm := range b.Symmetries {
		for p := 0; p < x.n; p++ {
			x.pmap[s][p] = uint8(perm[p])
		}
		for k := range 4 {
			for v := range 256 {
				var img uint32
				for bit := range 8 {
					p := 8*k + bit
					if v&(1<<bit) != 0 && p < x.n {
						img |= 1 << perm[p]
					}
				}
				x.perm[s][k][v] = img
			}
		}
	}
	for k := range 4 {
		for v := range 256 {
			for o := 0; o <= maxPacked; o++ {
				var r int64
				j := o
				for bit := range 8 {
					if v&(1<<bit) != 0 {
						j++
						if p := 8*k + bit; j <= mill.MaxPoints {
							r += x.binom[p][j]
						}
					}
				}
				x.crank[k][v][o] = r
			}
		}
	}
	return x
}

// maxPacked is the most points a set ranked by rankPacked may have.
const maxPacked = 16

// rankPacked returns the colex rank of set among the sets of its size (at
// most maxPacked points), as colex does, by four table lookups instead of
// a step per point.
func (x *indexer) rankPacked(set uint32) int64 {
	lo := bits.OnesCount32(set & 0xFF)
	mid := lo + bits.OnesCount32(set>>8&0xFF)
	hi := mid + bits.OnesCount32(set>>16&0xFF)
	return x.crank[0][set&0xFF][0] + x.crank[1][set>>8&0xFF][lo] +
		x.crank[2][set>>16&0xFF][mid] + x.crank[3][set>>24][hi]
}

// freeRanks fills fr with, for each point not in taken, its rank among
// those points (from the lowest): the set of those ranks of a set disjoint
// from taken has the rank rankIn gives it (rankPacked of the packed set).
func (x *indexer) freeRanks(fr *[mill.MaxPoints]uint8, taken uint32) {
	c := uint8(0)
	for free := x.all &^ taken; free != 0; free &= free - 1 {
		fr[bits.TrailingZeros32(free)] = c
		c++
	}
}

// apply returns the image of set under symmetry s.
func (x *indexer) apply(s int, set uint32) uint32 {
	t := &x.perm[s]
	return t[0][set&0xFF] | t[1][set>>8&0xFF] | t[2][set>>16&0xFF] | t[3][set>>24]
}

// canon returns the smallest image of set and the symmetries that give it.
func (x *indexer) canon(set uint32) (uint32, uint32) {
	best, syms := set, uint32(1)
	for s := 1; s < x.nsym; s++ {
		t := x.apply(s, set)
		if t < best {
			best, syms = t, 1<<s
		} else if t == best {
			syms |= 1 << s
		}
	}
	return best, syms
}

// images are the images of a set under every symmetry (images[s]).
type images [32]uint32

// imagesOf fills img with the images of set.
func (x *indexer) imagesOf(img *images, set uint32) {
	for s := range x.nsym {
		img[s] = x.apply(s, set)
	}
}

// toggle makes img, the images of a set, those of the set with the points
// of diff toggled (a permutation maps a symmetric difference to the
// symmetric difference of the images): a lookup a symmetry for each byte
// of diff that has points.
func (x *indexer) toggle(img *images, diff uint32) {
	for k := 0; diff != 0; k, diff = k+1, diff>>8 {
		v := diff & 0xFF
		if v == 0 {
			continue
		}
		for s := range x.nsym {
			img[s] ^= x.perm[s][k][v]
		}
	}
}

// minImages returns what canon returns for the set whose images are img.
func (x *indexer) minImages(img *images) (uint32, uint32) {
	best, syms := img[0], uint32(1)
	for s := 1; s < x.nsym; s++ {
		if t := img[s]; t < best {
			best, syms = t, 1<<s
		} else if t == best {
			syms |= 1 << s
		}
	}
	return best, syms
}

// canonMoved returns what canon returns for the set whose images are img
// with the points a and b toggled (a piece moved from one to the other):
// two lookups a symmetry instead of an application of it.
func (x *indexer) canonMoved(img *images, a, b int) (uint32, uint32) {
	best, syms := img[0]^(1<<a|1<<b), uint32(1)
	for s := 1; s < x.nsym; s++ {
		t := img[s] ^ (1<<x.pmap[s][a] | 1<<x.pmap[s][b])
		if t < best {
			best, syms = t, 1<<s
		} else if t == best {
			syms |= 1 << s
		}
	}
	return best, syms
}

// canonLess returns what canon returns for the set whose images are img
// less the point a (a piece taken): one lookup a symmetry.
func (x *indexer) canonLess(img *images, a int) (uint32, uint32) {
	best, syms := img[0]&^(1<<a), uint32(1)
	for s := 1; s < x.nsym; s++ {
		t := img[s] &^ (1 << x.pmap[s][a])
		if t < best {
			best, syms = t, 1<<s
		} else if t == best {
			syms |= 1 << s
		}
	}
	return best, syms
}

// minOf returns the smallest of the images img[s] for s in syms.
func minOf(img *images, syms uint32) uint32 {
	best := ^uint32(0)
	for ; syms != 0; syms &= syms - 1 {
		if t := img[bits.TrailingZeros32(syms)]; t < best {
			best = t
		}
	}
	return best
}

// minImage returns the smallest image of set under the symmetries syms.
func (x *indexer) minImage(syms, set uint32) uint32 {
	if syms&(syms-1) == 0 {
		return x.apply(bits.TrailingZeros32(syms), set)
	}
	best := ^uint32(0)
	for ; syms != 0; syms &= syms - 1 {
		if t := x.apply(bits.TrailingZeros32(syms), set); t < best {
			best = t
		}
	}
	return best
}

// colex returns the colexicographic rank of set among the sets of its size.
func (x *indexer) colex(set uint32) int64 {
	if bits.OnesCount32(set) <= maxPacked {
		return x.rankPacked(set)
	}
	var r int64
	j := 1
	for ; set != 0; set &= set - 1 {
		r += x.binom[bits.TrailingZeros32(set)][j]
		j++
	}
	return r
}

// rankIn returns the colex rank of set among the sets of its size made of
// the points not in taken.
func (x *indexer) rankIn(set, taken uint32) int64 {
	var r int64
	j := 1
	for ; set != 0; set &= set - 1 {
		p := bits.TrailingZeros32(set)
		r += x.binom[p-bits.OnesCount32(taken&(1<<p-1))][j]
		j++
	}
	return r
}

// unrank returns the set of k positions (0..) with colex rank r.
func (x *indexer) unrank(r int64, k int) uint32 {
	var set uint32
	c := x.n
	for j := k; j >= 1; j-- {
		for x.binom[c][j] > r {
			c--
		}
		set |= 1 << c
		r -= x.binom[c][j]
	}
	return set
}

// expand maps a set of positions among the points of free (counted from
// the lowest) to the points themselves.
func expand(pos, free uint32) uint32 {
	var set uint32
	for i := 0; free != 0; i++ {
		low := free & -free
		if pos&(1<<i) != 0 {
			set |= low
		}
		free &^= low
	}
	return set
}

// table returns the canonical sets of k points, building them on first use.
func (x *indexer) table(k int) *classTable {
	x.mu.Lock()
	defer x.mu.Unlock()
	if t := x.classes[k]; t != nil {
		return t
	}
	t := &classTable{of: make([]int32, x.binom[x.n][k])}
	for r := range t.of {
		set := x.unrank(int64(r), k)
		if best, syms := x.canon(set); best == set {
			t.of[r] = int32(len(t.reps))
			t.reps = append(t.reps, set)
			t.stab = append(t.stab, syms)
		} else {
			t.of[r] = -1
		}
	}
	x.classes[k] = t
	return t
}

// layout is the index layout of one sector: |W| = w, |B| = b.
type layout struct {
	x      *indexer
	w, b   int
	t      *classTable
	stride int64 // C(n-w, b): indices per class
	size   int64
}

func (x *indexer) layout(w, b int) layout {
	t := x.table(w)
	stride := x.binom[x.n-w][b]
	return layout{x: x, w: w, b: b, t: t, stride: stride, size: int64(len(t.reps)) * stride}
}

// index returns the index of the position (W, B): W has w points, B b
// points, and they do not meet.
func (l *layout) index(W, B uint32) int64 {
	W0, syms := l.x.canon(W)
	return l.indexCanon(W0, syms, B)
}

// indexCanon is index when W's smallest image W0 and its symmetries are known.
func (l *layout) indexCanon(W0, syms, B uint32) int64 {
	return l.classBase(W0) + l.x.rankIn(l.x.minImage(syms, B), W0)
}

// classBase returns the first index of the class of the canonical set W0.
func (l *layout) classBase(W0 uint32) int64 {
	return int64(l.t.of[l.x.colex(W0)]) * l.stride
}

// position returns the position at index i, and whether i is the index of
// the position (and not an unused duplicate).
func (l *layout) position(i int64) (W, B uint32, valid bool) {
	c := i / l.stride
	W = l.t.reps[c]
	B = expand(l.x.unrank(i%l.stride, l.b), l.x.all&^W)
	return W, B, l.smallestIn(c, B)
}

// smallestIn reports whether B is the smallest of its images under the
// symmetries that fix the first set of class c: only then is its index the
// position's (the others are unused duplicates).
func (l *layout) smallestIn(c int64, B uint32) bool {
	stab := l.t.stab[c]
	return stab == 1 || l.x.minImage(stab, B) == B
}

// cursor steps through consecutive indices of a layout, as the count and
// verify passes visit them: within a class (the first set fixed) the next
// index's second set is the next set of the same size in colex order, a
// few instructions, and the free points it is spread over are looked up a
// byte at a time. position's unrank and expand, a step per point with a
// branch on each, cost several times that.
type cursor struct {
	l      *layout
	c      int64  // the class of exp
	next   int64  // the index that is a step from the last one
	end    int64  // the first index past class c
	packed uint32 // the last second set, as ranks among the free points
	// exp[k][v]: the points of the byte v of ranks 8k..8k+7 among the
	// points not in the class's first set.
	exp [mill.MaxPoints / 8][256]uint32
}

// minStride: a layout with fewer indices a class is not worth a cursor
// (filling exp takes about as long as a few hundred steps save).
const minStride = 64

// position is l.position(i), stepping from the last index when it can.
func (cu *cursor) position(l *layout, i int64) (W, B uint32, valid bool) {
	if l.stride < minStride {
		return l.position(i)
	}
	if cu.l == l && i == cu.next && i < cu.end {
		cu.packed = nextColex(cu.packed)
	} else {
		c := i / l.stride
		if cu.l != l || c != cu.c {
			cu.fill(l, c)
		}
		cu.packed = l.x.unrank(i-c*l.stride, l.b)
	}
	cu.next = i + 1
	p := cu.packed
	W = l.t.reps[cu.c]
	B = cu.exp[0][p&0xFF] | cu.exp[1][p>>8&0xFF] | cu.exp[2][p>>16&0xFF] | cu.exp[3][p>>24]
	return W, B, l.smallestIn(cu.c, B)
}

// fill sets the cursor on class c of l.
func (cu *cursor) fill(l *layout, c int64) {
	cu.l, cu.c, cu.end = l, c, (c+1)*l.stride
	var free [mill.MaxPoints]uint32
	m := 0
	for f := l.x.all &^ l.t.reps[c]; f != 0; f &= f - 1 {
		free[m] = f & -f
		m++
	}
	for k := range cu.exp {
		t := &cu.exp[k]
		if 8*k >= m {
			*t = [256]uint32{}
			continue
		}
		for v := 1; v < 256; v++ {
			var pt uint32
			if r := 8*k + bits.TrailingZeros32(uint32(v)); r < m {
				pt = free[r]
			}
			t[v] = t[v&(v-1)] | pt
		}
	}
}

// nextColex returns the next larger set with as many points as set (not
// empty): the next in colex order.
func nextColex(set uint32) uint32 {
	t := bits.TrailingZeros32(set)
	r := set + 1<<t
	return r | (r^set)>>(t+2)
}
