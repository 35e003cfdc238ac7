package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

func solve(args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	err = cmdSolve(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

// TestSolve builds 3v3 of nine men's morris, then runs again: the sector is
// found on disk and not solved again, and both runs print the same counts
// and write them to summary.txt.
func TestSolve(t *testing.T) {
	dir := t.TempDir()
	// Under -short (and CI's -race -short), rules without flying: fewer
	// moves, a faster build.
	variant, want := "nine-mens-morris", []string{"3v3", "169626", "140621", "269", "28736"}
	if testing.Short() {
		variant, want = "nine-mens-morris,flying=never", nil
	}
	out, errOut, err := solve("-variant", variant, "-sectors", "3v3", "-dir", dir, "-verify", "-threads", "2")
	if err != nil {
		t.Fatalf("first run: %v\n%s", err, errOut)
	}
	row := func(out string) []string {
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 0 && f[0] == "3v3" {
				return f
			}
		}
		t.Fatalf("no 3v3 row in\n%s", out)
		return nil
	}
	first := row(out)
	// The counts of 3v3, checked position by position against a brute-force
	// solve in package egdb.
	if want != nil && strings.Join(first[:5], " ") != strings.Join(want, " ") {
		t.Errorf("3v3 row: got %v, want it to start with %v", first, want)
	}
	if !strings.Contains(errOut, "3v3: solved in") || !strings.Contains(errOut, "verified") {
		t.Errorf("progress: got %q, want a line saying 3v3 was solved and verified", errOut)
	}
	summary, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil || string(summary) != out {
		t.Errorf("summary.txt: got %q (%v), want what was printed:\n%s", summary, err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "3v3.egdb")); err != nil {
		t.Error(err)
	}

	out, errOut, err = solve("-variant", variant, "-sectors", "3v3", "-dir", dir)
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, errOut)
	}
	again := row(out)
	if strings.Join(again[:5], " ") != strings.Join(first[:5], " ") || !strings.Contains(out, "on disk") {
		t.Errorf("second run: got %v, want the same counts, on disk", again)
	}
	if !strings.Contains(errOut, "3v3: already built") {
		t.Errorf("second run: got %q, want 3v3 already built", errOut)
	}
}

// TestSolveGame: -game builds the whole game of three men on the nine men's
// board, from the start (sector 0v0h3-3, one position) down to the moving
// phase (3v3); the start is a win for the first player (egdb's
// TestPlacingAgainstBrute checks every value of it against a minimax).
func TestSolveGame(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a whole game")
	}
	dir := t.TempDir()
	out, errOut, err := solve("-variant", "nine-mens-morris,pieces=3", "-game", "-dir", dir, "-threads", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	start := summaryRow(out, "0v0h3-3")
	if strings.Join(start[:5], " ") != "0v0h3-3 1 1 0 0" || !strings.Contains(out, "\n3v3 ") || !strings.Contains(out, "7 sectors") {
		t.Errorf("got\n%s\nwant 7 sectors, 3v3 among them, and the start (0v0h3-3) one position, won", out)
	}
	checkGameValues(t, out, dir, "nine-mens-morris,pieces=3", "the start is a win in 23 for white")
}

// TestSolveGameWDL: -wdl-placing builds the same game with its placing
// sectors as W/D/L alone (a "-" for their longest win), and
// -check-by-rules checks every position against mill's moves; the start is
// a win of unknown length.
func TestSolveGameWDL(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a whole game")
	}
	dir := t.TempDir()
	out, errOut, err := solve("-variant", "nine-mens-morris,pieces=3", "-game", "-wdl-placing", "-verify", "-check-by-rules", "1", "-dir", dir, "-threads", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	start := summaryRow(out, "0v0h3-3")
	if strings.Join(start[:8], " ") != "0v0h3-3 1 1 0 0 100.00 0.00 -" || !strings.Contains(out, "7 sectors, every value verified") {
		t.Errorf("got\n%s\nwant the start (0v0h3-3) one position, won, with no longest win, and 7 sectors verified", out)
	}
	if !regexp.MustCompile(`checked by the rules: \d+ positions \(one index in 1 of 7 sectors\), every one as its moves give it`).MatchString(out) {
		t.Errorf("got\n%s\nwant the rules' check", out)
	}
	checkGameValues(t, out, dir, "nine-mens-morris,pieces=3", "the start is a win for white")
}

// TestSolveGameProve: -prove proves the start, the first placements and
// the pairs of placements of the game built, with distances and without.
func TestSolveGameProve(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a whole game")
	}
	for _, wdl := range []bool{false, true} {
		args := []string{"-variant", "six-mens-morris,pieces=4", "-game", "-prove", "-dir", t.TempDir(), "-threads", "2"}
		if wdl {
			args = append(args, "-wdl-placing")
		}
		out, errOut, err := solve(args...)
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		re := regexp.MustCompile(`proved from the moving phase, with the rules engine's moves: the start, the first placements and the pairs of placements \((\d+) positions\), each the value above; the proofs went through (\d+) positions`)
		m := re.FindStringSubmatch(out)
		if m == nil || m[1] == "0" || m[2] == "0" {
			t.Errorf("-wdl-placing %v: got\n%s\nwant the proofs' line", wdl, out)
		}
	}
}

// summaryRow returns the fields of the summary's row of sector key in
// morris solve's output out (nil if none).
func summaryRow(out, key string) []string {
	var row []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == key {
			row = f
		}
	}
	return row
}

// checkGameValues checks the values of the first moves that morris solve
// -game printed (and wrote to game.txt): the start's, then one line a first
// placement and one a pair of placements up to symmetry, each the value
// the databases give the position; their orbits under the board's
// symmetries cover the points and the pairs of points (24 · 23 on the
// board of nine men's morris) once.
func checkGameValues(t *testing.T, out, dir, variant, startLine string) {
	t.Helper()
	file, err := os.ReadFile(filepath.Join(dir, "game.txt"))
	if err != nil || !strings.HasSuffix(out, string(file)) {
		t.Fatalf("game.txt (%v):\n%s\nwant the end of the output:\n%s", err, file, out)
	}
	if !strings.Contains(string(file), startLine) {
		t.Errorf("got\n%s\nwant %q", file, startLine)
	}
	parts := strings.Split(variant, ",")
	r := mill.MustRules(parts[0], parts[1:]...)
	db, err := egdb.Open(dir, egdb.ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	orbits := map[[2]mill.Point]bool{}
	firsts := map[mill.Point]bool{} // the first placements' orbits
	for _, line := range strings.Split(string(file), "\n") {
		f := strings.Fields(line)
		if !strings.HasPrefix(line, "  ") || len(f) < 2 {
			continue
		}
		g := mill.NewGame(r)
		var moves []string
		for _, tok := range f {
			if err := g.PlayText(tok); err != nil {
				break
			}
			moves = append(moves, tok)
		}
		v, ok := db.Value(g.Position())
		want := strings.Join(f[len(moves):], " ")
		switch {
		case !ok:
			t.Fatalf("%q: not in the databases", line)
		case len(moves) == 1:
			pa := g.Moves()[0].To()
			if firsts[pa] {
				t.Errorf("%q: a placement shown before, up to symmetry", line)
			}
			for _, s := range r.Board().Symmetries {
				firsts[s[pa]] = true
			}
			if v.Parent().String() != want {
				t.Errorf("%q: the databases say %s after it", line, v)
			}
		case len(moves) == 2:
			if v.String() != want {
				t.Errorf("%q: the databases say %s", line, v)
			}
			pa, pb := g.Moves()[0].To(), g.Moves()[1].To()
			if orbits[[2]mill.Point{pa, pb}] {
				t.Errorf("%q: a pair shown before, up to symmetry", line)
			}
			for _, s := range r.Board().Symmetries {
				orbits[[2]mill.Point{s[pa], s[pb]}] = true
			}
		default:
			t.Errorf("%q: want one or two placements and a value", line)
		}
	}
	if n := r.Board().Len(); len(firsts) != n || len(orbits) != n*(n-1) {
		t.Errorf("first placements covering %d of the %d points, pairs %d of the %d pairs of points; want all", len(firsts), n, len(orbits), n*(n-1))
	}
}

// TestSolveSmallGames solves the whole games of six and seven men's morris
// (seven with MORRIS_LONG_TESTS only: ten minutes here) and checks them against the
// figures of docs/solved.md: the value of the start, the first placements
// and the pairs, and the counts of every position, every value verified.
func TestSolveSmallGames(t *testing.T) {
	if testing.Short() {
		t.Skip("solves whole games")
	}
	for _, tc := range []struct {
		variant, start, total, sectors string
		long                           bool
	}{
		{"six-mens-morris", "the start is a draw for white", "total 3101821 1863634 223809 1014378 60.08 7.22 120", "77 sectors, every value verified", false},
		{"seven-mens-morris", "the start is a win in 25 for white", "total 31965324 20395438 550497 11019389 63.80 1.72 74", "133 sectors, every value verified", true},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			if tc.long && os.Getenv("MORRIS_LONG_TESTS") == "" {
				t.Skip("set MORRIS_LONG_TESTS=1: about ten minutes")
			}
			dir := t.TempDir()
			compact := filepath.Join(t.TempDir(), "game.wdl")
			out, errOut, err := solve("-variant", tc.variant, "-game", "-verify", "-dir", dir, "-threads", "2", "-compact", compact)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			// The compact file: every sector, every value checked, and
			// the start's result as the sector files have it.
			if !strings.Contains(out, "compact file "+compact+": "+strings.Fields(tc.sectors)[0]+" sectors") || !strings.Contains(out, "every value checked") {
				t.Errorf("no line of the compact file in\n%s", out)
			}
			c, err := egdb.OpenCompact(compact)
			if err != nil {
				t.Fatal(err)
			}
			r := c.Rules()
			if res, ok := c.Result(r.Start()); !ok || res != egdb.Draw && tc.variant == "six-mens-morris" {
				t.Errorf("the start in the compact file: %v, %v", res, ok)
			}
			c.Close()
			if tc.variant == "six-mens-morris" {
				// analyze reads it as it reads a directory: the
				// placing position after a1 b2 is won for white (a
				// win of unknown distance: cp above 20000), as the
				// directory says (a mate).
				for tb, want := range map[string]*regexp.Regexp{
					compact: regexp.MustCompile(`score: +won \(the databases\) for white`),
					dir:     regexp.MustCompile(`score: +mate [0-9]+ for white`),
				} {
					aout, aerr, err := analyze("-variant", tc.variant, "-tablebases", tb, "-depth", "4", "-moves", "a1 b2")
					if err != nil {
						t.Fatalf("analyze -tablebases %s: %v\n%s", tb, err, aerr)
					}
					if !want.MatchString(aout) {
						t.Errorf("analyze -tablebases %s: want %s in\n%s", tb, want, aout)
					}
				}
			}
			if tc.variant == "six-mens-morris" {
				// -placed 5: the placing phase's first 5 plies alone
				// (sectors 0v0h6-6 to 3v2h3-4, and those with captures),
				// their values those of the whole game's file.
				opening := filepath.Join(t.TempDir(), "opening.wdl")
				out, errOut, err := solve("-variant", tc.variant, "-game", "-dir", dir, "-compact", opening, "-placed", "5", "-distances", "-q")
				if err != nil {
					t.Fatalf("-placed 5: %v\n%s", err, errOut)
				}
				if !strings.Contains(out, "distances "+egdb.DistancesPath(opening)+": ") {
					t.Errorf("no line of the distances in\n%s", out)
				}
				// With the distances beside it, the file says how
				// far the win is, as the directory does.
				aout, aerr, err := analyze("-variant", tc.variant, "-tablebases", opening, "-depth", "4", "-moves", "a1 b2")
				if err != nil {
					t.Fatalf("analyze: %v\n%s", err, aerr)
				}
				if !regexp.MustCompile(`score: +mate [0-9]+ for white`).MatchString(aout) {
					t.Errorf("analyze -tablebases %s (with its distances): want a mate in\n%s", opening, aout)
				}
				o, err := egdb.OpenCompact(opening)
				if err != nil {
					t.Fatal(err)
				}
				whole, err := egdb.OpenCompact(compact)
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range o.Keys() {
					if k.Moving() || 12-k.WhiteHand-k.BlackHand > 5 {
						t.Errorf("-placed 5 wrote sector %s", k)
					}
				}
				rng := rand.New(rand.NewPCG(5, 6))
				for range 200 {
					p := r.Start()
					for range rng.IntN(8) {
						moves := p.Moves(nil)
						p = p.Play(moves[rng.IntN(len(moves))])
					}
					got, ok := o.Result(p)
					want, _ := whole.Result(p)
					if ok != (p.Ply() <= 5) || ok && got != want {
						t.Fatalf("%v (ply %d): the opening file says %v %v, the whole game's %v", p, p.Ply(), got, ok, want)
					}
				}
				o.Close()
				whole.Close()
			}
			// The game's values come before the compact file's line.
			out = out[:strings.LastIndex(out, "compact file ")]
			var total string
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "total ") {
					total = strings.Join(strings.Fields(line), " ")
				}
			}
			if total != tc.total || !strings.Contains(out, tc.sectors) {
				t.Errorf("got %q and\n%s\nwant %q and %q", total, out, tc.total, tc.sectors)
			}
			checkGameValues(t, out, dir, tc.variant, tc.start)
		})
	}
}

func TestSolveBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-sectors", "3v3"},                                          // no -dir
		{"-dir", dir, "-sectors", "2v3"},                             // no such sector
		{"-dir", dir, "-sectors", "3x3"},                             // not a sector name
		{"-dir", dir, "-variant", "shah"},                            // rules without databases
		{"-dir", dir, "-variant", "nope"},                            // no such variant
		{"-dir", dir, "-max", "5"},                                   // no sector that small
		{"-dir", dir, "-game", "-placed", "4"},                       // -placed without -compact
		{"-dir", dir, "-game", "-compact", "x.wdl", "-placed", "-2"}, // a negative count
		{"-dir", dir, "-game", "-distances"},                         // -distances without -compact
		{"-dir", dir, "-max", "4", "-prove"},                         // -prove without -game
		{"-dir", dir, "-max", "4", "-check-by-rules", "-1"},          // a negative step
		{"-dir", dir, "-threads", "0"},                               // no threads
		{"-dir", dir, "-resident", "-1"},                             // no memory below nothing
		{"-dir", dir, "-resident", "NaN"},                            // not a number of GB
		{"-dir", dir, "-sectors", "3v3h0-1"},                         // the side to move has none in hand, its opponent one
		{"-dir", dir, "-sectors", "3v3h1,0"},                         // not a sector name (hands are written 1-0)
		{"-dir", dir, "-variant", "lasker", "-sectors", "3v3h1-1"},   // placing with moves while placing
		{"-dir", dir, "-variant", "lasker", "-game"},                 // the same
		{"-dir", dir, "-game", "-sectors", "3v3"},                    // one or the other
	} {
		_, _, err := solve(args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
	// The flags are checked before the profile is started.
	profile := filepath.Join(dir, "cpu.prof")
	if _, _, err := solve("-dir", dir, "-variant", "nope", "-cpuprofile", profile); err == nil {
		t.Errorf("-variant nope: no error")
	}
	if _, err := os.Stat(profile); err == nil {
		t.Errorf("-variant nope -cpuprofile %s: the profile was made", profile)
	}
}

// TestSolveKilledGoesOnFromCheckpoint: `morris solve` in a process of its
// own, killed (SIGKILL) in the middle of the levels of its last group (4v3 + 3v4;
// 3v3 without flying under -short) after a few checkpoints, goes on from its last checkpoint when run again, and ends
// with the counts of a build that was never stopped; no checkpoint is left.
func TestSolveKilledGoesOnFromCheckpoint(t *testing.T) {
	variant, sector, group, files := "nine-mens-morris", "4v3", "4v3+3v4", []string{"3v3", "4v3", "3v4"}
	if testing.Short() {
		// Fewer moves and sectors: a faster build (under -race too).
		variant, sector, group, files = "nine-mens-morris,flying=never", "3v3", "3v3", files[:1]
	}
	args := []string{"-variant", variant, "-sectors", sector, "-threads", "2", "-checkpoint-every", "1ms"}
	clean := t.TempDir()
	want, errOut, err := solve(append(args, "-dir", clean)...)
	if err != nil {
		t.Fatalf("the build without a stop: %v\n%s", err, errOut)
	}

	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], append([]string{"solve", "-dir", dir}, args...)...)
	cmd.Env = append(os.Environ(), "MORRIS_RUN_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Read its progress until the group has written a few checkpoints.
	found := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		n := 0
		for sc.Scan() {
			if strings.Contains(sc.Text(), group+": checkpoint before level") {
				if n++; n == 4 {
					found <- true
				}
			}
		}
		found <- false
	}()
	select {
	case ok := <-found:
		if !ok {
			cmd.Wait()
			t.Fatalf("the build ended without four checkpoints of %s", group)
		}
	case <-time.After(5 * time.Minute):
		t.Fatalf("no checkpoints of %s within 5 minutes", group)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(dir, "."+group+".ckpt")); err != nil {
		t.Fatalf("killed in %s: %v", group, err)
	}
	if _, err := os.Stat(filepath.Join(dir, sector+".egdb")); err == nil {
		t.Fatalf("%s was written before the kill: the test killed too late", sector)
	}

	got, errOut, err := solve(append(args, "-dir", dir)...)
	if err != nil {
		t.Fatalf("the build after the kill: %v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, group+": going on from its checkpoint") || !strings.Contains(errOut, "(going on from a checkpoint)") {
		t.Errorf("the build after the kill did not say it went on from the checkpoint:\n%s", errOut)
	}
	// The tables agree but for the times and the column "solve"/"on disk".
	rows := func(table string) map[string]string {
		m := map[string]string{}
		for _, line := range strings.Split(table, "\n") {
			if f := strings.Fields(line); len(f) > 7 && strings.Contains(f[0], "v") {
				m[f[0]] = strings.Join(f[1:8], " ")
			}
		}
		return m
	}
	if w, g := rows(want), rows(got); len(w) != len(files) || !maps.Equal(w, g) {
		t.Errorf("counts after the kill:\n%s\nwant those of the build without a stop:\n%s", got, want)
	}
	for _, k := range files {
		a, err1 := os.ReadFile(filepath.Join(clean, k+".egdb"))
		b, err2 := os.ReadFile(filepath.Join(dir, k+".egdb"))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the file differs from the build without a stop (%v, %v)", k, err1, err2)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// mustKey parses a sector's name, failing the test if it is not one.
func mustKey(t *testing.T, s string) egdb.Key {
	t.Helper()
	key, err := egdb.ParseKey(s)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// TestProgressEstimate: the line of a finished sector estimates the time
// left at the rates of this run: of solving for a build, of verifying for
// a verify of sectors already built (those verified by an earlier run do
// not count), of both for a build with -verify.
func TestProgressEstimate(t *testing.T) {
	k := func(s string) egdb.Key { return mustKey(t, s) }
	const m = 1_000_000
	for _, tc := range []struct {
		name string
		res  []egdb.SectorResult
		want string // the end of the last line
	}{
		{"build", []egdb.SectorResult{
			{Key: k("3v3"), Indices: 100 * m, Solve: 50 * time.Second},
		}, "; 75% of the indices left, about 3m0s of solving at 2.00M indices/s\n"},
		{"verify", []egdb.SectorResult{
			{Key: k("3v3"), Resumed: true, Verified: true, VerifiedBefore: true, Indices: 100 * m, Verify: time.Hour},
			{Key: k("4v3"), Resumed: true, Verified: true, Indices: 100 * m, Verify: 100 * time.Second},
		}, ", verified in 1m40s: 0 positions, 0 wins, 0 draws, 0 losses; 67% of the indices left, about 3m0s of verifying at 1.00M indices/s\n"},
		{"build and verify", []egdb.SectorResult{
			{Key: k("3v3"), Verified: true, Indices: 100 * m, Solve: 50 * time.Second, Verify: 100 * time.Second},
		}, "; 75% of the indices left, about 8m0s of solving at 2.00M indices/s and verifying at 1.00M indices/s\n"},
		{"verified before, nothing to go by", []egdb.SectorResult{
			{Key: k("3v3"), Resumed: true, Verified: true, VerifiedBefore: true, Indices: 100 * m, Verify: time.Minute},
		}, "3v3: already built, verified in 1m0s: 0 positions, 0 wins, 0 draws, 0 losses\n"},
	} {
		var out bytes.Buffer
		b := &progressBar{w: &out, left: 400 * m}
		for _, r := range tc.res {
			b.done(r)
		}
		if !strings.HasSuffix(out.String(), tc.want) {
			t.Errorf("%s: got %q, want it to end with %q", tc.name, out.String(), tc.want)
		}
	}
}

// TestSummaryLastLine: the summary tells this run's time from the whole
// work's, so a verify that went on from earlier runs does not read as the
// whole verify's time.
func TestSummaryLastLine(t *testing.T) {
	k := func(s string) egdb.Key { return mustKey(t, s) }
	r, err := mill.NewRules("nine-mens-morris")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		res      []egdb.SectorResult
		verified bool
		want     string
	}{
		{"built", []egdb.SectorResult{{Key: k("3v3"), Solve: time.Minute}}, false,
			"1 sectors, not verified; this run 1m5s (max: the longest win or loss in plies)\n"},
		{"verified over two runs", []egdb.SectorResult{
			{Key: k("3v3"), Resumed: true, Verified: true, VerifiedBefore: true, Verify: time.Hour},
			{Key: k("4v3"), Resumed: true, Verified: true, Verify: 2 * time.Minute},
		}, true, "2 sectors, every value verified (1h2m0s of verifying in all, earlier runs' included); this run 1m5s (max: the longest win or loss in plies)\n"},
	} {
		var out bytes.Buffer
		writeSummary(&out, r, tc.res, 65*time.Second, tc.verified)
		if !strings.HasSuffix(out.String(), tc.want) {
			t.Errorf("%s: got %q, want it to end with %q", tc.name, out.String(), tc.want)
		}
	}
}
