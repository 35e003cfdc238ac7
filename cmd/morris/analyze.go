package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
	"github.com/morrisgame/morris/review"
	"github.com/morrisgame/morris/search"
)

// cmdAnalyze searches a position and prints the best move, its score and the
// principal variation; or, with -record, goes through the moves of games and
// says for each what the engine would have played and what the move played
// lost.
func cmdAnalyze(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, err := parseAnalyzeFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	return c.run(ctx, stdin, stdout)
}

// analyzeConfig is what analyze's flags say: a position, or with file the
// games of a record file.
type analyzeConfig struct {
	pf              positionFlags
	depth, movetime int
	file            string // the record file ("-": standard input), or ""
	gameN           int    // with file: only this game (0: all)
	verbose         bool
	hash, threads   int
	tbDir           string
	set             map[string]bool // the flags given
}

func parseAnalyzeFlags(args []string, stderr io.Writer) (*analyzeConfig, error) {
	const synopsis = "[position flags] [-depth D | -movetime MS] [-record FILE [-game N]] [-v]"
	c := &analyzeConfig{set: map[string]bool{}}
	fs := newFlags("analyze", synopsis, stderr)
	c.pf.register(fs)
	fs.IntVar(&c.depth, "depth", 0, "search this many plies (1..100)")
	fs.IntVar(&c.movetime, "movetime", 0, "search this many milliseconds a position (the default is 1000 without -depth)")
	fs.StringVar(&c.file, "record", "", "analyze every move of the games of this record file, ours or Sanmill's (- reads standard input)")
	fs.IntVar(&c.gameN, "game", 0, "with -record: only the N-th game of the file, from 1")
	fs.BoolVar(&c.verbose, "v", false, "print each iteration of the search as it deepens")
	fs.IntVar(&c.hash, "hash", 64, "transposition table size in MiB")
	fs.IntVar(&c.threads, "threads", 1, "search threads (more than one is faster, but not repeatable)")
	fs.StringVar(&c.tbDir, "tablebases", "", tablebaseUsage)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	return c, nil
}

func (c *analyzeConfig) validate() error {
	if err := checkSearchFlags(c.depth, c.movetime, c.hash); err != nil {
		return err
	}
	switch {
	case c.threads < 1 || c.threads > 128:
		return badInput("-threads %d: want 1..128", c.threads)
	case c.set["game"] && c.file == "":
		return badInput("-game needs -record")
	case c.set["game"] && c.gameN < 1:
		return badInput("-game %d: games count from 1", c.gameN)
	case c.file != "" && (c.set["variant"] || c.set["rules"] || c.set["position"] || c.set["moves"] || c.set["seed"]):
		return badInput("-record takes the games from the file: give no position flags with it")
	}
	return nil
}

// run analyzes the position, or the games of the record file.
func (c *analyzeConfig) run(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	lim := search.Limits{Depth: c.depth, MoveTime: time.Duration(c.movetime) * time.Millisecond}
	if lim.Depth == 0 && lim.MoveTime == 0 {
		lim.MoveTime = time.Second
	}
	opts := search.Options{HashMB: c.hash, Threads: c.threads}
	tb, err := openTablebase(c.tbDir)
	if err != nil {
		return usageError{err}
	}
	opts.Tablebase = tb
	a := &analyzer{out: stdout, e: search.New(opts), tb: tb, lim: lim, verbose: c.verbose}
	if c.file == "" {
		g, err := c.pf.game()
		if err != nil {
			return err
		}
		a.position(ctx, g)
		return nil
	}
	var in io.Reader = stdin
	if c.file != "-" {
		f, err := os.Open(c.file)
		if err != nil {
			return usageError{err}
		}
		defer f.Close()
		in = f
	}
	// A record of Sanmill's (its tags come first) is read whole and turned
	// into ours; our own records stream.
	br := bufio.NewReaderSize(in, 64<<10)
	head, _ := br.Peek(64 << 10)
	if !record.IsSanmill(string(head)) {
		return a.records(ctx, br, c.file, c.gameN)
	}
	data, err := io.ReadAll(br)
	if err != nil {
		return usageError{err}
	}
	text, err := record.FromSanmill(string(data), mif.ParseSanmillFEN)
	if err != nil {
		return badInput("%s: %v", c.file, err)
	}
	return a.records(ctx, strings.NewReader(text), c.file, c.gameN)
}

type analyzer struct {
	out     io.Writer
	e       *search.Engine
	tb      search.Tablebase // the databases the engine probes, or nil
	lim     search.Limits
	verbose bool
}

// records analyzes the games read from in (the file name), or only the
// game-th of them if game > 0.
func (a *analyzer) records(ctx context.Context, in io.Reader, name string, game int) error {
	sc := record.NewScanner(in)
	n, failed := 0, 0
	for sc.Scan() {
		n++
		if game > 0 && n != game {
			continue
		}
		if n > 1 && game == 0 {
			fmt.Fprintln(a.out)
		}
		if err := a.game(ctx, n, sc.Record()); err != nil {
			fmt.Fprintf(a.out, "game %d: %v\n", n, err)
			failed++
		}
		if n == game {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	switch {
	case game > n:
		return badInput("-game %d: %s has %d game(s)", game, name, n)
	case failed > 0:
		return fmt.Errorf("%d game(s) could not be replayed to the end", failed)
	}
	return nil
}

// search searches the last of history, printing the iterations if verbose.
func (a *analyzer) search(ctx context.Context, history []mill.Position, lim search.Limits) search.Result {
	var report func(search.Info)
	if a.verbose {
		root := history[len(history)-1]
		report = func(in search.Info) {
			fmt.Fprintf(a.out, "  depth %d seldepth %d score %s nodes %d time %dms pv %s\n",
				in.Depth, in.SelDepth, search.ScoreTextAlong(root, in.PV, in.Score), in.Nodes, in.Time.Milliseconds(), pvText(root, in.PV))
		}
	}
	return a.e.Search(ctx, history, lim, report)
}

// pvText returns a principal variation in the standard notation.
func pvText(p mill.Position, pv []mill.Move) string {
	return strings.Join(p.LineTexts(pv), " ")
}

// position analyzes the current position of g.
func (a *analyzer) position(ctx context.Context, g *mill.Game) {
	p := g.Position()
	fmt.Fprintf(a.out, "position:  %s\n", p)
	if o := g.Outcome(); o != mill.NoOutcome {
		fmt.Fprintf(a.out, "result:    %s by %s: nothing to analyze\n", o, g.Method())
		return
	}
	res := a.search(ctx, g.Positions(), a.lim)
	fmt.Fprintf(a.out, "best move: %s\n", p.MoveText(res.Move))
	fmt.Fprintf(a.out, "score:     %s for %s, the side to move\n", scoreLine(p, res.PV, res.Score), p.SideToMove())
	fmt.Fprintf(a.out, "pv:        %s\n", pvText(p, res.PV))
	fmt.Fprintf(a.out, "depth:     %d (%d nodes)\n", res.Depth, res.Nodes)
	if a.tb != nil {
		if r, plies, ok := a.tb.Probe(p); ok {
			fmt.Fprintf(a.out, "databases: %s\n", databasesText(p.SideToMove(), r, plies))
		}
	}
}

// scoreLine is the score s of p, with pv its principal variation, as
// analyze prints it: "mate N" for a forced end the search saw, "cp N"
// for an evaluation, and for a win or loss the databases prove without
// its distance (a compact file, or a win longer than the no-progress rule
// leaves) the words, not the number that ranks it above every evaluation
// ("cp 24257" said nothing a reader could use).
func scoreLine(p mill.Position, pv []mill.Move, s int) string {
	if !search.IsMate(s) {
		switch search.Proved(s) {
		case 1:
			return "won (the databases)"
		case -1:
			return "lost (the databases)"
		}
	}
	return search.ScoreTextAlong(p, pv, s)
}

// databasesText says what the databases hold of a position whose side to
// move is mover: its result for the mover (+1, 0, -1) and the plies to the
// end (-1 where the databases hold no distance, as a compact file).
func databasesText(mover mill.Color, result, plies int) string {
	if result == 0 {
		return "a draw with best play"
	}
	winner := mover
	if result < 0 {
		winner = mover.Other()
	}
	if plies < 0 {
		return fmt.Sprintf("won for %s with best play (the distance not held)", winner)
	}
	return fmt.Sprintf("won for %s with best play, the game over in %d plies", winner, plies)
}

// game goes through the moves of a record with package review: for each,
// the engine's best move and score in the position before it, the score of
// the move played (a search one ply shallower after it, so that both look
// as far ahead), what the move played lost and its mark ("?!" an
// inaccuracy, "?" a mistake, "??" a blunder), then a summary a side. The
// server's game review is the same review.
func (a *analyzer) game(ctx context.Context, n int, rec *record.Record) error {
	g, err := rec.Game()
	if g == nil {
		return err
	}
	title := fmt.Sprintf("game %d: %s - %s, %s, %s", n, tagOr(rec, "White"), tagOr(rec, "Black"), g.Rules(), rec.Result)
	if t := rec.Tag("Termination"); t != "" {
		title += " (" + t + ")"
	}
	fmt.Fprintln(a.out, title)
	fmt.Fprintf(a.out, "%-7s %-13s %-13s %-9s %-9s %5s\n", "move", "played", "best", "best", "played", "loss")
	moves, rerr := review.Game(ctx, a.e, g, a.lim, nil)
	counted := [2]bool{}
	for _, m := range moves {
		loss := "-"
		if m.Loss >= 0 {
			loss = strconv.Itoa(m.Loss)
			counted[m.Side] = true
		}
		mark := m.Mark.String()
		if m.Note != "" {
			mark += " " + m.Note
		}
		b := m.Before
		line := fmt.Sprintf("%-7s %-13s %-13s %-9s %-9s %5s %s", moveNumber(b.Ply()), b.MoveText(m.Played),
			b.MoveText(m.Best), search.ScoreTextAlong(b, m.BestLine, m.BestScore), search.ScoreTextAlong(b, m.PlayedLine, m.PlayedScore), loss, mark)
		fmt.Fprintln(a.out, strings.TrimRight(line, " "))
	}
	for c, s := range review.Summarize(moves) {
		if s.Moves == 0 {
			continue
		}
		avg := "-"
		if counted[c] {
			avg = strconv.Itoa(s.AverageLoss)
		}
		fmt.Fprintf(a.out, "%s: %s, average loss %s, %s (?!), %s (?), %s (??)\n", mill.Color(c),
			count(s.Moves, "move", "moves"), avg, count(s.Inaccuracies, "inaccuracy", "inaccuracies"),
			count(s.Mistakes, "mistake", "mistakes"), count(s.Blunders, "blunder", "blunders"))
	}
	if rerr != nil {
		return rerr
	}
	return err
}

// count is n with the word for one or for several: "1 move", "3 moves".
func count(n int, one, several string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + several
}

// moveNumber is the number of the move of ply as records write it: "12." for
// an even ply, "12..." for an odd one.
func moveNumber(ply int) string {
	if ply%2 == 0 {
		return strconv.Itoa(ply/2+1) + "."
	}
	return strconv.Itoa(ply/2+1) + "..."
}

func tagOr(rec *record.Record, name string) string {
	if v := rec.Tag(name); v != "" {
		return v
	}
	return "?"
}

// checkSearchFlags checks the flags that limit a search, shared by the
// commands that run one: -depth, -movetime (one of them) and -hash.
func checkSearchFlags(depth, movetime, hash int) error {
	switch {
	case depth < 0 || depth > search.MaxPly:
		return badInput("-depth %d: want 1..%d", depth, search.MaxPly)
	case movetime < 0:
		return badInput("-movetime %d: want a number of milliseconds", movetime)
	case depth > 0 && movetime > 0:
		return badInput("-depth and -movetime: give one")
	case hash < 1 || hash > 1<<14:
		return badInput("-hash %d: want 1..16384 MiB", hash)
	}
	return nil
}
