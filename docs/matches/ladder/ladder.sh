#!/bin/sh
# The ladder of levels as docs/strength.md plays it: each level against the
# one below, level 1 against the random and the greedy players, nine men's
# morris, random 4-ply openings each played with both colours, every row
# resumable (-resume) with the same line.
#
# usage: MORRIS=./morris docs/matches/ladder/ladder.sh SEED [DIR]
#   SEED  the openings' seed (above 100000 to report)
#   DIR   where the records go (default: this script's folder)
set -u
: "${MORRIS:?set MORRIS to the morris binary}"
seed=${1:?usage: ladder.sh SEED [DIR]}
dir=${2:-$(dirname "$0")}
row() { # records A B pairs
	"$MORRIS" match -variant nine-mens-morris -a "$2" -b "$3" -games "$4" -openings "$4" -opening-plies 4 \
		-concurrency 2 -max-plies 400 -seed "$seed" -records "$dir/$1.pgn" -resume
}
row level1-random level:1 random 50
row level1-greedy level:1 greedy 50
row level2-level1 level:2 level:1 50
row level3-level2 level:3 level:2 50
row level4-level3 level:4 level:3 50
row level5-level4 level:5 level:4 50
row level6-level5 level:6 level:5 50
row level7-level6 level:7 level:6 50
row level8-level7 level:8 level:7 40
row level9-level8 level:9 level:8 100
# Level 10 (2 s) against level 9 (500 ms) at a fifth of their times, the same ratio.
row level10-level9 level:10,movetime=400 level:9,movetime=100 20
