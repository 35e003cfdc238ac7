package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"time"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
	"github.com/morrisgame/morris/search"
	"github.com/morrisgame/morris/view"
)

// HashMB is the engine's table here: smaller than the server's 64 MiB, for
// a phone's memory. The parity test searches natively with the same size.
const HashMB = 32

// maxAnalysis bounds an analysis's time, as the server's MaxAnalysis does.
const maxAnalysis = 3 * time.Second

// engine is the page's engine: one search at a time (the worker's calls
// come one by one), its table kept while the same game or the same rules'
// analysis goes on, as the server's engines keep theirs.
type engine struct {
	e     *search.Engine
	table string // what the table was filled for: "game ID", "analysis RULES"; "" for nothing
	rng   *rand.Rand
}

func newEngine() *engine {
	return &engine{
		e:   search.New(search.Options{HashMB: HashMB, Threads: 1, Book: book.Default()}),
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 49)),
	}
}

// prepare clears the table when it was filled for something else.
func (en *engine) prepare(table string) {
	if en.table != table {
		en.e.Clear()
		en.table = table
	}
}

// analysisBody is POST /api/analysis's body, with Fresh: a table cleared
// first (the parity test, the benchmark).
type analysisBody struct {
	view.Request
	Depth      int  `json:"depth"`
	MoveTimeMs int  `json:"movetimeMs"`
	Fresh      bool `json:"fresh"`
}

// analysisAnswer is POST /api/analysis's answer (without the endgame
// databases, which the browser does not have), with the time taken.
type analysisAnswer struct {
	Best      string   `json:"best"`
	Score     int      `json:"score"`
	ScoreText string   `json:"scoreText"`
	Proved    string   `json:"proved,omitempty"`
	Depth     int      `json:"depth"`
	Nodes     uint64   `json:"nodes"`
	PV        []string `json:"pv"`
	TimeMs    int64    `json:"timeMs"`
}

// moveBody asks for the engine's move in a game: Game names the game (its
// table is kept through its moves), Level is 1 to 10.
type moveBody struct {
	view.Request
	Game  string `json:"game"`
	Level int    `json:"level"`
}

// moveAnswer is the engine's move.
type moveAnswer struct {
	Move      string `json:"move"`
	Score     int    `json:"score"`
	ScoreText string `json:"scoreText"`
	Depth     int    `json:"depth"`
	Nodes     uint64 `json:"nodes"`
	TimeMs    int64  `json:"timeMs"`
}

// recordBody asks for a game's record: the game, its tags, and a result
// the board does not show (a resignation: Result "1-0", Termination
// "resignation").
type recordBody struct {
	view.Request
	Tags        map[string]string `json:"tags"`
	Result      string            `json:"result"`
	Termination string            `json:"termination"`
}

// call answers one call of the page: a method and its JSON body, an
// answer as JSON.
func (en *engine) call(method string, body []byte) (any, error) {
	switch method {
	case "info":
		return map[string]any{"hashMB": HashMB, "go": runtime.Version()}, nil
	case "boards":
		return view.Boards(), nil
	case "variants":
		return view.Variants(), nil
	case "position":
		var b view.Request
		if err := decode(body, &b); err != nil {
			return nil, err
		}
		g, err := b.Game()
		if err != nil {
			return nil, err
		}
		return view.Of(g), nil
	case "analysis":
		var b analysisBody
		if err := decode(body, &b); err != nil {
			return nil, err
		}
		return en.analysis(b)
	case "move":
		var b moveBody
		if err := decode(body, &b); err != nil {
			return nil, err
		}
		return en.move(b)
	case "record":
		var b recordBody
		if err := decode(body, &b); err != nil {
			return nil, err
		}
		return gameRecord(b)
	}
	return nil, fmt.Errorf("no call %q", method)
}

func decode(body []byte, v any) error {
	if len(body) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("the call's body: %v", err)
	}
	return nil
}

// analysis is the server's analysis (server.Service.Analyze): a search at
// full strength of the last position, up to a depth and for at most a
// time (1 s when none is given, 3 s at most).
func (en *engine) analysis(b analysisBody) (analysisAnswer, error) {
	if b.Depth < 0 || b.Depth > 30 || b.MoveTimeMs < 0 {
		return analysisAnswer{}, errors.New("a depth is 1 to 30, a time not negative")
	}
	g, err := b.Request.Game()
	if err != nil {
		return analysisAnswer{}, err
	}
	root := g.Position()
	if o, _ := root.Status(); o != mill.NoOutcome {
		return analysisAnswer{ScoreText: o.String(), PV: []string{}}, nil
	}
	d := time.Duration(b.MoveTimeMs) * time.Millisecond
	if d <= 0 || d > maxAnalysis {
		d = maxAnalysis
		if b.MoveTimeMs == 0 {
			d = time.Second
		}
	}
	if b.Fresh {
		en.table = ""
	}
	en.prepare("analysis " + root.Rules().String())
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	res := en.e.Search(ctx, g.Positions(), search.Limits{Depth: b.Depth, MoveTime: d}, nil)
	a := analysisAnswer{Score: res.Score, ScoreText: search.ScoreTextAlong(root, res.PV, res.Score), Depth: res.Depth,
		Nodes: res.Nodes, PV: []string{}, TimeMs: time.Since(start).Milliseconds()}
	switch search.Proved(res.Score) {
	case 1:
		a.Proved = "win"
	case -1:
		a.Proved = "loss"
	}
	if !res.Move.IsZero() {
		a.Best = root.MoveText(res.Move)
	}
	a.PV = root.LineTexts(res.PV)
	return a, nil
}

// move is the engine's move in a game at a level, as the server's engine
// plays it in a game without a clock (server.Service.engineMove): the
// level's own time, or 5 s for the levels that stop at a depth.
func (en *engine) move(b moveBody) (moveAnswer, error) {
	g, err := b.Request.Game()
	if err != nil {
		return moveAnswer{}, err
	}
	root := g.Position()
	if o, _ := root.Status(); o != mill.NoOutcome {
		return moveAnswer{}, errors.New("the game is over")
	}
	lv := search.LevelFor(b.Level)
	var lim search.Limits
	if lv.MoveTime == 0 {
		lim.MoveTime = 5 * time.Second
	}
	en.prepare("game " + b.Game)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	res := en.e.Choose(ctx, g.Positions(), lv, lim, en.rng, nil)
	if res.Move.IsZero() {
		return moveAnswer{}, errors.New("the engine found no move")
	}
	return moveAnswer{Move: root.MoveText(res.Move), Score: res.Score, ScoreText: search.ScoreText(res.Score),
		Depth: res.Depth, Nodes: res.Nodes, TimeMs: time.Since(start).Milliseconds()}, nil
}

// gameRecord writes a game's record as the server exports its games
// (server.Service.Export): the record package's text.
func gameRecord(b recordBody) (string, error) {
	g, err := b.Request.Game()
	if err != nil {
		return "", err
	}
	var tags []record.Tag
	for _, name := range []string{"Event", "Site", "Date", "White", "Black"} {
		if v := b.Tags[name]; v != "" {
			tags = append(tags, record.Tag{Name: name, Value: v})
		}
	}
	rec := record.FromGame(g, tags...)
	if b.Result != "" && g.Outcome() == mill.NoOutcome {
		o, ok := mill.ParseOutcome(b.Result)
		if !ok {
			return "", fmt.Errorf("result %q", b.Result)
		}
		rec.Result = o
		rec.SetTag("Result", b.Result)
		if b.Termination != "" {
			rec.SetTag("Termination", b.Termination)
		}
	}
	var sb strings.Builder
	w := record.NewWriter(&sb)
	if err := w.Write(rec); err != nil {
		return "", err
	}
	if err := w.Flush(); err != nil {
		return "", err
	}
	return sb.String(), nil
}
