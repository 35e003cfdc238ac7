package egdb

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Key names a sector: the pieces of each side on the board and in hand.
// Positions are stored for the side to move, called White here: a position
// with Black to move is stored with the colours swapped. So Key{5, 3, 0, 0}
// holds every position in which the side to move has 5 pieces on the board,
// its opponent 3, and neither has any in hand.
type Key struct {
	White, Black         int // pieces on the board: the side to move, its opponent
	WhiteHand, BlackHand int // pieces in hand
}

// String returns "5v3", or "5v3h2-1" when pieces are in hand (2 for the
// side to move, 1 for its opponent): no comma, so that lists of sectors
// can be written with commas.
func (k Key) String() string {
	s := strconv.Itoa(k.White) + "v" + strconv.Itoa(k.Black)
	if k.WhiteHand != 0 || k.BlackHand != 0 {
		s += "h" + strconv.Itoa(k.WhiteHand) + "-" + strconv.Itoa(k.BlackHand)
	}
	return s
}

// Moving reports whether the sector is one of the moving phase: no piece in hand.
func (k Key) Moving() bool { return k.WhiteHand == 0 && k.BlackHand == 0 }

// Swap returns the sector of the positions after a move that captures nothing.
func (k Key) Swap() Key { return Key{k.Black, k.White, k.BlackHand, k.WhiteHand} }

// ParseKey parses a sector name as printed by String: "5v3", "5v3h2-1".
func ParseKey(s string) (Key, error) {
	bad := fmt.Errorf("egdb: bad sector %q: want like 5v3 (5 pieces of the side to move against 3)", s)
	board, hands, hasHands := strings.Cut(s, "h")
	ws, bs, ok := strings.Cut(board, "v")
	if !ok {
		return Key{}, bad
	}
	var k Key
	var err error
	num := func(s string) int {
		n, e := strconv.Atoi(s)
		if e != nil || n < 0 || n > mill.MaxPoints {
			err = bad
		}
		return n
	}
	k.White, k.Black = num(ws), num(bs)
	if hasHands {
		wh, bh, ok := strings.Cut(hands, "-")
		if !ok {
			return Key{}, bad
		}
		k.WhiteHand, k.BlackHand = num(wh), num(bh)
	}
	if err != nil {
		return Key{}, err
	}
	return k, nil
}

// fileName is the name of the sector's file in a database directory.
func (k Key) fileName() string { return k.String() + ".egdb" }

// MovingSectors returns the sectors of the moving phase under r with at
// most maxOnBoard pieces on the board: every count from the rules' minimum
// (below which a side has lost) up to the pieces per side, fewest pieces
// first.
func MovingSectors(r *mill.Rules, maxOnBoard int) []Key {
	o := r.Options()
	var keys []Key
	for total := 2 * o.MinPieces; total <= maxOnBoard; total++ {
		for w := o.Pieces; w >= o.MinPieces; w-- {
			b := total - w
			if b >= o.MinPieces && b <= o.Pieces && w+b <= r.Board().Len() {
				keys = append(keys, Key{White: w, Black: b})
			}
		}
	}
	return keys
}

// compareKeys orders sectors fewest pieces on the board first, then the
// side to move's most, then the fewest in hand (the side to move's, then
// the other's): a total order.
func compareKeys(a, b Key) int {
	if d := (a.White + a.Black) - (b.White + b.Black); d != 0 {
		return d
	}
	if d := b.White - a.White; d != 0 {
		return d
	}
	if d := a.WhiteHand - b.WhiteHand; d != 0 {
		return d
	}
	return a.BlackHand - b.BlackHand
}
