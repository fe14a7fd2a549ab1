#!/bin/sh
# The speed-up curve of the portfolio's threads (docs/fess.md, "Threads"):
# each level with N threads for T seconds beside one thread for N·T
# seconds, one level at a time, so that N threads pay when they solve at
# least what one thread solves in N times the wall time.
#
#   results/threads-curve.sh OUT.jsonl LEVELS...
#
# THREADS lists the thread counts (default "1 2 4 8 16"), T the seconds
# (default 10), SOKO the binary (default: soko on the PATH), ALGO the
# solver (default fess), J the CPU slots (soko bench -j; default 1: one
# level at a time). A run with N threads takes N of the J slots, so J=16 on
# a 16-core machine keeps it full in both arms: 16 one-thread runs at a
# time, 16/N runs of N threads. Runs already in OUT.jsonl are not run again
# (soko bench resumes), so the curve grows a thread count at a time. Run it
# on a machine with at least max(J, the largest N) cores free; the report
# at the end has the table "Threads: N threads at T against one thread at
# N·T", a row per N.
set -eu
[ $# -ge 2 ] || { echo "usage: results/threads-curve.sh OUT.jsonl LEVELS..." >&2; exit 2; }
out=$1
shift
soko=${SOKO:-soko}
t=${T:-10}
for n in ${THREADS:-1 2 4 8 16}; do
	"$soko" bench --algo "${ALGO:-fess}" --time "$((n * t))s" -j "${J:-1}" --no-solution --optimize off --out "$out" "$@"
	if [ "$n" -gt 1 ]; then
		"$soko" bench --algo "${ALGO:-fess}" --threads "$n" --time "${t}s" -j "${J:-1}" --no-solution --optimize off --out "$out" "$@"
	fi
done
"$soko" report "$out"
