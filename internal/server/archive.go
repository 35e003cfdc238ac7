package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// The archive of finished games: searched by player (and opponent and
// colour), preset, result and the dates of their ends, the latest end
// first, in pages by key. What a page costs is bounded whatever the
// filters (store/archive.go): it walks at most ArchiveScan rows of one
// index (of two for a player, as white and as black) and reads at most
// the page's games; when the filters are rare it comes back short, or
// empty, with the key to go on from.

// ArchiveScan is the most rows of an index a page of the archive walks.
const ArchiveScan = 1000

// MaxArchivePage is the most games a page of the archive holds.
const MaxArchivePage = 100

// ArchiveQuery is a search of the archive, as a client gives it. Empty
// fields select everything.
type ArchiveQuery struct {
	Player   string // a player's name
	Opponent string // with Player: their opponent's
	Color    string // with Player: "white" or "black", the player's
	Variant  string // a preset's id
	// Result is the game's, "1-0", "0-1" or "1/2-1/2" (or "draw"), or,
	// with Player, the player's: "win" or "loss".
	Result string
	// From and To are dates, YYYY-MM-DD (UTC): the games that ended on
	// those days and between.
	From, To string
	Before   string // the key of a page's end (Archive.Next)
	Limit    int    // 1 to MaxArchivePage; 0: 50
}

const dateLayout = "2006-01-02"

// Archive returns a page of the archive.
func (s *Service) Archive(ctx context.Context, q ArchiveQuery) (wire.Archive, error) {
	sq := store.ArchiveQuery{Limit: q.Limit, Scan: ArchiveScan}
	if sq.Limit == 0 {
		sq.Limit = 50
	}
	if sq.Limit < 1 || sq.Limit > MaxArchivePage {
		return wire.Archive{}, errorf(BadRequest, "a page of the archive has 1 to %d games", MaxArchivePage)
	}
	if q.Player == "" {
		switch {
		case q.Opponent != "":
			return wire.Archive{}, errorf(BadRequest, "an opponent is one of a player's: give the player too")
		case q.Color != "":
			return wire.Archive{}, errorf(BadRequest, "a colour is a player's: give the player too")
		case q.Result == "win" || q.Result == "loss":
			return wire.Archive{}, errorf(BadRequest, "%s is a player's result: give the player too", q.Result)
		}
	}
	if q.Player != "" {
		u, err := s.archivePlayer(ctx, "player", q.Player)
		if err != nil {
			return wire.Archive{}, err
		}
		sq.Player = u.ID
		if q.Opponent != "" {
			o, err := s.archivePlayer(ctx, "opponent", q.Opponent)
			if err != nil {
				return wire.Archive{}, err
			}
			if o.ID == u.ID {
				return wire.Archive{}, errorf(BadRequest, "a player is not their own opponent")
			}
			sq.Opponent = o.ID
		}
		switch q.Color {
		case "":
		case "white":
			sq.Side = 1
		case "black":
			sq.Side = 2
		default:
			return wire.Archive{}, errorf(BadRequest, "a colour is white or black, not %q", q.Color)
		}
	}
	if q.Variant != "" {
		if _, err := mill.LookupVariant(q.Variant); err != nil {
			return wire.Archive{}, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
		}
		sq.Variant = q.Variant
	}
	switch q.Result {
	case "":
	case "1-0", "0-1":
		sq.Result = q.Result
	case "1/2-1/2", "draw":
		sq.Result = "1/2-1/2"
	case "win", "loss":
		sq.PlayerResult = q.Result
	default:
		return wire.Archive{}, errorf(BadRequest, "a result is 1-0, 0-1, draw, or with a player win or loss; not %q", q.Result)
	}
	var err error
	if sq.From, err = archiveDate("from", q.From); err != nil {
		return wire.Archive{}, err
	}
	if sq.To, err = archiveDate("to", q.To); err != nil {
		return wire.Archive{}, err
	}
	if !sq.To.IsZero() {
		sq.To = sq.To.AddDate(0, 0, 1) // the whole day of To
	}
	if !sq.From.IsZero() && !sq.To.IsZero() && !sq.From.Before(sq.To) {
		return wire.Archive{}, errorf(BadRequest, "from %s is after to %s", q.From, q.To)
	}
	if q.Before != "" {
		if sq.Before, err = parseArchiveKey(q.Before); err != nil {
			return wire.Archive{}, err
		}
	}
	page, err := s.st.Archive(ctx, sq)
	if err != nil {
		return wire.Archive{}, err
	}
	out := wire.Archive{Games: make([]wire.GameSummary, 0, len(page.Games))}
	for _, g := range page.Games {
		out.Games = append(out.Games, *s.summaryOf(g))
	}
	if !page.Next.IsZero() {
		out.Next = archiveKeyText(page.Next)
	}
	return out, nil
}

// archivePlayer is the player of a search, by name.
func (s *Service) archivePlayer(ctx context.Context, what, name string) (User, error) {
	if err := ValidName(name); err != nil {
		return User{}, errorf(BadRequest, "%s %q is not a player's name", what, name)
	}
	return s.UserByName(ctx, name)
}

func archiveDate(what, text string) (time.Time, error) {
	if text == "" {
		return time.Time{}, nil
	}
	d, err := time.Parse(dateLayout, text)
	if err != nil || d.Year() < 2000 || d.Year() > 9999 {
		return time.Time{}, errorf(BadRequest, "%s is a date, YYYY-MM-DD from 2000 on, not %q", what, text)
	}
	return d, nil
}

// archiveKeyText is a key as a client sends it back: the end in Unix
// milliseconds and the game's id, "1795408594815.103".
func archiveKeyText(k store.ArchiveKey) string {
	return fmt.Sprintf("%d.%d", k.At.UnixMilli(), k.ID)
}

func parseArchiveKey(text string) (store.ArchiveKey, error) {
	bad := errorf(BadRequest, "before %q is not a key of the archive: give the next of a page", text)
	ms, id, ok := strings.Cut(text, ".")
	if !ok || len(text) > 40 {
		return store.ArchiveKey{}, bad
	}
	at, err1 := strconv.ParseInt(ms, 10, 64)
	n, err2 := strconv.ParseInt(id, 10, 64)
	if err1 != nil || err2 != nil || at < 1 || n < 1 {
		return store.ArchiveKey{}, bad
	}
	return store.ArchiveKey{At: time.UnixMilli(at).UTC(), ID: n}, nil
}
