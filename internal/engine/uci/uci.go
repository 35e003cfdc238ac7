package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// Ranges of the numeric options.
const (
	MaxLevel   = 10
	MaxThreads = 128
	MaxHash    = 16384 // MiB
)

// maxLine is the longest command line read; a longer one is skipped with an
// error rather than held in memory.
const maxLine = 64 << 10

// Option sets a default of Run: what the engine starts with before any
// setoption.
type Option func(*config)

type config struct {
	variant string
	level   int
	hashMB  int
	threads int
	seed    uint64
	seeded  bool
	openTB  func(dir string) (search.Tablebase, error)
}

// WithVariant sets the preset to start with, optionally with overrides
// ("nine-mens-morris,flying=never"); the default is nine-mens-morris.
func WithVariant(v string) Option { return func(c *config) { c.variant = v } }

// WithLevel sets the playing level, 1..10 (default 10, full strength).
func WithLevel(n int) Option { return func(c *config) { c.level = n } }

// WithHash sets the transposition table size in MiB (default 64).
func WithHash(mb int) Option { return func(c *config) { c.hashMB = mb } }

// WithThreads sets the search threads (default 1).
func WithThreads(n int) Option { return func(c *config) { c.threads = n } }

// WithSeed fixes the seed from which the engine draws its random choices
// (the variety of the levels, and the lot for the first player when a
// position gives no seed). Without it the seed is random. Tests use it.
func WithSeed(seed uint64) Option { return func(c *config) { c.seed, c.seeded = seed, true } }

// WithTablebases lets the Tablebases option open endgame databases from a
// directory: open(value) for each value set, and open("") for the default
// at the start (nil for none). Without it, setting Tablebases to a
// directory is an error.
func WithTablebases(open func(dir string) (search.Tablebase, error)) Option {
	return func(c *config) { c.openTB = open }
}

// Run reads commands from in and answers on out until quit, the end of the
// input, or the end of ctx. At the end of the input it lets a running search
// finish (an infinite one is stopped), so that a script of commands gets its
// answers. It returns nil after quit or the end of the input, ctx.Err() when
// ctx ends first, and the error of reading in or writing out otherwise; a bad
// default in opts is an error before anything is read.
//
// A Read of in that blocks is not interrupted when Run returns: the reading
// goroutine ends with the Read.
func Run(ctx context.Context, in io.Reader, out io.Writer, opts ...Option) error {
	cfg := config{variant: "nine-mens-morris", level: MaxLevel, hashMB: 64, threads: 1}
	for _, o := range opts {
		o(&cfg)
	}
	if !cfg.seeded {
		cfg.seed = rand.Uint64()
	}
	s, err := newSession(ctx, cfg, out)
	if err != nil {
		return err
	}
	defer s.closeTablebase()

	lines := make(chan line)
	readErr := make(chan error, 1)
	quit := make(chan struct{})
	defer close(quit)
	go readLines(in, lines, readErr, quit)

	for {
		select {
		case <-ctx.Done():
			s.wait()
			return ctx.Err()
		case l, ok := <-lines:
			if !ok {
				s.finish()
				if err := s.out.Err(); err != nil {
					return err
				}
				err := <-readErr
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return err
			}
			if s.handle(l) {
				s.wait()
				return s.out.Err()
			}
			if err := s.out.Err(); err != nil {
				s.wait()
				return err
			}
		}
	}
}

// line is a command line, or the news that one was too long to read.
type line struct {
	text    string
	tooLong bool
}

// readLines sends the lines of in to lines until the end of the input or
// quit. A line longer than maxLine is not kept: it is sent as tooLong.
func readLines(in io.Reader, lines chan<- line, readErr chan<- error, quit <-chan struct{}) {
	defer close(lines)
	r := bufio.NewReaderSize(in, 4096)
	var buf []byte
	long := false
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			readErr <- err
			return
		}
		if !long {
			buf = append(buf, chunk...)
			if len(buf) > maxLine {
				long, buf = true, buf[:0]
			}
		}
		if isPrefix {
			continue
		}
		l := line{text: string(buf), tooLong: long}
		buf, long = buf[:0], false
		select {
		case lines <- l:
		case <-quit:
			readErr <- nil
			return
		}
	}
}

// writer writes whole lines, one Write each, under a mutex: the search
// goroutine and the command loop both write.
type writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	err error
}

func (w *writer) line(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	w.buf = append(append(w.buf[:0], s...), '\n')
	_, w.err = w.w.Write(w.buf)
}

func (w *writer) printf(format string, args ...any) { w.line(fmt.Sprintf(format, args...)) }

// errorf reports bad input: one info string line.
func (w *writer) errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	// An info string is one line: keep the message on it.
	msg = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, msg)
	w.line("info string error: " + msg)
}

// Err returns the first error of writing.
func (w *writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// job is a search or a perft running in its own goroutine.
type job struct {
	cancel   context.CancelFunc
	done     chan struct{} // closed when the goroutine has ended
	answered atomic.Bool   // set just before the final line (bestmove, total) is written
	infinite bool
}

// session is the engine's state between commands. Only Run's goroutine
// touches it; a job gets copies of what it needs.
type session struct {
	ctx context.Context
	cfg config
	out *writer

	// The options.
	variant  string // the Variant option: a preset, optionally with overrides
	rules    string // the Rules option: overrides, comma-separated
	compiled *mill.Rules
	level    int
	hashMB   int
	threads  int
	tbDir    string
	tb       search.Tablebase
	noBook   bool // the OwnBook option, off: the levels search from the first move

	engine *search.Engine // built at the first search after a change of Hash, Threads or Tablebases

	// The game.
	game      *mill.Game
	games     uint64 // ucinewgame commands so far: the engine's seed for each game
	gameSeed  uint64 // the seed of the engine's random choices in this game
	announced bool   // the lot of a game started without a seed was reported

	job *job
}

func newSession(ctx context.Context, cfg config, out io.Writer) (*session, error) {
	s := &session{ctx: ctx, cfg: cfg, out: &writer{w: out}, level: cfg.level, hashMB: cfg.hashMB, threads: cfg.threads}
	switch {
	case cfg.level < 1 || cfg.level > MaxLevel:
		return nil, fmt.Errorf("uci: level %d: want 1..%d", cfg.level, MaxLevel)
	case cfg.hashMB < 1 || cfg.hashMB > MaxHash:
		return nil, fmt.Errorf("uci: hash %d MiB: want 1..%d", cfg.hashMB, MaxHash)
	case cfg.threads < 1 || cfg.threads > MaxThreads:
		return nil, fmt.Errorf("uci: threads %d: want 1..%d", cfg.threads, MaxThreads)
	}
	r, err := compileRules(cfg.variant, "")
	if err != nil {
		return nil, fmt.Errorf("uci: %w", err)
	}
	if cfg.openTB != nil {
		// The Tablebases option's default, "": what open gives for it.
		if s.tb, err = cfg.openTB(""); err != nil {
			return nil, fmt.Errorf("uci: the default endgame databases: %w", err)
		}
	}
	s.variant, s.compiled = cfg.variant, r
	s.newGame()
	return s, nil
}

// compileRules returns the rules of the Variant and Rules options.
func compileRules(variant, rules string) (*mill.Rules, error) {
	parts := splitList(variant)
	if len(parts) == 0 {
		return nil, errors.New("no variant: want a preset like nine-mens-morris")
	}
	return mill.NewRules(parts[0], append(parts[1:], splitList(rules)...)...)
}

// splitList splits a comma-separated list, dropping empty items and spaces.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// newGame starts a game of the current rules with the engine's seed for it.
func (s *session) newGame() {
	s.gameSeed = s.defaultSeed()
	s.announced = false
	s.game = mill.NewGame(s.compiled, mill.WithSeed(s.gameSeed))
}

// mix is splitmix64's finalizer: nearby seeds give unrelated streams.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// idle reports whether no job runs, waiting for one that has already written
// its answer (its goroutine is about to end).
func (s *session) idle() bool {
	if s.job == nil {
		return true
	}
	select {
	case <-s.job.done:
		s.job = nil
		return true
	default:
	}
	if s.job.answered.Load() {
		<-s.job.done
		s.job = nil
		return true
	}
	return false
}

// newJob registers a job and returns the context that stops it.
//
// The context is cancelled only to stop a job that has not answered yet,
// never after: search.Search watches its context from a goroutine of its own
// that may still be waiting to run when Search returns, and a cancel then
// could set the engine's stop flag in the middle of what comes next (the
// level's choice, or the next search). For the same reason it is not a child
// of Run's context: Run stops the job itself when its context ends.
func (s *session) newJob(infinite bool) (context.Context, *job) {
	ctx, cancel := context.WithCancel(context.Background())
	s.job = &job{cancel: cancel, done: make(chan struct{}), infinite: infinite}
	return ctx, s.job
}

// stop stops the running job, if it has not answered yet.
func (s *session) stop() {
	if s.job != nil && !s.job.answered.Load() {
		s.job.cancel()
	}
}

// wait stops the running job, if any, and waits for its answer.
func (s *session) wait() {
	if s.job != nil {
		s.stop()
		<-s.job.done
		s.job = nil
	}
}

// finish waits at the end of the input for the running job to end by
// itself; an infinite search is stopped, and the end of ctx stops any.
func (s *session) finish() {
	if s.job == nil {
		return
	}
	if s.job.infinite {
		s.stop()
	}
	select {
	case <-s.job.done:
	case <-s.ctx.Done():
	}
	s.wait()
}

func (s *session) closeTablebase() {
	if c, ok := s.tb.(io.Closer); ok {
		_ = c.Close()
	}
	s.tb = nil
}
