package wdl

import "fmt"

// Version 2 of the stream, read so that the files written with it stay
// usable (Recode-style tools read them and write the current version).
// It coded each run by two codes under 12-bit frequencies: its symbol
// given the symbol before, its length's bucket bits.Len(n) given its
// symbol and the one before; then the bucket's low bits as they are. Its
// model is 408 bytes: the symbols' 3 frequencies in each of 4 contexts,
// then the 16 buckets' in each of 12 (the symbol times 4 plus the one
// before). The rest of the layout is the current one.
const (
	v2ProbBits   = 12
	v2LutBits    = 8
	v2Buckets    = 16
	v2Contexts   = 3 * symContexts
	v2ModelBytes = (symContexts*3 + v2Contexts*v2Buckets) * 2
)

type v2Model struct {
	symCum [symContexts][4]uint16
	lenCum [v2Contexts][v2Buckets + 1]uint16
	symLUT [symContexts][1 << v2LutBits]uint8
	lenLUT [v2Contexts][1 << v2LutBits]uint8
}

func readV2Model(b []byte) (*v2Model, error) {
	if len(b) < v2ModelBytes {
		return nil, fmt.Errorf("%w: %d bytes", errModel, len(b))
	}
	m := &v2Model{}
	k := 0
	fill := func(cum []uint16, t []uint8) error {
		for s := 1; s < len(cum); s++ {
			cum[s] = cum[s-1] + (uint16(b[k]) | uint16(b[k+1])<<8)
			k += 2
		}
		if cum[len(cum)-1] != 1<<v2ProbBits {
			return fmt.Errorf("%w: a context sums to %d", errModel, cum[len(cum)-1])
		}
		s := 0
		for j := range t {
			for cum[s+1] <= uint16(j<<(v2ProbBits-v2LutBits)) {
				s++
			}
			t[j] = uint8(s)
		}
		return nil
	}
	for c := range m.symCum {
		if err := fill(m.symCum[c][:], m.symLUT[c][:]); err != nil {
			return nil, err
		}
	}
	for c := range m.lenCum {
		if err := fill(m.lenCum[c][:], m.lenLUT[c][:]); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// runV2 is run for a stream of version 2.
func (d *decoder) runV2(m *v2Model, prev byte, log uint) (byte, int) {
	sym := byte(d.getV2(m.symCum[prev][:], m.symLUT[prev][:]))
	if sym > Loss {
		sym = Loss
	}
	c := int(sym)*symContexts + int(prev)
	b := d.getV2(m.lenCum[c][:], m.lenLUT[c][:])
	if b == 0 || uint(b) > log+1 {
		if d.err == nil {
			d.err = fmt.Errorf("%w: a run of bucket %d", ErrCorrupt, b)
		}
		return sym, 1
	}
	k := b - 1
	low := 0
	if k > 0 {
		low = d.rawV2(min(k, 8))
		if k > 8 {
			low |= d.rawV2(k-8) << 8
		}
	}
	return sym, 1<<k | low
}

func (d *decoder) getV2(cum []uint16, t []uint8) int {
	slot := d.x & (1<<v2ProbBits - 1)
	s := int(t[slot>>(v2ProbBits-v2LutBits)])
	for uint32(cum[s+1]) <= slot {
		s++
	}
	d.x = uint32(cum[s+1]-cum[s])*(d.x>>v2ProbBits) + slot - uint32(cum[s])
	d.renorm()
	return s
}

func (d *decoder) rawV2(k int) int {
	shift := v2ProbBits - uint(k)
	slot := d.x & (1<<v2ProbBits - 1)
	v := slot >> shift
	d.x = (d.x>>v2ProbBits)<<shift + slot - v<<shift
	d.renorm()
	return int(v)
}
