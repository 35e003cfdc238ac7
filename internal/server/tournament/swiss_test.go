package tournament

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// field returns n entrants with IDs 1..n rated 2000, 1990, ... so that
// the ID is the pairing number.
func field(n int) []Entrant {
	out := make([]Entrant, n)
	for i := range out {
		out[i] = Entrant{ID: PlayerID(i + 1), Rating: 2000 - 10*i}
	}
	return out
}

// format writes a round as "1-5 6-2 bye 9": white first.
func format(r Round) string {
	var parts []string
	for _, g := range r.Games {
		parts = append(parts, fmt.Sprintf("%d-%d", g.White, g.Black))
	}
	if r.Bye != NoPlayer {
		parts = append(parts, fmt.Sprintf("bye %d", r.Bye))
	}
	return strings.Join(parts, " ")
}

// results fills in a round's results from text such as "1 0 =": one per
// game, 1 for a white win, 0 for a black win, = for a draw.
func results(t *testing.T, r Round, text string) Round {
	t.Helper()
	res := strings.Fields(text)
	if len(res) != len(r.Games) {
		t.Fatalf("%d results for %d games (%s)", len(res), len(r.Games), format(r))
	}
	out := Round{Bye: r.Bye}
	for i, g := range r.Games {
		switch res[i] {
		case "1":
			g.Result = WhiteWins
		case "0":
			g.Result = BlackWins
		case "=":
			g.Result = Draw
		default:
			t.Fatalf("result %q", res[i])
		}
		out.Games = append(out.Games, g)
	}
	return out
}

// whiteSeed returns a seed whose initial colour is c.
func whiteSeed(c Colour) uint64 {
	for seed := uint64(0); ; seed++ {
		if (Swiss{Seed: seed}).InitialColour() == c {
			return seed
		}
	}
}

func TestSwissRoundOne(t *testing.T) {
	tests := []struct {
		n       int
		initial Colour
		want    string
	}{
		// The top half meets the bottom half in order; the odd pairing
		// numbers have the initial colour.
		{8, White, "1-5 6-2 3-7 8-4"},
		{8, Black, "5-1 2-6 7-3 4-8"},
		// An odd field: the last has the bye, the rest pair as four.
		{5, White, "1-3 4-2 bye 5"},
		{2, White, "1-2"},
		{3, White, "1-2 bye 3"},
	}
	for _, tt := range tests {
		s := Swiss{Rounds: tt.n - 1 + tt.n%2, Seed: whiteSeed(tt.initial)}
		r, err := s.Pair(field(tt.n), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := format(r); got != tt.want {
			t.Errorf("%d players, initial %v: got %s, want %s", tt.n, tt.initial, got, tt.want)
		}
	}
}

// TestSwissWorkedExample is a hand-checked event of 6 players and 3
// rounds: no published Dutch example with its exact pairings could be
// found to check against. Players 1..6 are rated in that order; the
// initial colour is white. Colours are written oldest first.
//
// Round 1: one score group; the top half 1 2 3 meets the bottom half
// 4 5 6 in order, and the odd numbers have white: 1-4 5-2 3-6. Results:
// 1 beats 4, 5 and 2 draw, 6 beats 3.
//
// Round 2: the groups are 1 point {1, 6}, ½ {2, 5}, 0 {3, 4}. 1 and 6
// pair. 2 and 5 have met, so both float down to {3, 4}, the higher
// floater meeting the higher resident: 2-3 and 5-4, not 2-4 and 5-3.
// (Pairing 1-2 and 6-5 instead has the same score differences, two
// floats of ½, but FIDE pairs the top group first, and the model makes
// a float cost more the higher it is.) Colours: 1 (W) and 6 (B) want
// the other colour mildly: 6-1. 2 (B) and 3 (B) both want white mildly,
// with the same history: the higher-ranked, 2, has it: 2-3. 4 (B) wants
// white, 5 (W) black: 4-5. Boards by the higher-ranked player: 1, 2, 5.
// Results: 6-1 drawn, 2 beats 3, 5 beats 4.
//
// Round 3: scores 1½ {1, 2, 5, 6}, 0 {3, 4}. The Dutch order in the top
// group is 1-5 and 2-6 (none has met), but 1 (W B) and 5 (W B) both
// want white, and 2 (B W) and 6 (B W) both black: two preferences lost.
// 1-2 and 5-6 grant all four (1-6 met in round 2), and colour
// preferences come before the order in the group: 1-2 and 5-6. 3 (B B)
// must have white, 4 (B W) wants black: 3-4.
func TestSwissWorkedExample(t *testing.T) {
	s := Swiss{Rounds: 3, Seed: whiteSeed(White)}
	players := field(6)
	var played []Round
	for _, step := range []struct{ want, results string }{
		{"1-4 5-2 3-6", "1 = 0"},
		{"6-1 2-3 4-5", "= 1 0"},
		{"1-2 5-6 3-4", "1 = 1"},
	} {
		r, err := s.Pair(players, played)
		if err != nil {
			t.Fatal(err)
		}
		if got := format(r); got != step.want {
			t.Fatalf("round %d: got %s, want %s", len(played)+1, got, step.want)
		}
		played = append(played, results(t, r, step.results))
	}
	if _, err := s.Pair(players, played); !errors.Is(err, ErrEventOver) {
		t.Errorf("round 4 of 3: got %v, want ErrEventOver", err)
	}
}

func TestSwissByeLateEntryWithdrawal(t *testing.T) {
	s := Swiss{Rounds: 4, Seed: whiteSeed(White)}
	players := field(5)
	r1, err := s.Pair(players, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Bye != 5 {
		t.Fatalf("round 1: bye %d, want 5, the lowest rated", r1.Bye)
	}
	played := []Round{results(t, r1, "1 1")} // 1-3 1-0, 4-2 1-0: 1, 4 and 5 (bye) on 1 point
	// Round 2: 5 has had its bye, so it goes to the lowest-ranked of the
	// rest in the lowest group: 0 points {2, 3}, the last of which is 3.
	r2, err := s.Pair(players, played)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Bye != 3 {
		t.Errorf("round 2: %s, want the bye for 3", format(r2))
	}
	played = append(played, results(t, r2, "= ="))
	// Before round 3, player 6 joins (0 points for the two rounds
	// missed) and player 1 withdraws: five active players again.
	players = append(players, Entrant{ID: 6, Rating: 2100})
	players[0].Withdrawn = true
	r3, err := s.Pair(players, played)
	if err != nil {
		t.Fatal(err)
	}
	seated := map[PlayerID]bool{r3.Bye: true}
	for _, g := range r3.Games {
		seated[g.White], seated[g.Black] = true, true
	}
	if seated[1] || !seated[6] || len(seated) != 5 {
		t.Errorf("round 3: %s, want 2..6 seated and not 1", format(r3))
	}
	if r3.Bye != 6 {
		// 6 has 0 points, alone at the bottom, and no bye yet.
		t.Errorf("round 3: %s, want the bye for 6", format(r3))
	}
}

func TestSwissErrors(t *testing.T) {
	players := field(4)
	r1 := Round{Games: []Game{{1, 3, WhiteWins}, {4, 2, Pending}}}
	tests := []struct {
		name    string
		s       Swiss
		players []Entrant
		played  []Round
		want    error
	}{
		{"no rounds", Swiss{Rounds: 0}, players, nil, ErrBadInput},
		{"over", Swiss{Rounds: 1}, players, []Round{{Games: []Game{{1, 3, WhiteWins}, {4, 2, Draw}}}}, ErrEventOver},
		{"pending", Swiss{Rounds: 3}, players, []Round{r1}, ErrPending},
		{"stranger", Swiss{Rounds: 3}, players, []Round{{Games: []Game{{1, 9, Draw}}}}, ErrBadInput},
		{"twice", Swiss{Rounds: 3}, players, []Round{{Games: []Game{{1, 2, Draw}, {3, 1, Draw}}}}, ErrBadInput},
		{"repeated ID", Swiss{Rounds: 1}, append(field(2), Entrant{ID: 2}), nil, ErrBadInput},
		{"too many rounds", Swiss{Rounds: 4}, players, nil, ErrCannotPair},
		{"one player", Swiss{Rounds: 1}, append(field(2), Entrant{ID: 3})[1:2], nil, ErrCannotPair},
	}
	for _, tt := range tests {
		_, err := tt.s.Pair(tt.players, tt.played)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
}
