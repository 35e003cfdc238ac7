package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/golden"
	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// checkGolden compares got with testdata/name.golden (go test -update
// rewrites it).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

func runCLI(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestCommands(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"variants", []string{"variants"}},
		{"variants-mrs", []string{"variants", "-mrs", "lasker"}},
		{"variants-from-mrs", []string{"variants", "-from-mrs", "testdata/variants-mrs.golden"}},
		{"show-start", []string{"show"}},
		{"show-morabaraba", []string{"show", "-variant", "morabaraba", "-moves", "a1 d1 g1 b2 d2 f2 c3 d3 e3"}},
		{"show-pbm", []string{"show", "-pbm", "-moves", "D3 G1 A1"}},
		{"show-large", []string{"show", "-variant", "twelve-mens-morris-large", "-moves", "a1 i9 e4 d5"}},
		{"show-shah-removal", []string{"show", "-position", "shah WWBBBBBW/WWWWWBBB/WBWWBWBB b 0,0 xb 0 24"}},
		{"show-lot", []string{"show", "-variant", "twelve-mens-morris", "-seed", "7"}},
		{"show-over", []string{"show", "-position", "nine-mens-morris W7/1W2B2B/8 b 0,0 - 0 40"}},
		{"show-mfen", []string{"show", "-variant", "russian-mill", "-position", "MFEN/1.0 mill24-state-v1 ....WWW./....BBB./........ w m m 0,0 - 3 20 - ul=0004,0000"}},
		{"show-mifpos", []string{"show", "-position", mifposNine}},
		{"moves-start", []string{"moves", "-variant", "nine-mens-morris,flying=never"}},
		{"moves-pbm", []string{"moves", "-pbm", "-position", "nine-mens-morris WWB4B/1B3B2/1B1W4 w 0,0 - 0 40"}},
		{"moves-shah-pass", []string{"moves", "-position", "shah WWWB3B/1B3B2/8 w 0,0 - 0 40"}},
		{"moves-shah-removal", []string{"moves", "-position", "shah WWBBBBBW/WWWWWBBB/WBWWBWBB b 0,0 xb 0 24", "-moves", "xd2"}},
		{"perft-3", []string{"perft", "-depth", "3"}},
		{"perft-divide", []string{"perft", "-depth", "2", "-divide", "-variant", "lasker", "-moves", "a1 d1 g1 d2"}},
		{"perft-detail", []string{"perft", "-depth", "5", "-detail"}},
		{"perft-rules", []string{"perft", "-depth", "4", "-variant", "nine-mens-morris", "-rules", "protection=always,captures=per-mill"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCLI(tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			checkGolden(t, tc.name, out)
		})
	}
}

func TestReplay(t *testing.T) {
	out, errs, code := runCLI("replay", "../../record/testdata/multi.golden")
	if code != 0 {
		t.Fatalf("a good file: exit %d: %s", code, errs)
	}
	checkGolden(t, "replay-good", out)
	out, errs, code = runCLI("replay", "testdata/bad.pgn")
	if code != 1 || !strings.Contains(out, "2 of 3 games have errors") || !strings.Contains(errs, "1 file(s) with bad records") {
		t.Errorf("bad records: got exit %d, stderr %q; want exit 1", code, errs)
	}
	checkGolden(t, "replay-bad", out)
}

// TestReplaySanmill: replay -sanmill writes our records as Sanmill reads
// them (its rule set's name, its FEN and SetUp for a set-up start, the
// moves numbered from the FEN's move), and they read back through
// FromSanmill as the same games; rules Sanmill lacks are refused with
// what it has closest.
func TestReplaySanmill(t *testing.T) {
	ours := "[White \"ann\"]\n[Variant \"russian-mill\"]\n[Rules \"protection=none\"]\n\n1. a1 b2 2. d1 b6 3. g1xb2 {the first mill} d6 4. d2 *\n\n" +
		"[Position \"nine-mens-morris W7/5W2/5B2 b 7,8 - 0 3\"]\n\n2... b6 3. d1 *\n"
	file := filepath.Join(t.TempDir(), "ours.pgn")
	if err := os.WriteFile(file, []byte(ours), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI("replay", "-sanmill", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{`[Variant "Russian Mill"]`, `[White "ann"]`, "{the first mill}",
		`[FEN "@*******/O*******/*****O** b p p 2 7 1 8 0 0 0 0 0 0 0 0 2"]`, `[SetUp "1"]`, "2... b6 3. d1 *"} {
		if !strings.Contains(out, want) {
			t.Errorf("replay -sanmill: no %s in\n%s", want, out)
		}
	}
	if strings.Contains(out, "[Rules") || strings.Contains(out, "[Position") {
		t.Errorf("replay -sanmill: tags of ours left in\n%s", out)
	}
	back, err := record.FromSanmill(out, mif.ParseSanmillFEN)
	if err != nil {
		t.Fatal(err)
	}
	a, b := record.NewScanner(strings.NewReader(ours)), record.NewScanner(strings.NewReader(back))
	for a.Scan() {
		if !b.Scan() {
			t.Fatalf("fewer games back: %v\n%s", b.Err(), back)
		}
		ga, err1 := a.Record().Game()
		gb, err2 := b.Record().Game()
		if err1 != nil || err2 != nil {
			t.Fatalf("%v, %v\n%s", err1, err2, back)
		}
		if ga.Start() != gb.Start() || ga.Rules().String() != gb.Rules().String() || !slices.Equal(ga.MoveTexts(mill.Standard), gb.MoveTexts(mill.Standard)) {
			t.Errorf("back from Sanmill's form: %s %v, want %s %v", gb.Start(), gb.MoveTexts(mill.Standard), ga.Start(), ga.MoveTexts(mill.Standard))
		}
	}
	if b.Scan() {
		t.Errorf("more games back than went out")
	}
	if err := os.WriteFile(file, []byte("[Variant \"russian-mill\"]\n\n1. a1 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI("replay", "-sanmill", file); code != 1 || !strings.Contains(errs, "Sanmill has no rule set that is russian-mill (Russian Mill is russian-mill,protection=none)") {
		t.Errorf("rules Sanmill lacks: exit %d, %q", code, errs)
	}
}

// TestDivideEveryPreset runs perft -divide from the set-up positions of the
// mill package's perft table (a position of every preset) and checks the
// total against the table.
func TestDivideEveryPreset(t *testing.T) {
	f, err := os.Open("../../mill/testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var all strings.Builder
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "position ") {
			continue
		}
		parts := strings.Split(strings.TrimPrefix(line, "position "), ";")
		pos, depth, want := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1]), strings.TrimSpace(parts[2])
		out, errs, code := runCLI("perft", "-position", pos, "-depth", depth, "-divide")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", pos, code, errs)
		}
		if !strings.HasSuffix(out, "total "+want+"\n") {
			t.Errorf("%s: got %q, want total %s", pos, out[max(0, len(out)-40):], want)
		}
		all.WriteString("# " + pos + " depth " + depth + "\n" + out)
		n++
	}
	if n < 11 {
		t.Errorf("only %d set-up positions", n)
	}
	checkGolden(t, "divide-presets", all.String())
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{}, 2, "Usage"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"perft", "-depth", "3", "-variant", "chess"}, 2, `unknown variant: "chess"`},
		{[]string{"perft", "-depth", "0"}, 2, "-depth 0: want 1..20"},
		{[]string{"perft", "-depth", "2", "-rules", "flying=sometimes"}, 2, `option flying: "sometimes" is not never|3..12`},
		{[]string{"perft", "-depth", "2", "-rules", "colour=red"}, 2, `unknown rule option "colour"`},
		{[]string{"moves", "-variant", "twelve-mens-morris,board=standard24"}, 2, "board standard24 has no diagonals"},
		{[]string{"moves", "-variant", "lasker,placing-captures=deferred"}, 2, "placing-captures=deferred and move-while-placing=yes"},
		{[]string{"moves", "-moves", "d6 d6"}, 2, "move 2 (d6): illegal move d6: d6 is occupied"},
		{[]string{"moves", "-moves", "d6 q9"}, 2, "move 2 (q9)"},
		{[]string{"moves", "-moves", "d6-d5"}, 2, "no white piece on d6"},
		{[]string{"show", "-position", "nine-mens-morris 8/8/8 x 9,9 - 0 0"}, 2, `side to move "x": want w or b`},
		{[]string{"show", "-position", "nine-mens-morris 9/8/8 w 9,9 - 0 0"}, 2, `'9' is not W, B or a digit 1-8`},
		{[]string{"show", "-position", "nine-mens-morris 8/8/8 w 9,10 - 0 0"}, 2, `black has "10" in hand`},
		{[]string{"show", "-position", "nine-mens-morris 8/8/8 w 9,9"}, 2, "want 7 fields"},
		{[]string{"show", "-position", "nine-mens-morris 8/8/8 w 9,9 - 0 0", "-variant", "shah"}, 2, "carries its own rules"},
		{[]string{"show", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"replay"}, 2, "want a record file"},
		{[]string{"replay", "testdata/no-such-file.pgn"}, 2, "no such file"},
		{[]string{"replay", "-differences", "malom", "testdata/bad.pgn"}, 2, "no known rule differences"},
		{[]string{"replay", "-differences", "sanmill", "-sanmill", "testdata/bad.pgn"}, 2, "not both"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errs, code := runCLI(tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("got exit %d, stderr %q; want exit %d, stderr containing %q", code, errs, tc.code, tc.want)
			}
			if tc.code == 2 && len(tc.args) > 0 && out != "" {
				t.Errorf("bad input printed to stdout: %q", out)
			}
		})
	}
}

// TestSignal runs the program in a process of its own and sends it
// SIGTERM: a command that stops on its context (engine, thinking with go
// infinite) answers its move and exits 0; one that does not (a deep perft)
// ends with the process, as the signal's default, instead of running on.
func TestSignal(t *testing.T) {
	t.Run("engine", func(t *testing.T) {
		cmd := exec.Command(os.Args[0], "engine", "-hash", "1")
		cmd.Env = append(os.Environ(), "MORRIS_RUN_MAIN=1")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		// readyok after go: the search is under way (an isready during a
		// search is answered at once), its signals caught. A signal
		// before the go is read ends the program with no search to
		// answer.
		io.WriteString(stdin, "go infinite\nisready\n")
		sc := bufio.NewScanner(stdout)
		for sc.Scan() && sc.Text() != "readyok" {
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		var rest []string
		for sc.Scan() {
			rest = append(rest, sc.Text())
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("engine after SIGTERM: %v, want exit 0", err)
		}
		if len(rest) == 0 || !strings.HasPrefix(rest[len(rest)-1], "bestmove ") {
			t.Errorf("engine after SIGTERM: got %q, want a bestmove last", rest)
		}
	})
	t.Run("perft", func(t *testing.T) {
		cmd := exec.Command(os.Args[0], "perft", "-depth", "20")
		cmd.Env = append(os.Environ(), "MORRIS_RUN_MAIN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		time.Sleep(200 * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
				t.Errorf("perft after SIGTERM: %v, want killed by the signal", err)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("perft still running 20 s after SIGTERM")
		}
	})
}

// TestHelp: every command's -h (and help COMMAND) prints its usage on
// standard error and exits 0, as the program's own -h does.
func TestHelp(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "-h"}, {c.name, "-help"}, {"help", c.name}} {
			out, errs, code := runCLI(args...)
			if code != exitOK || out != "" || !strings.HasPrefix(errs, "Usage: morris "+c.name+" ") {
				t.Errorf("morris %s: exit %d, stdout %q, stderr begins %q; want exit 0, no output, stderr beginning %q",
					strings.Join(args, " "), code, out, firstLine(errs), "Usage: morris "+c.name+" ")
			}
		}
	}
	if _, errs, code := runCLI("-h"); code != exitOK || !strings.HasPrefix(errs, "morris: the Mill family") {
		t.Errorf("morris -h: exit %d, stderr begins %q", code, firstLine(errs))
	}
	if _, _, code := runCLI("help", "nope"); code != exitUsage {
		t.Errorf("morris help nope: exit %d, want %d", code, exitUsage)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestUsageFlags: every flag that the program's usage names for a command
// is one of the command's flags (as its -h lists them), and every command
// is in the usage.
func TestUsageFlags(t *testing.T) {
	flagsOf := func(name string) map[string]bool {
		_, errs, _ := runCLI(name, "-h")
		have := map[string]bool{}
		for _, line := range strings.Split(errs, "\n") {
			if f, ok := strings.CutPrefix(line, "  -"); ok {
				have[strings.Fields(f)[0]] = true
			}
		}
		return have
	}
	flagRE := regexp.MustCompile(`(?:^|[\s\[|])-([a-z][a-z0-9-]*)`)
	seen := map[string]bool{}
	name := ""
	for _, line := range strings.Split(usage, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "Position flags:") {
			name = ""
			continue
		}
		if rest, ok := strings.CutPrefix(line, "  morris "); ok {
			name, _, _ = strings.Cut(rest, " ")
			seen[name] = true
		} else if name == "" || !strings.HasPrefix(line, "                 ") || strings.HasPrefix(line, strings.Repeat(" ", 40)) {
			continue // not a synopsis, or a command's description
		}
		if len(line) > 40 && line[38:40] == "  " && line[40] != ' ' {
			line = line[:40] // the description that follows a short synopsis
		}
		have := flagsOf(name)
		for _, m := range flagRE.FindAllStringSubmatch(line, -1) {
			if !have[m[1]] {
				t.Errorf("the usage names -%s for morris %s, which has no such flag:\n%s", m[1], name, line)
			}
		}
	}
	for _, c := range commands {
		if !seen[c.name] {
			t.Errorf("morris %s is not in the usage", c.name)
		}
	}
}

// mifposNine is the position after a1 (nine men's morris) as a MIFPOS
// object: an MFEN record with its rule set.
var mifposNine = func() string {
	e, err := mif.EnvelopeFor(mill.MustParsePosition("nine-mens-morris W7/8/8 b 8,9 - 0 1"))
	if err != nil {
		panic(err)
	}
	data, _ := json.Marshal(e)
	return string(data)
}()

// TestReplayDifferences: morris replay -differences sanmill lists the
// games of the Russian mill match against Sanmill that reach a move where
// the rules part (docs/strength.md re-scores the match by it): ten, all
// captures by a line never formed whose points stood in earlier mills.
func TestReplayDifferences(t *testing.T) {
	out, errs, code := runCLI("replay", "-differences", "sanmill", "../../docs/matches/presets/2026-12-07-russian-mill-1s-on-s513943.pgn")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasSuffix(out, "10 of 100 games reach a move where sanmill's rules part from ours\n") ||
		strings.Count(out, "a line that was never a mill but whose points all stood in earlier mills") != 10 ||
		!strings.Contains(out, "game 52 (round 26.2, sanmill-on - morris, 0-1): ply 44: d5-c5xg4 closes c3-c4-c5") {
		t.Errorf("got\n%s", out)
	}
}
