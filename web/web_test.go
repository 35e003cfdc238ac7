package web

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

func get(t *testing.T, h http.Handler, target string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	r := res.Body
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestIndexForRoutes(t *testing.T) {
	h := Handler()
	for _, target := range []string{"/", "/index.html", "/game/12", "/user/ann", "/rules/shah", "/study/game/3", "/some/deep/route"} {
		res := get(t, h, target)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: got %d, want 200", target, res.StatusCode)
			continue
		}
		if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("GET %s: got Content-Type %q, want text/html", target, ct)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("GET %s: got Cache-Control %q, want no-cache", target, cc)
		}
		if res.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: no Content-Security-Policy", target)
		}
		if b := body(t, res); !strings.Contains(b, `<script type="module" src="/js/app.js">`) {
			t.Errorf("GET %s: the body is not index.html:\n%s", target, b)
		}
	}
}

func TestFilesWithTypes(t *testing.T) {
	h := Handler()
	for _, c := range []struct{ path, ctype string }{
		{"/js/app.js", "text/javascript; charset=utf-8"},
		{"/js/pages/game.js", "text/javascript; charset=utf-8"},
		{"/css/app.css", "text/css; charset=utf-8"},
		{"/img/logo.svg", "image/svg+xml"},
		{"/i18n/en.json", "application/json; charset=utf-8"},
		{"/data/rules.json", "application/json; charset=utf-8"},
	} {
		res := get(t, h, c.path)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: got %d, want 200", c.path, res.StatusCode)
			continue
		}
		if got := res.Header.Get("Content-Type"); got != c.ctype {
			t.Errorf("GET %s: got Content-Type %q, want %q", c.path, got, c.ctype)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no nosniff", c.path)
		}
		etag := res.Header.Get("ETag")
		if etag == "" {
			t.Errorf("GET %s: no ETag", c.path)
			continue
		}
		if res := get(t, h, c.path, "If-None-Match", etag); res.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: got %d, want 304", c.path, res.StatusCode)
		}
	}
}

func TestGzip(t *testing.T) {
	h := Handler()
	plain := body(t, get(t, h, "/js/pages/game.js"))
	res := get(t, h, "/js/pages/game.js", "Accept-Encoding", "gzip, deflate")
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("got Content-Encoding %q, want gzip", res.Header.Get("Content-Encoding"))
	}
	if got := body(t, res); got != plain {
		t.Errorf("the gzipped file differs from the plain one")
	}
	if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("no Vary: Accept-Encoding")
	}
	// The engine is committed gzipped (engine/morris.wasm.gz) and served
	// as engine/morris.wasm, plain to a client that does not take gzip.
	plain = body(t, get(t, h, "/engine/morris.wasm"))
	if !strings.HasPrefix(plain, "\x00asm") {
		t.Errorf("/engine/morris.wasm without gzip: %q..., want the WebAssembly module", plain[:min(8, len(plain))])
	}
	res = get(t, h, "/engine/morris.wasm", "Accept-Encoding", "gzip")
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "application/wasm" || body(t, res) != plain {
		t.Errorf("/engine/morris.wasm with gzip: %q %q, want the same module gzipped as application/wasm", res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"))
	}
	if res := get(t, h, "/engine/morris.wasm.gz"); res.StatusCode != http.StatusNotFound {
		t.Errorf("/engine/morris.wasm.gz: got %d, want 404 (it is served by its name)", res.StatusCode)
	}
}

func TestUnknownAssets(t *testing.T) {
	h := Handler()
	for _, target := range []string{"/js/nope.js", "/css/missing.css", "/favicon.ico", "/img/x.png", "/i18n/xx.json"} {
		if res := get(t, h, target); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: got %d, want 404", target, res.StatusCode)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: got %d, want 405", rec.Code)
	}
}

// refs finds the references to other files in a file: src/href
// attributes, imports, fetches, url(...) and other quoted paths that end
// in a known extension.
var refs = regexp.MustCompile(`["'(\x60](\.{0,2}/?[\w./-]+\.(?:js|css|json|svg|png|ico|html|wasm|webmanifest))["')\x60]`)

// TestEveryFileReachable follows the references from index.html and fails
// for a file of static/ that nothing reaches (dead weight in the binary)
// and for a reference to a file that does not exist.
func TestEveryFileReachable(t *testing.T) {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{} // by the name served: name.gz is served as name
	fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all[strings.TrimSuffix(p, ".gz")] = true
		}
		return err
	})
	seen := map[string]bool{"index.html": true}
	queue := []string{"index.html"}
	// The files of each language are named at run time from LANGUAGES.
	for _, code := range languages(t) {
		for _, f := range []string{"i18n/" + code + ".json", "data/rules." + code + ".json"} {
			if code != "en" || f == "i18n/en.json" {
				seen[f] = true
			}
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		data, err := fs.ReadFile(sub, f)
		if errors.Is(err, fs.ErrNotExist) {
			continue // committed gzipped: not a file that refers to others
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range refs.FindAllStringSubmatch(string(data), -1) {
			ref := m[1]
			var p string
			switch {
			case strings.HasPrefix(ref, "/"):
				p = strings.TrimPrefix(ref, "/")
			case strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../"):
				p = path.Join(path.Dir(f), ref)
			default:
				continue // a word with a dot, not a path
			}
			if !all[p] {
				if strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../") || strings.HasPrefix(ref, "/js/") || strings.HasPrefix(ref, "/css/") || strings.HasPrefix(ref, "/img/") || strings.HasPrefix(ref, "/data/") || strings.HasPrefix(ref, "/i18n/") {
					t.Errorf("%s refers to %s, which is not in static/", f, ref)
				}
				continue
			}
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	var lost []string
	for p := range all {
		if !seen[p] {
			lost = append(lost, p)
		}
	}
	sort.Strings(lost)
	if len(lost) > 0 {
		t.Errorf("files in static/ that nothing refers to: %v", lost)
	}
}

// TestStringsTranslated checks that every key the scripts pass to t('...')
// is in i18n/en.json, and that data-i18n attributes name keys that exist.
func TestStringsTranslated(t *testing.T) {
	raw, err := static.ReadFile("static/i18n/en.json")
	if err != nil {
		t.Fatal(err)
	}
	var en map[string]string
	if err := json.Unmarshal(raw, &en); err != nil {
		t.Fatalf("en.json: %v", err)
	}
	calls := regexp.MustCompile(`\bt\('([\w.-]+)'`)
	attrs := regexp.MustCompile(`data-i18n="([\w.-]+)"`)
	fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.Contains([]string{".js", ".html"}, path.Ext(p)) {
			return err
		}
		data, _ := static.ReadFile(p)
		for _, re := range []*regexp.Regexp{calls, attrs} {
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				key := m[1]
				if strings.HasSuffix(key, ".") {
					continue // a prefix completed at run time: 'variant.' + id
				}
				if _, ok := en[key]; !ok {
					t.Errorf("%s: key %q is not in en.json", p, key)
				}
			}
		}
		return nil
	})
}

// TestTestIDsDocumented checks that the data-testid values the scripts
// set literally are listed in doc.go, which the browser tests rely on.
func TestTestIDsDocumented(t *testing.T) {
	raw, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	docGo := string(raw)
	ids := regexp.MustCompile(`(?:testid: ['"]|data-testid=")([a-z][\w-]*)`)
	seen := map[string]bool{}
	fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.Contains([]string{".js", ".html"}, path.Ext(p)) {
			return err
		}
		data, _ := static.ReadFile(p)
		for _, m := range ids.FindAllStringSubmatch(string(data), -1) {
			id := strings.TrimRight(m[1], "-")
			if seen[id] {
				continue
			}
			seen[id] = true
			if !regexp.MustCompile(`(^|[^\w-])` + regexp.QuoteMeta(id) + `($|[^\w])`).MatchString(docGo) {
				t.Errorf("%s: data-testid %q is not documented in doc.go", p, id)
			}
		}
		return nil
	})
}

// TestRulesDataAgrees checks the client's rules data against the presets
// of package mill: every preset has its page, a name in en.json, and the
// facts its table shows (board, pieces, diagonal mills, flying,
// protection, blocked, first player, a mill while placing, a full board,
// the second player moving first) as mill plays them; and every value of
// those options has its words in en.json.
func TestRulesDataAgrees(t *testing.T) {
	raw, err := static.ReadFile("static/data/rules.json")
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Presets map[string]struct {
			Name             string   `json:"name"`
			Board            string   `json:"board"`
			Pieces           int      `json:"pieces"`
			DiagonalMills    bool     `json:"diagonalMills"`
			Flying           *int     `json:"flying"`
			Protection       string   `json:"protection"`
			Blocked          string   `json:"blocked"`
			First            string   `json:"first"`
			PlacingCaptures  string   `json:"placingCaptures"`
			FullBoard        string   `json:"fullBoard"`
			SecondMovesFirst bool     `json:"secondMovesFirst"`
			MillWins         bool     `json:"millWins"`
			Summary          string   `json:"summary"`
			Rules            []string `json:"rules"`
		} `json:"presets"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatalf("rules.json: %v", err)
	}
	rawEn, err := static.ReadFile("static/i18n/en.json")
	if err != nil {
		t.Fatal(err)
	}
	var en map[string]string
	if err := json.Unmarshal(rawEn, &en); err != nil {
		t.Fatal(err)
	}
	option := func(name string) mill.Option {
		o, ok := mill.LookupOption(name)
		if !ok {
			t.Fatalf("no option %s", name)
		}
		return o
	}
	for _, v := range mill.Variants() {
		p, ok := data.Presets[v.ID]
		if !ok {
			t.Errorf("rules.json has no preset %s", v.ID)
			continue
		}
		if en["variant."+v.ID] == "" {
			t.Errorf("en.json has no name variant.%s", v.ID)
		}
		if p.Name == "" || p.Summary == "" || len(p.Rules) == 0 {
			t.Errorf("%s: no name, summary or rules", v.ID)
		}
		o := v.Options
		flying := "never"
		if p.Flying != nil {
			flying = fmt.Sprint(*p.Flying)
		}
		placing, full := p.PlacingCaptures, p.FullBoard
		if placing == "" {
			placing = "immediate"
		}
		if full == "" {
			full = "gridlock"
		}
		for _, c := range []struct{ option, got string }{
			{"board", p.Board}, {"pieces", fmt.Sprint(p.Pieces)}, {"diagonal-mills", yesNo(p.DiagonalMills)},
			{"flying", flying}, {"protection", p.Protection}, {"blocked", p.Blocked}, {"first", p.First},
			{"placing-captures", placing}, {"full-board", full}, {"second-moves-first", yesNo(p.SecondMovesFirst)},
			{"mill-wins", yesNo(p.MillWins)},
		} {
			if want := option(c.option).Get(&o); c.got != want {
				t.Errorf("rules.json: %s has %s %s, mill %s", v.ID, c.option, c.got, want)
			}
		}
	}
	for name, prefix := range map[string]string{"blocked": "rules.blocked.", "placing-captures": "rules.placing.", "full-board": "rules.fullBoard.",
		"protection": "rules.protection.", "first": "rules.first.", "board": "board.name."} {
		for _, value := range strings.Split(option(name).Values, "|") {
			if en[prefix+value] == "" {
				t.Errorf("en.json has no words for %s=%s (%s%s)", name, value, prefix, value)
			}
		}
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// TestCSSBalanced checks that every style sheet's blocks close: a rule
// block or @media left open swallows every rule after it (as a merge once
// left the clubs' and tournaments' styles inside a narrow-screen query,
// so that wide screens lost them), and browsers say nothing.
func TestCSSBalanced(t *testing.T) {
	fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".css" {
			return err
		}
		data, _ := static.ReadFile(p)
		depth, line, quote := 0, 1, byte(0)
		for i := 0; i < len(data); i++ {
			c := data[i]
			switch {
			case c == '\n':
				line++
			case quote != 0:
				if c == '\\' {
					i++
				} else if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '/' && i+1 < len(data) && data[i+1] == '*':
				end := strings.Index(string(data[i+2:]), "*/")
				if end < 0 {
					t.Errorf("%s:%d: a comment never closed", p, line)
					return nil
				}
				line += strings.Count(string(data[i:i+2+end]), "\n")
				i += end + 3
			case c == '{':
				depth++
			case c == '}':
				depth--
				if depth < 0 {
					t.Errorf("%s:%d: a } with no block open", p, line)
					depth = 0
				}
			case c == '@' && depth > 0 && strings.HasPrefix(string(data[i:]), "@media"):
				t.Errorf("%s:%d: @media inside a block: the one before it is not closed", p, line)
			}
		}
		if depth != 0 {
			t.Errorf("%s: %d block(s) never closed", p, depth)
		}
		return nil
	})
}
