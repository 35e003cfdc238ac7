package httpapi

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// TestPositionMarksAndRemovals: the position JSON of the regional
// presets: marked points (da san qi), removals owed by each side and of
// one's own pieces (el filja), a blocked side's removal (zhi qi), and the
// legal moves of each, as the board of the web client reads them.
func TestPositionMarksAndRemovals(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	b := mill.MustRules("da-san-qi").Board()
	pt := func(name string) int {
		p, ok := b.PointByName(name)
		if !ok {
			t.Fatalf("no point %s", name)
		}
		return int(p)
	}
	var v positionView
	post := func(body map[string]any) {
		t.Helper()
		v = positionView{} // fields left out of the answer must not stay from the last one
		ts.must(t, 200, "POST", "/api/position", "", body, &v)
	}

	// Da san qi: white's g1 closes a1-d1-g1 and marks black's a7, which
	// stays on its point, of neither side, and takes no placement.
	post(map[string]any{"rules": "da-san-qi", "moves": []string{"a1", "a7", "d1", "g7", "g1xa7"}})
	if !slices.Equal(v.Marked, []int{pt("a7")}) || slices.Contains(v.Pieces.Black, pt("a7")) || v.Position != "da-san-qi WWW1B1X1/8/8 b 9,10 - 0 5" {
		t.Errorf("after g1xa7: marked %v, black %v, position %s", v.Marked, v.Pieces.Black, v.Position)
	}
	for _, m := range v.Legal {
		if m.To == pt("a7") {
			t.Errorf("a placement on the marked point: %+v", m)
		}
	}
	// When placing ends the marks leave and black, who placed last, moves
	// first: twice running.
	post(map[string]any{"position": "da-san-qi WWWBBWBW/BWBWWBWB/WBWBWBX1 b 0,1 - 0 23", "moves": []string{"c4"}})
	if len(v.Marked) != 0 || v.ToMove != "black" || v.Ply != 24 || v.Status != "*" {
		t.Errorf("after the last placement: marked %v, %s to move at ply %d, status %s", v.Marked, v.ToMove, v.Ply, v.Status)
	}

	// El filja when placing ends: white removes two black pieces, then
	// black one white piece.
	post(map[string]any{"position": "el-filja BWWBBWBW/BBWWBBWB/WWWBWBBW w 0,0 xw2,xb 0 24"})
	if v.Owed != (colorPair[int]{White: 2, Black: 1}) || v.RemovesOwn || v.Removal != "white" || len(v.Legal) != 12 {
		t.Errorf("el filja's removals: owed %+v, own %v, removal %q, %d legal moves", v.Owed, v.RemovesOwn, v.Removal, len(v.Legal))
	}
	for _, m := range v.Legal {
		if m.Kind != "remove" || len(m.Captures) != 1 || !slices.Contains(v.Pieces.Black, m.Captures[0]) {
			t.Errorf("el filja's removals: a legal move %+v, want the removal of a black piece", m)
		}
	}
	post(map[string]any{"position": v.Position, "moves": []string{v.Legal[0].Text}})
	if v.Owed != (colorPair[int]{White: 1, Black: 1}) || v.ToMove != "white" || v.Removal != "white" {
		t.Errorf("after white's first removal: owed %+v, %s to move, removal %q", v.Owed, v.ToMove, v.Removal)
	}
	// No mill on the board: each removes one of its own.
	post(map[string]any{"position": "el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw,xb,own 0 24"})
	if v.Owed != (colorPair[int]{White: 1, Black: 1}) || !v.RemovesOwn || v.Removal != "white" {
		t.Errorf("el filja's own removals: owed %+v, own %v, removal %q", v.Owed, v.RemovesOwn, v.Removal)
	}
	for _, m := range v.Legal {
		if m.Kind != "remove" || !slices.Contains(v.Pieces.White, m.Captures[0]) {
			t.Errorf("el filja's own removals: a legal move %+v, want the removal of a white piece", m)
		}
	}

	// Zhi qi: white cannot move; it removes a black piece next to one of
	// its own, owing nothing, and then moves again.
	post(map[string]any{"position": "zhi-qi WWWB1BWB/BBB3B1/3B4 w 0,0 - 0 40"})
	var removals []string
	for _, m := range v.Legal {
		if m.Kind == "remove" {
			removals = append(removals, m.Text)
		}
	}
	if v.Owed != (colorPair[int]{}) || v.Removal != "white" || len(removals) != len(v.Legal) || !slices.Contains(removals, "xd2") || v.Status != "*" {
		t.Errorf("zhi qi's blocked removal: owed %+v, removal %q, legal %v", v.Owed, v.Removal, v.Legal)
	}
	post(map[string]any{"position": v.Position, "moves": []string{"xd2"}})
	if v.ToMove != "white" || v.Removal != "" || len(v.Legal) == 0 || v.Legal[0].Kind != "slide" {
		t.Errorf("after zhi qi's removal: %s to move, removal %q, legal %v", v.ToMove, v.Removal, v.Legal)
	}
}

// fakeNow is a time the test moves by hand, for the server's clocks.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeNow) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeNow) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// placeForMills is a placement policy for the tests: close a mill if the
// side can, else make the most twos of its own (white), or take the first
// legal move (black). In el filja white then has mills when placing ends
// and black few, so white owes several removals.
func placeForMills(p mill.Position) mill.Move {
	ms := p.Moves(nil)
	us := p.SideToMove()
	best, pick := -1, ms[0]
	for _, m := range ms {
		q := p.Play(m)
		score := 0
		if m.Kind() == mill.PlaceMove && q.InMills(us).Has(m.To()) {
			score += 1000
		}
		if us == mill.White {
			own := q.Pieces(us)
			for _, l := range q.Rules().MillLines() {
				if (l&own).Len() == 2 && l&(q.Pieces(us.Other())|q.Marked()) == 0 {
					score += 10
				}
			}
		}
		if score > best {
			best, pick = score, m
		}
	}
	return pick
}

// TestClockWhenASideMovesTwice: a real-time game of el filja on a real
// server (SQLite), the time the server's, moved by hand. When placing
// ends white owes several removals, each a move: after each of them
// white's clock runs on (with the increment for the move), black's stands
// still; a take-back undoes only white's last removal; white's flag falls
// while it removes, and a late removal loses on time. The clocks of the
// game after every move are the ones computed here.
func TestClockWhenASideMovesTwice(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	ts := newTestServer(t, server.Config{Now: clk.now})
	ann, bob := ts.account(t, "ann"), ts.account(t, "bob")
	const initial, inc = 60 * time.Second, 2 * time.Second
	var c wire.Challenge
	ts.must(t, 201, "POST", "/api/challenge/bob", ann, map[string]any{"variant": "el-filja", "color": "white",
		"clock": map[string]int64{"initialMs": initial.Milliseconds(), "incrementMs": inc.Milliseconds()}}, &c)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
	token := map[mill.Color]string{mill.White: ann, mill.Black: bob}
	left := map[mill.Color]time.Duration{mill.White: initial, mill.Black: initial}
	check := func(what string, wantRunning mill.Color) {
		t.Helper()
		var full wire.GameFull
		ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &full)
		cl := full.State.Clocks
		if cl == nil || cl.Running != colorName(wantRunning) || cl.WhiteMs != left[mill.White].Milliseconds() || cl.BlackMs != left[mill.Black].Milliseconds() {
			t.Fatalf("%s: clocks %+v, want %s running, white %v, black %v", what, cl, colorName(wantRunning), left[mill.White], left[mill.Black])
		}
		if full.State.ToMove != colorName(wantRunning) {
			t.Fatalf("%s: %s to move, want %s", what, full.State.ToMove, colorName(wantRunning))
		}
		// The game in a list: its side to move, from the stored moves.
		var list []wire.GameSummary
		ts.must(t, 200, "GET", "/api/user/ann/games", "", nil, &list)
		if len(list) != 1 || list[0].ToMove != colorName(wantRunning) {
			t.Fatalf("%s: ann's games %+v, want one with %s to move", what, list, colorName(wantRunning))
		}
	}
	g := mill.NewGame(mill.MustRules("el-filja"))
	check("the start", mill.White)
	twice := 0
	for g.Position().Owed(mill.White) == 0 {
		p := g.Position()
		us := p.SideToMove()
		m := placeForMills(p)
		// Each side thinks a different while: 300 ms for white, 700 for black.
		think := 300 * time.Millisecond
		if us == mill.Black {
			think = 700 * time.Millisecond
		}
		clk.add(think)
		left[us] += inc - think
		ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), token[us], map[string]any{"move": p.MoveText(m), "ply": p.Ply()}, nil)
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		if g.Position().SideToMove() == us {
			twice++
		}
		check(fmt.Sprintf("after %s at ply %d", p.MoveText(m), p.Ply()), g.Position().SideToMove())
	}
	p := g.Position()
	if n := p.Owed(mill.White); n < 2 || p.SideToMove() != mill.White || twice != 0 {
		t.Fatalf("placing ended in %s: white owes %d, want 2 or more; %d moves twice running", p, n, twice)
	}
	// White's first removal: its clock runs on.
	clk.add(time.Second)
	left[mill.White] += inc - time.Second
	m := p.Moves(nil)[0]
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), ann, map[string]any{"move": p.MoveText(m), "ply": p.Ply()}, nil)
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}
	check("after white's first removal", mill.White)
	clk.add(5 * time.Second)
	left[mill.White] -= 5 * time.Second
	check("white thinking over its second removal", mill.White)
	// A take-back asked now undoes white's last move only, the first
	// removal: white is to move before it, its clock running, the time
	// spent kept.
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/takeback/offer", c.Game), ann, nil, nil)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/takeback/accept", c.Game), bob, nil, nil)
	var back wire.GameFull
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &back)
	if back.State.Ply != p.Ply() || back.State.Position != p.String() {
		t.Fatalf("after the take-back: ply %d, %s; want ply %d, %s", back.State.Ply, back.State.Position, p.Ply(), p)
	}
	check("after the take-back", mill.White)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), ann, map[string]any{"move": p.MoveText(m), "ply": p.Ply()}, nil)
	left[mill.White] += inc
	check("white's first removal again", mill.White)
	// Black may not move, nor claim while white's time runs.
	p = g.Position()
	if code, body := ts.do(t, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), bob, map[string]any{"move": "xa1", "ply": p.Ply()}); code != 403 {
		t.Fatalf("black moves in white's turn: %d %s, want 403", code, body)
	}
	if code, body := ts.do(t, "POST", fmt.Sprintf("/api/game/%d/claim-victory", c.Game), bob, nil); code != 403 {
		t.Fatalf("black claims while white's clock runs: %d %s, want 403", code, body)
	}
	// White's time runs out: its late removal is refused, and it loses.
	clk.add(left[mill.White] + time.Millisecond)
	if code, body := ts.do(t, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), ann, map[string]any{"move": p.MoveText(p.Moves(nil)[0]), "ply": p.Ply()}); code != 409 {
		t.Fatalf("white's removal after its flag fell: %d %s, want 409", code, body)
	}
	var full wire.GameFull
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &full)
	if full.State.Status != "finished" || full.State.Result != "0-1" || full.State.Method != "time" || full.State.Clocks.WhiteMs != 0 || full.State.Clocks.BlackMs != left[mill.Black].Milliseconds() {
		t.Errorf("after white's flag fell: %s %s by %s, clocks %+v", full.State.Status, full.State.Result, full.State.Method, full.State.Clocks)
	}
}

// TestEngineGamesRegional plays a game of each regional preset against
// the engine (level 1) to its end: the engine answers every turn that is
// its own, also several in a row (its removals when placing ends, da san
// qi's second player moving first, zhi qi's removal when it cannot move).
// The player takes a capture, a mark or a removal when it has one, else
// a random move.
func TestEngineGamesRegional(t *testing.T) {
	ts := newTestServer(t, server.Config{EngineWorkers: 1})
	ann := ts.account(t, "ann")
	for i, variant := range []string{"dooz", "cheng-san-qi", "da-san-qi", "zhi-qi", "el-filja"} {
		t.Run(variant, func(t *testing.T) {
			color := []string{"white", "black"}[i%2]
			var sum wire.GameSummary
			ts.must(t, 201, "POST", "/api/challenge/ai", ann, map[string]any{"level": 1, "color": color, "variant": variant}, &sum)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			s := stream(t, ctx, fmt.Sprintf("%s/api/game/%d/stream", ts.URL, sum.ID), "")
			e := next(t, s)
			if e.Type != "gameFull" {
				t.Fatalf("first line %+v", e)
			}
			start, err := mill.ParsePosition(e.State.Position)
			if err != nil {
				t.Fatal(err)
			}
			me := mill.White
			if color == "black" {
				me = mill.Black
			}
			g := mill.NewGame(start.Rules(), mill.FromPosition(start))
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			engineTwice := 0
			for g.Outcome() == mill.NoOutcome {
				if len(g.Moves()) > 300 {
					ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/resign", sum.ID), ann, nil, nil)
					break
				}
				p := g.Position()
				if p.SideToMove() == me {
					ms := p.Moves(nil)
					m := ms[rng.IntN(len(ms))]
					for _, x := range ms {
						if x.NumCaptures() > 0 {
							m = x
							break
						}
					}
					ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/move", sum.ID), ann, map[string]any{"move": p.MoveText(m), "ply": p.Ply()}, nil)
				}
				// The move event, mine or the engine's.
				e := next(t, s)
				for e.Type != "move" {
					e = next(t, s)
				}
				if e.Ply != p.Ply() {
					t.Fatalf("move event at ply %d, want %d", e.Ply, p.Ply())
				}
				if err := g.PlayText(e.Move); err != nil {
					t.Fatalf("ply %d %s: %v", e.Ply, e.Move, err)
				}
				if p.SideToMove() != me && g.Position().SideToMove() != me && g.Outcome() == mill.NoOutcome {
					engineTwice++
				}
			}
			var full wire.GameFull
			ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", sum.ID), "", nil, &full)
			if full.State.Status != "finished" {
				t.Fatalf("the game did not end: %+v", full.State)
			}
			if variant == "da-san-qi" && len(g.Moves()) > 24 && engineTwice == 0 {
				t.Errorf("da san qi: the engine, black, placed last and did not move first")
			}
			t.Logf("%s: %d plies, %s by %s; the engine moved twice running %d times", variant, full.State.Ply, full.State.Result, full.State.Method, engineTwice)
		})
	}
}
