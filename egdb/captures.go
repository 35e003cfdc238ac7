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
	g := wk.g
	lay := &g.lay[s]
	k := &g.keys[s]
	if _, over := g.end(W, B, lay.w, lay.b, k.WhiteHand, k.BlackHand); over {
		return dst
	}
	placing := k.WhiteHand > 0
	if placing && !g.placingTakes {
		return dst
	}
	// A move closes a mill only on a line that holds all but one point
	// in the mover's pieces, and that one empty: most positions without
	// one are done here, before the opponent's side is worked out.
	empty := g.all &^ (W | B)
	if !g.threat(W, empty) {
		return dst
	}
	sd := wk.sideOf(s, B)
	if sd.targets == 0 {
		return dst
	}
	cs := g.capture[s]
	add := func(dst []capture, t int, W2 uint32) []capture {
		if !g.closes(W2, t) {
			return dst
		}
		for c := sd.targets; c != 0; c &= c - 1 {
			at := bits.TrailingZeros32(c)
			if cs < 0 {
				dst = append(dst, capture{end: true})
				continue
			}
			dst = append(dst, capture{W: B &^ (1 << at), B: W2, index: wk.captureChild(sd, cs, at, W2)})
		}
		return dst
	}
	if placing {
		for to := empty; to != 0; to &= to - 1 {
			t := bits.TrailingZeros32(to)
			dst = add(dst, t, W|1<<t)
		}
		return dst
	}
	fly := g.flying(lay.w)
	for f := W; f != 0; f &= f - 1 {
		from := bits.TrailingZeros32(f)
		to := empty
		if !fly {
			to &= g.adj[from]
		}
		for ; to != 0; to &= to - 1 {
			t := bits.TrailingZeros32(to)
			dst = add(dst, t, W^(1<<from|1<<t))
		}
	}
	return dst
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

// captureMasks fills allowed with what each index of sector s (of db's
// game g) may store: the value itself, or, where a capture reaches it,
// anything no better (wdl masks; 0 for an unused index). free says whether
// the captures are read at all (captureFree). The work is shared among the
// processors.
func captureMasks(db *DB, g *game, s int, free bool, allowed []byte) {
	vals := db.sectors[g.keys[s]].vals
	var cvals []retro.Value
	if free && g.capture[s] >= 0 {
		cvals = db.sectors[g.keys[g.capture[s]]].vals
	}
	n := int64(len(allowed))
	parts := int64(runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := n*p/parts, n*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := &worker{g: g}
			var cu cursor
			var caps []capture
			for i := lo; i < hi; i++ {
				W, B, valid := cu.position(&g.lay[s], i)
				if !valid {
					allowed[i] = 0
					continue
				}
				v := retroGoodness(vals[i])
				allowed[i] = wdl.Only(symOf(v))
				if !free || v == 0 {
					continue // a loss is a loss whatever a capture does
				}
				caps = wk.captures(s, W, B, caps[:0])
				for _, c := range caps {
					// The capture's worth to the mover; v is the best
					// any move reaches, so the first capture worth v
					// decides.
					if c.end || 2-retroGoodness(cvals[c.index]) == v {
						allowed[i] = noBetter(v)
						break
					}
				}
			}
		}()
	}
	wg.Wait()
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
// sector's values allow there (allowed, from captureMasks): the value, or,
// where a capture reaches it, any value below. The chunks are shared among
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
					if m := allowed[i]; m != 0 && m&wdl.Only(sym) == 0 {
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
