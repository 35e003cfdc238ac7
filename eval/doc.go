// Package eval scores Mill positions for the search: a weighted sum of
// features computed per side and per phase (placing, moving, flying).
//
// Where things are:
//
//	eval.go  Weights: the features and their weights per phase, Default and the presets' fitted sets (For),
//	         Evaluate (the sum, plus a net's correction where one applies), Linear
//	net.go   Net: a small network that corrects the sum (its accumulator kept move by move, its text
//	         form: ReadNet, Write)
//	nets.go  the nets embedded in the program (nets/), read once: nine men's morris's moving phase
//	nets/    the trained nets, in Net's text form
package eval
