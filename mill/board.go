package mill

import (
	"fmt"
	"math/bits"
)

// Point is the index of a point on a board: 0 up to len(Board.Points)-1.
// Boards have at most MaxPoints points, so a set of points fits in a
// uint32: see Points.
type Point uint8

// MaxPoints is the largest number of points a board may have.
const MaxPoints = 32

// NoPoint marks the absence of a point.
const NoPoint Point = 0xFF

// PointInfo is one point of a board: its name and where it is drawn.
type PointInfo struct {
	Name string // "a1": file letter, rank number
	X, Y int    // drawing coordinates: X is the file (0 = a), Y the rank (0 = 1, bottom)
}

// Line is a straight line of three points; a side that fills it has a mill,
// unless the rules say the line does not form mills (diagonals on some boards).
type Line struct {
	Points   [3]Point
	Diagonal bool // a diagonal line: always a movement line, a mill line only if the rules say so
}

// Board is a playing board as data: points, adjacency, lines and symmetries.
// A new board is a new table; no code in the rules depends on a particular board.
// Boards are immutable once built.
type Board struct {
	ID          string
	Description string
	Points      []PointInfo
	Edges       [][2]Point // the drawn lines between neighbouring points: movement
	Lines       []Line     // every line of three (mill candidates)
	Width       int        // drawing grid: X in 0..Width-1
	Height      int        // Y in 0..Height-1
	// Centre is the point in the middle of the board that the first
	// placement may be barred from (the option centre-ban), or NoPoint on
	// a board without one.
	Centre Point
	// Symmetries lists permutations of the points that keep edges and lines
	// (the identity first). Symmetries[s][p] is the image of p under s.
	Symmetries [][]Point

	adj    [MaxPoints]uint32
	byName map[string]Point
}

// Len returns the number of points.
func (b *Board) Len() int { return len(b.Points) }

// Adjacent returns the neighbours of p.
func (b *Board) Adjacent(p Point) Points { return Points(b.adj[p]) }

// HasDiagonals reports whether some line of the board is a diagonal.
func (b *Board) HasDiagonals() bool {
	for _, l := range b.Lines {
		if l.Diagonal {
			return true
		}
	}
	return false
}

// PointByName returns the point called name ("d6", case-insensitive).
func (b *Board) PointByName(name string) (Point, bool) {
	if p, ok := b.byName[name]; ok {
		return p, true
	}
	lower := make([]byte, len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	p, ok := b.byName[string(lower)]
	return p, ok
}

// Name returns the name of p, or "?" if p is not on the board.
func (b *Board) Name(p Point) string {
	if int(p) < len(b.Points) {
		return b.Points[p].Name
	}
	return "?"
}

func (b *Board) String() string { return b.ID }

// finish derives the lookup tables from the data and checks the data.
func (b *Board) finish() *Board {
	if len(b.Points) > MaxPoints {
		panic(fmt.Sprintf("board %s: %d points, at most %d", b.ID, len(b.Points), MaxPoints))
	}
	b.byName = make(map[string]Point, len(b.Points))
	for i, pt := range b.Points {
		if _, dup := b.byName[pt.Name]; dup {
			panic("board " + b.ID + ": duplicate point " + pt.Name)
		}
		b.byName[pt.Name] = Point(i)
	}
	for _, e := range b.Edges {
		b.adj[e[0]] |= 1 << e[1]
		b.adj[e[1]] |= 1 << e[0]
	}
	for _, l := range b.Lines {
		// Every line of three must be a path along the edges.
		if b.adj[l.Points[0]]&(1<<l.Points[1]) == 0 || b.adj[l.Points[1]]&(1<<l.Points[2]) == 0 {
			panic("board " + b.ID + ": line " + b.Name(l.Points[0]) + " is not drawn")
		}
	}
	return b
}

// ringBoard builds a board of nested squares ("rings") of eight points each,
// the family of all classic Mill boards. Ring 0 is the outer square. On each
// ring the points run counter-clockwise from the bottom-left corner:
// corner, middle of the bottom side, corner, middle of the right side, ...
// so point r*8+k is point k of ring r. Spokes link the middles of the sides
// of neighbouring rings; diagonals also link their corners.
//
// With centre, a last point (number rings*8) stands in the middle, joined
// to the middles of the innermost ring's sides (and to its corners with
// diagonals): each spoke then runs straight across the board through the
// centre, and every three points in a row on it are a line.
func ringBoard(id, desc string, rings int, diagonals, centre bool) *Board {
	size := 2*rings + 1
	c := rings
	b := &Board{ID: id, Description: desc, Width: size, Height: size, Centre: NoPoint}
	name := func(x, y int) string { return fmt.Sprintf("%c%d", 'a'+x, y+1) }
	for r := 0; r < rings; r++ {
		lo, hi := r, size-1-r
		xy := [8][2]int{{lo, lo}, {c, lo}, {hi, lo}, {hi, c}, {hi, hi}, {c, hi}, {lo, hi}, {lo, c}}
		for _, p := range xy {
			b.Points = append(b.Points, PointInfo{Name: name(p[0], p[1]), X: p[0], Y: p[1]})
		}
	}
	pt := func(r, k int) Point { return Point(r*8 + (k+8)%8) }
	for r := 0; r < rings; r++ {
		for k := 0; k < 8; k++ {
			b.Edges = append(b.Edges, [2]Point{pt(r, k), pt(r, k+1)})
		}
		for k := 0; k < 8; k += 2 {
			b.Lines = append(b.Lines, Line{Points: [3]Point{pt(r, k), pt(r, k+1), pt(r, k+2)}})
		}
	}
	for r := 0; r+1 < rings; r++ {
		for k := 1; k < 8; k += 2 {
			b.Edges = append(b.Edges, [2]Point{pt(r, k), pt(r+1, k)})
		}
		if diagonals {
			for k := 0; k < 8; k += 2 {
				b.Edges = append(b.Edges, [2]Point{pt(r, k), pt(r+1, k)})
			}
		}
	}
	for r := 0; r+2 < rings; r++ {
		for k := 1; k < 8; k += 2 {
			b.Lines = append(b.Lines, Line{Points: [3]Point{pt(r, k), pt(r+1, k), pt(r+2, k)}})
		}
		if diagonals {
			for k := 0; k < 8; k += 2 {
				b.Lines = append(b.Lines, Line{Points: [3]Point{pt(r, k), pt(r+1, k), pt(r+2, k)}, Diagonal: true})
			}
		}
	}
	if centre {
		// The centre joins the innermost ring; the lines of three through
		// or ending at it: first those of the two outer rings' spokes
		// ending at the centre, then those across it, the straight spokes
		// (odd k) before the diagonals (even k).
		in := rings - 1
		cp := Point(rings * 8)
		b.Centre = cp
		b.Points = append(b.Points, PointInfo{Name: name(c, c), X: c, Y: c})
		for _, k0 := range centreStarts(diagonals) {
			for k := k0; k < 8; k += 2 {
				b.Edges = append(b.Edges, [2]Point{pt(in, k), cp})
			}
		}
		for _, k0 := range centreStarts(diagonals) {
			if in >= 1 {
				for k := k0; k < 8; k += 2 {
					b.Lines = append(b.Lines, Line{Points: [3]Point{pt(in-1, k), pt(in, k), cp}, Diagonal: k0 == 0})
				}
			}
			for k := k0; k < 4; k += 2 {
				b.Lines = append(b.Lines, Line{Points: [3]Point{pt(in, k), cp, pt(in, k+4)}, Diagonal: k0 == 0})
			}
		}
	}
	// The 8 symmetries of the square act on the position within a ring
	// (rotation by a quarter turn: k+2; reflection in the a1-g7 diagonal: -k),
	// times the swap of the rings from outside in where that keeps the
	// board: with two rings or more and no centre (the centre is joined to
	// the innermost ring only). The centre stays where it is.
	swaps := 1
	if rings >= 2 && !centre {
		swaps = 2
	}
	for swap := 0; swap < swaps; swap++ {
		for refl := 0; refl < 2; refl++ {
			for rot := 0; rot < 4; rot++ {
				perm := make([]Point, len(b.Points))
				for r := 0; r < rings; r++ {
					for k := 0; k < 8; k++ {
						k2 := k
						if refl == 1 {
							k2 = (8 - k2) % 8
						}
						k2 = (k2 + 2*rot) % 8
						r2 := r
						if swap == 1 {
							r2 = rings - 1 - r
						}
						perm[pt(r, k)] = pt(r2, k2)
					}
				}
				if centre {
					perm[b.Centre] = b.Centre
				}
				b.Symmetries = append(b.Symmetries, perm)
			}
		}
	}
	return b.finish()
}

// centreStarts returns the first k of the directions from the centre: the
// middles of the sides (odd k), and the corners (even k) with diagonals.
func centreStarts(diagonals bool) []int {
	if diagonals {
		return []int{1, 0}
	}
	return []int{1}
}

var (
	standard24 = ringBoard("standard24", "three nested squares, 24 points, the middles of the sides linked", 3, false, false)
	diagonal24 = ringBoard("diagonal24", "three nested squares, 24 points, the middles of the sides and the corners linked", 3, true, false)
	large32    = ringBoard("large32", "four nested squares, 32 points, the middles of the sides linked", 4, false, false)
	standard9  = ringBoard("standard9", "a square of 3x3 points, 9 points, rows and columns linked", 1, false, true)
	diagonal9  = ringBoard("diagonal9", "a square of 3x3 points, 9 points, rows, columns and both diagonals linked", 1, true, true)
	standard16 = ringBoard("standard16", "two nested squares, 16 points, the middles of the sides linked", 2, false, false)
	cross17    = ringBoard("cross17", "two nested squares and a cross through a centre point, 17 points", 2, false, true)
)

var boards = []*Board{standard24, diagonal24, large32, standard9, diagonal9, standard16, cross17}

// Boards returns the known boards.
func Boards() []*Board { return append([]*Board(nil), boards...) }

// BoardByID returns the board with the given id ("standard24", ...).
func BoardByID(id string) (*Board, bool) {
	for _, b := range boards {
		if b.ID == id {
			return b, true
		}
	}
	return nil, false
}

func popcount(x uint32) int { return bits.OnesCount32(x) }
