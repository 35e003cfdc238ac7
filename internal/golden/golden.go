// Package golden compares what a test produces with a file kept beside it,
// the golden file, as gofmt's tests do: testdata/NAME.input is what goes
// in, testdata/NAME.golden what must come out. Every package's tests take
// the one flag this package defines:
//
//	go test ./record ./mill -update
//
// rewrites the golden files of those packages from what the code produces
// now, and the tests then compare with what was written (so they pass);
// `git diff testdata` shows what changed. Name the packages: a test binary
// that does not import this package refuses the flag.
//
// It imports the standard library only, so that the tests of every package,
// mill's included, may use it.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files from what the code produces (package internal/golden)")

// Updating reports whether the tests run with -update: a test that makes
// its own files (inputs generated from the rules, say) writes them then.
func Updating() bool { return *update }

// Check compares got with the golden file at path. With -update it writes
// got to path first, creating its folder.
func Check(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("%s: got\n%s\nwant\n%s", path, got, want)
	}
}

// Files runs fn on each dir/*.input, as a subtest named after the file, and
// checks what fn returns against the .golden file beside it. It fails when
// dir holds no input. fn may call t.Parallel.
//
// A format's test should also show that its output is stable (gofmt formats
// its golden output again): fn can run twice and compare, or read back what
// it wrote.
func Files(t *testing.T, dir string, fn func(t *testing.T, input []byte) []byte) {
	t.Helper()
	inputs, err := filepath.Glob(filepath.Join(dir, "*.input"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatalf("no %s", filepath.Join(dir, "*.input"))
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			Check(t, strings.TrimSuffix(in, ".input")+".golden", fn(t, text))
		})
	}
}
