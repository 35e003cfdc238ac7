package egdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/mill"
)

// Counts summarises a sector: its positions up to symmetry by value for the
// side to move, the unused indices, and the longest win and loss in plies.
type Counts struct {
	Wins, Draws, Losses int64
	Unused              int64 // indices that are no position (a symmetric duplicate, or no valid set)
	LongestWin          int   // plies
	LongestLoss         int
}

// Positions returns the number of positions (up to symmetry): the wins,
// draws and losses.
func (c Counts) Positions() int64 { return c.Wins + c.Draws + c.Losses }

// countsOf converts the solver's counts: the fields are the same, and a
// change to either is a compile error here.
func countsOf(c retro.Counts) Counts { return Counts(c) }

// Progress says how far a build has come, from time to time while a
// group of sectors is solved or verified.
type Progress struct {
	Sectors string // the sectors being worked on, by name ("5v3+3v5")
	// Phase is what the build is doing: "count" (the first pass over the
	// positions, every move of each), "levels" (the retrograde passes,
	// one a distance to the end), "verify" (Builder.Verify). Two are
	// news rather than progress: "checkpoint" once a checkpoint is
	// written (Took says how long that took), and "resumed" once a solve
	// goes on from one (Level is then the first level still to scan).
	Phase string
	Level int           // in "levels": the distance being settled
	Done  int64         // positions done (in "levels": settled so far)
	Total int64         // positions in all (in "levels": every valid position)
	Took  time.Duration // in "checkpoint"
}

// progressOf converts the solver's progress, as countsOf its counts.
func progressOf(p retro.Progress) Progress { return Progress(p) }

// A Builder builds endgame databases: the sectors Keys and every sector
// they depend on, under Rules, one file per sector in Dir. The zero value
// of each other field is a sensible default:
//
//	results, err := egdb.Builder{Rules: r, Dir: dir, Keys: egdb.MovingSectors(r, 6)}.Build(ctx)
type Builder struct {
	Rules *mill.Rules
	Dir   string // created if need be; Plan does not use it
	Keys  []Key  // the sectors asked for (MovingSectors, StartKey, ParseKey)

	Threads  int            // goroutines; 0: one per processor
	Verify   bool           // re-derive every value from its children after solving (also of sectors already on disk)
	Progress func(Progress) // called from time to time, from one goroutine at a time
	// CheckpointEvery: while a component is solved, its state is kept in
	// DIR/.NAMES.ckpt (6 bytes an index) at most this often (10 minutes if
	// zero; a negative value: never), and a build killed in the middle of
	// the component goes on from there. The file goes once the
	// component's sectors are written.
	CheckpointEvery time.Duration
	// Done, if not nil, is called when a sector is finished (solved or
	// found on disk, and verified if asked).
	Done func(SectorResult)
	// Resident: the sectors a component depends on are copied into memory
	// (huge pages where the system has them) up to this many bytes in all,
	// and read from there instead of through their files' maps, which
	// makes the reads of the count pass faster (BenchmarkLookup); those
	// past it are read through their maps. 0: none.
	Resident int64
	// WDLPlacing keeps the sectors of the placing phase as wins, draws and
	// losses alone, 2 bits an index instead of 2 bytes, with no distances
	// (DB.Value answers them with UnknownPlies): the placing phase of
	// twelve men's morris fits a disk only so. Each is solved by one pass
	// over its children (solveWDL) and verified by another (verifyWDL).
	// A build without it refuses to go on from such sectors: its own need
	// the distances below them.
	WDLPlacing bool
}

// SectorResult is what Build did with one sector.
type SectorResult struct {
	Key     Key
	Counts  Counts
	Resumed bool // its file was already there and checked out: not solved again
	// FromCheckpoint: solved, going on from the checkpoint of a build that
	// stopped in the middle of its component (Solve is this run's part).
	FromCheckpoint bool
	Verified       bool          // the verify pass found every value right
	VerifiedBefore bool          // Verified by an earlier run: its mark names this very file (Verify is that run's time)
	Indices        int64         // values in its file (positions up to symmetry, and unused indices)
	WDL            bool          // its file holds wins, draws and losses alone (Builder.WDLPlacing): no longest win or loss
	Solve          time.Duration // time to solve its component (shared with its colour-swapped twin)
	Verify         time.Duration
}

// Planned is a sector a build will hold, in solving order.
type Planned struct {
	Key     Key
	Indices int64 // values in its file (2 bytes each)
}

// Plan returns the sectors that Build builds: the Keys and every sector
// they depend on, in the order Build solves them.
func (b Builder) Plan() ([]Planned, error) {
	g, err := newGame(b.Rules, newIndexer(b.Rules.Board()), b.Keys)
	if err != nil {
		return nil, err
	}
	var out []Planned
	for _, comp := range retro.Components(g, g.roots(b.Keys)) {
		for _, s := range comp {
			out = append(out, Planned{g.keys[s], g.Size(s)})
		}
	}
	return out, nil
}

func (g *game) roots(keys []Key) []int {
	var roots []int
	for _, k := range keys {
		s, _ := g.sector(k)
		roots = append(roots, s)
	}
	return roots
}

// Build solves the sectors Keys, and every sector they depend on, under
// Rules, and writes one file per sector into Dir. A sector whose file is
// already there and checks out (magic, version, checksum, key, size,
// rules) is loaded instead of solved, so an interrupted build resumes
// where it stopped; files are written whole or not at all (temporary
// files of a killed build are removed at the start; run one build at a
// time per directory). It returns one result per sector, in solving order.
//
// Memory: only the component being solved is in the heap (6 bytes an
// index while solving, 4 when no move stays in it). The sectors it depends
// on are copied into memory up to Resident bytes, and the others read
// from their files through memory maps; a sector is let go once no later
// component needs it, so the whole moving phase of nine men's morris (9.2
// billion indices, 18 GB of files) builds in the memory of its largest
// component and that component's dependencies.
func (b Builder) Build(ctx context.Context) ([]SectorResult, error) {
	r, dir, keys := b.Rules, b.Dir, b.Keys
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
	for _, pattern := range []string{".*.egdb.*.tmp", ".*.ckpt.tmp"} {
		if stale, err := filepath.Glob(filepath.Join(dir, pattern)); err == nil {
			for _, f := range stale {
				os.Remove(f)
			}
		}
	}
	comps := retro.Components(g, g.roots(keys))
	// lastUse[s]: the last component that reads sector s (its own, or one
	// that depends on it).
	lastUse := make([]int, g.NumSectors())
	for ci, comp := range comps {
		for _, s := range comp {
			lastUse[s] = max(lastUse[s], ci)
			for _, d := range g.Deps(s) {
				lastUse[d] = max(lastUse[d], ci)
			}
		}
	}
	files := make([]*sectorFile, g.NumSectors())
	// resident[s]: the bytes of sector s copied into memory (Resident).
	resident := make([]int64, g.NumSectors())
	var residentUsed int64
	defer func() {
		for _, f := range files {
			if f != nil {
				f.close()
			}
		}
	}()
	vals := func(s int) []retro.Value {
		if files[s] == nil {
			return nil
		}
		return files[s].vals.v
	}
	anyVals := func(s int) values {
		if files[s] == nil {
			return values{}
		}
		return files[s].vals
	}
	// need maps sector d, which must be on disk already, unless it is,
	// and copies it into memory if Resident leaves room.
	//
	// need2 is need for a solver that reads distances (retro's): a sector
	// kept as W/D/L alone is an error.
	need := func(d int) error {
		if files[d] == nil {
			f, err := loadSector(dir, r, g.keys[d], g.Size(d))
			if err != nil {
				return err
			}
			if f == nil {
				return fmt.Errorf("egdb: %s is needed and its file is missing or damaged", g.keys[d])
			}
			files[d] = f
		}
		f := files[d]
		if size := int64(len(f.vals.v)) * valueBytes; resident[d] == 0 && size > 0 && residentUsed+size <= b.Resident {
			if err := f.resident(); err != nil {
				return err
			}
			residentUsed += size
			resident[d] = size
		}
		return nil
	}
	need2 := func(d int) error {
		if err := need(d); err != nil {
			return err
		}
		if files[d].h.wdl {
			return fmt.Errorf("egdb: %s holds wins, draws and losses alone (a build with WDLPlacing, morris solve -wdl-placing) and %s needs its distances: build on with it, or remove its file", g.keys[d], dir)
		}
		return nil
	}
	// onePass: the component is a sector of the placing phase solved by
	// solveWDL.
	onePass := func(comp []int) bool {
		return b.WDLPlacing && len(comp) == 1 && !g.keys[comp[0]].Moving() && !slices.Contains(g.deps[comp[0]], comp[0])
	}
	var progress func(retro.Progress)
	if b.Progress != nil {
		progress = func(p retro.Progress) { b.Progress(progressOf(p)) }
	}
	ropt := retro.Options{Threads: b.Threads, Progress: progress, CheckpointTag: r.String(), CheckpointEvery: b.CheckpointEvery}
	var out []SectorResult
	for ci, comp := range comps {
		res := make([]SectorResult, len(comp))
		var names []string
		for _, s := range comp {
			names = append(names, g.keys[s].String())
		}
		checkpoint := filepath.Join(dir, "."+strings.Join(names, "+")+".ckpt")
		resumed := true
		for l, s := range comp {
			res[l].Key = g.keys[s]
			f, err := loadSector(dir, r, g.keys[s], g.Size(s))
			if err != nil {
				return out, err
			}
			if f == nil {
				resumed = false
				break
			}
			files[s], res[l].Counts, res[l].Resumed = f, f.h.counts, true
		}
		if !resumed {
			for _, s := range comp {
				if files[s] != nil {
					files[s].close()
					files[s] = nil
				}
			}
			// The sectors this component depends on, from their files.
			for _, s := range comp {
				for _, d := range g.Deps(s) {
					if slices.Contains(comp, d) {
						continue
					}
					load := need2
					if onePass(comp) {
						load = need
					}
					if err := load(d); err != nil {
						return out, err
					}
				}
			}
			start := time.Now()
			if onePass(comp) {
				s := comp[0]
				packed, counts, err := solveWDL(ctx, g, s, anyVals, threads(b.Threads), progress)
				if err != nil {
					return out, err
				}
				res[0] = SectorResult{Key: g.keys[s], Counts: counts, Solve: time.Since(start)}
				h := fileHeader{key: g.keys[s], n: g.Size(s), counts: counts, rules: r.String()}
				if err := writeSectorWDL(dir, h, packed); err != nil {
					return out, err
				}
				packed = nil
				f, err := openSector(filepath.Join(dir, g.keys[s].fileName()), false)
				if err != nil {
					return out, err
				}
				files[s] = f
			} else {
				copt := ropt
				fromCheckpoint := false
				if b.CheckpointEvery >= 0 {
					copt.Checkpoint = checkpoint
					copt.Progress = func(p retro.Progress) {
						if p.Phase == "resumed" {
							fromCheckpoint = true
						}
						if progress != nil {
							progress(p)
						}
					}
				}
				v, counts, err := retro.SolveComponent(ctx, g, comp, vals, copt)
				if err != nil {
					return out, err
				}
				took := time.Since(start)
				for l, s := range comp {
					res[l] = SectorResult{Key: g.keys[s], Counts: countsOf(counts[l]), Solve: took, FromCheckpoint: fromCheckpoint}
					h := fileHeader{key: g.keys[s], n: g.Size(s), counts: res[l].Counts, rules: r.String()}
					if err := writeSector(dir, h, v[l]); err != nil {
						return out, err
					}
					v[l] = nil
					// From now on the sector is read from its file, like
					// one found on disk.
					f, err := openSector(filepath.Join(dir, g.keys[s].fileName()), false)
					if err != nil {
						return out, err
					}
					files[s] = f
				}
				v = nil
			}
			runtime.GC()
			debug.FreeOSMemory()
		}
		// The sectors are on disk: their checkpoint (if any) is spent.
		if err := os.Remove(checkpoint); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return out, err
		}
		for l, s := range comp {
			res[l].Indices, res[l].WDL = g.Size(s), files[s].h.wdl
			if b.Verify {
				if took, ok := wasVerified(dir, g.keys[s], files[s].sum); ok {
					// Verified by an earlier run, this very file.
					res[l].Verified, res[l].VerifiedBefore, res[l].Verify = true, true, took
				} else {
					wdl := files[s].h.wdl
					for _, d := range g.Deps(s) {
						load := need2
						if wdl {
							load = need
						}
						if err := load(d); err != nil {
							return out, err
						}
					}
					start := time.Now()
					var c retro.Counts
					var err error
					if wdl {
						var wc Counts
						wc, err = verifyWDL(ctx, g, s, files[s].vals.wdl, anyVals, threads(b.Threads), progress)
						c = retro.Counts(wc)
					} else {
						c, err = retro.Verify(ctx, g, s, vals, ropt)
					}
					if err != nil {
						return out, fmt.Errorf("egdb: verify %s: %w", g.keys[s], err)
					}
					if c := countsOf(c); c != res[l].Counts {
						return out, fmt.Errorf("egdb: verify %s: counts %+v, the file says %+v", g.keys[s], c, res[l].Counts)
					}
					res[l].Verified, res[l].Verify = true, time.Since(start)
					if err := markVerified(dir, g.keys[s], files[s].sum, res[l].Verify); err != nil {
						return out, err
					}
				}
			}
			if b.Done != nil {
				b.Done(res[l])
			}
		}
		out = append(out, res...)
		// Unmap what no later component reads.
		for s, f := range files {
			if f != nil && lastUse[s] <= ci {
				f.close()
				files[s] = nil
				residentUsed -= resident[s]
				resident[s] = 0
			}
		}
	}
	return out, nil
}

// loadSector opens the file of sector k in dir if it is there and checks
// out (checksum included), nil if it is missing or damaged (it will be
// built again), and an error if it belongs to other rules or cannot be read.
func loadSector(dir string, r *mill.Rules, k Key, size int64) (*sectorFile, error) {
	path := filepath.Join(dir, k.fileName())
	f, err := openSector(path, true)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, ErrCorrupt):
		return nil, nil
	case err != nil:
		return nil, err
	}
	fr, err := mill.ParseRules(f.h.rules)
	if err != nil || !compatibleFor(k, fr, r) {
		f.close()
		return nil, fmt.Errorf("egdb: %s holds a database of %s, not %s", path, f.h.rules, r)
	}
	if f.h.key != k || f.h.n != size {
		f.close()
		return nil, nil
	}
	return f, nil
}

// threads is the goroutines of a pass: n, or one per processor.
func threads(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}
