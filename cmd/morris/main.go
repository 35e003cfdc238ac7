package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// Long commands (solve, serve) stop cleanly on an interrupt or SIGTERM; the others end
	// with the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
