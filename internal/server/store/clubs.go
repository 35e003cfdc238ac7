package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Clubs: a club, its members (each a leader or not) and the requests to
// join a closed one. The store keeps what must hold whatever the callers
// do at once: a club with members has a leader, its count of members is
// theirs, a member is not also asking to join, and a club whose last
// member leaves is deleted. Every change to a club's members starts by
// writing the club's row, which on PostgreSQL locks it until the
// transaction ends, so that two changes to one club run one after the
// other (SQLite's writes do anyway). Who may do what, and how many clubs
// a player may hold, are the service's.

// Club is a club.
type Club struct {
	ID          int64
	Name        string // as given; unique ignoring case, spaces and punctuation (ClubKey)
	Description string
	Open        bool  // anyone joins at once; otherwise by a request a leader accepts
	CreatedBy   int64 // the user who created it, its first leader
	Members     int   // how many members, leaders included
	CreatedAt   time.Time
	UpdatedAt   time.Time // the last change to the club or its members
}

// ClubMember is a member of a club.
type ClubMember struct {
	Club     int64
	User     int64
	Name     string // the user's
	Leader   bool
	JoinedAt time.Time
}

// ClubRequest is a request to join a closed club.
type ClubRequest struct {
	Club int64
	User int64
	Name string // the user's
	At   time.Time
}

// Role is where a user stands in a club.
type Role string

const (
	RoleNone      Role = ""          // neither a member nor asking to be one
	RoleRequested Role = "requested" // asked to join a closed club
	RoleMember    Role = "member"
	RoleLeader    Role = "leader"
)

// UserClub is a club of a user's, as their profile lists it.
type UserClub struct {
	Club   int64
	Name   string
	Leader bool
}

// ErrLastLeader refuses a change that would leave a club with members
// but no leader: its last leader leaving, removed or stepping down while
// others remain. It wraps ErrConflict.
var ErrLastLeader = fmt.Errorf("%w: a club with members keeps a leader", ErrConflict)

// ErrNotLeader refuses a leader's change to a club asked for by a user
// who is not (or no longer) one of its leaders.
var ErrNotLeader = errors.New("store: not a leader of the club")

// ClubKey folds a club's name for its uniqueness and search: its letters
// in lower case and its digits, without the spaces and punctuation, so
// that "Mill Club", "mill-club" and "MILLCLUB" are one name. As nameKey,
// the fold is done here for both databases alike.
func ClubKey(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// CreateClub stores a new club with its creator (c.CreatedBy) as its
// first member and leader, and returns it with its id. A name whose key
// is taken is ErrDuplicate; an unknown creator ErrNotFound.
func (s *Store) CreateClub(ctx context.Context, c Club) (Club, error) {
	key := ClubKey(c.Name)
	if key == "" || c.CreatedBy == 0 {
		return Club{}, errors.New("store: a club needs a name with letters or digits and a creator")
	}
	now := fromMillis(millis(s.now()))
	c.CreatedAt, c.UpdatedAt, c.Members = now, now, 1
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		if c.ID, err = nextID(ctx, tx, "clubs"); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO clubs (id, name, name_key, description, open, created_by, members, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $7)`, c.ID, c.Name, key, c.Description, c.Open, c.CreatedBy, millis(now))
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO club_members (club_id, user_id, leader, joined_at) VALUES ($1, $2, TRUE, $3)`,
			c.ID, c.CreatedBy, millis(now))
		return err
	})
	if errors.Is(err, ErrDuplicate) {
		return Club{}, fmt.Errorf("%w: the club name %q is taken", ErrDuplicate, c.Name)
	}
	if err != nil {
		return Club{}, err
	}
	return c, nil
}

const clubColumns = `id, name, description, open, created_by, members, created_at, updated_at`

func scanClub(row interface{ Scan(...any) error }) (Club, error) {
	var c Club
	var created, updated int64
	if err := row.Scan(&c.ID, &c.Name, &c.Description, &c.Open, &c.CreatedBy, &c.Members, &created, &updated); err != nil {
		return Club{}, err
	}
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	return c, nil
}

// Club returns a club.
func (s *Store) Club(ctx context.Context, id int64) (Club, error) {
	c, err := scanClub(s.r.QueryRowContext(ctx, `SELECT `+clubColumns+` FROM clubs WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Club{}, fmt.Errorf("%w: club %d", ErrNotFound, id)
	}
	return c, dbError(err)
}

// ClubQuery selects clubs: those whose key (ClubKey) holds Search's
// ("" for all), after the club named After in the order of their keys
// ("" from the first), Limit of them.
type ClubQuery struct {
	Search string
	After  string
	Limit  int
}

// Clubs returns a page of clubs in the order of their keys, and whether
// more follow it.
func (s *Store) Clubs(ctx context.Context, q ClubQuery) ([]Club, bool, error) {
	if q.Limit < 1 {
		return nil, false, errors.New("store: a page of no club")
	}
	// A key holds letters and digits only, so it needs no escape in LIKE.
	rows, err := s.r.QueryContext(ctx, `SELECT `+clubColumns+` FROM clubs WHERE name_key > $1 AND name_key LIKE $2
		ORDER BY name_key LIMIT $3`, ClubKey(q.After), "%"+ClubKey(q.Search)+"%", q.Limit+1)
	if err != nil {
		return nil, false, dbError(err)
	}
	defer rows.Close()
	var list []Club
	for rows.Next() {
		c, err := scanClub(rows)
		if err != nil {
			return nil, false, dbError(err)
		}
		list = append(list, c)
	}
	if err := rows.Err(); err != nil {
		return nil, false, dbError(err)
	}
	more := len(list) > q.Limit
	if more {
		list = list[:q.Limit]
	}
	return list, more, nil
}

// ClubRole returns where a user stands in a club: RoleNone for a club
// that does not exist too.
func (s *Store) ClubRole(ctx context.Context, club, user int64) (Role, error) {
	var role Role
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		role, err = clubRole(ctx, tx, club, user)
		return err
	})
	return role, err
}

func clubRole(ctx context.Context, tx *sql.Tx, club, user int64) (Role, error) {
	var leader bool
	err := tx.QueryRowContext(ctx, `SELECT leader FROM club_members WHERE club_id = $1 AND user_id = $2`, club, user).Scan(&leader)
	switch {
	case err == nil && leader:
		return RoleLeader, nil
	case err == nil:
		return RoleMember, nil
	case !errors.Is(err, sql.ErrNoRows):
		return RoleNone, err
	}
	var one int
	err = tx.QueryRowContext(ctx, `SELECT 1 FROM club_requests WHERE club_id = $1 AND user_id = $2`, club, user).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return RoleNone, nil
	}
	if err != nil {
		return RoleNone, err
	}
	return RoleRequested, nil
}

const memberSelect = `SELECT m.club_id, m.user_id, u.name, m.leader, m.joined_at FROM club_members m JOIN users u ON u.id = m.user_id`

func scanMembers(rows *sql.Rows) ([]ClubMember, error) {
	defer rows.Close()
	var list []ClubMember
	for rows.Next() {
		var m ClubMember
		var joined int64
		if err := rows.Scan(&m.Club, &m.User, &m.Name, &m.Leader, &joined); err != nil {
			return nil, dbError(err)
		}
		m.JoinedAt = fromMillis(joined)
		list = append(list, m)
	}
	return list, dbError(rows.Err())
}

// ClubMembers returns a page of a club's members, leaders among them, in
// the order of their user ids after the user after (0 from the first),
// limit of them, and whether more follow: a look down the primary key,
// however large the club.
func (s *Store) ClubMembers(ctx context.Context, club, after int64, limit int) ([]ClubMember, bool, error) {
	if limit < 1 {
		return nil, false, errors.New("store: a page of no member")
	}
	rows, err := s.r.QueryContext(ctx, memberSelect+` WHERE m.club_id = $1 AND m.user_id > $2 ORDER BY m.user_id LIMIT $3`,
		club, after, limit+1)
	if err != nil {
		return nil, false, dbError(err)
	}
	list, err := scanMembers(rows)
	if err != nil {
		return nil, false, err
	}
	more := len(list) > limit
	if more {
		list = list[:limit]
	}
	return list, more, nil
}

// ClubLeaders returns a club's leaders, the longest-standing first.
func (s *Store) ClubLeaders(ctx context.Context, club int64) ([]ClubMember, error) {
	rows, err := s.r.QueryContext(ctx, memberSelect+` WHERE m.club_id = $1 AND m.leader = TRUE ORDER BY m.joined_at, m.user_id`, club)
	if err != nil {
		return nil, dbError(err)
	}
	return scanMembers(rows)
}

// ClubRequests returns the oldest limit requests to join a club, oldest
// first, and how many there are in all.
func (s *Store) ClubRequests(ctx context.Context, club int64, limit int) ([]ClubRequest, int, error) {
	var list []ClubRequest
	var total int
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM club_requests WHERE club_id = $1`, club).Scan(&total); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT r.user_id, u.name, r.created_at FROM club_requests r JOIN users u ON u.id = r.user_id
			WHERE r.club_id = $1 ORDER BY r.created_at, r.user_id LIMIT $2`, club, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r := ClubRequest{Club: club}
			var at int64
			if err := rows.Scan(&r.User, &r.Name, &at); err != nil {
				return err
			}
			r.At = fromMillis(at)
			list = append(list, r)
		}
		return rows.Err()
	})
	return list, total, err
}

// UserClubs returns the clubs a user is a member of, by name.
func (s *Store) UserClubs(ctx context.Context, user int64) ([]UserClub, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.name, m.leader FROM club_members m JOIN clubs c ON c.id = m.club_id
		WHERE m.user_id = $1 ORDER BY c.name_key`, user)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var list []UserClub
	for rows.Next() {
		var c UserClub
		if err := rows.Scan(&c.Club, &c.Name, &c.Leader); err != nil {
			return nil, dbError(err)
		}
		list = append(list, c)
	}
	return list, dbError(rows.Err())
}

// ClubCounts is what a user holds in clubs, for the service's quotas.
type ClubCounts struct {
	Led      int // clubs they lead
	Joined   int // clubs they are a member of, those they lead included
	Requests int // requests to join closed clubs waiting for an answer
}

// ClubCounts counts what a user holds in clubs.
func (s *Store) ClubCounts(ctx context.Context, user int64) (ClubCounts, error) {
	var n ClubCounts
	err := s.read(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN leader THEN 1 ELSE 0 END), 0)
			FROM club_members WHERE user_id = $1`, user).Scan(&n.Joined, &n.Led)
		if err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM club_requests WHERE user_id = $1`, user).Scan(&n.Requests)
	})
	return n, err
}

// lockClub writes the club's row (its time of change), which on
// PostgreSQL holds it until the transaction ends, and returns whether it
// is open. An unknown club is ErrNotFound.
func (s *Store) lockClub(ctx context.Context, tx *sql.Tx, club int64) (open bool, err error) {
	err = tx.QueryRowContext(ctx, `UPDATE clubs SET updated_at = $2 WHERE id = $1 RETURNING open`, club, millis(s.now())).Scan(&open)
	if errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("%w: club %d", ErrNotFound, club)
	}
	return open, err
}

// addMember makes user a member (not a leader) of club, counted.
func addMember(ctx context.Context, tx *sql.Tx, club, user int64, at time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO club_members (club_id, user_id, leader, joined_at) VALUES ($1, $2, FALSE, $3)`,
		club, user, millis(at)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE clubs SET members = members + 1 WHERE id = $1`, club)
	return err
}

// mustLead refuses with ErrNotLeader unless by leads club.
func mustLead(ctx context.Context, tx *sql.Tx, club, by int64) error {
	role, err := clubRole(ctx, tx, club, by)
	if err != nil {
		return err
	}
	if role != RoleLeader {
		return fmt.Errorf("%w: user %d in club %d", ErrNotLeader, by, club)
	}
	return nil
}

// leaders counts a club's leaders.
func leaders(ctx context.Context, tx *sql.Tx, club int64) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM club_members WHERE club_id = $1 AND leader = TRUE`, club).Scan(&n)
	return n, err
}

// JoinClub makes user a member of an open club, or stores their request
// to join a closed one, and returns what they are now (RoleMember or
// RoleRequested). A member, or a user who asked already, is ErrConflict;
// an unknown club or user ErrNotFound.
func (s *Store) JoinClub(ctx context.Context, club, user int64, at time.Time) (Role, error) {
	var role Role
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		open, err := s.lockClub(ctx, tx, club)
		if err != nil {
			return err
		}
		was, err := clubRole(ctx, tx, club, user)
		if err != nil {
			return err
		}
		if was != RoleNone {
			return fmt.Errorf("%w: user %d is %s in club %d already", ErrConflict, user, was, club)
		}
		if open {
			role = RoleMember
			return addMember(ctx, tx, club, user, at)
		}
		role = RoleRequested
		_, err = tx.ExecContext(ctx, `INSERT INTO club_requests (club_id, user_id, created_at) VALUES ($1, $2, $3)`, club, user, millis(at))
		return err
	})
	return role, err
}

// EditClub sets a club's description and openness, as its leader by. A
// club opened takes its pending requests as members at once (they asked
// to join; an open club takes anyone), and returns how many. A by who is
// not a leader is ErrNotLeader; an unknown club ErrNotFound.
func (s *Store) EditClub(ctx context.Context, club, by int64, description string, open bool, at time.Time) (accepted int, err error) {
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		accepted = 0
		wasOpen, err := s.lockClub(ctx, tx, club)
		if err != nil {
			return err
		}
		if err := mustLead(ctx, tx, club, by); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE clubs SET description = $2, open = $3 WHERE id = $1`, club, description, open); err != nil {
			return err
		}
		if wasOpen || !open {
			return nil
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO club_members (club_id, user_id, leader, joined_at)
			SELECT club_id, user_id, FALSE, $2 FROM club_requests WHERE club_id = $1`, club, millis(at))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		accepted = int(n)
		if _, err := tx.ExecContext(ctx, `DELETE FROM club_requests WHERE club_id = $1`, club); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE clubs SET members = members + $2 WHERE id = $1`, club, n)
		return err
	})
	return accepted, err
}

// AnswerClubRequest accepts (user becomes a member) or declines (the
// request goes) user's request to join club, as its leader by. A by who
// is not a leader is ErrNotLeader; no such request ErrNotFound.
func (s *Store) AnswerClubRequest(ctx context.Context, club, by, user int64, accept bool, at time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := s.lockClub(ctx, tx, club); err != nil {
			return err
		}
		if err := mustLead(ctx, tx, club, by); err != nil {
			return err
		}
		if err := affected(tx.ExecContext(ctx, `DELETE FROM club_requests WHERE club_id = $1 AND user_id = $2`, club, user)); err != nil {
			return fmt.Errorf("%w: no request of user %d to join club %d", err, user, club)
		}
		if !accept {
			return nil
		}
		return addMember(ctx, tx, club, user, at)
	})
}

// LeaveClub takes user out of club: a member leaves, a request is
// withdrawn. The last member leaving deletes the club (dissolved is then
// true); the last leader leaving while others remain is ErrLastLeader. A
// user who is neither a member nor asking is ErrNotFound.
func (s *Store) LeaveClub(ctx context.Context, club, user int64) (dissolved bool, err error) {
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		dissolved = false
		if _, err := s.lockClub(ctx, tx, club); err != nil {
			return err
		}
		return s.dropMember(ctx, tx, club, user, &dissolved)
	})
	return dissolved, err
}

// dropMember takes user out of club (LeaveClub, RemoveClubMember) in tx.
func (s *Store) dropMember(ctx context.Context, tx *sql.Tx, club, user int64, dissolved *bool) error {
	role, err := clubRole(ctx, tx, club, user)
	if err != nil {
		return err
	}
	switch role {
	case RoleNone:
		return fmt.Errorf("%w: user %d is not in club %d", ErrNotFound, user, club)
	case RoleRequested:
		_, err := tx.ExecContext(ctx, `DELETE FROM club_requests WHERE club_id = $1 AND user_id = $2`, club, user)
		return err
	}
	var members int
	if err := tx.QueryRowContext(ctx, `SELECT members FROM clubs WHERE id = $1`, club).Scan(&members); err != nil {
		return err
	}
	if members <= 1 {
		*dissolved = true
		_, err := tx.ExecContext(ctx, `DELETE FROM clubs WHERE id = $1`, club) // its members and requests with it
		return err
	}
	if role == RoleLeader {
		n, err := leaders(ctx, tx, club)
		if err != nil {
			return err
		}
		if n <= 1 {
			return fmt.Errorf("%w: user %d is the last leader of club %d", ErrLastLeader, user, club)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM club_members WHERE club_id = $1 AND user_id = $2`, club, user); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE clubs SET members = members - 1 WHERE id = $1`, club)
	return err
}

// RemoveClubMember takes user out of club as its leader by: a member (a
// leader too) is removed, a request declined. Removing the last leader
// (by themselves) while others remain is ErrLastLeader, and the last
// member removing themselves deletes the club, as LeaveClub. A by who is
// not a leader is ErrNotLeader; a user who is not in the club
// ErrNotFound.
func (s *Store) RemoveClubMember(ctx context.Context, club, by, user int64) (dissolved bool, err error) {
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		dissolved = false
		if _, err := s.lockClub(ctx, tx, club); err != nil {
			return err
		}
		if err := mustLead(ctx, tx, club, by); err != nil {
			return err
		}
		return s.dropMember(ctx, tx, club, user, &dissolved)
	})
	return dissolved, err
}

// SetClubLeader makes a member of club a leader, or not, as its leader by
// (who may step down so). Stepping down, or being set down, as the last
// leader is ErrLastLeader; a by who is not a leader ErrNotLeader; a user
// who is not a member ErrNotFound. Setting what is already so changes
// nothing and is no error.
func (s *Store) SetClubLeader(ctx context.Context, club, by, user int64, leader bool) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := s.lockClub(ctx, tx, club); err != nil {
			return err
		}
		if err := mustLead(ctx, tx, club, by); err != nil {
			return err
		}
		role, err := clubRole(ctx, tx, club, user)
		if err != nil {
			return err
		}
		if role != RoleMember && role != RoleLeader {
			return fmt.Errorf("%w: user %d is not a member of club %d", ErrNotFound, user, club)
		}
		if (role == RoleLeader) == leader {
			return nil
		}
		if !leader {
			n, err := leaders(ctx, tx, club)
			if err != nil {
				return err
			}
			if n <= 1 {
				return fmt.Errorf("%w: user %d is the last leader of club %d", ErrLastLeader, user, club)
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE club_members SET leader = $3 WHERE club_id = $1 AND user_id = $2`, club, user, leader)
		return err
	})
}

// leaveAllClubs takes a deleted user out of every club (DeleteUser, in
// its transaction): their requests go; a club they were the last member
// of is deleted; one they were the last leader of gets its
// longest-standing member as its leader, so that no club is left without.
func (s *Store) leaveAllClubs(ctx context.Context, tx *sql.Tx, user int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM club_requests WHERE user_id = $1`, user); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT club_id FROM club_members WHERE user_id = $1 ORDER BY club_id`, user)
	if err != nil {
		return err
	}
	var clubs []int64
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			rows.Close()
			return err
		}
		clubs = append(clubs, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range clubs {
		if _, err := s.lockClub(ctx, tx, c); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM club_members WHERE club_id = $1 AND user_id = $2`, c, user); err != nil {
			return err
		}
		var members int
		if err := tx.QueryRowContext(ctx, `UPDATE clubs SET members = members - 1 WHERE id = $1 RETURNING members`, c).Scan(&members); err != nil {
			return err
		}
		if members <= 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM clubs WHERE id = $1`, c); err != nil {
				return err
			}
			continue
		}
		n, err := leaders(ctx, tx, c)
		if err != nil {
			return err
		}
		if n == 0 {
			_, err := tx.ExecContext(ctx, `UPDATE club_members SET leader = TRUE WHERE club_id = $1 AND user_id = (
				SELECT user_id FROM club_members WHERE club_id = $1 ORDER BY joined_at, user_id LIMIT 1)`, c)
			if err != nil {
				return err
			}
		}
	}
	return nil
}
