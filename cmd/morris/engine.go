package main

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/morrisgame/morris/internal/engine/uci"
	"github.com/morrisgame/morris/mill"
)

// cmdEngine speaks the engine protocol (docs/protocol.md) on standard input
// and output until quit, the end of the input, or SIGINT/SIGTERM. The flags
// are the defaults a tool can change with setoption.
func cmdEngine(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("engine", "[-variant V] [-level N] [-hash MB] [-threads N]", stderr)
	variant := fs.String("variant", "nine-mens-morris", "the preset to start with, optionally with overrides: nine-mens-morris,flying=never")
	level := fs.Int("level", uci.MaxLevel, "playing level: 1 (a beginner) .. 10 (full strength)")
	hash := fs.Int("hash", 64, "transposition table size in MiB")
	threads := fs.Int("threads", 1, "search threads")
	tbDir := fs.String("tablebases", "", tablebaseUsage+" (the option Tablebases)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *level < 1 || *level > uci.MaxLevel:
		return badInput("-level %d: want 1..%d", *level, uci.MaxLevel)
	case *hash < 1 || *hash > uci.MaxHash:
		return badInput("-hash %d: want 1..%d MiB", *hash, uci.MaxHash)
	case *threads < 1 || *threads > uci.MaxThreads:
		return badInput("-threads %d: want 1..%d", *threads, uci.MaxThreads)
	}
	parts := strings.Split(*variant, ",")
	if _, err := mill.NewRules(parts[0], parts[1:]...); err != nil {
		return usageError{err}
	}

	if *tbDir != "" {
		// As if the tool had set the option first: errors are reported the same way.
		stdin = io.MultiReader(strings.NewReader("setoption name Tablebases value "+*tbDir+"\n"), stdin)
	}
	err := uci.Run(ctx, stdin, stdout,
		uci.WithVariant(*variant), uci.WithLevel(*level), uci.WithHash(*hash), uci.WithThreads(*threads),
		uci.WithTablebases(openTablebase))
	if errors.Is(err, context.Canceled) {
		return nil // interrupted: the search was stopped and answered
	}
	return err
}
