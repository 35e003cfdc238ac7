package record_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// Read the records of a stream and replay each game.
func Example() {
	const text = `[Event "Club night"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]
[Termination "resignation"]

1. d6 d5 2. f6 a7 {Black misses the threat.} 3. b6xa7 1-0

[Event "Club night"]
[White "Bob"]
[Black "Ann"]
[Result "*"]

1. D6 D5 2. F6 A7 3. B6,D5 D6 *
`
	sc := record.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		rec := sc.Record()
		g, err := rec.Game()
		if err != nil {
			fmt.Printf("%s-%s: %v\n", rec.Tag("White"), rec.Tag("Black"), err)
			continue
		}
		fmt.Printf("%s-%s: %s\n", rec.Tag("White"), rec.Tag("Black"), record.Summary(g))
	}
	if err := sc.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Ann-Bob: 5 moves, 1-0 by resignation
	// Bob-Ann: line 14: move 3... D6: illegal: d6 is occupied
}

// Check every game of a stream, as morris replay does.
func ExampleReplay() {
	const text = `[Variant "shah"]
[Seed "1"]

1. c4 d1 2. f6 b2 {and so on} *

[Event "Typo"]

1. d6 d5 2. f6 a7 3. b6 *
`
	err := record.Replay(strings.NewReader(text), os.Stdout)
	fmt.Println(err)
	// Output:
	// game 1: 4 moves, * (unfinished), ok
	// game 2: line 8: move 3. b6: illegal: the move closes a mill: name the piece to take, like b6xa7
	// record: 1 of 2 games have errors
}

// Write the record of a game.
func ExampleFromGame() {
	g := mill.NewGame(mill.MustRules("nine-mens-morris", "flying=never"))
	for _, m := range []string{"d6", "d5", "f6", "a7", "b6xa7"} {
		if err := g.PlayText(m); err != nil {
			fmt.Println(err)
		}
	}
	if err := g.Resign(mill.Black); err != nil {
		fmt.Println(err)
	}
	rec := record.FromGame(g, record.Tag{Name: "White", Value: "Ann"}, record.Tag{Name: "Black", Value: "Bob"})
	w := record.NewWriter(os.Stdout)
	if err := w.Write(rec); err != nil {
		fmt.Println(err)
	}
	w.Flush()
	// Output:
	// [Event "?"]
	// [Site "?"]
	// [Date "????.??.??"]
	// [Round "?"]
	// [White "Ann"]
	// [Black "Bob"]
	// [Result "1-0"]
	// [Variant "nine-mens-morris"]
	// [Rules "flying=never"]
	// [Termination "resignation"]
	//
	// 1. d6 d5 2. f6 a7 3. b6xa7 1-0
}
