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
		ours, err := FromSanmill(text)
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
		{strings.Replace(sanmillGame, "[Round", "[FEN \"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\"]\r\n[SetUp \"1\"]\r\n[Round", 1), "set-up"},
	}
	for _, c := range refused {
		_, err := FromSanmill(c.text)
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
		ours, err := FromSanmill(text)
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
