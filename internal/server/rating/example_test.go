package rating_test

import (
	"fmt"

	"github.com/morrisgame/morris/internal/server/rating"
)

// Glickman's worked example: a player rated 1500, RD 200, plays three
// games in one rating period. (The paper, rounding as it goes, prints
// 1464.06, 151.52 and 0.05999.)
func ExampleUpdate() {
	player := rating.Rating{R: 1500, RD: 200, Sigma: 0.06}
	results := []rating.Result{
		{Opponent: rating.Rating{R: 1400, RD: 30}, Score: 1},
		{Opponent: rating.Rating{R: 1550, RD: 100}, Score: 0},
		{Opponent: rating.Rating{R: 1700, RD: 300}, Score: 0},
	}
	after, err := rating.Update(player, results, 0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f %.2f %.6f\n", after.R, after.RD, after.Sigma)
	// Output:
	// 1464.05 151.52 0.059996
}

// Two newcomers play one game, rated at once; the winner gains what the
// loser drops, and both stay provisional.
func ExampleGame() {
	alice, bob := rating.Default(), rating.Default()
	alice, bob, err := rating.Game(alice, bob, 1, rating.DefaultTau)
	if err != nil {
		fmt.Println(err)
		return
	}
	lo, hi := alice.Interval()
	fmt.Printf("alice %.0f (%.0f–%.0f) provisional %v\n", alice.R, lo, hi, alice.Provisional())
	fmt.Printf("bob   %.0f provisional %v\n", bob.R, bob.Provisional())
	// Output:
	// alice 1662 (1093–2231) provisional true
	// bob   1338 provisional true
}
