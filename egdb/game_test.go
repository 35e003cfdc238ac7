package egdb

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/mill"
)

// normal returns the sector and index of q for its side to move, by the
// slow twin of the index (in small sectors), or End if the side to move has
// too few pieces.
func normal(t *testing.T, g *game, slow *slowIndexer, q mill.Position) retro.Child {
	us := q.SideToMove()
	W, B := uint32(q.Pieces(us)), uint32(q.Pieces(us.Other()))
	if q.OnBoard(us)+q.InHand(us) < g.minPieces {
		return retro.Child{End: true, Value: retro.LossIn(0)}
	}
	s, ok := g.sector(Key{White: q.OnBoard(us), Black: q.OnBoard(us.Other()), WhiteHand: q.InHand(us), BlackHand: q.InHand(us.Other())})
	if !ok {
		t.Fatalf("%v: no sector", q)
	}
	if q.OnBoard(us) > 4 || q.OnBoard(us.Other()) > 4 {
		// The slow twin lists every set: too slow for the big sectors,
		// whose indices TestIndexAgainstSlowTwin checks.
		return retro.Child{Ref: retro.Ref{Sector: s, Index: g.lay[s].index(W, B)}}
	}
	return retro.Child{Ref: retro.Ref{Sector: s, Index: slow.index(W, B)}}
}

func childKey(c retro.Child) [3]int64 {
	if c.End {
		return [3]int64{-1, -1, int64(c.Value)}
	}
	return [3]int64{int64(c.Sector), c.Index, 0}
}

func sortedChildren(cs []retro.Child) [][3]int64 {
	var out [][3]int64
	for _, c := range cs {
		out = append(out, childKey(c))
	}
	slices.SortFunc(out, func(a, b [3]int64) int {
		for i := range a {
			if a[i] != b[i] {
				if a[i] < b[i] {
					return -1
				}
				return 1
			}
		}
		return 0
	})
	return out
}

// TestChildrenAgainstMill: the children of random positions are the
// positions mill's own move generator and Play reach, one per move, named
// by the slow index; the end of the game is mill's Status; and every child
// in the component names the position among its parents.
func TestChildrenAgainstMill(t *testing.T) {
	variants := []string{"nine-mens-morris", "twelve-mens-morris-small", "twelve-mens-morris", "mill", "nine-mens-morris,protection=always", "nine-mens-morris,protection=none,blocked=draw"}
	for _, variant := range variants {
		r, err := mill.ParseRules(variant)
		if err != nil {
			t.Fatal(err)
		}
		x := newIndexer(r.Board())
		slow := newSlowIndexer(r.Board())
		keys := []Key{{3, 3, 0, 0}, {4, 3, 0, 0}, {5, 4, 0, 0}, {4, 4, 0, 0}, {7, 6, 0, 0}}
		if r.Options().Pieces >= 12 && !testing.Short() {
			keys = append(keys, Key{12, 10, 0, 0}) // large tables of canonical sets
		}
		// The placing phase: placements, with and without captures, the
		// last placement into the moving phase, an empty board.
		if PlacingSupported(r) == nil {
			keys = append(keys, Key{0, 0, 9, 9}, Key{2, 2, 7, 6}, Key{4, 3, 4, 4}, Key{6, 5, 2, 1}, Key{7, 8, 1, 1}, Key{8, 9, 1, 0})
		}
		g, err := newGame(r, x, keys)
		if err != nil {
			t.Fatal(err)
		}
		wk := g.NewWorker()
		rng := rand.New(rand.NewPCG(3, 4))
		for s, k := range g.keys {
			n := 60
			if testing.Short() {
				n = 10
			}
			for range n {
				i := rng.Int64N(g.Size(s))
				kids, end, valid := wk.Children(s, i, nil)
				W, B, _ := g.lay[s].position(i)
				if !valid {
					continue
				}
				p, err := r.SetUp(mill.Points(W), mill.Points(B), mill.White, k.WhiteHand, k.BlackHand)
				if err != nil {
					t.Fatal(err)
				}
				var want []retro.Child
				seen := map[retro.Ref]bool{}
				for _, m := range p.Moves(nil) {
					c := normal(t, g, slow, p.Play(m))
					// Inside the component each child is listed once
					// (DistinctMoves), though two moves of a position that
					// a symmetry keeps may lead to it.
					if !c.End && c.Sector == g.swap[s] && k.Moving() {
						if seen[c.Ref] {
							continue
						}
						seen[c.Ref] = true
					}
					want = append(want, c)
				}
				if got, w := sortedChildren(kids), sortedChildren(want); !slices.Equal(got, w) {
					t.Fatalf("%s %s %v: got children %v, want %v", variant, k, p, got, w)
				}
				if len(kids) == 0 {
					o, how := p.Status()
					wantEnd := retro.LossIn(0)
					if o == mill.Draw {
						wantEnd = retro.Draw
					}
					if o == mill.NoOutcome || end != wantEnd {
						t.Fatalf("%s %s %v: got end %v, mill says %v by %v", variant, k, p, end, o, how)
					}
				}
				for _, c := range kids {
					// Parents lists parents inside a component: in the
					// moving phase (placing sectors are components alone).
					if c.End || c.Sector != g.swap[s] || !k.Moving() {
						continue
					}
					parents := wk.Parents(c.Sector, c.Index, nil)
					if !slices.Contains(parents, retro.Ref{Sector: s, Index: i}) {
						t.Fatalf("%s %s %v: child %v does not list it among its parents %v", variant, k, p, c, parents)
					}
				}
				// Every parent listed has the position among its children,
				// and none is listed twice (DistinctMoves).
				parents := wk.Parents(s, i, nil)
				if sorted := slices.SortedFunc(slices.Values(parents), cmpRef); len(slices.Compact(sorted)) != len(parents) {
					t.Fatalf("%s %s %v: a parent listed twice in %v", variant, k, p, parents)
				}
				for _, pr := range parents {
					pk, _, valid := wk.Children(pr.Sector, pr.Index, nil)
					if !valid {
						t.Fatalf("%s %s %v: parent %v is not a valid index", variant, k, p, pr)
					}
					if !slices.ContainsFunc(pk, func(c retro.Child) bool { return !c.End && c.Ref == retro.Ref{Sector: s, Index: i} }) {
						t.Fatalf("%s %s %v: parent %v has not the position among its children", variant, k, p, pr)
					}
				}
			}
		}
	}
}

func TestSupported(t *testing.T) {
	for _, v := range mill.Variants() {
		err := Supported(mill.MustRules(v.ID))
		want := map[string]bool{"nine-mens-morris": true, "twelve-mens-morris": true, "twelve-mens-morris-small": true,
			"twelve-mens-morris-large": true, "mill": true, "lasker": true, "six-mens-morris": true, "seven-mens-morris": true,
			"dooz": true, "cheng-san-qi": true, "el-filja": true}[v.ID]
		if (err == nil) != want {
			t.Errorf("%s: got %v, want supported %v", v.ID, err, want)
		}
	}
	// Each rule that stands in the way is named.
	for _, tc := range []struct {
		rules   string
		why     string // "" for supported
		placing string // for the placing phase, "" for supported
	}{
		{"three-mens-morris", "a mill that wins the game", "a mill that wins the game"},
		{"tapatan", "a mill that wins the game", "a mill that wins the game"},
		{"nine-mens-morris,mill-wins=yes", "a mill that wins the game", "a mill that wins the game"},
		{"seven-mens-morris,centre-ban=yes", "", "the centre ban"},
		{"three-mens-morris,mill-wins=no", "", ""},
		{"six-mens-morris", "", ""},
		// The regional presets: their moving phase where it plays as
		// the databases do, their placing phase only for cheng-san-qi.
		{"cheng-san-qi", "", ""},
		{"dooz", "", "mills that take from the hand (placing-captures=hand)"},
		{"da-san-qi", "a full board that the first player loses (full-board=first-loses)", "a full board that the first player loses"},
		{"da-san-qi,full-board=gridlock", "", "marked pieces (placing-captures=mark)"},
		{"da-san-qi,full-board=gridlock,placing-captures=immediate", "", "the second player moving first when placing ends (second-moves-first)"},
		{"zhi-qi", "the removal of a blocked side (blocked=removes)", "the removal of a blocked side"},
		{"zhi-qi,blocked=loses", "", "removals on a full board when placing ends (full-board=removals)"},
		{"el-filja", "", "removals by mill counts when placing ends (placing-captures=counted)"},
		{"el-filja,placing-captures=counted-each", "", "removals by mill counts when placing ends"},
	} {
		r := mill.MustRules(strings.Split(tc.rules, ",")[0], strings.Split(tc.rules, ",")[1:]...)
		for _, c := range []struct {
			err  error
			want string
		}{{Supported(r), tc.why}, {PlacingSupported(r), tc.placing}} {
			if (c.err == nil) != (c.want == "") || (c.err != nil && !strings.Contains(c.err.Error(), c.want)) {
				t.Errorf("%s: got %v, want %q", tc.rules, c.err, c.want)
			}
		}
	}
	// Moving-phase databases do not depend on the centre ban, nor on what
	// happens when placing ends.
	if !compatible(mill.MustRules("seven-mens-morris"), mill.MustRules("seven-mens-morris", "centre-ban=yes")) {
		t.Errorf("the centre ban changes the moving phase")
	}
	if !compatible(mill.MustRules("twelve-mens-morris-small"), mill.MustRules("dooz")) {
		t.Errorf("dooz's moving phase is twelve men's morris's on the small board")
	}
	if !compatible(mill.MustRules("zhi-qi", "blocked=loses"), mill.MustRules("twelve-mens-morris-small")) {
		t.Errorf("full-board=removals changes the moving phase")
	}
}

func cmpRef(a, b retro.Ref) int {
	if a.Sector != b.Sector {
		return cmp.Compare(a.Sector, b.Sector)
	}
	return cmp.Compare(a.Index, b.Index)
}

// TestDistinctMoves: over every position of 4v3, 3v4 and 3v3 (one in 17
// with -short; many of them kept by a symmetry), no child inside the component
// and no parent is listed twice, and the positions where two moves lead to
// one child do occur (so the repeats were there to drop).
func TestDistinctMoves(t *testing.T) {
	r, err := mill.ParseRules("nine-mens-morris,flying=3")
	if err != nil {
		t.Fatal(err)
	}
	g, err := newGame(r, newIndexer(r.Board()), []Key{{4, 3, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	wk := g.NewWorker()
	fewer := 0
	step := int64(1)
	if testing.Short() {
		step = 17 // a position in 17: the race detector's runs
	}
	for s, k := range g.keys {
		for i := int64(0); i < g.Size(s); i += step {
			kids, _, valid := wk.Children(s, i, nil)
			if !valid {
				continue
			}
			var inner []retro.Ref
			for _, c := range kids {
				if !c.End && c.Sector == g.swap[s] {
					inner = append(inner, c.Ref)
				}
			}
			sorted := slices.SortedFunc(slices.Values(inner), cmpRef)
			if len(slices.Compact(sorted)) != len(inner) {
				t.Fatalf("%s index %d: a child listed twice in %v", k, i, inner)
			}
			parents := wk.Parents(s, i, nil)
			sorted = slices.SortedFunc(slices.Values(parents), cmpRef)
			if len(slices.Compact(sorted)) != len(parents) {
				t.Fatalf("%s index %d: a parent listed twice in %v", k, i, parents)
			}
			W, B, _ := g.lay[s].position(i)
			p, err := r.SetUp(mill.Points(W), mill.Points(B), mill.White, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			quiet := 0
			for _, m := range p.Moves(nil) {
				if m.NumCaptures() == 0 {
					quiet++
				}
			}
			if len(inner) < quiet {
				fewer++
			}
		}
	}
	if fewer == 0 {
		t.Error("no position had two moves to one child: the repeats were not exercised")
	}
	t.Logf("%d positions with repeated children dropped", fewer)
}
