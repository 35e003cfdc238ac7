package egdb

import (
	"context"
	"fmt"

	"github.com/morrisgame/morris/mill"
)

// Proof says what a Prover checked.
type Proof struct {
	// Positions is the distinct positions of the placing phase (up to the
	// board's symmetries) the proofs went through, each proof of a side
	// counted apart; Leaves the positions of the moving phase whose
	// values they read, and Ends the positions that end the game.
	Positions, Leaves, Ends int64
}

// A Prover proves the values of positions of the placing phase from the
// values of the moving phase alone, without the placing phase's sectors
// and without the solver's code of moves: a second pass, independent of
// the one that built them (docs/solved.md).
//
// The value the databases give a position is proved by the strategies it
// implies: that a side achieves at least a result is a tree whose nodes
// are the positions where that side is to move, one move each (the first
// whose position after it the databases call good enough for the side:
// the databases only choose the move, the proof then checks the position
// it leads to), and the positions where the other side is to move, every
// move each (mill's own Moves, Play and Status). A draw is proved as two
// such trees, one for each side; a win as one, for the winner. The tree
// ends where placing ends: there the value is read from the moving phase's
// sectors (which their own verify pass checks), or the game is over by
// mill's rules. Positions already proved (by any proof of the same
// Prover) are not proved again, so the trees are graphs of the positions
// the strategies reach.
type Prover struct {
	ctx   context.Context
	db    Perfect
	done  keySet
	proof Proof
	steps int
}

// NewProver returns a Prover that reads db.
func NewProver(ctx context.Context, db Perfect) *Prover {
	return &Prover{ctx: ctx, db: db}
}

// Proof returns what the proofs so far went through.
func (pr *Prover) Proof() Proof { return pr.proof }

// Prove proves the value that the databases give p, for its side to move,
// and returns it. It fails if a leaf's value does not bear it out (a value
// of the placing phase is then wrong, or the moving phase's), or if a
// position is missing from the databases.
func (pr *Prover) Prove(p mill.Position) (Result, error) {
	r := p.Rules()
	if r.Board().Len() > 24 || r.Options().Pieces > 15 {
		return 0, fmt.Errorf("egdb: prove: %s: the proofs keep boards of up to 24 points and up to 15 pieces a side", r)
	}
	// Rules whose placing phase has databases: a position is its board,
	// its hands and its side to move (the key), and placing never comes
	// back to a position (the proof is a graph without cycles).
	if err := PlacingSupported(r); err != nil {
		return 0, fmt.Errorf("egdb: prove: %w", err)
	}
	v, ok := pr.db.Value(p)
	if !ok {
		return 0, fmt.Errorf("egdb: prove %s: not in the databases", p)
	}
	side := p.SideToMove()
	var err error
	switch v.Result {
	case Draw:
		if err = pr.prove(p, side, Draw); err == nil {
			err = pr.prove(p, side.Other(), Draw)
		}
	case Win:
		err = pr.prove(p, side, Win)
	case Loss:
		err = pr.prove(p, side.Other(), Win)
	}
	return v.Result, err
}

// A proof's key is a position up to symmetry, with the side and the result
// proved of it, packed exactly into a word: the canonical position's two
// sets of points (24 bits each at most: MIF's boards and ours up to 24
// points), the pieces in hand (4 bits each), the side to move, the side
// proving and whether it proves a win, and a bit that is never zero. So the
// set of proved positions costs 8 bytes a slot (a nine men's morris proof
// goes through hundreds of millions of positions) and no two positions share a key.
type proofKey uint64

// keySet is a set of nonzero words: open addressing, linear probing,
// doubled at three quarters full (1.3 to 2.7 words an entry, and the
// old array beside the new one while it doubles).
type keySet struct {
	slots []proofKey
	n     int
}

func (ks *keySet) has(k proofKey) bool {
	if len(ks.slots) == 0 {
		return false
	}
	mask := uint64(len(ks.slots) - 1)
	for i := mix64(uint64(k)) & mask; ; i = (i + 1) & mask {
		switch ks.slots[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

func (ks *keySet) add(k proofKey) {
	if 4*(ks.n+1) > 3*len(ks.slots) {
		old := ks.slots
		ks.slots = make([]proofKey, max(1<<16, 2*len(old)))
		ks.n = 0
		for _, o := range old {
			if o != 0 {
				ks.add(o)
			}
		}
	}
	mask := uint64(len(ks.slots) - 1)
	for i := mix64(uint64(k)) & mask; ; i = (i + 1) & mask {
		switch ks.slots[i] {
		case k:
			return
		case 0:
			ks.slots[i] = k
			ks.n++
			return
		}
	}
}

// mix64 scrambles a key's bits for its slot (splitmix64's finaliser).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// prove proves that side achieves at least want (a draw or a win) from p.
func (pr *Prover) prove(p mill.Position, side mill.Color, want Result) error {
	if pr.steps++; pr.steps%4096 == 0 && pr.ctx.Err() != nil {
		return pr.ctx.Err()
	}
	if o, _ := p.Status(); o != mill.NoOutcome {
		pr.proof.Ends++
		if got, _ := resultFor(pr.db, p, side); got < want {
			return fmt.Errorf("egdb: prove: %s ends the game (%s), short of %s for %s", p, o, resultText(want), side)
		}
		return nil
	}
	us := p.SideToMove()
	if p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0 {
		// Placing is over: the moving phase's value.
		pr.proof.Leaves++
		got, ok := resultFor(pr.db, p, side)
		if !ok {
			return fmt.Errorf("egdb: prove: %s: not in the moving phase's databases", p)
		}
		if got < want {
			return fmt.Errorf("egdb: prove: %s is %s for %s by the moving phase, short of %s", p, resultText(got), side, resultText(want))
		}
		return nil
	}
	key := pr.keyOf(p, side, want)
	if pr.done.has(key) {
		return nil
	}
	moves := p.Moves(nil)
	if us == side {
		// One move whose position the databases call good enough; the
		// proof of that position decides. A move that needs no proof of
		// its own is taken first: one that ends placing or the game
		// (goodFor has read its value), or one to a position proved
		// already; so the strategies meet, and the graph stays small.
		var first mill.Position
		found := false
		for _, m := range moves {
			q := p.Play(m)
			if !pr.goodFor(q, side, want) {
				continue
			}
			if st, _ := q.Status(); st != mill.NoOutcome || q.InHand(mill.White)+q.InHand(mill.Black) == 0 || pr.done.has(pr.keyOf(q, side, want)) {
				if err := pr.prove(q, side, want); err != nil {
					return err
				}
				pr.done.add(key)
				pr.proof.Positions++
				return nil
			}
			if !found {
				first, found = q, true
			}
		}
		if !found {
			return fmt.Errorf("egdb: prove: %s: no move that the databases call at least %s for %s", p, resultText(want), side)
		}
		if err := pr.prove(first, side, want); err != nil {
			return err
		}
		pr.done.add(key)
		pr.proof.Positions++
		return nil
	}
	for _, m := range moves {
		if err := pr.prove(p.Play(m), side, want); err != nil {
			return err
		}
	}
	pr.done.add(key)
	pr.proof.Positions++
	return nil
}

// keyOf is the key of p up to symmetry, with the side and the result
// proved of it.
func (pr *Prover) keyOf(p mill.Position, side mill.Color, want Result) proofKey {
	c, _ := p.Canonical()
	k := uint64(c.Pieces(mill.White)) | uint64(c.Pieces(mill.Black))<<24 |
		uint64(c.InHand(mill.White))<<48 | uint64(c.InHand(mill.Black))<<52 |
		uint64(c.SideToMove())<<56 | uint64(side)<<57 | 1<<59
	if want == Win {
		k |= 1 << 58
	}
	return proofKey(k)
}

// goodFor reports whether the databases (or the rules, for a game over)
// give side at least want in q.
func (pr *Prover) goodFor(q mill.Position, side mill.Color, want Result) bool {
	got, ok := resultFor(pr.db, q, side)
	return ok && got >= want
}
