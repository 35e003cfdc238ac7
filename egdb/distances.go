package egdb

import (
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/morrisgame/morris/egdb/internal/dist"
)

// The distances of a compact file are a second file, for those who want
// them: the plies to the end of the game of every won and lost position
// of its sectors, as the sector files hold them, so that a probe says
// "win in 13" and the engine converts a win by the shortest way. It is a
// compact file in all but its streams (the manifest says "distances" and
// no W/D/L version): each sector's distances coded by egdb/internal/dist,
// halved (a win's plies are odd, a loss's even: the W/D/L file says
// which), draws left to cost nothing. docs/egdb.md, "The distances".

// WriteDistances writes the distances of the sectors of db as a file at
// path, to be read with the compact file of the same sectors
// (Compact.AddDistances). As WriteCompact, it writes each sector's stream
// to path+".parts/" first, so that a run stopped part way goes on from
// the sectors done, and reads every stream back against the sector files
// before keeping it. Sectors kept as wins, draws and losses alone
// (Builder.WDLPlacing) have no distances and are left out: with the file
// added, their positions still answer with UnknownPlies.
func WriteDistances(db *DB, path string, progress func(CompactProgress)) error {
	var keys []Key
	for _, k := range db.Keys() {
		if sec := db.sectors[k]; !sec.file.h.wdl {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return errors.New("egdb: no sectors with distances to write")
	}
	dir := path + ".parts"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	m := compactManifest{Format: compactVersion, Rules: db.rules.String(), Index: IndexVersion, Distances: dist.Version}
	m.Moving = optionsText(movingOptions(db.rules))
	m.MovingFingerprint = fingerprint(m.Moving)
	if db.placing {
		m.Placing = optionsText(placingOptions(db.rules))
		m.PlacingFingerprint = fingerprint(m.Placing)
	}
	parts := make([]compactPart, len(keys))
	for i, k := range keys {
		sec := db.sectors[k]
		parts[i] = compactPart{path: filepath.Join(dir, k.String()+".dist")}
		p := CompactProgress{Key: k, Indices: sec.lay.size, Done: i + 1, Sectors: len(keys)}
		if b, err := os.ReadFile(parts[i].path); err == nil {
			if st, err := dist.Open(b); err == nil && st.Len() == sec.lay.size && st.Verify() == nil {
				p.Resumed, p.Bytes, p.Verified = true, int64(len(b)), true
				if progress != nil {
					progress(p)
				}
				continue
			}
		}
		start := time.Now()
		vals, err := distances(sec)
		if err != nil {
			return fmt.Errorf("egdb: sector %s: %w", k, err)
		}
		b, err := dist.Encode(vals)
		if err != nil {
			return fmt.Errorf("egdb: sector %s: %w", k, err)
		}
		p.Coded = time.Since(start)
		st, err := dist.Open(b)
		if err != nil {
			return fmt.Errorf("egdb: sector %s: %w", k, err)
		}
		if err := checkDistances(st, vals); err != nil {
			return fmt.Errorf("egdb: sector %s: %w", k, err)
		}
		p.Checked = time.Since(start) - p.Coded
		if err := writeFileAtomic(parts[i].path, b); err != nil {
			return err
		}
		p.Bytes, p.Verified = int64(len(b)), true
		if progress != nil {
			progress(p)
		}
	}
	if err := assemble(path, m, sectorInfos(db, keys, parts), parts, dist.TablesLen); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// distances returns what a sector's stream holds: for each index of a won
// or lost position its plies halved, dist.DontCare for the draws and the
// unused indices.
func distances(sec *dbSector) ([]uint16, error) {
	if sec.vals.v == nil && sec.vals.wdl != nil {
		return nil, fmt.Errorf("egdb: sector %s holds wins, draws and losses alone (built without distances): no distances to write", sec.key)
	}
	vals := make([]uint16, sec.lay.size)
	n := int64(len(vals))
	parts := int64(runtime.GOMAXPROCS(0))
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := n*p/parts, n*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			var cu cursor
			for i := lo; i < hi; i++ {
				v := sec.vals.v[i]
				if _, _, valid := cu.position(&sec.lay, i); !valid || v.IsDraw() {
					vals[i] = dist.DontCare
					continue
				}
				plies := v.Plies()
				if v.IsWin() != (plies%2 == 1) || plies>>1 > dist.MaxValue {
					errs[p] = fmt.Errorf("%w: index %d holds %s", ErrCorrupt, i, fromRetro(v))
					return
				}
				vals[i] = uint16(plies >> 1)
			}
		}()
	}
	wg.Wait()
	return vals, errors.Join(errs...)
}

// checkDistances reads every chunk of s back and compares it with vals.
func checkDistances(s *dist.Stream, vals []uint16) error {
	if s.Len() != int64(len(vals)) {
		return fmt.Errorf("%w: the stream has %d values, the sector %d", ErrCorrupt, s.Len(), len(vals))
	}
	if err := s.Verify(); err != nil {
		return err
	}
	parts := runtime.GOMAXPROCS(0)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := s.Chunks()*p/parts, s.Chunks()*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]uint16, dist.ChunkLen)
			for c := lo; c < hi; c++ {
				got, err := s.Chunk(c, buf)
				if err != nil {
					errs[p] = err
					return
				}
				for j, v := range got {
					i := c*dist.ChunkLen + j
					if w := vals[i]; w != dist.DontCare && v != w {
						errs[p] = fmt.Errorf("%w: index %d reads %d, the sector holds %d", ErrCorrupt, i, v, w)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// AddDistances opens the file of distances at path (WriteDistances) for
// c's positions: from then on Value, Probe and MoveValues give the plies of
// every won and lost position of the sectors it holds, where they gave
// UnknownPlies. The file must have been written from the sectors c was:
// the same rules (by their fingerprint), the same sectors of the same
// sizes, or it is refused. Call it before c is shared; Close closes both.
func (c *Compact) AddDistances(path string) error {
	data, unmap, err := mapPath(path)
	if err != nil {
		return err
	}
	if err := c.addDistances(data); err != nil {
		unmap()
		return fmt.Errorf("egdb: %s: %w", path, err)
	}
	adviseRandom(data)
	c.unmapDistances = unmap
	return nil
}

func (c *Compact) addDistances(data []byte) error {
	if c.unmapDistances != nil {
		return errors.New("distances added already")
	}
	m, _, streams, err := readManifest(data)
	if err != nil {
		return err
	}
	switch {
	case m.Distances != dist.Version:
		return fmt.Errorf("not a file of distances this program reads (version %d, this program reads %d)", m.Distances, dist.Version)
	case optionsText(movingOptions(c.rules)) != m.Moving:
		return fmt.Errorf("made for %s, whose moving phase is not that of %s: %s", m.Rules, c.rules, differing(optionsText(movingOptions(c.rules)), m.Moving))
	}
	placing := m.Placing != "" && optionsText(placingOptions(c.rules)) == m.Placing
	streamsOf := map[*compactSector]*dist.Stream{}
	for _, si := range m.Sectors {
		k, err := ParseKey(si.Key)
		if err != nil {
			return fmt.Errorf("%w: sector %q", ErrCorrupt, si.Key)
		}
		if si.Offset < 0 || si.Length < 0 || streams+si.Offset+si.Length > int64(len(data))-8 {
			return fmt.Errorf("%w: sector %s at %d, %d bytes", ErrCorrupt, k, si.Offset, si.Length)
		}
		if !k.Moving() && !placing {
			continue
		}
		sec := c.sectors[k]
		if sec == nil || sec.lay.size != si.Indices {
			return fmt.Errorf("sector %s: not in the compact file, or of another size", k)
		}
		b := data[streams+si.Offset : streams+si.Offset+si.Length]
		if crc32.Checksum(streamTables(b, dist.TablesLen), crcC) != si.Tables {
			return fmt.Errorf("%w: sector %s: its tables fail their checksum", ErrCorrupt, k)
		}
		s, err := dist.Open(b)
		if err != nil {
			return fmt.Errorf("sector %s: %w", k, err)
		}
		if s.Len() != sec.lay.size {
			return fmt.Errorf("%w: sector %s: %d distances, the sector has %d indices", ErrCorrupt, k, s.Len(), sec.lay.size)
		}
		s.KeepTables()
		streamsOf[sec] = s
	}
	for sec, s := range streamsOf {
		sec.d = s
	}
	return nil
}

// HasDistances reports whether the distances of every sector of the file
// were added (AddDistances; OpenCompact adds those found beside it): then
// every win and loss has its plies, as in the sector files.
func (c *Compact) HasDistances() bool {
	for _, k := range c.keys {
		if c.sectors[k].d == nil {
			return false
		}
	}
	return len(c.keys) > 0
}

// plies returns the distance of index i of sec, whose result is r (a win
// or a loss), or UnknownPlies where the file has no distances for it.
func (c *Compact) plies(sec *compactSector, i int64, r Result) int {
	if sec.d == nil {
		return UnknownPlies
	}
	u, err := sec.d.At(i)
	if err != nil {
		c.mu.Lock()
		if c.damage == nil {
			c.damage = fmt.Errorf("%w: sector %s, its distances: %w", ErrCorrupt, sec.key, err)
		}
		c.mu.Unlock()
		return UnknownPlies
	}
	if r == Win {
		return 2*int(u) + 1
	}
	return 2 * int(u)
}
