package match

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// Conversion is the measure of whether a player wins the positions it has
// won: from positions the databases call won for the side to move, the
// player plays the win against the perfect defence (the slowest loss), and
// the game counts as converted when it ends won before the no-progress
// rule draws it. With values alone (a compact file) an engine knows which
// moves keep the win but not which bring it nearer; this is how much that
// costs it (issue 48, item 3).

// WonPositions returns the positions of the games of the records in r that
// db calls won for their side to move, by the phase of the side to move,
// each position once (by its position text without the counters), in the
// order met. The plies of a match's random opening are left out. Each
// position comes with its counters of plies without progress set to 0 and
// no history before it, so that a win by the databases is a win by the
// rules whenever its line is shorter than the rule's limit.
func WonPositions(r io.Reader, db Truth) (map[Phase][]mill.Position, error) {
	if err := checked(db); err != nil {
		return nil, err
	}
	out := map[Phase][]mill.Position{}
	seen := map[string]bool{}
	sc := record.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		rec := sc.Record()
		g, err := rec.Game()
		if err != nil {
			return nil, fmt.Errorf("game %d (line %d): %w", n, rec.Line, err)
		}
		if !db.Covers(g.Rules()) {
			return nil, fmt.Errorf("game %d (line %d): played under %s, the databases are of %s", n, rec.Line, g.Rules(), db.Rules())
		}
		skip := openingPlies(rec.Comment)
		for i, p := range g.Positions() {
			if i < skip {
				continue
			}
			if st, _ := p.Status(); st != mill.NoOutcome {
				continue
			}
			if v, ok := db.Value(p); !ok || v.Result != egdb.Win {
				continue
			}
			q, err := withoutCounters(p)
			if err != nil {
				return nil, fmt.Errorf("game %d (line %d), ply %d: %w", n, rec.Line, i, err)
			}
			key := q.String()
			if seen[key] {
				continue
			}
			seen[key] = true
			ph := phaseOf(q)
			out[ph] = append(out[ph], q)
		}
	}
	return out, sc.Err()
}

// withoutCounters is p with no plies without progress (the plies played
// kept: they decide nothing in the moving phase but the side that moved
// first).
func withoutCounters(p mill.Position) (mill.Position, error) {
	f := strings.Fields(p.String())
	if len(f) != 7 {
		return p, fmt.Errorf("position %q: want 7 fields", p)
	}
	f[5] = "0"
	return mill.ParsePosition(strings.Join(f, " "))
}

// A ConvertGame is a game of Convert.
type ConvertGame struct {
	Index int
	Start mill.Position
	Game  *mill.Game
	// Fault says how a player lost by failing (an illegal move, a crash);
	// "" if none did.
	Fault string
}

// Converted reports whether the side to move at the start won.
func (g ConvertGame) Converted() bool {
	return g.Fault == "" && g.Game.Outcome() == mill.Won(g.Start.SideToMove())
}

// ConvertConfig describes the games of Convert.
type ConvertConfig struct {
	// Winner plays the side to move of each position, Defence the other
	// (perfect:DIR for the slowest loss).
	Winner, Defence Spec
	Positions       []mill.Position
	// Concurrency is how many games are played at once (default 1), each
	// slot with its own players.
	Concurrency int
	// MaxPlies draws a game that is not over after this many plies
	// (default 1000); the no-progress rule ends them well before.
	MaxPlies int
	Seed     uint64
	// Progress, if not nil, is called after each game, in the order of
	// the games.
	Progress func(g ConvertGame)
}

// Convert plays one game from each position of cfg, Winner on the side to
// move. It stops between games when ctx ends, with the games so far (in
// the order of the positions, the first ones all played) and ctx's error.
func Convert(ctx context.Context, cfg ConvertConfig) ([]ConvertGame, error) {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 1
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 1000
	}
	type slot struct{ w, d Player }
	var slots []slot
	defer func() {
		for _, s := range slots {
			s.w.Close()
			s.d.Close()
		}
	}()
	for range min(cfg.Concurrency, len(cfg.Positions)) {
		w, err := cfg.Winner.New()
		if err != nil {
			return nil, err
		}
		d, err := cfg.Defence.New()
		if err != nil {
			w.Close()
			return nil, err
		}
		slots = append(slots, slot{w, d})
	}
	play, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for i := range cfg.Positions {
			select {
			case jobs <- i:
			case <-play.Done():
				return
			}
		}
	}()
	type result struct {
		i   int
		g   *ConvertGame
		err error
	}
	results := make(chan result)
	var wg sync.WaitGroup
	for _, s := range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				g, err := convertGame(play, cfg, i, s.w, s.d)
				results <- result{i, g, err}
				if err != nil {
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	games := make([]*ConvertGame, len(cfg.Positions))
	var out []ConvertGame
	var first error
	for res := range results {
		if res.err != nil {
			if first == nil {
				first = res.err
			}
			cancel()
			continue
		}
		games[res.i] = res.g
		for len(out) < len(games) && games[len(out)] != nil {
			out = append(out, *games[len(out)])
			if cfg.Progress != nil {
				cfg.Progress(out[len(out)-1])
			}
		}
	}
	if ctx.Err() != nil {
		first = ctx.Err()
	}
	return out, first
}

// convertGame plays the game of position i.
func convertGame(ctx context.Context, cfg ConvertConfig, i int, w, d Player) (*ConvertGame, error) {
	start := cfg.Positions[i]
	r := start.Rules()
	seed := cfg.Seed + uint64(i)
	for _, p := range []Player{w, d} {
		if err := p.NewGame(ctx, r, seed); err != nil {
			return nil, err
		}
	}
	g := mill.NewGame(r, mill.FromPosition(start))
	out := &ConvertGame{Index: i, Start: start, Game: g}
	winner := start.SideToMove()
	for g.Outcome() == mill.NoOutcome && len(g.Moves()) < cfg.MaxPlies {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := d
		if g.Position().SideToMove() == winner {
			p = w
		}
		m, err := p.Move(ctx, g)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			out.Fault = fmt.Sprintf("%s: %v", p.Name(), err)
			break
		}
	}
	return out, nil
}
