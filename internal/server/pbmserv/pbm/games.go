package pbm

import (
	"strings"

	"github.com/morrisgame/morris/mill"
)

// GameName is a game name of the command language and the preset it plays.
type GameName struct {
	Name    string // the short name typed before the command: "nmm"
	Variant string // the mill preset: "nine-mens-morris"
}

// gameNames gives every preset of mill.Variants a short name. nmm is
// pbmserv's; the others follow it: the initials of the English name, a
// letter for the board size where two presets share a name, the number of
// men as a word where the initials are taken (three, six, seven, as twelve),
// or the name itself when it is short already. The regional presets keep
// their names, run together as their players write them in Latin letters
// (chengsanqi, not csq): initials of Chinese or Arabic words say nothing to
// anyone. A test checks that every preset has one.
var gameNames = []GameName{
	{"nmm", "nine-mens-morris"},
	{"tmm", "twelve-mens-morris"},
	{"tmms", "twelve-mens-morris-small"},
	{"tmml", "twelve-mens-morris-large"},
	{"twelve", "twelve-man-morris"},
	{"nmmd", "nine-man-morris-diagonal"},
	{"shah", "shah"},
	{"mill", "mill"},
	{"lasker", "lasker"},
	{"mora", "morabaraba"},
	{"russian", "russian-mill"},
	{"three", "three-mens-morris"},
	{"tapatan", "tapatan"},
	{"six", "six-mens-morris"},
	{"seven", "seven-mens-morris"},
	{"dooz", "dooz"},
	{"chengsanqi", "cheng-san-qi"},
	{"dasanqi", "da-san-qi"},
	{"zhiqi", "zhi-qi"},
	{"elfilja", "el-filja"},
}

// GameNames returns the table of game names, in a fixed order.
func GameNames() []GameName { return append([]GameName(nil), gameNames...) }

// LookupGame returns the preset a game name stands for. It takes the short
// names and the full preset ids, in any case.
func LookupGame(name string) (variant string, ok bool) {
	name = strings.ToLower(name)
	for _, g := range gameNames {
		if g.Name == name {
			return g.Variant, true
		}
	}
	if _, err := mill.LookupVariant(name); err == nil {
		return name, true
	}
	return "", false
}

// ShortName returns the game name of a preset: its short name, or the
// preset id when it has none.
func ShortName(variant string) string {
	for _, g := range gameNames {
		if g.Variant == variant {
			return g.Name
		}
	}
	return variant
}

// boardOf returns the board a preset plays on, or nil for an unknown preset.
// Moves are checked against it: the game name fixes the board, which is why
// challenge takes no -board option.
func boardOf(variant string) *mill.Board {
	v, err := mill.LookupVariant(variant)
	if err != nil {
		return nil
	}
	b, _ := mill.BoardByID(v.Options.Board)
	return b
}

// gameList is the list of short names for messages: "nmm, tmm, ...".
func gameList() string {
	names := make([]string, len(gameNames))
	for i, g := range gameNames {
		names[i] = g.Name
	}
	return strings.Join(names, ", ")
}
