package server

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the service's Prometheus measurements. A nil *Metrics
// measures nothing.
type Metrics struct {
	movesTotal   prometheus.Counter
	movesRefused prometheus.Counter
	moveSeconds  prometheus.Histogram
	gamesStarted prometheus.Counter
	gamesEnded   prometheus.Counter
	gamesActive  prometheus.Gauge
	streams      prometheus.Gauge
	engineQueue  prometheus.Gauge
	tbHits       prometheus.Counter
	reminders    prometheus.Counter
	relay        *prometheus.CounterVec // events relayed between processes: sent, heard, dropped, followed
	loads        prometheus.Counter
	refused      *prometheus.CounterVec // calls refused by a limit, by the limit's name
}

// NewMetrics registers the service's metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		movesTotal:   prometheus.NewCounter(prometheus.CounterOpts{Name: "morris_moves_total", Help: "Moves played and stored."}),
		movesRefused: prometheus.NewCounter(prometheus.CounterOpts{Name: "morris_moves_refused_total", Help: "Moves refused (illegal, not your turn, wrong ply, ...)."}),
		moveSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "morris_move_seconds", Help: "Time to check, store and announce a player's move, waiting for the game included.",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1}}),
		gamesStarted: prometheus.NewCounter(prometheus.CounterOpts{Name: "morris_games_started_total", Help: "Games started."}),
		gamesEnded:   prometheus.NewCounter(prometheus.CounterOpts{Name: "morris_games_finished_total", Help: "Games finished."}),
		gamesActive:  prometheus.NewGauge(prometheus.GaugeOpts{Name: "morris_games_active", Help: "Games going on (as this process last counted them: at start and at each start and end it sees)."}),
		streams:      prometheus.NewGauge(prometheus.GaugeOpts{Name: "morris_streams", Help: "Open game and account streams (NDJSON and WebSocket)."}),
		engineQueue:  prometheus.NewGauge(prometheus.GaugeOpts{Name: "morris_engine_queue", Help: "Games waiting for the engine's move (free jobs in the store, as this process last looked)."}),
		tbHits:       prometheus.NewCounter(prometheus.CounterOpts{Name: "morris_tablebase_hits_total", Help: "Positions the engine's searches (moves and analyses) found in the endgame databases."}),
		reminders:    prometheus.NewCounter(prometheus.CounterOpts{Name: "morris_reminders_total", Help: "Correspondence reminders sent."}),
		relay: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "morris_relay_events_total",
			Help: "Events relayed between the server processes sharing a PostgreSQL database (relay.go): sent to the others, heard from them, dropped (a full queue or a failed notification; the poll heals them), followed (moves made elsewhere played on this process's copy of the game)."}, []string{"what"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "morris_limited_total",
			Help: "Calls refused by a rate limit or quota (docs/security.md), by limit; argon2-busy: a sign-in that found no free hashing slot."}, []string{"limit"}),
		loads: prometheus.NewCounter(prometheus.CounterOpts{Name: "morris_game_loads_total", Help: "Games read from the store and replayed into this process's copy (first use, or a copy found stale)."}),
	}
	reg.MustRegister(m.movesTotal, m.movesRefused, m.moveSeconds, m.gamesStarted, m.gamesEnded, m.gamesActive, m.streams, m.engineQueue, m.tbHits, m.reminders, m.relay, m.loads, m.refused)
	return m
}

// moved counts a stored move, whoever played it (a player, the engine, a
// queued move).
func (m *Metrics) moved() {
	if m != nil {
		m.movesTotal.Inc()
	}
}

// moveLatency times a player's move request, waiting for the game included.
func (m *Metrics) moveLatency(d time.Duration) {
	if m != nil {
		m.moveSeconds.Observe(d.Seconds())
	}
}

// tablebaseHits counts the probes of a search that hit the databases.
func (m *Metrics) tablebaseHits(n uint64) {
	if m != nil && n > 0 {
		m.tbHits.Add(float64(n))
	}
}

// limited counts a call refused by the limit named.
func (m *Metrics) limited(limit string) {
	if m != nil {
		m.refused.WithLabelValues(limit).Inc()
	}
}

func (m *Metrics) hashBusy() { m.limited("argon2-busy") }

func (m *Metrics) moveRefused() {
	if m != nil {
		m.movesRefused.Inc()
	}
}

func (m *Metrics) gameStarted() {
	if m != nil {
		m.gamesStarted.Inc()
		m.gamesActive.Inc()
	}
}

func (m *Metrics) gameEnded() {
	if m != nil {
		m.gamesEnded.Inc()
		m.gamesActive.Dec()
	}
}

func (m *Metrics) activeGames(n int) {
	if m != nil {
		m.gamesActive.Set(float64(n))
	}
}

func (m *Metrics) streamOpened() {
	if m != nil {
		m.streams.Inc()
	}
}

func (m *Metrics) streamClosed() {
	if m != nil {
		m.streams.Dec()
	}
}

// engineWaiting sets the games waiting for the engine's move (the free jobs
// in the store, as this process last looked).
func (m *Metrics) engineWaiting(n int) {
	if m != nil {
		m.engineQueue.Set(float64(n))
	}
}

func (m *Metrics) reminded() {
	if m != nil {
		m.reminders.Inc()
	}
}

func (m *Metrics) relaySent(n int) {
	if m != nil {
		m.relay.WithLabelValues("sent").Add(float64(n))
	}
}

func (m *Metrics) relayHeard() {
	if m != nil {
		m.relay.WithLabelValues("heard").Inc()
	}
}

func (m *Metrics) relayDropped() {
	if m != nil {
		m.relay.WithLabelValues("dropped").Inc()
	}
}

func (m *Metrics) followed() {
	if m != nil {
		m.relay.WithLabelValues("followed").Inc()
	}
}

func (m *Metrics) loaded() {
	if m != nil {
		m.loads.Inc()
	}
}
