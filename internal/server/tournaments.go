package server

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// Tournaments. An organiser creates an event of one of four kinds, in a
// preset, with a real-time clock or days per move, rated or not, open to
// all or to a club's members, optionally within a rating band:
//
//   - a round robin (single or double, by the Berger tables), each round
//     paired when the last game of the one before ends;
//   - a Swiss of a fixed number of rounds, each paired when the last game
//     of the round before ends, or by its organiser (ManualPairing);
//   - an arena of a fixed duration, players paired as soon as they are
//     free, lichess's scoring with streaks and berserk;
//   - a correspondence round robin: every game of every round started at
//     once, days per move, the vacation rules of every correspondence
//     game.
//
// Players join and withdraw; the event starts at its start time (the
// director, director.go) or when its organiser starts it; the director
// pairs and ends it as its games end. The pairing and the counting are
// internal/server/tournament's; the store keeps the events, their fields
// and pairings, and the standings are derived from those and the games'
// results whenever they are read (standings.go). docs/tournaments.md is
// the organisers' guide.
//
// Who may do what: reading needs no account; creating, joining and
// withdrawing need one that is not a guest (a guest costs nothing to
// make: guests would fill fields and bypass the quotas); starting and
// pairing by hand are the organiser's; a club's event is created by a
// leader of the club and joined by its members.

// The kinds of tournament.
const (
	RoundRobin     = "roundrobin"
	Swiss          = "swiss"
	Arena          = "arena"
	Correspondence = "correspondence"
)

// Limits of tournaments: the fields (withdrawn players count), rounds,
// arenas' durations and games, names, pages; a bound on everything a
// client may ask an event to hold.
const (
	MaxRoundRobinField  = 20  // round robins and correspondence events: 190 games a cycle at most
	MaxSwissField       = 200 // a round of 200 pairs in about 0.1 s (docs/tournaments.md)
	MaxArenaField       = 200
	MaxSwissRounds      = 20
	MinArenaDuration    = 5 * time.Minute
	MaxArenaDuration    = 12 * time.Hour
	MaxArenaGames       = 5000 // an arena pairs no more games past these; it ends when they are over
	ArenaBerserkPlies   = 14   // a berserk win earns its extra point only in a game this long
	MaxStartAhead       = 90 * 24 * time.Hour
	UpcomingExpiry      = 30 * 24 * time.Hour // an event without a start time not started by then is cancelled
	MinTournamentName   = 3
	MaxTournamentName   = 60
	MaxTournamentRating = 4000
	TournamentPage      = 50
	MaxTournamentPage   = 100
	ArenaWavesShown     = 20 // an arena's last waves of pairings GET shows; the records hold them all
	// MaxHalfByes is the most half-point byes a player of a Swiss asks
	// for in one event.
	MaxHalfByes = 2
	// ManualPairingWait: a Swiss paired by hand whose round has been
	// over this long is paired by the director, so that an organiser who
	// is away does not hold its players for good.
	ManualPairingWait = 24 * time.Hour
)

// TournamentSpec is what an organiser asks for.
type TournamentSpec struct {
	Name    string
	Kind    string // RoundRobin, Swiss, Arena or Correspondence
	Variant string // a preset; "" for nine-mens-morris
	Rated   bool
	// Control: a real-time clock (arenas need one) or days per move
	// (correspondence events need those); round robins and Swiss events
	// take either.
	Control TimeControl
	Rounds  int // a Swiss's, 1 to MaxSwissRounds
	// Cycles: a round robin's, 1 (single, the default) or 2 (double).
	Cycles   int
	Duration time.Duration // an arena's
	// StartsAt: when the event starts by itself (zero: its organiser
	// starts it); at most MaxStartAhead away.
	StartsAt time.Time
	Club     int64 // a club the organiser leads: its members alone may join
	// MinRating and MaxRating bound the ratings of those who join (in
	// the preset; 0: no bound).
	MinRating, MaxRating int
	MaxPlayers           int // 0: the kind's most
	// LateEntryUntil: a Swiss takes players until this many rounds are
	// paired (0: half its rounds, rounded up; 1: none after the start).
	LateEntryUntil int
	// ManualPairing: a Swiss whose rounds its organiser pairs.
	ManualPairing bool
	// EngineLevel enters the engine at that level (1 to 10; 0: not).
	EngineLevel int
}

func maxField(kind string) int {
	switch kind {
	case RoundRobin, Correspondence:
		return MaxRoundRobinField
	case Swiss:
		return MaxSwissField
	}
	return MaxArenaField
}

// validTournamentName returns a name trimmed of spaces: 3 to 60
// characters of text with single spaces, without control characters or
// those that turn the direction of text around.
func validTournamentName(name string) (string, error) {
	name = strings.TrimSpace(name)
	n := utf8.RuneCountInString(name)
	if n < MinTournamentName || n > MaxTournamentName || !utf8.ValidString(name) {
		return "", errorf(BadRequest, "a tournament's name has %d to %d characters", MinTournamentName, MaxTournamentName)
	}
	letters := 0
	prev := 'x'
	for _, r := range name {
		switch {
		case unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f:
			return "", errorf(BadRequest, "a tournament's name holds no control characters (%U)", r)
		case unicode.IsSpace(r) && r != ' ':
			return "", errorf(BadRequest, "a tournament's name has plain spaces only")
		case r == ' ' && prev == ' ':
			return "", errorf(BadRequest, "a tournament's name has single spaces")
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			letters++
		}
		prev = r
	}
	if letters < MinTournamentName {
		return "", errorf(BadRequest, "a tournament's name has at least %d letters or digits", MinTournamentName)
	}
	return name, nil
}

// checkTournament checks a spec as user asks for it and returns the
// event to store.
func (s *Service) checkTournament(ctx context.Context, user User, sp TournamentSpec) (store.Tournament, error) {
	name, err := validTournamentName(sp.Name)
	if err != nil {
		return store.Tournament{}, err
	}
	kind := sp.Kind
	switch kind {
	case RoundRobin, Swiss, Arena, Correspondence:
	case "":
		return store.Tournament{}, errorf(BadRequest, "a tournament needs a kind: roundrobin, swiss, arena or correspondence")
	default:
		return store.Tournament{}, errorf(BadRequest, "unknown kind of tournament: want roundrobin, swiss, arena or correspondence")
	}
	gs := GameSpec{Variant: sp.Variant, Rated: sp.Rated, Color: "white", Control: sp.Control}
	r, err := gs.rules()
	if err != nil {
		return store.Tournament{}, err
	}
	ctl := sp.Control
	realTime, days := ctl.Initial > 0, ctl.ForfeitDays > 0
	switch {
	case kind == Arena && !realTime:
		return store.Tournament{}, errorf(BadRequest, "an arena is played with a real-time clock: give clock")
	case kind == Correspondence && !days:
		return store.Tournament{}, errorf(BadRequest, "a correspondence tournament is played with days per move: give days")
	case !realTime && !days:
		return store.Tournament{}, errorf(BadRequest, "a tournament's games have a real-time clock or days per move: give clock or days")
	}
	t := store.Tournament{Name: name, Kind: kind, Variant: r.Variant(), Rules: r.String(), Rated: sp.Rated, Control: store.TimeControl(ctl),
		MinRating: sp.MinRating, MaxRating: sp.MaxRating, EngineLevel: sp.EngineLevel, Organiser: user.ID, Seed: randomSeed()}
	if sp.Rounds != 0 && kind != Swiss {
		return store.Tournament{}, errorf(BadRequest, "rounds are a Swiss's: a round robin has as many as its field needs, an arena a duration")
	}
	if sp.Cycles != 0 && kind != RoundRobin && kind != Correspondence {
		return store.Tournament{}, errorf(BadRequest, "cycles are a round robin's")
	}
	if sp.Duration != 0 && kind != Arena {
		return store.Tournament{}, errorf(BadRequest, "a duration is an arena's")
	}
	if (sp.LateEntryUntil != 0 || sp.ManualPairing) && kind != Swiss {
		return store.Tournament{}, errorf(BadRequest, "late entries and pairing by hand are a Swiss's")
	}
	switch kind {
	case Swiss:
		if sp.Rounds < 1 || sp.Rounds > MaxSwissRounds {
			return store.Tournament{}, errorf(BadRequest, "a Swiss has 1 to %d rounds", MaxSwissRounds)
		}
		t.Rounds = sp.Rounds
		t.LateEntryUntil = cmp.Or(sp.LateEntryUntil, (sp.Rounds+1)/2)
		if t.LateEntryUntil < 1 || t.LateEntryUntil > sp.Rounds {
			return store.Tournament{}, errorf(BadRequest, "lateEntryUntil is 1 (no late entries) to the rounds, %d", sp.Rounds)
		}
		t.ManualPairing = sp.ManualPairing
	case RoundRobin, Correspondence:
		t.Cycles = cmp.Or(sp.Cycles, 1)
		if t.Cycles != 1 && t.Cycles != 2 {
			return store.Tournament{}, errorf(BadRequest, "a round robin has 1 cycle (single) or 2 (double), not %d", sp.Cycles)
		}
	case Arena:
		if sp.Duration < MinArenaDuration || sp.Duration > MaxArenaDuration {
			return store.Tournament{}, errorf(BadRequest, "an arena lasts %s to %s", waitText(MinArenaDuration), waitText(MaxArenaDuration))
		}
		t.Duration = sp.Duration.Truncate(time.Millisecond)
	}
	most := maxField(kind)
	t.MaxPlayers = cmp.Or(sp.MaxPlayers, most)
	if t.MaxPlayers < 2 || t.MaxPlayers > most {
		return store.Tournament{}, errorf(BadRequest, "a %s has 2 to %d players", kindName(kind), most)
	}
	if !sp.StartsAt.IsZero() {
		now := s.now()
		if sp.StartsAt.Before(now.Add(-time.Minute)) || sp.StartsAt.After(now.Add(MaxStartAhead)) {
			return store.Tournament{}, errorf(BadRequest, "a tournament starts within %d days from now, not in the past", int(MaxStartAhead.Hours()/24))
		}
		t.StartsAt = sp.StartsAt.Truncate(time.Millisecond)
	}
	if sp.MinRating < 0 || sp.MaxRating < 0 || sp.MinRating > MaxTournamentRating || sp.MaxRating > MaxTournamentRating ||
		sp.MaxRating != 0 && sp.MinRating > sp.MaxRating {
		return store.Tournament{}, errorf(BadRequest, "a rating band is 0 (no bound) to %d, the least no more than the most", MaxTournamentRating)
	}
	if sp.EngineLevel < 0 || sp.EngineLevel > 10 {
		return store.Tournament{}, errorf(BadRequest, "the engine's level is 1 to 10 (0: the engine does not play), not %d", sp.EngineLevel)
	}
	if sp.Club != 0 {
		if _, err := s.club(ctx, sp.Club); err != nil {
			return store.Tournament{}, err
		}
		role, err := s.st.ClubRole(ctx, sp.Club, user.ID)
		if err != nil {
			return store.Tournament{}, err
		}
		if role != store.RoleLeader {
			return store.Tournament{}, errorf(Forbidden, "only a leader of club %d makes tournaments for its members", sp.Club)
		}
		t.Club = sp.Club
	}
	return t, nil
}

func kindName(kind string) string {
	switch kind {
	case RoundRobin:
		return "round robin"
	case Swiss:
		return "Swiss"
	case Correspondence:
		return "correspondence tournament"
	}
	return kind
}

// tournamentPlayer refuses tournaments to guests and bots.
func tournamentPlayer(u User) error {
	if IsGuest(u) || u.Bot {
		return errorf(Forbidden, "%s is a guest: guests play in no tournaments (sign up to play)", u.Name)
	}
	return nil
}

// engineRating is the rating the engine enters an event with: a guess
// by its level, for the Swiss's order and the performance tie-break.
func engineRating(level int) int { return 800 + 100*level }

// CreateTournament creates an upcoming event organised by user and returns
// it. A user organises Quotas.Tournaments events at once (upcoming or
// running) and creates them at Rates.Tournament.
func (s *Service) CreateTournament(ctx context.Context, user User, sp TournamentSpec) (wire.TournamentFull, error) {
	if err := tournamentPlayer(user); err != nil {
		return wire.TournamentFull{}, err
	}
	t, err := s.checkTournament(ctx, user, sp)
	if err != nil {
		return wire.TournamentFull{}, err
	}
	unlock := s.quotaLocks.lock(user.ID)
	defer unlock()
	organised, _, err := s.st.TournamentCounts(ctx, user.ID)
	if err != nil {
		return wire.TournamentFull{}, err
	}
	if max := s.cfg.Quotas.Tournaments; max >= 0 && organised >= max {
		return wire.TournamentFull{}, errorf(Conflict, "you organise %d tournaments that are upcoming or running, the most at once: let one finish first", organised)
	}
	if err := s.spend(kindTournament, strconv.FormatInt(user.ID, 10), "you have created too many tournaments lately"); err != nil {
		return wire.TournamentFull{}, err
	}
	var engine int64
	if t.EngineLevel > 0 {
		engine = s.engineID
	}
	t, err = s.st.CreateTournament(ctx, t, engine, engineRating(t.EngineLevel))
	if err != nil {
		return wire.TournamentFull{}, err
	}
	s.log.Info("tournament created", "tournament", t.ID, "kind", t.Kind, "by", user.ID)
	s.tournamentChanged(t.ID)
	return s.Tournament(ctx, t.ID)
}

// tournamentState reads an event, NotFound in the service's words.
func (s *Service) tournamentState(ctx context.Context, id int64) (store.TournamentState, error) {
	st, err := s.st.TournamentState(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return st, errorf(NotFound, "no tournament %d", id)
	}
	return st, err
}

func entrantOf(st store.TournamentState, user int64) *store.Entrant {
	for i := range st.Entrants {
		if st.Entrants[i].User == user {
			return &st.Entrants[i]
		}
	}
	return nil
}

// playerRating is a player's rating in a variant, rounded: the default
// rating when they have none.
func (s *Service) playerRating(ctx context.Context, user int64, variant string) (int, error) {
	r, err := s.st.Rating(ctx, user, variant)
	if errors.Is(err, store.ErrNotFound) {
		return int(math.Round(rating.Default().R)), nil
	}
	if err != nil {
		return 0, err
	}
	return int(math.Round(r.R)), nil
}

// changeRetries is how many times a change to an event is decided afresh
// when another change came first (the store's compare-and-set refused it).
const changeRetries = 5

func errChangedMeanwhile(id int64) error {
	return errorf(Conflict, "tournament %d changed meanwhile: try again", id)
}

// JoinTournament enters user in an event: before its start, or into a
// running Swiss until LateEntryUntil rounds are paired (playing from the
// next round), or into a running arena until its end (again, after
// withdrawing from it). A user plays in Quotas.TournamentsJoined events
// at once.
func (s *Service) JoinTournament(ctx context.Context, user User, id int64) (wire.TournamentEntry, error) {
	if err := tournamentPlayer(user); err != nil {
		return wire.TournamentEntry{}, err
	}
	unlock := s.quotaLocks.lock(user.ID)
	defer unlock()
	for range changeRetries {
		st, err := s.tournamentState(ctx, id)
		if err != nil {
			return wire.TournamentEntry{}, err
		}
		t := st.Tournament
		entry := wire.TournamentEntry{Tournament: id, User: user.Name, Status: "entered"}
		if t.Status == store.TournamentFinished {
			return wire.TournamentEntry{}, errorf(Conflict, "tournament %d is over", id)
		}
		e := entrantOf(st, user.ID)
		switch {
		case e != nil && e.WithdrawnAt.IsZero():
			return wire.TournamentEntry{}, errorf(Conflict, "you are in tournament %d already", id)
		case e != nil && t.Kind != Arena:
			return wire.TournamentEntry{}, errorf(Conflict, "you withdrew from tournament %d: a withdrawal is for good (but from an arena)", id)
		}
		now := s.now()
		from := 1
		if t.Status == store.TournamentRunning {
			switch t.Kind {
			case Swiss:
				if t.Round >= t.LateEntryUntil {
					return wire.TournamentEntry{}, errorf(Conflict, "tournament %d has paired %d rounds: it took late entries until %d were paired", id, t.Round, t.LateEntryUntil)
				}
			case Arena:
				if !now.Before(t.EndsAt) {
					return wire.TournamentEntry{}, errorf(Conflict, "arena %d has ended", id)
				}
			default:
				return wire.TournamentEntry{}, errorf(Conflict, "tournament %d has started: a round robin takes no late entries", id)
			}
			from = t.Round + 1
		}
		if e != nil { // back in an arena after a pause
			if err := s.checkJoined(ctx, user); err != nil {
				return wire.TournamentEntry{}, err
			}
			err := s.st.RejoinTournament(ctx, id, t.Version, user.ID)
			if errors.Is(err, store.ErrConflict) {
				continue
			}
			if err != nil {
				return wire.TournamentEntry{}, err
			}
			s.tournamentChanged(id)
			s.kickTournament(id)
			return entry, nil
		}
		if t.Players >= t.MaxPlayers {
			return wire.TournamentEntry{}, errorf(Conflict, "tournament %d is full: %d players", id, t.Players)
		}
		if t.Club != 0 {
			role, err := s.st.ClubRole(ctx, t.Club, user.ID)
			if err != nil {
				return wire.TournamentEntry{}, err
			}
			if role != store.RoleMember && role != store.RoleLeader {
				return wire.TournamentEntry{}, errorf(Forbidden, "tournament %d is for the members of club %d", id, t.Club)
			}
		}
		r, err := s.playerRating(ctx, user.ID, t.Variant)
		if err != nil {
			return wire.TournamentEntry{}, err
		}
		if t.MinRating > 0 && r < t.MinRating || t.MaxRating > 0 && r > t.MaxRating {
			return wire.TournamentEntry{}, errorf(Forbidden, "tournament %d is for ratings %s in %s: yours is %d", id, band(t.MinRating, t.MaxRating), t.Variant, r)
		}
		if err := s.checkJoined(ctx, user); err != nil {
			return wire.TournamentEntry{}, err
		}
		err = s.st.JoinTournament(ctx, id, t.Version, store.Entrant{User: user.ID, Rating: r, FromRound: from})
		switch {
		case errors.Is(err, store.ErrTournamentFull):
			return wire.TournamentEntry{}, errorf(Conflict, "tournament %d is full: %d players", id, t.MaxPlayers)
		case errors.Is(err, store.ErrConflict):
			continue
		case errors.Is(err, store.ErrDuplicate):
			return wire.TournamentEntry{}, errorf(Conflict, "you are in tournament %d already", id)
		case err != nil:
			return wire.TournamentEntry{}, err
		}
		s.tournamentChanged(id)
		if t.Status == store.TournamentRunning {
			s.kickTournament(id) // an arena pairs the newcomer
		}
		if from > 1 && t.Kind == Swiss {
			entry.FromRound = from
		}
		return entry, nil
	}
	return wire.TournamentEntry{}, errChangedMeanwhile(id)
}

func band(lo, hi int) string {
	switch {
	case hi == 0:
		return strconv.Itoa(lo) + " and up"
	case lo == 0:
		return "up to " + strconv.Itoa(hi)
	}
	return strconv.Itoa(lo) + " to " + strconv.Itoa(hi)
}

// checkJoined refuses one more event to a user who plays in
// Quotas.TournamentsJoined of them already.
func (s *Service) checkJoined(ctx context.Context, user User) error {
	max := s.cfg.Quotas.TournamentsJoined
	if max < 0 {
		return nil
	}
	_, playing, err := s.st.TournamentCounts(ctx, user.ID)
	if err != nil {
		return err
	}
	if playing >= max {
		return errorf(Conflict, "you play in %d tournaments that are upcoming or running, the most at once: withdraw from one first", playing)
	}
	return nil
}

// WithdrawTournament takes user out of an event: before the start their
// entry goes; after it they are withdrawn, resign their games of the
// event going on and are paired no more (a round robin's later games
// with them are lost at once: see docs/tournaments.md). From an arena a
// withdrawal is a pause: JoinTournament takes them back.
func (s *Service) WithdrawTournament(ctx context.Context, user User, id int64) (wire.TournamentEntry, error) {
	for range changeRetries {
		st, err := s.tournamentState(ctx, id)
		if err != nil {
			return wire.TournamentEntry{}, err
		}
		t := st.Tournament
		e := entrantOf(st, user.ID)
		if e == nil {
			return wire.TournamentEntry{}, errorf(NotFound, "you are not in tournament %d", id)
		}
		if !e.WithdrawnAt.IsZero() {
			return wire.TournamentEntry{}, errorf(Conflict, "you have withdrawn from tournament %d already", id)
		}
		if t.Status == store.TournamentFinished {
			return wire.TournamentEntry{}, errorf(Conflict, "tournament %d is over", id)
		}
		remove := t.Status == store.TournamentUpcoming
		err = s.st.WithdrawTournament(ctx, id, t.Version, user.ID, remove)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return wire.TournamentEntry{}, err
		}
		s.tournamentChanged(id)
		if remove {
			return wire.TournamentEntry{Tournament: id, User: user.Name, Status: "none"}, nil
		}
		if err := s.resignWithdrawn(ctx, st, map[int64]bool{user.ID: true}); err != nil {
			s.log.Warn("resigning a withdrawn player's games", "tournament", id, "user", user.ID, "err", err)
		}
		s.kickTournament(id)
		return wire.TournamentEntry{Tournament: id, User: user.Name, Status: "withdrawn"}, nil
	}
	return wire.TournamentEntry{}, errChangedMeanwhile(id)
}

// SetHalfBye makes (on) or takes back user's request to sit out round of
// a Swiss for half a point. A player of the event who has not withdrawn
// may ask for at most MaxHalfByes, for any round but the last, until the
// round is paired; the pairing of that round leaves them out and gives
// them ½ (docs/tournaments.md). Changes are rate-limited (Rates.HalfBye):
// each one is a change of the event, which its streams are told of.
func (s *Service) SetHalfBye(ctx context.Context, user User, id int64, round int, on bool) (wire.TournamentEntry, error) {
	for range changeRetries {
		st, err := s.tournamentState(ctx, id)
		if err != nil {
			return wire.TournamentEntry{}, err
		}
		t := st.Tournament
		e := entrantOf(st, user.ID)
		var mine []int
		asked := false
		for _, r := range st.ByeRequests {
			if r.User == user.ID {
				mine = append(mine, r.Round)
				asked = asked || r.Round == round
			}
		}
		switch {
		case t.Kind != Swiss:
			return wire.TournamentEntry{}, errorf(BadRequest, "tournament %d is a %s: half-point byes are a Swiss's", id, kindName(t.Kind))
		case e == nil:
			return wire.TournamentEntry{}, errorf(NotFound, "you are not in tournament %d", id)
		case !e.WithdrawnAt.IsZero():
			return wire.TournamentEntry{}, errorf(Conflict, "you have withdrawn from tournament %d", id)
		case t.Status == store.TournamentFinished:
			return wire.TournamentEntry{}, errorf(Conflict, "tournament %d is over", id)
		case round < 1 || round >= t.Rounds:
			return wire.TournamentEntry{}, errorf(BadRequest, "round %d: a half-point bye is for a round from 1 to %d (not the last)", round, t.Rounds-1)
		case round <= t.Round:
			return wire.TournamentEntry{}, errorf(Conflict, "round %d of tournament %d is paired already", round, id)
		case on && asked:
			return wire.TournamentEntry{}, errorf(Conflict, "you sit out round %d already", round)
		case !on && !asked:
			return wire.TournamentEntry{}, errorf(NotFound, "you have not asked to sit out round %d", round)
		case on && len(mine) >= MaxHalfByes:
			return wire.TournamentEntry{}, errorf(Conflict, "you have asked for %d half-point byes, the most in one event", MaxHalfByes)
		}
		if err := s.spend(kindHalfBye, strconv.FormatInt(user.ID, 10), "you have changed your half-point byes too often lately"); err != nil {
			return wire.TournamentEntry{}, err
		}
		err = s.st.SetByeRequest(ctx, id, t.Version, user.ID, round, on)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return wire.TournamentEntry{}, err
		}
		s.tournamentChanged(id)
		if on {
			mine = append(mine, round)
			slices.Sort(mine)
		} else {
			mine = slices.DeleteFunc(mine, func(r int) bool { return r == round })
		}
		return wire.TournamentEntry{Tournament: id, User: user.Name, Status: "entered", HalfByes: mine}, nil
	}
	return wire.TournamentEntry{}, errChangedMeanwhile(id)
}

// organiser reads an event and checks that user organises it.
func (s *Service) organiser(ctx context.Context, user User, id int64, what string) (store.TournamentState, error) {
	st, err := s.tournamentState(ctx, id)
	if err != nil {
		return st, err
	}
	if st.Tournament.Organiser != user.ID {
		return st, errorf(Forbidden, "only the organiser of tournament %d, %s, %s it", id, st.Tournament.OrganiserName, what)
	}
	return st, nil
}

// StartTournament starts an upcoming event now, as its organiser asks
// (one with a start time too, before it): round 1 is paired (every game
// of a correspondence event; an arena's first wave). An event that cannot
// start (too few players for it) is Conflict, and stays as it was.
func (s *Service) StartTournament(ctx context.Context, user User, id int64) (wire.TournamentFull, error) {
	return s.organiserChange(ctx, user, id, "starts", func(st store.TournamentState) error {
		if st.Tournament.Status != store.TournamentUpcoming {
			return errorf(Conflict, "tournament %d has started already", id)
		}
		_, err := s.start(ctx, st, true)
		return err
	})
}

// CancelTournament cancels an upcoming event, as its organiser asks: it
// ends without a game, and its players are free of it.
func (s *Service) CancelTournament(ctx context.Context, user User, id int64) (wire.TournamentFull, error) {
	return s.organiserChange(ctx, user, id, "cancels", func(st store.TournamentState) error {
		if st.Tournament.Status != store.TournamentUpcoming {
			return errorf(Conflict, "tournament %d has started: it ends when its games do", id)
		}
		return s.finish(ctx, st.Tournament, "cancelled by its organiser")
	})
}

// organiserChange runs an organiser's change to event id: what (the verb
// of organiser's refusal) checked, then change on the state read afresh,
// decided again while another change wins the compare-and-set
// (store.ErrConflict), at most changeRetries times; the event as it then
// stands is the answer, and its streams are told.
func (s *Service) organiserChange(ctx context.Context, user User, id int64, what string, change func(store.TournamentState) error) (wire.TournamentFull, error) {
	for range changeRetries {
		st, err := s.organiser(ctx, user, id, what)
		if err != nil {
			return wire.TournamentFull{}, err
		}
		err = change(st)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return wire.TournamentFull{}, err
		}
		s.tournamentChanged(id)
		return s.Tournament(ctx, id)
	}
	return wire.TournamentFull{}, errChangedMeanwhile(id)
}

// PairTournament pairs the next round of a running event now, as its
// organiser asks: a Swiss that is paired by hand, or any round robin or
// Swiss whose round is over (the director would pair it in a moment), or
// an arena's players who wait. A round with games going on, an event
// whose rounds are all paired and a correspondence event (paired at its
// start) are Conflict. A Swiss that cannot pair its next round ends,
// with a note that says why.
func (s *Service) PairTournament(ctx context.Context, user User, id int64) (wire.TournamentFull, error) {
	for range changeRetries {
		st, err := s.organiser(ctx, user, id, "pairs")
		if err != nil {
			return wire.TournamentFull{}, err
		}
		t := st.Tournament
		if t.Status != store.TournamentRunning {
			return wire.TournamentFull{}, errorf(Conflict, "tournament %d is %s: only a running tournament is paired", id, t.Status)
		}
		var did bool
		switch t.Kind {
		case Correspondence:
			return wire.TournamentFull{}, errorf(Conflict, "every game of a correspondence tournament is paired at its start")
		case Arena:
			if !s.now().Before(t.EndsAt) {
				return wire.TournamentFull{}, errorf(Conflict, "arena %d has ended", id)
			}
			did, err = s.pairArena(ctx, st)
			if err == nil && !did {
				return wire.TournamentFull{}, errorf(Conflict, "fewer than two players of arena %d wait for a game", id)
			}
		default:
			if n := activeGames(st, t.Round); n > 0 {
				return wire.TournamentFull{}, errorf(Conflict, "round %d of tournament %d has %d games going on", t.Round, id, n)
			}
			if t.Round >= t.Rounds {
				return wire.TournamentFull{}, errorf(Conflict, "every round of tournament %d is paired", id)
			}
			_, err = s.pairNext(ctx, st)
		}
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return wire.TournamentFull{}, err
		}
		s.tournamentChanged(id)
		return s.Tournament(ctx, id)
	}
	return wire.TournamentFull{}, errChangedMeanwhile(id)
}

// activeGames counts the games going on in round (every round: 0).
func activeGames(st store.TournamentState, round int) int {
	n := 0
	for _, p := range st.Pairings {
		if p.Game != 0 && p.Status == store.Active && (round == 0 || p.Round == round) {
			n++
		}
	}
	return n
}

// Berserk halves user's clock in their game going on in an arena, before
// their first move in it: a win then scores a point more (if the game
// lasts ArenaBerserkPlies plies). Half the initial time is taken from the
// clock; the increment stays.
func (s *Service) Berserk(ctx context.Context, user User, id int64) (wire.TournamentGame, error) {
	st, err := s.tournamentState(ctx, id)
	if err != nil {
		return wire.TournamentGame{}, err
	}
	t := st.Tournament
	if t.Kind != Arena {
		return wire.TournamentGame{}, errorf(BadRequest, "berserk is an arena's: tournament %d is a %s", id, kindName(t.Kind))
	}
	var p *store.Pairing
	for i := range st.Pairings {
		q := &st.Pairings[i]
		if q.Game != 0 && q.Status == store.Active && (q.White == user.ID || q.Black == user.ID) {
			p = q
		}
	}
	if p == nil {
		return wire.TournamentGame{}, errorf(Conflict, "you have no game going on in arena %d", id)
	}
	err = s.locked(ctx, p.Game, func(o *owner) error {
		side, err := o.activePlayer(user.ID)
		if err != nil {
			return err
		}
		if o.g.Ply > 1 || o.g.Ply == 1 && o.game.Position().SideToMove() != side {
			return errorf(Conflict, "you have moved in game %d: a player berserks before their first move", o.id)
		}
		half := o.g.Control.Initial / 2
		left := max(o.g.Clocks.Left[side]-half, time.Millisecond).Truncate(time.Millisecond)
		v, err := s.st.Berserk(ctx, o.id, int(side), o.g.Ply, left)
		if errors.Is(err, store.ErrConflict) {
			if (side == mill.White && p.WhiteBerserk) || (side == mill.Black && p.BlackBerserk) {
				return errorf(Conflict, "you have berserked in game %d already", o.id)
			}
			if lerr := o.load(context.WithoutCancel(ctx)); lerr != nil {
				s.log.Error("reloading a game", "game", o.id, "err", lerr)
			}
			return errorf(Conflict, "you have berserked in game %d already, or it has moved on", o.id)
		}
		if err != nil {
			return err
		}
		o.g.Clocks.Left[side] = left
		o.g.Version = v
		s.publishState(o)
		s.afterChange(o)
		return nil
	})
	if err != nil {
		return wire.TournamentGame{}, err
	}
	s.tournamentChanged(id)
	st, err = s.tournamentState(ctx, id)
	if err != nil {
		return wire.TournamentGame{}, err
	}
	for _, q := range st.Pairings {
		if q.Game == p.Game {
			return s.wireGame(q), nil
		}
	}
	return wire.TournamentGame{}, errorf(NotFound, "no game %d in arena %d", p.Game, id)
}

// TournamentsQuery selects events for Tournaments.
type TournamentsQuery struct {
	Status  string // upcoming, running, finished; "" for all
	Club    int64
	Variant string
	Before  int64 // paging: ids below this one
	Limit   int   // 0: TournamentPage
}

// Tournaments returns a page of events, newest first.
func (s *Service) Tournaments(ctx context.Context, q TournamentsQuery) (wire.TournamentList, error) {
	if q.Limit == 0 {
		q.Limit = TournamentPage
	}
	if q.Limit < 1 || q.Limit > MaxTournamentPage || q.Before < 0 || q.Club < 0 {
		return wire.TournamentList{}, errorf(BadRequest, "a page of tournaments is 1 to %d before an id", MaxTournamentPage)
	}
	switch store.TournamentStatus(q.Status) {
	case "", store.TournamentUpcoming, store.TournamentRunning, store.TournamentFinished:
	default:
		return wire.TournamentList{}, errorf(BadRequest, "a tournament's status is upcoming, running or finished")
	}
	if q.Variant != "" {
		if v, err := mill.LookupVariant(q.Variant); err != nil || v.ID != q.Variant {
			return wire.TournamentList{}, errorf(BadRequest, "unknown variant: want a preset id, as GET /api/variants lists them")
		}
	}
	ts, more, err := s.st.Tournaments(ctx, store.TournamentQuery{Status: store.TournamentStatus(q.Status), Club: q.Club,
		Variant: q.Variant, Before: q.Before, Limit: q.Limit})
	if err != nil {
		return wire.TournamentList{}, err
	}
	list := wire.TournamentList{Tournaments: make([]wire.Tournament, 0, len(ts)), More: more}
	clubs := map[int64]string{}
	for _, t := range ts {
		list.Tournaments = append(list.Tournaments, s.wireTournament(ctx, t, clubs))
	}
	return list, nil
}

// wireTournament is an event's head; clubs keeps the clubs' names looked
// up.
func (s *Service) wireTournament(ctx context.Context, t store.Tournament, clubs map[int64]string) wire.Tournament {
	w := wire.Tournament{ID: t.ID, Name: t.Name, Kind: t.Kind, Variant: t.Variant, Rated: t.Rated, Control: wireControl(t.Control),
		Rounds: t.Rounds, Cycles: t.Cycles, DurationMs: t.Duration.Milliseconds(), MinRating: t.MinRating, MaxRating: t.MaxRating,
		MaxPlayers: t.MaxPlayers, LateEntryUntil: t.LateEntryUntil, ManualPairing: t.ManualPairing, EngineLevel: t.EngineLevel,
		Organiser: player(t.Organiser, t.OrganiserName), Status: string(t.Status), Round: t.Round, Players: t.Players,
		Note: t.Note, CreatedMs: t.CreatedAt.UnixMilli(), Version: t.Version,
		Cancelled: t.Status == store.TournamentFinished && t.StartedAt.IsZero()}
	if !t.StartsAt.IsZero() {
		w.StartsMs = t.StartsAt.UnixMilli()
	}
	if !t.StartedAt.IsZero() {
		w.StartedMs = t.StartedAt.UnixMilli()
		seed := t.Seed
		w.Seed = &seed
	}
	if !t.EndsAt.IsZero() {
		w.EndsMs = t.EndsAt.UnixMilli()
	}
	if !t.FinishedAt.IsZero() {
		w.FinishedMs = t.FinishedAt.UnixMilli()
	}
	if t.Club != 0 {
		name, ok := clubs[t.Club]
		if !ok {
			if c, err := s.st.Club(ctx, t.Club); err == nil {
				name = c.Name
			}
			clubs[t.Club] = name
		}
		w.Club = &wire.TournamentClub{ID: t.Club, Name: name}
	}
	return w
}

// wireGame is a board of a round that has a game.
func (s *Service) wireGame(p store.Pairing) wire.TournamentGame {
	g := wire.TournamentGame{Board: p.Board, Game: p.Game, White: player(p.White, p.WhiteName), Black: player(p.Black, p.BlackName),
		Status: string(p.Status), Result: p.Result, Method: p.Method, Ply: p.Ply, WhiteBerserk: p.WhiteBerserk, BlackBerserk: p.BlackBerserk}
	g.White.Bot = p.White == s.engineID
	g.Black.Bot = p.Black == s.engineID
	return g
}

// wireRounds are the pairings by round.
func (s *Service) wireRounds(ps []store.Pairing) []wire.TournamentRound {
	out := []wire.TournamentRound{}
	for _, p := range ps {
		if len(out) == 0 || out[len(out)-1].Round != p.Round {
			out = append(out, wire.TournamentRound{Round: p.Round, Games: []wire.TournamentGame{}})
		}
		r := &out[len(out)-1]
		if p.Game == 0 {
			bye := player(p.White, p.WhiteName)
			if p.HalfBye {
				r.HalfByes = append(r.HalfByes, bye)
			} else {
				r.Bye = &bye
			}
			continue
		}
		r.Games = append(r.Games, s.wireGame(p))
	}
	return out
}

// wireEntrants is the field; the first round of a late entrant and the
// rounds each asked to sit out are shown in a Swiss (an arena's rounds
// are its waves: nobody's business).
func (s *Service) wireEntrants(kind string, es []store.Entrant, byes []store.ByeRequest) []wire.TournamentEntrant {
	out := make([]wire.TournamentEntrant, 0, len(es))
	for _, e := range es {
		w := wire.TournamentEntrant{ID: e.User, Name: e.Name, Rating: e.Rating, Bot: e.User == s.engineID, Number: e.Number,
			Withdrawn: !e.WithdrawnAt.IsZero(), JoinedMs: e.JoinedAt.UnixMilli()}
		if e.FromRound > 1 && kind == Swiss {
			w.FromRound = e.FromRound
		}
		for _, b := range byes {
			if b.User == e.User {
				w.HalfByes = append(w.HalfByes, b.Round)
			}
		}
		out = append(out, w)
	}
	return out
}

// Tournament returns an event in full: its field, rounds and standings.
func (s *Service) Tournament(ctx context.Context, id int64) (wire.TournamentFull, error) {
	st, err := s.tournamentState(ctx, id)
	if err != nil {
		return wire.TournamentFull{}, err
	}
	full, err := s.fullView(ctx, st)
	if err != nil {
		return wire.TournamentFull{}, err
	}
	if st.Tournament.Kind == Arena && len(full.Pairings) > ArenaWavesShown {
		full.Pairings = slices.Clone(full.Pairings[len(full.Pairings)-ArenaWavesShown:])
		full.PairingsMore = true
	}
	return full, nil
}

// fullView is an event in full, every round of it.
func (s *Service) fullView(ctx context.Context, st store.TournamentState) (wire.TournamentFull, error) {
	standings, err := s.standings(st)
	if err != nil {
		return wire.TournamentFull{}, err
	}
	return wire.TournamentFull{
		Tournament: s.wireTournament(ctx, st.Tournament, map[int64]string{}),
		Entrants:   s.wireEntrants(st.Tournament.Kind, st.Entrants, st.ByeRequests),
		Pairings:   s.wireRounds(st.Pairings),
		TieBreaks:  standings.TieBreaks,
		Standings:  standings.Standings,
	}, nil
}
