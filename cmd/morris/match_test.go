package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/internal/engine/match"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// TestMatchCommand checks morris match.
// has no test file of its own yet).
func TestMatchCommand(t *testing.T) {
	dir := t.TempDir()
	records := filepath.Join(dir, "games.pgn")
	openings := filepath.Join(dir, "openings.txt")
	if err := os.WriteFile(openings, []byte("# two openings\nd6 d5\nnine-mens-morris W2B4/8/8 b 8,8 - 0 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	err := cmdMatch(context.Background(), []string{"-a", "greedy", "-b", "random", "-games", "3", "-openings-file", openings,
		"-records", records, "-concurrency", "2"}, strings.NewReader(""), &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.HasPrefix(out.String(), "greedy vs random: +") || !strings.Contains(out.String(), "score ") {
		t.Errorf("got %q, want the result line", out.String())
	}
	if !strings.Contains(errb.String(), "game 6/6: random - greedy") {
		t.Errorf("got progress\n%s\nwant a line per game", errb.String())
	}
	f, err := os.Open(records)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := record.NewScanner(f)
	n := 0
	for sc.Scan() {
		rec := sc.Record()
		if _, err := rec.Game(); err != nil {
			t.Errorf("record %d: %v", n+1, err)
		}
		// Pairs cycle through the openings: 1, 2, 1.
		if n/2 == 1 && rec.Tag("Position") == "" || n/2 != 1 && (len(rec.Moves) < 2 || rec.Moves[0].Text != "d6") {
			t.Errorf("record %d: Position %q, moves %v: the wrong opening", n+1, rec.Tag("Position"), rec.Moves)
		}
		n++
	}
	if n != 6 || sc.Err() != nil {
		t.Errorf("read %d records (%v), want 6", n, sc.Err())
	}

	for _, args := range [][]string{
		{"-a", "greedy"},
		{"-a", "greedy", "-b", "level:12"},
		{"-a", "greedy", "-b", "random", "-games", "0"},
		{"-a", "greedy", "-b", "random", "-openings", "3", "-openings-file", openings},
		{"-a", "greedy", "-b", "random", "-openings-file", filepath.Join(dir, "none.txt")},
		{"-a", "greedy", "-b", "random", "-variant", "lasker", "-openings-file", openings},
	} {
		err := cmdMatch(context.Background(), args, strings.NewReader(""), &out, &errb)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
}

// TestMatchSPRT plays real matches under -sprt with a high -games: a strong
// player against a weak one must stop at H1 long before the maximum (and the
// weak one against the strong, at H0).
func TestMatchSPRT(t *testing.T) {
	verdict := regexp.MustCompile(`(?m)^SPRT \[(-?\d+), (-?\d+)\]: (H[01]) accepted \(LLR (-?[\d.]+) [≥≤] (-?[\d.]+)\) after (\d+) games$`)
	for _, tc := range []struct {
		name string
		args []string
		want string // the hypothesis accepted
	}{
		{"greedy vs random", []string{"-a", "greedy", "-b", "random", "-sprt", "0,50"}, "H1"},
		{"level 3 vs random", []string{"-a", "level:3,depth=2", "-b", "random", "-sprt", "0,50", "-alpha", "0.01", "-beta", "0.1"}, "H1"},
		{"random vs level 3", []string{"-a", "random", "-b", "level:3,depth=2", "-sprt", "-50,0"}, "H0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const most = 1000 // pairs
			var out, errb bytes.Buffer
			args := append(tc.args, "-games", strconv.Itoa(most), "-concurrency", "2")
			if err := cmdMatch(context.Background(), args, strings.NewReader(""), &out, &errb); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, errb.String())
			}
			m := verdict.FindStringSubmatch(out.String())
			if m == nil {
				t.Fatalf("%v: got\n%s\nwant a verdict line", args, out.String())
			}
			games, _ := strconv.Atoi(m[6])
			if m[3] != tc.want || games >= 2*most || games%2 != 0 {
				t.Errorf("%v: got %s after %d games, want %s accepted long before %d", args, m[0], games, tc.want, 2*most)
			}
			// The progress lines stop where the test did and show the LLR.
			lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
			last := "game " + m[6] + "/" + strconv.Itoa(2*most) + ": "
			if len(lines) != games+1 || !strings.HasPrefix(lines[games-1], last) || !strings.Contains(lines[games-1], "; LLR "+m[4]+" [") {
				t.Errorf("got %d progress lines ending\n%s\nwant %d, the last game's starting %q with LLR %s",
					len(lines), strings.Join(lines[max(0, len(lines)-3):], "\n"), games+1, last, m[4])
			}
			if !strings.Contains(out.String(), "pairs scoring 0, 0.5, 1, 1.5, 2: ") {
				t.Errorf("got\n%s\nwant the pentanomial counts", out.String())
			}
			t.Logf("%s", m[0])
		})
	}

	// Without a verdict the match plays all its games and says so.
	var out, errb bytes.Buffer
	if err := cmdMatch(context.Background(), []string{"-a", "greedy", "-b", "random", "-games", "3", "-sprt", "0,10", "-q"}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatal(err)
	}
	if want := "SPRT [0, 10]: no verdict (LLR 0.09 in [-2.94, 2.94]) after 6 games\n"; !strings.Contains(out.String(), want) {
		t.Errorf("got\n%s\nwant %q", out.String(), want)
	}
}

func TestMatchSPRTFlags(t *testing.T) {
	for _, tc := range []struct {
		flags []string
		err   string
	}{
		{[]string{"-sprt", "5"}, "-sprt 5: want two Elo differences"},
		{[]string{"-sprt", "a,b"}, "-sprt a,b: want two Elo differences"},
		{[]string{"-sprt", "0,10,20"}, "want two Elo differences"},
		{[]string{"-sprt", "0,"}, "want two Elo differences"},
		{[]string{"-sprt", "10,0"}, "want elo0 below elo1"},
		{[]string{"-sprt", "5,5"}, "want elo0 below elo1"},
		{[]string{"-sprt", "0,10", "-alpha", "0"}, "alpha 0, beta 0.05: want each above 0 and below 1"},
		{[]string{"-sprt", "0,10", "-alpha", "1.5"}, "alpha 1.5, beta 0.05: want each above 0 and below 1"},
		{[]string{"-sprt", "0,10", "-beta", "-0.1"}, "want each above 0 and below 1"},
		{[]string{"-sprt", "0,10", "-alpha", "0.5", "-beta", "0.5"}, "alpha+beta below 1"},
		{[]string{"-sprt", "0,10", "-beta", "x"}, "invalid value"},
		{[]string{"-alpha", "0.1"}, "-alpha and -beta are for -sprt"},
	} {
		records := filepath.Join(t.TempDir(), "games.pgn")
		args := append([]string{"-a", "greedy", "-b", "random", "-records", records}, tc.flags...)
		out, errs, code := runCLI(append([]string{"match"}, args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.err) {
			t.Errorf("%v: got exit %d, stderr %q, want exit %d and %q", tc.flags, code, errs, exitUsage, tc.err)
		}
		// Nothing was played: no result, no progress, no records file.
		if _, err := os.Stat(records); out != "" || strings.Contains(errs, "game 1/") || !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v: got stdout %q, a records file (%v), progress in %q: want nothing played", tc.flags, out, err, errs)
		}
	}
}

// TestMatchAdjudicate: with -adjudicate, a game ends as soon as the
// databases prove its position won or lost: here those of the whole game of
// three men on the nine men's board, which hold every position after the
// openings, so each game ends with the databases' verdict on the position
// its opening leaves, in the record too.
func TestMatchAdjudicate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds endgame databases")
	}
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	db, dir := egdbtest.Build(t, r, egdb.StartKey(r))
	records := filepath.Join(t.TempDir(), "games.pgn")
	var out, errb bytes.Buffer
	// A reads the same databases: one open, shared with the adjudicator.
	err := cmdMatch(context.Background(), []string{"-a", "level:10,depth=2,tablebases=" + dir, "-b", "greedy", "-variant", "nine-mens-morris,pieces=3", "-games", "4",
		"-opening-plies", "2", "-adjudicate", dir, "-records", records}, strings.NewReader(""), &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "games ended by the databases' verdict: ") {
		t.Errorf("got %q, want the count of verdicts", out.String())
	}
	f, err := os.Open(records)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := record.NewScanner(f)
	n, verdicts := 0, 0
	for sc.Scan() {
		n++
		g, err := sc.Record().Game()
		if err != nil {
			t.Fatal(err)
		}
		ps := g.Positions()
		last := ps[len(ps)-1]
		o, _, ok := db.Verdict(last)
		switch {
		case ok:
			verdicts++
			if g.Outcome() != o || !strings.Contains(sc.Record().Comment, "adjudicated: the databases: ") {
				t.Errorf("game %d: %s, comment %q; the databases say %s", n, g.Outcome(), sc.Record().Comment, o)
			}
			// No earlier position of the game after its opening had a verdict.
			for _, p := range ps[2 : len(ps)-1] {
				if _, _, ok := db.Verdict(p); ok {
					t.Errorf("game %d: played on past %s, which the databases decide", n, p)
				}
			}
		case strings.Contains(sc.Record().Comment, "adjudicated"):
			t.Errorf("game %d: adjudicated (%q) in a position without a verdict", n, sc.Record().Comment)
		}
	}
	if n != 8 || verdicts == 0 {
		t.Errorf("%d records, %d ended by a verdict; want 8, some of them", n, verdicts)
	}

	// -drawn-openings: every opening ends in a position the databases call
	// drawn, and stderr says how many were refused.
	records = filepath.Join(t.TempDir(), "drawn.pgn")
	out.Reset()
	errb.Reset()
	err = cmdMatch(context.Background(), []string{"-a", "greedy", "-b", "greedy", "-variant", "nine-mens-morris,pieces=3", "-games", "6",
		"-opening-plies", "3", "-drawn-openings", dir, "-records", records}, strings.NewReader(""), &out, &errb)
	if err != nil {
		t.Fatalf("-drawn-openings: %v\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "openings: 6 drawn by the databases, ") || strings.Contains(errb.String(), ", 0 refused") {
		t.Errorf("-drawn-openings: stderr %q, want 6 openings drawn and some refused", errb.String())
	}
	games := readRecords(t, records)
	if len(games) != 12 {
		t.Fatalf("-drawn-openings: %d records, want 12", len(games))
	}
	for i, g := range games {
		p := g.Positions()[3]
		if v, ok := db.Value(p); !ok || v.Result != egdb.Draw {
			t.Errorf("-drawn-openings: game %d's opening ends in %s, %v (held %v); want a draw", i+1, p, v, ok)
		}
	}
	// Databases that hold no position after the opening: a clear error.
	_, moving := egdbtest.Build(t, r)
	for _, flags := range [][]string{
		{"-drawn-openings", moving},
		{"-drawn-openings", filepath.Join(dir, "none")},
		{"-drawn-openings", dir, "-openings-file", records},
	} {
		args := append([]string{"-a", "random", "-b", "greedy", "-variant", "nine-mens-morris,pieces=3"}, flags...)
		err := cmdMatch(context.Background(), args, strings.NewReader(""), &out, &errb)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", flags, err)
		}
	}

	_, other := egdbtest.Build(t, mill.MustRules("twelve-mens-morris-small"))
	for _, d := range []string{filepath.Join(dir, "none"), other} {
		err := cmdMatch(context.Background(), []string{"-a", "random", "-b", "greedy", "-adjudicate", d}, strings.NewReader(""), &out, &errb)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("-adjudicate %s: got %v, want a usage error", d, err)
		}
	}
}

// TestMatchResume stops a match (here: its records cut after two games, and
// after two and a half) and goes on with -resume: the file ends as that of
// the match played at once, and a file that is not this match's, or does
// not read, is refused and left as it was.
func TestMatchResume(t *testing.T) {
	dir := t.TempDir()
	args := func(records string, more ...string) []string {
		return append([]string{"-a", "random", "-b", "greedy", "-games", "3", "-openings", "2", "-seed", "5",
			"-max-plies", "40", "-records", records}, more...)
	}
	noDate := regexp.MustCompile(`(?m)^\[Date .*\n`)
	whole := filepath.Join(dir, "whole.pgn")
	var out, errb bytes.Buffer
	if err := cmdMatch(context.Background(), args(whole), strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	wantOut := out.String()
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	starts := regexp.MustCompile(`(?m)^\[Event `).FindAllIndex(data, -1)
	if len(starts) != 6 {
		t.Fatalf("got %d records, want 6", len(starts))
	}

	// A stopped run leaves its file after a record's last line; the cuts
	// also try it with the blank line after that and without the last
	// newline.
	for i, c := range []struct{ games, trim int }{{0, 0}, {2, 0}, {2, 1}, {2, 2}, {6, 0}} {
		cut := c.games
		part := filepath.Join(dir, "part"+strconv.Itoa(i)+".pgn")
		end := len(data)
		if cut < 6 {
			end = starts[cut][0]
		}
		end -= c.trim
		if err := os.WriteFile(part, data[:end], 0o644); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		errb.Reset()
		if err := cmdMatch(context.Background(), args(part, "-resume"), strings.NewReader(""), &out, &errb); err != nil {
			t.Fatalf("resumed after %d games: %v\n%s", cut, err, errb.String())
		}
		got, err := os.ReadFile(part)
		if err != nil {
			t.Fatal(err)
		}
		if noDate.ReplaceAllString(string(got), "") != noDate.ReplaceAllString(string(data), "") {
			t.Errorf("resumed after %d games, the records are\n%s\nwant\n%s", cut, got, data)
		}
		if out.String() != wantOut {
			t.Errorf("resumed after %d games: got %q, want %q", cut, out.String(), wantOut)
		}
		if want := "resuming after " + strconv.Itoa(cut) + " of 6 games"; !strings.Contains(errb.String(), want) {
			t.Errorf("resumed after %d games: stderr\n%s\nwant %q", cut, errb.String(), want)
		}
	}
	fresh := filepath.Join(dir, "fresh.pgn") // no file yet: the whole match
	if err := cmdMatch(context.Background(), args(fresh, "-resume"), strings.NewReader(""), &out, &errb); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(fresh); noDate.ReplaceAllString(string(got), "") != noDate.ReplaceAllString(string(data), "") {
		t.Errorf("-resume without a file: got\n%s\nwant the whole match", got)
	}

	half := filepath.Join(dir, "half.pgn")
	halfData := data[:starts[2][0]+(starts[3][0]-starts[2][0])/2]
	if err := os.WriteFile(half, halfData, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, a := range [][]string{
		args(half, "-resume"),                          // a record cut short
		append(args(whole, "-resume"), "-seed", "6"),   // other openings
		append(args(whole, "-resume"), "-b", "random"), // another player
		append(args(whole, "-resume"), "-games", "2"),  // fewer games than recorded
		{"-a", "random", "-b", "greedy", "-resume"},    // no file
	} {
		before, _ := os.ReadFile(a[len(a)-1])
		err := cmdMatch(context.Background(), a, strings.NewReader(""), &out, &errb)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", a, err)
		}
		if after, _ := os.ReadFile(a[len(a)-1]); !bytes.Equal(before, after) {
			t.Errorf("%v: the file changed", a)
		}
	}
}

// readRecords reads the games of a records file.
func readRecords(t *testing.T, path string) []*mill.Game {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []*mill.Game
	sc := record.NewScanner(f)
	for sc.Scan() {
		g, err := sc.Record().Game()
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return games
}

// TestMatchClaimedDraw: an external engine (a shell script) that answers
// "bestmove (none)" to every go claims each game drawn in a live position:
// the summary counts the draws as claimed, not as the engine's losses, and
// a match resumed from half its records prints the same summary.
func TestMatchClaimedDraw(t *testing.T) {
	dir := t.TempDir()
	engine := filepath.Join(dir, "claims.sh")
	script := `#!/bin/sh
while read -r cmd rest; do
	case "$cmd" in
	uci) echo "id name claims"; echo uciok ;;
	isready) echo readyok ;;
	go) echo "bestmove (none)" ;;
	quit) exit 0 ;;
	esac
done
`
	if err := os.WriteFile(engine, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	records := filepath.Join(dir, "games.pgn")
	args := []string{"-a", "greedy", "-b", "cmd:" + engine, "-games", "2", "-records", records}
	var out, errb bytes.Buffer
	if err := cmdMatch(context.Background(), args, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	want := out.String()
	for _, w := range []string{": +0 =4 -0 (claimed draws 4), score 50.0%", "claimed draws (no move where our rules play on), scored as draws: 4", "answered no move at ply"} {
		if !strings.Contains(want, w) {
			t.Errorf("got\n%s\nwant %q in it", want, w)
		}
	}
	if strings.Contains(want, "games lost by") {
		t.Errorf("got\n%s\nwant no games lost by a fault", want)
	}
	data, err := os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), "claimed draw: "); got != 4 {
		t.Errorf("got %d records saying a claimed draw, want 4:\n%s", got, data)
	}
	starts := regexp.MustCompile(`(?m)^\[Event `).FindAllIndex(data, -1)
	if len(starts) != 4 {
		t.Fatalf("got %d records, want 4", len(starts))
	}
	if err := os.WriteFile(records, data[:starts[2][0]], 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := cmdMatch(context.Background(), append(args, "-resume"), strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("resumed: %v\n%s", err, errb.String())
	}
	if out.String() != want {
		t.Errorf("resumed: got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestMatchPerfect: -b perfect:DIR plays from the databases of the whole
// game (a white win in 23 plies for three men a side, whichever side the
// perfect player takes); databases that lack a sector of the game, or are of
// other rules, are refused with exit code 2 and what to build, before any
// game is played.
func TestMatchPerfect(t *testing.T) {
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	_, dir := egdbtest.Build(t, r, egdb.StartKey(r))
	_, partial := egdbtest.Build(t, r) // 3v3 only
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"match", "-a", "perfect:" + dir, "-b", "level:1", "-variant", "nine-mens-morris,pieces=3",
		"-games", "1", "-opening-plies", "0", "-q"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "perfect:") {
		t.Errorf("got %q, want the result of the perfect player", out.String())
	}
	// The whole game's compact file plays as its directory does, given its
	// distances; without them it is refused. match-errors and -adjudicate
	// read it too.
	db, err := egdb.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	file := filepath.Join(t.TempDir(), "game.wdl")
	bare := filepath.Join(t.TempDir(), "bare.wdl")
	for _, f := range []string{file, bare} {
		if err := egdb.WriteCompact(db, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := egdb.WriteDistances(db, egdb.DistancesPath(file), nil); err != nil {
		t.Fatal(err)
	}
	records := filepath.Join(t.TempDir(), "perfect.pgn")
	for _, spec := range []string{dir, file} {
		out.Reset()
		errb.Reset()
		os.Remove(records)
		if code := run(context.Background(), []string{"match", "-a", "perfect:" + spec, "-b", "level:1", "-variant", "nine-mens-morris,pieces=3",
			"-games", "2", "-opening-plies", "0", "-adjudicate", spec, "-records", records, "-q"}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("perfect:%s: exit %d: %s", spec, code, errb.String())
		}
	}
	var tallies [2]bytes.Buffer
	for i, spec := range []string{dir, bare} {
		if code := run(context.Background(), []string{"match-errors", "-tablebases", spec, records}, strings.NewReader(""), &tallies[i], &errb); code != 0 {
			t.Fatalf("match-errors -tablebases %s: exit %d: %s", spec, code, errb.String())
		}
	}
	if tallies[0].String() != tallies[1].String() {
		t.Errorf("match-errors from the directory:\n%s\nfrom the compact file:\n%s", tallies[0].String(), tallies[1].String())
	}
	for _, tc := range []struct{ variant, dir, want string }{
		{"nine-mens-morris,pieces=3", bare, "-distances"},
		{"nine-mens-morris,pieces=3", partial, "the databases lack"},
		{"nine-mens-morris,pieces=4", dir, "the databases lack"},
		{"nine-mens-morris,pieces=3,flying=never", dir, "the databases are of"},
		{"nine-mens-morris,pieces=3", filepath.Join(dir, "none"), "no databases"},
	} {
		out.Reset()
		errb.Reset()
		code := run(context.Background(), []string{"match", "-a", "random", "-b", "perfect:" + tc.dir, "-variant", tc.variant}, strings.NewReader(""), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tc.want) || out.Len() > 0 {
			t.Errorf("%s, %s: got exit %d, %q, output %q; want exit 2, %q and no game", tc.variant, tc.dir, code, errb.String(), out.String(), tc.want)
		}
	}
}

// TestMatchBalancedOpenings: -balanced-openings keeps the random openings
// a search judges as even as the start, says how many it refused, draws
// the same ones again on -resume, and refuses bad margins and depths.
func TestMatchBalancedOpenings(t *testing.T) {
	records := filepath.Join(t.TempDir(), "balanced.pgn")
	args := []string{"-a", "random", "-b", "greedy", "-variant", "twelve-mens-morris-small", "-games", "4",
		"-balanced-openings", "50", "-balance-depth", "4", "-seed", "7", "-records", records}
	var out, errb bytes.Buffer
	if err := cmdMatch(context.Background(), args, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "openings: 4 within 50 of the start's score ") || strings.Contains(errb.String(), ", 0 refused") {
		t.Errorf("stderr %q, want 4 openings within 50 and some refused", errb.String())
	}
	r := mill.MustRules("twelve-mens-morris-small")
	b := match.NewBalance(r, 4, 50)
	games := readRecords(t, records)
	if len(games) != 8 {
		t.Fatalf("%d records, want 8", len(games))
	}
	for i, g := range games {
		p := g.Positions()[4]
		if d := b.Score(p) - b.Start(); d < -50 || d > 50 {
			t.Errorf("game %d: its opening ends %+d from the start's score, want within 50", i+1, d)
		}
	}
	// The same line with -resume finds every game played.
	errb.Reset()
	if err := cmdMatch(context.Background(), append(args, "-resume"), strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("-resume: %v\n%s", err, errb.String())
	}
	if n := len(readRecords(t, records)); n != 8 {
		t.Errorf("-resume: %d records, want the same 8", n)
	}
	for _, flags := range [][]string{
		{"-balanced-openings", "-1"},
		{"-balanced-openings", "50", "-balance-depth", "0"},
		{"-balanced-openings", "50", "-balance-depth", "41"},
		{"-balanced-openings", "50", "-openings-file", records},
	} {
		args := append([]string{"-a", "random", "-b", "greedy"}, flags...)
		err := cmdMatch(context.Background(), args, strings.NewReader(""), &out, &errb)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", flags, err)
		}
	}
}
