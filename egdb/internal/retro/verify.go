package retro

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// MismatchError reports a stored value that its children contradict.
type MismatchError struct {
	Sector    string
	Index     int64
	Got, Want Value // stored, and re-derived from the children
	Count     int64 // how many positions of the sector are wrong
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("retro: sector %s: %d wrong values; index %d holds %v, its children say %v", e.Sector, e.Count, e.Index, e.Got, e.Want)
}

// Verify re-derives every value of sector s from the stored values of its
// children (Combine, or the end for a position without moves) and compares
// it with the stored one, independently of how the values were made. values
// returns the values of s and of every sector s depends on. Indices that are
// no position must hold Draw. It returns the counts of s, and a
// *MismatchError if any value is wrong.
func Verify(ctx context.Context, g Game, s int, values func(s int) []Value, opt Options) (Counts, error) {
	if opt.Threads <= 0 {
		opt.Threads = runtime.GOMAXPROCS(0)
	}
	vals := make([][]Value, g.NumSectors())
	for _, d := range append([]int{s}, g.Deps(s)...) {
		if vals[d] != nil {
			continue
		}
		vals[d] = values(d)
		if int64(len(vals[d])) != g.Size(d) {
			return Counts{}, fmt.Errorf("retro: verify %s: the values of %s are missing", g.Name(s), g.Name(d))
		}
	}
	own := vals[s]
	sv := &solver{g: g, opt: opt, name: g.Name(s)}
	for range opt.Threads {
		sv.workers = append(sv.workers, g.NewWorker())
	}
	var (
		mu     sync.Mutex
		counts Counts
		bad    *MismatchError
	)
	// merge adds a goroutine's counts and its first wrong value (the one
	// of the lowest index is reported) with the number of wrong ones.
	merge := func(c Counts, first *MismatchError, wrong int64) {
		mu.Lock()
		defer mu.Unlock()
		counts.merge(c)
		if first != nil {
			if bad == nil || first.Index < bad.Index {
				n := int64(0)
				if bad != nil {
					n = bad.Count
				}
				bad = first
				bad.Count = n
			}
			bad.Count += wrong
		}
	}
	// want re-derives the value of a position from its children.
	want := func(ks []Child, end Value) Value {
		if len(ks) == 0 {
			return end
		}
		best, none := Draw, true
		for _, k := range ks {
			v := k.Value
			if !k.End {
				v = vals[k.Sector][k.Index]
			}
			if p := v.Parent(); none || p.Better(best) {
				best, none = p, false
			}
		}
		return best
	}
	// The positions are visited in the order of the indices, or in the
	// game's own (Visitor, as the count pass does): then the indices never
	// visited are no position, and are checked to hold a draw afterwards.
	n := int64(len(own))
	visits, byGame := sv.order(s)
	var seen []uint64 // by the game's order: bit i%64 of seen[i/64] once i is visited
	if byGame {
		seen = make([]uint64, (n+63)/64)
	}
	scr := make([]blockScratch, opt.Threads)
	prog := Progress{Sectors: sv.name, Phase: "verify", Total: visits}
	err := sv.parallel(ctx, visits, opt.chunkOr(1<<11), prog, 0, nil, func(t int, lo, hi int64) error {
		wk, err := sv.walker(t, s, byGame)
		if err != nil {
			return err
		}
		var c Counts
		var first *MismatchError
		var wrong int64
		sc := &scr[t]
		for blo := lo; blo < hi; blo += block {
			gather(sc, wk, s, blo, min(blo+block, hi), vals)
			from := 0
			for _, p := range sc.pos {
				ks := sc.kids[from:p.end]
				from = p.end
				i, valid := p.i, p.valid
				if byGame {
					if !valid {
						continue // an empty slot; the indices never visited are checked below
					}
					atomic.OrUint64(&seen[i>>6], 1<<(i&63))
				}
				got := own[i]
				var v Value
				if valid {
					v = want(ks, p.val)
					c.add(got)
				} else {
					c.Unused++
				}
				if got != v {
					wrong++
					if first == nil || i < first.Index {
						first = &MismatchError{Sector: sv.name, Index: i, Got: got, Want: v}
					}
				}
			}
		}
		merge(c, first, wrong)
		return nil
	})
	if err == nil && byGame {
		var c Counts
		var first *MismatchError
		var wrong int64
		for i := range n {
			if seen[i>>6]&(1<<(i&63)) != 0 {
				continue
			}
			c.Unused++
			if own[i] != Draw {
				wrong++
				if first == nil {
					first = &MismatchError{Sector: sv.name, Index: i, Got: own[i], Want: Draw}
				}
			}
		}
		merge(c, first, wrong)
	}
	if err != nil {
		return counts, err
	}
	if bad != nil {
		return counts, bad
	}
	return counts, nil
}
