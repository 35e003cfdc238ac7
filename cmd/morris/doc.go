// Command morris is the Morris program: the rules engine's command line
// (variants, show, moves, perft, replay), the engine's (engine, analyze,
// solve, book, match, match-errors, play) and the server's (serve, puzzles,
// admin, bench-server). See the usage text in cli.go.
//
// Where things are:
//
//	main.go         main: os.Args, the standard streams and the context handed to run; the signals (an
//	                interrupt or SIGTERM cancels the context of the commands that stop cleanly on it,
//	                a second ends the process; the other commands end with the process at once)
//	cli.go          the usage text, the table of commands (which stop on their context), run(ctx, ...),
//	                help COMMAND and the exit codes; the position flags; variants, show, moves, perft, replay
//	engine.go       engine: the engine protocol on standard input and output (internal/engine/uci)
//	analyze.go      analyze: a position's best move, score and principal variation; with -record, each
//	                move of a game against the engine's choice
//	play.go         play: a game against the engine in the terminal (full screen, or lines with -plain): the board
//	                with the last move marked and the moves beside it, the hint's score in pieces for a side
//	match.go        match: two players in a match (internal/engine/match), SPRT, records, resuming
//	matcherrors.go  match-errors: errors per 1,000 moves against the databases, from matches' records
//	solve.go        solve: endgame databases built (egdb), resumable, a progress bar and the summary
//	book.go         book: an opening book built by the engine's analysis (resumable), or shown (-show)
//	tablebase.go    the endgame databases opened for the engine, their checksums checked in the background
//	serve.go        serve: the game server (flags and their environment variables, the databases, the
//	                store, the service, the HTTP and pbmserv gateways, pprof on its own address, shutdown)
//	quotas.go       serve's flags of the quotas, each with its environment variable
//	rlimit_unix.go  the open-file limit, which bounds the streams serve holds (rlimit_other.go: unknown)
//	puzzles.go      puzzles: puzzles made from the databases (or from finished games) into the server's store
//	admin.go        admin: the operator's command on the server's store: who is a moderator (mod, unmod, mods),
//	                the only way to make one (never over HTTP), each change in the moderators' log
//	benchserver.go  bench-server: the load generator of internal/server/loadgen on the command line,
//	                against -url or a server started in this process
//
// The long commands are each split the same way: parseXFlags reads the
// flags into an xConfig, its validate checks them (a usage error, exit 2,
// before anything is opened or written) and resolves what they name, and
// its run does the work with the context main passes down.
package main
