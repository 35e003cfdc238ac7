package egdb

import (
	"context"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestCheckByRules: every index of every sector of a whole game built as
// W/D/L agrees with mill's moves (CheckByRules, step 1); one changed value
// in a placing sector and one in a moving sector are found.
func TestCheckByRules(t *testing.T) {
	r := mill.MustRules("six-mens-morris", "pieces=4")
	ctx := context.Background()
	db, _ := wdlGame(t, r)
	var total int64
	for _, k := range db.Keys() {
		n, err := CheckByRules(ctx, db, k, 1)
		if err != nil {
			t.Fatal(err)
		}
		if c := db.sectors[k].counts; n != c.Positions() {
			t.Errorf("%s: %d positions checked, the sector has %d", k, n, c.Positions())
		}
		total += n
	}
	if n, err := CheckByRules(ctx, db, StartKey(r), 7); err != nil || n != 1 {
		t.Errorf("the start with step 7: %d checked, %v", n, err)
	}
	t.Logf("%d sectors, %d positions checked by the rules", len(db.Keys()), total)

	// A changed value: the first decisive position of a placing sector
	// made a draw, and of a moving sector made a draw.
	for _, k := range []Key{{2, 2, 2, 2}, {4, 3, 0, 0}} {
		sec := db.sectors[k]
		own := values{v: sec.vals.v, wdl: append([]byte(nil), sec.vals.wdl...)}
		if own.v != nil {
			own.v = append(own.v[:0:0], own.v...)
		}
		changed := false
		for i := range sec.lay.size {
			if v := own.at(i); v.IsWin() || v.IsLoss() {
				if own.v != nil {
					own.v[i] = 0
				} else {
					own.wdl[i>>2] |= codeDraw << (2 * (i & 3))
				}
				changed = true
				break
			}
		}
		if !changed {
			t.Fatalf("%s: no decisive position", k)
		}
		if _, err := checkByRules(ctx, db, sec, own, 1); err == nil || !strings.Contains(err.Error(), "stored a draw, its moves by the rules give") {
			t.Errorf("%s with a changed value: got %v", k, err)
		}
	}
}

// wdlGame builds the whole game of r with its placing phase as W/D/L
// (Builder.WDLPlacing) in a directory of the test's, and opens it; the DB
// is closed when the test ends.
func wdlGame(t testing.TB, r *mill.Rules) (*DB, string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := (Builder{Rules: r, Dir: dir, Keys: []Key{StartKey(r)}, WDLPlacing: true}).Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, dir
}
