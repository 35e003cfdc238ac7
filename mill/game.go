package mill

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
)

// Game is a game in progress or finished: its rules, its start, the moves
// played and every position since, and how it ended. Unlike Position it
// judges repetition, and it records resignations and agreed draws.
type Game struct {
	rules   *Rules
	seed    uint64
	lot     bool // the first player was drawn by lot with seed
	moves   []Move
	pos     []Position // pos[0] is the start; pos[i] follows moves[i-1]
	outcome Outcome
	method  Method
}

// GameOption configures NewGame.
type GameOption func(*gameConfig)

type gameConfig struct {
	seed     uint64
	seeded   bool
	start    Position
	hasStart bool
}

// WithSeed sets the seed of the lot that draws the first player (rules with
// first=lot); without it the seed is random. Game.Seed returns it either way.
func WithSeed(seed uint64) GameOption {
	return func(c *gameConfig) { c.seed, c.seeded = seed, true }
}

// FromPosition starts the game from p (its rules are the game's rules).
func FromPosition(p Position) GameOption {
	return func(c *gameConfig) { c.start, c.hasStart = p, true }
}

// NewGame starts a game under r.
func NewGame(r *Rules, opts ...GameOption) *Game {
	var c gameConfig
	for _, o := range opts {
		o(&c)
	}
	g := &Game{rules: r}
	switch {
	case c.hasStart:
		g.rules = c.start.rules
		g.pos = []Position{c.start}
	case r.opts.FirstPlayer == FirstLot:
		if !c.seeded {
			var b [8]byte
			_, _ = rand.Read(b[:])
			c.seed = binary.LittleEndian.Uint64(b[:])
		}
		g.seed, g.lot = c.seed, true
		g.pos = []Position{r.StartWith(LotFirst(c.seed))}
	default:
		g.pos = []Position{r.Start()}
	}
	g.outcome, g.method = g.pos[0].Status()
	return g
}

// LotFirst returns the first player drawn by lot with seed.
func LotFirst(seed uint64) Color { return Color(mix(seed) >> 63) }

// Rules returns the game's rules.
func (g *Game) Rules() *Rules { return g.rules }

// Seed returns the seed of the lot that drew the first player, if there was one.
func (g *Game) Seed() (uint64, bool) { return g.seed, g.lot }

// Start returns the starting position.
func (g *Game) Start() Position { return g.pos[0] }

// Position returns the current position.
func (g *Game) Position() Position { return g.pos[len(g.pos)-1] }

// Moves returns the moves played.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// MoveTexts returns the moves played in dialect d, each written by
// Position.AppendMove in the position it was played in (several captures in
// an order legal in turn).
func (g *Game) MoveTexts(d Dialect) []string {
	texts := make([]string, len(g.moves))
	var buf []byte
	for i, m := range g.moves {
		buf = g.pos[i].AppendMove(buf[:0], m, d)
		texts[i] = string(buf)
	}
	return texts
}

// Positions returns the start and every position after it.
func (g *Game) Positions() []Position { return append([]Position(nil), g.pos...) }

// LegalMoves returns the legal moves, none when the game is over.
func (g *Game) LegalMoves() []Move {
	if g.outcome != NoOutcome {
		return nil
	}
	p := g.Position()
	return p.Moves(nil)
}

// Outcome returns the result: NoOutcome while the game goes on.
func (g *Game) Outcome() Outcome { return g.outcome }

// Method returns how the game ended.
func (g *Game) Method() Method { return g.method }

// Play plays m if it is legal, and judges the end of the game.
func (g *Game) Play(m Move) error {
	if g.outcome != NoOutcome {
		return &GameOverError{Outcome: g.outcome, Method: g.method}
	}
	p := g.Position()
	if err := p.Check(m); err != nil {
		return err
	}
	g.push(m, p.Play(m))
	return nil
}

// PlayText parses a move in either dialect and plays it.
func (g *Game) PlayText(s string) error {
	if g.outcome != NoOutcome {
		return &GameOverError{Outcome: g.outcome, Method: g.method}
	}
	p := g.Position()
	m, err := p.ParseMove(s)
	if err != nil {
		return err
	}
	g.push(m, p.Play(m))
	return nil
}

func (g *Game) push(m Move, np Position) {
	g.moves = append(g.moves, m)
	g.pos = append(g.pos, np)
	g.outcome, g.method = np.Status()
	if g.outcome == NoOutcome && g.repeated() {
		g.outcome, g.method = Draw, Repetition
	}
}

// Repetitions returns how many times the current position has occurred,
// this time included.
func (g *Game) Repetitions() int {
	last := &g.pos[len(g.pos)-1]
	key := last.Key()
	n := 1
	// Only the positions since the last placement or capture can repeat.
	for i := len(g.pos) - 2; i >= 0 && i >= len(g.pos)-1-int(last.quiet); i-- {
		if q := &g.pos[i]; q.Key() == key && q.sameState(last) {
			n++
		}
	}
	return n
}

func (g *Game) repeated() bool {
	return g.rules.opts.Repetition > 0 && g.Repetitions() >= g.rules.opts.Repetition
}

// Undo takes back the last move. It returns false at the start.
func (g *Game) Undo() bool {
	if len(g.moves) == 0 {
		return false
	}
	g.moves = g.moves[:len(g.moves)-1]
	g.pos = g.pos[:len(g.pos)-1]
	g.outcome, g.method = g.pos[len(g.pos)-1].Status()
	if g.outcome == NoOutcome && g.repeated() {
		g.outcome, g.method = Draw, Repetition
	}
	return true
}

// Resign ends the game: c resigns.
func (g *Game) Resign(c Color) error {
	return g.End(Won(c.Other()), Resignation)
}

// End ends the game with an outcome reached outside the board: resignation,
// agreement, time, abandonment. The ends of the board itself (material,
// blocked, ...) come only from playing the moves.
func (g *Game) End(o Outcome, how Method) error {
	if g.outcome != NoOutcome {
		return &GameOverError{Outcome: g.outcome, Method: g.method}
	}
	if o == NoOutcome {
		return fmt.Errorf("mill: ending a game needs an outcome")
	}
	switch how {
	case NoMethod, Resignation, Agreement, Time, Abandonment:
	default:
		return fmt.Errorf("mill: a game ends by %v only on the board", how)
	}
	g.outcome, g.method = o, how
	return nil
}
