// Package loadgen is the game server's load generator: concurrent games
// played over the HTTP API by pairs of users making random moves, every
// move sent with its ply (so stored durably before it is answered), for a
// warm-up and then a measured span. It measures the moves a second, the
// latency of the move requests, with a stream a game the time from a move
// sent to its event on the game's stream, and the servers' memory (from
// their /metrics). Several servers sharing a database can be driven at
// once: a game's white player sends to one, its black player to the next,
// and its stream is open on the black player's, so that white's moves
// cross from one process to another.
//
// Run takes a Config and returns a Result, which WriteTo prints as morris
// bench-server does (the command is a thin wrapper over this package,
// which starts a server of its own when given no URL).
//
// # Where things are
//
//	loadgen.go  Config (Validate, String, Connections) and Run: the users, the games and their schedule
//	client.go   the API's calls (JSON, a user's own client and address), the streams watched, /metrics read
//	result.go   Result and its report (WriteTo): moves a second, percentiles, memory a game
//
// # Tests
//
// loadgen_test.go runs a small load against a server in the test's
// process (SQLite in a temporary folder), checks the report's lines,
// Config.Validate and the memory line's cases. cmd/morris's tests run the
// command against the server it starts itself, with and without the
// server's limits.
package loadgen
