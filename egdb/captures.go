package egdb

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/egdb/internal/wdl"
)

// The compact file's "don't care" positions (docs/egdb.md, "The compact
// file"). A position's value is the best of what its moves lead to, its
// captures among them, and a capture leads to a sector of fewer pieces. So
// where a capture already reaches the position's value, a reader that
// takes the best of the stored value and the captures' values finds the
// value whatever is stored below it: a position won by a capture may store
// a draw or a loss, one drawn by a capture may store a loss. The writer
// stores there whatever continues the run of values around it, which costs
// next to nothing: in the placing phase, where most positions can close a
// mill, it takes the streams from about 1.1 bits a position to 0.3. As in
// Syzygy's tables, the reader pays with a search of the captures, which
// goes down only where a capture's stored value is below what it needs.

// A capture is a move that closes a mill and takes a piece: the position
// after it, with the colours swapped (W the side to move: the taken side,
// less the piece), or end if it ends the game (the side taken from is left
// too few pieces: a win for the mover).
type capture struct {
	W, B  uint32
	index int64 // in the capture sector
	end   bool
}

// captures appends the captures of the position (W, B) of sector s to dst:
// those of the moves children lists (in the same order), nothing else.
func (wk *worker) captures(s int, W, B uint32, dst []capture) []capture {
	cs := wk.g.capture[s]
	wk.eachMill(s, W, B, func(sd *side, W2 uint32) bool {
		for c := sd.targets; c != 0; c &= c - 1 {
			at := bits.TrailingZeros32(c)
			cp := capture{end: true}
			if cs >= 0 {
				cp = capture{W: B &^ (1 << at), B: W2, index: wk.captureChild(sd, cs, at, W2)}
			}
			dst = append(dst, cp)
		}
		return true
	})
	return dst
}

// reaches reports whether a capture of the position (W, B) of sector s is
// worth goodness v to the mover (v > 0): one that ends the game, or one
// whose child's value in cvals (the capture sector's) is worth v.
func (wk *worker) reaches(s int, W, B uint32, v int, cvals values) bool {
	cs := wk.g.capture[s]
	return !wk.eachMill(s, W, B, func(sd *side, W2 uint32) bool {
		if cs < 0 {
			return false // every capture ends the game
		}
		for c := sd.targets; c != 0; c &= c - 1 {
			if 2-retroGoodness(cvals.at(wk.captureChild(sd, cs, bits.TrailingZeros32(c), W2))) == v {
				return false
			}
		}
		return true
	})
}

// eachMill calls f with each move of the position (W, B) of sector s that
// closes a mill (W2, the mover's pieces after it; sd, B's side for its
// captures, whose targets are not empty), in the order of children,
// until f returns false; it reports whether f never did.
func (wk *worker) eachMill(s int, W, B uint32, f func(sd *side, W2 uint32) bool) bool {
	g := wk.g
	lay := &g.lay[s]
	k := &g.keys[s]
	if _, over := g.end(W, B, lay.w, lay.b, k.WhiteHand, k.BlackHand); over {
		return true
	}
	placing := k.WhiteHand > 0
	if placing && !g.placingTakes {
		return true
	}
	// A move closes a mill only on a line that holds all but one point
	// in the mover's pieces, and that one empty: most positions without
	// one are done here, before the opponent's side is worked out.
	empty := g.all &^ (W | B)
	if !g.threat(W, empty) {
		return true
	}
	sd := wk.captureSide(s, B)
	if sd.targets == 0 {
		return true
	}
	if placing {
		for to := empty; to != 0; to &= to - 1 {
			t := bits.TrailingZeros32(to)
			if W2 := W | 1<<t; g.closes(W2, t) && !f(sd, W2) {
				return false
			}
		}
		return true
	}
	fly := g.flying(lay.w)
	for fr := W; fr != 0; fr &= fr - 1 {
		from := bits.TrailingZeros32(fr)
		to := empty
		if !fly {
			to &= g.adj[from]
		}
		for ; to != 0; to &= to - 1 {
			t := bits.TrailingZeros32(to)
			if W2 := W ^ (1<<from | 1<<t); g.closes(W2, t) && !f(sd, W2) {
				return false
			}
		}
	}
	return true
}

// captureSide returns the worker's side of B in sector s for its
// captures: B's images, the pieces a mill may take, and the capture
// entries (captureChild), filled afresh unless it is the last one's. It
// leaves out what sideOf works out for the moves without capture (the
// class of B in the next sector, the packed ranks), which the captures do
// not need.
func (wk *worker) captureSide(s int, B uint32) *side {
	sd := &wk.capSide
	if sd.ok && sd.s == s && sd.B == B {
		return sd
	}
	g := wk.g
	if sd.ok {
		g.x.toggle(&sd.imgB, sd.B^B)
	} else {
		g.x.imagesOf(&sd.imgB, B)
	}
	sd.ok, sd.s, sd.B, sd.took = true, s, B, 0
	sd.targets = g.capturable(B)
	return sd
}

// threat reports whether some line holds all but one point in own's
// pieces and that one empty: without one no move of own closes a mill
// (after a move the line is own's, so before it own held the rest of it,
// and the point moved to was empty).
func (g *rules) threat(own, empty uint32) bool {
	for _, l := range g.lines {
		if missing := l &^ own; missing&(missing-1) == 0 && missing&empty != 0 {
			return true
		}
	}
	return false
}

// goodness maps a symbol to an order of worth for the side to move: a loss
// 0, a draw 1, a win 2; a child's goodness g is worth 2-g to its parent.
func goodness(sym byte) int { return 2 - int(sym) }

// symOf is the symbol of a goodness.
func symOf(g int) byte { return byte(2 - g) }

func retroGoodness(v retro.Value) int {
	switch {
	case v.IsWin():
		return 2
	case v.IsLoss():
		return 0
	}
	return 1
}

// captureFree reports whether sector s of db's game may store its
// positions' values as don't care below their captures: a capture must
// lead to a sector of db (or end the game).
func captureFree(db *DB, g *game, s int) bool {
	cs := g.capture[s]
	if cs < 0 {
		return true
	}
	_, ok := db.sectors[g.keys[cs]]
	return ok
}

// sectorMasks returns what each index of sector s (of db's game g) may
// store, as wdl.EncodeLazy takes it: its value (0 for an unused index),
// and, where free (captureFree), a function that gives an index's whole
// mask: the value, or anything no better where a capture reaches it. The
// values are read by the processors in parts.
func sectorMasks(db *DB, g *game, s int, free bool) (allowed []byte, newFull func() func(int) byte) {
	vals := db.sectors[g.keys[s]].vals
	lay := &g.lay[s]
	allowed = make([]byte, lay.size)
	n := int64(len(allowed))
	parts := int64(runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := n*p/parts, n*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			var cu cursor
			for i := lo; i < hi; i++ {
				if _, _, valid := cu.position(lay, i); valid {
					allowed[i] = wdl.Only(symOf(retroGoodness(vals.at(i))))
				}
			}
		}()
	}
	wg.Wait()
	if !free {
		return allowed, nil
	}
	var cvals values
	if g.capture[s] >= 0 {
		cvals = db.sectors[g.keys[g.capture[s]]].vals
	}
	return allowed, func() func(int) byte {
		wk := &worker{g: g}
		var cu cursor
		return func(i int) byte {
			v := retroGoodness(vals.at(int64(i)))
			if v == 0 {
				return wdl.Only(symOf(v)) // a loss is a loss whatever a capture does
			}
			if W, B, _ := cu.position(lay, int64(i)); wk.reaches(s, W, B, v, cvals) {
				return noBetter(v)
			}
			return wdl.Only(symOf(v))
		}
	}
}

// noBetter is the mask of the symbols of goodness at most v.
func noBetter(v int) byte {
	var m byte
	for g := range v + 1 {
		m |= wdl.Only(symOf(g))
	}
	return m
}

// checkStream reads every index of the stream s back against what the
// sector's values allow there (allowed, as wdl.EncodeLazy leaves it, or
// from captureMasks): the value, or, where a capture reaches it, any value
// below. The chunks are shared among
// the processors.
func checkStream(s *wdl.Stream, allowed []byte) error {
	if s.Len() != int64(len(allowed)) {
		return fmt.Errorf("%w: the stream has %d values, the sector %d", ErrCorrupt, s.Len(), len(allowed))
	}
	if err := s.Verify(); err != nil {
		return err
	}
	parts := runtime.GOMAXPROCS(0)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := s.Chunks()*p/parts, s.Chunks()*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, s.ChunkLen())
			for c := lo; c < hi; c++ {
				got, err := s.Chunk(c, buf)
				if err != nil {
					errs[p] = err
					return
				}
				for j, sym := range got {
					i := c*s.ChunkLen() + j
					if m := allowed[i] & wdl.Any; m != 0 && m&wdl.Only(sym) == 0 {
						errs[p] = fmt.Errorf("%w: index %d reads %d, the sector allows %03b", ErrCorrupt, i, sym, m)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
