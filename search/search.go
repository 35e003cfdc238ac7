package search

import (
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

// MaxPly is the deepest the search goes.
const MaxPly = 100

// Options configure an Engine.
type Options struct {
	HashMB    int           // transposition table size in MiB (default 64)
	Threads   int           // search threads (default 1)
	Weights   *eval.Weights // evaluation, copied at the start of each search (default eval.For the rules of its root)
	Tablebase Tablebase     // endgame databases, or nil
	Noise     func(int) int // added to the evaluation (weak levels), or nil
	Book      *book.Book    // the opening book Choose plays from (levels BookLevel and up), or nil

	// driver chooses how each iteration searches the root: PVS with
	// aspiration windows (the default), or MTD(f) (kept for the measurement
	// that chose between them: docs/search.md).
	driver int
}

const (
	driverPVS = iota
	driverMTDF
)

// Info reports a finished iteration.
type Info struct {
	Depth    int
	SelDepth int
	Score    int
	Nodes    uint64
	Time     time.Duration
	PV       []mill.Move
	TBHits   uint64
}

// Result is the outcome of a search.
type Result struct {
	Move  mill.Move // zero if the game is over
	Score int
	Depth int
	Nodes uint64
	PV    []mill.Move
}

// Engine searches positions. It is not safe for concurrent searches; one
// Search at a time may run (it uses several threads itself).
type Engine struct {
	opts    Options
	tt      *table
	workers []*worker
	stop    atomic.Bool
	// press is set while Choose plays a move within a time: a position
	// the databases call drawn is not cut off with 0 but searched on, its
	// wins and losses still exact where the databases hold them. Every
	// such position is a draw with best play, but not every one is as easy
	// to hold: among the moves that keep the draw the engine takes the one
	// its search likes best, which leaves the opponent the most to get
	// wrong, while a proved win or loss outweighs any of them. Analysis
	// (Search, and Choose asked for a depth or nodes) scores them 0.
	press bool
	// noTablebase is set while Choose plays at a level below
	// TablebaseLevel: the search reads no databases.
	noTablebase bool
	// deadline is the context's deadline during a Search, zero otherwise;
	// read only where pollClock (clock_js.go).
	deadline time.Time
}

// New returns an engine.
func New(o Options) *Engine {
	if o.HashMB <= 0 {
		o.HashMB = 64
	}
	if o.Threads <= 0 {
		o.Threads = 1
	}
	e := &Engine{opts: o, tt: newTable(o.HashMB)}
	for i := 0; i < o.Threads; i++ {
		e.workers = append(e.workers, newWorker(e, i))
	}
	return e
}

// weights returns the evaluation for a search under rules r.
func (e *Engine) weights(r *mill.Rules) eval.Weights {
	if e.opts.Weights != nil {
		return *e.opts.Weights
	}
	return eval.For(r)
}

// Options returns the engine's options.
func (e *Engine) Options() Options { return e.opts }

// Clear forgets everything learned: the table, killers and history (a new game).
func (e *Engine) Clear() {
	e.tt.clear()
	for _, w := range e.workers {
		w.killers = [MaxPly + 1][2]mill.Move{}
		w.history = [2][33][33]int32{}
	}
}

type frame struct {
	pos    mill.Position
	key    uint64
	moves  []mill.Move
	scores []int32
}

// stackSize is the plies of a worker's stack: the search's and the
// quiescence's below it.
const stackSize = MaxPly + maxQPly + 2

type worker struct {
	e         *Engine
	id        int
	nodes     atomic.Uint64
	tbHits    atomic.Uint64
	stack     [stackSize]frame
	killers   [MaxPly + 1][2]mill.Move
	history   [2][33][33]int32
	pv        [MaxPly + 1][MaxPly + 1]mill.Move
	pvLen     [MaxPly + 1]int
	game      []uint64 // keys of the game's reversible positions before the root
	rootPly   int
	selDepth  int
	maxNodes  uint64
	weights   eval.Weights
	tb        Tablebase
	drawAfter int // the root's no-progress draw (plies), 0 if none
	press     bool
	noise     func(int) int
	rootMove  mill.Move // the last root move of this iteration that raised alpha
	rootDepth int       // the depth of the iteration: extensions stop at twice it

	// The sums of the evaluation's nets by ply (eval.Accumulator), [0]
	// for its Net and [1] for its PlacingNet, and whether those of a ply
	// are the sums of the ply's position: setPos clears that, and evaluate
	// brings them up to date from the nearest ply above that has them.
	acc   [2][stackSize]eval.Accumulator
	accOK [2][stackSize]bool
	// scratchNets makes evaluate sum the nets' inputs afresh at every
	// position (Weights.Evaluate): tests compare the two ways.
	scratchNets bool

	// The root's rules, as the quiescence search and the ordering need
	// them: a mill wins the game (mill-wins); a placement's mill takes
	// from the opponent's hand (placing-captures=hand), a capture that
	// names no piece; a blocked side removes a piece (blocked=removes).
	millWins, handTakes, blockedRemoves bool
}

func newWorker(e *Engine, id int) *worker {
	w := &worker{e: e, id: id}
	for i := range w.stack {
		w.stack[i].moves = make([]mill.Move, 0, 256)
		w.stack[i].scores = make([]int32, 256)
	}
	return w
}

func (w *worker) stopped() bool {
	n := w.nodes.Add(1)
	if n&1023 == 0 && w.maxNodes > 0 && n >= w.maxNodes {
		w.e.stop.Store(true)
	}
	if pollClock && n&1023 == 0 && !w.e.deadline.IsZero() && time.Now().After(w.e.deadline) {
		w.e.stop.Store(true)
	}
	return w.e.stop.Load()
}
