package review_test

import (
	"context"
	"fmt"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/review"
	"github.com/morrisgame/morris/search"
)

// Review a move at depth 10. In this position (blockade-02 of the search's
// regression suite, proved by a separate minimax) only b6-d6 keeps white
// from being shut in within 8 plies; white plays c3-c4.
func ExampleGame() {
	p := mill.MustParsePosition("nine-mens-morris WWB1WBBW/WB1WB1WB/WWBB2B1 w 0,0 - 0 20")
	g := mill.NewGame(p.Rules(), mill.FromPosition(p))
	if err := g.PlayText("c3-c4"); err != nil {
		panic(err)
	}
	e := search.New(search.Options{})
	moves, err := review.Game(context.Background(), e, g, search.Limits{Depth: 10}, nil)
	if err != nil {
		panic(err)
	}
	for _, m := range moves {
		fmt.Printf("%s%s (best %s): %s\n", m.Before.MoveText(m.Played), m.Mark, m.Before.MoveText(m.Best), m.Note)
		fmt.Println("after it:", search.ScoreText(m.PlayedScore), "for", m.Side)
	}
	// Output:
	// c3-c4?? (best b6-d6): walks into a forced loss
	// after it: mate -4 for white
}
