package record

import (
	"bytes"
	"testing"

	"github.com/morrisgame/morris/internal/golden"
)

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
// compares with the .golden file; then it reads what it wrote and writes it
// again, which must give the same bytes.
func TestGolden(t *testing.T) {
	golden.Files(t, "testdata", func(t *testing.T, text []byte) []byte {
		recs, err := readAll(text)
		if err != nil {
			t.Fatalf("reading: %v", err)
		}
		for i, r := range recs {
			if _, err := r.Game(); err != nil {
				t.Errorf("game %d: %v", i+1, err)
			}
		}
		got, err := writeAll(recs)
		if err != nil {
			t.Fatalf("writing: %v", err)
		}

		// The output is stable.
		recs2, err := readAll(got)
		if err != nil {
			t.Fatalf("reading what was written: %v", err)
		}
		if len(recs2) != len(recs) {
			t.Fatalf("%d records written, the input has %d", len(recs2), len(recs))
		}
		again, err := writeAll(recs2)
		if err != nil {
			t.Fatalf("writing again: %v", err)
		}
		if !bytes.Equal(again, got) {
			t.Errorf("the output is not stable: got\n%s\nwant\n%s", again, got)
		}
		for i := range recs {
			g1, err1 := recs[i].Game()
			g2, err2 := recs2[i].Game()
			if err1 != nil || err2 != nil {
				t.Errorf("game %d: replays with %v and %v", i+1, err1, err2)
				continue
			}
			if !equalMoves(g1.Moves(), g2.Moves()) || g1.Outcome() != g2.Outcome() || g1.Method() != g2.Method() {
				t.Errorf("game %d: the record written replays %s, the input %s", i+1, Summary(g2), Summary(g1))
			}
		}
		return got
	})
}
