// Package clock keeps the time of games: real-time clocks (an initial time
// and an increment per move, enforced from timestamps, so a flag falls
// whether or not anyone is connected) and correspondence deadlines (days per
// move, a reminder and a forfeit, suspended by vacations). It is pure: the
// caller passes the time, so it is tested without waiting and the server
// can recompute everything from what it stored after a restart.
package clock

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// Control is a game's time control. The zero Control has no clock.
type Control struct {
	Initial   time.Duration // real time per side; 0 for none
	Increment time.Duration // added after each move of the side that moved
	// Correspondence: days the side to move has, a reminder after NagDays
	// and a forfeit after ForfeitDays without a move (pbmserv: 7 and 21).
	NagDays     int
	ForfeitDays int
}

// RealTime reports whether the control runs real-time clocks.
func (c Control) RealTime() bool { return c.Initial > 0 }

// Correspondence reports whether the control has correspondence deadlines.
func (c Control) Correspondence() bool { return c.ForfeitDays > 0 }

// Validate reports a control that cannot work.
func (c Control) Validate() error {
	switch {
	case c.Initial < 0 || c.Increment < 0 || c.NagDays < 0 || c.ForfeitDays < 0:
		return errors.New("clock: negative time")
	case c.Initial == 0 && c.Increment > 0:
		return errors.New("clock: an increment needs an initial time")
	case c.Initial > 0 && c.ForfeitDays > 0:
		return errors.New("clock: a game is real-time or correspondence, not both")
	case c.Initial > 24*time.Hour || c.Increment > time.Hour:
		return fmt.Errorf("clock: %v + %v is too long for a real-time game", c.Initial, c.Increment)
	case c.ForfeitDays > 365 || c.NagDays > 365:
		return errors.New("clock: more than a year per move")
	case c.NagDays > 0 && c.ForfeitDays > 0 && c.NagDays >= c.ForfeitDays:
		return errors.New("clock: the reminder must come before the forfeit")
	}
	return nil
}

// Side is 0 for the first player's clock, 1 for the second's (mill.White, mill.Black).
type Side int

// State is a real-time clock between two events: the time each side had
// left when its clock last stopped, and whose clock runs since when.
type State struct {
	Left    [2]time.Duration
	Running Side      // whose clock runs (meaningful when Since is set)
	Since   time.Time // when it started; zero when no clock runs
}

// Start returns the clocks at the start of a game: both full, first's running from now.
func (c Control) Start(first Side, now time.Time) State {
	return State{Left: [2]time.Duration{c.Initial, c.Initial}, Running: first, Since: now}
}

// Remaining returns the time side s has left at now (never below zero).
func (st State) Remaining(s Side, now time.Time) time.Duration {
	left := st.Left[s]
	if !st.Since.IsZero() && st.Running == s && now.After(st.Since) {
		left -= now.Sub(st.Since)
	}
	return max(left, 0)
}

// FlagAt returns when the running side's time runs out.
func (st State) FlagAt() (Side, time.Time, bool) {
	if st.Since.IsZero() {
		return 0, time.Time{}, false
	}
	return st.Running, st.Since.Add(st.Left[st.Running]), true
}

// Flagged reports whether the running side's time has run out at now.
func (st State) Flagged(now time.Time) (Side, bool) {
	s, at, ok := st.FlagAt()
	return s, ok && !now.Before(at)
}

// ErrFlagged is returned by Moved when the mover's time had already run out.
var ErrFlagged = errors.New("clock: time ran out")

// Moved records that the running side moved at now: its clock stops, gets
// the increment, and the other side's starts. If the mover's time had run
// out before now, the state is unchanged and ErrFlagged returned.
func (st *State) Moved(c Control, now time.Time) error {
	if st.Since.IsZero() {
		return errors.New("clock: no clock is running")
	}
	if _, flagged := st.Flagged(now); flagged {
		return ErrFlagged
	}
	s := st.Running
	st.Left[s] = st.Remaining(s, now) + c.Increment
	st.Running, st.Since = 1-s, now
	return nil
}

// Stop stops the clocks at now (the game ended): the time left is kept.
func (st *State) Stop(now time.Time) {
	if st.Since.IsZero() {
		return
	}
	st.Left[st.Running] = st.Remaining(st.Running, now)
	st.Since = time.Time{}
}

// Interval is a span of time, a vacation for instance: [From, To).
type Interval struct{ From, To time.Time }

// Deadlines returns when the side to move, whose turn began at turnStart,
// is reminded and when it forfeits, with the time inside vacations not
// counted: a vacation suspends both. Zero times mean none.
func (c Control) Deadlines(turnStart time.Time, vacations []Interval) (nag, forfeit time.Time) {
	if c.NagDays > 0 {
		nag = extend(turnStart, time.Duration(c.NagDays)*24*time.Hour, vacations)
	}
	if c.ForfeitDays > 0 {
		forfeit = extend(turnStart, time.Duration(c.ForfeitDays)*24*time.Hour, vacations)
	}
	return nag, forfeit
}

// extend returns the moment when d of time outside the vacations has passed since start.
func extend(start time.Time, d time.Duration, vacations []Interval) time.Time {
	vs := append([]Interval(nil), vacations...)
	sort.Slice(vs, func(i, j int) bool { return vs[i].From.Before(vs[j].From) })
	t := start
	for _, v := range vs {
		if !v.To.After(t) || !v.To.After(v.From) {
			continue // over before t, or empty
		}
		from := v.From
		if from.Before(t) {
			from = t // t is inside this vacation: counting starts at its end
		}
		if from.Sub(t) >= d {
			break // the deadline falls before this vacation
		}
		d -= from.Sub(t)
		t = v.To
	}
	return t.Add(d)
}
