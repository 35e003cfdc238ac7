#!/bin/sh
# One match of Morris's level 10 against Sanmill, as docs/strength.md plays them,
# written so that the same line goes on after any stop (-resume).
#
# usage: docs/matches/sanmill.sh VARIANT SECONDS SETTING SEED PAIRS RECORDS [morris match flags...]
#
#   VARIANT   a preset Sanmill plays: nine-mens-morris, twelve-mens-morris-small,
#             morabaraba, russian-mill, lasker
#   SECONDS   the time a move of both engines (0.2, 1, 5)
#   SETTING   Sanmill's DrawOnHumanExperience: on (its default) or off
#   SEED      the openings' seed: below 1000 to tune, above 100000 to report
#   PAIRS     openings, each played with both colours
#   RECORDS   the file of the games (docs/matches/...pgn)
#
# The environment names the programs: MORRIS (a build of the commit measured),
# SANMILL (Sanmill's engine, built as docs/strength.md says) and ADAPTER (the
# adapter between the two protocols). A_SPEC adds options to our player's spec,
# e.g. A_SPEC=,tablebases=/data/nmm for the engine with its databases. Further
# arguments go to morris match as they are, e.g. -drawn-openings DIR.
set -eu
if [ $# -lt 6 ]; then
	sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
fi
variant=$1 secs=$2 setting=$3 seed=$4 pairs=$5 records=$6
shift 6
case $setting in on | off) ;; *)
	echo "sanmill.sh: SETTING is on or off, not $setting" >&2
	exit 2
	;;
esac
: "${MORRIS:?set MORRIS to the morris binary}" "${SANMILL:?set SANMILL to Sanmill's engine}" "${ADAPTER:?set ADAPTER to the adapter}"
ms=$(awk -v s="$secs" 'BEGIN { printf "%d", s * 1000 + 0.5 }')
# A move may take the engine's time and the adapter's start-up; 30 s covers 5 s a move.
timeout=$((ms * 6 + 30000))
exec "$MORRIS" match -variant "$variant" \
	-a "level:10,movetime=$ms,name=morris${A_SPEC:-}" \
	-b "cmd,timeout=$timeout,differences=sanmill,name=sanmill-$setting:env SANMILL_HUMAN_EXPERIENCE=$setting python3 $ADAPTER $SANMILL $MORRIS $secs" \
	-games "$pairs" -openings "$pairs" -opening-plies 4 -concurrency 2 -max-plies 400 \
	-seed "$seed" -records "$records" -resume "$@"
