// Package egdb builds and probes endgame databases of the Mill games: for
// every position of a sector (so many pieces of each side on the board, so
// many in hand), its value for the side to move with perfect play, and the
// number of plies to the end of the game (the fastest win, the slowest
// loss). The solver is the game-agnostic retrograde analysis of
// egdb/internal/retro; this package gives it the rules of Mill.
//
// Where things are:
//
//	key.go        Key: a sector (pieces on the board and in hand), MovingSectors
//	index.go      the index of a position in its sector: symmetry reduction and ranking
//	game.go       the rules as a retro.Game: moves, unmoves, ends; Supported
//	file.go       the file format: header, values (2 bytes, or W/D/L in 2 bits), CRC-64
//	build.go      Builder: plan, solve, write, resume, verify; Counts, Progress
//	wdlplacing.go the placing phase kept as W/D/L alone (Builder.WDLPlacing): one pass a sector, and its verify pass
//	rulescheck.go CheckByRules: a sector's values against mill's own moves, one index in N
//	prove.go      Prover: the opening's values proved from the moving phase, by the strategies they imply and mill's moves
//	db.go         Open and its options, Value, Probe (a search.Tablebase), BestMove, MoveValues; Perfect
//	compact.go    the compact file: WriteCompact (W/D/L of every sector, resumable, checked), OpenCompact, ReadCompact, Result
//	recode.go     RecodeCompact: a compact file written again by this version's streams, from its stored values
//	distances.go  the compact file's distances: WriteDistances (resumable, checked), Compact.AddDistances
//	shelf.go      Shelf: databases of several rules (or sizes) as one, each position asked of those that cover it
//	captures.go   the compact file's don't-care positions: a position's captures, the writer's masks and check, the reader's search of captures
//	mmap_unix.go  a sector file mapped read-only into memory, no heap (mmap_other.go: read into the heap
//	              where there is no mmap); adviseRandom for the compact file's pages
//
// # Sectors and positions
//
// A position is stored for the side to move, called White in a Key: with
// Black to move the colours are swapped first, so Key{5, 3, 0, 0} holds the
// positions where the side to move has 5 pieces and its opponent 3. A move
// without capture leads from sector 5v3 to 3v5 (the colours swap again), a
// capture to 2v5 — which ends the game here, a side with fewer than 3 pieces
// having lost. So 5v3 and 3v5 are solved together, after 3v4 and 4v3 (5v4
// and 4v5 capture into 4v4 and 3v5, and so on).
//
// The placing phase has sectors too: the Key counts the pieces in each
// hand (8v8h1-1: eight on the board and one in hand each). A placement
// leads to a sector with one piece fewer in hand, so each placing sector is
// solved alone, from the sectors below it, by one pass over its positions;
// StartKey is the sector of the empty board, and building it builds the
// whole game (PlacingSupported says which rules allow it). For nine men's
// morris that is 318 sectors and 26.7 billion positions (docs/solved.md):
// the game is a draw.
//
// Positions are reduced by the 16 symmetries of the board and ranked
// (index.go): the index is dense, a few percent of the indices are unused
// duplicates of symmetric positions (6% in 5v5, 19% in 3v3), and the
// largest sector of nine men's morris with 10 pieces, 5v5, has 33 million
// indices for 31 million positions.
//
// # Rules
//
// Databases exist for rules whose positions are the board, the side to move
// and the pieces in hand (Supported): nine-mens-morris, twelve-mens-morris,
// twelve-mens-morris-small, twelve-mens-morris-large, mill and lasker, and
// their overrides of flying, protection, blocking, gridlock and the board.
// Not the re-forming ban (twelve-man-morris, nine-man-morris-diagonal),
// one-time mills (russian-mill), passing and the deferred capture (shah), or
// one capture per mill (morabaraba): their positions carry more state, or
// their moves are not modelled. A database serves every rule set that plays
// the moving phase alike: the draw rules, the first player, the pieces per
// side and everything about placing do not matter to it.
//
// The databases ignore the no-progress counter and repetition: a draw is a
// position from which neither side can force the end of the game (a side
// reduced below 3 pieces, or blocked), and a win may take more plies than a
// no-progress rule allows (the longest in nine men's morris up to 10 pieces
// takes 157 plies, and the draw comes after 100 without a capture).
//
// # Probing from a search
//
// Open reads the sector files of a directory (about 330 MB for nine men's
// morris up to 10 pieces) and Value returns the value of a position for
// its side to move, if the position lies in a sector of the DB (no pieces
// in hand, nothing pending); Probe returns the same as result and plies,
// the form package search wants: a *DB is a search.Tablebase, to pass as
// search.Options.Tablebase as it is. A search uses it like this:
//
//   - First ask p.Status: a game that is over is scored by the rules, not by
//     the DB (a side with 2 pieces is in no sector).
//   - If Probe(p) answers, the value is exact: return it without searching
//     below, as a score on the search's mate scale: a win in d plies as
//     MateScore - (ply + d), a loss as -(MateScore - (ply + d)), a draw as 0,
//     where ply is the distance from the root. Positions reached by a capture
//     out of a sector are in a lower sector, so a search that probes at every
//     node stops at the first position inside the DB.
//   - At the root, if the root itself is in the DB, play BestMove: it takes
//     the fastest win, else keeps a draw, else makes the loss last longest.
//     Following BestMove, a won position is won in exactly its number of
//     plies against any defence (at most that many), and a drawn one is
//     never lost. A search that probes its leaves and compares scores does
//     the same as long as it prefers the larger mate score, but BestMove is
//     the simple way to be sure.
//   - The no-progress rule is the search's business: a DB win longer than
//     the plies left before the draw may be, in the real game, a draw. A
//     win in n plies with the counter at q is sure when q+n is below the
//     rule's limit (the counter cannot reach it on the way); package
//     search treats any other as unproved (its TBWin score).
//
// Probe and Value cost about 100 ns and do not allocate; the DB is safe
// for concurrent use.
package egdb
