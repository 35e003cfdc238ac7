package mill

import (
	"strings"
	"testing"
)

// TestLineTexts: a line's texts as far as its moves are legal in turn; an
// empty line is an empty list, not nil.
func TestLineTexts(t *testing.T) {
	p := NewGame(MustRules("nine-mens-morris")).Position()
	var line []Move
	q := p
	for _, text := range []string{"d6", "d5", "b4"} {
		m, err := q.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		line = append(line, m)
		q = q.Play(m)
	}
	if got := p.LineTexts(line); strings.Join(got, " ") != "d6 d5 b4" {
		t.Errorf("the line: %v", got)
	}
	// d6 twice: the second is not legal, and the text stops before it.
	if got := p.LineTexts([]Move{line[0], line[0], line[2]}); strings.Join(got, " ") != "d6" {
		t.Errorf("a line illegal at its second move: %v, want [d6]", got)
	}
	if got := p.LineTexts(nil); got == nil || len(got) != 0 {
		t.Errorf("no line: %#v, want an empty list", got)
	}
}
