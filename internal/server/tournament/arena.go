package tournament

import (
	"cmp"
	"slices"
)

// Arena is the scoring of an arena, after lichess's: players are paired
// as soon as they are free, for as long as the arena lasts, and the
// most points win.
//
// A win scores 2, a draw 1, a loss 0. After two wins running a player is
// on fire: every game then scores double (a win 4, a draw 2) until a game
// that is not a win, which scores double too and puts the fire out. A
// player who berserks (plays on half the clock) and wins scores one point
// more, on fire or not (so 3, or 5 on fire), but only if the game lasted
// at least BerserkMinPlies plies: a berserk win by an early resignation
// or abandonment earns nothing extra.
type Arena struct {
	BerserkMinPlies int
}

// An ArenaGame is one of a player's games, as the player scored it.
type ArenaGame struct {
	// Score is what the player scored: 1, 0.5 or 0.
	Score   float64 `json:"score"`
	Berserk bool    `json:"berserk,omitempty"`
	Plies   int     `json:"plies"`
}

// An ArenaSheet is a player's points, game by game.
type ArenaSheet struct {
	// Points are the points of each game, in order.
	Points []int `json:"points"`
	Total  int   `json:"total"`
	// OnFire says whether the next game counts double.
	OnFire bool `json:"onFire"`
}

// Score returns the sheet of a player's games, in the order played.
func (a Arena) Score(games []ArenaGame) ArenaSheet {
	var s ArenaSheet
	wins := 0 // running
	for _, g := range games {
		p := 0
		switch g.Score {
		case 1:
			p = 2
		case 0.5:
			p = 1
		}
		if wins >= 2 {
			p *= 2
		}
		if g.Score == 1 {
			wins++
			if g.Berserk && g.Plies >= a.BerserkMinPlies {
				p++
			}
		} else {
			wins = 0
		}
		s.Points = append(s.Points, p)
		s.Total += p
	}
	s.OnFire = wins >= 2
	return s
}

// An ArenaPlayer is a player waiting for a game.
type ArenaPlayer struct {
	ID     PlayerID `json:"id"`
	Points int      `json:"points"`
	Rating int      `json:"rating"`
	// LastOpponent is whom the player last played, or NoPlayer.
	LastOpponent PlayerID `json:"lastOpponent,omitempty"`
	// ColourDiff is the player's games with white less those with black.
	ColourDiff int `json:"colourDiff"`
}

// PairArena pairs the players waiting for a game. They are ranked by
// points, then rating, then ID, and paired with their neighbours in that
// ranking as closely as possible; two players who played each other last
// are paired again only when nothing else pairs everyone (as when they
// are the only two waiting). With an odd number one waits for the next
// call: the lowest ranked who can. Of a pair, the one who has had white
// less often has white; if even, the higher-ranked. The games come in
// ranking order.
func PairArena(waiting []ArenaPlayer) ([]Game, error) {
	ids := make([]PlayerID, len(waiting))
	for i, p := range waiting {
		ids[i] = p.ID
	}
	if err := checkIDs(ids); err != nil {
		return nil, err
	}
	ranked := slices.Clone(waiting)
	slices.SortFunc(ranked, func(a, b ArenaPlayer) int {
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	n := len(ranked)
	if n < 2 {
		return nil, nil
	}
	// Costs: a rematch of the last game above everything the distances
	// in the ranking can add up to; the vertex n, when n is odd, stands
	// for waiting, cheapest for the last.
	verts := n + n%2
	rematch := int64(n) * int64(n)
	top := 2 * rematch * int64(n)
	var edges []weightedEdge
	for i := range n {
		for j := i + 1; j < verts; j++ {
			var c int64
			if j == n {
				c = int64(n - 1 - i)
			} else {
				c = int64(j - i - 1)
				if ranked[i].LastOpponent == ranked[j].ID || ranked[j].LastOpponent == ranked[i].ID {
					c += rematch
				}
			}
			edges = append(edges, weightedEdge{i, j, top - c})
		}
	}
	mate := maxWeightMatching(verts, edges, true)
	var games []Game
	for i, j := range mate {
		if i >= n || j < i || j >= n {
			continue
		}
		a, b := ranked[i], ranked[j]
		if b.ColourDiff < a.ColourDiff {
			a, b = b, a
		}
		games = append(games, Game{White: a.ID, Black: b.ID})
	}
	return games, nil
}
