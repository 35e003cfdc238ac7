package mill

// Perft returns the number of move sequences of exactly depth turns from p.
// A turn includes its captures (docs/rules.md, "Move notation"), so a mill
// that can take k pieces gives k moves, and games that end earlier are not
// counted.
// Repetition is not judged (it needs a game's history).
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth+1)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	return perft(p, depth, bufs)
}

func perft(p Position, depth int, bufs [][]Move) uint64 {
	if depth == 1 {
		return uint64(p.NumMoves())
	}
	ms := p.Moves(bufs[depth][:0])
	bufs[depth] = ms[:0] // keep a buffer that grew
	var n uint64
	for _, m := range ms {
		n += perft(p.Play(m), depth-1, bufs)
	}
	return n
}

// DivideEntry is one legal move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Count uint64
}

// Divide returns, for each legal move of p, Perft of depth-1 after it.
func Divide(p Position, depth int) []DivideEntry {
	var out []DivideEntry
	if depth <= 0 {
		return nil
	}
	for _, m := range p.Moves(nil) {
		out = append(out, DivideEntry{Move: m, Count: Perft(p.Play(m), depth-1)})
	}
	return out
}

// PerftCounts breaks the last turn of each counted sequence down by kind.
type PerftCounts struct {
	Total      uint64
	Placements uint64
	Slides     uint64
	Flights    uint64
	Removals   uint64 // deferred captures (Shah)
	Passes     uint64
	Captures   uint64 // moves that take at least one piece (any kind)
	Ends       uint64 // positions at the last level where the game is over
}

// Add adds the counts of o to c.
func (c *PerftCounts) Add(o PerftCounts) {
	c.Total += o.Total
	c.Placements += o.Placements
	c.Slides += o.Slides
	c.Flights += o.Flights
	c.Removals += o.Removals
	c.Passes += o.Passes
	c.Captures += o.Captures
	c.Ends += o.Ends
}

// PerftDetailed is Perft with the last turns counted by kind, and the games
// ended after exactly depth turns counted as Ends. It is slower than Perft.
func PerftDetailed(p Position, depth int) PerftCounts {
	var c PerftCounts
	perftDetailed(p, depth, &c)
	return c
}

func perftDetailed(p Position, depth int, c *PerftCounts) {
	ms := p.Moves(make([]Move, 0, 64))
	if depth == 0 {
		if len(ms) == 0 {
			c.Ends++
		}
		return
	}
	for _, m := range ms {
		np := p.Play(m)
		if depth == 1 {
			c.Total++
			switch {
			case m.kind == PlaceMove:
				c.Placements++
			case m.kind == SlideMove && p.rules.adj[m.from]&(1<<m.to) == 0:
				c.Flights++
			case m.kind == SlideMove:
				c.Slides++
			case m.kind == RemoveMove:
				c.Removals++
			case m.kind == PassMove:
				c.Passes++
			}
			if m.ncap > 0 && m.kind != RemoveMove {
				c.Captures++
			}
		}
		perftDetailed(np, depth-1, c)
	}
}
