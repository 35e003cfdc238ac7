package tournament

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Swiss is the rules of a Swiss event, paired after the FIDE Dutch
// system by a maximum-weight matching (docs/tournaments.md tells an
// organiser how; the comments here say where each rule lives).
type Swiss struct {
	// Rounds is the number of rounds, fixed beforehand: at most n-1 for
	// n players (n for an odd n, where everyone may have one bye).
	Rounds int
	// Seed draws the initial colour: the colour of the top-ranked player
	// in round 1, as FIDE draws it by lot.
	Seed uint64
}

// InitialColour returns the colour drawn by the seed.
func (s Swiss) InitialColour() Colour {
	return Colour(rand.New(rand.NewPCG(s.Seed, 0x737769737300)).IntN(2))
}

// Pair pairs the next round of the event: round len(played)+1. The field
// is every entrant so far, those who have withdrawn included (they are
// not paired), those who join now included (they were absent from the
// rounds before, which scored 0), and those who sit this round out for
// half a point (Entrant.HalfBye: not paired, listed in the round's
// HalfByes). Every game of played must have its
// result. The games come in board order: by the score, then the pairing
// number, of the higher-ranked player of each.
//
// The absolute rules are never broken: no two players meet twice and
// nobody has a second bye. The colour rules (nobody gets one colour
// three times running or a colour difference beyond ±2) hold whenever a
// pairing can keep them; when none can, they give way for as few pairs
// as possible rather than stop the event (FIDE lets them give way for
// the leaders of the last round; a club's event that stopped in its
// third round for a colour would serve nobody). When no pairing keeps
// the absolute rules, Pair returns a *PairError, which says why.
func (s Swiss) Pair(field []Entrant, played []Round) (Round, error) {
	round := len(played) + 1
	if s.Rounds < 1 {
		return Round{}, badInput("a Swiss of %d rounds", s.Rounds)
	}
	if round > s.Rounds {
		return Round{}, fmt.Errorf("tournament: round %d of %d: %w", round, s.Rounds, ErrEventOver)
	}
	list, _, err := records(field, played, true, int(2*ByePoints))
	if err != nil {
		return Round{}, err
	}
	if most := len(field) - 1 + len(field)%2; s.Rounds > most {
		return Round{}, &PairError{round, fmt.Sprintf("a Swiss of %d players has at most %d rounds, not %d", len(field), most, s.Rounds)}
	}
	var active []*record
	var halfByes []PlayerID
	for _, r := range list {
		switch {
		case r.Withdrawn:
		case r.HalfBye:
			halfByes = append(halfByes, r.ID)
		default:
			active = append(active, r)
		}
	}
	if len(active) < 2 {
		return Round{}, &PairError{round, fmt.Sprintf("%d players left", len(active))}
	}
	// The pairing order: score, then pairing number.
	slices.SortStableFunc(active, func(a, b *record) int {
		if a.halves != b.halves {
			return b.halves - a.halves
		}
		return a.number - b.number
	})

	g := newSwissGraph(active)
	mate, ok, err := g.match(false)
	if err == nil && !ok {
		mate, ok, err = g.match(true)
	}
	if err != nil {
		return Round{}, &PairError{round, err.Error()}
	}
	if !ok {
		return Round{}, &PairError{round, "every pairing would repeat a game or give someone a second bye"}
	}

	initial := s.InitialColour()
	out := Round{HalfByes: halfByes}
	for i, r := range active {
		j := mate[i]
		switch {
		case j == len(active):
			out.Bye = r.ID
		case j > i:
			o := active[j]
			if allocate(r, o, initial) == White {
				out.Games = append(out.Games, Game{White: r.ID, Black: o.ID})
			} else {
				out.Games = append(out.Games, Game{White: o.ID, Black: r.ID})
			}
		}
	}
	return out, nil
}

// The strength of a colour preference (FIDE C.04.3 A.6).
const (
	noPreference = iota
	mild         // colour difference 0: alternate
	strong       // colour difference ±1: even it
	absolute     // difference beyond ±1, or the same colour twice running
)

// A preference is the colour a player should have next, and how much.
type preference struct {
	strength int
	colour   Colour
}

func preferenceOf(colours []Colour) preference {
	n := len(colours)
	if n == 0 {
		return preference{}
	}
	diff := 0
	for _, c := range colours {
		if c == White {
			diff++
		} else {
			diff--
		}
	}
	last := colours[n-1]
	twice := n >= 2 && colours[n-2] == last
	switch {
	case diff < -1:
		return preference{absolute, White}
	case diff > 1:
		return preference{absolute, Black}
	case twice:
		return preference{absolute, last.Opposite()}
	case diff == -1:
		return preference{strong, White}
	case diff == 1:
		return preference{strong, Black}
	}
	return preference{mild, last.Opposite()}
}

// allocate returns the colour of a, the higher-ranked of a pair, by
// FIDE's rules (C.04.3 E): both preferences if they differ; else the
// stronger; else alternate both from the last round in which they had
// different colours; else the higher-ranked player's preference; else
// the initial colour to an odd pairing number, the other to an even.
func allocate(a, b *record, initial Colour) Colour {
	pa, pb := preferenceOf(a.colours), preferenceOf(b.colours)
	switch {
	case pa.strength != noPreference && pb.strength != noPreference && pa.colour != pb.colour:
		return pa.colour
	case pa.strength > pb.strength:
		return pa.colour
	case pb.strength > pa.strength:
		return pb.colour.Opposite()
	case pa.strength == absolute: // both, the same colour: only when the colour rules give way
		da, db := colourDiff(a.colours), colourDiff(b.colours)
		if abs(da) != abs(db) {
			if abs(da) > abs(db) {
				return pa.colour
			}
			return pb.colour.Opposite()
		}
	}
	for i := 1; i <= min(len(a.colours), len(b.colours)); i++ {
		ca, cb := a.colours[len(a.colours)-i], b.colours[len(b.colours)-i]
		if ca != cb {
			return ca.Opposite()
		}
	}
	if pa.strength != noPreference {
		return pa.colour
	}
	if a.number%2 == 1 {
		return initial
	}
	return initial.Opposite()
}

func colourDiff(colours []Colour) int {
	d := 0
	for _, c := range colours {
		if c == White {
			d++
		} else {
			d--
		}
	}
	return d
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// A swissGraph is the players to pair, in pairing order, and what each
// pair would cost. The vertex len(players) is the bye, when their number
// is odd.
type swissGraph struct {
	players []*record
	prefs   []preference
	// group[i] and place[i] are player i's score group (0 the top) and
	// place in it (0 its first); size[g] is the group's size.
	group, place, size []int
}

// The levels of a pair's cost, from the least to the most important.
const (
	// placeCost: where the players stand in their score groups, against
	// where the Dutch system would pair them.
	placeCost = iota
	// colourCost: a colour preference that cannot be granted (2 for a
	// mild one, 3 for a strong one).
	colourCost
	// scoreCost: the difference of the scores (d half points cost d²,
	// and a little more the higher the lower player stands).
	scoreCost
	// ruleCost: both players need the same colour absolutely; allowed
	// only when the colour rules are relaxed.
	ruleCost
	levels
)

// maxPlaceCost caps the place cost of a pair: it only orders pairs of
// like score, and the cap keeps it within the room that the weights
// (see match) leave it in a large field.
const maxPlaceCost = 1 << 15

// exchangeCost is what a pair within one half of a score group costs
// more than any pair across the halves of a group of up to about 40.
const exchangeCost = 1 << 12

func newSwissGraph(players []*record) *swissGraph {
	g := &swissGraph{players: players}
	n := len(players)
	g.prefs = make([]preference, n)
	g.group = make([]int, n)
	g.place = make([]int, n)
	for i, p := range players {
		g.prefs[i] = preferenceOf(p.colours)
		if i > 0 && p.halves != players[i-1].halves {
			g.group[i] = g.group[i-1] + 1
		} else if i > 0 {
			g.group[i] = g.group[i-1]
			g.place[i] = g.place[i-1] + 1
		}
	}
	g.size = make([]int, g.group[n-1]+1)
	for i := range players {
		g.size[g.group[i]]++
	}
	return g
}

// cost returns what pairing players i < j costs, level by level, and
// whether the rules allow it at all; j == len(players) is the bye.
func (g *swissGraph) cost(i, j int, relax bool) ([levels]int64, bool) {
	var c [levels]int64
	a := g.players[i]
	bottom := g.players[len(g.players)-1].halves
	spread := int64(g.players[0].halves - bottom + 1)
	if j == len(g.players) {
		if a.byes > 0 {
			return c, false
		}
		// The bye goes as low as it can: to the lowest score group (as
		// though it were a player half a point below the field) and to
		// the last of the group.
		d := int64(a.halves - bottom + 1)
		c[scoreCost] = d * d * (spread + 1)
		c[placeCost] = int64(g.size[g.group[i]] - 1 - g.place[i])
		return c, true
	}
	b := g.players[j]
	if a.met[b.ID] {
		return c, false
	}
	pa, pb := g.prefs[i], g.prefs[j]
	if pa.strength != noPreference && pb.strength != noPreference && pa.colour == pb.colour {
		if pa.strength == absolute && pb.strength == absolute {
			if !relax {
				return c, false
			}
			c[ruleCost] = 1
		}
		c[colourCost] = 2
		if min(pa.strength, pb.strength) >= strong {
			c[colourCost] = 3
		}
	}
	// Score groups are paired from the top: of two floats of the same
	// size, the lower costs less.
	d := int64(a.halves - b.halves)
	c[scoreCost] = d*d*(spread+1) + d*int64(b.halves-bottom)
	// Within a group the top half S1 meets the bottom half S2 in order
	// (the first with the first of S2). The Dutch system tries every
	// order of S2 (a transposition), the first players' partners first,
	// before it swaps players between the halves (an exchange): here a
	// partner k places off the order costs k times the number of S1
	// players from i down (the higher boards weigh more), and a pair
	// within one half costs exchangeCost more. Across groups, the last
	// of the upper group floats down to the first of the lower, and of
	// several floaters the higher meets the higher: the square makes
	// the sums of their distances even.
	var place int
	if gi := g.group[i]; gi == g.group[j] {
		h := g.size[gi] / 2
		pi, pj := g.place[i], g.place[j]
		if pi < h && pj >= h {
			place = abs(pj-h-pi) * (h - pi)
		} else {
			place = exchangeCost + pj - pi
		}
	} else {
		place = g.size[g.group[i]] - 1 - g.place[i] + g.place[j]
		place *= place
	}
	c[placeCost] = int64(min(place, maxPlaceCost))
	return c, true
}

// match returns the best pairing, mate[i] the partner of player i (the
// bye is len(players)), and whether it pairs everyone.
func (g *swissGraph) match(relax bool) ([]int, bool, error) {
	n := len(g.players)
	verts := n + n%2
	type candidate struct {
		i, j int
		c    [levels]int64
	}
	var cands []candidate
	var most [levels]int64
	for i := range n {
		for j := i + 1; j < verts; j++ {
			if c, ok := g.cost(i, j, relax); ok {
				cands = append(cands, candidate{i, j, c})
				for l := range most {
					most[l] = max(most[l], c[l])
				}
			}
		}
	}
	// Each level weighs more than the most the levels below can add up
	// to over a matching, so that the matching optimises them in order.
	// The weights stay below 2^57, far enough from the 2^63 of int64 for
	// the matcher's duals and doubled slacks. The levels above the place
	// are exact; when they leave too little room, the place costs are
	// divided down to fit (the order of pairs alike in every rule gets
	// coarser, nothing else).
	const budget = 1 << 56
	pairs := uint64(verts / 2)
	rest := uint64(1) // what the levels above the place multiply
	for l := placeCost + 1; l < levels; l++ {
		hi, span := bits.Mul64(uint64(most[l]), pairs)
		hi2, next := bits.Mul64(rest, span+1)
		if hi != 0 || hi2 != 0 || next > budget {
			return nil, false, fmt.Errorf("%d players are too many to weigh in 64 bits", n)
		}
		rest = next
	}
	scale := int64(1)
	if room := (budget/rest - 1) / pairs; uint64(most[placeCost]) > room {
		if room == 0 {
			return nil, false, fmt.Errorf("%d players are too many to weigh in 64 bits", n)
		}
		scale = int64((uint64(most[placeCost]) + room - 1) / room)
		most[placeCost] /= scale
		for k := range cands {
			cands[k].c[placeCost] /= scale
		}
	}
	var mult [levels]int64
	m := uint64(1)
	for l := range mult {
		mult[l] = int64(m)
		m *= uint64(most[l])*pairs + 1
	}
	edges := make([]weightedEdge, len(cands))
	for k, c := range cands {
		w := int64(2 * m)
		for l := range mult {
			w -= c.c[l] * mult[l]
		}
		edges[k] = weightedEdge{c.i, c.j, w}
	}
	mate := maxWeightMatching(verts, edges, true)
	return mate, !slices.Contains(mate, -1), nil
}
