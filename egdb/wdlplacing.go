package egdb

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/egdb/internal/retro"
)

// A sector of the placing phase is solved by one pass: every move places a
// piece, so every child lies in a sector below it, already solved. Kept as
// wins, draws and losses alone (Builder.WDLPlacing) it takes 2 bits an
// index instead of 2 bytes, which is what lets the placing phase of twelve
// men's morris (about 96 billion indices) fit a disk at all: 24 GB instead
// of 190. solveWDL is that pass; verifyWDL is the same computation done
// again over the file, compared index by index.

// wdlChunk is the visits a goroutine takes at a time.
const wdlChunk = 1 << 12

// wdlBlock is the visits whose children are generated before their values
// are loaded, so that the loads are in flight together (as retro's count
// pass does).
const wdlBlock = 32

// wdlScratch is a goroutine's scratch, padded apart from the others'.
type wdlScratch struct {
	kids  []retro.Child
	pos   []wdlPos
	touch retro.Value // keeps the loads of the block's values
	_     [128]byte
}

// wdlPos is a visit of a block: its index, where its children end in kids,
// its end when it has none, and whether it is a position.
type wdlPos struct {
	i     int64
	end   int
	val   retro.Value
	valid bool
}

// wdlCode returns the 2-bit code of the value of a position with children
// kids (end: its value when it has none), the children's values read from
// lower.
func wdlCode(kids []retro.Child, end retro.Value, lower []values) byte {
	if len(kids) == 0 {
		return codeOf(end)
	}
	code := byte(codeLoss)
	for _, k := range kids {
		v := k.Value
		if !k.End {
			v = lower[k.Sector].at(k.Index)
		}
		switch {
		case v.IsLoss():
			return codeWin
		case v.IsDraw():
			code = codeDraw
		}
	}
	return code
}

// codeOf is the 2-bit code of a value.
func codeOf(v retro.Value) byte {
	switch {
	case v.IsWin():
		return codeWin
	case v.IsLoss():
		return codeLoss
	}
	return codeDraw
}

// wdlPass runs f on every position of sector s of g, in parallel: for each
// visit (retro.VisitWorker, where the game has one for s, else each index)
// its index, children and end; f returns the position's code, and wdlPass
// the counts of the codes. The chunks of visits are shared among threads
// goroutines; progress, if not nil, is called about every second with the
// visits done, in the phase named.
func wdlPass(ctx context.Context, g *game, s int, threads int, lower []values, phase string, progress func(retro.Progress),
	f func(i int64, kids []retro.Child, end retro.Value) (byte, error)) (Counts, error) {
	report := func(done, total int64) {
		if progress != nil {
			progress(retro.Progress{Sectors: g.keys[s].String(), Phase: phase, Done: done, Total: total})
		}
	}
	counts := make([][4]int64, threads)
	visits := g.Visits(s)
	visitor := visits > 0
	if !visitor {
		visits = g.Size(s)
	}
	var next, done atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	stop := make(chan struct{})
	if progress != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					report(done.Load(), visits)
				}
			}
		}()
	}
	var workers sync.WaitGroup
	for t := range threads {
		workers.Add(1)
		go func() {
			defer workers.Done()
			wk := &worker{g: g}
			sc := &wdlScratch{}
			var touch retro.Value
			for ctx.Err() == nil {
				lo := next.Add(wdlChunk) - wdlChunk
				if lo >= visits {
					break
				}
				hi := min(lo+wdlChunk, visits)
				for blo := lo; blo < hi; blo += wdlBlock {
					sc.kids, sc.pos = sc.kids[:0], sc.pos[:0]
					for j := blo; j < min(blo+wdlBlock, hi); j++ {
						before := len(sc.kids)
						var i int64
						var kids []retro.Child
						var end retro.Value
						var valid bool
						if visitor {
							i, kids, end, valid = wk.Visit(s, j, sc.kids)
						} else {
							i = j
							kids, end, valid = wk.Children(s, j, sc.kids)
						}
						if !valid {
							kids = kids[:before]
						}
						sc.kids = kids
						sc.pos = append(sc.pos, wdlPos{i: i, end: len(kids), val: end, valid: valid})
					}
					for _, k := range sc.kids {
						if !k.End {
							touch |= lower[k.Sector].at(k.Index)
						}
					}
					from := 0
					for _, p := range sc.pos {
						kids := sc.kids[from:p.end]
						from = p.end
						if !p.valid {
							continue
						}
						c, err := f(p.i, kids, p.val)
						if err != nil {
							errOnce.Do(func() { firstErr = err })
							return
						}
						counts[t][c]++
					}
				}
				done.Add(hi - lo)
			}
			sc.touch = touch
		}()
	}
	workers.Wait()
	close(stop)
	wg.Wait()
	if firstErr != nil {
		return Counts{}, firstErr
	}
	if err := ctx.Err(); err != nil {
		return Counts{}, err
	}
	report(visits, visits)
	var c Counts
	for _, tc := range counts {
		c.Wins += tc[codeWin]
		c.Draws += tc[codeDraw]
		c.Losses += tc[codeLoss]
	}
	c.Unused = g.Size(s) - c.Wins - c.Draws - c.Losses
	return c, nil
}

// lowerValues returns the values of the sectors that s depends on, by
// sector, from vals; an error names a missing one.
func lowerValues(g *game, s int, vals func(int) values) ([]values, error) {
	lower := make([]values, g.NumSectors())
	for _, d := range g.Deps(s) {
		if d == s {
			return nil, fmt.Errorf("egdb: %s: a move stays in the sector: not a sector of one pass", g.keys[s])
		}
		lower[d] = vals(d)
		if lower[d].none() && g.Size(d) > 0 {
			return nil, fmt.Errorf("egdb: %s depends on %s, which is not solved", g.keys[s], g.keys[d])
		}
	}
	return lower, nil
}

// solveWDL solves sector s of the placing phase as wins, draws and losses,
// from the values of the sectors below it (vals), and returns them packed
// 2 bits an index (the file's layout) with their counts (no distances).
func solveWDL(ctx context.Context, g *game, s int, vals func(int) values, threads int, progress func(retro.Progress)) ([]byte, Counts, error) {
	lower, err := lowerValues(g, s, vals)
	if err != nil {
		return nil, Counts{}, err
	}
	n := g.Size(s)
	// Words, not bytes: the visits come in no order of the indices, and
	// goroutines set codes of one word with atomic ORs.
	words := make([]uint32, (n+15)/16)
	c, err := wdlPass(ctx, g, s, threads, lower, "wdl", progress, func(i int64, kids []retro.Child, end retro.Value) (byte, error) {
		c := wdlCode(kids, end, lower)
		atomic.OrUint32(&words[i>>4], uint32(c)<<(2*(i&15)))
		return c, nil
	})
	if err != nil {
		return nil, Counts{}, err
	}
	packed := make([]byte, (n+3)/4)
	for i := range packed {
		packed[i] = byte(words[i>>2] >> (8 * (i & 3)))
	}
	return packed, c, nil
}

// verifyWDL computes every position of the W/D/L sector s again from the
// sectors below it and compares it with the stored code (own), and every
// index that is no position with no position; it returns the counts it
// found.
func verifyWDL(ctx context.Context, g *game, s int, own []byte, vals func(int) values, threads int, progress func(retro.Progress)) (Counts, error) {
	lower, err := lowerValues(g, s, vals)
	if err != nil {
		return Counts{}, err
	}
	n := g.Size(s)
	if int64(len(own)) != (n+3)/4 {
		return Counts{}, fmt.Errorf("egdb: verify %s: %d bytes of values for %d indices", g.keys[s], len(own), n)
	}
	// seen marks the positions visited, to check that the others are
	// stored as no position.
	seen := make([]uint64, (n+63)/64)
	c, err := wdlPass(ctx, g, s, threads, lower, "verify", progress, func(i int64, kids []retro.Child, end retro.Value) (byte, error) {
		want := wdlCode(kids, end, lower)
		if got := own[i>>2] >> (2 * (i & 3)) & 3; got != want {
			return 0, fmt.Errorf("egdb: verify %s: index %d holds code %d, its children give %d", g.keys[s], i, got, want)
		}
		atomic.OrUint64(&seen[i>>6], 1<<(i&63))
		return want, nil
	})
	if err != nil {
		return Counts{}, err
	}
	for i := range n {
		if seen[i>>6]&(1<<(i&63)) == 0 && own[i>>2]>>(2*(i&3))&3 != codeNone {
			return Counts{}, fmt.Errorf("egdb: verify %s: index %d is no position and holds a value", g.keys[s], i)
		}
	}
	return c, nil
}
