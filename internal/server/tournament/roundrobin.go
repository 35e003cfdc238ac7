package tournament

// Berger returns the Berger table of a round robin of n players (FIDE
// Handbook C.05, Annex 1): n-1 rounds of n/2 boards, each board a pair of
// player numbers 1..n, white first. For an odd n the table is that of n+1
// players, and the player paired with number n+1 has the bye.
//
// The table is built as the Annex describes it: in round 1 player i
// meets n+1-i, the lower number white; each next round adds n/2 to every
// number but the highest (counting round 1..n-1), on the same boards, and
// the highest number changes colour.
func Berger(n int) [][][2]int {
	if n < 2 {
		return nil
	}
	if n%2 == 1 {
		n++
	}
	rounds := make([][][2]int, n-1)
	board := make([][2]int, n/2)
	for i := range board {
		board[i] = [2]int{i + 1, n - i}
	}
	next := func(x int) int {
		if x == n {
			return n
		}
		return (x-1+n/2)%(n-1) + 1
	}
	for r := range rounds {
		rounds[r] = append([][2]int(nil), board...)
		for i, b := range board {
			board[i] = [2]int{next(b[0]), next(b[1])}
		}
		board[0][0], board[0][1] = board[0][1], board[0][0]
	}
	return rounds
}

// RoundRobin returns the rounds of a round robin among players, who have
// the numbers of the Berger table in the order given (players[0] is number
// 1: let DrawLots order them by lot). An odd field has a bye each round.
//
// With cycles 2, a double round robin, the second cycle repeats the first
// with the colours reversed; in the first cycle the last two rounds are
// played in the other order, as the Annex recommends, so that no player
// has the same colour three times running across the two cycles.
func RoundRobin(players []PlayerID, cycles int) ([]Round, error) {
	if err := checkIDs(players); err != nil {
		return nil, err
	}
	if len(players) < 2 {
		return nil, badInput("a round robin needs two players, not %d", len(players))
	}
	if cycles != 1 && cycles != 2 {
		return nil, badInput("a round robin has 1 or 2 cycles, not %d", cycles)
	}
	table := Berger(len(players))
	id := func(number int) PlayerID {
		if number > len(players) {
			return NoPlayer
		}
		return players[number-1]
	}
	var rounds []Round
	for c := range cycles {
		order := table
		if c == 0 && cycles == 2 && len(table) >= 2 {
			order = append([][][2]int(nil), table...)
			last := len(order) - 1
			order[last-1], order[last] = order[last], order[last-1]
		}
		for _, boards := range order {
			var r Round
			for _, b := range boards {
				w, bl := id(b[0]), id(b[1])
				if c == 1 {
					w, bl = bl, w
				}
				switch {
				case w == NoPlayer:
					r.Bye = bl
				case bl == NoPlayer:
					r.Bye = w
				default:
					r.Games = append(r.Games, Game{White: w, Black: bl})
				}
			}
			rounds = append(rounds, r)
		}
	}
	return rounds, nil
}

// Correspondence returns every game of a correspondence round robin, all
// started at once: the games of RoundRobin's rounds in order (round by
// round, board by board), without the byes, which mean only that a
// player of an odd field has one game fewer at a time.
func Correspondence(players []PlayerID, cycles int) ([]Game, error) {
	rounds, err := RoundRobin(players, cycles)
	if err != nil {
		return nil, err
	}
	var games []Game
	for _, r := range rounds {
		games = append(games, r.Games...)
	}
	return games, nil
}
