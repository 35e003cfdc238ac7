package pbmserv

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Tournaments: the list of a game's tournaments that take entries or are
// running, one of them with its boards and standings, and entering and
// leaving one. Creating and running events is the HTTP API's (and the web
// client's): their settings are many, and a line of options would be a
// poor form for them.

// controlText is a time control as a line says it: "5 min + 2 s", "3 days a move".
func controlText(c wire.Control) string {
	switch {
	case c.ForfeitDays > 0:
		if c.ForfeitDays == 1 {
			return "1 day a move"
		}
		return strconv.Itoa(c.ForfeitDays) + " days a move"
	case c.InitialMs > 0:
		s := durationText(time.Duration(c.InitialMs) * time.Millisecond)
		if c.IncrementMs > 0 {
			s += " + " + durationText(time.Duration(c.IncrementMs)*time.Millisecond)
		}
		return s
	}
	return "no clock"
}

func durationText(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + " h"
	case d%time.Minute == 0:
		return strconv.Itoa(int(d/time.Minute)) + " min"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// kindText names a kind as a line says it.
func kindText(t wire.Tournament) string {
	switch t.Kind {
	case server.RoundRobin:
		if t.Cycles == 2 {
			return "double round robin"
		}
		return "round robin"
	case server.Swiss:
		return fmt.Sprintf("Swiss of %d rounds", t.Rounds)
	case server.Arena:
		return "arena of " + durationText(time.Duration(t.DurationMs)*time.Millisecond)
	case server.Correspondence:
		if t.Cycles == 2 {
			return "double correspondence round robin"
		}
		return "correspondence round robin"
	}
	return t.Kind
}

// stateText says where an event is: "running, round 2 of 5", "starts
// 2027-01-05 18:00 UTC".
func stateText(t wire.Tournament) string {
	when := func(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04 UTC") }
	switch t.Status {
	case "upcoming":
		if t.StartsMs > 0 {
			return "takes entries, starts " + when(t.StartsMs)
		}
		return "takes entries, starts when its organiser starts it"
	case "running":
		switch {
		case t.Kind == server.Arena:
			return "running until " + when(t.EndsMs)
		case t.Kind == server.Correspondence:
			return "running, every game under way"
		}
		return fmt.Sprintf("running, round %d of %d", t.Round, t.Rounds)
	}
	if t.Note != "" {
		return "finished: " + t.Note
	}
	return "finished"
}

// tournamentLine is one event in a list.
func tournamentLine(t wire.Tournament) string {
	var extra []string
	if t.Rated {
		extra = append(extra, "rated")
	}
	if t.Club != nil {
		extra = append(extra, "for the members of "+t.Club.Name)
	}
	switch {
	case t.MinRating > 0 && t.MaxRating > 0:
		extra = append(extra, fmt.Sprintf("ratings %d to %d", t.MinRating, t.MaxRating))
	case t.MaxRating > 0:
		extra = append(extra, fmt.Sprintf("ratings up to %d", t.MaxRating))
	case t.MinRating > 0:
		extra = append(extra, fmt.Sprintf("ratings %d and up", t.MinRating))
	}
	if t.EngineLevel > 0 {
		extra = append(extra, fmt.Sprintf("the engine plays at level %d", t.EngineLevel))
	}
	s := fmt.Sprintf("%d: %s, %s, %s, %d of %d players, by %s; %s", t.ID, t.Name, kindText(t), controlText(t.Control),
		t.Players, t.MaxPlayers, t.Organiser.Name, stateText(t))
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

// tournaments answers GAME tournaments [N].
func (g *Gateway) tournaments(ctx context.Context, cmd pbm.Command) (string, error) {
	name := pbm.ShortName(cmd.Game)
	if cmd.Tournament != 0 {
		return g.tournament(ctx, cmd)
	}
	var b strings.Builder
	n := 0
	for _, status := range []string{"running", "upcoming"} {
		list, err := g.svc.Tournaments(ctx, server.TournamentsQuery{Status: status, Variant: cmd.Game, Limit: server.MaxTournamentPage})
		if err != nil {
			return "", err
		}
		for _, t := range list.Tournaments {
			b.WriteString(tournamentLine(t) + "\n")
			n++
		}
	}
	if n == 0 {
		return fmt.Sprintf("%s: no tournament takes entries or is running; organisers make them through the HTTP API or the web client\n", name), nil
	}
	return fmt.Sprintf("%s tournaments (%s join N USERID PASSWORD enters one):\n", name, name) + b.String(), nil
}

// tournament answers GAME tournaments N: the event, its rounds' boards and
// its standings.
func (g *Gateway) tournament(ctx context.Context, cmd pbm.Command) (string, error) {
	full, err := g.event(ctx, cmd)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(tournamentLine(full.Tournament) + "\n")
	rounds := full.Pairings
	if len(rounds) > 3 {
		rounds = rounds[len(rounds)-3:] // the last three: a line answer stays short
		fmt.Fprintf(&b, "(rounds before %d left out)\n", rounds[0].Round)
	}
	for _, r := range rounds {
		label := "round"
		if full.Kind == server.Arena {
			label = "wave"
		}
		fmt.Fprintf(&b, "%s %d:\n", label, r.Round)
		for _, gm := range r.Games {
			fmt.Fprintf(&b, "  board %d: %s - %s  %s\n", gm.Game, gm.White.Name, gm.Black.Name, gm.Result)
		}
		if r.Bye != nil {
			fmt.Fprintf(&b, "  bye: %s\n", r.Bye.Name)
		}
	}
	if len(full.Standings) > 0 {
		fmt.Fprintf(&b, "standings (points; %s):\n", strings.Join(full.TieBreaks, ", "))
		for _, l := range full.Standings {
			var tbs []string
			for _, v := range l.TieBreaks {
				tbs = append(tbs, strconv.FormatFloat(v, 'f', -1, 64))
			}
			w := ""
			if l.Withdrawn {
				w = " (withdrawn)"
			}
			fmt.Fprintf(&b, "  %d. %s %s (%s)%s\n", l.Rank, l.Player.Name, strconv.FormatFloat(l.Points, 'f', -1, 64), strings.Join(tbs, ", "), w)
		}
	}
	return b.String(), nil
}

// event reads the command's tournament, checked to be one of the
// command's game, as boards are.
func (g *Gateway) event(ctx context.Context, cmd pbm.Command) (wire.TournamentFull, error) {
	full, err := g.svc.Tournament(ctx, int64(cmd.Tournament))
	if err != nil {
		return wire.TournamentFull{}, err
	}
	if full.Variant != cmd.Game {
		return wire.TournamentFull{}, fail(server.BadRequest, "tournament %d is one of %s (%s), not of %s: send %s %s ...",
			full.ID, pbm.ShortName(full.Variant), full.Variant, pbm.ShortName(cmd.Game), pbm.ShortName(full.Variant), cmd.Verb)
	}
	return full, nil
}

// join answers GAME join N USERID PASSWORD.
func (g *Gateway) join(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	full, err := g.event(ctx, cmd)
	if err != nil {
		return "", err
	}
	u, err := g.login(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	e, err := g.svc.JoinTournament(ctx, u, full.ID)
	if err != nil {
		return "", err
	}
	s := fmt.Sprintf("ok: %s entered tournament %d, %s", u.Name, full.ID, full.Name)
	if e.FromRound > 1 {
		s += fmt.Sprintf(", from round %d", e.FromRound)
	}
	return s + fmt.Sprintf("; your games will be boards of %s (%s show %s active)\n", pbm.ShortName(full.Variant), pbm.ShortName(full.Variant), u.Name), nil
}

// withdraw answers GAME withdraw N USERID PASSWORD.
func (g *Gateway) withdraw(ctx context.Context, sess *Session, cmd pbm.Command) (string, error) {
	full, err := g.event(ctx, cmd)
	if err != nil {
		return "", err
	}
	u, err := g.login(ctx, sess, cmd)
	if err != nil {
		return "", err
	}
	e, err := g.svc.WithdrawTournament(ctx, u, full.ID)
	if err != nil {
		return "", err
	}
	if e.Status == "none" {
		return fmt.Sprintf("ok: %s left tournament %d, %s, before its start\n", u.Name, full.ID, full.Name), nil
	}
	return fmt.Sprintf("ok: %s withdrew from tournament %d, %s: games going on in it resigned\n", u.Name, full.ID, full.Name), nil
}
