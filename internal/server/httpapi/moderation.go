package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Moderation over HTTP (internal/server/moderation.go and blocks.go): a
// player's reports, blocks and warnings, and the moderators' endpoints
// under /api/mod/, each of which answers 403 to anyone but a moderator
// before it reads anything of the call.

func (a *api) moderationRoutes(h func(pattern string, fn func(w http.ResponseWriter, r *http.Request) error)) {
	h("POST /api/report", a.report)
	h("GET /api/account/blocks", a.blocks)
	h("POST /api/account/blocks", a.block)
	h("DELETE /api/account/blocks/{name}", a.unblock)
	h("GET /api/account/warnings", a.warnings)
	h("POST /api/account/warnings/{id}/ack", a.ackWarning)
	h("GET /api/mod/reports", a.modReports)
	h("POST /api/mod/reports/{id}/resolve", a.resolveReport)
	h("GET /api/mod/log", a.modLog)
	h("GET /api/mod/user/{name}", a.modUser)
	h("POST /api/mod/user/{name}/{action}", a.modAction)
}

// viewer is who reads a game (its chat): the holder of the request's
// token, or nobody without one. A token that is not valid is refused
// (401), as everywhere: a client that sent one wants to know.
func (a *api) viewer(r *http.Request) (*server.User, error) {
	if bearer(r) == "" {
		return nil, a.anonymous(r)
	}
	u, err := a.auth(r)
	if err != nil {
		return nil, err
	}
	return &u, nil
}

type reportBody struct {
	User    string `json:"user"`
	Game    int64  `json:"game"`
	Version int64  `json:"version"`
	Reason  string `json:"reason"`
	Text    string `json:"text"`
}

// report: POST /api/report, a player or a chat line reported.
func (a *api) report(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b reportBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	rep, err := a.svc.Report(r.Context(), a.remote(r), u, server.ReportSpec{User: b.User, Game: b.Game, Version: b.Version, Reason: b.Reason, Text: b.Text})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, rep)
}

func (a *api) blocks(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	bs, err := a.svc.Blocks(r.Context(), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string][]wire.Block{"blocks": bs})
}

type blockBody struct {
	User string `json:"user"`
}

func (a *api) block(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b blockBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	blk, err := a.svc.Block(r.Context(), u, b.User)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, blk)
}

func (a *api) unblock(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	if err := a.svc.Unblock(r.Context(), u, r.PathValue("name")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *api) warnings(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	ws, err := a.svc.Warnings(r.Context(), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string][]wire.Warning{"warnings": ws})
}

func (a *api) ackWarning(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := a.svc.AcknowledgeWarning(r.Context(), u, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// moderator authenticates the request and checks that its user is a
// moderator, before anything else of the call is read.
func (a *api) moderator(r *http.Request) (server.User, error) {
	u, err := a.auth(r)
	if err != nil {
		return u, err
	}
	return u, a.svc.RequireModerator(r.Context(), u)
}

// page reads ?before=ID&limit=N of the moderators' pages.
func page(r *http.Request) (before int64, limit int, err error) {
	q := r.URL.Query()
	if s := q.Get("before"); s != "" {
		if before, err = strconv.ParseInt(s, 10, 64); err != nil || before < 1 {
			return 0, 0, httpError(http.StatusBadRequest, "before %q is not an id: a number from 1 up", s)
		}
	}
	if s := q.Get("limit"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit < 1 || limit > server.ModPage {
			return 0, 0, httpError(http.StatusBadRequest, "limit is 1 to %d, not %q", server.ModPage, s)
		}
	}
	return before, limit, nil
}

// modReports: GET /api/mod/reports?status=open|resolved&before=ID&limit=N
// (status "" or absent: open; "all": both).
func (a *api) modReports(w http.ResponseWriter, r *http.Request) error {
	u, err := a.moderator(r)
	if err != nil {
		return err
	}
	before, limit, err := page(r)
	if err != nil {
		return err
	}
	status := r.URL.Query().Get("status")
	switch status {
	case "":
		status = "open"
	case "all":
		status = ""
	}
	p, err := a.svc.ModReports(r.Context(), u, status, before, limit)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, p)
}

type noteBody struct {
	Note   string `json:"note"`
	Report int64  `json:"report"`
	// Hours is a mute's length (mute only): 0 or absent, until lifted.
	Hours int `json:"hours"`
	// Text is a warning's (warn only).
	Text string `json:"text"`
}

func (a *api) resolveReport(w http.ResponseWriter, r *http.Request) error {
	u, err := a.moderator(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var b struct {
		Note string `json:"note"`
	}
	if err := readJSON(r, &b); err != nil {
		return err
	}
	rep, err := a.svc.ResolveReport(r.Context(), u, id, b.Note)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, rep)
}

func (a *api) modUser(w http.ResponseWriter, r *http.Request) error {
	u, err := a.moderator(r)
	if err != nil {
		return err
	}
	mu, err := a.svc.ModUser(r.Context(), u, r.PathValue("name"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mu)
}

// modAction: POST /api/mod/user/{name}/{warn,mute,unmute,close,reopen,annul}.
func (a *api) modAction(w http.ResponseWriter, r *http.Request) error {
	u, err := a.moderator(r)
	if err != nil {
		return err
	}
	action := r.PathValue("action")
	switch action {
	case "warn", "mute", "unmute", "close", "reopen", "annul":
	default:
		return httpError(http.StatusNotFound, "no such action %q: warn, mute, unmute, close, reopen or annul", action)
	}
	var b noteBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Hours != 0 && action != "mute" || b.Text != "" && action != "warn" {
		return httpError(http.StatusBadRequest, "hours go with mute and text with warn only")
	}
	if action == "warn" && b.Note != "" {
		return httpError(http.StatusBadRequest, "a warning's words go in text (they are its note in the log)")
	}
	ctx, name, n := r.Context(), r.PathValue("name"), server.ModNote{Note: b.Note, Report: b.Report}
	var out any
	switch action {
	case "warn":
		out, err = a.svc.Warn(ctx, u, name, b.Text, b.Report)
	case "mute":
		if b.Hours < 0 || b.Hours > server.MaxMuteHours {
			return httpError(http.StatusBadRequest, "hours are 1 to %d, or 0 (until lifted)", server.MaxMuteHours)
		}
		out, err = a.svc.Mute(ctx, u, name, time.Duration(b.Hours)*time.Hour, n)
	case "unmute":
		out, err = a.svc.Unmute(ctx, u, name, n)
	case "close":
		out, err = a.svc.CloseAccount(ctx, u, name, n)
	case "reopen":
		out, err = a.svc.ReopenAccount(ctx, u, name, n)
	case "annul":
		out, err = a.svc.Annul(ctx, u, name, n)
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

// modLog: GET /api/mod/log?user=NAME&before=ID&limit=N.
func (a *api) modLog(w http.ResponseWriter, r *http.Request) error {
	u, err := a.moderator(r)
	if err != nil {
		return err
	}
	before, limit, err := page(r)
	if err != nil {
		return err
	}
	l, err := a.svc.ModLog(r.Context(), u, r.URL.Query().Get("user"), before, limit)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, l)
}
