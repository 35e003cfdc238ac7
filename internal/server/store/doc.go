// Package store is the durable storage of the game server: accounts,
// tokens, games and their moves, offers, chat, ratings, followers,
// challenges, clubs, players following players, when players were last
// seen, their results and rating history, on SQLite (modernc.org/sqlite, no cgo) by default
// challenges, clubs and tournaments, on SQLite (modernc.org/sqlite, no cgo) by default
// or on PostgreSQL (pgx through database/sql) when Open is given a
// postgres:// URL. It knows nothing of the rules: moves, positions, rules and results
// are the rules core's texts, stored as they are given.
//
// # Durability
//
// Every method is one transaction, committed when the method returns
// without error; the server acknowledges a move only after AppendMove has
// returned, so an acknowledged move survives a killed process (the crash
// test kills one with SIGKILL in the middle of its writes) and, on SQLite
// with synchronous=FULL and PostgreSQL's default synchronous_commit=on, a
// power cut too. SQLite runs in WAL mode, and the writes of concurrent
// callers share one commit and one fsync (batch.go), which is what makes
// thousands of durable moves a second possible on one disk.
//
// A disk without room refuses the writes with ErrFull and stores nothing of
// them; reads go on, and writes succeed again by themselves once there is
// room (disk.go). A slow disk makes each commit wait longer, never commit
// twice: a caller that gives up still waits for the answer (batch.go), and
// a move carries the ply it is for.
//
// # Concurrency
//
// The store does not serialise a game's moves (the service does, one owner
// per game), but it never stores two moves at one ply: AppendMove,
// FinishGame, TakeBackMoves and SetOffer carry the ply the caller last saw
// and fail with ErrConflict if the game has moved on or is over, changing
// nothing. Several server processes can share one PostgreSQL database: ids
// come from a counters table inside the transactions, migrations run under
// an advisory lock, and nothing is kept in memory between calls.
//
// # Schema
//
// migrations/ holds the goose migrations, embedded and run by Open; the
// same SQL runs on both databases (the first migration says which types
// that allows). They may run out of order: branches number their
// migrations as they go and merge in any order, so a database that has
// 00013 takes 00012 when it comes. The tables:
//
//	counters       the last id given per table; games start at 101
//	users          id, name (unique ignoring case through name_key), argon2id hash, email, bot,
//	               deleted_at (a deleted account's row stays as a tombstone, its name still taken);
//	               moderator (set by the operator), muted_until, closed_at (by a moderator)
//	tokens         API tokens by hash: user, created, expires
//	games          players, variant, rules, start position, seed, rated, status, result,
//	               method, time control, clocks, ply (moves stored), version, times
//	moves          (game, ply) primary key: move text, played at, both clocks after it, version
//	offers         (game, kind) pending draw and take-back offers: side, ply, time
//	chat           (game, version) messages
//	ratings        (user, variant) Glicko-2 r, RD, σ, games played
//	subscriptions  (game, user) followers: every move or only the end
//	challenges     to a user or to anyone (a seek): rules, side, clock, status, game started
//	engine_jobs    games whose turn is the engine's, at a ply: who took it, until when (a lease)
//	analysis_jobs  analyses handed from a busy process to a free one: request, taker, answer
//	explorer       (game, ply) the positions of finished games: rules, position key, move, result;
//	               indexed by (rules, position key); games.explored marks the games put there
//	queued_moves   a player's move stored to be played when their turn comes (pbmserv queue)
//	vacations      a user's vacations: from, to (the correspondence timers stop meanwhile)
//	challenge_prefs    (user, variant) the pbm challenges a user takes: a limit, every challenger or none
//	challenge_filters  (user, variant, challenger) the challengers allowed or refused by name
//	reviews        the engine's reviews of games and records: status, taker, the marks, a failure's reason
//	puzzles        positions from perfect play with their winning line, rating, plays and solves
//	puzzle_ratings (user) a player's Glicko-2 puzzle rating
//	puzzle_attempts  (user, puzzle, number) each try at a puzzle: rated or not, solved or not
//	blocks         (user, blocked) who blocks whom
//	reports        players' reports of a player or of a chat line (the line copied as evidence):
//	               reason, text, open or resolved, by whom and with what note
//	warnings       moderators' warnings to players, until acknowledged
//	mod_actions    the moderators' log: who (NULL: the operator), what, whom, which report, note, when;
//	               nothing deletes a line of it
//	annulled_games (game) the games an annulment (a line of mod_actions) made unrated
//	clubs          name (unique ignoring case, spaces and punctuation through name_key, ClubKey),
//	               description, open or closed, creator, count of members
//	club_members   (club, user) members, each a leader or not, since when
//	club_requests  (club, user) requests to join a closed club, waiting for a leader's answer
//	follows        (user, followed) players following players (the lobby shows their games)
//	last_seen      (user) when a player was last seen (the service writes it now and then)
//	results        (user, variant, side) a player's wins, draws and losses by preset and colour
//	rating_history (user, game) a player's rating after each rated game, at its end
//	tournaments    an event as its organiser made it (kind, rules, clock, rounds or duration, start,
//	               club, rating band, size), its status, rounds paired, seed, count of players and version
//	tournament_players  (tournament, user) the field: rating, Berger number, first round, withdrawn
//	tournament_pairings (tournament, round, board) a game (unique) or a bye; arena berserks. Points
//	               and tie-breaks are not stored: they follow from these and the games' results
//
// games.ended_at is the time of a game's end (0 while it is on), written
// once: the archive's order, in indexes of the finished games only
// (games_archive, by preset, by white, by black); the active games have
// indexes by white and by black for the games of the players one follows.
//
// Times are stored as Unix milliseconds and durations as milliseconds.
// Each change to a game (move, take-back, offer, chat, end) adds one to its
// version, and moves and chat messages keep the version they made, so a
// stream that saw version v can be sent what came after.
//
// # Where things are
//
//	store.go       Open (DSNs, SQLite settings, migrations), Close, transactions, errors
//	redact.go      RedactDSN: a DSN fit for the logs, its passwords hidden
//	batch.go       group commit of SQLite writes
//	checkpoint.go  the SQLite log copied into the database beside the writes; failed and starved checkpoints
//	disk.go        a full disk (ErrFull, logged once, writes resume by themselves); the files' modes (0600, 0700)
//	room_unix.go   the room left on the database's disk (room_other.go: unknown elsewhere)
//	users.go       users and tokens
//	accounts.go    a new password (the other tokens deleted with it), signing out everywhere, deleting an account
//	games.go       games, moves (AppendMove), the end, take-backs, offers, chat, Snapshot
//	chat.go        a game's chat kept bounded (AddChatKeeping) and read by pages (ChatPage)
//	ratings.go     ratings and standings
//	explorer.go    the opening explorer: finished games' positions in, a position's moves out
//	follow.go      subscriptions
//	challenges.go  challenges and seeks
//	queue.go       queued moves, reminders, vacations, and the pbm challenge prefs (an
//	               opt-in: a player without them takes no pbm challenge)
//	notify.go      Notify and Listen: news between the processes sharing a PostgreSQL database
//	jobs.go        the engine's turns as jobs any process takes (FOR UPDATE SKIP LOCKED), with leases,
//	               round robin by player
//	reviews.go     the engine's reviews of games and records: asked for, taken, done or failed
//	puzzles.go     puzzles, players' puzzle ratings and attempts
//	moderation.go  the moderator's flag, mutes, closed accounts, warnings, reports, the moderators' log
//	               (each action and its line in one transaction)
//	blocks.go      blocks: added (bounded), lifted, listed, looked up both ways
//	annul.go       a player's rated games annulled, and the variant's rated games read in the order
//	               they ended and its ratings replaced by the service's replay (guarded by a mark)
//	clubs.go       clubs, their members and leaders, requests to join; a club with members keeps a
//	               leader (ErrLastLeader) and goes with its last member; each change locks the club's row
//	friends.go     players following players (a friend; follow.go is following a game): added (bounded,
//	               refused across a block), ended, listed both ways, the games going on of those followed
//	presence.go    when players were last seen, and those seen since a time (the players online)
//	stats.go       what a game's end writes beside its row (ratings, results, rating points); a player's
//	               results and rating history; the history of old games filled in once; the leaderboard
//	archive.go     the finished games searched (player, opponent, colour, preset, result, dates) in pages
//	               by key, each walking at most a bound of index rows whatever the filters
//	tournaments.go tournaments: events, entries and withdrawals, the start and each round paired with
//	               their games in one transaction, the end; each a compare-and-set on the event's version,
//	               so that racing processes make a change once; the sweep's due events; berserk; records
//	statements.go  the statements of the hot path (a move's UPDATE), prepared once
//
// # Tests
//
// Every test runs against SQLite in a temporary folder, and against
// PostgreSQL when MORRIS_TEST_POSTGRES holds a DSN, each test in a schema
// of its own:
//
//	export MORRIS_TEST_POSTGRES=$(bash .ci/postgres.sh)   # as root: installs, starts, prints the DSN
//	go test -race ./internal/server/store
//	go test ./internal/server/store -run '^$' -bench AppendMove -benchtime 3s
package store
