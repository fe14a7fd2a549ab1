#!/bin/sh
# A stand-in for an external Sokoban solver, for the tests of package bench.
# Usage: fake-solver.sh LEVEL.xsb [SOLUTION-FILE]
# It knows the answers to Microban 1 and 2 and misbehaves on purpose on 3-5,
# telling the levels apart by the "; N" line soko writes before each board.
case "$(head -n 1 "$1")" in
"; 1")	# prints chatter, then the LURD on standard output
	echo "fake-solver 0.1: searching"
	echo "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	echo "done in 0 ms" ;;
"; 2")	# writes the LURD to the solution file, with a run-length count
	printf 'rddLruu\nlD2u2l2dR\n' > "$2" ;;
"; 3")	# a wrong solution: the verifier must reject it
	echo "uuuUUU" ;;
"; 4")	# never finishes: the time limit must stop it
	sleep 30 ;;
*)	# gives up
	echo "fake-solver: cannot solve this" >&2
	exit 3 ;;
esac
