package egdb

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCompactOfDir writes the sectors of the directory EGDB_COMPACT_DIR as
// a compact file (in EGDB_COMPACT_OUT, or a temporary directory) and logs
// each sector's size: how the compact file's model does on sectors too big
// for CI (docs/egdb.md). It skips without EGDB_COMPACT_DIR.
//
//	EGDB_COMPACT_DIR=/work/db/nmm go test -run TestCompactOfDir -v -timeout 2h ./egdb
func TestCompactOfDir(t *testing.T) {
	dir := os.Getenv("EGDB_COMPACT_DIR")
	if dir == "" {
		t.Skip("EGDB_COMPACT_DIR names no directory")
	}
	out := os.Getenv("EGDB_COMPACT_OUT")
	if out == "" {
		out = t.TempDir()
	}
	db, err := Open(dir, CheckInBackground(1))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	var indices, bytes int64
	path := filepath.Join(out, "compact.wdl")
	err = WriteCompact(db, path, func(p CompactProgress) {
		sec := db.sectors[p.Key]
		used := p.Indices - sec.counts.Unused
		indices += used
		bytes += p.Bytes
		t.Logf("%-10s %12d positions %11d bytes %.3f bits a position (W %.3f D %.3f L %.3f)", p.Key, used, p.Bytes,
			float64(8*p.Bytes)/float64(used), float64(sec.counts.Wins)/float64(used), float64(sec.counts.Draws)/float64(used), float64(sec.counts.Losses)/float64(used))
	})
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	t.Logf("all: %d sectors, %d positions, %d bytes of streams, a file of %d bytes: %.3f bits a position, in %v",
		len(db.Keys()), indices, bytes, fi.Size(), float64(8*fi.Size())/float64(indices), time.Since(start).Round(time.Second))
}
