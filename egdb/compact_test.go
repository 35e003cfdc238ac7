package egdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/morrisgame/morris/egdb/internal/wdl"
	"github.com/morrisgame/morris/mill"
)

// sharedSix is the whole game of six men's morris, built once for the
// tests of the compact file (TestMain removes it).
var sharedSix struct {
	once sync.Once
	dir  string
	err  error
}

// sixMens builds the whole game of six men's morris (77 sectors, about 3
// seconds, a minute under the race detector) once per test binary, and
// returns it opened.
func sixMens(t testing.TB) (*DB, string) {
	t.Helper()
	r := mill.MustRules("six-mens-morris")
	sharedSix.once.Do(func() {
		sharedSix.dir, sharedSix.err = os.MkdirTemp("", "egdb-six-")
		if sharedSix.err == nil {
			_, sharedSix.err = (Builder{Rules: r, Dir: sharedSix.dir, Keys: []Key{StartKey(r)}}).Build(context.Background())
		}
	})
	if sharedSix.err != nil {
		t.Fatal(sharedSix.err)
	}
	db, err := Open(sharedSix.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, sharedSix.dir
}

func writeCompact(t *testing.T, db *DB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "six.wdl")
	if err := WriteCompact(db, path, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".parts"); !os.IsNotExist(err) {
		t.Errorf("the parts are left: %v", err)
	}
	return path
}

// TestCompactSixMensMorris: the whole game of six men's morris, placing
// and moving, written as a compact file and read back: every used index of
// every sector equals the sector file's result, and positions of random
// games answer as the sector files do.
func TestCompactSixMensMorris(t *testing.T) {
	db, _ := sixMens(t)
	path := writeCompact(t, db)
	c, err := OpenCompact(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Verify(); err != nil {
		t.Fatal(err)
	}
	if len(c.Keys()) != len(db.Keys()) {
		t.Fatalf("%d sectors in the compact file, %d in the directory", len(c.Keys()), len(db.Keys()))
	}
	// Every used index of every sector, as a probe reads it (the stored
	// value raised by its captures), against the sector file; with
	// -short (the race detector's run), every 17th.
	step := int64(1)
	if testing.Short() {
		step = 17
	}
	positions, stored := compareCompact(t, db, c, step)
	t.Logf("%d of %d positions store less than their value (their captures reach it)", stored, positions)
	if stored == 0 {
		t.Errorf("no position stores less than its value: the captures are not used")
	}
	fi, _ := os.Stat(path)
	bytes := fi.Size()
	var all int64
	for _, sec := range db.sectors {
		all += sec.lay.size - sec.counts.Unused
	}
	t.Logf("six men's morris: %d positions in %d sectors (%d probed), %d bytes (%.3f bits a position)", all, len(c.Keys()), positions, bytes, float64(8*bytes)/float64(all))

	// Random games from the start, every position probed both ways.
	rng := rand.New(rand.NewPCG(1, 48))
	probed := 0
	for range 60 {
		p := db.Rules().Start()
		for ply := 0; ply < 80; ply++ {
			if o, _ := p.Status(); o != mill.NoOutcome {
				break
			}
			v, ok := db.Value(p)
			r, cok := c.Result(p)
			if ok != cok || ok && v.Result != r {
				t.Fatalf("%s: the files say %v (%v), the compact file %v (%v)", p, v, ok, r, cok)
			}
			if ok {
				probed++
			}
			moves := p.Moves(nil)
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
	if probed < 1000 {
		t.Errorf("only %d positions probed", probed)
	}
	if err := c.Damage(); err != nil {
		t.Error(err)
	}
}

// compareCompact reads every step-th used index of every sector of db in
// c as a probe reads it (the stored value raised by its captures) and
// fails at the first that differs from the sector file's value. It
// returns how many it read, and how many of those store less than their
// value.
func compareCompact(t *testing.T, db *DB, c *Compact, step int64) (positions, stored int64) {
	t.Helper()
	r := &resolver{wk: worker{g: c.g}}
	for _, k := range db.Keys() {
		sec, csec := db.sectors[k], c.sectors[k]
		if csec == nil {
			t.Fatalf("sector %s is not in the compact file", k)
		}
		var cu cursor
		for i := int64(0); i < sec.lay.size; i += step {
			W, B, valid := cu.position(&sec.lay, i)
			if !valid {
				continue
			}
			positions++
			want := retroGoodness(sec.vals.at(i))
			got, err := c.value(r, csec, i, W, B)
			if err != nil || got != want {
				t.Fatalf("sector %s, index %d: %d, %v; the file has %s", k, i, got, err, fromRetro(sec.vals.at(i)))
			}
			if sym, _ := csec.s.At(i); goodness(sym) != want {
				stored++
			}
		}
	}
	return positions, stored
}

// TestCompactEveryPreset: one writer and one reader for every preset that
// has databases: for each way of playing the moving phase among them (the
// presets that play it alike share their files), the sectors of at most 7
// pieces (with -short 6, and not the large board) are built, written as a
// compact file and read back, every used index against the sector files.
func TestCompactEveryPreset(t *testing.T) {
	var done []*mill.Rules
	for _, v := range mill.Variants() {
		r := mill.MustRules(v.ID)
		if Supported(r) != nil || slices.ContainsFunc(done, func(d *mill.Rules) bool { return compatible(d, r) }) {
			continue
		}
		done = append(done, r)
		t.Run(v.ID, func(t *testing.T) {
			pieces := 7
			if testing.Short() {
				// The race detector's run: 3v3 alone, and not on the
				// large board (its 7 pieces take 2.5 min without it).
				if r.Board().Len() > 24 {
					t.Skip("the large board: without -short")
				}
				pieces = 6
			}
			keys := MovingSectors(r, pieces)
			dir := t.TempDir()
			if _, err := (Builder{Rules: r, Dir: dir, Keys: keys}).Build(context.Background()); err != nil {
				t.Fatal(err)
			}
			db, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			path := filepath.Join(t.TempDir(), v.ID+".wdl")
			if err := WriteCompact(db, path, nil); err != nil {
				t.Fatal(err)
			}
			c, err := OpenCompact(path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if !slices.Equal(c.Keys(), db.Keys()) {
				t.Fatalf("the compact file holds %v, the directory %v", c.Keys(), db.Keys())
			}
			positions, _ := compareCompact(t, db, c, 1)
			fi, _ := os.Stat(path)
			t.Logf("%s: %d sectors, %d positions, %d bytes", v.ID, len(keys), positions, fi.Size())
		})
	}
	if len(done) < 5 {
		t.Errorf("only %d ways of playing the moving phase among the presets with databases", len(done))
	}
}

// TestCompactRules: a file answers for rules that decide its values alike
// (other draw rules) and is refused, saying which option differs, for
// rules that do not.
func TestCompactRules(t *testing.T) {
	db, _ := sixMens(t)
	path := writeCompact(t, db)
	same, err := mill.ParseRules("six-mens-morris,repetition=0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := OpenCompact(path, ForRules(same))
	if err != nil {
		t.Fatalf("rules with other draw rules: %v", err)
	}
	c.Close()
	other, err := mill.ParseRules("six-mens-morris,flying=3")
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenCompact(path, ForRules(other))
	if err == nil || !strings.Contains(err.Error(), "flying") {
		t.Errorf("rules with flying: %v, want a refusal naming flying", err)
	}
	nine := mill.MustRules("nine-mens-morris")
	if _, err := OpenCompact(path, ForRules(nine)); err == nil {
		t.Errorf("nine men's morris opened a file of six")
	}
}

// compactLayout returns the manifest of a compact file and where its
// streams start.
func compactLayout(t *testing.T, b []byte) (compactManifest, int64) {
	t.Helper()
	ml := int64(binary.LittleEndian.Uint32(b[12:]))
	var m compactManifest
	if err := json.Unmarshal(b[16:16+ml], &m); err != nil {
		t.Fatal(err)
	}
	return m, pad8(16 + ml)
}

// TestCompactDamage: a byte changed in a block of values is found when the
// block is first read (the position answers nothing, Damage and Verify
// say where), and the rest of the file answers; a changed manifest or
// stream table is refused at once, as is a file cut short.
func TestCompactDamage(t *testing.T) {
	db, _ := sixMens(t)
	path := writeCompact(t, db)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, base := compactLayout(t, good)
	// The largest sector: a byte in the middle of its data.
	big := m.Sectors[0]
	for _, s := range m.Sectors {
		if s.Length > big.Length {
			big = s
		}
	}
	stream := good[base+big.Offset : base+big.Offset+big.Length]
	data := int64(wdl.TablesLen(stream))
	bad := append([]byte(nil), good...)
	bad[base+big.Offset+(data+big.Length)/2] ^= 0x10
	dpath := filepath.Join(t.TempDir(), "damaged.wdl")
	os.WriteFile(dpath, bad, 0o644)
	c, err := OpenCompact(dpath)
	if err != nil {
		t.Fatalf("a damaged block refused at Open: %v", err)
	}
	defer c.Close()
	if err := c.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify: %v", err)
	}
	k, _ := ParseKey(big.Key)
	sec := c.sectors[k]
	// Some index of the damaged block answers nothing; probing every
	// position of the sector finds it.
	dsec := db.sectors[k]
	answered, refused := 0, 0
	var cu cursor
	for i := range dsec.lay.size {
		W, B, valid := cu.position(&dsec.lay, i)
		if !valid {
			continue
		}
		p, err := c.rules.SetUp(mill.Points(W), mill.Points(B), mill.White, k.WhiteHand, k.BlackHand)
		if err != nil {
			continue
		}
		if _, ok := c.Result(p); ok {
			answered++
		} else if sec.key == k {
			refused++
		}
	}
	if refused == 0 || answered == 0 || c.Damage() == nil || !strings.Contains(c.Damage().Error(), "checksum") {
		t.Errorf("%d positions answered, %d refused; damage %v", answered, refused, c.Damage())
	}

	for _, cut := range []struct {
		name string
		b    []byte
	}{
		{"a manifest changed", func() []byte { x := append([]byte(nil), good...); x[40] ^= 1; return x }()},
		{"a stream's table changed", func() []byte {
			x := append([]byte(nil), good...)
			x[base+big.Offset+70] ^= 1
			return x
		}()},
		{"cut short", good[:len(good)/2]},
		{"not a compact file", []byte("MORRISDB and more bytes than that")},
	} {
		p := filepath.Join(t.TempDir(), "bad.wdl")
		os.WriteFile(p, cut.b, 0o644)
		if _, err := OpenCompact(p); err == nil {
			t.Errorf("%s: opened", cut.name)
		}
	}
}

// TestCompactResume: the sectors coded by a run that stopped are kept by
// the next (a damaged part is coded again), and the file is the same.
func TestCompactResume(t *testing.T) {
	db, _ := sixMens(t)
	want, err := os.ReadFile(writeCompact(t, db))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "resumed.wdl")
	parts := path + ".parts"
	os.MkdirAll(parts, 0o755)
	keys := db.Keys()
	g, err := newGame(db.rules, db.x, keys)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys[:10] {
		free := captureFree(db, g, g.id[k])
		b, err := encodeSector(db, g, g.id[k], free)
		if err != nil {
			t.Fatal(err)
		}
		if k == keys[3] {
			b[len(b)-1] ^= 0xFF // damaged: coded again
		}
		os.WriteFile(filepath.Join(parts, partName(k, free)), b, 0o644)
	}
	resumed := 0
	err = WriteCompact(db, path, func(p CompactProgress) {
		if p.Resumed {
			resumed++
		}
		if !p.Verified {
			t.Errorf("sector %s not verified", p.Key)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if resumed != 9 {
		t.Errorf("%d sectors resumed, want 9", resumed)
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(want) {
		t.Errorf("the resumed file differs from one written at once")
	}
}

// FuzzOpenCompact: any bytes are opened or refused, never a panic; what
// opens verifies or reports damage.
func FuzzOpenCompact(f *testing.F) {
	f.Add([]byte(compactMagic + "\x01\x00\x00\x00\x02\x00\x00\x00{}"))
	f.Add([]byte("MORRISWD"))
	if b, err := os.ReadFile(filepath.Join("testdata", "six-mens-morris-7-v2.wdl")); err == nil {
		f.Add(b) // streams of version 2
	}
	// A real file: six men's morris, 3v3.
	r := mill.MustRules("six-mens-morris")
	dir := f.TempDir()
	if _, err := (Builder{Rules: r, Dir: dir, Keys: []Key{{White: 3, Black: 3}}}).Build(context.Background()); err != nil {
		f.Fatal(err)
	}
	db, err := Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(dir, "3v3.wdl")
	if err := WriteCompact(db, path, nil); err != nil {
		f.Fatal(err)
	}
	db.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := openCompact(b, nil)
		if err != nil {
			return
		}
		c.Verify()
	})
}

// BenchmarkCompactResult: Result of random positions of six men's morris's
// largest moving sectors from a compact file in the page cache (warm):
// the index, the block's check (once), the chunk decoded up to it.
func BenchmarkCompactResult(b *testing.B) {
	db, _ := sixMens(b)
	path := filepath.Join(b.TempDir(), "six.wdl")
	if err := WriteCompact(db, path, nil); err != nil {
		b.Fatal(err)
	}
	c, err := OpenCompact(path)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	rng := rand.New(rand.NewPCG(5, 5))
	var ps []mill.Position
	for _, k := range []Key{{White: 6, Black: 5}, {White: 5, Black: 6}, {White: 6, Black: 6}, {White: 5, Black: 5}} {
		if c.sectors[k] == nil {
			b.Fatalf("no sector %s", k)
		}
		ps = append(ps, randomPositions(db, k, 1024, rng)...)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, ok := c.Result(ps[i%len(ps)]); !ok {
			b.Fatal("no answer")
		}
	}
}

// TestCompactCheckCatches: a stream that stores a wrong value where no
// capture reaches it, or a value above the true one, is refused by the
// writer's check.
func TestCompactCheckCatches(t *testing.T) {
	db, _ := sixMens(t)
	g, err := newGame(db.rules, db.x, db.Keys())
	if err != nil {
		t.Fatal(err)
	}
	k := Key{White: 5, Black: 5}
	s := g.id[k]
	free := captureFree(db, g, s)
	allowed := make([]byte, g.lay[s].size)
	captureMasks(db, g, s, free, allowed)
	wrong := func(name string, bad func(i int, m byte) (byte, bool)) {
		t.Helper()
		masks := append([]byte(nil), allowed...)
		changed := false
		for i, m := range masks {
			if b, ok := bad(i, m); ok {
				masks[i], changed = b, true
				break
			}
		}
		if !changed {
			t.Fatalf("%s: no index to change", name)
		}
		b, err := wdl.Encode(masks)
		if err != nil {
			t.Fatal(err)
		}
		st, err := wdl.Open(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkStream(st, allowed); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: the check answered %v", name, err)
		}
	}
	// An exact loss stored as a win: above the value.
	wrong("a loss as a win", func(i int, m byte) (byte, bool) { return wdl.Only(wdl.Win), m == wdl.Only(wdl.Loss) })
	// An exact win (no capture reaches it) stored as a loss.
	wrong("a win as a loss", func(i int, m byte) (byte, bool) { return wdl.Only(wdl.Loss), m == wdl.Only(wdl.Win) })
	b, _ := wdl.Encode(allowed)
	st, _ := wdl.Open(b)
	if err := checkStream(st, allowed); err != nil {
		t.Errorf("the right masks: %v", err)
	}
}

// TestCompactLazyMasks: in every sector of six men's morris, the stream
// coded from the values with the captures read only where they may change
// the runs (sectorMasks, wdl.EncodeLazy) is the one coded from every
// index's whole mask, and the masks it kept are those whole masks.
func TestCompactLazyMasks(t *testing.T) {
	db, _ := sixMens(t)
	g, err := newGame(db.rules, db.x, db.Keys())
	if err != nil {
		t.Fatal(err)
	}
	var asked, all int
	for _, k := range db.Keys() {
		s := g.id[k]
		free := captureFree(db, g, s)
		whole := make([]byte, g.lay[s].size)
		captureMasks(db, g, s, free, whole)
		want, err := wdl.Encode(whole)
		if err != nil {
			t.Fatal(err)
		}
		allowed, newFull := sectorMasks(db, g, s, free)
		got, err := wdl.EncodeLazy(allowed, newFull)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("sector %s: %d bytes coded lazily, %d from the whole masks", k, len(got), len(want))
		}
		for i, m := range allowed {
			if m&wdl.Known != 0 {
				asked++
				if m&^wdl.Known != whole[i] {
					t.Fatalf("sector %s, index %d: kept %03b, the mask is %03b", k, i, m&^wdl.Known, whole[i])
				}
			}
		}
		all += len(allowed)
	}
	t.Logf("the whole masks of %d indices of %d asked for", asked, all)
}

// captureMasks fills allowed with the whole mask of every index of sector
// s (sectorMasks), each asked for: what the writer's lazy masks are
// checked against.
func captureMasks(db *DB, g *game, s int, free bool, allowed []byte) {
	cheap, newFull := sectorMasks(db, g, s, free)
	copy(allowed, cheap)
	if newFull == nil {
		return
	}
	full := newFull()
	for i, m := range allowed {
		if m != 0 {
			allowed[i] = full(i)
		}
	}
}
