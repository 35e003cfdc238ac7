package egdb

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/morrisgame/morris/mill"
)

// CheckByRules checks one index in every step of sector k of db (all of
// them with step 1) without the solver's code of moves: each position is
// set up as a mill.Position, its moves are mill's own (Moves, Play,
// Status), and each child's value is probed from db by the position's own
// sector and index, as a program that plays probes it. The result stored
// (win, draw or loss) must be the one those children give: a win if one
// leaves the opponent lost, a loss if all leave it won, else a draw; a
// position without moves must hold the end mill gives it. It returns the
// positions checked.
//
// A build's verify pass (Builder.Verify) checks every value with the
// solver's own children; this is the second, independent check of the
// placing phase built as W/D/L (docs/egdb.md), cheap enough to run on a
// sample of every sector.
func CheckByRules(ctx context.Context, db *DB, k Key, step int64) (int64, error) {
	sec, ok := db.sectors[k]
	if !ok {
		return 0, fmt.Errorf("egdb: no sector %s in the databases", k)
	}
	return checkByRules(ctx, db, sec, sec.vals, step)
}

// checkByRules is CheckByRules of the sector sec with its values read from
// own (the tests change them).
func checkByRules(ctx context.Context, db *DB, sec *dbSector, own values, step int64) (int64, error) {
	if step < 1 {
		step = 1
	}
	r, k, n := db.rules, sec.key, sec.lay.size
	if k.WhiteHand+k.BlackHand > 0 && PlacingSupported(r) != nil {
		return 0, fmt.Errorf("egdb: %s: the databases' rules %s have no placing phase to check", k, r)
	}
	parts := int64(runtime.GOMAXPROCS(0))
	var checked atomic.Int64
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var cu cursor
			for i := p * step; i < n; i += parts * step {
				if ctx.Err() != nil {
					errs[p] = ctx.Err()
					return
				}
				W, B, valid := cu.position(&sec.lay, i)
				if !valid {
					continue
				}
				pos, err := r.SetUp(mill.Points(W), mill.Points(B), mill.White, k.WhiteHand, k.BlackHand)
				if err != nil {
					errs[p] = fmt.Errorf("egdb: %s index %d: %w", k, i, err)
					return
				}
				want, err := db.resultByRules(pos)
				if err != nil {
					errs[p] = fmt.Errorf("egdb: %s index %d (%s): %w", k, i, pos, err)
					return
				}
				if got := fromRetro(own.at(i)).Result; got != want {
					errs[p] = fmt.Errorf("egdb: %s index %d (%s): stored %s, its moves by the rules give %s", k, i, pos, resultText(got), resultText(want))
					return
				}
				checked.Add(1)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return checked.Load(), err
		}
	}
	return checked.Load(), nil
}

// resultByRules is the result of p for its side to move from its moves
// by mill's rules and the values of the positions after them in db.
func (db *DB) resultByRules(p mill.Position) (Result, error) {
	moves := p.Moves(nil)
	if len(moves) == 0 {
		switch o, _ := p.Status(); o {
		case mill.NoOutcome:
			return 0, fmt.Errorf("no moves, and the game goes on")
		case mill.Draw:
			return Draw, nil
		default:
			if mill.Won(p.SideToMove()) == o {
				return Win, nil
			}
			return Loss, nil
		}
	}
	best := Loss
	for _, m := range moves {
		q := p.Play(m)
		r, ok := resultFor(db, q, p.SideToMove())
		if !ok {
			return 0, fmt.Errorf("after %s: %s is in no sector of the databases", p.MoveText(m), q)
		}
		switch r {
		case Win:
			return Win, nil
		case Draw:
			best = Draw
		}
	}
	return best, nil
}

// resultFor returns the result of q for side: by mill's rules where the
// game is over, else by db; false if db does not hold q.
func resultFor(db Perfect, q mill.Position, side mill.Color) (Result, bool) {
	if o, _ := q.Status(); o != mill.NoOutcome {
		switch o {
		case mill.Won(side):
			return Win, true
		case mill.Won(side.Other()):
			return Loss, true
		}
		return Draw, true
	}
	v, ok := db.Value(q)
	if !ok {
		return 0, false
	}
	if q.SideToMove() != side {
		return -v.Result, true
	}
	return v.Result, true
}

func resultText(r Result) string {
	switch r {
	case Win:
		return "a win"
	case Loss:
		return "a loss"
	}
	return "a draw"
}
