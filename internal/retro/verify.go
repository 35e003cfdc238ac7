package retro

import (
	"context"
	"fmt"
	"runtime"
	"sync"
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
	kids := make([][]Child, opt.Threads)
	prog := Progress{Sectors: sv.name, Phase: "verify", Total: int64(len(own))}
	err := sv.parallel(ctx, int64(len(own)), opt.chunkOr(1<<11), prog, 0, nil, func(t int, lo, hi int64) error {
		w := sv.workers[t]
		var c Counts
		var first *MismatchError
		var wrong int64
		for i := lo; i < hi; i++ {
			ks, end, valid := w.Children(s, i, kids[t][:0])
			kids[t] = ks
			got := own[i]
			want := end
			switch {
			case !valid:
				c.Unused++
				want = Draw
			case len(ks) > 0:
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
				want = best
			}
			if valid {
				c.add(got)
			}
			if got != want {
				wrong++
				if first == nil {
					first = &MismatchError{Sector: sv.name, Index: i, Got: got, Want: want}
				}
			}
		}
		mu.Lock()
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
		mu.Unlock()
		return nil
	})
	if err != nil {
		return counts, err
	}
	if bad != nil {
		return counts, bad
	}
	return counts, nil
}
