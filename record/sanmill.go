package record

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Sanmill's records: Sanmill, the open Mill app, exports games as PGN-like
// text close to ours: the same roster tags, moves in the same standard
// notation ("d6", "a1-a4", "d6xc3"), the same results. What differs is
// turned into our form by FromSanmill:
//
//   - its Variant tag names a rule set in English ("Nine Men's Morris") or
//     by an id ("standard_9mm"): it becomes our Variant and Rules tags, from
//     the settings of Sanmill's named rule sets; those we cannot play are
//     refused with what differs;
//   - annotations ("d6??", "$4") and variations in ( ) are dropped;
//   - a set-up position (FEN and SetUp tags) becomes our Position tag: its
//     FEN is Sanmill's own text, read under the record's rules by the
//     reader FromSanmill is given (mif.ParseSanmillFEN; this package reads
//     no position format but ours); a FEN it cannot read (a removal owed,
//     say), or any FEN without a reader, refuses the record, saying why.

// ErrSanmill is wrapped by the errors of FromSanmill: a record of Sanmill's
// that we cannot read as it is.
var ErrSanmill = errors.New("a Sanmill record not read")

// sanmillRules maps Sanmill's rule sets (lower-case English names and ids)
// to our rules, or to why we cannot play them.
var sanmillRules = map[string]struct{ rules, why string }{
	"nine men's morris":   {rules: "nine-mens-morris"},
	"standard_9mm":        {rules: "nine-mens-morris"},
	"twelve men's morris": {rules: "twelve-mens-morris-small"}, // a full board: white, to move, is blocked and loses, as Sanmill's rule says
	"twelve_mens_morris":  {rules: "twelve-mens-morris-small"},
	"lasker morris":       {rules: "lasker"},
	"lasker_morris":       {rules: "lasker"},
	"el filja":            {rules: "el-filja"},
	"el_filja":            {rules: "el-filja"},
	"russian mill":        {rules: "russian-mill,protection=none"},
	"russian_mill":        {rules: "russian-mill,protection=none"},
	"cheng san qi":        {rules: "cheng-san-qi,placing-captures=mark"},
	"cheng_san_qi":        {rules: "cheng-san-qi,placing-captures=mark"},
	"zhi qi":              {rules: "zhi-qi,flying=never,protection=none,placing-captures=mark,blocked=loses"},
	"zhi_qi":              {rules: "zhi-qi,flying=never,protection=none,placing-captures=mark,blocked=loses"},
	"da san qi":           {rules: "da-san-qi,captures=per-mill"},
	"da_san_qi":           {rules: "da-san-qi,captures=per-mill"},
	"cham gonu":           {rules: "da-san-qi,second-moves-first=no"},
	"cham_gonu":           {rules: "da-san-qi,second-moves-first=no"},
	"nerenchi":            {rules: "twelve-mens-morris-small,protection=none,second-moves-first=yes,full-board=first-loses"},
	"morabaraba":          {why: "Sanmill's Morabaraba draws after 10 moves without a capture once a side is down to three pieces, and bans re-forming a mill; morris has one limit for the whole game (draw-after)"},
	"dooz":                {why: "Sanmill's Dooz lets the side to move alone remove a piece when the board is full; morris has each side remove one (full-board=removals)"},
	"mul-mulan":           {why: "Sanmill's Mul-Mulan captures by intervention; morris captures by mills only"},
	"mul_mulan":           {why: "Sanmill's Mul-Mulan captures by intervention; morris captures by mills only"},
	"custom":              {why: "Sanmill's record does not say its custom rules"},
}

var sanmillTag = regexp.MustCompile(`^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$`)

// IsSanmill reports whether text looks like a record Sanmill wrote: its
// Event or Site tag, or a Variant tag with one of its names.
func IsSanmill(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		m := sanmillTag.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		switch {
		case m[1] == "Event" && m[2] == "Sanmill-Game", m[1] == "Site" && m[2] == "Sanmill":
			return true
		case m[1] == "Variant":
			if _, err := mill.LookupVariant(m[2]); err == nil {
				return false // a preset of ours ("morabaraba", "dooz")
			}
			if _, ok := sanmillRules[strings.ToLower(m[2])]; ok {
				return true
			}
		}
	}
	return false
}

// FENReader reads Sanmill's FEN as a position under r.
type FENReader func(fen string, r *mill.Rules) (mill.Position, error)

// FromSanmill turns the records of Sanmill in text into our record text,
// to be read by Scanner; readFEN reads the FEN of a record from a set-up
// position (nil refuses such records). An error says which record (by
// line) cannot be, and why.
func FromSanmill(text string, readFEN FENReader) (string, error) {
	var out strings.Builder
	text = strings.ReplaceAll(text, "\r\n", "\n")
	depth, inComment := 0, false
	// Of the record being read: its rules (ours), its FEN and the line of
	// it, and whether its tags are behind (a tag after them starts the
	// next record).
	rules, fen, fenLine, inTags := "nine-mens-morris", "", 0, false
	for n, line := range strings.Split(text, "\n") {
		if depth == 0 && !inComment {
			if m := sanmillTag.FindStringSubmatch(line); m != nil {
				if !inTags {
					rules, fen, inTags = "nine-mens-morris", "", true
				}
				switch m[1] {
				case "SetUp":
					continue
				case "FEN":
					fen, fenLine = m[2], n+1
					continue
				case "Variant":
					if _, err := mill.LookupVariant(m[2]); err == nil {
						rules = m[2]
						break // a preset of ours, as we write it
					}
					r, ok := sanmillRules[strings.ToLower(m[2])]
					switch {
					case !ok:
						return "", fmt.Errorf("%w: line %d: Sanmill's rules %q are unknown here", ErrSanmill, n+1, m[2])
					case r.why != "":
						return "", fmt.Errorf("%w: line %d: %s", ErrSanmill, n+1, r.why)
					}
					rules = r.rules
					preset, overrides, _ := strings.Cut(r.rules, ",")
					fmt.Fprintf(&out, "[Variant %q]\n", preset)
					if overrides != "" {
						fmt.Fprintf(&out, "[Rules %q]\n", overrides)
					}
					continue
				case "Rules":
					// Ours, after a Variant of ours.
					rules += "," + m[2]
				}
				out.WriteString(line + "\n")
				continue
			}
			if inTags {
				inTags = false
				if fen != "" {
					if readFEN == nil {
						return "", fmt.Errorf("%w: line %d: a game from a set-up position (Sanmill's FEN is not read here)", ErrSanmill, fenLine)
					}
					r, err := mill.ParseRules(rules)
					if err != nil {
						return "", fmt.Errorf("%w: line %d: the rules %q: %v", ErrSanmill, fenLine, rules, err)
					}
					p, err := readFEN(fen, r)
					if err != nil {
						return "", fmt.Errorf("%w: line %d: %v", ErrSanmill, fenLine, err)
					}
					fmt.Fprintf(&out, "[Position %q]\n", p.String())
				}
			}
		}
		// Movetext: drop variations and annotations, keep comments.
		var b strings.Builder
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case inComment:
				if depth == 0 {
					b.WriteByte(c)
				}
				inComment = c != '}'
			case c == '{':
				inComment = true
				if depth == 0 {
					b.WriteByte(c)
				}
			case c == '(':
				depth++
			case c == ')' && depth > 0:
				depth--
			case depth > 0:
			case c == '$':
				for i+1 < len(line) && '0' <= line[i+1] && line[i+1] <= '9' {
					i++
				}
			case c == '!' || c == '?':
			default:
				b.WriteByte(c)
			}
		}
		out.WriteString(b.String() + "\n")
	}
	return out.String(), nil
}

// sanmillNames are the names Sanmill's records give the rule sets it
// shares with us, as ToSanmill writes them.
var sanmillNames = []string{
	"Nine Men's Morris", "Twelve Men's Morris", "Lasker Morris", "El Filja", "Russian Mill",
	"Cheng San Qi", "Zhi Qi", "Da San Qi", "Cham Gonu", "Nerenchi",
}

// SanmillName returns the name of Sanmill's rule set that is r, or an
// error that says what Sanmill has closest.
func SanmillName(r *mill.Rules) (string, error) {
	var near []string
	for _, name := range sanmillNames {
		ours := sanmillRules[strings.ToLower(name)].rules
		if ours == r.String() {
			return name, nil
		}
		if preset, _, _ := strings.Cut(ours, ","); preset == r.Variant() {
			near = append(near, fmt.Sprintf("%s is %s", name, ours))
		}
	}
	if len(near) > 0 {
		return "", fmt.Errorf("%w: Sanmill has no rule set that is %s (%s)", ErrSanmill, r, strings.Join(near, "; "))
	}
	return "", fmt.Errorf("%w: Sanmill has no rule set that is %s", ErrSanmill, r)
}

// ToSanmill returns rec as Sanmill reads records: its rule set's name in
// the Variant tag (no Rules tag), a game from a set-up position with
// Sanmill's FEN (written by writeFEN, mif.FormatSanmillFEN) and SetUp
// tags, the moves in the standard notation with their comments. Rules
// Sanmill does not have, or a start it cannot say, are an error that says
// why.
func ToSanmill(rec *Record, writeFEN func(mill.Position) (string, error)) (*Record, error) {
	g, err := rec.Game()
	if err != nil {
		return nil, err
	}
	name, err := SanmillName(g.Rules())
	if err != nil {
		return nil, err
	}
	out := &Record{Comment: rec.Comment, Result: rec.Result}
	for _, t := range rec.Tags {
		switch t.Name {
		case "Variant", "Rules", "Seed", "Position":
		default:
			out.SetTag(t.Name, t.Value)
		}
	}
	out.SetTag("Variant", name)
	if start := g.Start(); start != g.Rules().Start() {
		fen, err := writeFEN(start)
		if err != nil {
			return nil, fmt.Errorf("%w: the start %s: %v", ErrSanmill, start, err)
		}
		out.SetTag("FEN", fen)
		out.SetTag("SetUp", "1")
	}
	for i, text := range g.MoveTexts(mill.Standard) {
		m := MoveText{Text: text}
		if i < len(rec.Moves) {
			m.Comment = rec.Moves[i].Comment
		}
		out.Moves = append(out.Moves, m)
	}
	return out, nil
}

// sanmillStartPly returns the ply of Sanmill's FEN: 2 × (its move number
// − 1), plus 1 with black to move; 0 for a text that is not one.
func sanmillStartPly(fen string) int {
	f := strings.Fields(fen)
	if len(f) < 17 || (f[1] != "w" && f[1] != "b") {
		return 0
	}
	n, err := strconv.Atoi(f[16])
	if err != nil || n < 1 || n > 32768 {
		return 0
	}
	ply := 2 * (n - 1)
	if f[1] == "b" {
		ply++
	}
	return ply
}
