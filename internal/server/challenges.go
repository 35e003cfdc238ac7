package server

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/binary"
	"slices"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/server/clock"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// GameSpec is what a challenge proposes.
type GameSpec struct {
	Variant   string   // a preset; "" for nine-mens-morris
	Overrides []string // rule options: "flying=never"
	Rated     bool
	Color     string // the challenger's side: white, black or random ("" random)
	Control   TimeControl
	// Start, if not empty, is the position text the game starts from
	// (games against the engine only: a position set up on the study
	// board). Its rules are the game's; Variant and Overrides, if given,
	// must name the same rules.
	Start string
}

// TimeControl is a game's time control: real time (an initial time per
// side and an increment per move) or correspondence (a reminder after
// NagDays and a forfeit after ForfeitDays without a move). The zero
// TimeControl has no clock. It has the store's fields, and converts to
// the store's TimeControl as it is.
type TimeControl struct {
	Initial, Increment   time.Duration
	NagDays, ForfeitDays int
}

// rules checks a spec and returns its rules, with the defaults filled in.
func (sp *GameSpec) rules() (*mill.Rules, error) {
	if len(sp.Overrides) > 32 {
		return nil, errorf(BadRequest, "too many rule options")
	}
	var r *mill.Rules
	if sp.Start != "" {
		p, err := startPosition(sp.Start)
		if err != nil {
			return nil, err
		}
		r = p.Rules()
		if sp.Variant != "" || len(sp.Overrides) > 0 {
			named, err := mill.NewRules(cmp.Or(sp.Variant, "nine-mens-morris"), sp.Overrides...)
			if err != nil {
				return nil, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
			}
			if named.String() != r.String() {
				return nil, errorf(BadRequest, "the position is of %s, not %s", r, named)
			}
		}
		sp.Variant = r.Variant()
		sp.Start = p.String()
	}
	if sp.Variant == "" {
		sp.Variant = "nine-mens-morris"
	}
	if r == nil {
		var err error
		if r, err = mill.NewRules(sp.Variant, sp.Overrides...); err != nil {
			return nil, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
		}
	}
	switch sp.Color {
	case "":
		sp.Color = "random"
	case "white", "black", "random":
	default:
		return nil, errorf(BadRequest, "a colour is white, black or random, not %q", sp.Color)
	}
	c := clock.Control{Initial: sp.Control.Initial, Increment: sp.Control.Increment, NagDays: sp.Control.NagDays, ForfeitDays: sp.Control.ForfeitDays}
	if err := c.Validate(); err != nil {
		return nil, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
	}
	if c.RealTime() && c.Initial < 10*time.Second {
		return nil, errorf(BadRequest, "a real-time game has at least 10 seconds a side")
	}
	return r, nil
}

// errNotFromPosition refuses a set-up position where only the engine's
// games take one.
var errNotFromPosition = errorf(BadRequest, "a game from a set-up position is played against the engine (POST /api/challenge/ai)")

// startPosition reads the position a game starts from: legal by the
// rules core, and not over.
func startPosition(text string) (mill.Position, error) {
	if len(text) > 512 {
		return mill.Position{}, errorf(BadRequest, "a position text is at most 512 bytes")
	}
	p, err := mill.ParsePosition(strings.TrimSpace(text))
	if err != nil {
		return mill.Position{}, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
	}
	if o, m := p.Status(); o != mill.NoOutcome {
		return mill.Position{}, errorf(BadRequest, "the position is over: %s by %s", o, m)
	}
	return p, nil
}

func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// newGame is the store.Game for two players under a spec: the sides drawn
// if need be, the lot's seed, the clocks.
func (s *Service) newGame(r *mill.Rules, sp GameSpec, challenger, opponent int64) store.Game {
	white, black := challenger, opponent
	switch sp.Color {
	case "black":
		white, black = opponent, challenger
	case "random":
		if randomSeed()&1 == 1 {
			white, black = opponent, challenger
		}
	}
	g := store.Game{Variant: r.Variant(), Rules: r.String(), White: white, Black: black, Rated: sp.Rated, Control: store.TimeControl(sp.Control), NagSentPly: -1}
	var opts []mill.GameOption
	if sp.Start != "" {
		// Checked by rules(): the position parses.
		p, _ := mill.ParsePosition(sp.Start)
		g.Start = sp.Start
		opts = append(opts, mill.FromPosition(p))
	} else if r.Options().FirstPlayer == mill.FirstLot {
		g.Seed, g.HasSeed = randomSeed(), true
		opts = append(opts, mill.WithSeed(g.Seed))
	}
	now := s.now()
	if sp.Control.Initial > 0 {
		first := mill.NewGame(r, opts...).Position().SideToMove()
		g.Clocks = storeClocks(clock.Control{Initial: sp.Control.Initial, Increment: sp.Control.Increment}.Start(clock.Side(first), now))
	}
	g.LastMoveAt = now
	return g
}

// started announces a new game and arms its timers (the flag's, the
// engine's first move). It runs under the service's context, not the
// request's: the game is stored, and a client that leaves at once (a
// request cancelled, timed out) must not leave it without its clock or
// the engine's move.
func (s *Service) started(_ context.Context, g store.Game) { s.startedIn(g, 0) }

// startedIn is started for a game of event (0 for none).
func (s *Service) startedIn(g store.Game, event int64) {
	s.announceStart(g, event)
	if err := s.locked(s.ctx, g.ID, func(o *owner) error { s.afterChange(o); return nil }); err != nil && s.ctx.Err() == nil {
		// Start resumes it (a restart, or the next change to it).
		s.log.Error("a new game's timers", "game", g.ID, "err", err)
	}
}

func (s *Service) wireChallenge(ctx context.Context, c store.Challenge) (wire.Challenge, error) {
	from, err := s.st.User(ctx, c.From)
	if err != nil {
		return wire.Challenge{}, err
	}
	wc := wire.Challenge{ID: c.ID, From: player(from.ID, from.Name), Variant: c.Variant, Rules: c.Rules, Rated: c.Rated,
		Color: c.Color, Control: wireControl(c.Control), Status: string(c.Status), Game: c.Game}
	if c.To != 0 {
		to, err := s.st.User(ctx, c.To)
		if err != nil {
			return wire.Challenge{}, err
		}
		p := player(to.ID, to.Name)
		wc.To = &p
	}
	return wc, nil
}

func (s *Service) announceChallenge(ctx context.Context, kind string, c store.Challenge) wire.Challenge {
	// The challenge is stored: it is announced even if the caller has gone.
	wc, err := s.wireChallenge(context.WithoutCancel(ctx), c)
	if err != nil {
		s.log.Warn("challenge event", "challenge", c.ID, "err", err)
		return wc
	}
	ev := Event{Data: mustJSON(wire.Event{Type: kind, Challenge: &wc})}
	s.hub.publishUser(c.From, ev)
	if c.To != 0 {
		s.hub.publishUser(c.To, ev)
	}
	return wc
}

// Challenge invites a user to a game, or with to "" anyone (a seek). A
// seek that matches an open seek of someone else's (same rules, rating,
// time and compatible sides) starts the game at once: the answer then has
// status accepted and the game.
func (s *Service) Challenge(ctx context.Context, from User, to string, sp GameSpec) (wire.Challenge, error) {
	if sp.Start != "" {
		return wire.Challenge{}, errNotFromPosition
	}
	r, err := sp.rules()
	if err != nil {
		return wire.Challenge{}, err
	}
	if err := guestsUnrated(sp.Rated, from); err != nil {
		return wire.Challenge{}, err
	}
	c := store.Challenge{From: from.ID, Variant: r.Variant(), Rules: r.String(), Rated: sp.Rated, Color: sp.Color, Control: store.TimeControl(sp.Control), CreatedAt: s.now()}
	if to != "" {
		u, err := s.UserByName(ctx, to)
		if err != nil {
			return wire.Challenge{}, err
		}
		if err := guestsUnrated(sp.Rated, u); err != nil {
			return wire.Challenge{}, err
		}
		if u.ID == from.ID {
			return wire.Challenge{}, errorf(BadRequest, "you cannot challenge yourself")
		}
		if u.Bot {
			return wire.Challenge{}, errorf(BadRequest, "challenge the engine with /api/challenge/ai")
		}
		if err := s.mayPlay(ctx, from, u); err != nil {
			return wire.Challenge{}, err
		}
		c.To = u.ID
	} else {
		// Pairing: the oldest matching seek of someone else's, but those
		// of the players a block keeps apart from the seeker (blocks.go).
		open, err := s.st.OpenChallenges(ctx, 0)
		if err != nil {
			return wire.Challenge{}, err
		}
		apart, err := s.st.BlockedBetween(ctx, from.ID)
		if err != nil {
			return wire.Challenge{}, err
		}
		for _, o := range open {
			if o.To == 0 && o.From != from.ID && !apart[o.From] && o.Rules == c.Rules && o.Rated == c.Rated && o.Control == c.Control &&
				(o.Color == "random" || c.Color == "random" || o.Color != c.Color) {
				wc, err := s.Accept(ctx, from, o.ID)
				if KindOf(err) == Conflict {
					continue // taken meanwhile
				}
				return wc, err
			}
		}
	}
	unlock := s.quotaLocks.lock(from.ID)
	defer unlock()
	if err := s.checkOpenChallenges(ctx, from); err != nil {
		return wire.Challenge{}, err
	}
	c, err = s.st.CreateChallenge(ctx, c)
	if err != nil {
		return wire.Challenge{}, err
	}
	return s.announceChallenge(ctx, "challenge", c), nil
}

// IsGuest reports whether u is a guest account (Service.Guest): its name
// starts with GuestPrefix, which nobody who signs up may take.
func IsGuest(u User) bool { return strings.HasPrefix(strings.ToLower(u.Name), GuestPrefix) }

// guestsUnrated refuses a rated game to guests: a guest account costs
// nothing to make, so rated games with guests would let anyone farm
// ratings (theirs, by beating guests they made, or a guest's). The game
// is refused rather than made unrated behind the player's back: they
// asked for a rated game, and are told how to get one.
func guestsUnrated(rated bool, players ...User) error {
	if !rated {
		return nil
	}
	for _, u := range players {
		if IsGuest(u) {
			return errorf(Forbidden, "%s is a guest: guests play unrated games only (sign up to play rated ones)", u.Name)
		}
	}
	return nil
}

// Accept takes a challenge to user, or a seek of someone else's, and
// starts the game.
func (s *Service) Accept(ctx context.Context, user User, id int64) (wire.Challenge, error) {
	c, err := s.st.Challenge(ctx, id)
	if err != nil {
		return wire.Challenge{}, err
	}
	if c.Status != store.ChallengeOpen {
		return wire.Challenge{}, errorf(Conflict, "challenge %d is %s", id, c.Status)
	}
	if c.From == user.ID || (c.To != 0 && c.To != user.ID) {
		return wire.Challenge{}, errorf(Forbidden, "challenge %d is not yours to accept", id)
	}
	if err := guestsUnrated(c.Rated, user); err != nil {
		return wire.Challenge{}, err
	}
	challenger, err := s.st.User(ctx, c.From)
	if err != nil {
		return wire.Challenge{}, err
	}
	if err := s.mayPlay(ctx, user, userOf(challenger)); err != nil {
		return wire.Challenge{}, err
	}
	sp := GameSpec{Variant: c.Variant, Rated: c.Rated, Color: c.Color, Control: TimeControl(c.Control)}
	r, err := mill.ParseRules(c.Rules)
	if err != nil {
		return wire.Challenge{}, err
	}
	g, err := s.st.AcceptChallenge(ctx, id, s.newGame(r, sp, c.From, user.ID))
	if err != nil {
		return wire.Challenge{}, err
	}
	c.Status, c.Game = store.ChallengeAccepted, g.ID
	wc := s.announceChallenge(ctx, "challengeAccepted", c)
	s.started(ctx, g)
	return wc, nil
}

// Decline refuses a challenge to user; Cancel withdraws one of user's.
func (s *Service) Decline(ctx context.Context, user User, id int64) error {
	return s.closeChallenge(ctx, user, id, store.ChallengeDeclined)
}

// Cancel withdraws a challenge or seek of user's.
func (s *Service) Cancel(ctx context.Context, user User, id int64) error {
	return s.closeChallenge(ctx, user, id, store.ChallengeCancelled)
}

func (s *Service) closeChallenge(ctx context.Context, user User, id int64, status store.ChallengeStatus) error {
	c, err := s.st.Challenge(ctx, id)
	if err != nil {
		return err
	}
	if status == store.ChallengeDeclined && c.To != user.ID {
		return errorf(Forbidden, "challenge %d is not yours to decline", id)
	}
	if status == store.ChallengeCancelled && c.From != user.ID {
		return errorf(Forbidden, "challenge %d is not yours to cancel", id)
	}
	if err := s.st.CloseChallenge(ctx, id, status); err != nil {
		return err
	}
	c.Status = status
	kind := "challengeDeclined"
	if status == store.ChallengeCancelled {
		kind = "challengeCanceled"
	}
	s.announceChallenge(ctx, kind, c)
	return nil
}

// Challenges lists the open challenges to and from user, and the open
// seeks of everyone (the lobby) but those of the players a block keeps
// apart from user (blocks.go).
func (s *Service) Challenges(ctx context.Context, user User) (mine, seeks []wire.Challenge, err error) {
	all, err := s.st.OpenChallenges(ctx, 0)
	if err != nil {
		return nil, nil, err
	}
	var apart map[int64]bool
	if slices.ContainsFunc(all, func(c store.Challenge) bool { return c.To == 0 && c.From != user.ID }) {
		if apart, err = s.st.BlockedBetween(ctx, user.ID); err != nil {
			return nil, nil, err
		}
	}
	mine, seeks = []wire.Challenge{}, []wire.Challenge{}
	for _, c := range all {
		if c.From != user.ID && c.To != user.ID && c.To != 0 || c.To == 0 && apart[c.From] {
			continue
		}
		wc, err := s.wireChallenge(ctx, c)
		if err != nil {
			return nil, nil, err
		}
		if c.To == 0 {
			seeks = append(seeks, wc)
		} else {
			mine = append(mine, wc)
		}
	}
	return mine, seeks, nil
}

// PlayEngine starts a game against the engine at a level (1..10). Games
// against the engine are not rated; a user plays Quotas.EngineGames of
// them at once at most.
func (s *Service) PlayEngine(ctx context.Context, user User, level int, sp GameSpec) (wire.GameSummary, error) {
	if level < 1 || level > 10 {
		return wire.GameSummary{}, errorf(BadRequest, "a level is 1 to 10, not %d", level)
	}
	sp.Rated = false
	r, err := sp.rules()
	if err != nil {
		return wire.GameSummary{}, err
	}
	unlock := s.quotaLocks.lock(user.ID)
	defer unlock()
	if err := s.checkEngineGames(ctx, user); err != nil {
		return wire.GameSummary{}, err
	}
	ng := s.newGame(r, sp, user.ID, s.engineID)
	ng.EngineLevel = level
	g, err := s.st.CreateGame(ctx, ng)
	if err != nil {
		return wire.GameSummary{}, err
	}
	s.started(ctx, g)
	return *s.summaryOf(g), nil
}

// PbmChallenge starts a game at once between challenger, who moves first,
// and the user named opponent (pbmserv "challenge": no accept step), if
// the opponent takes challenges of the variant from challenger (limit,
// accept, reject). The challenger is a signed-in user: a pbm challenge
// starts a game in the opponent's name with no step of theirs, so the
// opponent's word is asked in advance (a user without prefs takes none)
// and the challenger's in the command itself. The challenger's own prefs
// are not asked: they are whom they take challenges from, and this game
// is one they ask for.
func (s *Service) PbmChallenge(ctx context.Context, challenger User, opponent string, sp GameSpec) (Game, error) {
	if sp.Start != "" {
		return Game{}, errNotFromPosition
	}
	sp.Color = "white"
	r, err := sp.rules()
	if err != nil {
		return Game{}, err
	}
	b, err := s.UserByName(ctx, opponent)
	if err != nil {
		return Game{}, err
	}
	if challenger.ID == b.ID {
		return Game{}, errorf(BadRequest, "a game needs two players")
	}
	if challenger.Bot || b.Bot {
		return Game{}, errorf(BadRequest, "the engine is played through the API (/api/challenge/ai)")
	}
	if err := guestsUnrated(sp.Rated, challenger, b); err != nil {
		return Game{}, err
	}
	if err := s.mayPlay(ctx, challenger, b); err != nil {
		return Game{}, err
	}
	if err := s.takes(ctx, b, challenger, r.Variant()); err != nil {
		return Game{}, err
	}
	g, err := s.st.CreateGame(ctx, s.newGame(r, sp, challenger.ID, b.ID))
	if err != nil {
		return Game{}, err
	}
	s.started(ctx, g)
	return Game(g), nil
}

// takes checks that user takes a pbm challenge from challenger in a
// variant.
func (s *Service) takes(ctx context.Context, user, challenger User, variant string) error {
	p, err := s.st.Prefs(ctx, user.ID, variant)
	if err != nil {
		return err
	}
	switch {
	case slices.Contains(p.Deny, challenger.ID):
		return errorf(Forbidden, "%s does not take challenges from %s", user.Name, challenger.Name)
	case p.AcceptAll || slices.Contains(p.Allow, challenger.ID):
	case !p.Set && len(p.Allow) == 0:
		return errorf(Forbidden, "%s takes no challenges of %s by text command: a player says first that they take them "+
			"(pbmserv accept or limit, or the setting on their page); challenge them through the web client or the API instead", user.Name, variant)
	default:
		return errorf(Forbidden, "%s does not take challenges from %s", user.Name, challenger.Name)
	}
	if p.Limit >= 0 {
		games, err := s.st.Games(ctx, store.GameQuery{User: user.ID, Status: store.Active, Variant: variant})
		if err != nil {
			return err
		}
		if len(games) >= p.Limit {
			return errorf(Forbidden, "%s plays %d games of %s already, their limit", user.Name, len(games), variant)
		}
	}
	return nil
}

// SetLimit sets how many games of a variant user takes from challenges.
func (s *Service) SetLimit(ctx context.Context, user User, variant string, n int) error {
	if n < 0 || n > 1000 {
		return errorf(BadRequest, "a limit is 0 to 1000")
	}
	return s.st.SetLimit(ctx, user.ID, variant, n)
}

// SetFilter takes (allow) or refuses challenges in a variant from the
// users named, or from everyone when none is named.
func (s *Service) SetFilter(ctx context.Context, user User, variant string, names []string, allow bool) error {
	var ids []int64
	for _, n := range names {
		u, err := s.UserByName(ctx, n)
		if err != nil {
			return err
		}
		ids = append(ids, u.ID)
	}
	return s.st.SetFilter(ctx, user.ID, variant, ids, allow)
}

// PbmPrefs returns whom user takes pbm challenges from, in every preset
// (in mill.Variants order): the web client shows them all, the ones never
// set as the defaults (nobody taken).
func (s *Service) PbmPrefs(ctx context.Context, user User) ([]wire.ChallengePrefs, error) {
	stored, err := s.st.AllPrefs(ctx, user.ID)
	if err != nil {
		return nil, err
	}
	byVariant := map[string]store.ChallengePrefs{}
	for _, p := range stored {
		byVariant[p.Variant] = p.ChallengePrefs
	}
	names := map[int64]string{}
	var out []wire.ChallengePrefs
	for _, v := range mill.Variants() {
		p, ok := byVariant[v.ID]
		if !ok {
			p = store.ChallengePrefs{Limit: -1}
		}
		wp, err := s.wirePrefs(ctx, v.ID, p, names)
		if err != nil {
			return nil, err
		}
		out = append(out, wp)
	}
	return out, nil
}

// wirePrefs names the players of a variant's prefs, remembering the names
// looked up in names.
func (s *Service) wirePrefs(ctx context.Context, variant string, p store.ChallengePrefs, names map[int64]string) (wire.ChallengePrefs, error) {
	wp := wire.ChallengePrefs{Variant: variant, AcceptAll: p.AcceptAll, Limit: p.Limit, Allow: []string{}, Deny: []string{}}
	for _, l := range []struct {
		ids []int64
		dst *[]string
	}{{p.Allow, &wp.Allow}, {p.Deny, &wp.Deny}} {
		for _, id := range l.ids {
			name, ok := names[id]
			if !ok {
				u, err := s.st.User(ctx, id)
				if err != nil {
					return wire.ChallengePrefs{}, err
				}
				name = u.Name
				names[id] = name
			}
			*l.dst = append(*l.dst, name)
		}
	}
	return wp, nil
}

// SetPbmPrefs sets whether user takes pbm challenges in a preset from
// anyone not in their lists (acceptAll), and how many games of it at most
// (limit, -1 for no limit), each when not nil, and returns the prefs as
// they are then. Guests take none: their token is their only key, and a
// game in their name that they never see would be lost on time.
func (s *Service) SetPbmPrefs(ctx context.Context, user User, variant string, acceptAll *bool, limit *int) (wire.ChallengePrefs, error) {
	v, err := mill.LookupVariant(variant)
	if err != nil || v.ID != variant {
		// Not quoted: the body is the client's, of any length.
		return wire.ChallengePrefs{}, errorf(BadRequest, "unknown variant: want a preset id, as GET /api/account/pbm-challenges lists them")
	}
	if acceptAll == nil && limit == nil {
		return wire.ChallengePrefs{}, errorf(BadRequest, "nothing to set: give acceptAll, limit or both")
	}
	if limit != nil && (*limit < -1 || *limit > 1000) {
		return wire.ChallengePrefs{}, errorf(BadRequest, "a limit is -1 (none) or 0 to 1000, not %d", *limit)
	}
	if user.Bot || strings.HasPrefix(strings.ToLower(user.Name), GuestPrefix) {
		return wire.ChallengePrefs{}, errorf(Forbidden, "guests and the engine take no challenges by text command")
	}
	if err := s.st.SetPrefs(ctx, user.ID, variant, acceptAll, limit); err != nil {
		return wire.ChallengePrefs{}, err
	}
	p, err := s.st.Prefs(ctx, user.ID, variant)
	if err != nil {
		return wire.ChallengePrefs{}, err
	}
	return s.wirePrefs(ctx, variant, p, map[int64]string{})
}

// Seek asks for n more games of a variant against other seekers (pbmserv
// "seek"): each pairs with an open seek of someone else's if there is one,
// or waits as an open seek. n = 0 withdraws user's open seeks. It returns
// the games started.
func (s *Service) Seek(ctx context.Context, user User, variant string, n int) ([]int64, error) {
	if n < 0 || n > 100 {
		return nil, errorf(BadRequest, "a seek is 0 to 100 games")
	}
	if n == 0 {
		open, err := s.st.OpenChallenges(ctx, user.ID)
		if err != nil {
			return nil, err
		}
		for _, c := range open {
			if c.From == user.ID && c.To == 0 && c.Variant == variant {
				if err := s.Cancel(ctx, user, c.ID); err != nil && KindOf(err) != Conflict {
					return nil, err
				}
			}
		}
		return nil, nil
	}
	sp := GameSpec{Variant: variant, Color: "random", Control: TimeControl{NagDays: 7, ForfeitDays: 21}}
	var games []int64
	for range n {
		wc, err := s.Challenge(ctx, user, "", sp)
		if err != nil {
			return games, err
		}
		if wc.Game != 0 {
			games = append(games, wc.Game)
		}
	}
	return games, nil
}
