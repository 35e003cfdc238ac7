// Command morris-dev is the developers' tool: the drivers that tune and
// measure the engine and make its data, which ran as go test flags before.
// They run for minutes to hours; the tests test, and these commands make
// what the docs report (docs/eval.md, docs/search.md, docs/api.md). Run it
// from the root of the repository (go run ./cmd/morris-dev COMMAND): the
// default paths of its data (search/testdata, internal/engine/tune/testdata)
// are relative to it. The logic is in the library packages
// (internal/engine/tune, search/suite); the commands read flags and files
// and print. See the usage text in main.go.
//
// Where things are:
//
//	main.go       main, the usage text, the table of commands, run and the exit codes, the flags' helpers
//	selfplay.go   tune, ablate, compare: self-play matches of weight sets (tune.Tune, Ablate, Compare)
//	fit.go        fit, fit-moving, fit-joint, relabel, fit-net, net-samples: the fits to deeper searches
//	exact.go      exact-samples, exact-placing-samples, exact-records: the endgame databases as the teacher
//	calibrate.go  calibrate: the review's marks against the databases (tune.Calibrate)
//	convert.go    convert: whether a player wins the won positions of game records (match.Convert)
//	recode.go     recode: a compact file written again by this program's coding (egdb.RecodeCompact)
//	suite.go      suite-gen, suite-verify: search's regression suite (search/suite)
package main
