package httpapi

import (
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/mill"
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
	for _, body := range []any{
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
	ts.must(t, 200, "POST", "/api/analysis", "", map[string]any{"moves": []string{"a1", "a4", "d1", "b4"}, "depth": 4}, &an)
	if !strings.HasPrefix(an.Best, "g1x") || len(an.PV) == 0 || an.PV[0] != an.Best {
		t.Errorf("analysis of a mill in one: %+v", an)
	}

	var tok tokenAnswer
	ts.must(t, 201, "POST", "/api/guest", "", nil, &tok)
	if !strings.HasPrefix(tok.User.Name, "guest-") || tok.Token == "" {
		t.Errorf("guest: %+v", tok)
	}
	ts.must(t, 200, "GET", "/api/account", tok.Token, nil, nil)
	if code, _ := ts.do(t, "POST", "/api/account", "", map[string]string{"name": "guest-me", "password": "abcdef"}); code != 400 {
		t.Errorf("signing up as a guest name: %d", code)
	}

	var recs []recordAnswer
	ts.must(t, 200, "POST", "/api/records", "", map[string]string{"text": "[Variant \"lasker\"]\n\n1. a1 a4 2. d1 *\n"}, &recs)
	if len(recs) != 1 || len(recs[0].Moves) != 3 || recs[0].Tags["Variant"] != "lasker" {
		t.Errorf("records: %+v", recs)
	}
	if code, body := ts.do(t, "POST", "/api/records", "", map[string]string{"text": "1. a1 a1 *\n"}); code != 400 || !strings.Contains(string(body), "a1") {
		t.Errorf("a record with an illegal move: %d %s", code, body)
	}
}
