package match

import (
	"context"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// sanmillCaptures is Sanmill's one-time mill rule as its documentation
// and code describe it, written here step by step to check the Disputer
// against: each side keeps the points of its mills that captured; a move
// captures when a line it closes has a point outside them, and every line
// that does adds its points, one line after the other.
type sanmillCaptures struct {
	lines  []mill.Points
	points [2]mill.Points
}

func (s *sanmillCaptures) play(p mill.Position, m mill.Move) bool {
	if m.Kind() != mill.PlaceMove && m.Kind() != mill.SlideMove {
		return false
	}
	c := p.SideToMove()
	own := p.Play(m).Pieces(c)
	n := 0
	for _, l := range s.lines {
		if l.Has(m.To()) && own&l == l && s.points[c]&l != l {
			s.points[c] |= l
			n++
		}
	}
	return n > 0
}

// TestSanmillOneTimeMills plays random games of Russian mill and, at every
// move, compares our capture with Sanmill's reading: the Disputer must name
// exactly the first move where they part, and no move before it.
func TestSanmillOneTimeMills(t *testing.T) {
	r := mill.MustRules("russian-mill")
	rng := newRand(45)
	const games = 300
	parted := 0
	for n := range games {
		g := mill.NewGame(r)
		s := sanmillCaptures{lines: r.MillLines()}
		for g.Outcome() == mill.NoOutcome && len(g.Moves()) < 400 {
			moves := g.LegalMoves()
			m := moves[rng.IntN(len(moves))]
			p := g.Position()
			ours := m.NumCaptures() > 0
			theirs := s.play(p, m)
			if !ours && theirs && p.OnBoard(p.SideToMove().Other()) == 0 {
				break // nothing to take: the readings cannot be told apart here
			}
			why := sanmillDiffers(g, m)
			if ours != theirs {
				if !ours {
					t.Fatalf("game %d, ply %d: %s captures by Sanmill's reading and not by ours, which cannot happen", n, p.Ply()+1, p.MoveText(m))
				}
				if !strings.Contains(why, "never a mill but whose points all stood in earlier mills") {
					t.Fatalf("game %d, ply %d: the readings part at %s, the Disputer says %q", n, p.Ply()+1, p.MoveText(m), why)
				}
				parted++
				break
			}
			if why != "" {
				t.Fatalf("game %d, ply %d: the readings agree on %s, the Disputer says %q", n, p.Ply()+1, p.MoveText(m), why)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Random play forms and breaks many mills: the case comes up in about
	// one game in twenty.
	if parted < 5 {
		t.Errorf("the readings parted in %d of %d games: too few to have tested the Disputer", parted, games)
	}
	t.Logf("the readings parted in %d of %d random games", parted, games)
}

// TestSanmillFullBoard fills Morabaraba's board by placing without a mill
// (a search for such an order): only the last placement is disputed.
func TestSanmillFullBoard(t *testing.T) {
	r := mill.MustRules("morabaraba")
	rng := newRand(7)
	var fill func(g *mill.Game) bool
	fill = func(g *mill.Game) bool {
		if g.Outcome() != mill.NoOutcome {
			return g.Method() == mill.FullBoard
		}
		moves := g.LegalMoves()
		rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		tries := 0
		for _, m := range moves {
			if m.NumCaptures() > 0 || tries == 3 {
				continue
			}
			tries++
			if why := sanmillDiffers(g, m); why != "" && len(g.Moves()) < 23 {
				t.Fatalf("ply %d: %s disputed: %s", len(g.Moves())+1, g.Position().MoveText(m), why)
			}
			h := mill.NewGame(r)
			for _, mv := range g.Moves() {
				_ = h.Play(mv)
			}
			if len(g.Moves()) == 23 {
				why := sanmillDiffers(g, m)
				if !strings.Contains(why, "fills the board") {
					t.Fatalf("the placement that fills the board: the Disputer says %q", why)
				}
			}
			if err := h.Play(m); err != nil {
				t.Fatal(err)
			}
			if fill(h) {
				return true
			}
		}
		return false
	}
	if !fill(mill.NewGame(r)) {
		t.Fatal("found no way to fill the board without a mill")
	}
	// Nine men's morris has no full-board rule of its own to dispute.
	if d := sanmillDiffers(mill.NewGame(mill.MustRules("nine-mens-morris")), mill.Place(0)); d != "" {
		t.Errorf("nine men's morris, the first placement: %q", d)
	}
}

func TestDifferencesUnknown(t *testing.T) {
	if _, err := Differences("malom"); err == nil || !strings.Contains(err.Error(), "sanmill") {
		t.Errorf("got %v, want an error naming the programs known", err)
	}
	if _, err := ParseSpec("level:3,differences=sanmill", Limits{}); err == nil {
		t.Error("level:3,differences=sanmill: want an error (it is for external engines)")
	}
	if _, err := ParseSpec("cmd,differences=malom:./x", Limits{}); err == nil {
		t.Error("cmd,differences=malom: want an error")
	}
}

// TestDisputedGames: a game ends as a disputed draw at the first move the
// Disputer names, whether a player plays that move or answers an illegal
// one where it could; the tally counts it apart, the record says so and
// Resume reads it back.
func TestDisputedGames(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	const event = "test"
	// The fake engine answers an illegal move from its third "go" on (it
	// counts them over the match): at ply 5 in the first game, as white,
	// where every move is disputed, and at ply 2 in the second, as black,
	// where none is.
	a := fakeSpec(t, "illegal", ",movetime=20")
	a.Disputes = fromPly5
	cfg := Config{Rules: r, A: a, B: mustSpec(t, "random"), Openings: RandomOpenings(r, 1, 0, newRand(3)), Pairs: 1}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Tally{Draws: 1, Losses: 1, Disputed: 1, Faults: [2]int{1, 0}}); res.Tally != want {
		t.Errorf("got %+v, want %+v", res.Tally, want)
	}
	if got := res.Tally.String(); !strings.HasPrefix(got, "+0 =1 -1 (disputed 1), score 25.0%") {
		t.Errorf("got the line %q", got)
	}
	g := res.Games[0]
	if want := "at ply 5, with white (fake-illegal) to move: answered a1, illegal here, where the rules part (a test's dispute)"; g.Dispute != want || g.Fault != "" {
		t.Errorf("game 1: got dispute %q, fault %q; want the dispute %q", g.Dispute, g.Fault, want)
	}
	if g.Game.Outcome() != mill.Draw || g.Game.Method() != mill.Agreement || len(g.Game.Moves()) != 4 {
		t.Errorf("game 1: got %s by %s after %d plies, want a draw by agreement after 4", g.Game.Outcome(), g.Game.Method(), len(g.Game.Moves()))
	}
	if g := res.Games[1]; g.Dispute != "" || !strings.Contains(g.Fault, "played an illegal move at ply 2") {
		t.Errorf("game 2: got dispute %q, fault %q; want the illegal move's loss", g.Dispute, g.Fault)
	}
	// A legal move disputed: the random player's, at the 5th ply.
	a = mustSpec(t, "greedy")
	a.Disputes = fromPly5
	legal := Config{Rules: r, A: a, B: mustSpec(t, "random"), Openings: RandomOpenings(r, 1, 0, newRand(3)), Pairs: 1}
	lres, err := Run(context.Background(), legal)
	if err != nil {
		t.Fatal(err)
	}
	for i, who := range []string{"greedy", "random"} {
		want := "at ply 5, with white (" + who + ") to move: a test's dispute"
		if g := lres.Games[i]; g.Dispute != want || len(g.Game.Moves()) != 4 {
			t.Errorf("legal moves, game %d: got %q after %d plies, want %q after 4", i+1, g.Dispute, len(g.Game.Moves()), want)
		}
	}
	text := recordsText(t, event, res.Games)
	if got := strings.Count(string(text), "disputed: at ply 5"); got != 1 {
		t.Errorf("got \"disputed: at ply 5\" %d times in the records, want once:\n%s", got, text)
	}
	played, err := Resume(cfg, event, readRecords(t, text))
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range played {
		if g.Dispute != res.Games[i].Dispute {
			t.Errorf("resumed game %d: got %q, want %q", i, g.Dispute, res.Games[i].Dispute)
		}
	}
	cfg.Played = played
	again, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if again.Tally != res.Tally {
		t.Errorf("resumed: got %+v, want %+v", again.Tally, res.Tally)
	}
}

// fromPly5 is a Disputer that disputes every move from the 5th ply on.
func fromPly5(g *mill.Game, m mill.Move) string {
	if g.Position().Ply() >= 4 {
		return "a test's dispute"
	}
	return ""
}

// TestFirstDispute: the first move a Disputer names, by its ply from 1,
// counted from the start of a game set up at a later ply too; none in a
// game too short for it.
func TestFirstDispute(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	g := mill.NewGame(r)
	for _, m := range []string{"a1", "d1", "g1", "a4", "b2", "d2"} {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	if ply, why := FirstDispute(fromPly5, g); ply != 5 || why != "a test's dispute" {
		t.Errorf("got ply %d, %q; want 5 and the dispute", ply, why)
	}
	short := mill.NewGame(r)
	_ = short.PlayText("a1")
	if ply, why := FirstDispute(fromPly5, short); ply != 0 || why != "" {
		t.Errorf("one ply: got %d, %q; want none", ply, why)
	}
	// From a position of ply 4: its moves are plies 5 and 6.
	later := mill.NewGame(r, mill.FromPosition(g.Positions()[4]))
	_ = later.PlayText("b2")
	if ply, _ := FirstDispute(fromPly5, later); ply != 5 {
		t.Errorf("from ply 4: got ply %d, want 5", ply)
	}
}
