package tournament

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The Berger tables for 4, 6 and 8 players as FIDE publishes them
// (Handbook C.05, Annex 1), white first.
var publishedBerger = map[int]string{
	4: `1-4 2-3
4-3 1-2
2-4 3-1`,
	6: `1-6 2-5 3-4
6-4 5-3 1-2
2-6 3-1 4-5
6-5 1-4 2-3
3-6 4-2 5-1`,
	8: `1-8 2-7 3-6 4-5
8-5 6-4 7-3 1-2
2-8 3-1 4-7 5-6
8-6 7-5 1-4 2-3
3-8 4-2 5-1 6-7
8-7 1-6 2-5 3-4
4-8 5-3 6-2 7-1`,
}

func formatTable(table [][][2]int) string {
	var lines []string
	for _, boards := range table {
		var pairs []string
		for _, b := range boards {
			pairs = append(pairs, fmt.Sprintf("%d-%d", b[0], b[1]))
		}
		lines = append(lines, strings.Join(pairs, " "))
	}
	return strings.Join(lines, "\n")
}

func TestBergerPublished(t *testing.T) {
	for n, want := range publishedBerger {
		if got := formatTable(Berger(n)); got != want {
			t.Errorf("Berger(%d):\n%s\nwant\n%s", n, got, want)
		}
		// An odd field plays the table of the next even number.
		if got := formatTable(Berger(n - 1)); got != want {
			t.Errorf("Berger(%d):\n%s\nwant\n%s", n-1, got, want)
		}
	}
}

// bergerPair is the slow twin of Berger: the pairing of players i and j
// (i < j) in a table of n players (n even), from the closed form the
// rotation comes to. Below n, i and j meet in the round r with
// i+j ≡ r+1 (mod n-1), the lower number white when i+j is odd; player i
// meets n in the round with 2i ≡ r+1 (mod n-1), n white in the even
// rounds.
func bergerPair(n, i, j int) (round, white int) {
	m := n - 1
	if j == n {
		for r := 1; r <= m; r++ {
			if (2*i-r-1)%m == 0 {
				if r%2 == 0 {
					return r, n
				}
				return r, i
			}
		}
		panic("no round")
	}
	r := ((i+j-2)%m+m)%m + 1
	if (i+j)%2 == 1 {
		return r, i
	}
	return r, j
}

func TestBergerTwin(t *testing.T) {
	for n := 2; n <= 20; n += 2 {
		table := Berger(n)
		if len(table) != n-1 {
			t.Fatalf("Berger(%d) has %d rounds, want %d", n, len(table), n-1)
		}
		for r, boards := range table {
			for _, b := range boards {
				i, j := min(b[0], b[1]), max(b[0], b[1])
				wr, ww := bergerPair(n, i, j)
				if wr != r+1 || ww != b[0] {
					t.Errorf("Berger(%d) round %d has %d-%d, want them in round %d with %d white", n, r+1, b[0], b[1], wr, ww)
				}
			}
		}
	}
}

// colours returns each player's colours in the games of rounds, in
// order, and the number of byes.
func colours(rounds []Round) (map[PlayerID][]Colour, map[PlayerID]int) {
	cols := map[PlayerID][]Colour{}
	byes := map[PlayerID]int{}
	for _, r := range rounds {
		for _, g := range r.Games {
			cols[g.White] = append(cols[g.White], White)
			cols[g.Black] = append(cols[g.Black], Black)
		}
		if r.Bye != NoPlayer {
			byes[r.Bye]++
		}
	}
	return cols, byes
}

// colourStats returns the longest run of one colour, the greatest colour
// difference (whites - blacks, either sign) at any point, and the
// greatest at the end.
func colourStats(cols []Colour) (run, diff, final int) {
	r, d := 0, 0
	for i, c := range cols {
		if i > 0 && c == cols[i-1] {
			r++
		} else {
			r = 1
		}
		if c == White {
			d++
		} else {
			d--
		}
		run = max(run, r)
		diff = max(diff, d, -d)
	}
	return run, diff, max(d, -d)
}

func ids(n int) []PlayerID {
	out := make([]PlayerID, n)
	for i := range out {
		out[i] = PlayerID(100 + i)
	}
	return out
}

// TestRoundRobinInvariants checks what is true of the Berger tables for
// every field of 2 to 20 players, single and double:
//   - each pair meets once a cycle (in the double, once with each colour),
//     and every player plays or has the bye in every round;
//   - a single cycle: the colour difference ends within ±1 and stays
//     within ±2 throughout (within ±1 in an odd field, whose players
//     alternate colours strictly over their games); nobody has one
//     colour three times running (twice running happens: player 1 has
//     two whites in rounds 1 and 2 of an even field);
//   - a double: the difference ends at 0 and stays within ±2, and with
//     the last two rounds of the first cycle swapped, nobody has one
//     colour three times running;
//   - an odd field: each player has exactly one bye a cycle.
func TestRoundRobinInvariants(t *testing.T) {
	for n := 2; n <= 20; n++ {
		for cycles := 1; cycles <= 2; cycles++ {
			t.Run(fmt.Sprintf("n=%d,cycles=%d", n, cycles), func(t *testing.T) {
				players := ids(n)
				rounds, err := RoundRobin(players, cycles)
				if err != nil {
					t.Fatal(err)
				}
				even := n + n%2
				if len(rounds) != cycles*(even-1) {
					t.Fatalf("got %d rounds, want %d", len(rounds), cycles*(even-1))
				}
				met := map[[2]PlayerID]int{}
				for i, r := range rounds {
					seen := map[PlayerID]bool{}
					for _, g := range r.Games {
						for _, p := range []PlayerID{g.White, g.Black} {
							if seen[p] {
								t.Fatalf("round %d: %d plays twice", i+1, p)
							}
							seen[p] = true
						}
						met[[2]PlayerID{g.White, g.Black}]++
					}
					if (r.Bye != NoPlayer) != (n%2 == 1) {
						t.Fatalf("round %d: bye %d in a field of %d", i+1, r.Bye, n)
					}
					if r.Bye != NoPlayer {
						seen[r.Bye] = true
					}
					if len(seen) != n {
						t.Fatalf("round %d: %d players seated, want %d", i+1, len(seen), n)
					}
				}
				for _, a := range players {
					for _, b := range players {
						if a == b {
							continue
						}
						got := met[[2]PlayerID{a, b}] + met[[2]PlayerID{b, a}]
						if got != cycles {
							t.Errorf("%d and %d meet %d times, want %d", a, b, got, cycles)
						}
						if cycles == 2 && met[[2]PlayerID{a, b}] != 1 {
							t.Errorf("%d has white against %d %d times, want 1", a, b, met[[2]PlayerID{a, b}])
						}
					}
				}
				cols, byes := colours(rounds)
				for _, p := range players {
					run, diff, final := colourStats(cols[p])
					wantDiff, wantFinal := 2, 1
					if n%2 == 1 {
						wantDiff = 1
					}
					if cycles == 2 {
						wantFinal = 0
					}
					if run > 2 || diff > wantDiff || final > wantFinal {
						t.Errorf("player %d: colours %v: longest run %d, greatest difference %d, final %d; want at most 2, %d, %d",
							p, cols[p], run, diff, final, wantDiff, wantFinal)
					}
					if n%2 == 1 && cycles == 1 && run > 1 {
						t.Errorf("player %d of an odd field: colours %v do not alternate", p, cols[p])
					}
					if want := cycles * (n % 2); byes[p] != want {
						t.Errorf("player %d has %d byes, want %d", p, byes[p], want)
					}
				}
			})
		}
	}
}

// TestRoundRobinSwapMatters: without the swap of the first cycle's last
// two rounds, a double round robin gives player 1 of an even field three
// blacks running (the last round of the first cycle and the first two
// of the second), which is why FIDE recommends it.
func TestRoundRobinSwapMatters(t *testing.T) {
	for n := 4; n <= 20; n += 2 {
		table := Berger(n)
		var cols []Colour
		for c := range 2 {
			for _, boards := range table {
				for _, b := range boards {
					if b[0] == 1 || b[1] == 1 {
						col := White
						if b[1] == 1 {
							col = Black
						}
						if c == 1 {
							col = col.Opposite()
						}
						cols = append(cols, col)
					}
				}
			}
		}
		if run, _, _ := colourStats(cols); run < 3 {
			t.Errorf("n=%d: player 1 without the swap has %v, no run of three", n, cols)
		}
	}
}

func TestRoundRobinExamples(t *testing.T) {
	// Five players: the table of six, number 6 is the bye.
	rounds, err := RoundRobin([]PlayerID{11, 12, 13, 14, 15}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, r := range rounds {
		parts = append(parts, format(r))
	}
	got := strings.Join(parts, " | ")
	want := "12-15 13-14 bye 11 | 15-13 11-12 bye 14 | 13-11 14-15 bye 12 | 11-14 12-13 bye 15 | 14-12 15-11 bye 13"
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	// Four players, double: rounds 2 and 3 swapped, then reversed.
	rounds, err = RoundRobin([]PlayerID{1, 2, 3, 4}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range rounds {
		for _, g := range r.Games {
			fmt.Fprintf(&b, "%d-%d ", g.White, g.Black)
		}
		b.WriteString("| ")
	}
	if got, want := b.String(), "1-4 2-3 | 2-4 3-1 | 4-3 1-2 | 4-1 3-2 | 3-4 2-1 | 4-2 1-3 | "; got != want {
		t.Errorf("double of 4: got %s\nwant %s", got, want)
	}
}

func TestCorrespondence(t *testing.T) {
	players := ids(7)
	games, err := Correspondence(players, 2)
	if err != nil {
		t.Fatal(err)
	}
	rounds, _ := RoundRobin(players, 2)
	var want []Game
	for _, r := range rounds {
		want = append(want, r.Games...)
	}
	if !slices.Equal(games, want) || len(games) != 7*6 {
		t.Errorf("got %d games %v, want the %d of RoundRobin", len(games), games, len(want))
	}
}

func TestRoundRobinErrors(t *testing.T) {
	for _, tt := range []struct {
		players []PlayerID
		cycles  int
	}{
		{nil, 1},
		{[]PlayerID{1}, 1},
		{[]PlayerID{1, 2}, 0},
		{[]PlayerID{1, 2}, 3},
		{[]PlayerID{1, 1}, 1},
		{[]PlayerID{1, NoPlayer}, 1},
	} {
		if _, err := RoundRobin(tt.players, tt.cycles); err == nil {
			t.Errorf("RoundRobin(%v, %d): no error", tt.players, tt.cycles)
		}
	}
}

func TestDrawLots(t *testing.T) {
	players := ids(10)
	a, b := DrawLots(players, 7), DrawLots(players, 7)
	if !slices.Equal(a, b) {
		t.Errorf("the same seed drew %v and %v", a, b)
	}
	if slices.Equal(a, DrawLots(players, 8)) && slices.Equal(a, DrawLots(players, 9)) {
		t.Errorf("three seeds drew the same order %v", a)
	}
	sorted := slices.Clone(a)
	slices.Sort(sorted)
	if !slices.Equal(sorted, players) {
		t.Errorf("DrawLots(%v) = %v, not the same players", players, a)
	}
}
