// Package tournament is the pure logic of tournaments: pairings, scores
// and standings. Players are IDs with a rating; results are 1, ½ or 0 for
// white.
//
// Where things are:
//
//	event.go       PlayerID, Colour, Result, Game, Round, the errors, DrawLots
//	roundrobin.go  Berger tables, RoundRobin (single and double), Correspondence
//	history.go     Entrant; what the rounds so far say of each player (score, colours, opponents, byes)
//	swiss.go       Swiss.Pair: the Dutch system as a maximum-weight matching, colour preferences and allocation
//	matching.go    maximum-weight matching in a general graph (Edmonds' blossom, O(n³)), written here
package tournament
