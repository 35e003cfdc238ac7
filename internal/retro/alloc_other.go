//go:build !linux

package retro

// words returns n zeroed words (see alloc_linux.go) from the Go heap.
func words[T uint32 | uint16](n int64) ([]T, func()) {
	return make([]T, n), func() {}
}
