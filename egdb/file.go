package egdb

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc64"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"
	"unsafe"

	"github.com/morrisgame/morris/egdb/internal/bigmem"
	"github.com/morrisgame/morris/egdb/internal/retro"
)

// The file of a sector, all numbers little-endian:
//
//	offset  size  what
//	0       8     magic "MORRISDB"
//	8       4     format version (1)
//	12      4     length of this header in bytes: where the values start
//	16      4     sector key: pieces on the board of the side to move and of
//	              its opponent, then in hand, one byte each
//	20      4     bytes per value: 2; or 0 for a sector kept as wins, draws and
//	              losses alone (a placing sector built with Builder.WDLPlacing)
//	24      8     number of values (indices of the sector)
//	32      8     wins      (counts of positions, up to symmetry, for the
//	40      8     draws      side to move)
//	48      8     losses
//	56      8     unused indices (duplicates of symmetric positions)
//	64      4     longest win, in plies
//	68      4     longest loss, in plies
//	72      2     length of the rules text, then the rules text ("nine-mens-morris")
//	header  2*N   the values, one uint16 per index (see retro.Value); or, with 0
//	              bytes per value, (N+3)/4 bytes: 2 bits an index, four to a
//	              byte, the first index in the low bits: 0 no position,
//	              1 win, 2 loss (for the side to move), 3 draw
//	end-8   8     CRC-64 (ECMA) of everything before it
//
// The index of a position is defined in index.go; a change to it, to the
// value encoding or to this layout is a new version.
const (
	magic        = "MORRISDB"
	version      = 1
	fixedHeader  = 74
	valueBytes   = 2
	trailerBytes = 8
)

var crcTable = crc64.MakeTable(crc64.ECMA)

// ErrCorrupt is wrapped by the errors of files that do not check out.
var ErrCorrupt = errors.New("egdb: corrupt or foreign file")

// fileHeader is what a file says about itself.
type fileHeader struct {
	key    Key
	n      int64
	counts Counts
	rules  string
	wdl    bool // the values are W/D/L in 2 bits (no distances)
}

// bodyLen is the length of the values of a file with header h.
func (h fileHeader) bodyLen() int64 {
	if h.wdl {
		return (h.n + 3) / 4
	}
	return h.n * valueBytes
}

// The 2-bit codes of a W/D/L sector.
const (
	codeNone = 0 // no position (a duplicate of a symmetric one)
	codeWin  = 1
	codeLoss = 2
	codeDraw = 3
)

// unknownRetroPlies is the distance that the values of a W/D/L sector
// carry when read as retro.Values (values.at): they have none, and
// fromRetro reads it as UnknownPlies.
const unknownRetroPlies = retro.MaxPlies

// wdlRetro is the retro.Value of each 2-bit code.
var wdlRetro = [4]retro.Value{retro.Draw, retro.WinIn(unknownRetroPlies), retro.LossIn(unknownRetroPlies), retro.Draw}

// values are the values of a sector: a retro.Value an index (v), or for a
// W/D/L sector 2 bits an index (wdl, see the file format). A nil v and
// wdl is no values.
type values struct {
	v   []retro.Value
	wdl []byte
}

// at returns the value of index i; a W/D/L sector's wins and losses have
// the distance unknownRetroPlies.
func (s values) at(i int64) retro.Value {
	if s.v != nil {
		return s.v[i]
	}
	return wdlRetro[s.wdl[i>>2]>>(2*(i&3))&3]
}

// none reports whether s holds no values.
func (s values) none() bool { return s.v == nil && s.wdl == nil }

// writeSector writes the values of a sector to dir atomically: into a
// temporary file, synced, then renamed, so a file under the sector's name is
// always whole.
func writeSector(dir string, h fileHeader, vals []retro.Value) error {
	h.wdl = false
	le := binary.LittleEndian
	return writeFile(dir, h, func(w io.Writer) error {
		buf := make([]byte, 0, 1<<16)
		for i, v := range vals {
			buf = le.AppendUint16(buf, uint16(v))
			if len(buf) == cap(buf) || i == len(vals)-1 {
				if _, err := w.Write(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
		return nil
	})
}

// writeSectorWDL writes a W/D/L sector (2 bits an index, (h.n+3)/4 bytes
// in packed) as writeSector writes one with distances.
func writeSectorWDL(dir string, h fileHeader, packed []byte) error {
	if int64(len(packed)) != (h.n+3)/4 {
		return fmt.Errorf("egdb: %s: %d bytes of values for %d indices", h.key, len(packed), h.n)
	}
	h.wdl = true
	return writeFile(dir, h, func(w io.Writer) error {
		_, err := w.Write(packed)
		return err
	})
}

// writeFile writes the file of header h with the values that body writes,
// atomically (writeSector).
func writeFile(dir string, h fileHeader, body func(io.Writer) error) error {
	final := filepath.Join(dir, h.key.fileName())
	f, err := os.CreateTemp(dir, "."+h.key.fileName()+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename there is nothing to remove
	crc := crc64.New(crcTable)
	bw := bufio.NewWriterSize(io.MultiWriter(f, crc), 1<<20)
	hdr := make([]byte, fixedHeader, fixedHeader+len(h.rules))
	copy(hdr, magic)
	le := binary.LittleEndian
	le.PutUint32(hdr[8:], version)
	le.PutUint32(hdr[12:], uint32(fixedHeader+len(h.rules)))
	hdr[16], hdr[17], hdr[18], hdr[19] = byte(h.key.White), byte(h.key.Black), byte(h.key.WhiteHand), byte(h.key.BlackHand)
	if !h.wdl {
		le.PutUint32(hdr[20:], valueBytes)
	}
	le.PutUint64(hdr[24:], uint64(h.n))
	le.PutUint64(hdr[32:], uint64(h.counts.Wins))
	le.PutUint64(hdr[40:], uint64(h.counts.Draws))
	le.PutUint64(hdr[48:], uint64(h.counts.Losses))
	le.PutUint64(hdr[56:], uint64(h.counts.Unused))
	le.PutUint32(hdr[64:], uint32(h.counts.LongestWin))
	le.PutUint32(hdr[68:], uint32(h.counts.LongestLoss))
	le.PutUint16(hdr[72:], uint16(len(h.rules)))
	hdr = append(hdr, h.rules...)
	bw.Write(hdr)
	if err := body(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	var sum [trailerBytes]byte
	le.PutUint64(sum[:], crc.Sum64())
	if _, err := f.Write(sum[:]); err != nil {
		f.Close()
		return err
	}
	return finish(f, final)
}

// finish makes the temporary file f, written whole, the file final: it is
// made readable, synced, closed and renamed, so that a file under the final
// name is always whole. f is closed on every path; the caller removes the
// temporary name if this fails.
func finish(f *os.File, final string) error {
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), final)
}

// sectorFile is the file of a sector opened for reading: its header, and
// its values mapped into memory (see mapFile), or decoded into the heap on
// hosts whose byte order or alignment does not allow reading them in place.
type sectorFile struct {
	h     fileHeader
	sum   uint64 // the checksum in the file's trailer
	vals  values
	unmap func() error
}

// resident copies the values into memory of their own (huge pages where
// the system has them, see bigmem) and releases the mapping. A build reads
// the sectors it depends on at random, a value here and there over GBs:
// from the mapping, each read walks the translation of a 4 KB page of the
// page cache, which the TLB rarely holds; from huge pages it is a fifth
// to a quarter faster (BenchmarkLookup).
//
// A W/D/L sector stays mapped: it is an eighth of the size, and its pages
// are few.
func (s *sectorFile) resident() error {
	if len(s.vals.v) == 0 {
		return nil
	}
	v, free := bigmem.Alloc[retro.Value](int64(len(s.vals.v)))
	copy(v, s.vals.v)
	if s.unmap != nil {
		if err := s.unmap(); err != nil {
			free()
			return err
		}
	}
	s.vals.v = v
	s.unmap = func() error { free(); return nil }
	return nil
}

// close releases the mapping (or the memory); the values must not be used
// after it.
func (s *sectorFile) close() error {
	s.vals = values{}
	if s.unmap == nil {
		return nil
	}
	err := s.unmap()
	s.unmap = nil
	return err
}

// littleEndian reports whether this host stores a uint16 as the files do.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// openSector opens the file of a sector and checks its header and its size;
// with sum it checks the checksum too, reading the file through the page
// cache (not the mapping, so that the check leaves nothing resident in the
// process). The values are mapped, not read: opening costs no memory.
func openSector(path string, sum bool) (*sectorFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	hdr := make([]byte, fixedHeader+1<<16)
	n, err := f.ReadAt(hdr, 0)
	if err != nil && err != io.EOF {
		return nil, err
	}
	h, hl, err := parseHeader(hdr[:n], size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if sum {
		if err := checkSum(f, size); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	var trailer [trailerBytes]byte
	if _, err := f.ReadAt(trailer[:], size-trailerBytes); err != nil {
		return nil, err
	}
	data, unmap, err := mapFile(f, size)
	if err != nil {
		return nil, err
	}
	sf := &sectorFile{h: h, sum: binary.LittleEndian.Uint64(trailer[:]), unmap: unmap}
	body := data[hl : int64(hl)+h.bodyLen()]
	if h.wdl {
		if h.n > 0 {
			sf.vals.wdl = body
		}
		return sf, nil
	}
	if littleEndian && hl%2 == 0 {
		if h.n > 0 {
			sf.vals.v = unsafe.Slice((*retro.Value)(unsafe.Pointer(unsafe.SliceData(body))), h.n)
		}
		return sf, nil
	}
	v := make([]retro.Value, h.n)
	for i := range v {
		v[i] = retro.Value(binary.LittleEndian.Uint16(body[2*i:]))
	}
	sf.vals.v = v
	unmap()
	sf.unmap = nil
	return sf, nil
}

// readSector reads and checks the whole file of a sector (checksum first,
// then the header) and returns its values in the heap, or none if withValues
// is false.
func readSector(path string, withValues bool) (fileHeader, values, error) {
	sf, err := openSector(path, true)
	if err != nil {
		return fileHeader{}, values{}, err
	}
	defer sf.close()
	if !withValues {
		return sf.h, values{}, nil
	}
	return sf.h, values{v: slices.Clone(sf.vals.v), wdl: slices.Clone(sf.vals.wdl)}, nil
}

// checkSum compares the CRC of a file of size bytes with its trailer.
func checkSum(f *os.File, size int64) error {
	end := size - trailerBytes
	crc := crc64.New(crcTable)
	if _, err := io.Copy(crc, io.NewSectionReader(f, 0, end)); err != nil {
		return err
	}
	var sum [trailerBytes]byte
	if _, err := f.ReadAt(sum[:], end); err != nil {
		return err
	}
	if crc.Sum64() != binary.LittleEndian.Uint64(sum[:]) {
		return fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	return nil
}

// parseHeader reads the header at the start of a file of size bytes and
// checks it against the size. It returns the header and its length (where
// the values start).
func parseHeader(data []byte, size int64) (fileHeader, int, error) {
	var h fileHeader
	le := binary.LittleEndian
	bad := func(why string) (fileHeader, int, error) {
		return h, 0, fmt.Errorf("%w: %s", ErrCorrupt, why)
	}
	if len(data) < fixedHeader || size < fixedHeader+trailerBytes || string(data[:8]) != magic {
		return bad("not a Morris endgame database (no magic)")
	}
	if v := le.Uint32(data[8:]); v != version {
		return bad(fmt.Sprintf("format version %d, this program reads %d", v, version))
	}
	end := size - trailerBytes
	hl := int(le.Uint32(data[12:]))
	rl := int(le.Uint16(data[72:]))
	if hl != fixedHeader+rl || int64(hl) > end || hl > len(data) {
		return bad("bad header length")
	}
	switch le.Uint32(data[20:]) {
	case valueBytes:
	case 0:
		h.wdl = true
	default:
		return bad("bad value size")
	}
	h.key = Key{int(data[16]), int(data[17]), int(data[18]), int(data[19])}
	h.n = int64(le.Uint64(data[24:]))
	h.counts = Counts{
		Wins: int64(le.Uint64(data[32:])), Draws: int64(le.Uint64(data[40:])), Losses: int64(le.Uint64(data[48:])),
		Unused: int64(le.Uint64(data[56:])), LongestWin: int(le.Uint32(data[64:])), LongestLoss: int(le.Uint32(data[68:])),
	}
	h.rules = string(data[fixedHeader:hl])
	if h.n < 0 || end-int64(hl) != h.bodyLen() {
		return bad("length does not match the number of values")
	}
	return h, hl, nil
}

// checkFile checks the checksum of a sector's file.
func checkFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if err := checkSum(f, fi.Size()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// A verified sector leaves a mark beside its file, KEY.egdb.verified, that
// names the checksum of the file it verified and how long that took. A
// verify pass stopped at any moment goes on from the marks: a sector whose
// mark names its file's checksum is not verified again, and a file built
// again (another checksum) is. The mark is written like the sector files,
// into a temporary file renamed over it, so it is whole or absent.

// verifiedPath is the name of the mark of sector k in dir.
func verifiedPath(dir string, k Key) string {
	return filepath.Join(dir, k.fileName()+".verified")
}

// markVerified records that the file of k with checksum sum was verified,
// in took.
func markVerified(dir string, k Key, sum uint64, took time.Duration) error {
	f, err := os.CreateTemp(dir, "."+k.fileName()+".verified.*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := fmt.Fprintf(f, "crc64 %016x verify %s\n", sum, took.Round(time.Millisecond)); err != nil {
		f.Close()
		return err
	}
	return finish(f, verifiedPath(dir, k))
}

// wasVerified reports whether the file of k with checksum sum was verified,
// and how long that took. A missing, unreadable or stale mark is a no.
func wasVerified(dir string, k Key, sum uint64) (time.Duration, bool) {
	b, err := os.ReadFile(verifiedPath(dir, k))
	if err != nil {
		return 0, false
	}
	var got uint64
	var took string
	if _, err := fmt.Sscanf(string(b), "crc64 %x verify %s\n", &got, &took); err != nil || got != sum {
		return 0, false
	}
	d, err := time.ParseDuration(took)
	if err != nil {
		return 0, false
	}
	return d, true
}
