// Package wire is the JSON of the game server: the bodies of the HTTP API,
// the lines of its NDJSON streams and the messages of its WebSocket. It
// holds types only; the service fills them and the gateways encode them.
// docs/api.md documents every one with examples.
//
// Times are Unix milliseconds and durations milliseconds, as integers.
// Sides are "white" and "black" (white is the first player's colour, even
// when the lot makes black start).
package wire

// Player is one side of a game.
type Player struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Rating      float64 `json:"rating,omitempty"`
	Provisional bool    `json:"provisional,omitempty"`
	Bot         bool    `json:"bot,omitempty"`
}

// Control is a time control: real time (initial and increment) or
// correspondence (reminder and forfeit after so many days), or neither.
type Control struct {
	InitialMs   int64 `json:"initialMs,omitempty"`
	IncrementMs int64 `json:"incrementMs,omitempty"`
	NagDays     int   `json:"nagDays,omitempty"`
	ForfeitDays int   `json:"forfeitDays,omitempty"`
}

// Clocks are real-time clocks: the time left of each side at AtMs, and
// whose clock runs ("" when none).
type Clocks struct {
	WhiteMs int64  `json:"whiteMs"`
	BlackMs int64  `json:"blackMs"`
	Running string `json:"running,omitempty"`
	AtMs    int64  `json:"atMs"`
}

// Offer is a pending draw or take-back offer.
type Offer struct {
	Kind string `json:"kind"` // "draw" or "takeback"
	By   string `json:"by"`   // "white" or "black"
}

// GameState is everything about a game that changes: a stream sends it
// after a change that is not a move or a chat message (an offer, a
// take-back, an end off the board), and gameFull carries one.
type GameState struct {
	Type     string   `json:"type"` // "gameState"
	Version  int64    `json:"version"`
	Ply      int      `json:"ply"`
	Moves    []string `json:"moves"` // standard notation, from the start
	Position string   `json:"position"`
	ToMove   string   `json:"toMove"`
	Status   string   `json:"status"` // "active" or "finished"
	Result   string   `json:"result"` // "*", "1-0", "0-1", "1/2-1/2"
	Method   string   `json:"method,omitempty"`
	Clocks   *Clocks  `json:"clocks,omitempty"`
	Offers   []Offer  `json:"offers"`
	// DeadlineMs is when the side to move forfeits (correspondence).
	DeadlineMs int64 `json:"deadlineMs,omitempty"`
}

// GameFull is the first line of a game stream and the answer of GET
// /api/game/{id}: the game's fixed facts and its state.
type GameFull struct {
	Type        string    `json:"type"` // "gameFull"
	ID          int64     `json:"id"`
	Variant     string    `json:"variant"`
	Rules       string    `json:"rules"`
	Rated       bool      `json:"rated"`
	White       Player    `json:"white"`
	Black       Player    `json:"black"`
	Start       string    `json:"start"`                 // the start position
	Seed        *uint64   `json:"seed,omitempty,string"` // a string: 64 bits exceed JavaScript's exact integers
	Control     Control   `json:"control"`
	EngineLevel int       `json:"engineLevel,omitempty"`
	CreatedMs   int64     `json:"createdMs"`
	State       GameState `json:"state"`
	Chat        []Chat    `json:"chat"` // the last 200 messages at most
	// ChatMore: older messages are left, for GET /api/game/{id}/chat.
	ChatMore bool `json:"chatMore,omitempty"`
}

// Move is a move event of a game stream.
type Move struct {
	Type     string  `json:"type"` // "move"
	Version  int64   `json:"version"`
	Ply      int     `json:"ply"`  // the move's ply: 0 for the first move
	Move     string  `json:"move"` // standard notation
	Position string  `json:"position"`
	ToMove   string  `json:"toMove"`
	Clocks   *Clocks `json:"clocks,omitempty"`
	Status   string  `json:"status"`
	Result   string  `json:"result"`
	Method   string  `json:"method,omitempty"`
}

// Chat is a chat message, in a game stream and in GameFull.
type Chat struct {
	Type    string `json:"type,omitempty"` // "chat" in a stream
	Version int64  `json:"version"`
	User    string `json:"user"`
	Text    string `json:"text"`
	AtMs    int64  `json:"atMs"`
}

// ChatPage is a page of a game's chat (GET /api/game/{id}/chat), oldest
// first; More says that older messages are left: the next page is the one
// before the first message's version.
type ChatPage struct {
	Chat []Chat `json:"chat"`
	More bool   `json:"more"`
}

// GameSummary is a game in lists and in account events.
type GameSummary struct {
	ID        int64   `json:"id"`
	Variant   string  `json:"variant"`
	Rules     string  `json:"rules"`
	Rated     bool    `json:"rated"`
	White     Player  `json:"white"`
	Black     Player  `json:"black"`
	Status    string  `json:"status"`
	Result    string  `json:"result"`
	Method    string  `json:"method,omitempty"`
	Ply       int     `json:"ply"`
	ToMove    string  `json:"toMove,omitempty"`
	Control   Control `json:"control"`
	UpdatedMs int64   `json:"updatedMs"`
	// Event is the tournament the game was paired in, on the account
	// stream's gameStart; 0 (left out) elsewhere and for other games.
	Event int64 `json:"event,omitempty"`
}

// Challenge is an invitation to a game; To is nil for an open seek.
type Challenge struct {
	ID      int64   `json:"id"`
	From    Player  `json:"from"`
	To      *Player `json:"to,omitempty"`
	Variant string  `json:"variant"`
	Rules   string  `json:"rules"`
	Rated   bool    `json:"rated"`
	Color   string  `json:"color"` // the challenger's: white, black, random
	Control Control `json:"control"`
	Status  string  `json:"status"`
	Game    int64   `json:"game,omitempty"`
}

// ChallengePrefs is whom a player takes pbm challenges from in one variant
// (GET and POST /api/account/pbm-challenges). A pbm challenge starts a game
// at once, so taking them is an opt-in: AcceptAll is false and the lists
// are empty until the player says otherwise.
type ChallengePrefs struct {
	Variant   string   `json:"variant"`
	AcceptAll bool     `json:"acceptAll"` // challengers in neither list are taken
	Limit     int      `json:"limit"`     // active games of the variant at most; -1 for no limit
	Allow     []string `json:"allow"`     // taken even without AcceptAll
	Deny      []string `json:"deny"`      // never taken
}

// Event is a line of the account stream: Type says which field is set.
//
//	gameStart, gameFinish   Game
//	challenge, challengeAccepted, challengeDeclined, challengeCanceled   Challenge
//	reminder                Game (your turn in a correspondence game, since a while)
//	warning                 Warning (a moderator's, to acknowledge; sent again on each connection until it is)
//	followedGameStart, followedGameFinish   Game (of a player you follow; not of yours)
type Event struct {
	Type      string       `json:"type"`
	Game      *GameSummary `json:"game,omitempty"`
	Challenge *Challenge   `json:"challenge,omitempty"`
	Warning   *Warning     `json:"warning,omitempty"`
}

// Rating is a player's rating in a variant.
type Rating struct {
	Variant     string  `json:"variant"`
	User        string  `json:"user,omitempty"`
	Rating      float64 `json:"rating"`
	Deviation   float64 `json:"deviation"`
	Volatility  float64 `json:"volatility"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional"`
}

// Error is the body of every answer that is not a success.
type Error struct {
	Error string `json:"error"`
	// Request names the request in the server's log when the server
	// failed (a 500): the detail is there, never in the answer.
	Request string `json:"request,omitempty"`
}

// Explorer is the opening explorer's answer for a position (GET
// /api/explorer): the finished games of this server that reached it, and
// each move played from it or known to the opening book, the most played
// first.
type Explorer struct {
	Position string         `json:"position"`
	Games    int            `json:"games"` // finished games that reached the position and moved on from it
	Moves    []ExplorerMove `json:"moves"`
}

// ExplorerMove is a move of the explorer: how many finished games played
// it and how they ended, and the opening book's value of it for the side
// that plays it (a search score, 100 about a piece; absent when the book
// does not know it).
type ExplorerMove struct {
	Move  string `json:"move"`
	Games int    `json:"games"`
	White int    `json:"white"` // won by white
	Draws int    `json:"draws"`
	Black int    `json:"black"` // won by black
	Book  *int   `json:"book,omitempty"`
}

// Review is a review by the engine, of a game of the server (GET
// /api/game/ID/review) or of moves from elsewhere (GET /api/review/ID):
// where it stands and, once done, every move judged, the evaluation along
// the game for its graph, and a summary a side.
type Review struct {
	ID     int64  `json:"id"`             // the review's id (GET /api/review/ID)
	Game   int64  `json:"game,omitempty"` // the game reviewed; 0 for moves from elsewhere (an imported record)
	Status string `json:"status"`         // "none" (nobody asked), "queued", "running", "done", "failed"
	Done   int    `json:"done"`           // moves reviewed
	Total  int    `json:"total"`          // of all
	// Error says why a failed review failed (the web client shows it).
	Error string `json:"error,omitempty"`
	// Once done:
	Moves []ReviewMove `json:"moves,omitempty"`
	// Evals is the evaluation for white, in hundredths of a piece, of the
	// start and of the position after each move (len(Moves)+1 values),
	// bounded to ±1000; a forced end counts ±1000.
	Evals   []int                    `json:"evals,omitempty"`
	Summary map[string]ReviewSummary `json:"summary,omitempty"` // "white", "black"
	// The engine's limit a search: a depth, or a time.
	Depth      int `json:"depth,omitempty"`
	MoveTimeMs int `json:"movetimeMs,omitempty"`
}

// ReviewMove is one move judged: the engine's best move in the position
// before it, both scores for the side that moved (Score is the best
// move's, Played the move played's; their texts "cp 35", "mate 4"), what
// it lost (-1 where a forced end of the game makes a difference
// meaningless), what it lost of its side's winning chances (Drop, from 0 to
// 2: review.Chances) and its mark, by Drop: "", "inaccuracy", "mistake" or
// "blunder".
type ReviewMove struct {
	Ply        int    `json:"ply"`
	Side       string `json:"side"`
	Move       string `json:"move"`
	Best       string `json:"best"`
	Score      int    `json:"score"`
	ScoreText  string `json:"scoreText"`
	Played     int    `json:"played"`
	PlayedText string `json:"playedText"`
	// "win" or "loss" where Score (Proved) or Played (PlayedProved) is a
	// proof for the side that moved rather than an estimate: a forced end
	// or the endgame databases' value.
	Proved       string  `json:"proved,omitempty"`
	PlayedProved string  `json:"playedProved,omitempty"`
	Loss         int     `json:"loss"`
	Drop         float64 `json:"drop"`
	Mark         string  `json:"mark,omitempty"`
	Note         string  `json:"note,omitempty"`
}

// ReviewSummary counts one side's moves and how they were judged.
type ReviewSummary struct {
	Moves        int `json:"moves"`
	AverageLoss  int `json:"averageLoss"`
	Inaccuracies int `json:"inaccuracies"`
	Mistakes     int `json:"mistakes"`
	Blunders     int `json:"blunders"`
}

// Puzzle is a puzzle as the player sees it: the position, what the side
// to move must do, where it came from, and the puzzle's rating; not its
// solution.
type Puzzle struct {
	ID       int64  `json:"id"`
	Rules    string `json:"rules"`
	Variant  string `json:"variant"`
	Position string `json:"position"`
	ToMove   string `json:"toMove"`
	Goal     string `json:"goal"`   // "win": the side to move plays and wins; "draw": it finds the only move that saves the draw
	Plies    int    `json:"plies"`  // the length of the win with best play (0 for a draw)
	Source   string `json:"source"` // "tablebase", or "game N": a position of a game of this server
	Rating   int    `json:"rating"`
	Plays    int    `json:"plays"`
	Solved   int    `json:"solved"`
}

// PuzzleAnswer answers the player's moves at a puzzle: whether the last
// was right, the defence's reply, once done (solved, or a wrong move) and
// for a signed-in player's first attempt the rating before and after; the
// whole solution once solved, or when asked for (POST
// /api/puzzle/{id}/solution), not after a wrong move.
type PuzzleAnswer struct {
	Correct  bool          `json:"correct"`
	Reply    string        `json:"reply,omitempty"`
	Done     bool          `json:"done"`
	Solved   bool          `json:"solved"`
	Solution []string      `json:"solution,omitempty"`
	Rating   *RatingChange `json:"rating,omitempty"`
}

// RatingChange is a player's puzzle rating before and after an attempt.
type RatingChange struct {
	Before int `json:"before"`
	After  int `json:"after"`
}

// PuzzleHistory is a player's puzzle rating and last attempts.
type PuzzleHistory struct {
	User     string          `json:"user"`
	Rating   int             `json:"rating"` // 1500 before any attempt
	Plays    int             `json:"plays"`
	Attempts []PuzzleAttempt `json:"attempts"`
}

// PuzzleAttempt is one attempt: the first at a puzzle is rated.
type PuzzleAttempt struct {
	Puzzle int64 `json:"puzzle"`
	Solved bool  `json:"solved"`
	Rated  bool  `json:"rated"`
	Before int   `json:"before"`
	After  int   `json:"after"`
	AtMs   int64 `json:"atMs"`
}

// Account is the signed-in player (GET /api/account): a player, and
// whether a moderator, or muted (until MutedUntilMs, 0 until a moderator
// lifts it).
type Account struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	Bot          bool   `json:"bot,omitempty"`
	Moderator    bool   `json:"moderator,omitempty"`
	Muted        bool   `json:"muted,omitempty"`
	MutedUntilMs int64  `json:"mutedUntilMs,omitempty"`
}

// Report is a player's report of a player, or of a chat line (Line), to
// the moderators.
type Report struct {
	ID         int64       `json:"id"`
	Reporter   Player      `json:"reporter"`
	User       Player      `json:"user"` // the player reported
	Reason     string      `json:"reason"`
	Text       string      `json:"text"`
	Line       *ChatReport `json:"line,omitempty"`
	Status     string      `json:"status"` // open, resolved
	CreatedMs  int64       `json:"createdMs"`
	ResolvedBy *Player     `json:"resolvedBy,omitempty"`
	ResolvedMs int64       `json:"resolvedMs,omitempty"`
	Resolution string      `json:"resolution,omitempty"`
}

// ChatReport is the chat line a report is about, as it was when reported:
// the report keeps it when the game's chat no longer does.
type ChatReport struct {
	Game    int64  `json:"game"`
	Version int64  `json:"version"`
	Text    string `json:"text"`
	AtMs    int64  `json:"atMs"`
}

// ReportPage is a page of the moderators' queue, newest first; More says
// that older reports are left (the next page: before the last one's id).
type ReportPage struct {
	Reports []Report `json:"reports"`
	More    bool     `json:"more"`
}

// Block is a player the signed-in player blocks, since when.
type Block struct {
	User    Player `json:"user"`
	SinceMs int64  `json:"sinceMs"`
}

// Warning is a moderator's warning to a player, shown until acknowledged.
type Warning struct {
	ID             int64  `json:"id"`
	Text           string `json:"text"`
	AtMs           int64  `json:"atMs"`
	AcknowledgedMs int64  `json:"acknowledgedMs,omitempty"`
}

// ModAction is a line of the moderators' log. Moderator is nil for the
// operator (morris admin).
type ModAction struct {
	ID        int64   `json:"id"`
	Moderator *Player `json:"moderator,omitempty"`
	Action    string  `json:"action"`
	User      Player  `json:"user"`
	Report    int64   `json:"report,omitempty"`
	Note      string  `json:"note"`
	Detail    string  `json:"detail,omitempty"`
	AtMs      int64   `json:"atMs"`
}

// ModLog is a page of the moderators' log, newest first; More as in
// ReportPage.
type ModLog struct {
	Actions []ModAction `json:"actions"`
	More    bool        `json:"more"`
}

// ModUser is what the moderators see of a player: their standing, their
// latest warnings and the reports about them still open.
type ModUser struct {
	User         Player    `json:"user"`
	Moderator    bool      `json:"moderator"`
	ClosedMs     int64     `json:"closedMs,omitempty"`
	Muted        bool      `json:"muted"`
	MutedUntilMs int64     `json:"mutedUntilMs,omitempty"` // 0 while muted: until lifted
	Warnings     []Warning `json:"warnings"`
	OpenReports  int       `json:"openReports"`
}

// Annulment is what annulling a player's rated games did: the games made
// unrated and the variants whose ratings were computed again.
type Annulment struct {
	Games    []int64  `json:"games"`
	Variants []string `json:"variants"`
}

// Club is a club in lists (GET /api/clubs) and at the head of ClubFull.
type Club struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Open        bool   `json:"open"`    // anyone joins at once; closed: a leader accepts a request
	Members     int    `json:"members"` // how many, leaders included
	CreatedMs   int64  `json:"createdMs"`
}

// ClubList is a page of clubs, by name; More says that others follow:
// the next page is the one after the last club's name.
type ClubList struct {
	Clubs []Club `json:"clubs"`
	More  bool   `json:"more"`
}

// ClubMember is a member of a club.
type ClubMember struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Leader   bool   `json:"leader,omitempty"`
	JoinedMs int64  `json:"joinedMs"`
}

// ClubRequest is a request to join a closed club, as its leaders see it.
type ClubRequest struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	AtMs int64  `json:"atMs"`
}

// ClubRequests are the requests waiting to join a club: how many, and
// the oldest of them.
type ClubRequests struct {
	Count  int           `json:"count"`
	Oldest []ClubRequest `json:"oldest"`
}

// ClubFull is a club as GET /api/club/{id} shows it: its leaders, a page
// of its members (by id; More says others follow, after the last one's
// id), the caller's role in it (with a token) and, for its leaders only,
// the requests waiting.
type ClubFull struct {
	Club
	Leaders  []ClubMember  `json:"leaders"`
	Page     []ClubMember  `json:"page"`
	More     bool          `json:"more"`
	Role     string        `json:"role,omitempty"` // leader, member or requested
	Requests *ClubRequests `json:"requests,omitempty"`
}

// ClubMembership is where a player stands in a club after a change: role
// is leader, member, requested or none; Dissolved says that the club went
// with its last member.
type ClubMembership struct {
	Club      int64  `json:"club"`
	User      string `json:"user"`
	Role      string `json:"role"`
	Dissolved bool   `json:"dissolved,omitempty"`
}

// UserClub is a club on a player's profile (GET /api/user/{name}).
type UserClub struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Leader bool   `json:"leader,omitempty"`
}

// Online is a page of the players online (GET /api/online), by name:
// Count is how many are online (guests apart, in Guests); More says that
// others follow, after the last one's name.
type Online struct {
	Count   int      `json:"count"`
	Guests  int      `json:"guests"`
	Players []Player `json:"players"`
	More    bool     `json:"more"`
}

// Follow is a player one follows, or a follower: since when, and whether
// they are online (the list of those one follows only).
type Follow struct {
	User    Player `json:"user"`
	SinceMs int64  `json:"sinceMs"`
	Online  bool   `json:"online,omitempty"`
}

// Following is the players one follows, by name (GET
// /api/account/following).
type Following struct {
	Following []Follow `json:"following"`
}

// Followers is a page of one's followers, by id (GET
// /api/account/followers); More says others follow, after the last id.
type Followers struct {
	Followers []Follow `json:"followers"`
	More      bool     `json:"more"`
}

// FollowedGames are the games going on of the players one follows (GET
// /api/account/following/games), newest first.
type FollowedGames struct {
	Games []GameSummary `json:"games"`
}

// Leaderboard is a page of the best players of a preset (GET
// /api/leaderboard/{variant}): those with at least MinGames rated games
// and a deviation of at most MaxDeviation (not provisional), Total of
// them (at most the first 1000), ranked by rating.
type Leaderboard struct {
	Variant      string             `json:"variant"`
	MinGames     int                `json:"minGames"`
	MaxDeviation float64            `json:"maxDeviation"`
	Total        int                `json:"total"`
	Entries      []LeaderboardEntry `json:"entries"`
	More         bool               `json:"more"`
}

// LeaderboardEntry is a line of a leaderboard.
type LeaderboardEntry struct {
	Rank      int     `json:"rank"`
	User      Player  `json:"user"`
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
	Games     int     `json:"games"`
}

// Archive is a page of the archive of finished games (GET /api/archive),
// the latest end first; Next is the key of the next page (?before=), left
// out when there is none. A page may hold fewer games than asked, or
// none, and a Next: the filters matched few of the games it looked at.
type Archive struct {
	Games []GameSummary `json:"games"`
	Next  string        `json:"next,omitempty"`
}

// PlayerStats is a player's results (GET /api/user/{name}/stats): by
// preset and colour, and in all.
type PlayerStats struct {
	User    Player          `json:"user"`
	Total   SideResults     `json:"total"`
	Results []PresetResults `json:"results"`
}

// PresetResults are a player's results in one preset, as white and as
// black.
type PresetResults struct {
	Variant string      `json:"variant"`
	White   SideResults `json:"white"`
	Black   SideResults `json:"black"`
}

// SideResults count finished games by their result for the player.
type SideResults struct {
	Wins   int64 `json:"wins"`
	Draws  int64 `json:"draws"`
	Losses int64 `json:"losses"`
}

// RatingHistory is a player's rating after each rated game of a preset
// (GET /api/user/{name}/rating-history), oldest first: the last 1000;
// More says older ones are left out.
type RatingHistory struct {
	Variant string        `json:"variant"`
	Points  []RatingPoint `json:"points"`
	More    bool          `json:"more"`
}

// RatingPoint is a rating after a game.
type RatingPoint struct {
	Game      int64   `json:"game"`
	AtMs      int64   `json:"atMs"`
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
}

// Tournament is an event in lists (GET /api/tournaments) and at the head
// of TournamentFull. Kind is roundrobin, swiss, arena or correspondence;
// Status upcoming, running or finished; Round the rounds paired so far
// (an arena's waves of pairings).
type Tournament struct {
	ID      int64   `json:"id"`
	Name    string  `json:"name"`
	Kind    string  `json:"kind"`
	Variant string  `json:"variant"`
	Rated   bool    `json:"rated"`
	Control Control `json:"control"`
	// Rounds: a Swiss's; a round robin's once it has started.
	Rounds int `json:"rounds,omitempty"`
	// Cycles: a round robin's, 1 (single) or 2 (double).
	Cycles     int   `json:"cycles,omitempty"`
	DurationMs int64 `json:"durationMs,omitempty"` // an arena's
	// StartsMs is when it starts by itself; without it its organiser
	// starts it.
	StartsMs  int64           `json:"startsMs,omitempty"`
	Club      *TournamentClub `json:"club,omitempty"` // open to its members only
	MinRating int             `json:"minRating,omitempty"`
	MaxRating int             `json:"maxRating,omitempty"`
	// MaxPlayers bounds the field, withdrawn players included.
	MaxPlayers int `json:"maxPlayers"`
	// LateEntryUntil: a Swiss takes players until this many rounds are
	// paired.
	LateEntryUntil int    `json:"lateEntryUntil,omitempty"`
	ManualPairing  bool   `json:"manualPairing,omitempty"` // a Swiss its organiser pairs round by round
	EngineLevel    int    `json:"engineLevel,omitempty"`   // the engine plays, at this level
	Organiser      Player `json:"organiser"`
	Status         string `json:"status"`
	Round          int    `json:"round"`
	Players        int    `json:"players"`
	// Seed drew the lots (a round robin's numbers, a Swiss's first
	// colour); shown once the event has started. A string, as GameFull's.
	Seed       *uint64 `json:"seed,omitempty,string"`
	StartedMs  int64   `json:"startedMs,omitempty"`
	EndsMs     int64   `json:"endsMs,omitempty"` // an arena's end
	FinishedMs int64   `json:"finishedMs,omitempty"`
	// Note says why an event ended early or was cancelled.
	Note      string `json:"note,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"` // finished without having started
	CreatedMs int64  `json:"createdMs"`
	Version   int64  `json:"version"`
}

// TournamentClub is the club whose members alone may join an event.
type TournamentClub struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// TournamentList is a page of events, newest first; More says that older
// ones follow: the next page is the one before the last event's id.
type TournamentList struct {
	Tournaments []Tournament `json:"tournaments"`
	More        bool         `json:"more"`
}

// TournamentEntrant is a player of an event. Number is the player's
// number in a round robin's Berger table; FromRound the first round a
// late entrant of a Swiss may be paired in.
type TournamentEntrant struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Rating    int    `json:"rating"`
	Bot       bool   `json:"bot,omitempty"`
	Number    int    `json:"number,omitempty"`
	FromRound int    `json:"fromRound,omitempty"`
	Withdrawn bool   `json:"withdrawn,omitempty"`
	JoinedMs  int64  `json:"joinedMs"`
	// HalfByes are the rounds the player asked to sit out for half a
	// point (a Swiss's), those paired already included.
	HalfByes []int `json:"halfByes,omitempty"`
}

// TournamentGame is one board of a round: its game, players and result
// ("*" while it is played).
type TournamentGame struct {
	Board        int    `json:"board"`
	Game         int64  `json:"game"`
	White        Player `json:"white"`
	Black        Player `json:"black"`
	Status       string `json:"status"`
	Result       string `json:"result"`
	Method       string `json:"method,omitempty"`
	Ply          int    `json:"ply"`
	WhiteBerserk bool   `json:"whiteBerserk,omitempty"`
	BlackBerserk bool   `json:"blackBerserk,omitempty"`
}

// TournamentRound is a round's pairings (an arena's wave): its games and
// the player, if any, who has a bye. In a stream (type "round") it is a
// round just paired.
type TournamentRound struct {
	Type  string           `json:"type,omitempty"` // "round" in a stream
	Round int              `json:"round"`
	Games []TournamentGame `json:"games"`
	Bye   *Player          `json:"bye,omitempty"`
	// HalfByes sat the round out at their request, for half a point.
	HalfByes []Player `json:"halfByes,omitempty"`
}

// TournamentCell is what a player did in a round, in a crosstable: a game
// (Kind played: the opponent, the colour, the points; Pending while it is
// played), a bye, or absent (not yet entered, withdrawn, or, in a round
// robin of an odd field, the round off).
type TournamentCell struct {
	Kind     string  `json:"kind"`
	Opponent *Player `json:"opponent,omitempty"`
	Colour   string  `json:"colour,omitempty"`
	Points   float64 `json:"points"`
	Pending  bool    `json:"pending,omitempty"`
	Game     int64   `json:"game,omitempty"`
}

// TournamentStanding is one line of the standings: the rank (shared by
// players equal on points and every tie-break), the points, the values of
// the event's tie-breaks in their order, the games played in finished
// rounds, and the crosstable's row (a cell a round) or, in an arena, the
// points of each game (Sheet) and whether the next one counts double.
type TournamentStanding struct {
	Rank      int              `json:"rank"`
	Player    Player           `json:"player"`
	Rating    int              `json:"rating"`
	Points    float64          `json:"points"`
	TieBreaks []float64        `json:"tieBreaks"`
	Games     int              `json:"games"`
	Withdrawn bool             `json:"withdrawn,omitempty"`
	Rounds    []TournamentCell `json:"rounds,omitempty"`
	Sheet     []int            `json:"sheet,omitempty"`
	OnFire    bool             `json:"onFire,omitempty"`
}

// TournamentStandings are an event's standings as its games stand
// (GET /api/tournament/{id}/standings.json; a stream's "standings" line):
// TieBreaks names the tie-breaks in the order of each line's values.
type TournamentStandings struct {
	Type       string               `json:"type,omitempty"` // "standings" in a stream
	Tournament int64                `json:"tournament"`
	Name       string               `json:"name,omitempty"`
	Status     string               `json:"status"`
	Round      int                  `json:"round"`
	TieBreaks  []string             `json:"tieBreaks"`
	Standings  []TournamentStanding `json:"standings"`
}

// TournamentFull is an event as GET /api/tournament/{id} shows it, and
// the first line of its stream (type "tournament"): the event, its field,
// its rounds (an arena's last waves only: PairingsMore says that older
// ones are left out, all in the records) and its standings.
type TournamentFull struct {
	Type string `json:"type,omitempty"` // "tournament" in a stream
	Tournament
	Entrants     []TournamentEntrant  `json:"entrants"`
	Pairings     []TournamentRound    `json:"pairings"`
	PairingsMore bool                 `json:"pairingsMore,omitempty"`
	TieBreaks    []string             `json:"tieBreaks"`
	Standings    []TournamentStanding `json:"standings"`
}

// TournamentStatus is a stream's line (type "status") after a change of
// the event's status, round or note: the event's head.
type TournamentStatus struct {
	Type string `json:"type"` // "status"
	Tournament
}

// TournamentEntrants is a stream's line (type "entrants") after a player
// joined or withdrew: the field.
type TournamentEntrants struct {
	Type     string              `json:"type"` // "entrants"
	Entrants []TournamentEntrant `json:"entrants"`
}

// TournamentResult is a stream's line (type "result"): a game of a round
// ended.
type TournamentResult struct {
	Type  string         `json:"type"` // "result"
	Round int            `json:"round"`
	Game  TournamentGame `json:"game"`
}

// TournamentEntry is where a player stands in an event after joining or
// withdrawing: status entered or withdrawn, or none (an entry taken back
// before the start); FromRound the first round a late entrant plays.
type TournamentEntry struct {
	Tournament int64  `json:"tournament"`
	User       string `json:"user"`
	Status     string `json:"status"`
	FromRound  int    `json:"fromRound,omitempty"`
	// HalfByes are the rounds the player asked to sit out (after a
	// change of them).
	HalfByes []int `json:"halfByes,omitempty"`
}
