package puzzle

import (
	"math/rand/v2"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/mill"
)

// TestFind makes puzzles from the 3v3 sector of nine men's morris and
// checks each against the databases: the first move is the only win, each
// later solver's move too, each defence is the slowest loss, and the line
// is legal.
func TestFind(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	db, _ := egdbtest.Build(t, r, []egdb.Key{{White: 3, Black: 3}}...)
	o := Defaults
	o.Sectors = [][2]int{{3, 3}}
	rng := rand.New(rand.NewPCG(1, 2))
	long := 0 // in 3v3 the winner flies, and after the first only move has several wins
	for range 10 {
		pz, err := Find(db, r, rng, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(pz.Solution) > 1 {
			long++
		}
		q := pz.Position
		for i, m := range pz.Solution {
			if !q.Legal(m) {
				t.Fatalf("%s: move %d %v is not legal", pz.Position, i, m)
			}
			mv, ok := db.MoveValues(q)
			if !ok {
				t.Fatalf("%s: no values at move %d", pz.Position, i)
			}
			if i%2 == 0 {
				wins := 0
				for _, x := range mv {
					if x.Value.Result == egdb.Win {
						wins++
					}
				}
				if wins != 1 || mv[0].Move != m {
					t.Errorf("%s: solver's move %d %s is not the only win (%d wins)", pz.Position, i, q.MoveText(m), wins)
				}
			} else if mv[0].Move != m && mv[0].Value != valueOf(mv, m) {
				t.Errorf("%s: defence %d %s is not the slowest loss", pz.Position, i, q.MoveText(m))
			}
			q = q.Play(m)
		}
		if pz.Plies < o.MinPlies || pz.Plies > o.MaxPlies || len(pz.Solution) > o.MaxLine {
			t.Errorf("%s: win in %d, line of %d", pz.Position, pz.Plies, len(pz.Solution))
		}
	}
	t.Logf("10 puzzles, %d with more than the first move", long)
}

func valueOf(mv []egdb.MoveValue, m mill.Move) egdb.Value {
	for _, x := range mv {
		if x.Move == m {
			return x.Value
		}
	}
	return egdb.Value{}
}

// TestOfAndDraw: the positions of a game that the databases hold give
// their puzzles (a win found by Find, played into a game, is found again
// by Of), and a drawn position with one saving move gives a draw puzzle.
func TestOfAndDraw(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	db, _ := egdbtest.Build(t, r, []egdb.Key{{White: 3, Black: 3}, {White: 4, Black: 3}}...)
	o := Defaults
	o.Sectors = [][2]int{{3, 3}}
	pz, err := Find(db, r, rand.New(rand.NewPCG(7, 8)), o)
	if err != nil {
		t.Fatal(err)
	}
	g := mill.NewGame(r, mill.FromPosition(pz.Position))
	if err := g.Play(pz.Solution[0]); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, q := range Of(db, g, o) {
		if q.Position == pz.Position && q.Goal == "win" && q.Solution[0] == pz.Solution[0] {
			found = true
		}
	}
	if !found {
		t.Errorf("Of did not find the puzzle at the start of the game %s", pz.Position)
	}
	// A draw to save: among random 4v3 and 3v4 positions.
	rng := rand.New(rand.NewPCG(9, 10))
	n := r.Board().Len()
	for try := 0; try < 300000; try++ {
		w := randomSet(rng, n, 3+try%2, 0)
		b := randomSet(rng, n, 4-try%2, w)
		p, err := r.SetUp(w, b, mill.White, 0, 0)
		if err != nil {
			continue
		}
		if st, _ := p.Status(); st != mill.NoOutcome {
			continue
		}
		d, ok := MakeDraw(db, p)
		if !ok {
			continue
		}
		mv, _ := db.MoveValues(p)
		draws := 0
		for _, x := range mv {
			if x.Value.Result == egdb.Draw {
				draws++
			}
			if x.Value.Result == egdb.Win {
				t.Fatalf("%s: a drawn position with a winning move", p)
			}
		}
		if draws != 1 || d.Goal != "draw" || len(d.Solution) != 1 || mv[0].Move != d.Solution[0] {
			t.Fatalf("%s: %d drawing moves, puzzle %+v", p, draws, d)
		}
		t.Logf("a draw to save after %d tries: %s, %s", try+1, p, d.Texts()[0])
		return
	}
	t.Error("no draw to save in 300000 positions")
}
