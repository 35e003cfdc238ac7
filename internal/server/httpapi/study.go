package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// The endpoints of the study tools and the web client's board: the boards
// as data, positions with their legal moves, the engine's analysis, guest
// accounts and records read.

type boardPoint struct {
	Name string `json:"name"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
}

type boardLine struct {
	Points   [3]int `json:"points"`
	Diagonal bool   `json:"diagonal,omitempty"`
}

type boardAnswer struct {
	ID          string       `json:"id"`
	Description string       `json:"description"`
	Width       int          `json:"width"`
	Height      int          `json:"height"`
	Points      []boardPoint `json:"points"`
	Edges       [][2]int     `json:"edges"`
	Lines       []boardLine  `json:"lines"`
}

// boards: GET /api/boards, every board as data (points in board order,
// which is the order of the position text).
func (a *api) boards(w http.ResponseWriter, r *http.Request) error {
	var out []boardAnswer
	for _, b := range mill.Boards() {
		ba := boardAnswer{ID: b.ID, Description: b.Description, Width: b.Width, Height: b.Height}
		for _, p := range b.Points {
			ba.Points = append(ba.Points, boardPoint{Name: p.Name, X: p.X, Y: p.Y})
		}
		for _, e := range b.Edges {
			ba.Edges = append(ba.Edges, [2]int{int(e[0]), int(e[1])})
		}
		for _, l := range b.Lines {
			ba.Lines = append(ba.Lines, boardLine{Points: [3]int{int(l.Points[0]), int(l.Points[1]), int(l.Points[2])}, Diagonal: l.Diagonal})
		}
		out = append(out, ba)
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	return writeJSON(w, http.StatusOK, out)
}

// positionBody names a position: a position text, or rules (a preset with
// overrides: "lasker,flying=never") and a seed for the lot; then moves
// played from it.
type positionBody struct {
	Position string   `json:"position"`
	Rules    string   `json:"rules"`
	Seed     *uint64  `json:"seed"`
	Moves    []string `json:"moves"`
	// Depth and MoveTimeMs bound an analysis (POST /api/analysis).
	Depth      int `json:"depth"`
	MoveTimeMs int `json:"movetimeMs"`
}

// game replays the body's game.
func (b positionBody) game() (*mill.Game, error) {
	if len(b.Moves) > 2000 {
		return nil, httpError(http.StatusBadRequest, "at most 2000 moves")
	}
	var g *mill.Game
	switch {
	case mif.IsMIFPOS(b.Position):
		// MIFPOS carries its rules, as our position text does.
		if b.Rules != "" || b.Seed != nil {
			return nil, httpError(http.StatusBadRequest, "a MIFPOS position carries its rules: give position or rules, not both")
		}
		p, err := mif.ParsePositionEnvelope(b.Position)
		if err != nil {
			return nil, httpError(http.StatusBadRequest, "%v", err)
		}
		g = mill.NewGame(p.Rules(), mill.FromPosition(p))
	case mif.IsMFEN(b.Position):
		// MFEN carries no rules: the body's rules give them.
		if b.Seed != nil {
			return nil, httpError(http.StatusBadRequest, "a position has its side to move: no seed with it")
		}
		if b.Rules == "" {
			b.Rules = "nine-mens-morris"
		}
		r, err := mill.ParseRules(b.Rules)
		if err != nil {
			return nil, httpError(http.StatusBadRequest, "%v", err)
		}
		p, err := mif.ParsePosition(strings.TrimSpace(b.Position), r)
		if err != nil {
			return nil, httpError(http.StatusBadRequest, "%v", err)
		}
		g = mill.NewGame(r, mill.FromPosition(p))
	case b.Position != "" && (b.Rules != "" || b.Seed != nil):
		return nil, httpError(http.StatusBadRequest, "a position carries its rules: give position or rules, not both (or give an MFEN position with rules)")
	case b.Position != "":
		p, err := mill.ParsePosition(b.Position)
		if err != nil {
			return nil, httpError(http.StatusBadRequest, "%v", err)
		}
		g = mill.NewGame(p.Rules(), mill.FromPosition(p))
	default:
		if b.Rules == "" {
			b.Rules = "nine-mens-morris"
		}
		r, err := mill.ParseRules(b.Rules)
		if err != nil {
			return nil, httpError(http.StatusBadRequest, "%v", err)
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
			return nil, httpError(http.StatusBadRequest, "move %d %q: %v", i+1, m, err)
		}
	}
	return g, nil
}

type legalMove struct {
	Text     string `json:"text"` // standard notation
	Pbm      string `json:"pbm"`  // pbmserv notation
	Kind     string `json:"kind"` // place, slide, remove, pass
	From     int    `json:"from"` // point index, -1 for none
	To       int    `json:"to"`
	Captures []int  `json:"captures"`
}

type colorPair[T any] struct {
	White T `json:"white"`
	Black T `json:"black"`
}

// positionView is a position as the board draws it.
type positionView struct {
	Position string           `json:"position"`
	MFEN     string           `json:"mfen,omitempty"` // the position in MIF 1.0 (docs/mif.md), where MFEN can hold it
	Variant  string           `json:"variant"`
	Rules    string           `json:"rules"`
	Board    string           `json:"board"`
	Ply      int              `json:"ply"`
	ToMove   string           `json:"toMove"`
	Pieces   colorPair[[]int] `json:"pieces"`
	InHand   colorPair[int]   `json:"inHand"`
	InMills  colorPair[[]int] `json:"inMills"`
	Flying   colorPair[bool]  `json:"flying"`
	Removal  string           `json:"removal,omitempty"` // the side whose move is a removal: owed, or a blocked side's (blocked=removes)
	Status   string           `json:"status"`            // "*", "1-0", "0-1", "1/2-1/2"
	Method   string           `json:"method,omitempty"`
	Legal    []legalMove      `json:"legal"`
	Start    string           `json:"start"`
	Moves    []string         `json:"moves"`
	History  []string         `json:"history"` // the position after each move

	// Marked are the marked pieces (placing-captures=mark): on the board,
	// out of play, of no colour; they are in neither Pieces.
	Marked []int `json:"marked"`
	// Owed are the removals each side still owes (Shah's, the removals
	// when placing ends), made one a move by the side to move first.
	Owed colorPair[int] `json:"owed"`
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

func viewOf(g *mill.Game) positionView {
	p := g.Position()
	r := p.Rules()
	b := r.Board()
	v := positionView{
		Position: p.String(), Variant: r.Variant(), Rules: r.String(), Board: b.ID, Ply: p.Ply(),
		ToMove:  colorName(p.SideToMove()),
		Pieces:  colorPair[[]int]{points(p.Pieces(mill.White)), points(p.Pieces(mill.Black))},
		InHand:  colorPair[int]{p.InHand(mill.White), p.InHand(mill.Black)},
		InMills: colorPair[[]int]{points(p.InMills(mill.White)), points(p.InMills(mill.Black))},
		Flying:  colorPair[bool]{p.Flying(mill.White), p.Flying(mill.Black)},
		Marked:  points(p.Marked()), Owed: colorPair[int]{p.Owed(mill.White), p.Owed(mill.Black)}, RemovesOwn: p.RemovesOwn(),
		Status: g.Outcome().String(), Legal: []legalMove{}, Start: g.Start().String(), Moves: []string{}, History: []string{},
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
		v.Removal = colorName(c)
	} else if removals {
		v.Removal = colorName(p.SideToMove()) // a blocked side's removal
	}
	for _, m := range legal {
		lm := legalMove{Text: b.MoveText(m, mill.Standard), Pbm: b.MoveText(m, mill.Pbm), From: -1, To: -1, Captures: []int{}}
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

func colorName(c mill.Color) string {
	if c == mill.White {
		return "white"
	}
	return "black"
}

// position: POST /api/position, a position (and the game that led to it)
// with its legal moves, for boards that let a player move.
func (a *api) position(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	var b positionBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	g, err := b.game()
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, viewOf(g))
}

type analysisAnswer struct {
	Best      string `json:"best"`
	Score     int    `json:"score"`
	ScoreText string `json:"scoreText"`
	// "win" or "loss" when score is a proof for the side to move (a forced
	// end, or the endgame databases' value), not an estimate in pieces.
	Proved    string   `json:"proved,omitempty"`
	Depth     int      `json:"depth"`
	Nodes     uint64   `json:"nodes"`
	PV        []string `json:"pv"`
	TBHits    uint64   `json:"tbhits,omitempty"`    // positions found in the endgame databases
	Tablebase string   `json:"tablebase,omitempty"` // their value of the position: "win in 13", "draw", "loss in 8"
	// Every legal move with its value for the mover, best first, and
	// whether it keeps the position's value; with tablebase only.
	TablebaseMoves []tablebaseMove `json:"tablebaseMoves,omitempty"`
}

type tablebaseMove struct {
	Move  string `json:"move"`
	Value string `json:"value"`
	Keeps bool   `json:"keeps"`
}

// analysis: POST /api/analysis, the engine's best move, score and line;
// with endgame databases (serve -tablebases), what they say.
func (a *api) analysis(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	var b positionBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	g, err := b.game()
	if err != nil {
		return err
	}
	if b.MoveTimeMs < 0 || b.Depth < 0 {
		return httpError(http.StatusBadRequest, "depth and movetimeMs are not negative")
	}
	d := time.Duration(b.MoveTimeMs) * time.Millisecond
	if d == 0 {
		d = time.Second
	}
	res, err := a.svc.Analyze(r.Context(), a.remote(r), g.Positions(), b.Depth, d)
	if err != nil {
		return err
	}
	if res.PV == nil {
		res.PV = []string{}
	}
	ans := analysisAnswer{Best: res.Best, Score: res.Score, ScoreText: res.ScoreText, Proved: res.Proved, Depth: res.Depth, Nodes: res.Nodes, PV: res.PV,
		TBHits: res.TBHits, Tablebase: res.Tablebase}
	for _, m := range res.TablebaseMoves {
		ans.TablebaseMoves = append(ans.TablebaseMoves, tablebaseMove{Move: m.Move, Value: m.Value, Keeps: m.Keeps})
	}
	return writeJSON(w, http.StatusOK, ans)
}

// guest: POST /api/guest, a guest account and its token.
func (a *api) guest(w http.ResponseWriter, r *http.Request) error {
	u, tok, exp, err := a.svc.Guest(r.Context(), a.remote(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, tokenAnswer{Token: tok, ExpiresMs: exp.UnixMilli(), User: wirePlayer(u)})
}

type recordBody struct {
	Text string `json:"text"`
}

type recordAnswer struct {
	Tags   map[string]string `json:"tags"`
	Start  string            `json:"start"`
	Moves  []string          `json:"moves"`
	Result string            `json:"result"`
}

// readRecords: POST /api/records, the games of a record text, each checked
// move by move; the first illegal move or syntax error is a 400 that says
// where.
func (a *api) readRecords(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	var b recordBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	text := b.Text
	if record.IsSanmill(text) {
		var err error
		if text, err = record.FromSanmill(text); err != nil {
			return httpError(http.StatusBadRequest, "%v", err)
		}
	}
	sc := record.NewScanner(strings.NewReader(text))
	out := []recordAnswer{}
	for sc.Scan() {
		rec := sc.Record()
		g, err := rec.Game()
		if err != nil {
			return httpError(http.StatusBadRequest, "%v", err)
		}
		ra := recordAnswer{Tags: map[string]string{}, Start: g.Start().String(), Moves: []string{}, Result: rec.Result.String()}
		for _, t := range rec.Tags {
			ra.Tags[t.Name] = t.Value
		}
		bd := g.Rules().Board()
		for _, m := range g.Moves() {
			ra.Moves = append(ra.Moves, bd.MoveText(m, mill.Standard))
		}
		out = append(out, ra)
		if len(out) > 100 {
			return httpError(http.StatusBadRequest, "at most 100 games at once")
		}
	}
	if err := sc.Err(); err != nil {
		return httpError(http.StatusBadRequest, "%v", err)
	}
	return writeJSON(w, http.StatusOK, out)
}

// explorer: GET /api/explorer?position=TEXT or ?rules=R&moves=M1,M2 (with
// seed=N for the rules that draw the first player by lot; moves after a
// position too): the moves the finished games of this server played from
// the position, with their results and the opening book's values.
func (a *api) explorer(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	q := r.URL.Query()
	b := positionBody{Position: q.Get("position"), Rules: q.Get("rules")}
	if s := q.Get("seed"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return httpError(http.StatusBadRequest, "seed %q: want a whole number", s)
		}
		b.Seed = &seed
	}
	b.Moves = strings.FieldsFunc(q.Get("moves"), func(c rune) bool { return c == ',' || c == ' ' })
	g, err := b.game()
	if err != nil {
		return err
	}
	ex, err := a.svc.Explore(r.Context(), g.Position())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, ex)
}
