// Package book is the opening book: positions of the first plies with the
// scores our own engine gave them in long searches, looked up at play to
// answer at once, and with a choice among moves about as good, so that games
// differ. It imports mill only: the analysis is a function passed to Build
// (cmd/morris passes the engine's search).
//
// Where things are:
//
//	book.go     Book, Entry: Add, Probe, Lookup, Choose; the text form (Parse, Resume, Write)
//	build.go    Build (resumable) and Count: which positions go in, and their analysis
//	default.go  Default: the books of data/, embedded in the program
//	data/       the books built for the program, one file a rule set
//
// # Positions, not moves
//
// A book holds positions, each once for its 16 images under the symmetries
// of the board: the canonical image (mill.Position.Canonical). To find the
// moves of a position p, Lookup plays each legal move of p and looks the
// position it leads to up: the moves it answers with are p's own, with no
// transformation of moves, and transpositions (move orders that reach the
// same position) share an entry. Two positions are the same for the book
// when their texts are the same but for the two counters (plies without
// progress, plies played), the same as for mill.Position.Key; the rules are
// the text's first field, so a book may hold the positions of several rule
// sets and never mixes them up.
//
// The score stored with a position is for its side to move, the search's
// own convention (it is not always the opponent of the side that moved
// last: under Shah's deferred capture the side that places last may remove
// next). Lookup turns it to the point of view of the side that plays the
// move. Scores are in the engine's unit, hundredths of a piece, and a
// forced end of the game counts its plies from the position stored.
//
// # The text form
//
// One position a line: its position text (the seven fields of
// mill.Position.String, the canonical image), its score for the side to
// move, and the depth of the search that gave it:
//
//	# lines starting with # are comments; blank lines are skipped
//	nine-mens-morris 8/2W5/8 b 8,9 - 0 1 -7 8
//	nine-mens-morris 1B3W2/8/8 w 8,8 - 0 2 10 8
//
// Parse takes any image of a position (it finds the canonical one) and the
// same text compressed with gzip; a position given twice, or two images of
// one, is an error. Write prints the canonical images sorted by rules, ply
// and text. Build writes the same lines in the same order, ply by ply, as it
// goes.
//
// # Which positions, and resuming
//
// Build takes every position up to BuildOptions.Plies plies from the start
// (all moves of both sides; Count says how many there are: for nine men's
// morris 4, 46, 428, 4200, 26884 at plies 1 to 5), then goes Deeper plies
// further along the moves within Margin of the best of each position. A
// position is expanded (all its moves analysed) when it lies on those lines;
// Choose answers only in positions whose moves the book knows all of, so
// that it never misses a best move the book does not have.
//
// Each new entry is appended to the book file as one whole line as soon as
// it is analysed. A build that is stopped (an interrupt, a crash, the end of
// a session) leaves at most a half-written last line: Resume reads the file
// without it and says where to cut it, and Build skips the positions already
// in the book. A bigger book is built the same way from a smaller one:
// raise -plies or -deeper and run again on the same file.
//
// # Building the program's book
//
// The books of data/ are embedded in the program (Default). Each is the
// output of morris book, kept as it is (its comment lines say which
// commands made it), or compressed with gzip -9 when it grows:
//
//	morris book -count -plies 5     # the positions of each ply, to see the cost first
//	morris book -variant nine-mens-morris -plies 4 -depth 14 -out book/data/nine-mens-morris.book
//	morris book -variant nine-mens-morris -plies 4 -deeper 4 -margin 5 -depth 14 -out book/data/nine-mens-morris.book
//	morris book -show -moves "d2 f4"   # what the built-in book says after d2 f4
//
// The second build keeps the first's positions and goes deeper along the
// good lines. What Deeper costs depends on the scores (the number of moves
// within the margin): Build prints the positions of each deeper ply before
// analysing them, and an interrupted build loses nothing.
//
// -depth gives the same book on every machine, whatever else it runs; -movetime
// MS gives each position a fixed time instead. The table is cleared for
// each position, and the search runs on one thread. Run the same command
// again after an interruption: it goes on where it stopped. Positions
// already in the file are kept as they are: to analyse them again, deeper,
// start from a new file.
package book
