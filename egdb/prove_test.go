package egdb

import (
	"context"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestProve proves the start of small whole games from their moving
// phase (the placing phase's values only choosing the moves to check), both
// as built with distances and as W/D/L: the value of the start is the
// databases'; and fails where the moving phase's values are made wrong.
func TestProve(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		rules string
		want  Result
	}{
		{"nine-mens-morris,pieces=3", Win},
		{"six-mens-morris,pieces=4", Draw},
		{"six-mens-morris", Draw},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			r, err := mill.ParseRules(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			db, _ := wdlGame(t, r)
			start := mill.NewGame(r).Position()
			pr := NewProver(ctx, db)
			got, err := pr.Prove(start)
			if err != nil {
				t.Fatal(err)
			}
			if pf := pr.Proof(); got != tc.want || pf.Positions == 0 || pf.Leaves == 0 {
				t.Errorf("got %s, %+v; want the start %s, proved through positions and leaves", resultText(got), pf, resultText(tc.want))
			}
			t.Logf("%s: %+v", tc.rules, pr.Proof())
			// Every moving position a loss for the side to move: the
			// placing values no longer hold.
			if _, err := NewProver(ctx, lossesWhenMoving{db}).Prove(start); err == nil || !strings.Contains(err.Error(), "by the moving phase, short of") {
				t.Errorf("with the moving phase all losses: got %v, want the proof to fail at a leaf", err)
			}
		})
	}
}

// lossesWhenMoving is a DB whose positions of the moving phase are all
// lost for the side to move.
type lossesWhenMoving struct{ *DB }

func (l lossesWhenMoving) Value(p mill.Position) (Value, bool) {
	v, ok := l.DB.Value(p)
	if ok && p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0 {
		return Value{Loss, 1}, true
	}
	return v, ok
}
