package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/morrisgame/morris/search/suite"
)

const suiteFile = "search/testdata/suite.txt"

func cmdSuiteGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("suite-gen", "", `Writes search's regression suite anew (search/suite.Generate): games of a
sparring player that knows nothing of the engine, every position met proved by
an exact minimax or by endgame databases built from the rules, and the most
telling kept. About 30 minutes; the databases are built in a temporary folder.
The file is written even when a category has fewer positions than it should
(the command then fails, naming them).`, stderr)
	out := fs.String("o", suiteFile, "the suite file written")
	if err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "morris-suite-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	entries, short, err := suite.Generate(ctx, scratch, stderr)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := suite.Write(f, entries); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// What was written must read back.
	if _, err := readSuite(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d positions written to %s\n", len(entries), *out)
	if len(short) > 0 {
		return fmt.Errorf("too few positions:\n  %s", strings.Join(short, "\n  "))
	}
	return nil
}

func cmdSuiteVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("suite-verify", "", `Audits search's regression suite: every answer is proved again from scratch,
the way suite-gen proved it, whoever wrote the line (search/suite.Verify).
Minutes; the endgames' databases are built in a temporary folder.`, stderr)
	file := fs.String("suite", suiteFile, "the suite file")
	if err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	entries, err := readSuite(*file)
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "morris-suite-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	failed, err := suite.Verify(ctx, entries, scratch)
	if err != nil {
		return err
	}
	for _, f := range failed {
		fmt.Fprintln(stdout, f)
	}
	fmt.Fprintf(stdout, "%d of %d answers proved again\n", len(entries)-len(failed), len(entries))
	if len(failed) > 0 {
		return fmt.Errorf("%d answers not proved", len(failed))
	}
	return nil
}

func readSuite(file string) ([]suite.Entry, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return suite.Parse(f, file)
}
