package main

import (
	"os"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/search"
)

// openTablebase opens the endgame databases in dir (built by morris solve)
// for the search. Their checksums are checked in the background (each
// sector is probed once its file has checked out), so that a large build
// does not hold up the engine's start. A file rather than a directory is
// a compact file (morris solve -compact): wins, draws and losses without
// distances, each block checked when first read.
func openTablebase(dir string) (search.Tablebase, error) {
	if fi, err := os.Stat(dir); err == nil && fi.Mode().IsRegular() {
		c, err := egdb.OpenCompact(dir)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	db, err := egdb.Open(dir, egdb.CheckInBackground(egdb.EngineCheckAbove))
	if err != nil {
		return nil, err // not a nil *egdb.DB in a non-nil Tablebase
	}
	return db, nil
}
