package wdl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sync/atomic"
)

// Version is the version of the stream's layout and model.
const Version = 1

// ChunkLen is the number of symbols coded together: a read decodes at most
// this many. BlockChunks chunks make a block, the unit of the checksums.
const (
	ChunkLen    = 1024
	BlockChunks = 32
)

// rANS with a 32-bit state renormalised a byte at a time: the state stays
// in [ransLow, ransLow << 8).
const ransLow = 1 << 23

// The layout of a stream, numbers little-endian:
//
//	offset  size      what
//	0       1         Version
//	1       8         n, the number of symbols
//	9       54        the model: for each of the 9 contexts, the frequencies
//	                  of W, D and L (uint16 each, summing to 4096)
//	63      12·B      the blocks: the offset of each block's first byte in
//	                  the data (uint64), and the CRC-32C (Castagnoli) of its
//	                  bytes (uint32); B = ceil(C / 32)
//	        2·C       the chunks: the offset of each chunk's first byte in
//	                  its block (uint16); C = ceil(n / 1024)
//	        …         the data: the blocks one after the other; a chunk is
//	                  the rANS state after its last symbol was coded
//	                  (uint32), then the bytes the decoder reads, in order
//
// A chunk's symbols are decoded from its first; the context of each is
// the two symbols before it in the chunk (draws before the first).
const headerBytes = 1 + 8 + modelBytes

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by the errors of streams whose bytes do not check
// out: a bad header or table, or a block whose checksum differs.
var ErrCorrupt = errors.New("wdl: corrupt stream")

// Encode codes syms (each Win, Draw or Loss) as a stream. The indices
// dontCare reports (nil: none) may be given any symbol: each gets its
// context's likeliest. syms is not changed.
func Encode(syms []byte, dontCare func(i int) bool) ([]byte, error) {
	for i, s := range syms {
		if s > Loss && (dontCare == nil || !dontCare(i)) {
			return nil, fmt.Errorf("wdl: symbol %d at index %d", s, i)
		}
	}
	// The don't-care symbols replaced by their contexts' likeliest under
	// a first count, then the model counted over what is coded: every
	// symbol coded has a frequency in its context.
	n := len(syms)
	coded := syms
	if dontCare != nil {
		first := countModel(syms, dontCare)
		coded = make([]byte, n)
		var p1, p2 byte = Draw, Draw
		for i, s := range syms {
			if i%ChunkLen == 0 {
				p1, p2 = Draw, Draw
			}
			if dontCare(i) {
				s = first.likeliest(context(p1, p2))
			}
			coded[i] = s
			p2, p1 = p1, s
		}
	}
	m := countModel(coded, nil)
	chunks := (n + ChunkLen - 1) / ChunkLen
	blocks := (chunks + BlockChunks - 1) / BlockChunks
	out := make([]byte, 0, headerBytes+12*blocks+2*chunks+n/4)
	out = append(out, Version)
	out = binary.LittleEndian.AppendUint64(out, uint64(n))
	out = m.append(out)
	tables := len(out)
	out = append(out, make([]byte, 12*blocks+2*chunks)...)
	dataStart := len(out)

	var rev []byte
	for b := range blocks {
		blockStart := len(out)
		binary.LittleEndian.PutUint64(out[tables+12*b:], uint64(blockStart-dataStart))
		for c := b * BlockChunks; c < min(chunks, (b+1)*BlockChunks); c++ {
			lo, hi := c*ChunkLen, min(n, (c+1)*ChunkLen)
			off := len(out) - blockStart
			if off > 0xFFFF {
				return nil, fmt.Errorf("wdl: block %d longer than 64 KB", b)
			}
			binary.LittleEndian.PutUint16(out[tables+12*blocks+2*c:], uint16(off))
			rev = encodeChunk(m, coded[lo:hi], rev[:0])
			// rev is the state then the bytes, both backwards.
			for i := len(rev) - 1; i >= 0; i-- {
				out = append(out, rev[i])
			}
		}
		binary.LittleEndian.PutUint32(out[tables+12*b+8:], crc32.Checksum(out[blockStart:], crcTable))
	}
	return out, nil
}

// encodeChunk codes the symbols of a chunk backwards, appending to rev the
// bytes the decoder will read, last first, then the final state's four
// bytes, most significant first: reversed, rev is the chunk as stored
// (the state little-endian, then the bytes in the order they are read).
func encodeChunk(m *Model, syms []byte, rev []byte) []byte {
	x := uint32(ransLow)
	for i := len(syms) - 1; i >= 0; i-- {
		var p1, p2 byte = Draw, Draw
		if i > 0 {
			p1 = syms[i-1]
		}
		if i > 1 {
			p2 = syms[i-2]
		}
		c := context(p1, p2)
		s := syms[i]
		freq, start := uint32(m.Freq[c][s]), m.cum[c][s]
		xMax := ((ransLow >> probBits) << 8) * freq
		for x >= xMax {
			rev = append(rev, byte(x))
			x >>= 8
		}
		x = (x/freq)<<probBits + x%freq + start
	}
	return append(rev, byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
}

// TablesLen returns the length of the header and tables of the stream in
// b (the bytes before its data), or -1 if b is too short to say.
func TablesLen(b []byte) int {
	if len(b) < headerBytes {
		return -1
	}
	n := binary.LittleEndian.Uint64(b[1:])
	if n > 1<<40 {
		return -1
	}
	chunks := (n + ChunkLen - 1) / ChunkLen
	blocks := (chunks + BlockChunks - 1) / BlockChunks
	return headerBytes + int(12*blocks+2*chunks)
}

// A Stream reads the symbols of an encoded stream in place: its bytes are
// not copied (they may be a memory map). It is safe for concurrent use.
type Stream struct {
	n        int64
	m        *Model
	blocks   []byte // the block table
	chunks   []byte // the chunk table
	data     []byte
	verified []atomic.Uint64 // a bit a block: its checksum was found right
}

// Open reads the header and tables of the stream in b. The blocks are
// checked as they are first read (or all at once by Verify).
func Open(b []byte) (*Stream, error) {
	if len(b) < headerBytes {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, len(b))
	}
	if b[0] != Version {
		return nil, fmt.Errorf("%w: version %d, not %d", ErrCorrupt, b[0], Version)
	}
	n := binary.LittleEndian.Uint64(b[1:])
	if n > 1<<40 {
		return nil, fmt.Errorf("%w: %d symbols", ErrCorrupt, n)
	}
	m, err := readModel(b[9:headerBytes])
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	chunks := (n + ChunkLen - 1) / ChunkLen
	blocks := (chunks + BlockChunks - 1) / BlockChunks
	tables := uint64(headerBytes) + 12*blocks + 2*chunks
	if uint64(len(b)) < tables {
		return nil, fmt.Errorf("%w: %d bytes for the tables of %d symbols", ErrCorrupt, len(b), n)
	}
	s := &Stream{
		n: int64(n), m: m,
		blocks:   b[headerBytes : headerBytes+12*blocks],
		chunks:   b[headerBytes+12*blocks : tables],
		data:     b[tables:],
		verified: make([]atomic.Uint64, (blocks+63)/64),
	}
	// The block offsets rise and lie within the data; the chunk offsets
	// rise within their block.
	var last uint64
	for k := range blocks {
		off := binary.LittleEndian.Uint64(s.blocks[12*k:])
		if off < last || off > uint64(len(s.data)) || k == 0 && off != 0 {
			return nil, fmt.Errorf("%w: block %d at %d", ErrCorrupt, k, off)
		}
		last = off
		end := s.blockEnd(int(k))
		var prev uint16
		for c := k * BlockChunks; c < min(chunks, (k+1)*BlockChunks); c++ {
			co := binary.LittleEndian.Uint16(s.chunks[2*c:])
			if co < prev || uint64(co)+4 > end-off || c == k*BlockChunks && co != 0 {
				return nil, fmt.Errorf("%w: chunk %d at %d in block %d", ErrCorrupt, c, co, k)
			}
			prev = co
		}
	}
	return s, nil
}

// Len returns the number of symbols.
func (s *Stream) Len() int64 { return s.n }

// Model returns the stream's model.
func (s *Stream) Model() *Model { return s.m }

// blockOff returns the offset of block k's first byte in the data.
func (s *Stream) blockOff(k int) uint64 { return binary.LittleEndian.Uint64(s.blocks[12*k:]) }

// blockEnd returns the offset past block k's last byte.
func (s *Stream) blockEnd(k int) uint64 {
	if 12*(k+1) < len(s.blocks) {
		return binary.LittleEndian.Uint64(s.blocks[12*(k+1):])
	}
	return uint64(len(s.data))
}

// block returns the bytes of block k, checked against its checksum the
// first time.
func (s *Stream) block(k int) ([]byte, error) {
	b := s.data[s.blockOff(k):s.blockEnd(k)]
	bit := uint64(1) << (k % 64)
	if s.verified[k/64].Load()&bit != 0 {
		return b, nil
	}
	if crc32.Checksum(b, crcTable) != binary.LittleEndian.Uint32(s.blocks[12*k+8:]) {
		return nil, fmt.Errorf("%w: block %d (symbols %d to %d) fails its checksum", ErrCorrupt, k,
			int64(k)*BlockChunks*ChunkLen, min(s.n, int64(k+1)*BlockChunks*ChunkLen)-1)
	}
	s.verified[k/64].Or(bit)
	return b, nil
}

// chunkBytes returns the bytes of chunk c.
func (s *Stream) chunkBytes(c int) ([]byte, error) {
	k := c / BlockChunks
	b, err := s.block(k)
	if err != nil {
		return nil, err
	}
	lo := int(binary.LittleEndian.Uint16(s.chunks[2*c:]))
	hi := len(b)
	if c+1 < (k+1)*BlockChunks && 2*(c+1) < len(s.chunks) {
		hi = int(binary.LittleEndian.Uint16(s.chunks[2*(c+1):]))
	}
	return b[lo:hi], nil
}

// At returns the symbol at index i (0 ≤ i < Len). It decodes the symbols
// of i's chunk up to i, and allocates nothing.
func (s *Stream) At(i int64) (byte, error) {
	if i < 0 || i >= s.n {
		return 0, fmt.Errorf("wdl: index %d of %d", i, s.n)
	}
	b, err := s.chunkBytes(int(i / ChunkLen))
	if err != nil {
		return 0, err
	}
	var d decoder
	if err := d.init(b); err != nil {
		return 0, err
	}
	var p1, p2 byte = Draw, Draw
	for range i % ChunkLen {
		sym := d.next(s.m, context(p1, p2))
		p2, p1 = p1, sym
	}
	return d.next(s.m, context(p1, p2)), d.err
}

// Chunk decodes chunk c whole into dst (at least ChunkLen long) and
// returns the symbols.
func (s *Stream) Chunk(c int, dst []byte) ([]byte, error) {
	lo := int64(c) * ChunkLen
	if c < 0 || lo >= s.n {
		return nil, fmt.Errorf("wdl: chunk %d of %d symbols", c, s.n)
	}
	b, err := s.chunkBytes(c)
	if err != nil {
		return nil, err
	}
	var d decoder
	if err := d.init(b); err != nil {
		return nil, err
	}
	k := int(min(s.n-lo, ChunkLen))
	dst = dst[:k]
	var p1, p2 byte = Draw, Draw
	for j := range k {
		sym := d.next(s.m, context(p1, p2))
		dst[j] = sym
		p2, p1 = p1, sym
	}
	return dst, d.err
}

// Verify checks every block against its checksum.
func (s *Stream) Verify() error {
	for k := range len(s.blocks) / 12 {
		if _, err := s.block(k); err != nil {
			return err
		}
	}
	return nil
}

// decoder is the state of the rANS decoder over a chunk's bytes.
type decoder struct {
	x   uint32
	b   []byte
	err error
}

func (d *decoder) init(b []byte) error {
	if len(b) < 4 {
		return fmt.Errorf("%w: a chunk of %d bytes", ErrCorrupt, len(b))
	}
	d.x = binary.LittleEndian.Uint32(b)
	d.b = b[4:]
	if d.x < ransLow {
		return fmt.Errorf("%w: a chunk's state %#x", ErrCorrupt, d.x)
	}
	return nil
}

// next decodes the next symbol in context c. Reading past the chunk's
// bytes (a damaged stream) sets err and reads zeros.
func (d *decoder) next(m *Model, c int) byte {
	slot := d.x & (probScale - 1)
	sym := m.slot[c][slot]
	d.x = uint32(m.Freq[c][sym])*(d.x>>probBits) + slot - m.cum[c][sym]
	for d.x < ransLow {
		var v byte
		if len(d.b) > 0 {
			v, d.b = d.b[0], d.b[1:]
		} else if d.err == nil {
			d.err = fmt.Errorf("%w: a chunk ends early", ErrCorrupt)
		}
		d.x = d.x<<8 | uint32(v)
	}
	return sym
}
