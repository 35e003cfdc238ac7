package egdb

import (
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/mill"
)

// TestDontCareRules measures, over the sectors named in EGDB_DC_KEYS (of
// the nine men's morris files in EGDB_DC_DIR), what the capture "don't
// care" positions would save and cost under two rules: "any" (a position
// whose best capture wins stores anything; a probe reads captures until
// one wins) and "first" (a position whose first capture wins stores
// anything; a probe reads that one capture). Each rule's size is the cost
// of coding the sector with a static order-2 model counted over the
// positions that are not free, each free position coded as its context's
// likeliest allowed symbol.
func TestDontCareRules(t *testing.T) {
	dir, keys := os.Getenv("EGDB_DC_DIR"), os.Getenv("EGDB_DC_KEYS")
	if dir == "" || keys == "" {
		t.Skip("EGDB_DC_DIR and EGDB_DC_KEYS name no sectors")
	}
	r := mill.MustRules("nine-mens-morris")
	x := newIndexer(r.Board())
	files := map[Key]*sectorFile{}
	file := func(k Key) *sectorFile {
		if f, ok := files[k]; ok {
			return f
		}
		f, err := openSector(filepath.Join(dir, k.String()+".egdb"), false)
		if err != nil {
			t.Fatal(err)
		}
		files[k] = f
		return f
	}
	defer func() {
		for _, f := range files {
			f.close()
		}
	}()
	for _, ks := range strings.Split(keys, ",") {
		var k Key
		if strings.Contains(ks, "h") {
			fmt.Sscanf(ks, "%dv%dh%d-%d", &k.White, &k.Black, &k.WhiteHand, &k.BlackHand)
		} else {
			fmt.Sscanf(ks, "%dv%d", &k.White, &k.Black)
		}
		g, err := newGame(r, x, []Key{k})
		if err != nil {
			t.Fatal(err)
		}
		s := g.id[k]
		vals := file(k).vals.v
		cs := g.capture[s]
		var cvals []retro.Value
		if cs >= 0 {
			cvals = file(g.keys[cs]).vals.v
		}
		wk := &worker{g: g}
		lay := &g.lay[s]
		n := lay.size
		if lim, _ := strconv.ParseInt(os.Getenv("EGDB_DC_LIMIT"), 10, 64); lim > 0 && lim < n {
			n = lim // the first indices only: a sample
		}
		// allowed[i]: bit 0..2 the symbols index i may store, for each
		// rule (0 exact, 1 any, 2 first); 0 for an unused index.
		allowed := [3][]byte{make([]byte, n), make([]byte, n), make([]byte, n)}
		var probesAny, probesFirst, withCapture, valid float64
		var dst []retro.Child
		var cu cursor
		sym := func(v retro.Value) int {
			switch {
			case v.IsWin():
				return wdlWin
			case v.IsLoss():
				return wdlLoss
			}
			return wdlDraw
		}
		for i := range n {
			W, B, ok := cu.position(lay, i)
			if !ok {
				continue
			}
			valid++
			if i%(1<<22) == 0 {
				t.Logf("%s: %d of %d", k, i, n)
			}
			v := sym(vals[i])
			allowed[0][i] = 1 << v
			allowed[1][i] = 1 << v
			allowed[2][i] = 1 << v
			dst, _ = wk.children(s, W, B, dst[:0])
			// The capture children's values for the mover, in order.
			c, c1, nc := wdlLoss, -1, 0
			var caps [64]int
			for _, ch := range dst {
				var cv int
				switch {
				case ch.End:
					cv = 2 - sym(ch.Value)
				case ch.Sector == cs:
					cv = 2 - sym(cvals[ch.Index])
				default:
					continue
				}
				caps[nc] = cv
				nc++
				if c1 < 0 {
					c1 = cv
				}
				c = min(c, cv)
			}
			if nc == 0 {
				continue
			}
			withCapture++
			// Symbols s with max(best, s) = v (W=0 best): s ≥ v in
			// W<D<L order when best == v, else s == v.
			set := func(best int) byte {
				if best != v {
					return 1 << v
				}
				var m byte
				for s := v; s <= wdlLoss; s++ {
					m |= 1 << s
				}
				return m
			}
			allowed[1][i] = set(c)
			allowed[2][i] = set(c1)
			// Probes a decoder makes when it reads a non-win: any
			// reads captures until one wins; first reads one.
			if allowed[1][i] != 1<<wdlWin {
				k := 0
				for k < nc && caps[k] != wdlWin {
					k++
				}
				probesAny += float64(min(k+1, nc))
			}
			probesFirst++
		}
		for rule, name := range []string{"exact", "any", "first"} {
			bitsPer := staticCost(allowed[rule]) / valid
			ideal, bucket, o2, runs := runCost(allowed[rule])
			t.Logf("%s %s: %.3f bits a position; as runs (%.1f a run): ideal %.3f, bucketed %.3f, order-2 on the runs' choices %.3f",
				k, name, bitsPer, valid/float64(runs), ideal/valid, bucket/valid, o2/valid)
		}
		t.Logf("%s: %.0f positions, %.1f%% with a capture; capture probes a position: any ≤ %.2f, first ≤ %.2f",
			k, valid, 100*withCapture/valid, probesAny/valid, probesFirst/valid)
	}
}

const (
	wdlWin  = 0
	wdlDraw = 1
	wdlLoss = 2
)

// staticCost codes the symbols allowed by an order-2 model counted over
// the indices with one allowed symbol, each index with several taking its
// context's likeliest, and returns the total code length in bits.
func staticCost(allowed []byte) float64 {
	var counts [9][3]float64
	p1, p2 := wdlDraw, wdlDraw
	choose := func(m byte, c int) int {
		best := -1
		for s := range 3 {
			if m&(1<<s) != 0 && (best < 0 || counts[c][s] > counts[c][best]) {
				best = s
			}
		}
		return best
	}
	for _, m := range allowed {
		if m == 0 {
			continue
		}
		c := p1*3 + p2
		s := choose(m, c)
		if m&(m-1) == 0 {
			counts[c][s]++
		}
		p2, p1 = p1, s
	}
	// The model an encoder would count: over the symbols chosen, the free
	// ones included.
	var chosen [9][3]float64
	p1, p2 = wdlDraw, wdlDraw
	for _, m := range allowed {
		if m == 0 {
			continue
		}
		c := p1*3 + p2
		s := choose(m, c)
		chosen[c][s]++
		p2, p1 = p1, s
	}
	counts = chosen
	var total float64
	p1, p2 = wdlDraw, wdlDraw
	for _, m := range allowed {
		if m == 0 {
			continue
		}
		c := p1*3 + p2
		s := choose(m, c)
		n := counts[c][0] + counts[c][1] + counts[c][2]
		total -= math.Log2((counts[c][s] + 0.5) / (n + 1.5))
		p2, p1 = p1, s
	}
	return total
}

// runCost codes the symbols allowed as runs, each free index continuing
// the run before it where it may, in chunks of 1024 (a run ends at a
// chunk's end): a run's symbol given the last run's (the first of a chunk
// given a draw), then its length given its symbol. It returns the bits of
// three models of the lengths: each length's own frequency (ideal), its
// bucket (bits.Len) coded and the bits below the top one raw (bucket), and
// the order-2 model over the same symbols, for comparison.
func runCost(allowed []byte) (ideal, bucket, order2 float64, runs int) {
	var symCount [4][3]float64 // [previous run's symbol, 3 at a chunk's start][symbol]
	lenCount := map[[2]int]float64{}
	var bucketCount [3][12]float64
	var o2 [9][3]float64
	type run struct{ prev, sym, n int }
	var all []run
	prev, cur, n, j := 3, -1, 0, 0
	p1, p2 := wdlDraw, wdlDraw
	flush := func() {
		if n > 0 {
			all = append(all, run{prev, cur, n})
			prev = cur
		}
		n = 0
	}
	for _, m := range allowed {
		if m == 0 {
			continue
		}
		if j%1024 == 0 {
			flush()
			prev, cur = 3, -1
			p1, p2 = wdlDraw, wdlDraw
		}
		j++
		s := -1
		if cur >= 0 && m&(1<<cur) != 0 {
			s = cur
		} else {
			for _, t := range []int{wdlDraw, wdlLoss, wdlWin} {
				if m&(1<<t) != 0 {
					s = t
					break
				}
			}
		}
		o2[p1*3+p2][s]++
		p2, p1 = p1, s
		if s != cur {
			flush()
			cur = s
		}
		n++
	}
	flush()
	for _, r := range all {
		symCount[r.prev][r.sym]++
		lenCount[[2]int{r.sym, r.n}]++
		bucketCount[r.sym][bits.Len(uint(r.n))]++
	}
	var symTotal [4]float64
	var lenTotal [3]float64
	for p := range symCount {
		symTotal[p] = symCount[p][0] + symCount[p][1] + symCount[p][2]
	}
	for s := range bucketCount {
		for _, c := range bucketCount[s] {
			lenTotal[s] += c
		}
	}
	for _, r := range all {
		sb := -math.Log2(symCount[r.prev][r.sym] / symTotal[r.prev])
		ideal += sb - math.Log2(lenCount[[2]int{r.sym, r.n}]/lenTotal[r.sym])
		b := bits.Len(uint(r.n))
		bucket += sb - math.Log2(bucketCount[r.sym][b]/lenTotal[r.sym]) + float64(b-1)
	}
	for c := range o2 {
		t := o2[c][0] + o2[c][1] + o2[c][2]
		for _, x := range o2[c] {
			if x > 0 {
				order2 -= x * math.Log2(x/t)
			}
		}
	}
	return ideal, bucket, order2, len(all)
}
