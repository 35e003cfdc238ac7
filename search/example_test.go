package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// A search to a fixed depth: black blocks white within 9 plies with f6-f4
// (blockade-01 of the regression suite, proved by a separate minimax).
// "mate 5" counts black's own moves to the end.
func Example() {
	p := mill.MustParsePosition("nine-mens-morris WWB1WBBW/WBW1BW1B/WWB1B1B1 b 0,0 - 0 23")
	e := search.New(search.Options{}) // 64 MiB table, one thread, the preset's evaluation
	res := e.Search(context.Background(), []mill.Position{p}, search.Limits{Depth: 12}, nil)
	fmt.Println(p.MoveText(res.Move), search.ScoreText(res.Score))
	// Output:
	// f6-f4 mate 5
}

// A bot plays at a level: Choose adds the level's noise, depth and time to
// the search, and its random choices come from the rng given, so a seed
// gives the same game again.
func ExampleEngine_Choose() {
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	e := search.New(search.Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	for range 4 {
		res := e.Choose(context.Background(), g.Positions(), search.LevelFor(3), search.Limits{}, rng, nil)
		fmt.Print(g.Position().MoveText(res.Move), " ")
		if err := g.Play(res.Move); err != nil {
			panic(err)
		}
	}
	fmt.Println()
	// Output:
	// f6 g7 f2 g1
}
