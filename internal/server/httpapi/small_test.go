package httpapi

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
)

// TestSmallBoards: the small morris games through the API: their presets
// and boards as data, a game of three men's morris to its end by a mill,
// the analysis, and a game against the engine.
func TestSmallBoards(t *testing.T) {
	ts := newTestServer(t, server.Config{EngineWorkers: 1})
	var vs []variantAnswer
	ts.must(t, 200, "GET", "/api/variants", "", nil, &vs)
	boardOf := map[string]string{}
	for _, v := range vs {
		boardOf[v.ID] = v.Board
	}
	for id, b := range map[string]string{"three-mens-morris": "standard9", "tapatan": "diagonal9", "six-mens-morris": "standard16", "seven-mens-morris": "cross17"} {
		if boardOf[id] != b {
			t.Errorf("/api/variants: %s plays on %q, want %s", id, boardOf[id], b)
		}
	}
	var bs []boardAnswer
	ts.must(t, 200, "GET", "/api/boards", "", nil, &bs)
	byID := map[string]boardAnswer{}
	for _, b := range bs {
		byID[b.ID] = b
	}
	for _, tc := range []struct {
		id                               string
		size, points, edges, lines, diag int
		centre                           string // the last point, in the middle
	}{
		{"standard9", 3, 9, 12, 6, 0, "b2"},
		{"diagonal9", 3, 9, 16, 8, 2, "b2"},
		{"standard16", 5, 16, 20, 8, 0, ""},
		{"cross17", 5, 17, 24, 14, 0, "c3"},
	} {
		b, ok := byID[tc.id]
		if !ok {
			t.Errorf("/api/boards has no %s", tc.id)
			continue
		}
		diag := 0
		for _, l := range b.Lines {
			if l.Diagonal {
				diag++
			}
		}
		if b.Width != tc.size || b.Height != tc.size || len(b.Points) != tc.points || len(b.Edges) != tc.edges || len(b.Lines) != tc.lines || diag != tc.diag {
			t.Errorf("%s: %dx%d, %d points, %d edges, %d lines (%d diagonal)", tc.id, b.Width, b.Height, len(b.Points), len(b.Edges), len(b.Lines), diag)
		}
		if last := b.Points[len(b.Points)-1]; tc.centre != "" && (last.Name != tc.centre || last.X != tc.size/2 || last.Y != tc.size/2) {
			t.Errorf("%s: the last point is %+v, want the centre %s", tc.id, last, tc.centre)
		}
	}

	// A game of three men's morris: placing, then white's step c3-c2
	// completes a2-b2-c2 and wins.
	var v positionView
	ts.must(t, 200, "POST", "/api/position", "", map[string]any{"rules": "three-mens-morris", "moves": []string{"b2", "a1", "c3", "a3", "a2", "c1"}}, &v)
	if v.Board != "standard9" || v.Status != "*" || len(v.Legal) != 5 { // c3-c2, c3-b3, b2-b1, b2-c2, b2-b3 (a2 is shut in)
		t.Errorf("three men's morris, moving: board %s, status %s, %d legal moves %+v", v.Board, v.Status, len(v.Legal), v.Legal)
	}
	ts.must(t, 200, "POST", "/api/position", "", map[string]any{"rules": "three-mens-morris", "moves": []string{"b2", "a1", "c3", "a3", "a2", "c1", "c3-c2"}}, &v)
	if v.Status != "1-0" || v.Method != "mill" || len(v.Legal) != 0 || len(v.InMills.White) != 3 {
		t.Errorf("after the line a2-b2-c2: status %s by %s, %d legal moves, in mills %v", v.Status, v.Method, len(v.Legal), v.InMills.White)
	}
	// The analysis blocks black's line a2-b2-c2 (tapatan: and sees the win).
	var an analysisAnswer
	ts.must(t, 200, "POST", "/api/analysis", "", map[string]any{"position": "three-mens-morris W3W2B/B w 1,1 - 0 4", "depth": 6}, &an)
	if an.Best != "c2" {
		t.Errorf("analysis: got %s (%s), want c2", an.Best, an.ScoreText)
	}

	// Against the engine at level 10.
	ann := ts.account(t, "ann")
	var g wire.GameSummary
	ts.must(t, 201, "POST", "/api/challenge/ai", ann, map[string]any{"level": 10, "color": "white", "variant": "three-mens-morris"}, &g)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := stream(t, ctx, fmt.Sprintf("%s/api/game/%d/stream", ts.URL, g.ID), "")
	var w watcher
	w.apply(t, next(t, s))
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/move", g.ID), ann, map[string]any{"move": "b2", "ply": 0}, nil)
	for len(w.moves) < 2 {
		w.apply(t, next(t, s))
	}
	var full wire.GameFull
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", g.ID), "", nil, &full)
	if full.Variant != "three-mens-morris" || w.moves[0] != "b2" || w.moves[1] == "b2" {
		t.Errorf("engine game: variant %s, moves %v", full.Variant, w.moves)
	}
}
