package egdb_test

import (
	"context"
	"fmt"
	"os"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

// Build the endgame databases of three pieces against three in nine men's
// morris (170 thousand positions, a few seconds), open them, and
// ask for the value of a position and the move that keeps it.
func Example() {
	dir, err := os.MkdirTemp("", "egdb-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	r := mill.MustRules("nine-mens-morris")
	b := egdb.Builder{Rules: r, Dir: dir, Keys: []egdb.Key{{White: 3, Black: 3}}}
	if _, err := b.Build(context.Background()); err != nil {
		panic(err)
	}
	db, err := egdb.Open(dir) // under the rules the files were built for
	if err != nil {
		panic(err)
	}
	defer db.Close()

	// White, to move, has a1 and g1 and flies b2 to d1: the mill takes
	// black's third piece. Black threatened the same on d3.
	p := mill.MustParsePosition("nine-mens-morris W1W5/W7/B1B1B3 w 0,0 - 0 40")
	v, ok := db.Value(p)
	fmt.Println(ok, v)
	m, v, _ := db.BestMove(p)
	fmt.Println(p.MoveText(m), v)
	// Output:
	// true win in 1
	// b2-d1xc3 win in 1
}
