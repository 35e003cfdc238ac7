package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

func TestEngine(t *testing.T) {
	script := "uci\nisready\nsetoption name Hash value 4\nposition startpos moves d6 d5\ngo depth 3\n"
	var out, errb bytes.Buffer
	if err := cmdEngine(context.Background(), []string{"-hash", "4", "-level", "10"}, strings.NewReader(script), &out, &errb); err != nil {
		t.Fatalf("cmdEngine: %v (stderr %q)", err, errb.String())
	}
	for _, want := range []string{"id name Morris\n", "uciok\n", "readyok\n", "info depth 3 ", "\nbestmove "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "bestmove "); n != 1 {
		t.Errorf("one go: %d bestmoves", n)
	}

	// The flags are the defaults the engine announces.
	out.Reset()
	if err := cmdEngine(context.Background(), []string{"-variant", "shah", "-level", "4", "-threads", "2", "-hash", "8"}, strings.NewReader("uci\nquit\n"), &out, &errb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Variant type combo default shah ", "Level type spin default 4 ", "Threads type spin default 2 ", "Hash type spin default 8 "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestEngineBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-level", "0"}, {"-level", "11"}, {"-hash", "0"}, {"-threads", "0"}, {"-threads", "1000"},
		{"-variant", "checkers"}, {"-variant", "nine-mens-morris,flying=sometimes"}, {"extra"}, {"-nosuchflag"},
	} {
		var out, errb bytes.Buffer
		err := cmdEngine(context.Background(), args, strings.NewReader("uci\n"), &out, &errb)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: got %v, want a usage error", args, err)
		}
		if out.Len() > 0 {
			t.Errorf("%q: the engine started: %q", args, out.String())
		}
	}
}
