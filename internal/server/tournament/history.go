package tournament

import "slices"

// An Entrant is a player of a Swiss event (or of any event whose
// standings are wanted): an ID, the rating that ranks it, whether it has
// withdrawn, and whether it sits out the round being paired. Entrants who
// join late are simply added to the field before the round they join in;
// they are absent from the rounds before.
type Entrant struct {
	ID        PlayerID `json:"id"`
	Rating    int      `json:"rating"`
	Withdrawn bool     `json:"withdrawn,omitempty"`
	// HalfBye: the player asked to sit out the round Swiss.Pair pairs,
	// for half a point; the round returned lists them in HalfByes.
	HalfBye bool `json:"halfBye,omitempty"`
}

// A record is what the rounds so far say of one player.
type record struct {
	Entrant
	// number is the pairing number: the place in the initial ranking,
	// by rating (highest first), then by ID.
	number int
	// halves is the score in half points.
	halves int
	// colours are the colours of the games played, in order; a bye or
	// an absence is not a game.
	colours []Colour
	met     map[PlayerID]bool
	byes    int
	// rounds[r] says what the player did in round r.
	rounds []cell
}

// A cell is one player's round: a game, a bye or an absence.
type cell struct {
	kind     CellKind
	opponent PlayerID
	colour   Colour
	halves   int
	pending  bool
}

// A CellKind says what a player did in a round.
type CellKind int8

const (
	// Absent: not paired (not yet entered, or withdrawn); scores 0.
	Absent CellKind = iota
	// Played: a game, finished or pending.
	Played
	// Bye: a pairing-allocated bye; scores ByePoints.
	Bye
	// HalfBye: excused at the player's request; scores HalfByePoints.
	HalfBye
)

func (k CellKind) String() string {
	switch k {
	case Played:
		return "played"
	case Bye:
		return "bye"
	case HalfBye:
		return "halfBye"
	}
	return "absent"
}

// MarshalText writes the kind as its name, for JSON and CSV.
func (k CellKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// records reads the rounds of an event among field: each entrant's
// record, in the order of their pairing numbers, a bye scoring byeHalves
// half points. It checks that every player in the rounds is in the field
// and plays at most once a round, and, with finished, that every game
// has a result.
func records(field []Entrant, rounds []Round, finished bool, byeHalves int) ([]*record, map[PlayerID]*record, error) {
	ids := make([]PlayerID, len(field))
	for i, e := range field {
		ids[i] = e.ID
	}
	if err := checkIDs(ids); err != nil {
		return nil, nil, err
	}
	list := make([]*record, len(field))
	byID := make(map[PlayerID]*record, len(field))
	for i, e := range field {
		list[i] = &record{Entrant: e, met: map[PlayerID]bool{}, rounds: make([]cell, len(rounds))}
		byID[e.ID] = list[i]
	}
	slices.SortStableFunc(list, func(a, b *record) int {
		if a.Rating != b.Rating {
			return b.Rating - a.Rating
		}
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	for i, r := range list {
		r.number = i + 1
	}
	for ri, round := range rounds {
		seen := map[PlayerID]bool{}
		seat := func(id PlayerID) (*record, error) {
			r := byID[id]
			if r == nil {
				return nil, badInput("round %d: player %d is not in the field", ri+1, id)
			}
			if seen[id] {
				return nil, badInput("round %d: player %d is seated twice", ri+1, id)
			}
			seen[id] = true
			return r, nil
		}
		for _, g := range round.Games {
			w, err := seat(g.White)
			if err != nil {
				return nil, nil, err
			}
			b, err := seat(g.Black)
			if err != nil {
				return nil, nil, err
			}
			if g.Result < Pending || g.Result > BlackWins {
				return nil, nil, badInput("round %d: %d-%d has result %d", ri+1, g.White, g.Black, g.Result)
			}
			if finished && g.Result == Pending {
				return nil, nil, fmtPending(ri+1, g)
			}
			for _, side := range []struct {
				r   *record
				opp PlayerID
				c   Colour
			}{{w, g.Black, White}, {b, g.White, Black}} {
				h := int(2 * g.Result.Points(side.c))
				side.r.halves += h
				side.r.colours = append(side.r.colours, side.c)
				side.r.met[side.opp] = true
				side.r.rounds[ri] = cell{kind: Played, opponent: side.opp, colour: side.c, halves: h, pending: g.Result == Pending}
			}
		}
		if round.Bye != NoPlayer {
			r, err := seat(round.Bye)
			if err != nil {
				return nil, nil, err
			}
			r.halves += byeHalves
			r.byes++
			r.rounds[ri] = cell{kind: Bye, halves: byeHalves}
		}
		for _, id := range round.HalfByes {
			r, err := seat(id)
			if err != nil {
				return nil, nil, err
			}
			h := int(2 * HalfByePoints)
			r.halves += h
			r.rounds[ri] = cell{kind: HalfBye, halves: h}
		}
	}
	return list, byID, nil
}
