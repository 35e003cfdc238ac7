// Package tune tunes and measures the evaluation: by self-play (two weight
// sets play paired games, colours swapped, from the same random openings at
// a fixed depth, and a change is kept when it scores better with
// confidence), by fits of the weights to the scores of sample positions
// (deeper searches' or the databases'), by nets trained to correct the
// weighted sum, and it counts the review's marks against the databases. The
// drivers that run these for hours are commands of cmd/morris-dev;
// docs/eval.md ("How it was tuned") reports their runs.
//
// Where things are:
//
//	tune.go       Match: pairs of games between two weight sets at a fixed depth; Result, its score and Elo
//	selfplay.go   Tune (coordinate tuning), Ablate, Compare: the self-play experiments
//	fit.go        samples (positions from games, labelled by deeper searches or the databases; their text form)
//	              and Fit: the weights moved one at a time while the loss on the samples falls
//	fits.go       the fits of docs/eval.md: their positions, the weights they move, where they start
//	exact.go      the exact values of placing-phase positions: a full-width search down to the databases
//	              (ExactSolver, LabelExactPlacing); where lost games were lost (FindLosingMove)
//	net.go        TrainNet: a net trained to correct the weighted sum (Adam over batches, fixed point at the end)
//	calibrate.go  Calibrate: the review's marks against databases of the whole game
//
// testdata holds the sample files the committed weights were fitted to.
package tune
