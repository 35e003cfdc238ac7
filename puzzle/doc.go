// Package puzzle makes puzzles from perfect play: positions of the endgame
// databases (package egdb) where exactly one move wins, with the line that
// follows: the winning move, the best defence (the slowest loss), the only
// winning reply, and so on while the winning side has one winning move
// (each of the solver's moves is an only move, so a solver who plays
// another one has failed), up to the end of the game or until the winning
// side may choose among several wins: by then the win is clear. A drawn
// position where every move but one loses makes a puzzle too: find the
// move that saves the draw. Positions come from random draws in the
// databases' sectors (Find) or from the games played on a server (Of).
//
// Puzzles are never written by hand: `morris puzzles` makes them into the
// server's database, and the server serves them (internal/server). A new
// server starts with the puzzles built into the program (Builtin), made
// the same way from our own databases of the whole game.
//
// Where things are:
//
//	puzzle.go   Puzzle, Options, Find, Make, MakeDraw, Of
//	text.go     the text form of a list of puzzles: Write, Read
//	builtin.go  Builtin: the puzzles of data/, embedded in the program
//	data/       puzzles made by morris puzzles -o from our databases, one file a rule set
package puzzle
