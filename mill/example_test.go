package mill_test

import (
	"errors"
	"fmt"

	"github.com/morrisgame/morris/mill"
)

func Example() {
	r, err := mill.NewRules("nine-mens-morris")
	if err != nil {
		panic(err)
	}
	g := mill.NewGame(r)
	for _, m := range []string{"a1", "b2", "d1", "d2", "g1xd2"} {
		if err := g.PlayText(m); err != nil {
			panic(err)
		}
	}
	p := g.Position()
	fmt.Println(p)
	fmt.Println(p.SideToMove(), "to move,", p.NumMoves(), "legal moves")
	// Output:
	// nine-mens-morris WWW5/B7/8 b 6,7 - 0 5
	// black to move, 20 legal moves
}

func ExampleNewRules() {
	r, err := mill.NewRules("nine-mens-morris", "flying=never", "protection=always")
	if err != nil {
		panic(err)
	}
	fmt.Println(r, "|", r.Variant(), r.Overrides())
	_, err = mill.NewRules("twelve-mens-morris", "board=standard24")
	fmt.Println(errors.Is(err, mill.ErrRules))
	// Output:
	// nine-mens-morris,flying=never,protection=always | nine-mens-morris [flying=never protection=always]
	// true
}

func ExamplePosition_Check() {
	p := mill.MustParsePosition("nine-mens-morris W1W4B/1W6/8 w 6,8 - 0 4")
	m, _ := p.Rules().Board().ParseMove("d1")
	fmt.Println(p.Check(m))
	m, _ = p.Rules().Board().ParseMove("D1,A4")
	fmt.Println(p.Check(m))
	// Output:
	// illegal move d1: the move closes a mill: name the piece to take, like d1xa4
	// <nil>
}

func ExamplePerft() {
	r := mill.MustRules("nine-mens-morris")
	for depth := 1; depth <= 4; depth++ {
		fmt.Println(depth, mill.Perft(r.Start(), depth))
	}
	// Output:
	// 1 24
	// 2 552
	// 3 12144
	// 4 255024
}

func ExampleBoard_MoveText() {
	b, _ := mill.BoardByID("standard24")
	m, _ := b.ParseMove("a4-a7xd2")
	fmt.Println(b.MoveText(m, mill.Standard), b.MoveText(m, mill.Pbm))
	// Output: a4-a7xd2 A4-A7,D2
}

// The points of a side are a set: Has asks for one, Len counts them, a
// range over All visits them in increasing order, and the set operators
// are Go's bit operators.
func ExamplePoints() {
	p := mill.MustParsePosition("nine-mens-morris W1W5/W7/B1B1B3 w 0,0 - 0 40")
	b := p.Rules().Board()
	white := p.Pieces(mill.White)
	b2, _ := b.PointByName("b2")
	fmt.Println(white.Len(), white.Has(b2))
	var names []string
	for pt := range white.All() {
		names = append(names, b.Name(pt))
	}
	fmt.Println(names)
	// Where b2 can slide: its neighbours that are empty.
	empty := p.Rules().All() &^ (white | p.Pieces(mill.Black))
	names = names[:0]
	for pt := range (b.Adjacent(b2) & empty).All() {
		names = append(names, b.Name(pt))
	}
	fmt.Println(names)
	// Output:
	// 3 true
	// [a1 g1 b2]
	// [d2 b4]
}
