package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"
)

// clientLanguages reads the codes of LANGUAGES in i18n.js.
func clientLanguages(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("static/js/i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, m := range regexp.MustCompile(`\['([a-z]{2})', '[^']+'\]`).FindAllSubmatch(src, -1) {
		codes = append(codes, string(m[1]))
	}
	return codes
}

func jsonFile[T any](t *testing.T, name string) T {
	t.Helper()
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// proseOf collects the strings of the rules' prose fields.
func proseOf(v any, prose bool, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, w := range x {
			proseOf(w, prose || map[string]bool{"title": true, "heading": true, "text": true, "name": true, "summary": true, "rules": true, "readings": true, "source": true}[k], out)
		}
	case []any:
		for _, w := range x {
			proseOf(w, prose, out)
		}
	case string:
		if prose {
			out[x] = true
		}
	}
}

// shownInEnglish lists the texts and labels on the page that are English
// strings of the client (en.json, the rules' prose) which the language
// shown translates differently: a string the page shows untranslated.
const shownInEnglishJS = `((english) => {
	const bad = new Set();
	const look = (s) => { s = (s || '').trim(); if (s && english[s]) bad.add(s); };
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest('script,style,noscript,[hidden]')) continue;
		look(n.nodeValue);
	}
	for (const el of document.body.querySelectorAll('[title],[aria-label],[placeholder],[alt]')) {
		if (el.closest('[hidden]')) continue;
		for (const a of ['title', 'aria-label', 'placeholder', 'alt']) look(el.getAttribute(a));
	}
	look(document.title.replace(/ · Morris$/, ''));
	return [...bad];
})(%s)`

// TestBrowserLanguages switches the client's language with the header's
// switch and opens every page in each language: the page is in that
// language (html lang, the navigation's words), no key is missing, and no
// string of the client is shown in English where the language has its own.
func TestBrowserLanguages(t *testing.T) {
	s, routes := siteTour(t)
	codes := clientLanguages(t)
	if len(codes) < 6 {
		t.Fatalf("LANGUAGES %v: want English and at least five more", codes)
	}
	en := jsonFile[map[string]string](t, "static/i18n/en.json")
	enProse := map[string]bool{}
	proseOf(jsonFile[any](t, "static/data/rules.json"), false, enProse)

	b := newBrowser(t, s, time.Duration(len(codes))*60*time.Second)
	p := b.newPage("languages")
	p.open("/")
	p.waitState("the lobby", func(st debugState) bool { return st.Page == "home" })
	if got := eval[string](p, `window.morrisDebug.language()`); got != "en" {
		b.fatalf("the client starts in %q in an English browser", got)
	}
	for _, code := range append(codes[1:], "en") {
		tr := jsonFile[map[string]string](t, "static/i18n/"+code+".json")
		english := map[string]bool{}
		if code != "en" {
			mine := map[string]bool{}
			for _, v := range tr {
				mine[v] = true
			}
			for k, v := range en {
				if tr[k] != v && !mine[v] {
					english[v] = true
				}
			}
			prose := map[string]bool{}
			proseOf(jsonFile[any](t, "static/data/rules."+code+".json"), false, prose)
			for v := range enProse {
				if !prose[v] {
					english[v] = true
				}
			}
		}
		englishJSON, _ := json.Marshal(english)

		p.open("/")
		p.waitVisible("lang-select")
		p.choose("lang-select", code) // the page reloads in the language
		p.waitJS("the page in "+code, fmt.Sprintf(`window.morrisDebug && window.morrisDebug.language() === %q && document.documentElement.lang === %q`, code, code))
		p.waitJS("the navigation in "+code, fmt.Sprintf(`document.querySelector('[data-testid="nav-study"]').textContent === %q`, tr["nav.study"]))
		for _, r := range routes {
			p.visit(r)
			// What is loaded after the page shows (lists, the rules'
			// text) has a moment to come.
			var bad []string
			for try := 0; try < 10; try++ {
				bad = eval[[]string](p, fmt.Sprintf(shownInEnglishJS, englishJSON))
				if len(bad) == 0 {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if len(bad) > 0 {
				b.fatalf("%s in %s shows English: %q", r.route, code, bad)
			}
		}
		if missing := eval[[]string](p, `window.morrisDebug.missingKeys()`); len(missing) > 0 {
			b.fatalf("in %s the pages asked for keys the language lacks: %v", code, missing)
		}
		t.Logf("%s: %d pages, nothing in English (%d English strings looked for)", code, len(routes), len(english))
	}
}

// tourStop is a page of the site to visit: its route, the page the client
// names it, an element that shows it is loaded, and a tab to click first
// ("" for none).
type tourStop struct{ route, page, testid, click string }

// siteTour starts a site with a finished game, a club and a running
// tournament, and returns it with every page of the client to visit.
func siteTour(t *testing.T) (*site, []tourStop) {
	s := startSite(t)
	ann := s.account(t, "ann", "secret-ann")
	bob := s.account(t, "bob", "secret-bob")
	g := s.finishedGame(t, ann, bob, "bob", 10)
	// A club and a running event, for their pages.
	var club, event struct{ ID int }
	s.call(t, "POST", "/api/club", ann, map[string]any{"name": "Mill Friends", "description": "Tuesdays", "open": true}, &club)
	s.call(t, "POST", fmt.Sprintf("/api/club/%d/join", club.ID), bob, nil, nil)
	s.call(t, "POST", "/api/tournament", ann, map[string]any{"name": "Club Cup", "kind": "swiss", "rounds": 1, "days": 3, "club": club.ID}, &event)
	for _, tk := range []string{ann, bob} {
		s.call(t, "POST", fmt.Sprintf("/api/tournament/%d/join", event.ID), tk, nil, nil)
	}
	s.call(t, "POST", fmt.Sprintf("/api/tournament/%d/start", event.ID), ann, nil, nil)
	return s, []tourStop{
		{"/", "home", "lobby-play-engine", ""},
		{"/play", "play", "engine-page", ""},
		{"/study", "study", "study-page", ""},
		{"/study", "study", "setup-check", "tab-setup"},
		{"/rules", "rules", "rules-list", ""},
		{"/rules/nine-mens-morris", "rules", "rules-text", ""},
		{"/rules/morabaraba", "rules", "rules-text", ""},
		{"/signin", "signin", "signin-form", ""},
		{"/signup", "signup", "signup-form", ""},
		{"/account", "account", "account-none", ""},
		{fmt.Sprintf("/game/%d", g.ID), "game", "result", ""},
		{"/user/ann", "user", "user-games", ""},
		{"/puzzle", "puzzle", "puzzle-page", ""},
		{"/leaderboard", "leaderboard", "leaderboard-page", ""},
		{"/archive?player=ann", "archive", "archive-list", ""},
		{"/clubs", "clubs", "club-" + fmt.Sprint(club.ID), ""},
		{fmt.Sprintf("/club/%d", club.ID), "club", "club-member-bob", ""},
		{"/tournaments", "tournaments", "event-" + fmt.Sprint(event.ID), ""},
		{"/tournaments/new", "tournament-new", "tournament-new-signin", ""},
		{fmt.Sprintf("/tournament/%d", event.ID), "tournament", "crosstable", ""},
		{"/no/such/page", "notfound", "not-found", ""},
	}
}

// visit opens the page of stop r on p and waits until it is loaded.
func (p *page) visit(r tourStop) {
	p.b.t.Helper()
	p.open(r.route)
	p.waitState(r.route, func(st debugState) bool { return st.Page == r.page })
	if r.click != "" {
		p.waitState(r.route+" loaded", func(st debugState) bool { return len(st.Legal) > 0 })
		p.click(r.click)
	}
	p.waitVisible(r.testid)
}
