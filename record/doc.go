// Package record reads and writes game records: PGN-like text, several games
// to a stream. It imports the standard library and mill only.
//
// A record looks like this:
//
//	[Event "Club final"]
//	[Site "?"]
//	[Date "2024.05.??"]
//	[Round "3"]
//	[White "Ann"]
//	[Black "Bob"]
//	[Result "1-0"]
//	[Variant "nine-mens-morris"]
//	[Rules "flying=never"]
//	[Termination "blocked"]
//
//	{A quiet opening.} 1. d6 d5 2. a4 a7 3. g7 {White threatens g7-g4.} 3... d7
//	...
//	28. f4-f6xd5 1-0
//
// # Tags
//
// A tag pair is [Name "value"], on one line. The name is a letter, then
// letters, digits or _; in the value \" stands for " and \\ for \. A tag is
// given once. The writer puts the seven roster tags first, in this order,
// with "?" (Date "????.??.??") for those missing:
//
//	Event, Site, Date (YYYY.MM.DD, ?? for what is unknown), Round, White, Black, Result
//
// then the tags of the game, each only when it applies:
//
//	Variant      the preset, a mill.Variants id; nine-mens-morris when missing
//	Rules        the overrides of the preset, name=value separated by commas:
//	             "flying=never,protection=always"
//	Seed         the seed of the lot for the first player (rules with first=lot),
//	             decimal: mill.NewGame(rules, mill.WithSeed(seed)) draws the same
//	Position     the start position (mill position text) when the game did not
//	             start from the start; its rules must be those of Variant and
//	             Rules (with neither tag, they are the position's). There is
//	             no Seed then: a set-up game draws no lot.
//	Termination  how the game ended (mill.Method.String): "blocked",
//	             "repetition", "resignation", ...
//
// and then the other tags in their order. The Result tag repeats the result
// token, and must agree with it; the writer writes both from Record.Result.
//
// # Movetext
//
// After the tags: the moves, comments, and the result token 1-0, 0-1, 1/2-1/2
// or *, which ends the record. Tokens are separated by white space.
//
// Moves are in the standard notation (d6, d6-d5, a4-a7xd2, xd2, pass) or the
// pbmserv dialect (D6, D6-D5, A4-A7,D2, X,D2, PASS); the writer writes the
// standard one (mill.Board.MoveText with mill.Standard).
//
// Move numbers count pairs of plies, not colours: the move of ply p (counted
// from the start of the game: 0 at the start, the ply of the Position tag in a
// set-up game) has the number p/2+1, written "N." when p is even and "N..."
// when p is odd. They are optional, but a number that is there must be right:
// the reader checks it, which catches a lost move. The writer numbers every
// even ply, and an odd ply when it opens the movetext or follows a comment:
//
//	{a game comment} 1. d6 d5 2. a4 {a comment} 2... a7xd2 *
//
// Plies rather than colours, because a side can move twice running (in Shah,
// the side that removes the first piece after placing may be the side that
// placed last) and Black may move first (first=lot or first=black): the number
// says where a move is, the position says who plays it. "1.d6" (no space) and
// a move without a number are read too.
//
// Comments are {text} (no } inside) or ; text to the end of the line. A
// comment belongs to the move before it, or to the game (Record.Comment) if
// no move comes before it, even before the tags (so a comment after a result
// belongs to the next game); several comments in a row are joined, and the
// white space in a comment is collapsed to single spaces. The writer writes
// comments in braces, or after ; if they hold a }. Variations in ( ) and
// annotations like ! and $1 are not supported.
//
// The writer wraps the movetext at 80 columns, and leaves a blank line
// between records.
//
// # Reading and replaying
//
// Scanner checks the syntax (a *SyntaxError gives the line and column, and
// unwraps to mill.ErrSyntax). Record.Game rebuilds the game and checks every
// move (a *ReplayError gives the move number, the move, its line, and the
// reason, and unwraps to the mill error) and the result against the board.
// Replay does both for a stream, for the morris replay command.
//
// Where things are:
//
//	record.go   Record, Tag, MoveText; FromGame, Game, and their errors
//	scanner.go  Scanner: reading records
//	writer.go   Writer: writing records in the canonical form
//	replay.go   Replay and Summary, for the command line
//	sanmill.go  Sanmill's records (IsSanmill, FromSanmill): its names of rule sets, annotations and variations
package record
