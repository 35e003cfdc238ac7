package store

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"
)

// clubState is what a test checks of a club after each step: its count
// of members, its members by name with their role, and its requests.
func clubState(t *testing.T, f *fixture, club int64) (members int, roles map[string]Role, requests []string) {
	t.Helper()
	c, err := f.s.Club(f.ctx, club)
	must(t, "Club", err)
	roles = map[string]Role{}
	ms, more, err := f.s.ClubMembers(f.ctx, club, 0, 1000)
	must(t, "ClubMembers", err)
	if more {
		t.Fatalf("club %d: more than 1000 members", club)
	}
	for _, m := range ms {
		roles[m.Name] = RoleMember
		if m.Leader {
			roles[m.Name] = RoleLeader
		}
	}
	if len(ms) != c.Members {
		t.Errorf("club %d counts %d members, has %d", club, c.Members, len(ms))
	}
	rs, total, err := f.s.ClubRequests(f.ctx, club, 1000)
	must(t, "ClubRequests", err)
	for _, r := range rs {
		requests = append(requests, r.Name)
	}
	if total != len(rs) {
		t.Errorf("club %d: %d requests listed, %d counted", club, len(rs), total)
	}
	return c.Members, roles, requests
}

// TestClubLife: a club from its creation to its end. Its creator is its
// leader; anyone joins an open club at once and a closed one by a request
// that a leader (only) accepts or declines; the last leader cannot leave,
// step down or be removed while others remain, and every refusal changes
// nothing; the last member leaving deletes the club and frees its name.
func TestClubLife(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		cy, dee := f.user("Cy"), f.user("Dee")
		c, err := s.CreateClub(ctx, Club{Name: "Mill Club", Description: "nine men", CreatedBy: f.ann.ID})
		must(t, "CreateClub", err)
		if c.ID != 1 || c.Members != 1 || c.Open || c.CreatedAt.IsZero() {
			t.Errorf("CreateClub: got %+v, want club 1, closed, of one member", c)
		}
		for _, name := range []string{"mill club", "MILL-CLUB", "Mill.Club", "millclub"} {
			_, err := s.CreateClub(ctx, Club{Name: name, CreatedBy: f.bob.ID})
			wantErr(t, "CreateClub("+name+")", err, ErrDuplicate)
		}
		_, err = s.CreateClub(ctx, Club{Name: "Ghosts", CreatedBy: 999})
		wantErr(t, "CreateClub by no one", err, ErrNotFound)
		got, err := s.Club(ctx, c.ID)
		must(t, "Club", err)
		if got != c {
			t.Errorf("Club: got %+v, want %+v", got, c)
		}

		// Steps, each with what it returns and what the club is after it.
		type state struct {
			members  int
			roles    map[string]Role
			requests []string
		}
		ann, bob := f.ann.ID, f.bob.ID
		steps := []struct {
			name  string
			do    func() error
			want  error
			after state
		}{
			{"bob asks to join the closed club", func() error {
				r, err := s.JoinClub(ctx, c.ID, bob, t0)
				if err == nil && r != RoleRequested {
					return fmt.Errorf("role %q, want requested", r)
				}
				return err
			}, nil, state{1, map[string]Role{"Ann": RoleLeader}, []string{"Bob"}}},
			{"bob asks again", func() error { _, err := s.JoinClub(ctx, c.ID, bob, t0); return err }, ErrConflict,
				state{1, map[string]Role{"Ann": RoleLeader}, []string{"Bob"}}},
			{"cy asks", func() error { _, err := s.JoinClub(ctx, c.ID, cy.ID, t0.Add(1)); return err }, nil,
				state{1, map[string]Role{"Ann": RoleLeader}, []string{"Bob", "Cy"}}},
			{"cy, not a leader, accepts bob", func() error { return s.AnswerClubRequest(ctx, c.ID, cy.ID, bob, true, t0) }, ErrNotLeader,
				state{1, map[string]Role{"Ann": RoleLeader}, []string{"Bob", "Cy"}}},
			{"ann accepts bob", func() error { return s.AnswerClubRequest(ctx, c.ID, ann, bob, true, t0) }, nil,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, []string{"Cy"}}},
			{"ann accepts bob again", func() error { return s.AnswerClubRequest(ctx, c.ID, ann, bob, true, t0) }, ErrNotFound,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, []string{"Cy"}}},
			{"bob, a member, declines cy", func() error { return s.AnswerClubRequest(ctx, c.ID, bob, cy.ID, false, t0) }, ErrNotLeader,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, []string{"Cy"}}},
			{"ann declines cy", func() error { return s.AnswerClubRequest(ctx, c.ID, ann, cy.ID, false, t0) }, nil,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, nil}},
			{"dee asks, then withdraws", func() error {
				if _, err := s.JoinClub(ctx, c.ID, dee.ID, t0); err != nil {
					return err
				}
				_, err := s.LeaveClub(ctx, c.ID, dee.ID)
				return err
			}, nil, state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, nil}},
			{"ann, the last leader, leaves", func() error { _, err := s.LeaveClub(ctx, c.ID, ann); return err }, ErrLastLeader,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, nil}},
			{"ann steps down", func() error { return s.SetClubLeader(ctx, c.ID, ann, ann, false) }, ErrLastLeader,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, nil}},
			{"ann removes herself", func() error { _, err := s.RemoveClubMember(ctx, c.ID, ann, ann); return err }, ErrLastLeader,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, nil}},
			{"bob, not a leader, makes himself one", func() error { return s.SetClubLeader(ctx, c.ID, bob, bob, true) }, ErrNotLeader,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, nil}},
			{"bob, not a leader, removes ann", func() error { _, err := s.RemoveClubMember(ctx, c.ID, bob, ann); return err }, ErrNotLeader,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, nil}},
			{"ann makes cy, not a member, a leader", func() error { return s.SetClubLeader(ctx, c.ID, ann, cy.ID, true) }, ErrNotFound,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleMember}, nil}},
			{"ann makes bob a leader", func() error { return s.SetClubLeader(ctx, c.ID, ann, bob, true) }, nil,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleLeader}, nil}},
			{"ann makes bob a leader again", func() error { return s.SetClubLeader(ctx, c.ID, ann, bob, true) }, nil,
				state{2, map[string]Role{"Ann": RoleLeader, "Bob": RoleLeader}, nil}},
			{"ann steps down", func() error { return s.SetClubLeader(ctx, c.ID, ann, ann, false) }, nil,
				state{2, map[string]Role{"Ann": RoleMember, "Bob": RoleLeader}, nil}},
			{"bob sets himself down", func() error { return s.SetClubLeader(ctx, c.ID, bob, bob, false) }, ErrLastLeader,
				state{2, map[string]Role{"Ann": RoleMember, "Bob": RoleLeader}, nil}},
			{"bob removes ann", func() error { _, err := s.RemoveClubMember(ctx, c.ID, bob, ann); return err }, nil,
				state{1, map[string]Role{"Bob": RoleLeader}, nil}},
			{"bob removes ann again", func() error { _, err := s.RemoveClubMember(ctx, c.ID, bob, ann); return err }, ErrNotFound,
				state{1, map[string]Role{"Bob": RoleLeader}, nil}},
			{"ann leaves a club she is not in", func() error { _, err := s.LeaveClub(ctx, c.ID, ann); return err }, ErrNotFound,
				state{1, map[string]Role{"Bob": RoleLeader}, nil}},
			{"the club opens; cy joins at once", func() error {
				if _, err := s.w.ExecContext(ctx, `UPDATE clubs SET open = TRUE WHERE id = $1`, c.ID); err != nil {
					return err
				}
				r, err := s.JoinClub(ctx, c.ID, cy.ID, t0)
				if err == nil && r != RoleMember {
					return fmt.Errorf("role %q, want member", r)
				}
				return err
			}, nil, state{2, map[string]Role{"Bob": RoleLeader, "Cy": RoleMember}, nil}},
			{"cy joins again", func() error { _, err := s.JoinClub(ctx, c.ID, cy.ID, t0); return err }, ErrConflict,
				state{2, map[string]Role{"Bob": RoleLeader, "Cy": RoleMember}, nil}},
			{"no one joins", func() error { _, err := s.JoinClub(ctx, c.ID, 999, t0); return err }, ErrNotFound,
				state{2, map[string]Role{"Bob": RoleLeader, "Cy": RoleMember}, nil}},
			{"cy leaves", func() error { _, err := s.LeaveClub(ctx, c.ID, cy.ID); return err }, nil,
				state{1, map[string]Role{"Bob": RoleLeader}, nil}},
		}
		for _, st := range steps {
			if err := st.do(); (st.want == nil) != (err == nil) || st.want != nil && !errors.Is(err, st.want) {
				t.Fatalf("%s: got error %v, want %v", st.name, err, st.want)
			}
			n, roles, reqs := clubState(t, f, c.ID)
			if got := (state{n, roles, reqs}); !reflect.DeepEqual(got, st.after) {
				t.Fatalf("%s: the club is %+v, want %+v", st.name, got, st.after)
			}
		}
		if role, err := s.ClubRole(ctx, c.ID, f.bob.ID); err != nil || role != RoleLeader {
			t.Errorf("ClubRole(bob): got %q, %v; want leader", role, err)
		}
		if role, err := s.ClubRole(ctx, 999, f.bob.ID); err != nil || role != RoleNone {
			t.Errorf("ClubRole in no club: got %q, %v; want none", role, err)
		}

		// The last member leaving deletes the club: its name is free.
		dissolved, err := s.LeaveClub(ctx, c.ID, f.bob.ID)
		if err != nil || !dissolved {
			t.Fatalf("the last member leaves: got %v, %v; want the club dissolved", dissolved, err)
		}
		_, err = s.Club(ctx, c.ID)
		wantErr(t, "Club after the end", err, ErrNotFound)
		_, err = s.JoinClub(ctx, c.ID, cy.ID, t0)
		wantErr(t, "JoinClub after the end", err, ErrNotFound)
		if _, err := s.CreateClub(ctx, Club{Name: "mill-club", CreatedBy: cy.ID}); err != nil {
			t.Errorf("the name of a dissolved club: %v, want it free", err)
		}
	})
}

// TestClubLists: the pages of clubs (by key, searched in the key), of a
// club's members (by user id), its leaders, a user's clubs and counts.
func TestClubLists(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		s.now = func() time.Time { return t0 } // the clubs' creators join at t0
		var ids []int64
		for _, name := range []string{"Zeta Mills", "alpha mill", "Beta", "The Mill-Wrights", "Gamma 9"} {
			c, err := s.CreateClub(ctx, Club{Name: name, Open: true, CreatedBy: f.ann.ID})
			must(t, "CreateClub "+name, err)
			ids = append(ids, c.ID)
		}
		names := func(q ClubQuery) ([]string, bool) {
			t.Helper()
			cs, more, err := s.Clubs(ctx, q)
			must(t, fmt.Sprintf("Clubs(%+v)", q), err)
			var out []string
			for _, c := range cs {
				out = append(out, c.Name)
			}
			return out, more
		}
		for _, c := range []struct {
			q    ClubQuery
			want []string
			more bool
		}{
			{ClubQuery{Limit: 2}, []string{"alpha mill", "Beta"}, true},
			{ClubQuery{After: "Beta", Limit: 2}, []string{"Gamma 9", "The Mill-Wrights"}, true},
			{ClubQuery{After: "the mill wrights", Limit: 2}, []string{"Zeta Mills"}, false},
			{ClubQuery{Search: "MILL", Limit: 10}, []string{"alpha mill", "The Mill-Wrights", "Zeta Mills"}, false},
			{ClubQuery{Search: "mill w", Limit: 10}, []string{"The Mill-Wrights"}, false},
			{ClubQuery{Search: "mill", After: "alpha mill", Limit: 1}, []string{"The Mill-Wrights"}, true},
			{ClubQuery{Search: "%", Limit: 10}, []string{"alpha mill", "Beta", "Gamma 9", "The Mill-Wrights", "Zeta Mills"}, false},
			{ClubQuery{Search: "nothing", Limit: 10}, nil, false},
		} {
			got, more := names(c.q)
			if !reflect.DeepEqual(got, c.want) || more != c.more {
				t.Errorf("Clubs(%+v): got %q, more %v; want %q, more %v", c.q, got, more, c.want, c.more)
			}
		}

		// Members page by user id; leaders come by seniority.
		var users []User
		for i := range 7 {
			u := f.user(fmt.Sprintf("m%d", i))
			users = append(users, u)
			_, err := s.JoinClub(ctx, ids[0], u.ID, t0.Add(time.Second))
			must(t, "JoinClub", err)
		}
		must(t, "SetClubLeader", s.SetClubLeader(ctx, ids[0], f.ann.ID, users[3].ID, true))
		var after int64
		var seen []string
		for pages := 0; ; pages++ {
			ms, more, err := s.ClubMembers(ctx, ids[0], after, 3)
			must(t, "ClubMembers", err)
			for _, m := range ms {
				seen = append(seen, m.Name)
				after = m.User
			}
			if !more {
				if pages != 2 {
					t.Errorf("8 members by 3: %d pages, want 3", pages+1)
				}
				break
			}
		}
		if want := []string{"Ann", "m0", "m1", "m2", "m3", "m4", "m5", "m6"}; !reflect.DeepEqual(seen, want) {
			t.Errorf("the pages of members: got %q, want %q", seen, want)
		}
		ls, err := s.ClubLeaders(ctx, ids[0])
		must(t, "ClubLeaders", err)
		if len(ls) != 2 || ls[0].Name != "Ann" || ls[1].Name != "m3" {
			t.Errorf("ClubLeaders: got %+v, want Ann then m3", ls)
		}

		// Ann's clubs and counts; Bob's request counted.
		_, err = s.w.ExecContext(ctx, `UPDATE clubs SET open = FALSE WHERE id = $1`, ids[2])
		must(t, "closing Beta", err)
		_, err = s.JoinClub(ctx, ids[2], f.bob.ID, t0)
		must(t, "JoinClub Beta", err)
		_, err = s.JoinClub(ctx, ids[1], f.bob.ID, t0)
		must(t, "JoinClub alpha mill", err)
		uc, err := s.UserClubs(ctx, f.bob.ID)
		must(t, "UserClubs", err)
		if want := []UserClub{{Club: ids[1], Name: "alpha mill"}}; !reflect.DeepEqual(uc, want) {
			t.Errorf("UserClubs(bob): got %+v, want %+v", uc, want)
		}
		n, err := s.ClubCounts(ctx, f.bob.ID)
		must(t, "ClubCounts", err)
		if want := (ClubCounts{Joined: 1, Requests: 1}); n != want {
			t.Errorf("ClubCounts(bob): got %+v, want %+v", n, want)
		}
		n, err = s.ClubCounts(ctx, f.ann.ID)
		must(t, "ClubCounts", err)
		if want := (ClubCounts{Led: 5, Joined: 5}); n != want {
			t.Errorf("ClubCounts(ann): got %+v, want %+v", n, want)
		}
		if n, err := s.ClubCounts(ctx, 999); err != nil || n != (ClubCounts{}) {
			t.Errorf("ClubCounts of no one: got %+v, %v", n, err)
		}
	})
}

// TestClubsOfDeletedUser: a deleted account leaves its clubs: its
// requests go, a club it was the only member of is deleted, and one it
// was the last leader of gets its longest-standing member as leader.
func TestClubsOfDeletedUser(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		cy := f.user("Cy")
		alone, err := s.CreateClub(ctx, Club{Name: "Alone", CreatedBy: f.ann.ID})
		must(t, "CreateClub", err)
		led, err := s.CreateClub(ctx, Club{Name: "Led", Open: true, CreatedBy: f.ann.ID})
		must(t, "CreateClub", err)
		other, err := s.CreateClub(ctx, Club{Name: "Other", CreatedBy: f.bob.ID})
		must(t, "CreateClub", err)
		_, err = s.JoinClub(ctx, led.ID, cy.ID, t0)
		must(t, "JoinClub", err)
		_, err = s.JoinClub(ctx, led.ID, f.bob.ID, t0.Add(time.Second))
		must(t, "JoinClub", err)
		_, err = s.JoinClub(ctx, other.ID, f.ann.ID, t0)
		must(t, "JoinClub", err)

		must(t, "DeleteUser", s.DeleteUser(ctx, f.ann.ID, "deleted-1"))
		_, err = s.Club(ctx, alone.ID)
		wantErr(t, "the club of none", err, ErrNotFound)
		n, roles, _ := clubState(t, f, led.ID)
		if want := map[string]Role{"Cy": RoleLeader, "Bob": RoleMember}; n != 2 || !reflect.DeepEqual(roles, want) {
			t.Errorf("the club Ann led: %d members %v, want 2, %v", n, roles, want)
		}
		if _, _, reqs := clubState(t, f, other.ID); len(reqs) != 0 {
			t.Errorf("the club Ann asked to join: requests %q, want none", reqs)
		}
	})
}

// TestClubLastLeaderRace: two leaders stepping down at once, or leaving,
// from many connections: one of them stays a leader, whichever the
// database (PostgreSQL runs the transactions side by side; each writes
// the club's row first, so they take turns).
func TestClubLastLeaderRace(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		for round := range 10 {
			c, err := s.CreateClub(ctx, Club{Name: fmt.Sprintf("Race %d", round), Open: true, CreatedBy: f.ann.ID})
			must(t, "CreateClub", err)
			cy := f.user(fmt.Sprintf("cy%d", round))
			for _, u := range []int64{f.bob.ID, cy.ID} {
				_, err := s.JoinClub(ctx, c.ID, u, t0)
				must(t, "JoinClub", err)
			}
			must(t, "SetClubLeader", s.SetClubLeader(ctx, c.ID, f.ann.ID, f.bob.ID, true))
			var wg sync.WaitGroup
			errs := make([]error, 2)
			wg.Add(2)
			go func() {
				defer wg.Done()
				errs[0] = s.SetClubLeader(ctx, c.ID, f.ann.ID, f.ann.ID, false)
			}()
			go func() {
				defer wg.Done()
				_, errs[1] = s.LeaveClub(ctx, c.ID, f.bob.ID)
			}()
			wg.Wait()
			ls, err := s.ClubLeaders(ctx, c.ID)
			must(t, "ClubLeaders", err)
			failed := 0
			for _, err := range errs {
				if errors.Is(err, ErrLastLeader) {
					failed++
				} else if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
			}
			if len(ls) != 1 || failed != 1 {
				t.Fatalf("round %d: %d leaders left, %d refusals; want 1 and 1", round, len(ls), failed)
			}
		}
	})
}

// TestEditClub: a leader sets the description and openness; opening a
// closed club makes its requests members, counted; one who does not lead
// changes nothing.
func TestEditClub(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		cy := f.user("Cy")
		c, err := s.CreateClub(ctx, Club{Name: "Quiet Corner", Description: "slow", CreatedBy: f.ann.ID})
		must(t, "CreateClub", err)
		for _, u := range []int64{f.bob.ID, cy.ID} {
			role, err := s.JoinClub(ctx, c.ID, u, t0)
			if err != nil || role != RoleRequested {
				t.Fatalf("JoinClub(%d): %v, %v", u, role, err)
			}
		}
		_, err = s.EditClub(ctx, c.ID, f.bob.ID, "mine now", true, t0)
		wantErr(t, "EditClub by one who asked", err, ErrNotLeader)
		_, err = s.EditClub(ctx, 999, f.ann.ID, "x", true, t0)
		wantErr(t, "EditClub of no club", err, ErrNotFound)
		n, err := s.EditClub(ctx, c.ID, f.ann.ID, "slow games", false, t0)
		must(t, "EditClub", err)
		if got, _ := s.Club(ctx, c.ID); n != 0 || got.Description != "slow games" || got.Open || got.Members != 1 {
			t.Errorf("the club after its description changed: %+v, %d accepted", got, n)
		}
		n, err = s.EditClub(ctx, c.ID, f.ann.ID, "slow games", true, t0)
		must(t, "EditClub (open)", err)
		got, _ := s.Club(ctx, c.ID)
		reqs, count, _ := s.ClubRequests(ctx, c.ID, 10)
		if n != 2 || !got.Open || got.Members != 3 || count != 0 || len(reqs) != 0 {
			t.Errorf("the club opened: %+v, %d accepted, requests %v (%d)", got, n, reqs, count)
		}
		for _, u := range []int64{f.bob.ID, cy.ID} {
			if role, _ := s.ClubRole(ctx, c.ID, u); role != RoleMember {
				t.Errorf("user %d after the opening: %q, want a member", u, role)
			}
		}
		n, err = s.EditClub(ctx, c.ID, f.ann.ID, "slow games", true, t0)
		if err != nil || n != 0 {
			t.Errorf("an open club edited again: %d accepted, %v", n, err)
		}
	})
}
