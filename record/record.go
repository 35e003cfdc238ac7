package record

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Tag is a tag pair, [Name "Value"].
type Tag struct {
	Name, Value string
}

// MoveText is one move of the movetext as it was written, with the comments
// that follow it.
type MoveText struct {
	Text    string // the move as written: "a4-a7xd2", or pbmserv's "A4-A7,D2"
	Comment string // the comments after the move, joined, whitespace collapsed
	Line    int    // the line of the move in the input; 0 if it was not read
}

// Record is one game record. The Result field is the result token that ends
// the movetext; the Writer writes the Result tag from it, so it is the one to
// set.
type Record struct {
	Tags    []Tag
	Moves   []MoveText
	Comment string       // the comments before the first move
	Result  mill.Outcome // mill.NoOutcome is "*"
	Line    int          // the line where the record starts; 0 if it was not read
}

// The seven tags of the roster, written first and in this order.
var roster = [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// The tags that describe the rules and the end, written after the roster.
var gameTags = [...]string{"Variant", "Rules", "Seed", "Position", "Termination"}

// DefaultVariant is the variant of a record without a Variant tag.
const DefaultVariant = "nine-mens-morris"

// ErrResult is wrapped by the errors of a record whose result or Termination
// tag disagrees with the board.
var ErrResult = errors.New("wrong result")

// Tag returns the value of the tag called name, or "" if there is none.
func (r *Record) Tag(name string) string {
	v, _ := r.lookup(name)
	return v
}

func (r *Record) lookup(name string) (string, bool) {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets the tag called name to value, adding it after the others if
// the record has none.
func (r *Record) SetTag(name, value string) {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{Name: name, Value: value})
}

// DeleteTag removes the tag called name.
func (r *Record) DeleteTag(name string) {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags = append(r.Tags[:i], r.Tags[i+1:]...)
			return
		}
	}
}

// FromGame returns the record of g with the given tags. It sets the Variant,
// Rules, Seed, Position, Result and Termination tags from the game (over
// those given), and the moves in the standard notation.
func FromGame(g *mill.Game, tags ...Tag) *Record {
	r := &Record{}
	for _, t := range tags {
		r.SetTag(t.Name, t.Value)
	}
	rules := g.Rules()
	r.SetTag("Variant", rules.Variant())
	if ov := rules.Overrides(); len(ov) > 0 {
		r.SetTag("Rules", strings.Join(ov, ","))
	} else {
		r.DeleteTag("Rules")
	}
	r.DeleteTag("Seed")
	r.DeleteTag("Position")
	start := g.Start()
	if seed, lot := g.Seed(); lot {
		r.SetTag("Seed", strconv.FormatUint(seed, 10))
	} else if rules.Options().FirstPlayer == mill.FirstLot || start != rules.Start() {
		r.SetTag("Position", start.String())
	}
	r.Result = g.Outcome()
	r.SetTag("Result", r.Result.String())
	if m := g.Method(); m != mill.NoMethod && r.Result != mill.NoOutcome {
		r.SetTag("Termination", m.String())
	} else {
		r.DeleteTag("Termination")
	}
	for _, text := range g.MoveTexts(mill.Standard) {
		r.Moves = append(r.Moves, MoveText{Text: text})
	}
	return r
}

// TagError reports a tag whose value the game cannot be rebuilt from: an
// unknown variant, a bad override, a bad Seed or Position. Value is "" for a
// missing tag.
type TagError struct {
	Name, Value string
	Err         error
}

func (e *TagError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("tag %s: %v", e.Name, e.Err)
	}
	return fmt.Sprintf("tag %s %q: %v", e.Name, e.Value, e.Err)
}

func (e *TagError) Unwrap() error { return e.Err }

// ReplayError reports the first move of a record that cannot be played: its
// index in Record.Moves, its number ("12." or "12..."), its text, its line,
// and the error of the mill package, which it unwraps to.
type ReplayError struct {
	Index  int
	Number string
	Move   string
	Line   int
	Err    error
}

func (e *ReplayError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	fmt.Fprintf(&b, "move %s %s: ", e.Number, e.Move)
	var me *mill.MoveError
	var se *mill.SyntaxError
	switch {
	case errors.As(e.Err, &me):
		b.WriteString("illegal: " + me.Reason)
	case errors.As(e.Err, &se):
		fmt.Fprintf(&b, "not a move: at offset %d: %s", se.Offset, se.Msg)
	default:
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *ReplayError) Unwrap() error { return e.Err }

// number returns the move number of ply: "12." for an even ply, "12..." for
// an odd one. A number counts pairs of plies, not colours.
func number(ply int) string {
	if ply%2 == 0 {
		return strconv.Itoa(ply/2+1) + "."
	}
	return strconv.Itoa(ply/2+1) + "..."
}

// startPly returns the ply of the start position: the last field of the
// Position tag, or 0. A bad Position tag counts as 0 here; Game reports it.
// A record in Sanmill's form (ToSanmill) has a FEN tag instead, whose side
// to move and move number give the ply.
func (r *Record) startPly() int {
	v, ok := r.lookup("Position")
	if !ok {
		return sanmillStartPly(r.Tag("FEN"))
	}
	f := strings.Fields(v)
	if len(f) != 7 {
		return 0
	}
	n, err := strconv.Atoi(f[6])
	if err != nil || n < 0 || n > 65535 {
		return 0
	}
	return n
}

// rules returns the rules of the record and the start position if the
// record sets one up.
func (r *Record) rules() (*mill.Rules, *mill.Position, error) {
	variant, hasV := r.lookup("Variant")
	over, hasR := r.lookup("Rules")
	ptext, hasP := r.lookup("Position")
	var start *mill.Position
	if hasP {
		p, err := mill.ParsePosition(ptext)
		if err != nil {
			return nil, nil, &TagError{Name: "Position", Value: ptext, Err: err}
		}
		start = &p
		if !hasV && !hasR {
			return p.Rules(), start, nil
		}
	}
	if !hasV {
		variant = DefaultVariant
	}
	var overrides []string
	if strings.TrimSpace(over) != "" {
		overrides = strings.Split(over, ",")
		for i := range overrides {
			overrides[i] = strings.TrimSpace(overrides[i])
		}
	}
	rules, err := mill.NewRules(variant, overrides...)
	if err != nil {
		if errors.Is(err, mill.ErrUnknownVariant) {
			return nil, nil, &TagError{Name: "Variant", Value: variant, Err: err}
		}
		return nil, nil, &TagError{Name: "Rules", Value: over, Err: err}
	}
	if start != nil && start.Rules().String() != rules.String() {
		return nil, nil, &TagError{Name: "Position", Value: ptext,
			Err: fmt.Errorf("the position is played under %s, but the Variant and Rules tags say %s", start.Rules(), rules)}
	}
	return rules, start, nil
}

// newGame returns the game at the start of the record.
func (r *Record) newGame() (*mill.Game, error) {
	rules, start, err := r.rules()
	if err != nil {
		return nil, err
	}
	stext, hasS := r.lookup("Seed")
	switch {
	case start != nil:
		if hasS {
			return nil, &TagError{Name: "Seed", Value: stext, Err: errors.New("a game set up from a Position draws no lot")}
		}
		return mill.NewGame(rules, mill.FromPosition(*start)), nil
	case rules.Options().FirstPlayer == mill.FirstLot:
		if !hasS {
			return nil, &TagError{Name: "Seed", Err: fmt.Errorf("the rules %s draw the first player by lot: the record needs the seed of the lot (or a Position, or first=white in Rules)", rules)}
		}
		seed, err := strconv.ParseUint(stext, 10, 64)
		if err != nil {
			return nil, &TagError{Name: "Seed", Value: stext, Err: errors.New("want a decimal number below 2^64")}
		}
		return mill.NewGame(rules, mill.WithSeed(seed)), nil
	case hasS:
		return nil, &TagError{Name: "Seed", Value: stext, Err: fmt.Errorf("the rules %s draw no lot for the first player", rules)}
	}
	return mill.NewGame(rules), nil
}

// Game rebuilds the game of the record: the rules from the Variant and Rules
// tags, the start from the Position or Seed tag, then every move. It checks
// that the result agrees with the board: a game that ended on the board must
// have that result (and Termination, if given); a game that did not may end
// with any result, by the Termination given (resignation, agreement, time,
// abandonment) or by none.
//
// On a move that cannot be played it returns the game before that move and a
// *ReplayError. A tag it cannot use gives a *TagError, a wrong result an
// error wrapping ErrResult.
func (r *Record) Game() (*mill.Game, error) {
	g, err := r.newGame()
	if err != nil {
		return nil, err
	}
	ply := g.Start().Ply()
	for i, mv := range r.Moves {
		if err := g.PlayText(mv.Text); err != nil {
			return g, &ReplayError{Index: i, Number: number(ply + i), Move: mv.Text, Line: mv.Line, Err: err}
		}
	}
	term, hasT := r.lookup("Termination")
	if o := g.Outcome(); o != mill.NoOutcome {
		if r.Result != o {
			return g, fmt.Errorf("%w: the record says %s, the board says %s by %s", ErrResult, r.Result, o, g.Method())
		}
		if hasT && term != g.Method().String() {
			return g, fmt.Errorf("%w: the Termination tag says %q, the board says %s by %s", ErrResult, term, o, g.Method())
		}
		return g, nil
	}
	if r.Result == mill.NoOutcome {
		if hasT {
			return g, fmt.Errorf("%w: the Termination tag says %q, but the game goes on (result *)", ErrResult, term)
		}
		return g, nil
	}
	how := mill.NoMethod
	if hasT {
		m, ok := mill.ParseMethod(term)
		if !ok {
			return g, &TagError{Name: "Termination", Value: term, Err: errors.New("not a way a game ends (resignation, agreement, time, abandonment, or an end on the board like blocked)")}
		}
		switch m {
		case mill.Resignation, mill.Agreement, mill.Time, mill.Abandonment:
		default:
			return g, fmt.Errorf("%w: the Termination tag says %q, but the game has not ended on the board", ErrResult, term)
		}
		how = m
	}
	if err := g.End(r.Result, how); err != nil {
		return g, err
	}
	return g, nil
}
