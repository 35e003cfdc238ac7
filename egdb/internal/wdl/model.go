package wdl

import (
	"errors"
	"fmt"
)

// The symbols.
const (
	Win  = 0
	Draw = 1
	Loss = 2
)

// Contexts is the number of contexts of the model: the two symbols before,
// 3 × 3 (the symbols before the first of a chunk count as draws).
const Contexts = 9

// probBits is the precision of the quantised frequencies: each context's
// three sum to 1 << probBits.
const probBits = 12

const probScale = 1 << probBits

// context returns the context of a symbol from the two before it.
func context(prev1, prev2 byte) int { return int(prev1)*3 + int(prev2) }

// A Model is the frequency of each symbol in each context, quantised so
// that a context's three sum to 1 << 12; a symbol never seen in a context
// has frequency 0 and cannot be coded there.
type Model struct {
	Freq [Contexts][3]uint16
	// cum[c][s]: the sum of the frequencies of the symbols before s;
	// slot[c][x]: the symbol whose range holds x (decoding).
	cum  [Contexts][4]uint32
	slot [Contexts][probScale]byte
}

// countModel counts the symbols of syms in their contexts, leaving out
// those dontCare marks, and quantises the counts into a model.
func countModel(syms []byte, dontCare func(i int) bool) *Model {
	var counts [Contexts][3]uint64
	var p1, p2 byte = Draw, Draw
	for i, s := range syms {
		if i%ChunkLen == 0 {
			p1, p2 = Draw, Draw
		}
		if dontCare == nil || !dontCare(i) {
			counts[context(p1, p2)][s]++
		}
		p2, p1 = p1, s
	}
	m := &Model{}
	for c := range counts {
		m.Freq[c] = quantise(counts[c])
	}
	m.build()
	return m
}

// quantise scales three counts to frequencies summing to probScale, each
// symbol seen at least once keeping a frequency of at least 1. A context
// never seen gets an even model (it is never used to code).
func quantise(n [3]uint64) [3]uint16 {
	total := n[0] + n[1] + n[2]
	if total == 0 {
		return [3]uint16{1366, 1365, 1365}
	}
	var f [3]uint16
	sum := 0
	for s, x := range n {
		if x == 0 {
			continue
		}
		v := int(float64(x) * probScale / float64(total))
		v = max(v, 1)
		f[s] = uint16(v)
		sum += v
	}
	// Give the rounding's difference to (or take it from) the most
	// frequent symbol, which it changes least.
	big := 0
	for s := range f {
		if f[s] > f[big] {
			big = s
		}
	}
	f[big] = uint16(int(f[big]) + probScale - sum)
	return f
}

// build fills the tables derived from the frequencies.
func (m *Model) build() {
	for c := range m.Freq {
		var cum uint32
		for s := range 3 {
			m.cum[c][s] = cum
			for x := cum; x < cum+uint32(m.Freq[c][s]); x++ {
				m.slot[c][x] = byte(s)
			}
			cum += uint32(m.Freq[c][s])
		}
		m.cum[c][3] = cum
	}
}

// likeliest returns the symbol of the highest frequency in context c.
func (m *Model) likeliest(c int) byte {
	best := 0
	for s := 1; s < 3; s++ {
		if m.Freq[c][s] > m.Freq[c][best] {
			best = s
		}
	}
	return byte(best)
}

// modelBytes is the size of a model as stored: a uint16 a frequency.
const modelBytes = Contexts * 3 * 2

func (m *Model) append(b []byte) []byte {
	for c := range m.Freq {
		for _, f := range m.Freq[c] {
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
	for c := range m.Freq {
		sum := 0
		for s := range 3 {
			k := (c*3 + s) * 2
			m.Freq[c][s] = uint16(b[k]) | uint16(b[k+1])<<8
			sum += int(m.Freq[c][s])
		}
		if sum != probScale {
			return nil, fmt.Errorf("%w: context %d sums to %d", errModel, c, sum)
		}
	}
	m.build()
	return m, nil
}
