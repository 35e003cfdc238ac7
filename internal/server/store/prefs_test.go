package store

import (
	"io/fs"
	"reflect"
	"testing"

	"github.com/pressly/goose/v3"
)

// TestChallengePrefsOptIn: a player without prefs takes no pbm challenge;
// each way of saying so (a limit, accept all, an accept of one name)
// stores what it says, SetPrefs keeps the lists (and the limit or accept
// all it is not given), and AllPrefs lists the variants set, by variant.
func TestChallengePrefsOptIn(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		const nmm, tmm = "nine-mens-morris", "twelve-mens-morris"
		cy := f.user("Cy")
		yes, no, two := true, false, 2
		steps := []struct {
			name string
			do   func() error
			user int64
			want ChallengePrefs
		}{
			{"nothing said", func() error { return nil }, f.ann.ID,
				ChallengePrefs{Limit: -1}},
			{"limit 3 opts in", func() error { return s.SetLimit(ctx, f.ann.ID, nmm, 3) }, f.ann.ID,
				ChallengePrefs{Set: true, Limit: 3, AcceptAll: true}},
			{"accept all off keeps the limit", func() error { return s.SetPrefs(ctx, f.ann.ID, nmm, &no, nil) }, f.ann.ID,
				ChallengePrefs{Set: true, Limit: 3}},
			{"accept bob", func() error { return s.SetFilter(ctx, f.ann.ID, nmm, []int64{f.bob.ID}, true) }, f.ann.ID,
				ChallengePrefs{Set: true, Limit: 3, Allow: []int64{f.bob.ID}}},
			{"accept all on keeps the list", func() error { return s.SetPrefs(ctx, f.ann.ID, nmm, &yes, nil) }, f.ann.ID,
				ChallengePrefs{Set: true, Limit: 3, AcceptAll: true, Allow: []int64{f.bob.ID}}},
			{"accept cy only, no row", func() error { return s.SetFilter(ctx, f.bob.ID, nmm, []int64{cy.ID}, true) }, f.bob.ID,
				ChallengePrefs{Limit: -1, Allow: []int64{cy.ID}}},
			{"accept all on, no row before", func() error { return s.SetPrefs(ctx, cy.ID, tmm, &yes, nil) }, cy.ID,
				ChallengePrefs{Set: true, Limit: -1, AcceptAll: true}},
			{"a limit and accept all off at once", func() error { return s.SetPrefs(ctx, cy.ID, tmm, &no, &two) }, cy.ID,
				ChallengePrefs{Set: true, Limit: 2}},
			{"nothing given changes nothing", func() error { return s.SetPrefs(ctx, cy.ID, tmm, nil, nil) }, cy.ID,
				ChallengePrefs{Set: true, Limit: 2}},
		}
		for _, st := range steps {
			must(t, st.name, st.do())
			variant := nmm
			if st.user == cy.ID {
				variant = tmm
			}
			got, err := s.Prefs(ctx, st.user, variant)
			must(t, "Prefs", err)
			if !reflect.DeepEqual(got, st.want) {
				t.Errorf("%s: got %+v, want %+v", st.name, got, st.want)
			}
		}
		// Another variant of Ann's is unset still.
		if got, err := s.Prefs(ctx, f.ann.ID, tmm); err != nil || !reflect.DeepEqual(got, ChallengePrefs{Limit: -1}) {
			t.Errorf("Ann's prefs in %s: got %+v, %v; want the defaults", tmm, got, err)
		}
		must(t, "SetFilter", s.SetFilter(ctx, f.ann.ID, tmm, []int64{cy.ID}, false))
		all, err := s.AllPrefs(ctx, f.ann.ID)
		must(t, "AllPrefs", err)
		want := []VariantPrefs{
			{nmm, ChallengePrefs{Set: true, Limit: 3, AcceptAll: true, Allow: []int64{f.bob.ID}}},
			{tmm, ChallengePrefs{Limit: -1, Deny: []int64{cy.ID}}},
		}
		if !reflect.DeepEqual(all, want) {
			t.Errorf("AllPrefs: got %+v, want %+v", all, want)
		}
		if all, err := s.AllPrefs(ctx, 999); err != nil || len(all) != 0 {
			t.Errorf("AllPrefs of no one: got %+v, %v; want none", all, err)
		}
	})
}

// TestChallengeOptInMigration: migration 10 keeps what stored prefs meant
// under the old default (no row took every challenge): a player who
// refused some challengers and stored no row still takes the others';
// stored rows stay as they were; a player who said nothing takes none.
// Undone, it leaves the rows, which mean the same under the old default.
func TestChallengeOptInMigration(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		cy, dan, eve := f.user("Cy"), f.user("Dan"), f.user("Eve")
		const nmm = "nine-mens-morris"
		fsys, err := fs.Sub(migrations, "migrations")
		must(t, "fs.Sub", err)
		p, err := goose.NewProvider(f.s.dialect, f.s.w, fsys, goose.WithLogger(goose.NopLogger()), goose.WithDisableGlobalRegistry(true))
		must(t, "NewProvider", err)
		if f.s.batch != nil {
			f.s.batch.close() // goose needs the writer connection
		}
		_, err = p.DownTo(f.ctx, 9)
		must(t, "DownTo(9)", err)
		for _, q := range []struct {
			sql  string
			args []any
		}{
			// Ann refused Bob only; Bob refused everyone but Cy; Cy set a
			// limit; Dan accepted Eve only (under the old default, anyone).
			{`INSERT INTO challenge_filters (user_id, variant, challenger_id, allow) VALUES ($1, $2, $3, FALSE)`, []any{f.ann.ID, nmm, f.bob.ID}},
			{`INSERT INTO challenge_prefs (user_id, variant, max_games, accept_all) VALUES ($1, $2, -1, FALSE)`, []any{f.bob.ID, nmm}},
			{`INSERT INTO challenge_filters (user_id, variant, challenger_id, allow) VALUES ($1, $2, $3, TRUE)`, []any{f.bob.ID, nmm, cy.ID}},
			{`INSERT INTO challenge_prefs (user_id, variant, max_games) VALUES ($1, $2, 4)`, []any{cy.ID, nmm}},
			{`INSERT INTO challenge_filters (user_id, variant, challenger_id, allow) VALUES ($1, $2, $3, TRUE)`, []any{dan.ID, nmm, eve.ID}},
		} {
			_, err := f.s.w.ExecContext(f.ctx, q.sql, q.args...)
			must(t, q.sql, err)
		}
		_, err = p.Up(f.ctx)
		must(t, "Up", err)
		for _, tc := range []struct {
			who  string
			user int64
			want ChallengePrefs
		}{
			{"Ann", f.ann.ID, ChallengePrefs{Set: true, Limit: -1, AcceptAll: true, Deny: []int64{f.bob.ID}}},
			{"Bob", f.bob.ID, ChallengePrefs{Set: true, Limit: -1, Allow: []int64{cy.ID}}},
			{"Cy", cy.ID, ChallengePrefs{Set: true, Limit: 4, AcceptAll: true}},
			{"Dan", dan.ID, ChallengePrefs{Limit: -1, Allow: []int64{eve.ID}}},
			{"Eve", eve.ID, ChallengePrefs{Limit: -1}},
		} {
			got, err := f.s.Prefs(f.ctx, tc.user, nmm)
			must(t, "Prefs", err)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s's prefs after migration 10: got %+v, want %+v", tc.who, got, tc.want)
			}
		}
		// A row stored without accept_all takes the new default.
		_, err = f.s.w.ExecContext(f.ctx, `INSERT INTO challenge_prefs (user_id, variant, max_games) VALUES ($1, $2, 2)`, eve.ID, "mill")
		must(t, "a row without accept_all", err)
		if got, err := f.s.Prefs(f.ctx, eve.ID, "mill"); err != nil || got.AcceptAll {
			t.Errorf("a row stored without accept_all: got %+v, %v; want AcceptAll false", got, err)
		}
		_, err = p.DownTo(f.ctx, 9)
		must(t, "DownTo(9) with data", err)
		var n int
		must(t, "count", f.s.w.QueryRowContext(f.ctx, `SELECT count(*) FROM challenge_prefs`).Scan(&n))
		if n != 4 {
			t.Errorf("rows after undoing: got %d, want 4", n)
		}
		_, err = p.Up(f.ctx)
		must(t, "Up again", err)
	})
}
