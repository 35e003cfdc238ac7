package pbm

import (
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Verb is what a command asks for.
type Verb uint8

// The verbs, in the order of the help text.
const (
	NoVerb Verb = iota
	Signup
	Change // change password
	Help
	Challenge
	Move
	Queue
	Show
	Preview
	History
	Games
	Standings
	Ratings
	Subscribe
	Unsubscribe
	Notify
	Limit
	Accept
	Reject
	Seek
	Chat
	Tournaments
	Join
	Withdraw
	numVerbs
)

var verbNames = [numVerbs]string{"", "signup", "change", "help", "challenge", "move", "queue", "show", "preview",
	"history", "games", "standings", "ratings", "subscribe", "unsubscribe", "notify", "limit", "accept",
	"reject", "seek", "chat", "tournaments", "join", "withdraw"}

// usages are the one-line syntax of each verb, for help texts and errors.
var usages = [numVerbs]string{
	Signup:      "signup USERID PASSWORD [EMAIL]",
	Change:      "change password USERID PASSWORD NEWPASSWORD",
	Help:        "[GAME] help [COMMAND]",
	Challenge:   "GAME challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]",
	Move:        "GAME move BOARD USERID PASSWORD MOVE[#N] (MOVE: a move, propose, undo, accept, reject or resign)",
	Queue:       "GAME queue BOARD USERID PASSWORD MOVE[#N]",
	Show:        "GAME show BOARD[#N] or GAME show USERID [active]",
	Preview:     "GAME preview BOARD MOVE...",
	History:     "GAME history",
	Games:       "GAME games USERID",
	Standings:   "GAME standings",
	Ratings:     "GAME ratings",
	Subscribe:   "GAME subscribe BOARD [USERID PASSWORD]",
	Unsubscribe: "GAME unsubscribe BOARD [USERID PASSWORD]",
	Notify:      "GAME notify BOARD [USERID PASSWORD]",
	Limit:       "GAME limit USERID PASSWORD N",
	Accept:      "GAME accept USERID PASSWORD [CHALLENGER...]",
	Reject:      "GAME reject USERID PASSWORD [CHALLENGER...]",
	Seek:        "GAME seek USERID PASSWORD N",
	Chat:        "GAME chat BOARD USERID PASSWORD TEXT",
	Tournaments: "GAME tournaments [N]",
	Join:        "GAME join N USERID PASSWORD",
	Withdraw:    "GAME withdraw N USERID PASSWORD",
}

// String returns the verb as typed: "move".
func (v Verb) String() string {
	if v < numVerbs {
		return verbNames[v]
	}
	return "verb(" + strconv.Itoa(int(v)) + ")"
}

// Usage returns the syntax of the verb on one line, GAME standing for the
// game name: "GAME move BOARD USERID PASSWORD MOVE[#N] ...".
func Usage(v Verb) string {
	if v < numVerbs {
		return usages[v]
	}
	return ""
}

// lookupVerb returns the verb named s, in any case.
func lookupVerb(s string) (Verb, bool) {
	s = strings.ToLower(s)
	for v := Signup; v < numVerbs; v++ {
		if verbNames[v] == s {
			return v, true
		}
	}
	return NoVerb, false
}

// Action is a move command that is not a move: an offer, its answer, or
// resignation.
type Action uint8

const (
	NoAction    Action = iota // the command plays Command.Move
	Propose                   // offer a draw
	Undo                      // ask to take back the last move
	AcceptOffer               // accept the opponent's draw offer or take-back request
	RejectOffer               // refuse it
	Resign                    // resign the game
	numActions
)

var actionNames = [numActions]string{"", "propose", "undo", "accept", "reject", "resign"}

// String returns the action as typed: "propose".
func (a Action) String() string {
	if a < numActions {
		return actionNames[a]
	}
	return "action(" + strconv.Itoa(int(a)) + ")"
}

func lookupAction(s string) (Action, bool) {
	s = strings.ToLower(s)
	for a := Propose; a < numActions; a++ {
		if actionNames[a] == s {
			return a, true
		}
	}
	return NoAction, false
}

// Timers are a challenge's correspondence timers, in days; 0 leaves the
// server's default (a reminder after 7 days, forfeit after 21, no total).
type Timers struct {
	NagDays     int // --nagtime: remind the player to move after this many days
	ForfeitDays int // --forfeittime: the player to move loses after this many days
	TotalDays   int // --totaltime: the days the whole game may take
}

// Command is one parsed command line. Verb says which fields mean something:
//
//	Signup       User, Password, Email
//	Change       User, Password, NewPassword
//	Help         Game (may be ""), Topic (may be NoVerb)
//	Challenge    Game, User (the challenger, first player), Password, Opponent, Timers, Rules
//	Move         Game, Board, User, Password, Move or Action, MoveNumber
//	Queue        Game, Board, User, Password, Move, MoveNumber
//	Show         Game, and Board with MoveNumber, or User with Active
//	Preview      Game, Board, Moves
//	History, Standings, Ratings   Game
//	Games        Game, User
//	Subscribe, Unsubscribe, Notify   Game, Board, User and Password (both or neither)
//	Limit, Seek  Game, User, Password, N
//	Accept, Reject   Game, User, Password, Users
//	Chat         Game, Board, User, Password, Text
//	Tournaments  Game, and Tournament or 0
//	Join, Withdraw   Game, Tournament, User, Password
//
// The other fields are zero. Command holds slices, so compare commands with
// reflect.DeepEqual; empty slices are nil.
type Command struct {
	Verb Verb
	// Game is the preset id ("nine-mens-morris"), whatever name was typed;
	// "" for signup, change password and help without a game.
	Game string
	// Board is the game's number, 101 or more; 0 when the command names none.
	Board int
	// MoveNumber is the N of MOVE#N and BOARD#N: the move must be the Nth of
	// the game (counting every player's moves from 1), or show the board as
	// it was when move N was to be played. 0 for none.
	MoveNumber int
	// User is the user who acts and authenticates with Password (in a
	// challenge the challenger, who plays first), or the user shown (show,
	// games). User ids are kept as typed; the server compares them
	// ignoring case.
	User        string
	Password    string
	NewPassword string // change password: the new one
	Opponent    string // challenge: the second player
	Email       string // signup: the address, or ""
	// Move is the move of move and queue (zero for an Action); its point
	// indices are those of the game's board.
	Move   mill.Move
	Action Action
	Moves  []mill.Move // preview: the moves to try, in order
	Users  []string    // accept, reject: the challengers named
	// Rules are challenge's rule options as overrides of the preset, in
	// the canonical form mill.Rules.Overrides gives ("flying=never"); pass
	// them to mill.NewRules(Game, Rules...).
	Rules  []string
	Timers Timers
	Active bool   // show USERID active: only the games still being played
	N      int    // limit, seek: the number of games
	Text   string // chat: the message, the rest of the line
	Topic  Verb   // help COMMAND: the command asked about, or NoVerb
	// Tournament is the tournament's number of tournaments N, join and
	// withdraw: 1 or more; 0 when the command names none.
	Tournament int
}

// String returns the canonical command line: Parse(c.String()) gives c back
// for every c that Parse returned. It is the wire form, passwords included.
func (c Command) String() string {
	var b strings.Builder
	word := func(s string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	num := func(n int) { word(strconv.Itoa(n)) }
	withNumber := func(s string) {
		if c.MoveNumber != 0 {
			s += "#" + strconv.Itoa(c.MoveNumber)
		}
		word(s)
	}
	board := boardOf(c.Game)
	move := func(m mill.Move) string {
		if board == nil {
			return "?"
		}
		return board.MoveText(m, mill.Pbm)
	}
	if c.Game != "" {
		word(ShortName(c.Game))
	}
	word(c.Verb.String())
	switch c.Verb {
	case Signup:
		word(c.User)
		word(c.Password)
		if c.Email != "" {
			word(c.Email)
		}
	case Change:
		word("password")
		word(c.User)
		word(c.Password)
		word(c.NewPassword)
	case Help:
		if c.Topic != NoVerb {
			word(c.Topic.String())
		}
	case Challenge:
		word(c.User)
		word(c.Password)
		word(c.Opponent)
		for _, t := range []struct {
			name string
			days int
		}{{"nagtime", c.Timers.NagDays}, {"forfeittime", c.Timers.ForfeitDays}, {"totaltime", c.Timers.TotalDays}} {
			if t.days != 0 {
				word("--" + t.name + "=" + strconv.Itoa(t.days))
			}
		}
		for _, o := range c.Rules {
			word("-" + o)
		}
	case Move, Queue:
		num(c.Board)
		word(c.User)
		word(c.Password)
		if c.Action != NoAction {
			withNumber(c.Action.String())
		} else {
			withNumber(move(c.Move))
		}
	case Show:
		if c.Board != 0 {
			withNumber(strconv.Itoa(c.Board))
			break
		}
		word(c.User)
		if c.Active {
			word("active")
		}
	case Preview:
		num(c.Board)
		for _, m := range c.Moves {
			word(move(m))
		}
	case Games:
		word(c.User)
	case Subscribe, Unsubscribe, Notify:
		num(c.Board)
		if c.User != "" {
			word(c.User)
			word(c.Password)
		}
	case Limit, Seek:
		word(c.User)
		word(c.Password)
		num(c.N)
	case Accept, Reject:
		word(c.User)
		word(c.Password)
		for _, u := range c.Users {
			word(u)
		}
	case Chat:
		num(c.Board)
		word(c.User)
		word(c.Password)
		word(c.Text)
	case Tournaments:
		if c.Tournament != 0 {
			num(c.Tournament)
		}
	case Join, Withdraw:
		num(c.Tournament)
		word(c.User)
		word(c.Password)
	}
	return b.String()
}
