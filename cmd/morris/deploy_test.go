package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
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

	"github.com/morrisgame/morris/internal/server/store/storetest"
)

// TestDeployRecipe runs the recipe of docs/deploy.md on this machine:
// three morris serve processes on one PostgreSQL behind nginx configured
// by deploy/nginx/morris.conf itself (its upstream lines pointed at the
// test's ports, its listen lines at free ports, its certificate a
// self-signed one made by the test, its log in the test's folder).
// Through nginx over TLS: accounts, a game whose players' requests land on
// any process, its NDJSON stream live line by line (nginx buffers
// nothing), its WebSocket with a move sent on it, /healthz; plain http is
// redirected to https, every answer carries HSTS, /metrics is refused
// (the processes serve it on their own ports), and the access log holds
// no query string; then one process is killed and the site goes on
// through the others. nginx missing skips the test, unless
// MORRIS_DEPLOY_TESTS is set (as CI does, having installed it).
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

	// deploy/nginx/morris.conf, pointed at the test's processes, ports,
	// certificate and folder.
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
	dir := t.TempDir()
	certFile, keyFile, pool := selfSigned(t, dir)
	plainAddr, addr := freeAddr(t), freeAddr(t)
	for _, r := range []struct{ old, new string }{
		{"listen 80;", "listen " + plainAddr + ";"},
		{"listen [::]:80;", ""},
		{"listen 443 ssl;", "listen " + addr + " ssl;"},
		{"listen [::]:443 ssl;", ""},
		{"/etc/letsencrypt/live/morris.example.org/fullchain.pem", certFile},
		{"/etc/letsencrypt/live/morris.example.org/privkey.pem", keyFile},
		{"/var/log/nginx/morris.access.log", filepath.Join(dir, "morris.access.log")},
		{"/var/www/letsencrypt", filepath.Join(dir, "acme")},
	} {
		if !strings.Contains(text, r.old) {
			t.Fatalf("deploy/nginx/morris.conf: no %q", r.old)
		}
		text = strings.ReplaceAll(text, r.old, r.new)
	}
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
	tlsConfig := &tls.Config{RootCAs: pool, ServerName: "morris.example.org"}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: tlsConfig},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	site := &serverProc{addr: addr, client: client}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if code, err := site.call(ctx, "GET", "/healthz", "", nil, nil); err == nil && code == 200 {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx did not answer /healthz over TLS:\n%s", log)
		}
	}

	// Plain http goes to https; https answers carry HSTS; /metrics is not
	// public, however it is spelled, while each process still serves it.
	get := func(url string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	resp, _ := get("http://" + plainAddr + "/api/games?x=1")
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusMovedPermanently || !strings.HasPrefix(loc, "https://") || !strings.HasSuffix(loc, "/api/games?x=1") {
		t.Errorf("GET http://.../api/games?x=1: got %d to %q, want 301 to https://.../api/games?x=1", resp.StatusCode, loc)
	}
	resp, _ = get("https://" + addr + "/healthz")
	if hsts := resp.Header.Get("Strict-Transport-Security"); !strings.Contains(hsts, "max-age=") {
		t.Errorf("GET https://.../healthz: Strict-Transport-Security %q, want max-age", hsts)
	}
	if resp.TLS == nil || resp.TLS.Version < tls.VersionTLS12 {
		t.Errorf("GET https://.../healthz: TLS %+v, want 1.2 or later", resp.TLS)
	}
	for _, path := range []string{"/metrics", "/%6Detrics", "//metrics", "/metrics?format=text", "/./metrics"} {
		resp, body := get("https://" + addr + path)
		if resp.StatusCode != http.StatusNotFound || strings.Contains(body, "go_goroutines") {
			t.Errorf("GET https://...%s: got %d (%d bytes, metrics: %v), want 404 and no metrics", path, resp.StatusCode, len(body), strings.Contains(body, "go_goroutines"))
		}
		if hsts := resp.Header.Get("Strict-Transport-Security"); hsts == "" {
			t.Errorf("GET https://...%s: no Strict-Transport-Security", path)
		}
	}
	if code, body, err := servers[1].get(ctx, "/metrics"); err != nil || code != 200 || !strings.Contains(body, "go_goroutines") {
		t.Errorf("GET /metrics on a process's own port: %d %v, want its metrics", code, err)
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
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("https://%s/api/game/%d/stream", addr, c.Game), nil)
	resp, err = client.Do(req)
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
	wsURL := fmt.Sprintf("wss://%s/api/game/%d/ws", addr, c.Game)
	wsOpts := &websocket.DialOptions{HTTPClient: client}
	ws, _, err := websocket.Dial(ctx, wsURL, wsOpts)
	if err != nil {
		t.Fatalf("a WebSocket through nginx: %v", err)
	}
	defer ws.CloseNow()
	if _, msg, err := ws.Read(ctx); err != nil || !strings.Contains(string(msg), `"type":"gameFull"`) {
		t.Fatalf("the WebSocket's first message: %s %v", msg, err)
	}
	// An old client's token in the URL is refused, and nginx does not log it.
	const secret = "old-client-secret-token"
	if ws, resp, err := websocket.Dial(ctx, wsURL+"?token="+secret, wsOpts); err == nil {
		ws.CloseNow()
		t.Errorf("a WebSocket with ?token=: accepted, want 400")
	} else if resp == nil || resp.StatusCode != 400 {
		t.Errorf("a WebSocket with ?token=: %v, want 400", err)
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
	// Ann's first move on a WebSocket of her own, signed in by its first
	// message; the others over HTTP.
	play, _, err := websocket.Dial(ctx, wsURL, wsOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer play.CloseNow()
	for _, m := range []string{`{"id":1,"type":"auth","token":"` + ann + `"}`, `{"id":2,"type":"move","move":"` + moves[0] + `","ply":0}`} {
		if err := play.Write(ctx, websocket.MessageText, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	for acks := 0; acks < 2; {
		_, msg, err := play.Read(ctx)
		if err != nil {
			t.Fatalf("ann's WebSocket: %v", err)
		}
		switch {
		case strings.Contains(string(msg), `"type":"error"`):
			t.Fatalf("ann's WebSocket: %s", msg)
		case strings.Contains(string(msg), `"type":"ack"`):
			acks++
		}
	}
	waitLine(moves[0], time.Second)
	for ply, m := range moves[1:4] {
		ply++
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

	// The access log: every request, no query string, no secret.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGUSR1) // reopen: what was written is on disk
	log, err := os.ReadFile(filepath.Join(dir, "morris.access.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf(`"GET /api/game/%d/ws HTTP/1.1" 400`, c.Game), `"GET /api/games HTTP/1.1" 301`, `"POST /api/token HTTP/1.1" 200`} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the access log lacks %s:\n%s", want, log)
		}
	}
	for _, leak := range []string{secret, "?x=1", "token=", ann} {
		if strings.Contains(string(log), leak) {
			t.Errorf("the access log holds %q:\n%s", leak, log)
		}
	}
}

// selfSigned writes a certificate for morris.example.org and its key into
// dir, and returns their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "morris.example.org"},
		DNSNames:              []string{"morris.example.org"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile, pool
}
