// Package builtin holds the endgame databases that every morris program
// carries, so that it plays them perfectly with no file to build or fetch:
// compact files of wins, draws and losses (egdb.WriteCompact) of nine men's
// morris with at most 10 pieces on the board and in its first 11 plies
// (the opening), of six and seven men's morris whole, and of the small
// endgames of every other way of playing the moving phase that has
// databases (twelve men's morris on its boards, mill, cheng san qi, el
// filja: up to 10, 9 or 8 pieces, as the size allows). About 50 MB in
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
