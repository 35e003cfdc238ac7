package mill

import (
	"fmt"
	"strconv"
	"strings"
)

// Protection says which of the opponent's pieces a capture may take.
type Protection uint8

const (
	ProtectNone             Protection = iota // any piece may be taken
	ProtectUnlessAllInMills                   // pieces in mills are safe unless every piece stands in a mill
	ProtectAlways                             // pieces in mills are never taken; with no other target the capture is lost
)

// PlacingCaptures says what a mill closed while placing does.
type PlacingCaptures uint8

const (
	CaptureImmediate   PlacingCaptures = iota // it captures at once, as in the moving phase
	CaptureNone                               // it captures nothing
	CaptureDeferred                           // it captures nothing now; when placing ends, the first side to have formed a mill removes one piece (Shah)
	CaptureFromHand                           // it takes a piece from the opponent's hand, from the board when the hand is empty (Dooz)
	CaptureMark                               // it marks an opposing piece, which stays on its point, out of play, until placing ends (Da San Qi)
	CaptureCounted                            // it takes nothing now; when placing ends both sides remove pieces by a comparison of their mills (El Filja)
	CaptureCountedEach                        // it takes nothing now; when placing ends each side removes one opposing piece per mill it has
)

// removalStage reports whether placing can end in a stage of removals
// owed by one side or both (RemoveMove before any other move).
func (pc PlacingCaptures) removalStage() bool {
	return pc == CaptureDeferred || pc == CaptureCounted || pc == CaptureCountedEach
}

// BlockedRule says what happens to a side that has no legal move.
type BlockedRule uint8

const (
	BlockedLoses   BlockedRule = iota // the blocked side loses
	BlockedPasses                     // the blocked side passes its turn (Shah)
	BlockedDraw                       // the game is drawn
	BlockedRemoves                    // the blocked side removes an opposing piece next to one of its own, then moves (Zhi Qi)
)

// GridlockRule says what happens when neither side can move.
type GridlockRule uint8

const (
	GridlockLoses GridlockRule = iota // the side to move loses
	GridlockDraw                      // the game is drawn
)

// FullBoardRule says what a board filled by placing means.
type FullBoardRule uint8

const (
	FullBoardGridlock   FullBoardRule = iota // nothing special: the gridlock rule decides
	FullBoardDraw                            // the game is drawn
	FullBoardFirstLoses                      // the player who placed first loses (Da San Qi)
	FullBoardRemovals                        // the side to move and then the other each remove an opposing piece (Zhi Qi)
)

// FirstPlayer says who makes the first move.
type FirstPlayer uint8

const (
	FirstWhite FirstPlayer = iota
	FirstBlack
	FirstLot // drawn by lot when a game starts (seeded and recorded)
)

// Options is a complete rule set. Every field has a name, a default and a doc
// line in OptionList; the zero value is not valid, start from a preset's
// options (Variant.Options) or DefaultOptions.
type Options struct {
	Board            string
	Pieces           int
	DiagonalMills    bool
	FlyAt            int // 0: never
	MinPieces        int
	Protection       Protection
	PlacingCaptures  PlacingCaptures
	CapturePerMill   bool
	Blocked          BlockedRule
	Gridlock         GridlockRule
	FullBoard        FullBoardRule
	ReformBan        bool
	TrapRule         bool
	FirstPlayer      FirstPlayer
	SecondMovesFirst bool // when placing ends, the second player (who placed the last piece) moves first
	Repetition       int  // the occurrence of a position that draws: 3 for threefold, 0 off
	DrawAfter        int  // plies without a capture in the moving phase that draw; 0 off
	MoveWhilePlacing bool
	OneTimeMills     bool
	MillWins         bool // a mill wins the game at once and captures nothing
	CentreBan        bool // the first placement of the game may not take the board's centre
}

// DefaultOptions returns the rules of nine men's morris, the tournament game.
func DefaultOptions() Options {
	return Options{
		Board:      "standard24",
		Pieces:     9,
		FlyAt:      3,
		MinPieces:  3,
		Protection: ProtectUnlessAllInMills,
		Repetition: 3,
		DrawAfter:  100,
	}
}

// Option describes one rule option: its name as used in overrides
// ("flying=never"), the values it takes, its default and what it means.
type Option struct {
	Name   string
	Values string // the accepted values, for help texts
	Doc    string
	get    func(*Options) string
	set    func(*Options, string) error
}

// Default returns the option's value in DefaultOptions.
func (o Option) Default() string { d := DefaultOptions(); return o.get(&d) }

// Get returns the option's value in opts, as text.
func (o Option) Get(opts *Options) string { return o.get(opts) }

type enumValue[T ~uint8] struct {
	names []string
}

func (e enumValue[T]) get(v T) string { return e.names[v] }
func (e enumValue[T]) parse(name, s string) (T, error) {
	for i, n := range e.names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("option %s: %q is not one of %s", name, s, strings.Join(e.names, ", "))
}

var (
	protectionNames = enumValue[Protection]{[]string{"none", "unless-all-in-mills", "always"}}
	placingNames    = enumValue[PlacingCaptures]{[]string{"immediate", "none", "deferred", "hand", "mark", "counted", "counted-each"}}
	blockedNames    = enumValue[BlockedRule]{[]string{"loses", "passes", "draw", "removes"}}
	gridlockNames   = enumValue[GridlockRule]{[]string{"loses", "draw"}}
	fullBoardNames  = enumValue[FullBoardRule]{[]string{"gridlock", "draw", "first-loses", "removals"}}
	firstNames      = enumValue[FirstPlayer]{[]string{"white", "black", "lot"}}
)

func enumOption[T ~uint8](name, doc string, e enumValue[T], field func(*Options) *T) Option {
	return Option{
		Name: name, Values: strings.Join(e.names, "|"), Doc: doc,
		get: func(o *Options) string { return e.get(*field(o)) },
		set: func(o *Options, s string) error {
			v, err := e.parse(name, s)
			if err == nil {
				*field(o) = v
			}
			return err
		},
	}
}

func boolOption(name, doc string, field func(*Options) *bool) Option {
	return Option{
		Name: name, Values: "yes|no", Doc: doc,
		get: func(o *Options) string {
			if *field(o) {
				return "yes"
			}
			return "no"
		},
		set: func(o *Options, s string) error {
			switch s {
			case "yes", "true", "on", "1":
				*field(o) = true
			case "no", "false", "off", "0":
				*field(o) = false
			default:
				return fmt.Errorf("option %s: %q is not yes or no", name, s)
			}
			return nil
		},
	}
}

func intOption(name, values, doc string, never string, lo, hi int, field func(*Options) *int) Option {
	return Option{
		Name: name, Values: values, Doc: doc,
		get: func(o *Options) string {
			v := *field(o)
			if v == 0 && never != "" {
				return never
			}
			return strconv.Itoa(v)
		},
		set: func(o *Options, s string) error {
			if never != "" && s == never {
				*field(o) = 0
				return nil
			}
			v, err := strconv.Atoi(s)
			if err != nil || v < lo || v > hi {
				return fmt.Errorf("option %s: %q is not %s", name, s, values)
			}
			*field(o) = v
			return nil
		},
	}
}

// OptionList lists every rule option, in a fixed order.
var OptionList = []Option{
	{
		Name: "board", Values: strings.Join(boardIDs(), "|"),
		Doc: "the board: three squares, with diagonals, four squares, 3x3 points, with diagonals, two squares, two squares with a cross",
		get: func(o *Options) string { return o.Board },
		set: func(o *Options, s string) error {
			if _, ok := BoardByID(s); !ok {
				return fmt.Errorf("option board: unknown board %q (%s)", s, strings.Join(boardIDs(), ", "))
			}
			o.Board = s
			return nil
		},
	},
	intOption("pieces", "3..12", "pieces per side", "", 3, 12, func(o *Options) *int { return &o.Pieces }),
	boolOption("diagonal-mills", "whether three in a row on a diagonal line is a mill (boards with diagonals)", func(o *Options) *bool { return &o.DiagonalMills }),
	intOption("flying", "never|3..12", "a side with this many pieces or fewer on the board, and none in hand, may fly to any empty point", "never", 3, 12, func(o *Options) *int { return &o.FlyAt }),
	intOption("min-pieces", "1..3", "a side with fewer pieces than this (board and hand) loses", "", 1, 3, func(o *Options) *int { return &o.MinPieces }),
	enumOption("protection", "which pieces a capture may take: any, not those in mills unless all are, or never those in mills", protectionNames, func(o *Options) *Protection { return &o.Protection }),
	enumOption("placing-captures", "what a mill closed while placing does: capture at once; nothing; a removal deferred to the end of placing (Shah); take from the opponent's hand (Dooz); mark a piece that leaves when placing ends (Da San Qi); removals by mill counts when placing ends (El Filja), or one per mill", placingNames, func(o *Options) *PlacingCaptures { return &o.PlacingCaptures }),
	{
		Name: "captures", Values: "one|per-mill",
		Doc: "how many pieces a move takes: one, or one per mill it closes",
		get: func(o *Options) string {
			if o.CapturePerMill {
				return "per-mill"
			}
			return "one"
		},
		set: func(o *Options, s string) error {
			switch s {
			case "one":
				o.CapturePerMill = false
			case "per-mill":
				o.CapturePerMill = true
			default:
				return fmt.Errorf("option captures: %q is not one or per-mill", s)
			}
			return nil
		},
	},
	enumOption("blocked", "what happens to a side that cannot move: it loses, passes, the game is drawn, or it removes an opposing piece next to one of its own and then moves (Zhi Qi)", blockedNames, func(o *Options) *BlockedRule { return &o.Blocked }),
	enumOption("gridlock", "what happens when neither side can move: the side to move loses, or a draw", gridlockNames, func(o *Options) *GridlockRule { return &o.Gridlock }),
	enumOption("full-board", "a board filled by placing: the gridlock rule decides, a draw, the first player loses, or each side removes an opposing piece (the side to move first)", fullBoardNames, func(o *Options) *FullBoardRule { return &o.FullBoard }),
	boolOption("reform-ban", "a piece that broke its own mill may not re-form that mill on its owner's next turn", func(o *Options) *bool { return &o.ReformBan }),
	boolOption("trap-rule", "while the opponent is trapped (passing), mills capture nothing; only the trapping move captures (Shah)", func(o *Options) *bool { return &o.TrapRule }),
	enumOption("first", "who moves first: white, black, or drawn by lot when the game starts", firstNames, func(o *Options) *FirstPlayer { return &o.FirstPlayer }),
	boolOption("second-moves-first", "when placing ends, the second player (who placed the last piece) makes the first move (Da San Qi)", func(o *Options) *bool { return &o.SecondMovesFirst }),
	intOption("repetition", "0|2..9", "the occurrence of the same position that draws (3: threefold); 0 off", "", 0, 9, func(o *Options) *int { return &o.Repetition }),
	intOption("draw-after", "0..1000", "plies in the moving phase without a capture that draw; 0 off", "", 0, 1000, func(o *Options) *int { return &o.DrawAfter }),
	boolOption("move-while-placing", "a side with pieces in hand may slide instead of placing (Lasker)", func(o *Options) *bool { return &o.MoveWhilePlacing }),
	boolOption("one-time-mills", "each mill line captures only the first time a side forms it", func(o *Options) *bool { return &o.OneTimeMills }),
	boolOption("mill-wins", "a side that forms a mill wins the game at once; nothing is ever captured (three men's morris)", func(o *Options) *bool { return &o.MillWins }),
	boolOption("centre-ban", "the first placement of the game may not take the centre point (boards with a centre)", func(o *Options) *bool { return &o.CentreBan }),
}

// placingProblems reports the combinations of the rules of placing that
// cannot work: rules that act when placing ends need an end that both
// sides reach together, with the hands emptying in turn.
func (opts Options) placingProblems() []string {
	var errs []string
	pc := placingNames.get(opts.PlacingCaptures)
	switch opts.PlacingCaptures {
	case CaptureDeferred, CaptureMark, CaptureCounted, CaptureCountedEach:
		if opts.MoveWhilePlacing {
			errs = append(errs, fmt.Sprintf("placing-captures=%s and move-while-placing=yes: placing has no end that all pieces share", pc))
		}
	}
	if opts.SecondMovesFirst {
		switch {
		case opts.MoveWhilePlacing:
			errs = append(errs, "second-moves-first=yes and move-while-placing=yes: the hands do not empty in turn, so the last piece placed tells nothing of the second player")
		case opts.PlacingCaptures == CaptureFromHand:
			errs = append(errs, "second-moves-first=yes and placing-captures=hand: the hands do not empty in turn, so the last piece placed tells nothing of the second player")
		case opts.PlacingCaptures == CaptureDeferred:
			errs = append(errs, "second-moves-first=yes and placing-captures=deferred: the deferred removal decides who moves first")
		}
	}
	return errs
}

// boardIDs returns the ids of the boards, in the order of Boards.
func boardIDs() []string {
	ids := make([]string, len(boards))
	for i, b := range boards {
		ids[i] = b.ID
	}
	return ids
}

// LookupOption returns the option with the given name.
func LookupOption(name string) (Option, bool) {
	for _, o := range OptionList {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// Set sets one option from its text form, "name=value" split in two.
// On error opts is unchanged.
func (opts *Options) Set(name, value string) error {
	o, ok := LookupOption(name)
	if !ok {
		return fmt.Errorf("unknown rule option %q (see 'morris variants')", name)
	}
	c := *opts
	if err := o.set(&c, value); err != nil {
		return err
	}
	*opts = c
	return nil
}

// Apply applies overrides of the form "name=value"; it stops at the first bad
// one and leaves opts unchanged.
func (opts *Options) Apply(overrides ...string) error {
	c := *opts
	for _, ov := range overrides {
		name, value, ok := strings.Cut(ov, "=")
		if !ok {
			return fmt.Errorf("rule override %q: want name=value", ov)
		}
		if err := c.Set(strings.TrimSpace(name), strings.TrimSpace(value)); err != nil {
			return err
		}
	}
	*opts = c
	return nil
}

// Diff returns the overrides that turn base into opts, in OptionList order.
func (opts Options) Diff(base Options) []string {
	var out []string
	for _, o := range OptionList {
		if v := o.get(&opts); v != o.get(&base) {
			out = append(out, o.Name+"="+v)
		}
	}
	return out
}

// Validate reports an impossible or meaningless combination of options.
func (opts Options) Validate() error {
	if errs := opts.problems(); len(errs) > 0 {
		return fmt.Errorf("%w: %s", ErrRules, strings.Join(errs, "; "))
	}
	return nil
}

func (opts Options) problems() []string {
	b, ok := BoardByID(opts.Board)
	if !ok {
		return []string{fmt.Sprintf("unknown board %q", opts.Board)}
	}
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if opts.Pieces < 3 || opts.Pieces > 12 {
		bad("pieces=%d: want 3..12", opts.Pieces)
	} else if 2*opts.Pieces > b.Len() {
		bad("pieces=%d: %d pieces do not fit on the %d points of %s", opts.Pieces, 2*opts.Pieces, b.Len(), b.ID)
	}
	if opts.DiagonalMills && !b.HasDiagonals() {
		bad("diagonal-mills=yes: board %s has no diagonals (add diagonal-mills=no)", b.ID)
	}
	if opts.FlyAt != 0 && (opts.FlyAt < 3 || opts.FlyAt > opts.Pieces) {
		bad("flying=%d: want never or 3..pieces", opts.FlyAt)
	}
	if opts.MinPieces < 1 || opts.MinPieces > 3 {
		bad("min-pieces=%d: want 1..3", opts.MinPieces)
	}
	if opts.Protection > ProtectAlways || opts.PlacingCaptures > CaptureCountedEach || opts.Blocked > BlockedRemoves ||
		opts.Gridlock > GridlockDraw || opts.FullBoard > FullBoardRemovals || opts.FirstPlayer > FirstLot {
		bad("an option is out of range")
	}
	errs = append(errs, opts.placingProblems()...)
	if opts.TrapRule && opts.Blocked != BlockedPasses {
		bad("trap-rule=yes needs blocked=passes: only a passing side is trapped")
	}
	if opts.Blocked == BlockedRemoves && opts.Gridlock == GridlockDraw {
		bad("blocked=removes and gridlock=draw: a side that cannot move removes a piece, so neither side is ever stuck")
	}
	if opts.MillWins {
		// Mills decide the game; every rule about what they take is void.
		if opts.PlacingCaptures != CaptureImmediate {
			bad("mill-wins=yes and placing-captures=%s: a mill wins the game, while placing too", placingNames.get(opts.PlacingCaptures))
		}
		if opts.CapturePerMill {
			bad("mill-wins=yes and captures=per-mill: a mill wins the game and takes nothing")
		}
		if opts.OneTimeMills {
			bad("mill-wins=yes and one-time-mills=yes: the first mill ends the game")
		}
		if opts.ReformBan {
			bad("mill-wins=yes and reform-ban=yes: the first mill ends the game, so none is ever broken")
		}
		if opts.TrapRule {
			bad("mill-wins=yes and trap-rule=yes: mills take nothing anyway")
		}
	}
	if opts.CentreBan && b.Centre == NoPoint {
		bad("centre-ban=yes: board %s has no centre point", b.ID)
	}
	if opts.Repetition == 1 || opts.Repetition < 0 || opts.Repetition > 9 {
		bad("repetition=%d: want 0 (off) or 2..9", opts.Repetition)
	}
	if opts.DrawAfter < 0 || opts.DrawAfter > 1000 {
		bad("draw-after=%d: want 0..1000", opts.DrawAfter)
	}
	return errs
}
