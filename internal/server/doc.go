// Package server is the game service: it owns games, players and their
// rules, and every gateway (the pbmserv text commands of internal/server/pbmserv,
// the HTTP API, NDJSON streams and WebSocket of internal/server/httpapi, the web
// client) is a thin layer over it. The gateways import the service, never
// the store: what they need of the store's words (Game, TimeControl,
// OfferKind, FollowKind, Active and Finished, ErrFull) the service gives
// under its own names, and converts at its edge.
//
// # A change to a game
//
// Each game has one owner in a process (owner.go): a mutex and a copy of
// the stored game replayed by the rules core. A change is checked by the
// rules core, written to the store with the ply the owner saw (so it is
// durable before it is acknowledged, and a retried or concurrent request
// cannot store a move twice), then announced to the game's listeners. The
// owner is only a cache: on SQLite the process is the only writer; on
// PostgreSQL, shared by several processes, a call that fails is run once
// more on a copy read afresh (Service.stale), and streams read what they
// missed from the store.
//
// # Where things are
//
//	service.go     Config, New, Start (resumes the stored games), Close; accounts, tokens, guests, vacations
//	account.go     a new password, signing out everywhere, deleting an account; revoked tokens refused at
//	               once on every process (the token cache, the relay's notice) and their streams ended
//	owner.go       the owner of a game: load, replay, the shared-store check
//	play.go        moves (Move, with the expected ply), resign, claim victory, offers (OfferKind) and their answers,
//	               take-backs, chat, queued moves; the end of a game and its Glicko-2 ratings
//	challenges.go  GameSpec and TimeControl; challenges, seeks and their pairing, games against the engine, pbmserv challenges
//	               (by a signed-in challenger, to a player who opted in) with limit/accept/reject,
//	               and those prefs for the API
//	follow.go      following a game (FollowKind: pbmserv subscribe/notify)
//	timers.go      real-time flags (a timer per game, and a sweep for the flags of dead processes) and the
//	               correspondence sweeper (reminders, forfeits, vacations)
//	engine.go      the engine's moves off the request path: a bounded pool of workers taking the
//	               engine's turns as jobs from the store (any process sharing it); the engine
//	               as morris engine builds it, and the gate of the endgame databases per game's rules
//	analysis.go    the analysis board's engine, one search at a time (admitted by quotas.go)
//	events.go      the JSON of changes (internal/server/wire) and who is told
//	hub.go         the in-process fan-out of events to listeners (news only: the store has the truth)
//	relay.go       the events of processes sharing a PostgreSQL database, carried between them (NOTIFY)
//	streams.go     WatchGame (full game, then every change, resumable from a version) and WatchAccount
//	queries.go     reads: Game and GameView, a game in full, lists, standings, ratings, records
//	pbm_support.go what the pbmserv gateway reads beside the API's calls (a game's row without its moves)
//	explorer.go    the opening explorer: finished games' positions counted as they end, Explore
//	review.go      game reviews by the engine (a finished game's or a record's), the reviewer worker
//	puzzles.go     puzzles from perfect play: the next, the daily, attempts and their Glicko-2 ratings
//	clubs.go       clubs: names and descriptions checked, creating, joining (open at once, closed by a
//	               request), leaving, a leader's answers, removals and leaders; the last-leader rule's
//	               words; the quotas of clubs led, joined and requested, and the rate of creation
//	tournaments.go tournaments: the four kinds and their specs checked, creating, joining (late into a
//	               Swiss or an arena), withdrawing, the organiser's start and pairing, berserk, lists and
//	               views; the quotas of events organised and joined, the rate of creation
//	director.go    the tournament director: starts events at their time, pairs each round when the last
//	               game of the one before ends, pairs an arena's free players, resigns withdrawn players'
//	               games, ends events; from the store alone, each step a compare-and-set (so a restart, or
//	               two processes, pair a round once), woken by games' ends and a sweep
//	standings.go   an event's standings and crosstable counted from its pairings and results (never
//	               stored), arena sheets, the exports (records, CSV), and the event's stream of changes
//	limits.go      rate limits (token buckets by kind and hashed key, bounded in memory), the cache
//	               of checked passwords and of tokens; service.go bounds argon2id (hashing)
//	quotas.go      the quotas beyond the command rate: chat (a rate per player and game, the chat after
//	               the end, the history kept and paged), draw and take-back offers, vacations, the
//	               analysis queue (per address, and the wake of an answer from another process), reviews
//	               per address, puzzle moves
//	held.go        the quotas of what one user or address holds at once (Conns, the streams and TCP connections
//	               per address both gateways count; games against the engine and open challenges per
//	               user), challenges' expiry and abandoned engine games (both run by the sweeper)
//	metrics.go     Prometheus metrics
//	errors.go      Error and its Kind (an HTTP status, a pbmserv error line), ErrFull
//	recover.go     Safely: the recovery of panics in the goroutines off the request path (engine workers,
//	               reviewer, explorer, timers, relay, the gateways' WebSocket readers and follows)
//	moderation.go  moderation: who may (a moderator, set by the operator, read from the store at each
//	               call; never on themselves, another moderator or the engine), reports (reasons, text,
//	               the chat line kept as evidence, open at most, their rate), warnings (on the account
//	               stream until acknowledged), mutes (checked by Chat), closed accounts (tokens revoked on
//	               every process, games ended by abandonment), the queue and the moderators' log, paged
//	blocks.go      blocks and what they keep apart: challenges, seeks and their pairing, the lobby; the
//	               blocked player's chat lines left out of the blocker's full game, chat pages and
//	               streams (Viewer, the chat mask)
//	annul.go       a player's rated games annulled, and the variant's ratings replaced by the replay of
//	               its rated games in the order they ended: what is exact, and its edges (the rating
//	               history replaced with them)
//	presence.go    who is online: what it means (a live connection, or a call in the last 5 minutes),
//	               the times seen kept in memory and written to the store now and then for every process,
//	               the players online read from it at most every 2 s; a player's presence
//	friends.go     players following players (capped, at a rate, refused across a block), the lists, the
//	               games going on of those followed, and their starts and ends on the account stream
//	leaderboard.go the leaderboard of a preset: enough games, a rating not provisional; a copy per process
//	stats.go       a player's results by preset and colour, their rating history, and the history of the
//	               games rated before it was kept, filled in once at start
//	archive.go     the archive of finished games searched, the client's search checked, the pages' keys
//
// # Tests
//
// community_test.go checks follows (every refusal changing nothing, the
// rate), the followed games on the account stream (once, never one's own
// nor with a blocked player, a follow or block counting at once, across
// two processes on PostgreSQL), who is online (a token's call, a stream,
// the window, guests, closed accounts, blocks, pages, across processes),
// the leaderboard's rules and copy, a player's results and rating history
// (what the ends wrote is the replay; an annulment replaces it), and the
// archive's search as a client gives it.
// moderation_test.go checks reports, blocks, mutes, warnings, closed
// accounts and who may moderate, and that the ratings after an annulment
// are the fold of the other rated games (and, before it, that the fold of
// them all is what the games' ends wrote), on both databases.
// background_test.go makes the work off the request path fail as bugs and
// failing disks would (a panic, a move the store refuses, a request
// cancelled in the middle) and checks that the process and the games go
// on. service_test.go, challenges_test.go, timers_test.go,
// engine_test.go, clubs_test.go and tournaments_test.go run on SQLite and, with
// MORRIS_TEST_POSTGRES set, on PostgreSQL (internal/server/store/storetest);
// the gateways' suites and
// cmd/morris's end-to-end, crash and two-process tests drive the service
// over real sockets; internal/server/servertest starts the service (a
// store, settings for tests, an httptest server, a log) for those suites;
// this package's tests start theirs in service_test.go (they cannot import
// a package that imports this one). tablebase_test.go builds a small
// endgame database and checks the server's engine against morris engine's
// (internal/engine/uci), with it and without.
package server
