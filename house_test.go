// The tests of this file keep the house as drawn (the issue 46 layout): the
// import rules, read from go list, on the code that is built (a _test.go
// file may import more for its set-up); and the doc.go maps, which name
// every file of their package. They live at the root of the module
// because they are about all of it and belong to no package's room; go
// test ./... runs them with the rest.
package morris

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/morrisgame/morris"

// listed is a package as go list -json describes it.
type listed struct {
	ImportPath string
	Dir        string
	Standard   bool
	Module     *struct{ Path string }
	Imports    []string
	GoFiles    []string
	CgoFiles   []string
}

// inModule reports whether p is a package of this module (not of the
// standard library or another module).
func (p *listed) inModule() bool { return p.Module != nil && p.Module.Path == module }

// rel is an import path relative to the module ("mill",
// "internal/server/store"), or the path as it is outside the module.
func rel(importPath string) string {
	if importPath == module {
		return "."
	}
	return strings.TrimPrefix(importPath, module+"/")
}

// under reports whether the module-relative path r is dir or beneath it.
func under(r, dir string) bool { return r == dir || strings.HasPrefix(r, dir+"/") }

// goList runs go list -deps -json over the module once for all the tests:
// every package of the module and everything they import, by import path.
var goList = sync.OnceValues(func() (map[string]*listed, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(goCmd, "list", "-deps", "-json=ImportPath,Dir,Standard,Module,Imports,GoFiles,CgoFiles", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.New("go list: " + err.Error() + ": " + stderr.String())
	}
	pkgs := map[string]*listed{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(listed)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs, nil
})

// packages returns the listing of go list, and makes the test's cached
// result depend on the module's files: go test caches a result by the
// files the test itself opens, not those go list reads, so the test reads
// every directory of the module (a change to a file changes its
// directory's listing, which go test hashes with the files' sizes and
// times).
func packages(t *testing.T) map[string]*listed {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages with:", err)
	}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := goList()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// An importRule is a rule of the layout on what some packages import.
type importRule struct {
	name string
	// applies says which packages of the module the rule is for, by their
	// module-relative path.
	applies func(r string) bool
	// transitive rules judge everything a package depends on, through the
	// packages the rule allows; the others judge its own imports only.
	transitive bool
	// allowed says whether a package the rule is for may import imp (a
	// listed package; for one of the module, r is its relative path).
	allowed func(from string, imp *listed, r string) bool
	why     string
}

var importRules = []importRule{
	{
		name:       "mill",
		applies:    func(r string) bool { return r == "mill" },
		transitive: true,
		allowed:    func(_ string, imp *listed, _ string) bool { return imp.Standard },
		why:        "mill, the rules core, may import the standard library only",
	},
	{
		name:       "record, book and mif",
		applies:    func(r string) bool { return r == "record" || r == "book" || r == "mif" },
		transitive: true,
		allowed:    func(_ string, imp *listed, r string) bool { return imp.Standard || r == "mill" },
		why:        "record, book and mif may import mill and the standard library only",
	},
	{
		name:    "root packages",
		applies: func(r string) bool { return r != "." && !under(r, "internal") && !under(r, "cmd") },
		allowed: func(from string, imp *listed, r string) bool {
			if !imp.inModule() {
				return true
			}
			elems := strings.Split(r, "/")
			i := slices.Index(elems, "internal")
			if i < 0 {
				return true
			}
			owner := strings.Join(elems[:i], "/") // "" for the module's own internal/
			return owner != "" && under(from, owner)
		},
		why: "a root package (mill, record, book, eval, search, egdb, ...) imports no internal/ package but its own (egdb may import egdb/internal/...)",
	},
	{
		name:       "search/suite",
		applies:    func(r string) bool { return r == "search/suite" },
		transitive: true,
		allowed: func(_ string, imp *listed, r string) bool {
			return !imp.inModule() || (r != "search" && r != "eval" && r != "book")
		},
		why: "the regression suite's referee shares nothing with the engine it judges but the rules: search/suite imports neither search nor eval nor book",
	},
	{
		name: "gateways",
		applies: func(r string) bool {
			return under(r, "internal/server/httpapi") || under(r, "internal/server/pbmserv")
		},
		allowed: func(_ string, imp *listed, r string) bool {
			return !imp.inModule() || !under(r, "internal/server/store")
		},
		why: "the gateways (httpapi, pbmserv and pbm) go through the service (internal/server), not the store",
	},
}

// TestImportRules checks the import rules of the layout on every package
// of the module, and names each import that breaks one: the package, the
// import, the files that make it, and for a dependency through other
// packages the chain that leads there.
func TestImportRules(t *testing.T) {
	pkgs := packages(t)
	var mine []*listed
	for _, p := range pkgs {
		if p.inModule() {
			mine = append(mine, p)
		}
	}
	slices.SortFunc(mine, func(a, b *listed) int { return strings.Compare(a.ImportPath, b.ImportPath) })
	for _, rule := range importRules {
		t.Run(rule.name, func(t *testing.T) {
			checked := 0
			for _, p := range mine {
				if !rule.applies(rel(p.ImportPath)) {
					continue
				}
				checked++
				for _, v := range violations(pkgs, p, rule) {
					t.Errorf("%s: %s", v.describe(pkgs), rule.why)
				}
			}
			if checked == 0 {
				t.Errorf("the rule is for no package of the module: has the layout moved without it?")
			}
		})
	}
}

// A violation is an import a rule does not allow: chain runs from the
// package judged to the package that imports imp, through the packages
// the rule allows.
type violation struct {
	chain []string
	imp   string
}

// describe says what a violation is and where: the files that make the
// import and, for a dependency through other packages, the chain.
func (v violation) describe(pkgs map[string]*listed) string {
	last := v.chain[len(v.chain)-1]
	var files []string
	if p := pkgs[last]; p != nil {
		for _, f := range importingFiles(p, v.imp) {
			files = append(files, path.Join(rel(last), f))
		}
	}
	where := cmp.Or(strings.Join(files, ", "), rel(last))
	if len(v.chain) == 1 {
		return fmt.Sprintf("%s imports %s (%s)", rel(last), rel(v.imp), where)
	}
	var names []string
	for _, c := range append(v.chain[:len(v.chain):len(v.chain)], v.imp) {
		names = append(names, rel(c))
	}
	return fmt.Sprintf("%s depends on %s through %s (imported in %s)", rel(v.chain[0]), rel(v.imp), strings.Join(names, " → "), where)
}

// violations returns the imports of p that rule forbids: p's own, or for a
// transitive rule the first forbidden package on each path from p (what
// lies beyond a forbidden package is not judged again).
func violations(pkgs map[string]*listed, p *listed, rule importRule) []violation {
	from := rel(p.ImportPath)
	var out []violation
	seen := map[string]bool{p.ImportPath: true}
	queue := [][]string{{p.ImportPath}}
	for len(queue) > 0 {
		chain := queue[0]
		queue = queue[1:]
		for _, imp := range pkgs[chain[len(chain)-1]].Imports {
			if seen[imp] {
				continue
			}
			seen[imp] = true
			q := pkgs[imp]
			if q == nil { // "C", of cgo, is not listed
				q = &listed{ImportPath: imp, Standard: imp == "C"}
			}
			if !rule.allowed(from, q, rel(imp)) {
				out = append(out, violation{chain: chain, imp: imp})
				continue
			}
			if rule.transitive && !q.Standard {
				queue = append(queue, append(chain[:len(chain):len(chain)], imp))
			}
		}
	}
	return out
}

// importingFiles returns the files of p (those the build takes) that
// import imp.
func importingFiles(p *listed, imp string) []string {
	var files []string
	for _, name := range append(slices.Clone(p.GoFiles), p.CgoFiles...) {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, s := range f.Imports {
			if path, err := strconv.Unquote(s.Path.Value); err == nil && path == imp {
				files = append(files, name)
			}
		}
	}
	return files
}

// TestImportRulesCatch checks the rules themselves on made-up listings: a
// rule that let everything through would pass on any module.
func TestImportRulesCatch(t *testing.T) {
	rules := map[string]importRule{}
	for _, r := range importRules {
		rules[r.name] = r
	}
	tests := []struct {
		rule    string
		imports string // "a: b c; b: d": module-relative paths, "std/..." the standard library, "x.org/..." another module
		from    string
		want    []string // the forbidden imports found, each as chain>import
	}{
		{"mill", "mill: std/fmt std/io", "mill", nil},
		{"mill", "mill: std/fmt x.org/y; x.org/y: x.org/z", "mill", []string{"mill>x.org/y"}},
		{"mill", "mill: mill/x", "mill", []string{"mill>mill/x"}},
		{"record, book and mif", "record: mill std/io; mill: std/fmt", "record", nil},
		{"record, book and mif", "book: mill eval; eval: mill; mill: std/fmt", "book", []string{"book>eval"}},
		{"record, book and mif", "record: mill; mill: std/fmt x.org/y; x.org/y: x.org/z", "record", []string{"record mill>x.org/y"}},
		{"root packages", "egdb: egdb/internal/retro mill; egdb/internal/retro: egdb/internal/bigmem", "egdb", nil},
		{"root packages", "egdb/internal/retro: egdb/internal/bigmem", "egdb/internal/retro", nil},
		{"root packages", "web: internal/server", "web", []string{"web>internal/server"}},
		{"root packages", "search: egdb/internal/retro", "search", []string{"search>egdb/internal/retro"}},
		{"root packages", "puzzle: egdb/internal", "puzzle", []string{"puzzle>egdb/internal"}},
		{"root packages", "egdb: egdb/internal", "egdb", nil},
		{"root packages", "mill: internal", "mill", []string{"mill>internal"}},
		{"gateways", "internal/server/httpapi: internal/server internal/server/wire", "internal/server/httpapi", nil},
		{"gateways", "internal/server/pbmserv/pbm: internal/server/store", "internal/server/pbmserv/pbm", []string{"internal/server/pbmserv/pbm>internal/server/store"}},
		{"gateways", "internal/server/httpapi: internal/server/store/storetest", "internal/server/httpapi", []string{"internal/server/httpapi>internal/server/store/storetest"}},
	}
	for _, tt := range tests {
		pkgs := map[string]*listed{}
		get := func(name string) *listed {
			full := module + "/" + name
			switch {
			case strings.HasPrefix(name, "std/"):
				full = strings.TrimPrefix(name, "std/")
			case strings.Contains(strings.Split(name, "/")[0], "."):
				full = name
			}
			if pkgs[full] == nil {
				pkgs[full] = &listed{ImportPath: full, Standard: strings.HasPrefix(name, "std/")}
				switch {
				case strings.HasPrefix(name, "std/"):
				case full == name:
					pkgs[full].Module = &struct{ Path string }{name}
				default:
					pkgs[full].Module = &struct{ Path string }{module}
				}
			}
			return pkgs[full]
		}
		for _, line := range strings.Split(tt.imports, ";") {
			p, imps, _ := strings.Cut(line, ":")
			lp := get(strings.TrimSpace(p))
			for _, imp := range strings.Fields(imps) {
				lp.Imports = append(lp.Imports, get(imp).ImportPath)
			}
		}
		var got []string
		for _, v := range violations(pkgs, get(tt.from), rules[tt.rule]) {
			var chain []string
			for _, c := range v.chain {
				chain = append(chain, rel(c))
			}
			got = append(got, strings.Join(chain, " ")+">"+rel(v.imp))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("rule %q on %q from %s: got %q, want %q", tt.rule, tt.imports, tt.from, got, tt.want)
		}
	}
}

// The doc.go maps. A package's doc.go maps its files under a heading
// "Where things are:" (or "# Where things are"): the indented lines after
// it, one entry a line (the name first: a file, a folder with its slash,
// or a pattern such as static/js/pages/*.js), the lines indented further
// continuing the entry above. The rules:
//
//   - every package of the module with two or more non-test .go files
//     besides doc.go (on any system: room_unix.go and room_other.go both
//     count) has a doc.go with a map; a package of one file has its
//     comment in that file and needs none;
//   - a map names every non-test .go file of its package but doc.go, as
//     an entry or in an entry's text ("room_unix.go ... (room_other.go:
//     ...)");
//   - every entry, and every .go file a map names, is in the package's
//     folder: a map does not keep a file that moved or was removed.

const mapHeading = "Where things are"

// docMap returns the lines of the map of a doc.go, and whether it has one.
func docMap(file string) ([]string, bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return nil, false, err
	}
	if f.Doc == nil {
		return nil, false, nil
	}
	var lines []string
	in := false
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		switch {
		case !in:
			in = line == mapHeading+":" || line == "# "+mapHeading
		case strings.HasPrefix(line, "\t"):
			lines = append(lines, line)
		case line != "":
			return lines, true, nil // the text after the map
		}
	}
	return lines, in, nil
}

// TestDocMaps checks that every package's doc.go maps its files.
func TestDocMaps(t *testing.T) {
	pkgs := packages(t)
	var mine []*listed
	for _, p := range pkgs {
		if p.inModule() {
			mine = append(mine, p)
		}
	}
	slices.SortFunc(mine, func(a, b *listed) int { return strings.Compare(a.ImportPath, b.ImportPath) })
	for _, p := range mine {
		name := rel(p.ImportPath)
		entries, err := os.ReadDir(p.Dir)
		if err != nil {
			t.Fatal(err)
		}
		var files []string // the non-test .go files but doc.go
		hasDoc := false
		for _, e := range entries {
			n := e.Name()
			switch {
			case e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go"):
			case n == "doc.go":
				hasDoc = true
			default:
				files = append(files, n)
			}
		}
		if !hasDoc {
			if len(files) > 1 {
				t.Errorf("%s has %d files (%s) and no doc.go: a package of more than one file maps them in a doc.go, under %q",
					name, len(files), strings.Join(files, ", "), mapHeading+":")
			}
			continue
		}
		lines, ok, err := docMap(filepath.Join(p.Dir, "doc.go"))
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			if len(files) > 1 {
				t.Errorf("%s/doc.go has no map: a package of %d files (%s) maps them under %q", name, len(files), strings.Join(files, ", "), mapHeading+":")
			}
			continue
		}
		named := map[string]bool{}
		for _, line := range lines {
			entry := ""
			if len(line) > 1 && line[1] != ' ' && line[1] != '\t' { // an entry, not the rest of one
				entry = strings.Fields(line)[0]
				if m, err := filepath.Glob(filepath.Join(p.Dir, entry)); err != nil || len(m) == 0 {
					t.Errorf("%s/doc.go: the map's entry %s is not in %s", name, entry, name)
				}
			}
			for _, w := range strings.FieldsFunc(line, func(r rune) bool {
				return !(r == '_' || r == '.' || r == '-' || r == '/' || r == '*' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
			}) {
				w = strings.TrimRight(w, ".")
				named[w] = true
				if w != entry && strings.HasSuffix(w, ".go") && !strings.Contains(w, "/") && !slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == w }) {
					t.Errorf("%s/doc.go: the map names %s, which is not in %s", name, w, name)
				}
			}
		}
		for _, f := range files {
			if !named[f] {
				t.Errorf("%s/doc.go: %s is missing from the map (%q): add a line that says what it holds", name, f, mapHeading)
			}
		}
	}
}
