package builtin

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

// The files, each a compact file (egdb.WriteCompact) named by the preset
// it was made for. Held as []byte, they are read where the program's
// image holds them: nothing is copied at the start.
var (
	//go:embed data/nine-mens-morris.wdl
	nineMens []byte
	//go:embed data/six-mens-morris.wdl
	sixMens []byte
	//go:embed data/seven-mens-morris.wdl
	sevenMens []byte
)

// A File is a database built into the program.
type File struct {
	// Variant is the preset the file was made for (mill.NewRules); it
	// answers for every rule set whose values are the same (Compact.Covers).
	Variant string
	// Bytes is the file's size.
	Bytes int
	// DB is the file, opened.
	DB *egdb.Compact
}

// What holds what each file covers, for the documentation and the tests:
// the sectors that `morris solve` builds for it.
var What = map[string]string{
	"nine-mens-morris":  "-max 10: every sector of the moving phase with at most 10 pieces on the board",
	"six-mens-morris":   "-game: the whole game",
	"seven-mens-morris": "-game: the whole game",
}

var embedded = []struct {
	variant string
	data    []byte
}{
	{"nine-mens-morris", nineMens},
	{"six-mens-morris", sixMens},
	{"seven-mens-morris", sevenMens},
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
			panic(fmt.Sprintf("builtin: the file of %s does not open: %v", e.variant, err))
		}
		out = append(out, File{Variant: e.variant, Bytes: len(e.data), DB: c})
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
