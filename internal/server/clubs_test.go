package server

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
)

// TestValidClubName: what a club may be called, and what it may not.
func TestValidClubName(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"Mill Club", true},
		{"Les Moulins d'Orléans", true},
		{"Мельница", true},
		{"三目並べ", true},
		{"Club 42", true},
		{"R&D - Mills", true},
		{"abc", true},
		{strings.Repeat("m", MaxClubName), true},
		{"ab", false},                                // too short
		{strings.Repeat("m", MaxClubName+1), false},  // too long
		{"a-b", false},                               // 2 letters or digits
		{"-Mill", false},                             // starts with punctuation
		{" Mill", false},                             // starts with a space (the service trims first)
		{"Mill ", false},                             // ends with one
		{"Mill  Club", false},                        // two spaces
		{"Mill\tClub", false},                        // a tab
		{"Mill<b>", false},                           // markup
		{"Mill\u202eClub", false},                    // a direction override
		{"Mill\u200bClub", false},                    // a zero-width space
		{"Mill Сlub", false},                         // a Cyrillic С among Latin letters
		{"e\u0301cole", false},                       // a combining accent (é spelled in two)
		{"Mill\x00", false},                          // a NUL
		{string([]byte{'M', 'i', 'l', 0xff}), false}, // not UTF-8
	} {
		err := ValidClubName(c.name)
		if (err == nil) != c.ok {
			t.Errorf("ValidClubName(%q): got %v, want ok %v", c.name, err, c.ok)
		}
		if err != nil && KindOf(err) != BadRequest {
			t.Errorf("ValidClubName(%q): kind %d, want BadRequest", c.name, KindOf(err))
		}
	}
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"  two lines\r\nand a\ttab  ", "two lines\nand a\ttab", true},
		{strings.Repeat("é", MaxClubDescription/2), strings.Repeat("é", MaxClubDescription/2), true},
		{strings.Repeat("x", MaxClubDescription+1), "", false},
		{"bell\a", "", false},
		{"turn \u2067around", "", false},
		{string([]byte{0xff}), "", false},
	} {
		got, err := validDescription(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("validDescription(%q): got %q, %v; want %q, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestClubs(t *testing.T) { storetest.Each(t, testClubs) }

// testClubs: a closed club's life through the service: who may do what
// (guests no club, members no leader's work), the quotas of clubs led,
// joined and requested, and the rate of creation, each refusal changing
// nothing; the last-leader rule and its clear words; the requests seen by
// leaders only; a deleted leader's club handed on.
func testClubs(t *testing.T, dsn string) {
	rates := Rates{Signup: 1000, SignupBurst: 1000, Club: 1e-9, ClubBurst: 2}
	s := newServiceOn(t, dsn, Config{Rates: rates, Quotas: Quotas{ClubsLed: 2, ClubsJoined: 3, ClubRequests: 1}})
	ctx := context.Background()
	ann, bob, cy, dee := signUp(t, s, "ann"), signUp(t, s, "bob"), signUp(t, s, "cy"), signUp(t, s, "dee")
	guest, _, _, err := s.Guest(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}

	_, err = s.CreateClub(ctx, guest, "Guests", "", true)
	wantKind(t, "a guest creates a club", err, Forbidden)
	_, err = s.CreateClub(ctx, ann, "x", "", false)
	wantKind(t, "a bad name", err, BadRequest)
	_, err = s.CreateClub(ctx, ann, "Mill", strings.Repeat("x", 2000), false)
	wantKind(t, "a long description", err, BadRequest)
	full, err := s.CreateClub(ctx, ann, "  The Mill  ", "We play nine men's morris.", false)
	if err != nil {
		t.Fatal(err)
	}
	id := full.ID
	want := wire.ClubFull{
		Club:    wire.Club{ID: id, Name: "The Mill", Description: "We play nine men's morris.", Members: 1, CreatedMs: full.CreatedMs},
		Leaders: []wire.ClubMember{{ID: ann.ID, Name: "ann", Leader: true, JoinedMs: full.CreatedMs}},
		Page:    []wire.ClubMember{{ID: ann.ID, Name: "ann", Leader: true, JoinedMs: full.CreatedMs}},
		Role:    "leader", Requests: &wire.ClubRequests{Oldest: []wire.ClubRequest{}},
	}
	if !reflect.DeepEqual(full, want) {
		t.Errorf("CreateClub: got %+v, want %+v", full, want)
	}
	_, err = s.CreateClub(ctx, bob, "the-mill", "", true)
	wantKind(t, "a name taken", err, Conflict)
	if _, err := s.CreateClub(ctx, ann, "Second", "", true); err != nil {
		t.Fatal(err)
	}
	_, err = s.CreateClub(ctx, ann, "Third", "", true)
	wantKind(t, "a third club led, 2 at most", err, Conflict)

	// Requests: bob asks (his one request), and may not ask elsewhere.
	m, err := s.JoinClub(ctx, bob, id)
	if err != nil || m != (wire.ClubMembership{Club: id, User: "bob", Role: "requested"}) {
		t.Fatalf("bob joins a closed club: got %+v, %v", m, err)
	}
	_, err = s.JoinClub(ctx, bob, id)
	wantKind(t, "bob asks again", err, Conflict)
	_, err = s.JoinClub(ctx, guest, id)
	wantKind(t, "a guest asks", err, Forbidden)
	other, err := s.CreateClub(ctx, dee, "Other Closed", "", false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.JoinClub(ctx, bob, other.ID)
	wantKind(t, "a second request, 1 at most", err, Conflict)
	_, err = s.JoinClub(ctx, bob, 999)
	wantKind(t, "no club", err, NotFound)
	if _, err := s.JoinClub(ctx, cy, id); err != nil {
		t.Fatal(err)
	}

	// Only leaders see the requests, and answer them.
	view := func(u *User) wire.ClubFull {
		t.Helper()
		v, err := s.Club(ctx, u, id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := view(&ann); v.Requests == nil || v.Requests.Count != 2 || v.Requests.Oldest[0].Name != "bob" {
		t.Errorf("the leader's view: requests %+v, want bob's and cy's", v.Requests)
	}
	if v := view(&bob); v.Requests != nil || v.Role != "requested" {
		t.Errorf("bob's view: role %q, requests %+v; want requested and none shown", v.Role, v.Requests)
	}
	if v := view(nil); v.Requests != nil || v.Role != "" {
		t.Errorf("an anonymous view: role %q, requests %+v; want none", v.Role, v.Requests)
	}
	_, err = s.AnswerClubRequest(ctx, cy, id, "bob", true)
	wantKind(t, "cy, who asked, accepts bob", err, Forbidden)
	_, err = s.AnswerClubRequest(ctx, ann, id, "nobody", true)
	wantKind(t, "accepting no one", err, NotFound)
	_, err = s.AnswerClubRequest(ctx, ann, id, "dee", true)
	wantKind(t, "accepting dee, who did not ask", err, NotFound)
	_, err = s.AnswerClubRequest(ctx, ann, id, "", true)
	wantKind(t, "accepting without a name", err, BadRequest)
	if m, err := s.AnswerClubRequest(ctx, ann, id, "BOB", true); err != nil || m.Role != "member" || m.User != "bob" {
		t.Fatalf("ann accepts bob: got %+v, %v", m, err)
	}
	if m, err := s.AnswerClubRequest(ctx, ann, id, "cy", false); err != nil || m.Role != "none" {
		t.Fatalf("ann declines cy: got %+v, %v", m, err)
	}
	_, err = s.RemoveClubMember(ctx, bob, id, "ann")
	wantKind(t, "bob, a member, removes ann", err, Forbidden)
	_, err = s.SetClubLeader(ctx, bob, id, "bob", true)
	wantKind(t, "bob makes himself a leader", err, Forbidden)

	// The last leader.
	_, err = s.LeaveClub(ctx, ann, id)
	wantKind(t, "ann, the last leader, leaves", err, Conflict)
	if err == nil || !strings.Contains(err.Error(), "last leader") {
		t.Errorf("ann leaves: got %v, want words about the last leader", err)
	}
	_, err = s.SetClubLeader(ctx, ann, id, "ann", false)
	wantKind(t, "ann steps down alone", err, Conflict)
	_, err = s.RemoveClubMember(ctx, ann, id, "ann")
	wantKind(t, "ann removes herself", err, Conflict)
	if v := view(&ann); v.Members != 2 || len(v.Leaders) != 1 || v.Role != "leader" {
		t.Errorf("after the refusals: %d members, leaders %+v, ann %s; want 2, ann, leader", v.Members, v.Leaders, v.Role)
	}

	// Bob leads 0 of 2: he may lead; dee leads 1 (Other Closed) and is
	// in it; make her lead a second and she may not lead a third.
	if _, err := s.SetClubLeader(ctx, ann, id, "bob", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetClubLeader(ctx, ann, id, "ann", false); err != nil {
		t.Fatalf("ann steps down beside bob: %v", err)
	}
	_, err = s.SetClubLeader(ctx, bob, id, "cy", true)
	wantKind(t, "bob makes cy, not a member, a leader", err, NotFound)
	if _, err := s.JoinClub(ctx, dee, full.ID); err != nil { // her one request
		t.Fatal(err)
	}
	if _, err := s.AnswerClubRequest(ctx, bob, id, "dee", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateClub(ctx, dee, "Dee's Second", "", true); err != nil {
		t.Fatal(err)
	}
	_, err = s.SetClubLeader(ctx, bob, id, "dee", true)
	wantKind(t, "dee, leading 2 already, made a leader", err, Conflict)

	// Joined: dee is in Other Closed, The Mill and Dee's Second: 3 of 3.
	third, err := s.CreateClub(ctx, cy, "Cy Open", "", true)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.JoinClub(ctx, dee, third.ID)
	wantKind(t, "a fourth club joined, 3 at most", err, Conflict)

	// Leaving; the last member dissolves the club.
	if m, err := s.LeaveClub(ctx, ann, id); err != nil || m.Role != "none" || m.Dissolved {
		t.Fatalf("ann leaves: got %+v, %v", m, err)
	}
	_, err = s.LeaveClub(ctx, ann, id)
	wantKind(t, "ann leaves again", err, NotFound)
	if m, err := s.LeaveClub(ctx, cy, third.ID); err != nil || !m.Dissolved {
		t.Fatalf("cy, alone, leaves: got %+v, %v", m, err)
	}
	_, err = s.Club(ctx, nil, third.ID, 0, 0)
	wantKind(t, "a dissolved club", err, NotFound)

	// The rate of creation (2, then almost never): a club made and
	// dissolved still counts.
	again, err := s.CreateClub(ctx, cy, "Cy Open", "", true)
	if err != nil {
		t.Fatalf("the name of a dissolved club, again: %v", err)
	}
	if _, err := s.LeaveClub(ctx, cy, again.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.CreateClub(ctx, cy, "Cy Thrice", "", true)
	wantKind(t, "a third club created at burst 2", err, TooMany)

	// A deleted account leaves: dee becomes The Mill's leader after bob.
	if _, err := s.DeleteAccount(ctx, "test", "bob", "secret-bob"); err != nil {
		t.Fatal(err)
	}
	if v := view(&dee); len(v.Leaders) != 1 || v.Leaders[0].Name != "dee" || v.Members != 1 {
		t.Errorf("after bob's deletion: leaders %+v, %d members; want dee alone", v.Leaders, v.Members)
	}
	clubs, err := s.UserClubs(ctx, dee.ID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range clubs {
		names = append(names, fmt.Sprintf("%s/%v", c.Name, c.Leader))
	}
	if want := []string{"Dee's Second/true", "Other Closed/true", "The Mill/true"}; !reflect.DeepEqual(names, want) {
		t.Errorf("dee's clubs: got %q, want %q", names, want)
	}
}

// TestClubPages: bad pages are refused; a club list and a club's members
// come page by page.
func TestClubPages(t *testing.T) {
	s := newService(t, Config{Rates: Rates{Signup: 1000, SignupBurst: 1000}})
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	c, err := s.CreateClub(ctx, ann, "Pages", "", true)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		u := signUp(t, s, fmt.Sprintf("p%d", i))
		if _, err := s.JoinClub(ctx, u, c.ID); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []int{-1, MaxClubPage + 1} {
		_, err := s.Club(ctx, nil, c.ID, 0, l)
		wantKind(t, fmt.Sprintf("a page of %d members", l), err, BadRequest)
		_, err = s.Clubs(ctx, "", "", l)
		wantKind(t, fmt.Sprintf("a page of %d clubs", l), err, BadRequest)
	}
	_, err = s.Clubs(ctx, strings.Repeat("m", MaxClubName+1), "", 0)
	wantKind(t, "a long search", err, BadRequest)
	var after int64
	var got []string
	for range 10 {
		v, err := s.Club(ctx, nil, c.ID, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range v.Page {
			got = append(got, m.Name)
			after = m.ID
		}
		if !v.More {
			break
		}
	}
	if want := []string{"ann", "p0", "p1", "p2", "p3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("the pages of members: got %q, want %q", got, want)
	}
}
