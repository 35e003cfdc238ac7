package record

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/morrisgame/morris/mill"
)

func equalMoves(a, b []mill.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRoundTrip plays random games of every preset, writes them, reads them
// back and replays them: the same moves, the same end.
func TestRoundTrip(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	for _, v := range mill.Variants() {
		t.Run(v.ID, func(t *testing.T) {
			rules := mill.MustRules(v.ID)
			for seed := uint64(0); seed < uint64(games); seed++ {
				var g *mill.Game
				switch seed % 4 {
				case 0, 1: // a whole game, or most of one
					g = randomGame(mill.NewGame(rules, mill.WithSeed(seed)), seed, 200+int(seed)*100)
				case 2: // from a position reached by random play
					start := randomGame(mill.NewGame(rules, mill.WithSeed(seed)), seed, 5+int(seed)*3)
					if start.Outcome() != mill.NoOutcome {
						continue
					}
					g = randomGame(mill.NewGame(rules, mill.FromPosition(start.Position())), seed+1, 1000)
				case 3: // cut short by a resignation
					g = randomGame(mill.NewGame(rules, mill.WithSeed(seed)), seed, int(seed)*5)
					if g.Outcome() == mill.NoOutcome {
						if err := g.Resign(g.Position().SideToMove()); err != nil {
							t.Fatal(err)
						}
					}
				}
				rec := FromGame(g, Tag{"Event", v.ID}, Tag{"Round", fmt.Sprint(seed)})
				if len(rec.Moves) > 0 {
					rec.Moves[len(rec.Moves)/2].Comment = "half way"
				}
				var buf bytes.Buffer
				w := NewWriter(&buf)
				if err := w.Write(rec); err != nil {
					t.Fatal(err)
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				recs, err := readAll(buf.Bytes())
				if err != nil || len(recs) != 1 {
					t.Fatalf("seed %d: reading back gives %d records, error %v:\n%s", seed, len(recs), err, buf.Bytes())
				}
				g2, err := recs[0].Game()
				if err != nil {
					t.Fatalf("seed %d: replaying: %v\n%s", seed, err, buf.Bytes())
				}
				if !equalMoves(g.Moves(), g2.Moves()) {
					t.Errorf("seed %d: the moves differ after the round trip:\n%s", seed, buf.Bytes())
				}
				if g.Start() != g2.Start() {
					t.Errorf("seed %d: start %s, want %s", seed, g2.Start(), g.Start())
				}
				if g.Outcome() != g2.Outcome() || g.Method() != g2.Method() {
					t.Errorf("seed %d: got %s, want %s", seed, Summary(g2), Summary(g))
				}
				if g.Position() != g2.Position() {
					t.Errorf("seed %d: final position %s, want %s", seed, g2.Position(), g.Position())
				}
				if got := recs[0].Moves[len(rec.Moves)/2:]; len(got) > 0 && got[0].Comment != "half way" {
					t.Errorf("seed %d: the comment is lost: %+v", seed, got[0])
				}
			}
		})
	}
}
