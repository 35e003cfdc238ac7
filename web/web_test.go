package web

import (
	"compress/gzip"
	"encoding/json"
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
var refs = regexp.MustCompile(`["'(\x60](\.{0,2}/?[\w./-]+\.(?:js|css|json|svg|png|ico|html))["')\x60]`)

// TestEveryFileReachable follows the references from index.html and fails
// for a file of static/ that nothing reaches (dead weight in the binary)
// and for a reference to a file that does not exist.
func TestEveryFileReachable(t *testing.T) {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{}
	fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all[p] = true
		}
		return err
	})
	seen := map[string]bool{"index.html": true}
	queue := []string{"index.html"}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		data, err := fs.ReadFile(sub, f)
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
