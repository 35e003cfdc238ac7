// Package bigmem allocates the large arrays of the solver and of the
// databases it reads while building (GBs read and written at random, one
// word in a page at a time) outside the Go heap, on huge pages where the
// system has them.
//
// Where things are:
//
//	bigmem_linux.go  Alloc: anonymous mmap, madvise for transparent huge pages, munmap to give back
//	bigmem_other.go  Alloc elsewhere: make, from the Go heap
package bigmem

// Word is what the arrays hold: the solver's states and values.
type Word interface {
	~uint16 | ~uint32
}
