package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed static
var static embed.FS

// file is one static file, read and hashed once.
type file struct {
	data  []byte
	gz    []byte // the gzipped data when that is smaller; nil otherwise
	etag  string
	ctype string
	cache string
}

// types are the content types by extension. The standard library's table
// depends on the system's mime files for some of them (.js as
// application/javascript or text/javascript, .svg missing on minimal
// systems); a module script must be served as JavaScript, so the table is
// ours.
var types = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".txt":         "text/plain; charset=utf-8",
	".webmanifest": "application/manifest+json",
	".wasm":        "application/wasm",
}

// The files have no content hash in their names (there is no build step),
// so every answer is revalidated: the ETag makes that a 304. A page must
// never run modules of two versions of the client together. Icons change
// rarely and may be kept a day.
const (
	revalidate = "no-cache"
	icon       = "public, max-age=86400"
)

// csp keeps the page to its own origin: scripts, styles, the API and its
// WebSocket. Styles allow inline style attributes (the board sets a few).
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// load reads and compresses the files once for the process: they are
// embedded, so every Handler serves the same. A file committed gzipped
// (name.gz: the engine, whose 5 MB take seconds to gzip at the best
// compression, more under the race detector) is served as name, its
// gzipped bytes as they are.
var load = sync.OnceValues(loadFiles)

func loadFiles() (map[string]*file, error) {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	files := map[string]*file{}
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		var gz []byte
		if name, ok := strings.CutSuffix(p, ".gz"); ok {
			gz, p = data, name
			if data, err = gunzip(gz); err != nil {
				return fmt.Errorf("%s.gz: %w", p, err)
			}
		}
		sum := sha256.Sum256(data)
		f := &file{data: data, gz: gz, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, cache: revalidate}
		ext := path.Ext(p)
		f.ctype = types[ext]
		if f.ctype == "" {
			f.ctype = "application/octet-stream"
		}
		if ext == ".svg" || ext == ".png" || ext == ".ico" {
			f.cache = icon
		}
		if gz == nil && ext != ".png" && ext != ".ico" && len(data) > 512 {
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			zw.Write(data)
			zw.Close()
			if b.Len() < len(data) {
				f.gz = b.Bytes()
			}
		}
		files["/"+p] = f
		return nil
	})
	if err != nil {
		return nil, err
	}
	files["/shell.json"] = shell(files)
	return files, nil
}

// shell is /shell.json, what the service worker (static/sw.js) keeps when
// it is installed: every file of the client, the engine's included, but
// the service worker itself.
func shell(files map[string]*file) *file {
	var list []string
	for p := range files {
		if p != "/sw.js" {
			list = append(list, p)
		}
	}
	slices.Sort(list)
	data, _ := json.Marshal(struct {
		Files []string `json:"files"`
	}{list})
	sum := sha256.Sum256(data)
	return &file{data: data, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, ctype: types[".json"], cache: revalidate}
}

// Handler serves the web client: the files of static/, and index.html for
// every other path that does not look like a file (no dot in its last
// segment), so that the client's routes (/#/game/12 or /game/12) load the
// page. A missing file is a 404. It answers GET and HEAD.
func Handler() http.Handler {
	files, err := load()
	if err != nil {
		panic("web: reading the embedded files: " + err.Error()) // the build embedded them
	}
	index := files["/index.html"]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		f, ok := files[p]
		if !ok {
			if strings.Contains(path.Base(p), ".") {
				http.Error(w, "not found", http.StatusNotFound)
				return
			}
			f = index
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		if f == index {
			h.Set("Content-Security-Policy", csp)
			h.Set("Referrer-Policy", "same-origin")
		}
		serve(w, r, f)
	})
}

// gunzip is the content of gzipped bytes.
func gunzip(gz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func serve(w http.ResponseWriter, r *http.Request, f *file) {
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", f.cache)
	body, etag := f.data, f.etag
	if f.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			body, etag = f.gz, f.etag[:len(f.etag)-1]+`-gz"`
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatch(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if h.Get("Content-Encoding") == "" {
		// Ranges and conditions for the plain bytes.
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(name) == "gzip" && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}

func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}
