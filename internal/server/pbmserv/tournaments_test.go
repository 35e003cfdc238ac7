package pbmserv

import (
	"context"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/servertest"
)

// TestTournaments: the text commands of tournaments: the list of a game's
// events, one with its boards and standings, entering and leaving; the
// games of an event are boards like any other.
func TestTournaments(t *testing.T) {
	ts := newServiceWith(t, server.Config{Rates: servertest.Rates, TournamentSweepEvery: 20 * time.Millisecond})
	svc := ts.Service
	g := New(svc, nil)
	sess := NewSession("192.0.2.1:4321", nil)
	defer sess.Close()
	ctx := context.Background()
	runScript(t, g, sess, []step{
		{"signup ann secret-ann", []string{"ok: "}, nil},
		{"signup bob secret-bob", []string{"ok: "}, nil},
		{"signup cy secret-cy", []string{"ok: "}, nil},
		{"nmm tournaments", []string{"nmm: no tournament takes entries or is running"}, nil},
	})
	ann, err := svc.UserByName(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	full, err := svc.CreateTournament(ctx, ann, server.TournamentSpec{Name: "Tuesday Swiss", Kind: server.Swiss, Rounds: 2, Rated: true,
		Control: server.TimeControl{Initial: 5 * time.Minute, Increment: 2 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateTournament(ctx, ann, server.TournamentSpec{Name: "Lasker Days", Kind: server.RoundRobin, Variant: "lasker",
		Control: server.TimeControl{NagDays: 2, ForfeitDays: 3}}); err != nil {
		t.Fatal(err)
	}
	runScript(t, g, sess, []step{
		{"nmm tournaments", []string{"nmm tournaments (nmm join N USERID PASSWORD enters one):\n",
			"1: Tuesday Swiss, Swiss of 2 rounds, 5 min + 2 s, 0 of 200 players, by ann; takes entries, starts when its organiser starts it (rated)\n"}, []string{"Lasker"}},
		{"lasker tournaments", []string{"2: Lasker Days, round robin, 3 days a move, 0 of 20 players"}, []string{"Tuesday"}},
		{"lasker join 1 bob secret-bob", []string{"error: tournament 1 is one of nmm (nine-mens-morris), not of lasker: send nmm join ..."}, nil},
		{"nmm join 9 bob secret-bob", []string{"error: no tournament 9"}, nil},
		{"nmm join 1 bob wrong-pw", []string{"error: wrong user id or password"}, nil},
		{"nmm join 1 bob secret-bob", []string{"ok: bob entered tournament 1, Tuesday Swiss; your games will be boards of nmm (nmm show bob active)"}, nil},
		{"nmm join 1 bob secret-bob", []string{"error: you are in tournament 1 already"}, nil},
		{"nmm join 1 cy secret-cy", []string{"ok: cy entered"}, nil},
		{"nmm withdraw 1 cy secret-cy", []string{"ok: cy left tournament 1, Tuesday Swiss, before its start"}, nil},
		{"nmm withdraw 1 cy secret-cy", []string{"error: you are not in tournament 1"}, nil},
		{"nmm join 1 cy secret-cy", []string{"ok: cy entered"}, nil},
		{"nmm join 1 ann secret-ann", []string{"ok: ann entered"}, nil},
		{"nmm tournaments 1", []string{"1: Tuesday Swiss, Swiss of 2 rounds, 5 min + 2 s, 3 of 200 players", "standings (points; Buchholz, median Buchholz, performance):\n",
			"  1. "}, []string{"round 1"}},
	})
	if _, err := svc.StartTournament(ctx, ann, full.ID); err != nil {
		t.Fatal(err)
	}
	full, err = svc.Tournament(ctx, full.ID)
	if err != nil {
		t.Fatal(err)
	}
	gm := full.Pairings[0].Games[0]
	runScript(t, g, sess, []step{
		{"nmm tournaments 1", []string{"running, round 1 of 2", "round 1:\n", "  board 101: " + gm.White.Name + " - " + gm.Black.Name + "  *\n", "  bye: "}, nil},
		{"nmm show " + gm.White.Name + " active", []string{"101"}, nil},
		{"nmm withdraw 1 " + gm.White.Name + " secret-" + gm.White.Name, []string{"ok: " + gm.White.Name + " withdrew from tournament 1, Tuesday Swiss: games going on in it resigned"}, nil},
		{"nmm show 101", []string{"0-1", "resignation"}, nil},
		{"nmm join 1 " + gm.White.Name + " secret-" + gm.White.Name, []string{"error: you withdrew from tournament 1"}, nil},
		{"nmm help join", []string{"nmm join N USERID PASSWORD", "enter tournament N"}, nil},
		{"help", []string{"GAME tournaments [N]", "GAME join N USERID PASSWORD", "GAME withdraw N USERID PASSWORD"}, nil},
	})
}
