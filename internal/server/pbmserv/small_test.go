package pbmserv

import "testing"

// TestSmallGames plays the small morris games through the gateway: their
// game names, a game of three men's morris to its end by a mill, a rule
// option of theirs, and the help that lists them.
func TestSmallGames(t *testing.T) {
	g := newGateway(t)
	sess := NewSession("192.0.2.7:4321", nil)
	defer sess.Close()
	script := []step{
		{"signup ann secret-ann", []string{"ok: signed up ann"}, nil},
		{"signup bob secret-bob", []string{"ok: signed up bob"}, nil},
		// Challenges are taken game by game.
		{"three accept bob secret-bob", []string{"ok: bob takes challenges of three from anyone"}, nil},
		{"tapatan challenge ann secret-ann bob", []string{"error: bob takes no challenges of tapatan by text command"}, nil},
		{"three accept ann secret-ann", []string{"ok: "}, nil},
		{"tapatan accept bob secret-bob", []string{"ok: "}, nil},
		{"six accept bob secret-bob", []string{"ok: "}, nil},
		{"seven accept bob secret-bob", []string{"ok: "}, nil},
		{"three challenge ann secret-ann bob", []string{"ok: board 101 started", "three board 101: three-mens-morris", "Move 1: White (W) ann to move: place a piece"}, nil},
		{"three move 101 ann secret-ann B2#1", []string{"ok: board 101: move 1 B2 played by ann"}, nil},
		{"three move 101 bob secret-bob A1#2", []string{"ok: board 101: move 2 A1 played by bob"}, nil},
		{"three move 101 ann secret-ann C3#3", []string{"ok"}, nil},
		{"three move 101 bob secret-bob A3#4", []string{"ok"}, nil},
		{"three move 101 ann secret-ann A2#5", []string{"ok"}, nil},
		{"three move 101 bob secret-bob C1#6", []string{"ok", "Move 7: White (W) ann to move"}, nil},
		{"three move 101 ann secret-ann C3-B1#7", []string{"error: ", "not neighbours"}, nil},
		{"three move 101 ann secret-ann C3-C2,A1#7", []string{"error: ", "takes nothing"}, nil},
		{"three move 101 ann secret-ann C3-C2#7", []string{"Game over: White (W) ann wins (1-0) by mill"}, nil},
		{"three move 101 bob secret-bob A1-B1", []string{"error: game 101 is over"}, nil},
		{"three history", []string{"board 101: White ann - Black bob", "by mill"}, nil},
		{"three challenge bob secret-bob ann -centre-ban=yes", []string{"ok: board 102 started", "three-mens-morris,centre-ban=yes"}, nil},
		{"three move 102 bob secret-bob B2", []string{"error: ", "may not take the centre"}, nil},
		{"three challenge bob secret-bob ann -board=diagonal9", []string{"error: ", "the game name sets the board"}, nil},
		{"tapatan challenge ann secret-ann bob", []string{"ok: board 103 started", "tapatan board 103: tapatan"}, nil},
		{"six challenge ann secret-ann bob", []string{"ok: board 104 started", "six board 104: six-mens-morris", "5  .-------.-------."}, nil},
		{"seven challenge ann secret-ann bob", []string{"ok: board 105 started", "seven board 105: seven-mens-morris"}, nil},
		{"seven move 105 ann secret-ann C3#1", []string{"ok: board 105: move 1 C3 played by ann", "3  .---.---W---.---."}, nil},
		{"seven-mens-morris show 105", []string{"seven board 105"}, nil},
		{"help", []string{"three       three-mens-morris", "tapatan     tapatan", "six         six-mens-morris", "seven       seven-mens-morris"}, nil},
	}
	runScript(t, g, sess, script)
}
