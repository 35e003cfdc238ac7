package tune

import (
	"context"
	"fmt"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

// The fits of docs/eval.md ("Fitted to deeper searches", "Fitted again"):
// which positions each learns from, which weights it moves, and which it
// starts from. The samples are made by Positions and Label (or LabelExact,
// LabelExactPlacing from the databases), the fit by Fit.

// FitK is the logistic scale of the fits' loss (Loss), in centipawns, and
// FitPasses the most passes of a fit.
const (
	FitK      = 150
	FitPasses = 30
)

// PlacingParams are the weights of a side still placing, and the tempo of
// a side to move that places: the weights the placing positions decide.
var PlacingParams = []Param{
	{"Mill[placing]", func(w *eval.Weights) *int { return &w.Mill[eval.Placing] }},
	{"Two[placing]", func(w *eval.Weights) *int { return &w.Two[eval.Placing] }},
	{"Closable[placing]", func(w *eval.Weights) *int { return &w.Closable[eval.Placing] }},
	{"Mobility[placing]", func(w *eval.Weights) *int { return &w.Mobility[eval.Placing] }},
	{"Blocked[placing]", func(w *eval.Weights) *int { return &w.Blocked[eval.Placing] }},
	{"Cramp[placing]", func(w *eval.Weights) *int { return &w.Cramp[eval.Placing] }},
	{"Reserved[placing]", func(w *eval.Weights) *int { return &w.Reserved[eval.Placing] }},
	{"Tempo[placing]", func(w *eval.Weights) *int { return &w.Tempo[eval.Placing] }},
}

// MovingParams are the weights of a side that slides, and the tempo of a
// side to move that slides: the weights the positions after placing decide
// (and, under Taper, part of a placing side's).
var MovingParams = []Param{
	{"Mill[moving]", func(w *eval.Weights) *int { return &w.Mill[eval.Moving] }},
	{"Two[moving]", func(w *eval.Weights) *int { return &w.Two[eval.Moving] }},
	{"Closable[moving]", func(w *eval.Weights) *int { return &w.Closable[eval.Moving] }},
	{"Double[moving]", func(w *eval.Weights) *int { return &w.Double[eval.Moving] }},
	{"Mobility[moving]", func(w *eval.Weights) *int { return &w.Mobility[eval.Moving] }},
	{"Blocked[moving]", func(w *eval.Weights) *int { return &w.Blocked[eval.Moving] }},
	{"Cramp[moving]", func(w *eval.Weights) *int { return &w.Cramp[eval.Moving] }},
	{"Reserved[moving]", func(w *eval.Weights) *int { return &w.Reserved[eval.Moving] }},
	{"Tempo[moving]", func(w *eval.Weights) *int { return &w.Tempo[eval.Moving] }},
}

// Split returns samples split: every fifth held out, the others to train
// on.
func Split(samples []Sample) (train, hold []Sample) {
	for i, s := range samples {
		if i%5 == 4 {
			hold = append(hold, s)
		} else {
			train = append(train, s)
		}
	}
	return train, hold
}

// placingPlies are the plies of r's placing phase when no mill is closed
// (a piece a ply).
func placingPlies(r *mill.Rules) int { return 2 * r.Options().Pieces }

// PlacingPositions are the positions the placing fit learns from: those of
// the placing phase from ply 6 on, where the side to move places, no
// removal owed, of games under r (Positions, seed 3).
func PlacingPositions(ctx context.Context, r *mill.Rules, games int) []mill.Position {
	return Positions(ctx, r, games, 4, placingPlies(r), func(p mill.Position) bool {
		_, owed := p.Pending()
		return p.Ply() >= 6 && !owed && p.InHand(p.SideToMove()) > 0
	}, 3)
}

// MovingPositions are the positions the moving fit learns from: the first
// plies after placing (14 of them), both hands empty, no removal owed,
// neither side flying, of games under r (Positions, seed 5): the positions
// at the horizon of every search of the placing phase, where a blockade to
// come decides the game.
func MovingPositions(ctx context.Context, r *mill.Rules, games int) []mill.Position {
	return Positions(ctx, r, games, 4, placingPlies(r)+14, func(p mill.Position) bool {
		_, owed := p.Pending()
		return !owed && p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0 &&
			!p.Flying(mill.White) && !p.Flying(mill.Black)
	}, 5)
}

// StartWeights returns the weights a fit under rules r starts from:
// eval.For(r) without its nets (NineWeights for nine men's morris), the
// weights that scored the samples made under r.
func StartWeights(r *mill.Rules) eval.Weights {
	w := eval.For(r)
	w.Net, w.PlacingNet = nil, nil
	return w
}

// NineWeights are nine men's morris's weights (eval.For) without their
// nets: the fits move the weights of the sums alone, and a net is trained
// over them (TrainNet), as the figures of docs/eval.md were made.
func NineWeights() eval.Weights { return StartWeights(nine) }

var nine = mill.MustRules("nine-mens-morris")

// PlacingStart returns the weights the placing fit under r starts from.
// Nine men's morris starts from the hand-set weights its first fit started
// from (eval.Default); other rules from their own with Default's placing
// column, the weights that scored the samples of testdata (a preset fitted
// here, such as twelve-man-morris, has the fit's result in its own).
func PlacingStart(r *mill.Rules) eval.Weights {
	def := eval.Default()
	if eval.For(r) == eval.For(nine) {
		return def
	}
	w := StartWeights(r)
	for _, p := range PlacingParams {
		*p.At(&w) = *p.At(&def)
	}
	return w
}

// MovingStart returns the weights the moving fit under r starts from:
// StartWeights(r) with, for from "default", the moving weights of
// eval.Default (the fitted placing ones, the moving ones of Default: the
// weights the samples of testdata were scored with), or for "nine" as they
// are (for samples scored otherwise, by the databases).
func MovingStart(r *mill.Rules, from string) (eval.Weights, error) {
	w, def := StartWeights(r), eval.Default()
	switch from {
	case "default":
		for _, p := range MovingParams {
			*p.At(&w) = *p.At(&def)
		}
	case "nine":
	default:
		return w, fmt.Errorf("the moving weights to start from: %q, want default or nine", from)
	}
	return w, nil
}
