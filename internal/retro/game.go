package retro

// Ref names a position: a sector and an index in it.
type Ref struct {
	Sector int
	Index  int64
}

// Child is the position after one move. A move that ends the game at once
// has End set and no position: Value is then the value of the end for the
// side to move after the move (usually LossIn(0)).
type Child struct {
	Ref
	End   bool
	Value Value
}

// Game is a game split into sectors: dense ranges of position indices
// 0..Size-1, numbered 0..NumSectors-1. Positions are those of the side to
// move; a game that normalises the side to move (by swapping colours, say)
// does so inside its indices.
type Game interface {
	NumSectors() int
	// Name names a sector for messages and progress.
	Name(s int) string
	// Size returns the number of indices of sector s. Some indices may be
	// no position (duplicates of a symmetric position): Children says so.
	Size(s int) int64
	// Deps returns the sectors that children of positions of s may lie in,
	// s itself included if a move can stay in s.
	Deps(s int) []int
	// NewWorker returns a Worker for one goroutine.
	NewWorker() Worker
}

// Worker does the work on single positions; each goroutine has its own.
type Worker interface {
	// Children appends the children of position i of sector s to dst and
	// returns it. Every move gives one child; moves that lead to the same
	// position may give it more than once. A position without moves returns
	// no children and end, the value of the end of the game there for the
	// side to move. valid is false if i is no position: its value is not
	// computed, not counted, and stays Draw.
	Children(s int, i int64, dst []Child) (children []Child, end Value, valid bool)
	// Parents appends to dst the positions that have position i of sector s
	// as a child: every such parent in a sector of the same component (see
	// Components) at least once, and no position that is not a parent.
	// Parents in other sectors may be left out: the solver ignores them. It
	// is called only for valid positions.
	Parents(s int, i int64, dst []Ref) []Ref
}
