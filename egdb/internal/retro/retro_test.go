package retro

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// toy is a game given by an explicit graph: random sectors, random moves
// (duplicates, cycles, moves that end the game), some indices that are no
// position. It is what the solver must handle, with nothing of a real game.
type toy struct {
	sizes   []int64
	deps    [][]int
	kids    [][][]Child
	ends    [][]Value
	invalid [][]bool
	parents map[Ref][]Ref
	comp    []int // sector -> component number
}

func (g *toy) NumSectors() int   { return len(g.sizes) }
func (g *toy) Name(s int) string { return fmt.Sprintf("s%d", s) }
func (g *toy) Size(s int) int64  { return g.sizes[s] }
func (g *toy) Deps(s int) []int  { return g.deps[s] }
func (g *toy) NewWorker() Worker { return toyWorker{g} }

type toyWorker struct{ g *toy }

func (w toyWorker) Children(s int, i int64, dst []Child) ([]Child, Value, bool) {
	if w.g.invalid[s][i] {
		return dst, Draw, false
	}
	return append(dst, w.g.kids[s][i]...), w.g.ends[s][i], true
}

func (w toyWorker) Parents(s int, i int64, dst []Ref) []Ref {
	return append(dst, w.g.parents[Ref{s, i}]...)
}

// newToy builds a random game of ncomp components of one to three sectors;
// moves go inside the component or to earlier components.
func newToy(rng *rand.Rand, ncomp int) *toy {
	g := &toy{parents: map[Ref][]Ref{}}
	var comps [][]int
	for c := range ncomp {
		var secs []int
		for range 1 + rng.IntN(3) {
			s := len(g.sizes)
			secs = append(secs, s)
			g.sizes = append(g.sizes, int64(1+rng.IntN(40)))
			g.comp = append(g.comp, c)
		}
		comps = append(comps, secs)
	}
	n := len(g.sizes)
	g.deps = make([][]int, n)
	g.kids = make([][][]Child, n)
	g.ends = make([][]Value, n)
	g.invalid = make([][]bool, n)
	for s := range n {
		g.kids[s] = make([][]Child, g.sizes[s])
		g.ends[s] = make([]Value, g.sizes[s])
		g.invalid[s] = make([]bool, g.sizes[s])
		for i := range g.invalid[s] {
			g.invalid[s][i] = i > 0 && rng.IntN(15) == 0
		}
	}
	pick := func(secs []int) Ref {
		for {
			s := secs[rng.IntN(len(secs))]
			i := rng.Int64N(g.sizes[s])
			if !g.invalid[s][i] {
				return Ref{s, i}
			}
		}
	}
	for c, secs := range comps {
		var below []int
		for _, lower := range comps[:c] {
			below = append(below, lower...)
		}
		for _, s := range secs {
			deps := map[int]bool{}
			for i := range g.sizes[s] {
				if g.invalid[s][i] {
					continue
				}
				if rng.IntN(8) == 0 {
					g.ends[s][i] = []Value{LossIn(0), LossIn(0), Draw, WinIn(0), LossIn(2)}[rng.IntN(5)]
					continue
				}
				for range 1 + rng.IntN(4) {
					var k Child
					switch r := rng.IntN(10); {
					case r < 6:
						k.Ref = pick(secs)
						g.parents[k.Ref] = append(g.parents[k.Ref], Ref{s, i})
					case r < 8 && len(below) > 0:
						k.Ref = pick(below)
					default:
						k.End = true
						k.Value = []Value{LossIn(0), Draw, WinIn(1), LossIn(4)}[rng.IntN(4)]
					}
					if !k.End {
						deps[k.Sector] = true
					}
					g.kids[s][i] = append(g.kids[s][i], k)
					if rng.IntN(6) == 0 { // the same move twice: a duplicate child
						g.kids[s][i] = append(g.kids[s][i], k)
						if !k.End && g.comp[k.Sector] == c {
							g.parents[k.Ref] = append(g.parents[k.Ref], Ref{s, i})
						}
					}
				}
			}
			for d := range deps {
				g.deps[s] = append(g.deps[s], d)
			}
		}
	}
	return g
}

// bruteForce solves the whole graph by distance levels, with no counters,
// no parents and no sectors: at step D, a position is a win in D if a child
// is a known loss in D-1, a loss in D if every child is a known win and the
// slowest is in D-1. What is left is a draw.
func (g *toy) bruteForce() [][]Value {
	n := len(g.sizes)
	val := make([][]Value, n)
	known := make([][]bool, n)
	maxD := 10
	for s := range n {
		val[s] = make([]Value, g.sizes[s])
		known[s] = make([]bool, g.sizes[s])
		maxD += int(g.sizes[s])
		for i := range g.sizes[s] {
			if !g.invalid[s][i] && len(g.kids[s][i]) == 0 {
				val[s][i], known[s][i] = g.ends[s][i], true
			}
		}
	}
	childValue := func(k Child) (Value, bool) {
		if k.End {
			return k.Value, true
		}
		return val[k.Sector][k.Index], known[k.Sector][k.Index]
	}
	for D := 1; D <= maxD; D++ {
		type set struct {
			r Ref
			v Value
		}
		var found []set
		for s := range n {
			for i := range g.sizes[s] {
				if known[s][i] || g.invalid[s][i] {
					continue
				}
				win, allWins, slowest := false, true, -1
				for _, k := range g.kids[s][i] {
					v, ok := childValue(k)
					switch {
					case ok && v.IsLoss() && v.Plies()+1 == D:
						win = true
					case !ok || !v.IsWin():
						allWins = false
					default:
						slowest = max(slowest, v.Plies())
					}
				}
				switch {
				case win:
					found = append(found, set{Ref{s, i}, WinIn(D)})
				case allWins && slowest+1 == D:
					found = append(found, set{Ref{s, i}, LossIn(D)})
				}
			}
		}
		for _, f := range found {
			val[f.r.Sector][f.r.Index], known[f.r.Sector][f.r.Index] = f.v, true
		}
	}
	return val
}

func solveAll(t *testing.T, g Game, opt Options) ([][]Value, [][]int) {
	t.Helper()
	all := make([]int, g.NumSectors())
	for i := range all {
		all[i] = i
	}
	comps := Components(g, all)
	vals := make([][]Value, g.NumSectors())
	for _, comp := range comps {
		v, _, err := SolveComponent(context.Background(), g, comp, func(s int) []Value { return vals[s] }, opt)
		if err != nil {
			t.Fatal(err)
		}
		for l, s := range comp {
			vals[s] = v[l]
		}
	}
	return vals, comps
}

func TestToyAgainstBruteForce(t *testing.T) {
	seeds := uint64(300)
	if testing.Short() {
		seeds = 60
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(seed, 7))
		g := newToy(rng, 1+rng.IntN(5))
		want := g.bruteForce()
		// Small chunks, so that goroutines share sectors (for -race), and
		// chunks of a block and a part of one (gather).
		for _, run := range []struct{ threads, chunk int }{{1, 4}, {3, 4}, {1, block + 5}, {3, block + 5}} {
			threads, chunk := run.threads, int64(run.chunk)
			got, comps := solveAll(t, g, Options{Threads: threads, chunk: chunk})
			for s := range want {
				for i := range want[s] {
					if got[s][i] != want[s][i] {
						t.Fatalf("seed %d threads %d chunk %d: sector %d index %d: got %v, want %v (children %v)", seed, threads, chunk, s, i, got[s][i], want[s][i], g.kids[s][i])
					}
				}
			}
			for _, comp := range comps {
				for _, s := range comp {
					c, err := Verify(context.Background(), g, s, func(s int) []Value { return got[s] }, Options{Threads: threads, chunk: chunk})
					if err != nil {
						t.Fatalf("seed %d: verify %d: %v", seed, s, err)
					}
					if c.Positions()+c.Unused != g.sizes[s] {
						t.Fatalf("seed %d: sector %d: counts %+v, size %d", seed, s, c, g.sizes[s])
					}
				}
			}
		}
	}
}

func TestComponentsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := newToy(rng, 6)
	all := make([]int, g.NumSectors())
	for i := range all {
		all[i] = i
	}
	comps := Components(g, all)
	seen := map[int]int{}
	for ci, comp := range comps {
		for _, s := range comp {
			seen[s] = ci
		}
	}
	if len(seen) != g.NumSectors() {
		t.Fatalf("got %d sectors in components, want %d", len(seen), g.NumSectors())
	}
	for s := range all {
		for _, d := range g.Deps(s) {
			if seen[d] > seen[s] {
				t.Errorf("sector %d (component %d) depends on %d (component %d), solved later", s, seen[s], d, seen[d])
			}
		}
	}
}

// TestCycle: two positions that move only into each other draw; a third
// that can leave the cycle into a lost position wins.
func TestCycle(t *testing.T) {
	g := &toy{
		sizes:   []int64{3},
		deps:    [][]int{{0}},
		ends:    [][]Value{{0, 0, 0}},
		invalid: [][]bool{{false, false, false}},
		kids: [][][]Child{{
			{{Ref: Ref{0, 1}}},
			{{Ref: Ref{0, 0}}},
			{{Ref: Ref{0, 0}}, {End: true, Value: LossIn(0)}},
		}},
		parents: map[Ref][]Ref{{0, 0}: {{0, 1}, {0, 2}}, {0, 1}: {{0, 0}}},
	}
	got, _ := solveAll(t, g, Options{Threads: 1})
	want := []Value{Draw, Draw, WinIn(1)}
	for i, w := range want {
		if got[0][i] != w {
			t.Errorf("position %d: got %v, want %v", i, got[0][i], w)
		}
	}
}

func TestVerifyCatchesWrongValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(99, 1))
	g := newToy(rng, 3)
	vals, _ := solveAll(t, g, Options{Threads: 2})
	caught := 0
	for s := range vals {
		for i := range vals[s] {
			if g.invalid[s][i] {
				continue
			}
			old := vals[s][i]
			for _, bad := range []Value{Draw, WinIn(old.Plies() + 2), LossIn(old.Plies() + 2)} {
				if bad == old {
					continue
				}
				vals[s][i] = bad
				_, err := Verify(context.Background(), g, s, func(s int) []Value { return vals[s] }, Options{Threads: 1})
				var me *MismatchError
				if !errors.As(err, &me) {
					t.Fatalf("sector %d index %d: %v stored instead of %v: got %v, want a mismatch", s, i, bad, old, err)
				}
				caught++
			}
			vals[s][i] = old
		}
	}
	if caught == 0 {
		t.Fatal("nothing tested")
	}
}

func TestValue(t *testing.T) {
	for d := range 50 {
		w, l := WinIn(d), LossIn(d)
		if !w.IsWin() || w.IsLoss() || w.Plies() != d || !l.IsLoss() || l.IsWin() || l.Plies() != d {
			t.Fatalf("d=%d: win %v loss %v", d, w, l)
		}
		if l.Parent() != WinIn(d+1) || w.Parent() != LossIn(d+1) {
			t.Fatalf("d=%d: parents %v %v", d, l.Parent(), w.Parent())
		}
	}
	order := []Value{LossIn(0), LossIn(5), Draw, WinIn(9), WinIn(1)}
	for i := range order {
		for j := range order {
			if got := order[i].Better(order[j]); got != (i > j) {
				t.Errorf("%v better than %v: got %v", order[i], order[j], got)
			}
		}
	}
	if got := Combine([]Value{WinIn(2), LossIn(4), LossIn(2), Draw}); got != WinIn(3) {
		t.Errorf("Combine: got %v, want win in 3", got)
	}
	if got := Combine([]Value{WinIn(2), WinIn(6)}); got != LossIn(7) {
		t.Errorf("Combine: got %v, want loss in 7", got)
	}
	if got := Combine([]Value{WinIn(2), Draw}); got != Draw {
		t.Errorf("Combine: got %v, want draw", got)
	}
}

func TestCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	g := newToy(rng, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	comps := Components(g, []int{0})
	_, _, err := SolveComponent(ctx, g, comps[0], func(int) []Value { return nil }, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestCheckpoint: a solve stopped after its k-th checkpoint goes on from
// it and ends with the values and counts of a solve without a stop; a
// checkpoint that is damaged, cut short, of other rules (the tag) or of
// another component is ignored and the solve starts afresh.
func TestCheckpoint(t *testing.T) {
	seeds := uint64(12)
	if testing.Short() {
		seeds = 4
	}
	dir := t.TempDir()
	resumes := 0
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(seed, 77))
		g := newToy(rng, 4)
		all := make([]int, g.NumSectors())
		for i := range all {
			all[i] = i
		}
		want, _ := solveAll(t, g, Options{Threads: 2, chunk: 4})
		lower := func(s int) []Value { return want[s] }
		for ci, comp := range Components(g, all) {
			wantVals, wantCounts, err := SolveComponent(context.Background(), g, comp, lower, Options{Threads: 2, chunk: 4})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, fmt.Sprintf("s%d-c%d.ckpt", seed, ci))
			// solve solves comp with the checkpoint, stopping after the
			// stop-th checkpoint written (never if 0); it reports whether
			// it resumed, and checks the result if it ran to the end.
			solve := func(what string, stop int, tag string) (resumed bool) {
				t.Helper()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				written := 0
				opt := Options{Threads: 2, chunk: 4, Checkpoint: path, CheckpointTag: tag, CheckpointEvery: time.Nanosecond,
					Progress: func(p Progress) {
						switch p.Phase {
						case "resumed":
							resumed = true
						case "checkpoint":
							written++
							if written == stop {
								cancel()
							}
						}
					}}
				v, c, err := SolveComponent(ctx, g, comp, lower, opt)
				if errors.Is(err, context.Canceled) {
					return resumed
				}
				if err != nil {
					t.Fatalf("seed %d comp %v %s: %v", seed, comp, what, err)
				}
				if !slices.EqualFunc(v, wantVals, slices.Equal) || !slices.Equal(c, wantCounts) {
					t.Fatalf("seed %d comp %v %s: values or counts differ from a solve without a checkpoint", seed, comp, what)
				}
				return resumed
			}
			if solve("the first run", 1+rng.IntN(4), "rules") {
				t.Fatalf("seed %d comp %v: resumed from no checkpoint", seed, comp)
			}
			if _, err := os.Stat(path); err != nil {
				continue // no levels pass: nothing to keep
			}
			if !solve("after a stop", 2+rng.IntN(4), "rules") {
				t.Fatalf("seed %d comp %v: did not resume from its checkpoint", seed, comp)
			}
			if !solve("after a second stop", 0, "rules") {
				t.Fatalf("seed %d comp %v: did not resume from its second checkpoint", seed, comp)
			}
			resumes++
			if solve("of other rules", 0, "other rules") {
				t.Fatalf("seed %d comp %v: resumed from a checkpoint of another tag", seed, comp)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []struct {
				name string
				data []byte
			}{
				{"a byte changed", func() []byte { b := slices.Clone(raw); b[len(b)/2] ^= 0x10; return b }()},
				{"cut short", raw[:len(raw)-3]},
				{"a byte more", append(slices.Clone(raw), 0)},
			} {
				if err := os.WriteFile(path, bad.data, 0o644); err != nil {
					t.Fatal(err)
				}
				if solve(bad.name, 0, "rules") {
					t.Fatalf("seed %d comp %v: resumed from a checkpoint with %s", seed, comp, bad.name)
				}
			}
			// Another component's checkpoint.
			if other := filepath.Join(dir, fmt.Sprintf("s%d-c%d.ckpt", seed, ci-1)); ci > 0 {
				if data, err := os.ReadFile(other); err == nil {
					os.WriteFile(path, data, 0o644)
					if solve("another component's", 0, "rules") {
						t.Fatalf("seed %d comp %v: resumed from another component's checkpoint", seed, comp)
					}
				}
			}
		}
	}
	if resumes < int(seeds) {
		t.Fatalf("only %d resumes in %d games: the test does not test much", resumes, seeds)
	}
	t.Logf("%d solves resumed from a checkpoint", resumes)
}

// visitedToy is a toy whose sectors are counted in a visiting order of
// their own (Visitor): 2*size+3 visits, each position once, in a shuffled
// order, and the other visits none (invalid positions are never visited).
type visitedToy struct {
	*toy
	order [][]int64 // order[s][j]: the index visited by j, or -1
}

func (g *visitedToy) Visits(s int) int64 { return int64(len(g.order[s])) }
func (g *visitedToy) NewWorker() Worker  { return visitedWorker{toyWorker{g.toy}, g} }

type visitedWorker struct {
	toyWorker
	g *visitedToy
}

func (w visitedWorker) Visit(s int, j int64, dst []Child) (int64, []Child, Value, bool) {
	i := w.g.order[s][j]
	if i < 0 {
		return 0, dst, Draw, false
	}
	kids, end, valid := w.Children(s, i, dst)
	if !valid {
		panic("visited an invalid index")
	}
	return i, kids, end, true
}

// TestVisitor: a game counted in its own order (Visitor) solves to the
// same values and counts as in the order of its indices.
func TestVisitor(t *testing.T) {
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 9))
		g := newToy(rng, 1+rng.IntN(5))
		vg := &visitedToy{toy: g}
		for s, n := range g.sizes {
			order := make([]int64, 2*n+3)
			for j := range order {
				order[j] = -1
			}
			slots := rng.Perm(len(order))
			k := 0
			for i := range n {
				if !g.invalid[s][i] {
					order[slots[k]] = i
					k++
				}
			}
			vg.order = append(vg.order, order)
		}
		want, _ := solveAll(t, g, Options{Threads: 1})
		for _, threads := range []int{1, 3} {
			got, comps := solveAll(t, vg, Options{Threads: threads, chunk: 4})
			for s := range want {
				for i := range want[s] {
					if got[s][i] != want[s][i] {
						t.Fatalf("seed %d threads %d: sector %d index %d: got %v, want %v", seed, threads, s, i, got[s][i], want[s][i])
					}
				}
			}
			for _, comp := range comps {
				_, cw, _ := SolveComponent(context.Background(), g, comp, func(s int) []Value { return want[s] }, Options{Threads: 1})
				_, cg, _ := SolveComponent(context.Background(), vg, comp, func(s int) []Value { return got[s] }, Options{Threads: threads, chunk: 4})
				if !slices.Equal(cw, cg) {
					t.Fatalf("seed %d: component %v: counts %+v, want %+v", seed, comp, cg, cw)
				}
				// Verify in the visiting order: the same counts, and a
				// wrong value found, at a visited index or at one that is
				// no position.
				for l, s := range comp {
					vals := func(s int) []Value { return got[s] }
					c, err := Verify(context.Background(), vg, s, vals, Options{Threads: threads, chunk: 4})
					if err != nil || c != cw[l] {
						t.Fatalf("seed %d: verify %d in the visiting order: %+v, %v; want %+v", seed, s, c, err, cw[l])
					}
					for i := range g.sizes[s] {
						old := got[s][i]
						got[s][i] = WinIn(200)
						_, err := Verify(context.Background(), vg, s, vals, Options{Threads: threads, chunk: 4})
						got[s][i] = old
						var me *MismatchError
						// (A wrong value may make its parents' look wrong
						// too; one that is no position has no parents.)
						if !errors.As(err, &me) || (g.invalid[s][i] && me.Index != i) {
							t.Fatalf("seed %d: sector %d index %d (no position: %v) made wrong: verify in the visiting order says %v", seed, s, i, g.invalid[s][i], err)
						}
					}
				}
			}
		}
	}
}
