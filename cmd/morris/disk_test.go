//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/mill"
)

// The tests of a disk that misbehaves under a real server: morris serve in
// a process of its own, its data folder on a small disk that fills up
// (TestServeDiskFull) or on a disk whose every fsync takes 200 ms
// (TestServeSlowDisk), players over the HTTP API on a loopback socket.

// player plays one game over the API, both sides, with random legal moves,
// and keeps the moves the server acknowledged.
type player struct {
	p        *serverProc
	game     int64
	tokens   [2]string // white's, black's
	g        *mill.Game
	rng      *rand.Rand
	acked    []string
	count    atomic.Int64 // len(acked), for other goroutines
	over     atomic.Bool  // the game has ended
	answered atomic.Int64 // 503s answered for a full disk
	resolved int          // moves whose answer was lost, found stored
}

type moveAnswer struct {
	code       int
	retryAfter string
	body       string
	took       time.Duration
}

// send sends a move for ply with a client that gives up after timeout
// (0: never). A request that timed out has code 0.
func (pl *player) send(timeout time.Duration, text string, ply int) moveAnswer {
	b, _ := json.Marshal(map[string]any{"move": text, "ply": ply})
	req, _ := http.NewRequest("POST", fmt.Sprintf("http://%s/api/game/%d/move", pl.p.addr, pl.game), bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+pl.tokens[pl.g.Position().SideToMove()])
	start := time.Now()
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return moveAnswer{took: time.Since(start)}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return moveAnswer{code: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: string(body), took: time.Since(start)}
}

// stored returns the moves of the game as the server has them.
func (pl *player) stored(t testing.TB, p *serverProc) []string {
	t.Helper()
	var full struct{ State struct{ Moves []string } }
	if _, err := p.call(context.Background(), "GET", fmt.Sprintf("/api/game/%d", pl.game), "", nil, &full); err != nil {
		t.Fatal(err)
	}
	return full.State.Moves
}

// move plays one move: it sends it (first with firstTimeout), and sends
// it again with the same ply for as long as the server answers 503 or the
// client gave up; a 409 after a try whose answer was lost is resolved by
// reading the game: the move is there, once, or the test fails. It returns
// the time the move took and false if stop was closed first.
func (pl *player) move(t *testing.T, stop <-chan struct{}, firstTimeout time.Duration) (time.Duration, bool) {
	pos := pl.g.Position()
	ms := pos.Moves(nil)
	m := ms[pl.rng.IntN(len(ms))]
	text, ply := pos.MoveText(m), len(pl.g.Moves())
	start := time.Now()
	timeout, lost := firstTimeout, false
	for {
		a := pl.send(timeout, text, ply)
		timeout = 10 * time.Second
		switch {
		case a.code == 200:
		case a.code == 0:
			lost = true // maybe stored: the next try says
			continue
		case a.code == 503:
			if want := strconv.Itoa(int(server.RetryFull / time.Second)); !strings.Contains(a.body, server.DiskFull) || a.retryAfter != want {
				t.Errorf("game %d: a refused move: got 503 %q with Retry-After %q, want %q with Retry-After %s", pl.game, a.body, a.retryAfter, server.DiskFull, want)
			}
			pl.answered.Add(1)
			select {
			case <-stop:
				return 0, false
			case <-time.After(20 * time.Millisecond): // the Retry-After, shortened for the test
			}
			continue
		case a.code == 409 && lost:
			if got := pl.stored(t, pl.p); len(got) != ply+1 || got[ply] != text {
				t.Fatalf("game %d: move %s at ply %d sent again after a lost answer: 409 %s, and the game holds %v", pl.game, text, ply, a.body, got)
			}
			pl.resolved++
		default:
			t.Fatalf("game %d: move %s at ply %d: got %d %s", pl.game, text, ply, a.code, a.body)
		}
		if err := pl.g.Play(m); err != nil {
			t.Fatal(err)
		}
		pl.acked = append(pl.acked, text)
		pl.count.Add(1)
		pl.over.Store(pl.g.Outcome() != mill.NoOutcome)
		return time.Since(start), true
	}
}

// newPlayers starts n games between two new accounts.
func newPlayers(t *testing.T, p *serverProc, n int) []*player {
	t.Helper()
	ann, bob := p.account(t, "ann"), p.account(t, "bob")
	ctx := context.Background()
	var pls []*player
	for i := range n {
		var c struct{ ID, Game int64 }
		if _, err := p.call(ctx, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c); err != nil {
			t.Fatal(err)
		}
		if _, err := p.call(ctx, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c); err != nil {
			t.Fatal(err)
		}
		pls = append(pls, &player{p: p, game: c.Game, tokens: [2]string{ann, bob},
			g: mill.NewGame(mill.MustRules("nine-mens-morris")), rng: rand.New(rand.NewPCG(uint64(i), 7))})
	}
	return pls
}

// pbmPost sends one pbmserv command over POST /pbm.
func pbmPost(t *testing.T, p *serverProc, timeout time.Duration, line string) string {
	t.Helper()
	resp, err := (&http.Client{Timeout: timeout}).Post("http://"+p.addr+"/pbm", "text/plain", strings.NewReader(line+"\n"))
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

// checkAcked restarts nothing: it compares what a server has with what
// each player was acknowledged, exactly (every answer was read).
func checkAcked(t *testing.T, p *serverProc, pls []*player) {
	t.Helper()
	for _, pl := range pls {
		if got := pl.stored(t, p); !slices.Equal(got, pl.acked) {
			t.Errorf("game %d: stored %v, acknowledged %v", pl.game, got, pl.acked)
		}
	}
}

// TestServeDiskFull fills the disk of a server's data folder while games
// are played on it: moves are refused with a 503 that says why and when to
// try again (pbmserv commands with an error line), the log says it, reads
// go on; once a file is removed play resumes with no restart; and after a
// SIGKILL and a restart on the same files every acknowledged move is
// there, none twice.
func TestServeDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a disk under load: not under -short")
	}
	disk := storetest.SmallDisk(t, 24<<20)
	dir := filepath.Join(disk, "data")
	p := startServer(t, "-data", dir, "-rate", "100000")
	pls := newPlayers(t, p, 17)
	pbmGame := pls[0] // played by pbmserv commands below, not by a goroutine
	pls = pls[1:]

	var phase atomic.Int32 // 0 before the disk is full, 1 while it is, 2 once there is room
	after := make([]atomic.Int32, len(pls))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i, pl := range pls {
		wg.Go(func() {
			for pl.g.Outcome() == mill.NoOutcome {
				if _, ok := pl.move(t, stop, 0); !ok {
					return
				}
				if phase.Load() == 2 {
					after[i].Add(1)
				}
				select {
				case <-stop:
					return
				default:
				}
			}
		})
	}
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}()
	waitFor := func(what string, d time.Duration, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within %v\n%s", what, d, p.stderr)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	refused := func() (n int64) {
		for _, pl := range pls {
			n += pl.answered.Load()
		}
		return n
	}
	acked := func() (n int) {
		for _, pl := range pls {
			n += int(pl.count.Load())
		}
		return n
	}
	waitFor("moves on a disk with room", 20*time.Second, func() bool { return acked() >= 5*len(pls) })

	fillers := storetest.Fill(t, disk, 4<<20)
	phase.Store(1)
	waitFor("503s on a full disk", 30*time.Second, func() bool { return refused() >= 50 })
	// The pbmserv move of the game kept aside, and a read.
	if got := pbmPost(t, p, 10*time.Second, fmt.Sprintf("nmm move %d ann secret-ann a1#1", pbmGame.game)); !strings.HasPrefix(got, "error: "+server.DiskFull+"\n") {
		t.Errorf("a pbmserv move on a full disk: got %q, want an error that names the full disk", got)
	}
	if got := pbmGame.stored(t, p); len(got) != 0 {
		t.Errorf("a refused pbmserv move was stored: %v", got)
	}
	if log := p.stderr.String(); !strings.Contains(log, "the disk is full") {
		t.Errorf("the log does not tell of the full disk:\n%s", log)
	}
	n503 := refused()

	if err := os.Remove(fillers[0]); err != nil {
		t.Fatal(err)
	}
	phase.Store(2)
	waitFor("every game moving again once there is room", 30*time.Second, func() bool {
		for i, pl := range pls {
			if after[i].Load() < 2 && !pl.over.Load() {
				return false
			}
		}
		return true
	})
	waitFor("the log telling of the room", 10*time.Second, func() bool {
		return strings.Contains(p.stderr.String(), "the disk has room again")
	})
	close(stop)
	wg.Wait()
	// The pbmserv move refused above, now played; sent again, refused.
	line := fmt.Sprintf("nmm move %d ann secret-ann a1#1", pbmGame.game)
	if got := pbmPost(t, p, 10*time.Second, line); strings.HasPrefix(got, "error: ") || got == "" {
		t.Errorf("the pbmserv move once there is room: got %q, want it played", got)
	}
	if got := pbmPost(t, p, 10*time.Second, line); !strings.HasPrefix(got, "error: ") {
		t.Errorf("the pbmserv move #1 sent again: got %q, want an error", got)
	}
	pbmGame.acked = []string{"a1"}
	if n := strings.Count(p.stderr.String(), `msg="the disk is full`); n != 1 {
		t.Errorf("the log tells of the full disk %d times for %d refusals, want once", n, n503)
	}
	checkAcked(t, p, append(pls, pbmGame))

	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.done
	p2 := startServer(t, "-data", dir, "-rate", "100000")
	checkAcked(t, p2, append(pls, pbmGame))
	total, lost := 0, 0
	for _, pl := range pls {
		total += len(pl.acked)
		lost += pl.resolved
	}
	t.Logf("%d moves acknowledged in %d games, %d refused with 503 while the disk was full (%d answers lost and found stored)", total, len(pls), refused(), lost)
}

// TestServeSlowDisk runs a server whose disk takes 200 ms for each fsync
// (a FUSE file system over a folder, storetest.SlowDisk): moves slow down,
// and players that give up on an answer after 150 ms and send the move
// again with the same ply (or the pbmserv #N) never get it played twice
// nor lose it; after a SIGKILL and a restart every acknowledged move is
// there.
func TestServeSlowDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("a disk whose fsyncs take 200 ms: not under -short")
	}
	const delay = 200 * time.Millisecond
	disk, syncs := storetest.SlowDisk(t, delay)
	dir := filepath.Join(disk, "data")
	p := startServerWithin(t, time.Minute, "-data", dir, "-rate", "100000")
	pls := newPlayers(t, p, 4)
	before := syncs.Load()
	var wg sync.WaitGroup
	took := make([][]time.Duration, len(pls))
	for i, pl := range pls {
		wg.Go(func() {
			for range 6 {
				// Every other move, the first try gives up before one
				// fsync could end.
				first := time.Duration(0)
				if len(pl.acked)%2 == 0 {
					first = delay * 3 / 4
				}
				d, _ := pl.move(t, nil, first)
				took[i] = append(took[i], d)
			}
		})
	}
	wg.Wait()
	var all []time.Duration
	resolved := 0
	for i := range pls {
		all = append(all, took[i]...)
		resolved += pls[i].resolved
	}
	slices.Sort(all)
	median := all[len(all)/2]
	if median < delay {
		t.Errorf("the median move took %v on a disk whose fsyncs take %v: the disk is not slow", median, delay)
	}
	if n := syncs.Load() - before; n == 0 {
		t.Errorf("no fsync reached the slow disk")
	}
	// pbmserv: a command whose answer the client gave up on, sent again.
	pl := pls[0]
	pos := pl.g.Position()
	m := pos.Moves(nil)[0]
	user := "ann"
	if pos.SideToMove() == mill.Black {
		user = "bob"
	}
	line := fmt.Sprintf("nmm move %d %s secret-%s %s#%d", pl.game, user, user, pos.MoveText(m), len(pl.g.Moves())+1)
	first := pbmPost(t, p, delay/2, line)
	second := pbmPost(t, p, 10*time.Second, line)
	if got := pl.stored(t, p); len(got) != len(pl.acked)+1 || got[len(got)-1] != pos.MoveText(m) {
		t.Errorf("a pbmserv move sent twice (answers %q, %q): the game holds %v, want %v and %s once", first, second, got, pl.acked, pos.MoveText(m))
	}
	pl.acked = append(pl.acked, pos.MoveText(m))
	checkAcked(t, p, pls)

	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.done
	p2 := startServerWithin(t, time.Minute, "-data", dir, "-rate", "100000")
	checkAcked(t, p2, pls)
	t.Logf("%d moves on a disk of %v fsyncs: median %v, slowest %v; %d answers given up on and found stored once; %d fsyncs",
		len(all), delay, median, all[len(all)-1], resolved, syncs.Load())
}
