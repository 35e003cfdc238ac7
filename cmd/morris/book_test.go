package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrisgame/morris/book"
)

func bookCmd(args ...string) (stdout, stderr string, err error) {
	return bookCmdContext(context.Background(), args...)
}

func bookCmdContext(ctx context.Context, args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	err = cmdBook(ctx, args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

// TestBook builds a book of one ply with a shallow search, extends it to
// two, then is cut in the middle of a line and goes on.
func TestBook(t *testing.T) {
	file := filepath.Join(t.TempDir(), "small.book")
	build := func(plies string) string {
		t.Helper()
		out, errs, err := bookCmd("-plies", plies, "-depth", "1", "-hash", "1", "-out", file)
		if err != nil {
			t.Fatalf("-plies %s: %v\n%s", plies, err, errs)
		}
		return out
	}
	read := func() (*book.Book, []byte) {
		t.Helper()
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		b, err := book.Parse(bytes.NewReader(text))
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		return b, text
	}

	if out, want := build("1"), file+": 4 positions (4 new)\n"; out != want {
		t.Errorf("-plies 1: got %q, want %q", out, want)
	}
	b, text := read()
	const made = "# Made by: morris book -variant nine-mens-morris -plies 1 -deeper 0 -margin 0 -depth 1 -hash 1\n"
	if b.Len() != 4 || !bytes.Contains(text, []byte(made)) {
		t.Errorf("-plies 1: %d positions, want 4 and the line %q in\n%s", b.Len(), made, text)
	}
	if out, want := build("2"), file+": 50 positions (46 new)\n"; out != want {
		t.Errorf("-plies 2: got %q, want %q", out, want)
	}
	_, whole := read()
	if bytes.Count(whole, []byte("# An opening book")) != 1 || bytes.Count(whole, []byte("# Made by:")) != 2 ||
		!bytes.Contains(whole, []byte(strings.Replace(made, "-plies 1", "-plies 2", 1))) {
		t.Errorf("the book grown: want one header and the two commands in it:\n%s", whole)
	}
	// A run cut short in the middle of its last line: the line is written again.
	if err := os.WriteFile(file, whole[:len(whole)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	if out, want := build("2"), file+": 50 positions (1 new)\n"; out != want {
		t.Errorf("resumed: got %q, want %q", out, want)
	}
	if _, again := read(); !bytes.Equal(again, whole) {
		t.Errorf("resumed: got\n%s\nwant\n%s", again, whole)
	}

	out, _, err := bookCmd("-show", "-book", file, "-moves", "d2")
	if err != nil || !strings.Contains(out, "book:     all 23 moves\n") || !strings.Contains(out, "score:    cp ") {
		t.Errorf("-show -moves d2: %v\n%s", err, out)
	}
}

// TestBookInterrupted: an interrupted build says so and how to go on.
func TestBookInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	file := filepath.Join(t.TempDir(), "b.book")
	_, _, err := bookCmdContext(ctx, "-plies", "1", "-depth", "1", "-hash", "1", "-out", file, "-q")
	if err == nil || !strings.Contains(err.Error(), "interrupted: 0 positions") || !strings.Contains(err.Error(), "the same command goes on") {
		t.Errorf("got %v, want an interruption", err)
	}
}

// TestBookShow prints a book of the testdata (frozen scores) and the
// counts of positions.
func TestBookShow(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"book-show-start", []string{"-show", "-book", "testdata/small.book"}},
		{"book-show-d2", []string{"-show", "-book", "testdata/small.book", "-moves", "d2"}},
		{"book-show-out", []string{"-show", "-book", "testdata/small.book", "-moves", "d2 f4"}},
		{"book-count", []string{"-count", "-plies", "3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, err := bookCmd(tc.args...)
			if err != nil {
				t.Fatalf("%v: %s", err, errs)
			}
			checkGolden(t, tc.name, out)
		})
	}
	// The book built into the program knows the first move.
	out, _, err := bookCmd("-show")
	if err != nil || !strings.Contains(out, "book:     all 24 moves\n") {
		t.Errorf("-show: %v\n%s", err, out)
	}
}

func TestBookBadInput(t *testing.T) {
	dir := t.TempDir()
	notBook := filepath.Join(dir, "not.book")
	const text = "not a book\n"
	if err := os.WriteFile(notBook, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "b.book")
	for _, args := range [][]string{
		{"-out", out},   // no -plies
		{"-plies", "1"}, // no -out
		{"-plies", "1", "-out", out, "-depth", "2", "-movetime", "5"},
		{"-plies", "1", "-out", out, "-margin", "-1"},
		{"-plies", "1", "-out", out, "-deeper", "-1"},
		{"-plies", "1", "-out", out, "-hash", "0"},
		{"-plies", "1", "-out", out, "-variant", "nope"},
		{"-plies", "1", "-out", out, "-moves", "d2"}, // for -show
		{"-plies", "1", "-out", dir},                 // a directory
		{"-plies", "1", "-out", notBook},             // not a book: left alone
		{"-show", "-plies", "2"},
		{"-show", "-book", filepath.Join(dir, "none.book")},
		{"-show", "-book", notBook},
		{"-show", "-moves", "d2 d2"},
		{"-show", "x"},
	} {
		_, _, err := bookCmd(args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
	if got, err := os.ReadFile(notBook); err != nil || string(got) != text {
		t.Errorf("a file that is not a book: got %q, %v, want it untouched", got, err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s made by a bad command", out)
	}
}
