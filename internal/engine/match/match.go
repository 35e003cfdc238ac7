package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// Opening is where the games of a pair start: the start of the rules (with
// the seed of the lot, for rules that draw the first player) or a set-up
// position, then moves. The moves belong to the game and to its record.
type Opening struct {
	Start *mill.Position // a set-up start, or nil for the rules' start
	Seed  uint64         // the seed of the lot (rules with first=lot)
	Moves []mill.Move
}

// Game returns a new game at the end of the opening.
func (o Opening) Game(r *mill.Rules) *mill.Game {
	var g *mill.Game
	if o.Start != nil {
		g = mill.NewGame(o.Start.Rules(), mill.FromPosition(*o.Start))
	} else {
		g = mill.NewGame(r, mill.WithSeed(o.Seed))
	}
	for _, m := range o.Moves {
		if err := g.Play(m); err != nil {
			panic("match: an opening with an illegal move: " + err.Error())
		}
	}
	return g
}

// Text returns the opening as a line that ReadOpenings reads back: the start
// position text if it has one, then the moves.
func (o Opening) Text(r *mill.Rules) string {
	var f []string
	if o.Start != nil {
		f = append(f, o.Start.String())
	}
	f = append(f, o.Game(r).MoveTexts(mill.Standard)...)
	return strings.Join(f, " ")
}

// RandomOpenings returns n distinct openings of plies random moves each from
// the start of r (fewer plies if the game would end). With rules that draw
// the first player by lot, each opening draws its own seed.
func RandomOpenings(r *mill.Rules, n, plies int, rng *rand.Rand) []Opening {
	out, _, _ := RandomOpeningsWhere(r, n, plies, rng, nil)
	return out
}

// RandomOpeningsWhere is RandomOpenings keeping only the openings whose last
// position keep accepts (all of them if keep is nil): for example those that
// endgame databases call drawn, so that no game of a match is decided by its
// opening. The openings kept are those RandomOpenings draws from the same
// rng, less the ones keep refuses, followed by more drawn the same way. It
// returns how many were refused, and an error if fewer than n were kept
// after 1,000 tries an opening.
func RandomOpeningsWhere(r *mill.Rules, n, plies int, rng *rand.Rand, keep func(mill.Position) bool) (_ []Opening, refused int, _ error) {
	var out []Opening
	seen, bad := map[string]bool{}, map[string]bool{} // kept, refused
	for tries := 0; len(out) < n; tries++ {
		if tries >= 1000*max(n, 1) {
			return out, refused, fmt.Errorf("match: %d of %d openings of %d plies kept after %d tries (%d refused)", len(out), n, plies, tries, refused)
		}
		o := Opening{Seed: rng.Uint64()}
		g := o.Game(r)
		for i := 0; i < plies; i++ {
			moves := g.LegalMoves()
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			next := g.Position().Play(m)
			if end, _ := next.Status(); end != mill.NoOutcome {
				break
			}
			_ = g.Play(m)
			o.Moves = append(o.Moves, m)
		}
		key := g.Position().String()
		if bad[key] {
			continue
		}
		if seen[key] && tries < 20*n {
			continue // the same opening again: draw another while new ones come
		}
		if keep != nil && !keep(g.Position()) {
			refused++
			bad[key] = true
			continue
		}
		seen[key] = true
		out = append(out, o)
	}
	return out, refused, nil
}

// ReadOpenings reads openings, one a line: moves from the start of r
// ("d6 d5 b4", either notation), or a position text of r's rules followed by
// moves. Blank lines and lines starting with # are skipped. seed draws the
// lot of each opening from the start, for rules that have one.
func ReadOpenings(r *mill.Rules, in io.Reader, seed uint64) ([]Opening, error) {
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	var out []Opening
	sc := bufio.NewScanner(in)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		o := Opening{Seed: rng.Uint64()}
		var g *mill.Game
		if len(f) >= 7 {
			if p, err := mill.ParsePosition(strings.Join(f[:7], " ")); err == nil {
				if p.Rules() != r {
					return nil, fmt.Errorf("line %d: the position is played under %s, the match under %s", line, p.Rules(), r)
				}
				o.Start = &p
				f = f[7:]
			}
		}
		g = o.Game(r)
		if len(f) > 0 && f[0] == "moves" {
			f = f[1:]
		}
		for _, t := range f {
			p := g.Position()
			m, err := p.ParseMove(t)
			if err == nil {
				err = g.Play(m)
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: move %s: %w", line, t, err)
			}
			o.Moves = append(o.Moves, m)
		}
		if g.Outcome() != mill.NoOutcome {
			return nil, fmt.Errorf("line %d: the game is already over (%s by %s)", line, g.Outcome(), g.Method())
		}
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no openings")
	}
	return out, nil
}

// Config describes a match.
type Config struct {
	Rules    *mill.Rules
	A, B     Spec
	Openings []Opening // the pairs cycle through them
	Pairs    int       // pairs of games: each opening with A as white, then as black
	// Concurrency is how many games are played at once (default 1). Each
	// slot has its own players.
	Concurrency int
	// MaxPlies ends a game that is not over after this many plies (the
	// opening's included) as a draw: an adjudication (default 1000).
	MaxPlies int
	// Seed makes the players' random choices repeatable.
	Seed uint64
	// Progress, if not nil, is called after each game, in the order of the
	// games, with the game and the tally so far.
	Progress func(g *Game, t Tally)
	// Adjudicate, if not nil, is asked before each move whether the
	// position's result is known (the endgame
	// databases); when it is, the game ends with that result.
	Adjudicate Adjudicator
	// SPRT, if not nil, is given each pair of games as the pair's second
	// game is counted (before Progress sees it), and a lone game when the
	// match is cut between the two of a pair. When it reaches a verdict the
	// match ends: no more games start, those being played are abandoned
	// and not counted, and Run returns the games so far without an error.
	SPRT *SPRT
	// Played are the games already played, 0 to len(Played)-1, by an
	// earlier run of the same match that stopped (Resume rebuilds them from
	// its records). They are counted (and given to SPRT) as if just
	// played, but not given to Progress, and the match goes on from the
	// next game.
	Played []*Game
}

// Game is one game of a match.
type Game struct {
	Index   int // from 0; games 2i and 2i+1 are a pair
	Opening int // the index of its opening
	// OpeningPlies is how many of the game's moves are the opening's.
	OpeningPlies int
	AWhite       bool
	Game         *mill.Game
	Names        [2]string // white's, black's
	// Fault says how a player lost by failing: an illegal move, a crash, a
	// time-out; "" if none did.
	Fault string
	// Claim says how a player claimed the game drawn where our rules play
	// on (an external engine that answered no move), in which case the game
	// is a draw by agreement; "" if none did.
	Claim string
	// Dispute says where the players' rules parted (Spec.Disputes), in
	// which case the game is a draw by agreement at that move; "" if they
	// did not.
	Dispute string
	// Adjudicated is set when the ply limit drew the game.
	Adjudicated bool
	// Verdict is what Config.Adjudicate said of the position that ended
	// the game ("" when it did not end it).
	Verdict string
}

// An Adjudicator says whether the result of a game in position p is known:
// the outcome and why, in a few words for the record; ok false to play on.
type Adjudicator func(p mill.Position) (o mill.Outcome, why string, ok bool)

// ScoreA returns A's score in the game: 1, 0.5 or 0.
func (g *Game) ScoreA() float64 {
	switch g.Game.Outcome() {
	case mill.Draw, mill.NoOutcome:
		return 0.5
	case mill.WhiteWon:
		if g.AWhite {
			return 1
		}
	case mill.BlackWon:
		if !g.AWhite {
			return 1
		}
	}
	return 0
}

// Record returns the game's record, with event as its Event tag and
// "pair.game" (from 1) as its Round. The record's comment names the opening
// and says how a player failed or that the game was adjudicated.
func (g *Game) Record(event string) *record.Record {
	rec := record.FromGame(g.Game,
		record.Tag{Name: "Event", Value: event},
		record.Tag{Name: "Date", Value: time.Now().Format("2006.01.02")},
		record.Tag{Name: "Round", Value: strconv.Itoa(g.Index/2+1) + "." + strconv.Itoa(g.Index%2+1)},
		record.Tag{Name: "White", Value: g.Names[0]},
		record.Tag{Name: "Black", Value: g.Names[1]})
	rec.Comment = fmt.Sprintf("opening %d: the first %d plies", g.Opening+1, g.OpeningPlies)
	switch {
	case g.Fault != "":
		rec.Comment += "; " + g.Fault
	case g.Claim != "":
		rec.Comment += "; " + claimPrefix + g.Claim
	case g.Dispute != "":
		rec.Comment += "; " + disputePrefix + g.Dispute
	case g.Adjudicated:
		rec.Comment += "; adjudicated a draw at the ply limit"
	case g.Verdict != "":
		rec.Comment += "; adjudicated: " + g.Verdict
	}
	return rec
}

// claimPrefix begins the part of a record's comment that says the game is a
// claimed draw; Resume reads it back.
const claimPrefix = "claimed draw: "

// disputePrefix begins the part of a record's comment that says the game
// ended where the players' rules part; Resume reads it back.
const disputePrefix = "disputed: "

// Result is the outcome of a match.
type Result struct {
	Games []*Game
	Tally Tally
	// Stopped is set when Config.SPRT ended the match before its last game.
	Stopped bool
}

// Run plays the match. It stops early when ctx is cancelled, with the games
// finished so far and ctx's error, and when cfg.SPRT reaches a verdict, with
// the games so far and no error. A player that cannot be made is an error;
// a player that fails in a game loses that game.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 1
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 1000
	}
	if len(cfg.Openings) == 0 {
		cfg.Openings = []Opening{{}}
	}
	for _, s := range []Spec{cfg.A, cfg.B} {
		if s.Check != nil {
			if err := s.Check(cfg.Rules); err != nil {
				return Result{}, err
			}
		}
	}
	games := 2 * cfg.Pairs
	if len(cfg.Played) > games {
		return Result{}, fmt.Errorf("match: %d games played, but the match has %d", len(cfg.Played), games)
	}
	var res Result
	finished := make([]*Game, games)
	next := 0
	// count takes game next, finished, into the result (and the test), and
	// says whether the test's verdict ends the match before its last game.
	count := func() bool {
		g := finished[next]
		next++
		res.Games = append(res.Games, g)
		res.Tally.Add(g)
		if cfg.SPRT == nil {
			return false
		}
		if g.Index%2 == 1 {
			if err := cfg.SPRT.AddPair(finished[g.Index-1].ScoreA() + g.ScoreA()); err != nil {
				panic(err) // ScoreA gives only 0, ½ and 1
			}
		}
		return cfg.SPRT.Verdict() != Continue && next < games
	}
	for i, g := range cfg.Played {
		if g.Index != i {
			return Result{}, fmt.Errorf("match: played game %d has the index %d", i, g.Index)
		}
		finished[i] = g
		if count() {
			res.Stopped = true
			return res, nil
		}
	}
	if next == games {
		return res, nil
	}
	slots := min(cfg.Concurrency, games-next)

	type slot struct{ a, b Player }
	var ss []slot
	closeAll := func() {
		for _, s := range ss {
			s.a.Close()
			s.b.Close()
		}
	}
	for range slots {
		a, err := cfg.A.New()
		if err != nil {
			closeAll()
			return Result{}, fmt.Errorf("player A (%s): %w", cfg.A.Name, err)
		}
		b, err := cfg.B.New()
		if err != nil {
			a.Close()
			closeAll()
			return Result{}, fmt.Errorf("player B (%s): %w", cfg.B.Name, err)
		}
		ss = append(ss, slot{a, b})
	}
	defer closeAll()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	done := make(chan *Game)
	var wg sync.WaitGroup
	for _, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				g, err := playGame(ctx, cfg, i, s.a, s.b)
				if err != nil {
					return // cancelled
				}
				done <- g
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := len(cfg.Played); i < games; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(done)
	}()

	for g := range done {
		// After a verdict the loop only drains the games being abandoned,
		// so that every worker can finish.
		if res.Stopped {
			continue
		}
		finished[g.Index] = g
		for next < games && finished[next] != nil && !res.Stopped {
			stop := count()
			if cfg.Progress != nil {
				cfg.Progress(finished[next-1], res.Tally)
			}
			if stop {
				res.Stopped = true
				cancel()
			}
		}
	}
	if res.Stopped {
		return res, nil
	}
	if err := ctx.Err(); err != nil && next < games {
		if cfg.SPRT != nil && next%2 == 1 {
			if err := cfg.SPRT.AddGame(finished[next-1].ScoreA()); err != nil {
				panic(err)
			}
		}
		return res, err
	}
	return res, nil
}

// Add counts game g.
func (t *Tally) Add(g *Game) {
	switch g.ScoreA() {
	case 1:
		t.Wins++
	case 0:
		t.Losses++
	default:
		t.Draws++
	}
	if g.Claim != "" {
		t.Claimed++
	}
	if g.Dispute != "" {
		t.Disputed++
	}
	if g.Adjudicated {
		t.Adjudicated++
	}
	if g.Verdict != "" {
		t.Verdicts++
	}
	if g.Fault != "" {
		// The side that failed is the side that lost.
		if g.ScoreA() == 0 {
			t.Faults[0]++
		} else {
			t.Faults[1]++
		}
	}
}

// playGame plays game i of the match between a and b. It fails only when ctx
// is cancelled.
func playGame(ctx context.Context, cfg Config, i int, a, b Player) (*Game, error) {
	oi := (i / 2) % len(cfg.Openings)
	o := cfg.Openings[oi]
	g := &Game{Index: i, Opening: oi, OpeningPlies: len(o.Moves), AWhite: i%2 == 0, Game: o.Game(cfg.Rules)}
	players := [2]Player{a, b}
	if !g.AWhite {
		players = [2]Player{b, a}
	}
	g.Names = [2]string{players[0].Name(), players[1].Name()}
	mg := g.Game
	var disputers []Disputer
	for _, d := range []Disputer{cfg.A.Disputes, cfg.B.Disputes} {
		if d != nil {
			disputers = append(disputers, d)
		}
	}
	// disputed says why m, from the side to move, is where the rules
	// part, or "".
	disputed := func(m mill.Move) string {
		for _, d := range disputers {
			if why := d(mg, m); why != "" {
				return why
			}
		}
		return ""
	}
	dispute := func(c mill.Color, why string) {
		g.Dispute = fmt.Sprintf("at ply %d, with %s (%s) to move: %s", mg.Position().Ply()+1, c, players[c].Name(), why)
		_ = mg.End(mill.Draw, mill.Agreement)
	}
	forfeit := func(c mill.Color, format string, args ...any) {
		g.Fault = fmt.Sprintf("%s (%s) ", c, players[c].Name()) + fmt.Sprintf(format, args...)
		_ = mg.End(mill.Won(c.Other()), mill.Abandonment)
	}
	for c, p := range players {
		seed := cfg.Seed*1_000_003 + uint64(2*i+c)
		if err := p.NewGame(ctx, mg.Rules(), seed); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			forfeit(mill.Color(c), "could not start the game: %v", err)
			return g, nil
		}
	}
	for mg.Outcome() == mill.NoOutcome {
		if mg.Position().Ply()-mg.Start().Ply() >= cfg.MaxPlies {
			_ = mg.End(mill.Draw, mill.NoMethod)
			g.Adjudicated = true
			break
		}
		if cfg.Adjudicate != nil {
			if o, why, ok := cfg.Adjudicate(mg.Position()); ok && o != mill.NoOutcome {
				_ = mg.End(o, mill.NoMethod)
				g.Verdict = why
				break
			}
		}
		c := mg.Position().SideToMove()
		m, err := players[c].Move(ctx, mg)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ie *IllegalMoveError
		var claim *DrawClaimError
		switch {
		case errors.As(err, &claim):
			// Asked here, the position is live by our rules (the loop
			// ends at any end of ours): the engine's rules call it over.
			p := mg.Position()
			g.Claim = fmt.Sprintf("%s (%s) answered no move at ply %d, %d plies after the last placement or capture, where our rules play on",
				c, players[c].Name(), p.Ply()+1, p.Quiet())
			_ = mg.End(mill.Draw, mill.Agreement)
		case errors.As(err, &ie):
			// A player that answers another position than ours: if a
			// legal move here is where the rules part, the player most
			// likely read it by its own rules.
			why := ""
			for _, lm := range mg.Position().Moves(nil) {
				if why = disputed(lm); why != "" {
					break
				}
			}
			if why != "" {
				dispute(c, fmt.Sprintf("answered %s, illegal here, where the rules part (%s)", ie.Move, why))
			} else {
				forfeit(c, "played an illegal move at ply %d: %v", mg.Position().Ply()+1, err)
			}
		case err != nil:
			forfeit(c, "failed at ply %d: %v", mg.Position().Ply()+1, err)
		}
		if err != nil {
			break
		}
		if len(disputers) > 0 && mg.Position().Legal(m) {
			if why := disputed(m); why != "" {
				dispute(c, why)
				break
			}
		}
		if err := mg.Play(m); err != nil {
			forfeit(c, "played an illegal move at ply %d: %v", mg.Position().Ply()+1, err)
			break
		}
	}
	return g, nil
}
