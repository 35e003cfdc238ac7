package httpapi

import (
	"context"
	"net/http"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
)

// The life cycle of credentials (docs/api.md, "Account"): a new password,
// signing out everywhere, deleting the account. Each needs the bearer
// token; the password and the deletion need the password too, checked as a
// sign-in is (wrong ones spend the sign-in limit), so that a token left on
// a shared computer cannot lock its owner out or delete them.

type passwordBody struct {
	Password string `json:"password"` // the current password
	New      string `json:"new"`
}

// changePassword: POST /api/account/password. Every other token of the
// account is revoked; the caller's goes on.
func (a *api) changePassword(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b passwordBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Password == "" || b.New == "" {
		return httpError(http.StatusBadRequest, `a new password needs {"password": the current one, "new": the new one}`)
	}
	if _, err := a.svc.ChangePassword(r.Context(), a.remote(r), u.Name, b.Password, b.New, bearer(r)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

type deleteAccountBody struct {
	Password string `json:"password"`
}

// deleteAccount: DELETE /api/account. The answer names the account as its
// games now show it.
func (a *api) deleteAccount(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	var b deleteAccountBody
	if err := readJSON(r, &b); err != nil {
		return err
	}
	if b.Password == "" {
		return httpError(http.StatusBadRequest, `deleting the account needs {"password": its password}`)
	}
	gone, err := a.svc.DeleteAccount(r.Context(), a.remote(r), u.Name, b.Password)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.Player{ID: gone.ID, Name: gone.Name})
}

// signOutEverywhere: POST /api/account/signout-all. Every token of the
// account is revoked, the caller's too.
func (a *api) signOutEverywhere(w http.ResponseWriter, r *http.Request) error {
	u, err := a.auth(r)
	if err != nil {
		return err
	}
	n, err := a.svc.SignOutEverywhere(r.Context(), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]int64{"revoked": n})
}

// session is the context of a stream opened with the request's bearer
// token: it ends when the token is revoked (server.Service.Session), and
// the func releases it. (A game's WebSocket signed in by its first message
// calls Service.Session with that message's token.)
func (a *api) session(r *http.Request, u server.User) (context.Context, func()) {
	return a.svc.Session(r.Context(), u, bearer(r))
}
