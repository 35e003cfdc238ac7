package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// user is a player of the run.
type user struct {
	name, token string
	// client and streamClient: the user's own (with OwnAddrs), or nil for
	// the runner's.
	client, streamClient *http.Client
}

// loopbackClients are the clients of user i calling from 127.2.x.y, an
// address of its own (Linux routes all of 127.0.0.0/8 to the loopback),
// so that the server's limits by address see each user as a client apart:
// calls share a few connections, each stream has its own.
func loopbackClients(i int) (calls, streams *http.Client) {
	ip := net.IPv4(127, 2, byte(i/250), byte(1+i%250))
	dial := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: 10 * time.Second}).DialContext
	calls = &http.Client{Transport: &http.Transport{DialContext: dial, MaxConnsPerHost: 8, MaxIdleConnsPerHost: 8, IdleConnTimeout: time.Minute}}
	streams = &http.Client{Transport: &http.Transport{DialContext: dial, IdleConnTimeout: time.Minute}}
	return calls, streams
}

// callAs sends a JSON request as u (with its token, through its own
// client if it has one) to the server base and decodes the answer into
// out. It returns the answer's status (0 if there was none).
func (r *runner) callAs(ctx context.Context, u user, base, method, path string, body, out any) (int, error) {
	c := u.client
	if c == nil {
		c = r.client
	}
	return callVia(ctx, c, base, method, path, u.token, body, out)
}

// setupCall POSTs a sign-up or sign-in of u before the run, sent again,
// as a person would, when the server says it is busy (503: every argon2id
// slot taken by the other sign-ups) after a pause.
func (r *runner) setupCall(ctx context.Context, u user, path string, body, out any) error {
	for try := 0; ; try++ {
		code, err := r.callAs(ctx, u, r.Bases[0], "POST", path, body, out)
		if code != http.StatusServiceUnavailable || try == 10 {
			return err
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// callVia sends a JSON request through the client c to the server base and
// decodes the answer into out.
func callVia(ctx context.Context, c *http.Client, base, method, path, token string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		buf, _ := json.Marshal(body)
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, bytes.TrimSpace(data))
	}
	if out != nil {
		return resp.StatusCode, json.Unmarshal(data, out)
	}
	return resp.StatusCode, nil
}

// metricsOf reads the server's resident memory and open streams from its
// /metrics (0 when it has none).
func (r *runner) metricsOf(ctx context.Context, base string) (resident, streams float64) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if err != nil {
		return 0, 0
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(data), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			continue
		}
		switch name {
		case "process_resident_memory_bytes":
			resident = f
		case "morris_streams":
			streams = f
		}
	}
	return resident, streams
}

// gameWatch is a game's stream as the run reads it: when each move was
// sent, and when it was seen.
type gameWatch struct {
	mu   sync.Mutex
	sent map[int]sentMove // by ply
}

type sentMove struct {
	at       time.Time
	measured bool // sent in the measured span
	across   bool // sent to another server than the stream's
	seen     bool
}

// unseen counts the measured moves not yet seen on the stream.
func (gw *gameWatch) unseen() int {
	gw.mu.Lock()
	defer gw.mu.Unlock()
	left := 0
	for _, m := range gw.sent {
		if m.measured && !m.seen {
			left++
		}
	}
	return left
}

// watch reads the stream of game id on base through c (nil: the runner's
// stream client) until ctx ends, recording when each move is seen into
// seen/seenAcross (under mu). A stream refused says its status.
func (r *runner) watch(ctx context.Context, c *http.Client, base string, id int64, gw *gameWatch, mu *sync.Mutex, seen, seenAcross *[]time.Duration) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/game/%d/stream", base, id), nil)
	if err != nil {
		return 0, err
	}
	if c == nil {
		c = r.streamClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		return resp.StatusCode, fmt.Errorf("the stream of game %d: %s", id, resp.Status)
	}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var ev struct {
				Type string `json:"type"`
				Ply  int    `json:"ply"`
			}
			if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Type != "move" {
				continue
			}
			now := time.Now()
			gw.mu.Lock()
			m, ok := gw.sent[ev.Ply]
			first := ok && !m.seen
			if first {
				m.seen = true
				gw.sent[ev.Ply] = m
			}
			gw.mu.Unlock()
			if first && m.measured {
				mu.Lock()
				*seen = append(*seen, now.Sub(m.at))
				if m.across {
					*seenAcross = append(*seenAcross, now.Sub(m.at))
				}
				mu.Unlock()
			}
		}
	}()
	return 200, nil
}
