package retro

import "strconv"

// Value is the game-theoretic value of a position for the side to move,
// with the distance to the end of the game in plies under best play: a win
// as fast as possible, a loss as late as possible. The zero Value is a draw
// (and, while solving, a position not yet known to be won or lost).
//
// The encoding is part of the file formats built on this package: a loss in
// d plies is 2d+1, a win in d plies is 2d+2.
type Value uint16

// Draw is the value of a position that neither side can win.
const Draw Value = 0

// MaxPlies is the longest distance a Value can hold.
const MaxPlies = (1<<16 - 3) / 2

// WinIn returns the value of a position the side to move wins in d plies.
func WinIn(d int) Value { return Value(2*d + 2) }

// LossIn returns the value of a position the side to move loses in d plies.
func LossIn(d int) Value { return Value(2*d + 1) }

// IsWin reports whether the side to move wins.
func (v Value) IsWin() bool { return v != 0 && v&1 == 0 }

// IsLoss reports whether the side to move loses.
func (v Value) IsLoss() bool { return v&1 == 1 }

// IsDraw reports whether the position is a draw.
func (v Value) IsDraw() bool { return v == 0 }

// Plies returns the distance to the end of the game in plies, or 0 for a draw.
func (v Value) Plies() int {
	if v == 0 {
		return 0
	}
	return int(v-1) / 2
}

// Parent returns the value a move into a position of value v is worth to the
// side that makes it: the child's loss is the mover's win one ply later.
func (v Value) Parent() Value {
	switch {
	case v == 0:
		return Draw
	case v.IsLoss():
		return WinIn(v.Plies() + 1)
	}
	return LossIn(v.Plies() + 1)
}

// Better reports whether v is better than u for the side to move: a win
// beats a draw beats a loss; a shorter win beats a longer one; a longer loss
// beats a shorter one.
func (v Value) Better(u Value) bool { return v.rank() > u.rank() }

func (v Value) rank() int {
	switch {
	case v.IsWin():
		return 1<<20 - v.Plies()
	case v.IsLoss():
		return -1<<20 + v.Plies()
	}
	return 0
}

func (v Value) String() string {
	switch {
	case v.IsWin():
		return "win in " + strconv.Itoa(v.Plies())
	case v.IsLoss():
		return "loss in " + strconv.Itoa(v.Plies())
	}
	return "draw"
}

// Combine returns the value of a position from the values of its children
// (each for the child's side to move): the best of their Parent values. A
// position without children has no value here: the game says what its end
// is worth.
func Combine(children []Value) Value {
	best, first := Draw, true
	for _, c := range children {
		if p := c.Parent(); first || p.Better(best) {
			best, first = p, false
		}
	}
	return best
}
