package pbm_test

import (
	"errors"
	"fmt"

	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
	"github.com/morrisgame/morris/mill"
)

func ExampleParse() {
	c, err := pbm.Parse("nmm move 101 ann chocolate a7-d7xb2#23")
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Verb, c.Game, c.Board, c.User, c.MoveNumber)
	fmt.Println(c)

	_, err = pbm.Parse("nmm move 10 ann chocolate D2")
	fmt.Println(err, errors.Is(err, pbm.ErrSyntax))
	// Output:
	// move nine-mens-morris 101 ann 23
	// nmm move 101 ann chocolate A7-D7,B2#23
	// nmm move: BOARD "10": want a board number, 101 or more true
}

func ExampleParse_challenge() {
	c, err := pbm.Parse("tmm challenge ann chocolate bob --nagtime=3 -flying=never")
	if err != nil {
		panic(err)
	}
	r, err := mill.NewRules(c.Game, c.Rules...)
	if err != nil {
		panic(err)
	}
	fmt.Println(r, c.Timers.NagDays)
	// Output: twelve-mens-morris,flying=never 3
}

func ExampleBoard() {
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	for _, m := range []string{"D2", "D6"} {
		if err := g.PlayText(m); err != nil {
			panic(err)
		}
	}
	moves := g.Moves()
	fmt.Print(pbm.Board(g.Position(), pbm.Header{Board: 101, White: "ann", Black: "bob", LastMove: moves[len(moves)-1]}))
	// Output:
	// nmm board 101: nine-mens-morris
	// White (W) ann: 1 on the board, 8 in hand
	// Black (B) bob: 1 on the board, 8 in hand
	//
	// 1  .-----------.-----------.
	//    |           |           |
	// 2  |   .-------W-------.   |
	//    |   |       |       |   |
	// 3  |   |   .---.---.   |   |
	//    |   |   |       |   |   |
	// 4  .---.---.       .---.---.
	//    |   |   |       |   |   |
	// 5  |   |   .---.---.   |   |
	//    |   |       |       |   |
	// 6  |   .-------B-------.   |
	//    |           |           |
	// 7  .-----------.-----------.
	//    A   B   C   D   E   F   G
	//
	// Last move (#2): D6
	// Move 3: White (W) ann to move: place a piece
}
