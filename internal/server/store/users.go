package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// User is an account.
type User struct {
	ID   int64
	Name string // as given at sign-up; unique ignoring case
	// PasswordHash is the argon2id hash in its encoded (PHC) form; the
	// store keeps it and never looks inside.
	PasswordHash string
	Email        string
	Bot          bool // the engine or another program, not a person
	CreatedAt    time.Time
	// DeletedAt is when the account was deleted (DeleteUser; accounts.go),
	// zero for one in use. A deleted user is found by id only.
	DeletedAt time.Time
	// Moderation (moderation.go). Moderator: set by the operator only.
	// Muted: not muted (MuteNone), until a moderator lifts it
	// (MuteForever), or until MutedUntil. ClosedAt: when a moderator
	// closed the account (zero: open); a closed account has no valid
	// token and signs in no more.
	Moderator  bool
	Muted      Mute
	MutedUntil time.Time
	ClosedAt   time.Time
}

// nameKey folds a user name for the uniqueness and look-up of names: "Ann"
// and "ANN" are one name. The fold is done here, not in SQL, so both
// databases fold the same way, beyond ASCII too.
func nameKey(name string) string { return strings.ToLower(name) }

// CreateUser stores a new account and returns it with its id and creation
// time. A name already taken, in any case, is ErrDuplicate.
func (s *Store) CreateUser(ctx context.Context, u User) (User, error) {
	if u.Name == "" || u.PasswordHash == "" {
		return User{}, errors.New("store: a user needs a name and a password hash")
	}
	u.CreatedAt = fromMillis(millis(s.now()))
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		id, err := nextID(ctx, tx, "users")
		if err != nil {
			return err
		}
		u.ID = id
		_, err = tx.ExecContext(ctx, `INSERT INTO users (id, name, name_key, password_hash, email, bot, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			u.ID, u.Name, nameKey(u.Name), u.PasswordHash, u.Email, u.Bot, millis(u.CreatedAt))
		return err
	})
	if errors.Is(err, ErrDuplicate) {
		return User{}, fmt.Errorf("%w: the name %q is taken", ErrDuplicate, u.Name)
	}
	if err != nil {
		return User{}, err
	}
	return u, nil
}

const userColumns = `id, name, password_hash, email, bot, created_at, deleted_at, moderator, muted_until, closed_at`

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var u User
	var created, deleted, muted, closed int64
	if err := row.Scan(&u.ID, &u.Name, &u.PasswordHash, &u.Email, &u.Bot, &created, &deleted, &u.Moderator, &muted, &closed); err != nil {
		return User{}, err
	}
	u.CreatedAt = fromMillis(created)
	if deleted != 0 {
		u.DeletedAt = fromMillis(deleted)
	}
	switch {
	case muted == mutedForever:
		u.Muted = MuteForever
	case muted > 0:
		u.Muted, u.MutedUntil = MuteUntil, fromMillis(muted)
	}
	u.ClosedAt = fromMillis(closed)
	return u, nil
}

// User returns the user with that id.
func (s *Store) User(ctx context.Context, id int64) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("%w: user %d", ErrNotFound, id)
	}
	return u, dbError(err)
}

// UserByName returns the user of that name, in any case; a deleted user
// is not found (its name stays taken all the same).
func (s *Store) UserByName(ctx context.Context, name string) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE name_key = $1 AND deleted_at = 0`, nameKey(name)))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("%w: user %q", ErrNotFound, name)
	}
	return u, dbError(err)
}

// Token is an API token, stored by the hash of its text (the caller hashes,
// with SHA-256 for instance): a copy of the database gives no usable token.
type Token struct {
	Hash      string
	User      int64
	CreatedAt time.Time
	ExpiresAt time.Time // zero: never
}

// CreateToken stores a token. A hash already stored is ErrDuplicate, an
// unknown user ErrNotFound.
func (s *Store) CreateToken(ctx context.Context, t Token) error {
	if t.Hash == "" {
		return errors.New("store: a token needs a hash")
	}
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			t.Hash, t.User, millis(t.CreatedAt), millis(t.ExpiresAt))
		return err
	})
}

// UserByToken returns the user a token belongs to, if the token exists and
// has not expired at now, and the account is neither deleted nor closed (a
// token made in the instant a moderator closed the account is no key).
func (s *Store) UserByToken(ctx context.Context, hash string, now time.Time) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT u.id, u.name, u.password_hash, u.email, u.bot, u.created_at, u.deleted_at,
			u.moderator, u.muted_until, u.closed_at
		FROM tokens t JOIN users u ON u.id = t.user_id
		WHERE t.hash = $1 AND (t.expires_at = 0 OR t.expires_at > $2) AND u.deleted_at = 0 AND u.closed_at = 0`, hash, millis(now)))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("%w: no valid token", ErrNotFound)
	}
	return u, dbError(err)
}

// DeleteToken deletes a token (signing out); ErrNotFound if there is none.
func (s *Store) DeleteToken(ctx context.Context, hash string) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return affected(tx.ExecContext(ctx, `DELETE FROM tokens WHERE hash = $1`, hash))
	})
}

// DeleteExpiredTokens deletes the tokens expired at now and says how many.
func (s *Store) DeleteExpiredTokens(ctx context.Context, now time.Time) (int64, error) {
	var n int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM tokens WHERE expires_at <> 0 AND expires_at <= $1`, millis(now))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// affected turns a statement that changed no row into ErrNotFound.
func affected(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}
