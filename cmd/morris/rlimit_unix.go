//go:build unix

package main

import "syscall"

// openFileLimit returns the process's limit of open files (the soft one,
// which Go's runtime has already raised to the hard one at start, and the
// hard one).
func openFileLimit() (soft, hard uint64, ok bool) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, 0, false
	}
	return uint64(l.Cur), uint64(l.Max), true
}
