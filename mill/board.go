package mill

import (
	"fmt"
	"math/bits"
)

// Point is the index of a point on a board: 0 up to len(Board.Points)-1.
// Boards have at most MaxPoints points, so a set of points fits in a uint32.
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
	// Symmetries lists permutations of the points that keep edges and lines
	// (the identity first). Symmetries[s][p] is the image of p under s.
	Symmetries [][]Point

	adj    [MaxPoints]uint32
	byName map[string]Point
}

// Len returns the number of points.
func (b *Board) Len() int { return len(b.Points) }

// Adjacent returns the set of neighbours of p as a bit set.
func (b *Board) Adjacent(p Point) uint32 { return b.adj[p] }

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
// so point r*8+k is point k of ring r. spokes links the middles of the sides
// of neighbouring rings; diagonals also links their corners.
func ringBoard(id, desc string, rings int, diagonals bool) *Board {
	size := 2*rings + 1
	c := rings
	b := &Board{ID: id, Description: desc, Width: size, Height: size}
	for r := 0; r < rings; r++ {
		lo, hi := r, size-1-r
		xy := [8][2]int{{lo, lo}, {c, lo}, {hi, lo}, {hi, c}, {hi, hi}, {c, hi}, {lo, hi}, {lo, c}}
		for _, p := range xy {
			b.Points = append(b.Points, PointInfo{
				Name: fmt.Sprintf("%c%d", 'a'+p[0], p[1]+1),
				X:    p[0], Y: p[1],
			})
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
	// The 8 symmetries of the square act on the position within a ring
	// (rotation by a quarter turn: k+2; reflection in the a1-g7 diagonal: -k),
	// times the swap of the rings from outside in.
	for swap := 0; swap < 2; swap++ {
		for refl := 0; refl < 2; refl++ {
			for rot := 0; rot < 4; rot++ {
				perm := make([]Point, 8*rings)
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
				b.Symmetries = append(b.Symmetries, perm)
			}
		}
	}
	return b.finish()
}

var (
	standard24 = ringBoard("standard24", "three nested squares, 24 points, the middles of the sides linked", 3, false)
	diagonal24 = ringBoard("diagonal24", "three nested squares, 24 points, the middles of the sides and the corners linked", 3, true)
	large32    = ringBoard("large32", "four nested squares, 32 points, the middles of the sides linked", 4, false)
)

var boards = []*Board{standard24, diagonal24, large32}

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
