package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/server/loadgen"
)

const benchSynopsis = `[-url URL,...] [-db postgres://...] [-limits] [-games N] [-users N] [-rate N]
       [-duration D] [-warmup D] [-streams=false] [-variant V] [-seed N] [-cpuprofile FILE]

Plays N concurrent games over the HTTP API, pairs of users making random
moves, each move sent with its ply (stored durably before it is answered),
and prints the moves a second and the latency percentiles of the move
requests; with a stream a game, also the time from a move sent to its event
on the stream, and the servers' memory. Without -url it starts a server in
this process on loopback, on SQLite in a temporary folder or on -db. -url
takes several servers sharing a database: a game's white player sends to
one, its black player to the next, and its stream is open on black's.

Flags:`

// cmdBenchServer is the load generator (package loadgen) on the command
// line: against the servers of -url, or a server it starts in this
// process.
func cmdBenchServer(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	c, err := parseBenchFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	return c.run(ctx, stdout, stderr)
}

// benchConfig is what bench-server's flags say.
type benchConfig struct {
	load       loadgen.Config // without Bases when a server is started here
	db         string         // the database of the server started here ("": SQLite)
	limits     bool           // the server started here has its limits
	cpuprofile string         // the file of the CPU profile, or ""
}

func parseBenchFlags(args []string, stderr io.Writer) (benchConfig, error) {
	fs := newFlags("bench-server", benchSynopsis, stderr)
	var c benchConfig
	url := fs.String("url", "", "running servers (http://host:port), comma-separated when several share a database; empty to start one in this process")
	fs.BoolVar(&c.load.Streams, "streams", true, "open a game stream for every game and measure when each move reaches it")
	fs.StringVar(&c.db, "db", "", "with no -url: a postgres:// URL for the server started here (default SQLite in a temporary folder)")
	fs.IntVar(&c.load.Games, "games", 1000, "concurrent games")
	fs.IntVar(&c.load.Users, "users", 200, "players (each plays games/users*2 games at once)")
	fs.DurationVar(&c.load.Duration, "duration", 20*time.Second, "how long to measure")
	fs.DurationVar(&c.load.Warmup, "warmup", 5*time.Second, "moves before this are not measured (the games are made meanwhile)")
	fs.StringVar(&c.load.Variant, "variant", "nine-mens-morris", "the preset played")
	fs.Uint64Var(&c.load.Seed, "seed", 1, "the seed of the moves chosen")
	fs.Float64Var(&c.load.Rate, "rate", 2000, "moves a second offered in all, spread evenly over the games; 0 for as fast as the server answers")
	fs.BoolVar(&c.limits, "limits", false, "with no -url: run the server with its default rate limits and quotas (as morris serve does) instead of none, every user calling from an address of its own on 127.2.0.0/16, as a club's members do; refusals are counted apart")
	fs.StringVar(&c.cpuprofile, "cpuprofile", "", "write a CPU profile of the measured span of this process (the server too, without -url) to this file")
	if err := parseFlags(fs, args); err != nil {
		return c, err
	}
	for _, u := range strings.Split(*url, ",") {
		if u = strings.TrimRight(strings.TrimSpace(u), "/"); u != "" {
			c.load.Bases = append(c.load.Bases, u)
		}
	}
	c.load.OwnAddrs = c.limits
	return c, nil
}

// validate checks the flags before anything is started.
func (c benchConfig) validate() error {
	here := len(c.load.Bases) == 0
	switch {
	case c.limits && !here:
		return badInput("-limits is for the server started here: run the servers of -url without -no-limits instead")
	case c.db != "" && !here:
		return badInput("-db is for the server started here: the servers of -url have their own database")
	}
	load := c.load
	if here {
		load.Bases = []string{"http://127.0.0.1"} // the server started here, on loopback
	}
	if err := load.Validate(); err != nil {
		return usageError{err}
	}
	return nil
}

// run starts a server if there is no -url, generates the load and prints
// what it measured.
func (c benchConfig) run(ctx context.Context, stdout, stderr io.Writer) error {
	load := c.load
	if len(load.Bases) == 0 {
		base, stop, err := startBenchServer(ctx, c.db, c.limits, stderr)
		if err != nil {
			return err
		}
		defer stop()
		load.Bases = []string{base}
	}
	if c.cpuprofile != "" {
		f, err := os.Create(c.cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		load.CPUProfile = f
	}
	if soft, _, ok := openFileLimit(); ok && load.Streams && soft < uint64(load.Connections()+256) {
		fmt.Fprintf(stderr, "bench-server: the open-file limit %d is low for %d games with their streams (%d connections): raise it (ulimit -n)\n", soft, load.Games, load.Connections())
	}
	fmt.Fprintf(stdout, "bench-server: %s\n", load)
	res, err := loadgen.Run(ctx, load)
	if err != nil {
		return err
	}
	_, err = res.WriteTo(stdout)
	return err
}

// startBenchServer starts a server in this process on loopback, on SQLite
// in a temporary folder or on db, with its limits or without, and returns
// its URL once it answers, and the call that stops it.
func startBenchServer(ctx context.Context, db string, limits bool, stderr io.Writer) (base string, stop func(), err error) {
	dir, err := os.MkdirTemp("", "morris-bench-")
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	// The server outlives an interrupt of the load until stop.
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var serveErr error
	done := make(chan struct{}) // closed when serve has returned serveErr
	go func() {
		defer close(done)
		serveErr = serve(sctx, serveConfig{addr: addr, data: filepath.Join(dir, "data"), db: db, bench: !limits},
			slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), io.Discard)
	}()
	stop = func() { cancel(); <-done; os.RemoveAll(dir) }
	base = "http://" + addr
	if err := waitHealthy(ctx, base, done, &serveErr); err != nil {
		stop()
		return "", nil, err
	}
	return base, stop, nil
}

// waitHealthy waits for the server at base to answer /healthz, unless it
// stops first (done closed, *serveErr set) or ctx ends.
func waitHealthy(ctx context.Context, base string, done <-chan struct{}, serveErr *error) error {
	for range 300 {
		select {
		case <-done:
			return fmt.Errorf("the server stopped: %v", *serveErr)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%s/healthz did not answer", base)
}
