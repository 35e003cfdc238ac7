package tournament

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestDP(t *testing.T) {
	for _, tt := range []struct {
		p    float64
		want int
	}{{1, 800}, {0, -800}, {0.5, 0}, {0.75, 193}, {0.25, -193}, {0.8333, 273}, {2.0 / 3, 125}, {0.995, 800}, {0.994, 677}, {0.01, -677}, {0.005, -677}} {
		if got := dp(tt.p); got != tt.want {
			t.Errorf("dp(%v) = %d, want %d", tt.p, got, tt.want)
		}
	}
	// The table rises.
	for i := 1; i < len(dpTable); i++ {
		if dpTable[i] <= dpTable[i-1] {
			t.Errorf("dpTable[%d] = %d after %d", i, dpTable[i], dpTable[i-1])
		}
	}
}

// formatStandings writes "rank:player points [tie-breaks]" lines.
func formatStandings(s []Standing) string {
	var lines []string
	for _, st := range s {
		lines = append(lines, fmt.Sprintf("%d:%d %g %v", st.Rank, st.Player, st.Points, st.TieBreaks))
	}
	return strings.Join(lines, "\n")
}

func TestRoundRobinStandings(t *testing.T) {
	players := []PlayerID{1, 2, 3, 4}
	rounds, err := RoundRobin(players, 1)
	if err != nil {
		t.Fatal(err)
	}
	// 1-4 1-0, 2-3 ½; 4-3 0-1, 1-2 0-1; 2-4 0-1, 3-1 ½.
	set := [][]Result{{WhiteWins, Draw}, {BlackWins, BlackWins}, {BlackWins, Draw}}
	for r := range rounds {
		for b := range rounds[r].Games {
			rounds[r].Games[b].Result = set[r][b]
		}
	}
	var field []Entrant
	for _, id := range players {
		field = append(field, Entrant{ID: id})
	}
	got, err := RoundRobinTally().Standings(field, rounds)
	if err != nil {
		t.Fatal(err)
	}
	// Points: 3 2, 1 1½, 2 1½, 4 1. Sonneborn-Berger:
	//   3: ½·1½ (2) + 1·1 (4) + ½·1½ (1) = 2.5
	//   2: ½·2 (3) + 1·1½ (1) + 0 (4) = 2.5
	//   1: 1·1 (4) + 0 (2) + ½·2 (3) = 2
	//   4: 0 (1) + 0 (3) + 1·1½ (2) = 1.5
	want := "1:3 2 [2.5]\n2:2 1.5 [2.5]\n3:1 1.5 [2]\n4:4 1 [1.5]"
	if s := formatStandings(got); s != want {
		t.Errorf("got\n%s\nwant\n%s", s, want)
	}

	// Three players, all draws: a round off each, worth nothing; all
	// equal on points and Sonneborn-Berger (½·1 + ½·1), so all first.
	rounds, _ = RoundRobin([]PlayerID{7, 8, 9}, 1)
	for r := range rounds {
		for b := range rounds[r].Games {
			rounds[r].Games[b].Result = Draw
		}
	}
	got, err = RoundRobinTally().Standings([]Entrant{{ID: 9}, {ID: 8}, {ID: 7}}, rounds)
	if err != nil {
		t.Fatal(err)
	}
	want = "1:7 1 [1]\n1:8 1 [1]\n1:9 1 [1]"
	if s := formatStandings(got); s != want {
		t.Errorf("got\n%s\nwant\n%s", s, want)
	}
}

// swissEvent is a hand-made Swiss of three rounds with a bye in rounds 1
// and 3, a late entry (6, from round 2) and a withdrawal (3, after round
// 2).
func swissEvent() ([]Entrant, []Round) {
	field := []Entrant{
		{ID: 1, Rating: 2000}, {ID: 2, Rating: 1900}, {ID: 3, Rating: 1800, Withdrawn: true},
		{ID: 4, Rating: 1700}, {ID: 5, Rating: 1600}, {ID: 6, Rating: 1500},
	}
	rounds := []Round{
		{Games: []Game{{1, 3, WhiteWins}, {4, 2, Draw}}, Bye: 5},
		{Games: []Game{{5, 1, BlackWins}, {2, 6, WhiteWins}, {3, 4, BlackWins}}},
		{Games: []Game{{1, 4, Draw}, {6, 5, BlackWins}}, Bye: 2},
	}
	return field, rounds
}

// TestSwissStandings checks the Swiss tie-breaks by hand.
//
// Points (a bye 1): 1: 1+1+½ = 2½; 2: ½+1+1 = 2½; 3: 0 (absent in
// round 3); 4: ½+1+½ = 2; 5: 1+0+1 = 2; 6: 0 (absent in round 1).
//
// Adjusted points (every unplayed round ½): 1: 2½; 2: ½+1+½ = 2;
// 3: 0+0+½ = ½; 4: 2; 5: ½+0+1 = 1½; 6: ½+0+0 = ½.
//
// Buchholz, a term a round (an unplayed round: the player's own adjusted
// points), and median Buchholz (without the highest and lowest term):
//
//	1: 3 ½, 5 1½, 4 2           = 4    median 1½
//	2: 4 2, 6 ½, own 2          = 4½   median 2
//	3: 1 2½, 4 2, own ½         = 5    median 2
//	4: 2 2, 3 ½, 1 2½           = 5    median 2
//	5: own 1½, 1 2½, 6 ½        = 4½   median 1½
//	6: own ½, 2 2, 5 1½         = 4    median 1½
//
// Performance over the games played (average rating + dp(p)):
//
//	1: (1800+1600+1700)/3 = 1700, 2½/3 = .83 → +273 = 1973
//	2: (1700+1500)/2 = 1600, 1½/2 = .75 → +193 = 1793
//	3: (2000+1700)/2 = 1850, 0 → -800 = 1050
//	4: (1900+1800+2000)/3 = 1900, 2/3 = .67 → +125 = 2025
//	5: (2000+1500)/2 = 1750, ½ → 0 = 1750
//	6: (1900+1600)/2 = 1750, 0 → -800 = 950
//
// Order: 2½ {2 (Buchholz 4½), 1 (4)}, 2 {4 (5), 5 (4½)}, 0 {3 (5), 6 (4)}.
func TestSwissStandings(t *testing.T) {
	field, rounds := swissEvent()
	got, err := SwissTally().Standings(field, rounds)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"1:2 2.5 [4.5 2 1793]",
		"2:1 2.5 [4 1.5 1973]",
		"3:4 2 [5 2 2025]",
		"4:5 2 [4.5 1.5 1750]",
		"5:3 0 [5 2 1050]",
		"6:6 0 [4 1.5 950]",
	}, "\n")
	if s := formatStandings(got); s != want {
		t.Errorf("got\n%s\nwant\n%s", s, want)
	}
	games := map[PlayerID]int{}
	for _, s := range got {
		games[s.Player] = s.Games
	}
	if want := map[PlayerID]int{1: 3, 2: 2, 3: 2, 4: 3, 5: 2, 6: 2}; fmt.Sprint(games) != fmt.Sprint(want) {
		t.Errorf("games %v, want %v", games, want)
	}
}

func TestCrosstable(t *testing.T) {
	field, rounds := swissEvent()
	// A pending game in a fourth round.
	rounds = append(rounds, Round{Games: []Game{{2, 1, Pending}}})
	ct, err := SwissTally().Crosstable(field, rounds)
	if err != nil {
		t.Fatal(err)
	}
	var order []PlayerID
	for _, r := range ct.Rows {
		order = append(order, r.Player)
		if len(r.Rounds) != 4 {
			t.Errorf("player %d has %d cells, want 4", r.Player, len(r.Rounds))
		}
	}
	// The pending round is left out of the tie-breaks: the order is
	// that of the three rounds finished.
	if !slices.Equal(order, []PlayerID{2, 1, 4, 5, 3, 6}) {
		t.Errorf("rows %v, want 2 1 4 5 3 6", order)
	}
	if got := ct.Rows[0].TieBreaks; !slices.Equal(got, []float64{4.5, 2, 1793}) {
		t.Errorf("player 2's tie-breaks %v, want those of three rounds", got)
	}
	row := ct.Rows[slices.Index(order, 2)]
	b, err := json.Marshal(row.Rounds)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := `[{"kind":"played","opponent":4,"colour":"black","points":0.5},` +
		`{"kind":"played","opponent":6,"colour":"white","points":1},` +
		`{"kind":"bye","points":1},` +
		`{"kind":"played","opponent":1,"colour":"white","points":0,"pending":true}]`
	if string(b) != wantJSON {
		t.Errorf("player 2's cells:\n%s\nwant\n%s", b, wantJSON)
	}
	if c := ct.Rows[slices.Index(order, 6)].Rounds[0]; c.Kind != Absent || c.Points != 0 {
		t.Errorf("player 6 in round 1: %+v, want absent", c)
	}
	if _, err := json.Marshal(ct); err != nil {
		t.Error(err)
	}
}

func TestTallyErrors(t *testing.T) {
	field, rounds := swissEvent()
	if _, err := (Tally{ByePoints: 0.3}).Standings(field, rounds); err == nil {
		t.Error("a bye of 0.3: no error")
	}
	if _, err := (Tally{TieBreaks: []TieBreak{99}}).Standings(field, rounds); err == nil {
		t.Error("tie-break 99: no error")
	}
	if _, err := SwissTally().Standings(field[:5], rounds); err == nil {
		t.Error("a player not in the field: no error")
	}
}
