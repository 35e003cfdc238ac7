package mill

import "sort"

// MoveKind says what a move does.
type MoveKind uint8

const (
	NoMove     MoveKind = iota // the zero Move: not a move
	PlaceMove                  // put a piece from the hand on an empty point
	SlideMove                  // move a piece along a line, or fly it, to an empty point
	RemoveMove                 // only take a piece: the deferred capture of Shah
	PassMove                   // a blocked side passes (Shah)
)

// MaxCaptures is the most pieces one move can take.
const MaxCaptures = 4

// Move is one whole turn, its captures included. It is a small comparable
// value; the zero Move is not a move. Captures are kept in increasing point
// order, so two moves that take the same pieces are equal.
type Move struct {
	kind     MoveKind
	from, to Point
	ncap     uint8
	caps     [MaxCaptures]Point
}

// Place returns the move that places a piece on to.
func Place(to Point) Move { return Move{kind: PlaceMove, from: NoPoint, to: to} }

// Slide returns the move of a piece from from to to (a slide or a flight).
func Slide(from, to Point) Move { return Move{kind: SlideMove, from: from, to: to} }

// Remove returns the move that only takes the piece on p.
func Remove(p Point) Move {
	return Move{kind: RemoveMove, from: NoPoint, to: NoPoint, ncap: 1, caps: [MaxCaptures]Point{p, NoPoint, NoPoint, NoPoint}}
}

// Pass is the move of a side that cannot move and must pass.
var Pass = Move{kind: PassMove, from: NoPoint, to: NoPoint}

// WithCapture returns m that also takes the piece on p. A move holds at most
// MaxCaptures captures; more are ignored.
func (m Move) WithCapture(p Point) Move {
	if m.ncap == 0 {
		m.caps = [MaxCaptures]Point{NoPoint, NoPoint, NoPoint, NoPoint}
	}
	if int(m.ncap) >= MaxCaptures {
		return m
	}
	i := int(m.ncap)
	for i > 0 && m.caps[i-1] > p {
		m.caps[i] = m.caps[i-1]
		i--
	}
	m.caps[i] = p
	m.ncap++
	return m
}

// Kind returns what the move does.
func (m Move) Kind() MoveKind { return m.kind }

// From returns the point a piece leaves (NoPoint unless a slide).
func (m Move) From() Point { return m.from }

// To returns the point a piece arrives on (NoPoint for a removal or a pass).
func (m Move) To() Point { return m.to }

// NumCaptures returns how many pieces the move takes.
func (m Move) NumCaptures() int { return int(m.ncap) }

// Capture returns the i-th captured point, in increasing order.
func (m Move) Capture(i int) Point { return m.caps[i] }

// Captures returns the captured points as a set.
func (m Move) Captures() Points {
	var s Points
	for i := 0; i < int(m.ncap); i++ {
		s |= 1 << m.caps[i]
	}
	return s
}

// IsZero reports whether m is the zero Move.
func (m Move) IsZero() bool { return m.kind == NoMove }

func sortMoves(ms []Move) {
	sort.Slice(ms, func(i, j int) bool { return moveLess(ms[i], ms[j]) })
}

func moveLess(a, b Move) bool {
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	if a.from != b.from {
		return a.from < b.from
	}
	if a.to != b.to {
		return a.to < b.to
	}
	if a.ncap != b.ncap {
		return a.ncap < b.ncap
	}
	for i := 0; i < int(a.ncap); i++ {
		if a.caps[i] != b.caps[i] {
			return a.caps[i] < b.caps[i]
		}
	}
	return false
}
