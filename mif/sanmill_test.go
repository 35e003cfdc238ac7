package mif

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
)

// TestSanmillFEN: Sanmill's FEN of the start and of a position written
// by hand read as ours and are written back the same; random positions of
// three presets written and read back as themselves; and what morris cannot hold, or what is not the format, is
// refused with the reason.
func TestSanmillFEN(t *testing.T) {
	nine := mill.MustRules("nine-mens-morris")
	after := func(r *mill.Rules, moves ...string) mill.Position {
		g := mill.NewGame(r)
		for _, m := range moves {
			if err := g.PlayText(m); err != nil {
				t.Fatalf("%v: %v", moves, err)
			}
		}
		return g.Position()
	}
	for _, c := range []struct {
		fen  string
		want mill.Position
	}{
		{"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1", after(nine)},
		// d6 is the middle ring's first point, d5 the inner ring's.
		{"@*******/O*******/******** w p p 1 8 1 8 0 0 0 0 0 0 0 0 2", after(nine, "d6", "d5")},
		{"@*******/O*******/*****O** b p p 2 7 1 8 0 0 0 0 0 0 0 0 2", after(nine, "d6", "d5", "a1")},
	} {
		if !IsSanmillFEN(c.fen) || !CarriesNoRules(c.fen) {
			t.Errorf("%q: not taken for Sanmill's FEN", c.fen)
		}
		p, err := ParseUnder(c.fen, nine)
		if err != nil {
			t.Errorf("%q: %v", c.fen, err)
			continue
		}
		if back, err := FormatSanmillFEN(c.want); err != nil || back != c.fen {
			t.Errorf("%s as Sanmill's FEN: %q, %v; want %q", c.want, back, err, c.fen)
		}
		if p.String() != c.want.String() {
			t.Errorf("%q: got %s, want %s", c.fen, p, c.want)
		}
	}
	for _, preset := range []string{"nine-mens-morris", "twelve-mens-morris-small", "lasker"} {
		r := mill.MustRules(preset)
		rng := rand.New(rand.NewPCG(5, 5))
		for i := 0; i < 200; i++ {
			g := milltest.RandomGame(r, rng, rng.IntN(60))
			p := g.Position()
			if o, _ := p.Status(); o != mill.NoOutcome {
				continue
			}
			fen, err := FormatSanmillFEN(p)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			got, err := ParseSanmillFEN(fen, r)
			if err != nil {
				t.Fatalf("%s: %q: %v", p, fen, err)
			}
			if got.String() != p.String() {
				t.Fatalf("%q: got %s, want %s", fen, got, p)
			}
		}
	}
	for _, c := range []struct {
		fen         string
		rules       string
		unsupported bool
		says        string
	}{
		{"********/********/******* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1", "nine-mens-morris", false, "three rings"},
		{"********/********/*******Q w p p 0 9 0 9 0 0 0 0 0 0 0 0 1", "nine-mens-morris", false, "is not O, @, * or X"},
		{"********/********/******** x p p 0 9 0 9 0 0 0 0 0 0 0 0 1", "nine-mens-morris", false, "side"},
		{"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0", "nine-mens-morris", false, "at least 17 fields"},
		{"O*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1", "nine-mens-morris", false, "on the board"},
		{"********/********/******** w p p 0 -9 0 9 0 0 0 0 0 0 0 0 1", "nine-mens-morris", false, "a count of 0 or more"},
		{"OOO*****/********/@@****** b m r 3 0 2 0 0 1 0 0 0 0 0 0 20", "nine-mens-morris", true, "a removal owed"},
		{"********/********/******** w o p 0 9 0 9 0 0 0 0 0 0 0 0 1", "nine-mens-morris", true, "the game is over"},
		{"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 c:w-0-|b-1-8", "nine-mens-morris", true, "custodian"},
		{"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1", "three-mens-morris", true, "24-point boards"},
	} {
		_, err := ParseSanmillFEN(c.fen, mill.MustRules(c.rules))
		switch {
		case err == nil:
			t.Errorf("%q under %s: read, want an error", c.fen, c.rules)
		case errors.Is(err, ErrUnsupported) != c.unsupported || !strings.Contains(err.Error(), c.says):
			t.Errorf("%q under %s: %v; want unsupported %v, saying %q", c.fen, c.rules, err, c.unsupported, c.says)
		}
	}
}

// FuzzParseSanmillFEN: no text makes the reader panic, and what it reads
// is a position our own text says again.
func FuzzParseSanmillFEN(f *testing.F) {
	f.Add("********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1")
	f.Add("@*******/O*******/*****O** b p p 2 7 1 8 0 0 0 0 0 0 0 0 2")
	f.Add("OOO*****/********/@@****** b m r 3 0 2 0 0 1 0 0 0 0 0 0 20 c:w-0-|b-1-8")
	r := mill.MustRules("nine-mens-morris")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseSanmillFEN(s, r)
		if err != nil {
			return
		}
		if q, err := mill.ParsePosition(p.String()); err != nil || q.String() != p.String() {
			t.Fatalf("%q: read as %s, which reads back as %v, %v", s, p, q, err)
		}
	})
}
