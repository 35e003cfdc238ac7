package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// Quotas: what one player, or one address, may ask of the server beyond
// the command rate, so that no one client can fill the store with chat,
// pester an opponent with offers, hold the engine's analyses or reviews
// for itself, guess puzzles by brute force or stop its correspondence
// clocks for good. The defaults are far above what an honest player does;
// docs/security.md has the table of limits, defaults and flags. Like the
// rate limits (limits.go), the counts live in the process's memory: they
// protect this process, and a restart forgives. Only the vacations are
// counted in the store, since they are.

// Quotas are the bounds that are not token buckets (those are in Rates:
// Chat, Review, Puzzle). Zero fields take the defaults of DefaultQuotas.
type Quotas struct {
	// VacationDays is how many days of vacation a player may have in any
	// 365 days (60); one vacation at a time, running or to come.
	VacationDays int
	// ChatAfterEnd is how long after a game's end its players may still
	// chat ("good game"): 10 minutes.
	ChatAfterEnd time.Duration
	// ChatKept is how many chat messages a game keeps (1000); the oldest
	// go as new ones come. The full game carries the last ChatHistory of
	// them, GET /api/game/{id}/chat the older ones.
	ChatKept int
	// DrawOfferPlies: a player offers a draw at most once in this many
	// plies (20, lichess's rule).
	DrawOfferPlies int
	// TakebackDelay: after a player's n-th take-back declined in a game,
	// they may ask again after n² times this (10 s, n counted up to 10, as
	// lichess); an accepted one starts the count afresh.
	TakebackDelay time.Duration
	// AnalysisQueue bounds the analyses waiting or running in the process
	// (16); one more is Unavailable.
	AnalysisQueue int
	// AnalysisPerAddress bounds the analyses of one address waiting or
	// running (1); one more waits up to a second for the address's slot
	// (a browser that gave up its last one and asks again), then is
	// TooMany.
	AnalysisPerAddress int
	// ReviewsQueued bounds the reviews one address has asked for that
	// wait or run (3).
	ReviewsQueued int

	// What a user or an address holds at once (held.go). For these a
	// negative count or duration lifts the quota (load tests).

	// ConnsPerAddr is how many streams, WebSockets and pbmserv TCP
	// connections one client address holds at once (100): a browser holds
	// one or two, a club behind one address some dozens.
	ConnsPerAddr int
	// EngineGames is how many games against the engine a user plays at
	// once (5): the engine's workers are shared by everyone.
	EngineGames int
	// OpenChallenges is how many open challenges and seeks a user has at
	// once (10).
	OpenChallenges int
	// ChallengeExpiry is how long an open challenge or seek without a
	// real-time clock waits for an answer (7 days: a correspondence player
	// may look in once a week).
	ChallengeExpiry time.Duration
	// RealTimeExpiry is how long an open challenge or seek with a
	// real-time clock waits (20 minutes: its player is at the board now,
	// or not at all).
	RealTimeExpiry time.Duration
	// EngineAbandon is how long the player of a game against the engine
	// without any clock (no real-time clock, no correspondence timers) may
	// leave their turn untouched before the game ends, lost by abandonment
	// (24 hours). Such a game is unrated, and it holds one of the player's
	// EngineGames.
	EngineAbandon time.Duration
	// ClubsLed is how many clubs a user leads at once (5): creating one
	// more, or being made a leader of one more, is refused (clubs.go).
	ClubsLed int
	// ClubsJoined is how many clubs a user is a member of or asks to join
	// at once (100), so that a profile's list stays short.
	ClubsJoined int
	// ClubRequests is how many requests to join closed clubs a user has
	// waiting at once (10).
	ClubRequests int
	// Tournaments is how many upcoming or running tournaments a user
	// organises at once (5; tournaments.go).
	Tournaments int
	// TournamentsJoined is how many upcoming or running tournaments a
	// user plays in at once (20).
	TournamentsJoined int
}

// DefaultQuotas are the quotas of a server that sets none.
var DefaultQuotas = Quotas{
	VacationDays:       60,
	ChatAfterEnd:       10 * time.Minute,
	ChatKept:           1000,
	DrawOfferPlies:     20,
	TakebackDelay:      10 * time.Second,
	AnalysisQueue:      16,
	AnalysisPerAddress: 1,
	ReviewsQueued:      3,
	ConnsPerAddr:       100,
	EngineGames:        5,
	OpenChallenges:     10,
	ChallengeExpiry:    7 * 24 * time.Hour,
	RealTimeExpiry:     20 * time.Minute,
	EngineAbandon:      24 * time.Hour,
	ClubsLed:           5,
	ClubsJoined:        100,
	ClubRequests:       10,
	Tournaments:        5,
	TournamentsJoined:  20,
}

// ChatHistory is how many chat messages, the last ones, the full game
// (a stream's first line, GET /api/game/{id}) carries, and the most a
// page of GET /api/game/{id}/chat holds.
const ChatHistory = 200

// MaxVacation is the longest single vacation, in days.
const MaxVacation = 60

func (q Quotas) withDefaults() Quotas {
	d := DefaultQuotas
	positive(&q.VacationDays, d.VacationDays)
	positive(&q.ChatAfterEnd, d.ChatAfterEnd)
	positive(&q.ChatKept, d.ChatKept)
	positive(&q.DrawOfferPlies, d.DrawOfferPlies)
	positive(&q.TakebackDelay, d.TakebackDelay)
	positive(&q.AnalysisQueue, d.AnalysisQueue)
	positive(&q.AnalysisPerAddress, d.AnalysisPerAddress)
	positive(&q.ReviewsQueued, d.ReviewsQueued)
	// Zero only: a negative one lifts the quota (or, for a time, means never).
	unset(&q.ConnsPerAddr, d.ConnsPerAddr)
	unset(&q.EngineGames, d.EngineGames)
	unset(&q.OpenChallenges, d.OpenChallenges)
	unset(&q.ChallengeExpiry, d.ChallengeExpiry)
	unset(&q.RealTimeExpiry, d.RealTimeExpiry)
	unset(&q.EngineAbandon, d.EngineAbandon)
	unset(&q.ClubsLed, d.ClubsLed)
	unset(&q.ClubsJoined, d.ClubsJoined)
	unset(&q.ClubRequests, d.ClubRequests)
	unset(&q.Tournaments, d.Tournaments)
	unset(&q.TournamentsJoined, d.TournamentsJoined)
	return q
}

// positive sets *v to def unless it is above zero.
func positive[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// unset sets *v to def when it is zero.
func unset[T int | time.Duration](v *T, def T) {
	if *v == 0 {
		*v = def
	}
}

// spend spends a token of a quota's bucket; an empty bucket is TooMany,
// worded by what, with the time the next token takes.
func (s *Service) spend(kind, key, what string) error {
	ok, wait := s.limits.spend(kind, key)
	if ok {
		return nil
	}
	wait = max(wait, time.Millisecond)
	return tooMany(wait, "%s: try again in %s", what, waitText(wait))
}

// tooMany is a TooMany error with its RetryAfter.
func tooMany(wait time.Duration, format string, args ...any) error {
	return &Error{Kind: TooMany, Msg: fmt.Sprintf(format, args...), RetryAfter: wait}
}

// waitText is a wait as a person reads it: whole seconds, minutes, hours.
func waitText(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Second:
		return "a second"
	case d < time.Minute:
		return strconv.Itoa(int(d.Seconds())) + " s"
	case d < time.Hour:
		return strconv.Itoa(int(math.Ceil(d.Minutes()))) + " min"
	}
	return strconv.Itoa(int(math.Ceil(d.Hours()))) + " h"
}

// plural is n things: "1 review", "3 reviews", "2 analyses".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "is") {
		return strconv.Itoa(n) + " " + strings.TrimSuffix(thing, "is") + "es"
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// addrKey and userKey are the keys of the quotas by address and by user.
func addrKey(from string) string { return "addr:" + from }
func userKey(id int64) string    { return "user:" + strconv.FormatInt(id, 10) }
func puzzleKey(u *User, from string) string {
	if u != nil {
		return userKey(u.ID)
	}
	return addrKey(from)
}

// Chat.

// chatOpen reports whether a game's chat takes a message: while the game
// goes on, and for Quotas.ChatAfterEnd after its end. The end is the
// finished game's last change by the store's clock (updated_at, which the
// store sets from the wall clock, not from Config.Now), so it is read
// against the wall clock.
func (s *Service) chatOpen(o *owner) error {
	if o.active() {
		return nil
	}
	after := s.cfg.Quotas.ChatAfterEnd
	if time.Since(o.g.UpdatedAt) > after {
		return errorf(Conflict, "game %d is over: its chat closed %s after the end", o.id, waitText(after))
	}
	return nil
}

func chatKey(user, game int64) string {
	return strconv.FormatInt(user, 10) + ":" + strconv.FormatInt(game, 10)
}

// Offers.

// offerLog is what the quotas of offers remember of a game: per side, the
// ply of its last draw offer and its take-backs declined. It is kept on
// the game's owner, outside the copy of the stored game, so a reload of
// the copy does not forget it.
type offerLog struct {
	drawAt     [2]int // 1 + the ply of each side's last draw offer; 0: none yet
	declined   [2]int // each side's take-backs declined since its last accepted
	declinedAt [2]time.Time
}

// mayOffer checks the quotas of side's offer of kind in o's game at now: a
// draw once in Quotas.DrawOfferPlies plies, a take-back not before n²
// TakebackDelay after the n-th declined.
func (s *Service) mayOffer(o *owner, side mill.Color, kind store.OfferKind, now time.Time) error {
	l := &o.offerLog
	q := s.cfg.Quotas
	switch kind {
	case store.DrawOffer:
		if at := l.drawAt[side]; at != 0 {
			if next := at - 1 + q.DrawOfferPlies; o.g.Ply < next {
				return errorf(Conflict, "you offered a draw in game %d at move %d: one offer in %d plies, so again from move %d",
					o.id, at, q.DrawOfferPlies, next+1)
			}
		}
	case store.TakebackOffer:
		if n := min(l.declined[side], 10); n > 0 {
			wait := time.Duration(n*n) * q.TakebackDelay
			if left := l.declinedAt[side].Add(wait).Sub(now); left > 0 {
				return tooMany(left, "your opponent declined %s in game %d: ask again in %s", plural(l.declined[side], "take-back"), o.id, waitText(left))
			}
		}
	}
	return nil
}

// offered notes side's offer of kind at the game's present ply.
func (l *offerLog) offered(side mill.Color, kind store.OfferKind, ply int) {
	if kind == store.DrawOffer {
		l.drawAt[side] = ply + 1
	}
}

// answered notes the answer to side's offer of kind.
func (l *offerLog) answered(side mill.Color, kind store.OfferKind, accept bool, now time.Time) {
	if kind != store.TakebackOffer {
		return
	}
	if accept {
		l.declined[side] = 0
		return
	}
	l.declined[side]++
	l.declinedAt[side] = now
}

// Vacations.

// quotaState holds the counts of the quotas that are not token buckets.
type quotaState struct {
	// vacations makes the check of a player's vacations and the new one
	// a single step in this process (two requests at once cannot both
	// pass). Across processes two could, and would start together: one
	// vacation overlapping another, which suspends nothing more.
	vacations sync.Mutex

	// reviews are the reviews each address asked for that were waiting
	// or running when last looked at (reviewSlot).
	rmu     sync.Mutex
	reviews map[string][]int64
}

// checkVacation checks a new vacation of user's of days from now: none
// running or to come, and no more than Quotas.VacationDays in the 365 days
// that end with it.
func (s *Service) checkVacation(ctx context.Context, user User, now time.Time, days int) error {
	year := 365 * 24 * time.Hour
	vs, err := s.st.Vacations(ctx, user.ID, now.Add(-year))
	if err != nil {
		return err
	}
	var used time.Duration
	for _, v := range vs {
		if v.To.After(now) {
			if v.From.After(now) {
				return errorf(Conflict, "you have a vacation from %s to %s already: one at a time", day(v.From), day(v.To))
			}
			return errorf(Conflict, "you are on vacation until %s already: one at a time", day(v.To))
		}
		used += v.To.Sub(maxTime(v.From, now.Add(-year)))
	}
	allowed := time.Duration(s.cfg.Quotas.VacationDays) * 24 * time.Hour
	if used+time.Duration(days)*24*time.Hour > allowed {
		left := max(0, int((allowed-used)/(24*time.Hour)))
		return errorf(Conflict, "%s of vacation would make %d in 365 days, more than the %d allowed: %s left",
			plural(days, "day"), int(math.Ceil((used+time.Duration(days)*24*time.Hour).Hours()/24)), s.cfg.Quotas.VacationDays, plural(left, "day"))
	}
	return nil
}

func day(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// ChatHistory returns a page of a game's chat: the newest limit messages
// (1 to ChatHistory; 0 for 50) before version before (0: the newest),
// oldest first. Anyone may read a game's chat, as they may the game.
func (s *Service) ChatHistory(ctx context.Context, id, before int64, limit int) (wire.ChatPage, error) {
	if limit == 0 {
		limit = 50
	}
	if limit < 1 || limit > ChatHistory || before < 0 {
		return wire.ChatPage{}, errorf(BadRequest, "a chat page is 1 to %d messages before a version from 1 up", ChatHistory)
	}
	if _, err := s.st.GameVersion(ctx, id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return wire.ChatPage{}, errorf(NotFound, "no game %d", id)
		}
		return wire.ChatPage{}, err
	}
	if before == 0 {
		before = math.MaxInt64
	}
	msgs, more, err := s.st.ChatPage(ctx, id, 0, before, limit)
	if err != nil {
		return wire.ChatPage{}, err
	}
	p := wire.ChatPage{Chat: []wire.Chat{}, More: more}
	for _, m := range msgs {
		p.Chat = append(p.Chat, wire.Chat{Version: m.Version, User: m.UserName, Text: m.Text, AtMs: m.At.UnixMilli()})
	}
	return p, nil
}

// Analyses.

// analysisSlotWait is how long an analysis waits for its address's slot
// before it is refused: long enough for a browser that dropped its last
// request (a click to the next move) and sent the next at once, whose
// first the server sees end a moment later.
const analysisSlotWait = time.Second

// analysisQueue admits the analyses of the process: Quotas.AnalysisQueue
// waiting or running at most, Quotas.AnalysisPerAddress of one address.
// It also holds the waits for answers from other processes, which the
// relay wakes (analysisAnswered).
type analysisQueue struct {
	mu     sync.Mutex
	n      int
	byAddr map[string]int
	// freed is closed (and dropped) when a slot frees: the wake of those
	// waiting for their address's.
	freed   chan struct{}
	answers map[int64]chan struct{}
}

// admitAnalysis takes a slot of the queue for an analysis from an address
// ("": the server's own, counted in the queue only) and returns its
// release. A full queue is Unavailable; an address whose slots stay taken
// for analysisSlotWait is TooMany. Either frees within MaxAnalysis, when
// the analysis running ends: that is the RetryAfter.
func (s *Service) admitAnalysis(ctx context.Context, from string) (func(), error) {
	q := &s.analysis.queue
	quota := s.cfg.Quotas
	var timeout <-chan time.Time
	for {
		q.mu.Lock()
		if q.n >= quota.AnalysisQueue {
			q.mu.Unlock()
			return nil, &Error{Kind: Unavailable, RetryAfter: MaxAnalysis,
				Msg: fmt.Sprintf("the engine has %s to do already: ask again in %s", plural(quota.AnalysisQueue, "analysis"), waitText(MaxAnalysis))}
		}
		if from == "" || q.byAddr[from] < quota.AnalysisPerAddress {
			q.n++
			if from != "" {
				if q.byAddr == nil {
					q.byAddr = map[string]int{}
				}
				q.byAddr[from]++
			}
			q.mu.Unlock()
			var once sync.Once
			return func() { once.Do(func() { q.release(from) }) }, nil
		}
		if q.freed == nil {
			q.freed = make(chan struct{})
		}
		freed := q.freed
		q.mu.Unlock()
		if timeout == nil {
			t := time.NewTimer(analysisSlotWait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-freed:
		case <-timeout:
			return nil, tooMany(MaxAnalysis, "your address has %s waiting or running already, the most it may: ask again in %s",
				plural(quota.AnalysisPerAddress, "analysis"), waitText(MaxAnalysis))
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (q *analysisQueue) release(from string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.n--
	if from != "" {
		if q.byAddr[from]--; q.byAddr[from] <= 0 {
			delete(q.byAddr, from)
		}
	}
	if q.freed != nil {
		close(q.freed)
		q.freed = nil
	}
}

// await returns the channel that analysisAnswered signals when the
// analysis id handed over has its answer, and the call that forgets it.
func (q *analysisQueue) await(id int64) (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	q.mu.Lock()
	if q.answers == nil {
		q.answers = map[int64]chan struct{}{}
	}
	q.answers[id] = c
	q.mu.Unlock()
	return c, func() {
		q.mu.Lock()
		delete(q.answers, id)
		q.mu.Unlock()
	}
}

// analysisAnswered wakes the wait for the answer to the analysis id, if
// it is in this process.
func (s *Service) analysisAnswered(id int64) {
	q := &s.analysis.queue
	q.mu.Lock()
	c := q.answers[id]
	q.mu.Unlock()
	if c != nil {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// Reviews.

// reviewSlot spends a token of the review rate of the address from and
// takes one of its Quotas.ReviewsQueued slots for a new review: the
// reviews from asked for that still wait or run, looked up in the store,
// fill the others. It returns the call that gives the slot the new
// review's id, or, with the request's error, frees it. from "" is the
// server's own and has no quota.
func (s *Service) reviewSlot(ctx context.Context, from string) (func(id int64, err error), error) {
	if from == "" {
		return func(int64, error) {}, nil
	}
	key := addrKey(from)
	if err := s.spend(kindReview, key, "too many reviews asked for from your address"); err != nil {
		return nil, err
	}
	q := &s.quota
	q.rmu.Lock()
	ids := append([]int64(nil), q.reviews[key]...)
	q.rmu.Unlock()
	// The store's word on each (at most ReviewsQueued looks), outside the
	// lock; a review taken meanwhile by a request of the same address is
	// counted when the lock is held again.
	pending := map[int64]bool{}
	for _, id := range ids {
		if id == 0 {
			continue // a slot being filled
		}
		r, err := s.st.ReviewByID(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		pending[id] = err == nil && r.Status != store.ReviewDone
	}
	q.rmu.Lock()
	defer q.rmu.Unlock()
	if q.reviews == nil || len(q.reviews) > 100000 {
		q.reviews = map[string][]int64{} // a bound on the map: forgetting frees
	}
	var keep []int64
	for _, id := range q.reviews[key] {
		if still, looked := pending[id]; !looked || still {
			keep = append(keep, id) // pending, or a slot being filled, or newer than the look
		}
	}
	if n := s.cfg.Quotas.ReviewsQueued; len(keep) >= n {
		q.reviews[key] = keep
		return nil, tooMany(time.Minute, "your address has %s waiting or running already, the most it may: ask again when one is done", plural(n, "review"))
	}
	keep = append(keep, 0)
	q.reviews[key] = keep
	return func(id int64, err error) {
		q.rmu.Lock()
		defer q.rmu.Unlock()
		list := q.reviews[key]
		for i, v := range list {
			if v == 0 {
				if err != nil || id == 0 {
					list = append(list[:i], list[i+1:]...)
				} else {
					list[i] = id
				}
				break
			}
		}
		if len(list) == 0 {
			delete(q.reviews, key)
		} else {
			q.reviews[key] = list
		}
	}, nil
}
