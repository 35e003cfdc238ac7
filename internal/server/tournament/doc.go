// Package tournament is the pure logic of tournaments: who meets whom,
// with which colour, and how the points and tie-breaks stand. It knows
// nothing of Mill, of storage or of time: players are IDs (PlayerID) with
// a rating, a result is 1, ½ or 0 for white, and every function takes the
// event so far as values (the field and the rounds played) and returns
// the next step, the same every time for the same input. A service keeps
// the event and calls it round by round.
//
//   - Round robins (RoundRobin, Berger): the FIDE Berger tables, single or
//     double; Correspondence gives every game of every round at once.
//   - Swiss events (Swiss.Pair): one round at a time, after the FIDE Dutch
//     system, with byes, late entries and withdrawals.
//   - Arenas (PairArena, Arena.Score): pairing whoever is free, lichess's
//     scoring with streaks and berserk.
//   - Standings (Tally): points and tie-breaks (Sonneborn-Berger;
//     Buchholz, median Buchholz, performance) and the crosstable.
//
// docs/tournaments.md tells an organiser the rules as implemented and
// where they depart from FIDE's.
//
// # The Swiss pairing as a matching
//
// Swiss.Pair does not walk the Dutch system's brackets and transpositions.
// It gives every pair of players that the absolute rules allow (no second
// meeting, no second bye, the colour rules) a cost in levels, from the
// most important: the colour rules broken (only when no pairing keeps
// them), the score difference, colour preferences not granted, and the
// players' places in their score groups against the Dutch order. The
// weights make each level outweigh all below it, and a maximum-weight
// matching of the most pairs picks the pairing. The matching is Edmonds'
// blossom algorithm, O(n³), written here (matching.go): no maintained Go
// module has one (gonum v0.17.0 does not), and the package keeps to the
// standard library. A test checks it against every matching of small
// random graphs.
//
// # Where things are
//
//	event.go       PlayerID, Colour, Result, Game, Round, the errors (PairError), DrawLots
//	roundrobin.go  Berger tables, RoundRobin (single and double), Correspondence
//	history.go     Entrant, CellKind; what the rounds so far say of each player (score, colours, opponents, byes)
//	swiss.go       Swiss.Pair: the Dutch system as a maximum-weight matching; colour preferences and allocation
//	matching.go    maximum-weight matching in a general graph (Edmonds' blossom, O(n³))
//	arena.go       Arena (scoring: streaks, berserk), PairArena
//	standings.go   Tally, Standing, TieBreak, the FIDE dp table, Crosstable
package tournament
