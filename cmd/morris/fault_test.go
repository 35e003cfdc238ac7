package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/mill"
)

// loadGame is one game of the fault tests' load: its players send their
// moves to the servers in turn, starting from their own, and keep what was
// acknowledged.
type loadGame struct {
	id           int64
	white, black string // tokens
	first        int    // white's server; black's is the next
	g            *mill.Game
	acked        []string  // moves acknowledged, in order
	unacked      int       // moves the store took though their answer never came
	lastAck      time.Time // when the last acknowledgement came
}

// load plays games on servers until stop is closed: every move goes to the
// mover's server, and to the next one alive when that one does not answer
// (a dead process, a database that is restarting). A move whose answer
// never came is looked up in the store before it is sent again, so a
// retry never plays a second move. It returns the requests that failed on
// a server that answered (an error, not a dead process).
func load(t *testing.T, servers []*serverProc, games []*loadGame, stop <-chan struct{}) (answeredErrors *atomic.Int64) {
	t.Helper()
	var wg sync.WaitGroup
	answeredErrors = &atomic.Int64{}
	ctx := context.Background()
	for gi, lg := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(gi), 9))
			var buf []mill.Move
			for lg.g.Outcome() == mill.NoOutcome {
				select {
				case <-stop:
					return
				case <-time.After(time.Duration(20+rng.IntN(30)) * time.Millisecond):
				}
				p := lg.g.Position()
				buf = p.Moves(buf[:0])
				m := buf[rng.IntN(len(buf))]
				text, ply := p.MoveText(m), len(lg.g.Moves())
				tok, srv := lg.white, lg.first
				if p.SideToMove() == mill.Black {
					tok, srv = lg.black, lg.first+1
				}
				for try := 0; ; try++ {
					select {
					case <-stop:
						return
					default:
					}
					s := servers[(srv+try)%len(servers)]
					cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
					code, err := s.call(cctx, "POST", fmt.Sprintf("/api/game/%d/move", lg.id), tok, map[string]any{"move": text, "ply": ply}, nil)
					cancel()
					if err == nil {
						lg.acked = append(lg.acked, text)
						lg.lastAck = time.Now()
						break
					}
					if code == 409 {
						// Taken by the store while its answer was lost?
						var full struct{ State struct{ Moves []string } }
						if _, err := s.call(ctx, "GET", fmt.Sprintf("/api/game/%d", lg.id), "", nil, &full); err == nil &&
							len(full.State.Moves) == ply+1 && full.State.Moves[ply] == text {
							lg.unacked++
							break
						}
					}
					if code != 0 && code != 503 && code != 500 {
						answeredErrors.Add(1)
						t.Logf("game %d ply %d %s on %s: %v", lg.id, ply, text, s.addr, err)
					}
					time.Sleep(50 * time.Millisecond)
				}
				if err := lg.g.Play(m); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	t.Cleanup(wg.Wait)
	return answeredErrors
}

// startLoad makes n games between fresh players on servers, white's
// requests to server i mod len(servers).
func startLoad(t *testing.T, servers []*serverProc, n int) []*loadGame {
	t.Helper()
	ctx := context.Background()
	var games []*loadGame
	for i := range n {
		a, b := servers[i%len(servers)], servers[(i+1)%len(servers)]
		w, bl := a.account(t, fmt.Sprintf("w%d", i)), b.account(t, fmt.Sprintf("b%d", i))
		var c struct{ ID, Game int64 }
		if _, err := a.call(ctx, "POST", fmt.Sprintf("/api/challenge/b%d", i), w, map[string]any{"color": "white"}, &c); err != nil {
			t.Fatal(err)
		}
		if _, err := b.call(ctx, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bl, nil, &c); err != nil {
			t.Fatal(err)
		}
		games = append(games, &loadGame{id: c.Game, white: w, black: bl, first: i % len(servers), g: mill.NewGame(mill.MustRules("nine-mens-morris"))})
	}
	return games
}

// checkStored compares each game's stored moves (read through s) with what
// its players played: every acknowledged move is there, at its ply, and
// nothing else but the moves the store took without an answer.
func checkStored(t *testing.T, s *serverProc, games []*loadGame, after time.Time) {
	t.Helper()
	progressed := 0
	for _, lg := range games {
		var full struct{ State struct{ Moves []string } }
		if _, err := s.call(context.Background(), "GET", fmt.Sprintf("/api/game/%d", lg.id), "", nil, &full); err != nil {
			t.Fatal(err)
		}
		var played []string
		q := mill.NewGame(mill.MustRules("nine-mens-morris"))
		for _, m := range lg.g.Moves() {
			played = append(played, q.Position().MoveText(m))
			q.Play(m)
		}
		if !slices.Equal(full.State.Moves, played) {
			t.Errorf("game %d: stored %v, played %v (%d acknowledged)", lg.id, full.State.Moves, played, len(lg.acked))
		}
		if len(played) != len(lg.acked)+lg.unacked {
			t.Errorf("game %d: %d moves, %d acknowledged and %d taken without an answer", lg.id, len(played), len(lg.acked), lg.unacked)
		}
		if lg.lastAck.After(after) || lg.g.Outcome() != mill.NoOutcome {
			progressed++
		}
	}
	if progressed < len(games) {
		t.Errorf("%d of %d games moved on after the fault", progressed, len(games))
	}
}

// TestKillOneOfThreeUnderLoad: three morris serve processes on one
// PostgreSQL, thirty games going, the players of each spread over two
// processes. One process is killed (SIGKILL) in the middle of the load: its
// players send to the next process, every acknowledged move is stored
// once at its ply, and every game goes on.
func TestKillOneOfThreeUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("three servers under load")
	}
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	args := []string{"-db", dsn, "-no-limits"}
	servers := []*serverProc{startServer(t, args...), startServer(t, args...), startServer(t, args...)}
	games := startLoad(t, servers, 30)
	stop := make(chan struct{})
	errs := load(t, servers, games, stop)
	time.Sleep(1500 * time.Millisecond)
	if err := servers[0].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-servers[0].done
	killed := time.Now()
	time.Sleep(2 * time.Second)
	close(stop)
	time.Sleep(200 * time.Millisecond)
	checkStored(t, servers[1], games, killed)
	if n := errs.Load(); n > 0 {
		t.Errorf("%d requests failed on live processes", n)
	}
	moves := 0
	for _, lg := range games {
		moves += len(lg.acked)
	}
	t.Logf("%d moves acknowledged in 3.5 s, a process killed after 1.5 s", moves)
}

// TestPostgresRestartUnderLoad: two morris serve processes on a PostgreSQL
// cluster of the test's own (initdb in a temporary folder, a free port),
// twenty games going; the cluster is stopped and started again in the
// middle. The servers need no restart: requests fail while the database is
// down and work again after, every acknowledged move is stored once, every
// game goes on, and a move made through one process reaches a stream on
// the other at once again (its listening connection made again), with the
// poll of the store set to an hour.
func TestPostgresRestartUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("a PostgreSQL cluster of its own, restarted under load")
	}
	if os.Getenv(storetest.Env) == "" {
		t.Skipf("%s is not set: PostgreSQL is not here", storetest.Env)
	}
	pg := startPrivatePostgres(t)
	args := []string{"-db", pg.dsn, "-no-limits", "-poll-every", "1h"}
	servers := []*serverProc{startServer(t, args...), startServer(t, args...)}
	games := startLoad(t, servers, 20)
	stop := make(chan struct{})
	errs := load(t, servers, games, stop)
	time.Sleep(time.Second)
	pg.ctl(t, "stop", "-m", "fast")
	down := time.Now()
	time.Sleep(time.Second)
	pg.ctl(t, "start", "-w", "-l", filepath.Join(pg.dir, "log"))
	t.Logf("PostgreSQL down for %v", time.Since(down).Round(time.Millisecond))
	back := time.Now()
	time.Sleep(3 * time.Second)
	close(stop)
	time.Sleep(200 * time.Millisecond)
	checkStored(t, servers[1], games, back)
	if n := errs.Load(); n > 0 {
		t.Errorf("%d requests failed other than by the database being down", n)
	}
	// The relay listens again: a stream on the second sees a move made on
	// the first within 2 s (the poll would take an hour).
	ctx := context.Background()
	ann, bob := servers[0].account(t, "ann"), servers[0].account(t, "bob")
	var c struct{ ID, Game int64 }
	if _, err := servers[0].call(ctx, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c); err != nil {
		t.Fatal(err)
	}
	if _, err := servers[0].call(ctx, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c); err != nil {
		t.Fatal(err)
	}
	lines := streamLines(t, servers[1], c.Game)
	time.Sleep(200 * time.Millisecond)
	sent := time.Now()
	if _, err := servers[0].call(ctx, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), ann, map[string]any{"move": "d6", "ply": 0}, nil); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case l := <-lines:
			if strings.Contains(l, `"type":"move"`) && strings.Contains(l, `"d6"`) {
				t.Logf("after the restart, a move on one process on the other's stream in %v", time.Since(sent).Round(time.Millisecond))
				return
			}
		case <-time.After(5 * time.Second):
			t.Fatal("after the restart, a move made on one process did not reach the other's stream within 5 s")
		}
	}
}

// streamLines opens a game's stream on s and sends its lines to the channel.
func streamLines(t *testing.T, s *serverProc, game int64) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://%s/api/game/%d/stream", s.addr, game), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan string, 100)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			select {
			case out <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// privatePostgres is a PostgreSQL cluster of a test's own.
type privatePostgres struct {
	bin, dir, dsn string
	port          int
}

// startPrivatePostgres makes a cluster with initdb in a temporary folder
// and starts it on a free port (as the postgres user when run as root, as
// initdb wants), and stops it when the test ends.
func startPrivatePostgres(t *testing.T) *privatePostgres {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		t.Skip("no initdb under /usr/lib/postgresql")
	}
	slices.Sort(bins)
	pg := &privatePostgres{bin: filepath.Dir(bins[len(bins)-1])}
	dir, err := os.MkdirTemp("", "morris-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	pg.dir = filepath.Join(dir, "data")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pg.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	if os.Getuid() == 0 {
		if err := exec.Command("chown", "postgres", dir).Run(); err != nil {
			t.Skipf("chown postgres: %v", err)
		}
	}
	if out, err := pg.command("initdb", "-D", pg.dir, "-U", "morris", "--auth=trust", "-E", "UTF8").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	conf := fmt.Sprintf("port = %d\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '%s'\nfsync = on\n", pg.port, dir)
	f, err := os.OpenFile(filepath.Join(pg.dir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(conf)
	f.Close()
	pg.ctl(t, "start", "-w", "-l", filepath.Join(pg.dir, "log"))
	t.Cleanup(func() { pg.command("pg_ctl", "stop", "-D", pg.dir, "-m", "immediate").Run() })
	pg.dsn = "postgres://morris@127.0.0.1:" + strconv.Itoa(pg.port) + "/postgres?sslmode=disable"
	return pg
}

func (pg *privatePostgres) command(name string, args ...string) *exec.Cmd {
	path := filepath.Join(pg.bin, name)
	if os.Getuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

// ctl runs pg_ctl ACTION on the cluster.
func (pg *privatePostgres) ctl(t *testing.T, action string, args ...string) {
	t.Helper()
	out, err := pg.command("pg_ctl", append([]string{action, "-D", pg.dir}, args...)...).CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		errors.As(err, &ee)
		t.Fatalf("pg_ctl %s: %v\n%s", action, err, out)
	}
}
