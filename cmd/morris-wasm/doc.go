// Command morris-wasm is the engine of the web client, built for the
// browser: the rules core (mill), the search, the opening book and the
// records, compiled with GOOS=js GOARCH=wasm to web/static/engine/morris.wasm(.gz)
// and run in a Web Worker (web/static/engine/worker.js) when the player
// plays or analyses "on this device", or the server cannot be reached. It
// answers the calls the server's API answers, with the same values and the
// same engine: boards, variants, position (POST /api/position), analysis
// (POST /api/analysis, without the endgame databases), move (the engine's
// move at a level in a game without a clock) and record (a game's record
// as the server exports it), and info (its table size and Go version, for
// the parity test). docs/offline.md says how it is built, kept up
// to date (TestEngineUpToDate in web/) and measured.
//
// Where things are:
//
//	calls.go       the calls: JSON in, JSON out; the engine and its table
//	main_js.go     main under js/wasm: morrisEngine.call(method, json) on the worker's global object
//	main_other.go  main elsewhere: says how to build it
package main
