package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// status sends a JSON request to the API and returns its status, whatever
// it is (site.call fails the test on anything but a 2xx).
func (s *site) status(t *testing.T, method, path, token string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, s.URL+path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestBrowserAccount: the account page, reached from the header. A wrong
// current password is told and signs nobody out; a new password keeps the
// page signed in and signs out the account's other session (a token made
// through the API); signing out everywhere signs the page out and refuses
// its token; deleting the account needs the tick and the password, and
// then the name signs in no more.
func TestBrowserAccount(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 60*time.Second)
	other := s.account(t, "ann", "secret-ann")
	p := b.newPage("account")
	p.signIn("ann", "secret-ann")
	p.click("nav-account")
	p.waitVisible("account-page")
	p.waitState("the account page", func(s debugState) bool { return s.Page == "account" })
	pageToken := func() string {
		return eval[string](p, `(JSON.parse(localStorage.getItem('morris.session') || 'null') || {}).token || ''`)
	}
	mine := pageToken()

	p.expectConsoleError("/api/account/password") // the 401 of the wrong password
	p.fill("password-current", "wrong-password")
	p.fill("password-new", "new-secret-1")
	p.click("password-submit")
	p.waitJS("the wrong password told", `document.querySelector('[data-testid="password-error"]').textContent.length > 0`)
	if got := s.status(t, "GET", "/api/account", mine, nil); got != 200 || pageToken() != mine {
		t.Fatalf("after a wrong current password: the page's token answers %d (kept: %v), want 200 and kept", got, pageToken() == mine)
	}

	if got := eval[string](p, `document.querySelector('[data-testid="password-current"]').value`); got != "" {
		t.Errorf("the current password field after a wrong one: got %q, want it emptied", got)
	}
	p.fill("password-current", "secret-ann")
	p.choose("password-new", "new-secret-1") // fill would add to what is there
	p.click("password-submit")
	p.waitJS("the new password confirmed", `document.querySelector('[data-testid="password-done"]').textContent.length > 0`)
	if got := s.status(t, "GET", "/api/account", other, nil); got != 401 {
		t.Errorf("the other session's token after a new password: got %d, want 401", got)
	}
	if got := s.status(t, "GET", "/api/account", mine, nil); got != 200 {
		t.Errorf("the page's token after its new password: got %d, want 200", got)
	}
	if got := s.status(t, "POST", "/api/token", "", map[string]string{"name": "ann", "password": "secret-ann"}); got != 401 {
		t.Errorf("the old password: got %d, want 401", got)
	}

	p.click("signout-all")
	p.waitVisible("nav-signin")
	if got := s.status(t, "GET", "/api/account", mine, nil); got != 401 {
		t.Errorf("the page's token after signing out everywhere: got %d, want 401", got)
	}

	p.signIn("ann", "new-secret-1")
	p.open("/account")
	p.waitVisible("delete-form")
	if !eval[bool](p, `document.querySelector('[data-testid="delete-submit"]').disabled`) {
		t.Error("the delete button is enabled before the tick")
	}
	p.fill("delete-password", "new-secret-1")
	p.click("delete-confirm")
	p.click("delete-submit")
	p.waitVisible("nav-signin")
	p.waitState("the lobby after the deletion", func(s debugState) bool { return s.Page == "home" })
	if got := s.status(t, "POST", "/api/token", "", map[string]string{"name": "ann", "password": "new-secret-1"}); got != 401 {
		t.Errorf("signing in to the deleted account: got %d, want 401", got)
	}
	if got := s.status(t, "GET", "/api/user/ann", "", nil); got != 404 {
		t.Errorf("the deleted account's page: got %d, want 404", got)
	}
}

func TestBrowserSignUp(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 45*time.Second)
	p := b.newPage("signup")
	p.open("/signup")
	p.waitVisible("signup-form")
	p.fill("signup-name", "ada")
	p.fill("signup-password", "lovelace")
	p.fill("signup-email", "ada@example.org")
	p.click("signup-submit")
	p.waitJS("nav-me for ada", `(() => { const me = document.querySelector('[data-testid="nav-me"]'); return !!me && me.dataset.name === 'ada' && me.textContent.includes('ada'); })()`)
	p.waitState("the lobby after signing up", func(s debugState) bool { return s.Page == "home" })
	if eval[bool](p, `!!document.querySelector('[data-testid="nav-signup"]')`) {
		b.fatalf("the header still offers to sign up after signing up")
	}
	// The account is real: the token in the page works on the API.
	tok := eval[string](p, `JSON.parse(localStorage.getItem('morris.session')).token`)
	var me struct{ Name string }
	s.call(t, "GET", "/api/account", tok, nil, &me)
	if me.Name != "ada" {
		t.Fatalf("GET /api/account with the page's token: got %q, want ada", me.Name)
	}
	// The session survives a reload.
	p.run("reload", chromedp.Reload())
	p.waitJS("nav-me after a reload", `(() => { const me = document.querySelector('[data-testid="nav-me"]'); return !!me && me.dataset.name === 'ada'; })()`)
}
