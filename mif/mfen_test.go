package mif

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
)

func TestParseMFEN(t *testing.T) {
	good := []string{
		"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 -",
		"MFEN/1.0 mill24-state-v1 W......./......../.......B w p p 8,8 - 0 2 -",
		"MFEN/1.0 mill24-state-v1 WWW...../BB....../........ - o o 0,0 - 12 40 w:fewer-than-minimum",
		"MFEN/1.0 mill24-state-v1 WW....../B......./........ w p r 7,8 w:mill:b:b:1:000100:b 0 3 -",
		"MFEN/1.0 mill24-state-v1 ......../......../........ b p p 12,12 - 0 0 - lm=-,-;a7,a4 ul=0001,0000",
		"MFEN/1.0 mill24-state-v1 w......./......../........ w p p 5,6 - 0 0 - x-note=abc",
	}
	for _, s := range good {
		m, err := ParseMFEN(s)
		if err != nil {
			t.Errorf("ParseMFEN(%q): %v", s, err)
			continue
		}
		if got := m.String(); got != s {
			t.Errorf("ParseMFEN(%q).String() = %q, want it unchanged", s, got)
		}
	}
	bad := []struct{ in, want string }{
		{"", "fields"},
		{"MFEN/1.1 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 -", "signature"},
		{"MFEN/1.0 mill32-state-v1 ......../......../........ w p p 9,9 - 0 0 -", "state profile"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........  w p p 9,9 - 0 0 -", "empty field"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 - ", "empty field"},
		{"MFEN/1.0 mill24-state-v1 ......./......../........ w p p 9,9 - 0 0 -", "ring 1"},
		{"MFEN/1.0 mill24-state-v1 X......./......../........ w p p 9,9 - 0 0 -", "board"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ x p p 9,9 - 0 0 -", "side"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 09,9 - 0 0 -", "hands"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 00 0 -", "integer"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 w:mill:b:b:0:000100:b 0 0 -", "positive"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 w:fly:b:b:1:000100:b 0 0 -", "cause"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 w:won", "reason"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 - ul=0,0", "ul"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 - ul=0000,0000 lm=-,-;-,-", "ascending"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 - zz=1", "extension"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 - lm=a7,h9;-,-", "lm"},
		{"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 9007199254740992 -", "integer"},
	}
	for _, c := range bad {
		_, err := ParseMFEN(c.in)
		if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseMFEN(%q) = %v, want a syntax error about %q", c.in, err, c.want)
		}
	}
}

func rules(t testing.TB, spec string) *mill.Rules {
	t.Helper()
	r, err := mill.ParseRules(spec)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPositions converts positions built by hand both ways.
func TestPositions(t *testing.T) {
	cases := []struct{ rules, ours, mfen string }{
		{"nine-mens-morris", "nine-mens-morris 8/8/8 w 9,9 - 0 0",
			"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 -"},
		// White on a7 and c5, black on g1 and e5 (our text runs each ring
		// counter-clockwise from a1, the draft's clockwise from a7).
		{"nine-mens-morris", "nine-mens-morris 2B3W1/8/4B1W1 b 7,7 - 0 4",
			"MFEN/1.0 mill24-state-v1 W...B.../......../W.B..... b p p 7,7 - 0 4 -"},
		{"nine-mens-morris", "nine-mens-morris WWW5/BBB5/W7 b 0,0 - 6 24",
			"MFEN/1.0 mill24-state-v1 ....WWW./....BBB./......W. b m m 0,0 - 6 24 -"},
		{"cheng-san-qi", "cheng-san-qi 8/8/8 b 9,8 - 0 1",
			"MFEN/1.0 mill24-state-v1 ......../......../........ b p p 9,8 - 0 1 -"},
		{"russian-mill", "russian-mill WWW5/BBB5/8 w 0,0 uw=1 3 20",
			"MFEN/1.0 mill24-state-v1 ....WWW./....BBB./........ w m m 0,0 - 3 20 - ul=0004,0000"},
		// White broke its mill a1-d1-g1 by g1-g4.
		{"nine-mens-morris,reform-ban=yes", "nine-mens-morris,reform-ban=yes WW1W4/BBB5/8 b 0,0 bw=g4-g1 1 21",
			"MFEN/1.0 mill24-state-v1 ...W.WW./....BBB./........ b m m 0,0 - 1 21 - lm=g1,g4;-,-"},
		{"twelve-mens-morris-small", "twelve-mens-morris-small W7/8/7B w 11,11 - 0 2",
			"MFEN/1.0 mill24-state-v1 ......W./......../.......B w p p 11,11 - 0 2 -"},
	}
	for _, c := range cases {
		r := rules(t, c.rules)
		p, err := ParsePosition(c.mfen, r)
		if err != nil {
			t.Errorf("ParsePosition(%q, %s): %v", c.mfen, c.rules, err)
			continue
		}
		if got := p.String(); got != c.ours {
			t.Errorf("ParsePosition(%q, %s) = %q, want %q", c.mfen, c.rules, got, c.ours)
		}
		got, err := FormatPosition(mill.MustParsePosition(c.ours))
		if err != nil || got != c.mfen {
			t.Errorf("FormatPosition(%q) = %q, %v; want %q", c.ours, got, err, c.mfen)
		}
	}
}

// TestRefusals checks that what our positions cannot hold is refused with
// its reason.
func TestRefusals(t *testing.T) {
	cases := []struct{ rules, mfen, want string }{
		{"six-mens-morris", "MFEN/1.0 mill24-state-v1 ......../......../........ w p p 6,6 - 0 0 -", "24-point"},
		{"nine-mens-morris", "MFEN/1.0 mill24-state-v1 WWW...../BB....../........ - o o 0,0 - 12 40 w:fewer-than-minimum", "game is over"},
		{"nine-mens-morris", "MFEN/1.0 mill24-state-v1 WWW...../B......./........ w p r 6,8 w:mill:b:b:1:000100:b 0 4 -", "removal is owed"},
		{"nine-mens-morris", "MFEN/1.0 mill24-state-v1 ......../......../........ w m m 9,9 - 0 0 -", "phase"},
		{"nine-mens-morris", "MFEN/1.0 mill24-state-v1 w......./......../........ w p p 9,9 - 0 0 -", "marked"},
		{"nine-mens-morris", "MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 - ul=0000,0000", "one-time"},
		{"russian-mill", "MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 -", "ul"},
		{"nine-mens-morris", "MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 - pc=0,0", "placement"},
		{"nine-mens-morris", "MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 - x-a=1", "private"},
		{"nine-mens-morris", "MFEN/1.0 mill24-state-v1 WWWWWWWW/WW....../........ w p p 9,9 - 0 0 -", "more than"},
		// In play by the record, over by the rules (found by FuzzParseMFEN).
		{"russian-mill", "MFEN/1.0 mill24-state-v1 BBBBBB../....BBB./........ b m m 0,0 - 0 0 - ul=0000,0000", "it is over"},
		{"nine-mens-morris", "MFEN/1.0 mill24-state-v1 WWW...../BB....../........ w m m 0,0 - 0 40 -", "it is over"},
	}
	for _, c := range cases {
		_, err := ParsePosition(c.mfen, rules(t, c.rules))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePosition(%q, %s) = %v, want an error about %q", c.mfen, c.rules, err, c.want)
		}
	}
}

// TestRandomGames converts every position of random games of the presets
// on the 24-point boards to MFEN and back.
func TestRandomGames(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, v := range mill.Variants() {
		r := rules(t, v.ID)
		if check24(r) != nil {
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(len(v.ID)), 49))
		done, refused := 0, 0
		for g := 0; g < games; g++ {
			game := milltest.RandomGame(r, rng, 200)
			for _, p := range game.Positions() {
				m, err := FromPosition(p)
				if err != nil {
					if !errors.Is(err, ErrUnsupported) {
						t.Fatalf("%s: FromPosition(%s): %v, not ErrUnsupported", v.ID, p, err)
					}
					refused++
					continue
				}
				s := m.String()
				if m2, err := ParseMFEN(s); err != nil || m2.String() != s {
					t.Fatalf("%s: %q reads back as %v, %v", v.ID, s, m2, err)
				}
				if m.Outcome != "-" {
					continue
				}
				q, err := m.Position(r)
				if err != nil || q.String() != p.String() {
					t.Fatalf("%s: %s as %q reads back as %s, %v", v.ID, p, s, q, err)
				}
				done++
			}
		}
		t.Logf("%s: %d positions both ways, %d refused", v.ID, done, refused)
		if done == 0 {
			t.Errorf("%s: no position converted", v.ID)
		}
	}
}

func FuzzParseMFEN(f *testing.F) {
	for _, s := range []string{
		"MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 -",
		"MFEN/1.0 mill24-state-v1 W...B.../......../W.B..... b p p 7,7 - 0 4 -",
		"MFEN/1.0 mill24-state-v1 ....WWW./....BBB./........ w m m 0,0 - 3 20 - ul=0004,0000",
		"MFEN/1.0 mill24-state-v1 .....WWW/....BBB./........ b m m 0,0 - 1 21 - lm=g1,a4;-,-",
		"MFEN/1.0 mill24-state-v1 WW....../B......./........ w p r 7,8 w:mill:b:b:1:000100:b|w:mill:b:b:1:000100:q;b:board-full:b:w:1:~:w 0 3 -",
		"MFEN/1.0 mill24-state-v1 w......b/......../........ w p p 5,6 - 0 0 - x-note=abc",
	} {
		f.Add(s, 0)
	}
	f.Add("MFEN/1.0 mill24-state-v1 WBWBWBWB/BWBWBWBW/WBWBWBWB w m r 0,0 w:board-full:b:b:1:aa55aa:q;b:board-full:b:w:1:~:w 0 24 -", 8)
	presets := []string{"nine-mens-morris", "russian-mill", "nine-mens-morris,reform-ban=yes", "da-san-qi", "dooz", "lasker", "morabaraba", "six-mens-morris", "zhi-qi"}
	f.Fuzz(func(t *testing.T, s string, k int) {
		m, err := ParseMFEN(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q: %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		if m.String() != s {
			t.Fatalf("%q prints as %q", s, m.String())
		}
		r := rules(t, presets[uint(k)%uint(len(presets))])
		p, err := m.Position(r)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("%q under %s: %v wraps neither error", s, r, err)
			}
			return
		}
		back, err := FormatPosition(p)
		if err != nil {
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("%s: %v", p, err)
			}
			return
		}
		q, err := ParsePosition(back, r)
		if err != nil && p.Rules().Options().PlacingCaptures != mill.CaptureMark {
			t.Fatalf("%q: read as %s, written as %q, which does not read: %v", s, p, back, err)
		}
		if err == nil && q.String() != p.String() {
			t.Fatalf("%q: read as %s, written as %q, read back as %s", s, p, back, q)
		}
	})
}

// TestFullBoardRemovals: the removals of a full board (zhi qi) both ways,
// before the first removal and between the two.
func TestFullBoardRemovals(t *testing.T) {
	r := rules(t, "zhi-qi")
	const full = "MFEN/1.0 mill24-state-v1 WBWBWBWB/BWBWBWBW/WBWBWBWB w m r 0,0 w:board-full:b:b:1:aa55aa:q;b:board-full:b:w:1:~:w 0 24 -"
	p, err := ParsePosition(full, r)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := p.Pending(); !ok || c != mill.White || p.Owed(mill.Black) != 1 {
		t.Fatalf("%s: pending %v %v, black owes %d", p, c, ok, p.Owed(mill.Black))
	}
	if back, err := FormatPosition(p); err != nil || back != full {
		t.Errorf("%s written as %q, %v; want %q", p, back, err, full)
	}
	g := mill.NewGame(r, mill.FromPosition(p))
	if err := g.PlayText("xd7"); err != nil {
		t.Fatal(err)
	}
	q := g.Position()
	second, err := FormatPosition(q)
	if want := "MFEN/1.0 mill24-state-v1 W.WBWBWB/BWBWBWBW/WBWBWBWB b m r 0,0 b:board-full:b:w:1:"; err != nil || !strings.HasPrefix(second, want) || !strings.HasSuffix(second, ":w 0 25 -") {
		t.Errorf("after xd7: %q, %v; want %s...:w 0 25 -", second, err, want)
	}
	if q2, err := ParsePosition(second, r); err != nil || q2.String() != q.String() {
		t.Errorf("%q reads back as %s, %v; want %s", second, q2, err, q)
	}
	for _, bad := range []struct{ mfen, want string }{
		{strings.Replace(full, "aa55aa", "aa55ab", 1), "target"},
		{strings.Replace(full, ":~:w", ":~:b", 1), "full board"},
		{strings.Replace(full, " w m r", " b m r", 1), "actor"},
		{strings.Replace(full, "board-full", "mill", 2), "full board"},
	} {
		if _, err := ParsePosition(bad.mfen, r); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParsePosition(%q) = %v, want an error about %q", bad.mfen, err, bad.want)
		}
	}
	if _, err := ParsePosition(full, rules(t, "el-filja")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("under el-filja (counted mills): %v, want ErrUnsupported", err)
	}
}
