package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/puzzle"
)

// cmdPuzzles makes puzzles from the endgame databases into the server's
// store (package puzzle): positions where exactly one move wins, with
// their lines against the best defence, drawn at random from the
// databases' sectors; or, with -from-games, the positions of the server's
// finished games that the databases hold where one move wins or one move
// saves the draw. Every puzzle starts at the newcomer's rating; the
// players' attempts rate it.
func cmdPuzzles(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	c, err := parsePuzzlesFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	return c.run(ctx, stdout)
}

// puzzlesConfig is what puzzles' flags say.
type puzzlesConfig struct {
	tbDir      string
	data, db   string // the server's store
	n          int
	seed       uint64
	sectors    string
	maxPlies   int
	fromGames  bool
	out        string   // write the puzzles to this file instead of a store
	sectorList [][2]int // -sectors read by validate (nil: the defaults the databases hold)
}

func parsePuzzlesFlags(args []string, stderr io.Writer) (*puzzlesConfig, error) {
	const synopsis = "-tablebases DIR [-data DIR | -db postgres://... | -o FILE] [-n N] [-seed N] [-sectors 3v3,4v3] [-max-plies N] [-from-games]"
	c := &puzzlesConfig{}
	fs := newFlags("puzzles", synopsis, stderr)
	fs.StringVar(&c.tbDir, "tablebases", "", "endgame databases (a directory made by morris solve) to draw the puzzles from (required)")
	fs.StringVar(&c.data, "data", "morris-data", "the server's data folder (its SQLite database)")
	fs.StringVar(&c.db, "db", "", "a postgres:// URL: the server's PostgreSQL database instead")
	fs.IntVar(&c.n, "n", 20, "puzzles to make")
	fs.Uint64Var(&c.seed, "seed", 1, "the seed of the positions drawn")
	fs.StringVar(&c.sectors, "sectors", "", "the sectors to draw from, white's pieces v black's, white to move (default 3v3,4v3,3v4,4v4,5v3,3v5: those the databases hold)")
	fs.IntVar(&c.maxPlies, "max-plies", puzzle.Defaults.MaxPlies, "the longest win a puzzle may have, in plies")
	fs.StringVar(&c.out, "o", "", "write the puzzles to FILE in their text form (package puzzle) instead of a store: the built-in puzzles are made so")
	fs.BoolVar(&c.fromGames, "from-games", false, "take the positions of the server's finished games (the newest first) instead of random ones")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	return c, nil
}

// validate checks the flags and reads -sectors.
func (c *puzzlesConfig) validate() error {
	switch {
	case c.tbDir == "":
		return badInput("-tablebases is required")
	case c.n < 1 || c.n > 100000:
		return badInput("-n %d: want 1..100000", c.n)
	case c.maxPlies < puzzle.Defaults.MinPlies || c.maxPlies > 200:
		return badInput("-max-plies %d: want %d..200", c.maxPlies, puzzle.Defaults.MinPlies)
	case c.out != "" && c.fromGames:
		return badInput("-o and -from-games: the games are in a store; choose one")
	}
	if c.sectors == "" {
		return nil
	}
	for _, name := range strings.Split(c.sectors, ",") {
		w, b, ok := strings.Cut(strings.TrimSpace(name), "v")
		wi, err1 := strconv.Atoi(w)
		bi, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil {
			return badInput("-sectors: %q is not like 3v3", name)
		}
		c.sectorList = append(c.sectorList, [2]int{wi, bi})
	}
	return nil
}

// options are the options of the puzzles drawn from tb: the sectors of
// -sectors, or those of the defaults that tb holds with their mirrors.
func (c *puzzlesConfig) options(tb *egdb.DB) (puzzle.Options, error) {
	o := puzzle.Defaults
	o.MaxPlies = c.maxPlies
	o.Sectors = nil
	have := map[egdb.Key]bool{}
	for _, k := range tb.Keys() {
		have[k] = true
	}
	if c.sectorList == nil {
		for _, s := range puzzle.Defaults.Sectors {
			if have[egdb.Key{White: s[0], Black: s[1]}] && have[egdb.Key{White: s[1], Black: s[0]}] {
				o.Sectors = append(o.Sectors, s)
			}
		}
	}
	for _, s := range c.sectorList {
		if !have[egdb.Key{White: s[0], Black: s[1]}] {
			return o, badInput("-sectors: %dv%d is not in %s", s[0], s[1], c.tbDir)
		}
		o.Sectors = append(o.Sectors, s)
	}
	if len(o.Sectors) == 0 {
		return o, badInput("%s holds none of the sectors puzzles are drawn from (3v3, 4v3, 3v4, ...)", c.tbDir)
	}
	return o, nil
}

// run makes the puzzles into the store.
func (c *puzzlesConfig) run(ctx context.Context, stdout io.Writer) error {
	tb, err := egdb.Open(c.tbDir)
	if err != nil {
		return usageError{fmt.Errorf("-tablebases %s: %w", c.tbDir, err)}
	}
	defer tb.Close()
	o, err := c.options(tb)
	if err != nil {
		return err
	}
	if c.out != "" {
		return c.writeFile(ctx, tb, o, stdout)
	}
	dsn := c.db
	if dsn == "" {
		dsn = filepath.Join(c.data, "morris.db")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	start := time.Now()
	if c.fromGames {
		made, err := puzzlesFromGames(ctx, st, tb, o, c.n, stdout)
		fmt.Fprintf(stdout, "%d puzzles made from the server's games in %v\n", made, time.Since(start).Round(time.Millisecond))
		return err
	}
	made, err := puzzlesFromTablebases(ctx, st, tb, o, c.n, c.seed, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d puzzles made in %v\n", made, time.Since(start).Round(time.Millisecond))
	return ctx.Err()
}

// writeFile writes n puzzles drawn at random from tb to c.out, each
// position once, in the text form (puzzle.Write).
func (c *puzzlesConfig) writeFile(ctx context.Context, tb *egdb.DB, o puzzle.Options, stdout io.Writer) error {
	start := time.Now()
	r := tb.Rules()
	rng := rand.New(rand.NewPCG(c.seed, 0x9e3779b97f4a7c15))
	seen := map[string]bool{}
	var out []puzzle.Puzzle
	for dup := 0; len(out) < c.n && ctx.Err() == nil; {
		pz, err := puzzle.Find(tb, r, rng, o)
		if err != nil {
			return fmt.Errorf("after %d puzzles: %w", len(out), err)
		}
		if k := pz.Position.String(); seen[k] {
			if dup++; dup > 10*c.n {
				return fmt.Errorf("after %d puzzles: only positions already drawn", len(out))
			}
			continue
		} else {
			seen[k] = true
		}
		out = append(out, pz)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %d puzzles of %s, made by morris puzzles -o -n %d -seed %d -max-plies %d from databases of sectors %v\n",
		len(out), r, c.n, c.seed, o.MaxPlies, o.Sectors)
	if err := puzzle.Write(&b, out); err != nil {
		return err
	}
	if err := os.WriteFile(c.out, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d puzzles written to %s in %v\n", len(out), c.out, time.Since(start).Round(time.Millisecond))
	return nil
}

// puzzlesFromTablebases stores n puzzles drawn at random from the
// databases (fewer if ctx ends), the positions stored before drawn again.
func puzzlesFromTablebases(ctx context.Context, st *store.Store, tb *egdb.DB, o puzzle.Options, n int, seed uint64, stdout io.Writer) (int, error) {
	r := tb.Rules()
	made, dup := 0, 0
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	for made < n && ctx.Err() == nil {
		pz, err := puzzle.Find(tb, r, rng, o)
		if err != nil {
			return made, fmt.Errorf("after %d puzzles: %w", made, err)
		}
		id, err := addPuzzle(ctx, st, r, pz)
		if errors.Is(err, store.ErrDuplicate) {
			if dup++; dup > 10*n {
				return made, fmt.Errorf("after %d puzzles: only positions already stored", made)
			}
			continue
		}
		if err != nil {
			return made, err
		}
		made++
		fmt.Fprintf(stdout, "puzzle %d: %s (win in %d): %s\n", id, pz.Position, pz.Plies, strings.Join(pz.Texts(), " "))
	}
	return made, nil
}

func addPuzzle(ctx context.Context, st *store.Store, r *mill.Rules, pz puzzle.Puzzle) (int64, error) {
	return addPuzzleFrom(ctx, st, r, pz, "tablebase")
}

func addPuzzleFrom(ctx context.Context, st *store.Store, r *mill.Rules, pz puzzle.Puzzle, source string) (int64, error) {
	return st.AddPuzzle(ctx, store.Puzzle{Rules: r.String(), Position: pz.Position.String(), Solution: pz.Texts(), Plies: pz.Plies,
		Goal: pz.Goal, Source: source, CreatedAt: time.Now()})
}

// puzzlesFromGames goes through the server's finished games, newest first,
// and stores the puzzles of their positions that the databases hold, up to
// n; positions stored before are skipped.
func puzzlesFromGames(ctx context.Context, st *store.Store, tb *egdb.DB, o puzzle.Options, n int, stdout io.Writer) (int, error) {
	made := 0
	before := int64(0)
	for made < n {
		games, err := st.Games(ctx, store.GameQuery{Status: store.Finished, Before: before, Limit: 100})
		if err != nil {
			return made, err
		}
		if len(games) == 0 {
			return made, nil
		}
		for _, g := range games {
			before = g.ID
			r, err := mill.ParseRules(g.Rules)
			if err != nil || !tb.Covers(r) {
				continue
			}
			snap, err := st.Snapshot(ctx, g.ID)
			if err != nil {
				return made, err
			}
			game, err := server.Replay(snap.Game, snap.Moves)
			if err != nil {
				continue
			}
			for _, pz := range puzzle.Of(tb, game, o) {
				id, err := addPuzzleFrom(ctx, st, r, pz, "game "+strconv.FormatInt(g.ID, 10))
				if errors.Is(err, store.ErrDuplicate) {
					continue
				}
				if err != nil {
					return made, err
				}
				made++
				fmt.Fprintf(stdout, "puzzle %d from game %d: %s (%s): %s\n", id, g.ID, pz.Position, pz.Goal, strings.Join(pz.Texts(), " "))
				if made == n {
					return made, nil
				}
			}
		}
	}
	return made, nil
}
