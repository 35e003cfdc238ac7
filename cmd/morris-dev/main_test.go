package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/internal/engine/tune"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// runDev runs morris-dev with args and returns its output and exit code.
func runDev(args ...string) (stdout, stderr string, code int) {
	var out, errb strings.Builder
	code = run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// TestHelp: every command answers -h with its synopsis, what it does and
// its flags, and the usage names every command.
func TestHelp(t *testing.T) {
	for _, c := range commands {
		_, errs, code := runDev(c.name, "-h")
		if code != 0 || !strings.HasPrefix(errs, "Usage: morris-dev "+c.name+" [flags]") || !strings.Contains(errs, "\nFlags:\n") {
			t.Errorf("%s -h: exit %d, stderr\n%s", c.name, code, errs)
		}
		if _, again, code := runDev("help", c.name); code != 0 || again != errs {
			t.Errorf("help %s: exit %d, not what -h prints", c.name, code)
		}
		if !strings.Contains(usage, "\n  "+c.name+" ") {
			t.Errorf("the usage does not name %s", c.name)
		}
	}
	if _, errs, code := runDev(); code != 2 || errs != usage {
		t.Errorf("no command: exit %d, want 2 and the usage", code)
	}
}

func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"no-such-command"},
		{"tune", "-pairs", "0"},
		{"tune", "-variant", "ten-mens-morris"},
		{"tune", "extra"},
		{"compare"},
		{"compare", "-depth", "1", `{"Taper": 5}`},
		{"fit"},
		{"fit-moving", "-from", "ten", "x.tsv"},
		{"fit-joint", "a.tsv"},
		{"relabel", "x.tsv"},
		{"net-samples"},
		{"exact-samples", "-o", "x.tsv"},
		{"exact-records", "-db", "x"},
		{"calibrate"},
	} {
		if _, errs, code := runDev(args...); code != 2 || !strings.Contains(errs, "morris-dev") {
			t.Errorf("%q: exit %d, want 2 and a message; stderr:\n%s", args, code, errs)
		}
	}
	if _, errs, code := runDev("fit-joint", "no-such-file", "no-such-file"); code != 1 || !strings.Contains(errs, "no-such-file") {
		t.Errorf("a missing file: exit %d, want 1; stderr:\n%s", code, errs)
	}
}

// TestSelfPlay runs tune, ablate and compare on three men's morris at
// depth 1, one pair a match.
func TestSelfPlay(t *testing.T) {
	small := []string{"-variant", "three-mens-morris", "-pairs", "1", "-depth", "1"}
	out, errs, code := runDev(append([]string{"tune", "-seed", "1"}, small...)...)
	rows := strings.Count(out, "\n| ")
	if code != 0 || rows < len(tune.TuneSteps) || rows > 2*len(tune.TuneSteps) || !strings.Contains(out, "\nfinal: {") || !strings.Contains(out, "\nverification, final against the start: 4 games") {
		t.Errorf("tune: exit %d, %d rows (want %d to %d)\n%s%s", code, rows, len(tune.TuneSteps), 2*len(tune.TuneSteps), out, errs)
	}
	out, errs, code = runDev(append([]string{"ablate"}, small...)...)
	if rows := strings.Count(out, "\n| "); code != 0 || rows != len(tune.Ablations) || !strings.Contains(out, "| no mills | 2 | ") {
		t.Errorf("ablate: exit %d, %d rows\n%s%s", code, rows, out, errs)
	}
	out, errs, code = runDev(append(append([]string{"compare"}, small...), `{"Taper":true};{"Taper":false}`)...)
	if rows := strings.Count(out, "\n| "); code != 0 || rows != 2 || !strings.Contains(out, "| `{\"Taper\":false}` | 1 | 2 | ") {
		t.Errorf("compare: exit %d, %d rows\n%s%s", code, rows, out, errs)
	}
}

// head writes the first n lines of file to a new file in dir.
func head(t *testing.T, dir, file string, n int) string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	for i := 0; i < n && sc.Scan(); i++ {
		b.WriteString(sc.Text() + "\n")
	}
	out := filepath.Join(dir, filepath.Base(file))
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func lines(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// TestFits runs the fits, the net and relabel on the first samples of the
// files of internal/engine/tune/testdata.
func TestFits(t *testing.T) {
	dir := t.TempDir()
	moving := head(t, dir, "../../internal/engine/tune/testdata/moving-samples.tsv", 100)
	placing := head(t, dir, "../../internal/engine/tune/testdata/placing-samples.tsv", 100)

	out, errs, code := runDev("fit-moving", moving)
	if code != 0 || !strings.Contains(out, "100 samples (20 held out)") || !strings.Contains(out, "\nTempo[moving] = ") || !strings.Contains(errs, "pass 1: loss") {
		t.Errorf("fit-moving: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = runDev("fit", placing)
	if code != 0 || !strings.Contains(out, "\nTempo[placing] = ") {
		t.Errorf("fit: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = runDev("fit-joint", placing, moving)
	if code != 0 || !strings.Contains(out, "200 samples") || !strings.Contains(out, "\nTempo[moving] = ") {
		t.Errorf("fit-joint: exit %d\n%s%s", code, out, errs)
	}

	net := filepath.Join(dir, "moving.net")
	out, errs, code = runDev("fit-net", "-hidden", "4", "-epochs", "2", "-o", net, moving)
	if code != 0 || !strings.Contains(out, "with the net: held out ") || !strings.Contains(errs, "epoch 2: ") {
		t.Errorf("fit-net: exit %d\n%s%s", code, out, errs)
	}
	f, err := os.Open(net)
	if err != nil {
		t.Fatal(err)
	}
	n, err := eval.ReadNet(f)
	f.Close()
	if err != nil || n.Hidden != 4 || n.Hands != 0 {
		t.Errorf("the net written: %v, %+v", err, n)
	}

	few := head(t, t.TempDir(), moving, 6)
	relabelled := filepath.Join(dir, "relabelled.tsv")
	if out, errs, code = runDev("relabel", "-movetime", "1ms", "-o", relabelled, few); code != 0 || lines(t, relabelled) != 6 {
		t.Errorf("relabel: exit %d\n%s%s", code, out, errs)
	}
}

// TestMakeSamples: fit makes its sample file when it does not exist, and
// net-samples makes one, both from a game.
func TestMakeSamples(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games between levels 7 and 8 (seconds)")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "placing.tsv")
	out, errs, code := runDev("fit", "-games", "1", "-movetime", "2ms", file)
	if code != 0 || lines(t, file) == 0 || !strings.Contains(errs, "positions from 1 games") {
		t.Errorf("fit of a new file: exit %d\n%s%s", code, out, errs)
	}
	file = filepath.Join(dir, "net.tsv")
	out, errs, code = runDev("net-samples", "-games", "1", "-movetime", "2ms", "-skip", "", "-o", file)
	if code != 0 || lines(t, file) == 0 {
		t.Errorf("net-samples: exit %d\n%s%s", code, out, errs)
	}
}

// TestDatabases runs the commands that read databases: calibrate on three
// men's morris on the nine men's board, solved whole, and the exact
// commands on the 3v3 sector of nine men's morris (which answer little of
// what games meet, but run).
func TestDatabases(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a small game whole (seconds)")
	}
	three := mill.MustRules("nine-mens-morris", "pieces=3")
	_, dir := egdbtest.Build(t, three, egdb.StartKey(three))
	rows := filepath.Join(t.TempDir(), "rows.tsv")
	out, errs, code := runDev("calibrate", "-db", dir, "-variant", "nine-mens-morris,pieces=3", "-games", "1", "-nodes", "1000", "-o", rows)
	if code != 0 || strings.Count(out, "\n") != 12 || !strings.HasPrefix(errs, "game 1: ") || lines(t, rows) < 2 {
		t.Errorf("calibrate: exit %d\n%s%s", code, out, errs)
	}

	nine := mill.MustRules("nine-mens-morris")
	_, dir = egdbtest.Build(t, nine)
	samples := filepath.Join(t.TempDir(), "exact.tsv")
	if out, errs, code = runDev("exact-samples", "-db", dir, "-games", "1", "-o", samples); code != 0 || !strings.Contains(out, "positions from 1 games") {
		t.Errorf("exact-samples: exit %d\n%s%s", code, out, errs)
	}
	// A game morris lost, by resignation after a few moves: no position
	// from ply 8 on is known to the 3v3 databases.
	g := mill.NewGame(nine)
	for _, m := range strings.Fields("d6 d5 d7 d3 a7 g7 b6 f6 c5 e5") {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Resign(mill.White); err != nil {
		t.Fatal(err)
	}
	rec := record.FromGame(g, record.Tag{Name: "White", Value: "morris"}, record.Tag{Name: "Black", Value: "other"})
	games := filepath.Join(t.TempDir(), "games.pgn")
	f, err := os.Create(games)
	if err != nil {
		t.Fatal(err)
	}
	w := record.NewWriter(f)
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, errs, code = runDev("exact-records", "-db", dir, "-nodes", "100", games)
	if code != 0 || !strings.Contains(out, "(white): no losing move found (? ?)") {
		t.Errorf("exact-records: exit %d\n%s%s", code, out, errs)
	}
}
