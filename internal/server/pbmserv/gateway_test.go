package pbmserv

import (
	"context"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/server/servertest"
)

// step is one command of a script and what its answer must hold: every
// string of want, and none of not.
type step struct {
	line string
	want []string
	not  []string
}

// run executes a script, in order, on one session.
func runScript(t *testing.T, g *Gateway, sess *Session, script []step) {
	t.Helper()
	ctx := context.Background()
	for i, s := range script {
		got := g.Exec(ctx, sess, s.line)
		if !strings.HasSuffix(got, "\n") {
			t.Errorf("step %d, %q: the answer %q does not end with a line break", i, s.line, got)
		}
		for _, w := range s.want {
			if !strings.Contains(got, w) {
				t.Errorf("step %d, %q:\ngot\n%s\nwant it to hold %q", i, s.line, got, w)
			}
		}
		for _, n := range s.not {
			if strings.Contains(got, n) {
				t.Errorf("step %d, %q:\ngot\n%s\nwant it not to hold %q", i, s.line, got, n)
			}
		}
	}
}

func TestExec(t *testing.T) {
	g := newGateway(t)
	sess := NewSession("192.0.2.1:4321", nil)
	defer sess.Close()
	const ok, bad = "ok: ", "error: "
	script := []step{
		// Accounts.
		{"signup ann secret-ann ann@example.com", []string{"ok: signed up ann"}, nil},
		{"signup ANN other-pw", []string{bad, "taken"}, nil},
		{"signup bob secret-bob", []string{ok}, nil},
		{"signup cy secret-cy", []string{ok}, nil},
		{"signup di abc", []string{bad, "password"}, nil},
		{"xyzzy", []string{bad, "unknown game"}, nil},
		{"", []string{bad, "empty line"}, nil},

		// Challenges: a game at once, timers in days; the challenger signs
		// in, the opponent has said that they take challenges.
		{"nmm challenge ann secret-ann bob", []string{"error: bob takes no challenges of nine-mens-morris by text command", "accept or limit"}, nil},
		{"nmm accept bob secret-bob", []string{"ok: bob takes challenges of nmm from anyone"}, nil},
		{"nmm accept ann secret-ann", []string{"ok: ann takes challenges of nmm from anyone"}, nil},
		{"nmm challenge ann secret-ann bob", []string{"ok: board 101 started: White ann, Black bob, rated, a reminder after 7 days without a move, forfeit after 21 days",
			"nmm board 101: nine-mens-morris", "Move 1: White (W) ann to move: place a piece"}, nil},
		{"nmm challenge ann secret-ann bob --totaltime=30", []string{"error: --totaltime is not supported", "nothing was started"}, nil},
		{"nmm show 102", []string{"error: there is no board 102"}, nil}, // the refused challenge made none
		{"nmm challenge ann secret-ann zed", []string{bad, `no user "zed"`}, nil},
		{"nmm challenge bob secret-bob ann --nagtime=2 --forfeittime=5 -flying=never", []string{"ok: board 102 started: White bob, Black ann, unrated, a reminder after 2 days without a move, forfeit after 5 days",
			"nine-mens-morris,flying=never"}, nil},
		{"nmm challenge cy secret-cy ann --forfeittime=3", []string{"ok: board 103", "a reminder after 2 days without a move, forfeit after 3 days"}, nil},
		{"nmm challenge cy secret-cy ann --nagtime=30", []string{"ok: board 104", "a reminder after 30 days without a move, forfeit after 31 days"}, nil},

		// Moves: checked by the service; MOVE#N safe to retry.
		{"tmm move 101 ann secret-ann D2", []string{"error: board 101 is a game of nmm (nine-mens-morris), not of tmm"}, nil},
		{"nmm move 101 ann wrong-pw D2", []string{"error: wrong user id or password"}, nil},
		{"nmm move 101 bob secret-bob D2", []string{"error: it is not your turn"}, nil},
		{"nmm move 101 cy secret-cy D2", []string{"error: you do not play in game 101"}, nil},
		{"nmm move 101 ann secret-ann Z9", []string{"error: nmm move: MOVE \"Z9\""}, nil},
		{"nmm move 101 ann secret-ann D2#2", []string{bad, "not move 2"}, nil},
		{"nmm move 999 ann secret-ann D2", []string{"error: there is no board 999"}, nil},
		{"nmm move 101 ann secret-ann D2#1", []string{"ok: board 101: move 1 D2 played by ann", "Last move (#1): D2", "Move 2: Black (B) bob to move"}, nil},
		{"nmm move 101 ann secret-ann D2#1", []string{bad, "at move 2"}, nil},
		{"nmm show 101", []string{"Last move (#1): D2", "Move 2: Black (B) bob to move"}, nil},
		{"nmm move 101 bob secret-bob D2#2", []string{bad, "d2 is occupied"}, nil},

		// Preview changes nothing.
		{"nmm preview 101 D6 F4", []string{"preview of board 101 after D6 F4 (nothing is played)", "Last move (#3): F4", "Move 4: Black (B) bob to move"}, nil},
		{"nmm preview 101 D2", []string{"error: preview of board 101: move 1 of the preview, D2"}, nil},
		{"nmm preview 101 D6 D6", []string{"error: preview of board 101: move 2 of the preview, D6"}, nil},
		{"nmm show 101", []string{"Move 2: Black (B) bob to move", "White (W) ann: 1 on the board, 8 in hand"}, nil},

		{"nmm move 101 bob secret-bob D6#2", []string{"ok: board 101: move 2 D6 played by bob"}, nil},

		// show BOARD#N: the board when move N was to be played.
		{"nmm show 101#2", []string{"Last move (#1): D2", "Move 2: Black (B) bob to move"}, []string{"D6"}},
		{"nmm show 101#1", []string{"Move 1: White (W) ann to move"}, []string{"Last move"}},
		{"nmm show 101#3", []string{"Last move (#2): D6", "Move 3: White (W) ann to move"}, nil},
		{"nmm show 101#4", []string{"error: board 101 is at move 3: there is no move 4 yet"}, nil},

		// queue: bob's reply waits for his turn and comes with ann's move.
		{"nmm queue 101 bob secret-bob D2", []string{"ok: board 101: D2 queued for move 4"}, nil}, // illegal then: replaced below
		{"nmm queue 101 cy secret-cy F4", []string{"error: you do not play in game 101"}, nil},
		{"nmm queue 101 bob secret-bob F4", []string{"ok: board 101: F4 queued for move 4"}, nil},
		{"nmm move 101 ann secret-ann B4#3", []string{"ok: board 101: move 3 B4 played by ann", "Last move (#4): F4", "Move 5: White (W) ann to move"}, nil},
		{"nmm queue 101 ann secret-ann B6", []string{"ok: board 101: move 5 B6 played by ann", "Move 6: Black (B) bob to move"}, nil},

		// undo and accept: ann's last move goes (bob is to move: one move).
		{"nmm move 101 bob secret-bob accept", []string{"error: there is no offer to answer in game 101"}, nil},
		{"nmm move 101 ann secret-ann undo#5", []string{"error: board 101 is at move 6, not move 5: nothing was done"}, nil},
		{"nmm move 101 ann secret-ann undo#6", []string{"ok: board 101: ann asks to take back a move"}, nil},
		{"nmm move 101 cy secret-cy accept", []string{"error: you do not play in game 101"}, nil},
		{"nmm move 101 bob secret-bob accept", []string{"ok: board 101: 1 move taken back", "Last move (#4): F4", "Move 5: White (W) ann to move"}, nil},
		{"nmm move 101 ann secret-ann undo#6", []string{bad, "board 101 is at move 5, not move 6"}, nil},

		// propose, reject, propose, accept: a draw by agreement.
		{"nmm move 101 ann secret-ann propose", []string{"ok: board 101: ann offers a draw"}, nil},
		{"nmm move 101 bob secret-bob reject", []string{"ok: board 101: bob declines the draw offer"}, nil},
		{"nmm move 101 ann secret-ann accept", []string{"error: there is no offer to answer"}, nil},
		{"nmm move 101 bob secret-bob propose", []string{"ok: board 101: bob offers a draw"}, nil},
		{"nmm move 101 ann secret-ann accept", []string{"ok: board 101 is over: a draw (1/2-1/2) by agreement"}, nil},
		{"nmm show 101", []string{"Game over: a draw (1/2-1/2) by agreement"}, []string{"to move"}},
		{"nmm move 101 ann secret-ann B2", []string{"error: game 101 is over"}, nil},
		{"nmm preview 101 B2", []string{"error: board 101 is over"}, nil},
		{"nmm move 101 ann secret-ann resign", []string{"error: game 101 is over"}, nil},

		// Lists.
		{"nmm history", []string{"nmm history: 1 finished game", "board 101: White ann - Black bob, a draw (1/2-1/2) by agreement after 4 moves, rated"}, nil},
		{"tmm history", []string{"tmm history: no finished games"}, nil},
		{"nmm games ann", []string{"ann's games of nmm: 4 games", "board 101: White ann - Black bob, a draw",
			"board 102: White bob - Black ann, move 1, White (W) bob to move, rules nine-mens-morris,flying=never"}, nil},
		{"nmm games zed", []string{bad, `no user "zed"`}, nil},
		{"nmm show ann active", []string{"ann's active games of nmm: boards 104, 103, 102", "nmm board 102: nine-mens-morris,flying=never"}, []string{"board 101"}},
		{"tmm show ann", []string{"ann has no games of tmm"}, nil},
		{"nmm standings", []string{"nmm standings", "1. ", "ann", "bob", "1 game"}, nil},
		{"nmm ratings", []string{"nmm standings"}, nil},
		{"tmm ratings", []string{"tmm standings: no rated games yet"}, nil},

		// Chat: the players speak.
		{"nmm chat 102 ann secret-ann Good luck!", []string{"ok: board 102: message sent"}, nil},
		{"nmm chat 102 cy secret-cy hello", []string{"error: you do not play in game 102"}, nil},

		// Following: with a user id in the store; without one, a
		// connection is needed (this session has none).
		{"nmm subscribe 102", []string{"error: subscribe without USERID PASSWORD lasts as long as a connection"}, nil},
		{"nmm subscribe 102 cy secret-cy", []string{"ok: cy follows board 102: every move comes to cy's account stream"}, nil},
		{"nmm notify 102 cy secret-cy", []string{"ok: cy follows board 102: the end comes"}, nil},
		{"nmm unsubscribe 102 cy secret-cy", []string{"ok: cy no longer follows board 102"}, nil},
		{"nmm unsubscribe 102 cy secret-cy", []string{"error: cy does not follow game 102"}, nil},
		{"nmm unsubscribe 102", []string{"error: this connection does not follow board 102"}, nil},
		{"tmm subscribe 102 cy secret-cy", []string{"error: board 102 is a game of nmm"}, nil},

		// Whom a player takes challenges from.
		{"nmm reject bob secret-bob ann", []string{"ok: bob refuses challenges of nmm from ann"}, nil},
		{"nmm challenge ann secret-ann bob", []string{"error: bob does not take challenges from ann"}, nil},
		{"nmm challenge cy secret-cy bob", []string{"ok: board 105"}, nil},
		{"nmm accept bob secret-bob ann", []string{"ok: bob takes challenges of nmm from ann"}, nil},
		{"nmm limit bob secret-bob 2", []string{"ok: bob takes challenges of nmm while playing fewer than 2 games of it"}, nil},
		{"nmm challenge ann secret-ann bob", []string{"error: bob plays 2 games of nine-mens-morris already, their limit"}, nil},
		{"nmm limit bob wrong-pw 5", []string{"error: wrong user id or password"}, nil},
		{"nmm limit bob secret-bob 0", []string{"ok: bob takes no challenges of nmm"}, nil},
		{"nmm limit bob secret-bob 10", []string{ok}, nil},
		{"nmm reject bob secret-bob", []string{"ok: bob refuses challenges of nmm from everyone"}, nil},
		{"nmm challenge cy secret-cy bob", []string{"error: bob does not take challenges from cy"}, nil},
		{"nmm accept bob secret-bob", []string{"ok: bob takes challenges of nmm from anyone"}, nil},
		{"nmm accept bob secret-bob zed", []string{bad, `no user "zed"`}, nil},

		// Seeks pair players.
		{"nmm seek ann secret-ann 1", []string{"ok: ann seeks 1 game of nmm; 1 waiting for an opponent"}, nil},
		{"nmm seek bob secret-bob 1", []string{"ok: bob seeks 1 game of nmm; started at once: board 106"}, nil},
		{"nmm seek cy secret-cy 2", []string{"ok: cy seeks 2 games of nmm; 2 waiting"}, nil},
		{"nmm seek cy secret-cy 0", []string{"ok: cy's seeks of nmm are withdrawn"}, nil},
		{"nmm move 106 bob secret-bob resign", []string{"ok: board 106: bob resigns:", "wins"}, nil},

		// Help.
		{"help", []string{"Commands:", "GAME move BOARD USERID PASSWORD MOVE[#N]", "nmm         nine-mens-morris"}, nil},
		{"help move", []string{"GAME move BOARD", "propose offers a draw"}, nil},
		{"nmm help", []string{"nmm: nine-mens-morris:", "nmm challenge USERID PASSWORD OPPONENT"}, nil},
		{"nmm help challenge", []string{"nmm challenge USERID PASSWORD OPPONENT", "you, the challenger", "opponent must have said"}, nil},
		{"tmm help queue", []string{"tmm queue BOARD USERID PASSWORD MOVE[#N]"}, nil},
	}
	runScript(t, g, sess, script)
}

// TestRateLimit: each command spends a token of the client's address,
// whatever its port; the answer says to wait, and nothing is done.
func TestRateLimit(t *testing.T) {
	rates := servertest.Rates
	rates.Command, rates.CommandBurst = 0.001, 3
	g := New(newService(t, rates), nil)
	a := NewSession("192.0.2.7:1000", nil)
	defer a.Close()
	b := NewSession("192.0.2.7:2000", nil) // the same client, connected again
	defer b.Close()
	other := NewSession("192.0.2.8:1000", nil)
	defer other.Close()
	runScript(t, g, a, []step{
		{"signup ann secret-ann", []string{"ok: "}, nil},
		{"help", []string{"Commands:"}, nil},
	})
	runScript(t, g, b, []step{
		{"nmm history", []string{"no finished games"}, nil},
		{"signup bob secret-bob", []string{"error: too many commands"}, nil},
	})
	setup := NewSession("192.0.2.9:1", nil)
	defer setup.Close()
	runScript(t, g, setup, []step{
		{"signup bob secret-bob", []string{"ok: "}, nil},
		{"nmm accept bob secret-bob", []string{"ok: "}, nil},
	})
	runScript(t, g, other, []step{
		{"signup cy secret-cy", []string{"ok: "}, nil},
		{"nmm accept cy secret-cy", []string{"ok: "}, nil},
		{"nmm challenge ann secret-ann bob", []string{"ok: board 101"}, nil},
		{"nmm challenge ann secret-ann cy", []string{"error: too many commands"}, nil},
	})
}

// TestChallengeInOthersNames: the attack of issue 44. pbmserv's challenge
// named two users and no password, so anyone could start rated games
// between any two (victim white, with a one-day forfeit, lost by the
// victim a day later). Now the first user is the caller and signs in:
// the two-user form is refused with the new usage, a wrong password is
// refused and spends the sign-in limit as any command's, a player who has
// not opted in takes no challenge, and none of it starts a game. After
// the victim opts in, the attacker may challenge them, in the attacker's
// own name only; the right password works.
func TestChallengeInOthersNames(t *testing.T) {
	rates := servertest.Rates
	rates.Login, rates.LoginBurst = 0.001, 3
	g := New(newService(t, rates), nil)
	sess := NewSession("192.0.2.66:1", nil)
	defer sess.Close()
	const usage = "usage: nmm challenge USERID PASSWORD OPPONENT [--nagtime=D] [--forfeittime=D] [--totaltime=D] [-OPTION=VALUE...]"
	nothing := []step{
		{"nmm show victim", []string{"victim has no games of nmm"}, nil},
		{"nmm show attacker", []string{"attacker has no games of nmm"}, nil},
	}
	script := []step{
		{"signup victim secret-victim", []string{"ok: signed up victim"}, nil},
		{"signup attacker secret-attacker", []string{"ok: signed up attacker"}, nil},
		// The attacker takes any challenge, the victim has said nothing.
		{"nmm accept attacker secret-attacker", []string{"ok: "}, nil},
		{"nmm challenge victim attacker --forfeittime=1", []string{"error: nmm challenge: missing OPPONENT", "the two-user form (challenge USERID1 USERID2) is no longer taken", usage}, nil},
		{"nmm challenge victim attacker", []string{"error: ", "missing OPPONENT", usage}, nil},
		{"nmm challenge victim WRONGPW attacker --forfeittime=1", []string{"error: wrong user id or password"}, nil},
		{"nmm challenge attacker secret-attacker victim --forfeittime=1", []string{"error: victim takes no challenges of nine-mens-morris by text command"}, nil},
	}
	script = append(script, nothing...)
	// The victim opts in: the two-user form and a wrong password still
	// start nothing.
	script = append(script, []step{
		{"nmm accept victim secret-victim", []string{"ok: victim takes challenges of nmm from anyone"}, nil},
		{"nmm challenge victim attacker --forfeittime=1", []string{"error: ", "missing OPPONENT", usage}, nil},
		{"nmm challenge victim WRONGPW2 attacker", []string{"error: wrong user id or password"}, nil},
	}...)
	script = append(script, nothing...)
	script = append(script, []step{
		// The third wrong password of the burst of 3: then the victim's
		// name is locked for this address, the right password too.
		{"nmm challenge victim WRONGPW3 attacker", []string{"error: wrong user id or password"}, nil},
		{"nmm challenge victim secret-victim attacker", []string{"error: too many failed sign-ins"}, nil},
		{"nmm show victim", []string{"victim has no games of nmm"}, nil},
		// The attacker may challenge the victim in the attacker's own name.
		{"nmm challenge attacker secret-attacker victim --forfeittime=1", []string{"ok: board 101 started: White attacker, Black victim"}, nil},
	}...)
	runScript(t, g, sess, script)
	// From another address the victim signs in and challenges.
	other := NewSession("192.0.2.1:1", nil)
	defer other.Close()
	runScript(t, g, other, []step{
		{"nmm challenge victim secret-victim attacker", []string{"ok: board 102 started: White victim, Black attacker"}, nil},
		{"nmm show victim", []string{"board 101", "board 102"}, nil},
	})
}

// TestChallengeRefused: timers that cannot work, and a game of one player,
// are refused and start nothing.
func TestChallengeRefused(t *testing.T) {
	g := newGateway(t)
	sess := NewSession("192.0.2.1:1", nil)
	defer sess.Close()
	runScript(t, g, sess, []step{
		{"signup ann secret-ann", []string{"ok: "}, nil},
		{"signup bob secret-bob", []string{"ok: "}, nil},
		{"nmm accept bob secret-bob", []string{"ok: "}, nil},
		{"nmm challenge ann secret-ann bob --nagtime=9 --forfeittime=9", []string{"error: ", "reminder must come before the forfeit"}, nil},
		{"nmm challenge ann secret-ann bob --forfeittime=400", []string{"error: ", "more than a year"}, nil},
		{"nmm challenge ann secret-ann ann", []string{"error: ", "same player"}, nil},
		{"nmm history", []string{"no finished games"}, nil},
		{"nmm show ann", []string{"ann has no games of nmm"}, nil},
	})
}

// TestFollowLimit: a connection follows a bounded number of boards; the
// same board again changes what it is told, and counts once.
func TestFollowLimit(t *testing.T) {
	g := newGateway(t)
	g.MaxFollows = 1
	pushed := make(chan string, 16)
	sess := NewSession("192.0.2.1:1", func(s string) error { pushed <- s; return nil })
	defer sess.Close()
	runScript(t, g, sess, []step{
		{"signup ann secret-ann", []string{"ok: "}, nil},
		{"signup bob secret-bob", []string{"ok: "}, nil},
		{"nmm accept ann secret-ann", []string{"ok: "}, nil},
		{"nmm accept bob secret-bob", []string{"ok: "}, nil},
		{"nmm challenge ann secret-ann bob", []string{"ok: board 101"}, nil},
		{"nmm challenge bob secret-bob ann", []string{"ok: board 102"}, nil},
		{"nmm subscribe 101", []string{"ok: this connection follows board 101: every move"}, nil},
		{"nmm notify 101", []string{"ok: this connection follows board 101: the end"}, nil},
		{"nmm subscribe 102", []string{"error: this connection follows 1 board already, the most it may"}, nil},
		{"nmm move 101 ann secret-ann D2", []string{"ok: "}, nil},
		{"nmm unsubscribe 101", []string{"ok: "}, nil},
		{"nmm subscribe 102", []string{"ok: this connection follows board 102"}, nil},
		{"nmm move 102 bob secret-bob F4", []string{"ok: "}, nil},
	})
	// Board 101 was followed for its end only: its move was not pushed.
	if got, want := <-pushed, "* nmm board 102: move 1, White (W) bob: F4\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestFollowShutdown: when the service ends its streams, a connection's
// follows end and it is told so.
func TestFollowShutdown(t *testing.T) {
	svc := newService(t, servertest.Rates)
	g := New(svc, nil)
	pushed := make(chan string, 16)
	sess := NewSession("192.0.2.1:1", func(s string) error { pushed <- s; return nil })
	defer sess.Close()
	runScript(t, g, sess, []step{
		{"signup ann secret-ann", []string{"ok: "}, nil},
		{"signup bob secret-bob", []string{"ok: "}, nil},
		{"nmm accept bob secret-bob", []string{"ok: "}, nil},
		{"nmm challenge ann secret-ann bob", []string{"ok: board 101"}, nil},
		{"nmm subscribe 101", []string{"ok: "}, nil},
	})
	svc.CloseStreams()
	if got, want := <-pushed, "* nmm board 101: no longer followed: the server is shutting down\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	runScript(t, g, sess, []step{
		{"nmm unsubscribe 101", []string{"error: this connection does not follow board 101"}, nil},
	})
}
