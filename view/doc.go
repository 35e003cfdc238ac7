// Package view is a game as the web client's boards draw it: the boards as
// data, the presets, a position named by a request (a position text or
// rules, then moves) and its view (pieces, hands, mills, legal moves, the
// game that led to it). The HTTP API sends these (GET /api/boards, GET
// /api/variants, POST /api/position) and the engine in the browser
// (cmd/morris-wasm) answers with the same values, so that the client draws
// a position the same way whichever computed it.
//
// Where things are:
//
//	view.go   Board, Boards, Variant, Variants, Request and its Game, Position and Of
package view
