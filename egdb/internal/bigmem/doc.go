// Package bigmem allocates the large arrays of the solver and of the
// databases it reads while building (GBs read and written at random, one
// word in a page at a time) outside the Go heap, on huge pages where the
// system has them.
package bigmem

// Word is what the arrays hold: the solver's states and values.
type Word interface {
	~uint16 | ~uint32
}
