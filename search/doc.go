// Package search is the engine's search: iterative deepening principal
// variation search (PVS) with a transposition table shared by several
// threads (lazy SMP), move ordering (the table's move, captures, blocks of
// the opponent's mills, killers, history), late move reductions, a ply more
// for a side with one or two moves (a blockade closing in), a quiescence
// search over captures (over the moves that close a mill where a mill wins
// the game, as in three men's morris), draws by repetition and no progress
// inside the tree, endgame database probes, the opening book, and time control
// through context deadlines. Where the same side moves twice in a row (removals
// owed when placing ends, a blocked side's removal, the second player moving
// first) a child's score and window are the parent's, not negated (window in
// alphabeta.go; docs/search.md). testdata/suite.txt is its regression suite of
// proved positions (TestSuite; docs/search.md), written and audited by the
// package search/suite, which does not import this one.
//
// Where things are:
//
//	search.go     the engine: options, results, the workers and their stacks, the node count
//	root.go       Search: iterative deepening at the root, lazy SMP, aspiration windows (MTD(f) kept)
//	alphabeta.go  the principal variation search of a node, repetitions, the table's scores
//	prune.go      what the search cuts and stretches: late move reductions, the low-mobility extension
//	quiesce.go    the quiescence search (captures, closing moves, removals), Quiesce for tuning
//	tablebase.go  Tablebase (what the search needs of egdb's databases) and its probes
//	evaluate.go   the evaluation at a node, the nets' sums kept ply by ply
//	tt.go         the transposition table (two atomic words an entry: no locks, no races)
//	order.go      move ordering: scores, and the moves taken best first
//	time.go       limits and time management
//	clock_js.go   under js/wasm (the engine in the browser) the search reads the clock itself: no
//	              goroutine runs beside it there (clock_other.go: elsewhere it does not)
//	level.go      playing levels 1 to 10, and the book's moves (Choose)
//	score.go      scores, mate distances and their text
package search
