package egdb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/morrisgame/morris/egdb/internal/wdl"
)

// RecodeCompact writes the compact file at src again at dst, each
// sector's values coded by this program's version of the streams
// (wdl.Version): a file written by an older version (still read, but more
// slowly) becomes one of this version without the sector files it was
// written from. The values stored are kept as they are, each stream is
// decoded whole, coded again and read back chunk by chunk against them
// before it is kept, and the manifest stays the same but for where the
// streams lie and their version. As WriteCompact, it writes each stream
// to dst+".parts/" first, so that a run stopped part way goes on from the
// sectors done. progress, if not nil, is called after each sector.
func RecodeCompact(src, dst string, progress func(CompactProgress)) error {
	if filepath.Clean(src) == filepath.Clean(dst) {
		return errors.New("egdb: recode to another path than the file's own")
	}
	data, unmap, err := mapPath(src)
	if err != nil {
		return err
	}
	defer unmap()
	m, _, streams, err := readManifest(data)
	if err != nil {
		return fmt.Errorf("egdb: %s: %w", src, err)
	}
	if m.Distances != 0 {
		return fmt.Errorf("egdb: %s: a file of distances, not of wins, draws and losses", src)
	}
	dir := dst + ".parts"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	parts := make([]compactPart, len(m.Sectors))
	for i, si := range m.Sectors {
		k, err := ParseKey(si.Key)
		if err != nil || si.Offset < 0 || si.Length < 0 || streams+si.Offset+si.Length > int64(len(data))-8 {
			return fmt.Errorf("egdb: %s: %w: sector %q at %d, %d bytes", src, ErrCorrupt, si.Key, si.Offset, si.Length)
		}
		parts[i] = compactPart{path: filepath.Join(dir, partName(k, si.CaptureFree)), free: si.CaptureFree}
		p := CompactProgress{Key: k, Indices: si.Indices, Done: i + 1, Sectors: len(m.Sectors)}
		if b, err := os.ReadFile(parts[i].path); err == nil {
			if st, err := wdl.Open(b); err == nil && st.Version() == wdl.Version && st.Len() == si.Indices && st.Verify() == nil {
				p.Resumed, p.Bytes, p.Verified = true, int64(len(b)), true
				if progress != nil {
					progress(p)
				}
				continue
			}
		}
		start := time.Now()
		b, err := recodeStream(data[streams+si.Offset : streams+si.Offset+si.Length])
		if err != nil {
			return fmt.Errorf("egdb: %s: sector %s: %w", src, k, err)
		}
		p.Coded = time.Since(start)
		if err := writeFileAtomic(parts[i].path, b); err != nil {
			return err
		}
		p.Bytes, p.Verified = int64(len(b)), true
		if progress != nil {
			progress(p)
		}
	}
	m.WDL = wdl.Version
	if err := assemble(dst, m, m.Sectors, parts, wdl.TablesLen); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// recodeStream decodes the stream b whole (its blocks checked against
// their checksums), codes its symbols again, and checks the new stream
// chunk by chunk against them.
func recodeStream(b []byte) ([]byte, error) {
	old, err := wdl.Open(b)
	if err != nil {
		return nil, err
	}
	syms := make([]byte, old.Len())
	for c := range old.Chunks() {
		lo := c * old.ChunkLen()
		if _, err := old.Chunk(c, syms[lo:]); err != nil {
			return nil, err
		}
	}
	nb, err := wdl.EncodeSymbols(syms)
	if err != nil {
		return nil, err
	}
	st, err := wdl.Open(nb)
	if err != nil {
		return nil, err
	}
	if st.Len() != old.Len() {
		return nil, fmt.Errorf("recoded: %d symbols, not %d", st.Len(), old.Len())
	}
	buf := make([]byte, st.ChunkLen())
	for c := range st.Chunks() {
		got, err := st.Chunk(c, buf)
		if err != nil {
			return nil, err
		}
		lo := c * st.ChunkLen()
		if !bytes.Equal(got, syms[lo:lo+len(got)]) {
			return nil, fmt.Errorf("recoded: chunk %d reads back otherwise", c)
		}
	}
	return nb, nil
}
