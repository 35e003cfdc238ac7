package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The property test of the Swiss pairing plays random events: fields of
// 2 to 40, any number of rounds the field allows, random ratings and
// results, late entries, withdrawals and half-point byes. Every round must keep the rules,
// checked here from the rounds themselves, not from the pairing's own
// records:
//   - every active player is paired exactly once (a game or the bye), a
//     withdrawn player or one sitting the round out never, and those are
//     the round's half-point byes;
//   - no two players meet twice;
//   - a bye only when the number of active players is odd, and at most
//     one bye per player;
//   - nobody has one colour three times running (over the games played)
//     or a colour difference beyond ±2, unless no pairing keeps those
//     rules (where Swiss.Pair lets them give way);
//   - Pair is deterministic: the same input gives the same round.
// When Pair cannot pair, an independent check (a Tutte matrix, below)
// must find that no pairing keeps the rules indeed.

// eventsPerCheck events are played in each of rapid's checks: the
// default 100 checks play 2000 events, -short 400.
const eventsPerCheck = 20

// A swissRun is the state of one random event, kept by the test.
type swissRun struct {
	field  []Entrant
	played []Round
	nextID PlayerID
}

// active returns the players to pair: neither withdrawn nor sitting the
// round out with a half-point bye.
func (run *swissRun) active() []PlayerID {
	var out []PlayerID
	for _, e := range run.field {
		if !e.Withdrawn && !e.HalfBye {
			out = append(out, e.ID)
		}
	}
	return out
}

// history is what the test itself reads of the rounds: colours played,
// opponents, byes.
type history struct {
	colours map[PlayerID][]Colour
	met     map[[2]PlayerID]bool
	byes    map[PlayerID]int
}

func readHistory(rounds []Round) history {
	h := history{map[PlayerID][]Colour{}, map[[2]PlayerID]bool{}, map[PlayerID]int{}}
	for _, r := range rounds {
		for _, g := range r.Games {
			h.colours[g.White] = append(h.colours[g.White], White)
			h.colours[g.Black] = append(h.colours[g.Black], Black)
			h.met[[2]PlayerID{g.White, g.Black}] = true
			h.met[[2]PlayerID{g.Black, g.White}] = true
		}
		if r.Bye != NoPlayer {
			h.byes[r.Bye]++
		}
	}
	return h
}

// breaks reports whether colours break the colour rules: one colour three
// times running, or a difference beyond ±2.
func breaks(colours []Colour) bool {
	run, diff, _ := colourStats(colours)
	return run >= 3 || diff > 2
}

// mayHave reports whether player p may have colour c next: not the
// third time running, and not a colour difference beyond ±2 unless it
// lessens one already beyond (after a round where the rules gave way, a
// player with one colour three times running may have the other).
func (h history) mayHave(p PlayerID, c Colour) bool {
	cols := h.colours[p]
	n := len(cols)
	if n >= 2 && cols[n-1] == c && cols[n-2] == c {
		return false
	}
	_, _, before := colourStats(cols)
	_, _, after := colourStats(append(slices.Clone(cols), c))
	return after <= 2 || after < before
}

// pairable reports whether the active players can be paired keeping the
// absolute rules (and the colour rules, with colours): a perfect
// matching of the graph of allowed pairs, with a bye vertex for an odd
// number, decided by the Tutte matrix over a prime field: its
// determinant at random points is nonzero only if a perfect matching
// exists, and is zero with probability at most n/p when one does; two
// tries make a wrong "no" vanishingly rare.
func (h history) pairable(active []PlayerID, colours bool, rng *rand.Rand) bool {
	n := len(active) + len(active)%2
	allowed := func(i, j int) bool {
		if j == len(active) {
			return h.byes[active[i]] == 0
		}
		a, b := active[i], active[j]
		if h.met[[2]PlayerID{a, b}] {
			return false
		}
		return !colours ||
			h.mayHave(a, White) && h.mayHave(b, Black) ||
			h.mayHave(a, Black) && h.mayHave(b, White)
	}
	const p = 2147483647
	for range 2 {
		m := make([][]int64, n)
		for i := range m {
			m[i] = make([]int64, n)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if allowed(i, j) {
					x := rng.Int64N(p-1) + 1
					m[i][j], m[j][i] = x, p-x
				}
			}
		}
		if determinantMod(m, p) != 0 {
			return true
		}
	}
	return false
}

// determinantMod returns det(m) mod p (p prime), by Gaussian elimination.
func determinantMod(m [][]int64, p int64) int64 {
	n := len(m)
	det := int64(1)
	for c := range n {
		pivot := -1
		for r := c; r < n; r++ {
			if m[r][c] != 0 {
				pivot = r
				break
			}
		}
		if pivot < 0 {
			return 0
		}
		if pivot != c {
			m[pivot], m[c] = m[c], m[pivot]
			det = p - det
		}
		det = det * m[c][c] % p
		inv := powMod(m[c][c], p-2, p)
		for r := c + 1; r < n; r++ {
			f := m[r][c] * inv % p
			if f == 0 {
				continue
			}
			for k := c; k < n; k++ {
				m[r][k] = ((m[r][k]-f*m[c][k])%p + p) % p
			}
		}
	}
	return det % p
}

func powMod(b, e, p int64) int64 {
	r := int64(1)
	b %= p
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % p
		}
		b = b * b % p
	}
	return r
}

// swissStats counts what the random events came to, for the log.
type swissStats struct {
	events, rounds, stuck, relaxed int
}

func TestSwissProperties(t *testing.T) {
	var stats swissStats
	rapid.Check(t, func(t *rapid.T) {
		for range eventsPerCheck {
			playSwiss(t, &stats)
		}
	})
	t.Logf("%d events, %d rounds paired, %d events that could not be paired to the end, %d rounds where the colour rules gave way",
		stats.events, stats.rounds, stats.stuck, stats.relaxed)
}

func playSwiss(t *rapid.T, stats *swissStats) {
	n := rapid.IntRange(2, 40).Draw(t, "players")
	s := Swiss{
		Rounds: rapid.IntRange(1, n-1+n%2).Draw(t, "rounds"),
		Seed:   rapid.Uint64().Draw(t, "seed"),
	}
	run := &swissRun{nextID: 1}
	join := func() {
		run.field = append(run.field, Entrant{ID: run.nextID * 7, Rating: rapid.IntRange(1000, 1010).Draw(t, "rating")})
		run.nextID++
	}
	for range n {
		join()
	}
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "rng"), 1))
	stats.events++
	for round := 1; round <= s.Rounds; round++ {
		if round > 1 {
			for range rapid.IntRange(0, 4).Draw(t, "late entries") / 3 {
				join()
			}
			for range rapid.IntRange(0, 4).Draw(t, "withdrawals") / 3 {
				act := run.active()
				if len(act) <= 2 {
					break
				}
				who := rapid.SampledFrom(act).Draw(t, "withdraws")
				for i := range run.field {
					if run.field[i].ID == who {
						run.field[i].Withdrawn = true
					}
				}
			}
		}
		// Now and then a player asks to sit the round out.
		var halfByes []PlayerID
		for i := range run.field {
			run.field[i].HalfBye = false
		}
		for range rapid.IntRange(0, 5).Draw(t, "half-point byes") / 4 {
			act := run.active()
			if len(act) <= 2 {
				break
			}
			who := rapid.SampledFrom(act).Draw(t, "sits out")
			for i := range run.field {
				if run.field[i].ID == who {
					run.field[i].HalfBye = true
				}
			}
			halfByes = append(halfByes, who)
		}
		slices.Sort(halfByes)
		h := readHistory(run.played)
		active := run.active()
		r, err := s.Pair(run.field, run.played)
		if err != nil {
			var pe *PairError
			if !errors.Is(err, ErrCannotPair) || !errors.As(err, &pe) || pe.Round != round {
				t.Fatalf("round %d: %v, want a *PairError for this round", round, err)
			}
			if h.pairable(active, false, rng) {
				t.Fatalf("round %d of %d: %v, but a pairing exists (field %v, rounds %v)", round, s.Rounds, err, run.field, run.played)
			}
			stats.stuck++
			return
		}
		again, err := s.Pair(slices.Clone(run.field), slices.Clone(run.played))
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("round %d: paired %v, then %v, %v", round, r, again, err)
		}
		checkSwissRound(t, round, r, active, h)
		if got := slices.Sorted(slices.Values(r.HalfByes)); !slices.Equal(got, halfByes) {
			t.Fatalf("round %d: half-point byes %v, want %v", round, r.HalfByes, halfByes)
		}
		broken := false
		for _, g := range r.Games {
			if !h.mayHave(g.White, White) || !h.mayHave(g.Black, Black) {
				broken = true
			}
		}
		if broken {
			if h.pairable(active, true, rng) {
				t.Fatalf("round %d of %d: the colour rules gave way (%s), but a pairing keeps them", round, s.Rounds, format(r))
			}
			stats.relaxed++
		}
		for i := range r.Games {
			r.Games[i].Result = Result(rng.IntN(3) + 1)
		}
		run.played = append(run.played, r)
		stats.rounds++
	}
}

// checkSwissRound checks a round against the rules that hold in every
// round.
func checkSwissRound(t *rapid.T, round int, r Round, active []PlayerID, h history) {
	seated := map[PlayerID]int{}
	for _, g := range r.Games {
		seated[g.White]++
		seated[g.Black]++
		if h.met[[2]PlayerID{g.White, g.Black}] {
			t.Fatalf("round %d: %d and %d meet again", round, g.White, g.Black)
		}
		if g.Result != Pending {
			t.Fatalf("round %d: %d-%d has a result already", round, g.White, g.Black)
		}
	}
	if r.Bye != NoPlayer {
		seated[r.Bye]++
		if len(active)%2 == 0 {
			t.Fatalf("round %d: a bye (%d) with %d players", round, r.Bye, len(active))
		}
		if h.byes[r.Bye] > 0 {
			t.Fatalf("round %d: %d has a second bye", round, r.Bye)
		}
	} else if len(active)%2 == 1 {
		t.Fatalf("round %d: no bye with %d players", round, len(active))
	}
	for _, p := range active {
		if seated[p] != 1 {
			t.Fatalf("round %d: %d is seated %d times: %s", round, p, seated[p], format(r))
		}
	}
	if len(seated) != len(active) {
		t.Fatalf("round %d: %d seated, %d active: %s", round, len(seated), len(active), format(r))
	}
}

// TestSwissColoursGiveWay: six players after two rounds, where 1 and 2
// have had black twice and must have white, 3 and 4 white twice and must
// have black; 1 and 2 have met 3 and 4, and 5 and 6 have met. Only two
// of 1..4 can meet 5 and 6, the other two must meet each other, and every
// such pair needs the same colour: the colour rules cannot be kept. In
// round 3 of 5, as in the last round, Pair breaks them for one pair only
// rather than stop the event.
func TestSwissColoursGiveWay(t *testing.T) {
	players := field(6)
	played := []Round{
		{Games: []Game{{3, 1, Draw}, {4, 2, Draw}, {5, 6, Draw}}},
		{Games: []Game{{4, 1, Draw}, {3, 2, Draw}, {6, 5, Draw}}},
	}
	for _, rounds := range []int{3, 5} {
		s := Swiss{Rounds: rounds}
		r, err := s.Pair(players, played)
		if err != nil {
			t.Fatalf("round 3 of %d: %v", rounds, err)
		}
		after := readHistory(append(slices.Clone(played), r))
		var broken []PlayerID
		for _, p := range []PlayerID{1, 2, 3, 4, 5, 6} {
			if breaks(after.colours[p]) {
				broken = append(broken, p)
			}
		}
		if len(broken) != 1 {
			t.Errorf("round 3 of %d: %s breaks the colour rules for %v, want for one player", rounds, format(r), broken)
		}
	}
}

// TestSwissCannotPair: six players whose three rounds were the three
// games across two triangles ({1, 2, 3} against {4, 5, 6}) have left
// only the games inside each triangle, and three players cannot pair
// among themselves: round 4 of 5 would repeat a game, and Pair says so
// rather than break the rule. Round 4 of 3 is past the end.
func TestSwissCannotPair(t *testing.T) {
	played := []Round{
		{Games: []Game{{1, 4, Draw}, {5, 2, Draw}, {3, 6, Draw}}},
		{Games: []Game{{5, 1, Draw}, {2, 6, Draw}, {4, 3, Draw}}},
		{Games: []Game{{1, 6, Draw}, {4, 2, Draw}, {5, 3, Draw}}},
	}
	_, err := Swiss{Rounds: 5}.Pair(field(6), played)
	var pe *PairError
	if !errors.As(err, &pe) || pe.Round != 4 || !errors.Is(err, ErrCannotPair) {
		t.Fatalf("round 4 of 5: got %v, want a *PairError for round 4", err)
	}
	if want := "tournament: round 4: cannot pair: every pairing would repeat a game or give someone a second bye"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if _, err := (Swiss{Rounds: 3}).Pair(field(6), played); !errors.Is(err, ErrEventOver) {
		t.Errorf("round 4 of 3: got %v, want ErrEventOver", err)
	}
}

func ExampleSwiss_Pair() {
	s := Swiss{Rounds: 3, Seed: 1}
	field := []Entrant{{ID: 10, Rating: 1800}, {ID: 11, Rating: 1700}, {ID: 12, Rating: 1600}, {ID: 13, Rating: 1500}, {ID: 14, Rating: 1400}}
	r, err := s.Pair(field, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("initial colour", s.InitialColour())
	for _, g := range r.Games {
		fmt.Println(g.White, "-", g.Black)
	}
	fmt.Println("bye", r.Bye)
	// Output:
	// initial colour white
	// 10 - 12
	// 13 - 11
	// bye 14
}
