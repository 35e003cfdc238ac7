package egdb

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
	"golang.org/x/sys/unix"
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
		t.Logf("%-10s %12d positions %11d bytes %.3f bits a position (W %.3f D %.3f L %.3f), coded in %v, checked in %v", p.Key, used, p.Bytes,
			float64(8*p.Bytes)/float64(used), float64(sec.counts.Wins)/float64(used), float64(sec.counts.Draws)/float64(used), float64(sec.counts.Losses)/float64(used),
			p.Coded.Round(time.Second/10), p.Checked.Round(time.Second/10))
	})
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	t.Logf("all: %d sectors, %d positions, %d bytes of streams, a file of %d bytes: %.3f bits a position, in %v",
		len(db.Keys()), indices, bytes, fi.Size(), float64(8*fi.Size())/float64(indices), time.Since(start).Round(time.Second))
}

// TestCompactColdProbe measures probes of the compact file EGDB_COMPACT_FILE
// read cold: the file's pages are dropped from the page cache first
// (posix_fadvise), then 2,000 random positions of its sectors are probed
// once each, each timed, and the percentiles logged. It skips without
// EGDB_COMPACT_FILE.
func TestCompactColdProbe(t *testing.T) {
	path := os.Getenv("EGDB_COMPACT_FILE")
	if path == "" {
		t.Skip("EGDB_COMPACT_FILE names no file")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
	f.Close()
	c, err := OpenCompact(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rng := rand.New(rand.NewPCG(48, 1))
	var times []time.Duration
	var ps []mill.Position
	keys := c.Keys()
	for len(times) < 2000 {
		sec := c.sectors[keys[rng.IntN(len(keys))]]
		i := rng.Int64N(sec.lay.size)
		W, B, valid := sec.lay.position(i)
		if !valid {
			continue
		}
		p, err := c.rules.SetUp(mill.Points(W), mill.Points(B), mill.White, sec.key.WhiteHand, sec.key.BlackHand)
		if err != nil {
			continue
		}
		start := time.Now()
		_, ok := c.Result(p)
		times = append(times, time.Since(start))
		if !ok {
			t.Fatalf("%s: no answer (%v)", p, c.Damage())
		}
		ps = append(ps, p)
	}
	slices.Sort(times)
	t.Logf("%d cold probes of %s: p50 %v, p90 %v, p99 %v, max %v", len(times), path, times[len(times)/2], times[len(times)*9/10], times[len(times)*99/100], times[len(times)-1])
	// The same positions again, their pages now in the cache and their
	// blocks checked: warm.
	start := time.Now()
	for range 10 {
		for _, p := range ps {
			c.Result(p)
		}
	}
	t.Logf("the same positions warm: %v a probe", time.Since(start)/time.Duration(10*len(ps)))
}

// TestCaptureMasksOf times captureMasks over one sector, EGDB_MASKS_KEY of
// the directory EGDB_MASKS_DIR (which must hold its capture sector), for a
// profile of what WriteCompact spends:
//
//	EGDB_MASKS_DIR=DIR EGDB_MASKS_KEY=7v7h1-1 go test -run TestCaptureMasksOf -v -cpuprofile cpu.prof ./egdb
func TestCaptureMasksOf(t *testing.T) {
	dir, key := os.Getenv("EGDB_MASKS_DIR"), os.Getenv("EGDB_MASKS_KEY")
	if dir == "" || key == "" {
		t.Skip("EGDB_MASKS_DIR and EGDB_MASKS_KEY name no sector")
	}
	k, err := ParseKey(key)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, CheckInBackground(1))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g, err := newGame(db.rules, db.x, db.Keys())
	if err != nil {
		t.Fatal(err)
	}
	s := g.id[k]
	allowed := make([]byte, g.lay[s].size)
	start := time.Now()
	captureMasks(db, g, s, captureFree(db, g, s), allowed)
	t.Logf("%s: masks of %d indices in %v", k, len(allowed), time.Since(start))
}
