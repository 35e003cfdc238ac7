package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
)

// regionalPick chooses the next move of a game between two players for
// the regional browser tests, so that the game is short and passes where
// the rules act: while placing, white closes a mill when it can, else
// makes the most twos of its own, and black takes the first legal move;
// a removal takes the first piece it may; in the moving phase white takes
// a capture when it has one and otherwise leaves black the fewest moves,
// never going back to a position seen before, and black takes its first
// legal move that does not repeat one.
func regionalPick(p mill.Position, seen map[mill.Position]bool) mill.Move {
	ms := p.Moves(nil)
	us := p.SideToMove()
	best, pick := -1<<30, ms[0]
	for i, m := range ms {
		q := p.Play(m)
		score := -i // the first legal move, when nothing else counts
		switch {
		case m.Kind() == mill.RemoveMove || m.Kind() == mill.PassMove:
		case p.Placing() && us == mill.White:
			if m.Kind() == mill.PlaceMove && q.InMills(us).Has(m.To()) {
				score += 10000
			}
			for _, l := range q.Rules().MillLines() {
				if n := (l & q.Pieces(us)).Len(); n == 2 && l&(q.Pieces(us.Other())|q.Marked()) == 0 {
					score += 100
				}
			}
		case p.Placing():
		case us == mill.White:
			score += 1000*m.NumCaptures() - 10*q.NumMoves()
		}
		if o, _ := q.Status(); o == mill.Won(us) {
			score += 1 << 20
		}
		if seen[q] {
			score -= 1 << 18
		}
		if score > best {
			best, pick = score, m
		}
	}
	return pick
}

// markedPoints reads the points a page draws as marked pieces.
func (p *page) markedPoints() []string {
	p.b.t.Helper()
	return eval[[]string](p, `[...document.querySelectorAll('[data-testid="board"] [data-point]')].filter((g) => g.dataset.piece === 'marked' && g.classList.contains('marked')).map((g) => g.dataset.name)`)
}

// checkMarked checks that a page draws the pieces and the marked points of
// the position after moves, as the server has them.
func checkMarked(b *browser, p *page, s *site, start string, moves []string) {
	b.t.Helper()
	v := s.position(b.t, start, moves)
	bd := s.boards(b.t)[v.Board]
	names := func(list []int) []string {
		var out []string
		for _, pt := range list {
			out = append(out, bd.Points[pt].Name)
		}
		return out
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		w, bl := p.pieces()
		m := p.markedPoints()
		if slices.Equal(w, names(v.Pieces.White)) && slices.Equal(bl, names(v.Pieces.Black)) && slices.Equal(m, names(v.Marked)) {
			return
		}
		if time.Now().After(deadline) {
			b.fatalf("page %s after %d moves: the board has white %v, black %v, marked %v; want white %v, black %v, marked %v (%s)",
				p.name, len(moves), w, bl, m, names(v.Pieces.White), names(v.Pieces.Black), names(v.Marked), v.Position)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// statusJS is the text of the page's status line.
const statusJS = `document.querySelector('[data-testid="status"]').textContent`

// regionalGame starts a site with a game of variant between ann (white)
// and bob (black), each signed in on a page of one browser (given timeout
// to live) with the game open.
func regionalGame(t *testing.T, variant string, timeout time.Duration) (*site, *browser, int, map[mill.Color]*page) {
	t.Helper()
	s := startSite(t)
	ann, bob := s.account(t, "ann", "annpass1"), s.account(t, "bob", "bobpass1")
	id := s.gameBetween(t, ann, "bob", bob, map[string]any{"variant": variant})
	b := newBrowser(t, s, timeout)
	players := map[mill.Color]*page{mill.White: b.newPage("ann"), mill.Black: b.newPage("bob")}
	players[mill.White].signIn("ann", "annpass1")
	players[mill.Black].signIn("bob", "bobpass1")
	for _, p := range players {
		p.openGame(id)
	}
	return s, b, id, players
}

// TestBrowserElFilja: a game of el filja between two players by clicks,
// to its end. Placing fills the board (the mills take nothing); then white
// owes several removals and black some: the remover's page says how many
// and takes them by clicks on the pieces, one a move, its turn again after
// each; the other page waits and says for what; the cards show what each
// side owes. Then the moving phase to the end.
func TestBrowserElFilja(t *testing.T) {
	start := time.Now()
	s, b, id, players := regionalGame(t, "el-filja", 300*time.Second)
	for _, p := range players {
		p.waitJS("the variant shown", `document.querySelector('[data-testid="game-variant"]').dataset.variant === 'el-filja'`)
	}
	g := mill.NewGame(mill.MustRules("el-filja"))
	seen := map[mill.Position]bool{}
	var moves []string
	removals, twice := 0, 0
	for g.Outcome() == mill.NoOutcome {
		if len(moves) > 200 {
			b.fatalf("the game is not short: %v", moves)
		}
		pos := g.Position()
		seen[pos] = true
		us := pos.SideToMove()
		p, other := players[us], players[us.Other()]
		st := p.waitMyTurn()
		if st.Ply != len(moves) || st.ToMove != us.String() {
			b.fatalf("page %s: ply %d, %s to move; want ply %d, %s", p.name, st.Ply, st.ToMove, len(moves), us)
		}
		m := regionalPick(pos, seen)
		text := pos.MoveText(m)
		if !slices.Contains(st.Legal, text) {
			b.fatalf("page %s: %s is not among its legal moves %v", p.name, text, st.Legal)
		}
		if n := pos.Owed(us); n > 0 {
			// The removals: said on both pages, shown on the cards,
			// every piece that may go marked.
			want := "Your turn: choose a piece to remove"
			if n > 1 {
				want = fmt.Sprintf("Your turn: remove %d pieces, one a move", n)
			}
			if pos.RemovesOwn() {
				want = "Your turn: remove one of your own pieces"
			}
			p.waitJS("the status asks for the removals: "+want, fmt.Sprintf(`%s.includes(%q)`, statusJS, want))
			waiting := fmt.Sprintf("Waiting for %s to remove", p.name)
			other.waitJS("the other page waits for the removal", fmt.Sprintf(`%s.includes(%q)`, statusJS, waiting))
			for _, pg := range []*page{p, other} {
				pg.waitJS(fmt.Sprintf("the card: %s owes %d", us, n), fmt.Sprintf(`(() => { const e = document.querySelector('[data-testid="owes-%s"]'); return !!e && e.dataset.count === '%d'; })()`, us, n))
			}
			if c := eval[int](p, `document.querySelectorAll('[data-testid="board-svg"] .capturable').length`); c != len(st.Legal) {
				b.fatalf("page %s: %d pieces marked to remove, %d removals legal", p.name, c, len(st.Legal))
			}
			removals++
		}
		p.playMove(text)
		if err := g.Play(m); err != nil {
			b.fatalf("%s: %v", text, err)
		}
		moves = append(moves, text)
		if g.Outcome() == mill.NoOutcome && g.Position().SideToMove() == us {
			twice++
			// The same side again: its page offers the next move.
			p.waitState("the same side's turn again", func(s debugState) bool {
				return s.Ply == len(moves) && s.ToMove == us.String() && len(s.Legal) > 0
			})
		}
	}
	for _, p := range players {
		p.waitState("the end", func(s debugState) bool { return s.Status == "finished" })
		p.checkResultShown(g.Outcome().String())
	}
	sg := s.game(t, id)
	if !slices.Equal(sg.State.Moves, moves) || sg.State.Result != g.Outcome().String() {
		b.fatalf("the server has %v %s; the pages played %v, %s", sg.State.Moves, sg.State.Result, moves, g.Outcome())
	}
	if removals < 3 || twice == 0 {
		b.fatalf("%d removals, %d moves twice running: the count did not act", removals, twice)
	}
	t.Logf("game %d: %d plies of el filja by clicks (%d removals, %d times the same side again), %s by %s, in %v",
		id, len(moves), removals, twice, g.Outcome(), g.Method(), time.Since(start).Round(time.Millisecond))
}

// TestBrowserDaSanQi: da san qi by clicks between two players: white's
// mills while placing mark black pieces (a click on the new point, then
// on the piece to mark); both pages draw a marked piece, grey with a
// cross, of neither side, live and when the move list steps back to it;
// nobody may place there. When placing ends the marks leave, and black,
// who placed last, moves first: twice running. Then on to the end.
func TestBrowserDaSanQi(t *testing.T) {
	s, b, id, players := regionalGame(t, "da-san-qi", 240*time.Second)
	bob := players[mill.Black]
	start := s.game(t, id).Start
	g := mill.NewGame(mill.MustRules("da-san-qi"))
	seen := map[mill.Position]bool{}
	var moves []string
	marks, checkedReplay := 0, false
	for g.Outcome() == mill.NoOutcome {
		if len(moves) > 200 {
			b.fatalf("the game is not short: %v", moves)
		}
		pos := g.Position()
		seen[pos] = true
		us := pos.SideToMove()
		p := players[us]
		st := p.waitMyTurn()
		if st.Status != "active" {
			b.fatalf("the game ended at ply %d: %s by %s", len(moves), st.Result, st.Method)
		}
		m := regionalPick(pos, seen)
		text := pos.MoveText(m)
		if !slices.Contains(st.Legal, text) {
			b.fatalf("page %s: %s is not among its legal moves %v", p.name, text, st.Legal)
		}
		if len(moves) == 24 && us != mill.Black {
			b.fatalf("after placing %s is to move, want black (who placed last)", us)
		}
		p.playMove(text)
		if err := g.Play(m); err != nil {
			b.fatalf("%s: %v", text, err)
		}
		moves = append(moves, text)
		if pos.Placing() && m.NumCaptures() > 0 {
			marks++
			for _, pg := range players {
				pg.waitMoves(moves)
				checkMarked(b, pg, s, start, moves)
				marked := pg.markedPoints()
				if len(marked) != g.Position().Marked().Len() {
					b.fatalf("page %s: marked %v after %s", pg.name, marked, text)
				}
				label := eval[string](pg, fmt.Sprintf(`document.querySelector('[data-testid="point-%s"]').getAttribute('aria-label')`, marked[0]))
				if !strings.Contains(label, "marked piece") {
					b.fatalf("page %s: %s is labelled %q", pg.name, marked[0], label)
				}
				pg.waitJS("the status counts the marks", fmt.Sprintf(`%s.includes('%d marked')`, statusJS, len(marked)))
			}
		}
		if marks > 0 && !checkedReplay && len(moves) >= 12 && g.Position().Marked() != 0 {
			// Back one move on the move list: the board drawn from the
			// position text alone (X in its board field).
			checkedReplay = true
			bob.waitMoves(moves)
			bob.click("replay-prev")
			bob.waitState("one move back", func(s debugState) bool { return s.Cursor == len(moves)-1 })
			checkMarked(b, bob, s, start, moves[:len(moves)-1])
			bob.click("replay-last")
			bob.waitState("back to the game", func(s debugState) bool { return s.Cursor == len(moves) })
		}
		if len(moves) == 24 {
			// Placing is over: the marks are gone, and black moves again.
			for _, pg := range players {
				pg.waitMoves(moves)
				checkMarked(b, pg, s, start, moves)
			}
			if got := bob.markedPoints(); len(got) != 0 {
				b.fatalf("marked pieces after placing: %v", got)
			}
			bob.waitState("black's turn again after its last placement", func(s debugState) bool {
				return s.ToMove == "black" && s.Ply == 24 && len(s.Legal) > 0
			})
		}
	}
	if marks == 0 || !checkedReplay {
		b.fatalf("%d marks, replay checked %v: %v", marks, checkedReplay, moves)
	}
	for _, p := range players {
		p.waitState("the end", func(s debugState) bool { return s.Status == "finished" })
		p.checkResultShown(g.Outcome().String())
	}
	if sg := s.game(t, id); !slices.Equal(sg.State.Moves, moves) || sg.State.Result != g.Outcome().String() {
		b.fatalf("the server has %v %s; the pages played %v, %s", sg.State.Moves, sg.State.Result, moves, g.Outcome())
	}
	t.Logf("game %d: %d plies of da san qi by clicks, %d marks, %s by %s", id, len(moves), marks, g.Outcome(), g.Method())
}

// TestBrowserShah: Shah by clicks between two players: the 24 placements
// (no mills: each side takes the first legal point, corners and
// midpoints alternate), the removal at the end of placing by a click on
// the piece, and the pass of the side whose pieces all stand away from
// the one empty point, by the pass button; then the remover's slide into
// the hole.
func TestBrowserShah(t *testing.T) {
	start := time.Now()
	s := startSite(t)
	tok := map[string]string{"white": s.account(t, "ann", "annpass1"), "black": s.account(t, "bob", "bobpass1")}
	id := s.gameBetween(t, tok["white"], "bob", tok["black"], map[string]any{"variant": "shah"})
	b := newBrowser(t, s, 60*time.Second)
	ann := b.newPage("ann")
	bob := b.newPage("bob")
	ann.signIn("ann", "annpass1")
	bob.signIn("bob", "bobpass1")
	players := map[string]*page{"white": ann, "black": bob}
	for _, p := range players {
		p.openGame(id)
		p.waitJS("the variant shown", `document.querySelector('[data-testid="game-variant"]').dataset.variant === 'shah'`)
	}

	var moves []string
	turn := func() (*page, debugState) {
		t.Helper()
		g := s.game(t, id)
		p := players[g.State.ToMove]
		return p, p.waitMyTurn()
	}
	// Placing.
	for {
		p, st := turn()
		if st.Status != "active" {
			b.fatalf("the game ended while placing: %s by %s", st.Result, st.Method)
		}
		if strings.HasPrefix(st.Legal[0], "x") {
			break
		}
		m := st.Legal[0]
		p.playMove(m)
		moves = append(moves, m)
		if len(moves) > 24 {
			b.fatalf("still placing after 24 moves: %v", moves)
		}
	}
	if len(moves) != 24 {
		b.fatalf("the removal came after %d placements, want 24", len(moves))
	}

	// The removal: every legal move takes a piece; the page says so and
	// marks the pieces that may go.
	remover, st := turn()
	remover.waitJS("the status asks for a removal", `document.querySelector('[data-testid="status"]').textContent.includes('choose a piece to remove')`)
	for _, m := range st.Legal {
		if !strings.HasPrefix(m, "x") {
			b.fatalf("a move that is not a removal at the removal turn: %v", st.Legal)
		}
	}
	if n := eval[int](remover, `document.querySelectorAll('[data-testid="board-svg"] .capturable').length`); n != len(st.Legal) {
		b.fatalf("%d pieces marked capturable, %d removals legal", n, len(st.Legal))
	}
	g := s.game(t, id)
	v := s.position(t, g.State.Position, nil)
	var removal string
	for _, m := range v.Legal {
		if m.Kind != "remove" {
			b.fatalf("the server's legal moves at the removal: %+v", v.Legal)
		}
		if after := s.position(t, g.State.Position, []string{m.Text}); len(after.Legal) == 1 && after.Legal[0].Kind == "pass" {
			removal = m.Text
			break
		}
	}
	if removal == "" {
		// Every removal leaves the other side a slide: no pass to test.
		b.fatalf("no removal after these placements leaves a pass: %v", v.Legal)
	}
	remover.playMove(removal)
	moves = append(moves, removal)

	// The other side can only pass: the pass button.
	passer, st := turn()
	if passer == remover || !slices.Equal(st.Legal, []string{"pass"}) {
		b.fatalf("after the removal: page %s with legal %v; want the other player with [pass]", passer.name, st.Legal)
	}
	passer.waitVisible("pass")
	passer.waitJS("the status says to pass", `document.querySelector('[data-testid="status"]').textContent.includes('You cannot move: pass')`)
	if n := eval[int](passer, `document.querySelectorAll('[data-testid="board-svg"] .is-target, [data-testid="board-svg"] .movable').length`); n != 0 {
		b.fatalf("the board offers %d points to a side that must pass", n)
	}
	if eval[bool](remover, existsJS("pass")) {
		b.fatalf("the side not to move has a pass button")
	}
	passer.playMove("pass")
	moves = append(moves, "pass")

	// The remover slides into the hole by clicks.
	remover2, st := turn()
	if remover2 != remover {
		b.fatalf("after the pass %s is to move, want %s", remover2.name, remover.name)
	}
	if remover.waitVisible("status"); eval[bool](remover, existsJS("pass")) {
		b.fatalf("a pass button when a slide is legal")
	}
	m := chooseMove(st.Legal)
	remover.playMove(m)
	moves = append(moves, m)

	g = s.game(t, id)
	if !slices.Equal(g.State.Moves, moves) {
		b.fatalf("the server has %v, the pages played %v", g.State.Moves, moves)
	}
	for _, p := range players {
		p.waitMoves(moves)
		checkBoard(b, p, s, g.Start, moves)
	}
	t.Logf("game %d: %d Shah plies by clicks (removal %s, a pass) in %v", id, len(moves), removal, time.Since(start).Round(time.Millisecond))
}
