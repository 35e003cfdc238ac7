package egdb

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/morrisgame/morris/egdb/internal/dist"
	"github.com/morrisgame/morris/egdb/internal/wdl"
	"github.com/morrisgame/morris/mill"
)

// The compact file holds the value of every position of its sectors as a
// win, draw or loss only (no distance), compressed (egdb/internal/wdl) so
// that any one position is read on its own from a memory map. It is what a
// user carries instead of the sector files (docs/egdb.md, "The compact
// file"). All numbers little-endian:
//
//	offset  size  what
//	0       8     magic "MORRISWD"
//	8       4     format version (2)
//	12      4     M, the length of the manifest
//	16      M     the manifest, JSON (compactManifest)
//	…             zeros to a multiple of 8
//	…             the sectors' W/D/L streams (wdl), each at the offset the
//	              manifest gives (counted from the first), each a multiple
//	              of 8 long (zero padded)
//	end-8   8     CRC-64 (ECMA) of the first 16+M bytes
//
// The streams check themselves: each block of 32,768 positions has a
// CRC-32C, checked before its first read, and each stream's header and
// tables a CRC-32C in the manifest, checked when the file is opened. The
// manifest says which rules the values hold for, as the options that
// decide them and their SHA-256, so that a file is never probed for a game
// it was not made for.
const (
	compactMagic   = "MORRISWD"
	compactVersion = 2
)

// IndexVersion is the version of the index of positions in their sectors
// (index.go): the order the values are stored in. A compact file records
// it and is refused by a program whose index differs.
const IndexVersion = 1

// compactManifest is what a compact file says of itself.
type compactManifest struct {
	Format int `json:"format"`
	// Rules is the rules the sector files were built for, as text.
	Rules string `json:"rules"`
	// Moving and Placing are the options that decide the values of the
	// moving and the placing phase ("name=value,..."); the fingerprints
	// are their SHA-256, hex.
	Moving             string `json:"moving"`
	MovingFingerprint  string `json:"movingFingerprint"`
	Placing            string `json:"placing,omitempty"`
	PlacingFingerprint string `json:"placingFingerprint,omitempty"`
	Index              int    `json:"index"`
	WDL                int    `json:"wdl"`
	// Distances is the version of the distances' coding (egdb/internal/
	// dist) in a file of distances (WriteDistances), whose WDL is 0.
	Distances int                 `json:"distances,omitempty"`
	Sectors   []compactSectorInfo `json:"sectors"`
}

// compactSectorInfo is a sector in the manifest.
type compactSectorInfo struct {
	Key     string `json:"key"`
	Indices int64  `json:"indices"`
	Wins    int64  `json:"wins"`
	Draws   int64  `json:"draws"`
	Losses  int64  `json:"losses"`
	Unused  int64  `json:"unused"`
	Offset  int64  `json:"offset"`
	Length  int64  `json:"length"`
	// Tables is the CRC-32C of the stream's header and tables (the
	// blocks carry their own).
	Tables uint32 `json:"tables"`
	// CaptureFree: a position whose captures reach its value may store
	// any value below it; a reader takes the best of the stored value
	// and the captures' (captures.go).
	CaptureFree bool `json:"captureFree,omitempty"`
}

// optionsText is the options of o as "name=value,...", every option of
// mill.OptionList in its order: the canonical text a fingerprint hashes.
func optionsText(o mill.Options) string {
	parts := make([]string, 0, len(mill.OptionList))
	for _, opt := range mill.OptionList {
		parts = append(parts, opt.Name+"="+opt.Get(&o))
	}
	return strings.Join(parts, ",")
}

func fingerprint(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// differing names the options whose values differ between two option
// texts, as "flying=3 here, never in the file".
func differing(here, file string) string {
	a, b := strings.Split(here, ","), strings.Split(file, ",")
	var out []string
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			name, v, _ := strings.Cut(a[i], "=")
			_, w, _ := strings.Cut(b[i], "=")
			out = append(out, fmt.Sprintf("%s=%s here, %s in the file", name, v, w))
		}
	}
	if len(out) == 0 {
		return "the option lists differ"
	}
	return strings.Join(out, "; ")
}

// symbolOf is a value's W/D/L symbol.
func symbolOf(v Value) byte {
	switch v.Result {
	case Win:
		return wdl.Win
	case Loss:
		return wdl.Loss
	}
	return wdl.Draw
}

// A CompactProgress is a step of WriteCompact: a sector coded (or found
// coded already), and where the file stands.
type CompactProgress struct {
	Key      Key
	Resumed  bool  // its stream was coded by an earlier run
	Bytes    int64 // its stream's size
	Indices  int64
	Done     int // sectors done, this one included
	Sectors  int
	Verified bool // its values were read back and compared with the sector's
	// Coded and Checked: the time its masks and stream took, and the
	// reading back (zero for a part resumed).
	Coded, Checked time.Duration
}

// WriteCompact writes the sectors of db as a compact file at path. Each
// sector's stream is first written to path+".parts/" (atomically), so a run
// stopped part way goes on from the sectors done; the file is put together
// at the end and the parts removed. Every index of each stream is read back
// and compared with what the sector files allow there (its value, or any
// value below it where a capture reaches it) before the stream is kept;
// a part found from an earlier run was so checked when it was written, and
// is kept if its blocks pass their checksums. progress, if not nil, is
// called after each sector.
func WriteCompact(db *DB, path string, progress func(CompactProgress)) error {
	keys := db.Keys()
	if len(keys) == 0 {
		return errors.New("egdb: no sectors to write")
	}
	g, err := newGame(db.rules, db.x, keys)
	if err != nil {
		return err
	}
	dir := path + ".parts"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	m := compactManifest{Format: compactVersion, Rules: db.rules.String(), Index: IndexVersion, WDL: wdl.Version}
	m.Moving = optionsText(movingOptions(db.rules))
	m.MovingFingerprint = fingerprint(m.Moving)
	if db.placing {
		m.Placing = optionsText(placingOptions(db.rules))
		m.PlacingFingerprint = fingerprint(m.Placing)
	}
	parts := make([]compactPart, len(keys))
	for i, k := range keys {
		sec, s := db.sectors[k], g.id[k]
		free := captureFree(db, g, s)
		parts[i] = compactPart{path: filepath.Join(dir, partName(k, free)), free: free}
		p := CompactProgress{Key: k, Indices: sec.lay.size, Done: i + 1, Sectors: len(keys)}
		if b, err := os.ReadFile(parts[i].path); err == nil {
			if st, err := wdl.Open(b); err == nil && st.Len() == sec.lay.size && st.Verify() == nil {
				p.Resumed, p.Bytes, p.Verified = true, int64(len(b)), true
				if progress != nil {
					progress(p)
				}
				continue
			}
		}
		start := time.Now()
		allowed, newFull := sectorMasks(db, g, s, free)
		b, err := wdl.EncodeLazy(allowed, newFull)
		if err != nil {
			return fmt.Errorf("egdb: sector %s: %w", k, err)
		}
		p.Coded = time.Since(start)
		st, err := wdl.Open(b)
		if err != nil {
			return fmt.Errorf("egdb: sector %s: %w", k, err)
		}
		if err := checkStream(st, allowed); err != nil {
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
	if err := assemble(path, m, sectorInfos(db, keys, parts), parts, wdl.TablesLen); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// partName is the name of a sector's part: it says whether its positions
// may store less than their captures reach, so that a part written
// otherwise is not taken for this run's.
func partName(k Key, free bool) string {
	if free {
		return k.String() + ".free.wdl"
	}
	return k.String() + ".wdl"
}

// encodeSector codes the values of sector s of db's game g: where free,
// a position whose captures reach its value stores whatever costs least
// below it.
func encodeSector(db *DB, g *game, s int, free bool) ([]byte, error) {
	return wdl.EncodeLazy(sectorMasks(db, g, s, free))
}

// compactPart is a sector's stream written by WriteCompact before the file
// is put together.
type compactPart struct {
	path string
	free bool // its positions may store less than their captures reach
}

// writeFileAtomic writes b to path through a temporary file and a rename.
func writeFileAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return finish(f, path)
}

// sectorInfos returns the manifest's entries of db's sectors keys, whose
// streams are parts, but for where the streams lie (assemble).
func sectorInfos(db *DB, keys []Key, parts []compactPart) []compactSectorInfo {
	infos := make([]compactSectorInfo, len(keys))
	for i, k := range keys {
		sec := db.sectors[k]
		infos[i] = compactSectorInfo{Key: k.String(), Indices: sec.lay.size, Wins: sec.counts.Wins, Draws: sec.counts.Draws,
			Losses: sec.counts.Losses, Unused: sec.counts.Unused, CaptureFree: parts[i].free}
	}
	return infos
}

// assemble writes the compact file (or the distances: WriteDistances)
// from the sectors' streams, parts, whose header and tables tablesLen
// measures: m with its sectors (infos, which say all but where each
// stream lies and its tables' checksum).
func assemble(path string, m compactManifest, infos []compactSectorInfo, parts []compactPart, tablesLen func([]byte) int) error {
	m.Sectors = slices.Clone(infos)
	var off int64
	for i := range m.Sectors {
		size, tables, err := partTables(parts[i].path, tablesLen)
		if err != nil {
			return err
		}
		// The offsets count from the first stream, after the manifest.
		m.Sectors[i].Offset, m.Sectors[i].Length, m.Sectors[i].Tables = off, size, tables
		off += pad8(size)
	}
	manifest, err := json.Marshal(m)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	head := make([]byte, 16, 16+len(manifest))
	copy(head, compactMagic)
	binary.LittleEndian.PutUint32(head[8:], compactVersion)
	binary.LittleEndian.PutUint32(head[12:], uint32(len(manifest)))
	head = append(head, manifest...)
	sum := crc64.Checksum(head, crcTable)
	head = append(head, make([]byte, pad8(int64(len(head)))-int64(len(head)))...)
	if _, err := f.Write(head); err != nil {
		f.Close()
		return err
	}
	for i, p := range parts {
		if err := appendPart(f, p.path, pad8(m.Sectors[i].Length)); err != nil {
			f.Close()
			return err
		}
	}
	var tail [8]byte
	binary.LittleEndian.PutUint64(tail[:], sum)
	if _, err := f.Write(tail[:]); err != nil {
		f.Close()
		return err
	}
	return finish(f, path)
}

// partTables returns a part's size and the CRC-32C of its stream's header
// and tables (tablesLen long), reading those alone.
func partTables(path string, tablesLen func([]byte) int) (size int64, sum uint32, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	head := make([]byte, min(fi.Size(), 1<<12))
	if _, err := io.ReadFull(f, head); err != nil {
		return 0, 0, err
	}
	n := tablesLen(head)
	if n > len(head) {
		head = make([]byte, n)
		if _, err := f.ReadAt(head, 0); err != nil {
			return 0, 0, err
		}
	}
	return fi.Size(), crc32.Checksum(streamTables(head, tablesLen), crcC), nil
}

// appendPart copies a part to w, zero padded to length padded.
func appendPart(w io.Writer, path string, padded int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(w, f)
	if err != nil {
		return err
	}
	_, err = w.Write(make([]byte, padded-n))
	return err
}

func pad8(n int64) int64 { return (n + 7) &^ 7 }

var crcC = crc32.MakeTable(crc32.Castagnoli)

// streamTables returns the header and tables of a stream (wdl.TablesLen
// or dist.TablesLen long): its bytes before the data.
func streamTables(b []byte, tablesLen func([]byte) int) []byte {
	n := tablesLen(b)
	if n < 0 || n > len(b) {
		return b
	}
	return b[:n]
}

// Compact is a compact file opened for probing: the value (win, draw or
// loss, no distance) of every position of its sectors. It is safe for
// concurrent use.
type Compact struct {
	rules   *mill.Rules
	x       *indexer
	moving  [mill.MaxPoints + 1][mill.MaxPoints + 1]*compactSector
	sectors map[Key]*compactSector
	placing bool
	keys    []Key
	unmap   func() error
	// unmapDistances releases the distances (AddDistances), if any.
	unmapDistances func() error
	// g is the game of the sectors, whose captures a probe reads;
	// bySector[s] is the file's sector s of g, or nil.
	g         *game
	bySector  []*compactSector
	resolvers sync.Pool // *resolver

	mu     sync.Mutex
	damage error // the first damaged block read, reported by Damage
}

type compactSector struct {
	key    Key
	lay    layout
	s      *wdl.Stream
	counts Counts
	gs     int          // its sector in Compact.g
	free   bool         // its positions may store less than their captures reach
	d      *dist.Stream // its distances (AddDistances), or nil
}

// OpenCompact opens the compact file at path for positions under the rules
// it was made for, or under r with ForRules: r must decide the values as
// those do (the options of the manifest, by their fingerprint), or the
// file is refused, saying which options differ. The manifest and every
// stream's tables are checked now; each block of values before it is
// first read (a damaged one is reported by Damage and answers nothing).
// The file's distances, if written beside it (DistancesPath), are added
// (AddDistances): distances that do not fit the file refuse it.
func OpenCompact(path string, options ...OpenOption) (*Compact, error) {
	var cfg openConfig
	for _, o := range options {
		o(&cfg)
	}
	data, unmap, err := mapPath(path)
	if err != nil {
		return nil, err
	}
	c, err := openCompact(data, cfg.rules)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("egdb: %s: %w", path, err)
	}
	// A probe reads a block's offset, its chunk's and the chunk: the
	// offsets (read once already, to check them) are kept in memory side
	// by side, on huge pages where the system has them (135 MB for the
	// whole game of nine men's morris), so that a cold probe reads from
	// the disk the chunks alone, and a warm one misses no translation.
	total := 0
	for _, k := range c.keys {
		total += c.sectors[k].s.IndexLen()
	}
	tables, free := allocTables(total)
	c.unmap = func() error { return errors.Join(unmap(), free()) }
	for _, k := range c.keys {
		n := c.sectors[k].s.IndexLen()
		c.sectors[k].s.KeepTables(tables[:n:n])
		tables = tables[n:]
	}
	adviseRandom(data)
	if d := DistancesPath(path); d != path {
		if _, err := os.Stat(d); err == nil {
			if err := c.AddDistances(d); err != nil {
				c.Close()
				return nil, err
			}
		}
	}
	return c, nil
}

// mapPath opens the file at path and maps it whole (mapFile); the file is
// closed again, the map stays until unmap.
func mapPath(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	return mapFile(f, fi.Size())
}

// DistancesPath is where the distances of the compact file at path are
// written (morris solve -distances) and looked for: its name with ".wdl"
// replaced by ".dist". OpenCompact adds them when they are there.
func DistancesPath(path string) string { return strings.TrimSuffix(path, ".wdl") + ".dist" }

// ReadCompact opens a compact file held in memory (one built into the
// program: package egdb/builtin) as OpenCompact opens one on disk. data
// must not change while the Compact is in use.
func ReadCompact(data []byte, options ...OpenOption) (*Compact, error) {
	var cfg openConfig
	for _, o := range options {
		o(&cfg)
	}
	return openCompact(data, cfg.rules)
}

// readManifest checks the frame of a compact file (or of its distances:
// the magic, the format's version, the manifest's checksum) and returns
// its manifest, checked but for what its streams hold, its rules, and the
// offset of its first stream.
func readManifest(data []byte) (m compactManifest, built *mill.Rules, streams int64, err error) {
	if len(data) < 24 || string(data[:8]) != compactMagic {
		return m, nil, 0, fmt.Errorf("%w: not a compact file", ErrCorrupt)
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != compactVersion {
		return m, nil, 0, fmt.Errorf("%w: format version %d, this program reads %d", ErrCorrupt, v, compactVersion)
	}
	ml := int64(binary.LittleEndian.Uint32(data[12:]))
	if 16+ml+8 > int64(len(data)) {
		return m, nil, 0, fmt.Errorf("%w: a manifest of %d bytes in %d", ErrCorrupt, ml, len(data))
	}
	if crc64.Checksum(data[:16+ml], crcTable) != binary.LittleEndian.Uint64(data[len(data)-8:]) {
		return m, nil, 0, fmt.Errorf("%w: the manifest fails its checksum", ErrCorrupt)
	}
	dec := json.NewDecoder(bytes.NewReader(data[16 : 16+ml]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, nil, 0, fmt.Errorf("%w: the manifest: %v", ErrCorrupt, err)
	}
	switch {
	case m.Format != compactVersion:
		return m, nil, 0, fmt.Errorf("%w: manifest format %d", ErrCorrupt, m.Format)
	case m.Index != IndexVersion:
		return m, nil, 0, fmt.Errorf("the positions are indexed by version %d of the index, this program's is %d", m.Index, IndexVersion)
	case fingerprint(m.Moving) != m.MovingFingerprint || m.Placing != "" && fingerprint(m.Placing) != m.PlacingFingerprint:
		return m, nil, 0, fmt.Errorf("%w: the options do not match their fingerprint", ErrCorrupt)
	}
	built, err = mill.ParseRules(m.Rules)
	if err != nil {
		return m, nil, 0, fmt.Errorf("%w: rules %q: %v", ErrCorrupt, m.Rules, err)
	}
	if optionsText(movingOptions(built)) != m.Moving || m.Placing != "" && optionsText(placingOptions(built)) != m.Placing {
		return m, nil, 0, fmt.Errorf("the file's options are not those of its rules %s as this program reads them", m.Rules)
	}
	return m, built, pad8(16 + ml), nil
}

// openCompact reads a compact file's bytes.
func openCompact(data []byte, r *mill.Rules) (*Compact, error) {
	m, built, streams, err := readManifest(data)
	if err != nil {
		return nil, err
	}
	switch {
	case m.Distances != 0:
		return nil, errors.New("a file of distances, not of wins, draws and losses: it goes with the compact file it was written beside (Compact.AddDistances)")
	case m.WDL != wdl.Version && m.WDL != 2:
		return nil, fmt.Errorf("the values are coded by version %d, this program reads 2 and %d", m.WDL, wdl.Version)
	}
	if r == nil {
		r = built
	}
	if err := Supported(r); err != nil {
		return nil, err
	}
	if here := optionsText(movingOptions(r)); here != m.Moving {
		return nil, fmt.Errorf("made for %s, whose moving phase is not that of %s: %s", m.Rules, r, differing(here, m.Moving))
	}
	placing := m.Placing != "" && optionsText(placingOptions(r)) == m.Placing
	c := &Compact{rules: r, x: newIndexer(r.Board()), sectors: map[Key]*compactSector{}, placing: placing}
	for _, si := range m.Sectors {
		k, err := ParseKey(si.Key)
		if err != nil {
			return nil, fmt.Errorf("%w: sector %q", ErrCorrupt, si.Key)
		}
		if _, dup := c.sectors[k]; dup || k.White+k.Black > c.x.n || si.Offset < 0 || si.Length < 0 ||
			streams+si.Offset+si.Length > int64(len(data))-8 {
			return nil, fmt.Errorf("%w: sector %s at %d, %d bytes", ErrCorrupt, k, si.Offset, si.Length)
		}
		if !k.Moving() && !placing {
			continue // the placing phase of other rules: nothing here
		}
		b := data[streams+si.Offset : streams+si.Offset+si.Length]
		if crc32.Checksum(streamTables(b, wdl.TablesLen), crcC) != si.Tables {
			return nil, fmt.Errorf("%w: sector %s: its tables fail their checksum", ErrCorrupt, k)
		}
		s, err := wdl.Open(b)
		if err != nil {
			return nil, fmt.Errorf("sector %s: %w", k, err)
		}
		if s.Version() != m.WDL {
			return nil, fmt.Errorf("%w: sector %s is coded by version %d, the manifest says %d", ErrCorrupt, k, s.Version(), m.WDL)
		}
		lay := c.x.layout(k.White, k.Black)
		if s.Len() != lay.size || si.Indices != lay.size {
			return nil, fmt.Errorf("%w: sector %s: %d values, the sector has %d indices", ErrCorrupt, k, s.Len(), lay.size)
		}
		sec := &compactSector{key: k, lay: lay, s: s, counts: Counts{Wins: si.Wins, Draws: si.Draws, Losses: si.Losses, Unused: si.Unused},
			free: si.CaptureFree}
		c.sectors[k] = sec
		c.keys = append(c.keys, k)
		if k.Moving() {
			c.moving[k.White][k.Black] = sec
		}
	}
	slices.SortFunc(c.keys, compareKeys)
	g, err := newGame(r, c.x, c.keys)
	if err != nil {
		return nil, err
	}
	c.g, c.bySector = g, make([]*compactSector, len(g.keys))
	for _, sec := range c.sectors {
		sec.gs = g.id[sec.key]
		c.bySector[sec.gs] = sec
	}
	for _, sec := range c.sectors {
		// A capture of a sector that reads its captures must lead to
		// a sector of the file (the writer made it so).
		if cs := g.capture[sec.gs]; sec.free && cs >= 0 && c.bySector[cs] == nil {
			return nil, fmt.Errorf("%w: sector %s reads its captures in %s, which the file lacks", ErrCorrupt, sec.key, g.keys[cs])
		}
	}
	return c, nil
}

// Close releases the file, and its distances'. The Compact must not be
// probed after.
func (c *Compact) Close() error {
	var err error
	if c.unmapDistances != nil {
		err = c.unmapDistances()
		c.unmapDistances = nil
	}
	if c.unmap != nil {
		err = errors.Join(err, c.unmap())
		c.unmap = nil
	}
	return err
}

// Rules returns the rules the file was opened for.
func (c *Compact) Rules() *mill.Rules { return c.rules }

// Keys returns the sectors of the file that answer here, fewest pieces
// first.
func (c *Compact) Keys() []Key { return slices.Clone(c.keys) }

// Result returns the result of p for its side to move (win, draw or loss
// with best play; no distance), and true, if p lies in a sector of the
// file. A position in a damaged block answers false (Damage says which).
func (c *Compact) Result(p mill.Position) (Result, bool) {
	res, _, _, ok := c.result(p)
	return res, ok
}

// result is Result, with the sector and the index of p.
func (c *Compact) result(p mill.Position) (Result, *compactSector, int64, bool) {
	sec, W, B, ok := sectorOf(p, c.rules, c.placing, &c.moving, c.sectors)
	if !ok {
		return 0, nil, 0, false
	}
	r, _ := c.resolvers.Get().(*resolver)
	if r == nil {
		r = &resolver{wk: worker{g: c.g}}
	}
	defer c.resolvers.Put(r)
	i := sec.lay.index(W, B)
	v, err := c.value(r, sec, i, W, B)
	if err != nil {
		c.mu.Lock()
		if c.damage == nil {
			c.damage = err
		}
		c.mu.Unlock()
		return 0, nil, 0, false
	}
	return Result(v - 1), sec, i, true
}

// A resolver is what a probe needs to read captures: a worker (the move
// generator's state) and a slice of captures for each depth.
type resolver struct {
	wk   worker
	caps [maxCaptureDepth][]capture
	// touched keeps the bytes Touch read, so that the reads are kept.
	touched byte
}

// maxCaptureDepth bounds the search of captures: each capture takes a
// piece, so it cannot go deeper than the pieces on the board.
const maxCaptureDepth = 2 * mill.MaxPoints

// value returns the goodness (0 a loss, 1 a draw, 2 a win) of index i of
// sec, whose position is (W, B) or an image of it.
func (c *Compact) value(r *resolver, sec *compactSector, i int64, W, B uint32) (int, error) {
	sym, err := sec.s.At(i)
	if err != nil {
		return 0, fmt.Errorf("%w: sector %s: %w", ErrCorrupt, sec.key, err)
	}
	return c.raise(r, sec, W, B, goodness(sym), 2, 0)
}

// raise returns the goodness of the position (W, B) of sec, whose stored
// value is stored, exactly if it is below enough, and otherwise some
// goodness at least enough (the caller then needs no more): the best of
// the stored value and its captures' values, each capture read only as far
// as it could still raise the best (alpha-beta over three values).
func (c *Compact) raise(r *resolver, sec *compactSector, W, B uint32, stored, enough, depth int) (int, error) {
	best := stored
	if best >= enough || !sec.free {
		return best, nil
	}
	if depth >= maxCaptureDepth {
		return 0, fmt.Errorf("%w: sector %s: captures deeper than %d", ErrCorrupt, sec.key, depth)
	}
	caps := r.wk.captures(sec.gs, W, B, r.caps[depth][:0])
	r.caps[depth] = caps
	if len(caps) == 0 {
		return best, nil
	}
	var cs *compactSector
	if k := c.g.capture[sec.gs]; k >= 0 {
		cs = c.bySector[k]
	}
	if cs != nil && len(caps) > 1 {
		// The captures' chunks are touched first, so that their misses
		// of memory overlap (most are read below).
		var t byte
		for _, cp := range caps {
			t ^= cs.s.Touch(cp.index)
		}
		r.touched += t
	}
	for _, cp := range caps {
		if cp.end || cs == nil {
			return 2, nil // the capture ends the game
		}
		sym, err := cs.s.At(cp.index)
		if err != nil {
			return 0, fmt.Errorf("%w: sector %s: %w", ErrCorrupt, cs.key, err)
		}
		// The capture is worth 2-child to the mover; the child's stored
		// value is a lower bound of its own, so only a child stored
		// below 2-best can raise best.
		child := goodness(sym)
		if 2-child <= best {
			continue
		}
		if child, err = c.raise(r, cs, cp.W, cp.B, child, 2-best, depth+1); err != nil {
			return 0, err
		}
		if 2-child > best {
			if best = 2 - child; best >= enough {
				return best, nil
			}
		}
	}
	return best, nil
}

// Probe is Value as a search wants it (search.Tablebase, which a Compact
// satisfies as it is): +1, 0 or -1 for the side to move, and the plies of
// a win or loss, -1 where they are not known (no distances added).
func (c *Compact) Probe(p mill.Position) (result, plies int, ok bool) {
	v, ok := c.Value(p)
	if !ok {
		return 0, 0, false
	}
	return int(v.Result), v.Plies, true
}

// Value is Result as a Value: a win or loss has its plies if the file's
// distances were added (AddDistances) and hold its sector, else
// UnknownPlies.
func (c *Compact) Value(p mill.Position) (Value, bool) {
	r, sec, i, ok := c.result(p)
	if !ok {
		return Value{}, false
	}
	if r == Draw {
		return Value{}, true
	}
	return Value{r, c.plies(sec, i, r)}, true
}

// MoveValues returns every legal move of p with its value for the side to
// move (a win, draw or loss, with its plies where the distances were
// added), best first as DB.MoveValues orders them (without plies: wins,
// draws, losses, each in the order of p.Moves; a move that ends the game
// by material is a win in 1 either way), if every position after a move of
// p is in the file or ends the game by material.
func (c *Compact) MoveValues(p mill.Position) ([]MoveValue, bool) {
	moves := p.Moves(nil)
	if len(moves) == 0 {
		return nil, false
	}
	minPieces := c.rules.Options().MinPieces
	out := make([]MoveValue, 0, len(moves))
	for _, m := range moves {
		q := p.Play(m)
		s := q.SideToMove()
		v := Value{Loss, 0} // lost by material at once: a win in 1, known without distances
		if q.OnBoard(s)+q.InHand(s) >= minPieces {
			var ok bool
			if v, ok = c.Value(q); !ok {
				return nil, false
			}
		}
		out = append(out, MoveValue{m, v.Parent()})
	}
	slices.SortStableFunc(out, byValue)
	return out, true
}

// Keys, Rules, Covers, Value, MoveValues and Probe make a Compact a Perfect,
// as a DB is.
var _ Perfect = (*Compact)(nil)

// Covers reports whether the file's values hold for positions under r.
func (c *Compact) Covers(r *mill.Rules) bool { return compatible(r, c.rules) }

// Damage returns the first damaged block a probe met, or nil.
func (c *Compact) Damage() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.damage
}

// Verify checks every block of every sector against its checksum.
func (c *Compact) Verify() error {
	for _, k := range c.keys {
		if err := c.sectors[k].s.Verify(); err != nil {
			return fmt.Errorf("%w: sector %s: %w", ErrCorrupt, k, err)
		}
	}
	return nil
}
