//go:build race

package egdb

// raceDetector is true under go test -race, which makes building even the
// smallest sector slow: tests then build cheaper ones.
const raceDetector = true
