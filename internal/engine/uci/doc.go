// Package uci speaks the engine text protocol of docs/protocol.md: a UCI-like
// dialogue, one command a line, between a tool (a GUI, a tournament manager,
// a script) and the engine of package search.
//
// Run owns the dialogue. One goroutine reads the input and hands the lines
// to Run's goroutine, which answers every command in order; a search (or a
// perft) runs in a goroutine of its own, so that stop, isready and quit are
// answered while it thinks. Every line of output goes through one writer
// under a mutex, so lines never interleave, and each go is answered by
// exactly one bestmove. During a search, position is taken (it changes only
// what the next go searches), while go, setoption and ucinewgame are refused
// with an error until the search has answered.
//
// Where things are:
//
//	uci.go      Run, its options, the read loop, the writer, the session and its search job
//	command.go  the commands: uci, isready, setoption, ucinewgame, position, go (and go perft), stop, quit;
//	            the info lines of a search
package uci
