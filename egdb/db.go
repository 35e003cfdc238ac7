package egdb

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/mill"
)

// Result is a game-theoretic result for the side to move.
type Result int8

const (
	Loss Result = -1
	Draw Result = 0
	Win  Result = 1
)

// Value is the value of a position for the side to move with best play by
// both sides, and the number of plies to the end of the game: the fastest
// win, or the slowest loss. Plies is 0 for a draw. The end is a side
// reduced below the minimum of pieces, or blocked; the databases ignore the
// no-progress counter and repetition (a draw is a position from which
// neither side can force an end).
type Value struct {
	Result Result
	Plies  int
}

// UnknownPlies is the Plies of a win or loss whose distance is not known:
// a compact file's values (Compact) are wins, draws and losses alone.
const UnknownPlies = -1

func (v Value) String() string {
	if v.Plies < 0 {
		switch v.Result {
		case Win:
			return "win"
		case Loss:
			return "loss"
		}
	}
	switch v.Result {
	case Win:
		return "win in " + strconv.Itoa(v.Plies)
	case Loss:
		return "loss in " + strconv.Itoa(v.Plies)
	}
	return "draw"
}

// Better reports whether v is better than u for the side to move: a win
// beats a draw beats a loss, a faster win beats a slower one, a slower loss
// beats a faster one (when both distances are known).
func (v Value) Better(u Value) bool {
	if v.Plies < 0 || u.Plies < 0 {
		return v.Result > u.Result
	}
	return v.retro().Better(u.retro())
}

// Parent returns what a move into a position of value v is worth to the
// side that makes it.
func (v Value) Parent() Value {
	if v.Plies < 0 {
		return Value{-v.Result, UnknownPlies}
	}
	return fromRetro(v.retro().Parent())
}

func (v Value) retro() retro.Value {
	switch v.Result {
	case Win:
		return retro.WinIn(v.Plies)
	case Loss:
		return retro.LossIn(v.Plies)
	}
	return retro.Draw
}

func fromRetro(v retro.Value) Value {
	switch {
	case v.IsWin():
		return Value{Win, retroPlies(v)}
	case v.IsLoss():
		return Value{Loss, retroPlies(v)}
	}
	return Value{}
}

// retroPlies is the distance of a win or loss v, UnknownPlies for a W/D/L
// sector's.
func retroPlies(v retro.Value) int {
	if v.Plies() == unknownRetroPlies {
		return UnknownPlies
	}
	return v.Plies()
}

// DB is a set of sector databases opened for probing. It is safe for
// concurrent use.
type DB struct {
	rules *mill.Rules
	x     *indexer
	// moving[w][b] is the sector of w against b pieces and none in hand;
	// a sector answers once its file has checked out (at once, or in the
	// background with OpenOptions.BackgroundAbove: see dbSector.ready).
	moving  [mill.MaxPoints + 1][mill.MaxPoints + 1]*dbSector
	sectors map[Key]*dbSector // every sector, those of the placing phase too
	placing bool              // some sector has pieces in hand
	min     int

	mu      sync.Mutex // guards closed against the background check
	closed  bool
	checked chan struct{} // closed when every checksum is checked
	failed  error         // the first failed check, once checked is closed
}

// An OpenOption changes how Open opens a directory: ForRules,
// CheckInBackground, OnlySectors.
type OpenOption func(*openConfig)

type openConfig struct {
	rules           *mill.Rules // nil: the rules the files were built for
	backgroundAbove int64
	keep            func(Key) bool // nil: every sector
}

// OnlySectors opens only the sector files of the sectors keep says yes to,
// as if the others were not in the directory: for a compact file of part
// of a build (WriteCompact writes every sector of its DB), such as the
// first plies of the placing phase.
func OnlySectors(keep func(Key) bool) OpenOption {
	return func(c *openConfig) { c.keep = keep }
}

// ForRules opens the databases for positions under r instead of the rules
// their files were built for: r must play the moving phase as those do
// (Covers), and the placing phase's files of rules that place otherwise
// are left out (nine men's morris's files opened for Lasker). A directory
// without sector files then gives an empty DB.
func ForRules(r *mill.Rules) OpenOption {
	return func(c *openConfig) { c.rules = r }
}

// CheckInBackground checks the files' checksums in a goroutine after Open
// returns when the sector files of the directory total more than above
// bytes, so that opening the 18 GB of a large build takes no time: a
// sector answers probes only once its file has checked out, and a damaged
// one never does (Wait says which). Smaller sets, and every set without
// this option (or with above 0), are checked before Open returns.
func CheckInBackground(above int64) OpenOption {
	return func(c *openConfig) { c.backgroundAbove = above }
}

// EngineCheckAbove is the size above which the programs that play (the
// engine protocol, the server, morris play, matches) check the files in
// the background (CheckInBackground): checking takes about a second a GB.
const EngineCheckAbove = 1 << 30

type dbSector struct {
	key    Key
	lay    layout
	vals   values
	counts Counts
	file   *sectorFile
	ready  atomic.Bool // its file has checked out: it answers probes
}

// Open opens every sector file (*.egdb) in dir, checking each (magic,
// version, checksum, and that they were all built for rules that play the
// moving phase alike), under the rules they were built for (read from the
// smallest file) or those of ForRules. The values are not read into memory
// but mapped: a probe reads the page of the file it needs (through the
// page cache), so the whole moving phase of nine men's morris (18 GB) can
// be probed in little memory. A directory without sector files is an
// error, but with ForRules. Close releases the mappings.
//
// The DB is a search.Tablebase as it is: pass it as search.Options.Tablebase.
func Open(dir string, options ...OpenOption) (*DB, error) {
	var c openConfig
	for _, o := range options {
		o(&c)
	}
	if c.rules == nil {
		r, err := builtFor(dir)
		if err != nil {
			return nil, err
		}
		c.rules = r
	}
	return open(dir, c.rules, c.backgroundAbove, c.keep)
}

// builtFor returns the rules the databases in dir were built for, read
// from the smallest sector file.
func builtFor(dir string) (*mill.Rules, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.egdb"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("egdb: no databases (*.egdb) in %s", dir)
	}
	smallest, size := "", int64(-1)
	for _, n := range names {
		if fi, err := os.Stat(n); err == nil && (size < 0 || fi.Size() < size) {
			smallest, size = n, fi.Size()
		}
	}
	h, _, err := readSector(smallest, false)
	if err != nil {
		return nil, err
	}
	r, err := mill.ParseRules(h.rules)
	if err != nil {
		return nil, fmt.Errorf("egdb: %s: %w", smallest, err)
	}
	return r, nil
}

func open(dir string, r *mill.Rules, backgroundAbove int64, keep func(Key) bool) (_ *DB, err error) {
	if err := Supported(r); err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.egdb"))
	if err != nil {
		return nil, err
	}
	db := &DB{rules: r, x: newIndexer(r.Board()), sectors: map[Key]*dbSector{}, min: r.Options().MinPieces, checked: make(chan struct{})}
	defer func() {
		if err != nil {
			db.Close()
		}
	}()
	if keep != nil {
		names = slices.DeleteFunc(names, func(name string) bool {
			k, err := ParseKey(strings.TrimSuffix(filepath.Base(name), ".egdb"))
			return err == nil && !keep(k)
		})
	}
	var total int64
	for _, name := range names {
		if fi, err := os.Stat(name); err == nil {
			total += fi.Size()
		}
	}
	background := backgroundAbove > 0 && total > backgroundAbove
	for _, name := range names {
		f, err := openSector(name, !background)
		if err != nil {
			return nil, err
		}
		h, vals := f.h, f.vals
		if old, dup := db.sectors[h.key]; dup {
			old.file.close()
		}
		db.sectors[h.key] = &dbSector{key: h.key, file: f} // closed by Close, whatever follows
		k := h.key
		fr, err := mill.ParseRules(h.rules)
		if err == nil && !k.Moving() && compatible(fr, r) && !placingCompatible(fr, r) {
			// The placing phase of other rules with the same moving
			// phase (nine men's morris's files opened for Lasker): it
			// answers nothing here.
			f.close()
			delete(db.sectors, k)
			continue
		}
		if err != nil || !compatibleFor(k, fr, r) {
			return nil, fmt.Errorf("egdb: %s holds a database of %s, not %s", name, h.rules, r)
		}
		if k.White > mill.MaxPoints || k.Black > mill.MaxPoints || k.White+k.Black > db.x.n ||
			k.WhiteHand > mill.MaxPoints || k.BlackHand > mill.MaxPoints {
			return nil, fmt.Errorf("%w: %s: sector %s", ErrCorrupt, name, k)
		}
		sec := db.sectors[k]
		sec.lay, sec.vals, sec.counts = db.x.layout(k.White, k.Black), vals, h.counts
		if sec.lay.size != h.n {
			return nil, fmt.Errorf("%w: %s: %d values, the sector has %d indices", ErrCorrupt, name, h.n, sec.lay.size)
		}
		if k.Moving() {
			db.moving[k.White][k.Black] = sec
		} else {
			db.placing = true
		}
	}
	if !background {
		for _, sec := range db.sectors {
			sec.ready.Store(true)
		}
		close(db.checked)
		return db, nil
	}
	go db.check(dir)
	return db, nil
}

// check checks the checksum of every sector, smallest first, and lets each
// that checks out answer probes.
func (db *DB) check(dir string) {
	defer close(db.checked)
	for _, k := range db.Keys() {
		err := checkFile(filepath.Join(dir, k.fileName()))
		db.mu.Lock()
		if db.closed {
			db.mu.Unlock()
			return
		}
		if err != nil {
			if db.failed == nil {
				db.failed = err
			}
		} else {
			db.sectors[k].ready.Store(true)
		}
		db.mu.Unlock()
	}
}

// Wait waits until the checksums of a DB opened with CheckInBackground are
// checked, and returns the first that failed (its sector answers no probe).
func (db *DB) Wait() error {
	<-db.checked
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.failed
}

// Close releases the files of the DB. It must not be probed after.
func (db *DB) Close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.closed = true
	var first error
	for _, s := range db.sectors {
		s.ready.Store(false)
		if err := s.file.close(); err != nil && first == nil {
			first = err
		}
		s.vals = values{}
	}
	return first
}

// Rules returns the rules the DB was opened with.
func (db *DB) Rules() *mill.Rules { return db.rules }

// Covers reports whether the DB's values hold for positions under r: r
// plays the moving phase as the DB's rules do (the draw rules, the first
// player, the pieces per side and the placing rules may differ). Probe
// answers nothing for positions of other rules; a caller that serves games
// of many rules asks Covers once a game instead.
func (db *DB) Covers(r *mill.Rules) bool { return compatible(r, db.rules) }

// Keys returns the sectors of the DB, fewest pieces first.
func (db *DB) Keys() []Key {
	var keys []Key
	for k := range db.sectors {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	return keys
}

// Counts returns the counts of sector k as stored in its file.
func (db *DB) Counts(k Key) (Counts, bool) {
	s, ok := db.sectors[k]
	if !ok {
		return Counts{}, false
	}
	return s.counts, true
}

// Value returns the value of p for its side to move, and true, if p lies in
// a sector of the DB (of the moving phase, or of the placing phase when the
// DB has its sectors and was built for rules that place alike). It returns
// false for positions of other sectors, with a capture pending, or under
// rules that play differently. It does not look at the game's end: ask p.Status first (a
// position won by material is no position of any sector).
func (db *DB) Value(p mill.Position) (Value, bool) {
	v, ok := db.probe(p)
	return fromRetro(v), ok
}

// Probe is Value as a search wants it (search.Tablebase, which the DB
// satisfies): result +1 for a win of the side to move, 0 for a draw, -1
// for a loss, and the plies to the end (UnknownPlies in a sector kept as
// W/D/L alone, Builder.WDLPlacing).
func (db *DB) Probe(p mill.Position) (result, plies int, ok bool) {
	v, ok := db.probe(p)
	switch {
	case !ok:
		return 0, 0, false
	case v.IsWin():
		return 1, retroPlies(v), true
	case v.IsLoss():
		return -1, retroPlies(v), true
	}
	return 0, 0, true
}

// Verdict returns the outcome of the game from p under best play when the
// DB proves it: p is in the DB, won or lost for its side to move, and the
// win comes before the rules' no-progress draw even if no capture came on
// the way (the databases know nothing of that draw). ok is false for a
// drawn position, for one the DB does not hold, and for a win too long to
// be sure of. A match can end its games with it (morris match -adjudicate).
func (db *DB) Verdict(p mill.Position) (o mill.Outcome, v Value, ok bool) { return Verdict(db, p) }

// Verdict is DB.Verdict for any databases: sector files, or a compact file
// (whose wins and losses are sure only with its distances: without them,
// under rules with a no-progress draw, ok is false).
func Verdict(db Perfect, p mill.Position) (o mill.Outcome, v Value, ok bool) {
	if st, _ := p.Status(); st != mill.NoOutcome {
		return mill.NoOutcome, Value{}, false
	}
	v, ok = db.Value(p)
	if !ok || v.Result == Draw {
		return mill.NoOutcome, v, false
	}
	if d := p.Rules().Options().DrawAfter; d > 0 && (v.Plies == UnknownPlies || p.Quiet()+v.Plies >= d) {
		return mill.NoOutcome, v, false
	}
	winner := p.SideToMove()
	if v.Result == Loss {
		winner = winner.Other()
	}
	return mill.Won(winner), v, true
}

func (db *DB) probe(p mill.Position) (retro.Value, bool) {
	sec, W, B, ok := sectorOf(p, db.rules, db.placing, &db.moving, db.sectors)
	if !ok || !sec.ready.Load() {
		return 0, false
	}
	return sec.vals.at(sec.lay.index(W, B)), true
}

// sectorOf returns the sector of p among a set's sectors (moving: those
// without pieces in hand, by pieces; sectors: every one, by key; placing:
// whether the set holds the placing phase, under rules), with p's pieces,
// the side to move's first; false if the set's values do not hold under
// p's rules, a capture is pending, or no sector of the set holds p.
func sectorOf[S any](p mill.Position, rules *mill.Rules, placing bool, moving *[mill.MaxPoints + 1][mill.MaxPoints + 1]*S, sectors map[Key]*S) (sec *S, W, B uint32, ok bool) {
	if !compatible(p.Rules(), rules) {
		return nil, 0, 0, false
	}
	if _, pending := p.Pending(); pending {
		return nil, 0, 0, false
	}
	us := p.SideToMove()
	w, b := p.Pieces(us), p.Pieces(us.Other())
	if wh, bh := p.InHand(us), p.InHand(us.Other()); wh == 0 && bh == 0 {
		sec = moving[w.Len()][b.Len()]
	} else {
		if !placing || !placingCompatible(p.Rules(), rules) {
			return nil, 0, 0, false
		}
		sec = sectors[Key{White: w.Len(), Black: b.Len(), WhiteHand: wh, BlackHand: bh}]
	}
	return sec, uint32(w), uint32(b), sec != nil
}

// Perfect is what the programs that play and analyse read of perfect
// play, from sector files (DB) or a compact file (Compact): a position's
// value (with UnknownPlies from a compact file), every move's, and the
// probe of the search (search.Tablebase).
type Perfect interface {
	Covers(r *mill.Rules) bool
	Value(p mill.Position) (Value, bool)
	MoveValues(p mill.Position) ([]MoveValue, bool)
	Probe(p mill.Position) (result, plies int, ok bool)
	Close() error
}

var _ Perfect = (*DB)(nil)

// MoveValue is a move and what it is worth to the side that makes it.
type MoveValue struct {
	Move  mill.Move
	Value Value
}

// MoveValues returns every legal move of p with its value for the side to
// move, best first (the fastest wins, then the draws, then the slowest
// losses; moves of equal value in the order of p.Moves), if p and every
// position after a move of p is in the DB or ends the game by material.
// The moves whose value equals the first's keep the value of p.
func (db *DB) MoveValues(p mill.Position) ([]MoveValue, bool) {
	moves := p.Moves(nil)
	if len(moves) == 0 {
		return nil, false
	}
	out := make([]MoveValue, 0, len(moves))
	for _, m := range moves {
		v, ok := db.childValue(p.Play(m))
		if !ok {
			return nil, false
		}
		out = append(out, MoveValue{m, fromRetro(v).Parent()}) // a W/D/L sector's plies stay unknown
	}
	slices.SortStableFunc(out, byValue)
	return out, true
}

// byValue orders moves best first: the fastest win, then draws, then the
// slowest loss (where the plies of one of two are unknown, by their
// results alone: Value.Better).
func byValue(a, b MoveValue) int {
	switch {
	case a.Value.Better(b.Value):
		return -1
	case b.Value.Better(a.Value):
		return 1
	}
	return 0
}

// BestMove returns the best move of p by the databases (the fastest win,
// else a draw, else the slowest loss) and the value of p, if p and every
// position after a move of p is in the DB or ends the game by material.
func (db *DB) BestMove(p mill.Position) (mill.Move, Value, bool) {
	mv, ok := db.MoveValues(p)
	if !ok {
		return mill.Move{}, Value{}, false
	}
	return mv[0].Move, mv[0].Value, true
}

// childValue is the value of q for its side to move: lost at once if it
// has too few pieces, else from the DB.
func (db *DB) childValue(q mill.Position) (retro.Value, bool) {
	c := q.SideToMove()
	if q.OnBoard(c)+q.InHand(c) < db.min {
		return retro.LossIn(0), true
	}
	return db.probe(q)
}

// String describes the DB: its rules and sectors.
func (db *DB) String() string {
	var names []string
	for _, k := range db.Keys() {
		names = append(names, k.String())
	}
	return db.rules.String() + ": " + strings.Join(names, " ")
}
