package httpapi

import (
	"net/http"
	"strconv"

	"github.com/morrisgame/morris/internal/server"
)

// The HTTP side of the service's quotas (internal/server/quotas.go): the
// pages of a game's chat, whose full game carries only the last messages.
// (Their refusals are 429 and 503 with the service's Retry-After: api.go.)

// chatHistory: GET /api/game/{id}/chat?before=VERSION&limit=N, the newest
// N messages (1 to 200, 50 by default) before that version (the newest
// without it), oldest first, and whether older ones are left; with a
// token, without the lines of the players its holder blocks.
func (a *api) chatHistory(w http.ResponseWriter, r *http.Request) error {
	u, err := a.viewer(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	q := r.URL.Query()
	var before int64
	if s := q.Get("before"); s != "" {
		if before, err = strconv.ParseInt(s, 10, 64); err != nil || before < 1 {
			return httpError(http.StatusBadRequest, "before %q is not a version: a number from 1 up", s)
		}
	}
	limit := 0
	if s := q.Get("limit"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit < 1 || limit > server.ChatHistory {
			return httpError(http.StatusBadRequest, "limit is 1 to %d, not %q", server.ChatHistory, s)
		}
	}
	page, err := a.svc.ChatHistoryAs(r.Context(), id, before, limit, server.NewViewer(u))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, page)
}
