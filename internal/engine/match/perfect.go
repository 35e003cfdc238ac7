package match

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

// Perfect plays from the endgame databases of the whole game (morris solve
// -game): the truth itself, against which a match measures how often a
// player goes wrong. With every move it keeps the value of its position:
//
//   - won: the fastest win (the winning move of the smallest distance), so
//     that the end comes in exactly the databases' number of plies against
//     any defence;
//   - lost: the slowest loss (the largest distance), which leaves the
//     opponent the most plies in which to go wrong;
//   - drawn: a move that keeps the draw. Among those it takes the one that
//     leaves the opponent the most replies that lose (counted from the
//     databases, one ply deep), ties broken by a choice seeded by the
//     game's seed. That gives a weaker opponent chances to err rather than
//     shuffling pieces at random, is as cheap as the rest (a few hundred
//     probes), and keeps games replayable. A drawn game still ends: by the
//     rules' repetition or no-progress draw, or -max-plies.
//
// The placing phase is played the same way: the databases of the whole
// game have its sectors. A position whose sector is missing is not played
// badly but refused: CheckPerfect, which the spec's Check runs before a
// match, asks that the databases hold every sector of the game, and Move
// returns an error (which loses the game) if a position is still missing.
//
// The draw rules are the rules core's (mill.Game): a move after which the
// game is over by the rules (a win by material or block, or a draw by
// repetition or no progress) is worth that end, not the databases' value;
// so a lost position escapes into a draw when a repetition or the
// no-progress counter offers one, and a won one never walks into such a draw
// while a win is left. The databases' values ignore the no-progress counter:
// a win in n plies with the counter at q is sure only when q+n is below the
// rule's limit. When it is not, the player still plays the fastest win, and
// that is the right answer: no winning move ends the game sooner, so none
// leaves the counter less far to run, and whether some capture on the way
// resets it is something the databases, which do not hold the counter,
// cannot tell of any line. Such a game may end drawn by the rule; the
// records show it.
type Perfect struct {
	name string
	db   Truth
	rng  *rand.Rand
	ok   *mill.Rules // the rules CheckPerfect last accepted
}

// NewPerfect returns a perfect player reading db.
func NewPerfect(name string, db Truth) *Perfect {
	return &Perfect{name: name, db: db, rng: rand.New(rand.NewPCG(7, 8))}
}

func (p *Perfect) Name() string { return p.name }

func (p *Perfect) NewGame(_ context.Context, r *mill.Rules, seed uint64) error {
	if p.ok != r {
		if err := CheckPerfect(p.db, r); err != nil {
			return err
		}
		p.ok = r
	}
	p.rng = rand.New(rand.NewPCG(seed, 0x70657266656374))
	return nil
}

// Move returns the move that keeps the value of the current position (see
// Perfect).
func (p *Perfect) Move(_ context.Context, g *mill.Game) (mill.Move, error) {
	vals, err := p.MoveValues(g)
	if err != nil {
		return mill.Move{}, err
	}
	best := vals[0].Value
	if best.Result != egdb.Draw {
		return vals[0].Move, nil
	}
	// Drawn: the drawing move that leaves the opponent the most losing
	// replies; reservoir sampling among equals.
	var choice mill.Move
	most, n := -1, 0
	pos := g.Position()
	for _, mv := range vals {
		if mv.Value != best {
			break
		}
		c := p.losingReplies(pos.Play(mv.Move))
		switch {
		case c > most:
			most, n, choice = c, 1, mv.Move
		case c == most:
			n++
			if p.rng.IntN(n) == 0 {
				choice = mv.Move
			}
		}
	}
	return choice, nil
}

// losingReplies counts the replies in q that lose for its side to move by
// the databases (a reply that ends the game by the rules is not counted).
func (p *Perfect) losingReplies(q mill.Position) int {
	if st, _ := q.Status(); st != mill.NoOutcome {
		return 0
	}
	mv, ok := p.db.MoveValues(q)
	if !ok {
		return 0
	}
	n := 0
	for _, m := range mv {
		if m.Value.Result == egdb.Loss {
			n++
		}
	}
	return n
}

// MoveValues returns every legal move of the current position of g with its
// value for the side to move, best first (egdb.Perfect.MoveValues), except that
// a move after which the game is over by the rules core (repetition and the
// no-progress counter included) is worth that end: a win in 1, a loss in 1
// or a draw. It fails when a position after a move is in no sector of the
// databases.
func (p *Perfect) MoveValues(g *mill.Game) ([]egdb.MoveValue, error) {
	pos := g.Position()
	vals, ok := p.db.MoveValues(pos)
	if !ok {
		return nil, fmt.Errorf("perfect player: the databases do not hold %s or a position after it", pos)
	}
	// A copy of the game since the last irreversible move (the only
	// positions that can repeat) judges each move as the match will.
	ps := g.Positions()
	moves := g.Moves()
	from := len(ps) - 1 - pos.Quiet()
	if from < 0 {
		from = 0
	}
	cp := mill.NewGame(g.Rules(), mill.FromPosition(ps[from]))
	for _, m := range moves[from:] {
		if err := cp.Play(m); err != nil {
			return nil, fmt.Errorf("perfect player: replaying the game: %w", err)
		}
	}
	us := pos.SideToMove()
	changed := false
	for i := range vals {
		if err := cp.Play(vals[i].Move); err != nil {
			return nil, fmt.Errorf("perfect player: %w", err)
		}
		if o := cp.Outcome(); o != mill.NoOutcome {
			v := egdb.Value{Result: egdb.Draw}
			switch o {
			case mill.Won(us):
				v = egdb.Value{Result: egdb.Win, Plies: 1}
			case mill.Won(us.Other()):
				v = egdb.Value{Result: egdb.Loss, Plies: 1}
			}
			changed = changed || v != vals[i].Value
			vals[i].Value = v
		}
		cp.Undo()
	}
	if changed {
		sortMoveValues(vals)
	}
	return vals, nil
}

// sortMoveValues sorts vals best first, stably.
func sortMoveValues(vals []egdb.MoveValue) {
	for i := 1; i < len(vals); i++ {
		for j := i; j > 0 && vals[j].Value.Better(vals[j-1].Value); j-- {
			vals[j], vals[j-1] = vals[j-1], vals[j]
		}
	}
}

func (p *Perfect) Close() error { return nil }

// Truth is the databases of a whole game that a perfect player plays from
// and a match's moves are judged by: the sector files of a directory
// (*egdb.DB) or a compact file with its distances (*egdb.Compact), which
// give every position the same value. OpenTruth opens either.
type Truth interface {
	egdb.Perfect
	Rules() *mill.Rules
	Keys() []egdb.Key
}

var (
	_ Truth = (*egdb.DB)(nil)
	_ Truth = (*egdb.Compact)(nil)
)

// checked waits for the check of db's files where they are checked in
// the background (a directory opened by OpenTablebases: a sector not yet
// checked would read as missing); a compact file checks its blocks as it
// reads them.
func checked(db Truth) error {
	if w, ok := db.(interface{ Wait() error }); ok {
		return w.Wait()
	}
	return nil
}

// OpenTruth opens path, a directory of sector files (OpenTablebases, its
// files' check waited for) or a compact file (with the distances written
// beside it, if distances is set: a perfect player and -adjudicate need
// them, the judging of errors does not), once for the process.
func OpenTruth(path string, distances bool) (Truth, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		c, err := openCompact(path)
		if err != nil {
			return nil, err
		}
		if distances && !c.HasDistances() {
			return nil, fmt.Errorf("%s has no distances beside it (%s): perfect play keeps the fastest win and the slowest loss, so it needs them; write them with morris solve ... -compact %s -distances", path, egdb.DistancesPath(path), path)
		}
		return c, nil
	}
	db, err := OpenTablebases(path)
	if err != nil {
		return nil, err
	}
	if err := checked(db); err != nil {
		return nil, err
	}
	return db, nil
}

// CheckPerfect reports whether db can play the whole game of r perfectly:
// it was built for rules that play like r, placing included, and holds
// every sector of the game (egdb.Builder.Plan of the start's sector), its files
// checked. The error says what is missing and how to build it.
func CheckPerfect(db Truth, r *mill.Rules) error {
	if !db.Covers(r) {
		return fmt.Errorf("the databases are of %s, not of %s: build those of %s with: morris solve -variant %s -game -dir DIR", db.Rules(), r, r, r)
	}
	if err := egdb.PlacingSupported(r); err != nil {
		return fmt.Errorf("no perfect player for %s: %w", r, err)
	}
	if err := checked(db); err != nil {
		return err
	}
	plan, err := egdb.Builder{Rules: r, Keys: []egdb.Key{egdb.StartKey(r)}}.Plan()
	if err != nil {
		return err
	}
	have := map[egdb.Key]bool{}
	for _, k := range db.Keys() {
		have[k] = true
	}
	var missing []egdb.Key
	for _, s := range plan {
		if !have[s.Key] {
			missing = append(missing, s.Key)
		}
	}
	build := fmt.Sprintf("build them with: morris solve -variant %s -game -dir DIR", r)
	switch {
	case len(missing) == 1:
		return fmt.Errorf("the databases lack sector %s of the whole game of %s (%d sectors): %s", missing[0], r, len(plan), build)
	case len(missing) > 1:
		return fmt.Errorf("the databases lack %d of the %d sectors of the whole game of %s (%s, ...): %s", len(missing), len(plan), r, missing[0], build)
	}
	if _, ok := db.Value(mill.NewGame(r).Position()); !ok {
		return fmt.Errorf("the databases' placing phase is not that of %s (other pieces or placing rules): %s", r, build)
	}
	return nil
}
