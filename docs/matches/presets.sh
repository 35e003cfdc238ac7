#!/bin/sh
# The four other presets Sanmill plays, against both of its settings, as
# docs/strength.md reports them: 50 openings each played with both colours
# (100 games), 1 s a move, level 10 as shipped. The openings are balanced
# (-balanced-openings 50): random 4-ply openings whose score, by a 12-ply
# search of the engine, is within half a piece of the start's; without it
# most pairs on the diagonal boards are decided by the random plies.
# Each match keeps its records
# in docs/matches/presets/DATE-PRESET-1s-SETTING-sSEED.pgn and goes on after
# any stop with the same line (-resume); a match already complete is read
# back and not played again.
#
# usage: MORRIS=... SANMILL=... ADAPTER=... docs/matches/presets.sh SEED DATE [PRESET...]
#
#   SEED     the reporting seed (drawn above 100000 after the engine was frozen)
#   DATE     the date in the files' names (the day the first match started)
#   PRESET   the presets to play, in order (all four by default)
set -eu
if [ $# -lt 2 ]; then
	sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
fi
seed=$1 date=$2
shift 2
[ $# -gt 0 ] || set -- twelve-mens-morris-small morabaraba lasker russian-mill
here=$(dirname "$0")
mkdir -p "$here/presets"
for v in "$@"; do
	for setting in on off; do
		"$here/sanmill.sh" "$v" 1 "$setting" "$seed" 50 "$here/presets/$date-$v-1s-$setting-s$seed.pgn" -balanced-openings 50
	done
done
