package main

import (
	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/search"
)

// openTablebase opens the endgame databases in dir (built by morris solve)
// for the search. Their checksums are checked in the background (each
// sector is probed once its file has checked out), so that a large build
// does not hold up the engine's start.
func openTablebase(dir string) (search.Tablebase, error) {
	db, err := egdb.Open(dir, egdb.CheckInBackground(egdb.EngineCheckAbove))
	if err != nil {
		return nil, err // not a nil *egdb.DB in a non-nil Tablebase
	}
	return db, nil
}
