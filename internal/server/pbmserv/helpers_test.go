package pbmserv

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/servertest"
	"github.com/morrisgame/morris/mill"
)

// newService starts a service (servertest.Start) with rates, closed when
// the test ends.
func newService(t testing.TB, rates server.Rates) *server.Service {
	t.Helper()
	return newServiceWith(t, server.Config{Rates: rates}).Service
}

// newServiceWith is newService with more of the service's Config: the
// store is looked at every 50 ms, and a take-back may be asked for again
// at once (unless cfg says otherwise).
func newServiceWith(t testing.TB, cfg server.Config) *servertest.Server {
	t.Helper()
	// A take-back asked for again at once after a declined one (TestPushes):
	// the quota's wait is the service's business (internal/server).
	if cfg.Quotas.TakebackDelay == 0 {
		cfg.Quotas.TakebackDelay = time.Nanosecond
	}
	cfg.PollEvery = 50 * time.Millisecond
	return servertest.Start(t, cfg)
}

func newGateway(t testing.TB) *Gateway {
	t.Helper()
	return New(newService(t, servertest.Rates), nil)
}

// serve runs the gateway's TCP server on 127.0.0.1 until the test ends,
// and returns its address.
func serve(t testing.TB, g *Gateway) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after its context was cancelled")
		}
	})
	return ln.Addr().String()
}

// client is a TCP client of the gateway: it sends lines and reads answers
// (up to their dot line); pushed lines ("* ...") that come between answers
// go to pushes.
type client struct {
	t       testing.TB
	c       net.Conn
	answers chan string
	pushes  chan string
	closed  chan struct{}
}

const wait = 10 * time.Second

func dial(t testing.TB, addr string) *client {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(wait))
	greeting, err := r.ReadString('\n')
	if err != nil || greeting != Greeting+"\n" {
		t.Fatalf("greeting: got %q, %v; want %q", greeting, err, Greeting+"\n")
	}
	_ = c.SetReadDeadline(time.Time{})
	cl := &client{t: t, c: c, answers: make(chan string, 16), pushes: make(chan string, 1024), closed: make(chan struct{})}
	go cl.read(r)
	return cl
}

func (cl *client) read(r *bufio.Reader) {
	defer close(cl.closed)
	var answer strings.Builder
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		switch {
		case answer.Len() == 0 && strings.HasPrefix(line, "* "):
			cl.pushes <- strings.TrimSuffix(line, "\n")
		case line == ".\n":
			cl.answers <- answer.String()
			answer.Reset()
		default:
			answer.WriteString(strings.TrimPrefix(line, ".")) // undo the dot-stuffing
		}
	}
}

// do sends a command line and returns its answer.
func (cl *client) do(line string) string {
	cl.t.Helper()
	if _, err := cl.c.Write([]byte(line + "\r\n")); err != nil {
		cl.t.Fatalf("sending %q: %v", line, err)
	}
	select {
	case a := <-cl.answers:
		return a
	case <-cl.closed:
		cl.t.Fatalf("sending %q: the connection closed", line)
	case <-time.After(wait):
		cl.t.Fatalf("sending %q: no answer in %s", line, wait)
	}
	return ""
}

// push returns the next pushed line.
func (cl *client) push() string {
	cl.t.Helper()
	select {
	case p := <-cl.pushes:
		return p
	case <-time.After(wait):
		cl.t.Fatalf("no push in %s", wait)
	}
	return ""
}

// noPush checks that nothing was pushed for a while.
func (cl *client) noPush(d time.Duration) {
	cl.t.Helper()
	select {
	case p := <-cl.pushes:
		cl.t.Errorf("pushed %q, want nothing", p)
	case <-time.After(d):
	}
}

// shortGame is a whole game of nine men's morris, its moves in pbmserv
// notation, found without an engine: white takes a capture when it has
// one and otherwise leaves black the fewest moves (never a position seen
// before, never a capture for black next), black plays its first legal
// move. It ends by blocking black.
func shortGame(t testing.TB) (moves []string, outcome mill.Outcome, method mill.Method) {
	t.Helper()
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	b := g.Rules().Board()
	seen := map[mill.Position]bool{}
	for g.Outcome() == mill.NoOutcome {
		if len(moves) > 300 {
			t.Fatal("the short game is not short")
		}
		p := g.Position()
		seen[p] = true
		ms := p.Moves(nil)
		pick := ms[0]
		if p.SideToMove() == mill.White {
			best := -1 << 30
			for _, m := range ms {
				q := p.Play(m)
				score := 100*m.NumCaptures() - q.NumMoves()
				if o, _ := q.Status(); o == mill.WhiteWon {
					score += 10000
				}
				for _, r := range q.Moves(nil) {
					if r.NumCaptures() > 0 {
						score -= 100
						break
					}
				}
				if seen[q] {
					score -= 1000
				}
				if score > best {
					best, pick = score, m
				}
			}
		}
		moves = append(moves, b.MoveText(pick, mill.Pbm))
		if err := g.Play(pick); err != nil {
			t.Fatal(err)
		}
	}
	return moves, g.Outcome(), g.Method()
}

// firstLine is the first line of an answer, for messages.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
