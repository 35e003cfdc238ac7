package pbmserv

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/mill"
)

// TestWholeGameOverTCP plays a whole game of nine men's morris through
// the TCP port, each player on a connection of their own, every move with
// its #N; a third connection subscribed to the board is pushed every move
// and the end, a fourth that asked notify only the end, and a fifth that
// unsubscribed nothing after that.
func TestWholeGameOverTCP(t *testing.T) {
	g := newGateway(t)
	addr := serve(t, g)
	ann, bob := dial(t, addr), dial(t, addr)
	watcher, notified, quitter := dial(t, addr), dial(t, addr), dial(t, addr)

	for _, c := range []struct {
		cl   *client
		line string
		want string
	}{
		{ann, "signup ann secret-ann", "ok: signed up ann"},
		{bob, "signup bob secret-bob", "ok: signed up bob"},
		{bob, "nmm accept bob secret-bob", "ok: bob takes challenges of nmm from anyone"},
		{ann, "nmm challenge ann secret-ann bob", "ok: board 101 started: White ann, Black bob"},
		{watcher, "nmm subscribe 101", "ok: this connection follows board 101: every move comes here"},
		{notified, "nmm notify 101", "ok: this connection follows board 101: the end comes here"},
		{quitter, "nmm subscribe 101", "ok: "},
		{quitter, "nmm unsubscribe 101", "ok: this connection no longer follows board 101"},
		{quitter, "nmm unsubscribe 101", "error: this connection does not follow board 101"},
		{quitter, "tmm subscribe 101", "error: board 101 is a game of nmm"},
		{quitter, "nmm subscribe 999", "error: there is no board 999"},
	} {
		if got := c.cl.do(c.line); !strings.HasPrefix(got, c.want) {
			t.Fatalf("%q: got %q, want %q...", c.line, firstLine(got), c.want)
		}
	}

	moves, outcome, method := shortGame(t)
	if outcome != mill.WhiteWon || method != mill.Blocked {
		t.Fatalf("the short game ends %s by %s, want 1-0 by blocked", outcome, method)
	}
	var last string
	for i, m := range moves {
		n := i + 1
		player, name := ann, "ann"
		if i%2 == 1 {
			player, name = bob, "bob"
		}
		line := fmt.Sprintf("nmm move 101 %s secret-%s %s#%d", name, name, m, n)
		last = player.do(line)
		want := fmt.Sprintf("ok: board 101: move %d %s played by %s\n", n, m, name)
		if !strings.HasPrefix(last, want) {
			t.Fatalf("%q: got\n%s\nwant it to start %q", line, last, want)
		}
		if n < len(moves) {
			if wantNext := fmt.Sprintf("Move %d: ", n+1); !strings.Contains(last, wantNext) {
				t.Fatalf("%q: got\n%s\nwant %q", line, last, wantNext)
			}
		}
	}
	if want := "Game over: White (W) ann wins (1-0) by blocked"; !strings.Contains(last, want) {
		t.Errorf("the last move's answer:\n%s\nwant %q", last, want)
	}
	if got := bob.do("nmm move 101 bob secret-bob A1"); !strings.HasPrefix(got, "error: game 101 is over (1-0 by blocked)") {
		t.Errorf("a move after the end: got %q", got)
	}
	if got := ann.do("nmm history"); !strings.Contains(got, fmt.Sprintf("board 101: White ann - Black bob, White (W) ann wins (1-0) by blocked after %d moves", len(moves))) {
		t.Errorf("history after the game:\n%s", got)
	}

	// The subscriber saw every move, in order, and the end.
	for i, m := range moves {
		label := "White (W) ann"
		if i%2 == 1 {
			label = "Black (B) bob"
		}
		want := fmt.Sprintf("* nmm board 101: move %d, %s: %s", i+1, label, m)
		if got := watcher.push(); got != want {
			t.Fatalf("push %d: got %q, want %q", i+1, got, want)
		}
	}
	const end = "* nmm board 101: game over: White (W) ann wins (1-0) by blocked"
	if got := watcher.push(); got != end {
		t.Errorf("the last push: got %q, want %q", got, end)
	}
	if got := notified.push(); got != end {
		t.Errorf("notify: got %q, want %q", got, end)
	}
	// The game over, the follows are done.
	if got := watcher.do("nmm unsubscribe 101"); !strings.HasPrefix(got, "error: this connection does not follow board 101") {
		t.Errorf("unsubscribe after the end: got %q", got)
	}
	if got := watcher.do("nmm subscribe 101"); !strings.HasPrefix(got, "error: board 101 is over: White (W) ann wins (1-0) by blocked") {
		t.Errorf("subscribe after the end: got %q", got)
	}
	quitter.noPush(100 * time.Millisecond)
	notified.noPush(0)
	watcher.noPush(0)
}

// TestPushes: offers, take-backs and chat reach a subscribed connection as
// pushes, between answers, never inside one.
func TestPushes(t *testing.T) {
	g := newGateway(t)
	addr := serve(t, g)
	ann, bob, cy := dial(t, addr), dial(t, addr), dial(t, addr)
	for _, c := range []struct {
		cl   *client
		line string
	}{
		{ann, "signup ann secret-ann"},
		{bob, "signup bob secret-bob"},
		{bob, "nmm accept bob secret-bob"},
		{ann, "nmm challenge ann secret-ann bob"},
		{cy, "nmm subscribe 101"},
		{ann, "nmm move 101 ann secret-ann D2#1"},
		{bob, "nmm move 101 bob secret-bob D6#2"},
		{ann, "nmm move 101 ann secret-ann undo"},
		{bob, "nmm move 101 bob secret-bob reject"},
		{ann, "nmm move 101 ann secret-ann undo"},
		{bob, "nmm move 101 bob secret-bob accept"},
		{bob, "nmm chat 101 bob secret-bob well played"},
		{bob, "nmm move 101 bob secret-bob propose"},
		{ann, "nmm move 101 ann secret-ann resign"},
	} {
		if got := c.cl.do(c.line); !strings.HasPrefix(got, "ok: ") {
			t.Fatalf("%q: got %q", c.line, firstLine(got))
		}
	}
	for _, want := range []string{
		"* nmm board 101: move 1, White (W) ann: D2",
		"* nmm board 101: move 2, Black (B) bob: D6",
		"* nmm board 101: White (W) ann asks to take back a move",
		"* nmm board 101: the take-back request is declined",
		"* nmm board 101: White (W) ann asks to take back a move",
		"* nmm board 101: 2 moves taken back, move 1 to play",
		"* nmm board 101: bob says: well played",
		"* nmm board 101: Black (B) bob offers a draw",
		"* nmm board 101: game over: Black (B) bob wins (0-1) by resignation",
	} {
		if got := cy.push(); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// TestConnectionLimits: a line too long and a silent client are told why
// and disconnected.
func TestConnectionLimits(t *testing.T) {
	g := newGateway(t)
	g.IdleTimeout = 500 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Serve(ctx, ln) }()
	addr := ln.Addr().String()

	readAll := func(c net.Conn) string {
		_ = c.SetReadDeadline(time.Now().Add(wait))
		var b strings.Builder
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadString('\n')
			b.WriteString(line)
			if err != nil {
				return b.String()
			}
		}
	}

	long, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer long.Close()
	go func() { _, _ = long.Write([]byte("nmm show " + strings.Repeat("1", 5000) + "\n")) }()
	if got, want := readAll(long), Greeting+"\nerror: a line is at most 4096 bytes: closing the connection\n.\n"; got != want {
		t.Errorf("a long line: got %q, want %q", got, want)
	}

	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	if got, want := readAll(idle), Greeting+"\n* idle for 500ms: closing the connection\n"; got != want {
		t.Errorf("an idle client: got %q, want %q", got, want)
	}

	// A line of exactly the longest length is answered (and refused by
	// the parser for what it says, not for its length).
	ok := dial(t, addr)
	line := "nmm show " + strings.Repeat("x", 4096-len("nmm show "))
	if got := ok.do(line); !strings.HasPrefix(got, "error: nmm show: USERID") {
		t.Errorf("a line of 4096 bytes: got %q", firstLine(got))
	}

	// A connection that follows a board is not idle: it listens.
	// The listener connects after the sign-ups (password hashing, slow on a
	// loaded machine), so that it cannot fall idle before it subscribes.
	ann := dial(t, addr)
	for _, line := range []string{"signup ann secret-ann", "signup bob secret-bob", "nmm accept bob secret-bob", "nmm challenge ann secret-ann bob"} {
		if got := ann.do(line); !strings.HasPrefix(got, "ok: ") {
			t.Fatalf("%q: got %q", line, firstLine(got))
		}
	}
	listener := dial(t, addr)
	if got := listener.do("nmm subscribe 101"); !strings.HasPrefix(got, "ok: ") {
		t.Fatalf("subscribe: got %q", firstLine(got))
	}
	time.Sleep(3 * g.IdleTimeout)
	ann = dial(t, addr) // the first one has been idle
	if got := ann.do("nmm move 101 ann secret-ann D2"); !strings.HasPrefix(got, "ok: ") {
		t.Fatalf("got %q", firstLine(got))
	}
	if got, want := listener.push(), "* nmm board 101: move 1, White (W) ann: D2"; got != want {
		t.Errorf("after a silence: got %q, want %q", got, want)
	}
	if got := listener.do("nmm unsubscribe 101"); !strings.HasPrefix(got, "ok: ") {
		t.Fatalf("got %q", firstLine(got))
	}
	if got, want := listener.push(), "* idle for 500ms: closing the connection"; got != want {
		t.Errorf("idle again: got %q, want %q", got, want)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("Serve did not return after its context was cancelled")
	}
}

// TestServeShutdown: Serve returns once its context is cancelled, and
// closes the listener and the connections.
func TestServeShutdown(t *testing.T) {
	g := newGateway(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Serve(ctx, ln) }()
	addr := ln.Addr().String()
	open := dial(t, addr)
	if got := open.do("nmm subscribe 101"); !strings.HasPrefix(got, "error: there is no board 101") {
		t.Errorf("got %q", got)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("Serve did not return after its context was cancelled")
	}
	select {
	case <-open.closed:
	case <-time.After(wait):
		t.Error("a connection stayed open after Serve returned")
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Error("the listener still accepts after Serve returned")
	}
}

// TestConnectionQuota: an address holds server.Quotas.ConnsPerAddr
// connections at once; one more is told why, instead of the greeting, and
// closed, and a place frees when a connection closes.
func TestConnectionQuota(t *testing.T) {
	g := New(newServiceWith(t, server.Config{Quotas: server.Quotas{ConnsPerAddr: 2}}).Service, nil)
	addr := serve(t, g)
	first, _ := dial(t, addr), dial(t, addr)

	refused := func() string {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetReadDeadline(time.Now().Add(wait))
		var b strings.Builder
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadString('\n')
			b.WriteString(line)
			if err != nil {
				return b.String()
			}
		}
	}
	if got, want := refused(), "error: this address holds 2 connections and streams, its most: closing the connection\n.\n"; got != want {
		t.Fatalf("a third connection: got %q, want %q", got, want)
	}
	first.c.Close()
	<-first.closed
	deadline := time.Now().Add(wait)
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(wait))
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if line == Greeting+"\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a connection closed: still %q", line)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
