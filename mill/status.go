package mill

// Outcome is the result of a game.
type Outcome uint8

const (
	NoOutcome Outcome = iota // the game goes on
	WhiteWon
	BlackWon
	Draw
)

// String returns the result as in game records: "*", "1-0", "0-1", "1/2-1/2".
func (o Outcome) String() string {
	return [...]string{"*", "1-0", "0-1", "1/2-1/2"}[o]
}

// ParseOutcome parses a record's result.
func ParseOutcome(s string) (Outcome, bool) {
	for o := NoOutcome; o <= Draw; o++ {
		if o.String() == s {
			return o, true
		}
	}
	return NoOutcome, false
}

// Won returns the outcome in which c wins.
func Won(c Color) Outcome {
	if c == White {
		return WhiteWon
	}
	return BlackWon
}

// Method says how a game ended.
type Method uint8

const (
	NoMethod    Method = iota
	Material           // a side was reduced below the minimum of pieces
	Blocked            // the side to move could not move
	Gridlock           // neither side could move
	FullBoard          // the board was filled by placing (a draw, or the first player lost)
	Repetition         // the same position occurred again
	NoProgress         // too many plies without a capture
	Resignation        // a player resigned
	Agreement          // the players agreed a draw
	Time               // a player ran out of time
	Abandonment        // a player left the game
	MillFormed         // a side formed a mill where a mill wins the game (mill-wins)
)

var methodNames = [...]string{"", "material", "blocked", "gridlock", "full board", "repetition", "no progress",
	"resignation", "agreement", "time", "abandonment", "mill"}

func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return "?"
}

// ParseMethod parses a method name as printed by String.
func ParseMethod(s string) (Method, bool) {
	for i, n := range methodNames {
		if n == s && i > 0 {
			return Method(i), true
		}
	}
	return NoMethod, false
}

// Status returns the outcome of the position and how it came about, or
// NoOutcome while the game goes on. Repetition is judged by Game.
func (p Position) Status() (Outcome, Method) {
	r := p.rules
	o := &r.opts
	us, them := p.side, p.side^1
	if popcount(p.occ[us])+int(p.hand[us]) < o.MinPieces {
		return Won(them), Material
	}
	if popcount(p.occ[them])+int(p.hand[them]) < o.MinPieces {
		return Won(us), Material
	}
	if o.MillWins {
		// The side that moved last formed its mill with that move; a
		// mill of the side to move can only stand in a set-up position.
		if r.inMills(p.occ[them]) != 0 {
			return Won(them), MillFormed
		}
		if r.inMills(p.occ[us]) != 0 {
			return Won(us), MillFormed
		}
	}
	if o.DrawAfter > 0 && int(p.quiet) >= o.DrawAfter {
		return Draw, NoProgress
	}
	if p.fullBoardEnds() {
		if o.FullBoard == FullBoardFirstLoses {
			return Won(p.firstPlacer() ^ 1), FullBoard
		}
		return Draw, FullBoard
	}
	if p.canMove(us) || p.blockedRemoval() {
		return NoOutcome, NoMethod
	}
	if !p.canMove(them) {
		if o.Gridlock == GridlockDraw {
			return Draw, Gridlock
		}
		return Won(them), Gridlock
	}
	switch o.Blocked {
	case BlockedPasses:
		return NoOutcome, NoMethod // the side to move passes
	case BlockedDraw:
		return Draw, Blocked
	}
	return Won(them), Blocked // loses, or removes with nothing to remove
}
