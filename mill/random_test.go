package mill

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The differential test: random games of every preset and of some
// overrides, from the start and from random set-up positions, where at every
// position the fast code must agree with the slow twin of slow_test.go.

type diffConfig struct {
	variant   string
	overrides []string
}

func (c diffConfig) String() string {
	return strings.Join(append([]string{c.variant}, c.overrides...), ",")
}

// diffConfigs returns every preset and a few overrides that reach the
// options the presets leave off.
func diffConfigs() []diffConfig {
	var cs []diffConfig
	for _, v := range Variants() {
		cs = append(cs, diffConfig{variant: v.ID})
	}
	for _, ov := range [][]string{
		{"flying=never"},
		{"flying=4"},
		{"protection=always"},
		{"protection=none"},
		{"captures=per-mill"},
		{"blocked=passes"},
		{"blocked=draw"},
		{"gridlock=draw", "flying=never"},
		{"reform-ban=yes"},
		{"one-time-mills=yes"},
		{"placing-captures=none"},
		{"min-pieces=2", "flying=never"},
		{"draw-after=0"},
	} {
		cs = append(cs, diffConfig{"nine-mens-morris", ov})
	}
	cs = append(cs,
		diffConfig{"twelve-mens-morris-large", []string{"captures=per-mill"}},
		diffConfig{"twelve-mens-morris-small", []string{"captures=per-mill", "one-time-mills=yes", "reform-ban=yes"}},
		diffConfig{"morabaraba", []string{"protection=always"}},
		diffConfig{"lasker", []string{"captures=per-mill", "reform-ban=yes", "blocked=passes"}},
		diffConfig{"shah", []string{"board=diagonal24"}},
		diffConfig{"shah", []string{"board=diagonal24", "diagonal-mills=yes"}},
		diffConfig{"shah", []string{"protection=always"}},
		diffConfig{"shah", []string{"trap-rule=no", "protection=unless-all-in-mills"}},
		// The small boards' other readings and options.
		diffConfig{"three-mens-morris", []string{"flying=3"}},
		diffConfig{"three-mens-morris", []string{"centre-ban=yes"}},
		diffConfig{"three-mens-morris", []string{"board=diagonal9"}},
		diffConfig{"tapatan", []string{"centre-ban=yes", "blocked=draw"}},
		diffConfig{"tapatan", []string{"pieces=4", "move-while-placing=yes"}},
		diffConfig{"six-mens-morris", []string{"flying=3", "captures=per-mill"}},
		diffConfig{"seven-mens-morris", []string{"centre-ban=yes", "captures=per-mill", "protection=none"}},
		diffConfig{"seven-mens-morris", []string{"flying=3", "one-time-mills=yes", "reform-ban=yes"}},
		diffConfig{"nine-mens-morris", []string{"mill-wins=yes"}},
		diffConfig{"twelve-mens-morris", []string{"mill-wins=yes", "flying=never"}},
		// The regional presets' options, alone and with the others.
		diffConfig{"dooz", []string{"captures=per-mill"}},
		diffConfig{"dooz", []string{"move-while-placing=yes", "one-time-mills=yes"}},
		diffConfig{"nine-mens-morris", []string{"placing-captures=hand", "protection=always"}},
		diffConfig{"da-san-qi", []string{"protection=unless-all-in-mills", "captures=per-mill"}},
		diffConfig{"da-san-qi", []string{"second-moves-first=no", "full-board=gridlock"}},
		diffConfig{"nine-mens-morris", []string{"placing-captures=mark", "second-moves-first=yes"}},
		diffConfig{"zhi-qi", []string{"flying=never"}},
		diffConfig{"zhi-qi", []string{"protection=always", "reform-ban=yes"}},
		diffConfig{"nine-mens-morris", []string{"blocked=removes", "flying=never", "pieces=12"}},
		diffConfig{"el-filja", []string{"placing-captures=counted-each"}},
		diffConfig{"el-filja", []string{"protection=always", "captures=per-mill"}},
		diffConfig{"el-filja", []string{"board=diagonal24", "diagonal-mills=yes", "second-moves-first=yes"}},
		diffConfig{"twelve-mens-morris-small", []string{"full-board=removals", "blocked=removes"}},
		diffConfig{"twelve-mens-morris-small", []string{"full-board=first-loses", "flying=never"}},
	)
	return cs
}

// diffStats counts what the random games went through, so that a test
// that passes can also show it reached every phase.
type diffStats struct {
	games, positions             int
	moving, flying               int // positions with both hands empty; with the side to move flying
	captures, multi, removals    int // moves that take a piece; take several; deferred removals
	passes, lostRemovals, banned int // passes; removals lost; positions where a ban forbids a move
	trapMills                    int // mills closed while the opponent is trapped (trap rule)
	handTakes, marks, marksGone  int // mills that took from the hand; pieces marked; ends of placing that removed marks
	blockedRemovals, owedBoth    int // removals of a blocked side; positions where both sides owe removals
	ownRemovals                  int // removals of one's own pieces
	ends                         map[Method]int
}

func (s *diffStats) String() string {
	var ends []string
	for m := Material; m <= MillFormed; m++ {
		if s.ends[m] > 0 {
			ends = append(ends, fmt.Sprintf("%s %d", m, s.ends[m]))
		}
	}
	return fmt.Sprintf("%d games, %d positions (%d moving, %d flying), %d captures (%d multiple), %d removals (%d blocked, %d own, %d positions where both owe), %d passes (%d lost removals), %d with a ban, %d mills of a trapper, %d takes from the hand, %d marks (%d ends of placing removed marks); ends: %s",
		s.games, s.positions, s.moving, s.flying, s.captures, s.multi, s.removals, s.blockedRemovals, s.ownRemovals, s.owedBoth, s.passes, s.lostRemovals, s.banned, s.trapMills, s.handTakes, s.marks, s.marksGone, strings.Join(ends, ", "))
}

// differ plays random games under one rule set and checks every position.
type differ struct {
	t        *testing.T
	r        *Rules
	sr       *slowRules
	rng      *rand.Rand
	stats    diffStats
	failures int
	textBad  int // positions whose text does not parse back
}

// maxFailures stops a rule set after this many failing games, so that one
// bug does not bury the others.
const maxFailures = 3

func newDiffer(t *testing.T, r *Rules, seed uint64) *differ {
	sr := newSlowRules(r)
	if got, want := len(sr.lines), len(r.MillLines()); got != want {
		t.Fatalf("%s: slow twin has %d mill lines, want %d", r, got, want)
	}
	// Used one-time mills are line indices: both must count the same way.
	for i, l := range r.MillLines() {
		var want Points
		for _, pt := range sr.lines[i] {
			want |= 1 << pt
		}
		if l != want {
			t.Fatalf("%s: mill line %d: got %#x, want %#x (the slow twin's order)", r, i, l, want)
		}
	}
	return &differ{t: t, r: r, sr: sr, rng: rand.New(rand.NewPCG(seed, 0x6d696c6c)), stats: diffStats{ends: map[Method]int{}}}
}

func (d *differ) fail(format string, args ...any) {
	d.t.Helper()
	d.failures++
	d.t.Errorf(format, args...)
}

// textFail reports a position text that does not parse back; after the
// first few, only the count (see finish).
func (d *differ) textFail(format string, args ...any) {
	d.t.Helper()
	d.textBad++
	if d.textBad <= maxFailures {
		d.t.Errorf(format, args...)
	}
}

// finish reports what fail and textFail left unsaid.
func (d *differ) finish() {
	d.t.Helper()
	if d.textBad > maxFailures {
		d.t.Errorf("%d positions in all whose text does not parse back", d.textBad)
	}
}

func (d *differ) moveList(ms []Move) string {
	var out []string
	for _, m := range ms {
		out = append(out, d.r.board.MoveText(m, Standard))
	}
	return "[" + strings.Join(out, " ") + "]"
}

// check compares the fast code with the slow twin at p and returns the
// legal moves; ok is false after a disagreement.
func (d *differ) check(p Position) (moves []Move, ok bool) {
	d.t.Helper()
	sr := d.sr
	s := sr.fromPosition(p)
	text := p.String()
	d.stats.positions++

	if q := sr.position(s); q != p {
		d.fail("%s: the slow twin's conversion does not round-trip: got %s, want %s", text, q, p)
		return nil, false
	}
	if got, want := p.Key(), sr.key(s); got != want {
		d.fail("%s: Key: got %#x, want %#x (from scratch)", text, got, want)
		return nil, false
	}
	// A text that does not parse back is reported, but the game goes
	// on: the moves and the play can still be checked.
	if q, err := ParsePosition(text); err != nil {
		d.textFail("ParsePosition(%q): got error %v, want the same position back", text, err)
	} else if q != p {
		d.textFail("ParsePosition(%q): got %s, want the same position back", text, q)
	}

	got := p.Moves(nil)
	want := sr.moves(&s)
	sortMoves(got)
	sortMoves(want)
	if !slices.Equal(got, want) {
		var missing, extra []Move
		for _, m := range want {
			if !slices.Contains(got, m) {
				missing = append(missing, m)
			}
		}
		for _, m := range got {
			if !slices.Contains(want, m) {
				extra = append(extra, m)
			}
		}
		d.fail("%s: Moves: got %s, want %s; missing %s, extra %s",
			text, d.moveList(got), d.moveList(want), d.moveList(missing), d.moveList(extra))
		return nil, false
	}
	// Every legal move's text, in both dialects, reads back as the move.
	for _, m := range got {
		for _, dialect := range []Dialect{Standard, Pbm} {
			mt := d.r.board.MoveText(m, dialect)
			if back, err := p.ParseMove(mt); err != nil || back != m {
				d.fail("%s: the move %s reads back as %v, %v", text, mt, back, err)
				return nil, false
			}
		}
	}
	if n := p.NumMoves(); n != len(got) {
		d.fail("%s: NumMoves: got %d, want %d", text, n, len(got))
		return nil, false
	}
	if h := p.HasMoves(); h != (len(got) > 0) {
		d.fail("%s: HasMoves: got %v, want %v (%d moves)", text, h, len(got) > 0, len(got))
		return nil, false
	}
	var takes []Move
	for _, m := range got {
		if _, pending := p.Pending(); pending || m.NumCaptures() > 0 {
			takes = append(takes, m)
		}
	}
	caps := p.Captures(nil)
	sortMoves(caps)
	if !slices.Equal(caps, takes) {
		d.fail("%s: Captures: got %s, want %s", text, d.moveList(caps), d.moveList(takes))
		return nil, false
	}
	o, how := p.Status()
	wo, whow := sr.status(&s)
	if o != wo || how != whow {
		d.fail("%s: Status: got %v by %v, want %v by %v", text, o, how, wo, whow)
		return nil, false
	}
	if (o == NoOutcome) != (len(got) > 0) {
		d.fail("%s: Status %v by %v with %d moves: want moves exactly while the game goes on", text, o, how, len(got))
		return nil, false
	}

	if s.hand[0] == 0 && s.hand[1] == 0 {
		d.stats.moving++
	}
	if sr.flying(&s, s.side) && o == NoOutcome {
		d.stats.flying++
	}
	if o != NoOutcome {
		d.stats.ends[how]++
	}
	if sr.opts.ReformBan && s.banFrom[s.side] >= 0 && sr.banned(&s, s.side, s.banFrom[s.side], s.banTo[s.side]) {
		d.stats.banned++
	}
	return got, true
}

// game plays a random game from p, at most maxPlies plies, checking each
// position and each move. It reports whether all agreed.
func (d *differ) game(p Position) bool {
	d.t.Helper()
	const maxPlies = 1000
	d.stats.games++
	for ply := 0; ply < maxPlies; ply++ {
		ms, ok := d.check(p)
		if !ok {
			return false
		}
		if len(ms) == 0 {
			return true
		}
		for _, m := range ms {
			if m.NumCaptures() > 1 && !d.inTurn(p, m) {
				return false
			}
		}
		m := ms[d.rng.IntN(len(ms))]
		d.countMove(p, m)
		switch {
		case m.Kind() == RemoveMove:
			d.stats.removals++
		case m.Kind() == PassMove && p.owe[p.side] != 0:
			d.stats.lostRemovals++
			d.stats.passes++
		case m.Kind() == PassMove:
			d.stats.passes++
		case m.NumCaptures() > 1:
			d.stats.multi++
			d.stats.captures++
		case m.NumCaptures() == 1:
			d.stats.captures++
		}
		if !d.play(&p, m) {
			return false
		}
	}
	return true
}

// inTurn checks that the text of m, a legal move of p with several captures,
// names them in an order in which the slow twin finds each capturable once
// the ones before it are gone: a reader that applies them one at a time
// must find each legal.
func (d *differ) inTurn(p Position, m Move) bool {
	d.t.Helper()
	text := p.MoveText(m)
	board := d.sr.fromPosition(p).board
	victim := int(p.side ^ 1)
	names := strings.Split(text, "x")[1:]
	if len(names) != m.NumCaptures() {
		d.fail("%s: %s: %d captures written, want %d", p, text, len(names), m.NumCaptures())
		return false
	}
	for _, name := range names {
		pt, ok := p.Rules().Board().PointByName(name)
		if !ok || !slices.Contains(d.sr.capturable(&board, victim), int(pt)) {
			d.fail("%s: %s: %s cannot be taken after the captures before it", p, text, name)
			return false
		}
		board[pt] = slowEmpty
	}
	return true
}

// countMove counts what m does in p that the rules of placing and of
// removals make special.
func (d *differ) countMove(p Position, m Move) {
	q := p.Play(m)
	them := p.side ^ 1
	switch {
	case m.Kind() == RemoveMove && p.owe[p.side] == 0:
		d.stats.blockedRemovals++
	case m.Kind() == RemoveMove && p.ownRemoval:
		d.stats.ownRemovals++
	case m.Kind() == PlaceMove && q.hand[them] < p.hand[them]:
		d.stats.handTakes++
	}
	if m.Kind() == PlaceMove && p.rules.opts.PlacingCaptures == CaptureMark {
		d.stats.marks += m.NumCaptures()
	}
	if p.marked|q.marked != 0 && q.marked == 0 {
		d.stats.marksGone++
	}
	if p.owe[0] > 0 && p.owe[1] > 0 {
		d.stats.owedBoth++
	}
}

// play plays m in *p with the fast code and the slow twin and compares the
// results.
func (d *differ) play(p *Position, m Move) bool {
	d.t.Helper()
	sr := d.sr
	before := sr.fromPosition(*p)
	if sr.opts.TrapRule && before.passed && m.Kind() == SlideMove {
		after := before.board
		after[m.From()], after[m.To()] = slowEmpty, int8(before.side)
		if len(sr.millsThrough(&after, before.side, int(m.To()))) > 0 {
			d.stats.trapMills++
		}
	}
	got := p.Play(m)
	ws := sr.play(before, m)
	if want := sr.position(ws); got != want {
		d.fail("%s: Play(%s): got %s, want %s\n\tgot  %s\n\twant %s",
			p, p.MoveText(m), got, want, sr.text(sr.fromPosition(got)), sr.text(ws))
		return false
	}
	if k, wk := got.Key(), sr.key(ws); k != wk {
		d.fail("%s: Play(%s): Key: got %#x, want %#x", p, p.MoveText(m), k, wk)
		return false
	}
	*p = got
	return true
}

// randomSetup returns a random position that could arise under the rules,
// or near enough: the side to move has as many pieces in hand as the other
// or one more, no more pieces than the rules give, and a capture state that
// the position text accepts.
func (d *differ) randomSetup() Position {
	sr, o, rng := d.sr, d.sr.opts, d.rng
	s := slowState{firstMill: -1, banFrom: [2]int{-1, -1}, banTo: [2]int{-1, -1}}
	for i := range s.board {
		s.board[i] = slowEmpty
	}
	s.side = rng.IntN(2)
	if rng.IntN(3) == 0 {
		h := 1 + rng.IntN(o.Pieces)
		s.hand[s.side], s.hand[1-s.side] = h, h-rng.IntN(2)
	}
	placing := s.hand[0]+s.hand[1] > 0
	deferred := o.PlacingCaptures == CaptureDeferred
	stage := o.PlacingCaptures.removalStage() || o.FullBoard == FullBoardRemovals
	justPlaced := stage && !placing && rng.IntN(2) == 0
	for c := 0; c < 2; c++ {
		most := o.Pieces - s.hand[c]
		n := most
		if !(deferred && placing) && !justPlaced {
			// Some pieces have been taken; now and then too many.
			least := min(2, most)
			n = least + rng.IntN(most-least+1)
		}
		sr.scatter(&s, rng, int8(c), n)
	}
	if o.PlacingCaptures == CaptureMark && placing {
		// Some of the pieces taken while placing are marked, not gone.
		sr.scatter(&s, rng, slowMarked, rng.IntN(1+min(4, 2*o.Pieces-s.hand[0]-s.hand[1]-sr.onBoard(&s, 0)-sr.onBoard(&s, 1))))
	}
	if justPlaced {
		d.randomOwed(&s)
	}
	if deferred && placing && rng.IntN(2) == 0 {
		for _, c := range []int{rng.IntN(2), 1 - s.side} {
			for pt := 0; pt < sr.n && s.firstMill < 0; pt++ {
				if int(s.board[pt]) == c && sr.inMill(&s.board, pt) {
					s.firstMill = c
				}
			}
		}
	}
	if o.Blocked == BlockedPasses && s.owe == [2]int{} && rng.IntN(4) == 0 {
		s.passed = true
	}
	if o.ReformBan {
		for c := 0; c < 2; c++ {
			if rng.IntN(2) == 0 {
				continue
			}
			for try := 0; try < 20 && s.banFrom[c] < 0; try++ {
				pt := rng.IntN(sr.n)
				if int(s.board[pt]) != c {
					continue
				}
				nb := sr.neighbour[pt]
				if to := nb[rng.IntN(len(nb))]; s.board[to] == slowEmpty {
					s.banFrom[c], s.banTo[c] = pt, to
				}
			}
		}
	}
	if o.OneTimeMills {
		for c := 0; c < 2; c++ {
			for l := range sr.lines {
				s.used[c][l] = rng.IntN(5) == 0
			}
		}
	}
	if !placing {
		limit := o.DrawAfter
		if limit == 0 {
			limit = 50
		}
		s.quiet = rng.IntN(limit)
	}
	s.ply = 2*o.Pieces - s.hand[0] - s.hand[1] + s.quiet + rng.IntN(20)
	return sr.position(s)
}

// scatter puts n pieces of c (or marks) on random empty points.
func (sr *slowRules) scatter(s *slowState, rng *rand.Rand, c int8, n int) {
	for n > 0 && len(sr.empties(&s.board)) > 0 {
		if pt := rng.IntN(sr.n); s.board[pt] == slowEmpty {
			s.board[pt] = c
			n--
		}
	}
}

// randomOwed gives the side to move, and maybe the other, removals owed
// as the end of placing leaves them under the rules.
func (d *differ) randomOwed(s *slowState) {
	o, rng := d.sr.opts, d.rng
	switch o.PlacingCaptures {
	case CaptureDeferred:
		s.owe[s.side] = 1
		return
	case CaptureCounted:
		if rng.IntN(3) == 0 {
			s.owe, s.own = [2]int{1, 1}, true
			s.owe[1-s.side] = rng.IntN(2)
			return
		}
		fallthrough
	case CaptureCountedEach:
		s.owe[s.side] = 1 + rng.IntN(3)
		s.owe[1-s.side] = rng.IntN(3)
		return
	}
	s.owe[s.side] = 1
	s.owe[1-s.side] = rng.IntN(2)
}

func diffCounts() (games, setups int) {
	if testing.Short() {
		return 12, 6
	}
	return 80, 35
}

// TestDifferentialRandomGames plays random games of every preset and of some
// overrides and checks the fast code against the slow twin at every
// position: moves, move counts, status, Play, keys and the position text.
func TestDifferentialRandomGames(t *testing.T) {
	games, setups := diffCounts()
	var total diffStats
	total.ends = map[Method]int{}
	for i, cfg := range diffConfigs() {
		t.Run(cfg.String(), func(t *testing.T) {
			r, err := NewRules(cfg.variant, cfg.overrides...)
			if err != nil {
				t.Fatal(err)
			}
			d := newDiffer(t, r, uint64(i)+1)
			for g := 0; g < games && d.failures < maxFailures; g++ {
				d.game(r.StartWith(Color(g % 2)))
			}
			for g := 0; g < setups && d.failures < maxFailures; g++ {
				p := d.randomSetup()
				if q, err := ParsePosition(p.String()); err != nil || q != p {
					t.Fatalf("random set-up %s does not parse back: %v", p, err)
				}
				d.game(p)
			}
			t.Logf("%s", &d.stats)
			total.games += d.stats.games
			total.positions += d.stats.positions
			d.finish()
			if d.failures > 0 || d.textBad > 0 {
				return
			}
			if d.stats.moving == 0 {
				t.Errorf("no position with both hands empty in %d games", d.stats.games)
			}
			// Where a mill wins nobody is captured, so only the random
			// set-ups fly: too few of them under -short to be sure of one.
			if r.opts.FlyAt > 0 && d.stats.flying == 0 && !(r.opts.MillWins && testing.Short()) {
				t.Errorf("no position with the side to move flying in %d games", d.stats.games)
			}
			if r.opts.MillWins {
				if d.stats.captures > 0 || d.stats.ends[MillFormed] == 0 {
					t.Errorf("%d captures and %d games won by a mill in %d games, want none and some", d.stats.captures, d.stats.ends[MillFormed], d.stats.games)
				}
			} else if d.stats.captures == 0 {
				t.Errorf("no capture in %d games", d.stats.games)
			}
			d.wantRegional(r.opts)
		})
	}
	t.Logf("in all: %d games, %d positions", total.games, total.positions)
}

// wantRegional fails if the games missed what the regional rules do: a
// mill that takes from the hand, marks and their end, removals owed by
// both sides and of one's own pieces, a blocked side's removal.
func (d *differ) wantRegional(o Options) {
	d.t.Helper()
	// The rarer events are looked for only in the long run.
	long := !testing.Short()
	for _, c := range []struct {
		on   bool
		got  int
		what string
	}{
		{o.PlacingCaptures == CaptureFromHand, d.stats.handTakes, "mill that takes from the hand"},
		{o.PlacingCaptures == CaptureMark, d.stats.marks, "marked piece"},
		{o.PlacingCaptures == CaptureMark, d.stats.marksGone, "end of placing that removes the marks"},
		{o.PlacingCaptures == CaptureCounted || o.PlacingCaptures == CaptureCountedEach, d.stats.owedBoth, "position where both sides owe removals"},
		{long && o.PlacingCaptures == CaptureCounted, d.stats.ownRemovals, "removal of one's own piece"},
		{long && o.Blocked == BlockedRemoves, d.stats.blockedRemovals, "removal by a blocked side"},
	} {
		if c.on && c.got == 0 {
			d.t.Errorf("no %s in %d games", c.what, d.stats.games)
		}
	}
}

// diffCrafted are positions that random games reach rarely or never, each
// checked like a random game position: the given moves first, then random
// games from there.
var diffCrafted = []struct {
	name, pos string
	moves     []string
	want      string // the status after the moves: "*", or "1-0 by material", ...
}{
	{
		// Black must make Shah's deferred removal, but every white
		// piece stands in a mill and protection=always keeps them: the
		// removal is lost (a pass). Then white slides, and then black
		// slides: the removal is gone, not due again.
		"lost removal",
		"nine-mens-morris,protection=always,placing-captures=deferred WWWBBBBB/WWWBBBB1/WWW5 b 0,0 xb 0 18",
		[]string{"pass", "c3-c4"},
		"*",
	},
	{
		// The same in Shah itself on a full board: after the lost
		// removal neither side can slide, a gridlock.
		"lost removal on a full board",
		"shah,protection=always WWWWWWWW/BWBBBWBB/BWBBBWBB b 0,0 xb 0 24",
		[]string{"pass"},
		"1/2-1/2 by gridlock",
	},
	{
		// White's d3 broke the mill b2-d2-f2 by leaving d2 and may not
		// go back to re-form it.
		"re-forming ban",
		"twelve-man-morris WBB5/W1W2B2/1W2B3 w 0,0 bw=d3-d2 0 40",
		nil,
		"*",
	},
	{
		// Black moves onto b6, the point white's a7 left when it broke a
		// mill: white's ban can no longer apply, and the position must
		// still print as a text that parses back.
		"re-forming ban, point taken",
		"nine-man-morris-diagonal 4W1W1/W1W2B1W/BBBBW1BW b 0,0 bw=a7-b6 1 19",
		[]string{"c5-b6"},
		"*",
	},
	{
		// White's d1 closes a1-d1-g1 and d1-d2-d3 at once and takes
		// two: first b6, the only black piece outside a mill, then, with
		// every black piece in a mill, any of e3, e4, e5.
		"double mill, protection recomputed",
		"nine-mens-morris,captures=per-mill W1W5/1W4B1/1WBBB3 w 1,1 - 0 30",
		[]string{"d1xb6xe4"},
		"*",
	},
	{
		// The board is full after placing and nobody has a mill: the
		// side to move cannot move, nor could the other side, so with
		// gridlock=loses the side to move loses...
		"full board, gridlock loses",
		"twelve-mens-morris-small BWWBBWBW/WBWBWWBB/BWBWBBWW w 0,0 - 0 24",
		nil,
		"0-1 by gridlock",
	},
	{
		// ... with full-board=draw it is a draw before anything else ...
		"full board draws",
		"morabaraba BWWBBWBW/WBWBWWBB/BWBWBBWW w 0,0 - 0 24",
		nil,
		"1/2-1/2 by full board",
	},
	{
		// ... and with full-board=gridlock, gridlock=draw a gridlock draw.
		"full board, gridlock draws",
		"twelve-mens-morris-small,gridlock=draw BWWBBWBW/WBWBWWBB/BWBWBBWW b 0,0 - 0 24",
		nil,
		"1/2-1/2 by gridlock",
	},
	{
		// Black is trapped and has passed; white's mills take nothing
		// while it stays trapped (found by a random game).
		"trap rule",
		"shah BBWBBWWW/WWWBWBW1/BBBBWBWW w 0,0 pass 5 30",
		nil,
		"*",
	},
	{
		// Zhi Qi: white is shut in; it removes black's d2 (in black's
		// mill b2-d2-f2), then moves into the hole.
		"blocked side removes",
		"zhi-qi WWWB1BWB/BBB3B1/3B4 w 0,0 - 0 40",
		[]string{"xd2", "d1-d2"},
		"*",
	},
	{
		// Zhi Qi: the last placement fills the board; white removes
		// a7, black (left without a move) removes d7.
		"full board removals",
		"zhi-qi WBWBBWBW/BW1WWBWB/WBWBWBWB b 0,1 - 0 23",
		[]string{"f2", "xa7", "xd7"},
		"*",
	},
	{
		// El Filja: no mill on the full board, each side removes one
		// of its own pieces.
		"own removals",
		"el-filja WW1WBWBB/BBWBWBWW/WBBWWBBW b 0,1 - 0 23",
		[]string{"g1", "xa1", "xa4"},
		"*",
	},
	{
		// Da San Qi: the last placement marks d2; the marks leave and
		// black moves first.
		"marks leave",
		"da-san-qi WBWXBBWW/XWWWWWWW/B1BXBXWB b 0,1 - 0 23",
		[]string{"d3xd2", "d1-d2"},
		"*",
	},
	{
		// Da San Qi: a full board without a mill loses for the first
		// player.
		"full board loses for the first",
		"da-san-qi WBWBBWBW/BW1WWBWB/WBWBWBWB b 0,1 - 0 23",
		[]string{"f2"},
		"0-1 by full board",
	},
}

func TestDifferentialCrafted(t *testing.T) {
	for i, c := range diffCrafted {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParsePosition(c.pos)
			if err != nil {
				t.Fatalf("ParsePosition(%q): %v", c.pos, err)
			}
			d := newDiffer(t, p.rules, uint64(1000+i))
			for _, text := range c.moves {
				if _, ok := d.check(p); !ok {
					return
				}
				m, err := p.ParseMove(text)
				if err != nil {
					t.Fatalf("%s: %s: %v", p, text, err)
				}
				if !d.play(&p, m) {
					return
				}
			}
			o, how := p.Status()
			got := o.String()
			if o != NoOutcome {
				got += " by " + how.String()
			}
			if got != c.want {
				t.Errorf("%s: Status: got %s, want %s", p, got, c.want)
			}
			for g := 0; g < 20 && d.failures == 0 && d.textBad == 0; g++ {
				d.game(p)
			}
			d.finish()
		})
	}
}
