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
// row hold it), each run by one code in the context of the symbol of the
// run before (W, D, L, or chunkStart for the chunk's first run): the
// code says the run's symbol and its length's code. A length of at most
// shortRuns is its own code; a longer one n has the code of its bucket
// bits.Len(n), and is followed by its bits below the top one as they are
// (uniform). So most runs are read in one step of the decoder.
const (
	symContexts = 4
	chunkStart  = 3
	shortRuns   = 16
	firstBucket = 5                                         // bits.Len(shortRuns+1)
	lenCodes    = shortRuns + MaxChunkLog + 2 - firstBucket // 1..16, then buckets 5..MaxChunkLog+1
	codes       = 3 * lenCodes
)

// lenCode returns the length code of a run of n (1 .. 1<<MaxChunkLog)
// indices, and the number of its low bits that follow it.
func lenCode(n int) (code, k int) {
	if n <= shortRuns {
		return n - 1, 0
	}
	b := bits.Len(uint(n))
	return shortRuns + b - firstBucket, b - 1
}

// probBits is the precision of the quantised frequencies: a context's
// frequencies sum to 1 << probBits.
const probBits = 15

const probScale = 1 << probBits

// A Model is the frequencies of the runs' codes in each context, counted
// over a stream and stored with it, quantised so that each context's sum
// to 1 << probBits. A code never seen in a context has frequency 0 there
// and cannot be coded in it.
type Model struct {
	Freq [symContexts][codes]uint16
	// cumulative frequencies: cum[c][s] is the sum of those before s.
	cum [symContexts][codes + 1]uint16
	// For each context, the code whose range holds the first slot of each
	// 1/lutSize of the range: the decoder's search for a slot's code
	// starts there (a step or none, not a walk over every code).
	lut [symContexts]lut
}

// lutBits is the precision of a context's lookup table: lutSize entries.
const (
	lutBits = 10
	lutSize = 1 << lutBits
)

type lut [lutSize]uint8

// fill sets t[j] to the code whose range holds slot j << (probBits -
// lutBits), under the cumulative frequencies cum.
func (t *lut) fill(cum []uint16) {
	s := 0
	for j := range t {
		lo := uint32(j << (probBits - lutBits))
		for uint32(cum[s+1]) <= lo {
			s++
		}
		t[j] = uint8(s)
	}
}

// A run is a symbol held by n indices in a row, after a run of prev (or
// chunkStart).
type run struct {
	sym, prev byte
	n         uint16 // 1 .. 1<<MaxChunkLog
}

// code returns the run's code.
func (r run) code() int {
	c, _ := lenCode(int(r.n))
	return int(r.sym)*lenCodes + c
}

// countModel counts the codes of the chunks' runs and quantises them.
func countModel(chunks [][]run) *Model {
	var n [symContexts][codes]uint64
	for _, runs := range chunks {
		for _, r := range runs {
			n[r.prev][r.code()]++
		}
	}
	m := &Model{}
	for c := range n {
		if c != chunkStart && n[c] == [codes]uint64{} {
			// Never seen: all to a code that is stored.
			n[c][((c+1)%3)*lenCodes] = 1
		}
		copy(m.Freq[c][:], quantise(n[c][:]))
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

// build fills the cumulative frequencies and the lookup tables.
func (m *Model) build() {
	for c := range m.Freq {
		for s := range codes {
			m.cum[c][s+1] = m.cum[c][s] + m.Freq[c][s]
		}
		m.lut[c].fill(m.cum[c][:])
	}
}

// A run's symbol differs from the one before (the runs are as long as
// they can be), so the codes of a run of prev after prev are never used,
// and not stored: stored reports whether code s of context c is.
func stored(c, s int) bool { return c == chunkStart || s/lenCodes != c }

// modelBytes is the size of a model as stored: a uint16 a frequency, each
// context's but the chunk's start without the codes of its own symbol.
const modelBytes = (symContexts*codes - (symContexts-1)*lenCodes) * 2

func (m *Model) append(b []byte) []byte {
	for c := range m.Freq {
		for s, f := range m.Freq[c] {
			if stored(c, s) {
				b = append(b, byte(f), byte(f>>8))
			}
		}
	}
	return b
}

var errModel = errors.New("wdl: bad model")

// readModel reads a stored model and checks that each context's
// frequencies sum to 1 << probBits.
func readModel(b []byte) (*Model, error) {
	if len(b) < modelBytes {
		return nil, fmt.Errorf("%w: %d bytes", errModel, len(b))
	}
	m := &Model{}
	k := 0
	for c := range m.Freq {
		sum := 0
		for s := range codes {
			if stored(c, s) {
				m.Freq[c][s] = uint16(b[k]) | uint16(b[k+1])<<8
				k += 2
				sum += int(m.Freq[c][s])
			}
		}
		if sum != probScale {
			return nil, fmt.Errorf("%w: context %d sums to %d", errModel, c, sum)
		}
	}
	m.build()
	return m, nil
}
