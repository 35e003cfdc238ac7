package retro

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/egdb/internal/bigmem"
)

// Options tune a solve or a verify pass.
type Options struct {
	// Threads is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Threads int
	// Progress, if not nil, is called from time to time (and at the end of
	// each phase) from a single goroutine.
	Progress func(Progress)

	// Checkpoint, if not empty, is the file where SolveComponent keeps
	// the state of the component (6 bytes an index) at the end of the count
	// pass and then at the end of a level at most every CheckpointEvery (10
	// minutes if zero), and from which it resumes when the file is there,
	// checks out, and is of this component and CheckpointTag (checkpoint.go).
	// The caller removes the file once the values are safe elsewhere.
	Checkpoint      string
	CheckpointTag   string
	CheckpointEvery time.Duration

	chunk int64 // positions per unit of work, if not the default (tests)
}

// chunkOr returns the chunk size of the options, or def.
func (o *Options) chunkOr(def int64) int64 {
	if o.chunk > 0 {
		return o.chunk
	}
	return def
}

// Progress says how far a solve or verify pass has come.
type Progress struct {
	Sectors string // the sectors being worked on, by name
	// "count" (the forward pass), "levels" (retrograde), "verify";
	// "checkpoint" once a checkpoint is written (Took says how long that
	// took) and "resumed" once the solve goes on from one (Level is then
	// the first level still to scan).
	Phase string
	Level int           // in "levels": the distance being settled
	Done  int64         // positions done (in "levels": settled so far)
	Total int64         // positions in all (in "levels": every valid position)
	Took  time.Duration // in "checkpoint"
}

// Counts summarises the values of a sector.
type Counts struct {
	Wins, Draws, Losses int64
	Unused              int64 // indices that are no position
	LongestWin          int   // plies
	LongestLoss         int
}

// Positions returns the number of valid positions.
func (c Counts) Positions() int64 { return c.Wins + c.Draws + c.Losses }

func (c *Counts) add(v Value) {
	switch {
	case v.IsWin():
		c.Wins++
		c.LongestWin = max(c.LongestWin, v.Plies())
	case v.IsLoss():
		c.Losses++
		c.LongestLoss = max(c.LongestLoss, v.Plies())
	default:
		c.Draws++
	}
}

func (c *Counts) merge(o Counts) {
	c.Wins += o.Wins
	c.Draws += o.Draws
	c.Losses += o.Losses
	c.Unused += o.Unused
	c.LongestWin = max(c.LongestWin, o.LongestWin)
	c.LongestLoss = max(c.LongestLoss, o.LongestLoss)
}

// The solver's state of a position is one word: the value so far in the low
// 16 bits, and in the high 16 bits the number of distinct children inside
// the component not yet known to be wins (plus one if some child outside
// the component is a draw, so that it never reaches zero). Words are
// updated atomically, so goroutines can settle parents in any sector.
const (
	valueMask    = 0xFFFF
	countOne     = 1 << 16
	invalidState = 0xFFFF << 16 // no position: a count that is never taken from
	maxCount     = 0xFFFE
)

type solver struct {
	g       Game
	opt     Options
	name    string
	comp    []int
	local   []int // sector -> index in comp, or -1
	st      [][]uint32
	exitMax [][]uint16     // the loss distance the children outside the component force (plies)
	marks   [][]uint64     // by block of markBlock positions: bit d%64 if one may be at distance d (levels)
	scr     []levelScratch // by goroutine: scratch of the levels pass
	lower   [][]Value      // by sector: values of solved sectors outside the component
	workers []Worker
	maxPl   atomic.Int64
	settled atomic.Int64
	valid   atomic.Int64 // valid positions, counted by the count pass
	inner   atomic.Bool  // some child lies inside the component (else the count pass settles everything)
	once    bool         // the game lists children and parents without repeats (Distinct)
	total   int64        // positions to do in the current phase
}

// levelScratch is a goroutine's scratch in the levels pass. Each goroutine
// writes its own at every settled position, so they are padded apart: two
// in one cache line would pass the line between the cores at every write.
type levelScratch struct {
	refs  []Ref
	keys  []uint64    // the parents of a block's settled positions (parentsOf)
	runs  []parentRun // where each settled position's parents end in keys
	touch uint32      // keeps the loads of settleBlock's first loop
	_     [padding]byte
}

// padding keeps the goroutines' scratch apart: two cache lines (the
// hardware prefetches lines in pairs) after each one's fields.
const padding = 128

// parentRun: the parents of one settled position end at keys[end].
type parentRun struct {
	end  int
	lost bool
}

// SolveComponent solves the sectors of one component (as returned by
// Components). lower must return the values of every sector outside the
// component that a sector of it depends on; they must be solved already.
// It returns the values of each sector of comp, in comp's order, and their
// counts.
func SolveComponent(ctx context.Context, g Game, comp []int, lower func(s int) []Value, opt Options) ([][]Value, []Counts, error) {
	s := &solver{g: g, opt: opt, comp: comp, local: make([]int, g.NumSectors()), lower: make([][]Value, g.NumSectors())}
	if s.opt.Threads <= 0 {
		s.opt.Threads = runtime.GOMAXPROCS(0)
	}
	for i := range s.local {
		s.local[i] = -1
	}
	var names []string
	for l, sec := range comp {
		s.local[sec] = l
		names = append(names, g.Name(sec))
	}
	s.name = strings.Join(names, "+")
	if d, ok := g.(Distinct); ok {
		s.once = d.DistinctMoves()
	}
	for _, sec := range comp {
		for _, d := range g.Deps(sec) {
			if s.local[d] >= 0 || s.lower[d] != nil {
				continue
			}
			v := lower(d)
			if int64(len(v)) != g.Size(d) {
				return nil, nil, fmt.Errorf("retro: sector %s depends on %s, which is not solved", g.Name(sec), g.Name(d))
			}
			s.lower[d] = v
		}
	}
	for range s.opt.Threads {
		s.workers = append(s.workers, g.NewWorker())
	}
	// A component that no move stays in (a sector of the placing phase)
	// is settled by the count pass: the distances its exits force are
	// never read, and not kept.
	cyclic := false
	for _, sec := range comp {
		for _, d := range g.Deps(sec) {
			cyclic = cyclic || s.local[d] >= 0
		}
	}
	s.st = make([][]uint32, len(comp))
	s.exitMax = make([][]uint16, len(comp))
	for l, sec := range comp {
		n := g.Size(sec)
		st, freeSt := bigmem.Alloc[uint32](n)
		defer freeSt()
		s.st[l] = st
		if cyclic {
			em, freeEm := bigmem.Alloc[uint16](n)
			defer freeEm()
			s.exitMax[l] = em
		}
		s.total += n
	}
	ck := &checkpointer{s: s, every: s.opt.CheckpointEvery, last: time.Now()}
	if ck.every <= 0 {
		ck.every = 10 * time.Minute
	}
	next := -1 // the first level to scan; -1: the count pass first
	if s.opt.Checkpoint != "" {
		if d, err := s.loadCheckpoint(); err == nil {
			next = d
			s.total = s.valid.Load()
			if s.opt.Progress != nil {
				s.opt.Progress(Progress{Sectors: s.name, Phase: "resumed", Level: d, Done: s.settled.Load(), Total: s.total})
			}
		} else {
			// Part of a file that did not check out may be in the arrays.
			for l := range comp {
				clear(s.st[l])
				clear(s.exitMax[l])
			}
			s.maxPl.Store(0)
			s.settled.Store(0)
			s.valid.Store(0)
			s.inner.Store(false)
		}
	}
	if next < 0 {
		if err := s.count(ctx); err != nil {
			return nil, nil, err
		}
		if s.inner.Load() && !cyclic {
			return nil, nil, fmt.Errorf("retro: %s: a child lies in the component, which no sector's Deps names", s.name)
		}
		s.total = s.valid.Load()
		next = 0
		if s.inner.Load() {
			if err := ck.maybe(0, false); err != nil {
				return nil, nil, err
			}
		}
	}
	// A component whose positions all lead out of it (a sector of the
	// placing phase) is settled: every value was known to the count.
	if s.inner.Load() {
		if err := s.levels(ctx, next, ck); err != nil {
			return nil, nil, err
		}
		s.marks = nil
	}
	vals := make([][]Value, len(comp))
	counts := make([]Counts, len(comp))
	for l := range comp {
		st := s.st[l]
		v := make([]Value, len(st))
		var c Counts
		for i, w := range st {
			if w == invalidState {
				c.Unused++
				continue
			}
			v[i] = Value(w & valueMask)
			c.add(v[i])
		}
		vals[l], counts[l] = v, c
		s.st[l], s.exitMax[l] = nil, nil
	}
	return vals, counts, nil
}

// parallel runs fn over [0, n) in chunks on every worker and reports
// progress as prog with Done set to base plus the positions fn was given,
// or to what doneFn returns.
func (s *solver) parallel(ctx context.Context, n, chunk int64, prog Progress, base int64, doneFn func() int64, fn func(t int, lo, hi int64) error) error {
	var next, done atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	stop := make(chan struct{})
	report := func() {
		if s.opt.Progress == nil {
			return
		}
		p := prog
		p.Done = base + done.Load()
		if doneFn != nil {
			p.Done = doneFn()
		}
		s.opt.Progress(p)
	}
	var tick sync.WaitGroup
	if s.opt.Progress != nil {
		tick.Add(1)
		go func() {
			defer tick.Done()
			t := time.NewTicker(250 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					report()
				}
			}
		}()
	}
	for t := range s.opt.Threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := next.Add(chunk) - chunk
				if lo >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				hi := min(lo+chunk, n)
				if err := fn(t, lo, hi); err != nil {
					once.Do(func() { firstErr = err })
					next.Store(n)
					return
				}
				done.Add(hi - lo)
			}
		}()
	}
	wg.Wait()
	close(stop)
	tick.Wait()
	if firstErr == nil {
		report()
	}
	return firstErr
}

func (s *solver) maxPlies(d int) {
	for {
		m := s.maxPl.Load()
		if int64(d) <= m || s.maxPl.CompareAndSwap(m, int64(d)) {
			return
		}
	}
}

// order returns how many slots the positions of sector sec are visited
// in, and whether in the game's order (Visitor) rather than by index.
func (s *solver) order(sec int) (visits int64, byGame bool) {
	if vg, ok := s.g.(Visitor); ok {
		if m := vg.Visits(sec); m > 0 {
			return m, true
		}
	}
	return s.g.Size(sec), false
}

// walker visits the positions of a sector for one goroutine: by index
// through Children, or in the game's order through Visit.
type walker struct {
	w  Worker
	vw VisitWorker // nil: by index
}

// walker returns goroutine t's walker of sector sec.
func (s *solver) walker(t, sec int, byGame bool) (walker, error) {
	wk := walker{w: s.workers[t]}
	if byGame {
		vw, ok := wk.w.(VisitWorker)
		if !ok {
			return wk, fmt.Errorf("retro: sector %s: the game visits its positions (Visitor) and its worker does not (VisitWorker)", s.g.Name(sec))
		}
		wk.vw = vw
	}
	return wk, nil
}

// at returns the position of slot j (its index), its children and its
// end, and valid false if the slot holds no position.
func (wk walker) at(sec int, j int64, dst []Child) (int64, []Child, Value, bool) {
	if wk.vw != nil {
		return wk.vw.Visit(sec, j, dst)
	}
	kids, end, valid := wk.w.Children(sec, j, dst)
	return j, kids, end, valid
}

// count is the forward pass: every position's children are counted and
// those outside the component looked up. Wins by a move out of the
// component are set now (a faster win inside may replace them later);
// positions without moves get their end.
func (s *solver) count(ctx context.Context) error {
	scr := make([]blockScratch, s.opt.Threads)
	var base int64 // positions of the sectors before
	for l, sec := range s.comp {
		n := int64(len(s.st[l]))
		st, em := s.st[l], s.exitMax[l]
		prog := Progress{Sectors: s.name, Phase: "count", Total: s.total}
		// The positions are visited in the order of their indices, or in
		// the game's own (Visitor): then an index never visited is no
		// position.
		visits, visitor := s.order(sec)
		if visitor {
			for i := range st {
				st[i] = invalidState
			}
		}
		var visited atomic.Int64
		var doneFn func() int64
		if visitor {
			b := base
			doneFn = func() int64 { return b + int64(float64(visited.Load())/float64(visits)*float64(n)) }
		}
		err := s.parallel(ctx, visits, s.opt.chunkOr(1<<11), prog, base, doneFn, func(t int, lo, hi int64) error {
			wk, err := s.walker(t, sec, visitor)
			if err != nil {
				return err
			}
			sc := &scr[t]
			top := 0
			var nvalid int64
			defer func() { visited.Add(hi - lo) }()
			for blo := lo; blo < hi; blo += block {
				gather(sc, wk, sec, blo, min(blo+block, hi), s.lower)
				from := 0
				for _, p := range sc.pos {
					kids := sc.kids[from:p.end]
					from = p.end
					i := p.i
					if !p.valid {
						if !visitor {
							st[i] = invalidState
						}
						continue
					}
					nvalid++
					word, ex, plies, err := s.countOne(sc, sec, i, kids, p.val)
					if err != nil {
						return err
					}
					st[i] = word
					if em != nil && ex > 0 {
						em[i] = ex
					}
					top = max(top, plies)
				}
			}
			s.maxPlies(top)
			s.valid.Add(nvalid)
			return nil
		})
		if err != nil {
			return err
		}
		base += n
	}
	return nil
}

// countOne counts position i of sector sec from its children kids (end:
// its value when it has none): its state word, the loss distance its
// children outside the component force while it is undecided (exitMax),
// and the distance of the value it got (0 if none).
func (s *solver) countOne(sc *blockScratch, sec int, i int64, kids []Child, end Value) (word uint32, exit uint16, plies int, err error) {
	if len(kids) == 0 {
		return uint32(end), 0, end.Plies(), nil
	}
	sc.in = sc.in[:0]
	bestWin, ex, draw := -1, 0, false
	for _, k := range kids {
		v := k.Value
		if !k.End {
			if cl := s.local[k.Sector]; cl >= 0 {
				sc.in = append(sc.in, localKey(cl, k.Index))
				continue
			}
			v = s.lower[k.Sector][k.Index]
		}
		switch {
		case v.IsLoss():
			if bestWin < 0 || v.Plies()+1 < bestWin {
				bestWin = v.Plies() + 1
			}
		case v.IsWin():
			ex = max(ex, v.Plies()+1)
		default:
			draw = true
		}
	}
	c := len(sc.in)
	if !s.once {
		c = distinct(sc.in)
	}
	if c > 0 && !s.inner.Load() {
		s.inner.Store(true)
	}
	if draw {
		c++
	}
	if c > maxCount || ex > MaxPlies || bestWin > MaxPlies {
		return 0, 0, 0, fmt.Errorf("retro: sector %s index %d: too many children or too long a distance", s.g.Name(sec), i)
	}
	switch {
	case bestWin >= 0:
		return uint32(c)<<16 | uint32(WinIn(bestWin)), 0, bestWin, nil
	case c == 0:
		return uint32(LossIn(ex)), 0, ex, nil
	default:
		return uint32(c) << 16, uint16(ex), 0, nil
	}
}

// block is the positions whose children the count and verify passes
// generate before they read their values (gather).
const block = 32

// blockScratch is a goroutine's scratch in the count and verify passes,
// padded apart from the others' as levelScratch is.
type blockScratch struct {
	kids  []Child    // the children of a block's positions, one after the other
	pos   []blockPos // the block's positions
	in    []uint64   // the count pass: one position's children inside the component
	touch Value      // keeps the loads of gather
	_     [padding]byte
}

// blockPos is a visit of a block (gather): the position's index, its
// children end at kids[end], val is its end when it has none, and valid
// false if the visit is no position.
type blockPos struct {
	i     int64
	end   int
	val   Value
	valid bool
}

// gather generates the children of the visits lo..hi-1 of sector sec into
// sc, then loads the values that vals holds of them (vals[sector] nil: none
// of that sector).
//
// Those values lie anywhere in GBs: read as each position is counted or
// verified, every load waits for memory behind the branches on the one
// before. Loaded together, independent of each other and of any branch,
// many are in flight at once, and the pass finds them in the cache (as
// settleBlock does for the levels).
func gather(sc *blockScratch, wk walker, sec int, lo, hi int64, vals [][]Value) {
	sc.kids, sc.pos = sc.kids[:0], sc.pos[:0]
	for j := lo; j < hi; j++ {
		before := len(sc.kids)
		i, kids, end, valid := wk.at(sec, j, sc.kids)
		if !valid {
			kids = kids[:before]
		}
		sc.kids = kids
		sc.pos = append(sc.pos, blockPos{i: i, end: len(kids), val: end, valid: valid})
	}
	var touch Value
	for _, k := range sc.kids {
		if v := vals[k.Sector]; !k.End && v != nil {
			touch |= v[k.Index]
		}
	}
	sc.touch = touch
}

// localKey packs a position of the component (local sector l, index i)
// into one word, which sorts and compares as the pair; splitKey undoes it.
func localKey(l int, i int64) uint64 { return uint64(l)<<48 | uint64(i) }

func splitKey(k uint64) (l int, i int64) { return int(k >> 48), int64(k & (1<<48 - 1)) }

// distinct sorts keys and returns the number of distinct ones, which it
// moves to the front.
func distinct(keys []uint64) int {
	if len(keys) < 2 {
		return len(keys)
	}
	slices.Sort(keys)
	n := 1
	for _, k := range keys[1:] {
		if k != keys[n-1] {
			keys[n] = k
			n++
		}
	}
	return n
}

// markBlock is the positions a word of marks covers.
const markBlock = 64

// levels settles the positions by distance: level d holds the positions
// that end the game in d plies. When level d is scanned, every position of
// distance d has its value (set while scanning level d-1, or by the count
// pass), and what the scan sets is at distance d+1 or more.
//
// A level does not scan the whole component: the marks say which blocks of
// markBlock positions may hold a position of that distance (bit d%64 of the
// block's word, set whenever a value is set), and only those are read. The
// late levels, which settle a few thousand positions of a billion, cost
// those blocks instead of a pass over every word (issue 10's build: up to
// 204 levels in a group).
//
// The scan starts at level from (0, or where a checkpoint left off) and
// offers ck a checkpoint after each level.
func (s *solver) levels(ctx context.Context, from int, ck *checkpointer) error {
	if err := s.markAll(ctx, from); err != nil {
		return err
	}
	s.scr = make([]levelScratch, s.opt.Threads)
	for d := from; int64(d) <= s.maxPl.Load(); d++ {
		loss, win := uint32(LossIn(d)), uint32(WinIn(d))
		bit := uint64(1) << (d % 64)
		for l, sec := range s.comp {
			st, marks := s.st[l], s.marks[l]
			prog := Progress{Sectors: s.name, Phase: "levels", Level: d, Total: s.total}
			blocks := int64(len(marks))
			err := s.parallel(ctx, blocks, s.opt.chunkOr(1<<15)/markBlock+1, prog, 0, s.settled.Load, func(t int, blo, bhi int64) error {
				var found int64
				for b := blo; b < bhi; b++ {
					if atomic.LoadUint64(&marks[b])&bit == 0 {
						continue
					}
					// Cleared before the block is read: a value set
					// meanwhile by another goroutine sets the bit again.
					atomic.AndUint64(&marks[b], ^bit)
					later := false
					sc := &s.scr[t]
					sc.keys, sc.runs = sc.keys[:0], sc.runs[:0]
					for i := b * markBlock; i < min((b+1)*markBlock, int64(len(st))); i++ {
						// Other goroutines may be settling parents in this
						// very sector (at later levels), hence the atomic load.
						word := atomic.LoadUint32(&st[i])
						if v := word & valueMask; v == loss || v == win {
							found++
							s.parentsOf(t, sec, i, v == loss)
						} else if at, ok := distance(word); ok && at > d && at%64 == d%64 {
							later = true // a value 64k levels later shares the bit
						}
					}
					s.settleBlock(t, d)
					if later {
						atomic.OrUint64(&marks[b], bit)
					}
				}
				s.settled.Add(found)
				return nil
			})
			if err != nil {
				return err
			}
		}
		if err := ck.maybe(d+1, false); err != nil {
			return err
		}
	}
	return nil
}

// parentsOf appends to goroutine t's scratch the parents inside the
// component of position i of sector sec, settled (lost for its side to
// move, or won), each once, to be told by settleBlock.
func (s *solver) parentsOf(t, sec int, i int64, lost bool) {
	sc := &s.scr[t]
	sc.refs = s.workers[t].Parents(sec, i, sc.refs[:0])
	from := len(sc.keys)
	ks := sc.keys
	for _, r := range sc.refs {
		// Parents outside the component are solved later, by looking
		// this position up.
		if cl := s.local[r.Sector]; cl >= 0 {
			ks = append(ks, localKey(cl, r.Index))
		}
	}
	n := len(ks) - from
	if !s.once {
		n = distinct(ks[from:])
	}
	sc.keys = ks[:from+n]
	sc.runs = append(sc.runs, parentRun{end: len(sc.keys), lost: lost})
}

// settleBlock tells the parents gathered by parentsOf (those of the
// positions of one block settled at distance d).
//
// The parents' words lie anywhere in GBs of state, and settle changes each
// with an atomic instruction, which on amd64 is a full barrier: one after
// the other, each would wait for its own read from memory. Plain loads of
// all of them first are independent, so the processor has many in flight
// together, and the atomics then find their lines in the cache.
func (s *solver) settleBlock(t, d int) {
	sc := &s.scr[t]
	var touch uint32
	for _, k := range sc.keys {
		l, j := splitKey(k)
		touch |= atomic.LoadUint32(&s.st[l][j])
	}
	sc.touch = touch
	from := 0
	for _, r := range sc.runs {
		for _, k := range sc.keys[from:r.end] {
			l, j := splitKey(k)
			s.settle(l, j, r.lost, d)
		}
		from = r.end
	}
}

// distance returns the distance of a state word's value when it is a win
// or a loss (not a draw so far, nor an index that is no position).
func distance(word uint32) (int, bool) {
	v := Value(word & valueMask)
	if word == invalidState || v == 0 {
		return 0, false
	}
	return v.Plies(), true
}

// markAll sets the marks of every position whose value is a win or a loss
// at level from or later: after the count pass, or after a checkpoint.
func (s *solver) markAll(ctx context.Context, from int) error {
	s.marks = make([][]uint64, len(s.comp))
	for l := range s.comp {
		st := s.st[l]
		marks := make([]uint64, (int64(len(st))+markBlock-1)/markBlock)
		s.marks[l] = marks
		prog := Progress{Sectors: s.name, Phase: "levels", Level: from, Total: s.total}
		err := s.parallel(ctx, int64(len(marks)), 64, prog, 0, s.settled.Load, func(_ int, blo, bhi int64) error {
			for b := blo; b < bhi; b++ {
				var m uint64
				for i := b * markBlock; i < min((b+1)*markBlock, int64(len(st))); i++ {
					if d, ok := distance(st[i]); ok && d >= from {
						m |= 1 << (d % 64)
					}
				}
				marks[b] = m
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// mark records that position j of local sector l has a value at distance d.
func (s *solver) mark(l int, j int64, d int) {
	atomic.OrUint64(&s.marks[l][j/markBlock], 1<<(d%64))
}

// settle tells parent (l, j) that one of its children was settled at
// distance d: a loss (for the child's side to move) or a win.
func (s *solver) settle(l int, j int64, childLost bool, d int) {
	p := &s.st[l][j]
	if childLost {
		want := WinIn(d + 1)
		for {
			old := atomic.LoadUint32(p)
			cur := Value(old & valueMask)
			if old == invalidState || (cur != 0 && !(cur.IsWin() && cur.Plies() > d+1)) {
				return
			}
			if atomic.CompareAndSwapUint32(p, old, old&^valueMask|uint32(want)) {
				s.mark(l, j, d+1)
				s.maxPlies(d + 1)
				return
			}
		}
	}
	if atomic.LoadUint32(p)&valueMask != 0 {
		// Won already, by another child: what it still counts no longer
		// matters. A plain load (settleBlock brought the line into the
		// cache) instead of a locked instruction, which on amd64 waits
		// for every memory operation before it.
		return
	}
	nw := atomic.AddUint32(p, ^uint32(countOne-1))
	if nw>>16 == 0 && nw&valueMask == 0 {
		// Every child is a win for the opponent: a loss, as late as the
		// slowest of them allows. No other goroutine writes this word now:
		// a parent with a losing child never reaches a count of zero.
		plies := max(d+1, int(s.exitMax[l][j]))
		atomic.AddUint32(p, uint32(LossIn(plies)))
		s.mark(l, j, plies)
		s.maxPlies(plies)
	}
}
