package mill

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// Rules is a compiled, immutable rule set: a preset, its overrides, and the
// tables the move generator needs. Positions point to their Rules; the same
// preset and overrides always give the same *Rules, so positions compare equal.
type Rules struct {
	opts      Options
	variant   string
	overrides []string
	name      string // variant[,override...]
	board     *Board

	n        int
	all      uint32 // every point
	adj      [MaxPoints]uint32
	lines    []Points                      // mill lines
	atLines  [MaxPoints][]uint8            // the mill lines through each point (indices into lines)
	atMask   [MaxPoints][maxLinesAt]uint32 // the same lines as sets, for the hot loop
	atCount  [MaxPoints]uint8
	diagonal uint32 // mill line indices that are diagonals (for text)
}

// maxLinesAt is the most mill lines through one point: six through the
// centre of cross17 (four spokes ending there, two lines across).
const maxLinesAt = 6

// rulesCache memoizes NewRules (a pure function) so that the same rules text
// gives the same *Rules and positions compare equal with ==. Beyond
// maxCachedRules distinct rule sets, NewRules returns fresh *Rules.
var (
	rulesCache  sync.Map // canonical name -> *Rules
	rulesCached atomic.Int64
)

const maxCachedRules = 4096

// NewRules returns the rules of a preset with options overridden, each
// override of the form "name=value" (for example "flying=never").
func NewRules(variant string, overrides ...string) (*Rules, error) {
	v, err := LookupVariant(variant)
	if err != nil {
		return nil, err
	}
	opts := v.Options
	if err := opts.Apply(overrides...); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrRules, variant, err)
	}
	if problems := opts.problems(); len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s: %s", ErrRules, variant, strings.Join(problems, "; "))
	}
	diff := opts.Diff(v.Options)
	name := strings.Join(append([]string{v.ID}, diff...), ",")
	if r, ok := rulesCache.Load(name); ok {
		return r.(*Rules), nil
	}
	r := compile(v.ID, diff, opts)
	r.name = name
	// The memo is bounded: rules texts can come from users (records, a
	// server), and an unbounded map would grow with every new combination.
	if rulesCached.Load() >= maxCachedRules {
		return r, nil
	}
	actual, loaded := rulesCache.LoadOrStore(name, r)
	if !loaded {
		rulesCached.Add(1)
	}
	return actual.(*Rules), nil
}

// MustRules is NewRules for presets known to be valid; it panics on error.
func MustRules(variant string, overrides ...string) *Rules {
	r, err := NewRules(variant, overrides...)
	if err != nil {
		panic(err)
	}
	return r
}

// ParseRules parses the text form of a rule set, as printed by Rules.String:
// "nine-mens-morris" or "nine-mens-morris,flying=never,protection=always".
func ParseRules(s string) (*Rules, error) {
	parts := strings.Split(s, ",")
	return NewRules(parts[0], parts[1:]...)
}

func compile(variant string, overrides []string, opts Options) *Rules {
	b, _ := BoardByID(opts.Board)
	r := &Rules{opts: opts, variant: variant, overrides: overrides, board: b, n: b.Len(), adj: b.adj}
	r.all = uint32(1<<uint(r.n) - 1)
	for _, l := range b.Lines {
		if l.Diagonal && !opts.DiagonalMills {
			continue
		}
		id := uint8(len(r.lines))
		var m Points
		for _, p := range l.Points {
			m |= 1 << p
			r.atLines[p] = append(r.atLines[p], id)
			r.atMask[p][r.atCount[p]] = 1<<l.Points[0] | 1<<l.Points[1] | 1<<l.Points[2]
			r.atCount[p]++
		}
		if l.Diagonal {
			r.diagonal |= 1 << id
		}
		r.lines = append(r.lines, m)
	}
	return r
}

// Options returns the rule options.
func (r *Rules) Options() Options { return r.opts }

// Variant returns the id of the preset the rules start from.
func (r *Rules) Variant() string { return r.variant }

// Overrides returns the options that differ from the preset, as "name=value".
func (r *Rules) Overrides() []string { return append([]string(nil), r.overrides...) }

// Board returns the board.
func (r *Rules) Board() *Board { return r.board }

// String returns the rules as text: the preset and its overrides, joined by commas.
func (r *Rules) String() string { return r.name }

// MillLines returns the lines that form mills under these rules, as point
// sets, in a fixed order (the order of one-time mills' used lines). The slice
// is shared and must not be modified: evaluation calls this in hot loops.
func (r *Rules) MillLines() []Points { return r.lines }

// All returns every point of the board.
func (r *Rules) All() Points { return Points(r.all) }

// mills returns the set of mill line indices through p that own fills.
func (r *Rules) millsAt(own uint32, p Point) (lines uint32) {
	for i, id := range r.atLines[p] {
		if own&r.atMask[p][i] == r.atMask[p][i] {
			lines |= 1 << id
		}
	}
	return lines
}

// inMills returns the set of points of own that stand in a mill.
func (r *Rules) inMills(own uint32) uint32 {
	var m uint32
	for _, l := range r.lines {
		if l := uint32(l); own&l == l {
			m |= l
		}
	}
	return m
}

// millCount returns the number of mill lines that own fills.
func (r *Rules) millCount(own uint32) int {
	n := 0
	for _, l := range r.lines {
		if l := uint32(l); own&l == l {
			n++
		}
	}
	return n
}
