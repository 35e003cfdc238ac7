//go:build !race

package egdb

const raceDetector = false
