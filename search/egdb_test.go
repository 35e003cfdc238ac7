package search

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/builtin"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/mill"
)

var (
	dbOnce sync.Once
	db     *egdb.DB
	dbErr  error
)

// The databases are a Tablebase as they are: no wrapper.
var _ Tablebase = (*egdb.DB)(nil)

// testDB builds the 3v3 and 4v3 sectors of nine men's morris (and what they
// need) once for the tests of this file.
func testDB(t *testing.T) *egdb.DB {
	t.Helper()
	dbOnce.Do(func() {
		r := mill.MustRules("nine-mens-morris")
		dir, err := mkdirTemp()
		if err != nil {
			dbErr = err
			return
		}
		keys := []egdb.Key{}
		for _, s := range []string{"3v3", "4v3", "3v4"} {
			k, err := egdb.ParseKey(s)
			if err != nil {
				dbErr = err
				return
			}
			keys = append(keys, k)
		}
		if _, dbErr = (egdb.Builder{Rules: r, Dir: dir, Keys: keys}).Build(context.Background()); dbErr != nil {
			return
		}
		db, dbErr = egdb.Open(dir, egdb.ForRules(r))
	})
	if dbErr != nil {
		t.Fatal(dbErr)
	}
	return db
}

// randomPosition returns a random position of nw white and nb black pieces,
// white to move.
func randomPosition(rng *rand.Rand, r *mill.Rules, nw, nb int) mill.Position {
	perm := rng.Perm(r.Board().Len())
	var w, b mill.Points
	for _, p := range perm[:nw] {
		w |= 1 << p
	}
	for _, p := range perm[nw : nw+nb] {
		b |= 1 << p
	}
	p, err := r.SetUp(w, b, mill.White, 0, 0)
	if err != nil {
		panic(err)
	}
	return p
}

// TestSearchAgreesWithDatabases: positions whose value the databases know
// (a win or a loss a few plies away) are solved by the search alone, with
// the exact distance: the shortest win, the longest defence.
func TestSearchAgreesWithDatabases(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	d := testDB(t)
	r := mill.MustRules("nine-mens-morris")
	rng := rand.New(rand.NewPCG(3, 4))
	e := New(Options{HashMB: 16})
	found := map[string]int{}
	for tries := 0; tries < 200000 && len(found) < 60; tries++ {
		nw, nb := 3+rng.IntN(2), 3
		p := randomPosition(rng, r, nw, nb)
		if o, _ := p.Status(); o != mill.NoOutcome {
			continue
		}
		v, ok := d.Value(p)
		if !ok || v.Result == egdb.Draw || v.Plies > 7 {
			continue
		}
		kind := v.String()
		if found[kind] >= 4 {
			continue
		}
		found[kind]++
		e.Clear()
		res := e.Search(context.Background(), []mill.Position{p}, Limits{Depth: v.Plies + 2}, nil)
		want := Mate - v.Plies
		if v.Result == egdb.Loss {
			want = -want
		}
		if res.Score != want {
			t.Errorf("%s: the databases say %s; the search says %s (%s)", p, v, ScoreText(res.Score), p.MoveText(res.Move))
		}
	}
	t.Logf("known results sampled: %v", found)
	if len(found) < 6 {
		t.Errorf("only %d kinds of known results sampled: %v", len(found), found)
	}
}

// TestNeverLoseAWonPosition: from positions the databases call won, the
// engine (probing them) plays against the databases' own best defence and
// wins every game, within the distance they give.
func TestNeverLoseAWonPosition(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	d := testDB(t)
	r := mill.MustRules("nine-mens-morris")
	rng := rand.New(rand.NewPCG(5, 6))
	e := New(Options{HashMB: 16, Tablebase: d})
	games, longest := 0, 0
	for tries := 0; tries < 1000000 && games < 40; tries++ {
		p := randomPosition(rng, r, 3+rng.IntN(2), 3)
		v, ok := d.Value(p)
		if !ok || v.Result != egdb.Win || v.Plies < 5 {
			continue // the longer wins: the short ones any search finds
		}
		games++
		longest = max(longest, v.Plies)
		g := mill.NewGame(r, mill.FromPosition(p))
		engine := p.SideToMove()
		for g.Outcome() == mill.NoOutcome && len(g.Moves()) <= v.Plies {
			q := g.Position()
			var m mill.Move
			if q.SideToMove() == engine {
				m = e.Search(context.Background(), g.Positions(), Limits{Depth: 2}, nil).Move
			} else {
				var ok bool
				if m, _, ok = d.BestMove(q); !ok {
					t.Fatalf("%s: no database move for the defence", q)
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if g.Outcome() != mill.Won(engine) || len(g.Moves()) > v.Plies {
			t.Errorf("%s (%s): the engine got %v by %v after %d plies", p, v, g.Outcome(), g.Method(), len(g.Moves()))
		}
	}
	if games < 40 {
		t.Errorf("only %d won positions found", games)
	}
	t.Logf("%d games from won positions, the longest a win in %d plies", games, longest)
}

// TestPressInDrawnPositions: in a position the databases call drawn, the
// analysis (Search) says 0, while the engine at play (Choose within a time)
// searches the drawn positions on and scores them by its search, so that
// it picks the draw that is hardest to hold; either way it never plays
// into a loss, and never sees a win that is not there.
func TestPressInDrawnPositions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	d := testDB(t)
	r := mill.MustRules("nine-mens-morris")
	rng := rand.New(rand.NewPCG(7, 8))
	e := New(Options{HashMB: 16, Tablebase: d})
	positions, pressed := 0, 0
	for tries := 0; tries < 100000 && positions < 30; tries++ {
		p := randomPosition(rng, r, 4, 3)
		if o, _ := p.Status(); o != mill.NoOutcome {
			continue
		}
		if v, ok := d.Value(p); !ok || v.Result != egdb.Draw {
			continue
		}
		positions++
		e.Clear()
		if res := e.Search(context.Background(), []mill.Position{p}, Limits{Depth: 3}, nil); res.Score != 0 {
			t.Errorf("%s: a drawn position: Search scores %d, want 0", p, res.Score)
		}
		e.Clear()
		// At play (a time, not a depth: a depth asks for the analysis's
		// search).
		res := e.Choose(context.Background(), []mill.Position{p}, LevelFor(10), Limits{MoveTime: 20 * time.Millisecond}, rng, nil)
		if IsMate(res.Score) {
			t.Errorf("%s: a drawn position: Choose scores %s", p, ScoreText(res.Score))
		}
		if res.Score != 0 {
			pressed++
		}
		after := p.Play(res.Move)
		if v, ok := d.Value(after); !ok || v.Result == egdb.Win {
			t.Errorf("%s: Choose played %s into %v (in the databases: %v)", p, p.MoveText(res.Move), v, ok)
		}
	}
	if positions < 30 || pressed == 0 {
		t.Errorf("%d drawn positions, %d scored other than 0 at play: want 30, and some", positions, pressed)
	}
}

// TestLevelsPlayDatabasesPerfectly: levels 8 to 10 play every position
// inside the databases perfectly, whatever their variety: the fastest win,
// a move that keeps the draw, the slowest loss.
func TestLevelsPlayDatabasesPerfectly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	d := testDB(t)
	r := mill.MustRules("nine-mens-morris")
	rng := rand.New(rand.NewPCG(9, 10))
	e := New(Options{HashMB: 16, Tablebase: d})
	kinds := map[egdb.Result]int{}
	for tries := 0; tries < 100000 && (kinds[egdb.Win] < 15 || kinds[egdb.Draw] < 15 || kinds[egdb.Loss] < 15); tries++ {
		nw, nb := 3+rng.IntN(2), 3+rng.IntN(2)
		if nw == 4 && nb == 4 {
			continue // not in the test's databases
		}
		p := randomPosition(rng, r, nw, nb)
		if o, _ := p.Status(); o != mill.NoOutcome {
			continue
		}
		v, ok := d.Value(p)
		if !ok || kinds[v.Result] >= 15 {
			continue
		}
		kinds[v.Result]++
		for _, n := range []int{8, 9, 10} {
			e.Clear()
			res := e.Choose(context.Background(), []mill.Position{p}, LevelFor(n), Limits{Depth: 3}, rng, nil)
			after := p.Play(res.Move)
			got := egdb.Value{Result: egdb.Win} // a capture that ends the game
			if o, _ := after.Status(); o == mill.NoOutcome {
				cv, ok := d.Value(after)
				if !ok {
					t.Fatalf("%s: %s leads out of the databases", p, p.MoveText(res.Move))
				}
				got = cv.Parent()
			} else {
				got.Plies = 1
			}
			if got != v {
				t.Errorf("level %d in %s (%s): played %s, worth %s", n, p, v, p.MoveText(res.Move), got)
			}
		}
	}
	t.Logf("positions by value: %v", kinds)
}

// TestPlacingFromDatabases: with the databases of a whole game (three men
// on the nine men's board, built from the start), the engine plays every
// placing position perfectly too: each move keeps the position's value.
func TestPlacingFromDatabases(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	d, _ := egdbtest.Build(t, r, egdb.StartKey(r))
	e := New(Options{HashMB: 16, Tablebase: d})
	rng := rand.New(rand.NewPCG(11, 12))
	checked := 0
	for game := 0; game < 10; game++ {
		g := mill.NewGame(r)
		for g.Outcome() == mill.NoOutcome && g.Position().Placing() {
			p := g.Position()
			v, ok := d.Value(p)
			if !ok {
				t.Fatalf("%s: not in the databases", p)
			}
			e.Clear()
			res := e.Choose(context.Background(), g.Positions(), LevelFor(10), Limits{Depth: 2}, rng, nil)
			got := egdb.Value{Result: egdb.Win, Plies: 1}
			if o, _ := p.Play(res.Move).Status(); o == mill.NoOutcome {
				cv, _ := d.Value(p.Play(res.Move))
				got = cv.Parent()
			}
			if got != v {
				t.Errorf("%s (%s): the engine played %s, worth %s", p, v, p.MoveText(res.Move), got)
			}
			checked++
			// Go on with a random move, to see other positions.
			moves := p.Moves(nil)
			if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d placing positions checked", checked)
	}
}

// TestLongPlacingValuesKept: a placing position the databases call won or
// lost in more plies than the no-progress rule leaves is not proved, but the
// search keeps the databases' value for it (TBWin less the plies) instead of
// searching on without them, where the placing phase has no databases below
// the root's children: at play the engine then keeps the value of the
// position. Here the databases of the three men's whole game answer with
// every placing win and loss made DrawAfter plies longer, so that each of
// them is unproved. (Before, a move into such a loss scored what the
// evaluation guessed: nine men's morris at 1 s a move against Sanmill, a
// move into a loss in 124 plies next to the one draw.)
func TestLongPlacingValuesKept(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	d, _ := egdbtest.Build(t, r, egdb.StartKey(r))
	probe := d.Probe
	long := TablebaseFunc(func(p mill.Position) (int, int, bool) {
		res, plies, ok := probe(p)
		if ok && res != 0 && p.Placing() {
			plies += r.Options().DrawAfter
		}
		return res, plies, ok
	})
	rank := func(v egdb.Value) int { return map[egdb.Result]int{egdb.Loss: 0, egdb.Draw: 1, egdb.Win: 2}[v.Result] }
	e := New(Options{HashMB: 16, Tablebase: long})
	rng := rand.New(rand.NewPCG(13, 14))
	checked := 0
	for game := 0; game < 200 && checked < 40; game++ {
		g := mill.NewGame(r)
		for g.Outcome() == mill.NoOutcome && g.Position().Placing() {
			p := g.Position()
			mvs, ok := d.MoveValues(p)
			if !ok {
				t.Fatalf("%s: not in the databases", p)
			}
			best, worst := 0, 2
			for _, mv := range mvs {
				best, worst = max(best, rank(mv.Value)), min(worst, rank(mv.Value))
			}
			if best != worst { // some moves give the value away
				e.Clear()
				e.press = true
				res := e.Search(context.Background(), g.Positions(), Limits{Depth: 3}, nil)
				e.press = false
				for _, mv := range mvs {
					if mv.Move == res.Move && rank(mv.Value) != best {
						t.Errorf("%s: the engine played %s, worth %s to it; a move worth %d (2 won, 1 drawn) was there",
							p, p.MoveText(res.Move), mv.Value, best)
					}
				}
				checked++
			}
			moves := p.Moves(nil)
			if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d placing positions with moves of different values checked", checked)
	}
}

// withQuiet returns p with its no-progress counter set to q.
func withQuiet(t *testing.T, p mill.Position, q int) mill.Position {
	t.Helper()
	f := strings.Fields(p.String())
	f[5] = strconv.Itoa(q)
	f[6] = strconv.Itoa(max(q, p.Ply()))
	np, err := mill.ParsePosition(strings.Join(f, " "))
	if err != nil {
		t.Fatal(err)
	}
	return np
}

// TestDatabasesRespectNoProgress: a win the databases know is a win only if
// it ends before the no-progress draw. With the counter at 0 the search
// gives the databases' distance; one ply before the draw, where no move
// captures, every move draws and the search must say 0, though the
// databases say "win".
func TestDatabasesRespectNoProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	d := testDB(t)
	r := mill.MustRules("nine-mens-morris")
	limit := r.Options().DrawAfter
	rng := rand.New(rand.NewPCG(9, 10))
	e := New(Options{HashMB: 16, Tablebase: d})
	found := 0
	for tries := 0; tries < 1000000 && found < 20; tries++ {
		p := randomPosition(rng, r, 3+rng.IntN(2), 3)
		v, ok := d.Value(p)
		if !ok || v.Result != egdb.Win || v.Plies < 5 {
			continue
		}
		captures := false
		for _, m := range p.Moves(nil) {
			if m.Captures() > 0 {
				captures = true
			}
		}
		if captures {
			continue
		}
		found++
		e.Clear()
		got := e.Search(context.Background(), []mill.Position{p}, Limits{Depth: 4}, nil).Score
		if !IsMate(got) || MatePlies(got) != v.Plies {
			t.Errorf("%s (%s), counter 0: score %s", p, v, ScoreText(got))
		}
		late := withQuiet(t, p, limit-1)
		e.Clear()
		if got := e.Search(context.Background(), []mill.Position{late}, Limits{Depth: 4}, nil).Score; got != 0 {
			t.Errorf("%s (%s), one ply before the draw: score %s, want 0", late, v, ScoreText(got))
		}
	}
	if found < 20 {
		t.Fatalf("only %d won positions without a capture found", found)
	}
}

// TestPlacingProbedShallow: the databases of the placing phase are read at
// the root's children only (placingProbePlies): a search of a placing
// position to depth 6 asks them of a few positions per root move and
// iteration, not of the thousands of placing positions it visits; the
// moving phase's are read at every depth.
func TestPlacingProbedShallow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	r := mill.MustRules("nine-mens-morris", "pieces=4")
	db, _ := egdbtest.Build(t, r, egdb.StartKey(r))
	var placing, moving atomic.Int64
	probe := db.Probe
	tb := TablebaseFunc(func(p mill.Position) (int, int, bool) {
		if p.InHand(mill.White)+p.InHand(mill.Black) > 0 {
			placing.Add(1)
		} else {
			moving.Add(1)
		}
		return probe(p)
	})
	g := mill.NewGame(r)
	for _, m := range []string{"d6", "d2", "b4"} {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	root := g.Position()
	e := New(Options{HashMB: 16, Tablebase: tb})
	e.press = true // drawn children searched on, as at play
	res := e.Search(context.Background(), g.Positions(), Limits{Depth: 6}, nil)
	n := len(root.Moves(nil))
	if res.Nodes < 1000 || placing.Load() > int64(3*6*n) || moving.Load() == 0 {
		t.Errorf("%d nodes, %d probes of placing positions (%d root moves), %d of moving ones: want a few per root move and iteration, and some of the moving phase",
			res.Nodes, placing.Load(), n, moving.Load())
	}
}

// TestLevelsBelowTablebaseLevel: the levels below TablebaseLevel play
// without the databases (they err on purpose, and the databases' exact
// values would make them perfect wherever they reach); from it up every
// search reads them. Analysis (Search) reads them always.
func TestLevelsBelowTablebaseLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	r := mill.MustRules("nine-mens-morris")
	db, _ := egdbtest.Build(t, r)
	var probes atomic.Int64
	probe := db.Probe
	e := New(Options{HashMB: 4, Tablebase: TablebaseFunc(func(p mill.Position) (int, int, bool) {
		probes.Add(1)
		return probe(p)
	})})
	p := mill.MustParsePosition("nine-mens-morris 1W2B3/2W3B1/W4B2 w 0,0 - 0 40")
	rng := rand.New(rand.NewPCG(1, 1))
	for n := 1; n <= 10; n++ {
		probes.Store(0)
		e.Clear()
		lim := Limits{}
		if n >= 9 {
			lim = Limits{MoveTime: 50 * time.Millisecond}
		}
		res := e.Choose(context.Background(), []mill.Position{p}, LevelFor(n), lim, rng, nil)
		if res.Move.IsZero() {
			t.Fatalf("level %d: no move", n)
		}
		if got := probes.Load(); (n < TablebaseLevel) != (got == 0) {
			t.Errorf("level %d: %d probes of the databases", n, got)
		}
	}
	probes.Store(0)
	e.Search(context.Background(), []mill.Position{p}, Limits{Depth: 2}, nil)
	if probes.Load() == 0 {
		t.Error("the analysis read no databases")
	}
}

// TestWinsWithoutDistances: with databases that say won, drawn or lost
// but not in how many plies (as a compact file, whose Probe answers -1
// plies), the engine never plays a move that gives a won position away
// against a perfect defence (until the no-progress draw is near, when
// every move draws). How many of the wins it converts before that draw is
// logged, not asserted: a win of unknown distance scores TBProgress plus
// the evaluation, and the evaluation is a weak guide to the capture in
// the flying endgames (8 of 20 at depth 6 when written; docs/egdb.md,
// "The compact file"). A measure of progress is the open part.
func TestWinsWithoutDistances(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	d := testDB(t)
	wdl := TablebaseFunc(func(p mill.Position) (int, int, bool) {
		res, plies, ok := d.Probe(p)
		if ok && res != 0 {
			plies = -1
		}
		return res, plies, ok
	})
	r := mill.MustRules("nine-mens-morris")
	rng := rand.New(rand.NewPCG(5, 7))
	games, won, plies := 0, 0, 0
	for tries := 0; tries < 1000000 && games < 20; tries++ {
		p := randomPosition(rng, r, 3+rng.IntN(2), 3)
		v, ok := d.Value(p)
		if !ok || v.Result != egdb.Win || v.Plies < 5 {
			continue
		}
		games++
		e := New(Options{HashMB: 16, Tablebase: wdl})
		g := mill.NewGame(r, mill.FromPosition(p))
		engine := p.SideToMove()
		for g.Outcome() == mill.NoOutcome {
			q := g.Position()
			var m mill.Move
			if q.SideToMove() == engine {
				m = e.Search(context.Background(), g.Positions(), Limits{Depth: 6}, nil).Move
				// The win is kept: the child is lost for the defence
				// (or won for the engine, if it moves again).
				c := q.Play(m)
				if w, ok := d.Value(c); ok && q.Quiet() < 90 && (w.Result == egdb.Win) != (c.SideToMove() == engine) {
					t.Fatalf("%s: %v gives the win away (%v)", q, m, w)
				}
			} else {
				var ok bool
				if m, _, ok = d.BestMove(q); !ok {
					t.Fatalf("%s: no database move for the defence", q)
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if g.Outcome() == mill.Won(engine) {
			won++
			plies += len(g.Moves())
		} else if g.Outcome() != mill.Draw {
			t.Errorf("%s (%s): the engine lost a won position: %v by %v", p, v, g.Outcome(), g.Method())
		}
	}
	if games < 20 {
		t.Errorf("only %d won positions found", games)
	}
	t.Logf("%d of %d won positions won without distances (depth 6), in %.1f plies on average; the rest drawn by no progress",
		won, games, float64(plies)/float64(max(won, 1)))
}

// TestOpeningKeepsTheDraw: with the built-in opening file (the first 11
// plies of nine men's morris, won, drawn or lost), level 10 never throws a
// draw away in them: not in the two positions where the engine without it
// lost to perfect play (docs/matches/2026-12-06-nmm-perfect-1s-s778976.pgn,
// games 91 and 71), and not in drawn positions reached by random
// placements; and the book, asked there, gives way to the file.
func TestOpeningKeepsTheDraw(t *testing.T) {
	shelf := builtin.Shelf()
	e := New(Options{HashMB: 16, Tablebase: shelf, Book: book.Default()})
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(p mill.Position, lim Limits) {
		t.Helper()
		mv, ok := shelf.MoveValues(p)
		if !ok {
			t.Fatalf("%v: not in the opening file", p)
		}
		res := e.Choose(context.Background(), []mill.Position{p}, LevelFor(10), lim, rng, nil)
		for _, m := range mv {
			if m.Move == res.Move && m.Value.Result < mv[0].Value.Result {
				t.Fatalf("%v: level 10 played %s, a %v, where %s keeps a %v", p, p.MoveText(res.Move), m.Value.Result, p.MoveText(mv[0].Move), mv[0].Value.Result)
			}
		}
	}
	for _, text := range []string{
		"nine-mens-morris 8/2WWB3/5B2 w 7,7 - 0 4",         // game 91: d2 lost, 3 moves of 20 draw
		"nine-mens-morris 4BWB1/W2B1WBW/5BW1 w 4,4 - 0 10", // game 71: c4 lost, 2 moves of 14 draw
	} {
		p, err := mill.ParsePosition(text)
		if err != nil {
			t.Fatal(err)
		}
		check(p, Limits{MoveTime: 300 * time.Millisecond})
	}
	r := mill.MustRules("nine-mens-morris")
	tested := 0
	for tested < 30 {
		p := r.Start()
		for range rng.IntN(11) {
			moves := p.Moves(nil)
			p = p.Play(moves[rng.IntN(len(moves))])
		}
		if v, ok := shelf.Value(p); !ok || v.Result != egdb.Draw {
			continue
		}
		check(p, Limits{Depth: 2})
		tested++
	}
}
