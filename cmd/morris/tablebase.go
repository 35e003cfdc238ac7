package main

import (
	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/search"
)

// openTablebase opens the endgame databases in dir (built by morris solve)
// for the search.
func openTablebase(dir string) (search.Tablebase, error) {
	db, err := egdb.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	return search.TablebaseFunc(db.Tablebase()), nil
}
