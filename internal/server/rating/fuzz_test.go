package rating

import (
	"math"
	"testing"
)

// FuzzUpdate: Update never panics; it accepts every input within the
// bounds, and what it returns then is a valid, finite rating with RD in
// (0, 350]; otherwise it returns an error and its input unchanged.
func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 1.0, 1550.0, 100.0, 0.0, uint8(3), 0.5)
	f.Add(1500.0, 350.0, 0.06, 1500.0, 350.0, 0.5, 1500.0, 350.0, 0.5, uint8(1), 0.75)
	f.Add(1500.0, 350.0, 0.06, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, uint8(0), 0.5)
	f.Add(0.0, 0.001, 0.5, 5000.0, 0.001, 1.0, 5000.0, 0.001, 1.0, uint8(8), 1.2)
	f.Add(5000.0, 0.001, 0.0001, 0.0, 0.001, 0.0, 0.0, 350.0, 0.0, uint8(8), 0.2)
	f.Add(math.NaN(), 200.0, 0.06, 1400.0, 30.0, 1.0, 1550.0, 100.0, 0.0, uint8(2), 0.5)
	f.Add(1500.0, 200.0, 0.06, 1400.0, math.Inf(1), 1.0, 1550.0, 100.0, 2.0, uint8(2), 0.5)
	f.Fuzz(func(t *testing.T, r, rd, sigma, r1, rd1, s1, r2, rd2, s2 float64, n uint8, tau float64) {
		in := Rating{R: r, RD: rd, Sigma: sigma}
		var buf [8]Result
		results := buf[:n%9]
		for i := range results {
			if i%2 == 0 {
				results[i] = Result{Opponent: Rating{R: r1, RD: rd1}, Score: s1}
			} else {
				results[i] = Result{Opponent: Rating{R: r2, RD: rd2}, Score: s2}
			}
		}
		valid := in.Validate() == nil && validateTau(tau) == nil
		for _, res := range results {
			valid = valid && res.Opponent.validateRRD() == nil && validateScore(res.Score) == nil
		}

		got, err := Update(in, results, tau)
		if err != nil {
			if valid {
				t.Fatalf("Update(%+v, %+v, %v): %v, want no error for valid input", in, results, tau, err)
			}
			if !same(got, in) {
				t.Fatalf("Update(%+v, ...) failed with %v but returned %+v, want the input", in, err, got)
			}
			return
		}
		if !valid {
			t.Fatalf("Update(%+v, %+v, %v) = %+v, want an error for invalid input", in, results, tau, got)
		}
		for _, x := range []float64{got.R, got.RD, got.Sigma} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("Update(%+v, %+v, %v) = %+v, not finite", in, results, tau, got)
			}
		}
		if !(got.RD > 0 && got.RD <= MaxRD) || got.Validate() != nil {
			t.Fatalf("Update(%+v, %+v, %v) = %+v, not a valid rating: %v", in, results, tau, got, got.Validate())
		}
		if len(results) == 0 && (got.R != in.R || got.Sigma != in.Sigma || got.RD < in.RD) {
			t.Fatalf("Update(%+v, no games, %v) = %+v, want only RD to grow", in, tau, got)
		}
	})
}
