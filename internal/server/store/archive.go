package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
)

// The archive of finished games: searched by player (and opponent, and
// colour), preset, result and the time of the end, newest end first, in
// pages given by a key (the end's time and the id of the last game seen).
//
// What a page may cost is bounded whatever the filters: each query walks
// one index in order, from the key down: the games of a player (as white,
// as black: games_archive_white, games_archive_black), else of a preset
// (games_archive_variant), else all of them (games_archive), each from the
// end's time, so that a date range is a range of the index. The filters
// that are not the index's (the preset with a player, the result, the
// opponent) are checked on the rows walked, and a page walks at most
// ArchiveQuery.Scan of them in each index: when the filters are rare, a
// page comes back short, or empty, with the key where it stopped, and the
// next page goes on from there. No query reads more than Scan rows of an
// index and Limit+1 games, whatever a client asks.

// ArchiveKey is a place in the archive: a game's end and its id. The zero
// key is the newest end.
type ArchiveKey struct {
	At time.Time
	ID int64
}

func (k ArchiveKey) ms() int64 { return millis(k.At) }

// IsZero reports whether k is the zero key (the start of the archive).
func (k ArchiveKey) IsZero() bool { return k.ID == 0 && k.At.IsZero() }

// ArchiveQuery is a search of the archive. Zero fields select everything.
type ArchiveQuery struct {
	Player   int64 // the games of this player
	Opponent int64 // with Player: against this one
	Side     int   // with Player: 0 either, 1 as white, 2 as black
	Variant  string
	// Result is the games' result ("1-0", "0-1", "1/2-1/2", "*").
	Result string
	// PlayerResult, with Player: "win", "loss" or "draw".
	PlayerResult string
	From, To     time.Time // ends from From (included) to To (excluded); zero: no bound
	Before       ArchiveKey
	Limit        int // games on a page (at least 1)
	Scan         int // rows of an index walked, at most (at least Limit)
}

// ArchivePage is a page of the archive: its games, and Next, the key to
// ask the next page with, or the zero key when there is no more.
type ArchivePage struct {
	Games []Game
	Next  ArchiveKey
}

// archiveSource is one index an archive query walks: the query of the
// row Scan rows down from the key (below it the index was not walked),
// with its arguments, and the query of the games that pass the filters
// down to that row (its end and id as two more arguments: matchTo), or
// all the way when the index has no such row (match), with theirs.
type archiveSource struct {
	bound          string
	boundArgs      []any
	match, matchTo string
	matchArgs      []any
}

// archiveSQL returns the queries of q, one source per index walked.
func (s *Store) archiveSQL(q ArchiveQuery) []archiveSource {
	type cond struct {
		text string // with a %s for each argument
		args []any
	}
	c := func(text string, args ...any) cond { return cond{text, args} }
	// The conditions of every source: finished (the partial indexes'),
	// the date range and the key.
	common := []cond{c("g.status = 'finished'")}
	if !q.From.IsZero() {
		common = append(common, c("g.ended_at >= %s", millis(q.From)))
	}
	if !q.To.IsZero() {
		common = append(common, c("g.ended_at < %s", millis(q.To)))
	}
	if !q.Before.IsZero() {
		common = append(common, c("(g.ended_at, g.id) < (%s, %s)", q.Before.ms(), q.Before.ID))
	}
	type source struct {
		name        string // the index
		index, rest []cond
	}
	var sources []source
	switch {
	case q.Player != 0:
		for side, col := range []string{"white_id", "black_id"} {
			if q.Side != 0 && q.Side != side+1 {
				continue
			}
			src := source{name: "games_archive_" + []string{"white", "black"}[side], index: []cond{c("g."+col+" = %s", q.Player)}}
			if q.Opponent != 0 {
				src.rest = append(src.rest, c([]string{"g.black_id", "g.white_id"}[side]+" = %s", q.Opponent))
			}
			if q.Variant != "" {
				src.rest = append(src.rest, c("g.variant = %s", q.Variant))
			}
			if r := playerResult(q.PlayerResult, side); r != "" {
				src.rest = append(src.rest, c("g.result = %s", r))
			}
			sources = append(sources, src)
		}
	case q.Variant != "":
		sources = []source{{name: "games_archive_variant", index: []cond{c("g.variant = %s", q.Variant)}}}
	default:
		sources = []source{{name: "games_archive"}}
	}
	if q.Result != "" {
		for i := range sources {
			sources[i].rest = append(sources[i].rest, c("g.result = %s", q.Result))
		}
	}
	// where joins conditions with their arguments numbered from 1.
	where := func(conds []cond) (string, []any) {
		var parts []string
		var args []any
		for _, x := range conds {
			var nums []any
			for _, a := range x.args {
				args = append(args, a)
				nums = append(nums, fmt.Sprintf("$%d", len(args)))
			}
			parts = append(parts, fmt.Sprintf(x.text, nums...))
		}
		return strings.Join(parts, " AND "), args
	}
	order := fmt.Sprintf(` ORDER BY g.ended_at DESC, g.id DESC LIMIT %d`, q.Limit+1)
	out := make([]archiveSource, 0, len(sources))
	for _, src := range sources {
		walk := append(slices.Clone(common), src.index...)
		bw, bargs := where(walk)
		mw, margs := where(append(walk, src.rest...))
		games := "games g"
		if s.dialect != goose.DialectPostgres {
			games += " INDEXED BY " + src.name
		}
		out = append(out, archiveSource{
			bound: fmt.Sprintf(`SELECT g.ended_at, g.id FROM %s WHERE %s ORDER BY g.ended_at DESC, g.id DESC LIMIT 1 OFFSET %d`,
				games, bw, q.Scan-1),
			boundArgs: bargs,
			match:     s.gamesBy(src.name) + ` AND ` + mw + order,
			matchTo: s.gamesBy(src.name) + ` AND ` + mw +
				fmt.Sprintf(` AND (g.ended_at, g.id) >= ($%d, $%d)`, len(margs)+1, len(margs)+2) + order,
			matchArgs: margs,
		})
	}
	return out
}

// Archive returns a page of the archive.
func (s *Store) Archive(ctx context.Context, q ArchiveQuery) (ArchivePage, error) {
	if q.Limit < 1 || q.Scan < q.Limit {
		return ArchivePage{}, fmt.Errorf("store: an archive page of %d games walking %d rows", q.Limit, q.Scan)
	}
	sources := s.archiveSQL(q)
	var page ArchivePage
	err := s.read(ctx, func(tx *sql.Tx) error {
		page = ArchivePage{}
		var bound ArchiveKey // the highest of the sources' lower bounds
		bounded := false
		var games []Game
		for _, src := range sources {
			var at, id int64
			query, qargs := src.match, src.matchArgs
			err := tx.QueryRowContext(ctx, src.bound, src.boundArgs...).Scan(&at, &id)
			switch {
			case errors.Is(err, sql.ErrNoRows):
			case err != nil:
				return err
			default:
				k := ArchiveKey{At: fromMillis(at), ID: id}
				if !bounded || keyLess(bound, k) {
					bound, bounded = k, true
				}
				query, qargs = src.matchTo, append(slices.Clone(src.matchArgs), at, id)
			}
			rows, err := tx.QueryContext(ctx, query, qargs...)
			if err != nil {
				return err
			}
			for rows.Next() {
				g, err := scanGame(rows)
				if err != nil {
					rows.Close()
					return err
				}
				games = append(games, g)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		// A game below the bound of another source is left for the
		// next page, which walks that source from there.
		if bounded {
			games = slices.DeleteFunc(games, func(g Game) bool { return keyLess(gameKey(g), bound) })
		}
		slices.SortFunc(games, func(a, b Game) int { return compareKeys(gameKey(b), gameKey(a)) })
		switch {
		case len(games) > q.Limit:
			games = games[:q.Limit]
			page.Next = gameKey(games[len(games)-1])
		case bounded:
			page.Next = bound
		}
		page.Games = games
		return nil
	})
	return page, err
}

// playerResult is the result of white's view that is res ("win", "loss",
// "draw") for the player of side (0 white, 1 black); "" for any.
func playerResult(res string, side int) string {
	switch {
	case res == "draw":
		return "1/2-1/2"
	case res == "win" && side == 0, res == "loss" && side == 1:
		return "1-0"
	case res == "loss" && side == 0, res == "win" && side == 1:
		return "0-1"
	}
	return ""
}

// gameKey is the archive's key of a finished game: its end, its id.
func gameKey(g Game) ArchiveKey { return ArchiveKey{At: g.EndedAt, ID: g.ID} }

func compareKeys(a, b ArchiveKey) int {
	return cmp.Or(cmp.Compare(a.ms(), b.ms()), cmp.Compare(a.ID, b.ID))
}

func keyLess(a, b ArchiveKey) bool { return compareKeys(a, b) < 0 }
