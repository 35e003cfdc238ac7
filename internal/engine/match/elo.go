package match

import (
	"fmt"
	"math"
)

// Elo returns the Elo difference that gives the expected score s (0 < s < 1)
// under the logistic model: the expected score of a player rated D above
// its opponent is 1 / (1 + 10^(-D/400)), so
//
//	D = -400 * log10(1/s - 1)
//
// 75% gives +190.85, 50% gives 0, 90% gives +381.7. A score of 0 or 1 gives
// minus or plus infinity.
func Elo(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// Tally counts the results of a match for player A.
type Tally struct {
	Wins, Draws, Losses int
	Faults              [2]int // games lost by A, by B through an illegal move, a crash or a time-out
	Claimed             int    // games drawn by a player's claim where our rules play on (counted in Draws)
	Disputed            int    // games drawn where the players' rules part (Spec.Disputes; counted in Draws)
	Adjudicated         int    // games drawn at the ply limit
	Verdicts            int    // games ended by Config.Adjudicate
}

// Games returns the number of games counted.
func (t Tally) Games() int { return t.Wins + t.Draws + t.Losses }

// Score returns A's score: (wins + draws/2) / games, 0.5 with no games.
func (t Tally) Score() float64 {
	n := t.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(t.Wins) + float64(t.Draws)/2) / float64(n)
}

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959964

// ScoreInterval returns the 95% confidence interval of A's expected score:
// s ± 1.96·σ/√n, where s is the mean score of the n games and σ² their
// variance around it (each game scores 1, ½ or 0):
//
//	σ² = (W·(1-s)² + D·(½-s)² + L·s²) / n
//
// Draws lower the variance, so a drawish match needs fewer games.
func (t Tally) ScoreInterval() (lo, hi float64) {
	n := float64(t.Games())
	if n == 0 {
		return 0, 1
	}
	s := t.Score()
	variance := (float64(t.Wins)*(1-s)*(1-s) + float64(t.Draws)*(0.5-s)*(0.5-s) + float64(t.Losses)*s*s) / n
	e := z95 * math.Sqrt(variance/n)
	return s - e, s + e
}

// EloDiff returns the Elo difference of A over B, and the margin of its
// 95% confidence interval: half the width of Elo(ScoreInterval), the way
// cutechess-cli reports it. The interval maps through Elo unevenly, so the
// margin is a summary; EloInterval gives the bounds. The margin is infinite
// when the interval of the score reaches 0 or 1 (a one-sided match of few
// games: every game won, or nearly).
func (t Tally) EloDiff() (diff, margin float64) {
	lo, hi := t.EloInterval()
	return Elo(t.Score()), (hi - lo) / 2
}

// EloInterval returns the 95% confidence interval of the Elo difference:
// Elo of the bounds of ScoreInterval.
func (t Tally) EloInterval() (lo, hi float64) {
	slo, shi := t.ScoreInterval()
	return Elo(slo), Elo(shi)
}

// String sums the tally up in one line: "+12 =3 -5, score 67.5%, Elo +127 ±
// 88 (95%)"; with an unbounded interval, "Elo +382, 95% interval [+201,
// +inf]"; "Elo +inf (every game won)" when it is so.
func (t Tally) String() string {
	s := fmt.Sprintf("+%d =%d -%d", t.Wins, t.Draws, t.Losses)
	if t.Claimed > 0 {
		s += fmt.Sprintf(" (claimed draws %d)", t.Claimed)
	}
	if t.Disputed > 0 {
		s += fmt.Sprintf(" (disputed %d)", t.Disputed)
	}
	s += fmt.Sprintf(", score %.1f%%", 100*t.Score())
	if t.Games() == 0 {
		return s
	}
	switch t.Games() {
	case t.Wins:
		return s + ", Elo +inf (every game won)"
	case t.Losses:
		return s + ", Elo -inf (every game lost)"
	}
	diff, margin := t.EloDiff()
	lo, hi := t.EloInterval()
	if math.IsInf(margin, 0) || math.IsNaN(margin) {
		return s + fmt.Sprintf(", Elo %s, 95%% interval [%s, %s]", eloText(diff), eloText(lo), eloText(hi))
	}
	return s + fmt.Sprintf(", Elo %s ± %.0f (95%%)", eloText(diff), margin)
}

func eloText(d float64) string {
	switch {
	case math.IsInf(d, 1):
		return "+inf"
	case math.IsInf(d, -1):
		return "-inf"
	case math.Round(d) == 0:
		return "0"
	}
	return fmt.Sprintf("%+.0f", d)
}
