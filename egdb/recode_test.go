package egdb

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/morrisgame/morris/egdb/internal/wdl"
	"github.com/morrisgame/morris/mill"
)

// TestRecodeVersion2: a compact file whose streams are of version 2
// (testdata, written by 9a47d9f: six men's morris, the moving sectors of
// at most 7 pieces) is still read, every position as its sector files
// say, and RecodeCompact makes it a file of this version that reads the
// same; resumed from its parts, it makes the same bytes.
func TestRecodeVersion2(t *testing.T) {
	src := filepath.Join("testdata", "six-mens-morris-7-v2.wdl")
	old, err := OpenCompact(src)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	r := mill.MustRules("six-mens-morris")
	dir := t.TempDir()
	if _, err := (Builder{Rules: r, Dir: dir, Keys: old.Keys()}).Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if len(db.Keys()) != len(old.Keys()) {
		t.Fatalf("%d sectors built, %d in the file", len(db.Keys()), len(old.Keys()))
	}
	compareCompact(t, db, old, 1)

	dst := filepath.Join(t.TempDir(), "six.wdl")
	if err := RecodeCompact(src, dst, nil); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCompact(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, k := range c.Keys() {
		if v := c.sectors[k].s.Version(); v != wdl.Version {
			t.Fatalf("sector %s recoded to version %d", k, v)
		}
	}
	compareCompact(t, db, c, 1)
	if err := c.Verify(); err != nil {
		t.Fatal(err)
	}

	// A run stopped after its first part goes on from it.
	again := filepath.Join(t.TempDir(), "again.wdl")
	os.MkdirAll(again+".parts", 0o755)
	k := c.Keys()[0]
	if _, err := os.Stat(dst + ".parts"); !os.IsNotExist(err) {
		t.Errorf("the parts are left: %v", err)
	}
	b, err := recodeStream(streamOf(t, src, k))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(again+".parts", partName(k, old.sectors[k].free)), b, 0o644)
	resumed := 0
	if err := RecodeCompact(src, again, func(p CompactProgress) {
		if p.Resumed {
			resumed++
		}
	}); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(dst)
	got, _ := os.ReadFile(again)
	if resumed != 1 || !bytes.Equal(got, want) {
		t.Errorf("resumed %d parts; the files are equal: %v", resumed, bytes.Equal(got, want))
	}
	if err := RecodeCompact(src, src, nil); err == nil {
		t.Error("recoded onto itself")
	}
}

// TestRecodeCurrent: a file of this version recoded is the same file,
// byte for byte (the runs of its stored values are the runs it was
// written with).
func TestRecodeCurrent(t *testing.T) {
	db, _ := sixMens(t)
	src := writeCompact(t, db)
	dst := filepath.Join(t.TempDir(), "recoded.wdl")
	if err := RecodeCompact(src, dst, nil); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(src)
	got, _ := os.ReadFile(dst)
	if !bytes.Equal(got, want) {
		t.Errorf("recoded: %d bytes, differing from the %d written", len(got), len(want))
	}
}

// streamOf returns the stream of sector k in the compact file at path.
func streamOf(t *testing.T, path string, k Key) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, _, streams, err := readManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, si := range m.Sectors {
		if si.Key == k.String() {
			return data[streams+si.Offset : streams+si.Offset+si.Length]
		}
	}
	t.Fatalf("no sector %s", k)
	return nil
}
