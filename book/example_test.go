package book_test

import (
	"fmt"
	"strings"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/mill"
)

// A book of the four positions after white's first move, up to symmetry,
// scored for black to move; at the start, Lookup finds all 24 moves.
func ExampleBook_Lookup() {
	b, err := book.Parse(strings.NewReader(`# white placed one piece: black to move
nine-mens-morris 8/2W5/8 b 8,9 - 0 1 -7 12
nine-mens-morris 8/3W4/8 b 8,9 - 0 1 -11 12
nine-mens-morris 8/8/4W3 b 8,9 - 0 1 -7 12
nine-mens-morris 8/8/7W b 8,9 - 0 1 -5 12
`))
	if err != nil {
		panic(err)
	}
	p := mill.MustRules("nine-mens-morris").Start()
	var lines []string
	for _, e := range b.Lookup(p) {
		if n := len(lines); n > 0 && strings.HasPrefix(lines[n-1], fmt.Sprint(e.Score, ":")) {
			lines[n-1] += " " + p.MoveText(e.Move)
		} else {
			lines = append(lines, fmt.Sprintf("%d: %s", e.Score, p.MoveText(e.Move)))
		}
	}
	fmt.Println(strings.Join(lines, "\n"))
	e, _ := b.Choose(p, 0, nil)
	fmt.Println("chosen:", p.MoveText(e.Move))
	// Output:
	// 11: d2 f4 d6 b4
	// 7: a1 g1 g7 a7 b2 f2 f6 b6 c3 e3 e5 c5
	// 5: d1 g4 d7 a4 d3 e4 d5 c4
	// chosen: d2
}
