// Package tune tunes the evaluation by self-play: two weight sets play
// paired games (colours swapped) from the same random openings at a fixed
// depth, and a change is kept when it scores better with confidence. It
// also fits the weights, and trains the nets, to the scores of sample
// positions (deeper searches' or the databases'). Its tests are the tools
// that run it, behind flags (docs/eval.md, "How it was tuned").
//
// Where things are:
//
//	tune.go   Match: pairs of games between two weight sets at a fixed depth; Result, its score and Elo
//	fit.go    samples (positions from games, labelled by deeper searches or the databases; their text form)
//	          and Fit: the weights moved one at a time while the loss on the samples falls
//	exact.go  the exact values of placing-phase positions: a full-width search down to the databases
//	          (ExactSolver, LabelExactPlacing)
//	net.go    TrainNet: a net trained to correct the weighted sum (Adam over batches, fixed point at the end)
package tune
