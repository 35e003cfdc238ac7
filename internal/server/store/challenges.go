package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ChallengeStatus is where a challenge is in its life.
type ChallengeStatus string

const (
	ChallengeOpen      ChallengeStatus = "open"      // waiting for an answer
	ChallengeAccepted  ChallengeStatus = "accepted"  // a game was started: Challenge.Game
	ChallengeDeclined  ChallengeStatus = "declined"  // by the challenged player
	ChallengeCancelled ChallengeStatus = "cancelled" // by the challenger, or expired
)

// Challenge is an invitation to a game: to one user, or to anyone (a seek,
// To 0).
type Challenge struct {
	ID      int64
	From    int64 // the challenger
	To      int64 // the challenged user; 0 for a seek anyone may accept
	Variant string
	Rules   string
	Rated   bool
	Color   string // the challenger's side: "white", "black" or "random"
	Control TimeControl
	Status  ChallengeStatus
	Game    int64 // the game started when it was accepted
	// CreatedAt is the caller's when it is not zero (the service's clock,
	// which a challenge's expiry counts on), else the store's; UpdatedAt
	// is the store's.
	CreatedAt, UpdatedAt time.Time
}

// CreateChallenge stores an open challenge and returns it with its id. An
// unknown user is ErrNotFound.
func (s *Store) CreateChallenge(ctx context.Context, c Challenge) (Challenge, error) {
	if c.Variant == "" || c.Rules == "" {
		return Challenge{}, errors.New("store: a challenge needs a variant and rules")
	}
	switch c.Color {
	case "white", "black", "random":
	default:
		return Challenge{}, fmt.Errorf("store: %q is not a side", c.Color)
	}
	var id int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		if id, err = nextID(ctx, tx, "challenges"); err != nil {
			return err
		}
		now := millis(s.now())
		created := now
		if !c.CreatedAt.IsZero() {
			created = millis(c.CreatedAt)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO challenges (id, from_id, to_id, variant, rules, rated, color,
				clock_initial_ms, clock_increment_ms, nag_days, forfeit_days, status, game_id, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', NULL, $12, $13)`,
			id, c.From, nullID(c.To), c.Variant, c.Rules, c.Rated, c.Color,
			durMillis(c.Control.Initial), durMillis(c.Control.Increment), c.Control.NagDays, c.Control.ForfeitDays, created, now)
		return err
	})
	if err != nil {
		return Challenge{}, err
	}
	return s.Challenge(ctx, id)
}

// nullID stores the id 0 as NULL: no user, no game.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

const challengeSelect = `SELECT id, from_id, to_id, variant, rules, rated, color, clock_initial_ms, clock_increment_ms,
	nag_days, forfeit_days, status, game_id, created_at, updated_at FROM challenges`

func scanChallenge(row interface{ Scan(...any) error }) (Challenge, error) {
	var c Challenge
	var to, game sql.NullInt64
	var initial, increment, created, updated int64
	err := row.Scan(&c.ID, &c.From, &to, &c.Variant, &c.Rules, &c.Rated, &c.Color, &initial, &increment,
		&c.Control.NagDays, &c.Control.ForfeitDays, &c.Status, &game, &created, &updated)
	if err != nil {
		return Challenge{}, err
	}
	c.To, c.Game = to.Int64, game.Int64
	c.Control.Initial, c.Control.Increment = fromDurMillis(initial), fromDurMillis(increment)
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	return c, nil
}

// Challenge returns a challenge.
func (s *Store) Challenge(ctx context.Context, id int64) (Challenge, error) {
	c, err := scanChallenge(s.r.QueryRowContext(ctx, challengeSelect+` WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Challenge{}, fmt.Errorf("%w: challenge %d", ErrNotFound, id)
	}
	return c, dbError(err)
}

// OpenChallenges returns the open challenges from or to a user, or with
// user 0 every open challenge (the seeks among them have To 0), oldest first.
func (s *Store) OpenChallenges(ctx context.Context, user int64) ([]Challenge, error) {
	query, args := challengeSelect+` WHERE status = 'open' ORDER BY id`, []any(nil)
	if user != 0 {
		query, args = challengeSelect+` WHERE status = 'open' AND (from_id = $1 OR to_id = $1) ORDER BY id`, []any{user}
	}
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var list []Challenge
	for rows.Next() {
		c, err := scanChallenge(rows)
		if err != nil {
			return nil, dbError(err)
		}
		list = append(list, c)
	}
	return list, dbError(rows.Err())
}

// AcceptChallenge starts the game g (as CreateGame takes it: the caller
// has decided the sides, the lot and the clocks from the challenge) and
// marks the challenge accepted, in one transaction: of two players
// accepting one seek at once, one gets the game and the other ErrConflict.
func (s *Store) AcceptChallenge(ctx context.Context, id int64, g Game) (Game, error) {
	var game int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		var status ChallengeStatus
		err = tx.QueryRowContext(ctx, `SELECT status FROM challenges WHERE id = $1`, id).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: challenge %d", ErrNotFound, id)
		} else if err != nil {
			return err
		}
		if status != ChallengeOpen {
			return fmt.Errorf("%w: challenge %d is %s", ErrConflict, id, status)
		}
		if game, err = s.insertGame(ctx, tx, g); err != nil {
			return err
		}
		// The status is checked again where it is changed: on PostgreSQL
		// another transaction may have accepted since the SELECT.
		err = affected(tx.ExecContext(ctx, `UPDATE challenges SET status = 'accepted', game_id = $2, updated_at = $3
			WHERE id = $1 AND status = 'open'`, id, game, millis(s.now())))
		if errors.Is(err, ErrNotFound) {
			return fmt.Errorf("%w: challenge %d is not open", ErrConflict, id)
		}
		return err
	})
	if err != nil {
		return Game{}, err
	}
	return s.Game(ctx, game)
}

// CloseChallenge declines or cancels an open challenge. One that is not
// open any more is ErrConflict.
func (s *Store) CloseChallenge(ctx context.Context, id int64, status ChallengeStatus) error {
	if status != ChallengeDeclined && status != ChallengeCancelled {
		return fmt.Errorf("store: a challenge is closed as declined or cancelled, not %q", status)
	}
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := affected(tx.ExecContext(ctx, `UPDATE challenges SET status = $2, updated_at = $3 WHERE id = $1 AND status = 'open'`,
			id, string(status), millis(s.now())))
		if !errors.Is(err, ErrNotFound) {
			return err
		}
		var was ChallengeStatus
		if err := tx.QueryRowContext(ctx, `SELECT status FROM challenges WHERE id = $1`, id).Scan(&was); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: challenge %d", ErrNotFound, id)
		} else if err != nil {
			return err
		}
		return fmt.Errorf("%w: challenge %d is %s", ErrConflict, id, was)
	})
}
