// Package servertest starts the game service for the tests of the packages
// around it (the gateways, the web client, the commands): a store (SQLite
// in a temporary folder, or a database of storetest's), a service on it
// with settings for tests, a gateway over a real socket (httptest) when the
// test asks for one, and a log the test can read. Everything is closed when
// the test ends, the streams first so that the HTTP server can shut down.
//
// The tests of internal/server itself cannot import it (it imports the
// service) and start theirs in service_test.go.
package servertest

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/auth"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
)

// Rates are the service's rate limits in tests: games played by tests are
// faster than people, and only the tests of the limits meet one (they give
// their own rates).
var Rates = server.Rates{Login: 1000, LoginBurst: 1000, Signup: 1000, SignupBurst: 1000, Command: 1e6, CommandBurst: 1e6}

// A Server is a started service and what it runs on.
type Server struct {
	Service *server.Service
	Store   *store.Store
	DSN     string         // the store's: a path for SQLite
	Log     *storetest.Log // what was logged, at LogLevel and above
	Logger  *slog.Logger   // the service's, writing to Log: for a gateway's
	// HTTP is the gateway over a socket on loopback, and URL its address;
	// nil and "" unless the test asked for one (HTTP).
	HTTP *httptest.Server
	URL  string
}

// An Option changes how Start starts a server.
type Option func(*options)

type options struct {
	dsn     string
	handler func(*Server) http.Handler
	level   slog.Level
}

// DSN puts the store in the database dsn (storetest.DSN's) instead of a
// new SQLite file in a temporary folder.
func DSN(dsn string) Option { return func(o *options) { o.dsn = dsn } }

// HTTP serves the handler that h returns (given the started server) over
// a real socket: Server.HTTP and Server.URL.
func HTTP(h func(*Server) http.Handler) Option { return func(o *options) { o.handler = h } }

// LogLevel is the least level logged (slog.LevelWarn by default).
func LogLevel(l slog.Level) Option { return func(o *options) { o.level = l } }

// Start opens a store, starts a service on it with cfg, and (with HTTP) a
// gateway in front of it; everything is closed when the test ends. Of cfg,
// Store is set, and where they are zero Hash is auth.Test (fast hashes),
// Rates are Rates and Logger writes to Server.Log.
func Start(tb testing.TB, cfg server.Config, opts ...Option) *Server {
	tb.Helper()
	o := options{level: slog.LevelWarn}
	for _, opt := range opts {
		opt(&o)
	}
	if o.dsn == "" {
		o.dsn = filepath.Join(tb.TempDir(), "morris.db")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, o.dsn)
	if err != nil {
		tb.Fatal(err)
	}
	s := &Server{Store: st, DSN: o.dsn, Log: &storetest.Log{}}
	s.Logger = slog.New(slog.NewTextHandler(s.Log, &slog.HandlerOptions{Level: o.level}))
	cfg.Store = st
	if cfg.Hash == (auth.Params{}) {
		cfg.Hash = auth.Test
	}
	if cfg.Rates == (server.Rates{}) {
		cfg.Rates = Rates
	}
	if cfg.Logger == nil {
		cfg.Logger = s.Logger
	}
	svc, err := server.New(cfg)
	if err != nil {
		st.Close()
		tb.Fatal(err)
	}
	s.Service = svc
	if err := svc.Start(ctx); err != nil {
		svc.Close()
		st.Close()
		tb.Fatal(err)
	}
	if o.handler != nil {
		s.HTTP = httptest.NewServer(o.handler(s))
		s.URL = s.HTTP.URL
	}
	tb.Cleanup(func() {
		svc.CloseStreams()
		if s.HTTP != nil {
			s.HTTP.Close()
		}
		svc.Close()
		st.Close()
	})
	return s
}
