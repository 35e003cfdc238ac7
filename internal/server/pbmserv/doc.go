// Package pbmserv is the pbmserv gateway of the game server: a thin layer
// that parses command lines of the pbmserv language (internal/server/pbmserv/pbm) and
// executes them against the game service (internal/server), on a TCP port
// and on POST /pbm. It keeps no game state: authentication, legality,
// turns, offers, ratings and storage are the service's; what the gateway
// adds is the language's view of them (boards numbered from 101, moves
// numbered from 1, boards printed with pbm.Board) and, for a connection,
// the boards it follows.
//
// Where things are:
//
//	gateway.go  Gateway, New, Exec: one line parsed, rate-limited
//	            (Service.Allow by the client's address) and dispatched;
//	            errors as "error: ..." lines; the board's game-name check,
//	            MOVE#N to the service's ply
//	play.go     signup, change password, challenge (signed in; --nagtime,
//	            --forfeittime; --totaltime refused), move and its actions
//	            (propose, undo, accept, reject, resign), queue, chat,
//	            limit, accept, reject, seek
//	show.go     show BOARD[#N], show USERID [active], preview, history,
//	            games, standings and ratings
//	tournaments.go  tournaments (a game's events that take entries or run; with N, one with its
//	            boards and standings), join, withdraw; creating and running events is the API's
//	session.go  Session: a client's address and the boards its connection
//	            follows; subscribe, notify, unsubscribe; the watcher that
//	            turns the service's game stream into pushed lines
//	help.go     the help answers
//	tcp.go      Serve: the TCP line server (greeting, a line of at most
//	            pbm.MaxLine bytes, idle timeout, TCP keep-alives, one
//	            writer per connection, the address's quota of
//	            connections shared with the HTTP streams:
//	            server.Service.Conns) and the framing of answers
//	http.go     HTTPHandler: POST /pbm, the lines of a text/plain body
//
// # On the wire
//
// A TCP client reads the greeting line
//
//	morris pbmserv gateway: type help
//
// and then sends command lines; each line gets one answer, whose lines
// are followed by a line holding a single dot (a line of the answer that
// starts with a dot gets a second one, as in SMTP). An answer starting
// "error: " changed nothing. Between answers, never inside one, the
// connection may be pushed lines starting "* ": the news of the boards it
// follows (subscribe: every move, message, offer, take-back and the end;
// notify: the end only), one line each, the star and a space and then
//
//	nmm board 101: move 5, White (W) ann: D2
//	nmm board 101: game over: White (W) ann wins (1-0) by blocked
//
// A connection that follows no board and is silent for
// Gateway.IdleTimeout, or one that sends a line longer than pbm.MaxLine,
// is told why and closed. One that follows boards stays, and TCP
// keep-alives (Gateway.KeepAlive) end it if its client has vanished. A
// connection from an address that holds its quota of connections and
// streams already (server.Quotas.ConnsPerAddr) reads
//
//	error: this address holds 100 connections and streams, its most: closing the connection
//	.
//
// instead of the greeting, and is closed. A subscription without USERID
// PASSWORD lasts as long as its connection; with them it is the user's,
// kept by the service, and comes to their account stream.
//
// POST /pbm takes one or more command lines as a text/plain body of at
// most 64 KiB and answers with their answers, framed the same way; a
// subscription there needs USERID PASSWORD.
//
// # Choices
//
// A challenge starts a game at once, so it is the one command that acts in
// another player's name: the challenger signs in (challenge USERID
// PASSWORD OPPONENT; pbmserv's USERID1 USERID2 without a password is
// refused), and the opponent must have opted in to challenges of that
// game (accept, limit, or the setting of the HTTP API and web client); a
// new account takes none. A connection keeps no sign-in between lines:
// every command that acts names its USERID PASSWORD.
//
// A challenge under the preset's own rules is rated; one with rule
// options is not, since its games do not belong in the preset's rating
// list. When only one timer is given, the other default gives way so that
// the reminder comes before the forfeit (--forfeittime=3 reminds after 2
// days). Accept, reject, undo and propose take #N too: the gateway checks
// it against the board before asking the service, which takes no move
// number for them. A player's queued move replaces the one before.
package pbmserv
