package pbmserv

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
)

// Greeting is the first line a TCP client reads.
const Greeting = "morris pbmserv gateway: type help"

// frame prepares an answer for the wire: its lines as they are, a line
// that starts with a dot doubled as in SMTP, then a line holding a single
// dot, which ends every answer. Boards hold empty lines, so an answer
// needs an end of its own.
func frame(answer string) string {
	var b strings.Builder
	for line := range strings.Lines(answer) {
		if strings.HasPrefix(line, ".") {
			b.WriteByte('.')
		}
		b.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			b.WriteByte('\n')
		}
	}
	b.WriteString(".\n")
	return b.String()
}

// Serve answers pbmserv commands on connections from ln, one line at a
// time, until ctx is cancelled; then it closes the listener and every
// connection, waits for their goroutines and returns nil. Another
// failure of the listener is returned.
func (g *Gateway) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	var delay time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				// Out of file descriptors and the like: wait, as net/http does.
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				g.log.Warn("pbmserv accept", "err", err, "retry in", delay)
				select {
				case <-time.After(delay):
				case <-ctx.Done():
				}
				continue
			}
			ln.Close()
			return err
		}
		delay = 0
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.serveConn(ctx, c)
		}()
	}
}

// connWriter is a connection's one writer: answers and pushes each go out
// whole, never one inside another.
type connWriter struct {
	mu      sync.Mutex
	c       net.Conn
	timeout time.Duration
}

func (w *connWriter) write(s string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_ = w.c.SetWriteDeadline(time.Now().Add(w.timeout))
	_, err := io.WriteString(w.c, s)
	if err != nil {
		// A client that does not read is dropped: its reader then ends.
		w.c.Close()
	}
	return err
}

// serveConn reads a connection's lines and answers each.
func (g *Gateway) serveConn(ctx context.Context, c net.Conn) {
	w := &connWriter{c: c, timeout: g.writeTimeout()}
	sess := NewSession(c.RemoteAddr().String(), w.write)
	// The connection closes first: a watcher blocked writing to a client
	// that does not read fails at once, and sess.Close need not wait.
	defer sess.Close()
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	log := g.log.With("client", c.RemoteAddr().String())
	log.Debug("pbmserv connection opened")
	defer func() {
		if r := recover(); r != nil {
			log.Error("pbmserv connection panicked", "panic", r, "stack", string(debug.Stack()))
			_ = w.write("error: the server failed: closing the connection\n.\n")
		}
		log.Debug("pbmserv connection closed")
	}()
	// The connection counts against its address's quota with the HTTP
	// API's streams (server.Conns): one more is told why and closed
	// instead of greeted.
	conns := g.svc.Conns()
	release, ok := conns.Acquire(sess.Addr())
	if !ok {
		log.Debug("pbmserv connection refused: the address holds its quota")
		_ = w.write(frame(fmt.Sprintf("error: this address holds %d connections and streams, its most: closing the connection\n", conns.Max())))
		return
	}
	defer release()
	g.keepAlive(c)
	if err := w.write(Greeting + "\n"); err != nil {
		return
	}
	idle := g.idleTimeout()
	sc := bufio.NewScanner(&idleReader{c: c, idle: idle, listening: sess.following})
	sc.Buffer(make([]byte, 0, 4096), pbm.MaxLine+2) // the line and its \r\n
	for {
		if !sc.Scan() {
			err := sc.Err()
			var ne net.Error
			switch {
			case errors.Is(err, bufio.ErrTooLong):
				_ = w.write(frame(fmt.Sprintf("error: a line is at most %d bytes: closing the connection\n", pbm.MaxLine)))
				drain(c)
			case errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil:
				_ = w.write(fmt.Sprintf("* idle for %s: closing the connection\n", idle))
			}
			return
		}
		answer := g.Exec(ctx, sess, sc.Text())
		if err := w.write(frame(answer)); err != nil {
			return
		}
	}
}

// keepAlive turns on TCP keep-alives on a connection, whatever the
// listener's settings: a connection that follows boards never idles out
// (idleReader), and without them one whose client vanished (a laptop
// closed, a network gone) would hold its place in its address's quota
// until a push failed, which on a quiet board may be never. With the
// probes the system ends it within about KeepAlive times five.
func (g *Gateway) keepAlive(c net.Conn) {
	tc, ok := c.(interface {
		SetKeepAliveConfig(net.KeepAliveConfig) error
	})
	if !ok {
		return
	}
	d := g.keepAlivePeriod()
	if err := tc.SetKeepAliveConfig(net.KeepAliveConfig{Enable: true, Idle: d, Interval: d, Count: 4}); err != nil {
		g.log.Debug("pbmserv keep-alive", "err", err)
	}
}

// drain ends a connection whose client may still be sending: closing it
// with unread input would reset it, and the client could lose the answer
// that says why. It stops sending, then reads what comes for a moment.
func drain(c net.Conn) {
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		_ = tc.CloseWrite()
	}
	_ = c.SetReadDeadline(time.Now().Add(time.Second))
	_, _ = io.Copy(io.Discard, io.LimitReader(c, 1<<20))
}

// idleReader reads a connection with an idle timeout that does not apply
// while the connection follows boards: a client that subscribed and only
// listens stays (a dead one fails the next push instead).
type idleReader struct {
	c         net.Conn
	idle      time.Duration
	listening func() bool
}

func (r *idleReader) Read(p []byte) (int, error) {
	for {
		_ = r.c.SetReadDeadline(time.Now().Add(r.idle))
		n, err := r.c.Read(p)
		var ne net.Error
		if n == 0 && errors.As(err, &ne) && ne.Timeout() && r.listening() {
			continue
		}
		return n, err
	}
}
