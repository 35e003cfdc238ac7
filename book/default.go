package book

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sync"
)

// data holds the books built for the program (see the package
// documentation): every file of data/, plain text or gzip.
//
//go:embed data
var data embed.FS

// Default returns the books embedded in the program, all files of data/
// in one Book. It is parsed at the first call and shared: do not Add to it.
func Default() *Book { return defaultBook() }

var defaultBook = sync.OnceValue(func() *Book {
	b, err := parseFS(data, "data")
	if err != nil {
		// The files are checked by the tests: a bad one is a bug of the build.
		panic(fmt.Sprintf("book: the embedded book does not parse: %v", err))
	}
	return b
})

// parseFS reads every file of dir in fsys into one book.
func parseFS(fsys fs.FS, dir string) (*Book, error) {
	files, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	all := new(Book)
	for _, f := range files {
		if f.IsDir() {
			continue
		}
		name := path.Join(dir, f.Name())
		r, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		b, err := Parse(r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := all.merge(b); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return all, nil
}

// merge adds the entries of o to b; a position in both is an error.
func (b *Book) merge(o *Book) error {
	for k, e := range o.entries {
		if _, ok := b.entries[k]; ok {
			return fmt.Errorf("%s: in an earlier file too", e.pos)
		}
		if b.entries == nil {
			b.entries = make(map[string]stored, len(o.entries))
		}
		b.entries[k] = e
	}
	return nil
}
