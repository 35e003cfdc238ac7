//go:build !unix

package egdb

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f: systems without mmap hold
// sectors in memory.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, size), data); err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}

// adviseRandom does nothing where the file is in memory.
func adviseRandom([]byte) {}

// allocTables returns n uint16s of the heap (allocTables of mmap_unix.go
// asks for huge pages).
func allocTables(n int) (tables []uint16, free func() error) {
	return make([]uint16, n), func() error { return nil }
}
