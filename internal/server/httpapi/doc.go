// Package httpapi is the HTTP face of the game service: JSON endpoints
// under /api/ in the style of lichess's Board API, NDJSON streams, a
// WebSocket per game for browsers, and the operating endpoints. It holds
// no state: each handler authenticates, reads and checks its input
// strictly (unknown fields and trailing data refused, 16 KiB at most), and
// calls internal/server. docs/api.md documents every endpoint with curl
// examples.
//
// # Where things are
//
//	api.go       New (the routes), errors as {"error": ...} with their status, JSON bodies, tokens, rate limits
//	errors.go    what a client is told of an error: the service's words, "internal error" and a request id, decoder errors reworded
//	handlers.go  accounts and tokens, challenges and seeks, the engine, moves and offers, lists and ratings;
//	             whom the caller takes pbm challenges from (/api/account/pbm-challenges)
//	account.go   a new password, signing out everywhere, deleting the account; streams that end with their token
//	streams.go   the game stream and the account stream (NDJSON), the game's WebSocket; each counted
//	             against its address's quota (server.Service.Conns, 429) and MaxStreams (503)
//	study.go     boards as data, positions with their legal moves, analysis, records, guest accounts
//	puzzles.go   puzzles: the daily one, the next to try, the moves of an attempt, a player's history
//	quotas.go    the pages of a game's chat (GET /api/game/{id}/chat)
//	moderation.go  reports (POST /api/report), blocks and warnings (/api/account/blocks, /api/account/warnings),
//	             the moderators' endpoints (/api/mod/: the queue, resolutions, warn, mute, close, reopen, annul,
//	             the log), 403 to anyone else before the call is read; the viewer of a game (its token) whose
//	             blocks hide chat lines in GET /api/game/{id}, its chat's pages, its stream and WebSocket
//	clubs.go       clubs: create, list and search, a club with a page of its members (and, for its
//	               leaders, the requests), join, leave, a leader's accept/decline, remove and leader
//	community.go   who is online (GET /api/online), follows (/api/account/following, /followers, the
//	               followed players' games going on), the leaderboards, the archive of finished games,
//	               a player's results and rating history; a player's profile (handlers.go) says online
//	               or last seen, and the follows' counts
//	tournaments.go tournaments: create, list, an event in full, join, withdraw, the organiser's start
//	               and pair, an arena's berserk, the event's stream (NDJSON), its records, standings as
//	               CSV and JSON
//
// # Tests
//
// api_test.go plays a whole game of every preset over real sockets, with
// HTTP and WebSocket moves mixed while spectators and a reconnecting
// stream watch, on SQLite and PostgreSQL; prefs_test.go opts in to pbm
// challenges and challenges over POST /pbm; clubs_test.go runs a closed
// club's life on SQLite and PostgreSQL (who may call what, bad input
// refused and changing nothing, the last-leader rule), the pages of
// members and clubs, and the quotas and rate of clubs; community_test.go
// checks follows (every refusal changing nothing), who is online, the
// followed games on the account stream, profiles, the archive's pages
// and refusals, statistics and the leaderboard, on SQLite and PostgreSQL;
// members and clubs, and the quotas and rate of clubs; tournaments_test.go
// runs a Swiss over real sockets on SQLite and PostgreSQL (who may call
// what, bad input refused and changing nothing, the event's stream and
// exports, the list's pages);
// moderation_test.go checks the moderators' endpoints against players
// (403, nothing changed), reports and the queue, a closed account's
// tokens refused at once and its streams ended, annulled games' ratings,
// and blocks in every way a game's chat is read; fuzz_test.go sends
// arbitrary bodies to every endpoint that reads one (go test -fuzz
// FuzzBodies).
// example_test.go is the bot of docs/bot.md (Example_bot): a whole game
// against the engine over HTTP, its moves chosen by package search.
package httpapi
