package rating

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// The worked example of Glickman's "Example of the Glicko-2 system": a
// player rated 1500, RD 200, σ 0.06 plays three games with τ = 0.5.
var (
	examplePlayer  = Rating{R: 1500, RD: 200, Sigma: 0.06}
	exampleResults = []Result{
		{Opponent: Rating{R: 1400, RD: 30}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300}, Score: 0},
	}
)

const exampleTau = 0.5

// near reports whether got equals want to within tol.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol
}

// roundTo rounds x to the given number of decimals, as the paper prints.
func roundTo(x float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(x*p) / p
}

func TestGlickmanExample(t *testing.T) {
	// Step 2.
	mu, phi := (examplePlayer.R-DefaultR)/scale, examplePlayer.RD/scale
	if mu != 0 || roundTo(phi, 4) != 1.1513 {
		t.Errorf("step 2: got μ = %v, φ = %v, want 0, 1.1513", mu, phi)
	}

	// Step 3's table: g(φj) to four decimals, E to three, as printed.
	wantG := []float64{0.9955, 0.9531, 0.7242}
	wantE := []float64{0.639, 0.432, 0.303}
	for j, res := range exampleResults {
		gj := g(res.Opponent.RD / scale)
		e := expected(mu, (res.Opponent.R-DefaultR)/scale, gj)
		if roundTo(gj, 4) != wantG[j] || roundTo(e, 3) != wantE[j] {
			t.Errorf("opponent %d (%+v): got g = %.6f, E = %.6f, want %v, %v", j+1, res.Opponent, gj, e, wantG[j], wantE[j])
		}
	}

	// Steps 3 and 4. The paper computes v and Δ from the rounded g and E
	// of its table, which puts its v = 1.7785 and Δ = −0.4834 about 5e-4
	// from the exact values (1.77898, −0.48393); the first check proves
	// that arithmetic, the second that ours is within that rounding.
	var info, sum float64
	for j := range wantG {
		info += wantG[j] * wantG[j] * wantE[j] * (1 - wantE[j])
		sum += wantG[j] * (exampleResults[j].Score - wantE[j])
	}
	if pv, pd := 1/info, sum/info; roundTo(pv, 4) != 1.7785 || roundTo(pd, 4) != -0.4834 {
		t.Errorf("paper's arithmetic: got v = %.6f, Δ = %.6f, want 1.7785, -0.4834", pv, pd)
	}
	v, sum := period(mu, exampleResults)
	delta := v * sum
	if !near(v, 1.7785, 1e-3) || !near(delta, -0.4834, 1e-3) {
		t.Errorf("steps 3, 4: got v = %.6f, Δ = %.6f, want 1.7785, -0.4834 within the paper's rounding", v, delta)
	}

	// Step 5, from the paper's own v and Δ and from ours: σ' = 0.05999.
	for _, in := range []struct {
		name     string
		v, delta float64
	}{
		{"paper's v, Δ", 1.7785, -0.4834},
		{"exact v, Δ", v, delta},
	} {
		sigma, err := volatility(examplePlayer.Sigma, phi, in.v, in.delta, exampleTau)
		if err != nil || !near(sigma, 0.05999, 1e-5) {
			t.Errorf("step 5 with %s: got σ' = %.8f, %v, want 0.05999", in.name, sigma, err)
		}
	}

	// Steps 6 to 8 through Update.
	got, err := Update(examplePlayer, exampleResults, exampleTau)
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	muNew, phiNew := (got.R-DefaultR)/scale, got.RD/scale
	if roundTo(muNew, 4) != -0.2069 || roundTo(phiNew, 4) != 0.8722 || !near(got.Sigma, 0.05999, 1e-5) {
		t.Errorf("got μ' = %.6f, φ' = %.6f, σ' = %.8f, want -0.2069, 0.8722, 0.05999", muNew, phiNew, got.Sigma)
	}
	// The paper's step 8 converts the rounded μ' and φ': 1464.06, 151.52.
	// Unrounded, r' = 1464.0507 and RD' = 151.5165, within 0.01 of them.
	if r, rd := 173.7178*-0.2069+1500, 173.7178*0.8722; roundTo(r, 2) != 1464.06 || roundTo(rd, 2) != 151.52 {
		t.Errorf("paper's step 8: got %.4f, %.4f, want 1464.06, 151.52", r, rd)
	}
	if !near(got.R, 1464.06, 0.01) || !near(got.RD, 151.52, 0.01) {
		t.Errorf("got r' = %.4f, RD' = %.4f, want 1464.06, 151.52", got.R, got.RD)
	}
	// Regression: the unrounded values, as other implementations give them.
	if !near(got.R, 1464.0507, 1e-4) || !near(got.RD, 151.5165, 1e-4) || !near(got.Sigma, 0.059996, 1e-6) {
		t.Errorf("got %+v, want {R:1464.0507 RD:151.5165 Sigma:0.059996}", got)
	}
}

func TestNoGames(t *testing.T) {
	for _, r := range []Rating{
		examplePlayer,
		{R: 2100.5, RD: 45, Sigma: 0.09},
		{R: 1200, RD: 349.9, Sigma: 0.06},
		Default(),
		{R: MinR, RD: MaxRD, Sigma: MaxSigma},
	} {
		got, err := Update(r, nil, exampleTau)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		// Step 6: φ' = √(φ² + σ²), capped at MaxRD.
		want := math.Min(MaxRD, scale*math.Sqrt(math.Pow(r.RD/scale, 2)+r.Sigma*r.Sigma))
		if got.R != r.R || got.Sigma != r.Sigma || !near(got.RD, want, 1e-9) || got.RD < r.RD {
			t.Errorf("%+v with no games: got %+v, want RD %.6f and the rest unchanged", r, got, want)
		}
	}
	// 1500/200/0.06 idle: φ* = √(φ² + 0.06²), next to the paper's step 6
	// value 1.152862 (which is √(1.1513² + 0.05999²), from rounded φ and
	// σ', so 7e-6 from the exact 1.152855 with σ = 0.06).
	got, _ := Update(examplePlayer, []Result{}, exampleTau)
	if !near(got.RD/scale, 1.152862, 1e-5) {
		t.Errorf("idle %+v: got φ' = %.7f, want 1.152862", examplePlayer, got.RD/scale)
	}
}

// TestDrawBetweenEquals: a draw between players rated alike is what both
// were expected to score, so R does not move at all; RD shrinks (a game
// was seen), and σ cannot grow (the result was no surprise: by step 5 it
// drops a hair).
func TestDrawBetweenEquals(t *testing.T) {
	for _, r := range []Rating{
		Default(),
		examplePlayer,
		{R: 1623.4, RD: 87.3, Sigma: 0.0712},
		{R: 999.9, RD: 51, Sigma: 0.04},
	} {
		a, b, err := Game(r, r, 0.5, exampleTau)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if a != b {
			t.Errorf("%+v drew with itself: got %+v and %+v, want the same", r, a, b)
		}
		if a.R != r.R || !(a.RD < r.RD) || a.Sigma > r.Sigma {
			t.Errorf("%+v drew with itself: got %+v, want R unchanged, RD smaller, σ no larger", r, a)
		}
	}
}

// TestGameSymmetry: Game does not care which player is named first, and
// players with the same RD and σ exchange exactly the points one wins
// (with different ones, each side's φ' differs and so does its change).
func TestGameSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		a, b := randomRating(rng), randomRating(rng)
		s := randomScore(rng)
		a1, b1, err1 := Game(a, b, s, exampleTau)
		b2, a2, err2 := Game(b, a, 1-s, exampleTau)
		if err1 != nil || err2 != nil || a1 != a2 || b1 != b2 {
			t.Fatalf("Game(%+v, %+v, %v) = %+v, %+v, %v; swapped %+v, %+v, %v", a, b, s, a1, b1, err1, a2, b2, err2)
		}
		b.RD, b.Sigma = a.RD, a.Sigma
		a1, b1, _ = Game(a, b, s, exampleTau)
		if a1.R == MinR || a1.R == MaxR || b1.R == MinR || b1.R == MaxR {
			continue // clamped: the bound took what the other lost
		}
		if gain, loss := a1.R-a.R, b.R-b1.R; !near(gain, loss, 1e-9) {
			t.Fatalf("Game(%+v, %+v, %v): a gained %v, b lost %v, want equal", a, b, s, gain, loss)
		}
	}
}

// TestMonotonic: a better score never gives a lower rating. The update is
// R + 173.7178·φ'²·Σ g(sj − E) where φ' grows with |Σ|, so this holds for
// any change of one score with the rest of the period fixed.
func TestMonotonic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	scores := []float64{0, 0.5, 1}
	for range 2000 {
		r := randomRating(rng)
		tau := MinTau + rng.Float64()*(MaxTau-MinTau)
		results := make([]Result, 1+rng.IntN(12))
		for i := range results {
			results[i] = Result{Opponent: randomRating(rng), Score: scores[rng.IntN(3)]}
		}
		i := rng.IntN(len(results))
		var prev Rating
		for k, s := range scores {
			results[i].Score = s
			got, err := Update(r, results, tau)
			if err != nil {
				t.Fatalf("%+v, %+v, τ %v: %v", r, results, tau, err)
			}
			if k > 0 && got.R < prev.R {
				t.Fatalf("%+v, τ %v: raising game %d's score to %v took R from %v to %v\nresults %+v", r, tau, i, s, prev.R, got.R, results)
			}
			prev = got
		}
		// A period of wins only never lowers R, of losses only never raises it.
		for j := range results {
			results[j].Score = 1
		}
		if got, _ := Update(r, results, tau); got.R < r.R {
			t.Fatalf("%+v won all of %+v and went down to %v", r, results, got.R)
		}
		for j := range results {
			results[j].Score = 0
		}
		if got, _ := Update(r, results, tau); got.R > r.R {
			t.Fatalf("%+v lost all of %+v and went up to %v", r, results, got.R)
		}
	}
}

// TestVolatilityTwin checks step 5's Illinois iteration against plain
// bisection of the same f, a slow readable twin.
func TestVolatilityTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		r := randomRating(rng)
		tau := MinTau + rng.Float64()*(MaxTau-MinTau)
		results := make([]Result, 1+rng.IntN(5))
		for i := range results {
			results[i] = Result{Opponent: randomRating(rng), Score: randomScore(rng)}
		}
		phi := r.RD / scale
		v, sum := period((r.R-DefaultR)/scale, results)
		got, err := volatility(r.Sigma, phi, v, v*sum, tau)
		if err != nil {
			t.Fatal(err)
		}
		want := bisectVolatility(r.Sigma, phi, v, v*sum, tau)
		if !near(got, want, 1e-6*want) {
			t.Fatalf("%+v, %+v, τ %v: Illinois σ' = %v, bisection %v", r, results, tau, got, want)
		}
	}
}

// bisectVolatility solves step 5's f(x) = 0 by bisection on a bracket
// widened until f changes sign.
func bisectVolatility(sigma, phi, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	// f decreases through its one root, so search down while f(lo) < 0
	// and up while f(hi) > 0.
	lo, hi := a-1, a+1
	for f(lo) < 0 {
		lo -= 1
	}
	for f(hi) > 0 {
		hi += 1
	}
	for hi-lo > 1e-12 {
		mid := (lo + hi) / 2
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(lo / 2)
}

func TestBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	good := Result{Opponent: Rating{R: 1400, RD: 30}, Score: 1}
	tests := []struct {
		name    string
		r       Rating
		results []Result
		tau     float64
		want    error
	}{
		{"NaN rating", Rating{R: nan, RD: 200, Sigma: 0.06}, nil, 0.5, ErrRating},
		{"infinite rating", Rating{R: inf, RD: 200, Sigma: 0.06}, nil, 0.5, ErrRating},
		{"negative rating", Rating{R: -1, RD: 200, Sigma: 0.06}, nil, 0.5, ErrRating},
		{"huge rating", Rating{R: 1e9, RD: 200, Sigma: 0.06}, nil, 0.5, ErrRating},
		{"zero RD", Rating{R: 1500, RD: 0, Sigma: 0.06}, nil, 0.5, ErrRating},
		{"negative RD", Rating{R: 1500, RD: -5, Sigma: 0.06}, nil, 0.5, ErrRating},
		{"RD above 350", Rating{R: 1500, RD: 350.01, Sigma: 0.06}, nil, 0.5, ErrRating},
		{"NaN RD", Rating{R: 1500, RD: nan, Sigma: 0.06}, nil, 0.5, ErrRating},
		{"zero volatility", Rating{R: 1500, RD: 200}, nil, 0.5, ErrRating},
		{"huge volatility", Rating{R: 1500, RD: 200, Sigma: 3}, nil, 0.5, ErrRating},
		{"NaN volatility", Rating{R: 1500, RD: 200, Sigma: nan}, nil, 0.5, ErrRating},
		{"zero rating value", Rating{}, []Result{good}, 0.5, ErrRating},
		{"opponent NaN", examplePlayer, []Result{good, {Opponent: Rating{R: nan, RD: 30}, Score: 1}}, 0.5, ErrRating},
		{"opponent RD 0", examplePlayer, []Result{{Opponent: Rating{R: 1400}, Score: 1}}, 0.5, ErrRating},
		{"score 2", examplePlayer, []Result{{Opponent: good.Opponent, Score: 2}}, 0.5, ErrScore},
		{"score -0.5", examplePlayer, []Result{{Opponent: good.Opponent, Score: -0.5}}, 0.5, ErrScore},
		{"score NaN", examplePlayer, []Result{good, {Opponent: good.Opponent, Score: nan}}, 0.5, ErrScore},
		{"tau 0", examplePlayer, []Result{good}, 0, ErrTau},
		{"tau 0.1", examplePlayer, []Result{good}, 0.1, ErrTau},
		{"tau 5", examplePlayer, []Result{good}, 5, ErrTau},
		{"tau NaN", examplePlayer, nil, nan, ErrTau},
		{"tau -Inf", examplePlayer, []Result{good}, math.Inf(-1), ErrTau},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Update(tt.r, tt.results, tt.tau)
			if !errors.Is(err, tt.want) {
				t.Errorf("Update(%+v, %+v, %v): got error %v, want %v", tt.r, tt.results, tt.tau, err, tt.want)
			}
			if !same(got, tt.r) {
				t.Errorf("Update(%+v, ...) with an error: got %+v, want the input back", tt.r, got)
			}
		})
	}

	// Game checks both players and the score.
	for _, tt := range []struct {
		a, b Rating
		s    float64
		tau  float64
		want error
	}{
		{Default(), Default(), 1.5, 0.5, ErrScore},
		{Default(), Default(), nan, 0.5, ErrScore},
		{Default(), Rating{R: 1500, RD: 100}, 1, 0.5, ErrRating}, // b needs a volatility: b is updated too
		{Rating{R: 1500, RD: 400, Sigma: 0.06}, Default(), 1, 0.5, ErrRating},
		{Default(), Default(), 1, 2, ErrTau},
	} {
		a, b, err := Game(tt.a, tt.b, tt.s, tt.tau)
		if !errors.Is(err, tt.want) || !same(a, tt.a) || !same(b, tt.b) {
			t.Errorf("Game(%+v, %+v, %v, %v) = %+v, %+v, %v; want the inputs back and %v", tt.a, tt.b, tt.s, tt.tau, a, b, err, tt.want)
		}
	}
}

// same compares ratings treating NaN as equal to NaN.
func same(a, b Rating) bool {
	eq := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	return eq(a.R, b.R) && eq(a.RD, b.RD) && eq(a.Sigma, b.Sigma)
}

func TestExtremes(t *testing.T) {
	// The widest gap the bounds allow, the underdog winning: Δ is about
	// 10¹², far past anything real, and the result must still be valid.
	low := Rating{R: MinR, RD: 1e-3, Sigma: MaxSigma}
	high := Rating{R: MaxR, RD: 1e-3, Sigma: MinSigma}
	for _, tau := range []float64{MinTau, 0.5, MaxTau} {
		for _, s := range []float64{0, 0.5, 1} {
			a, b, err := Game(low, high, s, tau)
			if err != nil {
				t.Fatalf("Game(%+v, %+v, %v, %v): %v", low, high, s, tau, err)
			}
			if a.Validate() != nil || b.Validate() != nil {
				t.Errorf("Game(%+v, %+v, %v, %v) = %+v, %+v, not valid ratings", low, high, s, tau, a, b)
			}
		}
	}
}

func TestProvisionalInterval(t *testing.T) {
	if !Default().Provisional() {
		t.Errorf("Default() = %+v is not provisional", Default())
	}
	if r := (Rating{R: 1500, RD: 110, Sigma: 0.06}); r.Provisional() {
		t.Errorf("%+v is provisional, want not at RD 110", r)
	}
	if r := (Rating{R: 1500, RD: 110.01, Sigma: 0.06}); !r.Provisional() {
		t.Errorf("%+v is not provisional, want provisional above RD 110", r)
	}
	lo, hi := Rating{R: 1850, RD: 50, Sigma: 0.06}.Interval()
	if lo != 1752 || hi != 1948 {
		t.Errorf("Interval of 1850/50: got [%v, %v], want [1752, 1948]", lo, hi)
	}
	// A newcomer playing established opponents leaves provisional status
	// after about 10 games; the documentation of ProvisionalRD says so.
	r, opp := Default(), Rating{R: 1500, RD: 60, Sigma: 0.06}
	n := 0
	for ; r.Provisional(); n++ {
		r, _ = Update(r, []Result{{Opponent: opp, Score: float64(n % 2)}}, 0.75)
	}
	if n < 8 || n > 12 {
		t.Errorf("provisional for %d games against %+v, want about 10", n, opp)
	}
}

func TestUpdateDoesNotAllocate(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := Update(examplePlayer, exampleResults, exampleTau); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Game(examplePlayer, Default(), 1, exampleTau); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Update and Game allocate %v times a call, want 0", allocs)
	}
}

func BenchmarkUpdate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Update(examplePlayer, exampleResults, exampleTau)
	}
}

func BenchmarkGame(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _, _ = Game(examplePlayer, Default(), 1, exampleTau)
	}
}

// randomRating returns a valid rating, mostly of the kind players have,
// sometimes at the bounds.
func randomRating(rng *rand.Rand) Rating {
	if rng.IntN(20) == 0 {
		return Rating{
			R:     []float64{MinR, MaxR, 1500}[rng.IntN(3)],
			RD:    []float64{1e-3, 1, MaxRD}[rng.IntN(3)],
			Sigma: []float64{MinSigma, MaxSigma, 0.06}[rng.IntN(3)],
		}
	}
	return Rating{
		R:     500 + rng.Float64()*2500,
		RD:    30 + rng.Float64()*(MaxRD-30),
		Sigma: 0.03 + rng.Float64()*0.07,
	}
}

func randomScore(rng *rand.Rand) float64 {
	if rng.IntN(4) == 0 {
		return rng.Float64()
	}
	return []float64{0, 0.5, 1}[rng.IntN(3)]
}
