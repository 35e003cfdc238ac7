package egdb

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb/internal/wdl"
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
// once each, each timed, and the percentiles logged, with the time the
// open took (it reads the streams' tables, kept in memory). It skips without
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
	opened := time.Now()
	c, err := OpenCompact(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	t.Logf("opened cold in %v (the manifest, and every stream's tables read, checked and kept)", time.Since(opened))
	rng := rand.New(rand.NewPCG(48, 1))
	var times []time.Duration
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
	}
	slices.Sort(times)
	t.Logf("%d cold probes of %s: p50 %v, p90 %v, p99 %v, max %v (warm: BenchmarkCompactProbe)", len(times), path, times[len(times)/2], times[len(times)*9/10], times[len(times)*99/100], times[len(times)-1])
}

// TestCodeSectorOf times what WriteCompact spends on one sector,
// EGDB_MASKS_KEY of the directory EGDB_MASKS_DIR (which must hold its
// capture sector): the values read as masks, the stream coded with the
// captures read where they may change the runs, and the check; with the
// share of the indices whose captures were read. For a profile:
//
//	EGDB_MASKS_DIR=DIR EGDB_MASKS_KEY=7v7h1-1 go test -run TestCodeSectorOf -v -cpuprofile cpu.prof ./egdb
func TestCodeSectorOf(t *testing.T) {
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
	start := time.Now()
	allowed, newFull := sectorMasks(db, g, s, captureFree(db, g, s))
	read := time.Since(start)
	b, err := wdl.EncodeLazy(allowed, newFull)
	if err != nil {
		t.Fatal(err)
	}
	coded := time.Since(start) - read
	st, err := wdl.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkStream(st, allowed); err != nil {
		t.Fatal(err)
	}
	checked := time.Since(start) - read - coded
	asked := 0
	for _, m := range allowed {
		if m&wdl.Known != 0 {
			asked++
		}
	}
	n := len(allowed)
	t.Logf("%s: %d indices, %d bytes; the values read in %v, coded in %v (the captures of %.1f%% of the indices read), checked in %v: %.0f ns an index",
		k, n, len(b), read, coded, 100*float64(asked)/float64(n), checked, float64(time.Since(start).Nanoseconds())/float64(n))
}

// BenchmarkCompactProbe probes random positions of the compact file
// EGDB_COMPACT_FILE, warm (the same 4,096 positions over and over, their
// blocks in the page cache and checked); BenchmarkCompactProbeCold drops
// the file's pages from the page cache (posix_fadvise) before each probe,
// outside the timing. Both skip without EGDB_COMPACT_FILE.
//
//	EGDB_COMPACT_FILE=FILE go test -run - -bench CompactProbe -benchtime 20000x ./egdb
func BenchmarkCompactProbe(b *testing.B) { benchCompactProbe(b, false) }

func BenchmarkCompactProbeCold(b *testing.B) { benchCompactProbe(b, true) }

func benchCompactProbe(b *testing.B, cold bool) {
	path := os.Getenv("EGDB_COMPACT_FILE")
	if path == "" {
		b.Skip("EGDB_COMPACT_FILE names no file")
	}
	c, err := OpenCompact(path)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rng := rand.New(rand.NewPCG(48, 2))
	ps := make([]mill.Position, 0, 4096)
	keys := c.Keys()
	for len(ps) < cap(ps) {
		sec := c.sectors[keys[rng.IntN(len(keys))]]
		W, B, valid := sec.lay.position(rng.Int64N(sec.lay.size))
		if !valid {
			continue
		}
		if p, err := c.rules.SetUp(mill.Points(W), mill.Points(B), mill.White, sec.key.WhiteHand, sec.key.BlackHand); err == nil {
			ps = append(ps, p)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if cold {
			b.StopTimer()
			if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if _, ok := c.Result(ps[i%len(ps)]); !ok {
			b.Fatalf("%s: no answer (%v)", ps[i%len(ps)], c.Damage())
		}
	}
}
