package mill

import (
	"fmt"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/golden"
)

func TestBoards(t *testing.T) {
	tested := map[string]bool{}
	defer func() {
		for _, b := range Boards() {
			if !tested[b.ID] {
				t.Errorf("board %s is not in the table of TestBoards", b.ID)
			}
		}
	}()
	for _, tc := range []struct {
		id                    string
		points, edges, lines  int
		diagonals, millsAtA1  int
		ring0, ring1, lastPts string // the outer ring, the second ("" with one ring), the innermost
		centre                string // the centre point, "" for none
	}{
		{"standard24", 24, 32, 16, 0, 2, "a1 d1 g1 g4 g7 d7 a7 a4", "b2 d2 f2 f4 f6 d6 b6 b4", "c3 d3 e3 e4 e5 d5 c5 c4", ""},
		{"diagonal24", 24, 40, 20, 4, 3, "a1 d1 g1 g4 g7 d7 a7 a4", "b2 d2 f2 f4 f6 d6 b6 b4", "c3 d3 e3 e4 e5 d5 c5 c4", ""},
		{"large32", 32, 44, 24, 0, 2, "a1 e1 i1 i5 i9 e9 a9 a5", "b2 e2 h2 h5 h8 e8 b8 b5", "d4 e4 f4 f5 f6 e6 d6 d5", ""},
		{"standard9", 9, 12, 6, 0, 2, "a1 b1 c1 c2 c3 b3 a3 a2", "", "a1 b1 c1 c2 c3 b3 a3 a2", "b2"},
		{"diagonal9", 9, 16, 8, 2, 3, "a1 b1 c1 c2 c3 b3 a3 a2", "", "a1 b1 c1 c2 c3 b3 a3 a2", "b2"},
		{"standard16", 16, 20, 8, 0, 2, "a1 c1 e1 e3 e5 c5 a5 a3", "b2 c2 d2 d3 d4 c4 b4 b3", "b2 c2 d2 d3 d4 c4 b4 b3", ""},
		{"cross17", 17, 24, 14, 0, 2, "a1 c1 e1 e3 e5 c5 a5 a3", "b2 c2 d2 d3 d4 c4 b4 b3", "b2 c2 d2 d3 d4 c4 b4 b3", "c3"},
	} {
		tested[tc.id] = true
		t.Run(tc.id, func(t *testing.T) {
			b, ok := BoardByID(tc.id)
			if !ok {
				t.Fatal("no such board")
			}
			if b.Len() != tc.points || len(b.Edges) != tc.edges || len(b.Lines) != tc.lines {
				t.Errorf("got %d points, %d edges, %d lines; want %d, %d, %d", b.Len(), len(b.Edges), len(b.Lines), tc.points, tc.edges, tc.lines)
			}
			diag, atA1 := 0, 0
			for _, l := range b.Lines {
				if l.Diagonal {
					diag++
				}
				for _, p := range l.Points {
					if p == 0 {
						atA1++
					}
				}
			}
			if diag != tc.diagonals || atA1 != tc.millsAtA1 {
				t.Errorf("got %d diagonal lines and %d lines through a1; want %d and %d", diag, atA1, tc.diagonals, tc.millsAtA1)
			}
			names := func(from, to int) string {
				var out []string
				for i := from; i < to; i++ {
					out = append(out, b.Name(Point(i)))
				}
				return strings.Join(out, " ")
			}
			rings := b.Len() / 8 * 8 // the points of the rings; the centre comes last
			if got := names(0, 8); got != tc.ring0 {
				t.Errorf("outer ring: got %s, want %s", got, tc.ring0)
			}
			if tc.ring1 != "" {
				if got := names(8, 16); got != tc.ring1 {
					t.Errorf("second ring: got %s, want %s", got, tc.ring1)
				}
			}
			if got := names(rings-8, rings); got != tc.lastPts {
				t.Errorf("inner ring: got %s, want %s", got, tc.lastPts)
			}
			switch {
			case tc.centre == "" && (b.Centre != NoPoint || rings != b.Len()):
				t.Errorf("centre %s (point %d of %d), want none", b.Name(b.Centre), b.Centre, b.Len())
			case tc.centre != "" && (b.Centre != Point(rings) || b.Name(b.Centre) != tc.centre || b.Len() != rings+1):
				t.Errorf("centre %s (point %d of %d), want %s, the last point", b.Name(b.Centre), b.Centre, b.Len(), tc.centre)
			}
			if b.Width != 2*(rings/8)+1 || b.Height != b.Width {
				t.Errorf("drawn on %dx%d, want %dx%d", b.Width, b.Height, 2*(rings/8)+1, 2*(rings/8)+1)
			}
			for i := range b.Points {
				p, ok := b.PointByName(strings.ToUpper(b.Name(Point(i))))
				if !ok || p != Point(i) {
					t.Errorf("PointByName(%s) = %d, %v", strings.ToUpper(b.Name(Point(i))), p, ok)
				}
				if pt := b.Points[i]; pt.Name != fmt.Sprintf("%c%d", 'a'+pt.X, pt.Y+1) || pt.X >= b.Width || pt.Y >= b.Height {
					t.Errorf("%s drawn at (%d, %d) on %dx%d: want the file letter and rank number of its place", pt.Name, pt.X, pt.Y, b.Width, b.Height)
				}
				if b.Adjacent(Point(i)).Len() < 2 {
					t.Errorf("%s has fewer than 2 neighbours", b.Name(Point(i)))
				}
			}
			// The diagram is drawn from the data: a golden file per board.
			empty := b.Diagram(func(Point) byte { return '.' }, RankOneBottom)
			pbm := b.Diagram(func(p Point) byte { return b.Name(p)[0] }, RankOneTop)
			golden.Check(t, "testdata/"+tc.id+".golden", []byte(empty+"\n"+pbm))
		})
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, v := range Variants() {
		if err := v.Options.Validate(); err != nil {
			t.Errorf("preset %s: %v", v.ID, err)
		}
		for _, o := range OptionList {
			// Every option prints a value that it parses back.
			opts := v.Options
			if err := opts.Set(o.Name, o.Get(&v.Options)); err != nil || opts != v.Options {
				t.Errorf("%s: option %s=%s does not round-trip: %v", v.ID, o.Name, o.Get(&v.Options), err)
			}
		}
	}
	for _, o := range OptionList {
		if o.Doc == "" || o.Values == "" || o.Default() == "" {
			t.Errorf("option %s lacks a doc line, values or a default", o.Name)
		}
	}
	for _, bad := range [][]string{
		{"pieces=13"}, {"pieces=2"}, {"flying=2"}, {"flying=10"}, {"board=hex"}, {"protection=sometimes"},
		{"repetition=1"}, {"draw-after=-1"}, {"nonsense=1"}, {"flying"}, {"blocked=passes", "trap-rule=maybe"},
		{"board=large32", "diagonal-mills=yes"}, {"trap-rule=yes"}, {"placing-captures=deferred", "move-while-placing=yes"},
		{"centre-ban=yes"}, {"board=standard16", "centre-ban=yes"}, {"board=standard9"}, // 9 men do not fit on 9 points
		{"mill-wins=yes", "placing-captures=none"}, {"mill-wins=yes", "placing-captures=deferred"}, {"mill-wins=yes", "captures=per-mill"},
		{"mill-wins=yes", "one-time-mills=yes"}, {"mill-wins=yes", "reform-ban=yes"}, {"mill-wins=yes", "blocked=passes", "trap-rule=yes"},
		{"mill-wins=maybe"}, {"centre-ban=2"},
		// The regional options' refused combinations.
		{"placing-captures=mark", "move-while-placing=yes"}, {"placing-captures=counted", "move-while-placing=yes"},
		{"placing-captures=counted-each", "move-while-placing=yes"}, {"second-moves-first=yes", "move-while-placing=yes"},
		{"second-moves-first=yes", "placing-captures=hand"}, {"second-moves-first=yes", "placing-captures=deferred"},
		{"blocked=removes", "gridlock=draw"}, {"mill-wins=yes", "placing-captures=hand"}, {"mill-wins=yes", "placing-captures=mark"},
		{"placing-captures=marks"}, {"full-board=first"}, {"blocked=remove"}, {"second-moves-first=maybe"},
	} {
		if r, err := NewRules("nine-mens-morris", bad...); err == nil {
			t.Errorf("%v: got %v, want an error", bad, r)
		}
	}
	for _, good := range [][]string{
		{"board=standard9", "pieces=3", "centre-ban=yes"}, {"board=cross17", "pieces=7", "centre-ban=yes"},
		{"mill-wins=yes"}, {"mill-wins=yes", "move-while-placing=yes"}, {"board=diagonal9", "pieces=4", "diagonal-mills=yes", "mill-wins=yes"},
		{"placing-captures=hand", "move-while-placing=yes"}, {"placing-captures=mark", "second-moves-first=yes"},
		{"placing-captures=counted", "full-board=removals", "blocked=removes"}, {"full-board=first-loses", "second-moves-first=yes"},
	} {
		if _, err := NewRules("nine-mens-morris", good...); err != nil {
			t.Errorf("%v: %v", good, err)
		}
	}
	r, err := NewRules("twelve-mens-morris", "board=standard24", "diagonal-mills=no", "pieces=9")
	if err != nil || r.Options().Pieces != 9 || r.Variant() != "twelve-mens-morris" {
		t.Errorf("a custom game from a preset: %v, %v", r, err)
	}
	if got := r.String(); got != "twelve-mens-morris,board=standard24,pieces=9,diagonal-mills=no" {
		t.Errorf("the rules remember the preset and the overrides: got %s", got)
	}
}
