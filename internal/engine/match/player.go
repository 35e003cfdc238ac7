package match

import (
	"context"
	"errors"
	"github.com/morrisgame/morris/book"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// Player chooses moves. A match makes one Player of each side per parallel
// game slot and reuses it for the games of that slot, so a Player is used by
// one goroutine at a time.
type Player interface {
	// Name is how results and records call the player.
	Name() string
	// NewGame prepares for a game under r. seed drives the player's own
	// random choices in that game, so that a match can be replayed.
	NewGame(ctx context.Context, r *mill.Rules, seed uint64) error
	// Move returns the move to play in the current position of g, which is
	// not over. An error (or an illegal move) loses the game.
	Move(ctx context.Context, g *mill.Game) (mill.Move, error)
	// Close releases what the player holds (an engine's process).
	Close() error
}

// Limits bound the thinking of a player per move. The zero Limits leaves it
// to the player (the built-in engine: its level's own).
type Limits struct {
	Depth    int           // the deepest iteration, 0 for none
	MoveTime time.Duration // time per move, 0 for none
}

// String returns the limits as a spec suffix: ",depth=3,movetime=100".
func (l Limits) String() string {
	s := ""
	if l.Depth > 0 {
		s += ",depth=" + strconv.Itoa(l.Depth)
	}
	if l.MoveTime > 0 {
		s += ",movetime=" + strconv.FormatInt(l.MoveTime.Milliseconds(), 10)
	}
	return s
}

// Engine is the built-in engine (package search) at a level.
type Engine struct {
	name  string
	e     *search.Engine
	level search.Level
	lim   search.Limits
	rng   *rand.Rand
	used  bool // the table holds something: clear it before a new game
}

// NewEngine returns the built-in engine playing at level n (1..10) within
// lim (the zero Limits: the level's own depth and time). The level's depth
// caps a deeper lim.Depth. Its table is 64 MiB and it plays from the
// built-in opening book, as morris engine and the server's engine do, so a
// match measures the engine that players meet.
func NewEngine(name string, n int, lim Limits) *Engine { return NewEngineWith(name, n, lim, nil) }

// NewEngineWith is NewEngine with endgame databases (nil for none).
func NewEngineWith(name string, n int, lim Limits, tb search.Tablebase) *Engine {
	return &Engine{
		name:  name,
		e:     search.New(search.Options{HashMB: 64, Book: book.Default(), Tablebase: tb}),
		level: search.LevelFor(n),
		lim:   search.Limits{Depth: lim.Depth, MoveTime: lim.MoveTime},
		rng:   rand.New(rand.NewPCG(1, 2)),
	}
}

func (p *Engine) Name() string { return p.name }

func (p *Engine) NewGame(_ context.Context, _ *mill.Rules, seed uint64) error {
	if p.used {
		p.e.Clear()
	}
	p.rng = rand.New(rand.NewPCG(seed, 0x6d6f72726973))
	return nil
}

func (p *Engine) Move(ctx context.Context, g *mill.Game) (mill.Move, error) {
	p.used = true
	res := p.e.Choose(ctx, g.Positions(), p.level, p.lim, p.rng, nil)
	if res.Move.IsZero() {
		return mill.Move{}, errors.New("the engine found no move")
	}
	return res.Move, nil
}

func (p *Engine) Close() error { return nil }

// Random plays a legal move chosen uniformly at random.
type Random struct {
	name string
	rng  *rand.Rand
}

// NewRandom returns a random mover.
func NewRandom(name string) *Random {
	return &Random{name: name, rng: rand.New(rand.NewPCG(3, 4))}
}

func (p *Random) Name() string { return p.name }

func (p *Random) NewGame(_ context.Context, _ *mill.Rules, seed uint64) error {
	p.rng = rand.New(rand.NewPCG(seed, 0x72616e646f6d))
	return nil
}

func (p *Random) Move(_ context.Context, g *mill.Game) (mill.Move, error) {
	moves := g.LegalMoves()
	if len(moves) == 0 {
		return mill.Move{}, errors.New("no legal move")
	}
	return moves[p.rng.IntN(len(moves))], nil
}

func (p *Random) Close() error { return nil }

// Greedy looks one ply ahead and no further. It scores each legal move by
//
//	1000 per piece it takes
//	+ 100 if it closes a mill of its own (whether or not that takes a piece)
//	+  10 per opposing two-in-a-line whose empty point it fills (a block)
//
// and plays a move of the best score, chosen at random among equals. It
// does not see what the opponent can do next, so it walks into mills and
// leaves open the ones it blocked when a piece slides away.
type Greedy struct {
	name string
	rng  *rand.Rand
	buf  []mill.Move
}

// NewGreedy returns a greedy player.
func NewGreedy(name string) *Greedy {
	return &Greedy{name: name, rng: rand.New(rand.NewPCG(5, 6))}
}

func (p *Greedy) Name() string { return p.name }

func (p *Greedy) NewGame(_ context.Context, _ *mill.Rules, seed uint64) error {
	p.rng = rand.New(rand.NewPCG(seed, 0x677265656479))
	return nil
}

func (p *Greedy) Move(_ context.Context, g *mill.Game) (mill.Move, error) {
	pos := g.Position()
	p.buf = pos.Moves(p.buf[:0])
	if len(p.buf) == 0 {
		return mill.Move{}, errors.New("no legal move")
	}
	best, n := -1, 0
	var choice mill.Move
	for _, m := range p.buf {
		s := GreedyScore(pos, m)
		switch {
		case s > best:
			best, n, choice = s, 1, m
		case s == best:
			// Reservoir sampling: each of the n equal moves is kept with
			// probability 1/n.
			n++
			if p.rng.IntN(n) == 0 {
				choice = m
			}
		}
	}
	return choice, nil
}

func (p *Greedy) Close() error { return nil }

// GreedyScore is the greedy player's score of the legal move m in pos.
func GreedyScore(pos mill.Position, m mill.Move) int {
	s := 1000 * m.NumCaptures()
	to := m.To()
	if to == mill.NoPoint {
		return s
	}
	us := pos.SideToMove()
	own, opp := pos.Pieces(us), pos.Pieces(us.Other())
	after := own | 1<<to
	if m.Kind() == mill.SlideMove {
		after &^= 1 << m.From()
	}
	closes, blocks := false, 0
	for _, line := range pos.Rules().MillLines() {
		if !line.Has(to) {
			continue
		}
		if after&line == line {
			closes = true
		}
		if rest := line &^ (1 << to); opp&rest == rest {
			blocks++
		}
	}
	if closes {
		s += 100
	}
	return s + 10*blocks
}

// Spec describes a player and makes one for each parallel game slot.
type Spec struct {
	Name string
	New  func() (Player, error)
	// Check, if set, says whether the player can play games of r at all
	// (the perfect player: its databases hold the whole game), so that a
	// match is refused before it starts rather than played badly.
	Check func(r *mill.Rules) error
	// Disputes, if set, knows where the player's own rules part from ours
	// (an external program's: Differences); a game ends as a disputed draw
	// at the first move where they do.
	Disputes Disputer
}

// String returns the spec's name.
func (s Spec) String() string { return s.Name }
