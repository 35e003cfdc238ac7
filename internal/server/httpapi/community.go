package httpapi

import (
	"net/http"
	"strconv"

	"github.com/morrisgame/morris/internal/server"
)

// The community around the games (internal/server/presence.go,
// friends.go, leaderboard.go, archive.go, stats.go): who is online, the
// players one follows and who follows one, the games going on of those
// one follows, the leaderboards, the archive of finished games, and a
// player's results and rating history. Reading the public ones needs no
// token; follows are the account's own. Each call spends the command
// rate of its user or address, as every call does.

func (a *api) communityRoutes(h func(pattern string, fn func(w http.ResponseWriter, r *http.Request) error)) {
	h("GET /api/online", a.online)
	h("GET /api/account/following", a.following)
	h("POST /api/account/following", a.followPlayer)
	h("DELETE /api/account/following/{name}", a.unfollowPlayer)
	h("GET /api/account/following/games", a.followedGames)
	h("GET /api/account/followers", a.followers)
	h("GET /api/leaderboard/{variant}", a.leaderboard)
	h("GET /api/archive", a.archive)
	h("GET /api/user/{name}/stats", a.playerStats)
	h("GET /api/user/{name}/rating-history", a.ratingHistory)
}

// queryInt reads the query parameter name as a whole number from lo to
// hi; def when it is not given.
func queryInt(r *http.Request, name string, lo, hi, def int) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, httpError(http.StatusBadRequest, "%s is %d to %d, not %q", name, lo, hi, s)
	}
	return n, nil
}

// online: GET /api/online?after=NAME&limit=N, the players online by name
// (with a token, without those its holder blocks).
func (a *api) online(w http.ResponseWriter, r *http.Request) error {
	u, err := a.viewer(r)
	if err != nil {
		return err
	}
	limit, err := queryInt(r, "limit", 1, server.MaxOnlinePage, 0)
	if err != nil {
		return err
	}
	o, err := a.svc.Online(r.Context(), u, r.URL.Query().Get("after"), limit)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, o)
}

func (a *api) following(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	f, err := a.svc.Following(r.Context(), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, f)
}

type followBodyUser struct {
	User string `json:"user"`
}

// followPlayer: POST /api/account/following {"user": NAME}: 201 and the
// follow.
func (a *api) followPlayer(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b followBodyUser
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.User == "" {
		return httpError(http.StatusBadRequest, "name the player to follow: {\"user\": NAME}")
	}
	f, err := a.svc.FollowPlayer(r.Context(), u, b.User)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, f)
}

// unfollowPlayer: DELETE /api/account/following/{name}: 204.
func (a *api) unfollowPlayer(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	if err := a.svc.UnfollowPlayer(r.Context(), u, r.PathValue("name")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// followedGames: GET /api/account/following/games, the games going on of
// the players one follows.
func (a *api) followedGames(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	gs, err := a.svc.FollowedGames(r.Context(), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, gs)
}

// followers: GET /api/account/followers?after=ID&limit=N.
func (a *api) followers(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var after int64
	if s := r.URL.Query().Get("after"); s != "" {
		if after, err = strconv.ParseInt(s, 10, 64); err != nil || after < 1 {
			return httpError(http.StatusBadRequest, "after %q is not a follower's id: a number from 1 up", s)
		}
	}
	limit, err := queryInt(r, "limit", 1, server.MaxFollowersPage, 0)
	if err != nil {
		return err
	}
	f, err := a.svc.Followers(r.Context(), u, after, limit)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, f)
}

// leaderboard: GET /api/leaderboard/{variant}?offset=N&limit=N.
func (a *api) leaderboard(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	offset, err := queryInt(r, "offset", 0, server.LeaderboardSize-1, 0)
	if err != nil {
		return err
	}
	limit, err := queryInt(r, "limit", 1, server.MaxLeaderboardPage, 0)
	if err != nil {
		return err
	}
	lb, err := a.svc.Leaderboard(r.Context(), r.PathValue("variant"), offset, limit)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, lb)
}

// archive: GET /api/archive?player=&vs=&color=&variant=&result=&from=&to=&before=&limit=.
func (a *api) archive(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	limit, err := queryInt(r, "limit", 1, server.MaxArchivePage, 0)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	page, err := a.svc.Archive(r.Context(), server.ArchiveQuery{
		Player: q.Get("player"), Opponent: q.Get("vs"), Color: q.Get("color"), Variant: q.Get("variant"),
		Result: q.Get("result"), From: q.Get("from"), To: q.Get("to"), Before: q.Get("before"), Limit: limit,
	})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, page)
}

// playerStats: GET /api/user/{name}/stats.
func (a *api) playerStats(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	st, err := a.svc.PlayerStats(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, st)
}

// ratingHistory: GET /api/user/{name}/rating-history?variant=ID.
func (a *api) ratingHistory(w http.ResponseWriter, r *http.Request) error {
	if err := a.anonymous(r); err != nil {
		return err
	}
	h, err := a.svc.RatingHistory(r.Context(), r.PathValue("name"), r.URL.Query().Get("variant"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, h)
}
