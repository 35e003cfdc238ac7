package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
	"github.com/morrisgame/morris/view"
)

// The endpoints of the study tools and the web client's board: the boards
// as data, positions with their legal moves, the engine's analysis, guest
// accounts and records read.

// The boards, the presets and the positions are package view's, which the
// engine in the browser answers with too; the names here are the ones
// this package's code and tests use.
type (
	boardAnswer      = view.Board
	variantAnswer    = view.Variant
	positionView     = view.Position
	legalMove        = view.LegalMove
	colorPair[T any] = view.Pair[T]
)

// boards: GET /api/boards, every board as data (points in board order,
// which is the order of the position text).
func (a *api) boards(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	return writeJSON(w, http.StatusOK, view.Boards())
}

// positionBody names a position (view.Request); Depth and MoveTimeMs
// bound an analysis (POST /api/analysis).
type positionBody struct {
	view.Request
	Depth      int `json:"depth"`
	MoveTimeMs int `json:"movetimeMs"`
}

// positionRequest reads the body of a request about a position (for
// anyone, signed in or not) and replays its game; what is wrong with it
// is a 400.
func (a *api) positionRequest(r *http.Request) (positionBody, *mill.Game, error) {
	var b positionBody
	if err := a.anonymous(r); err != nil {
		return b, nil, err
	}
	if err := readJSON(r, &b); err != nil {
		return b, nil, err
	}
	g, err := b.game()
	return b, g, err
}

// game replays the body's game; what is wrong with it is a 400.
func (b positionBody) game() (*mill.Game, error) {
	g, err := b.Request.Game()
	if err != nil {
		return nil, httpError(http.StatusBadRequest, "%v", err)
	}
	return g, nil
}

func viewOf(g *mill.Game) positionView { return view.Of(g) }

func colorName(c mill.Color) string { return view.Side(c) }

// position: POST /api/position, a position (and the game that led to it)
// with its legal moves, for boards that let a player move.
func (a *api) position(w http.ResponseWriter, r *http.Request) error {
	_, g, err := a.positionRequest(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, viewOf(g))
}

// mifAnswer is a position in MIF 1.0 (docs/mif.md): an MFEN record, the
// portable MIFPOS object that carries it with its rules, and the rules as
// an MRS manifest.
type mifAnswer struct {
	MFEN   string        `json:"mfen"`
	MIFPOS mif.Envelope  `json:"mifpos"`
	MRS    *mif.Manifest `json:"mrs"`
}

// positionMIF: POST /api/position/mif, the position of the body in MIF 1.0
// for other Mill programs; 422 with the reason where MIF cannot hold it.
func (a *api) positionMIF(w http.ResponseWriter, r *http.Request) error {
	_, g, err := a.positionRequest(r)
	if err != nil {
		return err
	}
	e, err := mif.EnvelopeFor(g.Position())
	if err != nil {
		return httpError(http.StatusUnprocessableEntity, "%v", err)
	}
	return writeJSON(w, http.StatusOK, mifAnswer{MFEN: e.Position, MIFPOS: e, MRS: e.Ruleset.Manifest})
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
	b, g, err := a.positionRequest(r)
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
		if text, err = record.FromSanmill(text, mif.ParseSanmillFEN); err != nil {
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
	b := positionBody{Request: view.Request{Position: q.Get("position"), Rules: q.Get("rules")}}
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
