package web_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/httpapi"
	"github.com/morrisgame/morris/internal/server/servertest"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
	"github.com/morrisgame/morris/view"
	"github.com/morrisgame/morris/web"
)

// benchPositions are search's (search/bench_test.go): the start, a middle
// game, a flying endgame, other boards; searched to benchDepth with a
// cleared table, as its benchmark does.
var benchPositions = []string{
	"nine-mens-morris 8/8/8 w 9,9 - 0 0",
	"nine-mens-morris 1BWW2B1/2W3W1/BBBB2BB w 0,0 - 0 40",
	"nine-mens-morris BBB1WBBB/WBW4W/W2B2WW w 0,0 - 2 20",
	"twelve-mens-morris-small BBWW1B1W/BB2B1WW/B1WWW2W w 0,0 - 1 40",
	"twelve-mens-morris-large 1B1W4/BBBBB3/W1B3W1/1B1B2W1 w 0,0 - 2 40",
	"lasker 1B2BBB1/1W2WBW1/1WBBB1B1 w 0,0 - 2 40",
}

const benchDepth = 8

// BenchmarkBrowserEngine: the engine in the browser (morris.wasm in a Web
// Worker of headless Chromium) against the native engine of this test
// binary, one thread each with the same table: nodes a second over
// benchPositions at benchDepth, the depth reached in 1 s from the start,
// and the .wasm's size, raw and gzipped as the server sends it. Skipped
// unless MORRIS_BROWSER_TESTS=1 (docs/offline.md has the figures):
//
//	MORRIS_BROWSER_TESTS=1 go test ./web -run '^$' -bench BrowserEngine -benchtime 3x
func BenchmarkBrowserEngine(b *testing.B) {
	if os.Getenv("MORRIS_BROWSER_TESTS") != "1" {
		b.Skip("set MORRIS_BROWSER_TESTS=1: it drives headless Chromium")
	}
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		b.Skip("no chromium:", err)
	}
	srv := servertest.Start(b, server.Config{EngineWorkers: 1}, servertest.HTTP(func(srv *servertest.Server) http.Handler {
		return httpapi.New(httpapi.Config{Service: srv.Service, Web: web.Handler(), Logger: srv.Logger})
	}))
	raw, gz := wasmSizes(b, srv.URL)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.Env("TMPDIR="+b.TempDir()),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.Flag("disable-background-networking", true), chromedp.Flag("no-first-run", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/#/study")); err != nil {
		b.Fatal(err)
	}
	callInto := func(method string, body, out any) {
		rawBody, _ := json.Marshal(body)
		js := fmt.Sprintf(`import('/js/device.js').then((m) => m.deviceCall(%q, %s)).then((v) => JSON.stringify(v))`, method, rawBody)
		cctx, ccancel := context.WithTimeout(ctx, 2*time.Minute)
		defer ccancel()
		text, err := chromedp.Run(cctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatalf("%s %s: %v", method, rawBody, err)
		}
		if err := json.Unmarshal([]byte(text), out); err != nil {
			b.Fatal(err)
		}
	}
	call := func(method string, body any) (a deviceAnalysis) {
		callInto(method, body, &a)
		return a
	}
	// The first call starts the worker and compiles the engine, outside
	// the timing.
	var info struct {
		HashMB int `json:"hashMB"`
	}
	callInto("info", nil, &info)
	native := search.New(search.Options{HashMB: info.HashMB, Threads: 1, Book: book.Default()})
	var games [][]mill.Position
	for _, text := range benchPositions {
		g, err := view.Request{Position: text}.Game()
		if err != nil {
			b.Fatal(err)
		}
		games = append(games, g.Positions())
	}

	b.ReportAllocs() // the test binary's: the native searches' (none) and the page's driving
	var wasmNodes, nativeNodes uint64
	var wasmTime, nativeTime time.Duration
	b.ResetTimer()
	for b.Loop() {
		for i, text := range benchPositions {
			a := call("analysis", map[string]any{"position": text, "depth": benchDepth, "movetimeMs": 3000, "fresh": true})
			if a.Depth != benchDepth {
				b.Fatalf("%s: the browser reached depth %d of %d in 3 s", text, a.Depth, benchDepth)
			}
			wasmNodes += a.Nodes
			wasmTime += time.Duration(a.TimeMs) * time.Millisecond
			native.Clear()
			start := time.Now()
			res := native.Search(context.Background(), games[i], search.Limits{Depth: benchDepth}, nil)
			nativeTime += time.Since(start)
			nativeNodes += res.Nodes
			if res.Nodes != a.Nodes {
				b.Fatalf("%s: %d nodes in the browser, %d native", text, a.Nodes, res.Nodes)
			}
		}
	}
	b.StopTimer()
	wnps := float64(wasmNodes) / wasmTime.Seconds()
	nnps := float64(nativeNodes) / nativeTime.Seconds()
	b.ReportMetric(wnps, "wasm-nodes/s")
	b.ReportMetric(nnps, "native-nodes/s")
	b.ReportMetric(100*wnps/nnps, "wasm-%-of-native")

	// The depth reached in 1 s from the start, by each.
	a := call("analysis", map[string]any{"rules": "nine-mens-morris", "movetimeMs": 1000, "fresh": true})
	native.Clear()
	ctx1, cancel1 := context.WithTimeout(context.Background(), time.Second)
	res := native.Search(ctx1, games[0], search.Limits{MoveTime: time.Second}, nil)
	cancel1()
	b.ReportMetric(float64(a.Depth), "wasm-depth-1s")
	b.ReportMetric(float64(res.Depth), "native-depth-1s")
	b.ReportMetric(float64(raw), "wasm-bytes")
	b.ReportMetric(float64(gz), "wasm-gzip-bytes")
}

// wasmSizes returns the engine's size as served: raw, and gzipped.
func wasmSizes(b *testing.B, url string) (raw, gz int) {
	get := func(enc string) (int, string) {
		req, _ := http.NewRequest("GET", url+"/engine/morris.wasm", nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		tr := &http.Transport{DisableCompression: true}
		res, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		if ct := res.Header.Get("Content-Type"); ct != "application/wasm" {
			b.Fatalf("the engine is served as %q, want application/wasm", ct)
		}
		if res.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			plain, _ := io.ReadAll(zr)
			if len(plain) != raw {
				b.Fatalf("gunzipped %d bytes, plain %d", len(plain), raw)
			}
		}
		return len(data), res.Header.Get("Content-Encoding")
	}
	raw, _ = get("")
	gz, enc := get("gzip")
	if enc != "gzip" {
		b.Fatalf("the engine is not gzipped (Content-Encoding %q)", enc)
	}
	return raw, gz
}
