package match

import (
	"fmt"
	"io"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// Phase is the phase of the game a move was made in, for the side that
// made it.
type Phase int

const (
	Placing Phase = iota // the mover still has pieces in hand
	Moving               // the mover slides its pieces
	Flying               // the mover may fly (at the flying threshold)
)

// Phases are the phases in the order the tables print them.
var Phases = [...]Phase{Placing, Moving, Flying}

func (ph Phase) String() string {
	switch ph {
	case Placing:
		return "placing"
	case Moving:
		return "moving"
	case Flying:
		return "flying"
	}
	return fmt.Sprintf("Phase(%d)", int(ph))
}

// phaseOf is the phase of the side to move in p.
func phaseOf(p mill.Position) Phase {
	switch {
	case p.Placing():
		return Placing
	case p.Flying(p.SideToMove()):
		return Flying
	}
	return Moving
}

// ErrorCount counts the moves of one player in one phase.
type ErrorCount struct {
	Moves     int // moves judged by the databases
	Errors    int // of those, the moves that threw a value away
	Uncovered int // moves not judged: the databases do not hold the position or one after a move of it
}

// PerThousand is the errors per 1,000 moves judged (0 with no moves).
func (c ErrorCount) PerThousand() float64 {
	if c.Moves == 0 {
		return 0
	}
	return 1000 * float64(c.Errors) / float64(c.Moves)
}

func (c *ErrorCount) add(d ErrorCount) {
	c.Moves += d.Moves
	c.Errors += d.Errors
	c.Uncovered += d.Uncovered
}

// PlayerErrors is the count of one player (by the name of the records'
// White and Black tags), by phase.
type PlayerErrors struct {
	Name   string
	Phases [len(Phases)]ErrorCount
}

// Total is the player's count over the phases.
func (p PlayerErrors) Total() ErrorCount {
	var t ErrorCount
	for _, c := range p.Phases {
		t.add(c)
	}
	return t
}

// MoveError is one error: where, by whom, and what the move threw away.
type MoveError struct {
	Game   int // the game's number in the input, from 1
	Ply    int // the move's ply in the game, from 1
	Player string
	Phase  Phase
	Move   string     // in standard notation
	Best   egdb.Value // the position's value for the mover (its best move's)
	Played egdb.Value // the value of the move played
}

func (e MoveError) String() string {
	return fmt.Sprintf("game %d, ply %d, %s (%s): %s: %s, the position was %s", e.Game, e.Ply, e.Player, e.Phase, e.Move, e.Played, e.Best)
}

// ErrorTally is what Errors counted.
type ErrorTally struct {
	Games   int
	Opening int            // the moves of the matches' openings: no player's, not counted
	Players []PlayerErrors // in the order the records name them
	List    []MoveError    // every error, in the order of the input
}

// Total is the count over the players, by phase.
func (t ErrorTally) Total() PlayerErrors {
	all := PlayerErrors{Name: "all"}
	for _, p := range t.Players {
		for i, c := range p.Phases {
			all.Phases[i].add(c)
		}
	}
	return all
}

// Merge adds the counts of u (the records of another file) to t, players
// matched by name.
func (t *ErrorTally) Merge(u ErrorTally) {
	t.Games += u.Games
	t.Opening += u.Opening
	t.List = append(t.List, u.List...)
	for _, p := range u.Players {
		i := 0
		for i < len(t.Players) && t.Players[i].Name != p.Name {
			i++
		}
		if i == len(t.Players) {
			t.Players = append(t.Players, PlayerErrors{Name: p.Name})
		}
		for ph, c := range p.Phases {
			t.Players[i].Phases[ph].add(c)
		}
	}
}

// Errors counts the errors against the endgame databases db of the whole
// game in the game records read from r (a file of match records, or any
// records): a move is an error when it turns a draw into a loss, or a win
// into a draw or a loss, for the side that made it. Each move is counted
// for the player the record names in its colour, in the phase the mover
// was in (placing with pieces in hand, else flying when it may fly, else
// moving). The moves of a match's opening (the record's comment "opening
// N: the first K plies", Game.Record) were drawn at random, not chosen by
// either player: they are counted in Opening, not judged.
//
// A move is judged as the perfect player judges its moves (Perfect's
// MoveValues, not a copy of it): the position's value is that of its best
// move, and a move after which the game is over by the rules core
// (repetition and the no-progress draw included) is worth that end. So a
// lost position with a repetition at hand is a draw, and a move that walks
// into the repetition draw from a won position is an error.
//
// The databases' values ignore the no-progress counter: a win in n plies
// with the counter at q is sure only when q+n is below the rule's limit,
// and a capture on the way may reset it, which the databases cannot tell.
// The count takes the databases' values as they are: a "win" the counter
// would draw is still a win here, and a move that keeps it is no error
// even if the game ends drawn by the counter later (only the move that
// reaches the limit is worth the draw it makes). That is the simplest
// honest measure, the same for every player; the counter's draws show in
// the games' results instead.
//
// A move whose position, or a position after one of its legal moves, is in
// no sector of db is not judged: it is counted in Uncovered, never as an
// error. Databases of other rules than a record's are an error, as are
// records that do not read or replay. Errors waits for the check of the
// databases' files (a sector not yet checked would read as missing).
func Errors(r io.Reader, db Truth) (ErrorTally, error) {
	var t ErrorTally
	if err := checked(db); err != nil {
		return t, err
	}
	index := map[string]int{}
	judge := NewPerfect("", db)
	sc := record.NewScanner(r)
	for sc.Scan() {
		t.Games++
		rec := sc.Record()
		g, err := rec.Game()
		if err != nil {
			return t, fmt.Errorf("game %d (line %d): %w", t.Games, rec.Line, err)
		}
		if !db.Covers(g.Rules()) {
			return t, fmt.Errorf("game %d (line %d): played under %s, the databases are of %s", t.Games, rec.Line, g.Rules(), db.Rules())
		}
		var who [2]int
		for c, tag := range [2]string{"White", "Black"} {
			name := rec.Tag(tag)
			i, ok := index[name]
			if !ok {
				i = len(t.Players)
				index[name] = i
				t.Players = append(t.Players, PlayerErrors{Name: name})
			}
			who[c] = i
		}
		skip := openingPlies(rec.Comment)
		cp := mill.NewGame(g.Rules(), mill.FromPosition(g.Start()))
		for i, m := range g.Moves() {
			p := cp.Position()
			if i < skip {
				t.Opening++
				if err := cp.Play(m); err != nil {
					return t, fmt.Errorf("game %d (line %d): %w", t.Games, rec.Line, err)
				}
				continue
			}
			ph := phaseOf(p)
			pl := &t.Players[who[colorIndex(p.SideToMove())]]
			c := &pl.Phases[ph]
			if vals, err := judge.MoveValues(cp); err != nil {
				c.Uncovered++
			} else {
				c.Moves++
				best := vals[0].Value
				for _, v := range vals {
					if v.Move != m {
						continue
					}
					if v.Value.Result < best.Result {
						c.Errors++
						t.List = append(t.List, MoveError{Game: t.Games, Ply: len(cp.Moves()) + 1, Player: pl.Name, Phase: ph,
							Move: p.MoveText(m), Best: best, Played: v.Value})
					}
					break
				}
			}
			if err := cp.Play(m); err != nil {
				return t, fmt.Errorf("game %d (line %d): %w", t.Games, rec.Line, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return t, err
	}
	return t, nil
}

// openingPlies reads the number of opening plies from the comment of a
// match's record (Game.Record); 0 for any other comment.
func openingPlies(comment string) int {
	var n, k int
	if _, err := fmt.Sscanf(comment, "opening %d: the first %d plies", &n, &k); err != nil || k < 0 {
		return 0
	}
	return k
}

func colorIndex(c mill.Color) int {
	if c == mill.White {
		return 0
	}
	return 1
}
