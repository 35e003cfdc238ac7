// Package search is the engine's search: iterative deepening principal
// variation search (PVS) with a transposition table shared by several
// threads (lazy SMP), move ordering (the table's move, captures, blocks of
// the opponent's mills, killers, history), late move reductions, a
// quiescence search over captures, draws by repetition and no progress
// inside the tree, endgame database probes, and time control through
// context deadlines. testdata/suite.txt is its regression suite of proved
// positions (TestSuite; docs/search.md).
//
//	search.go  the engine, iterative deepening, PVS, quiescence
//	tt.go      the transposition table (two atomic words an entry: no locks, no races)
//	order.go   move ordering
//	time.go    limits and time management
//	level.go   playing levels 1 to 10
//	score.go   scores, mate distances and their text
package search
