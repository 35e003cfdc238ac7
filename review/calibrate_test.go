package review

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// The calibration of the marks against the truth: games between levels 3
// to 7 are reviewed, and each move's mark is compared with what the move
// did to the position's value in the endgame databases of the whole game
// (a win given away, a draw lost). For example, with the databases of six
// men's morris (morris solve -variant six-mens-morris -game -dir DIR):
//
//	go test ./review -run TestCalibrate -calibrate DIR -v -timeout 0
var (
	calDir     = flag.String("calibrate", "", "TestCalibrate: the databases of the whole game (morris solve -game)")
	calVariant = flag.String("calibrate-variant", "six-mens-morris", "TestCalibrate: the rules of the games")
	calGames   = flag.Int("calibrate-games", 20, "TestCalibrate: games to play and review")
	calNodes   = flag.Uint64("calibrate-nodes", 100000, "TestCalibrate: nodes of each search of the review")
	calSeed    = flag.Uint64("calibrate-seed", 1, "TestCalibrate: seed of the games")
	calOut     = flag.String("calibrate-out", "", "TestCalibrate: also write each move as a line of FILE (tab-separated: game, ply, phase, best score, played score, loss, mark, value before, value after)")
)

var phaseName = [...]string{eval.Placing: "placing", eval.Moving: "moving", eval.Flying: "flying"}

// TestCalibrate prints, for each phase of the side that moved and each mark, how many moves got it and
// how many of them lost value by the databases.
func TestCalibrate(t *testing.T) {
	if *calDir == "" {
		t.Skip("give -calibrate DIR")
	}
	r, err := mill.ParseRules(*calVariant)
	if err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(*calDir, egdb.ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(*calSeed, 2))
	players := search.New(search.Options{HashMB: 16, Threads: 1})
	type key struct {
		phase eval.Phase // of the side that moved
		mark  Mark
	}
	var moves, lost = map[key]int{}, map[key]int{}
	var rows *os.File
	if *calOut != "" {
		if rows, err = os.Create(*calOut); err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		fmt.Fprintln(rows, "game\tply\tphase\tbest\tplayed\tloss\tmark\tbefore\tafter")
	}
	for n := range *calGames {
		g := mill.NewGame(r)
		la, lb := search.LevelFor(3+rng.IntN(5)), search.LevelFor(3+rng.IntN(5))
		for ply := 0; ply < 160 && g.Outcome() == mill.NoOutcome; ply++ {
			lv := la
			if ply%2 == 1 {
				lv = lb
			}
			res := players.Choose(context.Background(), g.Positions(), lv, search.Limits{}, rng, nil)
			if err := g.Play(res.Move); err != nil {
				t.Fatal(err)
			}
		}
		e := search.New(search.Options{HashMB: 16, Threads: 1})
		rv, err := Game(context.Background(), e, g, search.Limits{Nodes: *calNodes}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range rv {
			after := m.Before.Play(m.Played)
			if o, _ := after.Status(); o != mill.NoOutcome {
				continue
			}
			vb, ok1 := db.Value(m.Before)
			va, ok2 := db.Value(after)
			if !ok1 || !ok2 {
				continue
			}
			if after.SideToMove() != m.Side {
				va = va.Parent()
			}
			k := key{eval.PhaseOf(&m.Before, m.Side), m.Mark}
			if rows != nil {
				fmt.Fprintf(rows, "%d\t%d\t%s\t%d\t%d\t%d\t%s\t%d\t%d\n", n+1, m.Ply, phaseName[k.phase],
					m.BestScore, m.PlayedScore, m.Loss, m.Mark.Name(), vb.Result, va.Result)
			}
			moves[k]++
			if va.Result < vb.Result {
				lost[k]++
			}
		}
		t.Logf("game %d: %d plies, levels %d and %d", n+1, len(g.Moves()), la.N, lb.N)
	}
	for ph, name := range phaseName {
		for _, mk := range []Mark{Good, Inaccuracy, Mistake, Blunder} {
			k := key{eval.Phase(ph), mk}
			fmt.Printf("%-8s %-10s moves %5d  lost value %5d\n", name, mk.Name(), moves[k], lost[k])
		}
	}
}
