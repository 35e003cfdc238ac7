package search

import (
	"os"
	"testing"
)

// sharedDir is the directory of testDB's databases, built once for the
// package's tests and removed after them.
var sharedDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if db != nil {
		db.Close()
	}
	if sharedDir != "" {
		os.RemoveAll(sharedDir)
	}
	os.Exit(code)
}

// mkdirTemp makes testDB's directory (testing's TempDir belongs to one test,
// and the databases outlive the test that first asks for them).
func mkdirTemp() (string, error) {
	dir, err := os.MkdirTemp("", "morris-search-egdb")
	sharedDir = dir
	return dir, err
}
