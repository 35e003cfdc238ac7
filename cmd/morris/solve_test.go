package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func solve(args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	err = cmdSolve(args, strings.NewReader(""), &out, &errb)
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
	out, errOut, err := solve("-variant", "nine-mens-morris,pieces=3", "-game", "-dir", t.TempDir(), "-threads", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var start []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "0v0h3-3" {
			start = f
		}
	}
	if strings.Join(start[:5], " ") != "0v0h3-3 1 1 0 0" || !strings.Contains(out, "\n3v3 ") || !strings.Contains(out, "7 sectors") {
		t.Errorf("got\n%s\nwant 7 sectors, 3v3 among them, and the start (0v0h3-3) one position, won", out)
	}
}

func TestSolveBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-sectors", "3v3"},                                        // no -dir
		{"-dir", dir, "-sectors", "2v3"},                           // no such sector
		{"-dir", dir, "-sectors", "3x3"},                           // not a sector name
		{"-dir", dir, "-variant", "shah"},                          // rules without databases
		{"-dir", dir, "-variant", "nope"},                          // no such variant
		{"-dir", dir, "-max", "5"},                                 // no sector that small
		{"-dir", dir, "-threads", "0"},                             // no threads
		{"-dir", dir, "-sectors", "3v3h0-1"},                       // the side to move has none in hand, its opponent one
		{"-dir", dir, "-sectors", "3v3h1,0"},                       // not a sector name (hands are written 1-0)
		{"-dir", dir, "-variant", "lasker", "-sectors", "3v3h1-1"}, // placing with moves while placing
		{"-dir", dir, "-variant", "lasker", "-game"},               // the same
		{"-dir", dir, "-game", "-sectors", "3v3"},                  // one or the other
	} {
		_, _, err := solve(args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
}
