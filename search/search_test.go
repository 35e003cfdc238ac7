package search

import (
	"context"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
)

func searchPos(t *testing.T, text string, lim Limits) Result {
	t.Helper()
	p, err := mill.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	e := New(Options{HashMB: 16})
	return e.Search(context.Background(), []mill.Position{p}, lim, nil)
}

func TestMates(t *testing.T) {
	for _, tc := range []struct {
		name, pos string
		depth     int
		best      string // "" if any winning move will do
		plies     int    // plies to the end, for the side to move; negative: lost
	}{
		// White closes a1-d1-g1 taking a black piece: black is left with 2.
		{"material in 1", "nine-mens-morris W1W4B/1W3B1B/8 w 0,0 - 0 40", 3, "d2-d1xa4", 1},
		// Black's a1 d1 g1 d3 have one way out, d2: f2-d2 shuts it and black is blocked.
		{"blocked in 1", "", 3, "f2-d2", 1},
	} {
		if tc.pos == "" {
			tc.pos = blockedInOne
		}
		t.Run(tc.name, func(t *testing.T) {
			res := searchPos(t, tc.pos, Limits{Depth: tc.depth})
			p := mill.MustParsePosition(tc.pos)
			if tc.best != "" && p.MoveText(res.Move) != tc.best {
				t.Errorf("got %s (%s), want %s", p.MoveText(res.Move), ScoreText(res.Score), tc.best)
			}
			if tc.plies > 0 && (!IsMate(res.Score) || res.Score < 0 || MatePlies(res.Score) != tc.plies) {
				t.Errorf("got score %s, want a win in %d plies", ScoreText(res.Score), tc.plies)
			}
		})
	}
}

func TestDeadline(t *testing.T) {
	p := mill.MustRules("nine-mens-morris").Start()
	e := New(Options{HashMB: 16, Threads: 2})
	start := time.Now()
	res := e.Search(context.Background(), []mill.Position{p}, Limits{MoveTime: 200 * time.Millisecond}, nil)
	if el := time.Since(start); el > 400*time.Millisecond {
		t.Errorf("movetime 200ms took %v", el)
	}
	if !p.Legal(res.Move) {
		t.Errorf("illegal best move %v", res.Move)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	res = e.Search(ctx, []mill.Position{p}, Limits{Infinite: true}, nil)
	if !p.Legal(res.Move) {
		t.Errorf("infinite: illegal best move %v", res.Move)
	}
}

func TestPackMove(t *testing.T) {
	for _, text := range []string{"nine-mens-morris W1W4B/1W3B1B/8 w 0,0 - 0 40", "shah WWBBBBBW/WWWWWBBB/WBWWBWBB b 0,0 xb 0 24",
		"morabaraba BBBBB1W1/WW1BWB1B/WB1B1B1W w 0,0 - 0 40", "twelve-mens-morris-large 1B3WW1/3B2BB/4BBB1/W4B1B w 0,0 - 0 80"} {
		p := mill.MustParsePosition(text)
		for _, m := range p.Moves(nil) {
			if got := unpackMove(packMove(m)); got != m {
				t.Errorf("%s: packed %s unpacks to %s", text, p.MoveText(m), p.MoveText(got))
			}
		}
	}
	if got := unpackMove(packMove(mill.Pass)); got != mill.Pass {
		t.Errorf("pass: got %v", got)
	}
}

// blockedInOne: white a4 g4 c3 e3 f2, black a1 d1 g1 d3, white to move.
var blockedInOne = func() string {
	r := mill.MustRules("nine-mens-morris")
	b := r.Board()
	set := func(names ...string) mill.Points {
		var s mill.Points
		for _, n := range names {
			p, _ := b.PointByName(n)
			s |= 1 << p
		}
		return s
	}
	p, err := r.SetUp(set("a4", "g4", "c3", "e3", "f2"), set("a1", "d1", "g1", "d3"), mill.White, 0, 0)
	if err != nil {
		panic(err)
	}
	return p.String()
}()

// TestProved: a forced end and every value of the databases prove a win or
// a loss; an evaluation, however large, proves nothing.
func TestProved(t *testing.T) {
	for _, c := range []struct {
		s, want int
	}{
		{0, 0}, {3000, 0}, {-3000, 0},
		{Mate - 1, 1}, {-(Mate - 4), -1},
		{TBWin - 120, 1}, {-(TBWin - 120), -1},
		{TBProgress + tbProgressSpan, 1}, {TBProgress - tbProgressSpan, 1}, {-(TBProgress - tbProgressSpan), -1},
	} {
		if got := Proved(c.s); got != c.want {
			t.Errorf("Proved(%d) = %d, want %d", c.s, got, c.want)
		}
	}
}
