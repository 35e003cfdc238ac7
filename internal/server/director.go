package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/tournament"
	"github.com/morrisgame/morris/mill"
)

// The director runs the events: it starts them at their start time,
// pairs a round when the last game of the round before has ended, pairs
// an arena's free players, resigns the games of players who withdrew,
// and ends events when their last game is over (or an arena's time, or a
// Swiss that cannot pair its next round). It keeps nothing of its own:
// each step reads the event from the store, decides from what it reads,
// and writes its change as a compare-and-set on the event's version
// (store/tournaments.go). So a process restarted, or killed in the middle
// of a round, goes on from the store exactly as one that never stopped,
// and two processes sharing a PostgreSQL database that decide the same
// step make it once: the second is refused, reads again, and finds
// nothing left to do.
//
// The director is woken when a game of an event ends (announceEnd, in
// this process) and when a player joins or withdraws, and sweeps every
// Config.TournamentSweepEvery for the events whose time has come or
// whose games ended where no director heard it: in another process that
// died, or while no process ran (the sweep runs once at Start).

// directorState is what wakes the director.
type directorState struct {
	mu     sync.Mutex
	games  map[int64]bool // games ended, whose events to look at
	events map[int64]bool // events to look at
	kick   chan struct{}

	// watchers are the streams of events in this process (WatchTournament).
	wmu      sync.Mutex
	watchers map[int64]map[chan struct{}]struct{}
}

func newDirectorState() directorState {
	return directorState{games: map[int64]bool{}, events: map[int64]bool{}, kick: make(chan struct{}, 1),
		watchers: map[int64]map[chan struct{}]struct{}{}}
}

func (d *directorState) wake() {
	select {
	case d.kick <- struct{}{}:
	default:
	}
}

// tournamentGameEnded tells the director that a game ended (it may be an
// event's). It never blocks: the owner's lock is held.
func (s *Service) tournamentGameEnded(game int64) {
	s.dir.mu.Lock()
	s.dir.games[game] = true
	s.dir.mu.Unlock()
	s.dir.wake()
}

// kickTournament asks the director to look at an event.
func (s *Service) kickTournament(id int64) {
	s.dir.mu.Lock()
	s.dir.events[id] = true
	s.dir.mu.Unlock()
	s.dir.wake()
}

// director is the director's goroutine (one of s.wg).
func (s *Service) director() {
	defer s.wg.Done()
	_ = Safely(s.log, "tournament sweep", s.sweepTournaments)
	t := time.NewTicker(s.cfg.TournamentSweepEvery)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.dir.kick:
		case <-t.C:
			_ = Safely(s.log, "tournament sweep", s.sweepTournaments)
		}
		_ = Safely(s.log, "tournament director", s.directQueued)
	}
}

// sweepTournaments directs the events the store says are due.
func (s *Service) sweepTournaments() {
	now := s.now()
	ids, err := s.st.DueTournaments(s.ctx, now, now.Add(-UpcomingExpiry))
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Warn("tournament sweep", "err", err)
		}
		return
	}
	for _, id := range ids {
		s.kickTournament(id)
	}
}

// directQueued directs the events the director was woken for.
func (s *Service) directQueued() {
	s.dir.mu.Lock()
	games, events := s.dir.games, s.dir.events
	s.dir.games, s.dir.events = map[int64]bool{}, map[int64]bool{}
	s.dir.mu.Unlock()
	for g := range games {
		id, err := s.st.TournamentOfGame(s.ctx, g)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Warn("tournament director: a game's event", "game", g, "err", err)
				s.tournamentGameEnded(g) // once more, later
			}
			continue
		}
		events[id] = true
		s.tournamentChanged(id) // the result, for its streams
	}
	ids := make([]int64, 0, len(events))
	for id := range events {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if s.ctx.Err() != nil {
			return
		}
		if err := s.direct(s.ctx, id); err != nil && s.ctx.Err() == nil {
			s.log.Warn("tournament director", "tournament", id, "err", err)
		}
	}
}

// direct takes every step an event is due, reading it afresh before each.
func (s *Service) direct(ctx context.Context, id int64) error {
	if h := s.cfg.hooks.direct; h != nil {
		h(id)
	}
	for range 2 * changeRetries {
		st, err := s.st.TournamentState(ctx, id)
		if err != nil {
			return err
		}
		did, err := s.step(ctx, st)
		if errors.Is(err, store.ErrConflict) {
			continue // another change came first: decide again
		}
		if err != nil || !did {
			return err
		}
		s.tournamentChanged(id)
	}
	return nil
}

// step takes the next step of an event, if one is due, and reports
// whether it took one.
func (s *Service) step(ctx context.Context, st store.TournamentState) (bool, error) {
	t := st.Tournament
	now := s.now()
	switch t.Status {
	case store.TournamentUpcoming:
		switch {
		case !t.StartsAt.IsZero() && !now.Before(t.StartsAt):
			return s.start(ctx, st, false)
		case t.StartsAt.IsZero() && now.Sub(t.CreatedAt) >= UpcomingExpiry:
			return true, s.finish(ctx, t, fmt.Sprintf("cancelled: its organiser did not start it within %d days", int(UpcomingExpiry.Hours()/24)))
		}
		return false, nil
	case store.TournamentFinished:
		return false, nil
	}
	withdrawn := map[int64]bool{}
	for _, e := range st.Entrants {
		if !e.WithdrawnAt.IsZero() {
			withdrawn[e.User] = true
		}
	}
	for _, p := range st.Pairings {
		if p.Game != 0 && p.Status == store.Active && (withdrawn[p.White] || withdrawn[p.Black]) {
			return true, s.resignWithdrawn(ctx, st, withdrawn)
		}
	}
	active := activeGames(st, 0)
	switch t.Kind {
	case Arena:
		if now.Before(t.EndsAt) && len(st.Pairings) < MaxArenaGames {
			return s.pairArena(ctx, st)
		}
		if active == 0 {
			note := ""
			if now.Before(t.EndsAt) {
				note = fmt.Sprintf("ended early: the arena played %d games, the most an arena plays", MaxArenaGames)
			}
			return true, s.finish(ctx, t, note)
		}
	case Correspondence:
		if active == 0 {
			return true, s.finish(ctx, t, "")
		}
	default:
		switch {
		case active > 0:
		case t.Round >= t.Rounds:
			return true, s.finish(ctx, t, "")
		case t.Kind == Swiss && t.ManualPairing && now.Sub(roundOver(st, t.Round)) < ManualPairingWait:
		default:
			return s.pairNext(ctx, st)
		}
	}
	return false, nil
}

// roundOver is when the last game of a round ended (or, for a round
// without games, when the event last changed).
func roundOver(st store.TournamentState, round int) time.Time {
	last := st.Tournament.UpdatedAt
	for _, p := range st.Pairings {
		if p.Round == round && p.Game != 0 && p.UpdatedAt.After(last) {
			last = p.UpdatedAt
		}
	}
	return last
}

func (s *Service) finish(ctx context.Context, t store.Tournament, note string) error {
	if err := s.st.FinishTournament(ctx, t.ID, t.Version, s.now(), note); err != nil {
		return err
	}
	s.log.Info("tournament finished", "tournament", t.ID, "note", note)
	return nil
}

// resignWithdrawn ends the games going on of an event whose players have
// withdrawn (those of who): resigned (both withdrawn: drawn).
func (s *Service) resignWithdrawn(ctx context.Context, st store.TournamentState, who map[int64]bool) error {
	var errs []error
	for _, p := range st.Pairings {
		if p.Game == 0 || p.Status != store.Active || !who[p.White] && !who[p.Black] {
			continue
		}
		outcome := mill.Draw
		switch {
		case who[p.White] && !who[p.Black]:
			outcome = mill.BlackWon
		case who[p.Black] && !who[p.White]:
			outcome = mill.WhiteWon
		}
		err := s.locked(ctx, p.Game, func(o *owner) error {
			if !o.active() {
				return nil
			}
			return s.finishLocked(ctx, o, outcome, mill.Resignation)
		})
		if err != nil && KindOf(err) != Conflict {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// field is an event's entrants as the tournament package takes them.
func field(st store.TournamentState) []tournament.Entrant {
	out := make([]tournament.Entrant, 0, len(st.Entrants))
	for _, e := range st.Entrants {
		out = append(out, tournament.Entrant{ID: tournament.PlayerID(e.User), Rating: e.Rating, Withdrawn: !e.WithdrawnAt.IsZero()})
	}
	return out
}

// pairSwiss pairs round of a Swiss (the next), leaving out those who
// asked to sit it out. If the round cannot be paired without them (too
// few left, or only pairs that have met), it is paired with them: a
// half-point bye is a wish, and no player, nor players together, can stop
// an event with theirs.
func pairSwiss(st store.TournamentState, round int) (tournament.Round, error) {
	t := st.Tournament
	sw := tournament.Swiss{Rounds: t.Rounds, Seed: t.Seed}
	f := field(st)
	played := rounds(st, round-1)
	asked := false
	for _, b := range st.ByeRequests {
		if b.Round != round {
			continue
		}
		for i := range f {
			if f[i].ID == tournament.PlayerID(b.User) {
				f[i].HalfBye = true
				asked = true
			}
		}
	}
	r, err := sw.Pair(f, played)
	if asked && errors.Is(err, tournament.ErrCannotPair) {
		for i := range f {
			f[i].HalfBye = false
		}
		r, err = sw.Pair(f, played)
	}
	return r, err
}

// resultOf is a board's result as the tournament package takes it.
func resultOf(p store.Pairing) tournament.Result {
	if p.Status != store.Finished {
		return tournament.Pending
	}
	switch p.Result {
	case "1-0":
		return tournament.WhiteWins
	case "0-1":
		return tournament.BlackWins
	}
	return tournament.Draw // "1/2-1/2", or a game abandoned without a result
}

// rounds are an event's pairings as the tournament package takes them:
// rounds 1 to n, with their results.
func rounds(st store.TournamentState, n int) []tournament.Round {
	out := make([]tournament.Round, n)
	for _, p := range st.Pairings {
		if p.Round < 1 || p.Round > n {
			continue
		}
		r := &out[p.Round-1]
		switch {
		case p.Game == 0 && p.HalfBye:
			r.HalfByes = append(r.HalfByes, tournament.PlayerID(p.White))
			continue
		case p.Game == 0:
			r.Bye = tournament.PlayerID(p.White)
			continue
		}
		r.Games = append(r.Games, tournament.Game{White: tournament.PlayerID(p.White), Black: tournament.PlayerID(p.Black), Result: resultOf(p)})
	}
	return out
}

// notStartable says why an event cannot start (an organiser is told so;
// the director cancels the event).
type notStartable struct{ why string }

func (e *notStartable) Error() string { return e.why }

// start starts an upcoming event: its first round paired in the
// transaction that starts it. byOrganiser: an event that cannot start is
// refused (Conflict) and stays; otherwise (its start time has come) it
// is cancelled, with the reason.
func (s *Service) start(ctx context.Context, st store.TournamentState, byOrganiser bool) (bool, error) {
	t := st.Tournament
	plan, err := s.startPlan(st)
	var ns *notStartable
	if errors.As(err, &ns) {
		if byOrganiser {
			return false, errorf(Conflict, "tournament %d cannot start: %s", t.ID, ns.why)
		}
		return true, s.finish(ctx, t, "cancelled: "+ns.why)
	}
	if err != nil {
		return false, err
	}
	games, err := s.st.StartTournament(ctx, t.ID, t.Version, plan)
	if err != nil {
		return false, err
	}
	s.log.Info("tournament started", "tournament", t.ID, "kind", t.Kind, "players", len(st.Entrants), "games", len(games))
	s.startGames(t.ID, games)
	return true, nil
}

// startPlan decides an event's start: its rounds, a round robin's
// numbers, an arena's end, and the pairings of its first round (every
// round of a correspondence event; an arena's first wave).
func (s *Service) startPlan(st store.TournamentState) (store.TournamentStart, error) {
	t := st.Tournament
	now := s.now()
	n := len(st.Entrants)
	plan := store.TournamentStart{At: now, Rounds: t.Rounds, Round: 1}
	if n < 2 {
		return plan, &notStartable{fmt.Sprintf("%d players joined: it needs 2", n)}
	}
	switch t.Kind {
	case RoundRobin, Correspondence:
		order := bergerOrder(st)
		all, err := tournament.RoundRobin(order, t.Cycles)
		if err != nil {
			return plan, err
		}
		plan.Numbers = map[int64]int{}
		for i, id := range order {
			plan.Numbers[int64(id)] = i + 1
		}
		plan.Rounds = len(all)
		if t.Kind == Correspondence {
			plan.Round = len(all)
			for i, r := range all {
				plan.Pairings = append(plan.Pairings, s.boards(t, i+1, r)...)
			}
			return plan, nil
		}
		plan.Pairings = s.boards(t, 1, all[0])
	case Swiss:
		if most := n - 1 + n%2; t.Rounds > most {
			return plan, &notStartable{fmt.Sprintf("a Swiss of %d players has at most %d rounds, not %d: more players must join", n, most, t.Rounds)}
		}
		r, err := pairSwiss(st, 1)
		if err != nil {
			if errors.Is(err, tournament.ErrCannotPair) {
				return plan, &notStartable{err.Error()}
			}
			return plan, err
		}
		plan.Pairings = s.boards(t, 1, r)
	case Arena:
		plan.EndsAt = now.Add(t.Duration)
		games, err := tournament.PairArena(arenaWaiting(st))
		if err != nil {
			return plan, err
		}
		plan.Pairings = s.boards(t, 1, tournament.Round{Games: games})
	}
	return plan, nil
}

// bergerOrder is a round robin's players in the order of their numbers:
// as the start stored them, or, before it, drawn by lot from the event's
// seed (the players by id, then shuffled).
func bergerOrder(st store.TournamentState) []tournament.PlayerID {
	es := slices.Clone(st.Entrants)
	if len(es) > 0 && es[0].Number > 0 {
		slices.SortFunc(es, func(a, b store.Entrant) int { return a.Number - b.Number })
		out := make([]tournament.PlayerID, len(es))
		for i, e := range es {
			out[i] = tournament.PlayerID(e.User)
		}
		return out
	}
	ids := make([]tournament.PlayerID, len(es))
	for i, e := range es {
		ids[i] = tournament.PlayerID(e.User)
	}
	slices.Sort(ids)
	return tournament.DrawLots(ids, st.Tournament.Seed)
}

// boards are the boards of a round to store: its games in order, then
// its bye, then its half-point byes.
func (s *Service) boards(t store.Tournament, round int, r tournament.Round) []store.NewPairing {
	var out []store.NewPairing
	for _, g := range r.Games {
		game := s.tournamentGame(t, int64(g.White), int64(g.Black))
		out = append(out, store.NewPairing{Round: round, Board: len(out) + 1, Game: &game})
	}
	if r.Bye != tournament.NoPlayer {
		out = append(out, store.NewPairing{Round: round, Board: len(out) + 1, Bye: int64(r.Bye)})
	}
	for _, id := range r.HalfByes {
		out = append(out, store.NewPairing{Round: round, Board: len(out) + 1, Bye: int64(id), HalfBye: true})
	}
	return out
}

// tournamentGame is a new game of an event between white and black: the
// event's rules, rating and clock; a game against the engine at the
// event's level, unrated as every game against the engine.
func (s *Service) tournamentGame(t store.Tournament, white, black int64) store.Game {
	r, _ := mill.ParseRules(t.Rules) // checked when the event was made
	g := s.newGame(r, GameSpec{Variant: t.Variant, Rated: t.Rated, Color: "white", Control: TimeControl(t.Control)}, white, black)
	if white == s.engineID || black == s.engineID {
		g.EngineLevel = t.EngineLevel
		g.Rated = false
	}
	return g
}

// startGames announces the games an event's step created and arms their
// timers. A process that dies first leaves that to the next start, which
// resumes every active game.
func (s *Service) startGames(event int64, ids []int64) {
	for _, id := range ids {
		g, err := s.st.Game(s.ctx, id)
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Error("a tournament game", "game", id, "err", err)
			}
			continue
		}
		s.startedIn(g, event)
	}
}

// pairNext pairs the next round of a round robin or Swiss whose rounds so
// far are over. A Swiss that cannot pair it ends after the round before,
// with a note that says why.
func (s *Service) pairNext(ctx context.Context, st store.TournamentState) (bool, error) {
	t := st.Tournament
	next := t.Round + 1
	withdrawn := map[int64]bool{}
	for _, e := range st.Entrants {
		if !e.WithdrawnAt.IsZero() {
			withdrawn[e.User] = true
		}
	}
	var r tournament.Round
	switch t.Kind {
	case RoundRobin:
		all, err := tournament.RoundRobin(bergerOrder(st), t.Cycles)
		if err != nil {
			return false, err
		}
		if next > len(all) {
			return false, fmt.Errorf("server: round %d of a round robin of %d rounds", next, len(all))
		}
		r = all[next-1]
		// A withdrawn player's games are made, unrated, and lost at
		// once (step resigns them); two withdrawn players have none.
		r.Games = slices.DeleteFunc(slices.Clone(r.Games), func(g tournament.Game) bool {
			return withdrawn[int64(g.White)] && withdrawn[int64(g.Black)]
		})
	case Swiss:
		var err error
		r, err = pairSwiss(st, next)
		if errors.Is(err, tournament.ErrCannotPair) {
			note := fmt.Sprintf("ended after round %d: %v", t.Round, err)
			return true, s.finish(ctx, t, note)
		}
		if err != nil {
			return false, err
		}
	default:
		return false, fmt.Errorf("server: a %s is not paired round by round", t.Kind)
	}
	pairings := s.boards(t, next, r)
	for _, p := range pairings {
		if g := p.Game; g != nil && (withdrawn[g.White] || withdrawn[g.Black]) {
			g.Rated = false // a forfeit rates no one
		}
	}
	games, err := s.st.PairRound(ctx, t.ID, t.Version, next, pairings)
	if err != nil {
		return false, err
	}
	s.log.Info("tournament round paired", "tournament", t.ID, "round", next, "games", len(games))
	s.startGames(t.ID, games)
	return true, nil
}

// arenaWaiting are an arena's players free for a game: entered, not
// withdrawn, without a game going on in the arena; with their points,
// last opponent and colours so far.
func arenaWaiting(st store.TournamentState) []tournament.ArenaPlayer {
	busy := map[int64]bool{}
	for _, p := range st.Pairings {
		if p.Game != 0 && p.Status == store.Active {
			busy[p.White], busy[p.Black] = true, true
		}
	}
	sheets := arenaSheets(st)
	var out []tournament.ArenaPlayer
	for _, e := range st.Entrants {
		if busy[e.User] || !e.WithdrawnAt.IsZero() {
			continue
		}
		a := tournament.ArenaPlayer{ID: tournament.PlayerID(e.User), Rating: e.Rating}
		if sh, ok := sheets[e.User]; ok {
			a.Points = sh.sheet.Total
			a.LastOpponent = tournament.PlayerID(sh.last)
			a.ColourDiff = sh.colourDiff
		}
		out = append(out, a)
	}
	return out
}

// pairArena pairs an arena's free players as its next wave, if two or
// more wait.
func (s *Service) pairArena(ctx context.Context, st store.TournamentState) (bool, error) {
	t := st.Tournament
	waiting := arenaWaiting(st)
	if len(waiting) < 2 {
		return false, nil
	}
	games, err := tournament.PairArena(waiting)
	if err != nil || len(games) == 0 {
		return false, err
	}
	if room := MaxArenaGames - len(st.Pairings); len(games) > room {
		games = games[:room]
	}
	ids, err := s.st.PairRound(ctx, t.ID, t.Version, t.Round+1, s.boards(t, t.Round+1, tournament.Round{Games: games}))
	if err != nil {
		return false, err
	}
	s.startGames(t.ID, ids)
	return true, nil
}
