package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	args := os.Args[1:]
	ctx := context.Background()
	if stopsOnSignal(args) {
		// Long commands (solve, serve, match, ...) stop cleanly on an
		// interrupt or SIGTERM. A second signal ends the process as if
		// none were caught, for a stop that takes too long. The other
		// commands end with the process on the first: catching the signal
		// for them would leave a deep perft running.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		context.AfterFunc(ctx, stop)
	}
	os.Exit(run(ctx, args, os.Stdin, os.Stdout, os.Stderr))
}
