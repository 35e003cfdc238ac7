package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Tournaments: POST /api/tournament (create), GET /api/tournaments (list),
// GET /api/tournament/{id} (the event, its field, rounds and standings),
// POST /api/tournament/{id}/join, withdraw, bye, unbye, start, pair, cancel and berserk, the
// stream GET /api/tournament/{id}/stream (NDJSON), and the exports
// GET /api/tournament/{id}/records, standings.csv and standings.json.
// Reading needs no token; every change needs one, and the service says
// who may make it (internal/server/tournaments.go).

// tournamentBody is the body of POST /api/tournament.
type tournamentBody struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Variant string `json:"variant"`
	Rated   bool   `json:"rated"`
	Clock   *struct {
		InitialMs   int64 `json:"initialMs"`
		IncrementMs int64 `json:"incrementMs"`
	} `json:"clock"`
	Days           int      `json:"days"`
	Rounds         int      `json:"rounds"`
	Cycles         int      `json:"cycles"`
	DurationMs     int64    `json:"durationMs"`
	StartsMs       int64    `json:"startsMs"`
	Club           int64    `json:"club"`
	MinRating      int      `json:"minRating"`
	MaxRating      int      `json:"maxRating"`
	MaxPlayers     int      `json:"maxPlayers"`
	LateEntryUntil int      `json:"lateEntryUntil"`
	ManualPairing  bool     `json:"manualPairing"`
	EngineLevel    int      `json:"engineLevel"`
	Rules          []string `json:"rules"`
}

func (b tournamentBody) spec() (server.TournamentSpec, error) {
	if len(b.Rules) > 0 {
		return server.TournamentSpec{}, httpError(http.StatusBadRequest, "a tournament is played under a preset's own rules: no rules options")
	}
	gb := gameBody{Variant: b.Variant, Rated: b.Rated, Clock: b.Clock, Days: b.Days}
	gs, err := gb.spec()
	if err != nil {
		return server.TournamentSpec{}, err
	}
	if b.DurationMs < 0 || b.DurationMs > int64(30*24*time.Hour/time.Millisecond) {
		return server.TournamentSpec{}, httpError(http.StatusBadRequest, "durationMs is an arena's duration: 5 minutes to 12 hours")
	}
	if b.StartsMs < 0 {
		return server.TournamentSpec{}, httpError(http.StatusBadRequest, "startsMs is a time: Unix milliseconds")
	}
	sp := server.TournamentSpec{Name: b.Name, Kind: b.Kind, Variant: gs.Variant, Rated: b.Rated, Control: gs.Control,
		Rounds: b.Rounds, Cycles: b.Cycles, Duration: time.Duration(b.DurationMs) * time.Millisecond, Club: b.Club,
		MinRating: b.MinRating, MaxRating: b.MaxRating, MaxPlayers: b.MaxPlayers, LateEntryUntil: b.LateEntryUntil,
		ManualPairing: b.ManualPairing, EngineLevel: b.EngineLevel}
	if b.StartsMs > 0 {
		sp.StartsAt = time.UnixMilli(b.StartsMs)
	}
	return sp, nil
}

// createTournament: POST /api/tournament, 201 and the event.
func (a *api) createTournament(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b tournamentBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Name == "" || b.Kind == "" {
		return httpError(http.StatusBadRequest, "a tournament needs a name and a kind: {\"name\": NAME, \"kind\": \"roundrobin\", \"swiss\", \"arena\" or \"correspondence\", ...}")
	}
	sp, err := b.spec()
	if err != nil {
		return err
	}
	t, err := a.svc.CreateTournament(r.Context(), u, sp)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, t)
}

// tournaments: GET /api/tournaments?status=S&club=ID&variant=V&before=ID&limit=N,
// the events newest first, N of them (1 to 100, 50 by default) with ids
// below ID.
func (a *api) tournaments(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	q := r.URL.Query()
	tq := server.TournamentsQuery{Status: q.Get("status"), Variant: q.Get("variant")}
	for _, p := range []struct {
		name string
		dst  *int64
	}{{"before", &tq.Before}, {"club", &tq.Club}} {
		if s := q.Get(p.name); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 1 {
				return httpError(http.StatusBadRequest, "%s %q is not an id: a number from 1 up", p.name, s)
			}
			*p.dst = n
		}
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > server.MaxTournamentPage {
			return httpError(http.StatusBadRequest, "limit is 1 to %d, not %q", server.MaxTournamentPage, s)
		}
		tq.Limit = n
	}
	list, err := a.svc.Tournaments(r.Context(), tq)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, list)
}

// tournament: GET /api/tournament/{id}.
func (a *api) tournament(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	t, err := a.svc.Tournament(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, t)
}

// tournamentAction authenticates, reads the event's id and answers fn's
// value; the call takes no body.
func tournamentAction[T any](a *api, w http.ResponseWriter, r *http.Request, fn func(u server.User, id int64) (T, error)) error {
	return tournamentActionWith(a, w, r, func(u server.User, id int64, _ struct{}) (T, error) { return fn(u, id) })
}

// tournamentActionWith authenticates, reads the event's id and the body
// (a B) and answers fn's value.
func tournamentActionWith[B, T any](a *api, w http.ResponseWriter, r *http.Request, fn func(u server.User, id int64, body B) (T, error)) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var body B
	if err := readJSON(r, &body); err != nil {
		if _, none := any(body).(struct{}); none {
			return httpError(http.StatusBadRequest, "this call takes no body")
		}
		return err
	}
	v, err := fn(u, id, body)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, v)
}

// joinTournament: POST /api/tournament/{id}/join.
func (a *api) joinTournament(w http.ResponseWriter, r *http.Request) error {
	return tournamentAction(a, w, r, func(u server.User, id int64) (wire.TournamentEntry, error) {
		return a.svc.JoinTournament(r.Context(), u, id)
	})
}

// withdrawTournament: POST /api/tournament/{id}/withdraw.
func (a *api) withdrawTournament(w http.ResponseWriter, r *http.Request) error {
	return tournamentAction(a, w, r, func(u server.User, id int64) (wire.TournamentEntry, error) {
		return a.svc.WithdrawTournament(r.Context(), u, id)
	})
}

// startTournament: POST /api/tournament/{id}/start, its organiser's.
func (a *api) startTournament(w http.ResponseWriter, r *http.Request) error {
	return tournamentAction(a, w, r, func(u server.User, id int64) (wire.TournamentFull, error) {
		return a.svc.StartTournament(r.Context(), u, id)
	})
}

// pairTournament: POST /api/tournament/{id}/pair, its organiser's.
func (a *api) pairTournament(w http.ResponseWriter, r *http.Request) error {
	return tournamentAction(a, w, r, func(u server.User, id int64) (wire.TournamentFull, error) {
		return a.svc.PairTournament(r.Context(), u, id)
	})
}

// cancelTournament: POST /api/tournament/{id}/cancel, its organiser's,
// before its start.
func (a *api) cancelTournament(w http.ResponseWriter, r *http.Request) error {
	return tournamentAction(a, w, r, func(u server.User, id int64) (wire.TournamentFull, error) {
		return a.svc.CancelTournament(r.Context(), u, id)
	})
}

// berserk: POST /api/tournament/{id}/berserk, in the caller's arena game.
func (a *api) berserk(w http.ResponseWriter, r *http.Request) error {
	return tournamentAction(a, w, r, func(u server.User, id int64) (wire.TournamentGame, error) {
		return a.svc.Berserk(r.Context(), u, id)
	})
}

// byeBody is the body of POST /api/tournament/{id}/bye and unbye.
type byeBody struct {
	Round int `json:"round"`
}

// halfBye: POST /api/tournament/{id}/bye (on) or unbye: the caller asks
// to sit out a round of a Swiss for half a point, or takes it back.
func (a *api) halfBye(on bool) func(w http.ResponseWriter, r *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		return tournamentActionWith(a, w, r, func(u server.User, id int64, b byeBody) (wire.TournamentEntry, error) {
			if b.Round == 0 {
				return wire.TournamentEntry{}, httpError(http.StatusBadRequest, `a half-point bye needs the round: {"round": 3}`)
			}
			return a.svc.SetHalfBye(r.Context(), u, id, b.Round, on)
		})
	}
}

// tournamentStream: GET /api/tournament/{id}/stream. Anyone may watch.
func (a *api) tournamentStream(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	done, err := a.openStream(r)
	if err != nil {
		return err
	}
	defer done()
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	// The event must exist before the answer starts: a 404 cannot follow a 200.
	if _, err := a.svc.TournamentStandings(r.Context(), id); err != nil {
		return err
	}
	send, err := ndjson(w)
	if err != nil {
		return err
	}
	return a.quiet(a.svc.WatchTournament(r.Context(), id, send))
}

// tournamentRecords: GET /api/tournament/{id}/records, every game of the
// event as one file of records.
func (a *api) tournamentRecords(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	recs, err := a.svc.TournamentRecords(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/x-morris-record; charset=utf-8")
	w.Header().Set("Content-Disposition", "attachment; filename=\"morris-tournament-"+strconv.FormatInt(id, 10)+".pgn\"")
	_, err = w.Write(recs)
	return err
}

// tournamentStandingsCSV: GET /api/tournament/{id}/standings.csv.
func (a *api) tournamentStandingsCSV(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	b, err := a.svc.TournamentStandingsCSV(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", "attachment; filename=\"morris-tournament-"+strconv.FormatInt(id, 10)+"-standings.csv\"")
	_, err = w.Write(b)
	return err
}

// tournamentStandingsJSON: GET /api/tournament/{id}/standings.json.
func (a *api) tournamentStandingsJSON(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	sd, err := a.svc.TournamentStandings(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, sd)
}
