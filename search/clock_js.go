//go:build js

package search

// pollClock: under js/wasm the program has one thread and no preemption,
// so the goroutine that turns the context's end into the stop flag (Search's
// watcher) does not run while the search does: the search reads the clock
// itself, every 1024 nodes, against the context's deadline.
const pollClock = true
