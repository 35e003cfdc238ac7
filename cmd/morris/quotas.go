package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/morrisgame/morris/internal/server"
)

// The flags of serve's quotas (internal/server/quotas.go; docs/security.md
// has their table): each with its environment variable, as serve's others.

// quotaConfig is what the flags set: the quotas and the rates of the
// quotas' token buckets.
type quotaConfig struct {
	quotas                       server.Quotas
	chatRate, reviewRate, puzzle float64 // a second; reviewRate an hour
	clubRate                     float64 // a day
	tournamentRate               float64 // a day
}

// quotaFlags defines the flags on fs and returns the call that reads
// them, once fs is parsed.
func quotaFlags(fs *flag.FlagSet) func() (quotaConfig, error) {
	d, r := server.DefaultQuotas, server.DefaultRates
	vacation := fs.Int("vacation-days", envInt("MORRIS_VACATION_DAYS", d.VacationDays), "days of vacation a player may have in any 365 days, one vacation at a time (MORRIS_VACATION_DAYS)")
	chat := fs.Float64("chat-rate", envFloat("MORRIS_CHAT_RATE", r.Chat), "chat messages a second per player and game, after a burst of 10 (MORRIS_CHAT_RATE)")
	chatAfter := fs.Duration("chat-after-end", envDuration("MORRIS_CHAT_AFTER_END", d.ChatAfterEnd), "how long after a game's end its players may still chat (MORRIS_CHAT_AFTER_END)")
	chatKept := fs.Int("chat-kept", envInt("MORRIS_CHAT_KEPT", d.ChatKept), "chat messages a game keeps, the oldest dropped past it; the full game carries the last 200 (MORRIS_CHAT_KEPT)")
	drawPlies := fs.Int("draw-offer-plies", envInt("MORRIS_DRAW_OFFER_PLIES", d.DrawOfferPlies), "a player offers a draw at most once in this many plies (MORRIS_DRAW_OFFER_PLIES)")
	takeback := fs.Duration("takeback-delay", envDuration("MORRIS_TAKEBACK_DELAY", d.TakebackDelay), "after n take-backs of a player declined in a game, the next waits n² times this (n up to 10) (MORRIS_TAKEBACK_DELAY)")
	queue := fs.Int("analysis-queue", envInt("MORRIS_ANALYSIS_QUEUE", d.AnalysisQueue), "analyses waiting or running at once; one more is refused with 503 (MORRIS_ANALYSIS_QUEUE)")
	perAddr := fs.Int("analysis-per-address", envInt("MORRIS_ANALYSIS_PER_ADDRESS", d.AnalysisPerAddress), "analyses of one address waiting or running at once; one more is refused with 429 (MORRIS_ANALYSIS_PER_ADDRESS)")
	reviewRate := fs.Float64("review-rate", envFloat("MORRIS_REVIEW_RATE", r.Review*3600), "new reviews an hour per address, after a burst of 10 (MORRIS_REVIEW_RATE)")
	reviews := fs.Int("reviews-per-address", envInt("MORRIS_REVIEWS_PER_ADDRESS", d.ReviewsQueued), "reviews of one address waiting or running at once (MORRIS_REVIEWS_PER_ADDRESS)")
	puzzle := fs.Float64("puzzle-rate", envFloat("MORRIS_PUZZLE_RATE", r.Puzzle), "puzzle moves a second per user or address, after a burst of 30 (MORRIS_PUZZLE_RATE)")
	// What a user or address holds at once (internal/server/held.go): a
	// flag's 0 lifts the quota, the service's negative (its zero is its
	// default).
	conns := fs.Int("streams-per-addr", envInt("MORRIS_STREAMS_PER_ADDR", d.ConnsPerAddr), "streams, WebSockets and pbmserv TCP connections one client address holds at once; one more is refused (429, or an error line on the pbmserv port); 0 for no limit (MORRIS_STREAMS_PER_ADDR)")
	engineGames := fs.Int("engine-games", envInt("MORRIS_ENGINE_GAMES", d.EngineGames), "games against the engine a user plays at once; one more is refused (409); 0 for no limit (MORRIS_ENGINE_GAMES)")
	engineAbandon := fs.Duration("engine-abandon", envDuration("MORRIS_ENGINE_ABANDON", d.EngineAbandon), "a game against the engine without any clock whose player leaves their turn this long is lost by abandonment; 0 for never (MORRIS_ENGINE_ABANDON)")
	openChallenges := fs.Int("open-challenges", envInt("MORRIS_OPEN_CHALLENGES", d.OpenChallenges), "open challenges and seeks a user has at once; one more is refused (409); 0 for no limit (MORRIS_OPEN_CHALLENGES)")
	challengeExpiry := fs.Duration("challenge-expiry", envDuration("MORRIS_CHALLENGE_EXPIRY", d.ChallengeExpiry), "an open challenge or seek without a real-time clock that nobody answers is cancelled after this; 0 for never (MORRIS_CHALLENGE_EXPIRY)")
	clubsLed := fs.Int("clubs-led", envInt("MORRIS_CLUBS_LED", d.ClubsLed), "clubs a user leads at once; creating or being made a leader of one more is refused (409); 0 for no limit (MORRIS_CLUBS_LED)")
	clubsJoined := fs.Int("clubs-joined", envInt("MORRIS_CLUBS_JOINED", d.ClubsJoined), "clubs a user is a member of or asks to join at once; one more is refused (409); 0 for no limit (MORRIS_CLUBS_JOINED)")
	clubRequests := fs.Int("club-requests", envInt("MORRIS_CLUB_REQUESTS", d.ClubRequests), "requests to join closed clubs a user has waiting at once; one more is refused (409); 0 for no limit (MORRIS_CLUB_REQUESTS)")
	clubRate := fs.Float64("club-rate", envFloat("MORRIS_CLUB_RATE", r.Club*86400), "clubs a user creates a day, after a burst of 5 (MORRIS_CLUB_RATE)")
	tournaments := fs.Int("tournaments", envInt("MORRIS_TOURNAMENTS", d.Tournaments), "upcoming or running tournaments a user organises at once; creating one more is refused (409); 0 for no limit (MORRIS_TOURNAMENTS)")
	tournamentsJoined := fs.Int("tournaments-joined", envInt("MORRIS_TOURNAMENTS_JOINED", d.TournamentsJoined), "upcoming or running tournaments a user plays in at once; joining one more is refused (409); 0 for no limit (MORRIS_TOURNAMENTS_JOINED)")
	tournamentRate := fs.Float64("tournament-rate", envFloat("MORRIS_TOURNAMENT_RATE", r.Tournament*86400), "tournaments a user creates a day, after a burst of 5 (MORRIS_TOURNAMENT_RATE)")
	realTimeExpiry := fs.Duration("realtime-expiry", envDuration("MORRIS_REALTIME_EXPIRY", d.RealTimeExpiry), "an open challenge or seek with a real-time clock that nobody answers is cancelled after this; 0 for never (MORRIS_REALTIME_EXPIRY)")
	return func() (quotaConfig, error) {
		for _, f := range []struct {
			name string
			ok   bool
		}{
			{"vacation-days", *vacation >= 1 && *vacation <= 366},
			{"chat-rate", *chat > 0},
			{"chat-after-end", *chatAfter >= time.Second},
			{"chat-kept", *chatKept >= server.ChatHistory},
			{"draw-offer-plies", *drawPlies >= 1},
			{"takeback-delay", *takeback >= time.Millisecond},
			{"analysis-queue", *queue >= 1},
			{"analysis-per-address", *perAddr >= 1 && *perAddr <= *queue},
			{"review-rate", *reviewRate > 0},
			{"reviews-per-address", *reviews >= 1},
			{"puzzle-rate", *puzzle > 0},
			{"streams-per-addr", *conns >= 0},
			{"engine-games", *engineGames >= 0},
			{"open-challenges", *openChallenges >= 0},
			{"engine-abandon", *engineAbandon == 0 || *engineAbandon >= time.Minute},
			{"challenge-expiry", *challengeExpiry == 0 || *challengeExpiry >= time.Minute},
			{"realtime-expiry", *realTimeExpiry == 0 || *realTimeExpiry >= time.Minute},
			{"clubs-led", *clubsLed >= 0},
			{"clubs-joined", *clubsJoined >= 0},
			{"club-requests", *clubRequests >= 0},
			{"club-rate", *clubRate > 0},
			{"tournaments", *tournaments >= 0},
			{"tournaments-joined", *tournamentsJoined >= 0},
			{"tournament-rate", *tournamentRate > 0},
		} {
			if !f.ok {
				return quotaConfig{}, fmt.Errorf("-%s %s: %s", f.name, fs.Lookup(f.name).Value, quotaWant[f.name])
			}
		}
		return quotaConfig{
			quotas: server.Quotas{VacationDays: *vacation, ChatAfterEnd: *chatAfter, ChatKept: *chatKept, DrawOfferPlies: *drawPlies,
				TakebackDelay: *takeback, AnalysisQueue: *queue, AnalysisPerAddress: *perAddr, ReviewsQueued: *reviews,
				ConnsPerAddr: noLimit(*conns), EngineGames: noLimit(*engineGames), OpenChallenges: noLimit(*openChallenges),
				EngineAbandon: never(*engineAbandon), ChallengeExpiry: never(*challengeExpiry), RealTimeExpiry: never(*realTimeExpiry),
				ClubsLed: noLimit(*clubsLed), ClubsJoined: noLimit(*clubsJoined), ClubRequests: noLimit(*clubRequests),
				Tournaments: noLimit(*tournaments), TournamentsJoined: noLimit(*tournamentsJoined)},
			chatRate: *chat, reviewRate: *reviewRate, puzzle: *puzzle, clubRate: *clubRate, tournamentRate: *tournamentRate,
		}, nil
	}
}

var quotaWant = map[string]string{
	"vacation-days":        "want 1 to 366",
	"chat-rate":            "want more than 0",
	"chat-after-end":       "want at least 1s",
	"chat-kept":            fmt.Sprintf("want at least %d, what the full game carries", server.ChatHistory),
	"draw-offer-plies":     "want 1 or more",
	"takeback-delay":       "want at least 1ms",
	"analysis-queue":       "want 1 or more",
	"analysis-per-address": "want 1 up to -analysis-queue",
	"review-rate":          "want more than 0",
	"reviews-per-address":  "want 1 or more",
	"puzzle-rate":          "want more than 0",
	"streams-per-addr":     "want 0 (no limit) or more",
	"engine-games":         "want 0 (no limit) or more",
	"open-challenges":      "want 0 (no limit) or more",
	"engine-abandon":       "want 0 (never) or at least 1m",
	"challenge-expiry":     "want 0 (never) or at least 1m",
	"realtime-expiry":      "want 0 (never) or at least 1m",
	"clubs-led":            "want 0 (no limit) or more",
	"clubs-joined":         "want 0 (no limit) or more",
	"club-requests":        "want 0 (no limit) or more",
	"club-rate":            "want more than 0",
	"tournaments":          "want 0 (no limit) or more",
	"tournaments-joined":   "want 0 (no limit) or more",
	"tournament-rate":      "want more than 0",
}

// noLimit is a count flag as the service takes it: the flag's 0 (no
// limit) is the service's negative, since the service's zero is its
// default. never is the same for a duration.
func noLimit(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

func never(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// apply sets the quotas on the service's configuration.
func (q quotaConfig) apply(cfg *server.Config) {
	cfg.Quotas = q.quotas
	if cfg.Rates == (server.Rates{}) {
		cfg.Rates = server.DefaultRates
	}
	if q.chatRate > 0 {
		cfg.Rates.Chat, cfg.Rates.ChatBurst = q.chatRate, server.DefaultRates.ChatBurst
	}
	if q.reviewRate > 0 {
		cfg.Rates.Review, cfg.Rates.ReviewBurst = q.reviewRate/3600, server.DefaultRates.ReviewBurst
	}
	if q.puzzle > 0 {
		cfg.Rates.Puzzle, cfg.Rates.PuzzleBurst = q.puzzle, server.DefaultRates.PuzzleBurst
	}
	if q.clubRate > 0 {
		cfg.Rates.Club, cfg.Rates.ClubBurst = q.clubRate/86400, server.DefaultRates.ClubBurst
	}
	if q.tournamentRate > 0 {
		cfg.Rates.Tournament, cfg.Rates.TournamentBurst = q.tournamentRate/86400, server.DefaultRates.TournamentBurst
	}
}
