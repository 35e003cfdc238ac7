// Package suite is the engine's regression suite (search/testdata/suite.txt,
// which search's TestSuite runs): its file format, the referee that proves
// its answers (Prover: an exact minimax that shares nothing with the engine
// but the rules), and the generator that harvests positions from games and
// proves them (Generate, Verify; morris-dev suite-gen and suite-verify). It
// does not import search: what it proves cannot lean on what it tests.
//
// Where things are:
//
//	suite.go     the format: Entry, Parse, Write, the categories
//	prover.go    Prover: full-width alpha-beta to a fixed depth, material at the horizon
//	generate.go  the sparring player, the proofs of each category, picking, Generate and Verify
package suite
