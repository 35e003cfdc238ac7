package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
)

// Status is where a game is in its life.
type Status string

const (
	Active   Status = "active"   // being played
	Finished Status = "finished" // over: Result and Method say how
)

// TimeControl is a game's time control, as clock.Control has it: real time
// (an initial time per side and an increment per move) or correspondence
// (a reminder after NagDays and a forfeit after ForfeitDays without a
// move). The zero TimeControl has no clock.
type TimeControl struct {
	Initial, Increment   time.Duration
	NagDays, ForfeitDays int
}

// Clocks is the state of real-time clocks, as clock.State has it: the time
// each side had when its clock last stopped, whose clock runs and since
// when (zero when none runs). Durations are stored to the millisecond.
type Clocks struct {
	Left    [2]time.Duration // white's, black's
	Running int              // 0 white, 1 black
	Since   time.Time
}

// Game is a game and its state, without its moves.
type Game struct {
	ID      int64  // from 101 up, as pbmserv numbers boards
	Variant string // the preset, the rating pool: "nine-mens-morris"
	Rules   string // the full rules text: "nine-mens-morris,flying=never"
	White   int64  // user ids
	Black   int64
	// WhiteName and BlackName are the players' names, filled by reads.
	WhiteName, BlackName string
	Start                string // the start position as text; "" for the rules' start
	Seed                 uint64 // the lot's seed, when HasSeed
	HasSeed              bool
	Rated                bool
	Status               Status
	Result               string // "*" while active; "1-0", "0-1", "1/2-1/2"
	Method               string // how it ended (mill.Method's text); "" while active
	Control              TimeControl
	Clocks               Clocks
	// Ply is the number of moves stored: the ply the next move must have.
	Ply int
	// Version counts the changes to the game: each move, take-back, offer,
	// chat message and the end add one. Moves and chat messages carry the
	// version they made, so a stream that saw version v can be sent what
	// came after it.
	Version int64
	// LastMoveAt is when the last move was played, or the game created:
	// when the turn of the side to move began (correspondence deadlines).
	LastMoveAt time.Time
	CreatedAt  time.Time
	UpdatedAt  time.Time
	// EndedAt is when a finished game ended (zero while it is on): the
	// archive's order (archive.go).
	EndedAt time.Time
	// EngineLevel is the engine's level (1..10) in a game against it, 0 in
	// a game between people. The engine plays the side of the bot user.
	EngineLevel int
	// NagSentPly is the ply at which the last correspondence reminder was
	// sent, -1 for none: one reminder per turn.
	NagSentPly int
}

// CreateGame stores a new active game and returns it with its id, version
// 0, no moves. From g it takes Variant, Rules, White, Black, Start, Seed,
// HasSeed, Rated, Control, Clocks, EngineLevel and LastMoveAt (the creation time if
// zero); the rest is set by the store. An unknown player is ErrNotFound.
func (s *Store) CreateGame(ctx context.Context, g Game) (Game, error) {
	var id int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		id, err = s.insertGame(ctx, tx, g)
		return err
	})
	if err != nil {
		return Game{}, err
	}
	return s.Game(ctx, id)
}

func (s *Store) insertGame(ctx context.Context, tx *sql.Tx, g Game) (int64, error) {
	if g.Variant == "" || g.Rules == "" {
		return 0, errors.New("store: a game needs a variant and rules")
	}
	if g.Clocks.Running != 0 && g.Clocks.Running != 1 {
		return 0, fmt.Errorf("store: the running clock is side %d, not 0 or 1", g.Clocks.Running)
	}
	now := millis(s.now())
	last := millis(g.LastMoveAt)
	if last == 0 {
		last = now
	}
	var seed any
	if g.HasSeed {
		seed = int64(g.Seed) // the bits of the uint64; read back as they were
	}
	id, err := nextID(ctx, tx, "games")
	if err != nil {
		return 0, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO games (id, variant, rules, white_id, black_id, start_position, seed, rated,
			status, result, method, clock_initial_ms, clock_increment_ms, nag_days, forfeit_days,
			white_left_ms, black_left_ms, clock_running, clock_since, ply, version, last_move_at, created_at, updated_at, engine_level)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', '*', '', $9, $10, $11, $12, $13, $14, $15, $16, 0, 0, $17, $18, $18, $19)`,
		id, g.Variant, g.Rules, g.White, g.Black, g.Start, seed, g.Rated,
		durMillis(g.Control.Initial), durMillis(g.Control.Increment), g.Control.NagDays, g.Control.ForfeitDays,
		durMillis(g.Clocks.Left[0]), durMillis(g.Clocks.Left[1]), g.Clocks.Running, millis(g.Clocks.Since),
		last, now, g.EngineLevel)
	return id, err
}

const gameSelect = `SELECT ` + gameColumns + `
	FROM games g JOIN users w ON w.id = g.white_id JOIN users b ON b.id = g.black_id`

// gameColumns are the columns scanGame reads, of games g and its players'
// users w and b.
const gameColumns = `g.id, g.variant, g.rules, g.white_id, g.black_id, w.name, b.name, g.start_position, g.seed, g.rated,
	g.status, g.result, g.method, g.clock_initial_ms, g.clock_increment_ms, g.nag_days, g.forfeit_days,
	g.white_left_ms, g.black_left_ms, g.clock_running, g.clock_since, g.ply, g.version, g.last_move_at, g.created_at, g.updated_at,
	g.engine_level, g.nag_sent_ply, g.ended_at`

// gamesFirst selects games g with their players w and b, the games first:
// SQLite joins the tables of a CROSS JOIN in the order written, so a
// query that walks an index of games in its order (the archive, a
// player's games) is not turned into a walk of the users and a sort;
// PostgreSQL plans a CROSS JOIN with its conditions as the join it is.
const gamesFirst = `SELECT ` + gameColumns + `
	FROM games g CROSS JOIN users w CROSS JOIN users b WHERE w.id = g.white_id AND b.id = g.black_id`

// gamesBy is gamesFirst walking the index of games named (SQLite's
// INDEXED BY: its planner, which knows the index's rows but not that the
// query stops after a page, may otherwise read every finished game by
// another index and sort them); on PostgreSQL, whose planner weighs the
// LIMIT, gamesFirst itself.
func (s *Store) gamesBy(index string) string {
	if s.dialect == goose.DialectPostgres {
		return gamesFirst
	}
	return strings.Replace(gamesFirst, "FROM games g ", "FROM games g INDEXED BY "+index+" ", 1)
}

func scanGame(row interface{ Scan(...any) error }) (Game, error) {
	var g Game
	var seed sql.NullInt64
	var initial, increment, wl, bl, since, last, created, updated, ended int64
	err := row.Scan(&g.ID, &g.Variant, &g.Rules, &g.White, &g.Black, &g.WhiteName, &g.BlackName, &g.Start, &seed, &g.Rated,
		&g.Status, &g.Result, &g.Method, &initial, &increment, &g.Control.NagDays, &g.Control.ForfeitDays,
		&wl, &bl, &g.Clocks.Running, &since, &g.Ply, &g.Version, &last, &created, &updated,
		&g.EngineLevel, &g.NagSentPly, &ended)
	if err != nil {
		return Game{}, err
	}
	g.Seed, g.HasSeed = uint64(seed.Int64), seed.Valid
	g.Control.Initial, g.Control.Increment = fromDurMillis(initial), fromDurMillis(increment)
	g.Clocks.Left = [2]time.Duration{fromDurMillis(wl), fromDurMillis(bl)}
	g.Clocks.Since = fromMillis(since)
	g.LastMoveAt, g.CreatedAt, g.UpdatedAt, g.EndedAt = fromMillis(last), fromMillis(created), fromMillis(updated), fromMillis(ended)
	return g, nil
}

func queryGame(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id int64) (Game, error) {
	g, err := scanGame(q.QueryRowContext(ctx, gameSelect+` WHERE g.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("%w: game %d", ErrNotFound, id)
	}
	return g, err
}

// Game returns a game.
func (s *Store) Game(ctx context.Context, id int64) (Game, error) {
	g, err := queryGame(ctx, s.r, id)
	return g, dbError(err)
}

// GameQuery selects games for Games. Zero fields select everything.
type GameQuery struct {
	User    int64  // games where this user plays either side
	Status  Status // Active or Finished
	Variant string
	Before  int64 // ids below this one (paging: the last id of the page before)
	Limit   int   // at most this many; 0 for all
}

// Games returns the games q selects, newest (highest id) first: a player's
// games (pbmserv "games USERID", "show USERID active"), the finished games
// ("history"), or every active game, which the server resumes at start.
func (s *Store) Games(ctx context.Context, q GameQuery) ([]Game, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if q.User != 0 {
		a := arg(q.User)
		where = append(where, "(g.white_id = "+a+" OR g.black_id = "+a+")")
	}
	if q.Status != "" {
		where = append(where, "g.status = "+arg(string(q.Status)))
	}
	if q.Variant != "" {
		where = append(where, "g.variant = "+arg(q.Variant))
	}
	if q.Before != 0 {
		where = append(where, "g.id < "+arg(q.Before))
	}
	query := gameSelect
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY g.id DESC"
	if q.Limit > 0 {
		query += " LIMIT " + arg(q.Limit)
	}
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var games []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, dbError(err)
		}
		games = append(games, g)
	}
	return games, dbError(rows.Err())
}

// Move is a stored move.
type Move struct {
	Ply     int    // 0 for the first move of the game
	Text    string // as the caller gave it (the rules core's move text)
	At      time.Time
	Left    [2]time.Duration // both clocks after the move: white's, black's
	Version int64            // the game's version this move made
}

// Moves returns the moves of a game in order. A game that does not exist is
// ErrNotFound; one without moves gives none.
func (s *Store) Moves(ctx context.Context, game int64) ([]Move, error) {
	var moves []Move
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		moves, err = queryMoves(ctx, tx, game)
		return err
	})
	return moves, err
}

func queryMoves(ctx context.Context, tx *sql.Tx, game int64) ([]Move, error) {
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id = $1`, game).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: game %d", ErrNotFound, game)
	} else if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT ply, move, played_at, white_left_ms, black_left_ms, version
		FROM moves WHERE game_id = $1 ORDER BY ply`, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var moves []Move
	for rows.Next() {
		var m Move
		var at, wl, bl int64
		if err := rows.Scan(&m.Ply, &m.Text, &at, &wl, &bl, &m.Version); err != nil {
			return nil, err
		}
		m.At, m.Left = fromMillis(at), [2]time.Duration{fromDurMillis(wl), fromDurMillis(bl)}
		moves = append(moves, m)
	}
	return moves, rows.Err()
}

// Snapshot is a game with its moves and pending offers, read at one
// moment: what a stream sends first.
type Snapshot struct {
	Game   Game
	Moves  []Move
	Offers []Offer
}

// Snapshot reads a game, its moves and its offers in one transaction, so
// they agree with each other and with Game.Version.
func (s *Store) Snapshot(ctx context.Context, game int64) (Snapshot, error) {
	var snap Snapshot
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		if snap.Game, err = queryGame(ctx, tx, game); err != nil {
			return err
		}
		if snap.Moves, err = queryMoves(ctx, tx, game); err != nil {
			return err
		}
		snap.Offers, err = queryOffers(ctx, tx, game)
		return err
	})
	return snap, err
}

// Append is a move to store.
type Append struct {
	// Ply is the move's ply, which must be the game's Ply: the number of
	// moves stored. This is the optimistic check that makes a move sent
	// twice (a retry, or two requests at once) stored once.
	Ply    int
	Move   string
	At     time.Time
	Clocks Clocks // the clocks after the move
	// ClearOffers withdraws the pending offers with the move (a move
	// declines a draw offer, for instance). The end of a game clears them
	// in any case.
	ClearOffers bool
	// End, when the move ends the game (a mill leaves the opponent two
	// pieces, a repetition, ...): the game is finished by the same
	// transaction.
	End *Ending
}

// Ending is how a game ends.
type Ending struct {
	Result string // "1-0", "0-1", "1/2-1/2"; "*" for a game abandoned without result
	Method string // mill.Method's text: "blocked", "resignation", "time", ...
	// Ratings are the players' new ratings, written with the end in one
	// transaction so that a game is rated exactly once. Each is written
	// only if the stored rating has played r.Games-1 games (no rating
	// counts as 0), so two games that end at once cannot both rate from
	// the same old rating: the second gets ErrConflict and rates again.
	Ratings []Rating
}

func (e *Ending) check() error {
	switch e.Result {
	case "1-0", "0-1", "1/2-1/2", "*":
	default:
		return fmt.Errorf("store: %q is not a result", e.Result)
	}
	if e.Method == "" {
		return errors.New("store: an ending needs a method")
	}
	return nil
}

// AppendMove stores a move as the next of a game, in one transaction that
// checks that a.Ply is the number of moves stored and that the game is
// active, stores the move, updates the clocks and the version, and
// finishes the game if a.End says so. It returns the game's new version
// once the transaction has committed: the move is then on the disk, and
// can be acknowledged. A ply that is not the next one, or a game that is
// over, is ErrConflict and changes nothing; an unknown game is ErrNotFound.
func (s *Store) AppendMove(ctx context.Context, game int64, a Append) (int64, error) {
	if a.Move == "" || a.Ply < 0 {
		return 0, errors.New("store: a move needs its text and a ply")
	}
	if a.Clocks.Running != 0 && a.Clocks.Running != 1 {
		return 0, fmt.Errorf("store: the running clock is side %d, not 0 or 1", a.Clocks.Running)
	}
	if a.End != nil {
		if err := a.End.check(); err != nil {
			return 0, err
		}
	}
	if s.batch == nil && a.End == nil {
		return s.appendMovePostgres(ctx, game, a)
	}
	var version int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		at := millis(a.At)
		wl, bl := durMillis(a.Clocks.Left[0]), durMillis(a.Clocks.Left[1])
		now := millis(s.now()) // the row's updated_at, and ended_at with an end
		update, args := appendUpdate, []any{game, a.Ply, wl, bl, a.Clocks.Running, millis(a.Clocks.Since), at, now}
		if a.End != nil {
			update, args = appendEnd, append(args, string(Finished), a.End.Result, a.End.Method)
		}
		err := s.queryRow(ctx, tx, update, args...).Scan(&version)
		if errors.Is(err, sql.ErrNoRows) {
			return whyNot(ctx, tx, game, a.Ply)
		}
		if err != nil {
			return err
		}
		_, err = s.exec(ctx, tx, appendInsert, game, a.Ply, a.Move, at, wl, bl, version)
		if err = dbError(err); errors.Is(err, ErrDuplicate) {
			// Not reachable while games.ply and the moves agree; the
			// primary key (game_id, ply) stands guard all the same.
			return fmt.Errorf("%w: game %d already has a move at ply %d", ErrConflict, game, a.Ply)
		} else if err != nil {
			return err
		}
		if a.ClearOffers || a.End != nil {
			if _, err := tx.ExecContext(ctx, `DELETE FROM offers WHERE game_id = $1`, game); err != nil {
				return err
			}
		}
		if a.End != nil {
			if _, err := tx.ExecContext(ctx, `DELETE FROM queued_moves WHERE game_id = $1`, game); err != nil {
				return err
			}
			return ended(ctx, tx, game, a.End, a.At, now)
		}
		return nil
	})
	return version, err
}

// appendMovePostgres is AppendMove's common case on PostgreSQL (a move
// that does not end the game): one statement, so one round trip and one
// implicit transaction instead of five or six (BEGIN, UPDATE, INSERT,
// DELETE, COMMIT). The statements in the WITH clause
// and the INSERT commit together or not at all, as in the general path;
// SQLite has no data-modifying WITH, which is why this path is
// PostgreSQL's alone.
func (s *Store) appendMovePostgres(ctx context.Context, game int64, a Append) (int64, error) {
	at := millis(a.At)
	var version int64
	err := s.w.QueryRowContext(ctx, `WITH g AS (
			UPDATE games SET ply = ply + 1, version = version + 1,
				white_left_ms = $3, black_left_ms = $4, clock_running = $5, clock_since = $6,
				last_move_at = $7, updated_at = $8
			WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING version),
		o AS (DELETE FROM offers WHERE game_id = $1 AND $10 AND EXISTS (SELECT 1 FROM g))
		INSERT INTO moves (game_id, ply, move, played_at, white_left_ms, black_left_ms, version)
		SELECT $1, $2, $9, $7, $3, $4, version FROM g RETURNING version`,
		game, a.Ply, durMillis(a.Clocks.Left[0]), durMillis(a.Clocks.Left[1]), a.Clocks.Running, millis(a.Clocks.Since),
		at, millis(s.now()), a.Move, a.ClearOffers).Scan(&version)
	if errors.Is(err, sql.ErrNoRows) {
		err = s.read(ctx, func(tx *sql.Tx) error { return whyNot(ctx, tx, game, a.Ply) })
	}
	if err != nil {
		if err = dbError(err); errors.Is(err, ErrDuplicate) {
			return 0, fmt.Errorf("%w: game %d already has a move at ply %d", ErrConflict, game, a.Ply)
		}
		return 0, s.noteWrite(err)
	}
	return version, s.noteWrite(nil)
}

// whyNot explains why a conditional update of an active game at ply found
// no row (ply < 0: any ply).
func whyNot(ctx context.Context, tx *sql.Tx, game int64, ply int) error {
	var at int
	var status Status
	err := tx.QueryRowContext(ctx, `SELECT ply, status FROM games WHERE id = $1`, game).Scan(&at, &status)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("%w: game %d", ErrNotFound, game)
	case err != nil:
		return err
	case status != Active:
		return fmt.Errorf("%w: game %d is %s", ErrConflict, game, status)
	case ply >= 0 && at != ply:
		return fmt.Errorf("%w: game %d is at ply %d, not %d", ErrConflict, game, at, ply)
	}
	return fmt.Errorf("%w: game %d changed", ErrConflict, game)
}

// Finish ends a game outside the board: a resignation, an agreed draw, a
// flag fallen, a forfeit, an abandonment.
type Finish struct {
	Ply    int       // the game's ply, as the caller last saw it
	At     time.Time // when
	Clocks Clocks    // the clocks at the end, stopped (Since zero)
	Ending
}

// FinishGame ends an active game at f.Ply: its result and method, the
// clocks, the ratings (see Ending), the pending offers withdrawn and the
// queued moves dropped, in one
// transaction. A game over already, or that has moved past f.Ply (a move
// came in before the flag fell), is ErrConflict.
func (s *Store) FinishGame(ctx context.Context, game int64, f Finish) (int64, error) {
	if err := f.Ending.check(); err != nil {
		return 0, err
	}
	var version int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		end := millis(s.now())
		err := tx.QueryRowContext(ctx, `UPDATE games SET version = version + 1, status = 'finished', result = $3, method = $4,
				white_left_ms = $5, black_left_ms = $6, clock_running = $7, clock_since = $8, updated_at = $9, ended_at = $9
			WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING version`,
			game, f.Ply, f.Result, f.Method, durMillis(f.Clocks.Left[0]), durMillis(f.Clocks.Left[1]),
			f.Clocks.Running, millis(f.Clocks.Since), end).Scan(&version)
		if errors.Is(err, sql.ErrNoRows) {
			return whyNot(ctx, tx, game, f.Ply)
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM offers WHERE game_id = $1`, game); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM queued_moves WHERE game_id = $1`, game); err != nil {
			return err
		}
		return ended(ctx, tx, game, &f.Ending, f.At, end)
	})
	return version, err
}

// TakeBack is a take-back agreed by the players.
type TakeBack struct {
	Ply    int // the game's ply, as the caller last saw it
	To     int // the ply to go back to: the moves from To on are deleted
	At     time.Time
	Clocks Clocks // the clocks after the take-back
}

// TakeBackMoves deletes the moves from t.To on, if the game is active and
// at t.Ply, sets the clocks, and withdraws the pending offers (the
// take-back answered one). It returns the new version. The moves' versions
// are not reused: a stream that saw a version after the take-back has to
// be sent the game afresh.
func (s *Store) TakeBackMoves(ctx context.Context, game int64, t TakeBack) (int64, error) {
	if t.To < 0 || t.To >= t.Ply {
		return 0, fmt.Errorf("store: cannot take back from ply %d to %d", t.Ply, t.To)
	}
	var version int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE games SET ply = $3, version = version + 1,
				white_left_ms = $4, black_left_ms = $5, clock_running = $6, clock_since = $7,
				last_move_at = $8, updated_at = $9
			WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING version`,
			game, t.Ply, t.To, durMillis(t.Clocks.Left[0]), durMillis(t.Clocks.Left[1]), t.Clocks.Running,
			millis(t.Clocks.Since), millis(t.At), millis(s.now())).Scan(&version)
		if errors.Is(err, sql.ErrNoRows) {
			return whyNot(ctx, tx, game, t.Ply)
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = $1 AND ply >= $2`, game, t.To); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM offers WHERE game_id = $1`, game)
		return err
	})
	return version, err
}

// OfferKind is what is offered.
type OfferKind string

const (
	DrawOffer     OfferKind = "draw"
	TakebackOffer OfferKind = "takeback"
)

// Offer is a pending offer: a draw or a take-back proposed by one side and
// not yet answered. A game has at most one of each kind.
type Offer struct {
	Kind OfferKind
	Side int // who offers: 0 white, 1 black
	Ply  int // the game's ply when offered
	At   time.Time
}

// SetOffer records an offer, replacing a pending one of the same kind, if
// the game is active and at o.Ply (ErrConflict otherwise). It returns the
// new version.
func (s *Store) SetOffer(ctx context.Context, game int64, o Offer) (int64, error) {
	if o.Kind != DrawOffer && o.Kind != TakebackOffer {
		return 0, fmt.Errorf("store: %q is not an offer", o.Kind)
	}
	if o.Side != 0 && o.Side != 1 {
		return 0, fmt.Errorf("store: side %d is not 0 or 1", o.Side)
	}
	var version int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE games SET version = version + 1, updated_at = $3
			WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING version`, game, o.Ply, millis(s.now())).Scan(&version)
		if errors.Is(err, sql.ErrNoRows) {
			return whyNot(ctx, tx, game, o.Ply)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO offers (game_id, kind, side, ply, created_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (game_id, kind) DO UPDATE SET side = excluded.side, ply = excluded.ply, created_at = excluded.created_at`,
			game, string(o.Kind), o.Side, o.Ply, millis(o.At))
		return err
	})
	return version, err
}

// ClearOffer removes the pending offer of that kind (accepted, declined or
// withdrawn) and returns the new version; ErrNotFound if there is none, so
// of two answers to one offer only one succeeds.
func (s *Store) ClearOffer(ctx context.Context, game int64, kind OfferKind) (int64, error) {
	var version int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := affected(tx.ExecContext(ctx, `DELETE FROM offers WHERE game_id = $1 AND kind = $2`, game, string(kind))); err != nil {
			return fmt.Errorf("%w: no %s offer in game %d", err, kind, game)
		}
		return tx.QueryRowContext(ctx, `UPDATE games SET version = version + 1, updated_at = $2 WHERE id = $1 RETURNING version`,
			game, millis(s.now())).Scan(&version)
	})
	return version, err
}

// Offers returns the pending offers of a game.
func (s *Store) Offers(ctx context.Context, game int64) ([]Offer, error) {
	var offers []Offer
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		offers, err = queryOffers(ctx, tx, game)
		return err
	})
	return offers, err
}

func queryOffers(ctx context.Context, tx *sql.Tx, game int64) ([]Offer, error) {
	rows, err := tx.QueryContext(ctx, `SELECT kind, side, ply, created_at FROM offers WHERE game_id = $1 ORDER BY kind`, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var offers []Offer
	for rows.Next() {
		var o Offer
		var at int64
		if err := rows.Scan(&o.Kind, &o.Side, &o.Ply, &at); err != nil {
			return nil, err
		}
		o.At = fromMillis(at)
		offers = append(offers, o)
	}
	return offers, rows.Err()
}

// ChatMessage is a message in a game's chat.
type ChatMessage struct {
	Game     int64
	Version  int64 // the game's version it made: its place in the chat
	User     int64
	UserName string // filled by reads
	Text     string
	At       time.Time
}

// AddChat stores a message in the chat of m.Game, over or not, and returns
// the game's new version, which is the message's. An unknown game or user
// is ErrNotFound. (AddChatKeeping bounds what a game keeps.)
func (s *Store) AddChat(ctx context.Context, m ChatMessage) (int64, error) {
	return s.AddChatKeeping(ctx, m, 0)
}

// Chat returns the messages of a game's chat with a version above after
// (0 for all), oldest first.
func (s *Store) Chat(ctx context.Context, game, after int64) ([]ChatMessage, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.version, c.user_id, u.name, c.body, c.created_at
		FROM chat c JOIN users u ON u.id = c.user_id WHERE c.game_id = $1 AND c.version > $2 ORDER BY c.version`, game, after)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var msgs []ChatMessage
	for rows.Next() {
		m := ChatMessage{Game: game}
		var at int64
		if err := rows.Scan(&m.Version, &m.User, &m.UserName, &m.Text, &at); err != nil {
			return nil, dbError(err)
		}
		m.At = fromMillis(at)
		msgs = append(msgs, m)
	}
	return msgs, dbError(rows.Err())
}

// GameVersion returns a game's version: a cheap look whether a copy of it
// is still current.
func (s *Store) GameVersion(ctx context.Context, id int64) (int64, error) {
	var v int64
	err := s.r.QueryRowContext(ctx, `SELECT version FROM games WHERE id = $1`, id).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%w: game %d", ErrNotFound, id)
	}
	return v, dbError(err)
}

// GameVersions returns the versions of the games of ids that exist: one
// look at many games, for a process that follows many (a server's poll of
// the games its streams watch). Asked in groups of at most 500.
func (s *Store) GameVersions(ctx context.Context, ids []int64) (map[int64]int64, error) {
	out := make(map[int64]int64, len(ids))
	var q strings.Builder
	args := make([]any, 0, 500)
	for len(ids) > 0 {
		n := min(len(ids), 500)
		q.Reset()
		q.WriteString(`SELECT id, version FROM games WHERE id IN (`)
		args = args[:0]
		for i, id := range ids[:n] {
			if i > 0 {
				q.WriteByte(',')
			}
			fmt.Fprintf(&q, "$%d", i+1)
			args = append(args, id)
		}
		q.WriteByte(')')
		ids = ids[n:]
		rows, err := s.r.QueryContext(ctx, q.String(), args...)
		if err != nil {
			return nil, dbError(err)
		}
		for rows.Next() {
			var id, v int64
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return nil, dbError(err)
			}
			out[id] = v
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, dbError(err)
		}
	}
	return out, nil
}
