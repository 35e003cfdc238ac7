package server

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Clubs. A club has a name, a description, members and leaders; an open
// club takes anyone at once, a closed one takes a request that a leader
// accepts or declines. Its creator is its first leader, and leaders are
// equals: any of them accepts, declines and removes members (leaders too),
// makes a member a leader or sets a leader down (themselves included). A
// club with members always has a leader: what would leave it none is
// refused (the store checks it in the change's own transaction), so the
// last leader makes another member a leader before leaving. The last
// member leaving dissolves the club: it is deleted and its name is free
// again. A deleted account leaves its clubs (store.DeleteUser: a club it
// was the last leader of gets its longest-standing member as leader).
//
// Who may do what: reading a club, its members and the list of clubs
// needs no account; joining, leaving and creating need one that is not a
// guest (a guest costs nothing to make, so it would bypass every quota
// per user); the rest needs a leader. What one user holds is bounded
// (Quotas.ClubsLed, ClubsJoined, ClubRequests), checked under the user's
// lock as the other quotas per user (held.go), and creating clubs has a
// rate of its own (Rates.Club).

// Limits of clubs' names, descriptions and pages.
const (
	MinClubName        = 3    // characters, and as many letters or digits
	MaxClubName        = 40   // characters
	MaxClubDescription = 1000 // bytes
	MaxClubLeaders     = 20   // leaders of one club
	ClubPage           = 50   // members or clubs a page holds unless asked for fewer or more
	MaxClubPage        = 100  // the most a page holds, and the requests its leaders see
)

// clubNamePunct are the characters a club's name may hold beside letters,
// digits and single spaces.
const clubNamePunct = "-_.'&"

// ValidClubName reports whether name, trimmed of spaces, can be a club's
// name: 3 to 40 characters, letters (of one script: a name mixing, say,
// Latin and Cyrillic letters could pass for another club's), digits,
// single spaces and - _ . ' &, starting with a letter or digit, with at
// least 3 letters or digits. Names are one name when they are the same
// ignoring case, spaces and punctuation (store.ClubKey).
func ValidClubName(name string) error {
	n := utf8.RuneCountInString(name)
	if n < MinClubName || n > MaxClubName || !utf8.ValidString(name) {
		return errorf(BadRequest, "a club name has %d to %d characters", MinClubName, MaxClubName)
	}
	script := ""
	prev := ' '
	for i, r := range name {
		switch {
		case unicode.IsLetter(r):
			sc := scriptOf(r)
			if script == "" {
				script = sc
			} else if sc != script {
				return errorf(BadRequest, "a club name has letters of one script, not %s and %s: %q", script, sc, name)
			}
		case unicode.IsDigit(r):
		case r == ' ' || strings.ContainsRune(clubNamePunct, r):
			if i == 0 || r == ' ' && prev == ' ' {
				return errorf(BadRequest, "a club name starts with a letter or digit and has single spaces: %q", name)
			}
		default:
			return errorf(BadRequest, "a club name is letters, digits, spaces and %s: %q", clubNamePunct, name)
		}
		prev = r
	}
	if prev == ' ' {
		return errorf(BadRequest, "a club name ends with no space: %q", name)
	}
	if utf8.RuneCountInString(store.ClubKey(name)) < MinClubName {
		return errorf(BadRequest, "a club name has at least %d letters or digits: %q", MinClubName, name)
	}
	return nil
}

// scriptOf names the script of a letter; the Japanese scripts count as
// one, since Japanese writes with all three.
func scriptOf(r rune) string {
	if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
		return "Japanese or Chinese"
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return "unknown"
}

// validDescription returns a club's description trimmed of spaces, with
// its line ends as "\n": at most MaxClubDescription bytes of text, whose
// only control characters are line ends and tabs, and without the
// characters that turn the direction of the text around it (they would
// spill into the page that shows it).
func validDescription(d string) (string, error) {
	d = strings.TrimSpace(strings.ReplaceAll(d, "\r\n", "\n"))
	if len(d) > MaxClubDescription || !utf8.ValidString(d) {
		return "", errorf(BadRequest, "a club's description is at most %d bytes of text", MaxClubDescription)
	}
	for _, r := range d {
		if unicode.IsControl(r) && r != '\n' && r != '\t' || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			return "", errorf(BadRequest, "a club's description holds no control characters but line ends and tabs (%U)", r)
		}
	}
	return d, nil
}

// clubMember refuses clubs to guests and bots.
func clubMember(u User) error {
	if IsGuest(u) || u.Bot {
		return errorf(Forbidden, "%s is a guest: guests join no clubs (sign up to join one)", u.Name)
	}
	return nil
}

func wireClub(c store.Club) wire.Club {
	return wire.Club{ID: c.ID, Name: c.Name, Description: c.Description, Open: c.Open, Members: c.Members, CreatedMs: c.CreatedAt.UnixMilli()}
}

func wireMembers(ms []store.ClubMember) []wire.ClubMember {
	out := make([]wire.ClubMember, 0, len(ms))
	for _, m := range ms {
		out = append(out, wire.ClubMember{ID: m.User, Name: m.Name, Leader: m.Leader, JoinedMs: m.JoinedAt.UnixMilli()})
	}
	return out
}

// club reads a club, NotFound in the service's words.
func (s *Service) club(ctx context.Context, id int64) (store.Club, error) {
	c, err := s.st.Club(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Club{}, errorf(NotFound, "no club %d", id)
	}
	return c, err
}

// CreateClub creates a club with user as its first leader and returns it
// as its leader sees it. A user leads Quotas.ClubsLed clubs at most and
// creates them at Rates.Club.
func (s *Service) CreateClub(ctx context.Context, user User, name, description string, open bool) (wire.ClubFull, error) {
	if err := clubMember(user); err != nil {
		return wire.ClubFull{}, err
	}
	name = strings.TrimSpace(name)
	if err := ValidClubName(name); err != nil {
		return wire.ClubFull{}, err
	}
	description, err := validDescription(description)
	if err != nil {
		return wire.ClubFull{}, err
	}
	unlock := s.quotaLocks.lock(user.ID)
	defer unlock()
	n, err := s.st.ClubCounts(ctx, user.ID)
	if err != nil {
		return wire.ClubFull{}, err
	}
	if max := s.cfg.Quotas.ClubsLed; max >= 0 && n.Led >= max {
		return wire.ClubFull{}, errorf(Conflict, "you lead %d clubs already, the most at once: make another member a leader of one and step down first", n.Led)
	}
	if err := s.checkClubsJoined(n); err != nil {
		return wire.ClubFull{}, err
	}
	if err := s.spend(kindClub, strconv.FormatInt(user.ID, 10), "you have created too many clubs lately"); err != nil {
		return wire.ClubFull{}, err
	}
	c, err := s.st.CreateClub(ctx, store.Club{Name: name, Description: description, Open: open, CreatedBy: user.ID})
	if errors.Is(err, store.ErrDuplicate) {
		return wire.ClubFull{}, errorf(Conflict, "the club name %q is taken (names are one ignoring case, spaces and punctuation)", name)
	}
	if err != nil {
		return wire.ClubFull{}, err
	}
	s.log.Info("club created", "club", c.ID, "name", c.Name, "by", user.ID)
	return s.Club(ctx, &user, c.ID, 0, 0)
}

// checkClubsJoined refuses one more club, or request, to a user in
// Quotas.ClubsJoined of them already.
func (s *Service) checkClubsJoined(n store.ClubCounts) error {
	if max := s.cfg.Quotas.ClubsJoined; max >= 0 && n.Joined+n.Requests >= max {
		return errorf(Conflict, "you are in %d clubs and ask to join %d, the most at once: leave one first", n.Joined, n.Requests)
	}
	return nil
}

// Club returns a club with its leaders and the page of its members after
// the member after (0 from the first), limit of them (0: ClubPage). With
// viewer (a signed-in caller) it says their role in the club, and to its
// leaders it shows the requests waiting, the oldest MaxClubPage of them.
func (s *Service) Club(ctx context.Context, viewer *User, id, after int64, limit int) (wire.ClubFull, error) {
	if limit == 0 {
		limit = ClubPage
	}
	if limit < 1 || limit > MaxClubPage || after < 0 {
		return wire.ClubFull{}, errorf(BadRequest, "a page of members is 1 to %d after a member's id", MaxClubPage)
	}
	c, err := s.club(ctx, id)
	if err != nil {
		return wire.ClubFull{}, err
	}
	leaders, err := s.st.ClubLeaders(ctx, id)
	if err != nil {
		return wire.ClubFull{}, err
	}
	page, more, err := s.st.ClubMembers(ctx, id, after, limit)
	if err != nil {
		return wire.ClubFull{}, err
	}
	full := wire.ClubFull{Club: wireClub(c), Leaders: wireMembers(leaders), Page: wireMembers(page), More: more}
	if viewer == nil {
		return full, nil
	}
	role, err := s.st.ClubRole(ctx, id, viewer.ID)
	if err != nil {
		return wire.ClubFull{}, err
	}
	full.Role = string(role)
	if role == store.RoleLeader {
		reqs, total, err := s.st.ClubRequests(ctx, id, MaxClubPage)
		if err != nil {
			return wire.ClubFull{}, err
		}
		full.Requests = &wire.ClubRequests{Count: total, Oldest: []wire.ClubRequest{}}
		for _, r := range reqs {
			full.Requests.Oldest = append(full.Requests.Oldest, wire.ClubRequest{ID: r.User, Name: r.Name, AtMs: r.At.UnixMilli()})
		}
	}
	return full, nil
}

// Clubs returns a page of the clubs whose names hold search (ignoring
// case, spaces and punctuation; "" for all), by name, after the club
// named after ("" from the first), limit of them (0: ClubPage).
func (s *Service) Clubs(ctx context.Context, search, after string, limit int) (wire.ClubList, error) {
	if limit == 0 {
		limit = ClubPage
	}
	if limit < 1 || limit > MaxClubPage {
		return wire.ClubList{}, errorf(BadRequest, "a page of clubs is 1 to %d", MaxClubPage)
	}
	if utf8.RuneCountInString(search) > MaxClubName || utf8.RuneCountInString(after) > MaxClubName {
		return wire.ClubList{}, errorf(BadRequest, "a club name to search for or to start after has at most %d characters", MaxClubName)
	}
	cs, more, err := s.st.Clubs(ctx, store.ClubQuery{Search: search, After: after, Limit: limit})
	if err != nil {
		return wire.ClubList{}, err
	}
	list := wire.ClubList{Clubs: make([]wire.Club, 0, len(cs)), More: more}
	for _, c := range cs {
		list.Clubs = append(list.Clubs, wireClub(c))
	}
	return list, nil
}

// UserClubs returns the clubs a user is a member of, by name: their
// profile's list (at most Quotas.ClubsJoined).
func (s *Service) UserClubs(ctx context.Context, user int64) ([]wire.UserClub, error) {
	cs, err := s.st.UserClubs(ctx, user)
	if err != nil {
		return nil, err
	}
	out := make([]wire.UserClub, 0, len(cs))
	for _, c := range cs {
		out = append(out, wire.UserClub{ID: c.Club, Name: c.Name, Leader: c.Leader})
	}
	return out, nil
}

// JoinClub makes user a member of an open club at once, or stores their
// request to join a closed one for its leaders to answer. A user is in
// (or asks to join) Quotas.ClubsJoined clubs at most, and has
// Quotas.ClubRequests requests waiting at most.
func (s *Service) JoinClub(ctx context.Context, user User, id int64) (wire.ClubMembership, error) {
	if err := clubMember(user); err != nil {
		return wire.ClubMembership{}, err
	}
	unlock := s.quotaLocks.lock(user.ID)
	defer unlock()
	c, err := s.club(ctx, id)
	if err != nil {
		return wire.ClubMembership{}, err
	}
	if err := s.joined(ctx, user, id); err != nil {
		return wire.ClubMembership{}, err
	}
	n, err := s.st.ClubCounts(ctx, user.ID)
	if err != nil {
		return wire.ClubMembership{}, err
	}
	if err := s.checkClubsJoined(n); err != nil {
		return wire.ClubMembership{}, err
	}
	if max := s.cfg.Quotas.ClubRequests; !c.Open && max >= 0 && n.Requests >= max {
		return wire.ClubMembership{}, errorf(Conflict, "you have %d requests to join clubs waiting, the most at once: withdraw one (leave its club) or wait for an answer", n.Requests)
	}
	role, err := s.st.JoinClub(ctx, id, user.ID, s.now())
	switch {
	case errors.Is(err, store.ErrConflict): // joined meanwhile, by another process
		if err := s.joined(ctx, user, id); err != nil {
			return wire.ClubMembership{}, err
		}
		return wire.ClubMembership{}, errorf(Conflict, "club %d changed meanwhile: try again", id)
	case errors.Is(err, store.ErrNotFound):
		return wire.ClubMembership{}, errorf(NotFound, "no club %d", id)
	case err != nil:
		return wire.ClubMembership{}, err
	}
	return wire.ClubMembership{Club: id, User: user.Name, Role: string(role)}, nil
}

// joined refuses to join a club a user is in already, or asked to.
func (s *Service) joined(ctx context.Context, user User, id int64) error {
	role, err := s.st.ClubRole(ctx, id, user.ID)
	if err != nil {
		return err
	}
	switch role {
	case store.RoleRequested:
		return errorf(Conflict, "you asked to join club %d already: its leaders answer", id)
	case store.RoleMember, store.RoleLeader:
		return errorf(Conflict, "you are a member of club %d already", id)
	}
	return nil
}

// LeaveClub takes user out of a club: a member leaves, a request is
// withdrawn. The last leader leaves only after making another member a
// leader; the last member leaving dissolves the club.
func (s *Service) LeaveClub(ctx context.Context, user User, id int64) (wire.ClubMembership, error) {
	if _, err := s.club(ctx, id); err != nil {
		return wire.ClubMembership{}, err
	}
	dissolved, err := s.st.LeaveClub(ctx, id, user.ID)
	switch {
	case errors.Is(err, store.ErrLastLeader):
		return wire.ClubMembership{}, errorf(Conflict, "you are the last leader of club %d: make another member a leader first (POST /api/club/%d/leader)", id, id)
	case errors.Is(err, store.ErrNotFound):
		return wire.ClubMembership{}, errorf(NotFound, "you are not in club %d", id)
	case err != nil:
		return wire.ClubMembership{}, err
	}
	if dissolved {
		s.log.Info("club dissolved", "club", id, "by", user.ID)
	}
	return wire.ClubMembership{Club: id, User: user.Name, Role: "none", Dissolved: dissolved}, nil
}

// asLeader checks that the club exists, that user leads it and that the
// player named exists, and returns that player.
func (s *Service) asLeader(ctx context.Context, user User, id int64, name string) (User, error) {
	if _, err := s.club(ctx, id); err != nil {
		return User{}, err
	}
	role, err := s.st.ClubRole(ctx, id, user.ID)
	if err != nil {
		return User{}, err
	}
	if role != store.RoleLeader {
		return User{}, notLeader(id)
	}
	if name == "" {
		return User{}, errorf(BadRequest, "name the player: {\"user\": NAME}")
	}
	if err := ValidName(name); err != nil {
		return User{}, err
	}
	return s.UserByName(ctx, name)
}

func notLeader(id int64) error {
	return errorf(Forbidden, "you are not a leader of club %d", id)
}

// EditClub changes a club's description and openness (nil: as it is), as
// its leader, and returns the club as its leader sees it. Opening a
// closed club makes members of those who asked to join it. Its name stays:
// members and other clubs know it by it (a leader who wants another makes
// a new club).
func (s *Service) EditClub(ctx context.Context, user User, id int64, description *string, open *bool) (wire.ClubFull, error) {
	c, err := s.club(ctx, id)
	if err != nil {
		return wire.ClubFull{}, err
	}
	d, o := c.Description, c.Open
	if description != nil {
		if d, err = validDescription(*description); err != nil {
			return wire.ClubFull{}, err
		}
	}
	if open != nil {
		o = *open
	}
	accepted, err := s.st.EditClub(ctx, id, user.ID, d, o, s.now())
	switch {
	case errors.Is(err, store.ErrNotLeader):
		return wire.ClubFull{}, notLeader(id)
	case errors.Is(err, store.ErrNotFound):
		return wire.ClubFull{}, errorf(NotFound, "no club %d", id)
	case err != nil:
		return wire.ClubFull{}, err
	}
	s.log.Info("club edited", "club", id, "by", user.ID, "open", o, "accepted", accepted)
	return s.Club(ctx, &user, id, 0, 0)
}

// AnswerClubRequest accepts or declines, as a leader of the club, the
// request of the player named to join it.
func (s *Service) AnswerClubRequest(ctx context.Context, user User, id int64, name string, accept bool) (wire.ClubMembership, error) {
	target, err := s.asLeader(ctx, user, id, name)
	if err != nil {
		return wire.ClubMembership{}, err
	}
	err = s.st.AnswerClubRequest(ctx, id, user.ID, target.ID, accept, s.now())
	switch {
	case errors.Is(err, store.ErrNotLeader):
		return wire.ClubMembership{}, notLeader(id)
	case errors.Is(err, store.ErrNotFound):
		return wire.ClubMembership{}, errorf(NotFound, "%s has not asked to join club %d", target.Name, id)
	case err != nil:
		return wire.ClubMembership{}, err
	}
	m := wire.ClubMembership{Club: id, User: target.Name, Role: "none"}
	if accept {
		m.Role = string(store.RoleMember)
	}
	return m, nil
}

// RemoveClubMember takes the player named out of the club, as its leader:
// a member (a leader too) is removed, a request declined. The last leader
// is not removed while others remain; a leader who removes themselves
// leaves, and as the last member dissolves the club.
func (s *Service) RemoveClubMember(ctx context.Context, user User, id int64, name string) (wire.ClubMembership, error) {
	target, err := s.asLeader(ctx, user, id, name)
	if err != nil {
		return wire.ClubMembership{}, err
	}
	dissolved, err := s.st.RemoveClubMember(ctx, id, user.ID, target.ID)
	switch {
	case errors.Is(err, store.ErrLastLeader):
		return wire.ClubMembership{}, errorf(Conflict, "%s is the last leader of club %d: make another member a leader first", target.Name, id)
	case errors.Is(err, store.ErrNotLeader):
		return wire.ClubMembership{}, notLeader(id)
	case errors.Is(err, store.ErrNotFound):
		return wire.ClubMembership{}, errorf(NotFound, "%s is not in club %d", target.Name, id)
	case err != nil:
		return wire.ClubMembership{}, err
	}
	s.log.Info("club member removed", "club", id, "user", target.ID, "by", user.ID, "dissolved", dissolved)
	return wire.ClubMembership{Club: id, User: target.Name, Role: "none", Dissolved: dissolved}, nil
}

// SetClubLeader makes the member named a leader of the club, or sets a
// leader down (the caller themselves: stepping down), as its leader. A
// club has MaxClubLeaders leaders at most, a user leads Quotas.ClubsLed
// clubs at most, and the last leader stays one.
func (s *Service) SetClubLeader(ctx context.Context, user User, id int64, name string, leader bool) (wire.ClubMembership, error) {
	target, err := s.asLeader(ctx, user, id, name)
	if err != nil {
		return wire.ClubMembership{}, err
	}
	if leader {
		role, err := s.st.ClubRole(ctx, id, target.ID)
		if err != nil {
			return wire.ClubMembership{}, err
		}
		if role == store.RoleMember {
			ls, err := s.st.ClubLeaders(ctx, id)
			if err != nil {
				return wire.ClubMembership{}, err
			}
			if len(ls) >= MaxClubLeaders {
				return wire.ClubMembership{}, errorf(Conflict, "club %d has %d leaders, the most", id, len(ls))
			}
			n, err := s.st.ClubCounts(ctx, target.ID)
			if err != nil {
				return wire.ClubMembership{}, err
			}
			if max := s.cfg.Quotas.ClubsLed; max >= 0 && n.Led >= max {
				return wire.ClubMembership{}, errorf(Conflict, "%s leads %d clubs already, the most at once", target.Name, n.Led)
			}
		}
	}
	err = s.st.SetClubLeader(ctx, id, user.ID, target.ID, leader)
	switch {
	case errors.Is(err, store.ErrLastLeader) && target.ID == user.ID:
		return wire.ClubMembership{}, errorf(Conflict, "you are the last leader of club %d: make another member a leader first", id)
	case errors.Is(err, store.ErrLastLeader):
		return wire.ClubMembership{}, errorf(Conflict, "%s is the last leader of club %d", target.Name, id)
	case errors.Is(err, store.ErrNotLeader):
		return wire.ClubMembership{}, notLeader(id)
	case errors.Is(err, store.ErrNotFound):
		return wire.ClubMembership{}, errorf(NotFound, "%s is not a member of club %d", target.Name, id)
	case err != nil:
		return wire.ClubMembership{}, err
	}
	m := wire.ClubMembership{Club: id, User: target.Name, Role: string(store.RoleMember)}
	if leader {
		m.Role = string(store.RoleLeader)
	}
	return m, nil
}
