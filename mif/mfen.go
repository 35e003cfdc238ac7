package mif

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Signature and StateProfile are the only MFEN version and state profile
// this package reads and writes; anything else is refused, never guessed.
const (
	Signature    = "MFEN/1.0"
	StateProfile = "mill24-state-v1"
)

// Errors. Every error of this package wraps one of them.
var (
	// ErrSyntax: the text is not MFEN (or the manifest not MRS) as the grammar has it.
	ErrSyntax = errors.New("mif: syntax")
	// ErrUnsupported: well formed, but it holds what our rules or positions
	// cannot express (a rule option, a pending removal, a finished game).
	ErrUnsupported = errors.New("mif: not expressible in morris")
)

// pointNames are the 24 points in the draft's order: each ring clockwise
// from its top-left corner, the outer ring first.
var pointNames = [24]string{
	"a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",
	"b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
	"c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
}

// lineIDs are the draft's mill lines by number; 0..15 on both boards,
// 16..19 (the diagonals) on the board with diagonals only.
var lineIDs = [20][3]string{
	{"a7", "d7", "g7"}, {"g7", "g4", "g1"}, {"g1", "d1", "a1"}, {"a1", "a4", "a7"},
	{"b6", "d6", "f6"}, {"f6", "f4", "f2"}, {"f2", "d2", "b2"}, {"b2", "b4", "b6"},
	{"c5", "d5", "e5"}, {"e5", "e4", "e3"}, {"e3", "d3", "c3"}, {"c3", "c4", "c5"},
	{"d7", "d6", "d5"}, {"g4", "f4", "e4"}, {"d1", "d2", "d3"}, {"a4", "b4", "c4"},
	{"a7", "b6", "c5"}, {"g7", "f6", "e5"}, {"g1", "f2", "e3"}, {"a1", "b2", "c3"},
}

// MFEN is one MFEN record, field by field, as the text has it: a parse
// without rules checks the grammar only (Position checks the rest).
type MFEN struct {
	Board       [24]byte // W, B: pieces; w, b: a piece marked for removal, with its owner; '.': empty
	Side        byte     // w, b, or '-' when the game is over
	Phase       byte     // p placing, m moving, o over
	Action      byte     // p, m, r (a removal owed), o
	Hands       [2]int   // white's and black's pieces in hand
	Obligations string   // "-" or the removals owed, kept as text
	NoProgress  int
	Ply         int
	Outcome     string // "-" or w:REASON, b:REASON, d:REASON
	Extensions  []Extension
}

// Extension is one "key=value" field after the outcome (lm, pc, ul, x-...).
type Extension struct{ Key, Value string }

// SyntaxError is a text that is not MFEN: the input, the byte offset of the
// field at fault, and why. It unwraps to ErrSyntax.
type SyntaxError struct {
	Input  string
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("MFEN %q, at byte %d: %s", e.Input, e.Offset, e.Msg)
}
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// IsMFEN reports whether s looks like an MFEN record rather than our own
// position text, so that one field can take either.
func IsMFEN(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), "MFEN/") }

// maxInt is the draft's largest exact integer (2^53-1).
const maxInt = 1<<53 - 1

// ParseMFEN reads an MFEN record by the grammar alone: exactly one space
// between fields, no space around, canonical integers. It needs no rules;
// Position checks the record against them.
func ParseMFEN(s string) (MFEN, error) {
	var m MFEN
	fields := strings.Split(s, " ")
	offsets := make([]int, len(fields))
	for i, at := 1, 0; i < len(fields); i++ {
		at += len(fields[i-1]) + 1
		offsets[i] = at
	}
	fail := func(i int, format string, args ...any) (MFEN, error) {
		off := len(s)
		if i < len(offsets) {
			off = offsets[i]
		}
		return MFEN{}, &SyntaxError{Input: s, Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
	if len(s) > 4096 {
		return fail(0, "longer than 4096 bytes")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return MFEN{}, &SyntaxError{Input: s, Offset: i, Msg: "not printable ASCII"}
		}
	}
	if len(fields) < 11 {
		return fail(len(fields), "want at least 11 fields separated by single spaces (MFEN/1.0 profile board side phase action hands obligations no-progress ply outcome), have %d", len(fields))
	}
	for i, f := range fields {
		if f == "" {
			return fail(i, "an empty field: fields are separated by exactly one space")
		}
	}
	if fields[0] != Signature {
		return fail(0, "signature %q: only %s is read", fields[0], Signature)
	}
	if fields[1] != StateProfile {
		return fail(1, "state profile %q: only %s is read", fields[1], StateProfile)
	}
	rings := strings.Split(fields[2], "/")
	if len(rings) != 3 {
		return fail(2, "board: want three rings of 8 points separated by /")
	}
	for r, ring := range rings {
		if len(ring) != 8 {
			return fail(2, "board: ring %d has %d points, want 8", r+1, len(ring))
		}
		for k := 0; k < 8; k++ {
			c := ring[k]
			if !strings.ContainsRune("WBwb.", rune(c)) {
				return fail(2, "board: %q is not W, B, w, b or .", c)
			}
			m.Board[r*8+k] = c
		}
	}
	one := func(i int, allowed string, what string) (byte, error) {
		f := fields[i]
		if len(f) != 1 || !strings.Contains(allowed, f) {
			_, err := fail(i, "%s %q: want one of %s", what, f, strings.Join(strings.Split(allowed, ""), ", "))
			return 0, err
		}
		return f[0], nil
	}
	var err error
	if m.Side, err = one(3, "wb-", "side"); err != nil {
		return MFEN{}, err
	}
	if m.Phase, err = one(4, "pmo", "phase"); err != nil {
		return MFEN{}, err
	}
	if m.Action, err = one(5, "pmro", "action"); err != nil {
		return MFEN{}, err
	}
	hw, hb, ok := strings.Cut(fields[6], ",")
	if !ok {
		return fail(6, "hands %q: want white's and black's, like 9,9", fields[6])
	}
	for c, h := range []string{hw, hb} {
		n, ok := uint53(h)
		if !ok {
			return fail(6, "hands %q: want two integers without leading zeros", fields[6])
		}
		m.Hands[c] = n
	}
	if err := checkObligations(fields[7]); err != nil {
		return fail(7, "obligations %q: %v", fields[7], err)
	}
	m.Obligations = fields[7]
	for k, dst := range []*int{&m.NoProgress, &m.Ply} {
		n, ok := uint53(fields[8+k])
		if !ok {
			return fail(8+k, "%q: want an integer without leading zeros", fields[8+k])
		}
		*dst = n
	}
	if err := checkOutcome(fields[10]); err != nil {
		return fail(10, "outcome %q: %v", fields[10], err)
	}
	m.Outcome = fields[10]
	for i := 11; i < len(fields); i++ {
		key, value, ok := strings.Cut(fields[i], "=")
		if !ok || !(key == "lm" || key == "pc" || key == "ul" || isPrivateID(key)) {
			return fail(i, "extension %q: want lm=, pc=, ul= or x-NAME=", fields[i])
		}
		if len(m.Extensions) > 0 && key <= m.Extensions[len(m.Extensions)-1].Key {
			return fail(i, "extension %q: keys are unique and in ascending order", key)
		}
		if err := checkExtension(key, value); err != nil {
			return fail(i, "extension %s: %v", key, err)
		}
		m.Extensions = append(m.Extensions, Extension{key, value})
	}
	return m, nil
}

// uint53 reads a canonical unsigned integer: no sign, no leading zero.
func uint53(s string) (int, bool) {
	if s == "" || len(s) > 1 && s[0] == '0' || len(s) > 16 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > maxInt {
		return 0, false
	}
	return int(n), true
}

func isIdentifier(s string) bool {
	if len(s) < 1 || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case (c == '.' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

func isPrivateID(s string) bool {
	return strings.HasPrefix(s, "x-") && len(s) > 2 && isIdentifier(s) && s[2] != '.' && s[2] != '-'
}

var causes = []string{"leap", "intervention", "custodian", "mill", "mill-count", "stalemate", "board-full"}

// checkObligations checks the grammar of the obligations field.
func checkObligations(s string) error {
	if s == "-" {
		return nil
	}
	for _, branch := range strings.Split(s, "|") {
		for _, ob := range strings.Split(branch, ";") {
			f := strings.Split(ob, ":")
			if len(f) != 7 {
				return fmt.Errorf("%q: want actor:cause:zone:owner:count:targets:after", ob)
			}
			n, ok := uint53(f[4])
			switch {
			case f[0] != "w" && f[0] != "b", f[3] != "w" && f[3] != "b":
				return fmt.Errorf("%q: actor and owner are w or b", ob)
			case !contains(causes, f[1]):
				return fmt.Errorf("%q: unknown cause %q", ob, f[1])
			case f[2] != "b" && f[2] != "h":
				return fmt.Errorf("%q: zone is b or h", ob)
			case !ok || n == 0:
				return fmt.Errorf("%q: the count is a positive integer", ob)
			case f[5] != "-" && f[5] != "~" && !isHex(f[5], 6):
				return fmt.Errorf("%q: targets are six lower-case hex digits, - or ~", ob)
			case f[6] != "w" && f[6] != "b" && f[6] != "q":
				return fmt.Errorf("%q: after is w, b or q", ob)
			}
		}
	}
	return nil
}

var reasons = []string{"fewer-than-minimum", "no-legal-move", "no-legal-primary-action", "board-full", "no-progress", "repetition", "agreement", "resignation", "adjudication"}

func checkOutcome(s string) error {
	if s == "-" {
		return nil
	}
	res, reason, ok := strings.Cut(s, ":")
	if !ok || res != "w" && res != "b" && res != "d" {
		return fmt.Errorf("want - or w:, b:, d: and a reason")
	}
	if !contains(reasons, reason) && !isPrivateID(reason) {
		return fmt.Errorf("unknown reason %q", reason)
	}
	return nil
}

func checkExtension(key, value string) error {
	for i := 0; i < len(value); i++ {
		if value[i] == '=' {
			return fmt.Errorf("'=' in a value")
		}
	}
	switch key {
	case "lm":
		w, b, ok := strings.Cut(value, ";")
		if !ok {
			return fmt.Errorf("want FROM,TO;FROM,TO")
		}
		for _, v := range []string{w, b} {
			from, to, ok := strings.Cut(v, ",")
			if !ok || !isCoordOrDash(from) || !isCoordOrDash(to) {
				return fmt.Errorf("want FROM,TO;FROM,TO with points or -")
			}
		}
	case "pc":
		w, b, ok := strings.Cut(value, ",")
		_, ok1 := uint53(w)
		_, ok2 := uint53(b)
		if !ok || !ok1 || !ok2 {
			return fmt.Errorf("want two integers")
		}
	case "ul":
		w, b, ok := strings.Cut(value, ",")
		if !ok || !(isHex(w, 4) || isHex(w, 5)) || !(isHex(b, 4) || isHex(b, 5)) {
			return fmt.Errorf("want two sets of 4 or 5 lower-case hex digits")
		}
	}
	return nil
}

func isCoordOrDash(s string) bool { return s == "-" || pointIndex(s) >= 0 }

func pointIndex(name string) int {
	for i, n := range pointNames {
		if n == name {
			return i
		}
	}
	return -1
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// String returns the record as text. A record read by ParseMFEN prints
// back byte for byte: the grammar admits one spelling of each value.
func (m MFEN) String() string {
	var b strings.Builder
	b.WriteString(Signature + " " + StateProfile + " ")
	for i, c := range m.Board {
		if i > 0 && i%8 == 0 {
			b.WriteByte('/')
		}
		b.WriteByte(c)
	}
	fmt.Fprintf(&b, " %c %c %c %d,%d %s %d %d %s", m.Side, m.Phase, m.Action, m.Hands[0], m.Hands[1], m.Obligations, m.NoProgress, m.Ply, m.Outcome)
	for _, e := range m.Extensions {
		b.WriteString(" " + e.Key + "=" + e.Value)
	}
	return b.String()
}

func (m MFEN) extension(key string) (string, bool) {
	for _, e := range m.Extensions {
		if e.Key == key {
			return e.Value, true
		}
	}
	return "", false
}
