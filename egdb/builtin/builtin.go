package builtin

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

// The files, each a compact file (egdb.WriteCompact) named by the preset
// it was made for (and "-opening" for the first plies of the placing
// phase). Held as []byte, they are read where the program's image holds
// them: nothing is copied at the start.
var (
	//go:embed data/nine-mens-morris.wdl
	nineMens []byte
	//go:embed data/nine-mens-morris-opening.wdl
	nineMensOpening []byte
	//go:embed data/six-mens-morris.wdl
	sixMens []byte
	//go:embed data/seven-mens-morris.wdl
	sevenMens []byte
	//go:embed data/twelve-mens-morris.wdl
	twelveMens []byte
	//go:embed data/twelve-mens-morris-small.wdl
	twelveMensSmall []byte
	//go:embed data/twelve-mens-morris-large.wdl
	twelveMensLarge []byte
	//go:embed data/mill.wdl
	millFile []byte
	//go:embed data/cheng-san-qi.wdl
	chengSanQi []byte
	//go:embed data/el-filja.wdl
	elFilja []byte
)

// A File is a database built into the program.
type File struct {
	// Name is the file's name in data/, without ".wdl".
	Name string
	// Variant is the preset the file was made for (mill.NewRules); it
	// answers for every rule set whose values are the same (Compact.Covers).
	Variant string
	// Bytes is the file's size.
	Bytes int
	// DB is the file, opened.
	DB *egdb.Compact
}

// What holds what each file covers, by name, for the documentation and
// the tests: the flags of `morris solve` that write it.
var What = map[string]string{
	"nine-mens-morris":         "-max 10: every sector of the moving phase with at most 10 pieces on the board",
	"nine-mens-morris-opening": "-game -placed 11: every position of the first 11 plies (the placing phase with at most 11 pieces placed)",
	"six-mens-morris":          "-game: the whole game",
	"seven-mens-morris":        "-game: the whole game",
	"twelve-mens-morris":       "-max 10: every sector of the moving phase with at most 10 pieces on the board",
	"twelve-mens-morris-small": "-max 10: every sector of the moving phase with at most 10 pieces on the board",
	"twelve-mens-morris-large": "-max 8: every sector of the moving phase with at most 8 pieces on the board",
	"mill":                     "-max 9: every sector of the moving phase with at most 9 pieces on the board",
	"cheng-san-qi":             "-max 9: every sector of the moving phase with at most 9 pieces on the board",
	"el-filja":                 "-max 9: every sector of the moving phase with at most 9 pieces on the board",
}

// embedded are the files, each with the preset it was made for. Each way
// of playing the moving phase among the presets that have databases has
// one (egdb.Supported; presets that play it alike share it: lasker, for
// one, is answered by nine men's morris's).
var embedded = []struct {
	name, variant string
	data          []byte
}{
	{"nine-mens-morris", "nine-mens-morris", nineMens},
	{"nine-mens-morris-opening", "nine-mens-morris", nineMensOpening},
	{"six-mens-morris", "six-mens-morris", sixMens},
	{"seven-mens-morris", "seven-mens-morris", sevenMens},
	{"twelve-mens-morris", "twelve-mens-morris", twelveMens},
	{"twelve-mens-morris-small", "twelve-mens-morris-small", twelveMensSmall},
	{"twelve-mens-morris-large", "twelve-mens-morris-large", twelveMensLarge},
	{"mill", "mill", millFile},
	{"cheng-san-qi", "cheng-san-qi", chengSanQi},
	{"el-filja", "el-filja", elFilja},
}

// Files returns the databases built into the program, opened at the first
// call and shared (never Close them). A file that does not open is a bug
// of the build, which the tests catch: it panics.
func Files() []File { return files() }

var files = sync.OnceValue(func() []File {
	out := make([]File, 0, len(embedded))
	for _, e := range embedded {
		r, err := mill.NewRules(e.variant)
		if err != nil {
			panic(fmt.Sprintf("builtin: %s: %v", e.variant, err))
		}
		c, err := egdb.ReadCompact(e.data, egdb.ForRules(r))
		if err != nil {
			panic(fmt.Sprintf("builtin: %s does not open: %v", e.name, err))
		}
		out = append(out, File{Name: e.name, Variant: e.variant, Bytes: len(e.data), DB: c})
	}
	return out
})

// Shelf returns the databases dbs (nil ones left out), asked first, then
// the built-in ones: what the engine, the server and the commands probe
// when an operator gives databases (-tablebases) or none.
func Shelf(dbs ...egdb.Perfect) *egdb.Shelf {
	for _, f := range Files() {
		dbs = append(dbs, f.DB)
	}
	return egdb.NewShelf(dbs...)
}
