package main

import (
	"os"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/builtin"
	"github.com/morrisgame/morris/search"
)

// noTablebases is the -tablebases value for no databases at all, not even
// the built-in ones: the engine's search alone (measurements use it).
const noTablebases = "none"

// tablebaseUsage is the help of every -tablebases flag that feeds the engine.
const tablebaseUsage = "endgame databases for the engine, asked before the built-in ones (nine men's morris up to 10 pieces and its first 11 plies, six and seven men's morris whole, the small endgames of the other presets with databases): a directory made by morris solve, or a compact file made by morris solve -compact (with its distances, if written beside it); \"none\" for no databases at all, not even the built-in"

// openPerfect opens what -tablebases names: "" and "none" are nil (no
// databases of the user's), a regular file is a compact file (morris solve
// -compact: wins, draws and losses, each block checked when first read),
// and a directory holds sector files, whose checksums are checked in the
// background (each sector is probed once its file has checked out) so that
// a large build does not hold up the start.
func openPerfect(dir string) (egdb.Perfect, error) {
	if dir == "" || dir == noTablebases {
		return nil, nil
	}
	if fi, err := os.Stat(dir); err == nil && fi.Mode().IsRegular() {
		c, err := egdb.OpenCompact(dir)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	db, err := egdb.Open(dir, egdb.CheckInBackground(egdb.EngineCheckAbove))
	if err != nil {
		return nil, err // not a nil *egdb.DB in a non-nil Perfect
	}
	return db, nil
}

// openShelf is openPerfect's databases, asked first, then the built-in
// ones; nil for "none".
func openShelf(dir string) (*egdb.Shelf, error) {
	if dir == noTablebases {
		return nil, nil
	}
	db, err := openPerfect(dir)
	if err != nil {
		return nil, err
	}
	return builtin.Shelf(db), nil
}

// openTablebase is openShelf for the search.
func openTablebase(dir string) (search.Tablebase, error) {
	s, err := openShelf(dir)
	if err != nil || s == nil {
		return nil, err // not a nil *egdb.Shelf in a non-nil Tablebase
	}
	return s, nil
}
