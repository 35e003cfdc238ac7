package record

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// SyntaxError reports text that is not a game record, and where: the line and
// the column (in characters, from 1). It unwraps to mill.ErrSyntax.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

func (e *SyntaxError) Unwrap() error { return mill.ErrSyntax }

// Scanner reads the records of a stream one by one, as bufio.Scanner reads
// lines: Scan until it returns false, then check Err. It checks the syntax,
// the move numbers and the Result tag against the result token, not the
// moves: Record.Game does that. It stops at the first syntax error.
type Scanner struct {
	br        *bufio.Reader
	line, col int // where the next byte is
	rec       *Record
	err       error
}

// NewScanner returns a Scanner that reads from r.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{br: bufio.NewReader(r), line: 1, col: 1}
}

// Record returns the record read by the last call to Scan.
func (s *Scanner) Record() *Record { return s.rec }

// Err returns the first error met, nil at the end of the input.
func (s *Scanner) Err() error { return s.err }

// errStop unwinds the scan of a record; the error is in s.err.
type errStop struct{}

func (s *Scanner) failAt(line, col int, format string, args ...any) {
	s.err = &SyntaxError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
	panic(errStop{})
}

func (s *Scanner) fail(format string, args ...any) { s.failAt(s.line, s.col, format, args...) }

// peek returns the next byte without reading it; ok is false at the end.
func (s *Scanner) peek() (c byte, ok bool) {
	b, err := s.br.Peek(1)
	if len(b) == 0 {
		if err != nil && err != io.EOF {
			s.err = err
			panic(errStop{})
		}
		return 0, false
	}
	return b[0], true
}

// next reads the next byte, which must be there (peek first).
func (s *Scanner) next() byte {
	c, _ := s.br.ReadByte()
	switch {
	case c == '\n':
		s.line++
		s.col = 1
	case c&0xC0 != 0x80: // not a continuation byte of UTF-8: a new character
		s.col++
	}
	return c
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isDelim reports the bytes that end a token besides white space.
func isDelim(c byte) bool { return strings.IndexByte("{}[]();\"", c) >= 0 }

// skipSpace skips white space, newlines included.
func (s *Scanner) skipSpace() {
	for {
		c, ok := s.peek()
		if !ok || !isSpace(c) {
			return
		}
		s.next()
	}
}

// skipBlanks skips spaces and tabs, not newlines.
func (s *Scanner) skipBlanks() {
	for {
		c, ok := s.peek()
		if !ok || (c != ' ' && c != '\t' && c != '\r') {
			return
		}
		s.next()
	}
}

// Scan reads the next record. It returns false at the end of the input or on
// an error.
func (s *Scanner) Scan() (ok bool) {
	s.rec = nil
	if s.err != nil {
		return false
	}
	defer func() {
		if e := recover(); e != nil {
			if _, stop := e.(errStop); !stop {
				panic(e)
			}
			ok = false
		}
	}()
	rec, ok := s.scan()
	s.rec = rec
	return ok
}

// scanState is what the scan of a record knows besides the record.
type scanState struct {
	rec       *Record
	movetext  bool // a move or a move number has been read: no more tags
	startPly  int
	numLine   int    // where the last move number is, while its move is due
	numCol    int    //
	numText   string // the move number waiting for its move, or ""
	anyTokens bool   // something besides comments has been read
}

func (s *Scanner) scan() (*Record, bool) {
	st := &scanState{rec: &Record{}}
	rec := st.rec
	for {
		s.skipSpace()
		c, ok := s.peek()
		if !ok {
			if !st.anyTokens {
				// Only white space and comments after the last record.
				return nil, false
			}
			s.fail("the input ends inside the game that starts on line %d: want its result (1-0, 0-1, 1/2-1/2 or *)", rec.Line)
		}
		if rec.Line == 0 {
			rec.Line = s.line
		}
		switch c {
		case '[':
			if st.movetext {
				s.fail("a tag pair inside the movetext: the game before it has no result (1-0, 0-1, 1/2-1/2 or *)")
			}
			st.anyTokens = true
			s.tag(rec)
		case '{':
			st.comment(s.braceComment())
		case ';':
			st.comment(s.lineComment())
		case '(':
			s.fail("variations in ( ) are not supported")
		case ')', ']', '}', '"':
			s.fail("unexpected %q", c)
		default:
			st.anyTokens = true
			if s.word(st) {
				return rec, true
			}
		}
	}
}

// comment attaches a comment to the last move, or to the game before the
// first move.
func (st *scanState) comment(text string) {
	if text == "" {
		return
	}
	at := &st.rec.Comment
	if n := len(st.rec.Moves); n > 0 {
		at = &st.rec.Moves[n-1].Comment
	}
	if *at != "" {
		*at += " "
	}
	*at += text
}

// normalize collapses the white space of a comment.
func normalize(text string) string { return strings.Join(strings.Fields(text), " ") }

func (s *Scanner) braceComment() string {
	line, col := s.line, s.col
	s.next() // {
	var b []byte
	for {
		c, ok := s.peek()
		if !ok {
			s.failAt(line, col, "unterminated comment: no } after this {")
		}
		s.next()
		if c == '}' {
			return normalize(string(b))
		}
		b = append(b, c)
	}
}

func (s *Scanner) lineComment() string {
	s.next() // ;
	var b []byte
	for {
		c, ok := s.peek()
		if !ok || c == '\n' {
			return normalize(string(b))
		}
		b = append(b, s.next())
	}
}

func isTagNameByte(c byte, first bool) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && ('0' <= c && c <= '9' || c == '_')
}

// validTagName reports whether name can be a tag name: a letter, then
// letters, digits and underscores.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isTagNameByte(name[i], i == 0) {
			return false
		}
	}
	return true
}

// tag reads a tag pair; it must stand on one line.
func (s *Scanner) tag(rec *Record) {
	line, col := s.line, s.col
	s.next() // [
	s.skipBlanks()
	var name []byte
	for {
		c, ok := s.peek()
		if !ok || !isTagNameByte(c, len(name) == 0) {
			break
		}
		name = append(name, s.next())
	}
	if len(name) == 0 {
		s.fail("want a tag name (a letter, then letters, digits or _) after [")
	}
	s.skipBlanks()
	if c, ok := s.peek(); !ok || c != '"' {
		s.fail("want \" to start the value of tag %s", name)
	}
	s.next()
	var value []byte
	for {
		c, ok := s.peek()
		if !ok || c == '\n' {
			s.fail("unterminated value of tag %s: want \" before the end of the line", name)
		}
		s.next()
		if c == '"' {
			break
		}
		if c == '\\' {
			e, ok := s.peek()
			if !ok || (e != '"' && e != '\\') {
				s.failAt(s.line, s.col-1, "unknown escape in the value of tag %s: want \\\" or \\\\", name)
			}
			c = s.next()
		}
		value = append(value, c)
	}
	s.skipBlanks()
	if c, ok := s.peek(); !ok || c != ']' {
		s.fail("unterminated tag pair [%s: want ] after the value", name)
	}
	s.next()
	n, v := string(name), string(value)
	if _, dup := rec.lookup(n); dup {
		s.failAt(line, col, "tag %s given twice", n)
	}
	if n == "Result" {
		if _, ok := mill.ParseOutcome(v); !ok {
			s.failAt(line, col, "tag Result %q: want 1-0, 0-1, 1/2-1/2 or *", v)
		}
	}
	rec.Tags = append(rec.Tags, Tag{Name: n, Value: v})
}

// word reads a token of the movetext: a move, a move number, or the result.
// It returns true at the result, which ends the record.
func (s *Scanner) word(st *scanState) bool {
	line, col := s.line, s.col
	var b []byte
	for {
		c, ok := s.peek()
		if !ok || isSpace(c) || isDelim(c) {
			break
		}
		b = append(b, s.next())
	}
	tok := string(b)
	if !st.movetext {
		st.movetext = true
		st.startPly = st.rec.startPly()
	}
	if o, ok := mill.ParseOutcome(tok); ok {
		if st.numText != "" {
			s.failAt(st.numLine, st.numCol, "move number %s has no move after it", st.numText)
		}
		if v, ok := st.rec.lookup("Result"); ok && v != tok {
			s.failAt(line, col, "the result %s differs from the Result tag %q", tok, v)
		}
		st.rec.Result = o
		return true
	}
	if '0' <= tok[0] && tok[0] <= '9' {
		s.moveNumber(st, tok, line, col)
		return false
	}
	s.move(st, tok, line, col)
	return false
}

// moveNumber reads "12." or "12...", and the move glued to it, if any.
func (s *Scanner) moveNumber(st *scanState, tok string, line, col int) {
	if st.numText != "" {
		s.failAt(st.numLine, st.numCol, "move number %s has no move after it", st.numText)
	}
	i := 0
	for i < len(tok) && '0' <= tok[i] && tok[i] <= '9' {
		i++
	}
	j := i
	for j < len(tok) && tok[j] == '.' {
		j++
	}
	digits := tok[:i]
	if j-i != 1 && j-i != 3 {
		s.failAt(line, col, "%q is not a move number like %s. or %s..., a move or a result", tok, digits, digits)
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || len(digits) > 6 {
		s.failAt(line, col, "move number %s: want 1 to 999999 without leading zeros", tok[:j])
	}
	if digits[0] == '0' {
		s.failAt(line, col, "move number %s: want 1 to 999999 without leading zeros", tok[:j])
	}
	ply := st.startPly + len(st.rec.Moves)
	if want := number(ply); tok[:j] != want {
		s.failAt(line, col, "move number %s out of sequence: want %s (numbers count pairs of plies from ply %d of the start)", tok[:j], want, st.startPly)
	}
	if j == len(tok) {
		st.numText, st.numLine, st.numCol = tok, line, col
		return
	}
	s.move(st, tok[j:], line, col+j)
}

// validMove reports whether tok can be a move: letters, digits, - and
// commas, starting with a letter or a comma. The board decides the rest.
func validMove(tok string) bool {
	if tok == "" || !(isTagNameByte(tok[0], true) || tok[0] == ',') {
		return false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !isTagNameByte(c, false) && c != '-' && c != ',' || c == '_' {
			return false
		}
	}
	return true
}

func (s *Scanner) move(st *scanState, tok string, line, col int) {
	if !validMove(tok) {
		s.failAt(line, col, "%q is not a move, a move number or a result", tok)
	}
	st.numText = ""
	st.rec.Moves = append(st.rec.Moves, MoveText{Text: tok, Line: line})
}
