//go:build !linux

package bigmem

// Alloc returns n zeroed values (see bigmem_linux.go) from the Go heap.
func Alloc[T Word](n int64) ([]T, func()) {
	return make([]T, n), func() {}
}
