// Command morris is the Morris program: the rules engine's command line
// (variants, show, moves, perft, replay) and the engine's (engine, analyze,
// solve, match, play). See the usage text in cli.go.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
