package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/mill"
)

// TestMatchErrorsCommand: the records of a match of the perfect player
// against random, read by morris match-errors, give the perfect player no
// error in any phase; bad arguments and databases of other rules are exit
// code 2.
func TestMatchErrorsCommand(t *testing.T) {
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	_, dir := egdbtest.Build(t, r, egdb.StartKey(r))
	recs := filepath.Join(t.TempDir(), "games.pgn")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"match", "-a", "perfect:" + dir + ",name=perfect", "-b", "random", "-variant", "nine-mens-morris,pieces=3",
		"-games", "4", "-q", "-records", recs}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errb.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"match-errors", "-tablebases", dir, recs}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("match-errors: exit %d: %s", code, errb.String())
	}
	t.Logf("\n%s", out.String())
	text := out.String()
	data, err := os.ReadFile(recs)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(data), "[Event ")
	if !strings.HasPrefix(text, strconv.Itoa(n)+" game(s)") || !strings.Contains(text, "of the openings not counted") {
		t.Errorf("got %q, want %d games and the openings' moves said", text, n)
	}
	for _, ph := range []string{"placing", "moving", "flying", "all"} {
		found := false
		for _, line := range strings.Split(text, "\n") {
			f := strings.Fields(line)
			if len(f) == 6 && f[0] == "perfect" && f[1] == ph {
				found = true
				if f[3] != "0" {
					t.Errorf("perfect, %s: got %q, want no errors", ph, line)
				}
			}
		}
		if !found {
			t.Errorf("no row for perfect, %s in\n%s", ph, text)
		}
	}
	if !strings.Contains(text, "random ") {
		t.Errorf("no row for random in\n%s", text)
	}

	_, partial := egdbtest.Build(t, mill.MustRules("nine-mens-morris", "pieces=3", "flying=never"))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{recs}, "-tablebases"},
		{[]string{"-tablebases", dir}, "record files"},
		{[]string{"-tablebases", partial, recs}, "the databases are of"},
		{[]string{"-tablebases", dir, filepath.Join(dir, "none.pgn")}, "none.pgn"},
	} {
		out.Reset()
		errb.Reset()
		code := run(context.Background(), append([]string{"match-errors"}, tc.args...), strings.NewReader(""), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: got exit %d, %q; want exit 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
}
