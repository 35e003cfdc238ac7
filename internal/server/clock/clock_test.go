package clock

import (
	"errors"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func TestRealTime(t *testing.T) {
	c := Control{Initial: 3 * time.Minute, Increment: 2 * time.Second}
	st := c.Start(0, t0)
	if got := st.Remaining(0, t0.Add(10*time.Second)); got != 170*time.Second {
		t.Errorf("white after 10 s: got %v, want 2m50s", got)
	}
	if got := st.Remaining(1, t0.Add(10*time.Second)); got != 3*time.Minute {
		t.Errorf("black's clock does not run: got %v", got)
	}
	if err := st.Moved(c, t0.Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	if st.Left[0] != 172*time.Second || st.Running != 1 {
		t.Errorf("after white's move: %+v, want 2m52s left and black running", st)
	}
	side, at, ok := st.FlagAt()
	if !ok || side != 1 || !at.Equal(t0.Add(10*time.Second+3*time.Minute)) {
		t.Errorf("black's flag: %v %v %v", side, at, ok)
	}
	// Black thinks past the flag: the flag falls without anyone moving.
	late := t0.Add(10*time.Second + 3*time.Minute + time.Millisecond)
	if s, flagged := st.Flagged(late); !flagged || s != 1 {
		t.Errorf("the flag must fall: %v %v", s, flagged)
	}
	before := st
	if err := st.Moved(c, late); !errors.Is(err, ErrFlagged) || st != before {
		t.Errorf("a move after the flag: got %v, state %+v", err, st)
	}
	st.Stop(late)
	if st.Remaining(1, late.Add(time.Hour)) != 0 || !st.Since.IsZero() {
		t.Errorf("stopped clocks: %+v", st)
	}
}

func TestDeadlines(t *testing.T) {
	c := Control{NagDays: 7, ForfeitDays: 21}
	day := 24 * time.Hour
	for _, tc := range []struct {
		name       string
		vacations  []Interval
		nag, forft time.Duration
	}{
		{"none", nil, 7 * day, 21 * day},
		{"a week away from day 2", []Interval{{t0.Add(2 * day), t0.Add(9 * day)}}, 14 * day, 28 * day},
		{"away when the turn starts", []Interval{{t0.Add(-day), t0.Add(3 * day)}}, 10 * day, 24 * day},
		{"after the forfeit", []Interval{{t0.Add(30 * day), t0.Add(40 * day)}}, 7 * day, 21 * day},
		{"two trips", []Interval{{t0.Add(10 * day), t0.Add(12 * day)}, {t0.Add(1 * day), t0.Add(2 * day)}}, 8 * day, 24 * day},
		{"an empty one", []Interval{{t0.Add(3 * day), t0.Add(3 * day)}}, 7 * day, 21 * day},
	} {
		nag, forfeit := c.Deadlines(t0, tc.vacations)
		if !nag.Equal(t0.Add(tc.nag)) || !forfeit.Equal(t0.Add(tc.forft)) {
			t.Errorf("%s: got nag %v, forfeit %v; want +%v, +%v", tc.name, nag.Sub(t0), forfeit.Sub(t0), tc.nag, tc.forft)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []Control{
		{Initial: -1}, {Increment: time.Second}, {Initial: time.Minute, ForfeitDays: 21},
		{NagDays: 21, ForfeitDays: 7}, {Initial: 48 * time.Hour}, {ForfeitDays: 1000},
	} {
		if c.Validate() == nil {
			t.Errorf("%+v: want an error", c)
		}
	}
	for _, c := range []Control{{}, {Initial: time.Minute}, {Initial: time.Minute, Increment: time.Second}, {NagDays: 7, ForfeitDays: 21}} {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
