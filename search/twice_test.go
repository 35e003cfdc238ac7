package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search/suite"
)

// twicePositions are positions of the regional presets (and Shah) where the
// side to move moves twice or more in a row, or where a mill takes from the
// hand (dooz), with the moves that win or that alone keep the best material.
// The suite's prover (search/suite), which shares nothing with the engine but
// the rules, proves each answer on every run. Found by random set-ups and
// the prover; each one fooled the search that negated every child's score.
var twicePositions = []struct {
	name, pos string
	depth     int      // the prover's depth
	plies     int      // a forced win in this many plies; 0: best material at depth
	best      []string // every move that does it
	twice     bool     // the best moves are followed by another move of the same side
	depths    []int    // the engine's depths; nil: one more than the prover's (or the win's)
	mate      string   // a forced win: the score as the protocol prints it, the winner's own moves counted
}{
	// White owes two removals and black one: white removes twice, black
	// once, and then white closes a mill before black can, leaving it two.
	{"el-filja: two removals in a row", "el-filja 8/3BWWBW/BB3BWW w 0,0 xw2,xb 0 40", 6, 6, []string{"xb6", "xc3"}, true, nil, "mate 4"},
	// Black places the last piece, the marked pieces leave, and black
	// moves first (second-moves-first): a4 and then a mill by a slide.
	{"da-san-qi: the last placer moves first", "da-san-qi W1X2XB1/BBXBWW1X/WXXX2X1 b 0,1 - 0 40", 4, 4, []string{"a4"}, true, nil, "mate 3"},
	// Shah: nobody formed a mill, so black, who places last, removes too;
	// only d2 wins.
	{"shah: the last placer removes", "shah B1B5/3W1W2/BWB4W b 0,1 - 0 40", 4, 4, []string{"d2"}, true, nil, "mate 3"},
	// Zhi qi: white cannot move and removes a black piece next to its own,
	// then moves; only xa4 opens the way to a mill that wins two pieces.
	{"zhi-qi: a blocked side removes, then moves", "zhi-qi 3BWBWB/B3B1BW/B5BW w 0,0 - 0 40", 4, 0, []string{"xa4"}, true, nil, ""},
	// Dooz: c5 makes two threats; each mill takes from black's hand, the
	// second leaves black two pieces.
	{"dooz: mills take from the hand", "dooz B7/4B3/5W1W w 2,1 - 0 40", 5, 3, []string{"c5"}, false, nil, "mate 2"},
	// Dooz: black's a7 d7 threaten g7, which would take from white's hand
	// and leave white two pieces: only g7 does not lose. At depth 1 only the
	// quiescence search can see it.
	{"dooz: block a mill that takes from the hand", "dooz 5BB1/W7/8 w 2,3 - 0 10", 2, 0, []string{"g7"}, false, []int{1, 3}, ""},
	// Cheng san qi: black's three pieces do not fly, and e3-d3 shuts them in.
	{"cheng-san-qi: three do not fly", "cheng-san-qi 2BB3W/6WW/W1WW3B w 0,0 - 0 40", 3, 3, []string{"e3-d3"}, false, nil, "mate 2"},
}

// TestTwice checks the answers of twicePositions with the prover, and that
// the engine finds them: its search (with the proved distance of a forced
// win) and levels 8 to 10, whose choice among the root moves scores each of
// them again.
func TestTwice(t *testing.T) {
	pr := suite.NewProver(0)
	for _, tc := range twicePositions {
		t.Run(tc.name, func(t *testing.T) {
			p, err := mill.ParsePosition(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			v, best, _ := pr.Best(p, tc.depth, nil)
			var texts []string
			for _, m := range best {
				texts = append(texts, p.MoveText(m))
				if again := p.Play(m).SideToMove() == p.SideToMove(); again != tc.twice {
					t.Errorf("%s: after %s the same side moves again: %v, want %v", tc.pos, p.MoveText(m), again, tc.twice)
				}
			}
			slices.Sort(texts)
			want := slices.Sorted(slices.Values(tc.best))
			if !slices.Equal(texts, want) {
				t.Fatalf("%s: the prover's best moves at depth %d are %v (value %d), want %v", tc.pos, tc.depth, texts, v, want)
			}
			switch {
			case tc.plies > 0 && (!suite.IsWin(v) || suite.Win-v != tc.plies):
				t.Fatalf("%s: the prover's value at depth %d is %d, want a win in %d", tc.pos, tc.depth, v, tc.plies)
			case tc.plies == 0 && suite.IsWin(v):
				t.Fatalf("%s: the prover finds a win (%d): say so in plies", tc.pos, v)
			}

			depths := tc.depths
			if depths == nil {
				depths = []int{max(tc.depth, tc.plies) + 1}
			}
			e := New(Options{HashMB: 4})
			for _, depth := range depths {
				e.Clear()
				res := e.Search(context.Background(), []mill.Position{p}, Limits{Depth: depth}, nil)
				if got := p.MoveText(res.Move); !slices.Contains(tc.best, got) {
					t.Errorf("%s: depth %d: got %s (%s), want one of %v", tc.pos, depth, got, ScoreText(res.Score), tc.best)
				}
				switch {
				case tc.plies > 0 && (res.Score < 0 || !IsMate(res.Score) || MatePlies(res.Score) != tc.plies):
					t.Errorf("%s: depth %d: score %d (%s), want a win in %d plies", tc.pos, depth, res.Score, ScoreText(res.Score), tc.plies)
				case tc.plies == 0 && IsMate(res.Score):
					t.Errorf("%s: depth %d: score %s, want no forced end", tc.pos, depth, ScoreText(res.Score))
				}
				if got := ScoreTextAlong(p, res.PV, res.Score); tc.mate != "" && got != tc.mate {
					t.Errorf("%s: depth %d: the score printed along the line %s is %q, want %q (ScoreText, alternating: %q)",
						tc.pos, depth, pvString(p, res.PV), got, tc.mate, ScoreText(res.Score))
				}
			}
			depth := depths[len(depths)-1]
			for n := 8; n <= 10; n++ {
				e.Clear()
				rng := rand.New(rand.NewPCG(5, uint64(n)))
				res := e.Choose(context.Background(), []mill.Position{p}, LevelFor(n), Limits{Depth: depth}, rng, nil)
				if got := p.MoveText(res.Move); !slices.Contains(tc.best, got) {
					t.Errorf("%s: level %d: got %s (%s), want one of %v", tc.pos, n, got, ScoreText(res.Score), tc.best)
				}
			}
		})
	}
}

// TestSameSideResetsQuiet checks what the search's repetition test relies on
// (repeated in alphabeta.go steps back two plies at a time, and compares only
// the positions since the last placement or capture): a move after which the
// same side moves again is a placement or a removal, so it resets the
// no-progress count, and between two resets the sides alternate. Random
// games of every preset, and the positions of twicePositions.
func TestSameSideResetsQuiet(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	rng := rand.New(rand.NewPCG(7, 11))
	var buf []mill.Move
	for _, v := range mill.Variants() {
		r := mill.MustRules(v.ID)
		twice := 0
		for gi := 0; gi < games; gi++ {
			g := mill.NewGame(r, mill.WithSeed(uint64(gi)))
			for g.Outcome() == mill.NoOutcome && len(g.Moves()) < 300 {
				p := g.Position()
				buf = p.Moves(buf[:0])
				m := buf[rng.IntN(len(buf))]
				if c := p.Play(m); c.SideToMove() == p.SideToMove() {
					twice++
					if c.Quiet() != 0 {
						t.Fatalf("%s: after %s the same side moves again with the no-progress count at %d", p, p.MoveText(m), c.Quiet())
					}
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
		}
		t.Logf("%s: %d moves followed by a move of the same side", v.ID, twice)
	}
	// A blocked side's removal (zhi qi) is rare in random games.
	for _, tc := range twicePositions {
		p := mill.MustParsePosition(tc.pos)
		for _, m := range p.Moves(nil) {
			if c := p.Play(m); c.SideToMove() == p.SideToMove() && c.Quiet() != 0 {
				t.Errorf("%s: after %s the same side moves again with the no-progress count at %d", p, p.MoveText(m), c.Quiet())
			}
		}
	}
}

// pvString is a line in the standard notation.
func pvString(p mill.Position, pv []mill.Move) string {
	var texts []string
	for _, m := range pv {
		if !p.Legal(m) {
			texts = append(texts, "(illegal)")
			break
		}
		texts = append(texts, p.MoveText(m))
		p = p.Play(m)
	}
	return strings.Join(texts, " ")
}

// TestScoreTextAlong: "mate N" counts the mover's moves along the line and,
// past a line cut short, as if the sides alternated; a score that is no
// mate, or a line that does not start legally, prints as ScoreText does.
func TestScoreTextAlong(t *testing.T) {
	// Black places last and then moves first: black, black, white, black.
	p := mill.MustParsePosition("da-san-qi W1X2XB1/BBXBWW1X/WXXX2X1 b 0,1 - 0 40")
	e := New(Options{HashMB: 4})
	res := e.Search(context.Background(), []mill.Position{p}, Limits{Depth: 5}, nil)
	if len(res.PV) < 4 || MatePlies(res.Score) != 4 {
		t.Fatalf("want a win in 4 plies with its line, got %s %s", ScoreText(res.Score), pvString(p, res.PV))
	}
	for _, tc := range []struct {
		n     int // plies of the line given
		score int
		want  string
	}{
		{4, Mate - 4, "mate 3"},
		{2, Mate - 4, "mate 3"},   // black, black; then white, black
		{1, Mate - 4, "mate 3"},   // black; black again to move, then black, white, black
		{0, Mate - 4, "mate 2"},   // no line: ScoreText
		{4, -Mate + 4, "mate -3"}, // the same line read as a loss counts the same moves
		{4, 35, "cp 35"},
	} {
		if got := ScoreTextAlong(p, res.PV[:tc.n], tc.score); got != tc.want {
			t.Errorf("%d plies of %s, score %d: got %q, want %q", tc.n, pvString(p, res.PV), tc.score, got, tc.want)
		}
	}
	if got := ScoreTextAlong(p, []mill.Move{{}}, Mate-4); got != ScoreText(Mate-4) {
		t.Errorf("an illegal line: got %q, want %q", got, ScoreText(Mate-4))
	}
	// Where the sides alternate, it is ScoreText.
	q := mill.MustParsePosition("cheng-san-qi 2BB3W/6WW/W1WW3B w 0,0 - 0 40")
	res = e.Search(context.Background(), []mill.Position{q}, Limits{Depth: 4}, nil)
	if got, want := ScoreTextAlong(q, res.PV, res.Score), ScoreText(res.Score); got != want || want != "mate 2" {
		t.Errorf("cheng san qi: got %q, ScoreText %q, want both mate 2", got, want)
	}
}
