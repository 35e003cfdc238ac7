package pbm

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// mv parses a move on the board of a preset, for the tables.
func mv(t testing.TB, variant, s string) mill.Move {
	t.Helper()
	m, err := boardOf(variant).ParseMove(s)
	if err != nil {
		t.Fatalf("move %q on %s: %v", s, variant, err)
	}
	return m
}

const nmm = "nine-mens-morris"

// validLines are lines that parse, with the command they give and its
// canonical line ("" when the line is canonical already).
func validLines(t testing.TB) []struct {
	line, canonical string
	want            Command
} {
	return []struct {
		line, canonical string
		want            Command
	}{
		{"signup ann secret", "", Command{Verb: Signup, User: "ann", Password: "secret"}},
		{"SignUp Ann_2-x p@ss#w0rd! ann.b+mills@example.co.uk", "signup Ann_2-x p@ss#w0rd! ann.b+mills@example.co.uk",
			Command{Verb: Signup, User: "Ann_2-x", Password: "p@ss#w0rd!", Email: "ann.b+mills@example.co.uk"}},
		{"change password ann secret n3w-secret", "", Command{Verb: Change, User: "ann", Password: "secret", NewPassword: "n3w-secret"}},
		{"Change PASSWORD Ann old new", "change password Ann old new", Command{Verb: Change, User: "Ann", Password: "old", NewPassword: "new"}},
		{"help change", "", Command{Verb: Help, Topic: Change}},
		{"help", "", Command{Verb: Help}},
		{"help move", "", Command{Verb: Help, Topic: Move}},
		{"help NMM", "nmm help", Command{Verb: Help, Game: nmm}},
		{"help tmm challenge", "tmm help challenge", Command{Verb: Help, Game: "twelve-mens-morris", Topic: Challenge}},
		{"nmm help chat", "", Command{Verb: Help, Game: nmm, Topic: Chat}},
		{"nmm tournaments", "", Command{Verb: Tournaments, Game: nmm}},
		{"nmm Tournaments 12", "nmm tournaments 12", Command{Verb: Tournaments, Game: nmm, Tournament: 12}},
		{"lasker join 3 ann pw", "", Command{Verb: Join, Game: "lasker", Tournament: 3, User: "ann", Password: "pw"}},
		{"nmm withdraw 3 ann pw", "", Command{Verb: Withdraw, Game: nmm, Tournament: 3, User: "ann", Password: "pw"}},
		{"nmm help signup", "", Command{Verb: Help, Game: nmm, Topic: Signup}},
		{"nmm challenge ann pw bob", "", Command{Verb: Challenge, Game: nmm, User: "ann", Password: "pw", Opponent: "bob"}},
		{"nmm challenge ann pw bob -protection=always --totaltime=60 -FLYING=Never --nagtime=3 --forfeittime=10",
			"nmm challenge ann pw bob --nagtime=3 --forfeittime=10 --totaltime=60 -flying=never -protection=always",
			Command{Verb: Challenge, Game: nmm, User: "ann", Password: "pw", Opponent: "bob",
				Timers: Timers{NagDays: 3, ForfeitDays: 10, TotalDays: 60},
				Rules:  []string{"flying=never", "protection=always"}}},
		{"tmm challenge ann pw bob -first=white -reform-ban", "tmm challenge ann pw bob -reform-ban=yes -first=white",
			Command{Verb: Challenge, Game: "twelve-mens-morris", User: "ann", Password: "pw", Opponent: "bob",
				Rules: []string{"reform-ban=yes", "first=white"}}},
		{"nmm challenge ann pw bob -flying=3 -pieces=9", "nmm challenge ann pw bob",
			Command{Verb: Challenge, Game: nmm, User: "ann", Password: "pw", Opponent: "bob"}},
		{"nmm challenge ann pw bob -pieces=3 -flying=never", "",
			Command{Verb: Challenge, Game: nmm, User: "ann", Password: "pw", Opponent: "bob", Rules: []string{"pieces=3", "flying=never"}}},
		// A password is any word, one that looks like an option or a user
		// id too: it is the second word, whatever it holds.
		{"nmm challenge ann -flying=never bob", "", Command{Verb: Challenge, Game: nmm, User: "ann", Password: "-flying=never", Opponent: "bob"}},
		{"nmm challenge ann bob carol --forfeittime=1", "", Command{Verb: Challenge, Game: nmm, User: "ann", Password: "bob", Opponent: "carol", Timers: Timers{ForfeitDays: 1}}},
		{"nine-mens-morris move 101 ann pw d2", "nmm move 101 ann pw D2",
			Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Move: mv(t, nmm, "d2")}},
		{"NMM MOVE 0101 ann pw D2-F2#12", "nmm move 101 ann pw D2-F2#12",
			Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Move: mv(t, nmm, "d2-f2"), MoveNumber: 12}},
		{"nmm move 101 ann pw D3,G1", "",
			Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Move: mv(t, nmm, "d3xg1")}},
		{"nmm move 101 ann pw a7-d7xb2", "nmm move 101 ann pw A7-D7,B2",
			Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Move: mv(t, nmm, "a7-d7xb2")}},
		{"mora move 101 ann pw D3,G1,A1", "mora move 101 ann pw D3,A1,G1",
			Command{Verb: Move, Game: "morabaraba", Board: 101, User: "ann", Password: "pw", Move: mv(t, "morabaraba", "d3xa1xg1")}},
		{"nmm move 101 ann pw resign", "", Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Action: Resign}},
		{"nmm move 101 ann pw Propose#7", "nmm move 101 ann pw propose#7",
			Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Action: Propose, MoveNumber: 7}},
		{"nmm move 101 ann pw UNDO", "nmm move 101 ann pw undo", Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Action: Undo}},
		{"nmm move 101 ann pw accept", "", Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Action: AcceptOffer}},
		{"nmm move 101 ann pw reject", "", Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Action: RejectOffer}},
		{"nmm move 101 ann resign resign", "", Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "resign", Action: Resign}},
		{"nmm queue 102 bob pw g7#4", "nmm queue 102 bob pw G7#4",
			Command{Verb: Queue, Game: nmm, Board: 102, User: "bob", Password: "pw", Move: mv(t, nmm, "g7"), MoveNumber: 4}},
		{"shah move 101 ann pw x,d2", "shah move 101 ann pw X,D2",
			Command{Verb: Move, Game: "shah", Board: 101, User: "ann", Password: "pw", Move: mv(t, "shah", "xd2")}},
		{"shah move 101 ann pw pass", "shah move 101 ann pw PASS",
			Command{Verb: Move, Game: "shah", Board: 101, User: "ann", Password: "pw", Move: mill.Pass}},
		{"tmml move 999999999 ann pw i9-i5", "tmml move 999999999 ann pw I9-I5",
			Command{Verb: Move, Game: "twelve-mens-morris-large", Board: 999999999, User: "ann", Password: "pw", Move: mv(t, "twelve-mens-morris-large", "i9-i5")}},
		{"nmm show 101", "", Command{Verb: Show, Game: nmm, Board: 101}},
		{"nmm show 101#5", "", Command{Verb: Show, Game: nmm, Board: 101, MoveNumber: 5}},
		{"nmm show ann", "", Command{Verb: Show, Game: nmm, User: "ann"}},
		{"nmm show Ann ACTIVE", "nmm show Ann active", Command{Verb: Show, Game: nmm, User: "Ann", Active: true}},
		{"nmm show active active", "", Command{Verb: Show, Game: nmm, User: "active", Active: true}},
		{"nmm preview 101 d2 d3,d2 D2-D1", "nmm preview 101 D2 D3,D2 D2-D1",
			Command{Verb: Preview, Game: nmm, Board: 101, Moves: []mill.Move{mv(t, nmm, "d2"), mv(t, nmm, "d3xd2"), mv(t, nmm, "d2-d1")}}},
		{"nmm history", "", Command{Verb: History, Game: nmm}},
		{"nmm standings", "", Command{Verb: Standings, Game: nmm}},
		{"nmm ratings", "", Command{Verb: Ratings, Game: nmm}},
		{"nmm games bob", "", Command{Verb: Games, Game: nmm, User: "bob"}},
		{"nmm subscribe 101", "", Command{Verb: Subscribe, Game: nmm, Board: 101}},
		{"nmm subscribe 101 ann pw", "", Command{Verb: Subscribe, Game: nmm, Board: 101, User: "ann", Password: "pw"}},
		{"nmm unsubscribe 101", "", Command{Verb: Unsubscribe, Game: nmm, Board: 101}},
		{"nmm notify 101 ann pw", "", Command{Verb: Notify, Game: nmm, Board: 101, User: "ann", Password: "pw"}},
		{"nmm limit ann pw 5", "", Command{Verb: Limit, Game: nmm, User: "ann", Password: "pw", N: 5}},
		{"nmm limit ann pw 0", "", Command{Verb: Limit, Game: nmm, User: "ann", Password: "pw"}},
		{"nmm accept ann pw", "", Command{Verb: Accept, Game: nmm, User: "ann", Password: "pw"}},
		{"nmm accept ann pw bob Carol", "", Command{Verb: Accept, Game: nmm, User: "ann", Password: "pw", Users: []string{"bob", "Carol"}}},
		{"nmm reject ann pw dave", "", Command{Verb: Reject, Game: nmm, User: "ann", Password: "pw", Users: []string{"dave"}}},
		{"nmm seek ann pw 2", "", Command{Verb: Seek, Game: nmm, User: "ann", Password: "pw", N: 2}},
		{"nmm chat 101 ann pw Good game!   See you at\tD7 ", "nmm chat 101 ann pw Good game!   See you at\tD7",
			Command{Verb: Chat, Game: nmm, Board: 101, User: "ann", Password: "pw", Text: "Good game!   See you at\tD7"}},
		{"nmm chat 101 ann pw ¡Mühle! 三", "", Command{Verb: Chat, Game: nmm, Board: 101, User: "ann", Password: "pw", Text: "¡Mühle! 三"}},
		{" \t nmm   move  101 ann pw d2  ", "nmm move 101 ann pw D2",
			Command{Verb: Move, Game: nmm, Board: 101, User: "ann", Password: "pw", Move: mv(t, nmm, "d2")}},
	}
}

func TestParseValid(t *testing.T) {
	for _, tc := range validLines(t) {
		t.Run(tc.line, func(t *testing.T) {
			got, err := Parse(tc.line)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.line, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Parse(%q):\ngot  %#v\nwant %#v", tc.line, got, tc.want)
			}
			canonical := tc.canonical
			if canonical == "" {
				canonical = tc.line
			}
			s := got.String()
			if s != canonical {
				t.Errorf("String: got %q, want %q", s, canonical)
			}
			again, err := Parse(s)
			if err != nil {
				t.Fatalf("Parse(%q) (the canonical line): %v", s, err)
			}
			if !reflect.DeepEqual(again, got) {
				t.Errorf("round trip through %q:\ngot  %#v\nwant %#v", s, again, got)
			}
		})
	}
}

var invalidLines = []struct{ line, want string }{
	{"", "an empty line: try help"},
	{" \t ", "an empty line: try help"},
	{"nmm chat 101 ann pw hi\x1b[2J", "the line holds the control character U+001B"},
	{"nmm chat 101 ann pw one\ntwo", "the line holds the control character U+000A"},
	{"nmm chat 101 ann pw \u009b31m", "the line holds the control character U+009B"},
	{"nmm chat 101 ann pw \xff", "the line is not valid UTF-8"},
	{"nmm chat 101 ann pw " + strings.Repeat("x", MaxLine), "the line is longer than 4096 bytes"},
	{"foo move 101 ann pw d2", `unknown game "foo": want one of nmm, tmm, tmms, tmml, twelve, nmmd, shah, mill, lasker, mora, russian, three, tapatan, six, seven, dooz, chengsanqi, dasanqi, zhiqi, elfilja (or a preset id), or signup, change or help`},
	{"move 101 ann pw d2", `"move": a command starts with the game name, as in nmm move BOARD USERID PASSWORD MOVE[#N] (MOVE: a move, propose, undo, accept, reject or resign); the games are nmm, tmm, tmms, tmml, twelve, nmmd, shah, mill, lasker, mora, russian, three, tapatan, six, seven, dooz, chengsanqi, dasanqi, zhiqi, elfilja`},
	{"nmm", "nmm: missing the command after the game name: want one of help, challenge, move, queue, show, preview, history, games, standings, ratings, subscribe, unsubscribe, notify, limit, accept, reject, seek, chat, tournaments, join, withdraw"},
	{"nmm mvoe 101", `nmm: unknown command "mvoe": want one of help, challenge, move, queue, show, preview, history, games, standings, ratings, subscribe, unsubscribe, notify, limit, accept, reject, seek, chat, tournaments, join, withdraw`},
	{"nmm signup ann pw", `nmm: unknown command "signup": want one of help, challenge, move, queue, show, preview, history, games, standings, ratings, subscribe, unsubscribe, notify, limit, accept, reject, seek, chat, tournaments, join, withdraw`},
	{"nmm join ann pw", `nmm join: N "ann": want a tournament's number, 1 or more (GAME tournaments lists them)`},
	{"nmm join 0 ann pw", `nmm join: N "0": want a tournament's number, 1 or more (GAME tournaments lists them)`},
	{"nmm join 3 ann", "nmm join: missing PASSWORD; usage: nmm join N USERID PASSWORD"},
	{"nmm withdraw 3", "nmm withdraw: missing USERID; usage: nmm withdraw N USERID PASSWORD"},
	{"nmm tournaments 3 4", `nmm tournaments: unexpected "4" after the last argument; usage: nmm tournaments [N]`},
	{"signup", "signup: missing USERID; usage: signup USERID PASSWORD [EMAIL]"},
	{"signup a pw", `signup: USERID "a": want a user id: 2 to 20 letters, digits, _ or -, starting with a letter`},
	{"signup 1ann pw", `signup: USERID "1ann": want a user id: 2 to 20 letters, digits, _ or -, starting with a letter`},
	{"signup ann.b pw", `signup: USERID "ann.b": want a user id: 2 to 20 letters, digits, _ or -, starting with a letter`},
	{"signup abcdefghijklmnopqrstu pw", `signup: USERID "abcdefghijklmnopqrstu": want a user id: 2 to 20 letters, digits, _ or -, starting with a letter`},
	{"signup ann", "signup: missing PASSWORD; usage: signup USERID PASSWORD [EMAIL]"},
	{"change", "change: missing password; usage: change password USERID PASSWORD NEWPASSWORD"},
	{"change address ann pw ann@example.com", `change: "address": this server changes only passwords; usage: change password USERID PASSWORD NEWPASSWORD`},
	{"change password ann pw", "change: missing NEWPASSWORD; usage: change password USERID PASSWORD NEWPASSWORD"},
	{"change password ann pw new more", `change: unexpected "more" after the last argument; usage: change password USERID PASSWORD NEWPASSWORD`},
	{"change password ann pw " + strings.Repeat("p", MaxPassword+1), "change: NEWPASSWORD: longer than 128 bytes"},
	{"change password 1ann pw new", `change: USERID "1ann": want a user id: 2 to 20 letters, digits, _ or -, starting with a letter`},
	{"nmm change password ann pw new", `nmm: unknown command "change": want one of help, challenge, move, queue, show, preview, history, games, standings, ratings, subscribe, unsubscribe, notify, limit, accept, reject, seek, chat, tournaments, join, withdraw`},
	{"signup ann pw ann-at-example.com", `signup: EMAIL "ann-at-example.com": want an e-mail address like ann@example.com`},
	{"signup ann pw ann@localhost", `signup: EMAIL "ann@localhost": want an e-mail address like ann@example.com`},
	{"signup ann pw ann@example.com bob@example.com", `signup: unexpected "bob@example.com" after the last argument; usage: signup USERID PASSWORD [EMAIL]`},
	{"signup ann " + strings.Repeat("p", MaxPassword+1), "signup: PASSWORD: longer than 128 bytes"},
	{"help mvoe", `help: "mvoe" is neither a game nor a command: want one of nmm, tmm, tmms, tmml, twelve, nmmd, shah, mill, lasker, mora, russian, three, tapatan, six, seven, dooz, chengsanqi, dasanqi, zhiqi, elfilja, or signup, change, help, challenge, move, queue, show, preview, history, games, standings, ratings, subscribe, unsubscribe, notify, limit, accept, reject, seek, chat, tournaments, join, withdraw`},
	{"nmm help nmm", `nmm help: COMMAND "nmm": want one of signup, change, help, challenge, move, queue, show, preview, history, games, standings, ratings, subscribe, unsubscribe, notify, limit, accept, reject, seek, chat, tournaments, join, withdraw`},
	{"help move chat", `help: unexpected "chat" after the last argument; usage: [GAME] help [COMMAND]`},
	// pbmserv's two-user form, which let anyone start games in others'
	// names, and the new form cut short get the new usage; the second word
	// (a password, perhaps) is not quoted.
	{"nmm challenge victim attacker", "nmm challenge: missing OPPONENT: a challenge names the challenger's own password now, and the two-user form (challenge USERID1 USERID2) is no longer taken; usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]"},
	{"nmm challenge victim attacker --forfeittime=1", "nmm challenge: missing OPPONENT: a challenge names the challenger's own password now, and the two-user form (challenge USERID1 USERID2) is no longer taken; usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]"},
	{"nmm challenge victim attacker -flying=never", "nmm challenge: missing OPPONENT: a challenge names the challenger's own password now, and the two-user form (challenge USERID1 USERID2) is no longer taken; usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]"},
	{"nmm challenge ann", "nmm challenge: missing OPPONENT: a challenge names the challenger's own password now, and the two-user form (challenge USERID1 USERID2) is no longer taken; usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]"},
	{"nmm challenge ann " + strings.Repeat("p", MaxPassword+1), "nmm challenge: missing OPPONENT: a challenge names the challenger's own password now, and the two-user form (challenge USERID1 USERID2) is no longer taken; usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]"},
	{"nmm challenge ann pw bob bob", `nmm challenge: "bob": want an option, -OPTION=VALUE or --nagtime=D, --forfeittime=D, --totaltime=D; usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]`},
	{"nmm challenge", "nmm challenge: missing USERID; usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]"},
	{"nmm challenge ann pw ANN", `nmm challenge: OPPONENT "ANN": the same player as USERID; a game needs two`},
	{"nmm challenge ann pw 101", `nmm challenge: OPPONENT "101": want a user id: 2 to 20 letters, digits, _ or -, starting with a letter`},
	{"nmm challenge -flying=never ann bob", `nmm challenge: USERID "-flying=never": want a user id: 2 to 20 letters, digits, _ or -, starting with a letter`},
	{"nmm challenge ann pw bob -flying=x", `nmm challenge: option "-flying=x": option flying: "x" is not never|3..12`},
	{"nmm challenge ann pw bob -flying=", `nmm challenge: option "-flying=": option flying: "" is not never|3..12`},
	{"nmm challenge ann pw bob -flyin=3", `nmm challenge: option "-flyin=3": unknown rule option "flyin"; the options are pieces, diagonal-mills, flying, min-pieces, protection, placing-captures, captures, blocked, gridlock, full-board, reform-ban, trap-rule, first, second-moves-first, repetition, draw-after, move-while-placing, one-time-mills, mill-wins, centre-ban`},
	{"nmm challenge ann pw bob -board=large32", `nmm challenge: option "-board=large32": the game name sets the board (nmm, tmm, tmms, tmml, twelve, nmmd, shah, mill, lasker, mora, russian, three, tapatan, six, seven, dooz, chengsanqi, dasanqi, zhiqi, elfilja)`},
	{"nmm challenge ann pw bob -protection", `nmm challenge: option "-protection": want -protection=VALUE, VALUE one of none|unless-all-in-mills|always`},
	{"nmm challenge ann pw bob -flying=never -Flying=4", `nmm challenge: option "-Flying=4": -flying is given twice`},
	{"nmm challenge ann pw bob --nagtime=0", `nmm challenge: option "--nagtime=0": want --nagtime=D, D a number of days from 1 to 1000`},
	{"nmm challenge ann pw bob --nagtime", `nmm challenge: option "--nagtime": want --nagtime=D, D a number of days from 1 to 1000`},
	{"nmm challenge ann pw bob --forfeittime=1001", `nmm challenge: option "--forfeittime=1001": want --forfeittime=D, D a number of days from 1 to 1000`},
	{"nmm challenge ann pw bob --totaltime=9 --totaltime=9", `nmm challenge: option "--totaltime=9": --totaltime is given twice`},
	{"nmm challenge ann pw bob --later=3", `nmm challenge: option "--later=3": unknown; the timers are --nagtime=D, --forfeittime=D and --totaltime=D (days)`},
	{"nmm challenge ann pw bob flying=never", `nmm challenge: "flying=never": want an option, -OPTION=VALUE or --nagtime=D, --forfeittime=D, --totaltime=D; usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]`},
	{"nmm challenge ann pw bob -", `nmm challenge: "-": want an option, -OPTION=VALUE or --nagtime=D, --forfeittime=D, --totaltime=D; usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]`},
	{"nmm challenge ann pw bob -pieces=3 -flying=4", "nmm challenge: the options do not go together: flying=4: want never or 3..pieces"},
	{"nmm challenge ann pw bob -diagonal-mills", "nmm challenge: the options do not go together: diagonal-mills=yes: board standard24 has no diagonals (add diagonal-mills=no)"},
	{"nmm move 100 ann pw d2", `nmm move: BOARD "100": want a board number, 101 or more`},
	{"nmm move x101 ann pw d2", `nmm move: BOARD "x101": want a board number, 101 or more`},
	{"nmm move +101 ann pw d2", `nmm move: BOARD "+101": want a board number, 101 or more`},
	{"nmm move 1234567890 ann pw d2", `nmm move: BOARD "1234567890": want a board number, 101 or more`},
	{"nmm move 101 ann pw", "nmm move: missing MOVE; usage: nmm move BOARD USERID PASSWORD MOVE[#N] (MOVE: a move, propose, undo, accept, reject or resign)"},
	{"nmm move 101 ann pw z9", `nmm move: MOVE "z9": want a point of board standard24 (like a1) or pass`},
	{"nmm move 101 ann pw i9", `nmm move: MOVE "i9": want a point of board standard24 (like a1) or pass`},
	{"nmm move 101 ann pw resing", `nmm move: MOVE "resing": want a point of board standard24 (like a1) or pass`},
	{"nmm move 101 ann pw d2-z9", `nmm move: MOVE "d2-z9": want the point the piece moves to, at "z9"`},
	{"nmm move 101 ann pw d2-d2", `nmm move: MOVE "d2-d2": a piece cannot move to the point it stands on`},
	{"nmm move 101 ann pw d3,g1,g1", `nmm move: MOVE "d3,g1,g1": the same piece is taken twice`},
	{"nmm move 101 ann pw d3,", `nmm move: MOVE "d3,": want the point of the piece to take, at the end`},
	{"nmm move 101 ann pw #3", `nmm move: MOVE "#3": empty move`},
	{"nmm move 101 ann pw d2#0", `nmm move: MOVE "d2#0": want a move number after #, 1 or more`},
	{"nmm move 101 ann pw d2#x", `nmm move: MOVE "d2#x": want a move number after #, 1 or more`},
	{"nmm move 101 ann pw d2#3#4", `nmm move: MOVE "d2#3#4": want a move number after #, 1 or more`},
	{"nmm move 101 ann pw d2 d3", `nmm move: unexpected "d3" after the last argument; usage: nmm move BOARD USERID PASSWORD MOVE[#N] (MOVE: a move, propose, undo, accept, reject or resign)`},
	{"nmm queue 101 ann pw resign", `nmm queue: MOVE "resign": queue stores moves; resign is played with move`},
	{"nmm show", "nmm show: missing BOARD or USERID; usage: nmm show BOARD[#N] or nmm show USERID [active]"},
	{"nmm show 99", `nmm show: BOARD "99": want a board number, 101 or more`},
	{"nmm show 101#", `nmm show: BOARD "101#": want a move number after #, 1 or more`},
	{"nmm show 101 active", `nmm show: unexpected "active" after the last argument; usage: nmm show BOARD[#N] or nmm show USERID [active]`},
	{"nmm show ann all", `nmm show: unexpected "all" after the last argument; usage: nmm show BOARD[#N] or nmm show USERID [active]`},
	{"nmm preview 101", "nmm preview: missing MOVE; usage: nmm preview BOARD MOVE..."},
	{"nmm preview 101 d2 d2#3", `nmm preview: MOVE "d2#3": want x or a comma before a capture, at "#3"`},
	{"nmm history now", `nmm history: unexpected "now" after the last argument; usage: nmm history`},
	{"nmm games", "nmm games: missing USERID; usage: nmm games USERID"},
	{"nmm subscribe 101 ann", "nmm subscribe: missing PASSWORD; usage: nmm subscribe BOARD [USERID PASSWORD]"},
	{"nmm notify ann pw", `nmm notify: BOARD "ann": want a board number, 101 or more`},
	{"nmm limit ann pw -1", `nmm limit: N "-1": want a number of games from 0 to 1000`},
	{"nmm limit ann pw 1001", `nmm limit: N "1001": want a number of games from 0 to 1000`},
	{"nmm seek ann pw 101", `nmm seek: N "101": want a number of games from 0 to 100`},
	{"nmm seek ann pw", "nmm seek: missing N; usage: nmm seek USERID PASSWORD N"},
	{"nmm accept ann pw b", `nmm accept: CHALLENGER "b": want a user id: 2 to 20 letters, digits, _ or -, starting with a letter`},
	{"nmm chat 101 ann pw", "nmm chat: missing TEXT; usage: nmm chat BOARD USERID PASSWORD TEXT"},
	{"nmm chat 101 ann pw   \t", "nmm chat: missing TEXT; usage: nmm chat BOARD USERID PASSWORD TEXT"},
	{"nmm move " + strings.Repeat("9", 50) + " ann pw d2", `nmm move: BOARD "9999999999999999999999999999999999999999...": want a board number, 101 or more`},
}

func TestParseInvalid(t *testing.T) {
	for _, tc := range invalidLines {
		t.Run(clip(tc.line), func(t *testing.T) {
			c, err := Parse(tc.line)
			if err == nil {
				t.Fatalf("Parse(%q): got %#v, want the error %q", tc.line, c, tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("Parse(%q):\ngot  %s\nwant %s", tc.line, err, tc.want)
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("Parse(%q): %v does not wrap ErrSyntax", tc.line, err)
			}
			if !reflect.DeepEqual(c, Command{}) {
				t.Errorf("Parse(%q): got %#v with the error, want the zero Command", tc.line, c)
			}
		})
	}
}

// TestGameNames checks the table against the presets: every preset has one
// short name, names are unique and no name is another preset's id.
func TestGameNames(t *testing.T) {
	short := map[string]string{}
	for _, g := range GameNames() {
		if _, err := mill.LookupVariant(g.Variant); err != nil {
			t.Errorf("game %s: %v", g.Name, err)
		}
		if prev, dup := short[g.Name]; dup {
			t.Errorf("game name %s: for %s and %s", g.Name, prev, g.Variant)
		}
		short[g.Name] = g.Variant
		if _, isVerb := lookupVerb(g.Name); isVerb {
			t.Errorf("game name %s is a command", g.Name)
		}
	}
	for _, v := range mill.Variants() {
		name := ShortName(v.ID)
		if name == v.ID && short[name] != v.ID {
			t.Errorf("preset %s has no short game name", v.ID)
		}
		if other, ok := short[v.ID]; ok && other != v.ID {
			t.Errorf("game name %s is the id of preset %s but plays %s", v.ID, v.ID, other)
		}
		for _, typed := range []string{name, v.ID, strings.ToUpper(name)} {
			if got, ok := LookupGame(typed); !ok || got != v.ID {
				t.Errorf("LookupGame(%q): got %q, %v, want %q", typed, got, ok, v.ID)
			}
		}
		if boardOf(v.ID) == nil {
			t.Errorf("preset %s: no board", v.ID)
		}
	}
	if _, ok := LookupGame("chess"); ok {
		t.Errorf("LookupGame(chess): found")
	}
}

func TestVerbs(t *testing.T) {
	for v := Signup; v < numVerbs; v++ {
		if got, ok := lookupVerb(strings.ToUpper(v.String())); !ok || got != v {
			t.Errorf("lookupVerb(%q): got %v, %v", v, got, ok)
		}
		if !strings.Contains(Usage(v), v.String()) {
			t.Errorf("Usage(%v) = %q: does not name the verb", v, Usage(v))
		}
	}
	for a := Propose; a < numActions; a++ {
		if got, ok := lookupAction(a.String()); !ok || got != a {
			t.Errorf("lookupAction(%q): got %v, %v", a, got, ok)
		}
	}
	if s := Verb(200).String(); s != "verb(200)" {
		t.Errorf("Verb(200): got %q", s)
	}
}

// TestStringZero checks that String does not panic on commands Parse never
// returns.
func TestStringZero(t *testing.T) {
	for _, c := range []Command{{}, {Verb: Move}, {Verb: Preview, Moves: []mill.Move{{}}}, {Verb: 99, Game: "nope"}} {
		_ = c.String()
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("nmm move 101 ann secret A7-D7,B2#23"); err != nil {
			b.Fatal(err)
		}
	}
}
