package httpapi

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/clientaddr"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/prometheus/client_golang/prometheus"
)

// Config configures the handler.
type Config struct {
	Service *server.Service
	Logger  *slog.Logger
	// PBM answers POST /pbm (the pbmserv gateway's handler); nil: 404.
	PBM http.Handler
	// Metrics answers GET /metrics; nil: 404.
	Metrics http.Handler
	// Registerer receives the HTTP metrics (requests by route and status,
	// latency); nil: none.
	Registerer prometheus.Registerer
	// Ready reports whether the server is ready (GET /healthz); nil: always.
	Ready func() bool
	// Web serves everything else (the web client); nil: 404.
	Web http.Handler
	// TrustedProxies are the reverse proxies in front of the server: for
	// a request from one of them the client's address (for the limits by
	// address) is read from X-Forwarded-For. Empty: the peer's address.
	TrustedProxies []netip.Prefix
	// MaxStreams bounds the streams open at once (game and account
	// streams, WebSockets): one more is answered 503, clearly, instead of
	// failing for want of file descriptors. 0: no bound.
	MaxStreams int

	// socketHook, in tests, runs before each WebSocket command (to make
	// one panic as a bug would); nil outside tests.
	socketHook func(data []byte)
}

type api struct {
	svc   *server.Service
	log   *slog.Logger
	cfg   Config
	addrs clientaddr.Resolver
	// streams counts the streams open (MaxStreams).
	streams atomic.Int64
	// requests counts requests by route and status code; latency times them.
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// New returns the HTTP handler of the server: the JSON API under /api/,
// its streams, POST /pbm, /healthz and /metrics.
func New(cfg Config) http.Handler {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	a := &api{svc: cfg.Service, log: cfg.Logger, cfg: cfg, addrs: clientaddr.Resolver{Trusted: cfg.TrustedProxies}}
	if cfg.Registerer != nil {
		a.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "morris_http_requests_total", Help: "HTTP requests by route and status."}, []string{"route", "code"})
		a.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "morris_http_request_seconds", Help: "HTTP request latency by route (streams excluded).",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1, 2.5}}, []string{"route"})
		cfg.Registerer.MustRegister(a.requests, a.latency)
	}
	mux := http.NewServeMux()
	h := func(pattern string, fn func(w http.ResponseWriter, r *http.Request) error) {
		mux.Handle(pattern, a.wrap(fn))
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if cfg.Ready != nil && !cfg.Ready() {
			http.Error(w, "starting or stopping", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	if cfg.Metrics != nil {
		mux.Handle("GET /metrics", cfg.Metrics)
	}
	if cfg.PBM != nil {
		// The pbm gateway limits by the same client address as the API.
		mux.Handle("/pbm", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			cfg.PBM.ServeHTTP(w, r.WithContext(clientaddr.NewContext(r.Context(), a.remote(r))))
		}))
	}
	// Accounts.
	h("POST /api/account", a.signUp)
	h("GET /api/account", a.account)
	h("POST /api/account/vacation", a.vacation)
	h("POST /api/account/password", a.changePassword)
	h("POST /api/account/signout-all", a.signOutEverywhere)
	h("DELETE /api/account", a.deleteAccount)
	h("GET /api/account/pbm-challenges", a.pbmPrefs)
	h("POST /api/account/pbm-challenges", a.setPbmPrefs)
	h("POST /api/token", a.newToken)
	h("DELETE /api/token", a.revokeToken)
	h("GET /api/stream/event", a.accountStream)
	// Challenges and seeks.
	h("GET /api/challenge", a.challenges)
	h("POST /api/challenge/ai", a.challengeEngine)
	h("POST /api/challenge/{user}", a.challenge)
	h("POST /api/seek", a.seek)
	h("POST /api/challenge/{id}/accept", a.acceptChallenge)
	h("POST /api/challenge/{id}/decline", a.declineChallenge)
	h("POST /api/challenge/{id}/cancel", a.cancelChallenge)
	// Games.
	h("GET /api/games", a.games)
	h("GET /api/game/{id}", a.game)
	h("GET /api/game/{id}/export", a.export)
	h("POST /api/game/{id}/review", a.requestReview)
	h("GET /api/game/{id}/review", a.review)
	h("POST /api/review", a.requestRecordReview)
	h("GET /api/review/{id}", a.recordReview)
	h("GET /api/game/{id}/stream", a.gameStream)
	h("GET /api/game/{id}/ws", a.gameSocket)
	h("POST /api/game/{id}/move", a.move)
	h("POST /api/game/{id}/move/{move}", a.move)
	h("POST /api/game/{id}/resign", a.resign)
	h("POST /api/game/{id}/claim-victory", a.claimVictory)
	h("POST /api/game/{id}/draw/{answer}", a.offer)
	h("POST /api/game/{id}/takeback/{answer}", a.offer)
	h("POST /api/game/{id}/chat", a.chat)
	h("GET /api/game/{id}/chat", a.chatHistory)
	h("POST /api/game/{id}/follow", a.follow)
	h("DELETE /api/game/{id}/follow", a.unfollow)
	// People and ratings.
	h("GET /api/user/{name}", a.user)
	h("GET /api/user/{name}/games", a.userGames)
	h("GET /api/ratings/{variant}", a.standings)
	h("GET /api/variants", a.variants)
	// Clubs.
	h("POST /api/club", a.createClub)
	h("GET /api/clubs", a.clubs)
	h("GET /api/club/{id}", a.club)
	h("POST /api/club/{id}/join", a.joinClub)
	h("POST /api/club/{id}/leave", a.leaveClub)
	h("POST /api/club/{id}/accept", a.acceptClubRequest)
	h("POST /api/club/{id}/remove", a.removeClubMember)
	h("POST /api/club/{id}/leader", a.setClubLeader)
	h("POST /api/club/{id}/edit", a.editClub)
	// Tournaments.
	h("POST /api/tournament", a.createTournament)
	h("GET /api/tournaments", a.tournaments)
	h("GET /api/tournament/{id}", a.tournament)
	h("POST /api/tournament/{id}/join", a.joinTournament)
	h("POST /api/tournament/{id}/withdraw", a.withdrawTournament)
	h("POST /api/tournament/{id}/start", a.startTournament)
	h("POST /api/tournament/{id}/pair", a.pairTournament)
	h("POST /api/tournament/{id}/cancel", a.cancelTournament)
	h("POST /api/tournament/{id}/berserk", a.berserk)
	h("POST /api/tournament/{id}/bye", a.halfBye(true))
	h("POST /api/tournament/{id}/unbye", a.halfBye(false))
	h("GET /api/tournament/{id}/stream", a.tournamentStream)
	h("GET /api/tournament/{id}/records", a.tournamentRecords)
	h("GET /api/tournament/{id}/standings.csv", a.tournamentStandingsCSV)
	h("GET /api/tournament/{id}/standings.json", a.tournamentStandingsJSON)
	// Study and the web client's board.
	h("GET /api/boards", a.boards)
	h("POST /api/position", a.position)
	h("POST /api/position/mif", a.positionMIF)
	h("GET /api/explorer", a.explorer)
	h("GET /api/puzzle/daily", a.dailyPuzzle)
	h("GET /api/puzzle/next", a.nextPuzzle)
	h("GET /api/puzzle/{id}", a.puzzle)
	h("POST /api/puzzle/{id}/moves", a.puzzleMoves)
	h("POST /api/puzzle/{id}/solution", a.puzzleSolution)
	h("GET /api/user/{name}/puzzles", a.userPuzzles)
	h("POST /api/analysis", a.analysis)
	h("POST /api/records", a.readRecords)
	h("POST /api/guest", a.guest)
	// Reports, blocks, warnings and the moderators' endpoints.
	a.moderationRoutes(h)
	// Who is online, follows, leaderboards, the archive, players' statistics.
	a.communityRoutes(h)
	h("/api/", func(w http.ResponseWriter, r *http.Request) error {
		return httpError(http.StatusNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path)
	})
	if cfg.Web != nil {
		mux.Handle("/", cfg.Web)
	}
	return mux
}

// statusError is an error with an HTTP status of its own.
type statusError struct {
	code int
	msg  string
}

func (e *statusError) Error() string { return e.msg }

func httpError(code int, format string, args ...any) error {
	return &statusError{code: code, msg: fmt.Sprintf(format, args...)}
}

// wrap turns a handler that returns an error into an http.Handler that
// answers the error as JSON with its status, and measures the request.
func (a *api) wrap(fn func(w http.ResponseWriter, r *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		err := fn(sw, r)
		if err != nil {
			ans := a.failure(r, err, logAttrs(r)...)
			if !sw.wrote {
				if ans.code == http.StatusTooManyRequests || ans.code == http.StatusServiceUnavailable {
					sw.Header().Set("Retry-After", strconv.Itoa(server.RetryAfter(err)))
				}
				writeJSON(sw, ans.code, wire.Error{Error: ans.msg, Request: ans.request})
			}
		}
		route := r.Pattern
		if a.requests != nil {
			a.requests.WithLabelValues(route, strconv.Itoa(sw.code())).Inc()
			if !strings.HasSuffix(route, "/stream") && !strings.HasSuffix(route, "/ws") && !strings.HasSuffix(route, "/event") {
				a.latency.WithLabelValues(route).Observe(time.Since(start).Seconds())
			}
		}
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.status, w.wrote = http.StatusOK, true
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) code() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

// Unwrap lets http.ResponseController reach the connection (streams flush
// and lift the write deadline; WebSocket hijacks).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func writeJSON(w http.ResponseWriter, code int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	return json.NewEncoder(w).Encode(v)
}

// maxBody bounds every JSON body.
const maxBody = 16 << 10

// readJSON decodes a request body into v strictly: one JSON object, known
// fields only, at most maxBody bytes. An empty body leaves v as it is.
func readJSON(r *http.Request, v any) error {
	if r.Body == nil {
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return httpError(http.StatusBadRequest, "the body could not be read")
	}
	if len(body) > maxBody {
		return httpError(http.StatusRequestEntityTooLarge, "the body is larger than %d bytes", maxBody)
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return httpError(http.StatusBadRequest, "%s", jsonMessage("the body", err))
	}
	if dec.More() {
		return httpError(http.StatusBadRequest, "the body holds more than one JSON value")
	}
	return nil
}

// remote is the key of the client's address for the limits by address
// (internal/server/clientaddr: behind the trusted proxies, IPv6 by its /64).
func (a *api) remote(r *http.Request) string { return a.addrs.Key(r) }

func bearer(r *http.Request) string {
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		return strings.TrimSpace(h[len("Bearer "):])
	}
	return ""
}

// auth authenticates the request with its bearer token and spends one
// unit of the user's command rate. A token is never read from the URL: a
// URL is written to the logs of every proxy on the way (a WebSocket's
// browser, which cannot send headers, sends it in its first message).
func (a *api) auth(r *http.Request) (server.User, error) {
	return a.authToken(r, bearer(r))
}

// authToken authenticates a token of the request r, from its header or a
// message of its socket; a token that is not valid costs r's address.
func (a *api) authToken(r *http.Request, tok string) (server.User, error) {
	if tok == "" {
		return server.User{}, httpError(http.StatusUnauthorized, "this needs a token: Authorization: Bearer TOKEN (POST /api/token)")
	}
	u, err := a.svc.Authenticate(r.Context(), a.remote(r), tok)
	if err != nil {
		return server.User{}, err
	}
	if !a.svc.Allow("user:" + strconv.FormatInt(u.ID, 10)) {
		return server.User{}, httpError(http.StatusTooManyRequests, "too many requests: slow down")
	}
	return u, nil
}

// anonymous spends one unit of the caller's address's command rate.
func (a *api) anonymous(r *http.Request) error {
	if !a.svc.Allow("addr:" + a.remote(r)) {
		return httpError(http.StatusTooManyRequests, "too many requests: slow down")
	}
	return nil
}

func pathID(r *http.Request, name string) (int64, error) {
	s := r.PathValue(name)
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, httpError(http.StatusBadRequest, "%q is not an id: a number from 1 up", s)
	}
	return id, nil
}
