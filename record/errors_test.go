package record

import (
	"errors"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestSyntaxErrors reads bad records: each must fail with exactly the error
// given, which names the line and column, and wraps mill.ErrSyntax.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, in, err string
	}{
		{"unterminated tag value", "[Event \"Club\n\n1. d6 *\n",
			`line 1, column 13: unterminated value of tag Event: want " before the end of the line`},
		{"unterminated tag pair", "[Event \"Club\"\n[Site \"x\"]\n\n*\n",
			`line 1, column 14: unterminated tag pair [Event: want ] after the value`},
		{"tag at the end of the input", "[Event \"Club",
			`line 1, column 13: unterminated value of tag Event: want " before the end of the line`},
		{"tag without a value", "[Event]\n*\n",
			`line 1, column 7: want " to start the value of tag Event`},
		{"tag without a name", "[ \"Club\"]\n*\n",
			`line 1, column 3: want a tag name (a letter, then letters, digits or _) after [`},
		{"bad escape", `[Event "a\b"]` + "\n*\n",
			`line 1, column 10: unknown escape in the value of tag Event: want \" or \\`},
		{"tag twice", "[Event \"a\"]\n[Event \"b\"]\n*\n",
			`line 2, column 1: tag Event given twice`},
		{"bad Result tag", "[Result \"2-0\"]\n*\n",
			`line 1, column 1: tag Result "2-0": want 1-0, 0-1, 1/2-1/2 or *`},
		{"result and Result tag differ", "[Result \"1-0\"]\n\n1. d6 d5 0-1\n",
			`line 3, column 10: the result 0-1 differs from the Result tag "1-0"`},
		{"garbage token", "[Event \"x\"]\n\n1. d6 @@ d5 *\n",
			`line 3, column 7: "@@" is not a move, a move number or a result`},
		{"annotation", "1. d6! d5 *\n",
			`line 1, column 4: "d6!" is not a move, a move number or a result`},
		{"garbage after a number", "1.d6 d5 2.# *\n",
			`line 1, column 11: "#" is not a move, a move number or a result`},
		{"number without a dot", "1 d6 *\n",
			`line 1, column 1: "1" is not a move number like 1. or 1..., a move or a result`},
		{"number with two dots", "1.. d6 *\n",
			`line 1, column 1: "1.." is not a move number like 1. or 1..., a move or a result`},
		{"number zero", "0. d6 *\n",
			`line 1, column 1: move number 0.: want 1 to 999999 without leading zeros`},
		{"number out of sequence", "1. d6 d5 3. a4 *\n",
			`line 1, column 10: move number 3. out of sequence: want 2. (numbers count pairs of plies from ply 0 of the start)`},
		{"lost move", "1. d6 2. d5 *\n",
			`line 1, column 7: move number 2. out of sequence: want 1... (numbers count pairs of plies from ply 0 of the start)`},
		{"odd ply written as even", "1. d6 {c} 1. d5 *\n",
			`line 1, column 11: move number 1. out of sequence: want 1... (numbers count pairs of plies from ply 0 of the start)`},
		{"set-up position numbering", "[Position \"nine-mens-morris 8/8/8 b 9,8 - 0 1\"]\n\n1. d6 *\n",
			`line 3, column 1: move number 1. out of sequence: want 1... (numbers count pairs of plies from ply 1 of the start)`},
		{"number without a move", "1. d6 d5 2. *\n",
			`line 1, column 10: move number 2. has no move after it`},
		{"two numbers", "1. 2. d6 *\n",
			`line 1, column 1: move number 1. has no move after it`},
		{"unterminated comment", "1. d6 {a comment\n\nd5 *\n",
			`line 1, column 7: unterminated comment: no } after this {`},
		{"variation", "1. d6 (1. d5) d5 *\n",
			`line 1, column 7: variations in ( ) are not supported`},
		{"stray brace", "1. d6 } d5 *\n",
			`line 1, column 7: unexpected '}'`},
		{"no result", "[Event \"x\"]\n\n1. d6 d5\n",
			`line 4, column 1: the input ends inside the game that starts on line 1: want its result (1-0, 0-1, 1/2-1/2 or *)`},
		{"no result before the next game", "[Event \"x\"]\n\n1. d6 d5\n\n[Event \"y\"]\n*\n",
			`line 5, column 1: a tag pair inside the movetext: the game before it has no result (1-0, 0-1, 1/2-1/2 or *)`},
		{"columns count characters", "{déjà vu} 1. d6 ¿? *\n",
			`line 1, column 17: "¿?" is not a move, a move number or a result`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := readAll([]byte(tt.in))
			if err == nil {
				t.Fatalf("reading %q: no error, %d records", tt.in, len(recs))
			}
			if err.Error() != tt.err {
				t.Errorf("reading %q:\ngot  %s\nwant %s", tt.in, err, tt.err)
			}
			if !errors.Is(err, mill.ErrSyntax) {
				t.Errorf("%v does not wrap mill.ErrSyntax", err)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%v is not a *SyntaxError", err)
			}
		})
	}
}

// TestGameErrors reads good records that do not replay: each must fail with
// exactly the error given.
func TestGameErrors(t *testing.T) {
	// A game of morabaraba that fills the board: a draw.
	full := findFullBoard(t)
	tests := []struct {
		name, in, err string
		is            error
	}{
		{"unknown variant", "[Variant \"ten-mens-morris\"]\n\n1. d6 *\n",
			`tag Variant "ten-mens-morris": unknown variant: "ten-mens-morris" (see 'morris variants')`, mill.ErrUnknownVariant},
		{"bad override", "[Variant \"nine-mens-morris\"]\n[Rules \"flying=sometimes\"]\n\n1. d6 *\n",
			`tag Rules "flying=sometimes": invalid rules: nine-mens-morris: option flying: "sometimes" is not never|3..12`, mill.ErrRules},
		{"unknown option", "[Rules \"speed=fast\"]\n\n*\n",
			`tag Rules "speed=fast": invalid rules: nine-mens-morris: unknown rule option "speed" (see 'morris variants')`, mill.ErrRules},
		{"impossible rules", "[Variant \"mill\"]\n[Rules \"trap-rule=yes\"]\n\n*\n",
			`tag Rules "trap-rule=yes": invalid rules: mill: trap-rule=yes needs blocked=passes: only a passing side is trapped`, mill.ErrRules},
		{"illegal move", "[Event \"x\"]\n\n1. d6 d5 2. a4\n   d6 *\n",
			`line 4: move 2... d6: illegal: d6 is occupied`, mill.ErrIllegalMove},
		{"illegal slide", "[Position \"nine-mens-morris WWW1BWWW/1WB1B1WB/1W2B2B b 0,0 - 2 25\"]\n\n13... f2-e3 *\n",
			`line 3: move 13... f2-e3: illegal: f2 and e3 are not neighbours on a line (black may fly only with 3 pieces or fewer and none in hand)`, mill.ErrIllegalMove},
		{"missing capture", "1. d6 d5 2. f6 a7 3. b6 *\n",
			`line 1: move 3. b6: illegal: the move closes a mill: name the piece to take, like b6xa7`, mill.ErrIllegalMove},
		{"not a point", "1. d6 D9 *\n",
			`line 1: move 1... D9: not a move: at offset 0: want a point of board standard24 (like a1) or pass`, mill.ErrSyntax},
		{"move after the end", "[Variant \"morabaraba\"]\n\n" + full + " d6 1/2-1/2\n",
			`line 6: move 13. d6: the game is over: 1/2-1/2 by full board`, mill.ErrGameOver},
		{"wrong result", "[Variant \"morabaraba\"]\n\n" + full + " 1-0\n",
			`wrong result: the record says 1-0, the board says 1/2-1/2 by full board`, ErrResult},
		{"unfinished claims the end", "[Variant \"morabaraba\"]\n\n" + full + " *\n",
			`wrong result: the record says *, the board says 1/2-1/2 by full board`, ErrResult},
		{"wrong termination", "[Variant \"morabaraba\"]\n[Termination \"blocked\"]\n\n" + full + " 1/2-1/2\n",
			`wrong result: the Termination tag says "blocked", the board says 1/2-1/2 by full board`, ErrResult},
		{"termination on the board that did not happen", "[Termination \"blocked\"]\n\n1. d6 1-0\n",
			`wrong result: the Termination tag says "blocked", but the game has not ended on the board`, ErrResult},
		{"termination of a game that goes on", "[Termination \"resignation\"]\n\n1. d6 *\n",
			`wrong result: the Termination tag says "resignation", but the game goes on (result *)`, ErrResult},
		{"unknown termination", "[Termination \"tea break\"]\n\n1. d6 1-0\n",
			`tag Termination "tea break": not a way a game ends (resignation, agreement, time, abandonment, or an end on the board like blocked)`, nil},
		{"lot without a seed", "[Variant \"shah\"]\n\n1. d6 *\n",
			`tag Seed: the rules shah draw the first player by lot: the record needs the seed of the lot (or a Position, or first=white in Rules)`, nil},
		{"bad seed", "[Variant \"shah\"]\n[Seed \"-1\"]\n\n1. d6 *\n",
			`tag Seed "-1": want a decimal number below 2^64`, nil},
		{"seed without a lot", "[Seed \"12\"]\n\n1. d6 *\n",
			`tag Seed "12": the rules nine-mens-morris draw no lot for the first player`, nil},
		{"seed and position", "[Variant \"shah\"]\n[Seed \"1\"]\n[Position \"shah 8/8/8 w 12,12 - 0 0\"]\n\n*\n",
			`tag Seed "1": a game set up from a Position draws no lot`, nil},
		{"bad position", "[Position \"nine-mens-morris 8/8/8 w 9,9\"]\n\n*\n",
			`tag Position "nine-mens-morris 8/8/8 w 9,9": position "nine-mens-morris 8/8/8 w 9,9": at offset 28: want 7 fields (rules board side hands state quiet ply), have 4`, mill.ErrSyntax},
		{"position under other rules", "[Variant \"nine-mens-morris\"]\n[Rules \"flying=never\"]\n[Position \"nine-mens-morris 8/8/8 w 9,9 - 0 0\"]\n\n*\n",
			`tag Position "nine-mens-morris 8/8/8 w 9,9 - 0 0": the position is played under nine-mens-morris, but the Variant and Rules tags say nine-mens-morris,flying=never`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := readAll([]byte(tt.in))
			if err != nil || len(recs) != 1 {
				t.Fatalf("reading %q: %d records, error %v", tt.in, len(recs), err)
			}
			_, err = recs[0].Game()
			if err == nil {
				t.Fatalf("replaying %q: no error", tt.in)
			}
			if err.Error() != tt.err {
				t.Errorf("replaying %q:\ngot  %s\nwant %s", tt.in, err, tt.err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not wrap %v", err, tt.is)
			}
		})
	}
}

// findFullBoard returns the movetext of a morabaraba game that fills the
// board, numbered, without the result: three lines of eight moves, each ending with
// a newline (lines 3 to 5 of a record with one tag and a blank line).
func findFullBoard(t *testing.T) string {
	g, _ := findGame(t, mill.MustRules("morabaraba"), 1000, func(g *mill.Game) bool { return g.Method() == mill.FullBoard })
	var b strings.Builder
	for i, m := range g.Moves() {
		if i%2 == 0 {
			b.WriteString(number(i) + " ")
		}
		b.WriteString(g.Rules().Board().MoveText(m, mill.Standard))
		if i%8 == 7 {
			b.WriteString("\n")
		} else if i+1 < len(g.Moves()) {
			b.WriteString(" ")
		}
	}
	return b.String()
}

// TestReplayError checks the fields of a ReplayError.
func TestReplayError(t *testing.T) {
	recs, err := readAll([]byte("1. d6 d5\n2. a4 d5 *\n"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := recs[0].Game()
	var re *ReplayError
	if !errors.As(err, &re) {
		t.Fatalf("got %v, want a *ReplayError", err)
	}
	want := ReplayError{Index: 3, Number: "2...", Move: "d5", Line: 2}
	if re.Index != want.Index || re.Number != want.Number || re.Move != want.Move || re.Line != want.Line {
		t.Errorf("got %+v, want %+v", *re, want)
	}
	var me *mill.MoveError
	if !errors.As(err, &me) || me.Reason != "d5 is occupied" {
		t.Errorf("got %v, want a *mill.MoveError: d5 is occupied", err)
	}
	if g == nil || len(g.Moves()) != 3 {
		t.Errorf("the game before the bad move: got %v", g)
	}
}
