package record

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/morrisgame/morris/mill"
)

func TestFromGame(t *testing.T) {
	shah := mill.MustRules("shah")
	nine := mill.MustRules("nine-mens-morris")
	tests := []struct {
		name string
		g    *mill.Game
		tags []Tag
		want map[string]string // "" for a tag that must be missing
	}{
		{"the start", mill.NewGame(nine), []Tag{{"Rules", "stale"}, {"Seed", "1"}},
			map[string]string{"Variant": "nine-mens-morris", "Rules": "", "Seed": "", "Position": "", "Result": "*", "Termination": ""}},
		{"lot", mill.NewGame(shah, mill.WithSeed(42)), nil,
			map[string]string{"Variant": "shah", "Seed": "42", "Position": ""}},
		{"lot, set up at the start", mill.NewGame(shah, mill.FromPosition(shah.StartWith(mill.Black))), nil,
			map[string]string{"Variant": "shah", "Seed": "", "Position": "shah 8/8/8 b 12,12 - 0 0"}},
		{"lot, set up with white to move", mill.NewGame(shah, mill.FromPosition(shah.Start())), nil,
			map[string]string{"Seed": "", "Position": "shah 8/8/8 w 12,12 - 0 0"}},
		{"overrides", mill.NewGame(mill.MustRules("nine-mens-morris", "protection=always", "flying=never")), []Tag{{"Event", "E"}, {"Variant", "x"}},
			map[string]string{"Event": "E", "Variant": "nine-mens-morris", "Rules": "flying=never,protection=always"}},
		{"resigned", resigned(mill.NewGame(nine)), nil,
			map[string]string{"Result": "0-1", "Termination": "resignation"}},
		{"ended without a method", ended(mill.NewGame(nine)), []Tag{{"Termination", "time"}},
			map[string]string{"Result": "1/2-1/2", "Termination": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := FromGame(tt.g, tt.tags...)
			for name, want := range tt.want {
				got, ok := rec.lookup(name)
				if want == "" && ok {
					t.Errorf("tag %s: got %q, want none", name, got)
				}
				if want != "" && got != want {
					t.Errorf("tag %s: got %q, want %q", name, got, want)
				}
			}
			g, err := rec.Game()
			if err != nil {
				t.Fatalf("replaying: %v", err)
			}
			if g.Start() != tt.g.Start() || g.Outcome() != tt.g.Outcome() || g.Method() != tt.g.Method() {
				t.Errorf("replaying: start %s, %s; want %s, %s", g.Start(), Summary(g), tt.g.Start(), Summary(tt.g))
			}
		})
	}
}

func resigned(g *mill.Game) *mill.Game {
	if err := g.PlayText("d6"); err != nil {
		panic(err)
	}
	if err := g.Resign(mill.White); err != nil {
		panic(err)
	}
	return g
}

func ended(g *mill.Game) *mill.Game {
	if err := g.End(mill.Draw, mill.NoMethod); err != nil {
		panic(err)
	}
	return g
}

func TestTags(t *testing.T) {
	var r Record
	r.SetTag("White", "Ann")
	r.SetTag("Black", "Bob")
	r.SetTag("White", "Cy")
	if got := r.Tag("White"); got != "Cy" {
		t.Errorf("White: got %q, want Cy", got)
	}
	if got := r.Tag("Event"); got != "" {
		t.Errorf("Event: got %q, want nothing", got)
	}
	r.DeleteTag("White")
	r.DeleteTag("Nothing")
	if len(r.Tags) != 1 || r.Tags[0] != (Tag{"Black", "Bob"}) {
		t.Errorf("got %v, want [{Black Bob}]", r.Tags)
	}
}

// TestWriterErrors writes records that could not be read back.
func TestWriterErrors(t *testing.T) {
	tests := []struct {
		name string
		rec  Record
		err  string
	}{
		{"bad tag name", Record{Tags: []Tag{{"My Tag", "x"}}}, `record: tag name "My Tag": want a letter, then letters, digits or _`},
		{"empty tag name", Record{Tags: []Tag{{"", "x"}}}, `record: tag name "": want a letter, then letters, digits or _`},
		{"newline in a value", Record{Tags: []Tag{{"Event", "a\nb"}}}, `record: tag Event: a value cannot hold a newline`},
		{"tag twice", Record{Tags: []Tag{{"Event", "a"}, {"Event", "b"}}}, `record: tag Event given twice`},
		{"bad move", Record{Moves: []MoveText{{Text: "d6"}, {Text: "d5 d4"}}}, `record: move 2 "d5 d4" is not a move`},
		{"empty move", Record{Moves: []MoveText{{Text: ""}}}, `record: move 1 "" is not a move`},
		{"bad result", Record{Result: 9}, `record: result 9 is not an outcome`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := NewWriter(&buf)
			err := w.Write(&tt.rec)
			if err == nil || err.Error() != tt.err {
				t.Errorf("got %v, want %s", err, tt.err)
			}
			w.Flush()
			if buf.Len() != 0 {
				t.Errorf("wrote %q", buf.String())
			}
		})
	}
}

// TestWriterNormalizes writes a record made by hand: moves in either
// dialect, comments with any white space, a } in a comment.
func TestWriterNormalizes(t *testing.T) {
	rec := &Record{
		Tags:    []Tag{{"Black", "Bob"}, {"Annotator", "me"}, {"Variant", "nine-mens-morris"}, {"Event", "E"}},
		Comment: "  a\tgame\n comment ",
		Moves: []MoveText{
			{Text: "D6", Comment: "pbm"}, {Text: "d5"}, {Text: "F6"}, {Text: "A7", Comment: "with a } inside"},
			{Text: "B6,A7"}, {Text: "nonsense"},
		},
		Result: mill.WhiteWon,
	}
	rec.SetTag("Result", "0-1") // stale: the Result field wins
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&Record{}); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	want := `[Event "E"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "Bob"]
[Result "1-0"]
[Variant "nine-mens-morris"]
[Annotator "me"]

{a game comment} 1. d6 {pbm} 1... d5 2. f6 a7 ; with a } inside
3. b6xa7 nonsense 1-0

[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

*
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestLineWidth checks that the golden files keep to 80 columns, but for a
// word or a ; comment longer than that.
func TestLineWidth(t *testing.T) {
	rec := &Record{Comment: strings.Repeat("x", 100) + " " + strings.Repeat("é", 79) + " y"}
	for i := 0; i < 200; i++ {
		rec.Moves = append(rec.Moves, MoveText{Text: "a1-a4xg7"})
	}
	text, err := writeAll([]*Record{rec})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n > lineWidth && strings.Contains(l, " ") {
			t.Errorf("line %d has %d characters: %s", i+1, n, l)
		}
	}
	if lines[8] != "{"+strings.Repeat("x", 100) || lines[9] != strings.Repeat("é", 79) {
		t.Errorf("long words: got\n%s", text)
	}
}

func TestReplay(t *testing.T) {
	in := `[Event "one"]

1. d6 d5 2. f6 a7 3. b6xa7 *

[Event "two"]
[Variant "twelve-men"]

*

[Event "three"]
[Result "1-0"]

1. d6 1-0

1. d6 (d5) *
`
	var out bytes.Buffer
	err := Replay(strings.NewReader(in), &out)
	want := `game 1: 5 moves, * (unfinished), ok
game 2 (line 5): tag Variant "twelve-men": unknown variant: "twelve-men" (see 'morris variants')
game 3: 1 move, 1-0, ok
game 4: line 15, column 7: variations in ( ) are not supported
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if err == nil || err.Error() != "game 4: line 15, column 7: variations in ( ) are not supported" {
		t.Errorf("got error %v", err)
	}

	out.Reset()
	err = Replay(strings.NewReader(in[:strings.Index(in, "[Event \"two\"]")]), &out)
	if err != nil || out.String() != "game 1: 5 moves, * (unfinished), ok\n" {
		t.Errorf("got %q, error %v", out.String(), err)
	}
	out.Reset()
	err = Replay(strings.NewReader(in[:strings.Index(in, "[Event \"three\"]")]), &out)
	if err == nil || err.Error() != "record: 1 of 2 games have errors" {
		t.Errorf("got error %v", err)
	}
}

// TestScanner reads what the golden files do not show.
func TestScanner(t *testing.T) {
	in := "\n\n  ; nothing\n[Event \"a\"] [Site \"b\\\\c \\\"d\\\"\"]\n{x}1.d6{y}{z}1...d5\t2.f6 ;w\n 1/2-1/2{after the result}[Event \"c\"]0-1 ; the end\n"
	recs, err := readAll([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("got %d records, want 2", len(recs))
	}
	r := recs[0]
	if r.Line != 3 || r.Comment != "nothing x" || r.Tag("Site") != `b\c "d"` || r.Result != mill.Draw {
		t.Errorf("got %+v", r)
	}
	want := []MoveText{{"d6", "y z", 5}, {"d5", "", 5}, {"f6", "w", 5}}
	if len(r.Moves) != len(want) {
		t.Fatalf("got moves %v, want %v", r.Moves, want)
	}
	for i := range want {
		if r.Moves[i] != want[i] {
			t.Errorf("move %d: got %+v, want %+v", i, r.Moves[i], want[i])
		}
	}
	r = recs[1]
	if r.Line != 6 || r.Comment != "after the result" || r.Tag("Event") != "c" || r.Result != mill.BlackWon || len(r.Moves) != 0 {
		t.Errorf("got %+v", r)
	}
}
