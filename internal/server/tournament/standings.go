package tournament

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// A TieBreak orders players equal on points.
type TieBreak int8

const (
	// SonnebornBerger: the sum, over the games played, of the
	// opponent's points times what the player scored against them (all
	// of a beaten opponent's points, half of a drawn one's). The
	// opponents' points are their plain totals. For round robins.
	SonnebornBerger TieBreak = iota + 1
	// Buchholz: the sum of the opponents' adjusted points, one term a
	// round (see Tally for the adjustment and for rounds not played).
	// For Swiss events.
	Buchholz
	// MedianBuchholz: Buchholz without its highest and lowest terms
	// (when it has at least three).
	MedianBuchholz
	// Performance: the FIDE performance rating over the games played:
	// the opponents' average rating plus the rating difference dp of the
	// FIDE table for the fraction scored (rounded to the hundredth); 0
	// without games.
	Performance
)

func (tb TieBreak) String() string {
	switch tb {
	case SonnebornBerger:
		return "Sonneborn-Berger"
	case Buchholz:
		return "Buchholz"
	case MedianBuchholz:
		return "median Buchholz"
	case Performance:
		return "performance"
	}
	return fmt.Sprintf("TieBreak(%d)", tb)
}

// MarshalText writes the tie-break's name, for JSON and CSV headers.
func (tb TieBreak) MarshalText() ([]byte, error) { return []byte(tb.String()), nil }

// A Tally is how an event's standings are counted: what a bye scores and
// which tie-breaks order players equal on points.
//
// Rounds a player did not play (a bye, or absent: before joining late,
// after withdrawing) are handled for Buchholz with one simple rule: for
// the tie-breaks of others, a player's adjusted points count each of its
// unplayed rounds as ½, whatever it scored (so that nobody gains from
// meeting someone who had a bye, or loses from meeting someone who
// missed rounds); and a player's own unplayed round adds to its
// Buchholz a virtual opponent with the player's own adjusted points.
// A pending game counts no points, and a round with a pending game is
// left out of every tie-break until it is finished.
type Tally struct {
	// ByePoints is what a bye scores.
	ByePoints float64
	TieBreaks []TieBreak
}

// RoundRobinTally counts a round robin: a bye is a round off, worth
// nothing; ties are broken by Sonneborn-Berger.
func RoundRobinTally() Tally {
	return Tally{ByePoints: 0, TieBreaks: []TieBreak{SonnebornBerger}}
}

// SwissTally counts a Swiss event: a bye scores a win; ties are broken
// by Buchholz, then median Buchholz, then performance.
func SwissTally() Tally {
	return Tally{ByePoints: ByePoints, TieBreaks: []TieBreak{Buchholz, MedianBuchholz, Performance}}
}

// A Standing is one player's line of the standings.
type Standing struct {
	// Rank is the place, from 1; players equal on points and on every
	// tie-break share it.
	Rank   int      `json:"rank"`
	Player PlayerID `json:"player"`
	Points float64  `json:"points"`
	// TieBreaks are the values of the Tally's tie-breaks, in its order.
	TieBreaks []float64 `json:"tieBreaks"`
	// Games counts the games played, in the finished rounds.
	Games int `json:"games"`
}

// Standings returns the field ranked by points, then by the tie-breaks
// in order, then (with no shared rank) by ID.
func (t Tally) Standings(field []Entrant, rounds []Round) ([]Standing, error) {
	list, byID, err := t.records(field, rounds)
	if err != nil {
		return nil, err
	}
	finished := make([]bool, len(rounds))
	for i, r := range rounds {
		finished[i] = !slices.ContainsFunc(r.Games, func(g Game) bool { return g.Result == Pending })
	}
	adjusted := map[PlayerID]float64{}
	for _, r := range list {
		a := 0.0
		for ri, c := range r.rounds {
			switch {
			case !finished[ri]:
			case c.kind == Played:
				a += float64(c.halves) / 2
			default:
				a += 0.5
			}
		}
		adjusted[r.ID] = a
	}
	out := make([]Standing, len(list))
	for i, r := range list {
		s := Standing{Player: r.ID, Points: float64(r.halves) / 2}
		var terms []float64 // Buchholz's, a round each
		var sb, oppRatings, scored float64
		for ri, c := range r.rounds {
			switch {
			case !finished[ri]:
			case c.kind == Played:
				opp := byID[c.opponent]
				s.Games++
				terms = append(terms, adjusted[opp.ID])
				sb += float64(c.halves) / 2 * float64(opp.halves) / 2
				oppRatings += float64(opp.Rating)
				scored += float64(c.halves) / 2
			default:
				terms = append(terms, adjusted[r.ID])
			}
		}
		for _, tb := range t.TieBreaks {
			var v float64
			switch tb {
			case SonnebornBerger:
				v = sb
			case Buchholz:
				v = sum(terms)
			case MedianBuchholz:
				v = sum(terms)
				if len(terms) >= 3 {
					v -= slices.Max(terms) + slices.Min(terms)
				}
			case Performance:
				if s.Games > 0 {
					v = oppRatings/float64(s.Games) + float64(dp(scored/float64(s.Games)))
				}
			default:
				return nil, badInput("unknown tie-break %d", tb)
			}
			s.TieBreaks = append(s.TieBreaks, v)
		}
		out[i] = s
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		if c := compareStanding(a, b); c != 0 {
			return c
		}
		return cmp.Compare(a.Player, b.Player)
	})
	for i := range out {
		if i > 0 && compareStanding(out[i-1], out[i]) == 0 {
			out[i].Rank = out[i-1].Rank
		} else {
			out[i].Rank = i + 1
		}
	}
	return out, nil
}

// compareStanding orders by points, then tie-breaks, the higher first.
func compareStanding(a, b Standing) int {
	if c := cmp.Compare(b.Points, a.Points); c != 0 {
		return c
	}
	for i := range a.TieBreaks {
		if c := cmp.Compare(b.TieBreaks[i], a.TieBreaks[i]); c != 0 {
			return c
		}
	}
	return 0
}

func (t Tally) records(field []Entrant, rounds []Round) ([]*record, map[PlayerID]*record, error) {
	halves := 2 * t.ByePoints
	if halves != math.Trunc(halves) || halves < 0 || halves > 2 {
		return nil, nil, badInput("a bye worth %v points", t.ByePoints)
	}
	return records(field, rounds, false, int(halves))
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// dpTable is the FIDE table of rating differences for a fraction scored
// (FIDE Rating Regulations, table 8.1(a)): dpTable[i] is dp for p = i/100,
// for p ≥ 0.5; below, dp(p) = -dp(1-p). The ends, 1.0 and 0.0, are ±800.
var dpTable = [51]int{
	0, 7, 14, 21, 29, 36, 43, 50, 57, 65, // .50 - .59
	72, 80, 87, 95, 102, 110, 117, 125, 133, 141, // .60 - .69
	149, 158, 166, 175, 184, 193, 202, 211, 220, 230, // .70 - .79
	240, 251, 262, 273, 284, 296, 309, 322, 336, 351, // .80 - .89
	366, 383, 401, 422, 444, 470, 501, 538, 589, 677, // .90 - .99
	800, // 1.00
}

// dp returns the FIDE rating difference for the fraction p, rounded to
// the nearest hundredth (half up).
func dp(p float64) int {
	h := int(math.Floor(p*100 + 0.5))
	h = min(max(h, 0), 100)
	if h >= 50 {
		return dpTable[h-50]
	}
	return -dpTable[50-h]
}

// A Crosstable is the event player by round, in the order of the
// standings: for CSV or JSON.
type Crosstable struct {
	TieBreaks []TieBreak `json:"tieBreaks"`
	Rows      []CrossRow `json:"rows"`
}

// A CrossRow is one player's line: the standing and a cell a round.
type CrossRow struct {
	Standing
	Rounds []Cell `json:"rounds"`
}

// A Cell is what one player did in one round.
type Cell struct {
	Kind CellKind `json:"kind"`
	// Opponent and Colour are those of a game played.
	Opponent PlayerID `json:"opponent,omitempty"`
	Colour   *Colour  `json:"colour,omitempty"`
	// Points is what the round scored the player; a pending game scores
	// nothing yet.
	Points  float64 `json:"points"`
	Pending bool    `json:"pending,omitempty"`
}

// Crosstable returns the crosstable of the event: every entrant's row,
// in the order of the standings.
func (t Tally) Crosstable(field []Entrant, rounds []Round) (Crosstable, error) {
	standings, err := t.Standings(field, rounds)
	if err != nil {
		return Crosstable{}, err
	}
	_, byID, _ := t.records(field, rounds)
	ct := Crosstable{TieBreaks: slices.Clone(t.TieBreaks)}
	for _, s := range standings {
		row := CrossRow{Standing: s}
		for _, c := range byID[s.Player].rounds {
			cell := Cell{Kind: c.kind, Points: float64(c.halves) / 2, Pending: c.pending}
			if c.kind == Played {
				cell.Opponent = c.opponent
				col := c.colour
				cell.Colour = &col
			}
			row.Rounds = append(row.Rounds, cell)
		}
		ct.Rows = append(ct.Rows, row)
	}
	return ct, nil
}
