package rating

import (
	"fmt"
	"math"
)

// scale converts between the Glicko and Glicko-2 scales (step 2 and
// step 8 of the paper): 400/ln 10, rounded as the paper rounds it.
const scale = 173.7178

// epsilon is the paper's convergence tolerance for step 5.
const epsilon = 0.000001

// maxIterations bounds step 5's loops so that no input can loop for ever.
// Illinois converges superlinearly: players' ratings take about ten steps,
// the corners of the bounds (ratings 5000 apart, RD near 0, σ 0.5, τ 1.2)
// under fifty in two million random trials. The bracket search of the
// Δ² ≤ φ²+v case stops at k = 1 whenever τ < 2, as f(a−τ) > 1/τ − 1/2.
const maxIterations = 200

// Update returns r's rating after a rating period in which it played
// results, each against an opponent rated as at the start of the period;
// tau is the system constant τ. It follows Glickman's steps 1 to 8: with
// no results only RD grows (φ' = √(φ²+σ²)), R and Sigma stay.
//
// The inputs must be within the bounds of Rating (opponents' volatilities
// are not used and not checked), scores in [0, 1] and tau in
// [MinTau, MaxTau]; otherwise Update returns r unchanged and an error
// wrapping ErrRating, ErrScore or ErrTau. The result is clamped into the
// bounds, which only RD ≤ MaxRD meets in practice.
func Update(r Rating, results []Result, tau float64) (Rating, error) {
	if err := r.Validate(); err != nil {
		return r, err
	}
	if err := validateTau(tau); err != nil {
		return r, err
	}
	for i, res := range results {
		if err := res.Opponent.validateRRD(); err != nil {
			return r, fmt.Errorf("result %d: opponent: %w", i, err)
		}
		if err := validateScore(res.Score); err != nil {
			return r, fmt.Errorf("result %d: %w", i, err)
		}
	}

	// Step 2.
	mu := (r.R - DefaultR) / scale
	phi := r.RD / scale

	if len(results) == 0 {
		// Step 6 alone: the paper's case of a player who did not compete.
		phiStar := math.Sqrt(phi*phi + r.Sigma*r.Sigma)
		return Rating{R: r.R, RD: clamp(scale*phiStar, 0, MaxRD), Sigma: r.Sigma}, nil
	}

	// Steps 3 and 4.
	v, sum := period(mu, results)
	delta := v * sum

	// Step 5.
	sigma, err := volatility(r.Sigma, phi, v, delta, tau)
	if err != nil {
		return r, err
	}

	// Steps 6 and 7.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	// μ' = μ + φ'² Σ g(φj)(sj − E); step 8 takes it back to the Glicko
	// scale as r' = r + 173.7178 (μ' − μ), which equals 173.7178 μ' + 1500
	// but keeps R exact when the games change nothing (a draw between
	// equals) instead of going through a rounding round trip.
	rNew := r.R + scale*phiNew*phiNew*sum

	// Step 8, clamped so that the result is valid input again.
	return Rating{
		R:     clamp(rNew, MinR, MaxR),
		RD:    clamp(scale*phiNew, 0, MaxRD),
		Sigma: clamp(sigma, MinSigma, MaxSigma),
	}, nil
}

// g is the paper's g(φ): how much an opponent's uncertainty damps what a
// game against it tells.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is the paper's E(μ, μj, φj): the expected score against an
// opponent, given g(φj).
func expected(mu, muj, gj float64) float64 {
	return 1 / (1 + math.Exp(-gj*(mu-muj)))
}

// period computes step 3's estimated variance v of the rating from the
// game outcomes alone, and the sum Σ g(φj)(sj − E(μ, μj, φj)) of steps 4
// and 7 (step 4's Δ is v times it).
func period(mu float64, results []Result) (v, sum float64) {
	var info float64 // 1/v
	for _, res := range results {
		gj := g(res.Opponent.RD / scale)
		e := expected(mu, (res.Opponent.R-DefaultR)/scale, gj)
		info += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	return 1 / info, sum
}

// volatility is step 5: the new volatility σ' as e^(A/2) where A is the
// root of f, found by the Illinois variant of regula falsi exactly as the
// paper lays it out.
func volatility(sigma, phi, v, delta, tau float64) (float64, error) {
	a := math.Log(sigma * sigma)
	phi2, delta2 := phi*phi, delta*delta
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta2-phi2-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}

	A := a
	var B float64
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
			if k > maxIterations {
				return 0, fmt.Errorf("%w: no bracket below ln σ² = %v", ErrNoConvergence, a)
			}
		}
		B = a - k*tau
	}

	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon; i++ {
		// fA and fB have opposite signs (or one is 0) at every step, so
		// fB−fA is 0 only when both are; the test also catches NaN.
		if i == maxIterations || !(fB != fA) {
			return 0, fmt.Errorf("%w: A = %v, B = %v after %d steps", ErrNoConvergence, A, B, i)
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		// The paper's ≤, not <: with < an exact root at C would halve fA
		// for ever without moving A.
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2), nil
}
