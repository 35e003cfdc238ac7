package pbm

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// FuzzParse: Parse never panics; a line that parses prints a canonical line
// that parses back to the same command and prints the same; a line that
// does not gets an ErrSyntax whose message is one printable line.
func FuzzParse(f *testing.F) {
	for _, tc := range validLines(f) {
		f.Add(tc.line)
	}
	for _, tc := range invalidLines {
		if len(tc.line) < 200 {
			f.Add(tc.line)
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := Parse(line)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q): %v does not wrap ErrSyntax", line, err)
			}
			if msg := err.Error(); strings.IndexFunc(msg, unicode.IsControl) >= 0 {
				t.Fatalf("Parse(%q): the message %q holds a control character", line, msg)
			}
			return
		}
		s := c.String()
		again, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) = %#v, whose String %q does not parse: %v", line, c, s, err)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("Parse(%q) = %#v\nString %q parses to %#v", line, c, s, again)
		}
		if s2 := again.String(); s2 != s {
			t.Fatalf("Parse(%q): String %q, then %q", line, s, s2)
		}
	})
}
