package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/puzzle"
)

// TestPuzzlesCommand: morris puzzles draws puzzles from the databases into
// a server's store, skips those stored before, and with -from-games finds
// the puzzle in a finished game of the server that started from a puzzle's
// position; bad flags are refused.
func TestPuzzlesCommand(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	db, tbDir := egdbtest.Build(t, r)
	data := t.TempDir()
	var out, errb bytes.Buffer
	if err := cmdPuzzles(context.Background(), []string{"-tablebases", tbDir, "-data", data, "-n", "4", "-seed", "3"}, nil, &out, &errb); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if !strings.Contains(out.String(), "4 puzzles made") {
		t.Fatalf("output:\n%s", out.String())
	}
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(data, "morris.db"))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := st.PuzzleCount(ctx); err != nil || n != 4 {
		t.Fatalf("%d puzzles stored, %v", n, err)
	}
	// A finished game from a puzzle's position, its first move played.
	o := puzzle.Defaults
	o.Sectors = [][2]int{{3, 3}}
	pz, err := puzzle.Find(db, r, rand.New(rand.NewPCG(11, 12)), o)
	if err != nil {
		t.Fatal(err)
	}
	ann, err := st.CreateUser(ctx, store.User{Name: "ann", PasswordHash: "x"})
	if err != nil {
		t.Fatal(err)
	}
	bob, err := st.CreateUser(ctx, store.User{Name: "bob", PasswordHash: "x"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.CreateGame(ctx, store.Game{Variant: r.Variant(), Rules: r.String(), White: ann.ID, Black: bob.ID, Start: pz.Position.String(), NagSentPly: -1, LastMoveAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AppendMove(ctx, g.ID, store.Append{Ply: 0, Move: pz.Texts()[0], At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.FinishGame(ctx, g.ID, store.Finish{Ply: 1, At: time.Now(), Ending: store.Ending{Result: "1-0", Method: "resignation"}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out.Reset()
	if err := cmdPuzzles(context.Background(), []string{"-tablebases", tbDir, "-data", data, "-from-games", "-n", "5"}, nil, &out, &errb); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if !strings.Contains(out.String(), "from game 101: "+pz.Position.String()) {
		t.Fatalf("-from-games did not find the game's puzzle %s:\n%s", pz.Position, out.String())
	}
	for _, args := range [][]string{
		{"-data", data},
		{"-tablebases", tbDir, "-data", data, "-n", "0"},
		{"-tablebases", tbDir, "-data", data, "-sectors", "9v9"},
		{"-tablebases", tbDir, "-data", data, "-sectors", "x"},
		{"-tablebases", t.TempDir() + "/none", "-data", data},
	} {
		if err := cmdPuzzles(context.Background(), args, nil, &out, &errb); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// TestPuzzlesFlags: the flags are checked before the databases or the
// store are opened, with exit code 2.
func TestPuzzlesFlags(t *testing.T) {
	none := filepath.Join(t.TempDir(), "none")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-data", none}, "-tablebases is required"},
		{[]string{"-tablebases", none, "-n", "0"}, "-n 0: want 1..100000"},
		{[]string{"-tablebases", none, "-max-plies", "201"}, "-max-plies 201"},
		{[]string{"-tablebases", none, "-sectors", "3v3,x"}, `-sectors: "x" is not like 3v3`},
	} {
		_, errs, code := runCLI(append([]string{"puzzles"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("puzzles %v: exit %d, %q; want exit %d and %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
	if _, err := os.Stat(none); err == nil {
		t.Errorf("puzzles with bad flags made %s", none)
	}
}
