// Package retro is a retrograde-analysis solver for two-player games whose
// positions fall into sectors. It knows nothing of any particular game: a
// Game tells it how big each sector is, which sectors each one can move
// into, the children of a position, and the parents of a position within
// its own group of mutually dependent sectors. It returns, for every
// position, a Value: win, loss or draw for the side to move, with the
// distance to the end of the game in plies (the fastest win, the slowest
// loss).
//
// Where things are:
//
//	value.go       Value: the encoding of win/draw/loss and distance, Combine
//	game.go        the Game and Worker interfaces, Ref and Child; Visitor, an order of the game's own;
//	               Distinct, moves listed without repeats
//	order.go       Components: the groups of mutually dependent sectors, in solving order
//	solve.go       SolveComponent: retrograde analysis of one group, by distance levels
//	verify.go      Verify: every value re-derived from its children's values, separately
//	checkpoint.go  the solver's state of a component saved on disk (synced, renamed, CRC-64), so that a
//	               solve killed in the middle goes on from the end of the last pass or level saved, not the start
//
// The algorithm (solve.go): every position of the group is first evaluated
// forwards once: its children inside the group are counted (duplicates once),
// and its children outside the group, already solved, are looked up. Then
// the positions are settled level by level, level d being the positions that
// end the game in d plies: a settled loss makes each parent a win at d+1 (if
// it has no faster win), a settled win takes one from each parent's count of
// children not yet known to win, and a parent whose count reaches zero is a
// loss one ply after its slowest child. What is never settled is a draw.
// Positions reached only through cycles are exactly these draws.
//
// The forward pass visits a sector's positions in the order of their
// indices, or in an order the game chooses (Visitor) so that consecutive
// positions look up children that lie close together: the lookups are
// reads from GBs of solved sectors, and a read that the caches hold costs
// a fraction of one from memory.
//
// Verify (verify.go) does not trust the solver: it recomputes every value
// from the stored values of the children with Combine. An assignment that
// passes is the true one: wins and losses are proved by their strictly
// decreasing distances down to ends of the game, and a draw that was really
// a win or a loss would have, among the proved positions, a child that
// gives it away.
package retro
