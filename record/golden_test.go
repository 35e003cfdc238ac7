package record

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// readAll reads every record of text.
func readAll(text []byte) ([]*Record, error) {
	sc := NewScanner(bytes.NewReader(text))
	var recs []*Record
	for sc.Scan() {
		recs = append(recs, sc.Record())
	}
	return recs, sc.Err()
}

// writeAll writes the records with a Writer.
func writeAll(recs []*Record) ([]byte, error) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			return nil, err
		}
	}
	err := w.Flush()
	return buf.Bytes(), err
}

// TestGolden reads each testdata/*.input, replays its games, writes them, and
// compares with the .golden file; then it reads the golden file and writes it
// again, which must give the same bytes.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.input"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no testdata/*.input")
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := readAll(text)
			if err != nil {
				t.Fatalf("reading %s: %v", in, err)
			}
			for i, r := range recs {
				if _, err := r.Game(); err != nil {
					t.Errorf("%s game %d: %v", in, i+1, err)
				}
			}
			got, err := writeAll(recs)
			if err != nil {
				t.Fatalf("writing: %v", err)
			}
			golden := strings.TrimSuffix(in, ".input") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("writing %s: got\n%s\nwant (%s)\n%s", in, got, golden, want)
			}

			// The golden output is stable.
			recs2, err := readAll(want)
			if err != nil {
				t.Fatalf("reading %s: %v", golden, err)
			}
			if len(recs2) != len(recs) {
				t.Fatalf("%s: %d records, the input has %d", golden, len(recs2), len(recs))
			}
			again, err := writeAll(recs2)
			if err != nil {
				t.Fatalf("writing %s again: %v", golden, err)
			}
			if !bytes.Equal(again, want) {
				t.Errorf("%s is not stable: got\n%s\nwant\n%s", golden, again, want)
			}
			for i := range recs {
				g1, err1 := recs[i].Game()
				g2, err2 := recs2[i].Game()
				if err1 != nil || err2 != nil {
					t.Errorf("game %d: replays with %v and %v", i+1, err1, err2)
					continue
				}
				if !equalMoves(g1.Moves(), g2.Moves()) || g1.Outcome() != g2.Outcome() || g1.Method() != g2.Method() {
					t.Errorf("game %d: the golden record replays %s, the input %s", i+1, Summary(g2), Summary(g1))
				}
			}
		})
	}
}
