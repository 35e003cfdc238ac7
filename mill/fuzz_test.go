package mill

import (
	"errors"
	"testing"
)

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"d6", "d6-d5", "a4-a7xd2", "d3xg1", "d3xg1xf4", "xd2", "pass", "PASS",
		"D2", "D2-F2", "D3,G1", "A7-D7,B2", "X,D2", ",d2", "i9-e9xa1", "", "-", "d6-", "d6xx", "z9", "a10"} {
		for b := range boards {
			f.Add(b, s)
		}
	}
	f.Fuzz(func(t *testing.T, board int, s string) {
		b := boards[uint(board)%uint(len(boards))]
		m, err := b.ParseMove(s)
		if _, rerr := b.Rewrite(s, Standard); (rerr == nil) != (err == nil) {
			t.Fatalf("%q: ParseMove says %v, Rewrite %v", s, err, rerr)
		}
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q: error %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		for _, d := range []Dialect{Standard, Pbm} {
			for _, text := range []string{b.MoveText(m, d), must(b.Rewrite(s, d))} {
				m2, err := b.ParseMove(text)
				if err != nil || m2 != m {
					t.Fatalf("%q written as %q parses to %v, %v; want %v", s, text, m2, err, m)
				}
			}
		}
	})
}

// must returns v, or panics on err: for values the test has already checked.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		"nine-mens-morris 8/8/8 w 9,9 - 0 0",
		"nine-mens-morris W2B4/8/8 b 8,8 - 0 2",
		"shah BWB1WBWW/BBBB2BW/WWWBB1WW w 2,2 mw 0 20",
		"shah W1WB3B/1B3B1B/7B b 0,0 xb 0 24",
		"shah WWWB3B/1B3B2/8 b 0,0 pass 1 41",
		"twelve-man-morris WWB4B/1WWW1B1B/BB3BBB w 0,0 bw=a1-b2 0 40",
		"russian-mill B1B1BW1W/WWBBBW1W/B2B3W w 0,0 uw=8000,ub=2020 1 20",
		"twelve-mens-morris-large 1B3WW1/3B2BB/4BBB1/W4B1B w 0,0 - 0 80",
		"nine-mens-morris,flying=never,protection=always 8/8/8 w 9,9 - 0 0",
		"nine-mens-morris 9/8/8 w 9,9 - 0 0",
		"three-mens-morris 8/1 w 3,3 - 0 0",
		"three-mens-morris W2BWB1B/W w 0,0 - 4 10",
		"tapatan,centre-ban=yes WBW2WBB/1 w 0,0 - 24 30",
		"three-mens-morris 8/2 w 3,3 - 0 0",
		"six-mens-morris 1W1BW1WB/1BWW1BBB w 0,0 - 18 30",
		"seven-mens-morris BW6/BBBWW1W1/1 w 0,0 - 0 30",
		"seven-mens-morris BW6/BBBWW1W1 w 0,0 - 0 30",
		"dooz WWWB2WB/BBBBWWBB/1WBB1W1W w 0,1 - 0 20",
		"da-san-qi WBWXBBWW/XWWWWWWW/B1BXBXWB b 0,1 - 0 23",
		"da-san-qi WWW1BBX1/7W/5B2 b 0,0 - 0 8",
		"zhi-qi WBWBWBWB/BWBWBWBW/BWBWWBBW w 0,0 xw,xb 0 24",
		"zhi-qi WWWB3B/WWWWB2B/WWWBWBBW w 0,0 - 0 24",
		"el-filja WBWBBBWW/BWBWWWWW/BBBBWWBB w 0,0 xw2,xb2 0 24",
		"el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw,xb,own 0 24",
		"el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw12,own 0 24",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q: error %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		text := p.String()
		q, err := ParsePosition(text)
		if err != nil || q != p {
			t.Fatalf("%q printed as %q parses to %v, %v", s, text, q, err)
		}
		if q.String() != text {
			t.Fatalf("printing is not stable: %q then %q", text, q.String())
		}
		// Whatever parses can be played from without a panic.
		for _, m := range p.Moves(nil) {
			_ = p.Play(m).String()
		}
		_, _ = p.Status()
	})
}

func FuzzParseRules(f *testing.F) {
	for _, s := range []string{"nine-mens-morris", "shah,board=diagonal24", "mill,flying=3,protection=none",
		"lasker,placing-captures=deferred", "twelve-mens-morris,board=standard24", "x", ",", "nine-mens-morris,=",
		"three-mens-morris,centre-ban=yes,flying=3", "tapatan,board=standard9,diagonal-mills=no", "seven-mens-morris,mill-wins=yes",
		"six-mens-morris,centre-ban=yes", "nine-mens-morris,board=standard9", "dooz", "da-san-qi,second-moves-first=no",
		"zhi-qi,gridlock=draw", "el-filja,placing-captures=counted-each", "cheng-san-qi,flying=3", "lasker,placing-captures=mark"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRules(s)
		if err != nil {
			return
		}
		r2, err := ParseRules(r.String())
		if err != nil || r2 != r {
			t.Fatalf("%q printed as %q parses to %v, %v", s, r.String(), r2, err)
		}
		if err := r.Options().Validate(); err != nil {
			t.Fatalf("%q: accepted rules do not validate: %v", s, err)
		}
		_ = Perft(r.Start(), 2)
	})
}
