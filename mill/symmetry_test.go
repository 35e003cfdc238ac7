package mill

import (
	"fmt"
	"slices"
	"testing"
)

// compose returns the permutation "first a, then b".
func compose(a, b []Point) []Point {
	c := make([]Point, len(a))
	for p := range a {
		c[p] = b[a[p]]
	}
	return c
}

// symmetryIndex returns the index of perm in b.Symmetries, or -1.
func symmetryIndex(b *Board, perm []Point) int {
	for s, q := range b.Symmetries {
		if slices.Equal(q, perm) {
			return s
		}
	}
	return -1
}

// inverse returns the index of the symmetry that undoes s.
func inverse(b *Board, s int) int {
	for t := range b.Symmetries {
		if symmetryIndex(b, compose(b.Symmetries[s], b.Symmetries[t])) == 0 {
			return t
		}
	}
	return -1
}

// wantSymmetries is the number of symmetries of each board: the 8 of the
// square, times the swap of the rings from the outside in on the boards of
// two rings or more without a centre.
var wantSymmetries = map[string]int{
	"standard24": 16, "diagonal24": 16, "large32": 16,
	"standard9": 8, "diagonal9": 8, "standard16": 16, "cross17": 8,
}

func TestSymmetriesKeepBoard(t *testing.T) {
	for _, b := range Boards() {
		t.Run(b.ID, func(t *testing.T) {
			if got, want := len(b.Symmetries), wantSymmetries[b.ID]; got != want {
				t.Fatalf("%d symmetries, want %d", got, want)
			}
			edges := map[[2]Point]bool{}
			for _, e := range b.Edges {
				edges[[2]Point{min(e[0], e[1]), max(e[0], e[1])}] = true
			}
			type line struct {
				set      uint32
				diagonal bool
			}
			lines := map[line]bool{}
			for _, l := range b.Lines {
				lines[line{1<<l.Points[0] | 1<<l.Points[1] | 1<<l.Points[2], l.Diagonal}] = true
			}
			identity := make([]Point, b.Len())
			for p := range identity {
				identity[p] = Point(p)
			}
			if !slices.Equal(b.Symmetries[0], identity) {
				t.Errorf("symmetry 0: got %v, want the identity", b.Symmetries[0])
			}
			for s, perm := range b.Symmetries {
				if len(perm) != b.Len() {
					t.Fatalf("symmetry %d: %d points, want %d", s, len(perm), b.Len())
				}
				var image uint32
				for _, q := range perm {
					image |= 1 << q
				}
				if image != 1<<b.Len()-1 {
					t.Errorf("symmetry %d: got %v, want a permutation of the points", s, perm)
				}
				for _, e := range b.Edges {
					x, y := perm[e[0]], perm[e[1]]
					if !edges[[2]Point{min(x, y), max(x, y)}] {
						t.Errorf("symmetry %d: edge %s-%s goes to %s-%s, want an edge", s, b.Name(e[0]), b.Name(e[1]), b.Name(x), b.Name(y))
					}
				}
				for _, l := range b.Lines {
					img := line{1<<perm[l.Points[0]] | 1<<perm[l.Points[1]] | 1<<perm[l.Points[2]], l.Diagonal}
					if !lines[img] {
						t.Errorf("symmetry %d: line %s-%s-%s (diagonal %v) goes to %s-%s-%s, want a line with the same diagonal flag",
							s, b.Name(l.Points[0]), b.Name(l.Points[1]), b.Name(l.Points[2]), l.Diagonal,
							b.Name(perm[l.Points[0]]), b.Name(perm[l.Points[1]]), b.Name(perm[l.Points[2]]))
					}
				}
				if i := symmetryIndex(b, perm); i != s {
					t.Errorf("symmetry %d equals symmetry %d, want %d distinct", s, i, len(b.Symmetries))
				}
				for u, other := range b.Symmetries {
					if symmetryIndex(b, compose(perm, other)) < 0 {
						t.Errorf("symmetry %d then %d: got a permutation that is not a symmetry, want a group", s, u)
					}
				}
				if inverse(b, s) < 0 {
					t.Errorf("symmetry %d has no inverse", s)
				}
			}
		})
	}
}

// TestSymmetriesComplete finds every permutation of the points that keeps
// the edges and the lines (with their diagonal flags) by an exhaustive
// search, and checks that the board lists exactly those: no symmetry is
// missing, so a book or a database stores one position for all its images.
func TestSymmetriesComplete(t *testing.T) {
	for _, b := range Boards() {
		t.Run(b.ID, func(t *testing.T) {
			n := b.Len()
			type line struct {
				set      uint32
				diagonal bool
			}
			lines := map[line]bool{}
			for _, l := range b.Lines {
				lines[line{1<<l.Points[0] | 1<<l.Points[1] | 1<<l.Points[2], l.Diagonal}] = true
			}
			img := make([]Point, n)
			var used uint32
			var found [][]Point
			var extend func(p int)
			extend = func(p int) {
				if p == n {
					for _, l := range b.Lines {
						if !lines[line{1<<img[l.Points[0]] | 1<<img[l.Points[1]] | 1<<img[l.Points[2]], l.Diagonal}] {
							return
						}
					}
					found = append(found, slices.Clone(img))
					return
				}
				for q := 0; q < n; q++ {
					if used&(1<<q) != 0 || b.Adjacent(Point(q)).Len() != b.Adjacent(Point(p)).Len() {
						continue
					}
					ok := true
					for e := 0; e < p && ok; e++ {
						ok = (b.Adjacent(Point(p))&(1<<e) != 0) == (b.Adjacent(Point(q))&(1<<img[e]) != 0)
					}
					if !ok {
						continue
					}
					img[p], used = Point(q), used|1<<q
					extend(p + 1)
					used &^= 1 << q
				}
			}
			extend(0)
			if len(found) != len(b.Symmetries) {
				t.Errorf("%d permutations keep the edges and lines, the board lists %d symmetries", len(found), len(b.Symmetries))
			}
			for _, perm := range found {
				if symmetryIndex(b, perm) < 0 {
					t.Errorf("%v keeps the edges and lines but is not in the board's symmetries", perm)
				}
			}
		})
	}
}

// transformMove maps m by perm.
func transformMove(m Move, perm []Point) Move {
	var out Move
	switch m.Kind() {
	case PlaceMove:
		out = Place(perm[m.To()])
	case SlideMove:
		out = Slide(perm[m.From()], perm[m.To()])
	case PassMove:
		return Pass
	case RemoveMove:
		return Remove(perm[m.Capture(0)])
	}
	for i := 0; i < m.NumCaptures(); i++ {
		out = out.WithCapture(perm[m.Capture(i)])
	}
	return out
}

// symmetryPositions returns positions to transform under the rules: some
// from random games and some random set-ups (with bans and used lines when
// the rules have them).
func symmetryPositions(t *testing.T, r *Rules, seed uint64, n int) []Position {
	d := newDiffer(t, r, seed)
	var out []Position
	for len(out) < n {
		if len(out)%3 == 2 {
			out = append(out, d.randomSetup())
			continue
		}
		p := r.StartWith(Color(d.rng.IntN(2)))
		plies := d.rng.IntN(60)
		for i := 0; i < plies; i++ {
			ms := p.Moves(nil)
			if len(ms) == 0 {
				break
			}
			p = p.Play(ms[d.rng.IntN(len(ms))])
		}
		out = append(out, p)
	}
	return out
}

// TestTransformInvariance checks that the symmetries of the board change
// nothing in play: moves map to moves, status, perft and move counts are
// kept, and Transform undoes and composes like the symmetries themselves.
func TestTransformInvariance(t *testing.T) {
	depth, per := 4, 4
	if testing.Short() {
		depth, per = 3, 2
	}
	var cfgs []diffConfig
	for _, v := range Variants() {
		cfgs = append(cfgs, diffConfig{variant: v.ID})
	}
	cfgs = append(cfgs,
		diffConfig{"twelve-mens-morris-small", []string{"reform-ban=yes", "one-time-mills=yes"}},
		diffConfig{"twelve-mens-morris-large", []string{"reform-ban=yes", "one-time-mills=yes", "captures=per-mill"}},
		diffConfig{"mill", []string{"one-time-mills=yes"}},
	)
	for i, cfg := range cfgs {
		t.Run(cfg.String(), func(t *testing.T) {
			r, err := NewRules(cfg.variant, cfg.overrides...)
			if err != nil {
				t.Fatal(err)
			}
			b := r.Board()
			sr := newSlowRules(r)
			for _, p := range symmetryPositions(t, r, uint64(500+i), per) {
				perftP := Perft(p, depth)
				moves := p.Moves(nil)
				o, how := p.Status()
				for s, perm := range b.Symmetries {
					q := p.Transform(s)
					where := fmt.Sprintf("%s transformed by %d = %s", p, s, q)
					if want := sr.position(sr.fromPosition(q)); q != want {
						t.Fatalf("%s: got %s, want %s (piece key from scratch)", where, q, want)
					}
					if back := q.Transform(inverse(b, s)); back != p {
						t.Errorf("%s: the inverse gives %s, want the position back", where, back)
					}
					if s == 0 && q != p {
						t.Errorf("%s: the identity changes the position", where)
					}
					if qo, qhow := q.Status(); qo != o || qhow != how {
						t.Errorf("%s: Status: got %v by %v, want %v by %v", where, qo, qhow, o, how)
					}
					var want []Move
					for _, m := range moves {
						want = append(want, transformMove(m, perm))
					}
					got := q.Moves(nil)
					sortMoves(got)
					sortMoves(want)
					if !slices.Equal(got, want) {
						t.Errorf("%s: Moves: got %v, want %v (the moves of the original, transformed)", where, got, want)
					}
					if n := q.NumMoves(); n != len(moves) {
						t.Errorf("%s: NumMoves: got %d, want %d", where, n, len(moves))
					}
					if n := Perft(q, depth); n != perftP {
						t.Errorf("%s: Perft(%d): got %d, want %d", where, depth, n, perftP)
					}
					u := (s*7 + 3) % len(b.Symmetries)
					if got, want := q.Transform(u), p.Transform(symmetryIndex(b, compose(perm, b.Symmetries[u]))); got != want {
						t.Errorf("%s: then by %d: got %s, want %s (the composed symmetry)", where, u, got, want)
					}
				}
			}
		})
	}
}

// TestCanonical checks that all the images of a position have the same
// canonical form, and that Canonical says which symmetry gives it.
func TestCanonical(t *testing.T) {
	for i, v := range Variants() {
		t.Run(v.ID, func(t *testing.T) {
			r := MustRules(v.ID)
			for _, p := range symmetryPositions(t, r, uint64(900+i), 3) {
				c, s := p.Canonical()
				if want := p.Transform(s); c != want {
					t.Errorf("%s: Canonical gives %s by symmetry %d, want %s", p, c, s, want)
				}
				for u := range r.Board().Symmetries {
					q := p.Transform(u)
					if q.Key() < c.Key() {
						t.Errorf("%s: symmetry %d gives key %#x, below the canonical %#x", p, u, q.Key(), c.Key())
					}
					if qc, _ := q.Canonical(); qc != c {
						t.Errorf("%s transformed by %d: Canonical gives %s, want %s", p, u, qc, c)
					}
				}
			}
		})
	}
}
