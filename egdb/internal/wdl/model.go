package wdl

import (
	"errors"
	"fmt"
	"math/bits"
)

// The symbols, and the masks of what an index may hold (Encode).
const (
	Win  = 0
	Draw = 1
	Loss = 2

	// Any is the mask of an index that may hold any symbol: an unused
	// index, or one whose value a reader finds otherwise.
	Any = 1<<Win | 1<<Draw | 1<<Loss
)

// Only returns the mask of an index that must hold s.
func Only(s byte) byte { return 1 << s }

// A chunk's symbols are coded as runs (a symbol, and how many indices in a
// row hold it), each run by three codes: its symbol given the symbol of
// the run before (symContexts: W, D, L, or "the chunk's first run"); its
// length's bucket, bits.Len(length), given its symbol and the symbol
// before (lenContexts); and the bucket's low bits, below its top one, as
// they are (uniform).
const (
	symContexts = 4
	chunkStart  = 3
	lenContexts = 3 * symContexts
	buckets     = MaxChunkLog + 2 // bits.Len of 1 .. 1<<MaxChunkLog, and 0 unused
)

// probBits is the precision of the quantised frequencies: a context's
// frequencies sum to 1 << probBits.
const probBits = 12

const probScale = 1 << probBits

// A Model is the frequencies of the runs' symbols and of their lengths'
// buckets in each context, counted over a stream and stored with it,
// quantised so that each context's sum to 1 << 12. A code never seen in a
// context has frequency 0 there and cannot be coded in it.
type Model struct {
	Sym [symContexts][3]uint16
	Len [lenContexts][buckets]uint16
	// cumulative frequencies: symCum[c][s] is the sum of those before s.
	symCum [symContexts][4]uint16
	lenCum [lenContexts][buckets + 1]uint16
	// For each context, the code whose range holds the first slot of each
	// 1/lutSize of the range: the decoder's search for a slot's code
	// starts there (a step or none, not a walk over every bucket).
	symLUT [symContexts]lut
	lenLUT [lenContexts]lut
}

// lutBits is the precision of a context's lookup table: lutSize entries.
const (
	lutBits = 8
	lutSize = 1 << lutBits
)

type lut [lutSize]uint8

// fill sets t[j] to the code whose range holds slot j << (probBits -
// lutBits), under the cumulative frequencies cum.
func (t *lut) fill(cum []uint16) {
	s := 0
	for j := range t {
		lo := uint16(j << (probBits - lutBits))
		for cum[s+1] <= lo {
			s++
		}
		t[j] = uint8(s)
	}
}

// lenContext is the context of a run's length: its symbol and the symbol
// of the run before.
func lenContext(sym, prev byte) int { return int(sym)*symContexts + int(prev) }

// bucketOf returns the bucket of a run's length (1 .. 1<<MaxChunkLog).
func bucketOf(n int) int { return bits.Len(uint(n)) }

// A run is a symbol held by n indices in a row, after a run of prev (or
// chunkStart).
type run struct {
	sym, prev byte
	n         uint16 // 1 .. 1<<MaxChunkLog
}

// countModel counts the codes of the chunks' runs and quantises them.
func countModel(chunks [][]run) *Model {
	var sym [symContexts][3]uint64
	var lens [lenContexts][buckets]uint64
	for _, runs := range chunks {
		for _, r := range runs {
			sym[r.prev][r.sym]++
			lens[lenContext(r.sym, r.prev)][bucketOf(int(r.n))]++
		}
	}
	m := &Model{}
	for c := range sym {
		copy(m.Sym[c][:], quantise(sym[c][:]))
	}
	for c := range lens {
		copy(m.Len[c][:], quantise(lens[c][:]))
	}
	m.build()
	return m
}

// quantise scales counts to frequencies summing to probScale, each code
// seen at least once keeping a frequency of at least 1. A context never
// seen gets all to its first code (it is never used to code).
func quantise(n []uint64) []uint16 {
	f := make([]uint16, len(n))
	var total uint64
	for _, x := range n {
		total += x
	}
	if total == 0 {
		f[0] = probScale
		return f
	}
	sum := 0
	for s, x := range n {
		if x == 0 {
			continue
		}
		v := max(int(float64(x)*probScale/float64(total)), 1)
		f[s] = uint16(v)
		sum += v
	}
	// Give the rounding's difference to (or take it from) the most
	// frequent code, which it changes least; a code of frequency 1 keeps
	// it (the most frequent is then large enough to give).
	big := 0
	for s := range f {
		if f[s] > f[big] {
			big = s
		}
	}
	f[big] = uint16(int(f[big]) + probScale - sum)
	return f
}

// build fills the cumulative frequencies.
func (m *Model) build() {
	for c := range m.Sym {
		for s := range 3 {
			m.symCum[c][s+1] = m.symCum[c][s] + m.Sym[c][s]
		}
		m.symLUT[c].fill(m.symCum[c][:])
	}
	for c := range m.Len {
		for s := range buckets {
			m.lenCum[c][s+1] = m.lenCum[c][s] + m.Len[c][s]
		}
		m.lenLUT[c].fill(m.lenCum[c][:])
	}
}

// modelBytes is the size of a model as stored: a uint16 a frequency.
const modelBytes = (symContexts*3 + lenContexts*buckets) * 2

func (m *Model) append(b []byte) []byte {
	for c := range m.Sym {
		for _, f := range m.Sym[c] {
			b = append(b, byte(f), byte(f>>8))
		}
	}
	for c := range m.Len {
		for _, f := range m.Len[c] {
			b = append(b, byte(f), byte(f>>8))
		}
	}
	return b
}

var errModel = errors.New("wdl: bad model")

// readModel reads a stored model and checks that each context's
// frequencies sum to 1 << 12.
func readModel(b []byte) (*Model, error) {
	if len(b) < modelBytes {
		return nil, fmt.Errorf("%w: %d bytes", errModel, len(b))
	}
	m := &Model{}
	k := 0
	next := func() uint16 {
		v := uint16(b[k]) | uint16(b[k+1])<<8
		k += 2
		return v
	}
	for c := range m.Sym {
		sum := 0
		for s := range 3 {
			m.Sym[c][s] = next()
			sum += int(m.Sym[c][s])
		}
		if sum != probScale {
			return nil, fmt.Errorf("%w: symbol context %d sums to %d", errModel, c, sum)
		}
	}
	for c := range m.Len {
		sum := 0
		for s := range buckets {
			m.Len[c][s] = next()
			sum += int(m.Len[c][s])
		}
		if sum != probScale {
			return nil, fmt.Errorf("%w: length context %d sums to %d", errModel, c, sum)
		}
	}
	m.build()
	return m, nil
}
