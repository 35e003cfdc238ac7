package uci

import (
	"bytes"
	"context"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/golden"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// lineSink collects the engine's output lines in a channel. The engine writes
// one whole line a Write, under its mutex.
type lineSink struct {
	ch chan string
}

func newSink() *lineSink { return &lineSink{ch: make(chan string, 1<<16)} }

func (l *lineSink) Write(p []byte) (int, error) {
	for _, line := range strings.SplitAfter(string(p), "\n") {
		if line != "" {
			l.ch <- strings.TrimSuffix(line, "\n")
		}
	}
	return len(p), nil
}

// next returns the next output line, failing the test after a while.
func (l *lineSink) next(t *testing.T) string {
	t.Helper()
	select {
	case line := <-l.ch:
		return line
	case <-time.After(20 * time.Second):
		t.Fatal("no answer from the engine in 20s")
		return ""
	}
}

// engine is a Run in a goroutine with a pipe for its input.
type engine struct {
	in   *io.PipeWriter
	out  *lineSink
	errc chan error
}

func startEngine(t *testing.T, ctx context.Context, opts ...Option) *engine {
	t.Helper()
	r, w := io.Pipe()
	e := &engine{in: w, out: newSink(), errc: make(chan error, 1)}
	opts = append([]Option{WithSeed(1), WithHash(4), WithThreads(1)}, opts...)
	go func() {
		e.errc <- Run(ctx, r, e.out, opts...)
		r.Close()
	}()
	t.Cleanup(func() { w.Close() })
	return e
}

func (e *engine) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(e.in, l+"\n"); err != nil {
			t.Fatalf("sending %q: %v", l, err)
		}
	}
}

// wait returns Run's error, failing the test if Run does not return.
func (e *engine) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-e.errc:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return in 20s")
		return nil
	}
}

// until reads lines up to one for which stop is true, and returns them all.
func (e *engine) until(t *testing.T, stop func(string) bool) []string {
	t.Helper()
	var lines []string
	for {
		l := e.out.next(t)
		lines = append(lines, l)
		if stop(l) {
			return lines
		}
	}
}

// transcript plays script (one command a line) and returns the dialogue: each
// command as "> command", then the engine's answer to it. To know where an
// answer ends, it sends isready after each command and waits for readyok
// (the marker is left out); after a go it also waits for the final line
// (bestmove, total, or an error). Lines starting with # are comments, copied.
func transcript(t *testing.T, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e := startEngine(t, ctx)
	var b strings.Builder
	quit := false
	for _, line := range strings.Split(strings.TrimRight(script, "\n"), "\n") {
		if strings.HasPrefix(line, "#") || line == "" {
			b.WriteString(line + "\n")
			continue
		}
		b.WriteString("> " + line + "\n")
		e.send(t, line)
		if strings.TrimSpace(line) == "quit" {
			quit = true
			break
		}
		e.send(t, "isready")
		markers := 1
		if strings.TrimSpace(line) == "isready" {
			markers = 2
		}
		var got []string
		for seen := 0; seen < markers; {
			l := e.out.next(t)
			if l == "readyok" {
				seen++
				if seen == markers {
					break // the marker
				}
			}
			got = append(got, l)
		}
		if f := strings.Fields(line); len(f) > 0 && f[0] == "go" {
			final := func(l string) bool {
				return strings.HasPrefix(l, "bestmove ") || strings.HasPrefix(l, "total ") || strings.HasPrefix(l, "info string ")
			}
			done := false
			for _, l := range got {
				done = done || final(l)
			}
			if !done {
				got = append(got, e.until(t, final)...)
			}
		}
		for _, l := range got {
			b.WriteString(l + "\n")
		}
	}
	if !quit {
		e.in.Close()
	}
	if err := e.wait(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	for {
		select {
		case l := <-e.out.ch:
			b.WriteString(l + "\n")
			continue
		default:
		}
		break
	}
	return b.String()
}

// varying matches the numbers that depend on the machine: time and nps.
var varying = regexp.MustCompile(`\b(time|nps) \d+`)

// mask replaces the time and nps of info lines by *, so that transcripts
// compare exactly; everything else (depths, scores, nodes, moves) is
// deterministic with one thread and a fixed seed.
func mask(s string) string { return varying.ReplaceAllString(s, "$1 *") }

// TestGolden plays each testdata/*.input and compares the dialogue with the
// .golden file (go test -update rewrites them). It plays each twice: the
// dialogue must not change from one run to the next.
func TestGolden(t *testing.T) {
	golden.Files(t, "testdata", func(t *testing.T, script []byte) []byte {
		t.Parallel()
		got := mask(transcript(t, string(script)))
		if again := mask(transcript(t, string(script))); again != got {
			t.Errorf("a second run differs: got\n%s\nthe first\n%s", again, got)
		}
		return []byte(got)
	})
}

// TestScript runs a script from a reader that ends, the way a shell pipe
// does: the search after the last command finishes and answers.
func TestScript(t *testing.T) {
	var out bytes.Buffer
	in := "uci\nisready\nposition startpos moves d6 d5\ngo depth 3\n"
	if err := Run(context.Background(), strings.NewReader(in), &out, WithHash(1)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, want := range []string{"uciok\n", "readyok\n", "info depth 3 ", "\nbestmove "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	// The end of the input stops an infinite search.
	out.Reset()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), strings.NewReader("go infinite\n"), &out, WithHash(1))
	}()
	select {
	case err := <-done:
		if err != nil || strings.Count(out.String(), "bestmove ") != 1 {
			t.Errorf("go infinite then the end: Run = %v, output\n%s", err, out.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("go infinite then the end of the input: Run did not return")
	}
}

// TestLongLine: a line too long to hold is skipped with an error, and the
// dialogue goes on.
func TestLongLine(t *testing.T) {
	var out bytes.Buffer
	in := "position startpos moves " + strings.Repeat("d6 ", maxLine) + "\nisready\n"
	if err := Run(context.Background(), strings.NewReader(in), &out, WithHash(1)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	want := "info string error: a line longer than 65536 bytes: skipped\nreadyok\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestDefaults: bad defaults are errors before anything is read; good ones
// show in the uci answer.
func TestDefaults(t *testing.T) {
	for _, opt := range []Option{WithVariant("checkers"), WithVariant("shah,pieces=99"), WithLevel(0), WithLevel(11),
		WithHash(0), WithHash(MaxHash + 1), WithThreads(0), WithThreads(MaxThreads + 1)} {
		if err := Run(context.Background(), strings.NewReader("uci\n"), io.Discard, opt); err == nil {
			t.Errorf("a bad default: got no error")
		}
	}
	var out bytes.Buffer
	err := Run(context.Background(), strings.NewReader("uci\n"), &out, WithVariant("lasker"), WithLevel(3), WithHash(2), WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Variant type combo default lasker ", "Level type spin default 3 ", "Threads type spin default 2 ", "Hash type spin default 2 "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the uci answer lacks %q:\n%s", want, out.String())
		}
	}
}

// fakeTB is a tablebase that knows nothing but counts its probes.
type fakeTB struct{ closed *int }

func (fakeTB) Probe(mill.Position) (int, int, bool) { return 0, 0, false }
func (f fakeTB) Close() error                       { *f.closed++; return nil }

func TestTablebases(t *testing.T) {
	closed := 0
	var opened []string
	open := func(dir string) (search.Tablebase, error) {
		if dir == "missing" {
			return nil, errors.New("no databases in missing")
		}
		opened = append(opened, dir)
		return fakeTB{&closed}, nil
	}
	e := startEngine(t, context.Background(), WithTablebases(open))
	e.send(t, "setoption name Tablebases value missing")
	if l := e.out.next(t); l != "info string error: setoption Tablebases: no databases in missing" {
		t.Errorf("a directory that cannot be opened: got %q", l)
	}
	e.send(t, "setoption name Tablebases value db", "position startpos", "go depth 1")
	lines := e.until(t, isBestmove)
	if !regexp.MustCompile(`^info depth 1 .* tbhits 0 pv `).MatchString(lines[0]) {
		t.Errorf("with tablebases the info lines have tbhits: got %q", lines)
	}
	e.send(t, "setoption name Tablebases value db2", "setoption name Tablebases value <empty>", "quit")
	if err := e.wait(t); err != nil {
		t.Fatal(err)
	}
	// The default ("": cmd/morris's built-in databases) is opened at the
	// start and again when the option is emptied; each is closed when
	// replaced, and the last at the end.
	if want := []string{"", "db", "db2", ""}; !slices.Equal(opened, want) {
		t.Errorf("opened %q, want %q", opened, want)
	}
	if closed != 4 {
		t.Errorf("closed %d tablebases, want 4", closed)
	}
}
