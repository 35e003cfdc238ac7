// Command morris is the Morris program: the rules engine's command line
// (perft, moves, show, variants, replay), and later the engine and the server.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
