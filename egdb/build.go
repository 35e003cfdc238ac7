package egdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/morrisgame/morris/internal/retro"
	"github.com/morrisgame/morris/mill"
)

// Counts summarises a sector: its positions up to symmetry by value for the
// side to move, the unused indices, and the longest win and loss in plies.
type Counts = retro.Counts

// Progress says how far a build has come (see retro.Progress).
type Progress = retro.Progress

// BuildOptions tune Build.
type BuildOptions struct {
	Threads  int            // goroutines; 0: one per processor
	Verify   bool           // re-derive every value from its children after solving (also of sectors already on disk)
	Progress func(Progress) // called from time to time, from one goroutine at a time
	// Done, if not nil, is called when a sector is finished (solved or
	// found on disk, and verified if asked).
	Done func(SectorResult)
}

// SectorResult is what Build did with one sector.
type SectorResult struct {
	Key      Key
	Counts   Counts
	Resumed  bool          // its file was already there and checked out: not solved again
	Verified bool          // the verify pass found every value right
	Solve    time.Duration // time to solve its component (shared with its colour-swapped twin)
	Verify   time.Duration
}

// Build solves the sectors keys, and every sector they depend on, under
// rules r, and writes one file per sector into dir (created if need be). A
// sector whose file is already there and checks out (magic, version,
// checksum, key, size, rules) is loaded instead of solved, so an
// interrupted build resumes where it stopped; files are written whole or
// not at all (temporary files of a killed build are removed at the start;
// run one build at a time per directory). It returns one result per
// sector, in solving order.
func Build(ctx context.Context, r *mill.Rules, dir string, keys []Key, opt BuildOptions) ([]SectorResult, error) {
	x := newIndexer(r.Board())
	g, err := newGame(r, x, keys)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// A build killed while writing leaves a temporary file (never a sector
	// file): remove them. One build at a time per directory.
	if stale, err := filepath.Glob(filepath.Join(dir, ".*.egdb.*.tmp")); err == nil {
		for _, f := range stale {
			os.Remove(f)
		}
	}
	var roots []int
	for _, k := range keys {
		s, _ := g.sector(k)
		roots = append(roots, s)
	}
	vals := make([][]retro.Value, g.NumSectors())
	ropt := retro.Options{Threads: opt.Threads, Progress: opt.Progress}
	var out []SectorResult
	for _, comp := range retro.Components(g, roots) {
		res := make([]SectorResult, len(comp))
		resumed := true
		for l, s := range comp {
			res[l].Key = g.keys[s]
			h, v, err := loadSector(dir, r, g.keys[s], g.Size(s))
			if err != nil {
				return out, err
			}
			if v == nil {
				resumed = false
				break
			}
			vals[s], res[l].Counts, res[l].Resumed = v, h.counts, true
		}
		if !resumed {
			start := time.Now()
			v, counts, err := retro.SolveComponent(ctx, g, comp, func(s int) []retro.Value { return vals[s] }, ropt)
			if err != nil {
				return out, err
			}
			took := time.Since(start)
			for l, s := range comp {
				vals[s] = v[l]
				res[l] = SectorResult{Key: g.keys[s], Counts: counts[l], Solve: took}
				h := fileHeader{key: g.keys[s], n: g.Size(s), counts: counts[l], rules: r.String()}
				if err := writeSector(dir, h, v[l]); err != nil {
					return out, err
				}
			}
		}
		for l, s := range comp {
			if opt.Verify {
				start := time.Now()
				c, err := retro.Verify(ctx, g, s, func(s int) []retro.Value { return vals[s] }, ropt)
				if err != nil {
					return out, fmt.Errorf("egdb: verify %s: %w", g.keys[s], err)
				}
				if c != res[l].Counts {
					return out, fmt.Errorf("egdb: verify %s: counts %+v, the file says %+v", g.keys[s], c, res[l].Counts)
				}
				res[l].Verified, res[l].Verify = true, time.Since(start)
			}
			if opt.Done != nil {
				opt.Done(res[l])
			}
		}
		out = append(out, res...)
	}
	return out, nil
}

// loadSector returns the values of sector k from dir if its file is there
// and checks out, nil values if it is missing or damaged (it will be built
// again), and an error if it belongs to other rules or cannot be read.
func loadSector(dir string, r *mill.Rules, k Key, size int64) (fileHeader, []retro.Value, error) {
	h, v, err := readSector(filepath.Join(dir, k.fileName()), true)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, ErrCorrupt):
		return h, nil, nil
	case err != nil:
		return h, nil, err
	}
	fr, err := mill.ParseRules(h.rules)
	if err != nil || !compatible(fr, r) {
		return h, nil, fmt.Errorf("egdb: %s holds a database of %s, not %s", filepath.Join(dir, k.fileName()), h.rules, r)
	}
	if h.key != k || h.n != size {
		return h, nil, nil
	}
	return h, v, nil
}
