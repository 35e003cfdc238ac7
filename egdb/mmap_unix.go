//go:build unix

package egdb

import (
	"os"
	"syscall"

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
