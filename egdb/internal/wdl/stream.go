package wdl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Version is the version of the stream's layout and model.
const Version = 3

// A stream's chunks hold 1 << chunkLog indices each, coded on their own (a
// read decodes at most one chunk, and only up to the index asked for); the
// encoder picks chunkLog between MinChunkLog and MaxChunkLog so that a
// chunk holds about maxChunkRuns runs. BlockChunks chunks make a block, the
// unit of the checksums.
const (
	MinChunkLog  = 9
	MaxChunkLog  = 14
	BlockChunks  = 32
	maxChunkRuns = 64
)

// rANS with a 32-bit state renormalised a byte at a time: the state stays
// in [ransLow, ransLow << 8).
const ransLow = 1 << 23

// The layout of a stream, numbers little-endian:
//
//	offset  size      what
//	0       1         Version
//	1       8         n, the number of symbols
//	9       1         chunkLog: a chunk is 1 << chunkLog symbols
//	10      486       the model: the frequencies (uint16, each context's
//	                  summing to 32768) of the runs' codes (a symbol W, D,
//	                  L times 27 length codes) in each of the 4 contexts (a
//	                  run after W, D, L, or a chunk's first): the 54 codes
//	                  of the two other symbols after W, D and L, then the
//	                  81 of the chunk's first run
//	496     12·B      the blocks: the offset of each block's first byte in
//	                  the data (uint64), and the CRC-32C (Castagnoli) of its
//	                  bytes (uint32); B = ceil(C / 32)
//	        2·C       the chunks: the offset of each chunk's first byte in
//	                  its block (uint16); C = ceil(n >> chunkLog)
//	        …         the data: the blocks one after the other; a chunk is
//	                  the rANS state after its first run was coded
//	                  (uint32), then the bytes the decoder reads, in order
//
// A chunk is decoded from its first run: for each, its code (in the
// context of the symbol before, or of the chunk's start), which is its
// symbol times 27 plus its length code: lengths 1 to 16 are the codes 0 to
// 15, a longer length n the code 11 + bits.Len(n), followed by n's
// bits.Len(n)-1 low bits (8 at most, then the rest), n being 1 << that
// plus those bits.
const headerBytes = 10 + modelBytes

// headerLen returns the length of the header of a stream of version v
// (this one or 2, which is still read), or 0 for another.
func headerLen(v byte) int {
	switch v {
	case Version:
		return headerBytes
	case 2:
		return 10 + v2ModelBytes
	}
	return 0
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by the errors of streams whose bytes do not check
// out: a bad header or table, or a block whose checksum differs.
var ErrCorrupt = errors.New("wdl: corrupt stream")

// Encode codes a stream of len(allowed) indices: allowed[i] is the mask of
// the symbols index i may hold (Only(s) for an exact value, Any or 0 for
// an index whose value does not matter). The encoder picks, at each run's
// start, the allowed symbol that the most indices in a row allow (the
// fewest runs), so the free indices cost almost nothing.
func Encode(allowed []byte) ([]byte, error) { return EncodeLazy(allowed, nil) }

// Known marks a mask that EncodeLazy asked for and kept.
const Known = 0x80

// EncodeLazy is Encode for masks that are costly to know in full. On entry
// allowed[i] is a part of index i's mask that is cheap to know (its exact
// value, say). Where the encoder needs more (at a run's start, and where
// the symbols the run so far allows are not all in allowed[i]), it asks
// full(i) for the whole mask, which holds allowed[i], and keeps it in
// allowed[i] with Known set; elsewhere the whole mask cannot change the
// runs. So the stream is the one Encode codes from the whole masks, and
// the whole masks are asked for only where they may matter. newFull, if
// not nil, returns a full for one goroutine: the chunks are shared among
// the processors, each calling its full for increasing indices.
func EncodeLazy(allowed []byte, newFull func() func(i int) byte) ([]byte, error) {
	for i, m := range allowed {
		if m&^(Any|Known) != 0 {
			return nil, fmt.Errorf("wdl: mask %#x at index %d", m, i)
		}
	}
	// The chunk length from the runs of the shortest chunks: about
	// maxChunkRuns a chunk.
	n := len(allowed)
	var nruns int64
	var mu sync.Mutex
	eachChunk(n, MinChunkLog, newFull, func(lo, hi int, full func(int) byte, buf *[]run) {
		*buf = chunkRuns(allowed[lo:hi], lo, full, (*buf)[:0])
		mu.Lock()
		nruns += int64(len(*buf))
		mu.Unlock()
	})
	log := MinChunkLog
	for log < MaxChunkLog && nruns > 0 && int64(n)*maxChunkRuns >= nruns<<(log+1) {
		log++
	}
	for {
		b, err := encode(allowed, log, newFull)
		if errors.Is(err, errBlockTooLong) && log > MinChunkLog {
			log--
			continue
		}
		return b, err
	}
}

// eachChunk calls f for each chunk [lo, hi) of n indices in chunks of
// 1 << log, the chunks shared among the processors in stretches of
// increasing indices, each goroutine with a full of its own (nil if
// newFull is) and a buffer of runs of its own.
func eachChunk(n, log int, newFull func() func(int) byte, f func(lo, hi int, full func(int) byte, buf *[]run)) {
	chunks := (n + 1<<log - 1) >> log
	parts := min(runtime.GOMAXPROCS(0), max(1, chunks))
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var full func(int) byte
			if newFull != nil {
				full = newFull()
			}
			var buf []run
			for c := chunks * p / parts; c < chunks*(p+1)/parts; c++ {
				f(c<<log, min(n, (c+1)<<log), full, &buf)
			}
		}()
	}
	wg.Wait()
}

// EncodeSymbols codes syms exactly (each Win, Draw or Loss).
func EncodeSymbols(syms []byte) ([]byte, error) {
	allowed := make([]byte, len(syms))
	for i, s := range syms {
		if s > Loss {
			return nil, fmt.Errorf("wdl: symbol %d at index %d", s, i)
		}
		allowed[i] = Only(s)
	}
	return Encode(allowed)
}

var errBlockTooLong = errors.New("wdl: a block longer than 64 KB")

// chunkRuns appends the runs of a chunk's indices (allowed, the chunk's
// masks; lo, the index of its first) to runs: each run as long as some
// symbol allowed all along it reaches (the first of W, D, L that does), so
// that at each run's start the symbol that reaches farthest. full, if not
// nil, gives an index's whole mask where allowed does not hold it yet
// (EncodeLazy).
func chunkRuns(allowed []byte, lo int, full func(int) byte, runs []run) []run {
	mask := func(j int, need byte) byte {
		m := allowed[j]
		if m&Any == 0 {
			return Any // unused
		}
		if full != nil && m&Known == 0 && need&^m != 0 {
			m = full(lo+j)&Any | Known
			allowed[j] = m
		}
		return m & Any
	}
	prev := byte(chunkStart)
	for j := 0; j < len(allowed); {
		can := mask(j, Any) // the symbols allowed from j on
		k := j + 1
		for ; k < len(allowed); k++ {
			m := mask(k, can)
			if m&can == 0 {
				break
			}
			can &= m
		}
		best := byte(bits.TrailingZeros8(can))
		runs = append(runs, run{sym: best, prev: prev, n: uint16(k - j)})
		prev = best
		j = k
	}
	return runs
}

// encode codes the stream with chunks of 1 << log indices.
func encode(allowed []byte, log int, newFull func() func(int) byte) ([]byte, error) {
	n := len(allowed)
	chunkLen := 1 << log
	chunks := (n + chunkLen - 1) / chunkLen
	blocks := (chunks + BlockChunks - 1) / BlockChunks
	runs := make([][]run, chunks)
	eachChunk(n, log, newFull, func(lo, hi int, full func(int) byte, buf *[]run) {
		*buf = chunkRuns(allowed[lo:hi], lo, full, (*buf)[:0])
		runs[lo>>log] = slices.Clone(*buf)
	})
	m := countModel(runs)
	nruns := 0
	for _, r := range runs {
		nruns += len(r)
	}
	out := make([]byte, 0, headerBytes+12*blocks+2*chunks+nruns)
	out = append(out, Version)
	out = binary.LittleEndian.AppendUint64(out, uint64(n))
	out = append(out, byte(log))
	out = m.append(out)
	tables := len(out)
	out = append(out, make([]byte, 12*blocks+2*chunks)...)
	dataStart := len(out)

	var rev []byte
	for b := range blocks {
		blockStart := len(out)
		binary.LittleEndian.PutUint64(out[tables+12*b:], uint64(blockStart-dataStart))
		for c := b * BlockChunks; c < min(chunks, (b+1)*BlockChunks); c++ {
			off := len(out) - blockStart
			if off > 0xFFFF {
				return nil, errBlockTooLong
			}
			binary.LittleEndian.PutUint16(out[tables+12*blocks+2*c:], uint16(off))
			rev = encodeChunk(m, runs[c], rev[:0])
			runs[c] = nil
			// rev is the state then the bytes, both backwards.
			for i := len(rev) - 1; i >= 0; i-- {
				out = append(out, rev[i])
			}
		}
		binary.LittleEndian.PutUint32(out[tables+12*b+8:], crc32.Checksum(out[blockStart:], crcTable))
	}
	return out, nil
}

// encodeChunk codes the runs of a chunk backwards (rANS decodes in the
// opposite order), appending to rev the bytes the decoder will read, last
// first, then the final state's four bytes, most significant first:
// reversed, rev is the chunk as stored.
func encodeChunk(m *Model, runs []run, rev []byte) []byte {
	x := uint32(ransLow)
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		if _, k := lenCode(int(r.n)); k > 0 {
			low := uint32(int(r.n) - 1<<k)
			if k > 8 {
				x, rev = put(x, rev, 1<<(probBits-(k-8)), (low>>8)<<(probBits-(k-8)))
				k = 8
			}
			x, rev = put(x, rev, 1<<(probBits-k), (low&0xFF)<<(probBits-k))
		}
		c := r.code()
		x, rev = put(x, rev, uint32(m.Freq[r.prev][c]), uint32(m.cum[r.prev][c]))
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

// TablesLen returns the length of the header and tables of the stream in
// b (the bytes before its data), or -1 if b is too short to say.
func TablesLen(b []byte) int {
	if len(b) < 10 {
		return -1
	}
	h := headerLen(b[0])
	if h == 0 || len(b) < h {
		return -1
	}
	n := binary.LittleEndian.Uint64(b[1:])
	log := b[9]
	if n > 1<<40 || log < MinChunkLog || log > MaxChunkLog {
		return -1
	}
	chunks := (n + 1<<log - 1) >> log
	blocks := (chunks + BlockChunks - 1) / BlockChunks
	return h + int(12*blocks+2*chunks)
}

// A Stream reads the symbols of an encoded stream in place: its bytes are
// not copied (they may be a memory map). It is safe for concurrent use.
type Stream struct {
	n        int64
	log      uint // a chunk is 1 << log symbols
	m        *Model
	v2       *v2Model // the model of a stream of version 2, read with runV2
	blocks   []byte   // the block table
	chunks   []byte   // the chunk table
	data     []byte
	verified []atomic.Uint64 // a bit a block: its checksum was found right
	// index, made by KeepTables, is the two tables as a read wants them:
	// for each block, its offset (uint32, two uint16s, low first) and its
	// chunks' offsets in it, side by side, so that a read finds both in
	// one place of memory. Empty: the tables are read where they lie.
	index []uint16
}

// indexStride is the length of a block's entry in Stream.index.
const indexStride = 2 + BlockChunks

// Open reads the header and tables of the stream in b. The blocks are
// checked as they are first read (or all at once by Verify).
func Open(b []byte) (*Stream, error) {
	if len(b) < 10 {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, len(b))
	}
	h := headerLen(b[0])
	if h == 0 {
		return nil, fmt.Errorf("%w: version %d, not %d", ErrCorrupt, b[0], Version)
	}
	if len(b) < h {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, len(b))
	}
	n := binary.LittleEndian.Uint64(b[1:])
	if n > 1<<40 {
		return nil, fmt.Errorf("%w: %d symbols", ErrCorrupt, n)
	}
	log := uint(b[9])
	if log < MinChunkLog || log > MaxChunkLog {
		return nil, fmt.Errorf("%w: chunks of 2^%d symbols", ErrCorrupt, log)
	}
	var m *Model
	var m2 *v2Model
	var err error
	if b[0] == Version {
		m, err = readModel(b[10:h])
	} else {
		m2, err = readV2Model(b[10:h])
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	chunks := (n + 1<<log - 1) >> log
	blocks := (chunks + BlockChunks - 1) / BlockChunks
	tables := uint64(h) + 12*blocks + 2*chunks
	if uint64(len(b)) < tables {
		return nil, fmt.Errorf("%w: %d bytes for the tables of %d symbols", ErrCorrupt, len(b), n)
	}
	s := &Stream{
		n: int64(n), log: log, m: m, v2: m2,
		blocks:   b[h : uint64(h)+12*blocks],
		chunks:   b[uint64(h)+12*blocks : tables],
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

// IndexLen returns the length KeepTables wants of its index: 34 a block.
func (s *Stream) IndexLen() int { return indexStride * (len(s.blocks) / 12) }

// KeepTables copies the stream's tables out of the bytes Open was given (a
// memory map) into memory of the caller's, so that a read finds them
// there and touches the mapping only for its chunk: the block table
// (copied), and the block and chunk offsets side by side in index (of
// IndexLen, or nil to allocate it), one place of memory a read. Call it
// before the Stream is shared.
func (s *Stream) KeepTables(index []uint16) {
	s.blocks = bytes.Clone(s.blocks)
	if uint64(len(s.data)) >= 1<<32 {
		s.chunks = bytes.Clone(s.chunks)
		return // offsets past uint32: read from the tables
	}
	blocks := len(s.blocks) / 12
	if index == nil {
		index = make([]uint16, s.IndexLen())
	}
	x := index[:s.IndexLen()]
	for k := range blocks {
		off := s.blockOff(k)
		e := x[indexStride*k:]
		e[0], e[1] = uint16(off), uint16(off>>16)
		for j := 0; j < BlockChunks && 2*(k*BlockChunks+j) < len(s.chunks); j++ {
			e[2+j] = binary.LittleEndian.Uint16(s.chunks[2*(k*BlockChunks+j):])
		}
	}
	s.index, s.chunks = x, nil
}

// Len returns the number of symbols.
func (s *Stream) Len() int64 { return s.n }

// ChunkLen returns the number of symbols of a chunk (the last may hold
// fewer): what a read decodes at most, and the length Chunk's dst needs.
func (s *Stream) ChunkLen() int { return 1 << s.log }

// Chunks returns the number of chunks.
func (s *Stream) Chunks() int { return int((s.n + 1<<s.log - 1) >> s.log) }

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
		first := int64(k) * BlockChunks << s.log
		return nil, fmt.Errorf("%w: block %d (symbols %d to %d) fails its checksum", ErrCorrupt, k,
			first, min(s.n, first+BlockChunks<<s.log)-1)
	}
	s.verified[k/64].Or(bit)
	return b, nil
}

// chunkBytes returns the bytes of chunk c.
func (s *Stream) chunkBytes(c int) ([]byte, error) {
	k := c / BlockChunks
	if s.verified[k/64].Load()&(1<<(k%64)) == 0 {
		if _, err := s.block(k); err != nil {
			return nil, err
		}
	}
	if s.index != nil {
		e := s.index[indexStride*k : indexStride*(k+1)]
		off := int(e[0]) | int(e[1])<<16
		j := c % BlockChunks
		hi := len(s.data)
		switch {
		case j+1 < BlockChunks && c+1 < s.Chunks():
			hi = off + int(e[3+j])
		case indexStride*(k+1) < len(s.index):
			hi = int(s.index[indexStride*(k+1)]) | int(s.index[indexStride*(k+1)+1])<<16
		}
		return s.data[off+int(e[2+j]) : hi], nil
	}
	lo, hi := s.blockOff(k), s.blockEnd(k)
	b := s.data[lo:hi]
	lo2 := int(binary.LittleEndian.Uint16(s.chunks[2*c:]))
	hi2 := len(b)
	if c+1 < (k+1)*BlockChunks && 2*(c+1) < len(s.chunks) {
		hi2 = int(binary.LittleEndian.Uint16(s.chunks[2*(c+1):]))
	}
	return b[lo2:hi2], nil
}

// Touch reads the first byte of the chunk that holds index i (0 ≤ i <
// Len) where its tables are kept (KeepTables) and its block was checked,
// and returns it, else 0: a reader about to read several indices touches
// them all first, so that their misses of memory overlap instead of
// following one another.
func (s *Stream) Touch(i int64) byte {
	c := int(i >> s.log)
	k := c / BlockChunks
	if s.index == nil || i < 0 || i >= s.n || s.verified[k/64].Load()&(1<<(k%64)) == 0 {
		return 0
	}
	e := s.index[indexStride*k : indexStride*(k+1)]
	return s.data[int(e[0])|int(e[1])<<16+int(e[2+c%BlockChunks])]
}

// At returns the symbol at index i (0 ≤ i < Len). It decodes the runs of
// i's chunk up to the one that holds i, and allocates nothing.
func (s *Stream) At(i int64) (byte, error) {
	if i < 0 || i >= s.n {
		return 0, fmt.Errorf("wdl: index %d of %d", i, s.n)
	}
	b, err := s.chunkBytes(int(i >> s.log))
	if err != nil {
		return 0, err
	}
	var d decoder
	if err := d.init(b); err != nil {
		return 0, err
	}
	off := int(i & (1<<s.log - 1))
	if s.v2 == nil {
		return s.at(&d, off)
	}
	prev, pos := byte(chunkStart), 0
	for {
		sym, n := s.run(&d, prev)
		if d.err != nil {
			return 0, d.err
		}
		if pos += n; off < pos {
			return sym, nil
		}
		prev = sym
	}
}

// at is At's loop for the current version: the runs of d decoded up to
// the one that holds index off of the chunk, the decoder's state in
// locals and a short run (most of them) one step, without a call.
func (s *Stream) at(d *decoder, off int) (byte, error) {
	m := s.m
	x, b := d.x, d.b
	prev, pos := chunkStart, 0
	for {
		cum := &m.cum[prev]
		slot := x & (probScale - 1)
		c := int(m.lut[prev][slot>>(probBits-lutBits)])
		for uint32(cum[c+1]) <= slot {
			c++
		}
		x = uint32(cum[c+1]-cum[c])*(x>>probBits) + slot - uint32(cum[c])
		for x < ransLow {
			if len(b) == 0 {
				return 0, fmt.Errorf("%w: a chunk ends early", ErrCorrupt)
			}
			x = x<<8 | uint32(b[0])
			b = b[1:]
		}
		sym, code := c/lenCodes, c%lenCodes
		if code < shortRuns {
			pos += code + 1
		} else {
			d.x, d.b = x, b
			n := d.longRun(code, s.log)
			if d.err != nil {
				return 0, d.err
			}
			x, b = d.x, d.b
			pos += n
		}
		if off < pos {
			return byte(sym), nil
		}
		prev = sym
	}
}

// Chunk decodes chunk c whole into dst (at least ChunkLen long) and
// returns the symbols.
func (s *Stream) Chunk(c int, dst []byte) ([]byte, error) {
	lo := int64(c) << s.log
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
	k := int(min(s.n-lo, 1<<s.log))
	dst = dst[:k]
	prev := byte(chunkStart)
	for pos := 0; pos < k; {
		sym, n := s.run(&d, prev)
		if d.err == nil && pos+n > k {
			d.err = fmt.Errorf("%w: a run past its chunk's end", ErrCorrupt)
		}
		if d.err != nil {
			return nil, d.err
		}
		for j := pos; j < pos+n; j++ {
			dst[j] = sym
		}
		pos += n
		prev = sym
	}
	return dst, nil
}

// run decodes the next run of d, after a run of prev.
func (s *Stream) run(d *decoder, prev byte) (byte, int) {
	if s.v2 != nil {
		return d.runV2(s.v2, prev, s.log)
	}
	return d.run(s.m, prev, s.log)
}

// Version returns the version of the stream's layout: Version, or an
// older one that is still read.
func (s *Stream) Version() int {
	if s.v2 != nil {
		return 2
	}
	return Version
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

// run decodes the next run after a run of prev (or chunkStart): its
// symbol and length. A length that cannot be (a damaged stream) sets err.
func (d *decoder) run(m *Model, prev byte, log uint) (byte, int) {
	c := d.get(m.cum[prev][:], &m.lut[prev])
	sym, code := byte(c/lenCodes), c%lenCodes
	if code < shortRuns {
		return sym, code + 1
	}
	return sym, d.longRun(code, log)
}

// longRun returns the length of a run whose length code (shortRuns or
// more: a bucket) was read, reading its low bits. A length that cannot be
// in a chunk of 1 << log (a damaged stream) sets err.
func (d *decoder) longRun(code int, log uint) int {
	k := code - shortRuns + firstBucket - 1
	if uint(k) > log {
		if d.err == nil {
			d.err = fmt.Errorf("%w: a run of 2^%d or more", ErrCorrupt, k)
		}
		return 1
	}
	low := d.raw(min(k, 8))
	if k > 8 {
		low |= d.raw(k-8) << 8
	}
	return 1<<k | low
}

// get decodes a code under the cumulative frequencies cum (cum[0] = 0, the
// last 1 << probBits), whose lookup table is t.
func (d *decoder) get(cum []uint16, t *lut) int {
	slot := d.x & (probScale - 1)
	s := int(t[slot>>(probBits-lutBits)])
	for uint32(cum[s+1]) <= slot {
		s++
	}
	d.x = uint32(cum[s+1]-cum[s])*(d.x>>probBits) + slot - uint32(cum[s])
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

// renorm reads bytes into the state until it is back in range. Reading
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
