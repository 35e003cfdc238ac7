package dist

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// source makes n values as a sector's come: a share draws of DontCare, the
// others distances around mean (some long: up to MaxValue), often the same
// as the one before.
func source(rng *rand.Rand, n int, draws float64, mean int) []uint16 {
	out := make([]uint16, n)
	var v uint16
	for i := range out {
		switch x := rng.Float64(); {
		case x < draws:
			out[i] = DontCare
			continue
		case x < draws+(1-draws)/3:
			// the value before
		case rng.IntN(1000) == 0:
			v = uint16(rng.IntN(MaxValue + 1))
		default:
			v = uint16(rng.IntN(2*mean + 1))
		}
		out[i] = v
	}
	return out
}

func encodeT(t *testing.T, vals []uint16) (*Stream, []byte) {
	t.Helper()
	b, err := Encode(vals)
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
	return s, b
}

// TestRoundTrip: every value that is not DontCare read back, for lengths
// around the chunks' and blocks' edges and for sources with and without
// DontCare, short and long distances.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, chunkLen - 1, chunkLen, chunkLen + 1, blockChunks * chunkLen, blockChunks*chunkLen + 1, 3*blockChunks*chunkLen + 77} {
		for _, src := range []struct {
			name  string
			draws float64
			mean  int
		}{{"exact short", 0, 5}, {"exact long", 0, 200}, {"draws", 0.5, 40}, {"all draws", 1, 1}, {"zeros", 0, 0}} {
			vals := source(rng, n, src.draws, src.mean)
			s, b := encodeT(t, vals)
			if s.Len() != int64(n) {
				t.Fatalf("%s, n=%d: Len %d", src.name, n, s.Len())
			}
			for i, v := range vals {
				got, err := s.At(int64(i))
				if err != nil || v != DontCare && got != v {
					t.Fatalf("%s, n=%d: At(%d) = %d, %v; want %d", src.name, n, i, got, err, v)
				}
			}
			buf := make([]uint16, ChunkLen)
			for c := range s.Chunks() {
				got, err := s.Chunk(c, buf)
				if err != nil || len(got) != min(ChunkLen, n-c*ChunkLen) {
					t.Fatalf("%s, n=%d: chunk %d: %d values, %v", src.name, n, c, len(got), err)
				}
				for j, v := range got {
					if w := vals[c*ChunkLen+j]; w != DontCare && v != w {
						t.Fatalf("%s, n=%d: chunk %d reads %d at %d, want %d", src.name, n, c, v, j, w)
					}
				}
			}
			if n == 3*blockChunks*chunkLen+77 {
				t.Logf("%s: %d values, %d bytes (%.2f bits a value)", src.name, n, len(b), float64(8*len(b))/float64(n))
			}
		}
	}
	if _, err := Encode([]uint16{MaxValue + 1}); err == nil {
		t.Error("a value above MaxValue coded")
	}
}

// TestDontCareIsCheap: draws cost next to nothing: a stream half draws is
// about half the size of the same distances without them.
func TestDontCareIsCheap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vals := source(rng, 1<<16, 0, 30)
	half := make([]uint16, 0, 2*len(vals))
	for _, v := range vals {
		half = append(half, v, DontCare)
	}
	a, _ := Encode(vals)
	b, _ := Encode(half)
	if float64(len(b)) > 1.25*float64(len(a)) {
		t.Errorf("%d values: %d bytes; with as many DontCare between them: %d", len(vals), len(a), len(b))
	}
}

// TestDamage: a changed byte of the data is found by its block's checksum,
// and the other blocks still read.
func TestDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vals := source(rng, 4*blockChunks*chunkLen, 0.2, 40)
	_, b := encodeT(t, vals)
	b[len(b)-10] ^= 0x40 // in the last block
	s, err := Open(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.At(int64(len(vals) - 1)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("the damaged block read: %v", err)
	}
	if err := s.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify: %v", err)
	}
	for i := range blockChunks * chunkLen {
		if got, err := s.At(int64(i)); err != nil || vals[i] != DontCare && got != vals[i] {
			t.Fatalf("the first block, At(%d) = %d, %v; want %d", i, got, err, vals[i])
		}
	}
}

// FuzzOpen: any bytes open or are refused, and a stream that opens reads
// (a value or an error) at every index without panicking.
func FuzzOpen(f *testing.F) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 300, 2 * chunkLen} {
		b, _ := Encode(source(rng, n, 0.3, 20))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Open(b)
		if err != nil {
			return
		}
		for i := int64(0); i < min(s.Len(), 4096); i++ {
			_, _ = s.At(i)
		}
	})
}

// BenchmarkAt: a read of a random index, its chunk decoded up to it.
func BenchmarkAt(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	vals := source(rng, 1<<22, 0.25, 60)
	enc, err := Encode(vals)
	if err != nil {
		b.Fatal(err)
	}
	s, err := Open(enc)
	if err != nil {
		b.Fatal(err)
	}
	s.Verify()
	idx := make([]int64, 4096)
	for i := range idx {
		idx[i] = rng.Int64N(int64(len(vals)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.At(idx[i%len(idx)]); err != nil {
			b.Fatal(err)
		}
	}
}
