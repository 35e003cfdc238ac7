package eval

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// randomNet returns a net of random weights for a board of points points.
func randomNet(points, hidden int, seed uint64) *Net {
	rng := rand.New(rand.NewPCG(seed, 3))
	n := &Net{Points: points, Hidden: hidden, W1: make([]int32, hidden*2*points), B1: make([]int32, hidden), W2: make([]int32, hidden), B2: int32(rng.IntN(41) - 20)}
	for i := range n.W1 {
		n.W1[i] = int32(rng.IntN(2*NetScale+1) - NetScale)
	}
	for j := range n.B1 {
		n.B1[j] = int32(rng.IntN(NetScale+1) - NetScale/2)
		n.W2[j] = int32(rng.IntN(40*NetScale+1) - 20*NetScale)
	}
	return n
}

// slidingPositions returns positions of random games of nine men's morris
// in which both sides slide.
func slidingPositions(n int) []mill.Position {
	r := mill.MustRules("nine-mens-morris")
	rng := rand.New(rand.NewPCG(9, 9))
	var out []mill.Position
	for len(out) < n {
		p := r.Start()
		for i := 0; i < 18+rng.IntN(30); i++ {
			ms := p.Moves(nil)
			if len(ms) == 0 {
				break
			}
			p = p.Play(ms[rng.IntN(len(ms))])
		}
		if o, _ := p.Status(); o == mill.NoOutcome && (&Net{}).Applies(&p) {
			out = append(out, p)
		}
	}
	return out
}

// TestNetEval checks Eval against the definition of NetScale, computed
// the slow way: every input of the position, on or off.
func TestNetEval(t *testing.T) {
	n := randomNet(24, 12, 1)
	for _, p := range slidingPositions(200) {
		us := p.SideToMove()
		on := func(i int) bool {
			if i < 24 {
				return p.Pieces(us)&(1<<i) != 0
			}
			return p.Pieces(us.Other())&(1<<(i-24)) != 0
		}
		var sum int64
		for j := 0; j < n.Hidden; j++ {
			a := int64(n.B1[j])
			for i := 0; i < 48; i++ {
				if on(i) {
					a += int64(n.W1[i*n.Hidden+j])
				}
			}
			sum += max(a, 0) * int64(n.W2[j])
		}
		if got, want := n.Eval(&p), int(n.B2)+int(sum/(NetScale*NetScale)); got != want {
			t.Fatalf("%v: Eval %d, want %d", p, got, want)
		}
	}
}

// TestNetInEvaluate checks that Evaluate adds the net where it applies and
// only there.
func TestNetInEvaluate(t *testing.T) {
	w := NineMensMorris
	wn := w
	wn.Net = randomNet(24, 8, 2)
	for _, p := range slidingPositions(50) {
		if got, want := wn.Evaluate(&p), w.Evaluate(&p)+wn.Net.Eval(&p); got != want {
			t.Errorf("%v: %d, want %d", p, got, want)
		}
	}
	for _, text := range []string{
		"nine-mens-morris W7/8/8 b 8,9 - 0 1",         // placing
		"nine-mens-morris WWW5/BBB5/B7 w 0,0 - 0 30",  // white flies
		"nine-mens-morris WW1W4/BB1B4/8 b 0,0 - 0 30", // both fly
	} {
		p, err := mill.ParsePosition(text)
		if err != nil {
			t.Fatal(err)
		}
		if wn.Net.Applies(&p) || wn.Evaluate(&p) != w.Evaluate(&p) {
			t.Errorf("%s: the net counts where it does not apply", text)
		}
	}
}

func TestNetWriteRead(t *testing.T) {
	n := randomNet(24, 5, 3)
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
		{"magic", "morris-net 2 1 1\n", "want \"morris-net 1\""},
		{"points", "morris-net 1 x 1\n", "points"},
		{"too many points", "morris-net 1 33 1\n", "want 1-32"},
		{"no hidden", "morris-net 1 1 0\n", "want 1-32 and 1-64"},
		{"long row", "morris-net 1 1 1\n1 2\n", "2 numbers, want 1"},
		{"not a number", "morris-net 1 1 1\n1\nz\n", "invalid syntax"},
		{"too large", "morris-net 1 1 1\n1\n2\n99999999999\n", "out of range"},
		{"no output", "morris-net 1 1 1\n1\n2\n3\n", "unexpected end"},
		{"no bias", "morris-net 1 1 1\n1\n2\n3\n4\n", "unexpected end"},
		{"two biases", "morris-net 1 1 1\n1\n2\n3\n4\n5 6\n", "2 numbers, want 1"},
		{"trailing", "morris-net 1 1 1\n1\n2\n3\n4\n5\n6\n", "text after"},
	} {
		_, err := ReadNet(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	if _, err := ReadNet(strings.NewReader("morris-net 1 1 1\n1\n2\n3\n4\n5\n\n")); err != nil {
		t.Errorf("a good net with a blank line after it: %v", err)
	}
}

func FuzzReadNet(f *testing.F) {
	var b strings.Builder
	randomNet(3, 2, 4).Write(&b)
	f.Add(b.String())
	f.Add("morris-net 1 1 1\n1\n2\n3\n4\n5\n")
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
	w := NineMensMorris
	w.Net = randomNet(24, 32, 5)
	if a := testing.AllocsPerRun(100, func() {
		for i := range ps {
			w.Evaluate(&ps[i])
		}
	}); a != 0 {
		t.Errorf("%v allocations", a)
	}
}

// BenchmarkEvaluate measures Evaluate on positions where both sides slide,
// without a net and with one of 16 and 32 hidden units.
func BenchmarkEvaluate(b *testing.B) {
	ps := slidingPositions(256)
	for _, hidden := range []int{0, 16, 32} {
		w := NineMensMorris
		if hidden > 0 {
			w.Net = randomNet(24, hidden, 6)
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
