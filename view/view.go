package view

import (
	"errors"
	"fmt"

	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
)

// Point is a board's point as the client draws it.
type Point struct {
	Name string `json:"name"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
}

// Line is a line of three points, a mill when one side holds them all.
type Line struct {
	Points   [3]int `json:"points"`
	Diagonal bool   `json:"diagonal,omitempty"`
}

// Board is a board as data: points in board order, which is the order of
// the position text.
type Board struct {
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Width       int      `json:"width"`
	Height      int      `json:"height"`
	Points      []Point  `json:"points"`
	Edges       [][2]int `json:"edges"`
	Lines       []Line   `json:"lines"`
}

// Boards returns every board (GET /api/boards).
func Boards() []Board {
	var out []Board
	for _, b := range mill.Boards() {
		ba := Board{ID: b.ID, Description: b.Description, Width: b.Width, Height: b.Height}
		for _, p := range b.Points {
			ba.Points = append(ba.Points, Point{Name: p.Name, X: p.X, Y: p.Y})
		}
		for _, e := range b.Edges {
			ba.Edges = append(ba.Edges, [2]int{int(e[0]), int(e[1])})
		}
		for _, l := range b.Lines {
			ba.Lines = append(ba.Lines, Line{Points: [3]int{int(l.Points[0]), int(l.Points[1]), int(l.Points[2])}, Diagonal: l.Diagonal})
		}
		out = append(out, ba)
	}
	return out
}

// Variant is a preset: its rules string and its board.
type Variant struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Rules       string `json:"rules"`
	Board       string `json:"board"`
}

// Variants returns every preset (GET /api/variants).
func Variants() []Variant {
	var out []Variant
	for _, v := range mill.Variants() {
		rules := mill.MustRules(v.ID)
		out = append(out, Variant{ID: v.ID, Description: v.Description, Rules: rules.String(), Board: rules.Board().ID})
	}
	return out
}

// MaxMoves bounds the moves of a Request.
const MaxMoves = 2000

// Request names a position: a position text (ours, an MFEN record under
// Rules, or a MIFPOS envelope), or rules (a preset with overrides:
// "lasker,flying=never") and a seed for the lot; then moves played from it.
type Request struct {
	Position string   `json:"position"`
	Rules    string   `json:"rules"`
	Seed     *uint64  `json:"seed"`
	Moves    []string `json:"moves"`
}

// Game replays the request's game. Its errors are the caller's to report
// as a bad request: they say what in the request is wrong.
func (b Request) Game() (*mill.Game, error) {
	if len(b.Moves) > MaxMoves {
		return nil, fmt.Errorf("at most %d moves", MaxMoves)
	}
	var g *mill.Game
	switch {
	case mif.IsMIFPOS(b.Position):
		// MIFPOS carries its rules, as our position text does.
		if b.Rules != "" || b.Seed != nil {
			return nil, errors.New("a MIFPOS position carries its rules: give position or rules, not both")
		}
		p, err := mif.ParsePositionEnvelope(b.Position)
		if err != nil {
			return nil, err
		}
		g = mill.NewGame(p.Rules(), mill.FromPosition(p))
	case mif.CarriesNoRules(b.Position):
		// MFEN and Sanmill's FEN carry no rules: the body's rules give them.
		if b.Seed != nil {
			return nil, errors.New("a position has its side to move: no seed with it")
		}
		if b.Rules == "" {
			b.Rules = "nine-mens-morris"
		}
		r, err := mill.ParseRules(b.Rules)
		if err != nil {
			return nil, err
		}
		p, err := mif.ParseUnder(b.Position, r)
		if err != nil {
			return nil, err
		}
		g = mill.NewGame(r, mill.FromPosition(p))
	case b.Position != "" && (b.Rules != "" || b.Seed != nil):
		return nil, errors.New("a position carries its rules: give position or rules, not both (or give an MFEN position or Sanmill's FEN with rules)")
	case b.Position != "":
		p, err := mill.ParsePosition(b.Position)
		if err != nil {
			return nil, err
		}
		g = mill.NewGame(p.Rules(), mill.FromPosition(p))
	default:
		if b.Rules == "" {
			b.Rules = "nine-mens-morris"
		}
		r, err := mill.ParseRules(b.Rules)
		if err != nil {
			return nil, err
		}
		var opts []mill.GameOption
		if b.Seed != nil {
			opts = append(opts, mill.WithSeed(*b.Seed))
		} else if r.Options().FirstPlayer == mill.FirstLot {
			opts = append(opts, mill.WithSeed(0))
		}
		g = mill.NewGame(r, opts...)
	}
	for i, m := range b.Moves {
		if err := g.PlayText(m); err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, m, err)
		}
	}
	return g, nil
}

// LegalMove is a legal move as the board plays it.
type LegalMove struct {
	Text     string `json:"text"` // standard notation
	Pbm      string `json:"pbm"`  // pbmserv notation
	Kind     string `json:"kind"` // place, slide, remove, pass
	From     int    `json:"from"` // point index, -1 for none
	To       int    `json:"to"`
	Captures []int  `json:"captures"`
}

// Pair is a value for each side.
type Pair[T any] struct {
	White T `json:"white"`
	Black T `json:"black"`
}

// Position is a position as the board draws it (POST /api/position).
type Position struct {
	Position string      `json:"position"`
	MFEN     string      `json:"mfen,omitempty"` // the position in MIF 1.0 (docs/mif.md), where MFEN can hold it
	Variant  string      `json:"variant"`
	Rules    string      `json:"rules"`
	Board    string      `json:"board"`
	Ply      int         `json:"ply"`
	ToMove   string      `json:"toMove"`
	Pieces   Pair[[]int] `json:"pieces"`
	InHand   Pair[int]   `json:"inHand"`
	InMills  Pair[[]int] `json:"inMills"`
	Flying   Pair[bool]  `json:"flying"`
	Removal  string      `json:"removal,omitempty"` // the side whose move is a removal: owed, or a blocked side's (blocked=removes)
	Status   string      `json:"status"`            // "*", "1-0", "0-1", "1/2-1/2"
	Method   string      `json:"method,omitempty"`
	Legal    []LegalMove `json:"legal"`
	Start    string      `json:"start"`
	Moves    []string    `json:"moves"`
	History  []string    `json:"history"` // the position after each move

	// Marked are the marked pieces (placing-captures=mark): on the board,
	// out of play, of no colour; they are in neither Pieces.
	Marked []int `json:"marked"`
	// Owed are the removals each side still owes (Shah's, the removals
	// when placing ends), made one a move by the side to move first.
	Owed Pair[int] `json:"owed"`
	// RemovesOwn: the removals owed take the remover's own pieces (el
	// filja with no mill).
	RemovesOwn bool `json:"removesOwn,omitempty"`
}

func points(set mill.Points) []int {
	out := make([]int, 0, set.Len())
	for p := range set.All() {
		out = append(out, int(p))
	}
	return out
}

// Of is the view of g's position, with the game that led to it.
func Of(g *mill.Game) Position {
	p := g.Position()
	r := p.Rules()
	b := r.Board()
	v := Position{
		Position: p.String(), Variant: r.Variant(), Rules: r.String(), Board: b.ID, Ply: p.Ply(),
		ToMove:  Side(p.SideToMove()),
		Pieces:  Pair[[]int]{points(p.Pieces(mill.White)), points(p.Pieces(mill.Black))},
		InHand:  Pair[int]{p.InHand(mill.White), p.InHand(mill.Black)},
		InMills: Pair[[]int]{points(p.InMills(mill.White)), points(p.InMills(mill.Black))},
		Flying:  Pair[bool]{p.Flying(mill.White), p.Flying(mill.Black)},
		Marked:  points(p.Marked()), Owed: Pair[int]{p.Owed(mill.White), p.Owed(mill.Black)}, RemovesOwn: p.RemovesOwn(),
		Status: g.Outcome().String(), Legal: []LegalMove{}, Start: g.Start().String(), Moves: []string{}, History: []string{},
	}
	if g.Outcome() != mill.NoOutcome {
		v.Method = g.Method().String()
	}
	if m, err := mif.FormatPosition(p); err == nil {
		v.MFEN = m
	}
	legal := g.LegalMoves()
	removals := len(legal) > 0
	for _, m := range legal {
		removals = removals && m.Kind() == mill.RemoveMove
	}
	if c, ok := p.Pending(); ok {
		v.Removal = Side(c)
	} else if removals {
		v.Removal = Side(p.SideToMove()) // a blocked side's removal
	}
	for _, m := range legal {
		lm := LegalMove{Text: b.MoveText(m, mill.Standard), Pbm: b.MoveText(m, mill.Pbm), From: -1, To: -1, Captures: []int{}}
		switch m.Kind() {
		case mill.PlaceMove:
			lm.Kind = "place"
		case mill.SlideMove:
			lm.Kind = "slide"
		case mill.RemoveMove:
			lm.Kind = "remove"
		case mill.PassMove:
			lm.Kind = "pass"
		}
		if m.From() != mill.NoPoint {
			lm.From = int(m.From())
		}
		if m.To() != mill.NoPoint {
			lm.To = int(m.To())
		}
		for i := range m.NumCaptures() {
			lm.Captures = append(lm.Captures, int(m.Capture(i)))
		}
		v.Legal = append(v.Legal, lm)
	}
	ps := g.Positions()
	for i, m := range g.Moves() {
		v.Moves = append(v.Moves, b.MoveText(m, mill.Standard))
		v.History = append(v.History, ps[i+1].String())
	}
	return v
}

// Side is a colour as the views name it: "white" or "black".
func Side(c mill.Color) string {
	if c == mill.White {
		return "white"
	}
	return "black"
}
