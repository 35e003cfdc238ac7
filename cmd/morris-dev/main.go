package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `morris-dev: the developers' tools of Morris (tuning, data; minutes to hours)

Usage: morris-dev COMMAND [flags] [arguments]   (morris-dev help COMMAND, or COMMAND -h: its flags)

Self-play (internal/engine/tune; docs/eval.md):
  tune     [-variant V] [-pairs N] [-depth D] [-passes N] [-seed N]
                              coordinate tuning of eval.Default()'s weights by self-play
  ablate   [-variant V] [-pairs N] [-depth D]
                              eval.Default() against itself with each feature group off
  compare  [-variant V] [-pairs N] [-depth D] EDIT...
                              JSON edits of eval.Default() against it: '{"Taper":true}'

Fits to deeper searches (docs/eval.md):
  fit        [-variant V] [-games N] [-movetime D] FILE     the placing weights (FILE made first if missing)
  fit-moving [-variant V] [-from default|nine] [-games N] [-movetime D] FILE
                                                            the moving weights (FILE made first if missing)
  fit-joint  PLACING MOVING                                 both, together, from nine men's morris's weights
  relabel    [-movetime D] -o OUT FILE                      score a sample file's positions again
  fit-net    [-hands 0|9] [-hidden N] [-epochs N] [-o NET] FILE...
                                                            train a net over the weighted sum
  net-samples [-games N] [-seed N] [-movetime D] -o FILE    samples of the moving phase for fit-net

The databases as the teacher (docs/search.md, "What to try next"):
  exact-samples         -db DIR -o FILE [-games N]          positions after placing, scored by the databases
  exact-placing-samples -db DIR -o FILE [-games N] [-min-ply N] [-nodes N]
                                                            placing positions, solved to the end of placing
  exact-records         -db DIR [-player NAME] [-nodes N] FILE...
                                                            where the player's lost games were lost

  convert    -judge DIR [-a SPEC] [-n N] [-seed N] [-concurrency N] [-records FILE] FILE...
                              whether a player wins the won positions of the records' games (egdb.md)
  recode     SRC DST          a compact file written by an older Morris, coded by this one's streams
  calibrate  -db DIR [-variant V] [-games N] [-nodes N] [-seed N] [-o FILE]
                              the review's marks against databases of the whole game (docs/api.md)
  suite-gen  [-o FILE]        write search's regression suite anew (about 30 minutes; docs/search.md)
  suite-verify [-suite FILE]  prove every answer of the suite again (minutes)
`

type command struct {
	name string
	run  func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = []command{
	{"tune", cmdTune},
	{"ablate", cmdAblate},
	{"compare", cmdCompare},
	{"fit", cmdFit},
	{"fit-moving", cmdFitMoving},
	{"fit-joint", cmdFitJoint},
	{"relabel", cmdRelabel},
	{"fit-net", cmdFitNet},
	{"net-samples", cmdNetSamples},
	{"exact-samples", cmdExactSamples},
	{"exact-placing-samples", cmdExactPlacingSamples},
	{"exact-records", cmdExactRecords},
	{"convert", cmdConvert},
	{"recode", cmdRecode},
	{"calibrate", cmdCalibrate},
	{"suite-gen", cmdSuiteGen},
	{"suite-verify", cmdSuiteVerify},
}

func main() {
	// An interrupt (or SIGTERM) stops the matches and the sample making
	// between games, through their context; what was written stays
	// written. A second one ends the process, as cmd/morris does.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command of args and returns the exit code: 0, 1 when the
// command failed, 2 for a bad command line.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "help" {
		args = []string{args[1], "-h"} // help COMMAND: the command's -h
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], stdout, stderr)
		var ue usageError
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "morris-dev %s: %v\n", c.name, err)
			return 2
		}
		fmt.Fprintf(stderr, "morris-dev %s: %v\n", c.name, err)
		return 1
	}
	fmt.Fprintf(stderr, "morris-dev: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// usageError is a bad command line: exit code 2.
type usageError struct{ error }

func badUsage(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// flags returns the flag set of a command, whose -h prints synopsis (the
// arguments after the flags) and what the command does, then the flags.
func flags(name, synopsis, doc string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: morris-dev %s [flags] %s\n\n%s\nFlags:\n", name, synopsis, doc)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args into fs and checks the count of arguments left:
// between min and max (max < 0: no bound).
func parse(fs *flag.FlagSet, args []string, min, max int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if n := fs.NArg(); n < min || (max >= 0 && n > max) {
		fs.Usage()
		switch {
		case n < min:
			return badUsage("missing arguments")
		default:
			return badUsage("unexpected argument %q", fs.Arg(max))
		}
	}
	return nil
}

// need fails with a usage error when a required flag is empty.
func need(fs *flag.FlagSet, names ...string) error {
	for _, n := range names {
		if fs.Lookup(n).Value.String() == "" {
			fs.Usage()
			return badUsage("-%s is required", n)
		}
	}
	return nil
}
