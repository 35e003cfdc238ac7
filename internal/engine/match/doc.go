// Package match plays matches between Mill players and measures the
// difference in strength: wins, draws and losses, the score, and the Elo
// difference with its 95% error margin.
//
// A player is the built-in engine at a level, the perfect player of the
// endgame databases of the whole game, a random mover, a one-ply greedy
// player, or an external program that speaks the engine protocol of
// docs/protocol.md. A match plays a set of openings (start positions after a
// few random or listed moves), each twice with the colours swapped, games in
// parallel; every game is kept for the records. A match may run as a
// sequential probability ratio test (Config.SPRT) that ends it as soon as
// the pairs' results accept one of two Elo differences. A match that was
// stopped goes on from the records of its games (Resume, Config.Played).
//
// How a game ends besides the board's own ends:
//
//   - a game longer than Config.MaxPlies plies is adjudicated a draw (the
//     board's draw rules, repetition and no progress, end most games long
//     before that);
//   - a player that answers an illegal move, fails to answer in time, or
//     crashes loses the game, and the failure is reported with the game;
//   - an external engine that answers no move ("bestmove (none)") where our
//     rules play on claims a draw by its own rules (Sanmill's no-progress
//     count differs from ours): the game is a draw by agreement, counted
//     apart as a claimed draw (Tally.Claimed, Game.Claim, the record's
//     comment), never the engine's loss.
//   - where a player's spec knows that its rules part from ours
//     (Spec.Disputes, e.g. Differences("sanmill")), the game ends as a
//     disputed draw at the first move the two rule sets score differently,
//     or at an illegal answer where a legal move would be so disputed
//     (Tally.Disputed, Game.Dispute, the record's comment): past that move
//     the programs play different games.
//
// Where things are:
//
//	player.go    Player; the engine, random and greedy players
//	external.go  an external engine over its standard input and output
//	perfect.go   Perfect: perfect play from the databases of the whole game
//	errors.go    Errors: errors per 1,000 moves against those databases, by player and phase, from records
//	convert.go   WonPositions, Convert: a player from the won positions of records against the perfect defence
//	differences.go  Differences: where an outside program's rules part from ours (Sanmill's one-time mills, full board)
//	spec.go      players from text specs: level:N, perfect:DIR, random, greedy, cmd:PATH ARGS
//	match.go     openings, Run, results
//	balanced.go  Balance: random openings kept when a search finds them as even as the start
//	resume.go    Resume: the games of a stopped match, from their records
//	elo.go       the Elo difference and its margin
//	sprt.go      the sequential test (GSPRT) on pairs of games that stops a match
package match
