package eval

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// A Net is a small neural network that adds to the weighted sum: Evaluate
// adds its output in the positions it applies to. A net of the moving
// phase (Hands 0) applies when both sides slide (nothing in hand, neither
// flies); one of the placing phase (Hands > 0) when a side still has
// pieces in hand, at most Hands each. Neither applies while a removal is
// owed or a point is marked. It sees the position as the side to move
// does: one input for each point with one of its pieces, one for each
// point with an opposing piece, and for the placing phase one input for
// the number of pieces in the mover's hand (0 to Hands) and one for the
// opponent's; then a hidden layer of rectified units and one output in the
// evaluation's units. It is trained (internal/engine/tune) to correct what the
// weighted sum misjudges, such as the blockades that the counts of steps
// do not see coming.
//
// The weights are integers (fixed point, NetScale to the unit) so that a
// search gives the same tree on every machine; the output is exact integer
// arithmetic, with no allocation.
type Net struct {
	Points int     // points of the board
	Hands  int     // 0: a net of the moving phase; else of the placing phase, with hands of up to Hands pieces
	Hidden int     // hidden units, at most MaxHidden
	W1     []int32 // Inputs() rows (see Net) of Hidden weights, NetScale to 1
	B1     []int32 // Hidden biases, NetScale to 1
	W2     []int32 // Hidden output weights, NetScale to 1
	B2     int32   // output bias, in the evaluation's units
}

// Inputs returns the number of the net's inputs: 2·Points, and 2·(Hands+1)
// more for a net of the placing phase.
func (n *Net) Inputs() int {
	if n.Hands > 0 {
		return 2*n.Points + 2*(n.Hands+1)
	}
	return 2 * n.Points
}

// MaxHidden bounds a Net's hidden units.
const MaxHidden = 64

// NetScale is the fixed point of a Net's weights: a weight w stands for
// w/NetScale. The output of hidden unit j is max(0, B1[j] + the weights of
// the inputs that are on), and the net's value is B2 plus the sum of the
// hidden outputs times W2, divided by NetScale².
const NetScale = 256

// Applies reports whether the net scores p (see Net).
func (n *Net) Applies(p *mill.Position) bool {
	if p.Marked() != 0 || p.Owed(mill.White) != 0 || p.Owed(mill.Black) != 0 {
		return false
	}
	hw, hb := p.InHand(mill.White), p.InHand(mill.Black)
	if n.Hands > 0 {
		return hw+hb > 0 && hw <= n.Hands && hb <= n.Hands
	}
	return hw == 0 && hb == 0 && !p.Flying(mill.White) && !p.Flying(mill.Black)
}

// Active appends to dst the inputs of p that are on, in the order of Net:
// p's pieces seen by its side to move, then for a net of the placing phase
// the two hands. Eval sums their rows; training reads them.
func (n *Net) Active(p *mill.Position, dst []int) []int {
	return n.hands(p, n.board(p, p.SideToMove(), dst))
}

// board appends the inputs of p's pieces as us sees them: its own points,
// then the opponent's.
func (n *Net) board(p *mill.Position, us mill.Color, dst []int) []int {
	for pt := range p.Pieces(us).All() {
		dst = append(dst, int(pt))
	}
	for pt := range p.Pieces(us.Other()).All() {
		dst = append(dst, n.Points+int(pt))
	}
	return dst
}

// hands appends, for a net of the placing phase, the inputs of the two
// hands of p: the side to move's, then the opponent's.
func (n *Net) hands(p *mill.Position, dst []int) []int {
	if n.Hands == 0 {
		return dst
	}
	us := p.SideToMove()
	return append(dst, 2*n.Points+p.InHand(us), 2*n.Points+n.Hands+1+p.InHand(us.Other()))
}

// Eval returns the net's value of p for the side to move. p must be a
// position the net Applies to, on a board of n.Points points.
func (n *Net) Eval(p *mill.Position) int {
	var acc [MaxHidden]int32
	var in [2*32 + 2]int
	h := acc[:n.Hidden]
	copy(h, n.B1)
	for _, i := range n.Active(p, in[:0]) {
		addRow(h, n.row(i))
	}
	return n.out(h)
}

// An Accumulator holds a net's hidden sums over the pieces of a position
// (the hands left out), one set for each side to move, so that a search can
// update them move by move (Update) instead of summing every piece again.
type Accumulator struct {
	h [2][MaxHidden]int32
}

// row returns the weights of input i.
func (n *Net) row(i int) []int32 { return n.W1[i*n.Hidden : (i+1)*n.Hidden] }

// Init sets a to the sums of p's pieces.
func (n *Net) Init(a *Accumulator, p *mill.Position) {
	var in [2 * 32]int
	for c := mill.White; c <= mill.Black; c++ {
		h := a.h[c][:n.Hidden]
		copy(h, n.B1)
		for _, i := range n.board(p, c, in[:0]) {
			addRow(h, n.row(i))
		}
	}
}

// Update sets a to the sums of after, from prev, the sums of before: only
// the points whose pieces changed are added or taken away.
func (n *Net) Update(a, prev *Accumulator, before, after *mill.Position) {
	a.h[0], a.h[1] = prev.h[0], prev.h[1]
	for c := mill.White; c <= mill.Black; c++ {
		b, f := before.Pieces(c), after.Pieces(c)
		own, opp := a.h[c][:n.Hidden], a.h[c.Other()][:n.Hidden]
		for pt := range (f &^ b).All() {
			addRow(own, n.row(int(pt)))
			addRow(opp, n.row(n.Points+int(pt)))
		}
		for pt := range (b &^ f).All() {
			subRow(own, n.row(int(pt)))
			subRow(opp, n.row(n.Points+int(pt)))
		}
	}
}

// Output returns the net's value of p from a, the sums of p's pieces: what
// Eval returns.
func (n *Net) Output(a *Accumulator, p *mill.Position) int {
	var acc [MaxHidden]int32
	var in [2]int
	h := acc[:n.Hidden]
	copy(h, a.h[p.SideToMove()][:n.Hidden])
	for _, i := range n.hands(p, in[:0]) {
		addRow(h, n.row(i))
	}
	return n.out(h)
}

// out returns the output of hidden sums h.
func (n *Net) out(h []int32) int {
	var out int64
	w2 := n.W2[:len(h)]
	for j, a := range h {
		if a > 0 {
			out += int64(a) * int64(w2[j])
		}
	}
	return int(n.B2) + int(out/(NetScale*NetScale))
}

func addRow(h, row []int32) {
	row = row[:len(h)]
	for j, w := range row {
		h[j] += w
	}
}

func subRow(h, row []int32) {
	row = row[:len(h)]
	for j, w := range row {
		h[j] -= w
	}
}

// Validate reports whether the sizes of n agree with each other.
func (n *Net) Validate() error {
	if err := n.validShape(); err != nil {
		return err
	}
	switch {
	case len(n.W1) != n.Hidden*n.Inputs():
		return fmt.Errorf("net: %d input weights, want %d", len(n.W1), n.Hidden*n.Inputs())
	case len(n.B1) != n.Hidden || len(n.W2) != n.Hidden:
		return fmt.Errorf("net: %d biases and %d output weights, want %d each", len(n.B1), len(n.W2), n.Hidden)
	}
	return nil
}

// validShape reports whether the points, hands and hidden units of n are
// within bounds.
func (n *Net) validShape() error {
	switch {
	case n.Points <= 0 || n.Points > 32:
		return fmt.Errorf("net: %d points (want 1 to 32)", n.Points)
	case n.Hands < 0 || n.Hands > 32:
		return fmt.Errorf("net: hands of %d pieces (want 0 to 32)", n.Hands)
	case n.Hidden <= 0 || n.Hidden > MaxHidden:
		return fmt.Errorf("net: %d hidden units (want 1 to %d)", n.Hidden, MaxHidden)
	}
	return nil
}

// netMagic starts a net's text.
const netMagic = "morris-net 1"

// Write writes n as text: a first line "morris-net 1 POINTS HANDS
// HIDDEN", a line of the hidden biases, one line for each input (in the
// order of Net) of its weights into the hidden units, a line of the output
// weights and, last, the output bias.
func (n *Net) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %d %d %d\n", netMagic, n.Points, n.Hands, n.Hidden)
	line := func(v []int32) {
		for j, x := range v {
			if j > 0 {
				bw.WriteByte(' ')
			}
			bw.WriteString(strconv.Itoa(int(x)))
		}
		bw.WriteByte('\n')
	}
	line(n.B1)
	for i := 0; i < n.Inputs(); i++ {
		line(n.W1[i*n.Hidden : (i+1)*n.Hidden])
	}
	line(n.W2)
	line([]int32{n.B2})
	return bw.Flush()
}

// ReadNet reads what Write wrote.
func ReadNet(r io.Reader) (*Net, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	// next reads the next line as want integers.
	next := func(want int) ([]int32, error) {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("net: line %d: unexpected end", line+1)
		}
		line++
		f := strings.Fields(sc.Text())
		if len(f) != want {
			return nil, fmt.Errorf("net: line %d: %d numbers, want %d", line, len(f), want)
		}
		out := make([]int32, want)
		for i, s := range f {
			v, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("net: line %d: %v", line, err)
			}
			out[i] = int32(v)
		}
		return out, nil
	}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("net: line 1: unexpected end")
	}
	line++
	f := strings.Fields(sc.Text())
	if len(f) != 5 || strings.Join(f[:2], " ") != netMagic {
		return nil, fmt.Errorf("net: line 1: want %q, the points, the hands and the hidden units", netMagic)
	}
	n := &Net{}
	var err error
	if n.Points, err = strconv.Atoi(f[2]); err != nil {
		return nil, fmt.Errorf("net: line 1: points: %v", err)
	}
	if n.Hands, err = strconv.Atoi(f[3]); err != nil {
		return nil, fmt.Errorf("net: line 1: hands: %v", err)
	}
	if n.Hidden, err = strconv.Atoi(f[4]); err != nil {
		return nil, fmt.Errorf("net: line 1: hidden units: %v", err)
	}
	if err := n.validShape(); err != nil {
		return nil, fmt.Errorf("net: line 1: %s", strings.TrimPrefix(err.Error(), "net: "))
	}
	if n.B1, err = next(n.Hidden); err != nil {
		return nil, err
	}
	n.W1 = make([]int32, 0, n.Inputs()*n.Hidden)
	for i := 0; i < n.Inputs(); i++ {
		row, err := next(n.Hidden)
		if err != nil {
			return nil, err
		}
		n.W1 = append(n.W1, row...)
	}
	if n.W2, err = next(n.Hidden); err != nil {
		return nil, err
	}
	b2, err := next(1)
	if err != nil {
		return nil, err
	}
	n.B2 = b2[0]
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) != "" {
			return nil, fmt.Errorf("net: line %d: text after the output bias", line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return n, n.Validate()
}
