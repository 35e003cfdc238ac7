//go:build unix

package egdb

import (
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapFile maps the first size bytes of f read-only into memory. The pages
// are read from disk (or the page cache) when touched, so a probe reads
// only the page it needs, and the kernel may drop pages again under memory
// pressure: a mapped sector costs no heap.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, &os.PathError{Op: "mmap", Path: f.Name(), Err: err}
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}

// adviseRandom tells the kernel that b, a mapping, is read at random: a
// page missing is read alone, not with the pages around it (the read-ahead
// that suits a file read in order costs a random probe many pages of
// disk). Advice only: an error changes nothing.
func adviseRandom(b []byte) {
	if len(b) > 0 {
		_ = unix.Madvise(b, unix.MADV_RANDOM)
	}
}

// hugePage is the size of a huge page of x86-64 and arm64 Linux.
const hugePage = 2 << 20

// allocTables returns n uint16s of anonymous memory, advised to the
// kernel as huge pages (MADV_HUGEPAGE): the compact file's tables, read
// at random, each read otherwise a miss of the translation buffer (two
// page walks in a virtual machine). free returns the memory. Where the
// mapping fails the memory is the heap's.
func allocTables(n int) (tables []uint16, free func() error) {
	if n == 0 {
		return nil, func() error { return nil }
	}
	b, err := unix.Mmap(-1, 0, 2*n+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return make([]uint16, n), func() error { return nil }
	}
	// From the first huge page's boundary in the mapping.
	skip := int((hugePage - uintptr(unsafe.Pointer(&b[0]))%hugePage) % hugePage)
	_ = unix.Madvise(b[skip:], unix.MADV_HUGEPAGE)
	return unsafe.Slice((*uint16)(unsafe.Pointer(&b[skip])), n), func() error { return unix.Munmap(b) }
}
