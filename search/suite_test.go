package search

import (
	"context"
	"os"
	"testing"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search/suite"
)

// The regression suite: testdata/suite.txt holds positions whose best moves
// are proved, by exhaustive search or by the endgame databases, never by
// asking the engine (package search/suite writes the file and says how).
// TestSuite searches each position with a fixed node budget and fails when
// fewer are solved in a category than the floor recorded below: a change
// that makes the engine miss what it found fails CI, one that finds more is
// free (and should raise the floor).

// suiteNodes is the node budget of a position: one thread, a 16 MiB table
// cleared before each position. With -short the budget is suiteNodesShort.
const (
	suiteNodes      = 1_000_000
	suiteNodesShort = 100_000
)

// suiteFloors are the positions solved per category today (2026-11-24,
// docs/search.md "Regression suite"), with suiteNodes and suiteNodesShort.
// The short floor of mill-in-two fell to 11 with the placing weights fitted
// to deeper searches (2026-11-25, docs/eval.md): mill-in-two-03, a placing
// position, is found with the full budget, not within 100,000 nodes (the
// fitted weights play d3 there at depth 9, +115, and g7 from more nodes).
// The floor of endgame fell to 8 with the moving weights fitted to the
// positions after placing (2026-11-26): endgame-08 (3 flying pieces against
// 5, a win in 31 plies by the right capture) takes f4 instead of a7, a
// judgment of the moving side's position far beyond the search's reach.
var suiteFloors = map[string][2]int{
	"blockade":    {14, 13},
	"mill-in-two": {12, 11},
	"endgame":     {8, 8},
	"capture":     {12, 12},
}

const suiteFile = "testdata/suite.txt"

func loadSuite(t testing.TB) []suite.Entry {
	t.Helper()
	f, err := os.Open(suiteFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, err := suite.Parse(f, suiteFile)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// solveSuite searches every entry with the budget and returns the engine's
// move for each.
func solveSuite(entries []suite.Entry, nodes uint64) []Result {
	e := New(Options{HashMB: 16, Threads: 1})
	out := make([]Result, len(entries))
	for i, en := range entries {
		e.Clear()
		out[i] = e.Search(context.Background(), []mill.Position{en.Pos}, Limits{Nodes: nodes}, nil)
	}
	return out
}

func TestSuite(t *testing.T) {
	entries := loadSuite(t)
	nodes, floor := uint64(suiteNodes), 0
	if testing.Short() {
		nodes, floor = suiteNodesShort, 1
	}
	results := solveSuite(entries, nodes)
	solved, total := map[string]int{}, map[string]int{}
	for i, en := range entries {
		total[en.Category]++
		res := results[i]
		if en.Solves(res.Move) {
			solved[en.Category]++
			continue
		}
		t.Logf("not solved: %s (line %d, %s): played %s (%s, depth %d), want %s\n\t%s",
			en.ID, en.Line, en.Category, en.Pos.MoveText(res.Move), ScoreText(res.Score), res.Depth,
			suite.MovesText(en.Pos, en.Best), en.Pos)
	}
	t.Logf("solved with %d nodes a position:", nodes)
	for _, c := range suite.Categories {
		f := suiteFloors[c][floor]
		t.Logf("  %-12s %2d of %2d (floor %d)", c, solved[c], total[c], f)
		switch {
		case total[c] < 8:
			t.Errorf("%s: %d positions in the suite, want at least 8", c, total[c])
		case solved[c] < f:
			t.Errorf("%s: %d of %d solved, below the floor of %d: a regression", c, solved[c], total[c], f)
		case solved[c] > f:
			t.Logf("  %s: %d solved, above the floor of %d: raise suiteFloors", c, solved[c], f)
		}
	}
}

// TestSuiteEndgameTruth checks the endgames of nine men's morris in the
// sectors of the package's test databases (3v3, 4v3, 3v4) against them on
// every run: their answers do not rest on the generator's word. The others
// are audited by morris-dev suite-verify.
func TestSuiteEndgameTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	d := testDB(t)
	checked := 0
	for _, en := range loadSuite(t) {
		if en.Category != "endgame" || en.Variant != "nine-mens-morris" || en.Pos.OnBoard(mill.White)+en.Pos.OnBoard(mill.Black) > 7 {
			continue
		}
		checked++
		if err := suite.Prove(nil, d, en); err != nil {
			t.Error(err)
		}
	}
	if checked == 0 {
		t.Error("no endgame of nine men's morris with at most 7 pieces in the suite")
	}
	t.Logf("%d endgames checked", checked)
}
