package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/tournament"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// An event's standings, crosstable and exports, and its stream. Nothing
// here is stored: the standings are counted by internal/server/tournament
// from the event's pairings and their games' results each time they are
// read, so they are right as soon as a game ends, whatever process ended
// it, and after any crash.

// tally is how an event's kind counts: a round robin's byes (an odd
// field's round off) are worth nothing and its ties broken by
// Sonneborn-Berger; a Swiss's byes score a win and its ties are broken by
// Buchholz, median Buchholz and performance; an arena's ties by
// performance (its points are its own: arenaSheets).
func tally(kind string) tournament.Tally {
	switch kind {
	case Swiss:
		return tournament.SwissTally()
	case Arena:
		return tournament.Tally{TieBreaks: []tournament.TieBreak{tournament.Performance}}
	}
	return tournament.RoundRobinTally()
}

// arenaSheet is what an arena's games say of a player: the sheet of
// points, the last opponent, whites less blacks.
type arenaSheet struct {
	sheet      tournament.ArenaSheet
	last       int64
	colourDiff int
}

// arenaSheets scores an arena's players from their finished games, in the
// order of the waves they were paired in (a player has one game at a
// time, so that is the order they played them).
func arenaSheets(st store.TournamentState) map[int64]arenaSheet {
	games := map[int64][]tournament.ArenaGame{}
	out := map[int64]arenaSheet{}
	for _, p := range st.Pairings {
		if p.Game == 0 {
			continue
		}
		for _, side := range []struct {
			me, opp int64
			c       tournament.Colour
			berserk bool
		}{{p.White, p.Black, tournament.White, p.WhiteBerserk}, {p.Black, p.White, tournament.Black, p.BlackBerserk}} {
			sh := out[side.me]
			sh.last = side.opp
			if side.c == tournament.White {
				sh.colourDiff++
			} else {
				sh.colourDiff--
			}
			out[side.me] = sh
			if p.Status == store.Finished {
				games[side.me] = append(games[side.me], tournament.ArenaGame{Score: resultOf(p).Points(side.c), Berserk: side.berserk, Plies: p.Ply})
			}
		}
	}
	scoring := tournament.Arena{BerserkMinPlies: ArenaBerserkPlies}
	for id, sh := range out {
		sh.sheet = scoring.Score(games[id])
		out[id] = sh
	}
	return out
}

// standings are an event's standings as its games stand: with the
// crosstable's cells (round events) or the arena's sheets.
func (s *Service) standings(st store.TournamentState) (wire.TournamentStandings, error) {
	t := st.Tournament
	tl := tally(t.Kind)
	out := wire.TournamentStandings{Tournament: t.ID, Name: t.Name, Status: string(t.Status), Round: t.Round, TieBreaks: []string{}, Standings: []wire.TournamentStanding{}}
	if t.Kind == Arena {
		out.TieBreaks = append(out.TieBreaks, "performance")
	} else {
		for _, tb := range tl.TieBreaks {
			out.TieBreaks = append(out.TieBreaks, tb.String())
		}
	}
	if len(st.Entrants) == 0 {
		return out, nil
	}
	names := map[int64]wire.Player{}
	entrants := map[int64]store.Entrant{}
	for _, e := range st.Entrants {
		p := player(e.User, e.Name)
		p.Bot = e.User == s.engineID
		names[e.User] = p
		entrants[e.User] = e
	}
	games := map[[2]int64]int64{} // (round, player): the game
	for _, p := range st.Pairings {
		if p.Game != 0 {
			games[[2]int64{int64(p.Round), p.White}] = p.Game
			games[[2]int64{int64(p.Round), p.Black}] = p.Game
		}
	}
	ct, err := tl.Crosstable(field(st), rounds(st, t.Round))
	if err != nil {
		return out, err
	}
	var sheets map[int64]arenaSheet
	if t.Kind == Arena {
		sheets = arenaSheets(st)
	}
	for _, row := range ct.Rows {
		id := int64(row.Player)
		e := entrants[id]
		line := wire.TournamentStanding{Rank: row.Rank, Player: names[id], Rating: e.Rating, Points: row.Points,
			TieBreaks: slices.Clone(row.TieBreaks), Games: row.Games, Withdrawn: !e.WithdrawnAt.IsZero()}
		if line.TieBreaks == nil {
			line.TieBreaks = []float64{}
		}
		if t.Kind == Arena {
			sh := sheets[id].sheet
			line.Points, line.Sheet, line.OnFire = float64(sh.Total), sh.Points, sh.OnFire
			if line.Sheet == nil {
				line.Sheet = []int{}
			}
		} else {
			for ri, c := range row.Rounds {
				cell := wire.TournamentCell{Kind: c.Kind.String(), Points: c.Points, Pending: c.Pending}
				if c.Kind == tournament.Played {
					opp := names[int64(c.Opponent)]
					cell.Opponent = &opp
					cell.Colour = c.Colour.String()
					cell.Game = games[[2]int64{int64(ri + 1), id}]
				}
				line.Rounds = append(line.Rounds, cell)
			}
		}
		out.Standings = append(out.Standings, line)
	}
	if t.Kind == Arena {
		// By the arena's points, then performance; players equal on both
		// share a rank.
		slices.SortStableFunc(out.Standings, func(a, b wire.TournamentStanding) int {
			if c := cmp.Compare(b.Points, a.Points); c != 0 {
				return c
			}
			if c := cmp.Compare(b.TieBreaks[0], a.TieBreaks[0]); c != 0 {
				return c
			}
			return cmp.Compare(a.Player.ID, b.Player.ID)
		})
		for i := range out.Standings {
			a := &out.Standings[i]
			if i > 0 {
				b := out.Standings[i-1]
				if a.Points == b.Points && a.TieBreaks[0] == b.TieBreaks[0] {
					a.Rank = b.Rank
					continue
				}
			}
			a.Rank = i + 1
		}
	}
	return out, nil
}

// TournamentStandings returns an event's standings with its crosstable
// (GET /api/tournament/{id}/standings.json).
func (s *Service) TournamentStandings(ctx context.Context, id int64) (wire.TournamentStandings, error) {
	st, err := s.tournamentState(ctx, id)
	if err != nil {
		return wire.TournamentStandings{}, err
	}
	return s.standings(st)
}

func pointsText(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// TournamentStandingsCSV returns an event's standings as CSV, a line a
// player: rank, name, rating, points, the tie-breaks, games, and a cell a
// round ("1 w bob": the points, the colour and the opponent; "* b bob"
// while it is played; "1 bye"; "0 absent"), or in an arena the points of
// each game.
func (s *Service) TournamentStandingsCSV(ctx context.Context, id int64) ([]byte, error) {
	st, err := s.tournamentState(ctx, id)
	if err != nil {
		return nil, err
	}
	sd, err := s.standings(st)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := append([]string{"rank", "player", "rating", "points"}, sd.TieBreaks...)
	head = append(head, "games")
	if st.Tournament.Kind == Arena {
		head = append(head, "sheet")
	} else {
		for r := 1; r <= st.Tournament.Round; r++ {
			head = append(head, "r"+strconv.Itoa(r))
		}
	}
	if err := w.Write(head); err != nil {
		return nil, err
	}
	for _, l := range sd.Standings {
		rec := []string{strconv.Itoa(l.Rank), l.Player.Name, strconv.Itoa(l.Rating), pointsText(l.Points)}
		for _, v := range l.TieBreaks {
			rec = append(rec, pointsText(v))
		}
		rec = append(rec, strconv.Itoa(l.Games))
		if st.Tournament.Kind == Arena {
			var pts []string
			for _, p := range l.Sheet {
				pts = append(pts, strconv.Itoa(p))
			}
			rec = append(rec, strings.Join(pts, " "))
		}
		for _, c := range l.Rounds {
			switch {
			case c.Kind != "played":
				rec = append(rec, pointsText(c.Points)+" "+c.Kind)
			case c.Pending:
				rec = append(rec, "* "+c.Colour[:1]+" "+c.Opponent.Name)
			default:
				rec = append(rec, pointsText(c.Points)+" "+c.Colour[:1]+" "+c.Opponent.Name)
			}
		}
		if err := w.Write(rec); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// TournamentRecords returns every game of an event as one file of game
// records, by round and board: the event's name, the round and board,
// the players, the result and how it ended (a game going on has "*").
func (s *Service) TournamentRecords(ctx context.Context, id int64) ([]byte, error) {
	state, err := s.tournamentState(ctx, id)
	if err != nil {
		return nil, err
	}
	boards := map[int64][2]int{}
	for _, p := range state.Pairings {
		boards[p.Game] = [2]int{p.Round, p.Board}
	}
	// A round paired after the state was read has games the state does
	// not know: they are left out, as if read a moment before.
	games, moves, err := s.st.TournamentRecords(ctx, id)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	for _, g := range games {
		play, err := Replay(g, moves[g.ID])
		if err != nil {
			return nil, err
		}
		if g.Status == store.Finished && play.Outcome() == mill.NoOutcome {
			o, _ := mill.ParseOutcome(g.Result)
			m, _ := mill.ParseMethod(g.Method)
			if o != mill.NoOutcome && m != mill.NoMethod {
				_ = play.End(o, m)
			}
		}
		rb, ok := boards[g.ID]
		if !ok {
			continue
		}
		rec := record.FromGame(play,
			record.Tag{Name: "Event", Value: state.Tournament.Name},
			record.Tag{Name: "Site", Value: "morris server"},
			record.Tag{Name: "Date", Value: g.CreatedAt.UTC().Format("2006.01.02")},
			record.Tag{Name: "Round", Value: strconv.Itoa(rb[0])},
			record.Tag{Name: "Board", Value: strconv.Itoa(rb[1])},
			record.Tag{Name: "White", Value: g.WhiteName},
			record.Tag{Name: "Black", Value: g.BlackName},
			record.Tag{Name: "Game", Value: strconv.FormatInt(g.ID, 10)})
		if err := w.Write(rec); err != nil {
			return nil, err
		}
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// The streams of events (WatchTournament) in this process are woken by
// tournamentChanged here and by the relay for changes made by other
// processes; each wake reads the event afresh and sends what changed.

// watchTournament registers a stream of an event; the channel is woken
// on each change.
func (s *Service) watchTournament(id int64) (chan struct{}, func()) {
	c := make(chan struct{}, 1)
	s.dir.wmu.Lock()
	if s.dir.watchers[id] == nil {
		s.dir.watchers[id] = map[chan struct{}]struct{}{}
	}
	s.dir.watchers[id][c] = struct{}{}
	s.dir.wmu.Unlock()
	return c, func() {
		s.dir.wmu.Lock()
		delete(s.dir.watchers[id], c)
		if len(s.dir.watchers[id]) == 0 {
			delete(s.dir.watchers, id)
		}
		s.dir.wmu.Unlock()
	}
}

// tournamentNews wakes this process's streams of an event.
func (s *Service) tournamentNews(id int64) {
	s.dir.wmu.Lock()
	defer s.dir.wmu.Unlock()
	for c := range s.dir.watchers[id] {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// tournamentChanged wakes the streams of an event here and in the other
// processes sharing the database.
func (s *Service) tournamentChanged(id int64) {
	s.tournamentNews(id)
	s.hub.relayTournament(id)
}

// WatchTournament streams an event to send until ctx ends or send fails:
// first the event in full (type "tournament"), then what changes, a line
// each: "status" (the event's head, after its status, round or note
// changed), "entrants" (the field, after a player joined or withdrew),
// "round" (a round, or an arena's wave, just paired), "result" (a game
// ended), "standings" (after any change to them); and a keep-alive now
// and then. Anyone may watch.
func (s *Service) WatchTournament(ctx context.Context, id int64, send Send) error {
	wake, stop := s.watchTournament(id)
	defer stop()
	st, err := s.tournamentState(ctx, id)
	if err != nil {
		return err
	}
	last, err := s.fullView(ctx, st)
	if err != nil {
		return err
	}
	first := last
	first.Type = "tournament"
	if err := send(mustJSON(first)); err != nil {
		return err
	}
	keep := time.NewTicker(s.cfg.KeepAlive)
	defer keep.Stop()
	var poll <-chan time.Time
	if s.shared {
		// A notification lost while the relay reconnected: read anyway.
		t := time.NewTicker(max(s.cfg.PollEvery, time.Second))
		defer t.Stop()
		poll = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.streams.Done():
			return nil
		case <-keep.C:
			if err := send(nil); err != nil {
				return quietEnd(ctx, err)
			}
			continue
		case <-wake:
		case <-poll:
		}
		st, err := s.tournamentState(ctx, id)
		if err != nil {
			return quietEnd(ctx, err)
		}
		cur, err := s.fullView(ctx, st)
		if err != nil {
			return err
		}
		for _, line := range tournamentDiff(last, cur) {
			if err := send(line); err != nil {
				return quietEnd(ctx, err)
			}
		}
		last = cur
	}
}

func quietEnd(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// tournamentDiff is the stream's lines from one view of an event to the
// next.
func tournamentDiff(last, cur wire.TournamentFull) [][]byte {
	var lines [][]byte
	a, b := last.Tournament, cur.Tournament
	if a.Status != b.Status || a.Round != b.Round || a.Note != b.Note || a.Rounds != b.Rounds || a.Players != b.Players {
		lines = append(lines, mustJSON(wire.TournamentStatus{Type: "status", Tournament: b}))
	}
	if !reflect.DeepEqual(last.Entrants, cur.Entrants) {
		lines = append(lines, mustJSON(wire.TournamentEntrants{Type: "entrants", Entrants: cur.Entrants}))
	}
	before := map[int64]wire.TournamentGame{}
	rounds := map[int]bool{}
	for _, r := range last.Pairings {
		rounds[r.Round] = true
		for _, g := range r.Games {
			before[g.Game] = g
		}
	}
	for _, r := range cur.Pairings {
		if !rounds[r.Round] {
			r.Type = "round"
			lines = append(lines, mustJSON(r))
			continue
		}
		for _, g := range r.Games {
			if old, ok := before[g.Game]; ok && old.Status != g.Status {
				lines = append(lines, mustJSON(wire.TournamentResult{Type: "result", Round: r.Round, Game: g}))
			}
		}
	}
	if !reflect.DeepEqual(last.Standings, cur.Standings) {
		lines = append(lines, mustJSON(wire.TournamentStandings{Type: "standings", Tournament: b.ID, Status: b.Status,
			Round: b.Round, TieBreaks: cur.TieBreaks, Standings: cur.Standings}))
	}
	return lines
}
