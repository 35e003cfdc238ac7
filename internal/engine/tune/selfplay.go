package tune

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

// MatchOptions are the settings of the self-play experiments (Tune,
// Ablate, Compare): the games of each comparison.
type MatchOptions struct {
	Rules        *mill.Rules // the rules of the games
	Pairs        int         // game pairs per comparison (colours swapped)
	Depth        int         // the search depth of every move
	OpeningPlies int         // random plies of each opening
	Workers      int         // games played at once
}

// DefaultMatch are the settings of the experiments of docs/eval.md: nine
// men's morris, 100 pairs at depth 4 from openings of 8 random plies, on
// two goroutines.
var DefaultMatch = MatchOptions{Rules: mill.MustRules("nine-mens-morris"), Pairs: 100, Depth: 4, OpeningPlies: 8, Workers: 2}

func (o MatchOptions) match(ctx context.Context, a, b *eval.Weights, pairs int, seed uint64) Result {
	return Match(ctx, o.Rules, a, b, pairs, o.OpeningPlies, o.Depth, seed, o.Workers)
}

// A Step is a weight Tune moves and the size of each move.
type Step struct {
	Param
	Size int
}

// TuneSteps are the weights Tune moves, in order.
var TuneSteps = []Step{
	{Param{"Mill[moving]", func(w *eval.Weights) *int { return &w.Mill[eval.Moving] }}, 10},
	{Param{"Two[placing]", func(w *eval.Weights) *int { return &w.Two[eval.Placing] }}, 8},
	{Param{"Two[moving]", func(w *eval.Weights) *int { return &w.Two[eval.Moving] }}, 8},
	{Param{"Closable[moving]", func(w *eval.Weights) *int { return &w.Closable[eval.Moving] }}, 12},
	{Param{"Double[moving]", func(w *eval.Weights) *int { return &w.Double[eval.Moving] }}, 20},
	{Param{"Mobility[placing]", func(w *eval.Weights) *int { return &w.Mobility[eval.Placing] }}, 3},
	{Param{"Mobility[moving]", func(w *eval.Weights) *int { return &w.Mobility[eval.Moving] }}, 4},
	{Param{"Blocked[moving]", func(w *eval.Weights) *int { return &w.Blocked[eval.Moving] }}, 4},
	{Param{"Closable[flying]", func(w *eval.Weights) *int { return &w.Closable[eval.Flying] }}, 15},
	{Param{"Two[flying]", func(w *eval.Weights) *int { return &w.Two[eval.Flying] }}, 10},
}

// Tune is coordinate tuning by self-play from start: each weight of steps
// is moved up, and then down, by its step; a move is kept when it scores
// above 50% by more than half its 95% margin, and the next weight is
// tried. It goes over the weights passes times, each match with the next
// seed from seed, and writes a row of a Markdown table to out for each
// match; then the weights found, and a verification match of twice the
// pairs against start. It returns the weights found.
func Tune(ctx context.Context, start eval.Weights, steps []Step, passes int, o MatchOptions, seed uint64, out io.Writer) eval.Weights {
	best := start
	fmt.Fprintf(out, "| change | games | +win =draw -loss | score | Elo ± 95%% | kept | time |\n|---|---|---|---|---|---|---|\n")
	for range passes {
		for _, s := range steps {
			for _, dir := range []int{+1, -1} {
				cand := best
				*s.At(&cand) += dir * s.Size
				t0 := time.Now()
				res := o.match(ctx, &cand, &best, o.Pairs, seed)
				seed++
				elo, margin := res.Elo()
				kept := elo > margin/2
				fmt.Fprintf(out, "| %s %+d -> %d | %s | %v | %s |\n", s.Name, dir*s.Size, *s.At(&cand), res.row(), kept, time.Since(t0).Round(time.Second))
				if kept {
					best = cand
					break
				}
			}
		}
	}
	fmt.Fprintf(out, "final: %+v\n", best)
	res := o.match(ctx, &best, &start, 2*o.Pairs, seed)
	elo, margin := res.Elo()
	fmt.Fprintf(out, "verification, final against the start: %d games, +%d =%d -%d, %.1f%%, Elo %+.0f ± %.0f\n",
		res.Games(), res.Wins, res.Draws, res.Losses, 100*res.Score(), elo, margin)
	return best
}

// row is the result as cells of the experiments' tables: games, +win
// =draw -loss, score, Elo and margin.
func (r Result) row() string {
	elo, margin := r.Elo()
	return fmt.Sprintf("%d | +%d =%d -%d | %.1f%% | %+.0f ± %.0f", r.Games(), r.Wins, r.Draws, r.Losses, 100*r.Score(), elo, margin)
}

// An Ablation is a group of features switched off.
type Ablation struct {
	Name string
	Edit func(*eval.Weights)
}

// Ablations are the feature groups Ablate switches off, one at a time.
var Ablations = []Ablation{
	{"material only", func(w *eval.Weights) { *w = eval.Weights{Piece: w.Piece} }},
	{"no mills", func(w *eval.Weights) { w.Mill = [eval.NumPhases]int{} }},
	{"no twos", func(w *eval.Weights) { w.Two = [eval.NumPhases]int{} }},
	{"no closable", func(w *eval.Weights) { w.Closable = [eval.NumPhases]int{} }},
	{"no running mills", func(w *eval.Weights) { w.Double = [eval.NumPhases]int{} }},
	{"no mobility", func(w *eval.Weights) { w.Mobility = [eval.NumPhases]int{} }},
	{"no blocked", func(w *eval.Weights) { w.Blocked = [eval.NumPhases]int{} }},
	{"no cramp", func(w *eval.Weights) { w.Cramp = [eval.NumPhases]int{} }},
	{"no reserved points", func(w *eval.Weights) { w.Reserved = [eval.NumPhases]int{} }},
}

// Ablate plays base against itself with each of ablations applied (seeds
// 1000, 1001, ...): how much each feature group is worth, in Elo. It writes
// a Markdown table to out.
func Ablate(ctx context.Context, base eval.Weights, ablations []Ablation, o MatchOptions, out io.Writer) {
	fmt.Fprintf(out, "| default against | games | +win =draw -loss | score | Elo ± 95%% |\n|---|---|---|---|---|\n")
	for i, a := range ablations {
		cand := base
		a.Edit(&cand)
		res := o.match(ctx, &base, &cand, o.Pairs, uint64(1000+i))
		fmt.Fprintf(out, "| %s | %s |\n", a.Name, res.row())
	}
}

// Compare plays candidates, each given as JSON edits of base (e.g.
// {"Taper":true}), against base (seeds 2000, 2001, ...): the quick filter
// before a timed match. It writes a Markdown table to out, and stops at an
// edit that is not JSON of eval.Weights.
func Compare(ctx context.Context, base eval.Weights, edits []string, o MatchOptions, out io.Writer) error {
	for _, edit := range edits {
		cand := base
		if err := json.Unmarshal([]byte(edit), &cand); err != nil {
			return fmt.Errorf("%s: %v", edit, err)
		}
	}
	fmt.Fprintf(out, "| candidate | depth | games | +win =draw -loss | score | Elo ± 95%% | time |\n|---|---|---|---|---|---|---|\n")
	for i, edit := range edits {
		cand := base
		_ = json.Unmarshal([]byte(edit), &cand) // checked above
		t0 := time.Now()
		res := o.match(ctx, &cand, &base, o.Pairs, uint64(2000+i))
		fmt.Fprintf(out, "| `%s` | %d | %s | %s |\n", strings.TrimSpace(edit), o.Depth, res.row(), time.Since(t0).Round(time.Second))
	}
	return nil
}
