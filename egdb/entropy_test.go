package egdb

import (
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestSectorEntropy measures how well the W/D/L values of built sectors
// could be compressed, for the compact file (docs/egdb.md, "Toward a
// compact file"): the entropy of the values, in bits a position, under
// models a decoder could use. It reads the sector files named, comma
// separated, in EGDB_ENTROPY (of nine men's morris, moving phase) and
// skips without it; a sector of 600 million indices takes about a minute.
//
//	EGDB_ENTROPY=/work/db/nmm/7v7.egdb go test -run TestSectorEntropy -v ./egdb
//
// The models, each the entropy of the value given what it names:
//   - H0: nothing;
//   - prev: the values of the two indices before (in index order);
//   - feat: the position's features: whether each side could close a mill
//     with a move, and each side's number of moves (0, 1, 2-3, 4 or more:
//     the side not to move as though it were);
//   - feat+prev: both;
//   - dc: as feat+prev, but the positions whose side to move can close a
//     mill and wins are left out (Syzygy's "don't care": their value can
//     be found by a search of the captures), counted at no cost.
func TestSectorEntropy(t *testing.T) {
	paths := os.Getenv("EGDB_ENTROPY")
	if paths == "" {
		t.Skip("EGDB_ENTROPY names no sector files")
	}
	r := mill.MustRules("nine-mens-morris")
	g := newRules(r)
	x := newIndexer(r.Board())
	for _, path := range strings.Split(paths, ",") {
		var k Key
		if _, err := fmt.Sscanf(filepath.Base(path), "%dv%d.egdb", &k.White, &k.Black); err != nil {
			t.Fatalf("%s: not a moving sector's file: %v", path, err)
		}
		sf, err := openSector(path, false)
		if err != nil {
			t.Fatal(err)
		}
		lay := x.layout(k.White, k.Black)
		if lay.size != int64(len(sf.vals.v)) {
			t.Fatalf("%s: %d values, the layout %d", path, len(sf.vals.v), lay.size)
		}
		// moves returns a side's number of moves, bucketed, and whether
		// one of them closes a mill.
		moves := func(own uint32, pieces int, empty uint32) (int, bool) {
			m, closes := 0, false
			for p := own; p != 0; p &= p - 1 {
				from := p & -p
				to := g.adj[bits.TrailingZeros32(p)] & empty
				if g.flying(pieces) {
					to = empty
				}
				for q := to; q != 0; q &= q - 1 {
					m++
					if !closes {
						at := bits.TrailingZeros32(q)
						closes = g.closes(own&^from|1<<at, at)
					}
				}
			}
			switch {
			case m <= 1:
				return m, closes
			case m <= 3:
				return 2, closes
			}
			return 3, closes
		}
		var h0, prev, feat, both, dc, prevDC entropyCounts
		var cu cursor
		var p1, p2 int
		var valid, dontCare float64
		for i := range lay.size {
			W, B, ok := cu.position(&lay, i)
			if !ok {
				continue // an unused index: free to any model
			}
			v := sf.vals.v[i]
			s := 1 // draw
			switch {
			case v.IsWin():
				s = 0
			case v.IsLoss():
				s = 2
			}
			empty := g.all &^ (W | B)
			mw, cw := moves(W, k.White, empty)
			mb, cb := moves(B, k.Black, empty)
			f := ((boolInt(cw)*2+boolInt(cb))*4+mw)*4 + mb
			h0.add(0, s)
			prev.add(p1*3+p2, s)
			feat.add(f, s)
			both.add((f*3+p1)*3+p2, s)
			if cw && s == 0 {
				dontCare++
			} else {
				dc.add((f*3+p1)*3+p2, s)
				prevDC.add(p1*3+p2, s)
			}
			p2, p1 = p1, s
			valid++
		}
		sf.close()
		dcBits := dc.bits() * (valid - dontCare) / valid
		prevDCBits := prevDC.bits() * (valid - dontCare) / valid
		t.Logf("%s: %.0f positions; bits a position: H0 %.3f, prev %.3f, feat %.3f, feat+prev %.3f, dc %.3f, prev+dc %.3f (%.1f%% don't care)",
			k, valid, h0.bits(), prev.bits(), feat.bits(), both.bits(), dcBits, prevDCBits, 100*dontCare/valid)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// entropyCounts counts the values (W, D, L) seen in each context (fewer
// than 1024).
type entropyCounts [1024][3]float64

func (e *entropyCounts) add(ctx, s int) { e[ctx][s]++ }

// bits is the conditional entropy of the values given the context, in
// bits a value counted.
func (e *entropyCounts) bits() float64 {
	var total, h float64
	for _, c := range e {
		n := c[0] + c[1] + c[2]
		total += n
		for _, x := range c {
			if x > 0 {
				h -= x * math.Log2(x/n)
			}
		}
	}
	if total == 0 {
		return 0
	}
	return h / total
}

// BenchmarkFeatures: what a decoder would pay a position for contexts
// from the position (TestSectorEntropy's features): the next index's
// position by the cursor, then whether each side can close a mill and how
// many moves it has, over 7v7 of nine men's morris.
func BenchmarkFeatures(b *testing.B) {
	r := mill.MustRules("nine-mens-morris")
	g := newRules(r)
	x := newIndexer(r.Board())
	lay := x.layout(7, 7)
	moves := func(own uint32, empty uint32) (int, bool) {
		m, closes := 0, false
		for p := own; p != 0; p &= p - 1 {
			from := p & -p
			for q := g.adj[bits.TrailingZeros32(p)] & empty; q != 0; q &= q - 1 {
				m++
				if !closes {
					at := bits.TrailingZeros32(q)
					closes = g.closes(own&^from|1<<at, at)
				}
			}
		}
		return m, closes
	}
	var cu cursor
	sink := 0
	b.ResetTimer()
	for i := range b.N {
		W, B, _ := cu.position(&lay, int64(i)%lay.size)
		empty := g.all &^ (W | B)
		mw, cw := moves(W, empty)
		mb, cb := moves(B, empty)
		sink += mw + mb + boolInt(cw) + boolInt(cb)
	}
	if sink == -1 {
		b.Log(sink)
	}
}
