package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/morrisgame/morris/internal/store/storetest"
)

// TestDeployRecipe runs the recipe of docs/deploy.md on this machine:
// three morris serve processes on one PostgreSQL behind nginx configured
// by deploy/nginx/morris.conf itself (its upstream lines pointed at the
// test's ports, its listen at a free port). Through nginx: accounts, a
// game whose players' requests land on any process, its NDJSON stream
// live line by line (nginx buffers nothing), its WebSocket, /healthz; then
// one process is killed and the site goes on through the others. nginx
// missing skips the test, unless MORRIS_DEPLOY_TESTS is set (as CI does,
// having installed it).
func TestDeployRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("three servers and nginx")
	}
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if os.Getenv("MORRIS_DEPLOY_TESTS") != "" {
			t.Fatal("nginx is not installed (apt-get install nginx-light)")
		}
		t.Skip("nginx is not installed")
	}
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	var servers []*serverProc
	for range 3 {
		servers = append(servers, startServer(t, "-db", dsn, "-trusted-proxies", "127.0.0.1", "-poll-every", "1h"))
	}

	// deploy/nginx/morris.conf, pointed at the test's processes and port.
	conf, err := os.ReadFile(filepath.Join("..", "..", "deploy", "nginx", "morris.conf"))
	if err != nil {
		t.Fatal(err)
	}
	up := regexp.MustCompile(`(?m)^(\s*server )127\.0\.0\.1:808(\d)( .*;)$`)
	if n := len(up.FindAllString(string(conf), -1)); n != 3 {
		t.Fatalf("deploy/nginx/morris.conf: %d upstream lines, want 3", n)
	}
	text := up.ReplaceAllStringFunc(string(conf), func(line string) string {
		m := up.FindStringSubmatch(line)
		i := int(m[2][0] - '1')
		return m[1] + servers[i].addr + m[3]
	})
	addr := freeAddr(t)
	if !strings.Contains(text, "listen 80;") {
		t.Fatal("deploy/nginx/morris.conf: no listen 80")
	}
	text = strings.Replace(text, "listen 80;", "listen "+addr+";", 1)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "morris.conf"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	main := fmt.Sprintf(`daemon off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
    access_log %[1]s/access.log;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    include %[1]s/morris.conf;
}
`, dir)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nginx, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	// nginx's master and worker in a process group of their own, so that
	// both go at the end.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	site := &serverProc{addr: addr}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if code, err := site.call(ctx, "GET", "/healthz", "", nil, nil); err == nil && code == 200 {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx did not answer /healthz:\n%s", log)
		}
	}

	ann, bob := site.account(t, "ann"), site.account(t, "bob")
	var c struct{ ID, Game int64 }
	if _, err := site.call(ctx, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c); err != nil {
		t.Fatal(err)
	}
	if _, err := site.call(ctx, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c); err != nil {
		t.Fatal(err)
	}
	// The NDJSON stream through nginx, and a WebSocket.
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://%s/api/game/%d/stream", addr, c.Game), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	ws, _, err := websocket.Dial(ctx, fmt.Sprintf("ws://%s/api/game/%d/ws", addr, c.Game), nil)
	if err != nil {
		t.Fatalf("a WebSocket through nginx: %v", err)
	}
	defer ws.CloseNow()
	if _, msg, err := ws.Read(ctx); err != nil || !strings.Contains(string(msg), `"type":"gameFull"`) {
		t.Fatalf("the WebSocket's first message: %s %v", msg, err)
	}
	moves := []string{"d6", "d5", "a1", "a4", "g1", "g4"}
	waitLine := func(move string, within time.Duration) {
		t.Helper()
		deadline := time.After(within)
		for {
			select {
			case l := <-lines:
				if strings.Contains(l, `"type":"move"`) && strings.Contains(l, `"move":"`+move+`"`) {
					return
				}
			case <-deadline:
				t.Fatalf("the move %s did not come down the stream through nginx within %v", move, within)
			}
		}
	}
	for ply, m := range moves[:4] {
		tok := ann
		if ply%2 == 1 {
			tok = bob
		}
		if _, err := site.call(ctx, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), tok, map[string]any{"move": m, "ply": ply}, nil); err != nil {
			t.Fatal(err)
		}
		waitLine(m, time.Second)
	}
	// One process killed: the site goes on.
	if err := servers[0].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-servers[0].done
	for ply, m := range moves[4:] {
		tok := ann
		if ply%2 == 1 {
			tok = bob
		}
		if _, err := site.call(ctx, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), tok, map[string]any{"move": m, "ply": 4 + ply}, nil); err != nil {
			t.Fatalf("after a process was killed: %v", err)
		}
	}
	for range 6 {
		if code, err := site.call(ctx, "GET", "/healthz", "", nil, nil); err != nil || code != 200 {
			t.Fatalf("/healthz after a process was killed: %d %v", code, err)
		}
	}
	var full struct{ State struct{ Moves []string } }
	if _, err := site.call(ctx, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &full); err != nil || strings.Join(full.State.Moves, " ") != strings.Join(moves, " ") {
		t.Fatalf("the game through nginx: %v %v, want %v", full.State.Moves, err, moves)
	}
}
