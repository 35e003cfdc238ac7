package main

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
	"github.com/morrisgame/morris/search"
)

// playScript runs morris play in line mode with the given input and returns
// its output and the saved record.
func playScript(t *testing.T, input string, args ...string) (string, *record.Record) {
	t.Helper()
	save := filepath.Join(t.TempDir(), "game.pgn")
	var out, errb bytes.Buffer
	args = append([]string{"-save", save, "-seed", "1"}, args...)
	if err := cmdPlay(context.Background(), args, strings.NewReader(input), &out, &errb); err != nil {
		t.Fatalf("morris play %v: %v\nstderr: %s\nstdout: %s", args, err, errb.String(), out.String())
	}
	f, err := os.Open(save)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := record.NewScanner(f)
	if !sc.Scan() {
		t.Fatalf("no record saved: %v", sc.Err())
	}
	rec := sc.Record()
	if sc.Scan() {
		t.Errorf("more than one record saved")
	}
	return out.String(), rec
}

func TestPlayLines(t *testing.T) {
	input := strings.Join([]string{
		"d6",     // a move: the engine answers
		"hint",   // the engine's suggestion
		"undo",   // takes back d6 and the answer
		"D6",     // pbmserv notation
		"d6",     // now occupied
		"q9",     // not a point
		"99",     // not a move number
		"1",      // the first legal move
		"undo",   // takes back the move and its answer
		"1",      // again
		"help",   // the commands
		"quit",   // leaves: the game is saved unfinished
		"a1 a1 ", // never read
	}, "\n")
	out, rec := playScript(t, input, "-level", "3", "-movetime", "100")
	for _, want := range []string{
		"you play white against morris level 3",
		"> d6\nmorris plays ",
		"> hint\nhint: ",
		"> undo\ntook back d6 ",
		"> d6\nillegal move d6: d6 is occupied",
		`"q9" is not a move`,
		"no move number 99: the legal moves are numbered 1 to 22",
		"white (human): 2 on the board, 7 in hand",
		"moves: 1 ",
		"undo, hint, resign or quit",
		"game left unfinished",
		"saved to ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "took back"); n != 2 {
		t.Errorf("got %d take-backs, want 2", n)
	}
	if rec.Result != mill.NoOutcome || rec.Tag("White") != "human" || rec.Tag("Black") != "morris level 3" {
		t.Errorf("got result %s, White %q, Black %q; want *, human, morris level 3", rec.Result, rec.Tag("White"), rec.Tag("Black"))
	}
	if len(rec.Moves) != 4 || rec.Moves[0].Text != "d6" {
		t.Errorf("got moves %v, want d6, the answer, the first legal move, the answer", rec.Moves)
	}
	if _, err := rec.Game(); err != nil {
		t.Errorf("the saved record does not replay: %v", err)
	}
}

func TestPlayWin(t *testing.T) {
	// White closes a1-d1-g1 and takes a black piece: black is left with two.
	out, rec := playScript(t, "d2-d1xa4\nhint\nundo\nd2-d1xa4\n",
		"-position", "nine-mens-morris W1W4B/1W3B1B/8 w 0,0 - 0 40", "-level", "1")
	for _, want := range []string{"game over: 1-0 by material, you win", "the game is over (1-0 by material): undo or quit", "took back d2-d1xa4"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "game left unfinished") {
		t.Errorf("a finished game is called unfinished:\n%s", out)
	}
	g, err := rec.Game()
	if err != nil || rec.Result != mill.WhiteWon || rec.Tag("Termination") != "material" || rec.Tag("Position") == "" {
		t.Errorf("got %s by %s (%v), Position %q; want 1-0 by material from the position", rec.Result, rec.Tag("Termination"), err, rec.Tag("Position"))
	}
	if g != nil && len(g.Moves()) != 1 {
		t.Errorf("got %d moves, want 1", len(g.Moves()))
	}
}

func TestPlayBlackAndResign(t *testing.T) {
	out, rec := playScript(t, "undo\nresign\n", "-color", "black", "-level", "2", "-variant", "lasker")
	if !strings.HasPrefix(strings.SplitN(out, "\n", 3)[1], "morris plays ") {
		t.Errorf("the engine should move first:\n%s", out)
	}
	for _, want := range []string{"> undo\nnothing to take back", "you resign", "game over: 1-0 by resignation, the engine wins"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if rec.Result != mill.WhiteWon || rec.Tag("Termination") != "resignation" || rec.Tag("Variant") != "lasker" || rec.Tag("Black") != "human" {
		t.Errorf("got %s by %s, variant %s, Black %q", rec.Result, rec.Tag("Termination"), rec.Tag("Variant"), rec.Tag("Black"))
	}
	if _, err := rec.Game(); err != nil {
		t.Errorf("the saved record does not replay: %v", err)
	}
}

func TestPlayBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-level", "0"}, {"-level", "11"}, {"-color", "green"}, {"-variant", "chess"}, {"-movetime", "-5"}, {"extra"},
	} {
		var out, errb bytes.Buffer
		err := cmdPlay(context.Background(), args, strings.NewReader(""), &out, &errb)
		var ue usageError
		if err == nil || !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
}

// TestPlayTerminalModel drives the terminal UI's model with key presses,
// without a terminal: pick a move with the arrows, type one, undo.
func TestPlayTerminalModel(t *testing.T) {
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	s := newPlaySession(g, mill.White, 2, 0, rand.New(rand.NewPCG(1, 1)))
	m := &playModel{ctx: context.Background(), s: s}
	run := func(cmd tea.Cmd) {
		for cmd != nil {
			msg := cmd()
			if msg == nil {
				return
			}
			_, cmd = m.Update(msg)
		}
	}
	press := func(keys ...tea.KeyPressMsg) {
		for _, k := range keys {
			_, cmd := m.Update(k)
			run(cmd)
		}
	}
	run(m.Init())
	right := tea.KeyPressMsg{Code: tea.KeyRight}
	enter := tea.KeyPressMsg{Code: tea.KeyEnter}
	press(right, right, enter) // the third legal move: g1
	if moves := g.Moves(); len(moves) != 2 || g.Positions()[0].MoveText(moves[0]) != "g1" {
		t.Fatalf("got moves %v, want g1 and the engine's answer", moves)
	}
	if !strings.Contains(m.msg, "morris plays ") {
		t.Errorf("got message %q, want the engine's move", m.msg)
	}
	typed := func(s string) {
		for _, r := range s {
			press(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		press(enter)
	}
	typed("zz")
	if !strings.Contains(m.msg, "not a move") {
		t.Errorf("got message %q, want a bad move", m.msg)
	}
	typed("undo")
	if len(g.Moves()) != 0 || !strings.Contains(m.msg, "took back g1") {
		t.Errorf("got %d moves, message %q, want none and the take-back", len(g.Moves()), m.msg)
	}
	press(right, right, enter) // g1 again: the engine's answer is marked and listed
	view := m.View()
	answer := g.Positions()[1].MoveText(g.Moves()[1])
	for _, want := range []string{"last move: black " + answer + " (morris), in brackets on the board", "[B]", "  1. g1           " + answer} {
		if !strings.Contains(view.Content, want) {
			t.Errorf("the view lacks %q:\n%s", want, view.Content)
		}
	}
	typed("undo")
	view = m.View()
	if !strings.Contains(view.Content, "[1 a1]") || !strings.Contains(view.Content, "white to move (your move)") {
		t.Errorf("got the view\n%s", view.Content)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if cmd == nil || !s.quit {
		t.Errorf("ctrl+c should quit")
	}
}

// TestPlayBoard: the board marks the last move (brackets round where its
// piece went, x where it took one) and has the moves beside it, numbered
// as records number them under a head naming the columns' colours.
func TestPlayBoard(t *testing.T) {
	for _, c := range []struct {
		name, position string
		moves          []string
		want, not      []string
	}{
		{"the start", "", nil, nil, []string{"[", "last move", "1."}},
		{"three moves", "", []string{"d6", "f4", "a1"}, []string{
			"[W]---", // a1, the last move, bracketed at the left edge
			"     white        black",
			"  1. d6           f4",
			"  2. a1",
			"last move: white a1 (you), in brackets on the board",
		}, []string{"[B]", "]B"}},
		{"a capture", "nine-mens-morris W1W4B/1W3B1B/8 w 0,0 - 0 40", []string{"d2-d1xa4"}, []string{
			"-[W]-", "x", " 21. d2-d1xa4", "last move: white d2-d1xa4 (you)",
		}, nil},
		{"black first", "nine-mens-morris 8/8/8 b 9,9 - 0 0", []string{"d6", "f4"}, []string{
			"     black        white", "  1. d6           f4", "last move: white f4 (you)",
		}, nil},
		{"black first after a ply", "nine-mens-morris 8/8/8 b 9,9 - 0 1", []string{"d6", "f4"}, []string{
			"     white        black", "  1. ...          d6", "  2. f4",
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := mill.NewGame(mill.MustRules("nine-mens-morris"))
			if c.position != "" {
				p, err := mill.ParsePosition(c.position)
				if err != nil {
					t.Fatal(err)
				}
				g = mill.NewGame(p.Rules(), mill.FromPosition(p))
			}
			for _, m := range c.moves {
				if err := g.PlayText(m); err != nil {
					t.Fatalf("%s: %v", m, err)
				}
			}
			s := newPlaySession(g, mill.White, 1, 0, rand.New(rand.NewPCG(1, 1)))
			s.fixed = 0
			got := s.board()
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("the board lacks %q:\n%s", w, got)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("the board has %q:\n%s", w, got)
				}
			}
		})
	}
	// A long game keeps its last moves beside the board, under the head.
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	rng := rand.New(rand.NewPCG(5, 6))
	for range 60 {
		ms := g.LegalMoves()
		if len(ms) == 0 || g.Outcome() != mill.NoOutcome {
			break
		}
		if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	s := newPlaySession(g, mill.White, 1, 0, rand.New(rand.NewPCG(1, 1)))
	lines := strings.Split(s.diagram(), "\n")
	h := s.history(len(lines) - 1)
	if len(h) != len(lines)-1 || h[1] != "     ..." {
		t.Errorf("the history of %d plies in %d rows:\n%s", len(g.Moves()), len(lines)-1, strings.Join(h, "\n"))
	}
	if last := h[len(h)-1]; !strings.Contains(last, g.Positions()[len(g.Moves())-1].MoveText(g.Moves()[len(g.Moves())-1])) {
		t.Errorf("the history's last row %q lacks the last move", last)
	}
}

// TestScoreWords: scores in pieces for the side named, as the web client
// words them.
func TestScoreWords(t *testing.T) {
	for _, c := range []struct {
		score int
		side  mill.Color
		want  string
	}{
		{795, mill.White, "+7.95 pieces for white"},
		{-53, mill.Black, "-0.53 pieces for black"},
		{0, mill.White, "+0.00 pieces for white"},
		{search.Mate - 5, mill.White, "white wins in 5 plies"},
		{search.TBProgress + 43, mill.White, "white wins (the databases)"},
		{-(search.TBWin - 30), mill.Black, "black loses (the databases)"},
		{search.TBProgress - 900, mill.White, "white wins (the databases)"},
		{2999, mill.White, "+29.99 pieces for white"},
	} {
		if got := scoreWords(c.score, c.side); got != c.want {
			t.Errorf("scoreWords(%d, %s): got %q, want %q", c.score, c.side, got, c.want)
		}
	}
}
