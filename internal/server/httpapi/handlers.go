package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
	"github.com/morrisgame/morris/view"
)

type signUpBody struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Email    string `json:"email"`
}

func (a *api) signUp(w http.ResponseWriter, r *http.Request) error {
	var b signUpBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	u, err := a.svc.SignUp(r.Context(), a.remote(r), b.Name, b.Password, b.Email)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, wire.Player{ID: u.ID, Name: u.Name})
}

type tokenBody struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

type tokenAnswer struct {
	Token     string      `json:"token"`
	ExpiresMs int64       `json:"expiresMs"`
	User      wire.Player `json:"user"`
}

func (a *api) newToken(w http.ResponseWriter, r *http.Request) error {
	var b tokenBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Name == "" || b.Password == "" {
		return httpError(http.StatusBadRequest, "a token needs name and password")
	}
	tok, exp, u, err := a.svc.NewToken(r.Context(), a.remote(r), b.Name, b.Password)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, tokenAnswer{Token: tok, ExpiresMs: exp.UnixMilli(), User: wire.Player{ID: u.ID, Name: u.Name}})
}

func (a *api) revokeToken(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.auth(r); err != nil {
		return err
	}
	if err := a.svc.RevokeToken(r.Context(), bearer(r)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// account: GET /api/account, the signed-in player, and whether a
// moderator or muted (moderation.go).
func (a *api) account(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	st, err := a.svc.AccountStatus(r.Context(), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, st)
}

type vacationBody struct {
	Days int `json:"days"`
}

func (a *api) vacation(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b vacationBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	from, to, err := a.svc.Vacation(r.Context(), u, b.Days)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]int64{"fromMs": from.UnixMilli(), "toMs": to.UnixMilli()})
}

// pbmPrefs answers whom the caller takes pbm challenges from, in every
// preset: a pbm challenge starts a game at once, so this is where a
// player sees that they opted in, and to what.
func (a *api) pbmPrefs(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	ps, err := a.svc.PbmPrefs(r.Context(), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string][]wire.ChallengePrefs{"variants": ps})
}

// pbmPrefsBody changes a preset's pbm challenge prefs; a field left out
// stays as it is.
type pbmPrefsBody struct {
	Variant   string `json:"variant"`
	AcceptAll *bool  `json:"acceptAll"`
	Limit     *int   `json:"limit"`
}

func (a *api) setPbmPrefs(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b pbmPrefsBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	p, err := a.svc.SetPbmPrefs(r.Context(), u, b.Variant, b.AcceptAll, b.Limit)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, p)
}

// gameBody is the body of challenges, seeks and games against the engine.
type gameBody struct {
	Variant string   `json:"variant"`
	Rules   []string `json:"rules"`
	Rated   bool     `json:"rated"`
	Color   string   `json:"color"`
	Clock   *struct {
		InitialMs   int64 `json:"initialMs"`
		IncrementMs int64 `json:"incrementMs"`
	} `json:"clock"`
	// Days makes a correspondence game: the days per move before the
	// forfeit (a reminder comes after half of them).
	Days  int `json:"days"`
	Level int `json:"level"` // the engine's level (challenge/ai only)
	// Position is the position text the game starts from (challenge/ai
	// only): a position set up on the study board.
	Position string `json:"position"`
}

func (b gameBody) spec() (server.GameSpec, error) {
	sp := server.GameSpec{Variant: b.Variant, Overrides: b.Rules, Rated: b.Rated, Color: b.Color, Start: b.Position}
	if b.Clock != nil && b.Days != 0 {
		return sp, httpError(http.StatusBadRequest, "a game has a clock or days per move, not both")
	}
	if b.Clock != nil {
		if b.Clock.InitialMs <= 0 || b.Clock.InitialMs > 24*3600*1000 || b.Clock.IncrementMs < 0 || b.Clock.IncrementMs > 3600*1000 {
			return sp, httpError(http.StatusBadRequest, "a clock has initialMs in (0, 24 h] and incrementMs in [0, 1 h]")
		}
		sp.Control.Initial = time.Duration(b.Clock.InitialMs) * time.Millisecond
		sp.Control.Increment = time.Duration(b.Clock.IncrementMs) * time.Millisecond
	}
	if b.Days != 0 {
		if b.Days < 1 || b.Days > 365 {
			return sp, httpError(http.StatusBadRequest, "days per move are 1 to 365")
		}
		sp.Control.ForfeitDays = b.Days
		if b.Days > 1 {
			sp.Control.NagDays = b.Days / 2
		}
	}
	return sp, nil
}

// challenge: POST /api/challenge/{user}, an invitation to one user.
func (a *api) challenge(w http.ResponseWriter, r *http.Request) error {
	return a.invite(w, r, r.PathValue("user"))
}

// seek: POST /api/seek, an invitation to anyone, paired at once with a
// matching seek if there is one.
func (a *api) seek(w http.ResponseWriter, r *http.Request) error {
	return a.invite(w, r, "")
}

func (a *api) invite(w http.ResponseWriter, r *http.Request, to string) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b gameBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Level != 0 {
		return httpError(http.StatusBadRequest, "level is for /api/challenge/ai")
	}
	sp, err := b.spec()
	if err != nil {
		return err
	}
	c, err := a.svc.Challenge(r.Context(), u, to, sp)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, c)
}

func (a *api) challengeEngine(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b gameBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Rated {
		return httpError(http.StatusBadRequest, "games against the engine are not rated")
	}
	sp, err := b.spec()
	if err != nil {
		return err
	}
	if b.Level == 0 {
		b.Level = 5
	}
	g, err := a.svc.PlayEngine(r.Context(), u, b.Level, sp)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, g)
}

type challengesAnswer struct {
	Challenges []wire.Challenge `json:"challenges"` // to and from you
	Seeks      []wire.Challenge `json:"seeks"`      // everyone's open seeks
}

func (a *api) challenges(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	mine, seeks, err := a.svc.Challenges(r.Context(), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, challengesAnswer{Challenges: mine, Seeks: seeks})
}

func (a *api) acceptChallenge(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	c, err := a.svc.Accept(r.Context(), u, id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, c)
}

func (a *api) declineChallenge(w http.ResponseWriter, r *http.Request) error {
	return a.closeChallenge(w, r, a.svc.Decline)
}

func (a *api) cancelChallenge(w http.ResponseWriter, r *http.Request) error {
	return a.closeChallenge(w, r, a.svc.Cancel)
}

func (a *api) closeChallenge(w http.ResponseWriter, r *http.Request, fn func(ctx context.Context, u server.User, id int64) error) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := fn(r.Context(), u, id); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// game: GET /api/game/{id}, the game in full; with a token, without the
// chat lines of the players its holder blocks.
func (a *api) game(w http.ResponseWriter, r *http.Request) error {
	u, err := a.viewer(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	f, err := a.svc.GameAs(r.Context(), id, server.NewViewer(u))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, f)
}

// readByID answers a GET of the thing named by the path's {id}, which
// anyone the server lets read may see: read's answer as JSON.
func readByID[T any](a *api, w http.ResponseWriter, r *http.Request, read func(context.Context, int64) (T, error)) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	v, err := read(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, v)
}

func (a *api) export(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	format := r.URL.Query().Get("format")
	if format != "" && format != "morris" && format != "sanmill" {
		return httpError(http.StatusBadRequest, "format %q: want morris (the default) or sanmill", format)
	}
	rec, err := a.svc.Export(r.Context(), id)
	if err != nil {
		return err
	}
	name := "morris-" + strconv.FormatInt(id, 10) + ".pgn"
	if format == "sanmill" {
		// The record as Sanmill reads it: its rule set's name, its FEN.
		if rec, err = sanmillRecord(rec); err != nil {
			return httpError(http.StatusBadRequest, "%v", err)
		}
		name = "morris-" + strconv.FormatInt(id, 10) + "-sanmill.pgn"
	}
	w.Header().Set("Content-Type", "application/x-morris-record; charset=utf-8")
	w.Header().Set("Content-Disposition", "attachment; filename=\""+name+"\"")
	_, err = w.Write(rec)
	return err
}

// sanmillRecord turns our record of one game into Sanmill's form.
func sanmillRecord(ours []byte) ([]byte, error) {
	sc := record.NewScanner(bytes.NewReader(ours))
	if !sc.Scan() {
		return nil, fmt.Errorf("the game's record: %v", sc.Err())
	}
	out, err := record.ToSanmill(sc.Record(), mif.FormatSanmillFEN)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	w := record.NewWriter(&b)
	if err := w.Write(out); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type moveBody struct {
	Move string `json:"move"`
	Ply  *int   `json:"ply"`
}

type moveAnswer struct {
	Ply     int    `json:"ply"`
	Move    string `json:"move"`
	Version int64  `json:"version"`
	Over    bool   `json:"over"`
	Result  string `json:"result"`
	Method  string `json:"method,omitempty"`
}

// move plays a move: POST /api/game/{id}/move {"move": "d6", "ply": 0}, or
// POST /api/game/{id}/move/d6?ply=0. The ply is the number of moves played
// before this one; a ply that is not the game's is 409, so a retry never
// plays twice. Without a ply the move is played whatever the game's.
func (a *api) move(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	b := moveBody{Move: r.PathValue("move")}
	if b.Move == "" {
		if err := readJSON(r, &b); err != nil {
			return err
		}
	}
	ply := server.AnyPly
	if b.Ply != nil {
		ply = *b.Ply
	} else if s := r.URL.Query().Get("ply"); s != "" {
		if ply, err = strconv.Atoi(s); err != nil {
			return httpError(http.StatusBadRequest, "ply %q is not a number", s)
		}
	}
	if ply < 0 && ply != server.AnyPly || ply > 100000 {
		return httpError(http.StatusBadRequest, "ply %d is out of range", ply)
	}
	if b.Move == "" {
		return httpError(http.StatusBadRequest, "no move: POST {\"move\": \"d6\", \"ply\": 0}")
	}
	p, err := a.svc.Move(r.Context(), u, id, b.Move, ply)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, moveAnswer{Ply: p.Ply, Move: p.Move, Version: p.Version, Over: p.Over, Result: p.Result, Method: p.Method})
}

func (a *api) resign(w http.ResponseWriter, r *http.Request) error {
	return a.gameAction(w, r, func(u server.User, id int64) error { return a.svc.Resign(r.Context(), u, id) })
}

func (a *api) claimVictory(w http.ResponseWriter, r *http.Request) error {
	return a.gameAction(w, r, func(u server.User, id int64) error { return a.svc.ClaimVictory(r.Context(), u, id) })
}

// offer: POST /api/game/{id}/draw/{offer|accept|decline} and the same
// under takeback.
func (a *api) offer(w http.ResponseWriter, r *http.Request) error {
	kind := server.Draw
	if strings.Contains(r.URL.Path, "/takeback/") {
		kind = server.Takeback
	}
	return a.gameAction(w, r, func(u server.User, id int64) error {
		switch r.PathValue("answer") {
		case "offer", "yes":
			// As lichess's "yes", offering accepts the opponent's pending offer.
			return a.svc.Offer(r.Context(), u, id, kind)
		case "accept":
			return a.svc.Answer(r.Context(), u, id, kind, true)
		case "decline", "no":
			return a.svc.Answer(r.Context(), u, id, kind, false)
		}
		return httpError(http.StatusNotFound, "%q: offer, accept or decline", r.PathValue("answer"))
	})
}

type chatBody struct {
	Text string `json:"text"`
}

func (a *api) chat(w http.ResponseWriter, r *http.Request) error {
	return a.gameAction(w, r, func(u server.User, id int64) error {
		var b chatBody
		if err := readJSON(r, &b); err != nil {
			return err
		}
		return a.svc.Chat(r.Context(), u, id, b.Text)
	})
}

type followBody struct {
	Kind string `json:"kind"` // "moves" (default) or "end"
}

func (a *api) follow(w http.ResponseWriter, r *http.Request) error {
	return a.gameAction(w, r, func(u server.User, id int64) error {
		var b followBody
		if err := readJSON(r, &b); err != nil {
			return err
		}
		kind := server.FollowMoves
		switch b.Kind {
		case "", "moves":
		case "end":
			kind = server.FollowEnd
		default:
			return httpError(http.StatusBadRequest, "kind is moves or end, not %q", b.Kind)
		}
		return a.svc.Follow(r.Context(), u, id, kind)
	})
}

func (a *api) unfollow(w http.ResponseWriter, r *http.Request) error {
	return a.gameAction(w, r, func(u server.User, id int64) error { return a.svc.Unfollow(r.Context(), u, id) })
}

// gameAction authenticates, reads the game id and runs fn: {"ok": true}.
func (a *api) gameAction(w http.ResponseWriter, r *http.Request, fn func(u server.User, id int64) error) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := fn(u, id); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// gamesQuery reads ?status=active|finished&variant=&before=&limit=.
func gamesQuery(r *http.Request) (server.GamesQuery, error) {
	q := r.URL.Query()
	var gq server.GamesQuery
	switch q.Get("status") {
	case "":
	case "active":
		gq.Active = true
	case "finished":
		gq.Over = true
	default:
		return gq, httpError(http.StatusBadRequest, "status is active or finished, not %q", q.Get("status"))
	}
	if v := q.Get("variant"); v != "" {
		if _, err := mill.LookupVariant(v); err != nil {
			return gq, httpError(http.StatusBadRequest, "%v", err)
		}
		gq.Variant = v
	}
	for _, p := range []struct {
		name string
		dst  *int64
	}{{"before", &gq.Before}} {
		if s := q.Get(p.name); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				return gq, httpError(http.StatusBadRequest, "%s %q is not a game id", p.name, s)
			}
			*p.dst = n
		}
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 100 {
			return gq, httpError(http.StatusBadRequest, "limit is 1 to 100, not %q", s)
		}
		gq.Limit = n
	}
	return gq, nil
}

// games: GET /api/games, everyone's games.
func (a *api) games(w http.ResponseWriter, r *http.Request) error { return a.listGames(w, r, "") }

// userGames: GET /api/user/{name}/games, a player's games.
func (a *api) userGames(w http.ResponseWriter, r *http.Request) error {
	return a.listGames(w, r, r.PathValue("name"))
}

func (a *api) listGames(w http.ResponseWriter, r *http.Request, user string) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	q, err := gamesQuery(r)
	if err != nil {
		return err
	}
	q.User = user
	gs, err := a.svc.Games(r.Context(), q)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, gs)
}

type userAnswer struct {
	wire.Player
	Ratings []wire.Rating   `json:"ratings"`
	Clubs   []wire.UserClub `json:"clubs"`
	// Online and SeenMs: whether the player is online, and when they
	// were last seen (left out: never, or a closed account).
	Online bool  `json:"online"`
	SeenMs int64 `json:"seenMs,omitempty"`
	// Following and Followers count whom they follow and who follows
	// them; Followed, with a token, says that its holder follows them.
	Following int  `json:"following"`
	Followers int  `json:"followers"`
	Followed  bool `json:"followed,omitempty"`
}

// user: GET /api/user/{name}, a player's profile; with a token, whether
// its holder follows them.
func (a *api) user(w http.ResponseWriter, r *http.Request) error {
	viewer, err := a.viewer(r)
	if err != nil {
		return err
	}
	u, err := a.svc.UserByName(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	pr, err := a.svc.PresenceOf(r.Context(), u)
	if err != nil {
		return err
	}
	fc, err := a.svc.FollowCountsOf(r.Context(), u, viewer)
	if err != nil {
		return err
	}
	rs, err := a.svc.Ratings(r.Context(), u.Name)
	if err != nil {
		return err
	}
	clubs, err := a.svc.UserClubs(r.Context(), u.ID)
	if err != nil {
		return err
	}
	ans := userAnswer{Player: wire.Player{ID: u.ID, Name: u.Name, Bot: u.Bot}, Ratings: rs, Clubs: clubs,
		Online: pr.Online, Following: fc.Following, Followers: fc.Followers, Followed: fc.Followed}
	if !pr.Seen.IsZero() {
		ans.SeenMs = pr.Seen.UnixMilli()
	}
	return writeJSON(w, http.StatusOK, ans)
}

func (a *api) standings(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	rs, err := a.svc.Standings(r.Context(), r.PathValue("variant"), 0)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, rs)
}

// variants: GET /api/variants, the presets (view.Variants).
func (a *api) variants(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, view.Variants())
}

func wirePlayer(u server.User) wire.Player { return wire.Player{ID: u.ID, Name: u.Name, Bot: u.Bot} }

// requestReview: POST /api/game/{id}/review asks for the engine's review
// of a finished game: 202 with where it stands, or 200 with the review if
// it was done before.
func (a *api) requestReview(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	rv, err := a.svc.RequestReview(r.Context(), a.remote(r), id)
	if err != nil {
		return err
	}
	status := http.StatusAccepted
	if rv.Status == "done" {
		status = http.StatusOK
	}
	return writeJSON(w, status, rv)
}

// review: GET /api/game/{id}/review, the review asked for (404 if none).
func (a *api) review(w http.ResponseWriter, r *http.Request) error {
	return readByID(a, w, r, a.svc.Review)
}

type recordReviewBody struct {
	Position string   `json:"position"`
	Rules    string   `json:"rules"`
	Moves    []string `json:"moves"`
}

// requestRecordReview: POST /api/review asks for the engine's review of
// moves from elsewhere (an imported record): 202 with the review's id.
func (a *api) requestRecordReview(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	var b recordReviewBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Position != "" && b.Rules != "" {
		return httpError(http.StatusBadRequest, "a position carries its rules: give position or rules, not both")
	}
	rv, err := a.svc.RequestRecordReview(r.Context(), a.remote(r), b.Rules, b.Position, b.Moves)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, rv)
}

// recordReview: GET /api/review/{id}.
func (a *api) recordReview(w http.ResponseWriter, r *http.Request) error {
	return readByID(a, w, r, a.svc.RecordReview)
}
