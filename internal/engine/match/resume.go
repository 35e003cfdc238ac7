package match

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// Resume returns the games of a match that were played before it stopped,
// from their records (Game.Record, in the order of the games: a file of
// match records holds the games 0, 1, ... of its match, since they are
// written in that order), for Config.Played. event is the Event tag the
// records were written with.
//
// Each record must be the game the match of cfg plays at its place: the
// same event, round and players in their colours, the same rules, and the
// opening of cfg.Openings that game plays, move for move; its moves and
// result are replayed on the board. So a match resumed with other flags
// (another seed, other openings or players) is an error, not a mixed
// result. More records than the match has games is an error too.
func Resume(cfg Config, event string, recs []*record.Record) ([]*Game, error) {
	if len(recs) > 2*cfg.Pairs {
		return nil, fmt.Errorf("%d games recorded, but the match has %d", len(recs), 2*cfg.Pairs)
	}
	openings := cfg.Openings
	if len(openings) == 0 {
		openings = []Opening{{}}
	}
	var out []*Game
	for i, rec := range recs {
		g, err := resumeGame(cfg, openings, event, i, rec)
		if err != nil {
			return nil, fmt.Errorf("game %d (the record at line %d): %w", i+1, rec.Line, err)
		}
		out = append(out, g)
	}
	return out, nil
}

func resumeGame(cfg Config, openings []Opening, event string, i int, rec *record.Record) (*Game, error) {
	round := strconv.Itoa(i/2+1) + "." + strconv.Itoa(i%2+1)
	names := [2]string{cfg.A.Name, cfg.B.Name}
	if i%2 == 1 {
		names = [2]string{cfg.B.Name, cfg.A.Name}
	}
	switch {
	case rec.Tag("Event") != event:
		return nil, fmt.Errorf("the event is %q, this match's is %q", rec.Tag("Event"), event)
	case rec.Tag("Round") != round:
		return nil, fmt.Errorf("the round is %q, want %q: the records are not the games of one match in order", rec.Tag("Round"), round)
	case rec.Tag("White") != names[0] || rec.Tag("Black") != names[1]:
		return nil, fmt.Errorf("white %q and black %q, want %q and %q", rec.Tag("White"), rec.Tag("Black"), names[0], names[1])
	}
	mg, err := rec.Game()
	if err != nil {
		return nil, err
	}
	if mg.Rules() != cfg.Rules {
		return nil, fmt.Errorf("played under %s, the match under %s", mg.Rules(), cfg.Rules)
	}
	oi := (i / 2) % len(openings)
	o := openings[oi]
	want := o.Game(cfg.Rules)
	moves := mg.Moves()
	if mg.Start() != want.Start() || len(moves) < len(o.Moves) || !slices.Equal(moves[:len(o.Moves)], o.Moves) {
		return nil, fmt.Errorf("it does not start with opening %d of this match (another seed, other openings?)", oi+1)
	}
	if mg.Outcome() == mill.NoOutcome {
		return nil, fmt.Errorf("the game has no result")
	}
	g := &Game{Index: i, Opening: oi, OpeningPlies: len(o.Moves), AWhite: i%2 == 0, Game: mg, Names: names}
	head := fmt.Sprintf("opening %d: the first %d plies", oi+1, len(o.Moves))
	rest, ok := strings.CutPrefix(rec.Comment, head)
	if !ok {
		return nil, fmt.Errorf("the comment %q does not begin %q", rec.Comment, head)
	}
	switch rest, _ = strings.CutPrefix(rest, "; "); {
	case rest == "":
	case strings.HasPrefix(rest, claimPrefix):
		if mg.Outcome() != mill.Draw {
			return nil, fmt.Errorf("the comment says a claimed draw, the result is %s", mg.Outcome())
		}
		g.Claim = strings.TrimPrefix(rest, claimPrefix)
	case strings.HasPrefix(rest, disputePrefix):
		if mg.Outcome() != mill.Draw {
			return nil, fmt.Errorf("the comment says a disputed draw, the result is %s", mg.Outcome())
		}
		g.Dispute = strings.TrimPrefix(rest, disputePrefix)
	case rest == "adjudicated a draw at the ply limit":
		g.Adjudicated = true
	case strings.HasPrefix(rest, "adjudicated: "):
		g.Verdict = strings.TrimPrefix(rest, "adjudicated: ")
	default:
		g.Fault = rest
	}
	return g, nil
}
