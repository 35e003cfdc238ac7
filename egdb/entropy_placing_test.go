package egdb

import (
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestPlacingEntropy is TestSectorEntropy's prev and prev+dc models over
// placing sectors (files named like 7v8h1-0.egdb), in EGDB_PLACING_ENTROPY.
func TestPlacingEntropy(t *testing.T) {
	paths := os.Getenv("EGDB_PLACING_ENTROPY")
	if paths == "" {
		t.Skip("EGDB_PLACING_ENTROPY names no sector files")
	}
	r := mill.MustRules("nine-mens-morris")
	g := newRules(r)
	x := newIndexer(r.Board())
	var totPos, totPrev, totDC float64
	for _, path := range strings.Split(paths, ",") {
		var k Key
		if _, err := fmt.Sscanf(filepath.Base(path), "%dv%dh%d-%d.egdb", &k.White, &k.Black, &k.WhiteHand, &k.BlackHand); err != nil {
			t.Fatalf("%s: not a placing sector's file: %v", path, err)
		}
		sf, err := openSector(path, false)
		if err != nil {
			t.Fatal(err)
		}
		lay := x.layout(k.White, k.Black)
		var prev, prevDC entropyCounts
		var cu cursor
		var p1, p2 int
		var valid, dontCare float64
		for i := range lay.size {
			W, B, ok := cu.position(&lay, i)
			if !ok {
				continue
			}
			v := sf.vals.v[i]
			s := 1
			switch {
			case v.IsWin():
				s = 0
			case v.IsLoss():
				s = 2
			}
			closes := false
			if s == 0 {
				for q := g.all &^ (W | B); q != 0 && !closes; q &= q - 1 {
					at := q & -q
					closes = g.closes(W|at, bits.TrailingZeros32(at))
				}
			}
			prev.add(p1*3+p2, s)
			if closes {
				dontCare++
			} else {
				prevDC.add(p1*3+p2, s)
			}
			p2, p1 = p1, s
			valid++
		}
		sf.close()
		pb := prev.bits()
		db := prevDC.bits() * (valid - dontCare) / valid
		totPos += valid
		totPrev += pb * valid
		totDC += db * valid
		t.Logf("%s: %.0f positions; prev %.3f, prev+dc %.3f (%.1f%% don't care)", k, valid, pb, db, 100*dontCare/valid)
	}
	t.Logf("all: %.0f positions; prev %.3f (%.0f MB), prev+dc %.3f (%.0f MB)", totPos, totPrev/totPos, totPrev/8e6, totDC/totPos, totDC/8e6)
}
