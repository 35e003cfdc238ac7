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

// Visitor may be implemented by a Game whose workers can visit the
// positions of some sectors in an order of their own (VisitWorker), in
// which the count pass runs instead of the order of the indices: an order
// in which consecutive positions have their children close together reads
// the values of solved sectors from the caches instead of from memory.
type Visitor interface {
	// Visits returns the number of visits of sector s (VisitWorker.Visit's
	// j runs over 0..Visits-1), or 0 to count s in the order of its
	// indices.
	Visits(s int) int64
}

// VisitWorker is the Worker of a Visitor.
type VisitWorker interface {
	// Visit is Children for the j-th visit of sector s: it returns the
	// index i of the position visited, and valid false if the visit is
	// none. Every position of s (a valid index) must be visited exactly
	// once; indices never visited are no position.
	Visit(s int, j int64, dst []Child) (i int64, children []Child, end Value, valid bool)
}

// Distinct may be implemented by a Game whose Children list every child
// inside the component once and whose Parents list every parent once,
// where the Worker's contract allows repeats: the solver then counts them
// as they come instead of sorting them to drop the repeats.
type Distinct interface {
	DistinctMoves() bool
}
