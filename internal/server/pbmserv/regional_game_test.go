package pbmserv

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
	"github.com/morrisgame/morris/mill"
)

// TestRegionalGames plays a game of each regional preset to its end
// through the gateway, by its game name, every move with its #N, while a
// connection follows the board. Each answer must give the turn to the
// right player, also when a side moves twice running (the removals when
// placing ends, da san qi's second player moving first), say what the
// turn must do (removals owed: how many, and who removes next) and show
// marked pieces; the pushes must name the right mover. In el filja the
// players queue removals ahead: white its second one, for its move number;
// black its first one without a number, for its next turn, which comes
// only after all of white's removals.
func TestRegionalGames(t *testing.T) {
	gw := newGateway(t)
	ctx := context.Background()
	sess := NewSession("192.0.2.8:4321", nil)
	defer sess.Close()
	var mu sync.Mutex
	var pushed strings.Builder
	follower := NewSession("192.0.2.9:4321", func(text string) error {
		mu.Lock()
		defer mu.Unlock()
		pushed.WriteString(text)
		return nil
	})
	defer follower.Close()
	exec := func(s *Session, line string, want ...string) string {
		t.Helper()
		got := gw.Exec(ctx, s, line)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Fatalf("%q:\ngot\n%s\nwant it to hold %q", line, got, w)
			}
		}
		return got
	}
	exec(sess, "signup ann secret-ann", "ok: ")
	exec(sess, "signup bob secret-bob", "ok: ")
	user := map[mill.Color]string{mill.White: "ann", mill.Black: "bob"}
	label := map[mill.Color]string{mill.White: "White (W) ann", mill.Black: "Black (B) bob"}
	for i, variant := range []string{"dooz", "cheng-san-qi", "da-san-qi", "zhi-qi", "el-filja"} {
		t.Run(variant, func(t *testing.T) {
			game := pbm.ShortName(variant)
			board := 101 + i
			moves, outcome, method, notes := regionalGame(t, variant)
			exec(sess, fmt.Sprintf("%s accept bob secret-bob", game), "ok: bob takes challenges of "+game+" from anyone")
			exec(sess, fmt.Sprintf("%s challenge ann secret-ann bob", game), fmt.Sprintf("ok: board %d started", board), fmt.Sprintf("%s board %d: %s", game, board, variant))
			exec(follower, fmt.Sprintf("%s subscribe %d", game, board), "ok: this connection follows board")
			g := mill.NewGame(mill.MustRules(variant))
			b := g.Rules().Board()
			queued := map[int]bool{} // plies played from a queue
			var seen struct{ owed, marked, queue bool }
			var want strings.Builder // the pushes
			for ply, text := range moves {
				p := g.Position()
				us := p.SideToMove()
				m, err := b.ParseMove(text)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&want, "* %s board %d: move %d, %s: %s\n", game, board, ply+1, label[us], text)
				if queued[ply] {
					if err := g.Play(m); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if variant == "el-filja" && !seen.queue && p.Owed(us) >= 2 && p.Owed(us.Other()) >= 1 {
					// White queues its second removal for its move
					// number, black its first for its next turn.
					seen.queue = true
					theirs := ply + p.Owed(us)
					exec(sess, fmt.Sprintf("%s queue %d %s secret-%s %s", game, board, user[us.Other()], user[us.Other()], moves[theirs]),
						fmt.Sprintf("ok: board %d: %s queued for move %d", board, moves[theirs], ply+2))
					exec(sess, fmt.Sprintf("%s queue %d %s secret-%s %s#%d", game, board, user[us], user[us], moves[ply+1], ply+2),
						fmt.Sprintf("ok: board %d: %s queued for move %d", board, moves[ply+1], ply+2))
					queued[ply+1], queued[theirs] = true, true
				}
				answer := exec(sess, fmt.Sprintf("%s move %d %s secret-%s %s#%d", game, board, user[us], user[us], text, ply+1),
					fmt.Sprintf("ok: board %d: move %d %s played by %s", board, ply+1, text, user[us]))
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
				// The board in the answer is the game as it is now,
				// after any queued moves played at once.
				q := g.Position()
				for k := ply + 1; queued[k] && k < len(moves); k++ {
					qm, _ := b.ParseMove(moves[k])
					q = q.Play(qm)
				}
				if o, _ := q.Status(); o != mill.NoOutcome || g.Outcome() != mill.NoOutcome {
					continue // repetition is the game's to judge
				}
				next := q.SideToMove()
				turn := fmt.Sprintf("Move %d: %s to move", q.Ply()+1, label[next])
				if !strings.Contains(answer, turn) {
					t.Fatalf("after %s (move %d):\n%s\nwant %q", text, ply+1, answer, turn)
				}
				if n := q.Owed(next); n > 0 {
					seen.owed = true
					what := piecesText(n, next.Other())
					if q.RemovesOwn() {
						what = piecesText(n, next) + " of your own"
					}
					if !strings.Contains(answer, turn+": remove "+what) {
						t.Fatalf("after %s (move %d):\n%s\nwant %q", text, ply+1, answer, turn+": remove "+what)
					}
					if q.Owed(next.Other()) > 0 && !strings.Contains(answer, "; then "+label[next.Other()]+" removes ") {
						t.Fatalf("after %s (move %d):\n%s\nwant who removes next", text, ply+1, answer)
					}
				}
				if q.Marked() != 0 {
					seen.marked = true
					if !strings.Contains(answer, "Marked (X): ") || strings.Count(answer, "X") < 1+q.Marked().Len() {
						t.Fatalf("after %s (move %d): the marked pieces are not shown:\n%s", text, ply+1, answer)
					}
				}
			}
			end := exec(sess, fmt.Sprintf("%s show %d", game, board), "Game over: ", "by "+method.String())
			if !strings.Contains(end, "("+outcome.String()+")") {
				t.Errorf("the end:\n%s\nwant %s by %s", end, outcome, method)
			}
			exec(sess, game+" history", fmt.Sprintf("board %d: White ann - Black bob", board), "by "+method.String())
			switch variant {
			case "el-filja":
				if !seen.owed || !seen.queue || notes["twice"] == 0 {
					t.Errorf("el filja: removals owed %v, queued %v, %d moves twice running", seen.owed, seen.queue, notes["twice"])
				}
			case "zhi-qi":
				if !seen.owed || notes["removals"] != 2 {
					t.Errorf("zhi qi: removals owed %v, %d removals, want the two of the full board", seen.owed, notes["removals"])
				}
			case "da-san-qi":
				if !seen.marked || notes["twice"] != 1 {
					t.Errorf("da san qi: marks shown %v, %d moves twice running, want 1 (the second player moves first)", seen.marked, notes["twice"])
				}
			case "dooz":
				if notes["hand"] == 0 {
					t.Errorf("dooz: no mill took from a hand")
				}
			}
			// The follower saw every move, each by its mover, and the end.
			deadline := time.Now().Add(10 * time.Second)
			for {
				mu.Lock()
				got := pushed.String()
				mu.Unlock()
				if strings.Contains(got, fmt.Sprintf("* %s board %d: game over", game, board)) {
					if !strings.Contains(got, want.String()) {
						t.Errorf("pushed:\n%s\nwant the moves\n%s", got, want.String())
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no end pushed; pushed:\n%s", got)
				}
				time.Sleep(20 * time.Millisecond)
			}
			mu.Lock()
			pushed.Reset()
			mu.Unlock()
		})
	}
}

// regionalGame is a whole game of a preset, its moves in pbmserv notation,
// found without an engine so that it ends soon and passes where the
// preset's rules act: while placing, both sides close mills where they can
// (dooz takes from hands, da san qi marks), except in zhi qi, where they
// avoid them so that the board fills; then white takes a capture when it
// has one and otherwise leaves black the fewest moves, never going back to
// a position seen before, and black plays its first legal move. notes
// counts what happened: "hand" (a mill took from a hand), "marks",
// "removals", "twice" (a side moving twice running).
func regionalGame(t testing.TB, variant string) (moves []string, outcome mill.Outcome, method mill.Method, notes map[string]int) {
	t.Helper()
	g := mill.NewGame(mill.MustRules(variant))
	b := g.Rules().Board()
	avoidMills := variant == "zhi-qi"
	seen := map[mill.Position]bool{}
	notes = map[string]int{}
	for g.Outcome() == mill.NoOutcome {
		if len(moves) > 400 {
			t.Fatalf("%s: the game is not short: %v", variant, moves)
		}
		p := g.Position()
		seen[p] = true
		ms := p.Moves(nil)
		pick := ms[0]
		best := -1 << 30
		for _, m := range ms {
			q := p.Play(m)
			score := 0
			if p.Placing() {
				us := p.SideToMove()
				closes := m.Kind() == mill.PlaceMove && q.InMills(us).Has(m.To())
				score = 10 * openTwos(q, us)
				if closes != avoidMills {
					score += 1000
				}
			} else if p.SideToMove() == mill.White {
				score = 100*m.NumCaptures() - q.NumMoves()
				if seen[q] {
					score -= 10000
				}
			} else {
				score = -len(ms) // black: the first legal move
				if seen[q] {
					score -= 10000
				}
			}
			if o, _ := q.Status(); o == mill.Won(p.SideToMove()) {
				score += 100000
			}
			if score > best {
				best, pick = score, m
			}
		}
		if pick.Kind() == mill.RemoveMove {
			notes["removals"]++
		}
		q := p.Play(pick)
		if them := p.SideToMove().Other(); pick.Kind() == mill.PlaceMove && q.InHand(them) < p.InHand(them) {
			notes["hand"]++
		}
		if q.Marked() != 0 && q.Marked() != p.Marked() {
			notes["marks"]++
		}
		if q.SideToMove() == p.SideToMove() {
			notes["twice"]++
		}
		moves = append(moves, b.MoveText(pick, mill.Pbm))
		if err := g.Play(pick); err != nil {
			t.Fatal(err)
		}
	}
	return moves, g.Outcome(), g.Method(), notes
}

// openTwos counts the mill lines where c has two pieces and the third
// point is empty: mills it may close next.
func openTwos(p mill.Position, c mill.Color) int {
	r := p.Rules()
	own, other := p.Pieces(c), p.Pieces(c.Other())|p.Marked()
	n := 0
	for _, l := range r.MillLines() {
		if (l&own).Len() == 2 && l&other == 0 {
			n++
		}
	}
	return n
}

// piecesText writes "a white piece", "2 white pieces", as the board does.
func piecesText(n int, c mill.Color) string {
	if n == 1 {
		return "a " + c.String() + " piece"
	}
	return fmt.Sprintf("%d %s pieces", n, c)
}
