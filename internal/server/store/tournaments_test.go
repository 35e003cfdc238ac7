package store

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pressly/goose/v3"
)

// tournamentGame is a new game between two players for a pairing.
func (f *fixture) tournamentGame(white, black int64) *Game {
	return &Game{Variant: f.gameVariant, Rules: f.gameRules, White: white, Black: black, Rated: true,
		Control: TimeControl{Initial: 5 * time.Minute}, Clocks: Clocks{Left: [2]time.Duration{5 * time.Minute, 5 * time.Minute}, Since: t0},
		LastMoveAt: t0, NagSentPly: -1}
}

// TestTournamentLife: an event from its creation to its end, each change
// a compare-and-set on the version the caller read: a stale version, a
// full field, a second entry, a pairing of the wrong round are refused
// and change nothing; the start and a round store their games with their
// boards; the state read back has the games' results.
func TestTournamentLife(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		cy, dee, eng := f.user("Cy"), f.user("Dee"), f.user("engine")
		tr, err := s.CreateTournament(ctx, Tournament{Name: "Tuesday", Kind: "swiss", Variant: f.gameVariant, Rules: f.gameRules,
			Rated: true, Control: TimeControl{Initial: 5 * time.Minute}, Rounds: 3, MaxPlayers: 4, LateEntryUntil: 2,
			Organiser: f.ann.ID, Seed: 1<<63 + 5}, eng.ID, 1500)
		must(t, "CreateTournament", err)
		if tr.ID != 1 || tr.Status != TournamentUpcoming || tr.Players != 1 || tr.Version != 0 || tr.OrganiserName != "Ann" || tr.Seed != 1<<63+5 {
			t.Fatalf("CreateTournament: got %+v", tr)
		}
		_, err = s.CreateTournament(ctx, Tournament{Name: "x", Kind: "swiss", Variant: "v", Rules: "v", Organiser: 999, MaxPlayers: 4}, 0, 0)
		wantErr(t, "CreateTournament by no one", err, ErrNotFound)

		must(t, "join Ann", s.JoinTournament(ctx, tr.ID, 0, Entrant{User: f.ann.ID, Rating: 1600}))
		wantErr(t, "join at a stale version", s.JoinTournament(ctx, tr.ID, 0, Entrant{User: f.bob.ID, Rating: 1500}), ErrConflict)
		wantErr(t, "join twice", s.JoinTournament(ctx, tr.ID, 1, Entrant{User: f.ann.ID, Rating: 1600}), ErrDuplicate)
		must(t, "join Bob", s.JoinTournament(ctx, tr.ID, 1, Entrant{User: f.bob.ID, Rating: 1400}))
		must(t, "join Cy", s.JoinTournament(ctx, tr.ID, 2, Entrant{User: cy.ID, Rating: 1700}))
		err = s.JoinTournament(ctx, tr.ID, 3, Entrant{User: dee.ID, Rating: 1700})
		wantErr(t, "join a full field", err, ErrTournamentFull)
		wantErr(t, "withdraw at a stale version", s.WithdrawTournament(ctx, tr.ID, 2, cy.ID, true), ErrConflict)
		must(t, "withdraw Cy", s.WithdrawTournament(ctx, tr.ID, 3, cy.ID, true))
		wantErr(t, "withdraw Cy again", s.WithdrawTournament(ctx, tr.ID, 4, cy.ID, true), ErrNotFound)
		must(t, "join Dee", s.JoinTournament(ctx, tr.ID, 4, Entrant{User: dee.ID, Rating: 1700}))
		st, err := s.TournamentState(ctx, tr.ID)
		must(t, "TournamentState", err)
		if st.Tournament.Version != 5 || st.Tournament.Players != 4 || len(st.Entrants) != 4 || len(st.Pairings) != 0 {
			t.Fatalf("before the start: version %d, %d players, entrants %+v", st.Tournament.Version, st.Tournament.Players, st.Entrants)
		}
		if e := st.Entrants[0]; e.User != eng.ID || e.Name != "engine" || e.Rating != 1500 || e.FromRound != 1 {
			t.Errorf("the first entrant: got %+v, want the engine", e)
		}
		if org, playing, err := s.TournamentCounts(ctx, f.ann.ID); err != nil || org != 1 || playing != 1 {
			t.Errorf("TournamentCounts(Ann): %d, %d, %v; want 1, 1", org, playing, err)
		}

		// The start: round 1, two games.
		start := TournamentStart{At: t0, Rounds: 3, Round: 1, Pairings: []NewPairing{
			{Round: 1, Board: 1, Game: f.tournamentGame(dee.ID, f.ann.ID)},
			{Round: 1, Board: 2, Game: f.tournamentGame(f.bob.ID, eng.ID)},
		}}
		_, err = s.StartTournament(ctx, tr.ID, 4, start)
		wantErr(t, "start at a stale version", err, ErrConflict)
		games, err := s.StartTournament(ctx, tr.ID, 5, start)
		must(t, "StartTournament", err)
		if len(games) != 2 {
			t.Fatalf("StartTournament: games %v, want 2", games)
		}
		_, err = s.StartTournament(ctx, tr.ID, 6, start)
		wantErr(t, "start twice", err, ErrConflict)
		for _, g := range games {
			id, err := s.TournamentOfGame(ctx, g)
			if err != nil || id != tr.ID {
				t.Errorf("TournamentOfGame(%d): %d, %v", g, id, err)
			}
		}
		g0 := f.game()
		_, err = s.TournamentOfGame(ctx, g0.ID)
		wantErr(t, "TournamentOfGame of a game of none", err, ErrNotFound)

		// A berserk: once, before the game moves on.
		v, err := s.Berserk(ctx, games[0], 1, 0, 150*time.Second)
		must(t, "Berserk", err)
		if g, _ := s.Game(ctx, games[0]); g.Version != v || v != 1 || g.Clocks.Left[1] != 150*time.Second {
			t.Errorf("after a berserk: version %d (answered %d), clocks %v", g.Version, v, g.Clocks.Left)
		}
		_, err = s.Berserk(ctx, games[0], 1, 0, 75*time.Second)
		wantErr(t, "a second berserk", err, ErrConflict)
		_, err = s.Berserk(ctx, games[1], 0, 3, 150*time.Second)
		wantErr(t, "a berserk at a ply the game is not at", err, ErrConflict)
		if st, _ := s.TournamentState(ctx, tr.ID); st.Pairings[1].WhiteBerserk {
			t.Errorf("a refused berserk left its flag: %+v", st.Pairings[1])
		}

		// Round 2 waits for version 6 and round 1.
		f.move(games[0], 0, "d6")
		_, err = s.FinishGame(ctx, games[0], Finish{Ply: 1, At: t0, Ending: Ending{Result: "0-1", Method: "resignation"}})
		must(t, "FinishGame", err)
		st, err = s.TournamentState(ctx, tr.ID)
		must(t, "TournamentState", err)
		p := st.Pairings[0]
		if st.Tournament.Status != TournamentRunning || st.Tournament.Round != 1 || st.Tournament.Rounds != 3 ||
			p.Round != 1 || p.Board != 1 || p.White != dee.ID || p.BlackName != "Ann" || p.Game != games[0] ||
			p.Status != Finished || p.Result != "0-1" || p.Method != "resignation" || p.Ply != 1 || !p.BlackBerserk {
			t.Errorf("round 1 board 1: got %+v of %+v", p, st.Tournament)
		}
		if p := st.Pairings[1]; p.Status != Active || p.Result != "*" {
			t.Errorf("round 1 board 2: got %+v", p)
		}
		round2 := []NewPairing{{Round: 2, Board: 1, Game: f.tournamentGame(f.ann.ID, f.bob.ID)}, {Round: 2, Board: 2, Bye: dee.ID},
			{Round: 2, Board: 3, Bye: eng.ID, HalfBye: true}}
		_, err = s.PairRound(ctx, tr.ID, 6, 3, round2)
		wantErr(t, "round 3 after round 1", err, ErrConflict)
		_, err = s.PairRound(ctx, tr.ID, 5, 2, round2)
		wantErr(t, "round 2 at a stale version", err, ErrConflict)
		games2, err := s.PairRound(ctx, tr.ID, 6, 2, round2)
		must(t, "PairRound", err)
		if len(games2) != 1 {
			t.Errorf("PairRound: games %v, want 1", games2)
		}
		st, _ = s.TournamentState(ctx, tr.ID)
		if len(st.Pairings) != 5 || st.Pairings[3].Black != 0 || st.Pairings[3].Game != 0 || st.Pairings[3].White != dee.ID || st.Pairings[3].HalfBye ||
			st.Pairings[4].White != eng.ID || !st.Pairings[4].HalfBye || st.Pairings[4].Game != 0 || st.Tournament.Round != 2 {
			t.Errorf("after round 2: %+v", st.Pairings)
		}

		// Half-point byes are asked for and taken back before their
		// round is paired, each a compare-and-set.
		wantErr(t, "a bye in a round paired", s.SetByeRequest(ctx, tr.ID, 7, f.bob.ID, 2, true), ErrConflict)
		wantErr(t, "a bye at a stale version", s.SetByeRequest(ctx, tr.ID, 6, f.bob.ID, 3, true), ErrConflict)
		must(t, "Bob's bye", s.SetByeRequest(ctx, tr.ID, 7, f.bob.ID, 3, true))
		wantErr(t, "Bob's bye again", s.SetByeRequest(ctx, tr.ID, 8, f.bob.ID, 3, true), ErrDuplicate)
		must(t, "Ann's bye", s.SetByeRequest(ctx, tr.ID, 8, f.ann.ID, 3, true))
		must(t, "Ann's bye taken back", s.SetByeRequest(ctx, tr.ID, 9, f.ann.ID, 3, false))
		wantErr(t, "Ann's bye taken back again", s.SetByeRequest(ctx, tr.ID, 10, f.ann.ID, 3, false), ErrNotFound)
		st, _ = s.TournamentState(ctx, tr.ID)
		if len(st.ByeRequests) != 1 || st.ByeRequests[0] != (ByeRequest{User: f.bob.ID, Round: 3}) || st.Tournament.Version != 10 {
			t.Errorf("the byes asked for: %+v at version %d", st.ByeRequests, st.Tournament.Version)
		}

		// A withdrawal after the start marks the player and drops the
		// byes they asked for; a deleted account withdraws from the
		// running event.
		must(t, "withdraw Bob", s.WithdrawTournament(ctx, tr.ID, 10, f.bob.ID, false))
		wantErr(t, "withdraw Bob again", s.WithdrawTournament(ctx, tr.ID, 11, f.bob.ID, false), ErrNotFound)
		if st, _ := s.TournamentState(ctx, tr.ID); len(st.ByeRequests) != 0 {
			t.Errorf("a withdrawn player's byes: %+v", st.ByeRequests)
		}
		must(t, "rejoin Bob", s.RejoinTournament(ctx, tr.ID, 11, f.bob.ID))
		must(t, "DeleteUser(Dee)", s.DeleteUser(ctx, dee.ID, "deleted-dee"))
		st, _ = s.TournamentState(ctx, tr.ID)
		for _, e := range st.Entrants {
			if withdrawn := !e.WithdrawnAt.IsZero(); withdrawn != (e.User == dee.ID) {
				t.Errorf("after Dee's deletion: %+v", e)
			}
		}

		due, err := s.DueTournaments(ctx, t0, t0)
		must(t, "DueTournaments", err)
		if len(due) != 0 {
			t.Errorf("DueTournaments with games going on: %v", due)
		}
		must(t, "FinishTournament", s.FinishTournament(ctx, tr.ID, st.Tournament.Version, t0, "ended early"))
		wantErr(t, "finish twice", s.FinishTournament(ctx, tr.ID, st.Tournament.Version+1, t0, ""), ErrConflict)
		got, _ := s.Tournament(ctx, tr.ID)
		if got.Status != TournamentFinished || got.Note != "ended early" || !got.FinishedAt.Equal(t0) {
			t.Errorf("finished: %+v", got)
		}

		recs, moves, err := s.TournamentRecords(ctx, tr.ID)
		must(t, "TournamentRecords", err)
		if len(recs) != 3 || recs[0].ID != games[0] || len(moves[games[0]]) != 1 || moves[games[0]][0].Text != "d6" || len(moves[games[1]]) != 0 {
			t.Errorf("TournamentRecords: %d games, moves %v", len(recs), moves)
		}
		list, more, err := s.Tournaments(ctx, TournamentQuery{Status: TournamentFinished, Limit: 10})
		if err != nil || more || len(list) != 1 || list[0].ID != tr.ID {
			t.Errorf("Tournaments(finished): %v, %v, %v", list, more, err)
		}
	})
}

// TestTournamentDue: the sweep's list holds the events that may have
// something to do, and not the others.
func TestTournamentDue(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		mk := func(kind string, starts time.Time, manual bool) Tournament {
			tr, err := s.CreateTournament(ctx, Tournament{Name: kind, Kind: kind, Variant: f.gameVariant, Rules: f.gameRules,
				MaxPlayers: 8, Rounds: 2, StartsAt: starts, ManualPairing: manual, Organiser: f.ann.ID}, 0, 0)
			must(t, "CreateTournament", err)
			must(t, "join", s.JoinTournament(ctx, tr.ID, 0, Entrant{User: f.ann.ID}))
			must(t, "join", s.JoinTournament(ctx, tr.ID, 1, Entrant{User: f.bob.ID}))
			return tr
		}
		later := mk("swiss", t0.Add(time.Hour), false)
		now := mk("swiss", t0, false)
		byHand := mk("swiss", time.Time{}, false)
		running := mk("swiss", time.Time{}, false)
		manual := mk("swiss", time.Time{}, true)
		arena := mk("arena", time.Time{}, false)
		start := func(tr Tournament, game bool) int64 {
			st := TournamentStart{At: t0, Rounds: 2, Round: 1, Pairings: []NewPairing{{Round: 1, Board: 1, Bye: f.ann.ID}}}
			if game {
				st.Pairings = []NewPairing{{Round: 1, Board: 1, Game: f.tournamentGame(f.ann.ID, f.bob.ID)}}
			}
			games, err := s.StartTournament(ctx, tr.ID, 2, st)
			must(t, "StartTournament", err)
			if game {
				return games[0]
			}
			return 0
		}
		g := start(running, true)
		start(manual, false)
		start(arena, true)
		due, err := s.DueTournaments(ctx, t0, t0.Add(-time.Hour))
		must(t, "DueTournaments", err)
		if want := []int64{now.ID, manual.ID, arena.ID}; !equalIDs(due, want) {
			t.Errorf("DueTournaments: got %v, want %v (later %d, by hand %d, running %d, manual %d)", due, want, later.ID, byHand.ID, running.ID, manual.ID)
		}
		// A Swiss paired by hand whose round is over is due (the
		// service pairs it after a while). A game with a withdrawn
		// player makes its event due; so does
		// the end of its last game; so does an old upcoming event
		// without a start time.
		must(t, "withdraw", s.WithdrawTournament(ctx, running.ID, 3, f.bob.ID, false))
		due, _ = s.DueTournaments(ctx, t0, t0.Add(-time.Hour))
		if want := []int64{now.ID, running.ID, manual.ID, arena.ID}; !equalIDs(due, want) {
			t.Errorf("DueTournaments with a withdrawn player in a game: got %v, want %v", due, want)
		}
		_, err = s.FinishGame(ctx, g, Finish{Ply: 0, At: t0, Ending: Ending{Result: "1-0", Method: "abandonment"}})
		must(t, "FinishGame", err)
		due, _ = s.DueTournaments(ctx, t0, s.now().Add(time.Hour))
		if want := []int64{now.ID, byHand.ID, running.ID, manual.ID, arena.ID}; !equalIDs(due, want) {
			t.Errorf("DueTournaments later: got %v, want %v", due, want)
		}
	})
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTournamentPairRace: many callers pair the same round at once, as
// the processes sharing a PostgreSQL database may: one pairing is stored,
// with its games; the others are ErrConflict and create no game.
func TestTournamentPairRace(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		tr, err := s.CreateTournament(ctx, Tournament{Name: "race", Kind: "arena", Variant: f.gameVariant, Rules: f.gameRules,
			MaxPlayers: 8, Organiser: f.ann.ID}, 0, 0)
		must(t, "CreateTournament", err)
		must(t, "join", s.JoinTournament(ctx, tr.ID, 0, Entrant{User: f.ann.ID}))
		must(t, "join", s.JoinTournament(ctx, tr.ID, 1, Entrant{User: f.bob.ID}))
		_, err = s.StartTournament(ctx, tr.ID, 2, TournamentStart{At: t0})
		must(t, "StartTournament", err)
		before, err := s.Games(ctx, GameQuery{})
		must(t, "Games", err)
		const n = 8
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.PairRound(ctx, tr.ID, 3, 1, []NewPairing{{Round: 1, Board: 1, Game: f.tournamentGame(f.ann.ID, f.bob.ID)}})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, ErrConflict):
				t.Errorf("a racing pairing: %v", err)
			}
		}
		after, _ := s.Games(ctx, GameQuery{})
		st, _ := s.TournamentState(ctx, tr.ID)
		if ok != 1 || len(after) != len(before)+1 || len(st.Pairings) != 1 || st.Tournament.Round != 1 || st.Tournament.Version != 4 {
			t.Errorf("%d of %d racing pairings stored, %d games made, pairings %+v, round %d, version %d",
				ok, n, len(after)-len(before), st.Pairings, st.Tournament.Round, st.Tournament.Version)
		}
	})
}

// TestMigrationsOutOfOrder: a database that has a migration numbered after
// one it lacks (00013 came before 00012: branches merged in either order)
// runs the missing one when it comes, instead of refusing to open. The
// database is migrated first without the migration just before 00013,
// then with every one.
func TestMigrationsOutOfOrder(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		sub, err := fs.Sub(migrations, "migrations")
		must(t, "migrations", err)
		entries, err := fs.ReadDir(sub, ".")
		must(t, "ReadDir", err)
		all, early := fstest.MapFS{}, fstest.MapFS{}
		skipped := ""
		for _, e := range entries {
			b, err := fs.ReadFile(sub, e.Name())
			must(t, "ReadFile", err)
			all[e.Name()] = &fstest.MapFile{Data: b}
			if e.Name() < "00013" {
				skipped = e.Name() // the last before 00013, in the end
			}
		}
		if _, ok := all["00013_tournaments.sql"]; !ok || skipped == "" {
			t.Fatalf("no 00013 and no migration before it: %v", entries)
		}
		for name, f := range all {
			if name != skipped {
				early[name] = f
			}
		}
		db, err := sql.Open(map[bool]string{true: "pgx", false: "sqlite"}[strings.HasPrefix(dsn, "postgres")], dsn)
		must(t, "sql.Open", err)
		defer db.Close()
		s := &Store{dialect: goose.DialectSQLite3, w: db}
		if strings.HasPrefix(dsn, "postgres") {
			s.dialect = goose.DialectPostgres
		}
		must(t, "migrating without "+skipped, s.migrateFS(ctx, db, early))
		must(t, "migrating with "+skipped+" too", s.migrateFS(ctx, db, all))
		var n int
		must(t, "goose's versions", db.QueryRowContext(ctx, `SELECT COUNT(*) FROM goose_db_version WHERE version_id > 0`).Scan(&n))
		if n != len(all) {
			t.Errorf("%d migrations applied, want %d", n, len(all))
		}
		must(t, "migrating again", s.migrateFS(ctx, db, all))
	})
}
