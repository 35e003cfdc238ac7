package search

import "os"

func mkdirTemp() (string, error) { return os.MkdirTemp("", "morris-search-egdb") }
