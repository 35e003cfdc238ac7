package match

import (
	"errors"
	"fmt"
	"math"
)

// Verdict is where a sequential test stands.
type Verdict int

const (
	Continue Verdict = iota // neither bound reached: play on
	AcceptH0                // the lower bound reached: the difference is elo0 or less
	AcceptH1                // the upper bound reached: the difference is elo1 or more
)

func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "no verdict"
}

// SPRT is a generalized sequential probability ratio test of A's Elo
// difference over B, the test fishtest keeps or rejects a change with. H0
// says the difference is elo0, H1 that it is elo1 (logistic Elo, as Elo
// reads it). After each observation the log-likelihood ratio of H1 against
// H0 is compared with the bounds
//
//	lower = ln(β/(1-α)),  upper = ln((1-β)/α)
//
// and the test accepts H1 at the upper bound, H0 at the lower one. α is the
// chance of accepting H1 when H0 holds, β that of accepting H0 when H1
// holds (more or less: the test looks after every pair, not continuously).
//
// The observations are pairs of games, one opening with the colours
// swapped: a pair scores 0, ½, 1, 1½ or 2, and the five counts are the
// pentanomial model. The pair, not the game, is the independent draw: the
// two games of one opening are alike, and treating them as two would
// understate the variance whenever openings favour a side. Games without a
// partner (a match cut between the two games of a pair) are counted by the
// trinomial model of wins, draws and losses.
//
// The ratio is the generalized one (GSPRT): no model of draws or of pair
// scores is assumed. Under each hypothesis the distribution of the outcomes
// is the one of greatest likelihood for the observed counts among those
// whose mean is the hypothesis's expected score s = 1/(1+10^(-elo/400)) (a
// pair's mean being its score per game); the LLR is the log of the ratio of
// the two likelihoods. For a distribution p̂ of outcomes scoring a_i, the one
// with mean s is
//
//	q_i = p̂_i / (1 + λ(a_i - s)),  with λ such that Σ p̂_i (a_i - s)/(1 + λ(a_i - s)) = 0
//
// and LLR = N Σ p̂_i ln(q1_i/q0_i). Near s0 and s1 it is the familiar normal
// approximation N(s1-s0)(2m-s0-s1)/(2σ²), m and σ² the observed mean and
// variance of an outcome; the exact form stays right in a lopsided match,
// where σ² is near zero. As in fishtest, each count is taken as at least
// 0.001 so that an outcome not yet seen keeps a small chance.
//
// The pentanomial and trinomial parts are independent observations of the
// same expected score, so their LLRs add.
type SPRT struct {
	elo0, elo1   float64
	lower, upper float64 // the LLR's bounds
	s0, s1       float64 // the expected scores of elo0 and elo1
	pairs        [5]int  // pairs scoring 0, ½, 1, 1½, 2
	games        [3]int  // unpaired games lost, drawn, won
}

// NewSPRT returns a test of elo0 against elo1 (elo0 < elo1) with error
// rates alpha and beta, each between 0 and 1 with alpha+beta below 1.
func NewSPRT(elo0, elo1, alpha, beta float64) (*SPRT, error) {
	switch {
	case math.IsNaN(elo0) || math.IsNaN(elo1) || math.IsInf(elo0, 0) || math.IsInf(elo1, 0):
		return nil, fmt.Errorf("SPRT bounds [%g, %g]: want finite Elo differences", elo0, elo1)
	case elo0 >= elo1:
		return nil, fmt.Errorf("SPRT bounds [%g, %g]: want elo0 below elo1", elo0, elo1)
	case !(alpha > 0 && alpha < 1) || !(beta > 0 && beta < 1):
		return nil, fmt.Errorf("SPRT alpha %g, beta %g: want each above 0 and below 1", alpha, beta)
	case alpha+beta >= 1:
		return nil, fmt.Errorf("SPRT alpha %g, beta %g: want alpha+beta below 1 (else the bounds cross)", alpha, beta)
	}
	s0, s1 := expectedScore(elo0), expectedScore(elo1)
	if !(s0 > 0 && s1 < 1 && s0 < s1) {
		return nil, fmt.Errorf("SPRT bounds [%g, %g]: the expected scores %g, %g are 0, 1 or equal", elo0, elo1, s0, s1)
	}
	return &SPRT{elo0: elo0, elo1: elo1, lower: math.Log(beta / (1 - alpha)), upper: math.Log((1 - beta) / alpha),
		s0: s0, s1: s1}, nil
}

// expectedScore is the inverse of Elo.
func expectedScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// ErrScore is the error of a score that is not a game's or a pair's.
var ErrScore = errors.New("match: not a score")

// AddPair counts a pair of games: score is A's points in the two, one of
// 0, 0.5, 1, 1.5 and 2.
func (t *SPRT) AddPair(score float64) error {
	i, ok := halfPoints(score, 4)
	if !ok {
		return fmt.Errorf("%w of a pair: %g", ErrScore, score)
	}
	t.pairs[i]++
	return nil
}

// AddGame counts a game without a partner: score is A's, 0, 0.5 or 1.
func (t *SPRT) AddGame(score float64) error {
	i, ok := halfPoints(score, 2)
	if !ok {
		return fmt.Errorf("%w of a game: %g", ErrScore, score)
	}
	t.games[i]++
	return nil
}

func halfPoints(score float64, most int) (int, bool) {
	h := score * 2
	i := int(h)
	return i, float64(i) == h && i >= 0 && i <= most
}

// Pairs returns the pentanomial counts: pairs scoring 0, ½, 1, 1½ and 2.
func (t *SPRT) Pairs() [5]int { return t.pairs }

// Games returns the number of games counted, paired or not.
func (t *SPRT) Games() int {
	n := t.games[0] + t.games[1] + t.games[2]
	for _, c := range t.pairs {
		n += 2 * c
	}
	return n
}

// Bounds returns the LLR's bounds: H0 is accepted at or below lower, H1 at
// or above upper.
func (t *SPRT) Bounds() (lower, upper float64) { return t.lower, t.upper }

// Elo returns the Elo differences of H0 and H1.
func (t *SPRT) Elo() (elo0, elo1 float64) { return t.elo0, t.elo1 }

// LLR returns the log-likelihood ratio of H1 against H0 for the results so
// far: 0 with none.
func (t *SPRT) LLR() float64 {
	pairScores := [...]float64{0, 0.25, 0.5, 0.75, 1} // per game
	gameScores := [...]float64{0, 0.5, 1}
	return gsprtLLR(t.pairs[:], pairScores[:], t.s0, t.s1) + gsprtLLR(t.games[:], gameScores[:], t.s0, t.s1)
}

// Verdict returns the test's verdict on the results so far.
func (t *SPRT) Verdict() Verdict {
	switch llr := t.LLR(); {
	case llr >= t.upper:
		return AcceptH1
	case llr <= t.lower:
		return AcceptH0
	}
	return Continue
}

// String sums the test up: "SPRT [0, 10]: H1 accepted (LLR 2.96 ≥ 2.94)",
// or without a verdict "SPRT [0, 10]: no verdict (LLR 1.20 in [-2.94,
// 2.94])".
func (t *SPRT) String() string {
	llr, v := t.LLR(), t.Verdict()
	head := fmt.Sprintf("SPRT [%g, %g]: %v", t.elo0, t.elo1, v)
	switch v {
	case AcceptH1:
		return fmt.Sprintf("%s (LLR %.2f ≥ %.2f)", head, llr, t.upper)
	case AcceptH0:
		return fmt.Sprintf("%s (LLR %.2f ≤ %.2f)", head, llr, t.lower)
	}
	return fmt.Sprintf("%s (LLR %.2f in [%.2f, %.2f])", head, llr, t.lower, t.upper)
}

// regularization is the least count of an outcome (fishtest's): an outcome
// never seen keeps a small chance, so that a distribution with the mean of
// either hypothesis exists however one-sided the results.
const regularization = 1e-3

// gsprtLLR returns the generalized LLR of mean s1 against mean s0 for
// outcomes scoring scores[i] seen counts[i] times (at most 5 outcomes).
func gsprtLLR(counts []int, scores []float64, s0, s1 float64) float64 {
	n := 0
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return 0
	}
	var p [5]float64
	total := 0.0
	for i, c := range counts {
		p[i] = max(float64(c), regularization)
		total += p[i]
	}
	for i := range counts {
		p[i] /= total
	}
	ps := p[:len(counts)]
	l0, l1 := meanMultiplier(ps, scores, s0), meanMultiplier(ps, scores, s1)
	sum := 0.0
	for i, pi := range ps {
		// q1_i / q0_i = (1 + λ0(a_i - s0)) / (1 + λ1(a_i - s1))
		sum += pi * math.Log((1+l0*(scores[i]-s0))/(1+l1*(scores[i]-s1)))
	}
	return float64(n) * sum
}

// meanMultiplier returns the λ of the distribution q_i = p_i/(1+λ(a_i-s))
// nearest p (of greatest likelihood for counts in proportion to p) among
// those with mean s, where min a < s < max a and every p_i > 0. The
// equation's left side falls from +∞ to -∞ as λ crosses the interval where
// every 1+λ(a_i-s) is positive, so bisection finds its one root.
func meanMultiplier(p, a []float64, s float64) float64 {
	dmin, dmax := 0.0, 0.0
	for _, ai := range a {
		dmin, dmax = min(dmin, ai-s), max(dmax, ai-s)
	}
	lo, hi := -1/dmax, -1/dmin
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		f := 0.0
		for i, pi := range p {
			d := a[i] - s
			f += pi * d / (1 + mid*d)
		}
		if f > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}
