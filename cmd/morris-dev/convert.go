package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"text/tabwriter"

	"github.com/morrisgame/morris/internal/engine/match"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

func cmdConvert(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("convert", "FILE...", `Whether a player wins the positions it has won (docs/egdb.md, "Converting
wins"): the positions of the games in the record FILEs that the databases of
the whole game (-judge) call won for the side to move are gathered by phase
(placing, moving, flying: the side to move's), -n of each drawn at random
(-seed), and the player -a plays each from there, the counters of plies
without progress set to 0, against the perfect defence of -judge (the slowest
loss). A game won before the no-progress rule draws it is converted. For
example, level 10 with a compact file against the whole game's files:

  morris-dev convert -judge DIR -a level:10,movetime=200,tablebases=FILE docs/matches/*.pgn`, stderr)
	judge := fs.String("judge", "", "the databases of the whole game (morris solve -game): the values and the defence (required)")
	a := fs.String("a", "level:10,movetime=200", "the player that must win (a morris match spec)")
	n := fs.Int("n", 200, "positions of each phase")
	seed := fs.Uint64("seed", 1, "the seed of the positions drawn and of the players")
	conc := fs.Int("concurrency", 1, "games played at once")
	out := fs.String("records", "", "write the games to this file (PGN)")
	if err := parse(fs, args, 1, -1); err != nil {
		return err
	}
	if err := need(fs, "judge"); err != nil {
		return err
	}
	if *n < 1 || *conc < 1 {
		return badUsage("-n and -concurrency: want 1 or more")
	}
	winner, err := match.ParseSpec(*a, match.Limits{})
	if err != nil {
		return usageError{err}
	}
	defence, err := match.ParseSpec("perfect:"+*judge+",name=perfect", match.Limits{})
	if err != nil {
		return usageError{err}
	}
	db, err := match.OpenTruth(*judge, true)
	if err != nil {
		return err
	}
	won := map[match.Phase][]mill.Position{}
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		ps, err := match.WonPositions(f, db)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for ph, list := range ps {
			won[ph] = append(won[ph], list...)
		}
	}
	rng := rand.New(rand.NewPCG(*seed, 0x636f6e76))
	var positions []mill.Position
	var phases []match.Phase
	for _, ph := range match.Phases {
		list := dedupe(won[ph])
		rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
		list = list[:min(*n, len(list))]
		fmt.Fprintf(stderr, "%s: %d won positions in the records, %d played\n", ph, len(dedupe(won[ph])), len(list))
		for _, p := range list {
			positions = append(positions, p)
			phases = append(phases, ph)
		}
	}
	var recs *record.Writer
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		recs = record.NewWriter(f)
		defer recs.Flush()
	}
	type tally struct{ games, converted, drawn, lost, faults, plies int }
	var by [len(match.Phases)]tally
	games, err := match.Convert(ctx, match.ConvertConfig{Winner: winner, Defence: defence, Positions: positions,
		Concurrency: *conc, MaxPlies: 1000, Seed: *seed,
		Progress: func(g match.ConvertGame) {
			ph := phases[g.Index]
			t := &by[ph]
			t.games++
			res := "drawn"
			switch {
			case g.Converted():
				t.converted++
				t.plies += len(g.Game.Moves())
				res = "converted"
			case g.Fault != "":
				t.faults++
				res = "fault: " + g.Fault
			case g.Game.Outcome() == mill.Draw || g.Game.Outcome() == mill.NoOutcome:
				t.drawn++
				res = "drawn by " + g.Game.Method().String()
			default:
				t.lost++
				res = "LOST"
			}
			fmt.Fprintf(stderr, "%d/%d %s %s: %s in %d plies\n", g.Index+1, len(positions), ph, g.Start, res, len(g.Game.Moves()))
			if recs != nil {
				names := [2]string{winner.Name, "perfect"}
				if g.Start.SideToMove() == mill.Black {
					names[0], names[1] = names[1], names[0]
				}
				rec := record.FromGame(g.Game, record.Tag{Name: "Event", Value: "convert"},
					record.Tag{Name: "Round", Value: fmt.Sprint(g.Index + 1)},
					record.Tag{Name: "White", Value: names[0]}, record.Tag{Name: "Black", Value: names[1]})
				rec.Comment = fmt.Sprintf("%s: won for the side to move by %s; %s", ph, *judge, res)
				err := recs.Write(rec)
				if err == nil {
					err = recs.Flush()
				}
				if err != nil {
					fmt.Fprintf(stderr, "writing the records: %v\n", err)
				}
			}
		}})
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "phase\tgames\tconverted\t%%\tdrawn\tlost\tfaults\tplies to win (mean)\t\n")
	for _, ph := range match.Phases {
		t := by[ph]
		pct, mean := 0.0, 0.0
		if t.games > 0 {
			pct = 100 * float64(t.converted) / float64(t.games)
		}
		if t.converted > 0 {
			mean = float64(t.plies) / float64(t.converted)
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%.1f\t%d\t%d\t%d\t%.1f\t\n", ph, t.games, t.converted, pct, t.drawn, t.lost, t.faults, mean)
	}
	w.Flush()
	fmt.Fprintf(stdout, "%d games; %s against the perfect defence of %s, seed %d\n", len(games), winner.Name, *judge, *seed)
	return err
}

// dedupe keeps the first of each position (positions of several files).
func dedupe(ps []mill.Position) []mill.Position {
	seen := map[string]bool{}
	var out []mill.Position
	for _, p := range ps {
		if k := p.String(); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}
