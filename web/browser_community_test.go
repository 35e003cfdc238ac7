package web_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/morrisgame/morris/internal/server/store"
)

// TestBrowserFollow: ann follows bob from his page (the button says so,
// the count goes up, her own page lists him); in her lobby bob is among
// the players online, and when bob starts a game with cy the game comes
// into her list of the games of those she follows without a reload, and
// leaves it when it ends; she opens it from there as a spectator.
func TestBrowserFollow(t *testing.T) {
	s := startSite(t)
	s.account(t, "ann", "annpass1")
	bob := s.account(t, "bob", "bobpass1")
	cy := s.account(t, "cy", "cypass12")
	b := newBrowser(t, s, 90*time.Second)
	ann := b.newPage("ann")
	ann.signIn("ann", "annpass1")

	ann.open("/user/bob")
	ann.waitJS("the follow button", `(() => { const b = document.querySelector('[data-testid="user-follow"]'); return !!b && b.dataset.followed === 'false'; })()`)
	ann.waitJS("bob online", `document.querySelector('[data-testid="user-presence"]').dataset.online === 'true'`)
	ann.click("user-follow")
	ann.waitJS("followed", `document.querySelector('[data-testid="user-follow"]').dataset.followed === 'true' &&
		document.querySelector('[data-testid="user-followers"]').dataset.count === '1'`)
	var following struct {
		Following []struct{ User struct{ Name string } } `json:"following"`
	}
	s.call(t, "GET", "/api/account/following", s.tokenOf(t, "ann", "annpass1"), nil, &following)
	if len(following.Following) != 1 || following.Following[0].User.Name != "bob" {
		b.fatalf("the server's follows of ann: %+v", following)
	}
	ann.open("/user/ann")
	ann.waitVisible("following-bob")

	ann.open("/")
	ann.waitVisible("lobby-followed-empty")
	ann.waitVisible("online-bob")
	ann.waitJS("the count of players online", `Number(document.querySelector('[data-testid="lobby-online-count"]').dataset.count) >= 2`)
	id := s.gameBetween(t, bob, "cy", cy, map[string]any{"variant": "nine-mens-morris"})
	ann.waitVisible(fmt.Sprintf("followed-game-%d", id))
	st := ann.waitState("the followed game in the lobby's state", func(st debugState) bool { return slices.Contains(st.FollowedGames, id) })
	if slices.Contains(st.MyGames, id) {
		b.fatalf("bob's game among ann's own: %+v", st)
	}
	ann.click(fmt.Sprintf("followed-game-%d", id))
	ann.waitState("the followed game's page", func(st debugState) bool { return st.Page == "game" && st.ID == id && gameLoaded(st) })
	ann.waitVisible("spectating")
	ann.open("/")
	ann.waitVisible(fmt.Sprintf("followed-game-%d", id))
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", id), cy, nil, nil)
	ann.waitState("the ended game out of the list", func(st debugState) bool { return st.Page == "home" && !slices.Contains(st.FollowedGames, id) })
	ann.waitVisible("lobby-followed-empty")
}

// tokenOf signs in for a new token.
func (s *site) tokenOf(t *testing.T, name, password string) string {
	t.Helper()
	var tok struct{ Token string }
	s.call(t, "POST", "/api/token", "", map[string]string{"name": name, "password": password}, &tok)
	return tok.Token
}

// TestBrowserLeaderboard: the header's link opens the leaderboard of nine
// men's morris: the players with ten rated games or more and a rating
// that is not provisional, ranked, each a link to their page; the rule is
// said; another preset's, empty, says so.
func TestBrowserLeaderboard(t *testing.T) {
	s := startSite(t)
	ctx := context.Background()
	st := s.svc.Store()
	for _, p := range []struct {
		name   string
		r, rd  float64
		games  int
		listed bool
	}{
		{"ann", 1710.4, 70, 30, true},
		{"bob", 1650, 95, 12, true},
		{"cy", 1900, 150, 40, false}, // provisional
		{"dee", 1800, 60, 9, false},  // nine games
		{"eve", 1755, 110, 10, true},
	} {
		s.account(t, p.name, p.name+"-pass12")
		u, err := st.UserByName(ctx, p.name)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.SetRating(ctx, store.Rating{User: u.ID, Variant: "nine-mens-morris", R: p.r, RD: p.rd, Sigma: 0.06, Games: p.games}); err != nil {
			t.Fatal(err)
		}
	}
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("reader")
	p.open("/")
	p.waitVisible("nav-leaderboard")
	p.click("nav-leaderboard")
	p.waitVisible("leaderboard-table")
	type entry struct {
		Rank   int    `json:"rank"`
		Name   string `json:"name"`
		Rating int    `json:"rating"`
		Games  int    `json:"games"`
	}
	got := eval[[]entry](p, `window.morrisDebug.state().entries`)
	want := []entry{{1, "eve", 1755, 10}, {2, "ann", 1710, 30}, {3, "bob", 1650, 12}}
	if !slices.Equal(got, want) {
		b.fatalf("the leaderboard: got %+v, want %+v", got, want)
	}
	rows := eval[[]string](p, `[...document.querySelectorAll('[data-testid^="leaderboard-row-"]')].map((tr) => tr.dataset.name + ' ' + tr.textContent)`)
	if len(rows) != 3 || !strings.HasPrefix(rows[0], "eve 1eve175510") {
		b.fatalf("the rows shown: %q", rows)
	}
	if rule := eval[string](p, `document.querySelector('[data-testid="leaderboard-rule"]').textContent`); !strings.Contains(rule, "10") || !strings.Contains(rule, "110") {
		b.fatalf("the rule said: %q", rule)
	}
	p.run("open ann's page from the leaderboard", chromedp.Click(chromedp.CSS(`[data-testid="leaderboard-row-2"] a`)))
	p.waitState("ann's page", func(st debugState) bool { return st.Page == "user" })
	p.open("/leaderboard")
	p.waitVisible("leaderboard-variant")
	p.choose("leaderboard-variant", "lasker")
	p.waitVisible("leaderboard-empty")
	if v := eval[string](p, `window.morrisDebug.state().variant`); v != "lasker" {
		b.fatalf("the leaderboard shown after choosing lasker: %q", v)
	}
}

// TestBrowserArchive: a search of the archive from its page (a player, a
// result for them, a preset) finds the one game that matches among
// others, with the search in the page's address; opening it shows its
// replay.
func TestBrowserArchive(t *testing.T) {
	s := startSite(t)
	ann := s.account(t, "ann", "annpass1")
	bob := s.account(t, "bob", "bobpass1")
	cy := s.account(t, "cy", "cypass12")
	// Bob beats ann (she resigns after a few moves), bob loses to cy, ann
	// beats cy in lasker; and a game goes on.
	won := s.gameBetween(t, ann, "bob", bob, map[string]any{"variant": "nine-mens-morris"})
	s.playByAPI(t, won, ann, bob, 4)
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", won), ann, nil, nil)
	lost := s.gameBetween(t, cy, "bob", bob, map[string]any{"variant": "nine-mens-morris"})
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", lost), bob, nil, nil)
	other := s.gameBetween(t, ann, "cy", cy, map[string]any{"variant": "lasker"})
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", other), cy, nil, nil)
	s.gameBetween(t, bob, "ann", ann, map[string]any{"variant": "nine-mens-morris"})

	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("searcher")
	p.open("/")
	p.click("nav-archive")
	p.waitVisible("archive-form")
	p.fill("archive-player", "bob")
	p.choose("archive-result", "win")
	p.waitJS("the presets in the form", `document.querySelectorAll('[data-testid="archive-variant"] option').length > 1`)
	p.choose("archive-variant", "nine-mens-morris")
	p.click("archive-submit")
	st := p.waitState("the search's games", func(st debugState) bool { return st.Page == "archive" && len(st.Games) > 0 })
	if !slices.Equal(st.Games, []int{won}) {
		b.fatalf("bob's wins in nine men's morris: %v, want [%d]", st.Games, won)
	}
	if hash := eval[string](p, `location.hash`); !strings.Contains(hash, "player=bob") || !strings.Contains(hash, "result=win") {
		b.fatalf("the search is not in the address: %s", hash)
	}
	// Everything: the three finished games, the latest end first.
	p.open("/archive?all=1")
	st = p.waitState("every finished game", func(st debugState) bool { return len(st.Games) == 3 })
	if !slices.Equal(st.Games, []int{other, lost, won}) {
		b.fatalf("the archive: %v, want %v", st.Games, []int{other, lost, won})
	}
	p.open("/archive?player=bob&result=win")
	p.waitVisible(fmt.Sprintf("archive-game-%d", won))
	p.click(fmt.Sprintf("archive-game-%d", won))
	g := p.waitState("the game's replay", func(st debugState) bool { return st.Page == "game" && st.ID == won && gameLoaded(st) })
	if g.Status != "finished" || g.Result != "0-1" || len(g.Moves) != 4 {
		b.fatalf("the game opened from the archive: %s %s %v", g.Status, g.Result, g.Moves)
	}
	p.waitVisible("replay-first")
	p.click("replay-first")
	p.waitState("the replay at the start", func(st debugState) bool { return st.Cursor == 0 })
	// A refusal shows the server's words.
	p.expectConsoleError("400")
	p.open("/archive?result=loss")
	p.waitJS("the error", `document.querySelector('[data-testid="archive-error"]').textContent.includes('loss')`)
}

// TestBrowserPlayerStats: after four rated games between ann and bob,
// ann's page shows her results by colour, her rating graph with a point
// a game (each a link to the game), and that she is online.
func TestBrowserPlayerStats(t *testing.T) {
	s := startSite(t)
	ann := s.account(t, "ann", "annpass1")
	bob := s.account(t, "bob", "bobpass1")
	var ids []int
	// ann white wins, ann white loses, ann black wins, a draw with ann black.
	for i, g := range []struct{ white, black, blackName, loser string }{
		{ann, bob, "bob", bob}, {ann, bob, "bob", ann}, {bob, ann, "ann", bob}, {bob, ann, "ann", ""},
	} {
		id := s.gameBetween(t, g.white, g.blackName, g.black, map[string]any{"variant": "nine-mens-morris", "rated": true})
		if g.loser != "" {
			s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", id), g.loser, nil, nil)
		} else {
			s.call(t, "POST", fmt.Sprintf("/api/game/%d/draw/offer", id), g.white, nil, nil)
			s.call(t, "POST", fmt.Sprintf("/api/game/%d/draw/accept", id), g.black, nil, nil)
		}
		ids = append(ids, id)
		_ = i
		time.Sleep(5 * time.Millisecond)
	}
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("reader")
	p.open("/user/ann")
	p.waitVisible("stats-nine-mens-morris")
	row := eval[[]string](p, `(() => { const r = document.querySelector('[data-testid="stats-nine-mens-morris"]'); return [r.dataset.white, r.dataset.black]; })()`)
	if !slices.Equal(row, []string{"1/0/1", "1/1/0"}) {
		b.fatalf("ann's results as white and black: %v, want 1/0/1 and 1/1/0", row)
	}
	if total := eval[string](p, `document.querySelector('[data-testid="stats-total"]').dataset.total`); total != "2/1/1" {
		b.fatalf("ann's results in all: %s", total)
	}
	p.waitJS("the rating graph", `(() => { const g = document.querySelector('[data-testid="rating-graph"]'); return !!g && !g.hidden && g.dataset.points === '4'; })()`)
	games := eval[[]int](p, `[...document.querySelectorAll('[data-testid="rating-graph-svg"] a[data-game]')].map((a) => Number(a.dataset.game))`)
	if !slices.Equal(games, ids) {
		b.fatalf("the graph's points: games %v, want %v", games, ids)
	}
	if line := eval[string](p, `document.querySelector('[data-testid="rating-graph-svg"] polyline').getAttribute('points')`); len(strings.Fields(line)) != 4 {
		b.fatalf("the graph's line: %q", line)
	}
	if online := eval[string](p, `document.querySelector('[data-testid="user-presence"]').dataset.online`); online != "true" {
		b.fatalf("ann, whose token made the games a moment ago, is not online: %s", online)
	}
	p.run("open the third game from its point", chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-testid="rating-graph-svg"] a[data-game="%d"]`, ids[2]))))
	p.waitState("the third game", func(st debugState) bool { return st.Page == "game" && st.ID == ids[2] && gameLoaded(st) })
}
