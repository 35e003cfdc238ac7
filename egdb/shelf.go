package egdb

import (
	"errors"
	"sync/atomic"

	"github.com/morrisgame/morris/mill"
)

// Shelf is several databases as one: each under its own rules, or of the
// same rules with more or fewer sectors (an operator's whole game and the
// built-in small endgames). A position is answered by the first database,
// in the order given, that covers its rules and holds it. One engine or
// server plays every variant with one Shelf. It is safe for concurrent
// use, and a Perfect itself.
type Shelf struct {
	dbs  []Perfect
	last atomic.Pointer[shelfPick] // the databases of the rules last asked
}

// shelfPick is the databases of a Shelf that cover rules r, in order.
type shelfPick struct {
	r   *mill.Rules
	dbs []Perfect
}

var _ Perfect = (*Shelf)(nil)

// NewShelf returns the Shelf of dbs, asked in this order; nil ones are
// left out.
func NewShelf(dbs ...Perfect) *Shelf {
	s := &Shelf{}
	for _, db := range dbs {
		if db != nil {
			s.dbs = append(s.dbs, db)
		}
	}
	return s
}

// Len is the number of databases on the shelf.
func (s *Shelf) Len() int { return len(s.dbs) }

// For returns the databases that cover r, in the shelf's order. Asked for
// the same *mill.Rules again (every position of a game shares its game's),
// it answers from the last pick without comparing rules.
func (s *Shelf) For(r *mill.Rules) []Perfect {
	if last := s.last.Load(); last != nil && last.r == r {
		return last.dbs
	}
	pick := &shelfPick{r: r}
	for _, db := range s.dbs {
		if db.Covers(r) {
			pick.dbs = append(pick.dbs, db)
		}
	}
	s.last.Store(pick)
	return pick.dbs
}

// Covers reports whether a database of the shelf covers r.
func (s *Shelf) Covers(r *mill.Rules) bool { return len(s.For(r)) > 0 }

// Value is the first answer of the databases that cover p's rules.
func (s *Shelf) Value(p mill.Position) (Value, bool) {
	for _, db := range s.For(p.Rules()) {
		if v, ok := db.Value(p); ok {
			return v, true
		}
	}
	return Value{}, false
}

// MoveValues is the first answer of the databases that cover p's rules.
func (s *Shelf) MoveValues(p mill.Position) ([]MoveValue, bool) {
	for _, db := range s.For(p.Rules()) {
		if mv, ok := db.MoveValues(p); ok {
			return mv, true
		}
	}
	return nil, false
}

// Probe is the first answer of the databases that cover p's rules (a
// search.Tablebase).
func (s *Shelf) Probe(p mill.Position) (result, plies int, ok bool) {
	for _, db := range s.For(p.Rules()) {
		if result, plies, ok = db.Probe(p); ok {
			return result, plies, true
		}
	}
	return 0, 0, false
}

// Close closes every database of the shelf.
func (s *Shelf) Close() error {
	var errs []error
	for _, db := range s.dbs {
		errs = append(errs, db.Close())
	}
	return errors.Join(errs...)
}
