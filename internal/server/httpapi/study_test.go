package httpapi

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

func TestStudyEndpoints(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	var boards []boardAnswer
	ts.must(t, 200, "GET", "/api/boards", "", nil, &boards)
	if len(boards) != len(mill.Boards()) {
		t.Fatalf("boards: got %d, want %d", len(boards), len(mill.Boards()))
	}
	for _, b := range boards {
		if len(b.Points) == 0 || len(b.Edges) == 0 || len(b.Lines) == 0 {
			t.Errorf("board %s: %d points, %d edges, %d lines", b.ID, len(b.Points), len(b.Edges), len(b.Lines))
		}
	}

	var v positionView
	ts.must(t, 200, "POST", "/api/position", "", map[string]any{"rules": "nine-mens-morris", "moves": []string{"d6", "d5", "b4", "f4", "D2"}}, &v)
	if v.Ply != 5 || v.ToMove != "black" || len(v.Pieces.White) != 3 || v.InHand.White != 6 || len(v.Moves) != 5 || len(v.History) != 5 {
		t.Errorf("after five moves: %+v", v)
	}
	if len(v.Legal) != 24-5 {
		t.Errorf("legal moves after five placements: got %d, want 19", len(v.Legal))
	}
	// A mill's capture shows in the legal moves.
	ts.must(t, 200, "POST", "/api/position", "", map[string]any{"moves": []string{"a1", "a4", "d1", "b4"}}, &v)
	captures := 0
	for _, m := range v.Legal {
		if m.To == 2 && len(m.Captures) == 1 { // g1 closes a1-d1-g1
			captures++
		}
	}
	if captures != 2 {
		t.Errorf("g1 closing the mill: got %d moves with a capture, want 2 (a4, b4): %+v", captures, v.Legal)
	}
	// A position in MIF 1.0 (MFEN) under the body's rules, and shown so.
	const mfen = "MFEN/1.0 mill24-state-v1 ....WWW./....BBB./........ w m m 0,0 - 3 20 - ul=0004,0000"
	ts.must(t, 200, "POST", "/api/position", "", map[string]any{"position": mfen, "rules": "russian-mill"}, &v)
	if v.Position != "russian-mill WWW5/BBB5/8 w 0,0 uw=1 3 20" || v.MFEN != mfen {
		t.Errorf("MFEN %q under russian-mill: got %q, mfen %q", mfen, v.Position, v.MFEN)
	}
	// The same with its rule set, as MIFPOS.
	env, err := mif.EnvelopeFor(mill.MustParsePosition(v.Position))
	if err != nil {
		t.Fatal(err)
	}
	envText, _ := json.Marshal(env)
	ts.must(t, 200, "POST", "/api/position", "", map[string]any{"position": string(envText)}, &v)
	if v.Position != "russian-mill WWW5/BBB5/8 w 0,0 uw=1 3 20" || v.MFEN != mfen {
		t.Errorf("MIFPOS %s: got %q, mfen %q", envText, v.Position, v.MFEN)
	}
	// The position in MIF 1.0 to export: MFEN, MIFPOS with its rules, and
	// the rules as MRS; the MIFPOS read back is the same position.
	var mifA struct {
		MFEN   string          `json:"mfen"`
		MIFPOS json.RawMessage `json:"mifpos"`
		MRS    json.RawMessage `json:"mrs"`
	}
	ts.must(t, 200, "POST", "/api/position/mif", "", map[string]any{"position": mfen, "rules": "russian-mill"}, &mifA)
	if mifA.MFEN != mfen {
		t.Errorf("/api/position/mif: mfen %q, want %q", mifA.MFEN, mfen)
	}
	back, err := mif.ParsePositionEnvelope(string(mifA.MIFPOS))
	if err != nil || back.String() != v.Position {
		t.Errorf("/api/position/mif's mifpos read back: %v, %v; want %s", back, err, v.Position)
	}
	m, err := mif.ParseManifest(mifA.MRS)
	if err != nil {
		t.Fatalf("/api/position/mif's mrs: %v", err)
	}
	if r, err := m.Rules(); err != nil || r.String() != "russian-mill" {
		t.Errorf("/api/position/mif's mrs as our rules: %v, %v", r, err)
	}
	// Where MIF cannot hold the position: a board it has no profile of.
	if code, body := ts.do(t, "POST", "/api/position/mif", "", map[string]any{"rules": "six-mens-morris", "moves": []string{"a1"}}); code != 422 || !strings.Contains(string(body), "mif") {
		t.Errorf("/api/position/mif of six men's morris: got %d %s, want 422 and the reason", code, body)
	}
	if code, _ := ts.do(t, "POST", "/api/position/mif", "", map[string]any{"rules": "chess"}); code != 400 {
		t.Errorf("/api/position/mif of bad rules: got %d, want 400", code)
	}
	for _, body := range []any{
		map[string]any{"position": string(envText), "rules": "russian-mill"}, // rules twice
		map[string]any{"position": mfen},                                     // nine men's morris keeps no used lines
		map[string]any{"position": mfen, "rules": "russian-mill", "seed": 1}, // a seed with a position
		map[string]any{"position": "MFEN/1.0 nonsense", "rules": "russian-mill"},
		map[string]any{"rules": "chess"},
		map[string]any{"moves": []string{"d6", "d6"}},
		map[string]any{"position": "nonsense"},
		map[string]any{"position": v.Position, "rules": "lasker"},
		map[string]any{"moves": make([]string, 2001)},
	} {
		if code, body := ts.do(t, "POST", "/api/position", "", body); code != 400 {
			t.Errorf("position %v: got %d %s, want 400", body, code, body)
		}
	}

	var an analysisAnswer
	// White closes a1-d1-g1 and takes a piece of black's two b6-d6: a
	// capture that also removes a threat. (Where the capture removes no
	// threat, the search may rather build a second two first: after a1 a4
	// d1 b4 it blocks at c4 up to depth 8 and takes only from depth 13,
	// both about equal to the deep search.)
	ts.must(t, 200, "POST", "/api/analysis", "", map[string]any{"moves": []string{"a1", "b6", "d1", "d6"}, "depth": 4}, &an)
	if !strings.HasPrefix(an.Best, "g1x") || len(an.PV) == 0 || an.PV[0] != an.Best {
		t.Errorf("analysis of a mill in one: %+v", an)
	}

	var tok tokenAnswer
	ts.must(t, 201, "POST", "/api/guest", "", nil, &tok)
	if !strings.HasPrefix(tok.User.Name, "guest-") || tok.Token == "" {
		t.Errorf("guest: %+v", tok)
	}
	ts.must(t, 200, "GET", "/api/account", tok.Token, nil, nil)
	if code, _ := ts.do(t, "POST", "/api/account", "", map[string]string{"name": "guest-me", "password": "abcdefgh"}); code != 400 {
		t.Errorf("signing up as a guest name: %d", code)
	}

	var recs []recordAnswer
	ts.must(t, 200, "POST", "/api/records", "", map[string]string{"text": "[Variant \"lasker\"]\n\n1. a1 a4 2. d1 *\n"}, &recs)
	if len(recs) != 1 || len(recs[0].Moves) != 3 || recs[0].Tags["Variant"] != "lasker" {
		t.Errorf("records: %+v", recs)
	}
	// A record as Sanmill writes one, and one whose rules we cannot play.
	sanmill := "[Event \"Sanmill-Game\"]\r\n[Site \"Sanmill\"]\r\n[Result \"*\"]\r\n[Variant \"Lasker Morris\"]\r\n\r\n 1. a1 b2 2. d1?? b6 3. g1xb2 *\r\n"
	ts.must(t, 200, "POST", "/api/records", "", map[string]string{"text": sanmill}, &recs)
	if len(recs) != 1 || len(recs[0].Moves) != 5 || recs[0].Tags["Variant"] != "lasker" {
		t.Errorf("a record of Sanmill's: %+v", recs)
	}
	if code, body := ts.do(t, "POST", "/api/records", "", map[string]string{"text": strings.Replace(sanmill, "Lasker Morris", "Dooz", 1)}); code != 400 || !strings.Contains(string(body), "full") {
		t.Errorf("Sanmill's Dooz: %d %s", code, body)
	}
	if code, body := ts.do(t, "POST", "/api/records", "", map[string]string{"text": "1. a1 a1 *\n"}); code != 400 || !strings.Contains(string(body), "a1") {
		t.Errorf("a record with an illegal move: %d %s", code, body)
	}
}

// TestAnalysisTablebase: with endgame databases (serve -tablebases), the
// analysis of a 3v3 position gives their result: the win at its exact
// distance (mate N), the databases' value and their hits; under rules they
// do not cover, none of it, and without databases none either.
func TestAnalysisTablebase(t *testing.T) {
	dir := t.TempDir()
	r := mill.MustRules("nine-mens-morris")
	if _, err := (egdb.Builder{Rules: r, Dir: dir, Keys: []egdb.Key{{White: 3, Black: 3}}}).Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Won for white, who has no mill to close at once: the search alone
	// would need the whole distance.
	var won mill.Position
	var v egdb.Value
	rng := rand.New(rand.NewPCG(7, 7))
	for tries := 0; tries < 100000 && v.Plies < 11; tries++ {
		perm := rng.Perm(24)
		var w, b mill.Points
		for _, p := range perm[:3] {
			w |= 1 << p
		}
		for _, p := range perm[3:6] {
			b |= 1 << p
		}
		p, _ := r.SetUp(w, b, mill.White, 0, 0)
		if pv, ok := db.Value(p); ok && pv.Result == egdb.Win && pv.Plies >= 11 {
			won, v = p, pv
		}
	}
	if v.Plies == 0 {
		t.Fatal("no won 3v3 position found")
	}
	mate := search.ScoreText(search.Mate - v.Plies)
	body := map[string]any{"position": won.String(), "depth": 4}
	other := strings.Replace(won.String(), "nine-mens-morris", "nine-mens-morris,flying=never", 1)

	ts := newTestServer(t, server.Config{Tablebase: db})
	var an analysisAnswer
	ts.must(t, 200, "POST", "/api/analysis", "", body, &an)
	if an.ScoreText != mate || an.Proved != "win" || an.Tablebase != v.String() || an.TBHits == 0 || an.Best == "" {
		t.Errorf("%s, the databases say %s: got %+v, want %s and their value and hits", won, v, an, mate)
	}
	if _, data := ts.do(t, "POST", "/api/analysis", "", body); !strings.Contains(string(data), `"tablebase":"win in `) ||
		!strings.Contains(string(data), `"tablebaseMoves":[{"move":`) {
		t.Errorf("the answer's JSON: %s", data)
	}
	// Every move with its value, best first; the moves that keep the win
	// are the fastest, and the engine's best is one of them.
	mv, _ := db.MoveValues(won)
	if len(an.TablebaseMoves) != len(mv) || len(mv) == 0 {
		t.Fatalf("tablebaseMoves: got %d, want %d", len(an.TablebaseMoves), len(mv))
	}
	bestKept := false
	for i, m := range an.TablebaseMoves {
		want := tablebaseMove{Move: won.MoveText(mv[i].Move), Value: mv[i].Value.String(), Keeps: mv[i].Value == v}
		if m != want {
			t.Errorf("tablebaseMoves[%d]: got %+v, want %+v", i, m, want)
		}
		if m.Keeps && m.Move == an.Best {
			bestKept = true
		}
	}
	if !an.TablebaseMoves[0].Keeps || !bestKept {
		t.Errorf("tablebaseMoves %+v: want the first to keep %s, and the engine's best (%s) among those that do", an.TablebaseMoves, v, an.Best)
	}
	an = analysisAnswer{}
	ts.must(t, 200, "POST", "/api/analysis", "", map[string]any{"position": other, "depth": 4}, &an)
	if an.Tablebase != "" || an.TBHits != 0 || an.Best == "" {
		t.Errorf("%s (rules the databases do not cover): got %+v, want no probes", other, an)
	}

	plain := newTestServer(t, server.Config{})
	an = analysisAnswer{}
	plain.must(t, 200, "POST", "/api/analysis", "", body, &an)
	if an.Tablebase != "" || an.TBHits != 0 || an.Proved != "" {
		t.Errorf("%s without databases: got %+v, want no value and no proof", won, an)
	}

	// The same from a compact file (serve -tablebases FILE): the result
	// without its distance, every move's result, the engine's best among
	// those that keep the win.
	compact := filepath.Join(t.TempDir(), "3v3.wdl")
	if err := egdb.WriteCompact(db, compact, nil); err != nil {
		t.Fatal(err)
	}
	c, err := egdb.OpenCompact(compact)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cts := newTestServer(t, server.Config{Tablebase: c})
	an = analysisAnswer{}
	cts.must(t, 200, "POST", "/api/analysis", "", body, &an)
	// Its score is no count of pieces but the databases' win without a
	// distance: proved, for the side to move.
	if an.Tablebase != "win" || an.Proved != "win" || an.TBHits == 0 || an.Best == "" || len(an.TablebaseMoves) != len(mv) {
		t.Errorf("%s from the compact file: got %+v, want a proved win, hits and every move", won, an)
	}
	for i, m := range an.TablebaseMoves {
		if want := mv[i].Value.Result; m.Value != map[egdb.Result]string{egdb.Win: "win", egdb.Draw: "draw", egdb.Loss: "loss"}[want] {
			t.Errorf("tablebaseMoves[%d] from the compact file: %+v, the files say %s", i, m, mv[i].Value)
		}
		if m.Move == an.Best && !m.Keeps {
			t.Errorf("the engine's best %s from the compact file does not keep the win: %+v", an.Best, an.TablebaseMoves)
		}
	}
}
