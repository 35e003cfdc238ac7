package uci

import (
	"context"
	"errors"
	"fmt"
	"github.com/morrisgame/morris/book"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// handle answers one command line. It reports whether the command was quit.
func (s *session) handle(l line) (quit bool) {
	if l.tooLong {
		s.out.errorf("a line longer than %d bytes: skipped", maxLine)
		return false
	}
	args := strings.Fields(l.text)
	if len(args) == 0 {
		return false
	}
	var err error
	switch cmd, args := args[0], args[1:]; cmd {
	case "uci":
		s.uci()
	case "isready":
		// Every earlier command is done: they are answered in order, and
		// a search runs on by design.
		s.out.line("readyok")
	case "setoption":
		err = s.setoption(args)
	case "ucinewgame":
		err = s.ucinewgame(args)
	case "position":
		err = s.position(args)
	case "go":
		err = s.goCommand(args)
	case "stop":
		s.stop()
	case "quit":
		return true
	default:
		err = fmt.Errorf("unknown command %q", clip(cmd))
	}
	if err != nil {
		s.out.errorf("%v", err)
	}
	return false
}

// clip shortens user input quoted in a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

var errBusy = errors.New("a search is running: send stop first")

func (s *session) uci() {
	s.out.line("id name Morris")
	s.out.line("id author the Morris authors")
	var vars strings.Builder
	for _, v := range mill.Variants() {
		vars.WriteString(" var " + v.ID)
	}
	s.out.printf("option name Variant type combo default %s%s", s.cfg.variant, vars.String())
	s.out.line("option name Rules type string default <empty>")
	s.out.printf("option name Level type spin default %d min 1 max %d", s.cfg.level, MaxLevel)
	s.out.printf("option name Threads type spin default %d min 1 max %d", s.cfg.threads, MaxThreads)
	s.out.printf("option name Hash type spin default %d min 1 max %d", s.cfg.hashMB, MaxHash)
	s.out.line("option name Tablebases type string default <empty>")
	s.out.line("option name OwnBook type check default true")
	s.out.line("uciok")
}

// setoption: setoption name NAME [value VALUE]; names are case-insensitive.
func (s *session) setoption(args []string) error {
	if len(args) < 2 || args[0] != "name" {
		return errors.New(`setoption: want "setoption name NAME value VALUE"`)
	}
	nameEnd := len(args)
	for i := 1; i < len(args); i++ {
		if args[i] == "value" {
			nameEnd = i
			break
		}
	}
	name := strings.Join(args[1:nameEnd], " ")
	value := ""
	if nameEnd < len(args) {
		value = strings.Join(args[nameEnd+1:], " ")
	}
	if value == "<empty>" {
		value = ""
	}
	if !s.idle() {
		return errBusy
	}
	spin := func(lo, hi int) (int, error) {
		n, err := strconv.Atoi(value)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("setoption %s: value %q: want %d..%d", name, clip(value), lo, hi)
		}
		return n, nil
	}
	switch strings.ToLower(name) {
	case "variant":
		r, err := compileRules(value, s.rules)
		if err != nil {
			return fmt.Errorf("setoption Variant: %w", err)
		}
		s.variant, s.compiled = value, r
	case "rules":
		r, err := compileRules(s.variant, value)
		if err != nil {
			return fmt.Errorf("setoption Rules: %w", err)
		}
		s.rules, s.compiled = value, r
	case "level":
		n, err := spin(1, MaxLevel)
		if err != nil {
			return err
		}
		s.level = n
	case "threads":
		n, err := spin(1, MaxThreads)
		if err != nil {
			return err
		}
		if n != s.threads {
			s.threads, s.engine = n, nil
		}
	case "hash":
		n, err := spin(1, MaxHash)
		if err != nil {
			return err
		}
		if n != s.hashMB {
			s.hashMB, s.engine = n, nil
		}
	case "tablebases":
		if value == s.tbDir {
			return nil
		}
		var tb search.Tablebase
		switch {
		case s.cfg.openTB != nil:
			// "" opens what the program has without being told (the
			// built-in databases of cmd/morris).
			t, err := s.cfg.openTB(value)
			if err != nil {
				return fmt.Errorf("setoption Tablebases: %w", err)
			}
			tb = t
		case value != "":
			return errors.New("setoption Tablebases: this engine was built without endgame databases")
		}
		s.closeTablebase()
		s.tbDir, s.tb, s.engine = value, tb, nil
	case "ownbook":
		var on bool
		switch strings.ToLower(value) {
		case "true":
			on = true
		case "false":
		default:
			return fmt.Errorf("setoption OwnBook: value %q: want true or false", clip(value))
		}
		if on == s.noBook {
			s.noBook, s.engine = !on, nil
		}
	default:
		return fmt.Errorf("setoption: unknown option %q (Variant, Rules, Level, Threads, Hash, Tablebases, OwnBook)", clip(name))
	}
	return nil
}

func (s *session) ucinewgame(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("ucinewgame: unexpected %q", clip(args[0]))
	}
	if !s.idle() {
		return errBusy
	}
	if s.engine != nil {
		s.engine.Clear()
	}
	s.games++
	s.newGame()
	return nil
}

// position: position startpos [seed N] [moves ...] | position TEXT [moves ...].
// The game is built aside and replaces the current one only when every part
// is good.
func (s *session) position(args []string) error {
	if len(args) == 0 {
		return errors.New("position: want startpos or a position text")
	}
	var g *mill.Game
	seed, seeded := uint64(0), false
	rest := args[1:]
	if args[0] == "startpos" {
		if len(rest) > 0 && rest[0] == "seed" {
			if len(rest) < 2 {
				return errors.New("position: seed wants a number")
			}
			n, err := strconv.ParseUint(rest[1], 10, 64)
			if err != nil {
				return fmt.Errorf("position: seed %q: want a number below 2^64", clip(rest[1]))
			}
			seed, seeded, rest = n, true, rest[2:]
		}
		if !seeded {
			seed = s.defaultSeed()
		}
		g = mill.NewGame(s.compiled, mill.WithSeed(seed))
	} else {
		if len(args) < 7 {
			return fmt.Errorf("position: want startpos or a position text of 7 fields (rules board side hands state quiet ply), have %d field(s)", len(args))
		}
		p, err := mill.ParsePosition(strings.Join(args[:7], " "))
		if err != nil {
			return fmt.Errorf("position: %w", err)
		}
		g = mill.NewGame(p.Rules(), mill.FromPosition(p))
		seed, rest = s.defaultSeed(), args[7:]
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return fmt.Errorf("position: want moves after the position, have %q", clip(rest[0]))
		}
		for i, m := range rest[1:] {
			if err := g.PlayText(m); err != nil {
				return fmt.Errorf("position: move %d (%s): %w", i+1, clip(m), err)
			}
		}
	}
	s.game, s.gameSeed = g, seed
	if lot, ok := g.Seed(); ok && !seeded && !s.announced {
		// The tool gave no seed: say who drew the first move, once a game.
		s.out.printf("info string the lot (seed %d): %s moves first", lot, g.Start().SideToMove())
		s.announced = true
	}
	return nil
}

// defaultSeed is the seed of the current game when a position gives none.
func (s *session) defaultSeed() uint64 { return mix(s.cfg.seed + s.games) }

// The limits of numbers in go.
const (
	maxMillis = 1_000_000_000 // about 11 days
	maxPerft  = 20
)

// goCommand parses go and starts a search or a perft.
func (s *session) goCommand(args []string) error {
	var lim search.Limits
	perft := 0
	num := func(i int, what string, lo, hi int64) (int64, error) {
		if i+1 >= len(args) {
			return 0, fmt.Errorf("go: %s wants a number", what)
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("go: %s %q: want %d..%d", what, clip(args[i+1]), lo, hi)
		}
		return n, nil
	}
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	for i := 0; i < len(args); i++ {
		var n int64
		var err error
		switch a := args[i]; a {
		case "infinite":
			lim.Infinite = true
			continue
		case "depth":
			n, err = num(i, a, 1, search.MaxPly)
			lim.Depth = int(n)
		case "nodes":
			n, err = num(i, a, 1, 1<<62)
			lim.Nodes = uint64(n)
		case "movetime":
			n, err = num(i, a, 1, maxMillis)
			lim.MoveTime = ms(n)
		case "wtime", "btime":
			// A clock can run below zero on the tool's side: think as
			// little as can be.
			n, err = num(i, a, -maxMillis, maxMillis)
			lim.Time[colorOf(a)] = ms(max(n, 1))
		case "winc", "binc":
			n, err = num(i, a, -maxMillis, maxMillis)
			lim.Inc[colorOf(a)] = ms(max(n, 0))
		case "movestogo":
			n, err = num(i, a, 0, 10000)
			lim.MovesToGo = int(n)
		case "perft":
			if i != 0 || len(args) != 2 {
				return errors.New("go: want go perft N alone")
			}
			n, err = num(i, a, 1, maxPerft)
			perft = int(n)
		case "ponder", "searchmoves", "mate":
			return fmt.Errorf("go: %s is not supported", a)
		default:
			return fmt.Errorf("go: unknown parameter %q", clip(a))
		}
		if err != nil {
			return err
		}
		i++
	}
	if !s.idle() {
		return errBusy
	}
	if perft > 0 {
		s.startPerft(perft)
		return nil
	}
	if o := s.game.Outcome(); o != mill.NoOutcome {
		s.out.errorf("the game is over: %s by %s", o, s.game.Method())
		s.out.line("bestmove (none)")
		return nil
	}
	s.startSearch(lim)
	return nil
}

func colorOf(param string) mill.Color {
	if param[0] == 'b' {
		return mill.Black
	}
	return mill.White
}

func (s *session) searchEngine() *search.Engine {
	if s.engine == nil {
		o := search.Options{HashMB: s.hashMB, Threads: s.threads, Tablebase: s.tb}
		if !s.noBook {
			o.Book = book.Default()
		}
		s.engine = search.New(o)
	}
	return s.engine
}

// startSearch starts the search of the current position in its own
// goroutine, which reports the iterations and ends with bestmove.
func (s *session) startSearch(lim search.Limits) {
	history := s.game.Positions()
	root := history[len(history)-1]
	lv := search.LevelFor(s.level)
	// The engine's choices depend on the game's seed and the position
	// only: the same question gets the same answer.
	rng := rand.New(rand.NewPCG(s.gameSeed, root.Key()))
	e := s.searchEngine()
	tb := s.tb != nil
	out := s.out
	ctx, j := s.newJob(lim.Infinite)
	go func() {
		defer close(j.done)
		report := func(in search.Info) { out.line(infoLine(root, in, tb)) }
		var res search.Result
		if lim.Infinite {
			// Analysis: the whole strength, and nothing after stop
			// (a level's choice searches again once stopped).
			res = e.Search(ctx, history, lim, report)
		} else {
			res = e.Choose(ctx, history, lv, lim, rng, report)
		}
		move := "(none)"
		if !res.Move.IsZero() {
			move = root.MoveText(res.Move)
		}
		j.answered.Store(true)
		out.line("bestmove " + move)
	}()
}

// infoLine formats a finished iteration:
// info depth D seldepth S score cp X nodes N nps N time MS [tbhits N] pv ...
func infoLine(root mill.Position, in search.Info, tb bool) string {
	b := make([]byte, 0, 128)
	b = append(b, "info depth "...)
	b = strconv.AppendInt(b, int64(in.Depth), 10)
	b = append(b, " seldepth "...)
	b = strconv.AppendInt(b, int64(in.SelDepth), 10)
	b = append(b, " score "...)
	b = append(b, search.ScoreTextAlong(root, in.PV, in.Score)...)
	b = append(b, " nodes "...)
	b = strconv.AppendUint(b, in.Nodes, 10)
	nps := uint64(0)
	if in.Time > 0 {
		nps = uint64(float64(in.Nodes) / in.Time.Seconds())
	}
	b = append(b, " nps "...)
	b = strconv.AppendUint(b, nps, 10)
	b = append(b, " time "...)
	b = strconv.AppendInt(b, in.Time.Milliseconds(), 10)
	if tb {
		b = append(b, " tbhits "...)
		b = strconv.AppendUint(b, in.TBHits, 10)
	}
	if len(in.PV) > 0 {
		b = append(b, " pv"...)
		p := root
		for _, m := range in.PV {
			if !p.Legal(m) {
				break // a principal variation is legal; this guards the text
			}
			b = append(b, ' ')
			b = append(b, p.MoveText(m)...)
			p = p.Play(m)
		}
	}
	return string(b)
}

// startPerft counts in its own goroutine, so that stop and quit work: one
// line MOVE COUNT a legal move (mill.Divide's order and counts), then total.
func (s *session) startPerft(depth int) {
	p := s.game.Position()
	out := s.out
	ctx, j := s.newJob(false)
	go func() {
		defer close(j.done)
		var total uint64
		for _, m := range p.Moves(nil) {
			n, ok := perft(ctx, p.Play(m), depth-1)
			if !ok {
				j.answered.Store(true)
				out.line("info string perft stopped")
				return
			}
			out.printf("%s %d", p.MoveText(m), n)
			total += n
		}
		j.answered.Store(true)
		out.printf("total %d", total)
	}()
}

// perft is mill.Perft that gives up when ctx ends: it looks at ctx between
// subtrees of at most perftChunk plies (a few milliseconds each).
func perft(ctx context.Context, p mill.Position, depth int) (uint64, bool) {
	const perftChunk = 4
	if depth <= perftChunk {
		return mill.Perft(p, depth), ctx.Err() == nil
	}
	var n uint64
	for _, m := range p.Moves(nil) {
		c, ok := perft(ctx, p.Play(m), depth-1)
		if !ok {
			return 0, false
		}
		n += c
	}
	return n, true
}
