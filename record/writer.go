package record

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/morrisgame/morris/mill"
)

// lineWidth is the width the movetext is wrapped at.
const lineWidth = 80

// Writer writes records in the canonical form: the roster tags first, moves
// in the standard notation, the movetext wrapped at 80 columns, a blank line
// between records. It buffers: call Flush at the end.
type Writer struct {
	w *bufio.Writer
	n int // records written
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

// Flush writes what is buffered to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

// Write writes r. It writes nothing and returns an error if r cannot be
// written so as to read back: a bad tag name, a tag value with a newline, the
// same tag twice, a move that is not a move token.
func (w *Writer) Write(r *Record) error {
	text, err := appendRecord(nil, r)
	if err != nil {
		return err
	}
	if w.n > 0 {
		if err := w.w.WriteByte('\n'); err != nil {
			return err
		}
	}
	w.n++
	_, err = w.w.Write(text)
	return err
}

// appendRecord appends the text of r to dst.
func appendRecord(dst []byte, r *Record) ([]byte, error) {
	seen := make(map[string]bool, len(r.Tags))
	for _, t := range r.Tags {
		if !validTagName(t.Name) {
			return dst, fmt.Errorf("record: tag name %q: want a letter, then letters, digits or _", t.Name)
		}
		if strings.IndexByte(t.Value, '\n') >= 0 {
			return dst, fmt.Errorf("record: tag %s: a value cannot hold a newline", t.Name)
		}
		if seen[t.Name] {
			return dst, fmt.Errorf("record: tag %s given twice", t.Name)
		}
		seen[t.Name] = true
	}
	for i, m := range r.Moves {
		if !validMove(m.Text) {
			return dst, fmt.Errorf("record: move %d %q is not a move", i+1, m.Text)
		}
	}
	if r.Result > mill.Draw {
		return dst, fmt.Errorf("record: result %d is not an outcome", r.Result)
	}

	// The tags: the roster, the game's tags, the others as they come.
	tag := func(name, value string) {
		dst = append(dst, '[')
		dst = append(dst, name...)
		dst = append(dst, " \""...)
		for i := 0; i < len(value); i++ {
			if c := value[i]; c == '"' || c == '\\' {
				dst = append(dst, '\\')
			}
			dst = append(dst, value[i])
		}
		dst = append(dst, "\"]\n"...)
	}
	written := map[string]bool{}
	for _, name := range roster {
		v, ok := r.lookup(name)
		switch {
		case name == "Result":
			v = r.Result.String()
		case ok:
		case name == "Date":
			v = "????.??.??"
		default:
			v = "?"
		}
		tag(name, v)
		written[name] = true
	}
	for _, name := range gameTags {
		if v, ok := r.lookup(name); ok {
			tag(name, v)
			written[name] = true
		}
	}
	for _, t := range r.Tags {
		if !written[t.Name] {
			tag(t.Name, t.Value)
		}
	}
	dst = append(dst, '\n')

	// The movetext.
	var board *mill.Board
	if rules, _, err := r.rules(); err == nil {
		board = rules.Board()
	}
	f := filler{dst: dst}
	afterComment := f.comment(r.Comment)
	ply := r.startPly()
	for i, m := range r.Moves {
		text := m.Text
		if board != nil {
			if std, err := board.Rewrite(text, mill.Standard); err == nil {
				text = std // the captures stay in the order the record gives
			}
		}
		switch p := ply + i; {
		case p%2 == 0 || i == 0 || afterComment:
			f.word(number(p) + " " + text)
		default:
			f.word(text)
		}
		afterComment = f.comment(m.Comment)
	}
	f.word(r.Result.String())
	f.dst = append(f.dst, '\n')
	return f.dst, nil
}

// filler fills lines of movetext up to lineWidth.
type filler struct {
	dst []byte
	n   int // characters on the current line
}

func (f *filler) word(w string) {
	k := utf8.RuneCountInString(w)
	if f.n > 0 {
		if f.n+1+k > lineWidth {
			f.dst = append(f.dst, '\n')
			f.n = 0
		} else {
			f.dst = append(f.dst, ' ')
			f.n++
		}
	}
	f.dst = append(f.dst, w...)
	f.n += k
}

// comment writes a comment, in braces or, if it holds a }, after a ; to the
// end of the line. It reports whether it wrote anything.
func (f *filler) comment(text string) bool {
	words := strings.Fields(text)
	if len(words) == 0 {
		return false
	}
	if strings.IndexByte(text, '}') >= 0 {
		f.word("; " + strings.Join(words, " "))
		f.dst = append(f.dst, '\n')
		f.n = 0
		return true
	}
	for i, w := range words {
		if i == 0 {
			w = "{" + w
		}
		if i == len(words)-1 {
			w += "}"
		}
		f.word(w)
	}
	return true
}
