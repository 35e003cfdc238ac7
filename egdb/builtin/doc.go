// Package builtin holds the endgame databases that every morris program
// carries, so that it plays them perfectly with no file to build or fetch:
// compact files of wins, draws and losses (egdb.WriteCompact) of nine men's
// morris with at most 10 pieces on the board and in its first 11 plies
// (the opening), and of six and seven men's morris whole. About 30 MB in
// all; docs/egdb.md ("Built in") says what each covers and how to make
// them again.
//
// Shelf puts them behind the databases an operator gives, so that those
// answer first and these answer the rest.
//
// Where things are:
//
//	builtin.go  the files (go:embed), Files, Shelf
//	data/       the compact files, one a preset, made by morris solve -compact
package builtin
