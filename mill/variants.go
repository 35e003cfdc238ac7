package mill

import "fmt"

// Variant is a named preset: a rule set from the rule sheets.
type Variant struct {
	ID          string
	Description string
	Source      string // the rule sheet or tradition it comes from
	Options     Options
}

func preset(id, desc, source string, edit func(*Options)) Variant {
	o := DefaultOptions()
	edit(&o)
	if err := o.Validate(); err != nil {
		panic("preset " + id + ": " + err.Error())
	}
	return Variant{ID: id, Description: desc, Source: source, Options: o}
}

// The presets (docs/rules.md, "Presets"). Each sets the draw rules to the defaults:
// threefold repetition and 100 plies without a capture.
var variants = []Variant{
	preset("nine-mens-morris", "the tournament game: 9 men, fly at 3, mills safe unless all are in mills", "a general rule sheet and the tournament rules of a play-by-mail server", func(o *Options) {}),
	preset("twelve-mens-morris", "12 men on the board with diagonals, diagonal mills, fly at 4, gridlock or a full board draws, first player by lot", "a rule sheet of the traditional game", func(o *Options) {
		o.Board, o.Pieces, o.DiagonalMills, o.FlyAt = "diagonal24", 12, true, 4
		o.Gridlock, o.FullBoard, o.FirstPlayer = GridlockDraw, FullBoardDraw, FirstLot
	}),
	preset("twelve-mens-morris-small", "12 men on the small board with diagonals, diagonal mills, fly at 3; a blocked side (even on a full board) loses", "a general rule sheet", func(o *Options) {
		o.Board, o.Pieces, o.DiagonalMills = "diagonal24", 12, true
	}),
	preset("twelve-mens-morris-large", "12 men on the large board of four squares, fly at 3", "a general rule sheet", func(o *Options) {
		o.Board, o.Pieces = "large32", 12
	}),
	preset("twelve-man-morris", "12 men, diagonal mills, no flying, any piece may be taken, no re-forming a broken mill at once, gridlock draws, first player by lot", "an old rule sheet", func(o *Options) {
		o.Board, o.Pieces, o.DiagonalMills, o.FlyAt = "diagonal24", 12, true, 0
		o.Protection, o.Gridlock, o.ReformBan, o.FirstPlayer = ProtectNone, GridlockDraw, true, FirstLot
	}),
	preset("nine-man-morris-diagonal", "9 men on the board with diagonals that make no mills, no flying, any piece may be taken, no re-forming a broken mill at once, first player by lot", "an old rule sheet", func(o *Options) {
		o.Board, o.FlyAt = "diagonal24", 0
		o.Protection, o.Gridlock, o.ReformBan, o.FirstPlayer = ProtectNone, GridlockDraw, true, FirstLot
	}),
	preset("shah", "Shax: 12 men, no captures while placing; the first to form a mill removes when the board is full; a trapped side passes", "an old rule sheet and the Shax tradition", func(o *Options) {
		o.Pieces, o.FlyAt = 12, 0
		o.Protection, o.PlacingCaptures, o.Blocked, o.Gridlock = ProtectNone, CaptureDeferred, BlockedPasses, GridlockDraw
		o.TrapRule, o.FirstPlayer = true, FirstLot
	}),
	preset("mill", "9 men, the diagonals are for moving only, no flying, pieces in mills are never taken, white first", "an old rule sheet with a printed board", func(o *Options) {
		o.Board, o.FlyAt, o.Protection = "diagonal24", 0, ProtectAlways
	}),
	preset("lasker", "10 men; while you have men in hand you may place or slide", "Emanuel Lasker's variant", func(o *Options) {
		o.Pieces, o.MoveWhilePlacing = 10, true
	}),
	preset("morabaraba", "12 men, diagonal mills, fly at 3, one capture per mill closed, a full board draws", "southern African tradition", func(o *Options) {
		o.Board, o.Pieces, o.DiagonalMills = "diagonal24", 12, true
		o.CapturePerMill, o.FullBoard = true, FullBoardDraw
	}),
	preset("russian-mill", "nine men's morris where each mill line captures only the first time a side forms it", "regional tradition", func(o *Options) {
		o.OneTimeMills = true
	}),
	preset("three-mens-morris", "3 men on 3x3 points, no diagonals; place, then step along the lines; a mill wins the game", "the smaller merels of H. J. R. Murray's histories, as rule pages give it today", func(o *Options) {
		o.Board, o.Pieces, o.FlyAt, o.MillWins = "standard9", 3, 0, true
	}),
	preset("tapatan", "three men's morris on 3x3 points with both diagonals, to move along and to make mills", "the Philippine game as Culin described it, and rule pages today", func(o *Options) {
		o.Board, o.Pieces, o.DiagonalMills, o.FlyAt, o.MillWins = "diagonal9", 3, true, 0, true
	}),
	preset("six-mens-morris", "6 men on two squares (16 points), mills on the sides only, no flying", "the medieval game, as rule pages and game programs give it today", func(o *Options) {
		o.Board, o.Pieces, o.FlyAt = "standard16", 6, 0
	}),
	preset("seven-mens-morris", "7 men on two squares with a cross through the centre (17 points), no flying", "the six men's board with a cross, as game programs give it", func(o *Options) {
		o.Board, o.Pieces, o.FlyAt = "cross17", 7, 0
	}),
	preset("dooz", "Iran: 12 men, diagonal mills, fly at 3; a mill closed while placing takes a piece from the opponent's hand (from the board once it is empty)", "the Iranian game as the strongest open Mill app plays it", func(o *Options) {
		o.Board, o.Pieces, o.DiagonalMills = "diagonal24", 12, true
		o.PlacingCaptures = CaptureFromHand
	}),
	preset("cheng-san-qi", "China: nine men's morris without flying", "the Chinese game as the strongest open Mill app plays it", func(o *Options) {
		o.FlyAt = 0
	}),
	preset("da-san-qi", "China: 12 men, diagonal mills, no flying, any piece may be taken; mills while placing mark pieces that leave when placing ends; the second player moves first; a full board loses for the first", "Chinese rule pages and the strongest open Mill app", func(o *Options) {
		o.Board, o.Pieces, o.DiagonalMills, o.FlyAt = "diagonal24", 12, true, 0
		o.Protection, o.PlacingCaptures, o.SecondMovesFirst, o.FullBoard = ProtectNone, CaptureMark, true, FullBoardFirstLoses
	}),
	preset("zhi-qi", "China: 12 men, diagonal mills, fly at 3; a full board makes each side remove a piece; a blocked side removes a piece next to its own, then moves", "the Chinese game as the strongest open Mill app plays it", func(o *Options) {
		o.Board, o.Pieces, o.DiagonalMills = "diagonal24", 12, true
		o.Blocked, o.FullBoard = BlockedRemoves, FullBoardRemovals
	}),
	preset("el-filja", "Morocco: 12 men, no flying, any piece may be taken; mills while placing take nothing, and both sides remove pieces by their mill counts when placing ends", "the Moroccan game as the strongest open Mill app plays it", func(o *Options) {
		o.Pieces, o.FlyAt, o.Protection = 12, 0, ProtectNone
		o.PlacingCaptures, o.FullBoard = CaptureCounted, FullBoardRemovals
	}),
}

// Variants returns the presets in a fixed order.
func Variants() []Variant { return append([]Variant(nil), variants...) }

// LookupVariant returns the preset with the given id.
func LookupVariant(id string) (Variant, error) {
	for _, v := range variants {
		if v.ID == id {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("%w: %q (see 'morris variants')", ErrUnknownVariant, id)
}
