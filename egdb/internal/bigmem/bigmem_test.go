package bigmem

import "testing"

func TestAlloc(t *testing.T) {
	for _, n := range []int64{0, 1, 1000, 1 << 20} {
		w, free := Alloc[uint32](n)
		if int64(len(w)) != n {
			t.Fatalf("Alloc(%d): %d words", n, len(w))
		}
		for i := range w {
			if w[i] != 0 {
				t.Fatalf("Alloc(%d): word %d is %d, not zero", n, i, w[i])
			}
			w[i] = uint32(i)
		}
		for i := range w {
			if w[i] != uint32(i) {
				t.Fatalf("Alloc(%d): word %d reads %d", n, i, w[i])
			}
		}
		free()
	}
	type value uint16
	v, free := Alloc[value](3)
	v[2] = 7
	free()
}
