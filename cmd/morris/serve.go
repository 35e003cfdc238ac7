package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/builtin"
	"github.com/morrisgame/morris/internal/engine/uci"
	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/httpapi"
	"github.com/morrisgame/morris/internal/server/pbmserv"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/web"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// env returns the environment variable, or def when it is unset: every
// flag of serve has one (MORRIS_ADDR for -addr, ...), the flag winning.
func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func envBool(name string) bool {
	b, _ := strconv.ParseBool(os.Getenv(name))
	return b
}

func envFloat(name string, def float64) float64 {
	if v, ok := os.LookupEnv(name); ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	}
	return def
}

func envInt(name string, def int) int {
	if v, ok := os.LookupEnv(name); ok {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	if v, ok := os.LookupEnv(name); ok {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
	}
	return def
}

// parsePrefixes reads comma-separated addresses and CIDRs.
func parsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// fileReserve is the open files kept for what is not a stream: the
// database, the listeners, requests, the endgame databases.
const fileReserve = 512

// streamLimit returns the streams the server holds at once: asked (if not
// 0), else what the open-file limit allows beside fileReserve. It says at
// start what the limit is, and warns when it is too low for what was asked.
func streamLimit(asked int, log *slog.Logger) int {
	soft, hard, ok := openFileLimit()
	if !ok {
		log.Info("open files: the limit is not known here", "max streams", asked)
		return asked
	}
	allowed := int(max(64, int64(min(soft, 1<<30))-fileReserve))
	if asked == 0 {
		log.Info("open files", "limit", soft, "hard limit", hard, "max streams", allowed)
		return allowed
	}
	if asked > allowed {
		log.Warn("open files: the limit is too low for the streams asked: raise it (ulimit -n, systemd LimitNOFILE=) or some streams will fail",
			"limit", soft, "hard limit", hard, "streams asked", asked, "streams the limit allows", allowed)
	} else {
		log.Info("open files", "limit", soft, "hard limit", hard, "max streams", asked)
	}
	return asked
}

const serveSynopsis = `[-addr HOST:PORT] [-pbm-addr HOST:PORT] [-data DIR | -db postgres://...] [-tablebases DIR]
       [-engine-hash MB] [-engine-workers N] [-rate N] [-trusted-proxies LIST] [-max-streams N] [quotas...]

Runs the game server until an interrupt or SIGTERM: the HTTP API, streams and
WebSocket, the web client and the pbmserv text commands (README: The server;
docs/api.md, docs/deploy.md, docs/security.md). Every flag has an environment
variable, named beside it (MORRIS_ADDR for -addr); the flag wins.

Flags:`

// cmdServe runs the game server until an interrupt or SIGTERM.
func cmdServe(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	f, err := parseServeFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := f.validate(); err != nil {
		return err
	}
	return serve(ctx, f.config, f.logger(stderr), stdout)
}

// serveFlags are serve's flags: most of them the serveConfig itself, the
// others read by validate into it.
type serveFlags struct {
	config   serveConfig
	proxies  string                      // config.trusted
	quotas   func() (quotaConfig, error) // config.quotas
	logLevel string
	level    slog.Level // set by validate
	logJSON  bool
}

func parseServeFlags(args []string, stderr io.Writer) (*serveFlags, error) {
	f := &serveFlags{}
	c := &f.config
	fs := newFlags("serve", serveSynopsis, stderr)
	fs.StringVar(&c.addr, "addr", env("MORRIS_ADDR", "localhost:8080"), "HTTP address: the API, streams, WebSocket, POST /pbm, /healthz, /metrics (MORRIS_ADDR)")
	fs.StringVar(&c.pbmAddr, "pbm-addr", env("MORRIS_PBM_ADDR", "localhost:7070"), "pbmserv text port, one command a line; empty for none (MORRIS_PBM_ADDR)")
	fs.StringVar(&c.data, "data", env("MORRIS_DATA", "morris-data"), "data folder: the SQLite database (MORRIS_DATA)")
	fs.StringVar(&c.db, "db", env("MORRIS_DB", ""), "a postgres:// URL to use PostgreSQL instead of SQLite in the data folder (MORRIS_DB)")
	fs.DurationVar(&c.lease, "engine-lease", envDuration("MORRIS_ENGINE_LEASE", 30*time.Second), "how long an engine move taken by a process stays its own: with several processes on one PostgreSQL, another takes it after that if the process died (MORRIS_ENGINE_LEASE)")
	fs.IntVar(&c.workers, "engine-workers", envInt("MORRIS_ENGINE_WORKERS", 0), "engine searches at once (default: processors - 1, at least 1) (MORRIS_ENGINE_WORKERS)")
	fs.IntVar(&c.hashMB, "engine-hash", envInt("MORRIS_ENGINE_HASH", 64), "transposition table of each engine search, in MiB: morris engine's -hash; the engine takes (engine workers + 1) of them (MORRIS_ENGINE_HASH)")
	fs.StringVar(&c.tablebases, "tablebases", env("MORRIS_TABLEBASES", ""), "endgame databases for the engine's moves and the analyses, asked before the built-in ones (nine men's morris up to 10 pieces and its first 11 plies, six and seven men's morris whole, the small endgames of the other presets with databases): a directory made by morris solve, or a compact file made by morris solve -compact (with its distances, if written beside it); \"none\" for none at all (MORRIS_TABLEBASES)")
	fs.Float64Var(&c.rate, "rate", envFloat("MORRIS_RATE", server.DefaultRates.Command), "commands a second per user or address, bursts of 2.5 times that (MORRIS_RATE)")
	fs.DurationVar(&c.poll, "poll-every", envDuration("MORRIS_POLL_EVERY", 2*time.Second), "with PostgreSQL: how often a stream also looks in the store for changes made through other processes, which reach it at once through the database's notifications; the poll heals one lost while a connection was down (MORRIS_POLL_EVERY)")
	fs.StringVar(&f.proxies, "trusted-proxies", env("MORRIS_TRUSTED_PROXIES", ""), "reverse proxies in front of the server, comma-separated addresses or CIDRs (127.0.0.1,10.0.0.0/8): for their requests the client's address, which the limits by address count, is read from X-Forwarded-For (MORRIS_TRUSTED_PROXIES)")
	fs.BoolVar(&c.bench, "no-limits", false, "lift the rate limits of sign-ups, sign-ins and commands and the quotas of streams, engine games and challenges: for load tests (bench-server -url) only")
	fs.IntVar(&c.maxStreams, "max-streams", envInt("MORRIS_MAX_STREAMS", 0), "streams (game and account streams, WebSockets) held at once; one more is refused with 503; default: what the open-file limit allows, less 512 for the rest (MORRIS_MAX_STREAMS)")
	fs.StringVar(&c.debugAddr, "debug-addr", env("MORRIS_DEBUG_ADDR", ""), "address of Go's profiler (net/http/pprof under /debug/pprof/), to find where a server spends its time; empty for none; keep it private, never behind the proxy (MORRIS_DEBUG_ADDR)")
	fs.StringVar(&f.logLevel, "log-level", env("MORRIS_LOG_LEVEL", "info"), "debug, info, warn or error (MORRIS_LOG_LEVEL)")
	fs.BoolVar(&f.logJSON, "log-json", envBool("MORRIS_LOG_JSON"), "log JSON lines instead of text (MORRIS_LOG_JSON=true)")
	f.quotas = quotaFlags(fs) // quotas.go
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	return f, nil
}

// validate checks the flags and reads the quotas, the log level and the
// trusted proxies.
func (f *serveFlags) validate() error {
	c := &f.config
	quotas, err := f.quotas()
	if err != nil {
		return badInput("%v", err)
	}
	c.quotas = quotas
	if err := f.level.UnmarshalText([]byte(f.logLevel)); err != nil {
		return badInput("-log-level: %v", err)
	}
	if c.rate <= 0 {
		return badInput("-rate must be positive")
	}
	if c.trusted, err = parsePrefixes(f.proxies); err != nil {
		return badInput("-trusted-proxies: %v", err)
	}
	switch {
	case c.maxStreams < 0:
		return badInput("-max-streams %d: want 0 (from the open-file limit) or more", c.maxStreams)
	case c.lease < time.Second:
		return badInput("-engine-lease %v: want at least 1s", c.lease)
	case c.poll < 10*time.Millisecond:
		return badInput("-poll-every %v: want at least 10ms", c.poll)
	case c.hashMB < 1 || c.hashMB > uci.MaxHash:
		return badInput("-engine-hash %d: want 1..%d MiB", c.hashMB, uci.MaxHash)
	}
	return nil
}

// logger is the server's log on stderr, at the level of -log-level, text
// or JSON lines.
func (f *serveFlags) logger(stderr io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: f.level}
	if f.logJSON {
		return slog.New(slog.NewJSONHandler(stderr, opts))
	}
	return slog.New(slog.NewTextHandler(stderr, opts))
}

type serveConfig struct {
	addr, pbmAddr, data, db string
	workers                 int
	hashMB                  int            // the table of each engine search (0: the service's default)
	tablebases              string         // the endgame databases' directory, or ""
	rate                    float64        // commands a second per user or address
	poll                    time.Duration  // server.Config.PollEvery (0: its default)
	lease                   time.Duration  // server.Config.EngineLease (0: its default)
	maxStreams              int            // streams held at once (0: from the open-file limit)
	trusted                 []netip.Prefix // reverse proxies whose X-Forwarded-For is believed
	debugAddr               string         // the profiler's address, or ""
	// bench lifts the rate limits, for bench-server's own server: its
	// users come from one address and play many games each.
	bench bool
	// quotas are the quotas' flags (quotas.go; zero: the service's defaults).
	quotas quotaConfig
}

// serve runs the server c until ctx ends, then shuts it down.
func serve(ctx context.Context, c serveConfig, log *slog.Logger, stdout io.Writer) error {
	// The databases first: a bad directory stops the start before anything
	// is opened or listened on.
	tb, err := openServerTablebases(c.tablebases, log)
	if err != nil {
		return err
	}
	if tb != nil {
		defer tb.Close()
	}
	st, where, err := c.openStore(ctx, log)
	if err != nil {
		return err
	}
	defer st.Close()

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	svc, err := server.New(c.service(st, tb, log, reg))
	if err != nil {
		return err
	}
	if err := svc.Start(ctx); err != nil {
		return err
	}
	defer svc.Close()
	if n, err := svc.AddBuiltinPuzzles(ctx); err != nil {
		log.Error("the built-in puzzles", "err", err) // the server plays on without them
	} else if n > 0 {
		log.Info("a new store: the built-in puzzles added", "puzzles", n)
	}
	gw := pbmserv.New(svc, log)

	var ready atomic.Bool
	maxStreams := streamLimit(c.maxStreams, log)
	h := httpapi.New(httpapi.Config{
		MaxStreams: maxStreams, TrustedProxies: c.trusted,
		Service: svc, Logger: log, PBM: gw.HTTPHandler(), Registerer: reg, Ready: ready.Load,
		Metrics: promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}),
		Web:     web.Handler(),
	})
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	srv := httpServer(h, log)
	srv.RegisterOnShutdown(svc.CloseStreams)
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()

	stopProfiler, err := startProfiler(c.debugAddr, log)
	if err != nil {
		srv.Close()
		return err
	}
	defer stopProfiler()
	// The pbmserv port outlives ctx until the HTTP server is shut down.
	pctx, stopPBM := context.WithCancel(context.WithoutCancel(ctx))
	defer stopPBM()
	pbmWhere, pbmDone, err := startPBM(pctx, gw, c.pbmAddr)
	if err != nil {
		srv.Close()
		return err
	}
	ready.Store(true)
	log.Info("serving", "http", ln.Addr().String(), "pbm", pbmWhere)
	fmt.Fprintf(stdout, "morris serve: http://%s/ (API under /api/), pbmserv commands on %s, store %s\n", ln.Addr(), pbmWhere, where)

	var serveErr error
	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case serveErr = <-errc:
	}
	ready.Store(false)
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("HTTP shutdown", "err", err)
	}
	stopPBM()
	<-pbmDone
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	log.Info("stopped")
	return nil
}

// openStore opens the store of c: PostgreSQL at -db, or SQLite in the
// data folder. where is its place for the logs, without a password
// (neither postgres://user:pw@ nor ?password=).
func (c serveConfig) openStore(ctx context.Context, log *slog.Logger) (st *store.Store, where string, err error) {
	dsn := c.db
	if dsn == "" {
		dsn = filepath.Join(c.data, "morris.db")
	}
	where = store.RedactDSN(dsn)
	if st, err = store.Open(ctx, dsn, store.WithLogger(log)); err != nil {
		return nil, "", err
	}
	log.Info("store open", "backend", st.Backend(), "at", where)
	return st, where, nil
}

// startProfiler serves Go's profiler on addr ("" for none) and returns
// the call that stops it.
func startProfiler(addr string, log *slog.Logger) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: debugHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("profiler", "http", ln.Addr().String()+"/debug/pprof/")
	return func() { srv.Close() }, nil
}

// startPBM serves the pbmserv commands of gw on addr ("" for none) until
// ctx ends, and returns the address it listens on ("off" for none) and
// the channel of its end.
func startPBM(ctx context.Context, gw *pbmserv.Gateway, addr string) (where string, done <-chan error, err error) {
	end := make(chan error, 1)
	if addr == "" {
		end <- nil
		return "off", end, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	go func() { end <- gw.Serve(ctx, ln) }()
	return ln.Addr().String(), end, nil
}

// openServerTablebases opens the endgame databases in dir for the server,
// asked before the built-in ones (package egdb/builtin); "none" for no
// databases at all. Checksums of a directory's files are checked in the
// background: a large build (18 GB) would hold the start for a minute;
// each sector serves once its file has checked out. A compact file's
// blocks are checked as they are first read.
func openServerTablebases(dir string, log *slog.Logger) (egdb.Perfect, error) {
	if dir == noTablebases {
		log.Info("no endgame databases, not even the built-in ones (-tablebases none)")
		return nil, nil
	}
	db, err := openPerfect(dir)
	if err != nil {
		return nil, badInput("-tablebases %s: %v", dir, err)
	}
	switch db := db.(type) {
	case *egdb.Compact:
		log.Info("compact endgame file open", "file", dir, "rules", db.Rules().String(), "sectors", len(db.Keys()))
	case *egdb.DB:
		log.Info("endgame databases open", "dir", dir, "rules", db.Rules().String(), "sectors", len(db.Keys()))
		go func() {
			if err := db.Wait(); err != nil {
				log.Error("endgame databases: a damaged file is not used", "err", err)
				return
			}
			log.Info("endgame databases checked", "dir", dir)
		}()
	}
	for _, f := range builtin.Files() {
		log.Info("built-in databases", "file", f.Name, "variant", f.Variant, "covers", builtin.What[f.Name], "bytes", f.Bytes)
	}
	return builtin.Shelf(db), nil
}

// service is the configuration of the game service of c, on st, with the
// databases tb (or nil) and the metrics in reg.
func (c serveConfig) service(st *store.Store, tb egdb.Perfect, log *slog.Logger, reg prometheus.Registerer) server.Config {
	cfg := server.Config{Store: st, Logger: log, Metrics: server.NewMetrics(reg), EngineWorkers: c.workers, EngineHashMB: c.hashMB, Tablebase: tb, PollEvery: c.poll, EngineLease: c.lease}
	if c.rate > 0 {
		cfg.Rates = server.DefaultRates
		cfg.Rates.Command, cfg.Rates.CommandBurst = c.rate, 2.5*c.rate
	}
	c.quotas.apply(&cfg)
	if c.bench {
		cfg.Rates = server.NoRates
		// Its users come from one address, with a stream a game.
		cfg.Quotas.ConnsPerAddr, cfg.Quotas.EngineGames, cfg.Quotas.OpenChallenges = -1, -1, -1
	}
	return cfg
}

// httpServer is the HTTP server of h, with its timeouts.
func httpServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second, // streams lift it for themselves
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// debugHandler serves Go's profiler (net/http/pprof) on its own mux, so
// that nothing of it is reachable through the API's address.
func debugHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
