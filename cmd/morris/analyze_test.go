package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/review"
	"github.com/morrisgame/morris/search"
)

// analyze runs cmdAnalyze with one thread and a small table: repeatable.
func analyze(args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	err = cmdAnalyze(context.Background(), append([]string{"-threads", "1", "-hash", "8"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

func TestAnalyze(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"analyze-position", []string{"-depth", "5", "-moves", "d6 d5 b4 f4", "-tablebases", "none"}}, // the search alone
		{"analyze-opening", []string{"-depth", "5", "-moves", "d6 d5 b4 f4"}},                         // the built-in opening file's value
		{"analyze-mate", []string{"-depth", "4", "-position", "nine-mens-morris W1W4B/1W3B1B/8 w 0,0 - 0 40"}},
		{"analyze-shah", []string{"-depth", "4", "-position", "shah WWBBBBBW/WWWWWBBB/WBWWBWBB b 0,0 xb 0 24"}},
		{"analyze-over", []string{"-depth", "4", "-position", "nine-mens-morris W7/1W2B2B/8 b 0,0 - 0 40"}},
		{"analyze-record", []string{"-depth", "3", "-record", "../../record/testdata/multi.golden", "-game", "2"}},
		{"analyze-records", []string{"-depth", "2", "-record", "../../record/testdata/position.golden"}},
		{"analyze-sanmill", []string{"-depth", "2", "-record", "testdata/sanmill.pgn"}}, // a record as Sanmill writes one
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, err := analyze(tc.args...)
			if err != nil {
				t.Fatalf("%v: %s", err, errs)
			}
			checkGolden(t, tc.name, out)
			again, _, _ := analyze(tc.args...)
			if again != out {
				t.Errorf("a second run differs: got\n%s\nthe first\n%s", again, out)
			}
		})
	}
}

func TestAnalyzeVerbose(t *testing.T) {
	out, _, err := analyze("-v", "-depth", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  depth 1 seldepth ", "  depth 3 seldepth ", "\nbest move: "} {
		if !strings.Contains(out, want) {
			t.Errorf("-v: the output lacks %q:\n%s", want, out)
		}
	}
	// -record from standard input, with the default movetime cut short by
	// a depth: every move gets a line.
	var b, errb bytes.Buffer
	pgn := "[Variant \"nine-mens-morris\"]\n\n1. d6 d5 2. b4 *\n"
	if err := cmdAnalyze(context.Background(), []string{"-depth", "2", "-hash", "1", "-record", "-"}, strings.NewReader(pgn), &b, &errb); err != nil {
		t.Fatalf("-record -: %v", err)
	}
	if n := strings.Count(b.String(), "\n"); n != 2+3+2 {
		t.Errorf("-record -: got %d lines, want a title, a header, 3 moves and a summary a side:\n%s", n, b.String())
	}
}

func TestAnalyzeBad(t *testing.T) {
	for _, args := range [][]string{
		{"-depth", "3", "-movetime", "10"},
		{"-depth", "-1"},
		{"-depth", "101"},
		{"-movetime", "-5"},
		{"-game", "1"},
		{"-record", "x.pgn", "-game", "0"},
		{"-record", "../../record/testdata/multi.golden", "-variant", "shah"},
		{"-record", "../../record/testdata/multi.golden", "-game", "99", "-depth", "1"},
		{"-record", "testdata/no-such-file.pgn"},
		{"-variant", "checkers"},
		{"-moves", "d6 d6"},
		{"-hash", "0"},
		{"extra"},
	} {
		_, _, err := analyze(args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: got %v, want a usage error", args, err)
		}
	}
	// A record with an illegal move: the moves before it are analyzed,
	// then the error, and exit code 1.
	out, _, err := analyze("-depth", "1", "-record", "testdata/bad.pgn")
	var ue usageError
	if err == nil || errors.As(err, &ue) || !strings.Contains(out, "illegal") {
		t.Errorf("a bad record: got %v and\n%s\nwant an error that is not a usage error", err, out)
	}
}

// TestAnalyzeSameSide: -record judges a move after which the same side moves
// again by the score of the position it leads to as it is, not negated. In
// el filja white owes two removals; xb6 and xc3 both win in 6 plies, with
// white's fourth move (two removals, then a slide and the winning mill).
func TestAnalyzeSameSide(t *testing.T) {
	pgn := "[Variant \"el-filja\"]\n[Position \"el-filja 8/3BWWBW/BB3BWW w 0,0 xw2,xb 0 40\"]\n\n21. xb6 *\n"
	var b, errb bytes.Buffer
	if err := cmdAnalyze(context.Background(), []string{"-depth", "7", "-threads", "1", "-hash", "8", "-record", "-"}, strings.NewReader(pgn), &b, &errb); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if !strings.Contains(b.String(), "mate 4    mate 4") || !strings.Contains(b.String(), "0 blunders (??)") {
		t.Errorf("xb6 scores as the win it is (mate 4, no blunder): got\n%s", b.String())
	}
	for _, tc := range []struct {
		s    int
		same bool
		want int
	}{
		{35, false, -35},
		{35, true, 35},
		{search.Mate - 5, false, -(search.Mate - 6)},
		{search.Mate - 5, true, search.Mate - 6},
		{-(search.Mate - 4), false, search.Mate - 5},
		{-(search.Mate - 4), true, -(search.Mate - 5)},
	} {
		if got := review.ParentScore(tc.s, tc.same); got != tc.want {
			t.Errorf("review.ParentScore(%d, %v) = %d, want %d", tc.s, tc.same, got, tc.want)
		}
	}
}

// TestAnalyzeCompactWin: a 3v3 win analyzed with a compact file (W/D/L,
// no distances) prints the score as a win the databases prove, not the
// number that ranks such wins above every evaluation.
func TestAnalyzeCompactWin(t *testing.T) {
	dir := t.TempDir()
	r := mill.MustRules("nine-mens-morris")
	if _, err := (egdb.Builder{Rules: r, Dir: dir, Keys: []egdb.Key{{White: 3, Black: 3}}}).Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	compact := filepath.Join(t.TempDir(), "3v3.wdl")
	if err := egdb.WriteCompact(db, compact, nil); err != nil {
		t.Fatal(err)
	}
	// Won for white in more plies than a 2-ply search sees.
	var won mill.Position
	for i := 0; i < 24 && won == (mill.Position{}); i++ {
		for j := 0; j < 24; j++ {
			w := mill.Points(1)<<i | mill.Points(1)<<((i+5)%24) | mill.Points(1)<<((i+11)%24)
			b := mill.Points(1)<<j | mill.Points(1)<<((j+7)%24) | mill.Points(1)<<((j+13)%24)
			if w&b != 0 {
				continue
			}
			p, err := r.SetUp(w, b, mill.White, 0, 0)
			if err != nil {
				continue
			}
			if v, ok := db.Value(p); ok && v.Result == egdb.Win && v.Plies >= 7 {
				won = p
				break
			}
		}
	}
	if won == (mill.Position{}) {
		t.Fatal("no 3v3 win of 7 plies or more found")
	}
	out, errs, err := analyze("-depth", "2", "-position", won.String(), "-tablebases", compact)
	if err != nil {
		t.Fatalf("%v: %s", err, errs)
	}
	if !strings.Contains(out, "score:     won (the databases) for white") || strings.Contains(out, "cp ") {
		t.Errorf("%s with a compact file: got\n%s\nwant the score as a win the databases prove", won, out)
	}
}
