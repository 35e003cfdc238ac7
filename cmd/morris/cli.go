package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/engine/match"
	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // the command ran and found a problem (an illegal move in a record)
	exitUsage = 2 // bad arguments or bad input
)

const usage = `morris: the Mill family of board games

Usage:
  morris variants [-mrs RULES | -from-mrs FILE]
                                        list the presets and their rule options; or rules as an
                                        MRS manifest (MIF 1.0), or a manifest as our rules
  morris show    [position flags]       draw the board, side to move, pieces, position text
  morris moves   [position flags]       list the legal moves, one a line
  morris perft   [position flags] -depth D [-divide] [-detail]
                                        count move sequences of D turns
  morris replay  [-sanmill | -differences sanmill] FILE...
                                        check game records move by move ("-" reads standard input);
                                        -sanmill writes them as Sanmill reads them; -differences lists
                                        the games that reach a move where Sanmill's rules part from ours
  morris engine  [-variant V] [-level N] [-hash MB] [-threads N]
                                        speak the engine protocol on standard input and output (docs/protocol.md)
  morris analyze [position flags] [-depth D | -movetime MS] [-v]
                                        the best move, its score and principal variation
  morris analyze -record FILE [-game N] [-depth D | -movetime MS]
                                        each move of a game against the engine's choice; ?? marks blunders
  morris match   -a SPEC -b SPEC [-variant V] [-games N] [-movetime MS | -depth D]
                 [-concurrency N] [-records FILE] [-seed N]
                                        play a match between two players: score and Elo
                                        (SPEC: level:N, perfect:DIR, random, greedy, cmd:PATH ARGS; morris match -h)
  morris match-errors -tablebases DIR [-v] FILE...
                                        errors per 1,000 moves against the databases of the whole game,
                                        by player and phase, from game records (morris match -records)
  morris play    [position flags] [-level N] [-color white|black|random] [-save FILE] [-plain]
                                        play against the engine in the terminal
  morris solve   -variant V -dir DIR [-max N | -sectors 3v3,4v3 | -game] [-threads N] [-verify]
                                        build endgame databases (resumable); counts to DIR/summary.txt
  morris book    -plies N [-deeper K -margin CP] [-movetime MS | -depth D] -out FILE [-variant V] [-count]
                                        build an opening book by the engine's analysis (resumable)
  morris book    -show [position flags] [-book FILE]
                                        the book's moves for a position, with their scores

  morris serve   [-addr HOST:PORT] [-pbm-addr HOST:PORT] [-data DIR] [-db postgres://...]
                 [-tablebases DIR] [-engine-hash MB]
                                        run the game server (README: The server; docs/api.md)
  morris puzzles -tablebases DIR [-data DIR | -db postgres://...] [-n N] [-seed N]
                                        make puzzles (one winning move) from endgame databases into the server's store
  morris admin   [-data DIR | -db postgres://...] [-note TEXT] mod NAME | unmod NAME | mods
                                        make a player a moderator of the server, or no longer; list them
  morris bench-server [-url URL,...] [-db postgres://...] [-limits] [-games N] [-users N] [-rate N]
                 [-duration D] [-warmup D] [-streams=false] [-variant V] [-seed N] [-cpuprofile FILE]
                                        drive N concurrent games over the API and print moves/s and latency

Every command's -h prints its flags (morris help COMMAND is the same).

Position flags:
  -variant V        a preset (morris variants), optionally with overrides: nine-mens-morris,flying=never
  -rules LIST       rule overrides, comma-separated: flying=never,protection=always
  -position TEXT    start from a position text instead of the start (its rules are the position's);
                    or an MFEN record (MIF 1.0, docs/mif.md), under the rules of -variant and -rules,
                    or a MIFPOS object (MIF 1.0 JSON: an MFEN record with its rule set)
  -moves "M1 M2"    then play these moves (standard or pbmserv notation)
  -seed N           the seed of the lot for the first player (presets with first=lot)
`

// A command runs with the context of the process, its arguments and the
// standard streams.
type command struct {
	name string
	run  func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
	// stops says that the command stops cleanly when its context ends
	// (a build saved, a match's score printed, a server shut down): main
	// cancels the context on an interrupt or SIGTERM for these. The others
	// end with the process, as the signal's default.
	stops bool
}

var commands = []command{
	{"variants", cmdVariants, false},
	{"show", cmdShow, false},
	{"moves", cmdMoves, false},
	{"perft", cmdPerft, false},
	{"replay", cmdReplay, false},
	{"engine", cmdEngine, true},
	{"analyze", cmdAnalyze, false},
	{"match", cmdMatch, true},
	{"match-errors", cmdMatchErrors, false},
	{"play", cmdPlay, true},
	{"solve", cmdSolve, true},
	{"book", cmdBook, true},
	{"serve", cmdServe, true},
	{"puzzles", cmdPuzzles, true},
	{"admin", cmdAdmin, false},
	{"bench-server", cmdBenchServer, true},
}

// stopsOnSignal reports whether the command of args stops cleanly when its
// context ends, so that main should turn signals into a cancellation.
func stopsOnSignal(args []string) bool {
	for _, c := range commands {
		if len(args) > 0 && c.name == args[0] {
			return c.stops
		}
	}
	return false
}

// usageError is an error in the command line or its input: exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func badInput(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// run runs the command of args and returns the process's exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "help" {
		// help COMMAND: the command's own usage, as COMMAND -h prints it.
		args = []string{args[1], "-h"}
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], stdin, stdout, stderr)
		switch {
		case err == nil:
			return exitOK
		case errors.Is(err, flag.ErrHelp):
			return exitOK
		}
		fmt.Fprintf(stderr, "morris %s: %v\n", c.name, err)
		var ue usageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitFail
	}
	fmt.Fprintf(stderr, "morris: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// positionFlags are the flags that say which position a command works on.
type positionFlags struct {
	variant, rules, position, moves string
	seed                            uint64
	seeded                          bool
}

func (pf *positionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&pf.variant, "variant", "", "preset, optionally with overrides (default nine-mens-morris)")
	fs.StringVar(&pf.rules, "rules", "", "rule overrides, comma-separated name=value")
	fs.StringVar(&pf.position, "position", "", "a position text to start from: ours, MFEN (MIF 1.0, under -variant and -rules) or a MIFPOS object")
	fs.StringVar(&pf.moves, "moves", "", "moves to play first, separated by spaces")
	fs.Func("seed", "seed of the lot for the first player", func(s string) error {
		_, err := fmt.Sscan(s, &pf.seed)
		pf.seeded = true
		return err
	})
}

// game builds the game the flags describe.
func (pf *positionFlags) game() (*mill.Game, error) {
	var g *mill.Game
	rules := func() (*mill.Rules, error) {
		v := pf.variant
		if v == "" {
			v = "nine-mens-morris"
		}
		parts := strings.Split(v, ",")
		if pf.rules != "" {
			parts = append(parts, strings.Split(pf.rules, ",")...)
		}
		r, err := mill.NewRules(parts[0], parts[1:]...)
		if err != nil {
			return nil, usageError{err}
		}
		return r, nil
	}
	switch {
	case mif.IsMIFPOS(pf.position):
		// MIFPOS carries its rules, as our position text does.
		if pf.variant != "" || pf.rules != "" {
			return nil, badInput("a MIFPOS position carries its own rules: give -variant and -rules only without it")
		}
		p, err := mif.ParsePositionEnvelope(pf.position)
		if err != nil {
			return nil, usageError{err}
		}
		g = mill.NewGame(p.Rules(), mill.FromPosition(p))
	case mif.CarriesNoRules(pf.position):
		// MFEN and Sanmill's FEN carry no rules: -variant and -rules give them.
		r, err := rules()
		if err != nil {
			return nil, err
		}
		p, err := mif.ParseUnder(pf.position, r)
		if err != nil {
			return nil, usageError{err}
		}
		g = mill.NewGame(r, mill.FromPosition(p))
	case pf.position != "":
		if pf.variant != "" || pf.rules != "" {
			return nil, badInput("-position carries its own rules: give -variant and -rules only without it (or with an MFEN position or Sanmill's FEN)")
		}
		p, err := mill.ParsePosition(pf.position)
		if err != nil {
			return nil, usageError{err}
		}
		g = mill.NewGame(p.Rules(), mill.FromPosition(p))
	default:
		r, err := rules()
		if err != nil {
			return nil, err
		}
		var opts []mill.GameOption
		if pf.seeded {
			opts = append(opts, mill.WithSeed(pf.seed))
		}
		g = mill.NewGame(r, opts...)
	}
	for i, m := range strings.Fields(pf.moves) {
		if err := g.PlayText(m); err != nil {
			return nil, badInput("-moves: move %d (%s): %v", i+1, m, err)
		}
	}
	return g, nil
}

func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: morris %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return badInput("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func cmdVariants(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("variants", "[-mrs RULES | -from-mrs FILE]", stderr)
	toMRS := fs.String("mrs", "", "print these rules (a preset, optionally with overrides) as an MRS manifest (MIF 1.0, docs/mif.md)")
	fromMRS := fs.String("from-mrs", "", "read an MRS manifest (MIF 1.0) and print it as our rules")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *toMRS != "" && *fromMRS != "":
		return badInput("give -mrs or -from-mrs, not both")
	case *toMRS != "":
		r, err := mill.ParseRules(*toMRS)
		if err != nil {
			return usageError{err}
		}
		m, err := mif.ManifestFor(r, "x-morris-"+r.Variant(), 1)
		if err != nil {
			return badInput("%v", err)
		}
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", data)
		return nil
	case *fromMRS != "":
		data, err := os.ReadFile(*fromMRS)
		if err != nil {
			return usageError{err}
		}
		m, err := mif.ParseManifest(data)
		if err != nil {
			return badInput("%s: %v", *fromMRS, err)
		}
		r, err := m.Rules()
		if err != nil {
			return badInput("%s: %v", *fromMRS, err)
		}
		sem, _ := m.SemanticDigest()
		fmt.Fprintf(stdout, "%s@%d (%s)\nrules: %s\n", m.ID, m.Version, sem, r)
		return nil
	}
	for _, v := range mill.Variants() {
		fmt.Fprintf(stdout, "%-26s %s\n", v.ID, v.Description)
		fmt.Fprintf(stdout, "%-26s source: %s\n", "", v.Source)
		var opts []string
		for _, o := range mill.OptionList {
			opts = append(opts, o.Name+"="+o.Get(&v.Options))
		}
		writeWrapped(stdout, strings.Join(opts, " "), 27, 100)
	}
	fmt.Fprintf(stdout, "\nRule options (override with -rules name=value, or -variant preset,name=value):\n")
	for _, o := range mill.OptionList {
		fmt.Fprintf(stdout, "  %-19s %s\n  %-19s values: %s\n", o.Name, o.Doc, "", o.Values)
	}
	return nil
}

func writeWrapped(w io.Writer, s string, indent, width int) {
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && indent+len(line)+1+len(word) > width {
			fmt.Fprintf(w, "%s%s\n", strings.Repeat(" ", indent), line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		fmt.Fprintf(w, "%s%s\n", strings.Repeat(" ", indent), line)
	}
}

// positionCommand parses the flags of a command that takes a position and a
// -pbm switch (show, moves), and builds the game they describe.
func positionCommand(name, pbmDoc string, args []string, stderr io.Writer) (*mill.Game, bool, error) {
	fs := newFlags(name, "[position flags] [-pbm]", stderr)
	var pf positionFlags
	pf.register(fs)
	pbm := fs.Bool("pbm", false, pbmDoc)
	if err := parseFlags(fs, args); err != nil {
		return nil, false, err
	}
	g, err := pf.game()
	return g, *pbm, err
}

func cmdShow(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	g, pbm, err := positionCommand("show", "draw the board as pbmserv prints it: rank 1 at the top", args, stderr)
	if err != nil {
		return err
	}
	p := g.Position()
	o := mill.RankOneBottom
	if pbm {
		o = mill.RankOneTop
	}
	fmt.Fprint(stdout, p.Diagram(o))
	fmt.Fprintf(stdout, "rules:    %s\n", p.Rules())
	for _, c := range []mill.Color{mill.White, mill.Black} {
		fmt.Fprintf(stdout, "%-9s %d on the board, %d in hand\n", c.String()+":", p.OnBoard(c), p.InHand(c))
	}
	if seed, ok := g.Seed(); ok {
		fmt.Fprintf(stdout, "lot:      seed %d, %s moved first\n", seed, g.Start().SideToMove())
	}
	if out := g.Outcome(); out != mill.NoOutcome {
		fmt.Fprintf(stdout, "result:   %s by %s\n", out, g.Method())
	} else {
		state := p.SideToMove().String() + " to move"
		if c, ok := p.Pending(); ok {
			state = c.String() + " to remove a piece (the capture deferred to the end of placing)"
		} else if p.Flying(p.SideToMove()) {
			state += " (flying)"
		}
		fmt.Fprintf(stdout, "turn:     %s, %d legal moves\n", state, p.NumMoves())
	}
	fmt.Fprintf(stdout, "position: %s\n", p)
	if m, err := mif.FormatPosition(p); err == nil {
		fmt.Fprintf(stdout, "mfen:     %s\n", m)
	}
	return nil
}

func cmdMoves(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	g, pbm, err := positionCommand("moves", "print the moves in the pbmserv dialect", args, stderr)
	if err != nil {
		return err
	}
	p := g.Position()
	d := mill.Standard
	if pbm {
		d = mill.Pbm
	}
	for _, m := range g.LegalMoves() {
		fmt.Fprintln(stdout, string(p.AppendMove(nil, m, d)))
	}
	return nil
}

func cmdPerft(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("perft", "[position flags] -depth D [-divide] [-detail]", stderr)
	var pf positionFlags
	pf.register(fs)
	depth := fs.Int("depth", 0, "number of turns (required, 1..20)")
	divide := fs.Bool("divide", false, "first print each legal move with its count")
	detail := fs.Bool("detail", false, "break the last turns down by kind (slower)")
	verbose := fs.Bool("v", false, "print the time taken and the rate to standard error")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *depth < 1 || *depth > 20 {
		return badInput("-depth %d: want 1..20", *depth)
	}
	g, err := pf.game()
	if err != nil {
		return err
	}
	p := g.Position()
	start := time.Now()
	var total uint64
	if *divide {
		for _, e := range mill.Divide(p, *depth) {
			fmt.Fprintf(stdout, "%s %d\n", p.MoveText(e.Move), e.Count)
			total += e.Count
		}
	}
	if *detail {
		c := mill.PerftDetailed(p, *depth)
		fmt.Fprintf(stdout, "placements %d\nslides %d\nflights %d\nremovals %d\npasses %d\ncaptures %d\nends %d\n",
			c.Placements, c.Slides, c.Flights, c.Removals, c.Passes, c.Captures, c.Ends)
		total = c.Total
	} else if !*divide {
		total = mill.Perft(p, *depth)
	}
	fmt.Fprintf(stdout, "total %d\n", total)
	if *verbose {
		el := time.Since(start)
		fmt.Fprintf(stderr, "%v, %.1f million per second\n", el.Round(time.Millisecond), float64(total)/el.Seconds()/1e6)
	}
	return nil
}

// toSanmill writes the records of r as Sanmill reads them.
func toSanmill(r io.Reader, stdout io.Writer) error {
	sc := record.NewScanner(r)
	w := record.NewWriter(stdout)
	for sc.Scan() {
		rec := sc.Record()
		out, err := record.ToSanmill(rec, mif.FormatSanmillFEN)
		if err != nil {
			return fmt.Errorf("the record at line %d: %w", rec.Line, err)
		}
		if err := w.Write(out); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return sc.Err()
}

func cmdReplay(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "[-sanmill | -differences PROGRAM] FILE...", stderr)
	sanmill := fs.Bool("sanmill", false, "write the records as Sanmill reads them (its rule set's name, its FEN for a set-up position) instead of replaying them")
	differences := fs.String("differences", "", "list the games that reach a move where PROGRAM's rules part from ours (sanmill), where a match would now end them as disputed draws (docs/strength.md)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() == 0 {
		return badInput("want a record file (or - for standard input)")
	}
	var disputes match.Disputer
	if *differences != "" {
		if *sanmill {
			return badInput("-sanmill or -differences, not both")
		}
		d, err := match.Differences(*differences)
		if err != nil {
			return usageError{err}
		}
		disputes = d
	}
	bad := 0
	for _, name := range fs.Args() {
		var r io.Reader = stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				return usageError{err}
			}
			defer f.Close()
			r = f
		}
		if disputes != nil {
			if err := listDisputes(r, stdout, *differences, disputes); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", name, err)
				bad++
			}
			continue
		}
		if *sanmill {
			if err := toSanmill(r, stdout); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", name, err)
				bad++
			}
			continue
		}
		if len(fs.Args()) > 1 {
			fmt.Fprintf(stdout, "%s:\n", name)
		}
		if err := record.Replay(r, stdout); err != nil {
			fmt.Fprintf(stdout, "%s: %v\n", name, err)
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d file(s) with bad records", bad)
	}
	return nil
}

// listDisputes prints, for each record read from r, where the rules of
// program (whose Disputer d is) part from ours, and how many games do.
func listDisputes(r io.Reader, w io.Writer, program string, d match.Disputer) error {
	sc := record.NewScanner(r)
	n, disputed := 0, 0
	for sc.Scan() {
		rec := sc.Record()
		n++
		g, err := rec.Game()
		if err != nil {
			return fmt.Errorf("record %d: %w", n, err)
		}
		if ply, why := match.FirstDispute(d, g); ply > 0 {
			disputed++
			fmt.Fprintf(w, "game %d (round %s, %s - %s, %s): ply %d: %s\n", n, rec.Tag("Round"), rec.Tag("White"), rec.Tag("Black"), rec.Tag("Result"), ply, why)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d of %d games reach a move where %s's rules part from ours\n", disputed, n, program)
	return err
}
