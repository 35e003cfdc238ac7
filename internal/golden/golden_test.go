package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestUpdateThenCheck: with -update the files are written from what the
// test produces (folders made), and a run without it compares with them.
func TestUpdateThenCheck(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b"} {
		if err := os.WriteFile(filepath.Join(dir, name+".input"), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	upper := func(t *testing.T, in []byte) []byte { return bytes.ToUpper(in) }
	defer func(was bool) { *update = was }(*update)
	*update = true
	Files(t, dir, upper)
	Check(t, filepath.Join(dir, "new", "c.golden"), []byte("C"))
	for name, want := range map[string]string{"a.golden": "A", "b.golden": "B", "new/c.golden": "C"} {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != want {
			t.Errorf("%s: got %q, %v; want %q", name, got, err, want)
		}
	}
	*update = false
	Files(t, dir, upper)
	Check(t, filepath.Join(dir, "new", "c.golden"), []byte("C"))
}
