package pbm

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/golden"
	"github.com/morrisgame/morris/mill"
)

// boardInput reads a testdata/*.input: lines "key: value" with the keys
//
//	rules     the rules text (or position: a position text to start from)
//	seed      the seed of the lot for the first player
//	board     the board number
//	white, black   the players
//	moves     the moves played, in either notation
//	result    a result decided outside the position: "0-1 resignation"
func boardInput(t *testing.T, text string) (mill.Position, Header) {
	t.Helper()
	kv := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("input line %q: want key: value", line)
		}
		kv[k] = strings.TrimSpace(v)
	}
	var opts []mill.GameOption
	var r *mill.Rules
	var err error
	if pos, ok := kv["position"]; ok {
		p, err := mill.ParsePosition(pos)
		if err != nil {
			t.Fatal(err)
		}
		r = p.Rules()
		opts = append(opts, mill.FromPosition(p))
	} else if r, err = mill.ParseRules(kv["rules"]); err != nil {
		t.Fatal(err)
	}
	if s, ok := kv["seed"]; ok {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, mill.WithSeed(seed))
	}
	g := mill.NewGame(r, opts...)
	for _, m := range strings.Fields(kv["moves"]) {
		if err := g.PlayText(m); err != nil {
			t.Fatalf("move %s: %v\n%s", m, err, g.Position().Diagram(mill.RankOneBottom))
		}
	}
	h := Header{White: kv["white"], Black: kv["black"]}
	if b, ok := kv["board"]; ok {
		if h.Board, err = strconv.Atoi(b); err != nil {
			t.Fatal(err)
		}
	}
	if moves := g.Moves(); len(moves) > 0 {
		h.LastMove = moves[len(moves)-1]
	}
	if res, ok := kv["result"]; ok {
		o, m, _ := strings.Cut(res, " ")
		var ok1, ok2 bool
		h.Outcome, ok1 = mill.ParseOutcome(o)
		h.Method, ok2 = mill.ParseMethod(m)
		if !ok1 || !ok2 {
			t.Fatalf("result %q: want an outcome and a method", res)
		}
	}
	return g.Position(), h
}

// TestBoardGolden prints each testdata/*.input with Board and compares the
// text with the .golden file (go test -update rewrites them).
func TestBoardGolden(t *testing.T) {
	golden.Files(t, "testdata", func(t *testing.T, text []byte) []byte {
		p, h := boardInput(t, string(text))
		got := Board(p, h)
		if again := Board(p, h); again != got {
			t.Errorf("a second print differs:\n%s", again)
		}
		return []byte(got)
	})
}

// TestBoardMoves checks that the last move printed is in pbmserv's dialect
// and parses back to the move, on every board.
func TestBoardMoves(t *testing.T) {
	for _, v := range mill.Variants() {
		r := mill.MustRules(v.ID)
		g := mill.NewGame(r, mill.WithSeed(1))
		for i := 0; i < 40 && g.Outcome() == mill.NoOutcome; i++ {
			moves := g.LegalMoves()
			if len(moves) == 0 {
				break
			}
			m := moves[(i*7)%len(moves)]
			if err := g.Play(m); err != nil {
				t.Fatalf("%s: %v", v.ID, err)
			}
			out := Board(g.Position(), Header{Board: 101, LastMove: m})
			want := fmt.Sprintf("Last move (#%d): %s\n", i+1, r.Board().MoveText(m, mill.Pbm))
			if !strings.Contains(out, want) {
				t.Fatalf("%s: got\n%s\nwant a line %q", v.ID, out, want)
			}
			if text := r.Board().MoveText(m, mill.Pbm); strings.ToUpper(text) != text {
				t.Fatalf("%s: %q is not upper case", v.ID, text)
			}
		}
	}
	if got := Board(mill.Position{}, Header{}); got != "(no position)\n" {
		t.Errorf("the zero Position: got %q", got)
	}
}

// TestBoardLastMoveInTurn: with the position before it, a last move that
// took several pieces names them in an order legal in turn (f6, the one
// black piece outside a mill, before a7); without it, in board order.
func TestBoardLastMoveInTurn(t *testing.T) {
	before, err := mill.ParsePosition("morabaraba W1W1BBB1/1W2B3/1W5W w 1,3 - 0 30")
	if err != nil {
		t.Fatal(err)
	}
	m, err := before.ParseMove("d1xa7xf6")
	if err != nil {
		t.Fatal(err)
	}
	after := before.Play(m)
	for _, c := range []struct {
		h    Header
		want string
	}{
		{Header{LastMove: m, Before: &before}, "Last move (#31): D1,F6,A7\n"},
		{Header{LastMove: m}, "Last move (#31): D1,A7,F6\n"},
	} {
		if out := Board(after, c.h); !strings.Contains(out, c.want) {
			t.Errorf("got\n%s\nwant a line %q", out, c.want)
		}
	}
}
