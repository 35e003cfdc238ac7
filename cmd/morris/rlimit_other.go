//go:build !unix

package main

// openFileLimit: not known here.
func openFileLimit() (soft, hard uint64, ok bool) { return 0, 0, false }
