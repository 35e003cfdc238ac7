package eval

import (
	"github.com/morrisgame/morris/mill"
)

// Phase is the phase a side is in.
type Phase int

const (
	Placing Phase = iota // pieces in hand
	Moving               // sliding
	Flying               // flying
	NumPhases
)

// PhaseOf returns the phase of c in p.
func PhaseOf(p *mill.Position, c mill.Color) Phase {
	switch {
	case p.InHand(c) > 0:
		return Placing
	case p.Flying(c):
		return Flying
	}
	return Moving
}

// Weights are the evaluation's parameters, one value per phase of the side
// they describe. Units: a hundredth of a piece, roughly.
type Weights struct {
	Piece    [NumPhases]int // per piece, on the board or in hand
	Mill     [NumPhases]int // per closed mill
	Two      [NumPhases]int // per line with two own pieces and an empty point
	Closable [NumPhases]int // per such line whose empty point another own piece can reach in one move
	Double   [NumPhases]int // per piece that stands in a mill and can step out into a closing point of another two (a running mill)
	Mobility [NumPhases]int // per legal step (moving phase)
	Blocked  [NumPhases]int // per piece with no empty neighbour
	Cramp    [NumPhases]int // per square of the steps missing below CrampBelow (a side about to be blocked): negative to penalise
	Reserved [NumPhases]int // per empty point next to an own piece that no opposing piece can step to (the opponent slides)
	Tempo    [NumPhases]int // for the side to move, by its phase

	// ChanceScale is the score, by the phase of the side to move, at
	// which its winning chances are tanh(1), about 0.76: the units of
	// these weights in terms of results, by which the game review marks
	// moves (review.Chances). Zero is DefaultChanceScale.
	ChanceScale [NumPhases]int

	// Taper mixes, for a side still placing, the placing weights of
	// Mobility, Blocked, Cramp and Reserved with the moving ones in the proportion
	// of its pieces already placed: the mobility that matters is the one
	// the side will have when placing ends.
	Taper bool

	// Net and PlacingNet, when set, add their values in the positions
	// they apply to: see Net. Net is one of the moving phase (both sides
	// sliding), PlacingNet one of the placing phase.
	Net, PlacingNet *Net
}

// DefaultChanceScale is the ChanceScale of the default weights, measured
// against the databases of six men's morris (docs/api.md, "How the marks
// were calibrated").
const DefaultChanceScale = 150

// Chances returns w's ChanceScale in phase ph.
func (w *Weights) Chances(ph Phase) int {
	if s := w.ChanceScale[ph]; s > 0 {
		return s
	}
	return DefaultChanceScale
}

// CrampBelow is the mobility under which Cramp counts: (CrampBelow-m)² for a
// side with m steps.
const CrampBelow = 4

// Default returns the weights tuned by self-play, with Cramp, Taper and
// Reserved kept by matches against Sanmill (see docs/eval.md): those of
// every preset without weights of its own (For). It is a copy: changing it
// changes nothing else.
func Default() Weights { return defaultWeights }

// defaultWeights are Default's. The presets are unexported and handed out
// as copies (Default, For), so that no caller can change the weights of
// every search in the process.
var defaultWeights = Weights{
	Piece:    [NumPhases]int{100, 100, 100},
	Mill:     [NumPhases]int{12, 14, 10},
	Two:      [NumPhases]int{10, 8, 20},
	Closable: [NumPhases]int{0, 18, 30},
	Double:   [NumPhases]int{0, 40, 0},
	Mobility: [NumPhases]int{2, 6, 0},
	Blocked:  [NumPhases]int{-3, -4, 0},
	Cramp:    [NumPhases]int{0, -40, 0},
	Reserved: [NumPhases]int{0, 20, 0},
	Taper:    true,
	Tempo:    [NumPhases]int{5, 5, 5},
}

// nineMensMorris are Default with the placing and the moving weights and
// tempi fitted to deeper searches of nine men's morris positions: of the
// placing phase, and of the first plies after it (docs/eval.md, "Fitted to
// deeper searches"). They are measured on that game only: under other
// rules (Shah's mills that take nothing while placing, twelve men) they
// are untested, and a fitted weight can mislead there.
var nineMensMorris = func() Weights {
	w := defaultWeights
	w.set(Placing, column{Mill: -8, Two: 64, Closable: 1, Mobility: 22, Blocked: -31, Cramp: 51, Reserved: 23, Tempo: 67})
	w.set(Moving, column{Mill: 84, Two: 19, Closable: 132, Double: 51, Mobility: 16, Blocked: -26, Cramp: -27, Reserved: 11, Tempo: 29})
	w.Net = mustNet(nineMoving)
	// The scales of the review's marks, measured against nine men's
	// morris's databases of the whole game (docs/api.md, "How the marks
	// were calibrated"): 200 while placing, where 150 marked more moves
	// that lost nothing; twice Default's in the moving phase, where these
	// weights score about twice what Default does (300 and 400 measured
	// alike there).
	w.ChanceScale = [NumPhases]int{200, 2 * DefaultChanceScale, 2 * DefaultChanceScale}
	return w
}()

// column is the weights of one phase that the fits set (docs/eval.md,
// "Fitted to deeper searches"): all but Piece. A field left out is a
// weight of 0 (Double while placing, where no mill runs, is never fitted).
type column struct {
	Mill, Two, Closable, Double, Mobility, Blocked, Cramp, Reserved, Tempo int
}

// set gives the weights of phase ph the values of c.
func (w *Weights) set(ph Phase, c column) {
	w.Mill[ph], w.Two[ph], w.Closable[ph], w.Double[ph] = c.Mill, c.Two, c.Closable, c.Double
	w.Mobility[ph], w.Blocked[ph], w.Cramp[ph], w.Reserved[ph] = c.Mobility, c.Blocked, c.Cramp, c.Reserved
	w.Tempo[ph] = c.Tempo
}

// For returns the weights for a game under rules r: those fitted to nine
// men's morris for it; the same without the net for Russian mill, which is
// nine men's morris with mills that capture once only (matched against
// Sanmill, docs/eval.md: "The fitted weights on the other presets"); those
// fitted to twelve-man-morris, to twelve men's morris, to its small board
// and to Morabaraba for those presets;
// whatever their repetition and no-progress draws and whoever moves first.
// Default for every other rule set, where the fitted weights were no better
// (Lasker) or are untested.
//
// It returns a copy: a caller may change it (tuning starts from it)
// without changing the weights of anyone else. The nets (Net, PlacingNet)
// are shared, not copied: they are read-only.
func For(r *mill.Rules) Weights {
	o := r.Options()
	for _, f := range fitted {
		if plays(o, f.preset) {
			return *f.w
		}
	}
	return defaultWeights
}

// fitted are the presets with weights of their own.
var fitted = []struct {
	preset mill.Options
	w      *Weights
}{
	{presetOptions("nine-mens-morris"), &nineMensMorris},
	{presetOptions("russian-mill"), &russianMill},
	{presetOptions("twelve-man-morris"), &twelveManMorris},
	{presetOptions("twelve-mens-morris"), &twelveMensMorris},
	{presetOptions("twelve-mens-morris-small"), &twelveMensMorrisSmall},
	{presetOptions("morabaraba"), &morabaraba},
}

// presetOptions returns the options of the preset id.
func presetOptions(id string) mill.Options {
	v, err := mill.LookupVariant(id)
	if err != nil {
		panic("eval: " + err.Error())
	}
	return v.Options
}

// plays reports whether rules o are the preset p but for the draws by
// repetition and by no progress and the first player, which no weight
// depends on.
func plays(o, p mill.Options) bool {
	o.Repetition, o.DrawAfter, o.FirstPlayer = p.Repetition, p.DrawAfter, p.FirstPlayer
	return o == p
}

// russianMill are nineMensMorris without the net of the moving phase: the
// net learnt positions of nine men's morris, where a mill opened and
// closed again takes a piece every time, and was not measured on Russian
// mill, where it takes once.
var russianMill = func() Weights {
	w := nineMensMorris
	w.Net = nil
	return w
}()

// twelveManMorris are Default with the placing weights and tempo fitted
// to deeper searches of twelve-man-morris positions (docs/eval.md, "The
// placing weights of twelve-man-morris"), where a mill closed while
// placing may take any piece, so that most of its games are decided
// before the last placement. The moving weights are Default's.
var twelveManMorris = withPlacing(column{Mill: 22, Two: 100, Closable: -1, Mobility: 30, Blocked: -22, Cramp: 29, Reserved: -1, Tempo: 88})

// twelveMensMorris are Default with the placing weights and tempo fitted
// to deeper searches of twelve-mens-morris positions (docs/eval.md, "The
// placing weights of twelve men's morris"). The moving weights are
// Default's.
var twelveMensMorris = withPlacing(column{Mill: 36, Two: 110, Closable: -4, Mobility: 50, Blocked: -58, Cramp: 71, Reserved: -4, Tempo: 93})

// twelveMensMorrisSmall are Default with the placing weights and tempo
// fitted to deeper searches of twelve-mens-morris-small positions (docs/eval.md,
// "The placing weights of the small twelve men's board and Morabaraba"). Its
// placing phase is twelve men's morris's; only its end differs (a full board
// leaves the side to move blocked, and it loses), and the fit came out
// within a few points of twelveMensMorris's. The moving weights are Default's.
var twelveMensMorrisSmall = withPlacing(column{Mill: 39, Two: 110, Closable: -3, Mobility: 58, Blocked: -58, Cramp: 72, Reserved: -8, Tempo: 93})

// morabaraba are Default with the placing weights and tempo fitted the
// same way to Morabaraba positions (a mill closed takes one piece for each
// line it closes). The moving weights are Default's.
var morabaraba = withPlacing(column{Mill: 44, Two: 116, Closable: -7, Mobility: 49, Blocked: -70, Cramp: 72, Reserved: -3, Tempo: 96})

// withPlacing returns Default with the placing column c: a preset whose
// placing weights and tempo were fitted, its moving weights Default's.
func withPlacing(c column) Weights {
	w := defaultWeights
	w.set(Placing, c)
	return w
}

// Evaluate returns the score of p for the side to move. It does not look at
// the end of the game: the search handles that.
//
// The rules of the regional presets change little here. A marked piece
// (placing-captures=mark) is out of play: it is material its side has lost
// (Pieces leaves it out), a point nobody can move or place to, and a line
// through it makes no two until placing ends. Removals owed (Owed: at the
// end of placing, or Shah's deferred one) are pieces about to go: each
// counts as the loss of a piece of the side that loses it. Under
// blocked=removes (zhi qi) a side that cannot move takes a piece instead of
// losing, so Cramp, the penalty of a side about to be shut in, does not
// count. A mill that takes from the hand (dooz) shrinks the hand, which is
// material as a piece on the board is.
//
// Reserved counts a side's empty points that only it can step to: next to
// one of its pieces and to none of the opponent's. They are moves the
// opponent cannot take away by stepping in, the room that keeps a side
// from being shut in. While the opponent still places or flies it can go
// anywhere and nothing is reserved, but under Taper a placing side's points
// count in the proportion of its pieces placed, as Mobility does: the room
// that matters is the one left when placing ends.
func (w *Weights) Evaluate(p *mill.Position) int {
	score := w.Linear(p)
	if _, n := w.NetFor(p); n != nil {
		score += n.Eval(p)
	}
	return score
}

// NetFor returns the net of w that scores p, if any, and which: 0 for Net,
// 1 for PlacingNet.
func (w *Weights) NetFor(p *mill.Position) (int, *Net) {
	switch {
	case w.Net != nil && w.Net.Applies(p):
		return 0, w.Net
	case w.PlacingNet != nil && w.PlacingNet.Applies(p):
		return 1, w.PlacingNet
	}
	return 0, nil
}

// Linear returns the score of p by the weights alone, without the nets: a
// search that keeps the nets' sums move by move (Accumulator) adds their
// output itself.
func (w *Weights) Linear(p *mill.Position) int {
	us, them := p.SideToMove(), p.SideToMove().Other()
	su, nearU, ku := w.side(p, us)
	st, nearT, kt := w.side(p, them)
	return su - st + w.Tempo[PhaseOf(p, us)] + ku*(nearU&^nearT).Len() - kt*(nearT&^nearU).Len()
}

// side returns c's sum but for Reserved, the empty points next to c's
// pieces, and the weight of a reserved point of c's (0 when c can have none).
func (w *Weights) side(p *mill.Position, c mill.Color) (score int, near mill.Points, reservedWeight int) {
	r := p.Rules()
	b := r.Board()
	own, opp := p.Pieces(c), p.Pieces(c.Other())
	marked := p.Marked()
	empty := r.All() &^ (own | opp | marked)
	ph := PhaseOf(p, c)
	score = w.Piece[ph] * (own.Len() + p.InHand(c))
	// Removals owed take pieces of c: those the opponent owes, or c's own
	// when the removals take the remover's own pieces.
	lost := p.Owed(c.Other())
	if p.RemovesOwn() {
		lost = p.Owed(c)
	}
	score -= w.Piece[ph] * lost

	// Where own pieces can step.
	mobility, blocked := 0, 0
	for pt := range own.All() {
		n := b.Adjacent(pt) & empty
		if n == 0 {
			blocked++
		}
		mobility += n.Len()
		near |= n
	}
	mills, twos, closable := 0, 0, 0
	var inMill, closing mill.Points
	for _, l := range r.MillLines() {
		switch o := own & l; {
		case o == l:
			mills++
			inMill |= l
		case o.Len() == 2 && l&(opp|marked) == 0:
			twos++
			hole := l &^ o
			closing |= hole
			// Reachable by a piece not on this line.
			if ph != Moving {
				closable++
			} else {
				for pt := range (own &^ l).All() {
					if b.Adjacent(pt)&hole != 0 {
						closable++
						break
					}
				}
			}
		}
	}
	double := 0
	if ph == Moving && inMill != 0 && closing != 0 {
		for pt := range inMill.All() {
			if b.Adjacent(pt)&closing&empty != 0 {
				double++
			}
		}
	}
	score += w.Mill[ph]*mills + w.Two[ph]*twos + w.Closable[ph]*closable + w.Double[ph]*double
	cramp := 0
	if mobility < CrampBelow && r.Options().Blocked != mill.BlockedRemoves {
		cramp = (CrampBelow - mobility) * (CrampBelow - mobility)
	}
	// Reserved points: none while the opponent flies, nor for a side that
	// slides while the opponent still places (it can place anywhere);
	// both sides placing, Taper counts them as the room c will have when
	// placing ends.
	reserves := !p.Flying(c.Other()) && (ph == Placing || p.InHand(c.Other()) == 0)
	if ph == Placing && w.Taper {
		h, n := p.InHand(c), r.Options().Pieces
		mix := func(wt *[NumPhases]int) int { return (wt[Placing]*h + wt[Moving]*(n-h)) / n }
		score += mix(&w.Mobility)*mobility + mix(&w.Blocked)*blocked + mix(&w.Cramp)*cramp
		if reserves {
			reservedWeight = mix(&w.Reserved)
		}
		return score, near, reservedWeight
	}
	score += w.Mobility[ph]*mobility + w.Blocked[ph]*blocked + w.Cramp[ph]*cramp
	if reserves {
		reservedWeight = w.Reserved[ph]
	}
	return score, near, reservedWeight
}
