package eval

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
)

// randomNet returns a net of random weights for a board of points points.
func randomNet(points, hands, hidden int, seed uint64) *Net {
	rng := rand.New(rand.NewPCG(seed, 3))
	n := &Net{Points: points, Hands: hands, Hidden: hidden, B1: make([]int32, hidden), W2: make([]int32, hidden), B2: int32(rng.IntN(41) - 20)}
	n.W1 = make([]int32, hidden*n.Inputs())
	for i := range n.W1 {
		n.W1[i] = int32(rng.IntN(2*NetScale+1) - NetScale)
	}
	for j := range n.B1 {
		n.B1[j] = int32(rng.IntN(NetScale+1) - NetScale/2)
		n.W2[j] = int32(rng.IntN(40*NetScale+1) - 20*NetScale)
	}
	return n
}

// slidingPositions returns n positions of random games of nine men's
// morris in which both sides slide.
func slidingPositions(n int) []mill.Position {
	return netPositions(n, 18, 47, &Net{})
}

// placingPositions returns n positions of random games of nine men's
// morris in which a side still places.
func placingPositions(n int) []mill.Position {
	return netPositions(n, 0, 17, &Net{Hands: 9})
}

// netPositions returns n distinct positions of random games of nine men's
// morris, after minPly to maxPly plies, that net applies to.
func netPositions(n, minPly, maxPly int, net *Net) []mill.Position {
	ps := milltest.RandomPositions(mill.MustRules("nine-mens-morris"), rand.New(rand.NewPCG(9, 9)), n, minPly, maxPly,
		func(p mill.Position) bool { return net.Applies(&p) })
	if len(ps) < n {
		panic(fmt.Sprintf("%d positions of plies %d to %d found, want %d", len(ps), minPly, maxPly, n))
	}
	return ps
}

// TestNetEval checks Eval against the definition of NetScale, computed
// the slow way: every input of the position, on or off, for a net of the
// moving phase and one of the placing phase.
func TestNetEval(t *testing.T) {
	for _, n := range []*Net{randomNet(24, 0, 12, 1), randomNet(24, 9, 12, 2)} {
		ps := slidingPositions(200)
		if n.Hands > 0 {
			ps = placingPositions(200)
		}
		for _, p := range ps {
			us := p.SideToMove()
			on := func(i int) bool {
				switch {
				case i < 24:
					return p.Pieces(us).Has(mill.Point(i))
				case i < 48:
					return p.Pieces(us.Other()).Has(mill.Point(i - 24))
				case i < 48+10:
					return p.InHand(us) == i-48
				}
				return p.InHand(us.Other()) == i-58
			}
			var sum int64
			for j := 0; j < n.Hidden; j++ {
				a := int64(n.B1[j])
				for i := 0; i < n.Inputs(); i++ {
					if on(i) {
						a += int64(n.W1[i*n.Hidden+j])
					}
				}
				sum += max(a, 0) * int64(n.W2[j])
			}
			if got, want := n.Eval(&p), int(n.B2)+int(sum/(NetScale*NetScale)); got != want {
				t.Fatalf("hands %d, %v: Eval %d, want %d", n.Hands, p, got, want)
			}
		}
	}
}

// TestNetInEvaluate checks that Evaluate adds each net where it applies
// and only there.
func TestNetInEvaluate(t *testing.T) {
	w := nineMensMorris
	w.Net = nil
	wn := w
	wn.Net = randomNet(24, 0, 8, 2)
	wn.PlacingNet = randomNet(24, 9, 8, 3)
	for _, p := range slidingPositions(50) {
		if got, want := wn.Evaluate(&p), w.Evaluate(&p)+wn.Net.Eval(&p); got != want {
			t.Errorf("%v: %d, want %d", p, got, want)
		}
	}
	for _, p := range placingPositions(50) {
		if got, want := wn.Evaluate(&p), w.Evaluate(&p)+wn.PlacingNet.Eval(&p); got != want {
			t.Errorf("%v: %d, want %d", p, got, want)
		}
	}
	for _, text := range []string{
		"nine-mens-morris WWW5/BBB5/B7 w 0,0 - 0 30",  // white flies
		"nine-mens-morris WW1W4/BB1B4/8 b 0,0 - 0 30", // both fly
	} {
		p, err := mill.ParsePosition(text)
		if err != nil {
			t.Fatal(err)
		}
		if wn.Net.Applies(&p) || wn.PlacingNet.Applies(&p) || wn.Evaluate(&p) != w.Evaluate(&p) {
			t.Errorf("%s: a net counts where it does not apply", text)
		}
	}
	p := mill.MustParsePosition("nine-mens-morris W7/8/8 b 8,9 - 0 1")
	if wn.Net.Applies(&p) || !wn.PlacingNet.Applies(&p) {
		t.Errorf("%s: the placing net must apply, the moving net not", p)
	}
	if (&Net{Hands: 8}).Applies(&p) {
		t.Errorf("%s: a net of hands up to 8 applies to a hand of 9", p)
	}
}

func TestNetWriteRead(t *testing.T) {
	n := randomNet(24, 0, 5, 3)
	var b strings.Builder
	if err := n.Write(&b); err != nil {
		t.Fatal(err)
	}
	m, err := ReadNet(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var b2 strings.Builder
	m.Write(&b2)
	if b.String() != b2.String() {
		t.Errorf("read back differently:\n%s\n%s", b.String(), b2.String())
	}
}

func TestReadNetErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "unexpected end"},
		{"magic", "morris-net 2 1 0 1\n", "want \"morris-net 1\""},
		{"points", "morris-net 1 x 0 1\n", "points"},
		{"hands", "morris-net 1 1 y 1\n", "hands"},
		{"old header", "morris-net 1 1 1\n", "the hands"},
		{"too many points", "morris-net 1 33 0 1\n", "33 points (want 1 to 32)"},
		{"no hidden", "morris-net 1 1 0 0\n", "0 hidden units (want 1 to 64)"},
		{"hands too large", "morris-net 1 1 33 1\n", "hands of 33 pieces"},
		{"long row", "morris-net 1 1 0 1\n1 2\n", "2 numbers, want 1"},
		{"not a number", "morris-net 1 1 0 1\n1\nz\n", "invalid syntax"},
		{"too large", "morris-net 1 1 0 1\n1\n2\n99999999999\n", "out of range"},
		{"no output", "morris-net 1 1 0 1\n1\n2\n3\n", "unexpected end"},
		{"no bias", "morris-net 1 1 0 1\n1\n2\n3\n4\n", "unexpected end"},
		{"two biases", "morris-net 1 1 0 1\n1\n2\n3\n4\n5 6\n", "2 numbers, want 1"},
		{"trailing", "morris-net 1 1 0 1\n1\n2\n3\n4\n5\n6\n", "text after"},
	} {
		_, err := ReadNet(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	if _, err := ReadNet(strings.NewReader("morris-net 1 1 0 1\n1\n2\n3\n4\n5\n\n")); err != nil {
		t.Errorf("a good net with a blank line after it: %v", err)
	}
}

func FuzzReadNet(f *testing.F) {
	var b strings.Builder
	randomNet(3, 0, 2, 4).Write(&b)
	f.Add(b.String())
	f.Add("morris-net 1 1 0 1\n1\n2\n3\n4\n5\n")
	f.Fuzz(func(t *testing.T, text string) {
		n, err := ReadNet(strings.NewReader(text))
		if err != nil {
			return
		}
		if err := n.Validate(); err != nil {
			t.Fatalf("read a net that does not validate: %v", err)
		}
		var out strings.Builder
		if err := n.Write(&out); err != nil {
			t.Fatal(err)
		}
		m, err := ReadNet(strings.NewReader(out.String()))
		if err != nil {
			t.Fatalf("cannot read back what was written: %v", err)
		}
		if m.Points != n.Points || m.Hidden != n.Hidden || m.B2 != n.B2 {
			t.Fatal("read back differently")
		}
	})
}

func TestNetNoAllocs(t *testing.T) {
	ps := slidingPositions(20)
	w := nineMensMorris
	w.Net = randomNet(24, 0, 32, 5)
	if a := testing.AllocsPerRun(100, func() {
		for i := range ps {
			w.Evaluate(&ps[i])
		}
	}); a != 0 {
		t.Errorf("%v allocations", a)
	}
}

// BenchmarkEvaluate measures Evaluate on positions where both sides slide,
// without a net, with one of 16 and 32 hidden units, and with
// nineMensMorris's own (64 hidden units).
func BenchmarkEvaluate(b *testing.B) {
	ps := slidingPositions(256)
	for _, hidden := range []int{0, 16, 32, 64} {
		w := nineMensMorris
		switch hidden {
		case 0:
			w.Net = nil
		case 16, 32:
			w.Net = randomNet(24, 0, hidden, 6)
		}
		b.Run("hidden="+strconv.Itoa(hidden), func(b *testing.B) {
			b.ReportAllocs()
			s := 0
			for i := 0; b.Loop(); i++ {
				s += w.Evaluate(&ps[i&255])
			}
			sink = s
		})
	}
}

var sink int

// TestAccumulator plays random games of nine men's morris and keeps each
// net's sums move by move with Update: at every ply they must equal the
// sums Init computes from scratch, and Output what Eval gives.
func TestAccumulator(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	rng := rand.New(rand.NewPCG(4, 4))
	for _, n := range []*Net{randomNet(24, 0, 16, 7), randomNet(24, 9, 16, 8)} {
		applied := 0
		for game := 0; game < 30; game++ {
			p := r.Start()
			var a, fresh Accumulator
			n.Init(&a, &p)
			for ply := 0; ply < 200; ply++ {
				ms := p.Moves(nil)
				if o, _ := p.Status(); o != mill.NoOutcome || len(ms) == 0 {
					break
				}
				q := p.Play(ms[rng.IntN(len(ms))])
				var b Accumulator
				n.Update(&b, &a, &p, &q)
				n.Init(&fresh, &q)
				for c := range 2 {
					if b.h[c] != fresh.h[c] {
						t.Fatalf("hands %d, %s after %s: the sums kept differ from Init's", n.Hands, q, p)
					}
				}
				if n.Applies(&q) {
					applied++
					if got, want := n.Output(&b, &q), n.Eval(&q); got != want {
						t.Fatalf("hands %d, %s: Output %d, Eval %d", n.Hands, q, got, want)
					}
				}
				p, a = q, b
			}
		}
		if applied < 500 {
			t.Errorf("hands %d: only %d positions the net applies to", n.Hands, applied)
		}
	}
}
