package rating

import (
	"errors"
	"fmt"
	"math"
)

// Rating is a player's Glicko-2 rating on the Glicko scale: the rating R,
// the rating deviation RD (one standard deviation of the estimate of R)
// and the volatility Sigma (the degree of expected fluctuation of R).
// A player new to a variant starts at Default.
//
// A Rating is a small comparable value; the package knows nothing of
// players or variants, which the server keys ratings by.
type Rating struct {
	R, RD, Sigma float64
}

// The newcomer's rating, from step 1 of Glickman's paper.
const (
	DefaultR     = 1500
	DefaultRD    = 350
	DefaultSigma = 0.06
)

// DefaultTau is the system constant τ of Glickman's worked example.
// Glickman advises a value between 0.3 and 1.2, smaller for games where
// upsets say little (lichess uses 0.75); the server chooses.
const DefaultTau = 0.5

// Bounds of a valid Rating and of τ. Update rejects a rating outside them
// and clamps its results into them, so that what Update returns is always
// a valid input to the next Update.
//
// MaxRD is Glicko's ceiling: a player can never be less known than a
// newcomer (Glickman's Glicko-1 caps RD at 350 the same way; Glicko-2's
// paper leaves the cap to the implementer, and without it RD would pass
// 350 after an idle period, since φ* = √(φ²+σ²)). The other bounds are far
// from anything the algorithm reaches in play; they are there so that a
// corrupt or hostile value gives an error instead of an overflow, and they
// never alter the paper's results for real players.
const (
	MinR     = 0
	MaxR     = 5000
	MaxRD    = 350 // RD must be more than 0 and at most MaxRD
	MinSigma = 0.0001
	MaxSigma = 0.5
	MinTau   = 0.2
	MaxTau   = 1.2
)

// ProvisionalRD is the deviation above which a rating is provisional: the
// threshold lichess uses. From Default, with one game a rating period, it
// takes about 10 games against established opponents (RD 60) to come below
// it, about 20 against other newcomers; an idle player's RD grows back.
const ProvisionalRD = 110

// Errors that Update and Game return, wrapped with the offending value.
var (
	ErrRating        = errors.New("rating: invalid rating")
	ErrScore         = errors.New("rating: invalid score")
	ErrTau           = errors.New("rating: invalid tau")
	ErrNoConvergence = errors.New("rating: volatility iteration did not converge")
)

// Default returns a newcomer's rating: 1500, RD 350, volatility 0.06.
func Default() Rating {
	return Rating{R: DefaultR, RD: DefaultRD, Sigma: DefaultSigma}
}

// Provisional reports whether RD is above ProvisionalRD: the rating is
// still too uncertain to be listed among established ones.
func (r Rating) Provisional() bool {
	return r.RD > ProvisionalRD
}

// Interval returns the 95% confidence interval of the player's strength,
// R ± 1.96 RD.
func (r Rating) Interval() (lo, hi float64) {
	return r.R - 1.96*r.RD, r.R + 1.96*r.RD
}

// Validate reports whether r is within the bounds above, with an error
// that wraps ErrRating.
func (r Rating) Validate() error {
	if err := r.validateRRD(); err != nil {
		return err
	}
	if !(r.Sigma >= MinSigma && r.Sigma <= MaxSigma) { // also false for NaN
		return fmt.Errorf("%w: volatility %v not in [%v, %v]", ErrRating, r.Sigma, MinSigma, MaxSigma)
	}
	return nil
}

// validateRRD checks what an opponent needs: its volatility plays no part
// in the update of the player it met.
func (r Rating) validateRRD() error {
	if !(r.R >= MinR && r.R <= MaxR) {
		return fmt.Errorf("%w: rating %v not in [%v, %v]", ErrRating, r.R, MinR, MaxR)
	}
	if !(r.RD > 0 && r.RD <= MaxRD) {
		return fmt.Errorf("%w: deviation %v not in (0, %v]", ErrRating, r.RD, MaxRD)
	}
	return nil
}

func validateTau(tau float64) error {
	if !(tau >= MinTau && tau <= MaxTau) {
		return fmt.Errorf("%w: %v not in [%v, %v]", ErrTau, tau, MinTau, MaxTau)
	}
	return nil
}

func validateScore(s float64) error {
	if !(s >= 0 && s <= 1) {
		return fmt.Errorf("%w: %v not in [0, 1]", ErrScore, s)
	}
	return nil
}

// Result is one game of a rating period from the player's side: the
// opponent's rating at the start of the period and the player's score,
// 1 for a win, 0.5 for a draw, 0 for a loss (any score in [0, 1] is
// accepted, as the paper allows). Only the opponent's R and RD are used.
type Result struct {
	Opponent Rating
	Score    float64
}

// Game rates one game at once, as its own rating period: it returns the
// new ratings of a and b after a scored scoreA against b (and b scored
// 1-scoreA against a), both computed from the ratings before the game.
//
// The server rates each game as soon as it ends rather than collecting a
// period of games, so that players see their rating move after every game
// (lichess does the same). Glickman advises periods of 10–15 games for the
// best estimates; per-game periods give up a little of that for
// immediacy, and they make each period's volatility step small, so τ acts
// per game. Idle players' RD does not grow by itself: the server calls
// Update with no results for each idle period it decides on.
func Game(a, b Rating, scoreA, tau float64) (Rating, Rating, error) {
	if err := validateScore(scoreA); err != nil {
		return a, b, err
	}
	if err := b.Validate(); err != nil {
		return a, b, fmt.Errorf("second player: %w", err)
	}
	na, err := Update(a, []Result{{Opponent: b, Score: scoreA}}, tau)
	if err != nil {
		return a, b, fmt.Errorf("first player: %w", err)
	}
	nb, err := Update(b, []Result{{Opponent: a, Score: 1 - scoreA}}, tau)
	if err != nil {
		return a, b, fmt.Errorf("second player: %w", err)
	}
	return na, nb, nil
}

func clamp(x, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, x))
}
