package mill

import (
	"strconv"
	"strings"
)

// Orientation says which way up a board is drawn.
type Orientation uint8

const (
	RankOneBottom Orientation = iota // the usual diagram: a1 bottom left
	RankOneTop                       // pbmserv's printed board: a1 top left
)

// screenRow maps a rank (0 = rank 1) to a row of the drawing, counted from the
// top in units of ranks. It is the one place that knows pbmserv's
// orientation: pbmserv prints rank 1 at the top, the usual diagram at the
// bottom; files run left to right either way.
func screenRow(rank, height int, o Orientation) int {
	if o == RankOneTop {
		return rank
	}
	return height - 1 - rank
}

// Diagram draws the board as text from its data: the points, where mark
// gives each point's character, and the drawn lines between neighbours.
// Ranks are labelled on the left and files underneath.
func (b *Board) Diagram(mark func(Point) byte, o Orientation) string {
	const dx, dy, left = 4, 2, 3 // columns per file, rows per rank, label width
	w := left + (b.Width-1)*dx + 1
	h := (b.Height-1)*dy + 1
	grid := make([][]byte, h)
	for i := range grid {
		grid[i] = []byte(strings.Repeat(" ", w))
	}
	at := func(p Point) (row, col int) {
		pt := b.Points[p]
		return screenRow(pt.Y, b.Height, o) * dy, left + pt.X*dx
	}
	for _, e := range b.Edges {
		r0, c0 := at(e[0])
		r1, c1 := at(e[1])
		if r0 > r1 || (r0 == r1 && c0 > c1) {
			r0, c0, r1, c1 = r1, c1, r0, c0
		}
		switch {
		case r0 == r1:
			for c := c0 + 1; c < c1; c++ {
				grid[r0][c] = '-'
			}
		case c0 == c1:
			for r := r0 + 1; r < r1; r++ {
				grid[r][c0] = '|'
			}
		default:
			ch := byte('\\')
			if c1 < c0 {
				ch = '/'
			}
			for r := r0 + 1; r < r1; r++ {
				grid[r][c0+(c1-c0)*(r-r0)/(r1-r0)] = ch
			}
		}
	}
	for i := range b.Points {
		r, c := at(Point(i))
		grid[r][c] = mark(Point(i))
	}
	for y := 0; y < b.Height; y++ {
		label := strconv.Itoa(y + 1)
		copy(grid[screenRow(y, b.Height, o)*dy], label)
	}
	var sb strings.Builder
	for _, row := range grid {
		sb.WriteString(strings.TrimRight(string(row), " "))
		sb.WriteByte('\n')
	}
	files := []byte(strings.Repeat(" ", w))
	for x := 0; x < b.Width; x++ {
		files[left+x*dx] = byte('a' + x)
	}
	sb.WriteString(strings.TrimRight(string(files), " "))
	sb.WriteByte('\n')
	return sb.String()
}

// Diagram draws the position's board: W white, B black, X a marked piece
// (placing-captures=mark), . empty.
func (p Position) Diagram(o Orientation) string {
	return p.rules.board.Diagram(func(pt Point) byte {
		switch c, ok := p.At(pt); {
		case p.marked&(1<<pt) != 0:
			return 'X'
		case !ok:
			return '.'
		case c == White:
			return 'W'
		default:
			return 'B'
		}
	}, o)
}
