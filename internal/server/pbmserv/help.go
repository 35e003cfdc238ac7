package pbmserv

import (
	"fmt"
	"strings"

	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
	"github.com/morrisgame/morris/mill"
)

// helpLines are a few words on each command, after its usage; the full
// help is internal/server/pbmserv/pbm's package documentation.
var helpLines = map[pbm.Verb]string{
	pbm.Signup:      "create an account, with an e-mail address if you want one kept",
	pbm.Change:      "choose a new password (8 bytes at least); your sessions elsewhere (web, API) are signed out",
	pbm.Help:        "this help; for one command (help move) or one game (help nmm)",
	pbm.Challenge:   "start a game against OPPONENT at once; USERID and PASSWORD are you, the challenger, white; the opponent must have said that they take challenges of the game (accept or limit: nobody takes them until then); --nagtime and --forfeittime are days (7 and 21 by default), -OPTION=VALUE changes the rules",
	pbm.Move:        "play a move; with #N only if it is move N of the game, so that a command sent twice plays once; propose offers a draw, undo asks to take back your last move, accept and reject answer, resign gives up",
	pbm.Queue:       "store a move to be played for you when your turn comes (dropped if it is not legal then)",
	pbm.Show:        "print a board, with #N as it was when move N was to be played; or a player's boards (active: only the games going on)",
	pbm.Preview:     "try moves on a copy of a board and print the result; the game does not change",
	pbm.History:     "list the finished games",
	pbm.Games:       "list a player's games",
	pbm.Standings:   "the rating list of the game",
	pbm.Ratings:     "the rating list of the game (the same as standings)",
	pbm.Subscribe:   "follow a game: every move and message; without USERID PASSWORD for as long as this connection lasts",
	pbm.Unsubscribe: "stop following a game",
	pbm.Notify:      "be told when a game ends; without USERID PASSWORD for as long as this connection lasts",
	pbm.Limit:       "take challenges of this game only while playing fewer than N games of it (from anyone, if you had not said whom); 0 takes none",
	pbm.Accept:      "take challenges of this game from the users named, or from anyone; until you do (or set a limit) nobody can challenge you by command",
	pbm.Reject:      "refuse challenges from the users named, or from everyone",
	pbm.Seek:        "ask for N more games against whoever else seeks one; 0 withdraws your seeks",
	pbm.Chat:        "send the rest of the line to the players and followers of a game",
	pbm.Tournaments: "list the tournaments of this game that take entries or are running; with N, one of them: its pairings and standings",
	pbm.Join:        "enter tournament N; your games come as boards of the game, as any other",
	pbm.Withdraw:    "leave tournament N: before its start your entry goes; after it you resign your games going on in it and are paired no more",
}

// help answers [GAME] help [COMMAND].
func help(cmd pbm.Command) string {
	var b strings.Builder
	game := "GAME"
	if cmd.Game != "" {
		game = pbm.ShortName(cmd.Game)
	}
	usage := func(v pbm.Verb) string {
		return strings.Replace(pbm.Usage(v), "GAME", game, 1)
	}
	if cmd.Topic != pbm.NoVerb {
		fmt.Fprintf(&b, "%s\n  %s\n", usage(cmd.Topic), helpLines[cmd.Topic])
		return b.String()
	}
	if cmd.Game != "" {
		v, err := mill.LookupVariant(cmd.Game)
		if err == nil {
			fmt.Fprintf(&b, "%s: %s: %s\n", game, v.ID, v.Description)
		}
	} else {
		b.WriteString("morris pbmserv gateway: one command a line, GAME COMMAND ARGUMENTS...; the answer ends with a line holding a dot\n")
	}
	b.WriteString("Commands:\n")
	for v := pbm.Signup; pbm.Usage(v) != ""; v++ {
		fmt.Fprintf(&b, "  %s\n", usage(v))
	}
	if cmd.Game == "" {
		b.WriteString("Games:\n")
		width := 0
		for _, n := range pbm.GameNames() {
			width = max(width, len(n.Name))
		}
		for _, n := range pbm.GameNames() {
			fmt.Fprintf(&b, "  %-*s %s\n", width+1, n.Name, n.Variant)
		}
	}
	b.WriteString("Moves: D2 places, D2-F2 moves, D3,G1 takes G1; help COMMAND tells more of one command.\n")
	return b.String()
}
