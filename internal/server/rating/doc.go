// Package rating computes Glicko-2 ratings: a rating R, a rating deviation
// RD and a volatility σ per player, updated from game results.
//
// The package knows nothing of players, variants or time: a Rating is a
// value, and the server keys ratings by player and variant and decides when
// rating periods end. It rates each game as its own rating period, as soon
// as the game ends (see Game for why), and calls Update with no results to
// let an idle player's RD grow.
//
// # Source
//
// The formulas are those of Mark E. Glickman, "Example of the Glicko-2
// system", Boston University (http://www.glicko.net/glicko/glicko2.pdf,
// versions of 2013 and 2022), step by step:
//
//  1. a newcomer: r = 1500, RD = 350, σ = 0.06; τ a system constant
//  2. μ = (r − 1500)/173.7178, φ = RD/173.7178
//  3. g(φ) = 1/√(1 + 3φ²/π²), E(μ, μj, φj) = 1/(1 + exp(−g(φj)(μ − μj))),
//     v = [Σj g(φj)² E (1 − E)]⁻¹
//  4. Δ = v Σj g(φj)(sj − E)
//  5. σ' = e^(A/2), A the root of
//     f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − ln σ²)/τ²
//     found by the Illinois algorithm to within ε = 0.000001
//  6. φ* = √(φ² + σ'²)
//  7. φ' = 1/√(1/φ*² + 1/v), μ' = μ + φ'² Σj g(φj)(sj − E)
//  8. r' = 173.7178 μ' + 1500, RD' = 173.7178 φ'
//
// A player without games in the period keeps r and σ, and gets RD' =
// 173.7178 √(φ² + σ²).
//
// Where this package goes beyond the paper, and why:
//
//   - RD never exceeds 350 (Glicko-1's cap; Glicko-2's paper leaves it
//     open), so that no idle player is less known than a newcomer;
//   - inputs are checked against bounds (R in [0, 5000], RD in (0, 350],
//     σ in [0.0001, 0.5], τ in [0.2, 1.2], scores in [0, 1]) and outputs
//     clamped into them, so that bad input is an error, never a panic or a
//     NaN, and any output is valid input; only the RD cap is ever reached
//     by real players;
//   - r' is computed as r + 173.7178 (μ' − μ), the same number without a
//     rounding round trip, so that a result exactly as expected leaves R
//     exactly where it was.
//
// The worked example of the paper is a test (TestGlickmanExample) and an
// example (ExampleUpdate).
//
// Where things are:
//
//	rating.go   Rating, Default, bounds, Provisional, Interval, Result, Game
//	glicko2.go  Update: steps 2 to 8, the step 5 iteration
package rating
