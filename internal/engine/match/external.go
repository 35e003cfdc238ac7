package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/mill"
)

// External is an engine in another process that speaks the protocol of
// docs/protocol.md on its standard input and output. The process is started
// by the first NewGame and kept for the games after it; a process that
// failed (exited, timed out, stopped making sense) is killed and started
// again at the next NewGame.
type External struct {
	name    string
	path    string
	args    []string
	options [][2]string // setoption name, value: sent once after uci
	lim     Limits

	// Timeout is how long a move may take before the engine loses the
	// game; 0 means MoveTime*2 + 2s with a movetime, or a minute.
	Timeout time.Duration
	// Stderr receives the engine's standard error; nil discards it.
	Stderr io.Writer

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string // the engine's output, closed when it ends
	broken bool        // the process must be restarted before the next game
	rules  *mill.Rules // the rules last set with setoption
	errMsg string      // the last "info string error" line since the last go
}

// NewExternal returns an engine run as path with args. options are sent as
// "setoption name N value V" after the handshake. lim is what each "go"
// asks: go depth D, or go movetime MS (one second if neither is set).
func NewExternal(name, path string, args []string, options [][2]string, lim Limits) *External {
	return &External{name: name, path: path, args: args, options: options, lim: lim}
}

func (x *External) Name() string { return x.name }

// handshakeTimeout bounds the answers to uci, isready and the like.
const handshakeTimeout = 10 * time.Second

func (x *External) start(ctx context.Context) error {
	cmd := exec.Command(x.path, x.args...)
	cmd.Stderr = x.Stderr
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	x.cmd, x.stdin, x.broken, x.rules = cmd, stdin, false, nil
	lines := make(chan string, 256)
	x.lines = lines
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	if err := x.send("uci"); err != nil {
		return err
	}
	if _, err := x.await(ctx, "uciok", func(l string) bool { return l == "uciok" }); err != nil {
		return err
	}
	for _, o := range x.options {
		if err := x.send("setoption name " + o[0] + " value " + o[1]); err != nil {
			return err
		}
	}
	return nil
}

// send writes one line to the engine.
func (x *External) send(line string) error {
	if _, err := io.WriteString(x.stdin, line+"\n"); err != nil {
		x.broken = true
		return fmt.Errorf("writing %q: %w", line, x.exitError(err))
	}
	return nil
}

// await reads lines until want accepts one, which it returns.
func (x *External) await(ctx context.Context, what string, want func(string) bool) (string, error) {
	for {
		select {
		case line, ok := <-x.lines:
			if !ok {
				x.broken = true
				return "", fmt.Errorf("waiting for %s: %w", what, x.exitError(nil))
			}
			if msg, ok := strings.CutPrefix(line, "info string error"); ok {
				x.errMsg = strings.TrimSpace(strings.TrimPrefix(msg, ":"))
			}
			if want(line) {
				return line, nil
			}
		case <-ctx.Done():
			x.broken = true
			return "", fmt.Errorf("no %s: %w", what, ctx.Err())
		}
	}
}

// exitError says how the process ended, if it did.
func (x *External) exitError(err error) error {
	if x.cmd == nil {
		return errors.New("the engine is not running")
	}
	werr := x.wait(time.Second)
	switch {
	case werr != nil:
		return fmt.Errorf("the engine exited: %w", werr)
	case x.cmd.ProcessState != nil:
		return errors.New("the engine exited")
	case err != nil:
		return err
	}
	return errors.New("the engine closed its output")
}

// wait waits up to d for the process to end, killing it after that; it
// returns the error of the process's end.
func (x *External) wait(d time.Duration) error {
	if x.cmd.ProcessState != nil {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	for drained := false; !drained; {
		select {
		case _, ok := <-x.lines:
			drained = !ok
		case <-t.C:
			_ = x.cmd.Process.Kill()
			for range x.lines {
			}
			drained = true
		}
	}
	return x.cmd.Wait()
}

func (x *External) NewGame(ctx context.Context, r *mill.Rules, _ uint64) error {
	if x.cmd != nil && x.broken {
		x.stop()
	}
	if x.cmd == nil {
		if err := x.start(ctx); err != nil {
			x.stop()
			return err
		}
	}
	if x.rules != r {
		if err := x.send("setoption name Variant value " + r.Variant()); err != nil {
			return err
		}
		if err := x.send("setoption name Rules value " + strings.Join(r.Overrides(), ",")); err != nil {
			return err
		}
		x.rules = r
	}
	if err := x.send("ucinewgame"); err != nil {
		return err
	}
	return x.ready(ctx)
}

func (x *External) ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	if err := x.send("isready"); err != nil {
		return err
	}
	_, err := x.await(ctx, "readyok", func(l string) bool { return l == "readyok" })
	return err
}

// PositionCommand returns the protocol's position command for the current
// position of g: "position startpos [seed N] moves ..." for a game from the
// start, "position TEXT moves ..." for a game set up from a position.
func PositionCommand(g *mill.Game) string {
	var b strings.Builder
	b.WriteString("position ")
	start := g.Start()
	seed, lot := g.Seed()
	switch {
	case lot:
		b.WriteString("startpos seed " + strconv.FormatUint(seed, 10))
	case start == g.Rules().Start():
		b.WriteString("startpos")
	default:
		b.WriteString(start.String())
	}
	if moves := g.MoveTexts(mill.Standard); len(moves) > 0 {
		b.WriteString(" moves")
		for _, m := range moves {
			b.WriteByte(' ')
			b.WriteString(m)
		}
	}
	return b.String()
}

func (x *External) Move(ctx context.Context, g *mill.Game) (mill.Move, error) {
	if x.cmd == nil || x.broken {
		return mill.Move{}, errors.New("the engine is not running")
	}
	mt := x.lim.MoveTime
	if mt <= 0 && x.lim.Depth <= 0 {
		mt = time.Second
	}
	var goCmd string
	switch {
	case x.lim.Depth > 0 && mt > 0:
		goCmd = "go depth " + strconv.Itoa(x.lim.Depth) + " movetime " + strconv.FormatInt(mt.Milliseconds(), 10)
	case x.lim.Depth > 0:
		goCmd = "go depth " + strconv.Itoa(x.lim.Depth)
	default:
		goCmd = "go movetime " + strconv.FormatInt(mt.Milliseconds(), 10)
	}
	timeout := x.Timeout
	if timeout <= 0 {
		timeout = time.Minute
		if mt > 0 {
			timeout = 2*mt + 2*time.Second
		}
	}
	x.errMsg = ""
	if err := x.send(PositionCommand(g)); err != nil {
		return mill.Move{}, err
	}
	if err := x.send(goCmd); err != nil {
		return mill.Move{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	line, err := x.await(ctx, "bestmove", func(l string) bool { return strings.HasPrefix(l, "bestmove") })
	if err != nil {
		if ctx.Err() != nil {
			_ = x.send("stop")
			return mill.Move{}, fmt.Errorf("no bestmove within %v", timeout)
		}
		return mill.Move{}, err
	}
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "bestmove" {
		x.broken = true
		return mill.Move{}, fmt.Errorf("a bad answer %q", line)
	}
	if noMove(f[1]) {
		return mill.Move{}, &DrawClaimError{Answer: line}
	}
	m, err := g.Position().ParseMove(f[1])
	if err != nil {
		if x.errMsg != "" {
			err = fmt.Errorf("%w (the engine had said: %s)", err, x.errMsg)
		}
		return mill.Move{}, &IllegalMoveError{Move: f[1], Err: err}
	}
	return m, nil
}

// noMove says whether a bestmove answer is no move at all: "(none)", the
// protocol's answer in a finished game, or UCI's null move "0000".
func noMove(answer string) bool {
	return answer == "(none)" || answer == "none" || answer == "0000"
}

// DrawClaimError is an engine's answer of no move in a position the match
// asked it to play. The match asks only in positions its own rules call
// live, so the engine, by its own rules, holds the game over: another
// engine's rules differ (Sanmill draws a game whose 100th ply without a
// capture is itself a capture, which ours does not count as quiet). The
// match scores it as a draw the engine claimed, not as its loss: a loss
// would score a disagreement on the rules as a win of ours.
type DrawClaimError struct {
	Answer string // the engine's line, "bestmove (none)"
}

func (e *DrawClaimError) Error() string {
	return fmt.Sprintf("answered %q: no move, a claim that the game is over", e.Answer)
}

// IllegalMoveError is a move a player answered that is not legal.
type IllegalMoveError struct {
	Move string
	Err  error
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("answered %q: %v", e.Move, e.Err)
}

func (e *IllegalMoveError) Unwrap() error { return e.Err }

// stop ends the process: quit, then a kill if it lingers.
func (x *External) stop() error {
	if x.cmd == nil {
		return nil
	}
	_, _ = io.WriteString(x.stdin, "quit\n")
	_ = x.stdin.Close()
	err := x.wait(2 * time.Second)
	x.cmd, x.stdin, x.lines = nil, nil, nil
	return err
}

// Close ends the engine's process.
func (x *External) Close() error {
	err := x.stop()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return nil // a kill or an untidy exit at the end is not the caller's problem
	}
	return err
}
