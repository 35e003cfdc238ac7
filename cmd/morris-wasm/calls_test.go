package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// The calls natively (the browser tests of web/ run them in Chromium).

func call(t *testing.T, en *engine, method string, body any) any {
	t.Helper()
	raw, _ := json.Marshal(body)
	out, err := en.call(method, raw)
	if err != nil {
		t.Fatalf("%s %s: %v", method, raw, err)
	}
	return out
}

// TestMoveEveryLevel: the engine answers a legal move at every level.
func TestMoveEveryLevel(t *testing.T) {
	en := newEngine()
	mid := "nine-mens-morris 1BWW2B1/2W3W1/BBBB2BB w 0,0 - 0 40"
	p := mill.MustParsePosition(mid)
	for level := 1; level <= 10; level++ {
		if level == 10 && testing.Short() {
			continue // 2 s
		}
		a := call(t, en, "move", map[string]any{"position": mid, "level": level, "game": "t"}).(moveAnswer)
		m, err := p.ParseMove(a.Move)
		if err != nil || !p.Legal(m) {
			t.Errorf("level %d: %q is not a legal move in %s (%v)", level, a.Move, mid, err)
		}
	}
}

// TestRecordReadsBack: a game's record, with a resignation, is read by the
// record package as the same game.
func TestRecordReadsBack(t *testing.T) {
	en := newEngine()
	moves := []string{"d2", "f4", "d6", "b4"}
	text := call(t, en, "record", map[string]any{"rules": "nine-mens-morris", "moves": moves,
		"tags": map[string]string{"White": "ann", "Black": "Morris engine (level 3)", "Event": "e"}, "result": "0-1", "termination": "resignation"}).(string)
	sc := record.NewScanner(strings.NewReader(text))
	if !sc.Scan() {
		t.Fatalf("%v\n%s", sc.Err(), text)
	}
	rec := sc.Record()
	g, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(g.MoveTexts(mill.Standard), " "); got != strings.Join(moves, " ") || rec.Tag("Result") != "0-1" || rec.Tag("Termination") != "resignation" || rec.Tag("White") != "ann" {
		t.Errorf("the record reads back as %q, tags %v:\n%s", got, rec.Tags, text)
	}
}

// TestCallErrors: a bad call, a bad body and an illegal move are errors,
// not panics.
func TestCallErrors(t *testing.T) {
	en := newEngine()
	for _, c := range []struct{ method, body string }{
		{"nope", ""},
		{"position", "{"},
		{"position", `{"rules": "nine-mens-morris", "moves": ["d2", "d2"]}`},
		{"move", `{"position": "nine-mens-morris WWW5/8/BB6 b 0,0 - 0 30"}`},
		{"analysis", `{"rules": "nine-mens-morris", "depth": 99}`},
	} {
		if _, err := en.call(c.method, []byte(c.body)); err == nil {
			t.Errorf("%s %s: no error", c.method, c.body)
		}
	}
}
