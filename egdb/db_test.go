package egdb

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
)

// shared3v3 is a directory with the 3v3 database of nine men's morris,
// built once for the tests that only read it.
var shared3v3 struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared3v3.dir != "" {
		os.RemoveAll(shared3v3.dir)
	}
	if sharedSix.dir != "" {
		os.RemoveAll(sharedSix.dir)
	}
	os.Exit(code)
}

func open3v3(t testing.TB) *DB {
	t.Helper()
	if raceDetector {
		t.Skip("building 3v3 is slow under the race detector; TestBuildResumeAndCorruption builds concurrently")
	}
	r := mill.MustRules("nine-mens-morris")
	shared3v3.once.Do(func() {
		shared3v3.dir, shared3v3.err = os.MkdirTemp("", "egdb3v3")
		if shared3v3.err == nil {
			_, shared3v3.err = Builder{Rules: r, Dir: shared3v3.dir, Keys: []Key{{White: 3, Black: 3}}}.Build(context.Background())
		}
	})
	if shared3v3.err != nil {
		t.Fatal(shared3v3.err)
	}
	db, err := Open(shared3v3.dir, ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestBuildResumeAndCorruption(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	if raceDetector {
		r = mill.MustRules("nine-mens-morris", "flying=never") // fewer moves
	}
	dir := t.TempDir()
	keys := []Key{{White: 3, Black: 3}}
	first, err := Builder{Rules: r, Dir: dir, Keys: keys, Verify: true}.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 1 || first[0].Resumed || !first[0].Verified {
		t.Fatalf("first build: got %+v, want 3v3 solved and verified", first)
	}
	again, err := Builder{Rules: r, Dir: dir, Keys: keys}.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !again[0].Resumed || again[0].Counts != first[0].Counts {
		t.Fatalf("second build: got %+v, want 3v3 found on disk with counts %+v", again[0], first[0].Counts)
	}

	// Opened with its checksum checked in the background, the sector
	// answers once the check is done.
	good, err := Open(dir, ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	ps := randomPositions(good, Key{White: 3, Black: 3}, 50, rand.New(rand.NewPCG(1, 2)))
	bg, err := Open(dir, ForRules(r), CheckInBackground(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := bg.Wait(); err != nil {
		t.Fatalf("background check of a good file: %v", err)
	}
	for _, p := range ps {
		want, _ := good.Value(p)
		if got, ok := bg.Value(p); !ok || got != want {
			t.Fatalf("%s: opened in the background: got %v %v, want %v", p, got, ok, want)
		}
	}
	bg.Close()

	// A damaged file is refused by Open, and built again by Build; opened
	// in the background, it is refused at once (a bad header) or never
	// answers (a bad checksum).
	path := filepath.Join(dir, "3v3.egdb")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{3, 30, len(data) / 2, len(data) - 3} {
		bad := append([]byte(nil), data...)
		bad[at] ^= 0x10
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir, ForRules(r)); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: Open: got %v, want ErrCorrupt", at, err)
		}
		bg, err := Open(dir, ForRules(r), CheckInBackground(1))
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d flipped: Open in the background: got %v, want ErrCorrupt", at, err)
			}
			continue
		}
		if err := bg.Wait(); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: the background check: got %v, want ErrCorrupt", at, err)
		}
		if v, ok := bg.Value(ps[0]); ok {
			t.Fatalf("byte %d flipped: a damaged sector answered %v", at, v)
		}
		bg.Close()
	}
	if err := os.WriteFile(path, data[:len(data)-100], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, ForRules(r)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("truncated: Open: got %v, want ErrCorrupt", err)
	}
	rebuilt, err := Builder{Rules: r, Dir: dir, Keys: keys}.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rebuilt[0].Resumed {
		t.Fatalf("damaged file: got it resumed, want it built again")
	}
	if got, _ := os.ReadFile(path); string(got) != string(data) {
		t.Fatalf("rebuilt file differs from the first build")
	}
	// No temporary files are left behind, and those of a killed build are
	// cleaned up.
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*")); len(tmp) > 0 {
		t.Fatalf("left behind: %v", tmp)
	}
	stale := filepath.Join(dir, ".3v4.egdb.123.tmp")
	if err := os.WriteFile(stale, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := (Builder{Rules: r, Dir: dir, Keys: keys}).Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a stale temporary file: got %v, want it removed", err)
	}
}

func TestBuildCancel(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Builder{Rules: r, Dir: dir, Keys: []Key{{White: 3, Black: 3}}}).Build(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if names, _ := os.ReadDir(dir); len(names) > 0 {
		t.Fatalf("a cancelled build left %v", names)
	}
}

func TestBuildBadSectors(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	for _, k := range []Key{{White: 2, Black: 3}, {White: 10, Black: 3},
		{White: 3, Black: 3, BlackHand: 1},               // the side to move has none in hand, its opponent one
		{White: 3, Black: 3, WhiteHand: 2},               // two in hand against none
		{White: 9, Black: 3, WhiteHand: 1},               // ten pieces
		{White: 1, Black: 1, WhiteHand: 1, BlackHand: 1}, // two pieces: lost
	} {
		if _, err := (Builder{Rules: r, Dir: t.TempDir(), Keys: []Key{k}}).Build(context.Background()); !errors.Is(err, ErrSector) {
			t.Errorf("%v: got %v, want ErrSector", k, err)
		}
	}
	if _, err := (Builder{Rules: mill.MustRules("shah"), Dir: t.TempDir(), Keys: []Key{{White: 3, Black: 3}}}).Build(context.Background()); err == nil {
		t.Errorf("shah: got no error, want unsupported rules")
	}
	// Lasker's moving phase is nine men's morris's; its placing phase,
	// with moves while placing, is not supported.
	if _, err := (Builder{Rules: mill.MustRules("lasker"), Dir: t.TempDir(), Keys: []Key{{White: 3, Black: 3, WhiteHand: 1, BlackHand: 1}}}).Build(context.Background()); !errors.Is(err, ErrSector) {
		t.Errorf("lasker 3v3h1-1: got %v, want ErrSector", err)
	}
}

func TestOpenRules(t *testing.T) {
	db := open3v3(t)
	dir := shared3v3.dir
	// Rules that play the moving phase alike share the databases.
	for _, text := range []string{"nine-mens-morris", "nine-mens-morris,draw-after=0,repetition=0", "lasker"} {
		r, err := mill.ParseRules(text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir, ForRules(r)); err != nil {
			t.Errorf("%s: %v", text, err)
		}
		if !db.Covers(r) {
			t.Errorf("Covers(%s): got false, want true", text)
		}
	}
	for _, text := range []string{"twelve-mens-morris-small", "nine-mens-morris,flying=never", "nine-mens-morris,protection=always"} {
		r, err := mill.ParseRules(text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir, ForRules(r)); err == nil {
			t.Errorf("%s: opened a database of %s", text, db.Rules())
		}
		if db.Covers(r) {
			t.Errorf("Covers(%s): got true, want false", text)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing"), ForRules(db.Rules())); err == nil {
		t.Errorf("a missing directory: got no error")
	}
}

func TestProbe(t *testing.T) {
	db := open3v3(t)
	r := db.Rules()
	b := r.Board()
	pt := func(names ...string) mill.Points {
		var set mill.Points
		for _, n := range names {
			p, ok := b.PointByName(n)
			if !ok {
				t.Fatal(n)
			}
			set |= 1 << p
		}
		return set
	}
	W, B := pt("a1", "d1", "b4"), pt("g7", "d6", "e3")
	for _, tc := range []struct {
		name   string
		white  mill.Points
		black  mill.Points
		side   mill.Color
		hw, hb int
		want   Value
		ok     bool
	}{
		{"white closes a mill at once", W, B, mill.White, 0, 0, Value{Win, 1}, true},
		{"the same, colours swapped", B, W, mill.Black, 0, 0, Value{Win, 1}, true},
		{"pieces in hand", W, B, mill.White, 1, 0, Value{}, false},
		{"a sector not built", W | pt("g1"), B, mill.White, 0, 0, Value{}, false},
	} {
		p, err := r.SetUp(tc.white, tc.black, tc.side, tc.hw, tc.hb)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := db.Value(p)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %v: got %v %v, want %v %v", tc.name, p, got, ok, tc.want, tc.ok)
		}
	}
	// Positions under other rules are not probed.
	p, _ := mill.MustRules("nine-mens-morris", "flying=never").SetUp(W, B, mill.White, 0, 0)
	p2, _ := mill.MustRules("nine-mens-morris", "draw-after=0").SetUp(W, B, mill.White, 0, 0)
	if v, ok := db.Value(p2); !ok || v != (Value{Win, 1}) {
		t.Errorf("draw-after=0: got %v %v, want win in 1", v, ok)
	}
	if v, ok := db.Value(p); ok {
		t.Errorf("flying=never: got %v, want no probe", v)
	}
	// Every symmetric image probes the same.
	rng := rand.New(rand.NewPCG(8, 8))
	for range 200 {
		W := randomSet(rng, uint32(1<<24-1), 3)
		B := randomSet(rng, uint32(1<<24-1)&^W, 3)
		p, _ := r.SetUp(mill.Points(W), mill.Points(B), mill.Color(rng.IntN(2)), 0, 0)
		want, _ := db.Value(p)
		for s := range b.Symmetries {
			if got, ok := db.Value(p.Transform(s)); !ok || got != want {
				t.Fatalf("%v under symmetry %d: got %v, want %v", p, s, got, want)
			}
		}
	}
	if n := len(db.Keys()); n != 1 {
		t.Errorf("Keys: got %d sectors, want 1", n)
	}
	if c, ok := db.Counts(Key{White: 3, Black: 3}); !ok || c.Positions() == 0 {
		t.Errorf("Counts(3v3): got %+v %v", c, ok)
	}
}

// playOut plays from p: the side that the database says wins (or, in a
// draw, both sides) follows BestMove, the other side plays random moves or,
// with best set, BestMove too. It checks, through mill.Game, that a won
// position is won within its distance (exactly, against the best defence),
// and that a drawn position is never lost by a side that follows the
// database.
func playOut(t *testing.T, db *DB, p mill.Position, rng *rand.Rand, best bool) {
	t.Helper()
	v, ok := db.Value(p)
	if !ok {
		t.Fatalf("%v: not in the database", p)
	}
	// The databases ignore the no-progress rule: the longest wins take more
	// than 100 plies without a capture.
	r, err := mill.ParseRules(p.Rules().String() + ",draw-after=0")
	if err != nil {
		t.Fatal(err)
	}
	p, err = r.SetUp(p.Pieces(mill.White), p.Pieces(mill.Black), p.SideToMove(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := mill.NewGame(r, mill.FromPosition(p))
	hero := p.SideToMove()
	if v.Result == Loss {
		hero = hero.Other()
	}
	limit := 60
	if v.Result != Draw {
		limit = v.Plies
	}
	for ply := 0; ply < limit && g.Outcome() == mill.NoOutcome; ply++ {
		q := g.Position()
		m, qv, ok := db.BestMove(q)
		if !ok {
			t.Fatalf("%v: BestMove found no value", q)
		}
		if q.SideToMove() == hero && qv.Result == Loss {
			t.Fatalf("from %v (%v): the side that follows the database stands lost at %v", p, v, q)
		}
		if q.SideToMove() != hero && !best {
			moves := q.Moves(nil)
			m = moves[rng.IntN(len(moves))]
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	o := g.Outcome()
	switch v.Result {
	case Win, Loss:
		if o != mill.Won(hero) {
			t.Fatalf("from %v (%v): got %v after %d plies, want %v to win", p, v, o, len(g.Moves()), hero)
		}
		if best && len(g.Moves()) != v.Plies {
			t.Fatalf("from %v (%v): the best play took %d plies", p, v, len(g.Moves()))
		}
	case Draw:
		if o == mill.Won(hero.Other()) || o == mill.Won(hero) && best {
			t.Fatalf("from a draw %v: got %v", p, o)
		}
	}
}

func randomPositions(db *DB, k Key, n int, rng *rand.Rand) []mill.Position {
	var out []mill.Position
	for len(out) < n {
		W := randomSet(rng, db.x.all, k.White)
		B := randomSet(rng, db.x.all&^W, k.Black)
		p, _ := db.Rules().SetUp(mill.Points(W), mill.Points(B), mill.White, 0, 0)
		if o, _ := p.Status(); o == mill.NoOutcome {
			out = append(out, p)
		}
	}
	return out
}

func TestPerfectPlay3v3(t *testing.T) {
	db := open3v3(t)
	rng := rand.New(rand.NewPCG(4, 2))
	n := 300
	if testing.Short() {
		n = 60
	}
	for _, p := range randomPositions(db, Key{White: 3, Black: 3}, n, rng) {
		playOut(t, db, p, rng, false)
		playOut(t, db, p, rng, true)
	}
}

func TestPerfectPlay4v3(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 4v3")
	}
	r := mill.MustRules("nine-mens-morris")
	db := buildForTest(t, r, Key{White: 4, Black: 3})
	rng := rand.New(rand.NewPCG(4, 3))
	// Wins and losses are rare among random positions: look for them.
	var won, drawn []mill.Position
	for _, k := range []Key{{White: 4, Black: 3}, {White: 3, Black: 4}} {
		for _, p := range randomPositions(db, k, 20000, rng) {
			v, _ := db.Value(p)
			if v.Result != Draw && len(won) < 300 {
				won = append(won, p)
			}
			if v.Result == Draw && len(drawn) < 100 {
				drawn = append(drawn, p)
			}
		}
	}
	for _, p := range append(won, drawn...) {
		playOut(t, db, p, rng, false)
		playOut(t, db, p, rng, true)
	}
}

// TestPlayFromBuiltDB plays out random positions of every sector of a
// database built by "morris solve" (MORRIS_EGDB=dir, and MORRIS_EGDB_RULES
// if not nine-mens-morris): a database win is won within its plies against
// random defence and in exactly its plies against the best defence; a draw
// is never lost.
func TestPlayFromBuiltDB(t *testing.T) {
	dir := os.Getenv("MORRIS_EGDB")
	if dir == "" {
		t.Skip("set MORRIS_EGDB to a directory built by morris solve")
	}
	text := os.Getenv("MORRIS_EGDB_RULES")
	if text == "" {
		text = "nine-mens-morris"
	}
	r, err := mill.ParseRules(text)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 6))
	for _, k := range db.Keys() {
		var won, drawn, longest int
		for _, p := range randomPositions(db, k, 20000, rng) {
			v, _ := db.Value(p)
			switch {
			case v.Result != Draw && won < 200:
				won++
				longest = max(longest, v.Plies)
			case v.Result == Draw && drawn < 50:
				drawn++
			default:
				continue
			}
			playOut(t, db, p, rng, false)
			playOut(t, db, p, rng, true)
		}
		t.Logf("%v: %d won or lost positions (up to %d plies) and %d draws played out", k, won, longest, drawn)
	}
}

// TestMoveValues: every move of a position with its value, best first; the
// first is worth what the position is, and each is its child's value seen
// from the mover.
func TestMoveValues(t *testing.T) {
	db := open3v3(t)
	defer db.Close()
	for _, p := range randomPositions(db, Key{White: 3, Black: 3}, 200, rand.New(rand.NewPCG(11, 12))) {
		if o, _ := p.Status(); o != mill.NoOutcome {
			continue
		}
		mv, ok := db.MoveValues(p)
		if !ok {
			t.Fatalf("%s: no move values", p)
		}
		v, _ := db.Value(p)
		if mv[0].Value != v || len(mv) != len(p.Moves(nil)) {
			t.Fatalf("%s (%s): first move %s worth %s, %d moves", p, v, p.MoveText(mv[0].Move), mv[0].Value, len(mv))
		}
		for i, m := range mv {
			if i > 0 && m.Value.Better(mv[i-1].Value) {
				t.Fatalf("%s: %s (%s) after %s (%s): not best first", p, p.MoveText(m.Move), m.Value, p.MoveText(mv[i-1].Move), mv[i-1].Value)
			}
			q := p.Play(m.Move)
			want := Value{Result: Win, Plies: 1}
			if o, _ := q.Status(); o == mill.NoOutcome {
				cv, _ := db.Value(q)
				want = cv.Parent()
			}
			if m.Value != want {
				t.Fatalf("%s: %s worth %s, its child says %s", p, p.MoveText(m.Move), m.Value, want)
			}
		}
	}
}

// TestVerifyResumes: a verified sector leaves a mark naming its file's
// checksum; a verify pass run again takes the mark instead of verifying
// again, and a mark that names another checksum, or is damaged, is not
// trusted.
func TestVerifyResumes(t *testing.T) {
	r := mill.MustRules("nine-mens-morris", "flying=never")
	dir := t.TempDir()
	keys := []Key{{White: 3, Black: 3}}
	build := func() SectorResult {
		t.Helper()
		res, err := Builder{Rules: r, Dir: dir, Keys: keys, Verify: true}.Build(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || !res[0].Verified {
			t.Fatalf("got %+v, want 3v3 verified", res)
		}
		return res[0]
	}
	first := build()
	mark := verifiedPath(dir, keys[0])
	text, err := os.ReadFile(mark)
	if err != nil {
		t.Fatalf("no mark after verifying: %v", err)
	}
	recorded := first.Verify.Round(time.Millisecond)
	if again := build(); !again.Resumed || again.Verify != recorded {
		t.Fatalf("run again: %+v, want the file resumed and the verify taken from the mark (%v)", again, recorded)
	}
	for _, bad := range []string{
		"crc64 0000000000000000 verify 1s\n", // another file's
		"crc64 zz verify 1s\n",
		"",
	} {
		if err := os.WriteFile(mark, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := build(); got.Verify == time.Second {
			t.Errorf("mark %q was trusted", bad)
		}
		now, err := os.ReadFile(mark)
		if err != nil || !strings.HasPrefix(string(now), string(text[:len("crc64 0123456789abcdef")])) {
			t.Errorf("after mark %q the new mark is %q, want it to name the file's checksum as %q", bad, now, text)
		}
	}
}

// TestVerdict: the databases' verdict is the probed value where it is won
// or lost and ends before the no-progress draw, none where it is drawn or
// too long to be sure of.
func TestVerdict(t *testing.T) {
	db := open3v3(t)
	defer db.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	withQuiet := func(p mill.Position, q int) mill.Position {
		f := strings.Fields(p.String())
		f[5], f[6] = strconv.Itoa(q), strconv.Itoa(q)
		np, err := mill.ParsePosition(strings.Join(f, " "))
		if err != nil {
			t.Fatal(err)
		}
		return np
	}
	kinds := map[Result]int{}
	for _, p := range randomPositions(db, Key{White: 3, Black: 3}, 400, rng) {
		if st, _ := p.Status(); st != mill.NoOutcome {
			if _, _, ok := db.Verdict(p); ok {
				t.Errorf("%s: a verdict on a game already over", p)
			}
			continue
		}
		v, _ := db.Value(p)
		kinds[v.Result]++
		o, got, ok := db.Verdict(p)
		switch {
		case v.Result == Draw:
			if ok {
				t.Errorf("%s: drawn, got the verdict %s", p, o)
			}
			continue
		case !ok || got != v:
			t.Fatalf("%s: %s, got no verdict (%v, %v)", p, v, got, ok)
		case (v.Result == Win) != (o == mill.Won(p.SideToMove())):
			t.Errorf("%s: %s for %s, got the verdict %s", p, v, p.SideToMove(), o)
		}
		// The no-progress draw comes at 100 plies without a capture.
		if v.Plies < 100 {
			if _, _, ok := db.Verdict(withQuiet(p, 99-v.Plies)); !ok {
				t.Errorf("%s: %s with %d plies left before the draw: no verdict", p, v, 100-(99-v.Plies))
			}
			if _, _, ok := db.Verdict(withQuiet(p, 100-v.Plies)); ok {
				t.Errorf("%s: %s with only %d plies left before the draw: a verdict", p, v, v.Plies)
			}
		}
	}
	if kinds[Win] == 0 || kinds[Loss] == 0 || kinds[Draw] == 0 {
		t.Errorf("positions by value: %v, want each kind", kinds)
	}
}
