package egdb

import (
	"context"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/mill"
)

// brute is a separate, plain solver for checking the databases: no
// symmetry, no colour-swapped index (positions are stored with White to
// move, the side to move after a move is found by Play), and every value
// computed from the moves mill generates (Moves, Play, Status). It settles
// the positions level by level like value iteration, re-evaluating at each
// level only the positions that a change could affect: those with a child
// settled at the level before (found as a loose superset: every way a piece
// of the mover could have come to its point), and those whose moves out of
// the sectors being solved reach the level.
type brute struct {
	r    *mill.Rules
	n    int
	all  mill.Points
	bin  [33][33]int64
	secs [mill.MaxPoints + 1][mill.MaxPoints + 1]*bruteSector
}

type bruteSector struct {
	w, b  int
	val   []retro.Value
	known []bool
	seen  []uint64 // candidates of the current level, as a bit set
	// left bounds from below the children of a position not yet known to
	// be wins: set by its first evaluation, and lowered by every child
	// settled as a win that may be its child. Until it reaches zero the
	// position cannot be a loss, so a settled win need not wake it.
	left []int32
}

func newBrute(r *mill.Rules) *brute {
	bf := &brute{r: r, n: r.Board().Len()}
	bf.all = r.All()
	for i := range bf.bin {
		bf.bin[i][0] = 1
		for j := 1; j <= i; j++ {
			bf.bin[i][j] = bf.bin[i-1][j-1] + bf.bin[i-1][j]
		}
	}
	return bf
}

func (bf *brute) rank(set mill.Points) int64 {
	var r int64
	j := 1
	for p := range set.All() {
		r += bf.bin[p][j]
		j++
	}
	return r
}

// index is the raw index of (W to move, B): every pair of sets, even
// overlapping ones.
func (bf *brute) index(W, B mill.Points) int64 {
	return bf.rank(W)*bf.bin[bf.n][B.Len()] + bf.rank(B)
}

// value returns the value of q for its side to move if known.
func (bf *brute) value(q mill.Position) (retro.Value, bool) {
	if o, _ := q.Status(); o != mill.NoOutcome {
		switch o {
		case mill.Won(q.SideToMove()):
			return retro.WinIn(0), true
		case mill.Draw:
			return retro.Draw, true
		}
		return retro.LossIn(0), true
	}
	us := q.SideToMove()
	W, B := q.Pieces(us), q.Pieces(us.Other())
	s := bf.secs[W.Len()][B.Len()]
	i := bf.index(W, B)
	return s.val[i], s.known[i]
}

// setUp returns the position (W to move, B), as mill sees it.
func (bf *brute) setUp(W, B mill.Points) mill.Position {
	p, err := bf.r.SetUp(W, B, mill.White, 0, 0)
	if err != nil {
		panic(err)
	}
	return p
}

// eval re-derives the value of p from what is known of its children, as
// of level d: a win in d if a child is a loss in d-1, a loss in d if every
// child is a known win and the slowest is in d-1. It also returns, for the
// first evaluation at level 0, the levels at which moves to children
// already known could settle p, and how many children are not known.
func (bf *brute) eval(p mill.Position, d int, buf []mill.Move) (res bruteResult) {
	if o, _ := p.Status(); o != mill.NoOutcome {
		res.v, _ = bf.value(p)
		res.settled = d == 0
		return res
	}
	win, allWins, slowest := false, true, -1
	minLoss := -1
	for _, m := range p.Moves(buf[:0]) {
		cv, ok := bf.value(p.Play(m))
		switch {
		case !ok:
			allWins = false
			res.left++
		case cv.IsLoss():
			res.left = 1 << 30
			allWins = false
			if cv.Plies() == d-1 {
				win = true
			}
			if minLoss < 0 || cv.Plies() < minLoss {
				minLoss = cv.Plies()
			}
		case cv.IsWin():
			slowest = max(slowest, cv.Plies())
		default:
			allWins = false
			res.left = 1 << 30
		}
	}
	res.wake = [2]int{minLoss + 1, slowest + 1}
	switch {
	case win && minLoss == d-1:
		res.v, res.settled = retro.WinIn(d), true
	case allWins && slowest == d-1:
		res.v, res.settled = retro.LossIn(d), true
	}
	return res
}

type brutePos struct {
	s *bruteSector
	W mill.Points
	B mill.Points
}

// solve solves sectors that depend on each other (and on sectors solved
// before).
func (bf *brute) solve(keys [][2]int) {
	var comp []*bruteSector
	for _, k := range keys {
		s := &bruteSector{w: k[0], b: k[1]}
		size := bf.bin[bf.n][k[0]] * bf.bin[bf.n][k[1]]
		s.val, s.known, s.seen = make([]retro.Value, size), make([]bool, size), make([]uint64, (size+63)/64)
		s.left = make([]int32, size)
		bf.secs[k[0]][k[1]] = s
		comp = append(comp, s)
	}
	// Level 0: every position once; ends of the game settle, and moves out
	// of the component say when they could settle the position.
	wake := map[int][]brutePos{}
	var frontier []brutePos
	for _, s := range comp {
		var chunk []brutePos
		flush := func() {
			results := bf.evalAll(chunk, 0)
			for i, res := range results {
				if res.settled {
					frontier = append(frontier, chunk[i])
					bf.set(chunk[i], res.v)
				}
				for _, w := range res.wake {
					if w > 0 {
						wake[w] = append(wake[w], chunk[i])
					}
				}
				chunk[i].s.left[bf.index(chunk[i].W, chunk[i].B)] = int32(min(res.left, 1<<30))
			}
			chunk = chunk[:0]
		}
		forSets(bf.all, s.w, func(W mill.Points) {
			forSets(bf.all&^W, s.b, func(B mill.Points) {
				chunk = append(chunk, brutePos{s, W, B})
				if len(chunk) == 1<<16 {
					flush()
				}
			})
		})
		flush()
	}
	for d := 1; len(frontier) > 0 || len(wake) > 0; d++ {
		var cands []brutePos
		add := func(p brutePos) {
			i := bf.index(p.W, p.B)
			if p.s.seen[i/64]&(1<<(i%64)) == 0 && !p.s.known[i] {
				p.s.seen[i/64] |= 1 << (i % 64)
				cands = append(cands, p)
			}
		}
		for _, p := range wake[d] {
			add(p)
		}
		delete(wake, d)
		for _, c := range frontier {
			won := c.s.val[bf.index(c.W, c.B)].IsWin()
			bf.parents(c, func(p brutePos) {
				if won {
					i := bf.index(p.W, p.B)
					if p.s.left[i]--; p.s.left[i] > 0 {
						return
					}
				}
				add(p)
			})
		}
		frontier = frontier[:0]
		for _, p := range cands {
			i := bf.index(p.W, p.B)
			p.s.seen[i/64] = 0
		}
		results := bf.evalAll(cands, d)
		for i, res := range results {
			if res.settled {
				bf.set(cands[i], res.v)
				frontier = append(frontier, cands[i])
			}
		}
	}
}

func (bf *brute) set(p brutePos, v retro.Value) {
	i := bf.index(p.W, p.B)
	p.s.val[i], p.s.known[i] = v, true
}

// parents calls add with every position of the component from which a
// move of the side not to move in c could have led to c: a piece of that
// side came to its point from an empty point (a neighbour, or any point if
// it flies). Some are not parents (the move closed a mill, say): eval
// decides, with mill's moves.
func (bf *brute) parents(c brutePos, add func(brutePos)) {
	ps := bf.secs[c.s.b][c.s.w]
	if ps == nil {
		return
	}
	empty := bf.all &^ (c.W | c.B)
	adj := bf.r.Board()
	// Whether the mover flies depends on its number of pieces, the same
	// in every parent.
	fly := bf.setUp(c.B, c.W).Flying(mill.White)
	for y := range c.B.All() {
		for x := range empty.All() {
			if !fly && !adj.Adjacent(x).Has(y) {
				continue
			}
			add(brutePos{ps, c.B ^ (1<<y | 1<<x), c.W})
		}
	}
}

type bruteResult struct {
	v       retro.Value
	settled bool
	wake    [2]int // levels at which children already known could settle it
	left    int    // children not known, or a lot if a known child is not a win
}

func (bf *brute) evalAll(ps []brutePos, d int) []bruteResult {
	out := make([]bruteResult, len(ps))
	var wg sync.WaitGroup
	threads := runtime.GOMAXPROCS(0)
	for t := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]mill.Move, 0, 256)
			for i := t; i < len(ps); i += threads {
				p := ps[i]
				out[i] = bf.eval(bf.setUp(p.W, p.B), d, buf)
			}
		}()
	}
	wg.Wait()
	return out
}

// forSets calls f with every subset of free with k points.
func forSets(free mill.Points, k int, f func(mill.Points)) {
	var rec func(rest mill.Points, k int, acc mill.Points)
	rec = func(rest mill.Points, k int, acc mill.Points) {
		if k == 0 {
			f(acc)
			return
		}
		for r := rest; r != 0; r &= r - 1 {
			low := r & -r
			rec(r&^low&^(low-1), k-1, acc|low)
		}
	}
	rec(free, k, 0)
}

// compareWithBrute probes every position of the sectors (with either side
// to move) and compares with the brute-force values.
func compareWithBrute(t *testing.T, db *DB, bf *brute, keys [][2]int) {
	t.Helper()
	for _, k := range keys {
		s := bf.secs[k[0]][k[1]]
		var checked, bad int
		var wins, draws, losses int
		forSets(bf.all, k[0], func(W mill.Points) {
			forSets(bf.all&^W, k[1], func(B mill.Points) {
				want := s.val[bf.index(W, B)]
				if !s.known[bf.index(W, B)] {
					want = retro.Draw
				}
				switch {
				case want.IsWin():
					wins++
				case want.IsLoss():
					losses++
				default:
					draws++
				}
				side := mill.Color(checked & 1) // White to move, or the same with the colours swapped
				p, _ := bf.r.SetUp(W, B, mill.White, 0, 0)
				if side == mill.Black {
					p, _ = bf.r.SetUp(B, W, mill.Black, 0, 0)
				}
				got, ok := db.Value(p)
				checked++
				if !ok || got != fromRetro(want) {
					bad++
					if bad <= 5 {
						t.Errorf("%dv%d %v: got %v (%v), want %v", k[0], k[1], p, got, ok, fromRetro(want))
					}
				}
			})
		})
		t.Logf("%dv%d: %d positions without symmetry agree: %d wins, %d draws, %d losses", k[0], k[1], checked-bad, wins, draws, losses)
		if bad > 0 {
			t.Fatalf("%dv%d: %d of %d positions disagree", k[0], k[1], bad, checked)
		}
	}
}

func buildForTest(t *testing.T, r *mill.Rules, keys ...Key) *DB {
	t.Helper()
	dir := t.TempDir()
	if _, err := (Builder{Rules: r, Dir: dir, Keys: keys, Verify: true}).Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestBruteForce solves 3v3, then 4v3 and 3v4, with the brute-force solver
// and compares every position (26.9 million, with either side to move)
// with the databases' probes: for nine men's morris (125 s here),
// and, with MORRIS_LONG_TESTS set (CI sets it for this test alone), for
// twelve men's morris, whose diagonal mills and flying at four the
// databases must get right too (both sides fly in all three sectors: up to
// 68 flights a position, four pieces to 17 empty points; 382 s here).
func TestBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("the brute-force solve takes minutes")
	}
	for _, tc := range []struct {
		variant string
		long    bool // runs only with MORRIS_LONG_TESTS
	}{
		{"nine-mens-morris", false},
		{"twelve-mens-morris", true},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			if tc.long && os.Getenv("MORRIS_LONG_TESTS") == "" {
				t.Skip("about six minutes: set MORRIS_LONG_TESTS=1 to run it")
			}
			r := mill.MustRules(tc.variant)
			db := buildForTest(t, r, Key{White: 4, Black: 3})
			bf := newBrute(r)
			bf.solve([][2]int{{3, 3}})
			bf.solve([][2]int{{4, 3}, {3, 4}})
			compareWithBrute(t, db, bf, [][2]int{{3, 3}, {4, 3}, {3, 4}})
		})
	}
}
