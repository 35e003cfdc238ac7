package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserModeration: in a game between ann and bob, bob insults ann in
// the chat; ann reports the line from the chat (a reason and a few words).
// A moderator (made by the operator, as morris admin does) finds the
// report in the queue on #/mod with the line as evidence, opens bob from
// it, mutes him for a day, warns him, and resolves the report with a note;
// the log shows the three. Bob, on his next page, gets the warning and
// must acknowledge it; his chat is refused as muted. Ann blocks bob from
// his page: his lines leave her chat.
func TestBrowserModeration(t *testing.T) {
	s := startSite(t)
	ctx := context.Background()
	annTok := s.account(t, "ann", "annpass1")
	bobTok := s.account(t, "bob", "bobpass1")
	moTok := s.account(t, "mo", "mopass12")
	if _, err := s.svc.Store().SetModerator(ctx, "mo", true, "the club's moderator"); err != nil {
		t.Fatal(err)
	}
	id := s.gameBetween(t, annTok, "bob", bobTok, map[string]any{"variant": "nine-mens-morris"})
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/chat", id), bobTok, map[string]string{"text": "you play like a goat"}, nil)
	var page struct {
		Chat []struct {
			Version int    `json:"version"`
			Text    string `json:"text"`
		} `json:"chat"`
	}
	s.call(t, "GET", fmt.Sprintf("/api/game/%d/chat", id), "", nil, &page)
	if len(page.Chat) != 1 {
		t.Fatalf("the chat: %+v", page)
	}
	line := page.Chat[0].Version

	b := newBrowser(t, s, 90*time.Second)
	ann := b.newPage("ann")
	mo := b.newPage("mo")
	bob := b.newPage("bob")

	// Ann reports bob's line.
	ann.signIn("ann", "annpass1")
	ann.openGame(id)
	ann.waitJS("bob's line in the chat", `[...document.querySelectorAll('[data-testid="chat-message"]')].some((li) => li.textContent.includes('you play like a goat'))`)
	sel := fmt.Sprintf(`[data-testid="chat-report"][data-version="%d"]`, line)
	ann.run("report bob's line", chromedp.Click(chromedp.CSS(sel)))
	ann.waitVisible("report-form")
	ann.choose("report-reason", "abuse")
	typeInto(ann, "report-text", "an insult after my first move")
	ann.click("report-submit")
	ann.waitVisible("report-done")
	var queue struct {
		Reports []struct {
			ID     int    `json:"id"`
			Status string `json:"status"`
			Reason string `json:"reason"`
			Text   string `json:"text"`
			User   struct{ Name string }
			Line   *struct{ Text string }
		} `json:"reports"`
	}
	s.call(t, "GET", "/api/mod/reports", moTok, nil, &queue)
	if len(queue.Reports) != 1 || queue.Reports[0].User.Name != "bob" || queue.Reports[0].Reason != "abuse" ||
		queue.Reports[0].Line == nil || queue.Reports[0].Line.Text != "you play like a goat" || queue.Reports[0].Text != "an insult after my first move" {
		b.fatalf("the server's queue after ann's report: %+v", queue)
	}
	rid := queue.Reports[0].ID

	// The moderator's page: the queue, bob's standing, a mute, a warning, the resolution.
	mo.signIn("mo", "mopass12")
	mo.waitVisible("nav-mod")
	mo.click("nav-mod")
	mo.waitVisible(fmt.Sprintf("mod-report-%d", rid))
	mo.waitJS("the reported line as evidence", fmt.Sprintf(`document.querySelector('[data-testid="mod-report-line-%d"]').textContent.includes('you play like a goat')`, rid))
	mo.click(fmt.Sprintf("mod-open-user-%d", rid))
	mo.waitJS("bob's standing", `(() => { const h = document.querySelector('.mod-user-head'); return !!h && h.dataset.name === 'bob' && h.dataset.muted === 'false'; })()`)
	mo.waitVisible("mod-for-report")
	mo.choose("mod-mute-hours", "24")
	mo.fill("mod-note", "insults in the chat")
	mo.click("mod-mute")
	mo.waitVisible("mod-user-muted")
	typeInto(mo, "mod-warn-text", "Insults have no place here. Next time the account is closed.")
	mo.click("mod-warn")
	mo.waitJS("the warning in bob's standing", `document.querySelector('[data-testid="mod-user-panel"]').textContent.includes('Next time the account is closed.')`)
	mo.fill(fmt.Sprintf("mod-resolve-note-%d", rid), "muted a day and warned")
	mo.click(fmt.Sprintf("mod-resolve-%d", rid))
	mo.waitJS("the report resolved", fmt.Sprintf(`document.querySelector('[data-testid="mod-report-%d"]').dataset.status === 'resolved'`, rid))
	mo.waitJS("the three actions in the log", `['resolve', 'warn', 'mute'].every((a) => document.querySelector('[data-testid="mod-log-list"] [data-action="' + a + '"]'))`)

	var mu struct {
		Muted        bool  `json:"muted"`
		MutedUntilMs int64 `json:"mutedUntilMs"`
		OpenReports  int   `json:"openReports"`
		Warnings     []struct{ Text string }
	}
	s.call(t, "GET", "/api/mod/user/bob", moTok, nil, &mu)
	if !mu.Muted || mu.MutedUntilMs < time.Now().Add(23*time.Hour).UnixMilli() || mu.OpenReports != 0 || len(mu.Warnings) != 1 {
		b.fatalf("bob as the server has him: %+v", mu)
	}
	var log struct {
		Actions []struct {
			Action, Note string
			Report       int
		} `json:"actions"`
	}
	s.call(t, "GET", "/api/mod/log", moTok, nil, &log)
	var got []string
	for _, a := range log.Actions {
		got = append(got, a.Action+":"+a.Note)
	}
	if want := "resolve:muted a day and warned|warn:Insults have no place here. Next time the account is closed.|mute:insults in the chat|moderator:the club's moderator"; strings.Join(got, "|") != want {
		b.fatalf("the log: %q, want %q", strings.Join(got, "|"), want)
	}

	// Bob: the warning until acknowledged, and his chat refused.
	bob.signIn("bob", "bobpass1")
	bob.waitVisible("warning-notice")
	bob.waitJS("the warning's text", `document.querySelector('[data-testid="warning-notice"]').textContent.includes('Next time the account is closed.')`)
	bob.openGame(id)
	bob.fill("chat-input", "sorry")
	bob.click("chat-send")
	bob.waitState("the chat refused", func(st debugState) bool { return strings.Contains(st.LastError, "muted") })
	if c := s.fullGame(t, id).Chat; len(c) != 1 {
		b.fatalf("the chat after bob's muted try: %+v", c)
	}
	bob.click("warning-ack")
	bob.waitJS("the warning gone", `!document.querySelector('[data-testid="warning-notice"]')`)
	var ws struct{ Warnings []struct{ ID int } }
	s.call(t, "GET", "/api/account/warnings", bobTok, nil, &ws)
	if len(ws.Warnings) != 0 {
		b.fatalf("bob's warnings after the acknowledgement: %+v", ws)
	}

	// Ann blocks bob from his page: his lines leave her chat.
	ann.open("/user/bob")
	ann.waitVisible("user-block")
	ann.click("user-block")
	ann.waitJS("the block", `document.querySelector('[data-testid="user-block"]').dataset.blocked === 'true'`)
	ann.openGame(id)
	ann.waitJS("bob's line hidden", `![...document.querySelectorAll('[data-testid="chat-message"]')].some((li) => li.textContent.includes('you play like a goat'))`)
	var blocks struct {
		Blocks []struct{ User struct{ Name string } }
	}
	s.call(t, "GET", "/api/account/blocks", annTok, nil, &blocks)
	if len(blocks.Blocks) != 1 || blocks.Blocks[0].User.Name != "bob" {
		b.fatalf("ann's blocks on the server: %+v", blocks)
	}
}

// typeInto types text into an empty field (a textarea, which chromedp's
// Clear does not take while empty).
func typeInto(p *page, id, text string) {
	p.b.t.Helper()
	p.run("type into "+id, chromedp.SendKeys(tid(id), text))
}
