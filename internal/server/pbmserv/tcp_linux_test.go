package pbmserv

import (
	"context"
	"net"
	"syscall"
	"testing"
	"time"
)

// capture is a listener that hands the connections it accepts to the test.
type capture struct {
	net.Listener
	conns chan net.Conn
}

func (l capture) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.conns <- c
	}
	return c, err
}

// TestKeepAlive: the gateway turns TCP keep-alives on for each connection,
// with Gateway.KeepAlive as the idle time and the interval, even from a
// listener made without them: a connection that follows boards never idles
// out, and only the probes end it when its client vanishes.
func TestKeepAlive(t *testing.T) {
	g := newGateway(t)
	g.KeepAlive = 7 * time.Second
	ln, err := (&net.ListenConfig{KeepAlive: -1}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := capture{Listener: ln, conns: make(chan net.Conn, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Serve(ctx, l) }()
	defer func() { cancel(); <-done }()
	dial(t, ln.Addr().String()) // greeted: the options are set by then
	server := (<-l.conns).(*net.TCPConn)
	raw, err := server.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []struct {
		name       string
		level, opt int
		want       int
	}{
		{"SO_KEEPALIVE", syscall.SOL_SOCKET, syscall.SO_KEEPALIVE, 1},
		{"TCP_KEEPIDLE", syscall.IPPROTO_TCP, syscall.TCP_KEEPIDLE, 7},
		{"TCP_KEEPINTVL", syscall.IPPROTO_TCP, syscall.TCP_KEEPINTVL, 7},
		{"TCP_KEEPCNT", syscall.IPPROTO_TCP, syscall.TCP_KEEPCNT, 4},
	} {
		var got int
		var gerr error
		if err := raw.Control(func(fd uintptr) { got, gerr = syscall.GetsockoptInt(int(fd), o.level, o.opt) }); err != nil || gerr != nil {
			t.Fatalf("%s: %v %v", o.name, err, gerr)
		}
		if got != o.want {
			t.Errorf("%s: got %d, want %d", o.name, got, o.want)
		}
	}
}
