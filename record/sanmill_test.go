package record

import (
	"errors"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// A record as Sanmill writes one (CRLF lines, its roster, its names of the
// rule sets), made up for this test: an annotation, a NAG, a variation, a
// comment with parentheses in it.
const sanmillGame = "[Event \"Sanmill-Game\"]\r\n[Site \"Sanmill\"]\r\n[Date \"2026.12.7\"]\r\n[Round \"3\"]\r\n" +
	"[White \"Human\"]\r\n[Black \"AI\"]\r\n[Result \"*\"]\r\n[Variant \"%s\"]\r\n[PlyCount \"7\"]\r\n\r\n" +
	" 1. a1 b2 2. d1?? b6 (2... a4 3. g1xa4) 3. g1xb2 $4 {white closes a1-d1-g1 (the first mill)} 3... d6 4. d2 *"

func TestFromSanmill(t *testing.T) {
	cases := []struct{ variant, rules string }{
		{"Nine Men's Morris", "nine-mens-morris"},
		{"standard_9mm", "nine-mens-morris"},
		{"Russian Mill", "russian-mill,protection=none"},
		{"Lasker Morris", "lasker"},
		{"Twelve Men's Morris", "twelve-mens-morris-small"},
	}
	for _, c := range cases {
		text := strings.Replace(sanmillGame, "%s", c.variant, 1)
		if !IsSanmill(text) {
			t.Errorf("%s: IsSanmill = false", c.variant)
		}
		ours, err := FromSanmill(text, readFEN)
		if err != nil {
			t.Errorf("%s: %v", c.variant, err)
			continue
		}
		sc := NewScanner(strings.NewReader(ours))
		if !sc.Scan() {
			t.Errorf("%s: %v\n%s", c.variant, sc.Err(), ours)
			continue
		}
		rec := sc.Record()
		g, err := rec.Game()
		if err != nil {
			t.Errorf("%s: %v\n%s", c.variant, err, ours)
			continue
		}
		if got := g.Rules().String(); got != c.rules {
			t.Errorf("%s: rules %s, want %s", c.variant, got, c.rules)
		}
		if len(g.Moves()) != 7 || rec.Tag("PlyCount") != "7" || rec.Moves[4].Comment != "white closes a1-d1-g1 (the first mill)" {
			t.Errorf("%s: %d moves, tags %v, moves %+v", c.variant, len(g.Moves()), rec.Tags, rec.Moves)
		}
	}
	refused := []struct{ text, want string }{
		{strings.Replace(sanmillGame, "%s", "Dooz", 1), "full"},
		{strings.Replace(sanmillGame, "%s", "Morabaraba", 1), "10 moves"},
		{strings.Replace(sanmillGame, "%s", "Custom", 1), "custom"},
		{strings.Replace(sanmillGame, "%s", "Checkers", 1), "unknown"},
		{"[Event \"Sanmill-Game\"]\n[Variant \"Nine Men's Morris\"]\n[FEN \"OOO*****/********/@@****** b m r 3 0 2 0 0 1 0 0 0 0 0 0 20\"]\n[SetUp \"1\"]\n\n20... xd5 *\n", "line 3: mif: not expressible in morris: a removal owed"},
	}
	for _, c := range refused {
		_, err := FromSanmill(c.text, readFEN)
		if !errors.Is(err, ErrSanmill) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromSanmill: %v, want an error about %q", err, c.want)
		}
	}
	for _, v := range []string{"nine-mens-morris", "morabaraba", "dooz"} { // ours, some spelt as Sanmill's ids
		if IsSanmill("[Event \"Club final\"]\n[Variant \"" + v + "\"]\n\n1. d6 *\n") {
			t.Errorf("IsSanmill of our own record of %s", v)
		}
	}
}

// readFEN stands in for mif.ParseSanmillFEN (record may not import mif):
// the two FENs the tests use, and a removal owed refused as mif refuses it.
func readFEN(fen string, r *mill.Rules) (mill.Position, error) {
	switch fen {
	case "@*******/O*******/*****O** b p p 2 7 1 8 0 0 0 0 0 0 0 0 2":
		g := mill.NewGame(r)
		for _, m := range []string{"d6", "d5", "a1"} {
			if err := g.PlayText(m); err != nil {
				return mill.Position{}, err
			}
		}
		return g.Position(), nil
	}
	return mill.Position{}, errors.New("mif: not expressible in morris: a removal owed")
}

// TestFromSanmillSetUp: a record of Sanmill's from a set-up position (its
// FEN and SetUp tags) starts from that position, under the record's rules;
// the next record, without a FEN, from the start again.
func TestFromSanmillSetUp(t *testing.T) {
	text := "[Event \"Sanmill-Game\"]\r\n[Site \"Sanmill\"]\r\n[Variant \"Nine Men's Morris\"]\r\n" +
		"[FEN \"@*******/O*******/*****O** b p p 2 7 1 8 0 0 0 0 0 0 0 0 2\"]\r\n[SetUp \"1\"]\r\n\r\n" +
		"2... b6 3. d1 a4 *\r\n\r\n" +
		"[Event \"Sanmill-Game\"]\r\n[Variant \"Nine Men's Morris\"]\r\n\r\n1. d6 d5 *\r\n"
	ours, err := FromSanmill(text, readFEN)
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(strings.NewReader(ours))
	var games []*mill.Game
	for sc.Scan() {
		g, err := sc.Record().Game()
		if err != nil {
			t.Fatalf("%v\n%s", err, ours)
		}
		games = append(games, g)
	}
	if _, err := FromSanmill(text, nil); !errors.Is(err, ErrSanmill) || !strings.Contains(err.Error(), "line 4: a game from a set-up position") {
		t.Errorf("without a reader of FENs: %v, want the record refused", err)
	}
	if sc.Err() != nil || len(games) != 2 {
		t.Fatalf("%d games, %v\n%s", len(games), sc.Err(), ours)
	}
	want := mill.NewGame(mill.MustRules("nine-mens-morris"))
	for _, m := range strings.Fields("d6 d5 a1") {
		if err := want.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	if got := games[0].Positions()[0]; got.String() != want.Position().String() {
		t.Errorf("the set-up game starts at %s, want %s\n%s", got, want.Position(), ours)
	}
	if n := len(games[0].Moves()); n != 3 {
		t.Errorf("the set-up game: %d moves, want 3", n)
	}
	if got := games[1].Positions()[0]; got.Ply() != 0 || len(games[1].Moves()) != 2 {
		t.Errorf("the second game starts at %s with %d moves, want the start and 2", got, len(games[1].Moves()))
	}
}

// TestSanmillRulesValid: every rule set mapped is rules of ours.
func TestSanmillRulesValid(t *testing.T) {
	for name, r := range sanmillRules {
		if r.rules == "" {
			continue
		}
		if _, err := mill.ParseRules(r.rules); err != nil {
			t.Errorf("%s: %s: %v", name, r.rules, err)
		}
	}
}

func FuzzFromSanmill(f *testing.F) {
	f.Add(strings.Replace(sanmillGame, "%s", "Nine Men's Morris", 1))
	f.Add("[Variant \"Zhi Qi\"]\n\n1. d6 (1. d5 {(} d3) {)} $1 d5!? *")
	f.Fuzz(func(t *testing.T, text string) {
		ours, err := FromSanmill(text, readFEN)
		if err != nil {
			if !errors.Is(err, ErrSanmill) {
				t.Fatalf("%v does not wrap ErrSanmill", err)
			}
			return
		}
		sc := NewScanner(strings.NewReader(ours))
		for sc.Scan() {
			_, _ = sc.Record().Game()
		}
	})
}
