//go:build linux

package bigmem

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Alloc returns n zeroed values outside the Go heap and the function that
// gives them back (once; the slice must not be used after it). The
// kernel is asked to back them with transparent huge pages (madvise mode):
// a random access then walks a 2 MB page's translation instead of a 4 KB
// one's, which the TLB holds for far more of the array. Without huge pages
// (the advice refused, or none free) the memory is the same as make's.
func Alloc[T Word](n int64) ([]T, func()) {
	if n == 0 {
		return nil, func() {}
	}
	size := int(n) * int(unsafe.Sizeof(T(0)))
	b, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return make([]T, n), func() {}
	}
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n), func() { _ = unix.Munmap(b) }
}
