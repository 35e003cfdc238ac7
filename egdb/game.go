package egdb

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/mill"
)

// Supported returns nil if databases can be built and probed under r, or an
// error that says which rule stands in the way. Positions must be the board,
// the side to move and the pieces in hand, and nothing else: rules with a
// re-forming ban or one-time mills carry more state, and passing (Shah),
// several captures per move, mills that win the game (three men's morris),
// a blocked side's removal (Zhi Qi) and a full board that the first player
// loses (Da San Qi: who placed first is not in the position) are not
// modelled.
func Supported(r *mill.Rules) error {
	o := r.Options()
	var why []string
	if o.ReformBan {
		why = append(why, "the re-forming ban")
	}
	if o.OneTimeMills {
		why = append(why, "one-time mills")
	}
	if o.Blocked == mill.BlockedPasses || o.TrapRule {
		why = append(why, "passing when blocked")
	}
	if o.CapturePerMill {
		why = append(why, "one capture per mill closed")
	}
	if o.PlacingCaptures == mill.CaptureDeferred {
		why = append(why, "the deferred capture")
	}
	if o.MillWins {
		why = append(why, "a mill that wins the game (mill-wins)")
	}
	if o.Blocked == mill.BlockedRemoves {
		why = append(why, "the removal of a blocked side (blocked=removes)")
	}
	if o.FullBoard == mill.FullBoardFirstLoses {
		why = append(why, "a full board that the first player loses (full-board=first-loses)")
	}
	if len(why) > 0 {
		return fmt.Errorf("egdb: rules %s: no databases with %s", r, strings.Join(why, ", "))
	}
	return nil
}

// compatible reports whether positions of the moving phase play the same
// under a and b: the draw rules, the first player, the pieces per side and
// everything about placing do not matter to the databases.
func compatible(a, b *mill.Rules) bool {
	if a == b {
		return true
	}
	return movingOptions(a) == movingOptions(b)
}

// placingCompatible reports whether positions of the placing phase play the
// same under a and b: as in the moving phase, with the same pieces per side
// and the same placing rules (the draw rules and the first player do not
// matter: positions are stored for the side to move).
func placingCompatible(a, b *mill.Rules) bool {
	if a == b {
		return true
	}
	return placingOptions(a) == placingOptions(b)
}

func placingOptions(r *mill.Rules) mill.Options {
	o := r.Options()
	o.Repetition, o.DrawAfter, o.FirstPlayer = 0, 0, 0
	return o
}

// compatibleFor is compatible for sectors of the moving phase and
// placingCompatible for those of the placing phase.
func compatibleFor(k Key, a, b *mill.Rules) bool {
	if k.Moving() {
		return compatible(a, b)
	}
	return placingCompatible(a, b)
}

func movingOptions(r *mill.Rules) mill.Options {
	o := r.Options()
	o.Pieces, o.Repetition, o.DrawAfter, o.FirstPlayer = 0, 0, 0, 0
	o.PlacingCaptures, o.MoveWhilePlacing, o.CentreBan, o.SecondMovesFirst = 0, false, false, false
	if o.FullBoard == mill.FullBoardRemovals {
		// The removals are set when placing ends; a full board in the
		// moving phase is judged as under the gridlock rule.
		o.FullBoard = mill.FullBoardGridlock
	}
	return o
}

// ErrSector is wrapped by the errors of sectors that cannot be built.
var ErrSector = errors.New("egdb: bad sector")

// rules holds what the move generator needs, as bit sets.
type rules struct {
	r         *mill.Rules
	all       uint32
	adj       [mill.MaxPoints]uint32
	linesAt   [mill.MaxPoints][]uint32
	lines     []uint32
	flyAt     int
	minPieces int
	protect   mill.Protection
	blocked   retro.Value // the value of being blocked for the side to move
	gridlock  retro.Value // the value of both sides being blocked
	fullDraw  bool
	// placingTakes: a mill closed while placing takes a piece at once
	// (else it takes nothing; the deferred capture is not supported).
	placingTakes bool
}

func newRules(r *mill.Rules) *rules {
	o := r.Options()
	b := r.Board()
	g := &rules{r: r, all: uint32(r.All()), flyAt: o.FlyAt, minPieces: o.MinPieces,
		protect: o.Protection, fullDraw: o.FullBoard == mill.FullBoardDraw, placingTakes: o.PlacingCaptures == mill.CaptureImmediate}
	for p := range b.Len() {
		g.adj[p] = uint32(b.Adjacent(mill.Point(p)))
	}
	for _, l := range r.MillLines() {
		g.lines = append(g.lines, uint32(l))
		for p := range l.All() {
			g.linesAt[p] = append(g.linesAt[p], uint32(l))
		}
	}
	g.blocked, g.gridlock = retro.LossIn(0), retro.LossIn(0)
	if o.Blocked == mill.BlockedDraw {
		g.blocked = retro.Draw
	}
	if o.Gridlock == mill.GridlockDraw {
		g.gridlock = retro.Draw
	}
	return g
}

// closes reports whether own (after the move) has a mill through p.
func (g *rules) closes(own uint32, p int) bool {
	for _, l := range g.linesAt[p] {
		if own&l == l {
			return true
		}
	}
	return false
}

func (g *rules) inMills(own uint32) uint32 {
	var m uint32
	for _, l := range g.lines {
		if own&l == l {
			m |= l
		}
	}
	return m
}

// capturable returns the pieces of opp that a capture may take.
func (g *rules) capturable(opp uint32) uint32 {
	switch g.protect {
	case mill.ProtectNone:
		return opp
	case mill.ProtectAlways:
		return opp &^ g.inMills(opp)
	}
	if t := opp &^ g.inMills(opp); t != 0 {
		return t
	}
	return opp
}

func (g *rules) flying(pieces int) bool { return g.flyAt > 0 && pieces <= g.flyAt }

// canMove reports whether the side with the pieces own (count of them n,
// and hand in hand) can move on a board whose empty points are empty.
func (g *rules) canMove(own uint32, n, hand int, empty uint32) bool {
	if empty == 0 {
		return false
	}
	if hand > 0 {
		return true // it places
	}
	if own == 0 {
		return false
	}
	if g.flying(n) {
		return true
	}
	for f := own; f != 0; f &= f - 1 {
		if g.adj[bits.TrailingZeros32(f)]&empty != 0 {
			return true
		}
	}
	return false
}

// end returns the value of the position (W to move, B; wh and bh in hand)
// if the game is over there, before any move.
func (g *rules) end(W, B uint32, w, b, wh, bh int) (retro.Value, bool) {
	empty := g.all &^ (W | B)
	if g.fullDraw && empty == 0 {
		return retro.Draw, true
	}
	if g.canMove(W, w, wh, empty) {
		return 0, false
	}
	if !g.canMove(B, b, bh, empty) {
		return g.gridlock, true
	}
	return g.blocked, true
}

// game is a rule set's sectors as a retro.Game: sector s is keys[s]. The
// moving phase's sectors depend on each other in pairs (a sector and its
// colour swap); a sector of the placing phase depends only on sectors with
// one piece fewer in hand, so it is a component of its own, settled by the
// count pass alone.
type game struct {
	*rules
	x       *indexer
	keys    []Key
	lay     []layout
	id      map[Key]int
	deps    [][]int
	capture []int // the sector a capture leads to, or -1 if it ends the game
	swap    []int // the sector a move without capture leads to
	// visit[s]: for a sector of the placing phase, the layout of its
	// positions with the colours swapped, in which its count pass visits
	// them (Visit); nil for the moving phase's.
	visit []*layout
}

// PlacingSupported returns nil if the sectors of the placing phase can be
// built and probed under r: the moving phase's conditions (Supported), no
// moves while placing (Lasker), and no centre ban (not modelled: it takes a
// move from the start position alone).
func PlacingSupported(r *mill.Rules) error {
	if err := Supported(r); err != nil {
		return err
	}
	if r.Options().MoveWhilePlacing {
		return fmt.Errorf("egdb: rules %s: no databases of the placing phase with moves while placing", r)
	}
	if r.Options().CentreBan {
		return fmt.Errorf("egdb: rules %s: no databases of the placing phase with the centre ban on the first placement (centre-ban)", r)
	}
	if why := placingEnd(r.Options()); why != "" {
		return fmt.Errorf("egdb: rules %s: no databases of the placing phase with %s", r, why)
	}
	return nil
}

// placingEnd says which rule of r makes placing, or its end, more than
// placements and immediate captures down to the moving phase, or "".
func placingEnd(o mill.Options) string {
	switch o.PlacingCaptures {
	case mill.CaptureFromHand:
		return "mills that take from the hand (placing-captures=hand)"
	case mill.CaptureMark:
		return "marked pieces (placing-captures=mark)"
	case mill.CaptureCounted, mill.CaptureCountedEach:
		return "removals by mill counts when placing ends (placing-captures=counted)"
	}
	switch {
	case o.SecondMovesFirst:
		return "the second player moving first when placing ends (second-moves-first)"
	case o.FullBoard == mill.FullBoardRemovals:
		return "removals on a full board when placing ends (full-board=removals)"
	}
	return ""
}

// childKeys returns the sectors of the positions after a move of a
// position of k that captures nothing and one that captures, and whether a
// capture leads to a sector (false: it cannot happen, or it ends the game).
func (g *game) childKeys(k Key) (next, capture Key, captures bool) {
	o := g.r.Options()
	if k.Moving() {
		return k.Swap(), Key{White: k.Black - 1, Black: k.White}, k.Black-1 >= o.MinPieces
	}
	next = Key{White: k.Black, Black: k.White + 1, WhiteHand: k.BlackHand, BlackHand: k.WhiteHand - 1}
	capture = Key{White: k.Black - 1, Black: k.White + 1, WhiteHand: k.BlackHand, BlackHand: k.WhiteHand - 1}
	captures = o.PlacingCaptures == mill.CaptureImmediate && k.White+1 >= 3 && k.Black >= 1 &&
		k.Black-1+k.BlackHand >= o.MinPieces
	return next, capture, captures
}

// checkKey says why k is no sector of the game's rules, or nil.
func (g *game) checkKey(k Key) error {
	r, o, n := g.r, g.r.Options(), g.x.n
	if k.Moving() {
		if k.White < o.MinPieces || k.Black < o.MinPieces || k.White > o.Pieces || k.Black > o.Pieces || k.White+k.Black > n {
			return fmt.Errorf("%w: %s is no sector of %s (%d to %d pieces a side on %d points)", ErrSector, k, r, o.MinPieces, o.Pieces, n)
		}
		return nil
	}
	if err := PlacingSupported(r); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrSector, k, err)
	}
	switch {
	case k.WhiteHand < 1 || (k.WhiteHand != k.BlackHand && k.WhiteHand != k.BlackHand+1):
		return fmt.Errorf("%w: %s: in the placing phase the side to move has pieces in hand, as many as its opponent or one more", ErrSector, k)
	case k.White < 0 || k.Black < 0 || k.White+k.WhiteHand > o.Pieces || k.Black+k.BlackHand > o.Pieces || k.White+k.Black > n:
		return fmt.Errorf("%w: %s is no sector of %s (%d pieces a side on %d points)", ErrSector, k, r, o.Pieces, n)
	case k.White+k.WhiteHand < o.MinPieces || k.Black+k.BlackHand < o.MinPieces:
		return fmt.Errorf("%w: %s: a side with fewer than %d pieces has lost", ErrSector, k, o.MinPieces)
	}
	return nil
}

// StartKey returns the sector of the start position of r: nothing on the
// board, every piece in hand.
func StartKey(r *mill.Rules) Key {
	n := r.Options().Pieces
	return Key{WhiteHand: n, BlackHand: n}
}

// newGame returns the game of the sectors keys and of every sector they
// depend on.
func newGame(r *mill.Rules, x *indexer, keys []Key) (*game, error) {
	if err := Supported(r); err != nil {
		return nil, err
	}
	g := &game{rules: newRules(r), x: x, id: map[Key]int{}}
	var add func(k Key) error
	add = func(k Key) error {
		if _, ok := g.id[k]; ok {
			return nil
		}
		if err := g.checkKey(k); err != nil {
			return err
		}
		g.id[k] = len(g.keys)
		g.keys = append(g.keys, k)
		next, capture, captures := g.childKeys(k)
		if err := add(next); err != nil {
			return err
		}
		if captures {
			return add(capture)
		}
		return nil
	}
	for _, k := range keys {
		if err := add(k); err != nil {
			return nil, err
		}
	}
	for s, k := range g.keys {
		g.lay = append(g.lay, x.layout(k.White, k.Black))
		next, capture, captures := g.childKeys(k)
		g.swap = append(g.swap, g.id[next])
		deps := []int{g.swap[s]}
		c := -1
		if captures {
			c = g.id[capture]
			deps = append(deps, c)
		}
		g.capture = append(g.capture, c)
		g.deps = append(g.deps, deps)
		var v *layout
		if !k.Moving() {
			l := x.layout(k.Black, k.White)
			v = &l
		}
		g.visit = append(g.visit, v)
	}
	return g, nil
}

func (g *game) NumSectors() int          { return len(g.keys) }
func (g *game) Name(s int) string        { return g.keys[s].String() }
func (g *game) Size(s int) int64         { return g.lay[s].size }
func (g *game) Deps(s int) []int         { return slices.Clone(g.deps[s]) }
func (g *game) NewWorker() retro.Worker  { return &worker{g: g} }
func (g *game) sector(k Key) (int, bool) { s, ok := g.id[k]; return s, ok }

type worker struct {
	g       *game
	side    side
	capSide side   // the captures' (captureSide)
	cur     cursor // the count and verify passes' positions, index after index
}

// Children generates the moves of the side to move (W) and names the
// position after each, with the colours swapped so that the side to move
// is W again.
func (wk *worker) Children(s int, i int64, dst []retro.Child) ([]retro.Child, retro.Value, bool) {
	W, B, valid := wk.cur.position(&wk.g.lay[s], i)
	if !valid {
		return dst, retro.Draw, false
	}
	dst, end := wk.children(s, W, B, dst)
	return dst, end, true
}

// Visits returns, for a sector of the placing phase, the size of the
// layout of its positions with the colours swapped (retro.Visitor): its
// count pass visits the positions class by class of the opponent's set,
// and 0 for the moving phase's, counted in the order of their indices.
//
// A position's children without capture are the opponent's set B to move
// against the mover's set with one piece more: they all lie in the block
// of B's class in the next sector, so the positions with the same B have
// their children within a few KB of each other, and those that capture in
// the blocks of B less one piece. Visited in the order of the indices
// (the mover's class first), consecutive positions have a different B and
// each child is a read from anywhere in a GB.
func (g *game) Visits(s int) int64 {
	if v := g.visit[s]; v != nil {
		return v.size
	}
	return 0
}

// Visit is Children for the j-th position of the layout with the colours
// swapped (Visits): the opponent's set is the canonical B0 of class j /
// stride, the mover's set W is among the other points. A W that a
// symmetry keeping B0 maps to a smaller set is the same position as that
// one and no visit, so every position is visited once.
func (wk *worker) Visit(s int, j int64, dst []retro.Child) (int64, []retro.Child, retro.Value, bool) {
	g := wk.g
	B, W, valid := wk.cur.position(g.visit[s], j)
	if !valid {
		return 0, dst, retro.Draw, false
	}
	dst, end := wk.children(s, W, B, dst)
	return g.lay[s].index(W, B), dst, end, true
}

// side is what the children of a position need of the opponent's set B
// (in a sector s), kept by a worker from one position to the next: in the
// placing phase's visiting order (Visit) thousands of positions in a row
// have the same B.
type side struct {
	ok bool
	s  int
	B  uint32
	// After a move without capture the side to move is B's, canonically
	// B0 (by the symmetries syms): its class's first index in the next
	// sector is base.
	B0, syms uint32
	base     int64
	// When one symmetry maps B to B0 (nearly always), the child's W is
	// ranked by packing: each point's image under that symmetry (pm), as
	// a rank among the points not in B0 (fr), so that a move toggles two
	// bits of the packed W and the rank is four lookups (rankPacked).
	pm *[mill.MaxPoints]uint8
	fr [mill.MaxPoints]uint8
	// targets: B's pieces a mill may take; imgB: B's images, kept from
	// one B to the next (sideOf); took: the points c whose capture entry
	// is set.
	targets uint32
	imgB    images
	took    uint32
	capture [mill.MaxPoints]struct {
		B20, syms2 uint32 // B less the piece on c, canonical, and its symmetries
		base       int64  // its class's first index in the capture sector
	}
}

// sideOf returns the worker's side of B in sector s, filled afresh unless
// it is the last one's.
func (wk *worker) sideOf(s int, B uint32) *side {
	sd := &wk.side
	if sd.ok && sd.s == s && sd.B == B {
		return sd
	}
	g := wk.g
	// B's images follow it: in the order of the indices the next B is
	// the last one with a few points changed, mostly within a byte, so
	// they cost a lookup or two a symmetry instead of four.
	if sd.ok {
		g.x.toggle(&sd.imgB, sd.B^B)
	} else {
		g.x.imagesOf(&sd.imgB, B)
	}
	sd.ok, sd.s, sd.B, sd.took = true, s, B, 0
	sd.B0, sd.syms = g.x.minImages(&sd.imgB)
	nlay := &g.lay[g.swap[s]]
	sd.base = int64(nlay.t.of[g.x.colex(sd.B0)]) * nlay.stride
	sd.pm = nil
	if sd.syms&(sd.syms-1) == 0 && g.lay[s].w+1 <= maxPacked {
		sd.pm = &g.x.pmap[bits.TrailingZeros32(sd.syms)]
		g.x.freeRanks(&sd.fr, sd.B0)
	}
	sd.targets = g.capturable(B)
	return sd
}

// captureChild returns the index in the capture sector cs of the position
// after a move that leaves the mover W2 and takes B's piece on c.
func (wk *worker) captureChild(sd *side, cs, c int, W2 uint32) int64 {
	g := wk.g
	e := &sd.capture[c]
	if sd.took&(1<<c) == 0 {
		// B less the piece taken, canonical from B's images.
		e.B20, e.syms2 = g.x.canonLess(&sd.imgB, c)
		e.base = g.lay[cs].classBase(e.B20)
		sd.took |= 1 << c
	}
	return e.base + g.x.rankIn(g.x.minImage(e.syms2, W2), e.B20)
}

// children appends the children of the position (W, B) of sector s to dst
// and returns it, with the value of the end of the game there if it has
// none.
func (wk *worker) children(s int, W, B uint32, dst []retro.Child) ([]retro.Child, retro.Value) {
	g := wk.g
	lay := &g.lay[s]
	w, b := lay.w, lay.b
	k := &g.keys[s]
	if v, over := g.end(W, B, w, b, k.WhiteHand, k.BlackHand); over {
		return dst, v
	}
	empty := g.all &^ (W | B)
	fly := g.flying(w)
	placing := k.WhiteHand > 0
	ns := g.swap[s]
	sd := wk.sideOf(s, B)
	var packedW uint32
	if sd.pm != nil {
		for f := W; f != 0; f &= f - 1 {
			packedW |= 1 << sd.fr[sd.pm[bits.TrailingZeros32(f)]]
		}
	}
	cs := g.capture[s]
	// child adds the positions after the move to t that leaves the side
	// to move with W2: one, or one per piece it may take.
	child := func(dst []retro.Child, t int, W2 uint32) []retro.Child {
		if sd.targets != 0 && g.closes(W2, t) && (!placing || g.placingTakes) {
			for c := sd.targets; c != 0; c &= c - 1 {
				if cs < 0 {
					dst = append(dst, retro.Child{End: true, Value: retro.LossIn(0)})
					continue
				}
				dst = append(dst, retro.Child{Ref: retro.Ref{Sector: cs, Index: wk.captureChild(sd, cs, bits.TrailingZeros32(c), W2)}})
			}
			return dst
		}
		if sd.pm != nil {
			// W2 is W with the points of the move toggled: from and t, or
			// t alone for a placement.
			packed := packedW
			for d := W ^ W2; d != 0; d &= d - 1 {
				packed ^= 1 << sd.fr[sd.pm[bits.TrailingZeros32(d)]]
			}
			return append(dst, retro.Child{Ref: retro.Ref{Sector: ns, Index: sd.base + g.x.rankPacked(packed)}})
		}
		B0W := g.x.minImage(sd.syms, W2)
		return append(dst, retro.Child{Ref: retro.Ref{Sector: ns, Index: sd.base + g.x.rankIn(B0W, sd.B0)}})
	}
	if placing {
		for to := empty; to != 0; to &= to - 1 {
			t := bits.TrailingZeros32(to)
			dst = child(dst, t, W|1<<t)
		}
		return dst, 0
	}
	start := len(dst)
	for f := W; f != 0; f &= f - 1 {
		from := bits.TrailingZeros32(f)
		to := empty
		if !fly {
			to &= g.adj[from]
		}
		for ; to != 0; to &= to - 1 {
			t := bits.TrailingZeros32(to)
			dst = child(dst, t, W^(1<<from|1<<t))
		}
	}
	if sd.syms&(sd.syms-1) != 0 {
		// A symmetry keeps B: two moves may give the same position
		// (DistinctMoves). With B's stabilizer trivial they cannot: the
		// child is (B, W2) up to the one symmetry that makes B canonical,
		// and each move leaves another W2.
		inner := func(c retro.Child) bool { return !c.End && c.Sector == ns }
		dst = dst[:start+len(dropRepeats(dst[start:], inner))]
	}
	return dst, 0
}

// dropRepeats drops, in place, each element of xs that counts and equals
// one kept before it, and returns what is left. It runs where a symmetry
// keeps a set, over a handful of moves, so quadratic is cheap.
func dropRepeats[T comparable](xs []T, counts func(T) bool) []T {
	n := 0
next:
	for _, x := range xs {
		if counts(x) {
			for _, prev := range xs[:n] {
				if prev == x {
					continue next
				}
			}
		}
		xs[n] = x
		n++
	}
	return xs[:n]
}

// DistinctMoves reports that Children lists each child in the position's
// own component once, and Parents each parent once (retro.Distinct).
func (g *game) DistinctMoves() bool { return true }

// Parents undoes the moves without capture of the side not to move (B):
// a piece of B on y came from an empty point x (a neighbour, or anywhere
// if B flies), and the move did not close a mill that took a piece.
//
// A position's parents in the placing phase, and the last placements
// before a position of the moving phase, lie in other components: they
// are found from their children, and Parents does not list them.
func (wk *worker) Parents(s int, i int64, dst []retro.Ref) []retro.Ref {
	g := wk.g
	if !g.keys[s].Moving() || !g.keys[g.swap[s]].Moving() {
		return dst
	}
	lay := &g.lay[s]
	W, B, _ := lay.position(i)
	empty := g.all &^ (W | B)
	fly := g.flying(lay.b)
	capW := g.capturable(W) != 0
	ps := g.swap[s]
	play := &g.lay[ps]
	// A parent is (B with a piece moved back from y to x, W): its index
	// needs the canonical form of the first set and W's image under the
	// symmetries that give it. The images of B and W are computed once;
	// each parent's are B's with two points toggled.
	var imgB, imgW images
	g.x.imagesOf(&imgB, B)
	g.x.imagesOf(&imgW, W)
	start := len(dst)
	for f := B; f != 0; f &= f - 1 {
		y := bits.TrailingZeros32(f)
		if capW && g.closes(B, y) {
			continue // that move took a piece: its parent is in another sector
		}
		from := empty
		if !fly {
			from &= g.adj[y]
		}
		for ; from != 0; from &= from - 1 {
			x := bits.TrailingZeros32(from)
			P0, syms := g.x.canonMoved(&imgB, y, x)
			W0 := minOf(&imgW, syms)
			dst = append(dst, retro.Ref{Sector: ps, Index: int64(play.t.of[g.x.colex(P0)])*play.stride + g.x.rankIn(W0, P0)})
		}
	}
	if lay.t.stab[i/lay.stride] != 1 {
		// A symmetry keeps W (its class's stabilizer): two parents may be
		// one position (DistinctMoves). With W's stabilizer trivial they
		// cannot: each undone move leaves another first set.
		all := func(retro.Ref) bool { return true }
		dst = dst[:start+len(dropRepeats(dst[start:], all))]
	}
	return dst
}
