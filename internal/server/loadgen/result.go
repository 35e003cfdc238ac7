package loadgen

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"time"
)

// Result is what a run measured.
type Result struct {
	// Moves are the moves sent and answered within the measured span,
	// Elapsed long; Games the games finished in the run.
	Moves, Games int
	Elapsed      time.Duration
	// Errors are the calls that failed (not those cut short by the run's
	// end); Refused, those of them refused by a limit (429 or 503).
	Errors, Refused int
	// Latency is the time of each measured move request.
	Latency []time.Duration
	// Streams says whether the games had streams, and then: Seen is the
	// time from a measured move sent to its event on the game's stream,
	// SeenAcross the same for the moves sent to another server than the
	// stream's, and Missed counts the measured moves whose event never
	// came.
	Streams          bool
	Seen, SeenAcross []time.Duration
	Missed           int
	// Memory is each server's resident memory and streams before the
	// games and when they were going (from its /metrics), GamesGoing the
	// games going at the second reading.
	Memory     []ServerMemory
	GamesGoing int
}

// ServerMemory is a server's memory before and during the games.
type ServerMemory struct {
	Base                   string
	Before, After          float64 // resident bytes (0: not known)
	StreamsBefore, Streams float64 // streams open
}

// WriteTo writes the report of r to w: the moves a second, the errors, the
// percentiles of the latencies, and each server's memory.
func (r *Result) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "moves %d in %.1f s: %.0f moves/s; games finished %d; errors %d (refused by a limit %d)\n",
		r.Moves, r.Elapsed.Seconds(), float64(r.Moves)/r.Elapsed.Seconds(), r.Games, r.Errors, r.Refused)
	fmt.Fprintf(&b, "move latency: %s\n", percentiles(r.Latency))
	if r.Streams {
		fmt.Fprintf(&b, "seen on the game's stream: %s (%d moves; %d never seen)\n", percentiles(r.Seen), len(r.Seen), r.Missed)
		if len(r.SeenAcross) > 0 {
			fmt.Fprintf(&b, "seen on another server's stream: %s (%d moves)\n", percentiles(r.SeenAcross), len(r.SeenAcross))
		}
	}
	for _, m := range r.Memory {
		if m.After == 0 {
			continue
		}
		per := ""
		switch {
		case r.GamesGoing > 0 && m.After >= m.Before:
			per = fmt.Sprintf(", %.1f KB a game with its stream", (m.After-m.Before)/float64(r.GamesGoing)*float64(len(r.Memory))/1e3)
		case r.GamesGoing > 0:
			// The server gave memory back to the system meanwhile (its
			// garbage collector, or a cache released): no figure a game.
			per = "; less than before, so no figure a game (too few games to outweigh what the server gave back)"
		}
		fmt.Fprintf(&b, "memory of %s: %.0f MB resident before the games, %.0f MB with %d games going and %.0f streams open%s\n",
			m.Base, m.Before/1e6, m.After/1e6, r.GamesGoing, m.Streams, per)
	}
	return b.WriteTo(w)
}

// percentiles returns "p50 .. ms, p90 .., p99 .., max .." of lat (sorted here).
func percentiles(lat []time.Duration) string {
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	return fmt.Sprintf("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms", ms(pct(0.50)), ms(pct(0.90)), ms(pct(0.99)), ms(pct(1)))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
