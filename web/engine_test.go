package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/golden"
)

// The engine in the browser (cmd/morris-wasm) is built into static/engine/
// and committed, so that `go run ./cmd/morris serve` serves it on a fresh
// clone with nothing but Go. engine.txt says what it was built from: the Go
// version, a hash of every file the build reads (the Go and embedded files
// of the packages of the module it depends on, and go.mod) and the hash of
// the .wasm. TestEngineUpToDate fails when the sources changed since, and
// with the same Go version rebuilds it and compares byte for byte.
//
//	go test ./web -run TestEngineUpToDate -update
//
// builds it again (docs/offline.md).
const (
	enginePkg   = "github.com/morrisgame/morris/cmd/morris-wasm"
	engineWasm  = "static/engine/morris.wasm.gz" // served as /engine/morris.wasm (web.go)
	engineExec  = "static/engine/wasm_exec.js"
	engineStamp = "engine.txt"
)

// goCmd is the go command, or the test is skipped.
func goCmd(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the engine with:", err)
	}
	return p
}

// wasmEnv is the environment of the engine's build.
func wasmEnv() []string { return append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0") }

// goVersion is the version of the go command that builds.
func goVersion(t *testing.T) string {
	out, err := exec.Command(goCmd(t), "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// engineInputs hashes what the engine is built from: every Go file and
// embedded file of the module's packages it depends on under js/wasm, and
// go.mod, by their paths from the module's root.
func engineInputs(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(goCmd(t), "list", "-deps", "-json=ImportPath,Dir,Module,GoFiles,EmbedFiles", enginePkg)
	cmd.Env = wasmEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.String())
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{filepath.Join(root, "go.mod")}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Dir     string
			Module              *struct{ Path string }
			GoFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Module == nil || p.Module.Path != "github.com/morrisgame/morris" {
			continue
		}
		for _, f := range append(p.GoFiles, p.EmbedFiles...) {
			files = append(files, filepath.Join(p.Dir, f))
		}
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		sum := sha256.Sum256(data)
		io.WriteString(h, filepath.ToSlash(rel)+" "+hex.EncodeToString(sum[:])+"\n")
	}
	return hex.EncodeToString(h.Sum(nil))
}

// buildEngine builds the engine and returns the .wasm and wasm_exec.js of
// the Go that built it.
func buildEngine(t *testing.T) (wasm, exec_ []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "morris.wasm")
	cmd := exec.Command(goCmd(t), "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, enginePkg)
	cmd.Env = wasmEnv()
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the engine: %v\n%s", err, msg)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	root, err := exec.Command(goCmd(t), "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot := strings.TrimSpace(string(root))
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} { // Go 1.24 moved it to lib/
		if exec_, err = os.ReadFile(filepath.Join(goroot, p)); err == nil {
			return wasm, exec_
		}
	}
	t.Fatalf("no wasm_exec.js in %s", goroot)
	return nil, nil
}

// gzipBest is data gzipped at the best compression, as the server would
// have sent it.
func gzipBest(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// stamp is engine.txt: what the committed engine was built from.
type stamp struct{ goVersion, inputs, wasm string }

func (s stamp) String() string {
	return "go " + s.goVersion + "\ninputs " + s.inputs + "\nwasm " + s.wasm + "\n"
}

func readStamp(t *testing.T) stamp {
	t.Helper()
	data, err := os.ReadFile(engineStamp)
	if err != nil {
		t.Fatalf("%v: build the engine (go test ./web -run TestEngineUpToDate -update)", err)
	}
	var s stamp
	for _, line := range strings.Split(string(data), "\n") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "go":
			s.goVersion = v
		case "inputs":
			s.inputs = v
		case "wasm":
			s.wasm = v
		}
	}
	return s
}

func sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// TestEngineUpToDate: the committed engine is the one its sources build.
func TestEngineUpToDate(t *testing.T) {
	if golden.Updating() {
		wasm, wasmExec := buildEngine(t)
		s := stamp{goVersion: goVersion(t), inputs: engineInputs(t), wasm: sum(wasm)}
		for path, data := range map[string][]byte{engineWasm: gzipBest(t, wasm), engineExec: wasmExec, engineStamp: []byte(s.String())} {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("built the engine with %s: %d bytes", s.goVersion, len(wasm))
		return
	}
	st := readStamp(t)
	if got := engineInputs(t); got != st.inputs {
		t.Fatalf("the engine's sources changed since %s was built (inputs %s, built from %s): build it again (go test ./web -run TestEngineUpToDate -update)", engineWasm, got, st.inputs)
	}
	gz, err := os.ReadFile(engineWasm)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := gunzip(gz)
	if err != nil {
		t.Fatalf("%s: %v", engineWasm, err)
	}
	if sum(committed) != st.wasm {
		t.Fatalf("%s is not the file %s names (sha256 %s, want %s): build it again", engineWasm, engineStamp, sum(committed), st.wasm)
	}
	if v := goVersion(t); v != st.goVersion {
		t.Skipf("the engine was built with %s, this is %s: its sources are those it was built from, and the bytes are not compared", st.goVersion, v)
	}
	if testing.Short() {
		t.Skip("the rebuild takes a quarter of a minute: without -short")
	}
	wasm, wasmExec := buildEngine(t)
	if !bytes.Equal(wasm, committed) {
		t.Errorf("built again, %s differs (%d bytes, committed %d): build it again", engineWasm, len(wasm), len(committed))
	}
	if got, _ := os.ReadFile(engineExec); !bytes.Equal(got, wasmExec) {
		t.Errorf("%s is not the wasm_exec.js of %s: build it again", engineExec, st.goVersion)
	}
}
