package review_test

import (
	"context"
	"fmt"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/review"
	"github.com/morrisgame/morris/search"
)

// Review the first moves of a game at depth 8 and print the marked moves:
// white has two in a row on a1-a4, and black's g1 leaves a7 open, where
// white closes the mill. (At depth 8 the evaluation also finds the corner
// a1 worse than the midpoint b4 by some 60 hundredths, still an
// inaccuracy at this scale, though every first placement draws: a mark is
// only as right as the search behind it.)
func ExampleGame() {
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	for _, m := range []string{"a1", "d6", "a4", "g1"} {
		if err := g.PlayText(m); err != nil {
			panic(err)
		}
	}
	e := search.New(search.Options{})
	moves, err := review.Game(context.Background(), e, g, search.Limits{Depth: 8}, nil)
	if err != nil {
		panic(err)
	}
	for _, m := range moves {
		if m.Mark != review.Good {
			fmt.Printf("%d. %s%s %s (best %s): %s's winning chances %+.2f, then %+.2f\n", m.Ply+1, m.Before.MoveText(m.Played), m.Mark, m.Mark.Name(),
				m.Before.MoveText(m.Best), m.Side, review.Chances(m.BestScore, m.Scale), review.Chances(m.PlayedScore, m.Scale))
		}
	}
	// Output:
	// 1. a1?! inaccuracy (best b4): white's winning chances +0.32, then +0.07
	// 3. a4?! inaccuracy (best f4): white's winning chances +0.05, then -0.18
	// 4. g1? mistake (best a7): black's winning chances +0.31, then -0.06
}
