package wdl

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sync/atomic"
	"testing"
)

// source makes n symbols: runs of one symbol (mean length run) drawn with
// the probabilities p, as sectors' values come in index order.
func source(rng *rand.Rand, n int, p [3]float64, run int) []byte {
	out := make([]byte, n)
	var s byte
	for i := range out {
		if i == 0 || rng.IntN(run) == 0 {
			x := rng.Float64()
			switch {
			case x < p[0]:
				s = Win
			case x < p[0]+p[1]:
				s = Draw
			default:
				s = Loss
			}
		}
		out[i] = s
	}
	return out
}

func encodeT(t *testing.T, syms []byte) *Stream {
	t.Helper()
	b, err := EncodeSymbols(syms)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRoundTrip: every symbol read back, by At and by Chunk, for lengths
// around the chunks' and blocks' edges and for even, skewed (long runs: the
// longest chunks) and single symbol sources.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const minChunk = 1 << MinChunkLog
	for _, n := range []int{0, 1, 2, 511, 512, 513, 1023, 1024, 1025, BlockChunks * minChunk, BlockChunks*minChunk + 1, 3*BlockChunks*minChunk + 77, 2 * BlockChunks << MaxChunkLog} {
		for _, src := range []struct {
			name string
			p    [3]float64
			run  int
		}{{"even", [3]float64{1. / 3, 1. / 3, 1. / 3}, 1}, {"skewed runs", [3]float64{0.9, 0.09, 0.01}, 20}, {"draws", [3]float64{0, 1, 0}, 1}} {
			syms := source(rng, n, src.p, src.run)
			s := encodeT(t, syms)
			if s.Len() != int64(n) {
				t.Fatalf("%s, %d: Len %d", src.name, n, s.Len())
			}
			// By At every index (with -short, the race detector's run,
			// every 13th: each decodes its chunk up to it), by Chunk all.
			step := 1
			if testing.Short() {
				step = 13
			}
			// Read twice: from the tables where they lie (each block
			// checked on its first read), then from the tables kept.
			for _, keep := range []bool{false, true} {
				if keep {
					s.KeepTables(nil)
				}
				for i := 0; i < n; i += step {
					want := syms[i]
					got, err := s.At(int64(i))
					if err != nil || got != want {
						t.Fatalf("%s, %d symbols, tables kept %v: At(%d) = %d, %v; want %d", src.name, n, keep, i, got, err, want)
					}
					// Touch reads the chunk's first byte, once it is kept and checked.
					if b, _ := s.chunkBytes(i >> s.log); keep && s.Touch(int64(i)) != b[0] {
						t.Fatalf("Touch(%d) is not the first byte of its chunk", i)
					}
				}
			}
			cl := s.ChunkLen()
			buf := make([]byte, cl)
			for c := 0; c*cl < n; c++ {
				got, err := s.Chunk(c, buf)
				if err != nil || string(got) != string(syms[c*cl:min(n, (c+1)*cl)]) {
					t.Fatalf("%s, %d symbols: chunk %d differs (%v)", src.name, n, c, err)
				}
			}
			if _, err := s.At(int64(n)); err == nil {
				t.Errorf("At(Len) answered")
			}
		}
	}
}

// TestSize: the stream of a source with known entropy comes within a few
// per cent of it (the model's and tables' bytes, each chunk's state, and
// the lengths' low bits coded as they are, are the rest).
func TestSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := [3]float64{0.7, 0.2, 0.1}
	n := 2_000_000
	syms := source(rng, n, p, 1) // independent symbols: the entropy is H0
	h := 0.0
	for _, x := range p {
		h -= x * math.Log2(x)
	}
	b, err := EncodeSymbols(syms)
	if err != nil {
		t.Fatal(err)
	}
	bits := float64(8*len(b)) / float64(n)
	// Each chunk (the shortest here: runs of under two symbols) adds its
	// state's four bytes and its offset's two.
	chunk := 6 * 8 / float64(int(1)<<MinChunkLog)
	if bits > h*1.03+chunk || bits < h*0.95 {
		t.Errorf("%.4f bits a symbol, the entropy %.4f and %.4f a symbol of a chunk's state and offset", bits, h, chunk)
	}
	t.Logf("%d symbols in %d bytes: %.4f bits a symbol, the entropy %.4f", n, len(b), bits, h)
}

// masksOf gives each symbol a mask that holds it: its own mostly, Any or 0
// (an unused index, as Any) a sixth of the time each, and another symbol
// as well (or the same) a sixth of the time.
func masksOf(rng *rand.Rand, syms []byte) []byte {
	allowed := make([]byte, len(syms))
	for i, s := range syms {
		allowed[i] = Only(s)
		switch rng.IntN(6) {
		case 0:
			allowed[i] = Any
		case 1:
			allowed[i] = 0
		case 2:
			allowed[i] |= Only(byte(rng.IntN(3)))
		}
	}
	return allowed
}

// TestDontCare: the symbols that matter come back exactly, the others as
// one of those allowed, and freeing them costs less than coding them.
func TestDontCare(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 200_000
	syms := source(rng, n, [3]float64{0.5, 0.3, 0.2}, 8)
	allowed := masksOf(rng, syms)
	full, _ := EncodeSymbols(syms)
	b, err := Encode(allowed)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range syms {
		got, err := s.At(int64(i))
		m := allowed[i]
		if m == 0 {
			m = Any
		}
		if err != nil || got > Loss || m&Only(got) == 0 {
			t.Fatalf("At(%d) = %d, %v; allowed %03b", i, got, err, m)
		}
	}
	if len(b) >= len(full) {
		t.Errorf("with free indices %d bytes, without %d", len(b), len(full))
	}
	if _, err := Encode([]byte{Only(Win), 8}); err == nil {
		t.Errorf("a mask of 8 was coded")
	}
	t.Logf("%d bytes with a third of the indices free, %d without", len(b), len(full))
}

// TestEncodeLazy: from the exact values, asking for the whole masks only
// where they may change the runs, EncodeLazy writes the very stream that
// Encode writes from the whole masks, asks for a part of them, and keeps
// those it asked for.
func TestEncodeLazy(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 300_000
	syms := source(rng, n, [3]float64{0.5, 0.3, 0.2}, 8)
	whole := masksOf(rng, syms)
	cheap := make([]byte, n)
	for i, s := range syms {
		cheap[i] = whole[i] & Only(s)
	}
	want, err := Encode(slices.Clone(whole))
	if err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int64
	got, err := EncodeLazy(cheap, func() func(int) byte {
		return func(i int) byte { asked.Add(1); return whole[i] }
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("EncodeLazy wrote %d bytes, Encode %d, not the same", len(got), len(want))
	}
	if a := asked.Load(); a == 0 || a >= int64(n)*3/4 {
		t.Errorf("asked %d whole masks of %d", a, n)
	}
	for i, m := range cheap {
		if m&Known != 0 && m&^Known != whole[i]&Any {
			t.Fatalf("index %d kept %#x, its mask is %#x", i, m, whole[i])
		}
	}
	t.Logf("asked %d whole masks of %d", asked.Load(), n)
}

// TestDamage: a changed byte of the data fails its block's checksum (and
// only that block), a changed table or header is refused by Open, and a
// cut stream too.
func TestDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	syms := source(rng, 3*BlockChunks<<MinChunkLog, [3]float64{0.4, 0.4, 0.2}, 4)
	b, _ := EncodeSymbols(syms)
	s, _ := Open(b)
	if s.ChunkLen() != 1<<MinChunkLog {
		t.Fatalf("chunks of %d", s.ChunkLen())
	}
	// A byte in the middle of block 1.
	k := 1
	lo := len(b) - len(s.data) + int(s.blockOff(k))
	hi := len(b) - len(s.data) + int(s.blockEnd(k))
	bad := append([]byte(nil), b...)
	bad[(lo+hi)/2] ^= 0x40
	d, err := Open(bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.At(int64(k*BlockChunks*s.ChunkLen() + 5)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a symbol of the damaged block: %v", err)
	}
	if got, err := d.At(3); err != nil || got != syms[3] {
		t.Errorf("a symbol of a sound block: %d, %v", got, err)
	}
	if err := d.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify of a damaged stream: %v", err)
	}
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"another version", append([]byte{1}, b[1:]...)},
		{"chunks too long", func() []byte { x := append([]byte(nil), b...); x[9] = MaxChunkLog + 1; return x }()},
		{"a model that does not sum", func() []byte { x := append([]byte(nil), b...); x[10]++; return x }()},
		{"cut in the tables", b[:headerBytes+5]},
		{"a block past the end", func() []byte {
			x := append([]byte(nil), b...)
			x[headerBytes+12] = 0xFF
			x[headerBytes+13] = 0xFF
			return x
		}()},
	} {
		if _, err := Open(c.b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Open answered %v", c.name, err)
		}
	}
}

// FuzzOpen: any bytes are opened or refused, and reading what opens
// answers or errs, never panics or reads out of bounds.
// TestVersion2: a stream written by version 2 (testdata/v2.wdl, made by
// the encoder of 9a47d9f from v2Symbols) is still read, symbol for symbol.
func TestVersion2(t *testing.T) {
	b, err := os.ReadFile("testdata/v2.wdl")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(b)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version() != 2 || TablesLen(b) <= 0 {
		t.Fatalf("version %d, tables %d", s.Version(), TablesLen(b))
	}
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	want := v2Symbols()
	if s.Len() != int64(len(want)) {
		t.Fatalf("%d symbols, want %d", s.Len(), len(want))
	}
	buf := make([]byte, s.ChunkLen())
	for c := range s.Chunks() {
		got, err := s.Chunk(c, buf)
		if err != nil {
			t.Fatal(err)
		}
		lo := c * s.ChunkLen()
		if !bytes.Equal(got, want[lo:lo+len(got)]) {
			t.Fatalf("chunk %d differs", c)
		}
	}
	for i := int64(0); i < s.Len(); i += 97 {
		if v, err := s.At(i); err != nil || v != want[i] {
			t.Fatalf("At(%d) = %d, %v; want %d", i, v, err, want[i])
		}
	}
}

// v2Symbols is the symbols of testdata/v2.wdl: runs of a random symbol,
// of random lengths, most of them short.
func v2Symbols() []byte {
	rng := rand.New(rand.NewPCG(2, 3))
	syms := make([]byte, 0, 60000)
	for len(syms) < cap(syms) {
		s := byte(rng.IntN(3))
		n := 1 + rng.IntN(1<<rng.IntN(9))
		for range min(n, cap(syms)-len(syms)) {
			syms = append(syms, s)
		}
	}
	return syms
}

func FuzzOpen(f *testing.F) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 5, 1500} {
		b, _ := EncodeSymbols(source(rng, n, [3]float64{0.5, 0.3, 0.2}, 3))
		f.Add(b)
	}
	if b, err := os.ReadFile("testdata/v2.wdl"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Open(b)
		if err != nil {
			return
		}
		buf := make([]byte, s.ChunkLen())
		for i := int64(0); i < min(s.Len(), 3000); i += 7 {
			s.At(i)
		}
		for c := 0; c < min(s.Chunks(), 4); c++ {
			s.Chunk(c, buf)
		}
		s.Verify()
	})
}

// BenchmarkAt: a random symbol of a stream of 32 million (runs of 6 on
// average), each read decoding its chunk's runs up to it.
func BenchmarkAt(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 32 << 20
	syms := source(rng, n, [3]float64{0.46, 0.40, 0.14}, 6)
	enc, err := EncodeSymbols(syms)
	if err != nil {
		b.Fatal(err)
	}
	s, err := Open(enc)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Verify(); err != nil {
		b.Fatal(err)
	}
	idx := make([]int64, 1<<16)
	for i := range idx {
		idx[i] = rng.Int64N(int64(n))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.At(idx[i&(len(idx)-1)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(8*len(enc))/float64(n), "bits/symbol")
	b.ReportMetric(float64(s.ChunkLen()), "symbols/chunk")
}
