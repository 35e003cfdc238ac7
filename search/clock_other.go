//go:build !js

package search

// pollClock is false where goroutines run beside the search (clock_js.go):
// the watcher stops it, and the check in stopped compiles away.
const pollClock = false
