package tune

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/review"
	"github.com/morrisgame/morris/search"
)

// The calibration of the review's marks against the truth (docs/api.md,
// "How the marks were calibrated"): games between levels 3 to 7 are
// reviewed (review.Game), and each move's mark is compared with what the
// move did to the position's value by databases of the whole game (a win
// given away, a draw lost).

// CalibrateOptions are the settings of Calibrate.
type CalibrateOptions struct {
	Games int    // games to play and review
	Nodes uint64 // nodes of each search of the review
	Seed  uint64 // the seed of the games
}

// A CalibrationKey is a kind of move: the phase of the side that moved and
// the review's mark.
type CalibrationKey struct {
	Phase eval.Phase
	Mark  review.Mark
}

// Calibration counts the moves of each kind and those of them that lost
// value by the databases.
type Calibration struct {
	Moves, Lost map[CalibrationKey]int
}

// PhaseNames name the phases in Calibrate's rows and tables.
var PhaseNames = [...]string{eval.Placing: "placing", eval.Moving: "moving", eval.Flying: "flying"}

// CalibrateHeader is the first line of the rows Calibrate writes.
const CalibrateHeader = "game\tply\tphase\tbest\tplayed\tloss\tmark\tbefore\tafter"

// Calibrate plays o.Games games under r between levels 3 to 7 drawn at
// random, reviews each with searches of o.Nodes nodes, and counts each
// reviewed move that probe (databases of the whole game) knows before and
// after it. rows, when not nil, is told each move as a line (game, ply,
// phase, best score, played score, loss, mark, value before, value after:
// CalibrateHeader), and log, when not nil, each game played.
func Calibrate(ctx context.Context, r *mill.Rules, probe Probe, o CalibrateOptions, rows io.Writer, log func(game, plies, levelA, levelB int)) (Calibration, error) {
	c := Calibration{Moves: map[CalibrationKey]int{}, Lost: map[CalibrationKey]int{}}
	rng := rand.New(rand.NewPCG(o.Seed, 2))
	players := search.New(search.Options{HashMB: 16, Threads: 1})
	for n := range o.Games {
		g := mill.NewGame(r)
		la, lb := search.LevelFor(3+rng.IntN(5)), search.LevelFor(3+rng.IntN(5))
		for ply := 0; ply < 160 && g.Outcome() == mill.NoOutcome; ply++ {
			lv := la
			if ply%2 == 1 {
				lv = lb
			}
			res := players.Choose(ctx, g.Positions(), lv, search.Limits{}, rng, nil)
			if err := g.Play(res.Move); err != nil {
				return c, err
			}
		}
		e := search.New(search.Options{HashMB: 16, Threads: 1})
		rv, err := review.Game(ctx, e, g, search.Limits{Nodes: o.Nodes}, nil)
		if err != nil {
			return c, err
		}
		for _, m := range rv {
			after := m.Before.Play(m.Played)
			if o, _ := after.Status(); o != mill.NoOutcome {
				continue
			}
			vb, _, ok1 := probe(m.Before)
			va, _, ok2 := probe(after)
			if !ok1 || !ok2 {
				continue
			}
			if after.SideToMove() != m.Side {
				va = -va
			}
			k := CalibrationKey{eval.PhaseOf(&m.Before, m.Side), m.Mark}
			if rows != nil {
				fmt.Fprintf(rows, "%d\t%d\t%s\t%d\t%d\t%d\t%s\t%d\t%d\n", n+1, m.Ply, PhaseNames[k.Phase],
					m.BestScore, m.PlayedScore, m.Loss, m.Mark.Name(), vb, va)
			}
			c.Moves[k]++
			if va < vb {
				c.Lost[k]++
			}
		}
		if log != nil {
			log(n+1, len(g.Moves()), la.N, lb.N)
		}
	}
	return c, nil
}

// WriteTable writes the counts: for each phase and mark, how many moves
// got it and how many of them lost value.
func (c Calibration) WriteTable(w io.Writer) error {
	for ph, name := range PhaseNames {
		for _, mk := range []review.Mark{review.Good, review.Inaccuracy, review.Mistake, review.Blunder} {
			k := CalibrationKey{eval.Phase(ph), mk}
			if _, err := fmt.Fprintf(w, "%-8s %-10s moves %5d  lost value %5d\n", name, mk.Name(), c.Moves[k], c.Lost[k]); err != nil {
				return err
			}
		}
	}
	return nil
}
