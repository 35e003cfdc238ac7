// Package mill is the rules core of Morris: every Mill variant of the rule
// sheets, exact, fast, and from data. It imports the standard library only.
//
// Where things are:
//
//	board.go     boards as data (points, edges, lines, drawing coordinates, symmetries)
//	points.go    Points: a set of a board's points (Has, Len, All)
//	options.go   the rule options: names, defaults, doc lines, validation
//	variants.go  the named presets (docs/rules.md, "Presets")
//	rules.go     Rules: a preset with overrides, compiled into tables
//	position.go  Position (a small comparable value), Play, hash keys
//	move.go      Move: one whole turn, its captures included (a small comparable value); its kinds
//	zobrist.go   the Zobrist keys behind the hash keys: fixed, the same in every build, so keys can be stored
//	symmetry.go  a position under the board's symmetries: Transform, Canonical (one image for books and databases)
//	movegen.go   legal move generation (place, slide, fly, captures, removals, passes)
//	status.go    outcomes and how a game ended
//	game.go      Game: history, repetition, the lot for the first player, resignation
//	notation.go  move text in the standard and pbmserv dialects, legality explained
//	postext.go   position text
//	diagram.go   the board drawn as text, in both orientations
//	perft.go     perft, divide, and perft broken down by kind of move
//	errors.go    the sentinel errors (ErrSyntax, ErrIllegalMove, ErrGameOver, ...), SyntaxError, MoveError
//
// mill/milltest is random play for the tests of the packages above mill
// (a random move, a playout, a game, positions of random games).
//
// A typical use:
//
//	r, err := mill.NewRules("nine-mens-morris", "flying=never")
//	g := mill.NewGame(r)
//	err = g.PlayText("d6")
//	p := g.Position()
//	for _, m := range p.Moves(nil) { fmt.Println(p.MoveText(m)) }
package mill
