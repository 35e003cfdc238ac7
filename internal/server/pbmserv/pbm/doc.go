// Package pbm is the pbmserv command language of the game server, as a pure
// parser and printer: Parse reads one command line into a Command,
// Command.String prints its canonical line (Parse gives the Command back),
// and Board prints a position the way pbmserv shows it. It keeps no server
// state: the game service authenticates, checks legality and executes.
//
// Where things are:
//
//	games.go    the game names (nmm, tmm, ...) and the presets they play
//	command.go  Command, the verbs and the move actions, Usage, Command.String
//	parse.go    Parse, the syntax of each argument, SyntaxError
//	board.go    Board and its Header: a position as pbmserv prints it
//
// The rest of this comment is the help a user reads (the server's help
// answer).
//
// # Commands
//
// Every command is one line of words separated by spaces, most of them
//
//	GAME COMMAND ARGUMENTS...
//
// where GAME names the game, and with it the board and the rules (see
// Games). signup, change password and help need no game. Game names, commands, option names
// and moves may be typed in any case. A line is at most 4096 bytes of UTF-8
// text with no control characters (a tab counts as a space).
//
// The arguments:
//
//	USERID    a user id: 2 to 20 letters, digits, _ or -, starting with a
//	          letter; ann and Ann are the same user
//	PASSWORD  your password: any word without spaces, at most 128 bytes;
//	          a new one has 8 bytes at least
//	BOARD     a game's number: 101 or more
//	MOVE      a move (see Moves)
//	MOVE#N    the move, played only if it is move N of the game; moves are
//	          numbered 1, 2, 3... counting both players' moves, and the
//	          board shows the number of the move to play. A command sent
//	          twice by mistake then fails the second time instead of
//	          playing again.
//	BOARD#N   the board as it was when move N was to be played
//
//	signup USERID PASSWORD [EMAIL]
//
// Create an account, with an e-mail address if you want one kept.
//
//	signup ann chocolate ann@example.com
//
//	change password USERID PASSWORD NEWPASSWORD
//
// Choose a new password (8 to 128 bytes, no spaces). Every session of the
// account elsewhere (the web client, the HTTP API) is signed out with it.
//
//	change password ann chocolate strawberry
//
//	[GAME] help [COMMAND]
//
// This help; for one command, or one game (help nmm).
//
//	help move
//
//	GAME challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]
//
// Start a game against OPPONENT at once: there is no step where the
// challenge is accepted, so OPPONENT must have said that they take
// challenges of this game (see limit, accept and reject; a new account
// takes none). USERID is you, the challenger, with your password; you move
// first, unless the rules draw lots. The answer gives the new board's
// number. The double-dash options set the timers in days: a reminder to
// the player to move after --nagtime days without a move (7 by default),
// the game lost after --forfeittime days (21 by default), and the days the
// whole game may take (--totaltime, no limit by default); D is 1 to 1000.
// The single-dash options change the rules of the game (see Rule options).
// pbmserv's form without a password, challenge USERID1 USERID2, is
// refused: it let anyone start games in two other players' names.
//
//	nmm challenge ann chocolate bob
//	nmm challenge ann chocolate bob --nagtime=3 --forfeittime=10 -flying=never
//
//	GAME move BOARD USERID PASSWORD MOVE[#N]
//
// Play a move in one of your games.
//
//	nmm move 101 ann chocolate D2
//	nmm move 101 ann chocolate A7-D7,B2#23
//
//	GAME move BOARD USERID PASSWORD propose|undo|accept|reject|resign[#N]
//
// Instead of a move: propose offers a draw, undo asks to take back the last
// move, accept and reject answer the opponent's proposal or undo, resign
// gives up the game. #N may follow these words too (undo#24).
//
//	nmm move 101 bob secret propose
//	nmm move 101 ann chocolate accept
//
//	GAME queue BOARD USERID PASSWORD MOVE[#N]
//
// Store a move to be played for you when your turn comes; it is dropped if
// it is not legal then.
//
//	nmm queue 101 ann chocolate F4
//
//	GAME show BOARD[#N]
//
// Print a board: the players, the pieces on the board and in hand, the
// last move and whose turn it is; with #N as it was at move N.
//
//	nmm show 101
//	nmm show 101#9
//
//	GAME show USERID [active]
//
// List a player's boards; with active only the games still being played.
//
//	nmm show ann active
//
//	GAME preview BOARD MOVE...
//
// Try moves on a copy of a board and print the result; the game does not
// change.
//
//	nmm preview 101 D2 F4 D3,F4
//
//	GAME history
//
// List the finished games.
//
//	nmm history
//
//	GAME games USERID
//
// List a player's games.
//
//	nmm games bob
//
//	GAME standings
//	GAME ratings
//
// The rating list of the game (the two are the same).
//
//	nmm standings
//
//	GAME subscribe BOARD [USERID PASSWORD]
//
// Follow a game: be sent every move. Without a user id the following lasts
// as long as this connection; with one it is kept for that user.
//
//	nmm subscribe 101
//	nmm subscribe 101 carol pass123
//
//	GAME notify BOARD [USERID PASSWORD]
//
// Be told only when the game ends.
//
//	nmm notify 101 carol pass123
//
//	GAME unsubscribe BOARD [USERID PASSWORD]
//
// Stop following a game (after subscribe or notify).
//
//	nmm unsubscribe 101 carol pass123
//
//	GAME limit USERID PASSWORD N
//
// Take challenges of this game while playing fewer than N games of it; 0
// takes none. N is 0 to 1000. Setting a limit takes challenges from anyone
// (up to it) if you had not said whom before.
//
//	nmm limit ann chocolate 5
//
//	GAME accept USERID PASSWORD [CHALLENGER...]
//
// Take challenges from the users named, or without names from anyone (up
// to your limit). Until you do (or set a limit), no one may challenge you
// to this game by command.
//
//	nmm accept ann chocolate bob carol
//
//	GAME reject USERID PASSWORD [CHALLENGER...]
//
// Refuse challenges from the users named, or without names from everyone.
//
//	nmm reject ann chocolate dave
//
//	GAME seek USERID PASSWORD N
//
// Ask for N more games against whoever else seeks one; the server pairs
// seekers of the same game. 0 withdraws the seek. N is 0 to 100.
//
//	nmm seek ann chocolate 2
//
//	GAME chat BOARD USERID PASSWORD TEXT
//
// Send the rest of the line to the players and followers of a game.
//
//	nmm chat 101 ann chocolate Good game! A rematch?
//
//	GAME tournaments [N]
//
// List the tournaments of the game that take entries or are running:
// their numbers, kinds, clocks, players and when they start. With N, one
// of them: its rounds and boards, and its standings.
//
//	nmm tournaments
//	nmm tournaments 3
//
//	GAME join N USERID PASSWORD
//
// Enter tournament N. Its games come as boards of the game like any
// other: show USERID active lists them, and they are played with move.
//
//	nmm join 3 ann chocolate
//
//	GAME withdraw N USERID PASSWORD
//
// Leave tournament N: before its start the entry goes; after it you
// resign your games going on in it and are paired no more.
//
//	nmm withdraw 3 ann chocolate
//
// # Games
//
// Each game has a short name; its preset name works too (nine-mens-morris
// move 101 ...).
//
//	nmm         nine-mens-morris          the tournament game: 9 men, fly at 3
//	tmm         twelve-mens-morris        12 men on the board with diagonals,
//	                                      diagonal mills, fly at 4, first player
//	                                      by lot
//	tmms        twelve-mens-morris-small  12 men, board with diagonals, fly at 3
//	tmml        twelve-mens-morris-large  12 men on the large board of four
//	                                      squares
//	twelve      twelve-man-morris         12 men, diagonal mills, no flying, any
//	                                      piece may be taken
//	nmmd        nine-man-morris-diagonal  9 men, board with diagonals that make
//	                                      no mills, no flying
//	shah        shah                      Shax: 12 men, no captures while placing
//	mill        mill                      9 men, diagonals for moving only, no
//	                                      flying
//	lasker      lasker                    10 men; place or slide while men are
//	                                      in hand
//	mora        morabaraba                12 men, diagonal mills, one capture per
//	                                      mill
//	russian     russian-mill              each mill line captures only once per
//	                                      side
//	three       three-mens-morris         3 men on 3x3 points; a mill wins the
//	                                      game
//	tapatan     tapatan                   the same with diagonals to move along
//	                                      and to make mills
//	six         six-mens-morris           6 men on two squares, no flying
//	seven       seven-mens-morris         7 men on two squares and a cross, no
//	                                      flying
//	dooz        dooz                      Iran: 12 men, diagonal mills, fly at 3;
//	                                      a mill while placing takes a piece
//	                                      from the opponent's hand
//	chengsanqi  cheng-san-qi              China: nine men's morris without flying
//	dasanqi     da-san-qi                 China: 12 men, diagonal mills, no
//	                                      flying; a mill while placing marks a
//	                                      piece (X) that leaves when placing
//	                                      ends; the second player moves first
//	zhiqi       zhi-qi                    China: 12 men, diagonal mills, fly at
//	                                      3; a full board makes each side remove
//	                                      a piece; a side that cannot move
//	                                      removes a piece next to its own, then
//	                                      moves
//	elfilja     el-filja                  Morocco: 12 men, no flying; mills while
//	                                      placing are counted, and both sides
//	                                      remove pieces by the count when
//	                                      placing ends
//
// # Moves
//
// A point is named by its file letter and rank number as printed around
// the board; pbmserv prints rank 1 at the top.
//
//	D2          place a piece on D2
//	D2-F2       move (slide or fly) the piece on D2 to F2
//	D3,G1       place on D3, closing a mill, and take the piece on G1
//	A7-D7,B2    move and take
//	D3,G1,A1    take two pieces (mora: one per mill closed)
//	D1,A7       place on D1, closing a mill, and mark the piece on A7
//	            (dasanqi: it stays on the board as X until placing ends)
//	D1          place on D1, closing a mill that takes a piece from the
//	            opponent's hand (dooz: nothing is named)
//	X,D2        only take a piece: a removal, a move of its own (shah,
//	            zhiqi and elfilja when placing ends; zhiqi when you cannot
//	            move; in elfilja with no mills, one of your own pieces)
//	PASS        pass (shah, when you cannot move)
//
// In some games a player moves several times in a row: the removals owed
// when placing ends are one move each (elfilja: all of white's, then all
// of black's), a zhiqi player who cannot move removes a piece and then
// moves, and in dasanqi the player who placed last also moves first. The
// board always says whose turn it is, and what the turn must do.
//
// The standard notation is understood as well: d2, d2-f2, d3xg1, a7-d7xb2,
// xd2, pass.
//
// # Boards
//
// show and preview print a board like this one, rank 1 at the top:
//
//	nmm board 102: nine-mens-morris
//	White (W) ann: 3 on the board, 6 in hand
//	Black (B) bob: 1 on the board, 7 in hand
//
//	1  W-----------W-----------W
//	   |           |           |
//	2  |   B-------.-------.   |
//	   |   |       |       |   |
//	3  |   |   .---.---.   |   |
//	   |   |   |       |   |   |
//	4  .---.---.       .---.---.
//	   |   |   |       |   |   |
//	5  |   |   .---.---.   |   |
//	   |   |       |       |   |
//	6  |   .-------.-------.   |
//	   |           |           |
//	7  .-----------.-----------.
//	   A   B   C   D   E   F   G
//
//	Last move (#5): G1,D2
//	Move 6: Black (B) bob to move: place a piece
//
// Move 6 is the number to give as MOVE#6 for the next move. A marked piece
// (dasanqi) is drawn X, and a line under the players lists the marked
// points. When a player owes removals the last line says how many, and
// who removes after them:
//
//	Move 25: White (W) ann to move: remove 2 black pieces, one a move; then Black (B) bob removes a white piece
//
// # Rule options
//
// A challenge may change the rules of its game with options
// -OPTION=VALUE; -OPTION alone means -OPTION=yes for the yes-or-no options.
// The board comes with the game name and is not an option.
//
//	-pieces=3..12                 pieces per side
//	-diagonal-mills=yes|no        three in a row on a diagonal is a mill
//	-flying=never|3..12           fly with this many pieces or fewer
//	-min-pieces=1..3              fewer pieces than this loses
//	-protection=none|unless-all-in-mills|always
//	                              which pieces a capture may take
//	-placing-captures=immediate|none|deferred|hand|mark|counted|counted-each
//	                              what a mill closed while placing does:
//	                              capture at once; nothing; one removal
//	                              when placing ends (shah); take from the
//	                              opponent's hand (dooz); mark a piece that
//	                              leaves when placing ends (dasanqi);
//	                              removals by the mill counts when placing
//	                              ends, compared (elfilja) or one per mill
//	-captures=one|per-mill        pieces taken by a move
//	-blocked=loses|passes|draw|removes
//	                              a side that cannot move loses, passes,
//	                              draws, or removes an opposing piece next
//	                              to one of its own and moves (zhiqi)
//	-gridlock=loses|draw          neither side can move
//	-full-board=gridlock|draw|first-loses|removals
//	                              a board filled by placing: the gridlock
//	                              rule, a draw, a loss for the first player
//	                              (dasanqi), or a removal by each side
//	                              (zhiqi, elfilja)
//	-reform-ban=yes|no            no re-forming a broken mill at once
//	-trap-rule=yes|no             no captures while the opponent is trapped
//	-first=white|black|lot        who moves first
//	-second-moves-first=yes|no    the second player makes the first move
//	                              after placing (dasanqi)
//	-repetition=0|2..9            the repetition that draws (0: none)
//	-draw-after=0..1000           moves without a capture that draw (0: none)
//	-move-while-placing=yes|no    slide instead of placing
//	-one-time-mills=yes|no        each mill line captures once
//	-mill-wins=yes|no             a mill wins the game, nothing is captured
//	-centre-ban=yes|no            the first placement may not take the centre
//
// # Errors
//
// A line that does not parse changes nothing. The answer names the word at
// fault and what was expected:
//
//	nmm move: BOARD "10": want a board number, 101 or more
//	nmm challenge: option "-flying=x": option flying: "x" is not never|3..12
package pbm
