package web_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"
)

// clubState is morrisDebug.state() on a club's page (web/doc.go).
type clubState struct {
	Page     string   `json:"page"`
	ID       int      `json:"id"`
	Name     string   `json:"name"`
	Open     bool     `json:"open"`
	Role     string   `json:"role"`
	Leaders  []string `json:"leaders"`
	Members  []string `json:"members"`
	Requests []string `json:"requests"`
}

func (p *page) clubState() clubState {
	p.b.t.Helper()
	raw := eval[[]byte](p, `window.morrisDebug.state()`)
	var s clubState
	if err := json.Unmarshal(raw, &s); err != nil {
		p.b.fatalf("page %s: state %s: %v", p.name, raw, err)
	}
	return s
}

// waitClub waits until the page shows club id (any club for 0), loaded,
// and ok holds.
func (p *page) waitClub(what string, id int, ok func(c clubState) bool) clubState {
	p.b.t.Helper()
	var last clubState
	p.pollJSON(what, func() bool {
		s, up := p.state()
		if !up || s.Page != "club" {
			return false
		}
		last = p.clubState()
		return (id == 0 || last.ID == id) && last.Name != "" && ok(last)
	})
	return last
}

// pollJSON waits until ok holds, polling.
func (p *page) pollJSON(what string, ok func() bool) {
	p.b.t.Helper()
	d := time.Now().Add(stepTimeout)
	if p.b.deadline.Before(d) {
		d = p.b.deadline
	}
	for !ok() {
		if time.Now().After(d) {
			p.b.fatalf("page %s: timed out waiting for %s", p.name, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBrowserClubs: ann makes an open club and a closed one from the
// clubs page; bob finds the open one by a search and joins it at once;
// cleo asks to join the closed one, ann accepts her request from the
// club's page and makes her a leader. Each member is on the club's page
// and the club on the member's player page.
func TestBrowserClubs(t *testing.T) {
	s := startSite(t)
	s.account(t, "ann", "annpass1")
	s.account(t, "bob", "bobpass1")
	s.account(t, "cleo", "cleopass1")
	b := newBrowser(t, s, 90*time.Second)
	ann := b.newPage("ann")
	bob := b.newPage("bob")
	cleo := b.newPage("cleo")
	ann.signIn("ann", "annpass1")
	bob.signIn("bob", "bobpass1")
	cleo.signIn("cleo", "cleopass1")

	// Ann makes the two clubs from the clubs page (the header's link).
	makeClub := func(name, description string, open bool) clubState {
		t.Helper()
		ann.click("nav-clubs")
		ann.waitVisible("club-form")
		ann.fill("club-name", name)
		typeInto(ann, "club-description", description)
		if open {
			ann.click("club-open-check")
		}
		ann.click("club-submit")
		c := ann.waitClub("the new club "+name, 0, func(c clubState) bool { return c.Name == name })
		if c.Role != "leader" || c.Open != open || !slices.Equal(c.Members, []string{"ann"}) || !slices.Equal(c.Leaders, []string{"ann"}) {
			b.fatalf("the new club %s: %+v", name, c)
		}
		return c
	}
	friends := makeClub("Mill Friends", "Nine men's morris on Tuesdays.", true)
	corner := makeClub("Quiet Corner", "Slow games, by invitation.", false)

	// Bob finds the open club by a search and joins it: a member at once.
	bob.click("nav-clubs")
	bob.waitVisible("clubs-search")
	bob.fill("clubs-search", "friends")
	bob.waitJS("the search's one club", fmt.Sprintf(`(() => { const rows = document.querySelectorAll('[data-testid="clubs-list"] [data-name]'); return rows.length === 1 && rows[0].dataset.testid === 'club-%d'; })()`, friends.ID))
	bob.click(fmt.Sprintf("club-%d", friends.ID))
	bob.waitClub("the club, bob not in it", friends.ID, func(c clubState) bool { return c.Role == "none" })
	bob.click("club-join")
	bob.waitClub("bob a member", friends.ID, func(c clubState) bool { return c.Role == "member" && slices.Contains(c.Members, "bob") })
	bob.waitVisible("club-member-bob")
	ann.open(fmt.Sprintf("/club/%d", friends.ID))
	ann.waitClub("bob in ann's view of the club", friends.ID, func(c clubState) bool { return slices.Equal(c.Members, []string{"ann", "bob"}) })

	// Cleo asks to join the closed club; ann accepts and makes her a leader.
	cleo.open("/clubs")
	cleo.waitVisible(fmt.Sprintf("club-%d", corner.ID))
	cleo.click(fmt.Sprintf("club-%d", corner.ID))
	cleo.waitClub("the closed club", corner.ID, func(c clubState) bool { return c.Role == "none" && !c.Open })
	cleo.click("club-join")
	cleo.waitClub("cleo's request", corner.ID, func(c clubState) bool { return c.Role == "requested" && !slices.Contains(c.Members, "cleo") })
	ann.open(fmt.Sprintf("/club/%d", corner.ID))
	ann.waitClub("cleo's request in ann's view", corner.ID, func(c clubState) bool { return slices.Equal(c.Requests, []string{"cleo"}) })
	ann.click("club-accept-cleo")
	ann.waitClub("cleo a member", corner.ID, func(c clubState) bool {
		return len(c.Requests) == 0 && slices.Equal(c.Members, []string{"ann", "cleo"})
	})
	ann.click("club-member-leader-cleo")
	ann.waitClub("cleo a leader", corner.ID, func(c clubState) bool { return slices.Equal(c.Leaders, []string{"ann", "cleo"}) })
	ann.waitJS("cleo marked a leader", `document.querySelector('[data-testid="club-member-cleo"]').dataset.leader === 'true'`)
	cleo.open("/clubs")
	cleo.open(fmt.Sprintf("/club/%d", corner.ID))
	cleo.waitClub("cleo a leader on her page", corner.ID, func(c clubState) bool { return c.Role == "leader" })

	// The server agrees.
	var full struct {
		Members int `json:"members"`
		Leaders []struct{ Name string }
	}
	s.call(t, "GET", fmt.Sprintf("/api/club/%d", corner.ID), "", nil, &full)
	if full.Members != 2 || len(full.Leaders) != 2 {
		b.fatalf("the closed club on the server: %+v", full)
	}

	// Cleo, a leader, edits the closed club: a new description, and open.
	cleo.click("club-edit")
	cleo.waitVisible("club-edit-form")
	eval[bool](cleo, `(() => { const d = document.querySelector('[data-testid="club-edit-description"]'); d.select(); return true; })()`)
	typeInto(cleo, "club-edit-description", "Slow games; all welcome.")
	cleo.click("club-edit-open")
	cleo.click("club-edit-save")
	cleo.waitClub("the club edited", corner.ID, func(c clubState) bool { return c.Open })
	cleo.waitJS("the new description", `(() => { const d = document.querySelector('[data-testid="club-description"]'); return d && d.textContent === 'Slow games; all welcome.'; })()`)
	if eval[bool](cleo, existsJS("club-edit-form")) {
		b.fatalf("the edit form stays open after saving")
	}

	// The clubs on the members' player pages.
	for _, c := range []struct {
		who    string
		club   int
		leader bool
	}{{"bob", friends.ID, false}, {"cleo", corner.ID, true}, {"ann", friends.ID, true}, {"ann", corner.ID, true}} {
		p := map[string]*page{"ann": ann, "bob": bob, "cleo": cleo}[c.who]
		p.open("/user/" + c.who)
		id := fmt.Sprintf("user-club-%d", c.club)
		p.waitVisible(id)
		if got := eval[string](p, fmt.Sprintf(`document.querySelector('[data-testid=%q]').dataset.leader`, id)); got != fmt.Sprint(c.leader) {
			b.fatalf("%s's page: club %d's leader mark %s, want %v", c.who, c.club, got, c.leader)
		}
	}
	// And one player's page as another sees it.
	bob.open("/user/cleo")
	bob.waitVisible(fmt.Sprintf("user-club-%d", corner.ID))
}
