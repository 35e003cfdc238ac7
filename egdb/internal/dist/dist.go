package dist

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"sync/atomic"
)

// Version is the version of the stream's layout and model.
const Version = 1

// DontCare marks an index whose distance is never asked for (a draw, an
// unused index): Encode codes whatever costs least there.
const DontCare = 0xFFFF

// MaxValue is the largest value a stream holds.
const MaxValue = 1<<15 - 1

// A chunk is 1 << chunkLog indices, coded on its own: a read decodes one
// chunk up to the index asked for. blockChunks chunks make a block, the
// unit of the checksums.
const (
	chunkLog    = 8
	chunkLen    = 1 << chunkLog
	blockChunks = 64
)

// The codes: repeat (the value of the index before, or 0 at a chunk's
// start), or the bucket of a value v: bits.Len(v)+1, 1 to 16, followed by
// the value's bits below its top one as they are. Each code is coded in
// the context of the code before (repeat at a chunk's start).
const (
	repeat  = 0
	symbols = 17
)

// rANS with a 32-bit state renormalised a byte at a time, the frequencies
// of each context summing to 1 << probBits.
const (
	ransLow   = 1 << 23
	probBits  = 12
	probScale = 1 << probBits
	lutBits   = 8
)

// The layout of a stream, numbers little-endian:
//
//	offset  size      what
//	0       1         Version
//	1       8         n, the number of values
//	9       578       the model: the frequencies (uint16, each context's
//	                  summing to 4096) of the 17 codes in each of the 17
//	                  contexts (the code before)
//	587     12·B      the blocks: the offset of each block's first byte in
//	                  the data (uint64), and the CRC-32C of its bytes
//	                  (uint32); B = ceil(C / 64)
//	        2·C       the chunks: the offset of each chunk's first byte in
//	                  its block (uint16); C = ceil(n / 256)
//	        …         the data: each chunk the rANS state after its first
//	                  code (uint32), then the bytes the decoder reads
const (
	modelBytes  = symbols * symbols * 2
	headerBytes = 9 + modelBytes
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by the errors of streams whose bytes do not check
// out.
var ErrCorrupt = errors.New("dist: corrupt stream")

// code is one code of a chunk: its symbol, the context it is coded in,
// and the raw bits after it (k of them, the value's low bits).
type code struct {
	sym, ctx uint8
	k        uint8
	low      uint16
}

// chunkCodes appends the codes of the values vals (one chunk) to dst.
func chunkCodes(vals []uint16, dst []code) []code {
	prev, ctx := uint16(0), uint8(repeat)
	for _, v := range vals {
		if v == DontCare || v == prev {
			dst = append(dst, code{sym: repeat, ctx: ctx})
			ctx = repeat
			continue
		}
		b := bits.Len16(v)
		c := code{sym: uint8(b + 1), ctx: ctx}
		if b > 1 {
			c.k, c.low = uint8(b-1), v-1<<(b-1)
		}
		dst = append(dst, c)
		prev, ctx = v, c.sym
	}
	return dst
}

// Encode codes vals: each a value up to MaxValue, or DontCare.
func Encode(vals []uint16) ([]byte, error) {
	for i, v := range vals {
		if v > MaxValue && v != DontCare {
			return nil, fmt.Errorf("dist: value %d at index %d", v, i)
		}
	}
	n := len(vals)
	chunks := (n + chunkLen - 1) / chunkLen
	blocks := (chunks + blockChunks - 1) / blockChunks
	var counts [symbols][symbols]uint64
	var buf []code
	for c := range chunks {
		buf = chunkCodes(vals[c*chunkLen:min(n, (c+1)*chunkLen)], buf[:0])
		for _, cd := range buf {
			counts[cd.ctx][cd.sym]++
		}
	}
	m := &model{}
	for c := range counts {
		m.freq[c] = quantise(counts[c])
	}
	m.build()

	out := make([]byte, 0, headerBytes+12*blocks+2*chunks+n/2)
	out = append(out, Version)
	out = binary.LittleEndian.AppendUint64(out, uint64(n))
	for c := range m.freq {
		for _, f := range m.freq[c] {
			out = binary.LittleEndian.AppendUint16(out, f)
		}
	}
	tables := len(out)
	out = append(out, make([]byte, 12*blocks+2*chunks)...)
	dataStart := len(out)
	var rev []byte
	for b := range blocks {
		blockStart := len(out)
		binary.LittleEndian.PutUint64(out[tables+12*b:], uint64(blockStart-dataStart))
		for c := b * blockChunks; c < min(chunks, (b+1)*blockChunks); c++ {
			off := len(out) - blockStart
			if off > 0xFFFF {
				// 64 chunks of 256 values take at most 40 KB.
				return nil, errors.New("dist: a block longer than 64 KB")
			}
			binary.LittleEndian.PutUint16(out[tables+12*blocks+2*c:], uint16(off))
			buf = chunkCodes(vals[c*chunkLen:min(n, (c+1)*chunkLen)], buf[:0])
			rev = encodeChunk(m, buf, rev[:0])
			for i := len(rev) - 1; i >= 0; i-- {
				out = append(out, rev[i])
			}
		}
		binary.LittleEndian.PutUint32(out[tables+12*b+8:], crc32.Checksum(out[blockStart:], crcTable))
	}
	return out, nil
}

// encodeChunk codes a chunk's codes backwards (rANS decodes in the
// opposite order), appending to rev the bytes the decoder reads, last
// first, then the final state, most significant byte first.
func encodeChunk(m *model, codes []code, rev []byte) []byte {
	x := uint32(ransLow)
	for i := len(codes) - 1; i >= 0; i-- {
		c := codes[i]
		k, low := uint32(c.k), uint32(c.low)
		if k > 8 {
			x, rev = put(x, rev, 1<<(probBits-(k-8)), (low>>8)<<(probBits-(k-8)))
			k, low = 8, low&0xFF
		}
		if k > 0 {
			x, rev = put(x, rev, 1<<(probBits-k), low<<(probBits-k))
		}
		x, rev = put(x, rev, uint32(m.freq[c.ctx][c.sym]), uint32(m.cum[c.ctx][c.sym]))
	}
	return append(rev, byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
}

// put codes one code of frequency freq whose range starts at cum.
func put(x uint32, rev []byte, freq, cum uint32) (uint32, []byte) {
	xMax := ((ransLow >> probBits) << 8) * freq
	for x >= xMax {
		rev = append(rev, byte(x))
		x >>= 8
	}
	return (x/freq)<<probBits + x%freq + cum, rev
}

// model is the frequencies of the codes in each context, with their
// cumulative sums and a lookup table from a slot's top bits to the first
// code it may be.
type model struct {
	freq [symbols][symbols]uint16
	cum  [symbols][symbols + 1]uint16
	lut  [symbols][1 << lutBits]uint8
}

func (m *model) build() {
	for c := range m.freq {
		for s := range symbols {
			m.cum[c][s+1] = m.cum[c][s] + m.freq[c][s]
		}
		s := 0
		for j := range m.lut[c] {
			lo := uint16(j << (probBits - lutBits))
			for m.cum[c][s+1] <= lo {
				s++
			}
			m.lut[c][j] = uint8(s)
		}
	}
}

// quantise scales counts to frequencies summing to probScale, each code
// seen keeping at least 1; a context never seen gives all to repeat.
func quantise(n [symbols]uint64) [symbols]uint16 {
	var f [symbols]uint16
	var total uint64
	for _, x := range n {
		total += x
	}
	if total == 0 {
		f[repeat] = probScale
		return f
	}
	sum, big := 0, 0
	for s, x := range n {
		if x == 0 {
			continue
		}
		v := max(int(float64(x)*probScale/float64(total)), 1)
		f[s] = uint16(v)
		sum += v
	}
	for s := range f {
		if f[s] > f[big] {
			big = s
		}
	}
	f[big] = uint16(int(f[big]) + probScale - sum)
	return f
}

// A Stream reads the values of an encoded stream in place (its bytes may
// be a memory map). It is safe for concurrent use.
type Stream struct {
	n        int64
	m        *model
	blocks   []byte
	chunks   []byte
	data     []byte
	verified []atomic.Uint64 // a bit a block: its checksum was found right
}

// TablesLen returns the length of the header and tables of the stream in
// b, or -1 if b is too short to say.
func TablesLen(b []byte) int {
	if len(b) < headerBytes {
		return -1
	}
	n := binary.LittleEndian.Uint64(b[1:])
	if n > 1<<40 {
		return -1
	}
	chunks := (n + chunkLen - 1) / chunkLen
	blocks := (chunks + blockChunks - 1) / blockChunks
	return headerBytes + int(12*blocks+2*chunks)
}

// Open reads the header and tables of the stream in b. The blocks are
// checked as they are first read (or all at once by Verify).
func Open(b []byte) (*Stream, error) {
	t := TablesLen(b)
	if t < 0 || len(b) < t {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, len(b))
	}
	if b[0] != Version {
		return nil, fmt.Errorf("%w: version %d, not %d", ErrCorrupt, b[0], Version)
	}
	m := &model{}
	k := 9
	for c := range m.freq {
		sum := 0
		for s := range symbols {
			m.freq[c][s] = binary.LittleEndian.Uint16(b[k:])
			sum += int(m.freq[c][s])
			k += 2
		}
		if sum != probScale {
			return nil, fmt.Errorf("%w: context %d sums to %d", ErrCorrupt, c, sum)
		}
	}
	m.build()
	n := binary.LittleEndian.Uint64(b[1:])
	chunks := (n + chunkLen - 1) / chunkLen
	blocks := (chunks + blockChunks - 1) / blockChunks
	s := &Stream{
		n: int64(n), m: m,
		blocks:   b[headerBytes : headerBytes+12*blocks],
		chunks:   b[headerBytes+12*blocks : t],
		data:     b[t:],
		verified: make([]atomic.Uint64, (blocks+63)/64),
	}
	var last uint64
	for k := range blocks {
		off := binary.LittleEndian.Uint64(s.blocks[12*k:])
		if off < last || off > uint64(len(s.data)) || k == 0 && off != 0 {
			return nil, fmt.Errorf("%w: block %d at %d", ErrCorrupt, k, off)
		}
		last = off
		end := s.blockEnd(int(k))
		var prev uint16
		for c := k * blockChunks; c < min(chunks, (k+1)*blockChunks); c++ {
			co := binary.LittleEndian.Uint16(s.chunks[2*c:])
			if co < prev || uint64(co)+4 > end-off || c == k*blockChunks && co != 0 {
				return nil, fmt.Errorf("%w: chunk %d at %d in block %d", ErrCorrupt, c, co, k)
			}
			prev = co
		}
	}
	return s, nil
}

// Len returns the number of values.
func (s *Stream) Len() int64 { return s.n }

// KeepTables copies the block and chunk tables out of the bytes Open was
// given into memory of the Stream's own (see wdl.Stream.KeepTables).
func (s *Stream) KeepTables() {
	s.blocks = bytes.Clone(s.blocks)
	s.chunks = bytes.Clone(s.chunks)
}

func (s *Stream) blockEnd(k int) uint64 {
	if 12*(k+1) < len(s.blocks) {
		return binary.LittleEndian.Uint64(s.blocks[12*(k+1):])
	}
	return uint64(len(s.data))
}

// block returns the bytes of block k, checked against its checksum the
// first time.
func (s *Stream) block(k int) ([]byte, error) {
	b := s.data[binary.LittleEndian.Uint64(s.blocks[12*k:]):s.blockEnd(k)]
	bit := uint64(1) << (k % 64)
	if s.verified[k/64].Load()&bit != 0 {
		return b, nil
	}
	if crc32.Checksum(b, crcTable) != binary.LittleEndian.Uint32(s.blocks[12*k+8:]) {
		first := int64(k) * blockChunks * chunkLen
		return nil, fmt.Errorf("%w: block %d (values %d to %d) fails its checksum", ErrCorrupt, k,
			first, min(s.n, first+blockChunks*chunkLen)-1)
	}
	s.verified[k/64].Or(bit)
	return b, nil
}

// At returns the value at index i (0 ≤ i < Len); at an index coded as
// DontCare, some value. It decodes i's chunk up to i and allocates
// nothing.
func (s *Stream) At(i int64) (uint16, error) {
	if i < 0 || i >= s.n {
		return 0, fmt.Errorf("dist: index %d of %d", i, s.n)
	}
	var v uint16
	err := s.decode(int(i>>chunkLog), int(i&(chunkLen-1))+1, func(_ int, x uint16) { v = x })
	return v, err
}

// ChunkLen is the number of values of a chunk (the last may hold fewer).
const ChunkLen = chunkLen

// Chunks returns the number of chunks.
func (s *Stream) Chunks() int { return int((s.n + chunkLen - 1) / chunkLen) }

// Chunk decodes chunk c whole into dst (at least ChunkLen long) and
// returns its values.
func (s *Stream) Chunk(c int, dst []uint16) ([]uint16, error) {
	lo := int64(c) * chunkLen
	if c < 0 || lo >= s.n {
		return nil, fmt.Errorf("dist: chunk %d of %d values", c, s.n)
	}
	k := int(min(s.n-lo, chunkLen))
	dst = dst[:k]
	err := s.decode(c, k, func(j int, v uint16) { dst[j] = v })
	return dst, err
}

// decode decodes the first count values of chunk c, calling f with each.
func (s *Stream) decode(c, count int, f func(j int, v uint16)) error {
	k := c / blockChunks
	b, err := s.block(k)
	if err != nil {
		return err
	}
	lo := int(binary.LittleEndian.Uint16(s.chunks[2*c:]))
	hi := len(b)
	if c+1 < (k+1)*blockChunks && 2*(c+1) < len(s.chunks) {
		hi = int(binary.LittleEndian.Uint16(s.chunks[2*(c+1):]))
	}
	b = b[lo:hi]
	if len(b) < 4 {
		return fmt.Errorf("%w: a chunk of %d bytes", ErrCorrupt, len(b))
	}
	d := decoder{x: binary.LittleEndian.Uint32(b), b: b[4:]}
	if d.x < ransLow {
		return fmt.Errorf("%w: a chunk's state %#x", ErrCorrupt, d.x)
	}
	v, ctx := uint16(0), uint8(repeat)
	for j := range count {
		sym := d.get(s.m, ctx)
		if sym != repeat {
			// The bucket's bits.Len, then its low bits: the lowest 8
			// first (the encoder put them last).
			v = 0
			if bl := int(sym) - 1; bl > 0 {
				k, low := bl-1, 0
				if k > 0 {
					low = d.raw(min(k, 8))
				}
				if k > 8 {
					low |= d.raw(k-8) << 8
				}
				v = uint16(1<<(bl-1) | low)
			}
		}
		ctx = sym
		f(j, v)
	}
	return d.err
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

// get decodes a code in context ctx.
func (d *decoder) get(m *model, ctx uint8) uint8 {
	slot := d.x & (probScale - 1)
	cum := &m.cum[ctx]
	s := m.lut[ctx][slot>>(probBits-lutBits)]
	for uint32(cum[s+1]) <= slot {
		s++
	}
	d.x = uint32(m.freq[ctx][s])*(d.x>>probBits) + slot - uint32(cum[s])
	d.renorm()
	return s
}

// raw decodes k (1 to 8) bits coded as they are.
func (d *decoder) raw(k int) int {
	shift := probBits - uint(k)
	slot := d.x & (probScale - 1)
	v := slot >> shift
	d.x = (d.x>>probBits)<<shift + slot - v<<shift
	d.renorm()
	return int(v)
}

// renorm reads bytes into the state until it is back in range; reading
// past the chunk's bytes (a damaged stream) sets err and reads zeros.
func (d *decoder) renorm() {
	for d.x < ransLow {
		var v byte
		if len(d.b) > 0 {
			v, d.b = d.b[0], d.b[1:]
		} else if d.err == nil {
			d.err = fmt.Errorf("%w: a chunk ends early", ErrCorrupt)
		}
		d.x = d.x<<8 | uint32(v)
	}
}
