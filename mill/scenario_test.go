package mill

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// setup builds a position from readable parts: the rules text, the points of
// white and black, and the rest of the position text (side hands state quiet ply).
func setup(t *testing.T, rules, white, black, rest string) Position {
	t.Helper()
	r, err := ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	b := r.Board()
	cells := make([]byte, b.Len())
	for i := range cells {
		cells[i] = '1'
	}
	for c, list := range []string{white, black} {
		for _, name := range strings.Fields(list) {
			pt, ok := b.PointByName(name)
			if !ok {
				t.Fatalf("no point %s", name)
			}
			cells[pt] = "WB"[c]
		}
	}
	var sb strings.Builder
	for i, c := range cells {
		if i > 0 && i%8 == 0 {
			sb.WriteByte('/')
		}
		sb.WriteByte(c)
	}
	// Runs of 1s are legal run lengths; the parser accepts them.
	p, err := ParsePosition(rules + " " + sb.String() + " " + rest)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func moveTexts(p Position) []string {
	var out []string
	for _, m := range p.Moves(nil) {
		out = append(out, p.MoveText(m))
	}
	slices.Sort(out)
	return out
}

func play(t *testing.T, p Position, moves ...string) Position {
	t.Helper()
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v\nposition: %s", s, err, p)
		}
		p = p.Play(m)
	}
	return p
}

func wantMoves(t *testing.T, p Position, want ...string) {
	t.Helper()
	got := moveTexts(p)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("moves of %s:\ngot  %v\nwant %v", p, got, want)
	}
}

func wantStatus(t *testing.T, p Position, o Outcome, m Method) {
	t.Helper()
	if go_, gm := p.Status(); go_ != o || gm != m {
		t.Errorf("status of %s: got %v by %v, want %v by %v", p, go_, gm, o, m)
	}
	if (o == NoOutcome) != p.HasMoves() {
		t.Errorf("HasMoves of %s = %v with outcome %v", p, p.HasMoves(), o)
	}
}

func hasMove(p Position, s string) bool { return slices.Contains(moveTexts(p), s) }

func TestShahDeferredRemoval(t *testing.T) {
	// Placing is almost over: white and black have one piece in hand each,
	// black formed the first mill of the game (mb), white to place.
	white := "a1 d1 a4 b2 d2 f4 f6 c3 e3 e4 d5"
	black := "g1 g4 g7 d7 a7 b4 b6 d6 c4 c5 d3"
	p := setup(t, "shah", white, black, "w 1,1 mb 0 22")
	// Mills while placing capture nothing: b2-b4-b6 is black's, a1-a4-a7? no.
	p = play(t, p, "f2") // white: f2 closes b2-d2-f2 but takes nothing
	if p.OnBoard(Black) != 11 {
		t.Fatalf("a mill while placing took a piece: %s", p)
	}
	p = play(t, p, "e5") // black places last: the board is full
	if c, ok := p.Pending(); !ok || c != Black || p.SideToMove() != Black {
		t.Fatalf("after placing: got pending %v %v, side %v; want black to remove\n%s", c, ok, p.SideToMove(), p)
	}
	var want []string
	for _, n := range strings.Fields(white + " f2") {
		want = append(want, "x"+n)
	}
	wantMoves(t, p, want...)
	p = play(t, p, "xd1")
	if _, ok := p.Pending(); ok || p.SideToMove() != White {
		t.Fatalf("after the removal: %s", p)
	}
	// White slides into the hole: from a1, g1? (black), d2.
	wantMoves(t, p, "a1-d1", "d2-d1")
}

func TestShahNoMillSecondPlayerRemoves(t *testing.T) {
	// Nobody formed a mill while placing: the side that placed last removes.
	r := MustRules("shah", "pieces=3")
	p := r.StartWith(White)
	p = play(t, p, "a1", "d1", "g4", "a4", "d2", "b6")
	if c, ok := p.Pending(); !ok || c != Black || p.SideToMove() != Black {
		t.Fatalf("got pending %v %v side %v, want black to remove: %s", c, ok, p.SideToMove(), p)
	}
	wantMoves(t, p, "xa1", "xd2", "xg4")
	p = play(t, p, "xd2")
	if p.SideToMove() != White {
		t.Fatalf("white slides first after black's removal: %s", p)
	}
}

func TestShahPassAndTrapRule(t *testing.T) {
	// White's a1 d1 g1 are boxed in by black a4, d2, g4: white must pass.
	p := setup(t, "shah", "a1 d1 g1", "a4 d2 g4 d6 f6 b4", "w 0,0 - 0 40")
	wantMoves(t, p, "pass")
	wantStatus(t, p, NoOutcome, NoMethod)
	p = play(t, p, "pass")
	if !strings.Contains(p.String(), " pass ") {
		t.Fatalf("the pass is not recorded: %s", p)
	}
	// While white stays trapped, black's mill b6-d6-f6 takes nothing.
	if !hasMove(p, "b4-b6") || hasMove(p, "b4-b6xa1") {
		t.Errorf("a mill while the opponent is trapped must take nothing: %v", moveTexts(p))
	}
	// The move that traps captures as usual: a7-a4 shuts white's last exit
	// and closes a4-b4-c4.
	q := setup(t, "shah", "a1 d1 g1", "a7 d2 g4 b4 c4 d6", "b 0,0 - 1 41")
	if !hasMove(q, "a7-a4xa1") {
		t.Errorf("the trapping move must capture: %v", moveTexts(q))
	}
	// Without the trap rule, the mill while trapped captures.
	q = setup(t, "shah,trap-rule=no", "a1 d1 g1", "a4 d2 g4 d6 f6 b4", "b 0,0 pass 1 41")
	if !hasMove(q, "b4-b6xa1") {
		t.Errorf("trap-rule=no: the mill must capture: %v", moveTexts(q))
	}
}

func TestReformBan(t *testing.T) {
	// White's mill a1-d1-g1; d1 leaves to d2, black moves, d2-d1 is banned.
	p := setup(t, "twelve-man-morris", "a1 d1 g1 f4", "a7 d7 g7 c4 e4", "w 0,0 - 0 30")
	p = play(t, p, "d1-d2")
	if got := p.String(); !strings.Contains(got, "bw=d2-d1") {
		t.Fatalf("no ban recorded: %s", got)
	}
	p = play(t, p, "c4-c3")
	if hasMove(p, "d2-d1") {
		t.Errorf("d2-d1 re-forms the broken mill at once: %v", moveTexts(p))
	}
	m, _ := p.Rules().Board().ParseMove("d2-d1")
	if err := p.Check(m); !errors.Is(err, ErrIllegalMove) || !strings.Contains(err.Error(), "re-form") {
		t.Errorf("Check(d2-d1) = %v, want the re-forming ban", err)
	}
	p = play(t, p, "d2-d3")
	p = play(t, p, "c3-c4")
	p = play(t, p, "d3-d2")
	p = play(t, p, "c4-c3")
	if !hasMove(p, "d2-d1xa7") {
		t.Errorf("two turns later the mill may be re-formed: %v", moveTexts(p))
	}
	// Without the rule, the mill re-forms at once.
	q := setup(t, "nine-mens-morris,flying=never", "a1 d2 g1 f4", "a7 d7 g7 c4 e4", "w 0,0 - 0 30")
	if !hasMove(q, "d2-d1xc4") {
		t.Errorf("reform-ban=no: %v", moveTexts(q))
	}
}

func TestFlyingAtFour(t *testing.T) {
	// twelve-mens-morris: a side with 4 pieces and none in hand flies.
	p := setup(t, "twelve-mens-morris", "a1 d1 g4 f6", "a7 d7 g7 c4 e4 b4", "w 0,0 - 0 40")
	if !hasMove(p, "a1-e5") || !p.Flying(White) {
		t.Errorf("4 pieces fly in twelve-mens-morris: %v", moveTexts(p))
	}
	// 4 pieces fly to 14 empty points; g4 and f6 flying to g1 close a1-d1-g1
	// and may take c4, e4 or b4 (a7-d7-g7 is a mill): 2 more moves each.
	if n := p.NumMoves(); n != 4*14+2*2 {
		t.Errorf("got %d flights, want %d", n, 4*14+2*2)
	}
	q := setup(t, "twelve-mens-morris", "a1 d1 g4 f6 b2", "a7 d7 g7 c4 e4 b4", "w 0,0 - 0 40")
	if hasMove(q, "a1-e5") {
		t.Errorf("5 pieces do not fly: %v", moveTexts(q))
	}
	r := setup(t, "nine-mens-morris", "a1 d1 g4 f6", "a7 d7 g7 c4 e4 b4", "w 0,0 - 0 40")
	if hasMove(r, "a1-e5") {
		t.Errorf("4 pieces do not fly in nine-mens-morris: %v", moveTexts(r))
	}
	// Flying needs an empty hand.
	s := setup(t, "twelve-mens-morris,move-while-placing=yes", "a1 d1 g4", "a7 d7 g7", "w 1,1 - 0 40")
	if hasMove(s, "a1-e5") {
		t.Errorf("a side with a piece in hand does not fly: %v", moveTexts(s))
	}
}

// full board of the 24-point board, no mills for anyone on standard lines.
const (
	fullWhite = "a1 g1 d2 f4 f6 b6 c3 e3 e5 c5 d7 a4"
	fullBlack = "d1 g4 g7 a7 b2 b4 d6 d3 e4 d5 c4 f2"
)

func TestFullBoard(t *testing.T) {
	for _, tc := range []struct {
		rules string
		o     Outcome
		m     Method
	}{
		{"twelve-mens-morris", Draw, FullBoard},
		{"morabaraba", Draw, FullBoard},
		{"twelve-mens-morris-small", BlackWon, Gridlock}, // white to move is blocked, so is black
		{"twelve-man-morris", Draw, Gridlock},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			p := setup(t, tc.rules, fullWhite, fullBlack, "w 0,0 - 0 24")
			wantStatus(t, p, tc.o, tc.m)
			if n := len(p.Moves(nil)); n != 0 {
				t.Errorf("a finished game has %d moves", n)
			}
		})
	}
}

func TestGridlock(t *testing.T) {
	// Without flying, an empty point can always be reached from a piece next
	// to it, so neither side can move only on a full board (or when the
	// re-forming ban forbids the last move). The rules decide what it means.
	for _, tc := range []struct {
		rules string
		o     Outcome
		m     Method
	}{
		{"twelve-mens-morris-small", BlackWon, Gridlock},
		{"twelve-mens-morris-small,gridlock=draw", Draw, Gridlock},
		{"twelve-mens-morris-small,full-board=draw", Draw, FullBoard},
		{"twelve-man-morris,gridlock=loses", BlackWon, Gridlock},
	} {
		p := setup(t, tc.rules, fullWhite, fullBlack, "w 0,0 - 0 24")
		wantStatus(t, p, tc.o, tc.m)
	}
	// White blocked, black free.
	white, black := "a1 d1 g1 d3", "a4 d2 g4 c3 e3 d6"
	for _, tc := range []struct {
		rules string
		o     Outcome
		m     Method
	}{
		{"nine-mens-morris", BlackWon, Blocked},
		{"nine-mens-morris,blocked=draw", Draw, Blocked},
		{"nine-mens-morris,blocked=passes", NoOutcome, NoMethod},
	} {
		p := setup(t, tc.rules, white, black, "w 0,0 - 0 40")
		wantStatus(t, p, tc.o, tc.m)
	}
}

func TestProtection(t *testing.T) {
	// Every black piece stands in a mill (a7-d7-g7 and c3-d3-e3); white closes a1-d1-g1.
	white := "a1 g1 b2 f6"
	black := "a7 d7 g7 c3 d3 e3"
	all := func(p Position, from string) []string {
		var out []string
		for _, m := range moveTexts(p) {
			if strings.HasPrefix(m, from) {
				out = append(out, m)
			}
		}
		return out
	}
	p := setup(t, "nine-mens-morris", white+" d2", black, "w 0,0 - 0 40")
	// unless-all-in-mills: all black pieces are in mills, so any may be taken.
	got := all(p, "d2-d1")
	want := []string{"d2-d1xa7", "d2-d1xc3", "d2-d1xd3", "d2-d1xd7", "d2-d1xe3", "d2-d1xg7"}
	if !slices.Equal(got, want) {
		t.Errorf("unless-all-in-mills: got %v, want %v", got, want)
	}
	// With one black piece outside the mills, only that one may be taken.
	p = setup(t, "nine-mens-morris", white+" d2", black+" g4", "w 0,0 - 0 40")
	if got := all(p, "d2-d1"); !slices.Equal(got, []string{"d2-d1xg4"}) {
		t.Errorf("unless-all-in-mills, one free piece: got %v", got)
	}
	// always: the capture is lost.
	p = setup(t, "nine-mens-morris,protection=always", white+" d2", black, "w 0,0 - 0 40")
	if got := all(p, "d2-d1"); !slices.Equal(got, []string{"d2-d1"}) {
		t.Errorf("always: got %v, want [d2-d1]", got)
	}
	// none: anything, even with a free piece.
	p = setup(t, "nine-mens-morris,protection=none", white+" d2", black+" g4", "w 0,0 - 0 40")
	if got := all(p, "d2-d1"); len(got) != 7 {
		t.Errorf("none: got %v, want 7 captures", got)
	}
}

func TestCapturePerMill(t *testing.T) {
	// Morabaraba: d1 closes a1-d1-g1 and d1-d2-d3 at once: two captures.
	var got []string
	p := setup(t, "morabaraba", "a1 g1 d2 d3 c4", "a7 d7 g7 b6 f6", "w 1,3 - 0 30")
	for _, m := range moveTexts(p) {
		if strings.HasPrefix(m, "d1") {
			got = append(got, m)
		}
	}
	// Black's a7-d7-g7 is a mill, b6 and f6 are free: the first capture takes
	// b6 or f6, the second the other; then everything left is in a mill.
	want := []string{"d1xf6xb6"} // captures print in board order
	if !slices.Equal(got, want) {
		t.Errorf("two mills, protection unless-all: got %v, want %v", got, want)
	}
	p = setup(t, "morabaraba,protection=none", "a1 g1 d2 d3 c4", "a7 d7 g7 b6 f6", "w 1,3 - 0 30")
	got = got[:0]
	for _, m := range moveTexts(p) {
		if strings.HasPrefix(m, "d1") {
			got = append(got, m)
		}
	}
	if len(got) != 10 { // C(5,2)
		t.Errorf("two mills, any piece: got %d moves %v, want 10", len(got), got)
	}
	m, _ := p.Rules().Board().ParseMove("d1xb6")
	if err := p.Check(m); err == nil || !strings.Contains(err.Error(), "2 piece") {
		t.Errorf("one capture for two mills: got %v", err)
	}
}

// TestCapturesInTurn: a move that takes several pieces names them in an
// order in which each may be taken once the ones before it are gone.
func TestCapturesInTurn(t *testing.T) {
	// d1 closes two mills. f6 is Black's one piece outside a mill, so it must
	// go first; then every black piece left stands in a mill and any may go.
	p := setup(t, "morabaraba", "a1 g1 d2 d3 c4", "a7 d7 g7 f6", "w 1,3 - 0 30")
	var got []string
	for _, m := range moveTexts(p) {
		if strings.HasPrefix(m, "d1") {
			got = append(got, m)
		}
	}
	want := []string{"d1xf6xa7", "d1xf6xd7", "d1xf6xg7"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	m, err := p.ParseMove("d1xa7xf6") // read in any order
	if err != nil {
		t.Fatal(err)
	}
	b := p.Rules().Board()
	if text := b.MoveText(m, Standard); text != "d1xa7xf6" {
		t.Errorf("Board.MoveText: got %s, want the board order d1xa7xf6", text)
	}
	if text := p.MoveText(m); text != "d1xf6xa7" {
		t.Errorf("Position.MoveText: got %s, want d1xf6xa7", text)
	}
	if text := string(p.AppendMove(nil, m, Pbm)); text != "D1,F6,A7" {
		t.Errorf("Position.AppendMove(Pbm): got %s, want D1,F6,A7", text)
	}
	for in, want := range map[string]string{"D1,A7,F6": "d1xa7xf6", "d1xF6xA7": "d1xf6xa7", "pass": "pass", "X,D2": "xd2"} {
		if got, err := b.Rewrite(in, Standard); err != nil || got != want {
			t.Errorf("Rewrite(%s): got %q, %v; want %s", in, got, err, want)
		}
	}
	if _, err := b.Rewrite("d1xa7xa7", Standard); err == nil {
		t.Error("Rewrite(d1xa7xa7): no error")
	}
}

func TestOneTimeMills(t *testing.T) {
	p := setup(t, "russian-mill", "a1 d2 g1 f4", "a7 d7 g7 c4 e4 b6", "w 0,0 - 0 30")
	p = play(t, p, "d2-d1xb6", "c4-c3", "d1-d2", "c3-c4")
	if hasMove(p, "d2-d1xa7") || !hasMove(p, "d2-d1") {
		t.Errorf("a mill line captures once: %v", moveTexts(p))
	}
}

func TestLasker(t *testing.T) {
	p := MustRules("lasker").Start()
	p = play(t, p, "a1", "g7")
	if !hasMove(p, "a1-d1") || !hasMove(p, "d1") {
		t.Errorf("lasker: place or slide: %v", moveTexts(p))
	}
	if n, want := p.NumMoves(), 22+2; n != want {
		t.Errorf("lasker: got %d moves, want %d", n, want)
	}
}

func TestMaterialAndBlocked(t *testing.T) {
	p := setup(t, "nine-mens-morris", "a1 g1 d2 f4", "a7 d7 g7", "w 0,0 - 0 40")
	p = play(t, p, "d2-d1xa7")
	wantStatus(t, p, WhiteWon, Material)
	// Blocked in the moving phase loses.
	q := setup(t, "nine-mens-morris", "a1 d1 c3 e3", "a4 b2 d2 g1 d3 f2 e4 c4", "w 0,0 - 0 40")
	wantStatus(t, q, BlackWon, Blocked)
}

func TestNoProgress(t *testing.T) {
	p := setup(t, "nine-mens-morris", "a1 g1 d2 f4", "a7 d7 g7 b6", "w 0,0 - 99 140")
	p = play(t, p, "f4-f6")
	wantStatus(t, p, Draw, NoProgress)
	q := setup(t, "nine-mens-morris,draw-after=0", "a1 g1 d2 f4", "a7 d7 g7 b6", "w 0,0 - 99 140")
	q = play(t, q, "f4-f6")
	wantStatus(t, q, NoOutcome, NoMethod)
}

func TestRepetition(t *testing.T) {
	start := setup(t, "nine-mens-morris", "a1 g1 d2 f4", "a7 d7 g7 b6", "w 0,0 - 0 40")
	g := NewGame(nil, FromPosition(start))
	shuffle := []string{"f4-f6", "b6-b4", "f6-f4", "b4-b6"}
	for i := 0; i < 2; i++ {
		for _, s := range shuffle {
			if err := g.PlayText(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	if g.Outcome() != Draw || g.Method() != Repetition {
		t.Errorf("third occurrence: got %v by %v, want a draw by repetition", g.Outcome(), g.Method())
	}
	if err := g.PlayText("f4-f6"); !errors.Is(err, ErrGameOver) {
		t.Errorf("a move after the end: got %v, want ErrGameOver", err)
	}
	g.Undo()
	if g.Outcome() != NoOutcome || g.Repetitions() != 2 {
		t.Errorf("after undo: %v, %d occurrences", g.Outcome(), g.Repetitions())
	}
}

// TestRepetitionCountsThePlacement: the position right after the last
// placement (or capture) is one of those compared, so its third
// occurrence draws, two slides after its second (how a game ends, in
// docs/rules.md; another program, which compares only positions after
// slides, plays on here).
func TestRepetitionCountsThePlacement(t *testing.T) {
	g := NewGame(MustRules("cheng-san-qi"))
	moves := strings.Fields("c4 e5 e4 e3 d6 b2 a7 g7 d5 d3 d7xg7 f6 b4 c3xa7 d2 a4 d1 b6 c4-c5 a4-a1 c5-c4 a1-a4 d2-f2 a4-a1 f2-d2 a1-a4")
	for i, m := range moves {
		if err := g.PlayText(m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if i < len(moves)-1 && g.Outcome() != NoOutcome {
			t.Fatalf("over after %s: %v by %v", m, g.Outcome(), g.Method())
		}
	}
	if g.Outcome() != Draw || g.Method() != Repetition || g.Repetitions() != 3 {
		t.Errorf("the position after b6 a third time: %v by %v (%d occurrences), want a draw by repetition", g.Outcome(), g.Method(), g.Repetitions())
	}
}

func TestFirstPlayerByLot(t *testing.T) {
	r := MustRules("twelve-mens-morris")
	seen := map[Color]bool{}
	for seed := uint64(0); seed < 16; seed++ {
		g := NewGame(r, WithSeed(seed))
		s, ok := g.Seed()
		if !ok || s != seed {
			t.Fatalf("seed not recorded: %d %v", s, ok)
		}
		first := g.Position().SideToMove()
		if again := NewGame(r, WithSeed(seed)).Position().SideToMove(); again != first {
			t.Fatalf("seed %d: the lot is not repeatable", seed)
		}
		seen[first] = true
	}
	if !seen[White] || !seen[Black] {
		t.Errorf("16 lots drew only %v", seen)
	}
	if _, ok := NewGame(MustRules("nine-mens-morris")).Seed(); ok {
		t.Errorf("no lot in nine-mens-morris")
	}
}

// movesFrom returns the legal moves whose text starts with prefix, sorted.
func movesFrom(p Position, prefix string) []string {
	var out []string
	for _, m := range moveTexts(p) {
		if strings.HasPrefix(m, prefix) {
			out = append(out, m)
		}
	}
	return out
}

// wantIllegal checks that the move text is refused in p with a reason that
// contains why.
func wantIllegal(t *testing.T, p Position, text, why string) {
	t.Helper()
	m, err := p.Rules().Board().ParseMove(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	if err := p.Check(m); !errors.Is(err, ErrIllegalMove) || !strings.Contains(err.Error(), why) {
		t.Errorf("Check(%s) in %s = %v, want an illegal move: %q", text, p, err, why)
	}
}

func TestThreeMensMorrisPlacing(t *testing.T) {
	// Three men each, placed one a turn on any empty point, white first.
	p := MustRules("three-mens-morris").Start()
	wantMoves(t, p, "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
	// A line of three made while placing wins at once and takes nothing:
	// white's c1 completes a1-b1-c1 although black threatens a2-b2-c2.
	p = play(t, p, "a1", "a2", "b1", "b2")
	wantMoves(t, p, "c1", "c2", "a3", "b3", "c3")
	wantIllegal(t, p, "c1xa2", "a mill wins the game under these rules and takes nothing")
	p = play(t, p, "c1")
	wantStatus(t, p, WhiteWon, MillFormed)
	if got := p.String(); got != "three-mens-morris WWW4B/B b 0,1 - 0 5" {
		t.Errorf("position after the win: %s", got)
	}
	// A diagonal is no line on this board: white's a1, b2, c3 win nothing.
	q := MustRules("three-mens-morris").Start()
	q = play(t, q, "a1", "b1", "b2", "c1", "c3")
	wantStatus(t, q, NoOutcome, NoMethod)
	wantMoves(t, q, "c2", "a2", "a3", "b3")
	// In tapatan the diagonal is a line: the same moves win.
	r := MustRules("tapatan").Start()
	r = play(t, r, "a1", "b1", "b2", "c1", "c3")
	wantStatus(t, r, WhiteWon, MillFormed)
}

func TestThreeMensMorrisMoving(t *testing.T) {
	// With every man placed, a man steps along a line to the next point,
	// if it is empty: no diagonals, no jumps, no flying.
	white, black := "a1 c1 b3", "b1 a2 c3"
	p := setup(t, "three-mens-morris", white, black, "w 0,0 - 0 6")
	wantStatus(t, p, NoOutcome, NoMethod)
	wantMoves(t, p, "c1-c2", "b3-a3", "b3-b2") // a1 is shut in by b1 and a2
	wantIllegal(t, p, "a1-a3", "a1 and a3 are not neighbours on a line (no flying in these rules)")
	wantIllegal(t, p, "c1-b2", "c1 and b2 are not neighbours on a line")
	// In tapatan the diagonals are lines to move along: a1-b2 and c1-b2.
	q := setup(t, "tapatan", white, black, "w 0,0 - 0 6")
	wantMoves(t, q, "a1-b2", "c1-b2", "c1-c2", "b3-a3", "b3-b2")
	// The other reading, nine holes (flying=3): a man moves to any empty point.
	r := setup(t, "three-mens-morris,flying=3", white, black, "w 0,0 - 0 6")
	wantMoves(t, r, "a1-c2", "a1-b2", "a1-a3", "c1-c2", "c1-b2", "c1-a3", "b3-c2", "b3-b2", "b3-a3")
	// A move that completes a line wins as a placement does.
	s := setup(t, "three-mens-morris", "a1 b1 c2", "a2 b2 c3", "w 0,0 - 0 6")
	wantMoves(t, s, "b1-c1", "c2-c1")
	s = play(t, s, "c2-c1")
	wantStatus(t, s, WhiteWon, MillFormed)
	// Tapatan: stepping along a diagonal to complete a diagonal wins.
	u := setup(t, "tapatan", "a1 b2 c2", "b1 a2 b3", "w 0,0 - 0 6")
	u = play(t, u, "c2-c3")
	wantStatus(t, u, WhiteWon, MillFormed)
}

func TestThreeMensMorrisBlocked(t *testing.T) {
	// White's a1, b1, a2 are shut in by black's c1, b2, a3: a side that
	// cannot move loses (blocked=draw is the other reading) ...
	white, black := "a1 b1 a2", "c1 b2 a3"
	p := setup(t, "three-mens-morris", white, black, "w 0,0 - 0 6")
	wantStatus(t, p, BlackWon, Blocked)
	wantMoves(t, p)
	q := setup(t, "three-mens-morris,blocked=draw", white, black, "w 0,0 - 0 6")
	wantStatus(t, q, Draw, Blocked)
	// ... and in tapatan black's c1-b2-a3 is a diagonal line: black has won.
	r := setup(t, "tapatan", white, black, "w 0,0 - 0 6")
	wantStatus(t, r, BlackWon, MillFormed)
	// A set-up where both sides have a line: the side that moved last,
	// which made its line with that move, has won.
	s := setup(t, "three-mens-morris", "a1 b1 c1", "a3 b3 c3", "b 0,0 - 0 6")
	wantStatus(t, s, WhiteWon, MillFormed)
}

func TestCentreBan(t *testing.T) {
	// centre-ban=yes: the first placement of the game may not take the centre.
	p := MustRules("three-mens-morris", "centre-ban=yes").Start()
	wantMoves(t, p, "a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3")
	wantIllegal(t, p, "b2", "the first placement of the game may not take the centre, b2")
	// The second player may take it, and so may the first player later.
	p = play(t, p, "a1")
	wantMoves(t, p, "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
	p = play(t, p, "c3")
	if !hasMove(p, "b2") {
		t.Errorf("white's second placement may take the centre: %v", moveTexts(p))
	}
	// The ban holds for whoever places first.
	q := MustRules("tapatan", "centre-ban=yes", "first=black").Start()
	if q.SideToMove() != Black || hasMove(q, "b2") || q.NumMoves() != 8 {
		t.Errorf("black first: %v", moveTexts(q))
	}
	// On seven men's morris the centre is c3.
	s := MustRules("seven-mens-morris", "centre-ban=yes").Start()
	if hasMove(s, "c3") || s.NumMoves() != 16 {
		t.Errorf("seven-mens-morris, centre-ban=yes: %v", moveTexts(s))
	}
	if _, err := NewRules("six-mens-morris", "centre-ban=yes"); err == nil || !strings.Contains(err.Error(), "no centre") {
		t.Errorf("centre-ban on the board of six men's morris: got %v, want no centre", err)
	}
}

func TestSixMensMorris(t *testing.T) {
	// Six men each on 16 points; mills on the sides of the two squares only.
	p := MustRules("six-mens-morris").Start()
	if n := p.NumMoves(); n != 16 {
		t.Errorf("start: %d moves, want 16", n)
	}
	// White's e1 closes a1-c1-e1 and takes any black man (none in a mill).
	q := setup(t, "six-mens-morris", "a1 c1 e5", "b2 c2 a5", "w 3,3 - 0 6")
	wantMoves(t, q, "e1xb2", "e1xc2", "e1xa5", "e3", "d2", "d3", "d4", "c4", "b4", "b3", "c5", "a3")
	// A spoke joins two points only, so it holds no line: there is no c3.
	if _, ok := q.Rules().Board().PointByName("c3"); ok {
		t.Errorf("six men's morris has no centre point")
	}
	// No flying: black, down to three men, still steps along the lines.
	r := setup(t, "six-mens-morris", "a1 c1 e3 b4", "c2 d2 a5", "b 0,0 - 0 30")
	wantMoves(t, r, "c2-b2", "d2-d3", "a5-a3", "a5-c5")
	// A side reduced to two men loses: e3-e1 closes a1-c1-e1 and takes one.
	s := setup(t, "six-mens-morris", "a1 c1 e3", "c2 d2 a5", "w 0,0 - 0 30")
	if !hasMove(s, "e3-e1xc2") {
		t.Fatalf("e3-e1 closes a mill: %v", moveTexts(s))
	}
	s = play(t, s, "e3-e1xc2")
	wantStatus(t, s, WhiteWon, Material)
	// A side that cannot move loses.
	u := setup(t, "six-mens-morris", "a1 c1 e1", "a3 c2 e3 b4", "w 0,0 - 0 30")
	wantStatus(t, u, BlackWon, Blocked)
}

func TestSevenMensMorris(t *testing.T) {
	// Seven men each on 17 points: the six men's board and a cross through
	// the centre c3, which joins the middles of the inner square.
	p := setup(t, "seven-mens-morris", "c3 a1 e5", "a5 e1 b2", "w 0,0 - 0 30")
	if got, want := movesFrom(p, "c3"), []string{"c3-b3", "c3-c2", "c3-c4", "c3-d3"}; !slices.Equal(got, want) {
		t.Errorf("the centre's moves: got %v, want %v", got, want)
	}
	// Every three points in a row on the cross are a line: c1-c2-c3 (a
	// spoke and the centre) and b3-c3-d3 (across the centre). White's c3
	// closes both and, with one capture per move, takes one black man.
	q := setup(t, "seven-mens-morris", "c1 c2 b3 d3", "a1 d2 b4 e5", "w 3,3 - 0 8")
	if got, want := movesFrom(q, "c3"), []string{"c3xa1", "c3xb4", "c3xd2", "c3xe5"}; !slices.Equal(got, want) {
		t.Errorf("c3 closing two lines: got %v, want %v", got, want)
	}
	// The lines of the cross: c3-c4-c5 too, while a corner of the inner
	// square (b2) is no neighbour of the centre.
	r := setup(t, "seven-mens-morris", "c4 c5 b2", "a1 e1 e5", "w 0,0 - 0 30")
	if !hasMove(r, "b2-c2") || hasMove(r, "b2-c3") {
		t.Errorf("b2 steps to c2 and b3, not to the centre: %v", moveTexts(r))
	}
	s := play(t, setup(t, "seven-mens-morris", "c4 c5 d3", "a1 e1 e5", "w 0,0 - 0 30"), "d3-c3xa1")
	if s.OnBoard(Black) != 2 {
		t.Errorf("c3-c4-c5 is a mill: %s", s)
	}
	// No flying at three men.
	if hasMove(r, "b2-d4") {
		t.Errorf("no flying in seven men's morris: %v", moveTexts(r))
	}
}

func TestDoozTakesFromTheHand(t *testing.T) {
	// White's d1 closes a1-d1-g1 while both sides still place: the mill
	// takes a piece from black's hand, so the move names no capture, black
	// keeps its pieces on the board, and the turn passes to black.
	p := setup(t, "dooz", "a1 g1", "a7 d7", "w 10,10 - 0 4")
	wantMoves(t, p, "a4", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "e3", "e4", "e5", "f2", "f4", "f6", "g4", "g7")
	wantIllegal(t, p, "d1xa7", "the mill takes a piece from black's hand, so the move names no capture")
	p = play(t, p, "d1")
	if got, want := p.String(), "dooz WWW2BB1/8/8 b 9,9 - 0 5"; got != want {
		t.Errorf("after d1: got %s, want %s (black's hand one short)", got, want)
	}
	// Once black's hand is empty, a mill takes from the board as usual:
	// not from black's mill a7-d7-g7 while c3 and e3 stand outside mills.
	q := setup(t, "dooz", "a1 g1 b2 f2 d6", "a7 d7 g7 c3 e3", "w 1,0 - 0 23")
	wantMoves(t, q, "a4", "b4", "b6", "c4", "c5", "d1xc3", "d1xe3", "d2xc3", "d2xe3", "d3", "d5", "e4", "e5", "f4", "f6", "g4")
	// Two mills at once under captures=per-mill: one piece from the hand,
	// the other from the board.
	r := setup(t, "dooz,captures=per-mill", "a1 g1 d2 d3 c4", "a7 d7 g7 b6 f6", "w 2,1 - 0 20")
	if got := movesFrom(r, "d1"); !slices.Equal(got, []string{"d1xb6", "d1xf6"}) {
		t.Errorf("two mills, one piece in hand: got %v, want [d1xb6 d1xf6]", got)
	}
	if r = play(t, r, "d1xf6"); r.InHand(Black) != 0 || r.OnBoard(Black) != 4 {
		t.Errorf("d1xf6 takes black's last piece in hand and f6: %s", r)
	}
}

func TestDoozUnevenHands(t *testing.T) {
	// Black's hand emptied early by white's mills: black slides while white
	// still places (and flies with three pieces on the board).
	p := setup(t, "dooz", "a1 d1 g1 b2 d2 f2 c3 e3", "a7 d7 g7 g4", "b 3,0 - 0 18")
	wantMoves(t, p, "a7-a4", "a7-b6", "d7-d6", "g4-f4", "g7-f6")
	wantIllegal(t, p, "d5", "black has no pieces in hand: move a piece (from-to)")
	q := setup(t, "dooz", "a1 d1 g1 b2 d2 f2 c3 e3", "a7 d7 g7", "b 3,0 - 0 18")
	if !q.Flying(Black) || q.NumMoves() != 3*13 {
		t.Errorf("three black pieces, none in hand, fly: %v", moveTexts(q))
	}
	// A side whose hand is empty and that cannot move loses, even while
	// the other still places.
	r := setup(t, "dooz", "a4 b2 d2 f2 g4 d7 b6 e5", "a1 d1 g1 a7", "b 3,0 - 0 18")
	wantStatus(t, r, WhiteWon, Blocked)
}

func TestChengSanQi(t *testing.T) {
	// Nine men's morris without flying: three men still step.
	p := setup(t, "cheng-san-qi", "a1 g1 d2", "a7 d7 g7 b6", "w 0,0 - 0 40")
	wantMoves(t, p, "a1-a4", "a1-d1", "d2-b2", "d2-d1xb6", "d2-d3", "d2-f2", "g1-d1", "g1-g4")
	q := setup(t, "nine-mens-morris", "a1 g1 d2", "a7 d7 g7 b6", "w 0,0 - 0 40")
	if n := q.NumMoves(); n != 3*17 {
		t.Errorf("nine men's morris flies with three: %d moves, want 51", n)
	}
}

func TestDaSanQiMarks(t *testing.T) {
	// A mill while placing marks a black piece, any one (protection none).
	p := setup(t, "da-san-qi", "a1 g1 b4", "a7 d7 g7 d5", "w 9,8 - 0 7")
	if got := movesFrom(p, "d1"); !slices.Equal(got, []string{"d1xa7", "d1xd5", "d1xd7", "d1xg7"}) {
		t.Errorf("the mill marks any black piece, in a mill or not: got %v", got)
	}
	p = play(t, p, "d1xa7")
	if got, want := p.String(), "da-san-qi WWW1BBX1/7W/5B2 b 8,8 - 0 8"; got != want {
		t.Errorf("after d1xa7: got %s, want %s (a7 marked)", got, want)
	}
	if p.Marked() != 1<<6 || p.OnBoard(Black) != 3 {
		t.Errorf("a7 is out of play: marked %#x, black on board %d", p.Marked(), p.OnBoard(Black))
	}
	if p.InMills(Black) != 0 {
		t.Errorf("the marked a7 makes no mill with d7 and g7: %s", p)
	}
	if d := p.Diagram(RankOneBottom); !strings.HasPrefix(d, "7  X") {
		t.Errorf("the diagram draws the marked a7 as X:\n%s", d)
	}
	// The marked point is blocked: nobody places there, and a marked
	// piece makes no mill for its side.
	wantIllegal(t, p, "a7", "a7 holds a marked piece: nobody may place there until placing ends")
	p = play(t, p, "a4", "b2")
	if hasMove(p, "a7") {
		t.Errorf("a7 stays blocked: %v", moveTexts(p))
	}
	// A marked piece is not taken twice: white's mills mark the others.
	p = play(t, p, "f6")
	if got := movesFrom(p, "b6"); !slices.Equal(got, []string{"b6xa4", "b6xd5", "b6xd7", "b6xf6", "b6xg7"}) {
		t.Errorf("a marked piece is not taken again: got %v", got)
	}
	wantIllegal(t, p, "b6xa7", "a7 is marked already: a marked piece is not taken twice")
}

func TestDaSanQiEndOfPlacing(t *testing.T) {
	// Black places the last piece; its mill c3-d3-e3 marks a white piece.
	// Then every marked piece leaves the board together, and black, the
	// second player, makes the first move.
	p := MustParsePosition("da-san-qi WBWXBBWW/XWWWWWWW/B1BXBXWB b 0,1 - 0 23")
	wantMoves(t, p, "d3xa1", "d3xa4", "d3xa7", "d3xb4", "d3xb6", "d3xc5", "d3xd2", "d3xd6", "d3xf2", "d3xf4", "d3xf6", "d3xg1")
	p = play(t, p, "d3xd2")
	if got, want := p.String(), "da-san-qi WBW1BBWW/2WWWWWW/BBB1B1WB b 0,0 - 0 24"; got != want {
		t.Errorf("after placing: got %s, want %s (g4, b2, e4, d5 and d2 empty, black to move)", got, want)
	}
	wantMoves(t, p, "c3-b2", "d1-d2", "d3-d2", "e3-e4", "e5-d5", "e5-e4", "g7-g4")
	// The same without the rule: white, the first player, moves first.
	q := MustParsePosition("da-san-qi,second-moves-first=no WBWXBBWW/XWWWWWWW/B1BXBXWB b 0,1 - 0 23")
	if q = play(t, q, "d3xd2"); q.SideToMove() != White {
		t.Errorf("second-moves-first=no: got %s, want white to move", q)
	}
}

func TestDaSanQiFullBoard(t *testing.T) {
	// Nobody made a mill while placing: no piece leaves, the board is
	// full, and the first player loses (the second moves first and
	// cannot; neither could the first).
	white := fullWhite
	black := "d1 g4 g7 a7 b2 b4 d6 d3 e4 d5 c4"
	for _, tc := range []struct {
		rules string
		o     Outcome
		m     Method
	}{
		{"da-san-qi", BlackWon, FullBoard},
		{"da-san-qi,second-moves-first=no", BlackWon, FullBoard},
		{"da-san-qi,full-board=gridlock", WhiteWon, Gridlock}, // black, to move, cannot
		{"da-san-qi,full-board=draw", Draw, FullBoard},
	} {
		p := play(t, setup(t, tc.rules, white, black, "b 0,1 - 0 23"), "f2")
		wantStatus(t, p, tc.o, tc.m)
	}
}

func TestZhiQiFullBoard(t *testing.T) {
	// The last placement fills the board without a mill: white, the first
	// player, removes a black piece, then black a white one, then white
	// moves. White cannot move on the full board, so it removes as a
	// blocked side does: a piece next to one of its own.
	p := setup(t, "zhi-qi", fullWhite, "d1 g4 g7 a7 b2 b4 d6 d3 e4 d5 c4", "b 0,1 - 0 23")
	p = play(t, p, "f2")
	if got, want := p.String(), "zhi-qi WBWBBWBW/BWBWWBWB/WBWBWBWB w 0,0 xw,xb 0 24"; got != want {
		t.Errorf("the full board: got %s, want %s", got, want)
	}
	wantMoves(t, p, "xa7", "xb2", "xb4", "xc4", "xd1", "xd3", "xd5", "xd6", "xe4", "xf2", "xg4", "xg7")
	wantIllegal(t, p, "f4-f2", "white must first remove a black piece (owed when placing ended), like xd1")
	// White takes a7, whose neighbours are all white: black, left
	// without a move, removes a white piece next to one of its own.
	q := play(t, p, "xa7")
	wantMoves(t, q, "xa1", "xa4", "xb6", "xc3", "xc5", "xd2", "xd7", "xe3", "xe5", "xf4", "xf6", "xg1")
	q = play(t, q, "xd7")
	// White moves: only to a7, closing a mill either way (a7-b6-c5 or
	// a7-a4-a1), and may take any black piece outside black's mills.
	var want []string
	for _, from := range []string{"a4", "b6"} {
		for _, x := range []string{"b2", "b4", "c4", "d1", "d3", "d5", "d6", "e4", "f2", "g4", "g7"} {
			want = append(want, from+"-a7x"+x)
		}
	}
	wantMoves(t, q, want...)
	// White takes d6: black's d5 can move there, so black's removal is an
	// ordinary capture; white moves next.
	r := play(t, p, "xd6", "xf6")
	wantMoves(t, r, "b6-d6", "d7-d6", "e5-f6", "f4-f6")
	if _, ok := r.Pending(); ok || r.SideToMove() != White {
		t.Errorf("after both removals white moves: %s", r)
	}
	// full-board=gridlock instead: the side to move loses.
	s := play(t, setup(t, "zhi-qi,full-board=gridlock,blocked=loses", fullWhite, "d1 g4 g7 a7 b2 b4 d6 d3 e4 d5 c4", "b 0,1 - 0 23"), "f2")
	wantStatus(t, s, BlackWon, Gridlock)
}

func TestZhiQiBlockedRemoves(t *testing.T) {
	// White's four men are shut in. Instead of losing, white removes a
	// black piece next to one of its own, even one in black's mill
	// b2-d2-f2 (but not e4, which touches no white piece), and moves again.
	p := setup(t, "zhi-qi", "a1 d1 g1 a7", "a4 b2 d2 f2 g4 d7 b6 e4", "w 0,0 - 0 40")
	wantStatus(t, p, NoOutcome, NoMethod)
	wantMoves(t, p, "xa4", "xb2", "xb6", "xd2", "xd7", "xf2", "xg4")
	wantIllegal(t, p, "xe4", "e4 is not next to a white piece: a blocked side removes to make room, like xg4")
	wantIllegal(t, p, "a1-b2", "white cannot move: it removes a black piece next to one of its own first, like xg4")
	if _, ok := p.Pending(); ok {
		t.Errorf("a blocked side's removal is not a pending one")
	}
	p = play(t, p, "xd2")
	if p.SideToMove() != White || p.Quiet() != 0 {
		t.Fatalf("after the removal white moves again (and the count restarts): %s", p)
	}
	wantMoves(t, p, "d1-d2")
	p = play(t, p, "d1-d2")
	if p.SideToMove() != Black {
		t.Errorf("then black: %s", p)
	}
	// blocked=loses, the usual rule: white has lost.
	q := setup(t, "zhi-qi,blocked=loses", "a1 d1 g1 a7", "a4 b2 d2 f2 g4 d7 b6 e4", "w 0,0 - 0 40")
	wantStatus(t, q, BlackWon, Blocked)
}

func TestZhiQiMillOfAShutInPlacer(t *testing.T) {
	// Reading 37. Black places f6 and closes f2-f4-f6 at a moment when no
	// black piece has an empty point beside it. The mill's capture is a
	// capture, under the usual protection: any white piece outside a mill
	// (white has none), a4 included, which stands next to no black piece;
	// not a blocked side's removal, which would offer only the white
	// pieces next to black ones (another program's reading: without xa4).
	p := MustParsePosition("zhi-qi WBBBBW1W/1WBB1W2/1WBBW3 b 3,4 - 0 17")
	wantStatus(t, p, NoOutcome, NoMethod)
	want := []string{"a7", "b2", "b4", "b6", "c3", "c4", "c5", "d5", "f6xa1", "f6xa4", "f6xd2", "f6xd3", "f6xd6", "f6xd7", "f6xe5"}
	wantMoves(t, p, want...)
	q := play(t, p, "f6xa4")
	if q.SideToMove() != White || q.OnBoard(White) != p.OnBoard(White)-1 {
		t.Errorf("after f6xa4: %s", q)
	}
}

func TestElFiljaCountedMills(t *testing.T) {
	// Mills while placing take nothing.
	p := setup(t, "el-filja", "a1 g1", "a7 d7", "w 10,10 - 0 4")
	if !hasMove(p, "d1") {
		t.Errorf("d1 closes a mill and is a plain placement: %v", moveTexts(p))
	}
	wantIllegal(t, p, "d1xa7", "mills closed while placing take nothing at once under these rules")
	// Black places the last piece. White has one mill (c3-d3-e3), black
	// none: white removes two black pieces, then black one white piece,
	// then white moves.
	q := MustParsePosition("el-filja 1WWBBWBW/BBWWBBWB/WWWBWBBW b 0,1 - 0 23")
	q = play(t, q, "a1")
	if got, want := q.String(), "el-filja BWWBBWBW/BBWWBBWB/WWWBWBBW w 0,0 xw2,xb 0 24"; got != want {
		t.Errorf("after placing: got %s, want %s", got, want)
	}
	wantMoves(t, q, "xa1", "xa7", "xb2", "xb4", "xc5", "xd2", "xd5", "xd6", "xe4", "xf6", "xg4", "xg7")
	q = play(t, q, "xa1")
	if q.SideToMove() != White || q.Owed(White) != 1 {
		t.Errorf("white removes again: %s", q)
	}
	q = play(t, q, "xa7")
	wantMoves(t, q, "xa4", "xb6", "xc3", "xc4", "xd1", "xd3", "xd7", "xe3", "xe5", "xf2", "xf4", "xg1")
	q = play(t, q, "xd1")
	wantMoves(t, q, "a4-a1", "a4-a7", "d7-a7", "g1-d1")
	// Without mills on the board each side removes one of its own pieces,
	// white first.
	r := MustParsePosition("el-filja WW1WBWBB/BBWBWBWW/WBBWWBBW b 0,1 - 0 23")
	r = play(t, r, "g1")
	if got, want := r.String(), "el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw,xb,own 0 24"; got != want {
		t.Errorf("no mills: got %s, want %s", got, want)
	}
	wantMoves(t, r, "xa1", "xb4", "xb6", "xc3", "xc4", "xd1", "xd7", "xe4", "xe5", "xf2", "xf6", "xg4")
	wantIllegal(t, r, "xb2", "there is no white piece on b2 to remove")
	r = play(t, r, "xa1")
	if !r.RemovesOwn() || r.SideToMove() != Black {
		t.Errorf("then black removes one of its own: %s", r)
	}
	r = play(t, r, "xa4")
	if r.RemovesOwn() || r.SideToMove() != White || r.OnBoard(White) != 11 || r.OnBoard(Black) != 11 {
		t.Errorf("then white moves: %s", r)
	}
	// counted-each, the other reading: each side removes one opposing
	// piece per mill; with none, the full board makes each remove one.
	s := MustParsePosition("el-filja,placing-captures=counted-each 1WWBBWBW/BBWWBBWB/WWWBWBBW b 0,1 - 0 23")
	if s = play(t, s, "a1"); s.Owed(White) != 1 || s.Owed(Black) != 0 || s.SideToMove() != White {
		t.Errorf("counted-each, one mill for white: %s", s)
	}
	u := MustParsePosition("el-filja,placing-captures=counted-each WW1WBWBB/BBWBWBWW/WBBWWBBW b 0,1 - 0 23")
	if u = play(t, u, "g1"); u.String() != "el-filja,placing-captures=counted-each WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw,xb 0 24" {
		t.Errorf("counted-each without mills: the full board's removals: %s", u)
	}
}

func TestCountedRemovals(t *testing.T) {
	for _, tc := range []struct {
		w, b, rw, rb int
		own          bool
	}{
		{0, 0, 1, 1, true},
		{1, 0, 2, 1, false},
		{3, 0, 2, 1, false},
		{0, 2, 1, 2, false},
		{2, 2, 2, 2, false},
		{3, 1, 2, 1, false},
		{1, 4, 1, 2, false},
		{5, 5, 5, 5, false},
	} {
		rw, rb, own := countedRemovals(tc.w, tc.b)
		if rw != tc.rw || rb != tc.rb || own != tc.own {
			t.Errorf("mills %d and %d: got %d, %d, own %v; want %d, %d, own %v", tc.w, tc.b, rw, rb, own, tc.rw, tc.rb, tc.own)
		}
		if owe, own2 := slowCounted([2]int{tc.w, tc.b}); owe != [2]int{tc.rw, tc.rb} || own2 != tc.own {
			t.Errorf("mills %d and %d: the slow twin gives %v, own %v", tc.w, tc.b, owe, own2)
		}
	}
}

func TestRegionalPositionText(t *testing.T) {
	// The new parts of the position text and what the reader refuses.
	for _, good := range []string{
		"da-san-qi WWW1BBX1/7W/5B2 b 8,8 - 0 8",
		"el-filja BWWBBWBW/BBWWBBWB/WWWBWBBW w 0,0 xw2,xb 0 24",
		"el-filja 1WWBBW1W/BBWWBBWB/WWWBWBBW b 0,0 xb 0 26",
		"el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw,xb,own 0 24",
		"zhi-qi WBWBBWBW/BWBWWBWB/WBWBWBWB w 0,0 xw,xb 0 24",
	} {
		p, err := ParsePosition(good)
		if err != nil || p.String() != good {
			t.Errorf("ParsePosition(%q): got %v, %v; want it back", good, p, err)
		}
	}
	for _, bad := range []struct{ text, why string }{
		{"nine-mens-morris WWW1BBX1/7W/5B2 b 8,8 - 0 8", `'X' is not W, B or a digit 1-8`},
		{"da-san-qi WWW1BBX1/7W/5B2 b 0,0 - 0 8", "marked pieces leave the board when placing ends"},
		{"da-san-qi WWWXXXXX/XXXXXXXX/XXXXXXXX b 9,9 - 0 8", "more than 24"},
		{"zhi-qi WBWBBWBW/BWBWWBWB/WBWBWBWB w 0,0 xw2,xb 0 24", "one removal a side at most"},
		{"el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw1,xb 0 24", "want xw for one removal"},
		{"el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw,xb2,own 0 24", "one removal a side at most"},
		{"el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xb 0 24", "the side that must remove is the side to move"},
		{"el-filja WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 own 0 24", "no removal is owed"},
		{"el-filja,placing-captures=counted-each WWBWBWBB/BBWBWBWW/WBBWWBBW w 0,0 xw,own 0 24", "only with placing-captures=counted"},
		{"shah WBWBWBWB/BWBWBWBW/WBWBWBWB w 0,0 xw,xb 0 24", "one side's only"},
		{"dooz WBWBWBWB/BWBWBWBW/WBWBWBWB w 0,0 xw 0 24", "removals are owed only with"},
		{"el-filja WWBWBWBB/BBWBWBWW/WBBWWB1W w 0,1 xw 0 23", "the removal comes when placing is over"},
	} {
		if _, err := ParsePosition(bad.text); err == nil || !strings.Contains(err.Error(), bad.why) {
			t.Errorf("ParsePosition(%q): got %v, want an error with %q", bad.text, err, bad.why)
		}
	}
}
