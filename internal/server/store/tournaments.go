package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Tournaments: an event, its field and its pairings. The store keeps what
// was decided (who entered, who was paired with whom in which game) and
// nothing that is counted from it: points and tie-breaks are the
// service's, derived from the pairings and their games' results whenever
// they are read, so that no crash can leave a score behind its games.
//
// Every change to an event is a compare-and-set on its version (the
// caller read the event at that version and decided from it): a player
// joining or leaving, the start, a round paired (with its games, in the
// same transaction), the end. Two processes sharing a PostgreSQL database
// that decide the same change at once make it once: the second finds the
// version moved and gets ErrConflict, reads again and decides afresh.
// A round is also paired only on the round before it (round = k-1), as a
// second guard.

// TournamentStatus is where an event is in its life.
type TournamentStatus string

const (
	TournamentUpcoming TournamentStatus = "upcoming" // taking entries
	TournamentRunning  TournamentStatus = "running"  // started
	TournamentFinished TournamentStatus = "finished" // over, or cancelled before it began (Note says why)
)

// Tournament is an event.
type Tournament struct {
	ID      int64
	Name    string
	Kind    string // the service's: roundrobin, swiss, arena, correspondence
	Variant string
	Rules   string
	Rated   bool
	Control TimeControl
	// Rounds: a Swiss's rounds; a round robin's, set at the start.
	Rounds int
	// Cycles: 1 for a single round robin, 2 for a double.
	Cycles   int
	Duration time.Duration // an arena's
	StartsAt time.Time     // zero: the organiser starts it
	Club     int64         // 0: open to all
	// MinRating and MaxRating bound the ratings of those who join (0: no bound).
	MinRating, MaxRating int
	MaxPlayers           int
	// LateEntryUntil: a running Swiss takes players until this many
	// rounds are paired.
	LateEntryUntil int
	ManualPairing  bool // a Swiss whose rounds its organiser pairs
	EngineLevel    int  // the engine's level when it plays in the event, else 0
	Organiser      int64
	OrganiserName  string // filled by reads
	Status         TournamentStatus
	// Round is the number of rounds (an arena's waves) paired so far.
	Round   int
	Seed    uint64
	Players int // the entrants, withdrawn ones included
	StartedAt,
	EndsAt, // an arena's end
	FinishedAt time.Time
	Note      string // why the event ended early, or was cancelled
	Version   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Entrant is a player of an event.
type Entrant struct {
	Tournament int64
	User       int64
	Name       string // filled by reads
	Bot        bool   // filled by reads
	Rating     int    // the rating that ranks them, as it was when they joined
	Number     int    // the number of a round robin's Berger table, from the start
	FromRound  int    // the first round they may be paired in
	JoinedAt   time.Time
	// WithdrawnAt is when they withdrew; zero while they play.
	WithdrawnAt time.Time
}

// Pairing is one board of a round: a game, or a bye (Black and Game 0)
// of White, the pairing's or, with HalfBye, one asked for.
type Pairing struct {
	Tournament   int64
	Round, Board int
	White, Black int64
	HalfBye      bool
	// WhiteName and BlackName are filled by reads.
	WhiteName, BlackName       string
	Game                       int64
	WhiteBerserk, BlackBerserk bool
	// The game's, filled by reads: its status, result, method, plies and
	// when it last changed (its end, once over).
	Status    Status
	Result    string
	Method    string
	Ply       int
	UpdatedAt time.Time
}

// NewPairing is a board to store: a game to create (its players are the
// game's White and Black), or a bye of Bye (with HalfBye, one that Bye
// asked for).
type NewPairing struct {
	Round, Board int
	Game         *Game
	Bye          int64
	HalfBye      bool
}

// ByeRequest is a player's request to sit out a round of a Swiss for
// half a point.
type ByeRequest struct {
	User  int64
	Round int
}

// TournamentState is an event read at one moment: the event, its field
// (in the order of joining), its pairings (by round and board) with their
// games' results, and the half-point byes asked for (by round, then
// user), those of rounds paired already included.
type TournamentState struct {
	Tournament  Tournament
	Entrants    []Entrant
	Pairings    []Pairing
	ByeRequests []ByeRequest
}

// ErrTournamentFull refuses a player to an event whose field is full. It
// wraps ErrConflict.
var ErrTournamentFull = fmt.Errorf("%w: the field is full", ErrConflict)

const tournamentColumns = `t.id, t.name, t.kind, t.variant, t.rules, t.rated, t.clock_initial_ms, t.clock_increment_ms, t.nag_days,
	t.forfeit_days, t.rounds, t.cycles, t.duration_ms, t.starts_at, t.club_id, t.min_rating, t.max_rating, t.max_players,
	t.late_entry_until, t.manual_pairing, t.engine_level, t.organiser_id, o.name, t.status, t.round, t.seed, t.players,
	t.started_at, t.ends_at, t.finished_at, t.note, t.version, t.created_at, t.updated_at`

const tournamentSelect = `SELECT ` + tournamentColumns + ` FROM tournaments t JOIN users o ON o.id = t.organiser_id`

func scanTournament(row interface{ Scan(...any) error }) (Tournament, error) {
	var t Tournament
	var initial, increment, duration, starts, seed, started, ends, finished, created, updated int64
	err := row.Scan(&t.ID, &t.Name, &t.Kind, &t.Variant, &t.Rules, &t.Rated, &initial, &increment, &t.Control.NagDays,
		&t.Control.ForfeitDays, &t.Rounds, &t.Cycles, &duration, &starts, &t.Club, &t.MinRating, &t.MaxRating, &t.MaxPlayers,
		&t.LateEntryUntil, &t.ManualPairing, &t.EngineLevel, &t.Organiser, &t.OrganiserName, &t.Status, &t.Round, &seed, &t.Players,
		&started, &ends, &finished, &t.Note, &t.Version, &created, &updated)
	if err != nil {
		return Tournament{}, err
	}
	t.Control.Initial, t.Control.Increment = fromDurMillis(initial), fromDurMillis(increment)
	t.Duration = fromDurMillis(duration)
	t.Seed = uint64(seed)
	t.StartsAt, t.StartedAt, t.EndsAt, t.FinishedAt = fromMillis(starts), fromMillis(started), fromMillis(ends), fromMillis(finished)
	t.CreatedAt, t.UpdatedAt = fromMillis(created), fromMillis(updated)
	return t, nil
}

// CreateTournament stores a new upcoming event and returns it with its
// id. From t it takes everything the organiser sets (the fields up to
// Organiser) and Seed; the rest is the store's. With engine (the engine's
// user, 0 for none) the engine enters at once, rated engineRating.
func (s *Store) CreateTournament(ctx context.Context, t Tournament, engine int64, engineRating int) (Tournament, error) {
	if t.Name == "" || t.Kind == "" || t.Variant == "" || t.Rules == "" || t.Organiser == 0 || t.MaxPlayers < 2 {
		return Tournament{}, errors.New("store: a tournament needs a name, a kind, rules, an organiser and room for two")
	}
	now := millis(s.now())
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		if t.ID, err = nextID(ctx, tx, "tournaments"); err != nil {
			return err
		}
		players := 0
		if engine != 0 {
			players = 1
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO tournaments (id, name, kind, variant, rules, rated, clock_initial_ms,
				clock_increment_ms, nag_days, forfeit_days, rounds, cycles, duration_ms, starts_at, club_id, min_rating,
				max_rating, max_players, late_entry_until, manual_pairing, engine_level, organiser_id, status, seed, players,
				created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
				'upcoming', $23, $24, $25, $25)`,
			t.ID, t.Name, t.Kind, t.Variant, t.Rules, t.Rated, durMillis(t.Control.Initial), durMillis(t.Control.Increment),
			t.Control.NagDays, t.Control.ForfeitDays, t.Rounds, t.Cycles, durMillis(t.Duration), millis(t.StartsAt), t.Club,
			t.MinRating, t.MaxRating, t.MaxPlayers, t.LateEntryUntil, t.ManualPairing, t.EngineLevel, t.Organiser,
			int64(t.Seed), players, now)
		if err != nil || engine == 0 {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO tournament_players (tournament_id, user_id, rating, joined_at) VALUES ($1, $2, $3, $4)`,
			t.ID, engine, engineRating, now)
		return err
	})
	if err != nil {
		return Tournament{}, err
	}
	return s.Tournament(ctx, t.ID)
}

// Tournament returns an event.
func (s *Store) Tournament(ctx context.Context, id int64) (Tournament, error) {
	t, err := queryTournament(ctx, s.r, id)
	return t, dbError(err)
}

func queryTournament(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id int64) (Tournament, error) {
	t, err := scanTournament(q.QueryRowContext(ctx, tournamentSelect+` WHERE t.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Tournament{}, fmt.Errorf("%w: tournament %d", ErrNotFound, id)
	}
	return t, err
}

// TournamentState reads an event, its field and its pairings in one
// transaction.
func (s *Store) TournamentState(ctx context.Context, id int64) (TournamentState, error) {
	var st TournamentState
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		if st.Tournament, err = queryTournament(ctx, tx, id); err != nil {
			return err
		}
		if st.Entrants, err = queryEntrants(ctx, tx, id); err != nil {
			return err
		}
		if st.Pairings, err = queryPairings(ctx, tx, id); err != nil {
			return err
		}
		st.ByeRequests, err = queryByeRequests(ctx, tx, id)
		return err
	})
	return st, err
}

func queryByeRequests(ctx context.Context, tx *sql.Tx, id int64) ([]ByeRequest, error) {
	rows, err := tx.QueryContext(ctx, `SELECT user_id, round FROM tournament_bye_requests WHERE tournament_id = $1 ORDER BY round, user_id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []ByeRequest
	for rows.Next() {
		var r ByeRequest
		if err := rows.Scan(&r.User, &r.Round); err != nil {
			return nil, err
		}
		list = append(list, r)
	}
	return list, rows.Err()
}

func queryEntrants(ctx context.Context, tx *sql.Tx, id int64) ([]Entrant, error) {
	rows, err := tx.QueryContext(ctx, `SELECT p.user_id, u.name, u.bot, p.rating, p.number, p.from_round, p.joined_at, p.withdrawn_at
		FROM tournament_players p JOIN users u ON u.id = p.user_id WHERE p.tournament_id = $1 ORDER BY p.joined_at, p.user_id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []Entrant
	for rows.Next() {
		e := Entrant{Tournament: id}
		var joined, withdrawn int64
		if err := rows.Scan(&e.User, &e.Name, &e.Bot, &e.Rating, &e.Number, &e.FromRound, &joined, &withdrawn); err != nil {
			return nil, err
		}
		e.JoinedAt, e.WithdrawnAt = fromMillis(joined), fromMillis(withdrawn)
		list = append(list, e)
	}
	return list, rows.Err()
}

func queryPairings(ctx context.Context, tx *sql.Tx, id int64) ([]Pairing, error) {
	rows, err := tx.QueryContext(ctx, `SELECT p.round, p.board, p.white_id, w.name, p.black_id, b.name, p.game_id, p.half_bye,
			p.white_berserk, p.black_berserk, g.status, g.result, g.method, g.ply, g.updated_at
		FROM tournament_pairings p JOIN users w ON w.id = p.white_id LEFT JOIN users b ON b.id = p.black_id
			LEFT JOIN games g ON g.id = p.game_id
		WHERE p.tournament_id = $1 ORDER BY p.round, p.board`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []Pairing
	for rows.Next() {
		p := Pairing{Tournament: id}
		var black, game, ply, updated sql.NullInt64
		var blackName, status, result, method sql.NullString
		if err := rows.Scan(&p.Round, &p.Board, &p.White, &p.WhiteName, &black, &blackName, &game, &p.HalfBye,
			&p.WhiteBerserk, &p.BlackBerserk, &status, &result, &method, &ply, &updated); err != nil {
			return nil, err
		}
		p.Black, p.BlackName, p.Game = black.Int64, blackName.String, game.Int64
		p.Status, p.Result, p.Method, p.Ply = Status(status.String), result.String, method.String, int(ply.Int64)
		p.UpdatedAt = fromMillis(updated.Int64)
		list = append(list, p)
	}
	return list, rows.Err()
}

// TournamentQuery selects events for Tournaments. Zero fields select
// everything.
type TournamentQuery struct {
	Status  TournamentStatus
	Club    int64
	Variant string
	Before  int64 // ids below this one (the last id of the page before)
	Limit   int
}

// Tournaments returns a page of the events q selects, newest (highest id)
// first, and whether more follow it.
func (s *Store) Tournaments(ctx context.Context, q TournamentQuery) ([]Tournament, bool, error) {
	if q.Limit < 1 {
		return nil, false, errors.New("store: a page of no tournament")
	}
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if q.Status != "" {
		where = append(where, "t.status = "+arg(string(q.Status)))
	}
	if q.Club != 0 {
		where = append(where, "t.club_id = "+arg(q.Club))
	}
	if q.Variant != "" {
		where = append(where, "t.variant = "+arg(q.Variant))
	}
	if q.Before != 0 {
		where = append(where, "t.id < "+arg(q.Before))
	}
	query := tournamentSelect
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY t.id DESC LIMIT " + arg(q.Limit+1)
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, false, dbError(err)
	}
	defer rows.Close()
	var list []Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, false, dbError(err)
		}
		list = append(list, t)
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

// TournamentCounts returns how many upcoming or running events a user
// organises, and how many they play in (not withdrawn): their quotas.
func (s *Store) TournamentCounts(ctx context.Context, user int64) (organised, playing int, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tournaments WHERE organiser_id = $1 AND status <> 'finished'`,
			user).Scan(&organised); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id
			WHERE p.user_id = $1 AND p.withdrawn_at = 0 AND t.status <> 'finished'`, user).Scan(&playing)
	})
	return organised, playing, err
}

// changeTournament moves an event from version to the next, where cond
// (SQL on the row, may be "") holds too, and sets what set says (may be
// ""; its arguments from $3 on). It is the first statement of every
// change, so that on PostgreSQL the event's row is locked until the
// change commits. A version that moved, or a cond that fails, is
// ErrConflict; an unknown event ErrNotFound.
func changeTournament(ctx context.Context, tx *sql.Tx, id, version int64, now int64, set, cond string, args ...any) error {
	q := `UPDATE tournaments SET version = version + 1, updated_at = $3`
	if set != "" {
		q += ", " + set
	}
	q += ` WHERE id = $1 AND version = $2`
	if cond != "" {
		q += " AND " + cond
	}
	res, err := tx.ExecContext(ctx, q, append([]any{id, version, now}, args...)...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 1 {
		return nil
	}
	var v int64
	var players, max int
	err = tx.QueryRowContext(ctx, `SELECT version, players, max_players FROM tournaments WHERE id = $1`, id).Scan(&v, &players, &max)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("%w: tournament %d", ErrNotFound, id)
	case err != nil:
		return err
	case v != version:
		return fmt.Errorf("%w: tournament %d changed", ErrConflict, id)
	case players >= max && strings.Contains(cond, "players <"):
		return ErrTournamentFull
	}
	return fmt.Errorf("%w: tournament %d is not as it was", ErrConflict, id)
}

// JoinTournament enters a player in an event at the version the caller
// read, if its field has room (else ErrTournamentFull). A player entered
// already is ErrDuplicate.
func (s *Store) JoinTournament(ctx context.Context, id, version int64, e Entrant) error {
	if e.FromRound < 1 {
		e.FromRound = 1
	}
	now := millis(s.now())
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := changeTournament(ctx, tx, id, version, now, "players = players + 1", "players < max_players AND status <> 'finished'"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tournament_players (tournament_id, user_id, rating, from_round, joined_at)
			VALUES ($1, $2, $3, $4, $5)`, id, e.User, e.Rating, e.FromRound, now)
		return err
	})
}

// RejoinTournament takes back a player's withdrawal (an arena's pause),
// at the version the caller read. A player who has not withdrawn is
// ErrNotFound.
func (s *Store) RejoinTournament(ctx context.Context, id, version, user int64) error {
	now := millis(s.now())
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := changeTournament(ctx, tx, id, version, now, "", "status = 'running'"); err != nil {
			return err
		}
		return affected(tx.ExecContext(ctx, `UPDATE tournament_players SET withdrawn_at = 0
			WHERE tournament_id = $1 AND user_id = $2 AND withdrawn_at <> 0`, id, user))
	})
}

// WithdrawTournament takes a player out of an event, at the version the
// caller read: before the start (remove) their entry is deleted, after it
// they are marked withdrawn (their games stand). A player not in the
// event, or withdrawn already, is ErrNotFound.
func (s *Store) WithdrawTournament(ctx context.Context, id, version, user int64, remove bool) error {
	now := millis(s.now())
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if remove {
			if err := changeTournament(ctx, tx, id, version, now, "players = players - 1", "status = 'upcoming'"); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM tournament_bye_requests WHERE tournament_id = $1 AND user_id = $2`, id, user); err != nil {
				return err
			}
			return affected(tx.ExecContext(ctx, `DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2`, id, user))
		}
		if err := changeTournament(ctx, tx, id, version, now, "", "status = 'running'"); err != nil {
			return err
		}
		// The rounds not paired yet are no longer theirs to sit out.
		if _, err := tx.ExecContext(ctx, `DELETE FROM tournament_bye_requests WHERE tournament_id = $1 AND user_id = $2
			AND round > (SELECT t.round FROM tournaments t WHERE t.id = $1)`, id, user); err != nil {
			return err
		}
		return affected(tx.ExecContext(ctx, `UPDATE tournament_players SET withdrawn_at = $3
			WHERE tournament_id = $1 AND user_id = $2 AND withdrawn_at = 0`, id, user, now))
	})
}

// SetByeRequest makes (on) or takes back a player's request to sit out
// round of an event, at the version the caller read, while that round is
// not paired. Making one twice is ErrDuplicate; taking back one not made
// is ErrNotFound.
func (s *Store) SetByeRequest(ctx context.Context, id, version, user int64, round int, on bool) error {
	now := millis(s.now())
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := changeTournament(ctx, tx, id, version, now, "", "round < $4 AND status <> 'finished'", round); err != nil {
			return err
		}
		if !on {
			return affected(tx.ExecContext(ctx, `DELETE FROM tournament_bye_requests WHERE tournament_id = $1 AND user_id = $2 AND round = $3`,
				id, user, round))
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tournament_bye_requests (tournament_id, user_id, round, requested_at) VALUES ($1, $2, $3, $4)`,
			id, user, round, now)
		return err
	})
}

// TournamentStart is what an event's start stores: the time, the number
// of rounds (a round robin's follow from its field), an arena's end, the
// Berger numbers of a round robin's players (by user), and the rounds
// paired at once (Round of them: round 1, or every round of a
// correspondence event) with their boards.
type TournamentStart struct {
	At       time.Time
	Rounds   int
	EndsAt   time.Time
	Numbers  map[int64]int
	Round    int
	Pairings []NewPairing
}

// StartTournament starts an upcoming event at the version the caller
// read, with its first pairings and their games, in one transaction, and
// returns the games created.
func (s *Store) StartTournament(ctx context.Context, id, version int64, st TournamentStart) ([]int64, error) {
	var games []int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		games = games[:0]
		err := changeTournament(ctx, tx, id, version, millis(s.now()), "status = 'running', started_at = $4, ends_at = $5, rounds = $6, round = $7",
			"status = 'upcoming'", millis(st.At), millis(st.EndsAt), st.Rounds, st.Round)
		if err != nil {
			return err
		}
		for user, n := range st.Numbers {
			if err := affected(tx.ExecContext(ctx, `UPDATE tournament_players SET number = $3 WHERE tournament_id = $1 AND user_id = $2`,
				id, user, n)); err != nil {
				return fmt.Errorf("%w: player %d of tournament %d", err, user, id)
			}
		}
		games, err = s.insertPairings(ctx, tx, id, st.Pairings)
		return err
	})
	return games, err
}

// PairRound stores round (or an arena's wave) number round of a running
// event, paired when the event was at version and had round-1 rounds,
// with its games, in one transaction, and returns the games created.
func (s *Store) PairRound(ctx context.Context, id, version int64, round int, pairings []NewPairing) ([]int64, error) {
	var games []int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		games = games[:0]
		err := changeTournament(ctx, tx, id, version, millis(s.now()), "round = $4", "round = $4 - 1 AND status = 'running'", round)
		if err != nil {
			return err
		}
		for _, p := range pairings {
			if p.Round != round {
				return fmt.Errorf("store: a board of round %d in the pairing of round %d", p.Round, round)
			}
		}
		games, err = s.insertPairings(ctx, tx, id, pairings)
		return err
	})
	return games, err
}

func (s *Store) insertPairings(ctx context.Context, tx *sql.Tx, id int64, pairings []NewPairing) ([]int64, error) {
	var games []int64
	for _, p := range pairings {
		if p.Game == nil {
			if p.Bye == 0 {
				return nil, errors.New("store: a board without a game or a bye")
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_pairings (tournament_id, round, board, white_id, half_bye) VALUES ($1, $2, $3, $4, $5)`,
				id, p.Round, p.Board, p.Bye, p.HalfBye); err != nil {
				return nil, err
			}
			continue
		}
		g, err := s.insertGame(ctx, tx, *p.Game)
		if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, game_id)
			VALUES ($1, $2, $3, $4, $5, $6)`, id, p.Round, p.Board, p.Game.White, p.Game.Black, g); err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, nil
}

// FinishTournament ends an event at the version the caller read: over, or
// cancelled (never started), with a note that says why when it ended
// early.
func (s *Store) FinishTournament(ctx context.Context, id, version int64, at time.Time, note string) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return changeTournament(ctx, tx, id, version, millis(s.now()), "status = 'finished', finished_at = $4, note = $5",
			"status <> 'finished'", millis(at), note)
	})
}

// TournamentOfGame returns the event a game was paired in; ErrNotFound
// for a game of none.
func (s *Store) TournamentOfGame(ctx context.Context, game int64) (int64, error) {
	var id int64
	err := s.r.QueryRowContext(ctx, `SELECT tournament_id FROM tournament_pairings WHERE game_id = $1`, game).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%w: game %d is in no tournament", ErrNotFound, game)
	}
	return id, dbError(err)
}

// DueTournaments returns the events that may have something to do, for
// the service's sweep: the upcoming ones whose start time has come
// (startsBy) or, without one, created before expireBefore; the running
// arenas; and the running events without a game going on (a round over,
// or the last; a Swiss paired by hand waiting for its organiser too: the
// service pairs it after a while), or with a game going on whose player
// has withdrawn.
func (s *Store) DueTournaments(ctx context.Context, startsBy, expireBefore time.Time) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT t.id FROM tournaments t WHERE
		(t.status = 'upcoming' AND ((t.starts_at > 0 AND t.starts_at <= $1) OR (t.starts_at = 0 AND t.created_at <= $2)))
		OR (t.status = 'running' AND (t.kind = 'arena'
			OR NOT EXISTS (SELECT 1 FROM tournament_pairings p JOIN games g ON g.id = p.game_id
					WHERE p.tournament_id = t.id AND g.status = 'active')
			OR EXISTS (SELECT 1 FROM tournament_pairings p JOIN games g ON g.id = p.game_id
					JOIN tournament_players w ON w.tournament_id = p.tournament_id AND (w.user_id = p.white_id OR w.user_id = p.black_id)
				WHERE p.tournament_id = t.id AND g.status = 'active' AND w.withdrawn_at <> 0)))
		ORDER BY t.id`, millis(startsBy), millis(expireBefore))
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, dbError(err)
		}
		ids = append(ids, id)
	}
	return ids, dbError(rows.Err())
}

// Berserk halves a player's clock in an arena game, as the player asks
// before their first move: side's time left becomes left, and the
// pairing's berserk flag of the side is set, with the game's version, in
// one transaction, at the ply the caller saw. A game that has moved on
// or is over, or a side that berserked already, is ErrConflict. It
// returns the game's new version.
func (s *Store) Berserk(ctx context.Context, game int64, side, ply int, left time.Duration) (int64, error) {
	if side != 0 && side != 1 {
		return 0, fmt.Errorf("store: side %d is not 0 or 1", side)
	}
	clockCol, flagCol := "white_left_ms", "white_berserk"
	if side == 1 {
		clockCol, flagCol = "black_left_ms", "black_berserk"
	}
	var version int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tournament_pairings SET `+flagCol+` = TRUE WHERE game_id = $1 AND NOT `+flagCol, game)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("%w: game %d: no berserk to take there", ErrConflict, game)
		}
		err = tx.QueryRowContext(ctx, `UPDATE games SET `+clockCol+` = $3, version = version + 1, updated_at = $4
			WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING version`, game, ply, durMillis(left), millis(s.now())).Scan(&version)
		if errors.Is(err, sql.ErrNoRows) {
			return whyNot(ctx, tx, game, ply)
		}
		return err
	})
	return version, err
}

// TournamentRecords reads every game of an event with its moves, by round
// and board, in one transaction: its records.
func (s *Store) TournamentRecords(ctx context.Context, id int64) ([]Game, map[int64][]Move, error) {
	var games []Game
	moves := map[int64][]Move{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, gameSelect+` JOIN tournament_pairings p ON p.game_id = g.id
			WHERE p.tournament_id = $1 ORDER BY p.round, p.board`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			g, err := scanGame(rows)
			if err != nil {
				return err
			}
			games = append(games, g)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		mrows, err := tx.QueryContext(ctx, `SELECT m.game_id, m.ply, m.move, m.played_at, m.white_left_ms, m.black_left_ms, m.version
			FROM moves m JOIN tournament_pairings p ON p.game_id = m.game_id WHERE p.tournament_id = $1 ORDER BY m.game_id, m.ply`, id)
		if err != nil {
			return err
		}
		defer mrows.Close()
		for mrows.Next() {
			var game int64
			var m Move
			var at, wl, bl int64
			if err := mrows.Scan(&game, &m.Ply, &m.Text, &at, &wl, &bl, &m.Version); err != nil {
				return err
			}
			m.At, m.Left = fromMillis(at), [2]time.Duration{fromDurMillis(wl), fromDurMillis(bl)}
			moves[game] = append(moves[game], m)
		}
		return mrows.Err()
	})
	return games, moves, dbError(err)
}

// leaveAllTournaments takes a deleted user out of their events: out of
// the upcoming ones, withdrawn from the running ones (their games stand).
func leaveAllTournaments(ctx context.Context, tx *sql.Tx, user, now int64) error {
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE tournaments SET players = players - 1, version = version + 1, updated_at = $2
			WHERE status = 'upcoming' AND id IN (SELECT tournament_id FROM tournament_players WHERE user_id = $1)`, []any{user, now}},
		{`DELETE FROM tournament_players WHERE user_id = $1
			AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'upcoming')`, []any{user}},
		{`UPDATE tournaments SET version = version + 1, updated_at = $2
			WHERE status = 'running' AND id IN (SELECT tournament_id FROM tournament_players WHERE user_id = $1 AND withdrawn_at = 0)`, []any{user, now}},
		{`UPDATE tournament_players SET withdrawn_at = $2 WHERE user_id = $1 AND withdrawn_at = 0
			AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'running')`, []any{user, now}},
		{`DELETE FROM tournament_bye_requests WHERE user_id = $1
			AND round > (SELECT t.round FROM tournaments t WHERE t.id = tournament_bye_requests.tournament_id)`, []any{user}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return err
		}
	}
	return nil
}
