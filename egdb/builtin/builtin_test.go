package builtin

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/mill"
)

// keysOf is the sectors `morris solve` builds for a file, as What says.
func keysOf(t *testing.T, f File) (*mill.Rules, []egdb.Key) {
	t.Helper()
	r, err := mill.NewRules(f.Variant)
	if err != nil {
		t.Fatal(err)
	}
	what := What[f.Name]
	var pieces int
	if _, err := fmt.Sscanf(what, "-max %d:", &pieces); err == nil {
		return r, egdb.MovingSectors(r, pieces)
	}
	if strings.HasPrefix(what, "-game:") {
		return r, []egdb.Key{egdb.StartKey(r)}
	}
	t.Fatalf("%s: What says %q", f.Name, What[f.Name])
	return nil, nil
}

// The opening file is the first plies of the whole game's build, which
// takes four hours: TestFilesUpToDate writes it again from the build in
// the directory MORRIS_NMM_GAME names (morris solve -game -dir DIR), if
// any.
const (
	opening       = "nine-mens-morris-opening"
	openingPlaced = 11
)

// nineAndSmall are the files of issue 48's first line (nine men's morris's
// endgames, the small games whole): built in the default run, and within
// their own 25 MB.
var nineAndSmall = []string{"nine-mens-morris", "six-mens-morris", "seven-mens-morris"}

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
	nine, others, total := 0, 0, 0 // the endgames of nine, six and seven men's morris; the others'
	for _, f := range Files() {
		want = append(want, f.Name+".wdl")
		total += f.Bytes
		switch {
		case f.Name == opening:
		case slices.Contains(nineAndSmall, f.Name):
			nine += f.Bytes
		default:
			others += f.Bytes
		}
		if What[f.Name] == "" {
			t.Errorf("%s: not in What", f.Name)
		}
		if err := f.DB.Verify(); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
		if f.DB.Damage() != nil {
			t.Errorf("%s: %v", f.Name, f.DB.Damage())
		}
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("data/ holds %v, the program embeds %v", names, want)
	}
	// The lines of docs/egdb.md ("Built in"): nine men's morris's small
	// endgames and the small games whole in about 25 MB, the other
	// presets' in as much, the binary carrying 60 MB at most.
	if nine > 25<<20 {
		t.Errorf("the built-in endgames of nine, six and seven men's morris take %d bytes, over the 25 MB they may", nine)
	}
	if others > 25<<20 {
		t.Errorf("the built-in endgames of the other presets take %d bytes, over the 25 MB they may", others)
	}
	if total > 60<<20 {
		t.Errorf("the built-in files take %d bytes, over the 60 MB the binary may carry", total)
	}
}

// TestEveryPresetServed: every preset whose moving phase has databases is
// answered by a built-in file (its own, or one of rules that play the
// moving phase alike).
func TestEveryPresetServed(t *testing.T) {
	shelf := Shelf()
	for _, v := range mill.Variants() {
		r := mill.MustRules(v.ID)
		if egdb.Supported(r) != nil {
			continue
		}
		if !shelf.Covers(r) {
			t.Errorf("%s has databases, and no built-in file answers for it", v.ID)
		}
	}
}

// TestFilesUpToDate builds each file again as `morris solve` does and
// compares it byte for byte: the files are this program's own, made by
// its solver and its writer, and a change to either that changes them
// must come with the files made again (docs/egdb.md says how). Six men's
// morris takes 4 s here, seven men's 16 s and nine men's 1.5 min: -short
// builds six men's morris only. The other presets' files take 1 to 4 min
// each (the large board's 8 pieces more): they are built with
// MORRIS_LONG_TESTS=1 (CI sets it for this test), and without it their
// sectors of up to 6 pieces are built and compared value by value with
// the file (TestFilesAgree).
func TestFilesUpToDate(t *testing.T) {
	long := os.Getenv("MORRIS_LONG_TESTS") != ""
	for _, f := range Files() {
		t.Run(f.Name, func(t *testing.T) {
			var db *egdb.DB
			switch {
			case f.Name == opening:
				dir := os.Getenv("MORRIS_NMM_GAME")
				if dir == "" {
					t.Skip("set MORRIS_NMM_GAME to a build of the whole game (morris solve -game -dir DIR, four hours)")
				}
				r, _ := mill.NewRules(f.Variant)
				var err error
				db, err = egdb.Open(dir, egdb.ForRules(r), egdb.OnlySectors(func(k egdb.Key) bool {
					return !k.Moving() && 2*r.Options().Pieces-k.WhiteHand-k.BlackHand <= openingPlaced
				}))
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
			case !slices.Contains(nineAndSmall, f.Name) && !long:
				t.Skip("a build of minutes: with MORRIS_LONG_TESTS=1 (TestFilesAgree checks its small sectors)")
			case f.Variant != "six-mens-morris" && testing.Short() && !long:
				t.Skip("a build of 16 s (seven men's) or 1.5 min (nine men's); without -short")
			default:
				r, keys := keysOf(t, f)
				db, _ = egdbtest.Build(t, r, keys...)
			}
			path := filepath.Join(t.TempDir(), f.Name+".wdl")
			if err := egdb.WriteCompact(db, path, nil); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want, _ := os.ReadFile(filepath.Join("data", f.Name+".wdl")); !bytes.Equal(got, want) {
				t.Fatalf("built again, the file differs (%d bytes, embedded %d): make it again (docs/egdb.md, \"Built in\")", len(got), len(want))
			}
		})
	}
}

// TestFilesAgree: the sector 3v3 of each file of the moving phase, built
// again, gives 5,000 random positions the value the file gives them: what
// the default run checks of the files whose full build waits for
// MORRIS_LONG_TESTS (not the large board's under -short: 20 s).
func TestFilesAgree(t *testing.T) {
	for _, f := range Files() {
		if !strings.HasPrefix(What[f.Name], "-max ") {
			continue // the whole games and the opening: TestFilesUpToDate
		}
		t.Run(f.Name, func(t *testing.T) {
			r, _ := keysOf(t, f)
			if testing.Short() && r.Board().Len() > 24 {
				t.Skip("the large board: without -short")
			}
			db, _ := egdbtest.Build(t, r)
			rng := rand.New(rand.NewPCG(3, 3))
			for range 5000 {
				p := egdbtest.RandomPosition(rng, r, 3, 3)
				want, ok := db.Value(p)
				got, ok2 := f.DB.Value(p)
				if !ok || !ok2 || got.Result != want.Result {
					t.Fatalf("%v: the file says %v %v, 3v3 built again %v %v", p, got, ok2, want, ok)
				}
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
	random := func(r *mill.Rules, w, b int) mill.Position { return egdbtest.RandomPosition(rng, r, w, b) }
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
	// Rules that do not: nothing (rules without databases, and rules with
	// databases that no file was built for).
	for _, v := range [][]string{{"russian-mill"}, {"morabaraba"}, {"nine-mens-morris", "flying=4"}, {"twelve-mens-morris", "flying=3"}} {
		r, err := mill.NewRules(v[0], v[1:]...)
		if err != nil {
			t.Fatal(err)
		}
		if shelf.Covers(r) {
			t.Errorf("%s: covered", v)
		}
		if _, _, ok := shelf.Probe(random(r, 3, 3)); ok {
			t.Errorf("%s: a 3v3 position answered", v)
		}
	}
	// The opening file: nine men's morris's first 11 plies, not the 12th,
	// and not for rules that place otherwise.
	p = nine.Start()
	for range 12 {
		if v, ok := shelf.Value(p); ok != (p.Ply() <= openingPlaced) || (p.Ply() == 0 && v.Result != egdb.Draw) {
			t.Fatalf("%v (ply %d): %v %v", p, p.Ply(), v, ok)
		}
		moves := p.Moves(nil)
		p = p.Play(moves[rng.IntN(len(moves))])
	}
	for _, v := range [][]string{{"lasker"}, {"nine-mens-morris", "flying=never"}, {"morabaraba"}} {
		r, err := mill.NewRules(v[0], v[1:]...)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := shelf.Value(r.Start().Play(r.Start().Moves(nil)[0])); ok {
			t.Errorf("%s: the first placement answered", v)
		}
	}
	six, _ := mill.NewRules("six-mens-morris")
	if _, ok := shelf.Value(six.Start()); !ok {
		t.Error("six men's morris: the start is not answered")
	}
}
