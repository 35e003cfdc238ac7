package builtin

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/mill"
)

// keysOf is the sectors `morris solve` builds for a file, as What says.
func keysOf(t *testing.T, variant string) (*mill.Rules, []egdb.Key) {
	t.Helper()
	r, err := mill.NewRules(variant)
	if err != nil {
		t.Fatal(err)
	}
	switch What[variant][:5] {
	case "-max ":
		return r, egdb.MovingSectors(r, 10)
	case "-game":
		return r, []egdb.Key{egdb.StartKey(r)}
	}
	t.Fatalf("%s: What says %q", variant, What[variant])
	return nil, nil
}

// TestFiles: every file opens, every block passes its checksum, and the
// files are those of data/, each described in What.
func TestFiles(t *testing.T) {
	entries, err := os.ReadDir("data")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	var want []string
	total := 0
	for _, f := range Files() {
		want = append(want, f.Variant+".wdl")
		total += f.Bytes
		if What[f.Variant] == "" {
			t.Errorf("%s: not in What", f.Variant)
		}
		if err := f.DB.Verify(); err != nil {
			t.Errorf("%s: %v", f.Variant, err)
		}
		if f.DB.Damage() != nil {
			t.Errorf("%s: %v", f.Variant, f.DB.Damage())
		}
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("data/ holds %v, the program embeds %v", names, want)
	}
	if total > 25<<20 {
		t.Errorf("the built-in files take %d bytes, over the 25 MB the binary may carry", total)
	}
}

// TestFilesUpToDate builds each file again as `morris solve` does and
// compares it byte for byte: the files are this program's own, made by
// its solver and its writer, and a change to either that changes them
// must come with the files made again (docs/egdb.md says how). Nine men's
// morris's 15 sectors take about 1.5 min here and seven men's morris 16 s,
// so -short builds six men's morris only.
func TestFilesUpToDate(t *testing.T) {
	for _, f := range Files() {
		t.Run(f.Variant, func(t *testing.T) {
			if f.Variant != "six-mens-morris" && testing.Short() {
				t.Skip("a build of 16 s (seven men's) or 1.5 min (nine men's); without -short")
			}
			r, keys := keysOf(t, f.Variant)
			db, _ := egdbtest.Build(t, r, keys...)
			path := filepath.Join(t.TempDir(), f.Variant+".wdl")
			if err := egdb.WriteCompact(db, path, nil); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want, _ := os.ReadFile(filepath.Join("data", f.Variant+".wdl")); !bytes.Equal(got, want) {
				t.Fatalf("built again, the file differs (%d bytes, embedded %d): make it again (docs/egdb.md, \"Built in\")", len(got), len(want))
			}
		})
	}
}

// TestShelf: the built-in files answer for their rules and for rules
// whose values are the same, never for others; databases given first
// answer first, and the files the rest.
func TestShelf(t *testing.T) {
	nine, _ := mill.NewRules("nine-mens-morris")
	db, _ := egdbtest.Build(t, nine) // 3v3, with distances
	shelf := Shelf(db)
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(r *mill.Rules, w, b int) mill.Position {
		for {
			perm := rng.Perm(r.Board().Len())
			var W, B mill.Points
			for _, i := range perm[:w] {
				W |= 1 << i
			}
			for _, i := range perm[w : w+b] {
				B |= 1 << i
			}
			if p, err := r.SetUp(W, B, mill.White, 0, 0); err == nil {
				if o, _ := p.Status(); o == mill.NoOutcome {
					return p
				}
			}
		}
	}
	for range 300 {
		p := random(nine, 3, 3)
		want, ok := db.Value(p)
		got, ok2 := shelf.Value(p)
		if !ok || !ok2 || got != want {
			t.Fatalf("%v: the shelf says %v %v, the databases given first %v %v", p, got, ok2, want, ok)
		}
		if v, ok := Files()[0].DB.Value(p); !ok || v.Result != want.Result {
			t.Fatalf("%v: the built-in file says %v %v, the databases %v", p, v, ok, want)
		}
	}
	// 5v5 is the built-in file's only.
	p := random(nine, 5, 5)
	want, _ := Files()[0].DB.Value(p)
	if _, ok := db.Value(p); ok {
		t.Fatalf("%v: in a 3v3 build", p)
	}
	if v, ok := shelf.Value(p); !ok || v != want {
		t.Errorf("%v: %v %v, want the built-in file's %v", p, v, ok, want)
	}
	if _, _, ok := shelf.Probe(random(nine, 6, 5)); ok {
		t.Error("6v5 answered: no file holds it")
	}
	// Rules that play the moving phase alike: the same values.
	fifty, _ := mill.NewRules("nine-mens-morris", "draw-after=50")
	if !shelf.Covers(fifty) {
		t.Error("nine men's morris with draw-after=50 is not covered")
	}
	// Rules that do not: nothing.
	for _, v := range []string{"cheng-san-qi", "twelve-mens-morris", "russian-mill"} {
		r, _ := mill.NewRules(v)
		if shelf.Covers(r) {
			t.Errorf("%s: covered", v)
		}
		if _, _, ok := shelf.Probe(random(r, 3, 3)); ok {
			t.Errorf("%s: a 3v3 position answered", v)
		}
	}
	six, _ := mill.NewRules("six-mens-morris")
	if _, ok := shelf.Value(six.Start()); !ok {
		t.Error("six men's morris: the start is not answered")
	}
}
