package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// A PlayerID names a player. The zero ID is NoPlayer, never a player.
type PlayerID int64

// NoPlayer stands where there is no player: the Bye of a round without one.
const NoPlayer PlayerID = 0

// A Colour is the side a player has in a game.
type Colour int8

const (
	White Colour = iota
	Black
)

// Opposite returns the other colour.
func (c Colour) Opposite() Colour { return 1 - c }

func (c Colour) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// MarshalText writes the colour's name, for JSON and CSV.
func (c Colour) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// A Result is the outcome of a game as white scores it: 1, ½ or 0. The
// zero Result is Pending: the game has not ended.
type Result int8

const (
	Pending   Result = iota
	WhiteWins        // 1-0
	Draw             // ½-½
	BlackWins        // 0-1
)

// Points returns what the player of colour c scores: 1, 0.5 or 0 (0 for
// a pending game).
func (r Result) Points(c Colour) float64 {
	switch {
	case r == Draw:
		return 0.5
	case r == WhiteWins && c == White, r == BlackWins && c == Black:
		return 1
	}
	return 0
}

func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case Draw:
		return "½-½"
	case BlackWins:
		return "0-1"
	}
	return "*"
}

// A Game is one pairing of a round and, once played, its result.
type Game struct {
	White  PlayerID `json:"white"`
	Black  PlayerID `json:"black"`
	Result Result   `json:"result"`
}

// A Round is the games of one round, the player, if any, who sits it
// out with a bye, and the players who asked to sit it out for half a
// point (a Swiss's half-point byes). A player of the event in none of
// them is absent that round (not yet entered, withdrawn, or, in a round
// robin, not in it).
type Round struct {
	Games []Game   `json:"games"`
	Bye   PlayerID `json:"bye,omitempty"`
	// HalfByes are the players excused from the round at their own
	// request, each scoring HalfByePoints. A half-point bye is not the
	// pairing's bye: a player who had one may still get that later.
	HalfByes []PlayerID `json:"halfByes,omitempty"`
}

// ByePoints is what a bye scores: a win, as FIDE scores a
// pairing-allocated bye.
const ByePoints = 1.0

// HalfByePoints is what a half-point bye scores.
const HalfByePoints = 0.5

// The errors of the package. Each error it returns wraps one of them.
var (
	// ErrCannotPair: no pairing satisfies the rules (the error says
	// which); see PairError.
	ErrCannotPair = errors.New("cannot pair")
	// ErrEventOver: every round of the event is already paired.
	ErrEventOver = errors.New("all rounds are paired")
	// ErrPending: a game of an earlier round has no result yet.
	ErrPending = errors.New("a game has no result")
	// ErrBadInput: the players or rounds given are not a valid event
	// (a NoPlayer or repeated ID, a game with an unknown player, a
	// player twice in a round, a bad number of players or rounds).
	ErrBadInput = errors.New("invalid event")
)

// A PairError says why a round cannot be paired. It unwraps to
// ErrCannotPair.
type PairError struct {
	Round  int
	Reason string
}

func (e *PairError) Error() string {
	return fmt.Sprintf("tournament: round %d: cannot pair: %s", e.Round, e.Reason)
}

func (e *PairError) Unwrap() error { return ErrCannotPair }

func badInput(format string, args ...any) error {
	return fmt.Errorf("tournament: %w: %s", ErrBadInput, fmt.Sprintf(format, args...))
}

// checkIDs reports whether ids are valid players: none is NoPlayer, none
// repeats.
func checkIDs(ids []PlayerID) error {
	seen := make(map[PlayerID]bool, len(ids))
	for _, id := range ids {
		if id == NoPlayer {
			return badInput("player ID 0 is NoPlayer")
		}
		if seen[id] {
			return badInput("player %d entered twice", id)
		}
		seen[id] = true
	}
	return nil
}

// DrawLots returns the players in an order drawn by lot from seed: the
// numbers of a round robin's Berger table, say. The same seed and players
// give the same order.
func DrawLots(players []PlayerID, seed uint64) []PlayerID {
	out := append([]PlayerID(nil), players...)
	r := rand.New(rand.NewPCG(seed, 0x6d6f72726973)) // "morris"
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func fmtPending(round int, g Game) error {
	return fmt.Errorf("tournament: round %d: %d-%d: %w", round, g.White, g.Black, ErrPending)
}
