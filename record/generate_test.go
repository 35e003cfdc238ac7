package record

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/golden"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
)

// randomGame plays random legal moves in g until the game ends or maxPlies
// plies have been played, with a generator seeded by seed.
func randomGame(g *mill.Game, seed uint64, maxPlies int) *mill.Game {
	return milltest.PlayOn(g, rand.New(rand.NewPCG(seed, 0x6d696c6c)), maxPlies)
}

// findGame returns the first game under rules, seeds from 0 up, that ok accepts.
func findGame(t *testing.T, rules *mill.Rules, maxPlies int, ok func(*mill.Game) bool) (*mill.Game, uint64) {
	t.Helper()
	for seed := uint64(0); seed < 5000; seed++ {
		g := randomGame(mill.NewGame(rules, mill.WithSeed(seed)), seed, maxPlies)
		if ok(g) {
			return g, seed
		}
	}
	t.Fatalf("no game of %s fits", rules)
	return nil, 0
}

func count(g *mill.Game, kind mill.MoveKind) int {
	n := 0
	for _, m := range g.Moves() {
		if m.Kind() == kind {
			n++
		}
	}
	return n
}

// inputStyle says how writeInput lays out a record, unlike the Writer, so
// that the golden files show what the Writer normalizes.
type inputStyle struct {
	dialect  mill.Dialect
	numbers  bool // write move numbers
	glued    bool // "1.d6" rather than "1. d6"
	perLine  int  // moves on a line
	noRoster bool // leave out the roster tags the record has no value for
}

// writeInput writes rec in the given style: the tags in the record's order,
// then the movetext.
func writeInput(b *strings.Builder, rec *Record, st inputStyle) {
	for _, t := range rec.Tags {
		fmt.Fprintf(b, "[%s %q]\n", t.Name, t.Value)
	}
	b.WriteString("\n")
	rules, _, err := rec.rules()
	if err != nil {
		panic(err)
	}
	board := rules.Board()
	if rec.Comment != "" {
		fmt.Fprintf(b, "{%s}\n", rec.Comment)
	}
	ply := rec.startPly()
	for i, mt := range rec.Moves {
		m, err := board.ParseMove(mt.Text)
		if err != nil {
			panic(err)
		}
		text := board.MoveText(m, st.dialect)
		p := ply + i
		if st.numbers && (p%2 == 0 || i == 0 || rec.Moves[i-1].Comment != "") {
			b.WriteString(number(p))
			if !st.glued {
				b.WriteString(" ")
			}
		}
		b.WriteString(text)
		if mt.Comment != "" {
			fmt.Fprintf(b, " {%s}", mt.Comment)
		}
		if (i+1)%st.perLine == 0 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	b.WriteString(rec.Result.String())
	b.WriteString("\n")
}

// TestGenerate makes the testdata inputs of random legal games again and
// compares them with the committed files: each says which seed made it,
// and that stays true. go test -update writes them anew (and then the
// golden files of TestGolden, which reads them).
func TestGenerate(t *testing.T) {
	files := map[string]*strings.Builder{}
	add := func(name string, rec *Record, st inputStyle) {
		b := files[name]
		if b == nil {
			b = &strings.Builder{}
			files[name] = b
		} else {
			b.WriteString("\n")
		}
		writeInput(b, rec, st)
	}

	// A whole game of nine men's morris that ends on the board, blocked.
	nine := mill.MustRules("nine-mens-morris")
	g, seed := findGame(t, nine, 1000, func(g *mill.Game) bool {
		return g.Method() == mill.Blocked && len(g.Moves()) > 40
	})
	rec := FromGame(g, Tag{"Event", "Random play"}, Tag{"Date", "2025.01.??"},
		Tag{"White", "random " + fmt.Sprint(seed)}, Tag{"Black", "random " + fmt.Sprint(seed)})
	rec.Comment = fmt.Sprintf("Random legal moves, generator seed %d.", seed)
	add("nine-mens-morris.input", rec, inputStyle{numbers: true, glued: true, perLine: 2})

	// Shah: placing fills the board, the deferred removal, passes.
	shah := mill.MustRules("shah")
	g, seed = findGame(t, shah, 1000, func(g *mill.Game) bool {
		return count(g, mill.PassMove) >= 2 && count(g, mill.RemoveMove) == 1 &&
			(g.Outcome() == mill.WhiteWon || g.Outcome() == mill.BlackWon) && len(g.Moves()) < 90
	})
	rec = FromGame(g, Tag{"Event", "Shah, random play"}, Tag{"Round", fmt.Sprint(seed)})
	for i, m := range g.Moves() {
		switch m.Kind() {
		case mill.RemoveMove:
			rec.Moves[i].Comment = "Placing is over: the first to have formed a mill removes a piece."
		case mill.PassMove:
			rec.Moves[i].Comment = "Trapped: a pass."
		}
	}
	add("shah.input", rec, inputStyle{numbers: true, perLine: 6})

	// Overrides, and the first player drawn by lot (black here), then a resignation.
	tw, err := mill.NewRules("twelve-man-morris", "protection=always", "draw-after=50")
	if err != nil {
		t.Fatal(err)
	}
	for seed = 0; mill.LotFirst(seed) != mill.Black; seed++ {
	}
	g = randomGame(mill.NewGame(tw, mill.WithSeed(seed)), seed, 41)
	if err := g.Resign(g.Position().SideToMove()); err != nil {
		t.Fatal(err)
	}
	rec = FromGame(g, Tag{"Event", "Overrides"}, Tag{"White", "Ann \"the Mill\" Smith"}, Tag{"Black", `C:\players\bob`})
	add("overrides.input", rec, inputStyle{numbers: true, perLine: 10})

	// A set-up position at an odd ply, played on from there.
	g = randomGame(mill.NewGame(nine), 7, 25)
	g2 := randomGame(mill.NewGame(nine, mill.FromPosition(g.Position())), 8, 1000)
	rec = FromGame(g2, Tag{"Event", "From a position"})
	rec.DeleteTag("Variant") // the position's rules stand
	add("position.input", rec, inputStyle{numbers: true, perLine: 8})

	// The pbmserv dialect, no move numbers.
	g, seed = findGame(t, nine, 1000, func(g *mill.Game) bool {
		return g.Outcome() != mill.NoOutcome && g.Method() == mill.Material && len(g.Moves()) < 80
	})
	rec = FromGame(g, Tag{"Site", "pbmserv"}, Tag{"Round", fmt.Sprint(seed)})
	add("pbmserv.input", rec, inputStyle{dialect: mill.Pbm, perLine: 9})

	// Several games in one file: a full board, multiple captures, a large
	// board, an unfinished game.
	mora := mill.MustRules("morabaraba")
	g, _ = findGame(t, mora, 1000, func(g *mill.Game) bool { return g.Method() == mill.FullBoard })
	add("multi.input", FromGame(g, Tag{"Event", "Multi"}, Tag{"Round", "1"}), inputStyle{numbers: true, perLine: 2})
	g, _ = findGame(t, mora, 1000, func(g *mill.Game) bool {
		for _, m := range g.Moves() {
			if m.NumCaptures() > 1 {
				return g.Outcome() != mill.NoOutcome
			}
		}
		return false
	})
	add("multi.input", FromGame(g, Tag{"Event", "Multi"}, Tag{"Round", "2"}), inputStyle{numbers: true, perLine: 4})
	g = randomGame(mill.NewGame(mill.MustRules("twelve-mens-morris-large")), 3, 1000)
	add("multi.input", FromGame(g, Tag{"Event", "Multi"}, Tag{"Round", "3"}), inputStyle{numbers: true, perLine: 12})
	g = randomGame(mill.NewGame(mill.MustRules("lasker")), 4, 30)
	if err := g.End(mill.Draw, mill.Agreement); err != nil {
		t.Fatal(err)
	}
	add("multi.input", FromGame(g, Tag{"Event", "Multi"}, Tag{"Round", "4"}), inputStyle{numbers: true, perLine: 5})
	g = randomGame(mill.NewGame(mill.MustRules("russian-mill")), 5, 31)
	add("multi.input", FromGame(g, Tag{"Event", "Multi"}, Tag{"Round", "5"}), inputStyle{numbers: true, perLine: 7})

	for name, b := range files {
		golden.Check(t, filepath.Join("testdata", name), []byte(b.String()))
	}
}
