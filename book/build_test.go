package book

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// counting is an Analyzer scoring by fakeScore that counts its calls and
// the calls for each position.
type counting struct {
	calls int
	per   map[string]int
	stop  func() // called at the call numbered stopAt, if not nil
	at    int
}

func (c *counting) analyze(_ context.Context, p mill.Position) (int, int) {
	c.calls++
	if c.per == nil {
		c.per = map[string]int{}
	}
	k, _ := key(nil, p)
	c.per[string(k)]++
	if c.stop != nil && c.calls == c.at {
		c.stop()
	}
	return fakeScore(p), p.Ply() % 5
}

// slowBuild is Build's slow twin: a walk down every line of play, without
// canonical levels, from the definition of the positions of a book. It
// returns the keys of the positions it puts in the book, by ply.
func slowBuild(r *mill.Rules, o BuildOptions) map[int]map[string]bool {
	want := map[int]map[string]bool{}
	walked := map[string]bool{}
	var walk func(p mill.Position, ply int)
	walk = func(p mill.Position, ply int) {
		k, _ := key(nil, p)
		if walked[string(k)] {
			return
		}
		walked[string(k)] = true
		moves := p.Moves(nil)
		scores := make([]int, len(moves))
		best := -1 << 30
		for i, m := range moves {
			c := p.Play(m)
			ck, _ := key(nil, c)
			if want[ply+1] == nil {
				want[ply+1] = map[string]bool{}
			}
			want[ply+1][string(ck)] = true
			scores[i] = fakeScore(c)
			if c.SideToMove() != p.SideToMove() {
				scores[i] = -scores[i]
			}
			best = max(best, scores[i])
		}
		if ply+1 >= o.Plies+o.Deeper {
			return
		}
		for i, m := range moves {
			if ply+1 < o.Plies || scores[i] >= best-o.Margin {
				walk(p.Play(m), ply+1)
			}
		}
	}
	walk(r.Start(), 0)
	if r.Options().FirstPlayer == mill.FirstLot {
		walk(r.StartWith(mill.Black), 0)
	}
	return want
}

var buildCases = []struct {
	rules string
	o     BuildOptions
}{
	{"nine-mens-morris", BuildOptions{Plies: 1}},
	{"nine-mens-morris", BuildOptions{Plies: 3}},
	{"nine-mens-morris", BuildOptions{Plies: 2, Deeper: 1, Margin: 10}},
	{"nine-mens-morris", BuildOptions{Plies: 1, Deeper: 3, Margin: 0}},
	{"twelve-mens-morris", BuildOptions{Plies: 1, Deeper: 2, Margin: 5}}, // first player by lot: two starts
	{"lasker", BuildOptions{Plies: 2, Deeper: 1, Margin: 5}},
}

// TestBuild builds books with a fake analysis and checks the positions of
// each ply against the slow twin, that each was analysed once, that the
// lines written are the book, and that Choose answers in every position
// expanded.
func TestBuild(t *testing.T) {
	for _, tc := range buildCases {
		t.Run(fmt.Sprintf("%s/%d+%d/%d", tc.rules, tc.o.Plies, tc.o.Deeper, tc.o.Margin), func(t *testing.T) {
			r := mill.MustRules(tc.rules)
			b := new(Book)
			var out, progress bytes.Buffer
			var a counting
			if err := b.Build(context.Background(), r, tc.o, a.analyze, &out, &progress); err != nil {
				t.Fatal(err)
			}
			want := slowBuild(r, tc.o)
			got := map[int]map[string]bool{}
			for k, e := range b.entries {
				if got[e.pos.Ply()] == nil {
					got[e.pos.Ply()] = map[string]bool{}
				}
				got[e.pos.Ply()][k] = true
			}
			for ply := 1; ply <= tc.o.Plies+tc.o.Deeper; ply++ {
				if !maps.Equal(got[ply], want[ply]) {
					t.Errorf("ply %d: got %d positions, want %d; missing %v, extra %v", ply, len(got[ply]), len(want[ply]),
						first(diff(want[ply], got[ply])), first(diff(got[ply], want[ply])))
				}
			}
			if len(got) > tc.o.Plies+tc.o.Deeper {
				t.Errorf("positions at %d plies, want %d", len(got), tc.o.Plies+tc.o.Deeper)
			}
			if a.calls != b.Len() {
				t.Errorf("%d analyses for %d positions", a.calls, b.Len())
			}
			for k, n := range a.per {
				if n != 1 {
					t.Errorf("%s analysed %d times", k, n)
				}
			}
			// The lines written, in the order of Write.
			var written bytes.Buffer
			b.Write(&written)
			if out.String() != written.String() {
				t.Errorf("the lines of Build differ from Write's:\n%s\nWrite:\n%s", out.String(), written.String())
			}
			// The counts printed first.
			counts, err := Count(context.Background(), r, tc.o.Plies)
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range counts {
				line := fmt.Sprintf("  ply %d: %d positions, 0 in the book\n", i+1, n)
				if !strings.Contains(progress.String(), line) || n != len(want[i+1]) {
					t.Errorf("Count: ply %d: %d, want %d and %q in the progress:\n%s", i+1, n, len(want[i+1]), line, progress.String())
				}
			}
			// Build again: nothing to do.
			a = counting{}
			out.Reset()
			if err := b.Build(context.Background(), r, tc.o, a.analyze, &out, nil); err != nil || a.calls != 0 || out.Len() != 0 {
				t.Errorf("again: %v, %d analyses, %q written; want nothing to do", err, a.calls, out.String())
			}
		})
	}
}

// TestBuildChoose: a book built with Plies answers in every position of
// fewer plies, and with Deeper along the lines it chooses.
func TestBuildChoose(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	b := new(Book)
	var a counting
	o := BuildOptions{Plies: 2, Deeper: 2, Margin: 0}
	if err := b.Build(context.Background(), r, o, a.analyze, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range r.Start().Moves(nil) {
		p := r.Start().Play(m)
		for ply := 1; ply < o.Plies+o.Deeper; ply++ {
			c, ok := b.Choose(p, o.Margin, nil)
			if !ok {
				t.Fatalf("%s: no book move at ply %d", p, ply)
			}
			p = p.Play(c.Move)
		}
		if _, ok := b.Choose(p, o.Margin, nil); ok {
			t.Errorf("%s: a book move beyond the book's %d plies", p, o.Plies+o.Deeper)
		}
	}
}

func first(s []string) []string { return s[:min(len(s), 3)] }

func diff(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// TestBuildResume stops builds and goes on from what they wrote: cut in
// the middle of a line (a crash), or by the context (an interrupt). The
// book file that comes of it is the uninterrupted one, byte for byte.
func TestBuildResume(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	o := BuildOptions{Plies: 2, Deeper: 2, Margin: 5}
	var whole bytes.Buffer
	var a counting
	if err := new(Book).Build(context.Background(), r, o, a.analyze, &whole, nil); err != nil {
		t.Fatal(err)
	}
	total := a.calls

	// goOn resumes from the text of an interrupted build and returns the
	// file it makes and the analyses it took.
	goOn := func(t *testing.T, text []byte) ([]byte, int) {
		b, n, err := Resume(bytes.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		file := bytes.NewBuffer(text[:n:n])
		var a counting
		if err := b.Build(context.Background(), r, o, a.analyze, file, nil); err != nil {
			t.Fatal(err)
		}
		return file.Bytes(), a.calls
	}

	t.Run("crash", func(t *testing.T) {
		for _, cut := range []int{0, 1, whole.Len() / 3, whole.Len() / 2, whole.Len() - 1} {
			text := whole.Bytes()[:cut]
			done := bytes.Count(text, []byte("\n"))
			got, calls := goOn(t, text)
			if !bytes.Equal(got, whole.Bytes()) {
				t.Errorf("cut at %d: got\n%s\nwant\n%s", cut, got, whole.Bytes())
			}
			if calls != total-done {
				t.Errorf("cut at %d: %d analyses, want %d (%d of %d were done)", cut, calls, total-done, done, total)
			}
		}
	})

	t.Run("interrupt", func(t *testing.T) {
		for _, at := range []int{1, 5, total / 2, total} {
			ctx, cancel := context.WithCancel(context.Background())
			a := counting{stop: cancel, at: at}
			var file bytes.Buffer
			err := new(Book).Build(ctx, r, o, a.analyze, &file, nil)
			cancel()
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("stopped at %d: got %v, want context.Canceled", at, err)
			}
			if n := bytes.Count(file.Bytes(), []byte("\n")); n != at-1 {
				t.Errorf("stopped during analysis %d: %d lines written, want %d (not the one cut short)", at, n, at-1)
			}
			got, _ := goOn(t, file.Bytes())
			if !bytes.Equal(got, whole.Bytes()) {
				t.Errorf("stopped at %d: got\n%s\nwant\n%s", at, got, whole.Bytes())
			}
		}
	})
}

func TestBuildOptions(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	var a counting
	for _, o := range []BuildOptions{{Plies: 0}, {Plies: 1, Deeper: -1}, {Plies: 1, Margin: -1}} {
		if err := new(Book).Build(context.Background(), r, o, a.analyze, nil, nil); err == nil {
			t.Errorf("%+v: got no error", o)
		}
	}
	if a.calls != 0 {
		t.Errorf("%d analyses with bad options", a.calls)
	}
	if _, err := Count(context.Background(), r, 0); err == nil {
		t.Errorf("Count of 0 plies: got no error")
	}
	// The positions of nine men's morris in its first plies, up to symmetry.
	counts, err := Count(context.Background(), r, 4)
	if want := []int{4, 46, 428, 4200}; err != nil || !slices.Equal(counts, want) {
		t.Errorf("Count: got %v, %v; want %v", counts, err, want)
	}
}
