package puzzle

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sync"
)

// data holds the puzzles built into the program: files of the text form
// (Read), one a rule set, made by `morris puzzles -o` from our databases.
//
//go:embed data
var data embed.FS

// Builtin returns the puzzles built into the program, of every rule set,
// in the order of their files and lines. They are read at the first call
// and shared: do not change them. A file that does not read is a bug of
// the build, which the tests catch: it panics.
func Builtin() []Puzzle { return builtinPuzzles() }

var builtinPuzzles = sync.OnceValue(func() []Puzzle {
	out, err := readFS(data, "data")
	if err != nil {
		panic(fmt.Sprintf("puzzle: the built-in puzzles: %v", err))
	}
	return out
})

// readFS reads every file of dir in fsys.
func readFS(fsys fs.FS, dir string) ([]Puzzle, error) {
	files, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var all []Puzzle
	for _, f := range files {
		if f.IsDir() {
			continue
		}
		name := path.Join(dir, f.Name())
		r, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		pz, err := Read(r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		all = append(all, pz...)
	}
	return all, nil
}
