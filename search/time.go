package search

import (
	"time"

	"github.com/morrisgame/morris/mill"
)

// Limits say when a search stops. With none set the search runs until its
// context is cancelled (or MaxDepth).
type Limits struct {
	Depth     int           // the deepest iteration, 0 for no limit
	Nodes     uint64        // stop after about this many nodes, 0 for no limit
	MoveTime  time.Duration // exactly this long
	Time      [2]time.Duration
	Inc       [2]time.Duration
	MovesToGo int  // moves to the next time control, 0 if none
	Infinite  bool // until the context is cancelled, whatever else is set
}

// budget returns how long to think: soft (do not start another iteration
// past it) and hard (stop). Zero means no limit.
func (l Limits) budget(side mill.Color) (soft, hard time.Duration) {
	if l.Infinite {
		return 0, 0
	}
	if l.MoveTime > 0 {
		return l.MoveTime, l.MoveTime
	}
	t := l.Time[side]
	if t <= 0 {
		return 0, 0
	}
	inc := l.Inc[side]
	mtg := l.MovesToGo
	if mtg <= 0 || mtg > 40 {
		mtg = 30
	}
	const overhead = 20 * time.Millisecond
	soft = t/time.Duration(mtg) + inc*3/4
	hard = min(t/3+inc, soft*4)
	if hard > t-overhead {
		hard = max(t-overhead, time.Millisecond)
	}
	soft = min(soft, hard)
	return soft, hard
}
