package server

import (
	"context"
	"reflect"
	"testing"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
)

// TestPbmChallengeOptIn: a pbm challenge starts a game in the opponent's
// name with no step of theirs, so a player who has not opted in takes
// none; each way of opting in (accept all, a limit, an accept of the
// challenger by name, the API's prefs) lets the challenger start one, and
// taking it back stops them. The challenger's own prefs do not stop the
// game they ask for.
func TestPbmChallengeOptIn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{})
		ctx := context.Background()
		ann, bob, cy := signUp(t, s, "ann"), signUp(t, s, "bob"), signUp(t, s, "cy")
		const nmm = "nine-mens-morris"
		yes, no, ten := true, false, 10
		games := 0
		for _, st := range []struct {
			name  string
			setup func() error
			by    User
			to    string
			spec  GameSpec
			ok    bool
			kind  Kind
		}{
			{"bob has said nothing", nil, ann, "bob", GameSpec{}, false, Forbidden},
			{"ann refuses everyone (her own challenges start still, below)", func() error { return s.SetFilter(ctx, ann, nmm, nil, false) }, ann, "bob", GameSpec{}, false, Forbidden},
			{"bob takes cy by name", func() error { return s.SetFilter(ctx, bob, nmm, []string{"cy"}, true) }, cy, "bob", GameSpec{}, true, 0},
			{"not ann, though", nil, ann, "bob", GameSpec{}, false, Forbidden},
			{"bob takes anyone", func() error { return s.SetFilter(ctx, bob, nmm, nil, true) }, ann, "bob", GameSpec{}, true, 0},
			{"in nine men's morris only", nil, ann, "bob", GameSpec{Variant: "morabaraba"}, false, Forbidden},
			{"bob takes nobody again", func() error { _, err := s.SetPbmPrefs(ctx, bob, nmm, &no, nil); return err }, ann, "bob", GameSpec{}, false, Forbidden},
			{"a limit opts cy in", func() error { return s.SetLimit(ctx, cy, nmm, 5) }, ann, "cy", GameSpec{}, true, 0},
			{"the API's prefs opt in", func() error { _, err := s.SetPbmPrefs(ctx, bob, "morabaraba", &yes, &ten); return err }, ann, "bob", GameSpec{Variant: "morabaraba"}, true, 0},
			{"no user", nil, ann, "zed", GameSpec{}, false, NotFound},
			{"oneself", nil, ann, "ann", GameSpec{}, false, BadRequest},
		} {
			if st.setup != nil {
				if err := st.setup(); err != nil {
					t.Fatalf("%s: setting up: %v", st.name, err)
				}
			}
			g, err := s.PbmChallenge(ctx, st.by, st.to, st.spec)
			if st.ok {
				games++
				if err != nil || g.White != st.by.ID {
					t.Errorf("%s: %s challenges %s: got %+v, %v; want a game with %s white", st.name, st.by.Name, st.to, g, err, st.by.Name)
				}
			} else if KindOf(err) != st.kind {
				t.Errorf("%s: %s challenges %s: got %v (%v), want a %v error", st.name, st.by.Name, st.to, err, KindOf(err), st.kind)
			}
			if got, err := s.st.Games(ctx, store.GameQuery{Status: store.Active}); err != nil || len(got) != games {
				t.Fatalf("%s: %d games, %v; want %d", st.name, len(got), err, games)
			}
		}
	})
}

// TestPbmPrefs: the API lists every preset, the ones never set as taking
// nobody; setting one answers it as stored, names named; bad input is
// refused and changes nothing; guests take no pbm challenges.
func TestPbmPrefs(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	const nmm = "nine-mens-morris"
	ps, err := s.PbmPrefs(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 20 || ps[0].Variant != nmm {
		t.Fatalf("PbmPrefs: got %d variants, the first %+v; want every preset, nine men's morris first", len(ps), ps[0])
	}
	for _, p := range ps {
		if !reflect.DeepEqual(p, wire.ChallengePrefs{Variant: p.Variant, Limit: -1, Allow: []string{}, Deny: []string{}}) {
			t.Errorf("a new player's prefs: got %+v, want no one taken", p)
		}
	}
	if err := s.SetFilter(ctx, ann, nmm, []string{"bob"}, false); err != nil {
		t.Fatal(err)
	}
	yes, three, big, minus2 := true, 3, 1001, -2
	got, err := s.SetPbmPrefs(ctx, ann, nmm, &yes, &three)
	want := wire.ChallengePrefs{Variant: nmm, AcceptAll: true, Limit: 3, Allow: []string{}, Deny: []string{"bob"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("SetPbmPrefs: got %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []struct {
		name    string
		variant string
		all     *bool
		limit   *int
		kind    Kind
	}{
		{"no variant", "", &yes, nil, BadRequest},
		{"not a preset", "nine-mens-morris,flying=never", &yes, nil, BadRequest},
		{"nothing to set", nmm, nil, nil, BadRequest},
		{"a limit too big", nmm, nil, &big, BadRequest},
		{"a limit below -1", nmm, nil, &minus2, BadRequest},
	} {
		if _, err := s.SetPbmPrefs(ctx, bob, bad.variant, bad.all, bad.limit); KindOf(err) != bad.kind {
			t.Errorf("%s: got %v, want a %v error", bad.name, err, bad.kind)
		}
	}
	if ps, err := s.st.AllPrefs(ctx, bob.ID); err != nil || len(ps) != 0 {
		t.Errorf("bob's prefs after the refused calls: got %+v, %v; want none", ps, err)
	}
	guest, _, _, err := s.Guest(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetPbmPrefs(ctx, guest, nmm, &yes, nil); KindOf(err) != Forbidden {
		t.Errorf("a guest opting in: got %v, want a Forbidden error", err)
	}
}
