package egdb

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/morrisgame/morris/egdb/internal/dist"
	"github.com/morrisgame/morris/mill"
)

// TestDistances: the distances of the whole game of six men's morris,
// written beside its compact file and added to it: every used index of
// every sector reads the sector file's plies, Value and Probe give them,
// MoveValues ranks the moves as the sector files do, and a second run goes
// on from the parts of a stopped one.
func TestDistances(t *testing.T) {
	db, _ := sixMens(t)
	dir := t.TempDir()
	// Written under another name first: OpenCompact adds the distances
	// beside its file (six.dist) by itself, which is tried last.
	wdlPath, distPath := filepath.Join(dir, "six.wdl"), filepath.Join(dir, "other.dist")
	if err := WriteCompact(db, wdlPath, nil); err != nil {
		t.Fatal(err)
	}
	// A run stopped after its first sectors: the parts of three kept.
	if err := WriteDistances(db, distPath, nil); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(distPath)
	os.Remove(distPath)
	resumed := 0
	if err := os.MkdirAll(distPath+".parts", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, k := range db.Keys()[:3] {
		vals, err := distances(db.sectors[k])
		if err != nil {
			t.Fatal(err)
		}
		b, err := dist.Encode(vals)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(distPath+".parts", k.String()+".dist"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteDistances(db, distPath, func(p CompactProgress) {
		if p.Resumed {
			resumed++
		}
	}); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(distPath); resumed != 3 || string(second) != string(first) {
		t.Fatalf("resumed %d sectors (want 3); the file is the same: %v", resumed, string(second) == string(first))
	}

	c, err := OpenCompact(wdlPath)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := OpenCompact(distPath); err == nil {
		t.Error("the distances opened as a compact file")
	}
	start := db.Rules().Start()
	if v, _ := c.Value(start.Play(start.Moves(nil)[0])); v.Plies != UnknownPlies && v.Result != Draw {
		t.Fatalf("without distances: %v", v)
	}
	if err := c.AddDistances(distPath); err != nil {
		t.Fatal(err)
	}
	if err := c.AddDistances(distPath); err == nil {
		t.Error("distances added twice")
	}
	// Every used index (with -short, the race detector's run, every 17th).
	step := int64(1)
	if testing.Short() {
		step = 17
	}
	var decisive int64
	for _, k := range db.Keys() {
		sec, csec := db.sectors[k], c.sectors[k]
		var cu cursor
		for i := int64(0); i < sec.lay.size; i += step {
			if _, _, valid := cu.position(&sec.lay, i); !valid {
				continue
			}
			v := fromRetro(sec.vals.at(i))
			if v.Result == Draw {
				continue
			}
			decisive++
			if got := c.plies(csec, i, v.Result); got != v.Plies {
				t.Fatalf("sector %s, index %d: %d plies, the file has %v", k, i, got, v)
			}
		}
	}
	fi, _ := os.Stat(distPath)
	t.Logf("six men's morris: %d won or lost positions read, distances in %d bytes", decisive, fi.Size())
	// Through the Perfect interface, as the engine and the pages read it.
	// The first position of a random game that is won or lost.
	rng := rand.New(rand.NewPCG(2, 3))
	p := start
	for v, _ := db.Value(p); v.Result == Draw; v, _ = db.Value(p) {
		moves := p.Moves(nil)
		p = p.Play(moves[rng.IntN(len(moves))])
		if o, _ := p.Status(); o != mill.NoOutcome {
			p = start
		}
	}
	want, _ := db.Value(p)
	got, _ := c.Value(p)
	res, plies, _ := c.Probe(p)
	if got != want || res != int(want.Result) || plies != want.Plies {
		t.Errorf("%v: %v (probe %d, %d), the files %v", p, got, res, plies, want)
	}
	wmv, _ := db.MoveValues(p)
	gmv, ok := c.MoveValues(p)
	if !ok || len(gmv) != len(wmv) {
		t.Fatalf("MoveValues: %v, want %v", gmv, wmv)
	}
	for i := range gmv {
		if gmv[i].Value != wmv[i].Value {
			t.Errorf("MoveValues[%d]: %v, the files %v", i, gmv[i], wmv[i])
		}
	}

	// Beside the compact file, under its name: added by OpenCompact.
	if err := os.Rename(distPath, DistancesPath(wdlPath)); err != nil {
		t.Fatal(err)
	}
	c2, err := OpenCompact(wdlPath)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if got, _ := c2.Value(p); got != want {
		t.Errorf("%v, the distances beside the file: %v, want %v", p, got, want)
	}
}

// TestDistancesRefused: distances of other rules, or of other sectors, are
// refused with a clear message; a damaged block answers no distance and is
// reported.
func TestDistancesRefused(t *testing.T) {
	six, _ := sixMens(t)
	dir := t.TempDir()
	sixWDL, sixDist := filepath.Join(dir, "six.wdl"), filepath.Join(dir, "six-apart.dist")
	if err := WriteCompact(six, sixWDL, nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteDistances(six, sixDist, nil); err != nil {
		t.Fatal(err)
	}
	nine := mill.MustRules("nine-mens-morris")
	ndir := t.TempDir()
	k33, _ := ParseKey("3v3")
	if _, err := (Builder{Rules: nine, Dir: ndir, Keys: []Key{k33}}).Build(t.Context()); err != nil {
		t.Fatal(err)
	}
	ndb, err := Open(ndir)
	if err != nil {
		t.Fatal(err)
	}
	defer ndb.Close()
	nineWDL, nineDist := filepath.Join(dir, "nine.wdl"), filepath.Join(dir, "nine.dist")
	if err := WriteCompact(ndb, nineWDL, nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteDistances(ndb, nineDist, nil); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCompact(sixWDL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.AddDistances(nineDist); err == nil {
		t.Error("nine men's morris's distances added to six men's morris's file")
	} else {
		t.Log(err)
	}
	if err := c.AddDistances(sixWDL); err == nil {
		t.Error("a compact file taken for distances")
	}
	// Beside the file, under its name, distances that do not fit it
	// refuse it.
	other := filepath.Join(t.TempDir(), "six.wdl")
	for from, to := range map[string]string{sixWDL: other, nineDist: DistancesPath(other)} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := OpenCompact(other); err == nil {
		c.Close()
		t.Error("a compact file opened with the distances of other rules beside it")
	}

	// A damaged block of the distances: the value still, no distance.
	b, err := os.ReadFile(sixDist)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-40] ^= 0x10
	bad := filepath.Join(dir, "bad.dist")
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	c2, err := OpenCompact(sixWDL)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := c2.AddDistances(bad); err != nil {
		t.Fatal(err) // the tables are sound: the damage is found at a read
	}
	last := six.Keys()[len(six.Keys())-1]
	sec := c2.sectors[last]
	found := false
	for i := sec.lay.size - 1; i >= 0 && !found; i-- {
		if _, err := sec.d.At(i); err != nil {
			found = errors.Is(err, ErrCorrupt) || err != nil
			if got := c2.plies(sec, i, Win); got != UnknownPlies || c2.Damage() == nil {
				t.Errorf("the damaged block: %d plies, damage %v", got, c2.Damage())
			}
		}
	}
	if !found {
		t.Skip("the changed byte fell in padding")
	}
}
