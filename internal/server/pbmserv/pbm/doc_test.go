package pbm

import (
	"os"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestDoc checks that the help in doc.go keeps up with the code: every
// command, game name and rule option is in it, and every example parses.
func TestDoc(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	for v := Signup; v < numVerbs; v++ {
		// Each command has a heading: its usage, or for signup, change and help
		// the usage without the game.
		head := "GAME " + v.String()
		if v == Signup || v == Change || v == Help {
			head = "//\t" + Usage(v)
		}
		if !strings.Contains(doc, head) {
			t.Errorf("doc.go has no heading %q", head)
		}
	}
	for _, g := range GameNames() {
		if !strings.Contains(doc, "//\t"+g.Name+" ") || !strings.Contains(doc, " "+g.Variant+" ") {
			t.Errorf("doc.go does not list the game %s (%s)", g.Name, g.Variant)
		}
	}
	for _, o := range mill.OptionList {
		if o.Name != "board" && !strings.Contains(doc, "-"+o.Name+"="+o.Values) {
			t.Errorf("doc.go does not list the option -%s=%s", o.Name, o.Values)
		}
	}
	// The examples: indented lines that start with a game name or signup
	// or help.
	examples := 0
	for _, line := range strings.Split(doc, "\n") {
		text, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			continue
		}
		words := strings.Fields(text)
		if len(words) < 2 {
			continue
		}
		_, game := LookupGame(words[0])
		_, verb := lookupVerb(words[1])
		if !(game && verb) && words[0] != "signup" && words[0] != "change" && words[0] != "help" || strings.Contains(text, "USERID") {
			continue // not an example: a usage line, a table, a board
		}
		examples++
		if _, err := Parse(text); err != nil {
			t.Errorf("the example %q: %v", text, err)
		}
	}
	if examples < int(numVerbs) {
		t.Errorf("%d examples in doc.go, want one or more for each command", examples)
	}
}

// TestDocBoard checks that the board shown in doc.go is what Board prints.
func TestDocBoard(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/nmm-capture.golden")
	if err != nil {
		t.Fatal(err)
	}
	var block []string
	for _, line := range strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n") {
		if line == "" {
			block = append(block, "//")
		} else {
			block = append(block, "//\t"+line)
		}
	}
	if !strings.Contains(string(src), strings.Join(block, "\n")+"\n") {
		t.Errorf("doc.go does not show testdata/nmm-capture.golden as its example board")
	}
}
