#!/bin/sh
# Regenerates the learning table of docs/learning.md (issue 29 item 4): on
# the 1,000 levels of boxoban-medium-valid-000 (never trained on),
# Schokoban, mcts-dist without a model (the pull-distance matching bound)
# and with DIST_MODEL, and puct with PUCT_MODEL, at equal iterations and
# at equal wall time (0.1 s a level, the network's cost counted); greedy,
# greedy-dist without a model and with DIST_MODEL at equal expansions, and
# their expansions and time per expansion on the levels both greedy and
# greedy-dist with DIST_MODEL solve; 003's alphazero with AZ_MODEL, as
# 0.8·model + 0.2·heuristic (its default weight) and as the model alone
# (weight=1), at equal iterations and wall time. With LTS set to a model of
# soko train-lts, lts with it at equal expansions too.
#
#   [LTS=LTS_MODEL] results/learning-table.sh DIST_MODEL PUCT_MODEL AZ_MODEL [DIR]
#
# Runs go one level at a time (-j 1) into DIR/*.jsonl (default
# learning-table/); a file already there is not run again. SOKO names the
# binary (default: soko on the PATH).
set -eu
model=$1
puct=$2
az=$3
dir=${4:-learning-table}
lts=${LTS:-}
for f in "$model" "$puct" "$az" ${lts:+"$lts"}; do
	[ -f "$f" ] || { echo "learning-table.sh: $f: no such model file (arguments: DIST_MODEL PUCT_MODEL AZ_MODEL [DIR])" >&2; exit 2; }
done
soko=${SOKO:-soko}
set=boxoban-medium-valid-000
mkdir -p "$dir"
run() {
	name=$1
	shift
	if [ ! -s "$dir/$name.jsonl" ]; then
		"$soko" solve --json --no-solution --optimize off -j 1 --seed 1 "$@" "$set" >"$dir/$name.jsonl.part" 2>/dev/null || true
		mv "$dir/$name.jsonl.part" "$dir/$name.jsonl"
	fi
}
for it in 200 1000; do
	run schokoban-${it}it --algo schokoban --iterations $it --time 0
	run mcts-bound-${it}it --algo mcts-dist --iterations $it --time 0
	run mcts-dist-${it}it --algo mcts-dist --model "$model" --iterations $it --time 0
	run puct-${it}it --algo puct --model "$puct" --iterations $it --time 0
done
for t in 0.1s; do
	run schokoban-$t --algo schokoban --time $t
	run mcts-bound-$t --algo mcts-dist --time $t
	run mcts-dist-$t --algo mcts-dist --model "$model" --time $t
	run puct-$t --algo puct --model "$puct" --time $t
done
for n in 200 1000; do
	run greedy-${n}n --algo greedy --nodes $n --time 0
	run greedy-bound-${n}n --algo greedy-dist --nodes $n --time 0
	run greedy-dist-${n}n --algo greedy-dist --model "$model" --nodes $n --time 0
	if [ -n "$lts" ]; then
		run lts-${n}n --algo lts --model "$lts" --nodes $n --time 0
	fi
done
for b in 200it 0.1s 1000it; do
	case $b in
	*it) limit="--iterations ${b%it} --time 0" ;;
	*) limit="--time $b" ;;
	esac
	# $limit is split into its flags on purpose.
	run alphazero-mixed-$b --algo alphazero --model "$az" $limit
	run alphazero-model-$b --algo alphazero --model "$az" --param weight=1 $limit
done

# field NAME: the number (or string) of "NAME": in the current line.
summary='
function field(name,   s) {
	if (!match($0, "\"" name "\":\"?[^,}\"]*")) return ""
	s = substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 3)
	sub(/^"/, "", s)
	return s
}
'
echo "| run | solved of 1000 | mean time a level (ms) | expanded in all | time per expansion (µs) |"
echo "|---|---:|---:|---:|---:|"
for f in "$dir"/*.jsonl; do
	awk "$summary"'
	{ n++; t += field("time_s"); e += field("expanded"); if (field("status") == "solved") s++ }
	END { printf "| %s | %d | %.2f | %d | %.1f |\n", name, s, 1000 * t / n, e, (e > 0 ? 1e6 * t / e : 0) }
	' name="$(basename "$f" .jsonl)" "$f"
done
for n in 200 1000; do
	echo
	echo "greedy against greedy-dist with the model, $n expansions, on the levels both solve:"
	awk "$summary"'
	FNR == 1 { file++ }
	field("status") == "solved" { e[file, field("level")] = field("expanded"); t[file, field("level")] = field("time_s") }
	END {
		for (k in e) {
			split(k, p, SUBSEP)
			if (p[1] != 1 || !((2, p[2]) in e)) continue
			both++; e1 += e[1, p[2]]; e2 += e[2, p[2]]; t1 += t[1, p[2]]; t2 += t[2, p[2]]
		}
		printf "%d levels; expansions: greedy %.2f a level, greedy-dist %.2f; time per expansion: greedy %.1f µs, greedy-dist %.1f µs\n",
			both, e1 / both, e2 / both, 1e6 * t1 / e1, 1e6 * t2 / e2
	}
	' "$dir/greedy-${n}n.jsonl" "$dir/greedy-dist-${n}n.jsonl"
done
