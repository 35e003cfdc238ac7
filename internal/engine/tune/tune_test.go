package tune

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

func TestElo(t *testing.T) {
	elo, _ := Result{Wins: 3, Losses: 1}.Elo()
	if math.Abs(elo-190.85) > 0.01 {
		t.Errorf("75%%: got %.2f, want +190.85", elo)
	}
	if e, _ := (Result{Wins: 5, Draws: 2, Losses: 5}).Elo(); e != 0 {
		t.Errorf("50%%: got %.2f", e)
	}
}

func TestMatchSmoke(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	w := eval.Default()
	res := Match(context.Background(), r, &w, &w, 2, 6, 2, 1, 2)
	if res.Games() != 4 {
		t.Errorf("got %d games, want 4", res.Games())
	}
}

// TestTuneAblateCompare runs each experiment on a board of three men's
// morris at depth 1 with one pair a match: the tables have a row a match,
// and Tune keeps a step only when it scored.
func TestTuneAblateCompare(t *testing.T) {
	o := MatchOptions{Rules: mill.MustRules("three-mens-morris"), Pairs: 1, Depth: 1, OpeningPlies: 2, Workers: 1}
	ctx := context.Background()
	var out strings.Builder
	start := eval.Default()
	best := Tune(ctx, start, TuneSteps[:2], 1, o, 1, &out)
	rows := strings.Count(out.String(), "\n| ")
	if rows < 2 || rows > 4 || !strings.Contains(out.String(), "verification, final against the start: 4 games") {
		t.Errorf("Tune over 2 steps wrote %d rows, want 2 to 4, and a verification of 4 games:\n%s", rows, out.String())
	}
	if kept := strings.Count(out.String(), "| true |"); kept == 0 && best != start {
		t.Errorf("no step kept, and the weights changed: %+v", best)
	}
	out.Reset()
	Ablate(ctx, start, Ablations[:2], o, &out)
	if got := strings.Count(out.String(), "\n| "); got != 2 {
		t.Errorf("Ablate of 2 groups: %d rows, want 2:\n%s", got, out.String())
	}
	out.Reset()
	if err := Compare(ctx, start, []string{`{"Taper": true}`}, o, &out); err != nil || !strings.Contains(out.String(), "| `{\"Taper\": true}` | 1 | 2 |") {
		t.Errorf("Compare: %v\n%s", err, out.String())
	}
	if err := Compare(ctx, start, []string{`{"Taper": 5}`}, o, &out); err == nil {
		t.Error("Compare took an edit that is not of eval.Weights")
	}
}
