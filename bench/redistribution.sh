#!/bin/sh
# Benchmark of src/redistribution/ (issue 7): reproduces the trends of seed 003
# Fig. 5 -- (a) P = 64, K = 9..63, bandwidths 10..200; (b) K = 40 with growing
# heterogeneity -- for the lower bound, the greedy heuristic, the direct
# K-step schedule and the optimal preemptive schedule; then the effect of
# start-up times (each extra piece of a split message pays one), and the
# scheduling time for P = 64, K = 63 (median), which seed 003 reports as
# 10 ms on a Cray T3E node.  Every schedule is checked by the independent
# checker before it is counted.
# Then (issue 26, its CPU table) the large rows through the CLI, CPU seconds
# (user + sys) and peak RSS, median of RUNS (default 3):
#   ssched redistribute --P 1024 --K 1023 --N 10^7 --bw-min 10 --bw-max 200
#       --algorithm greedy           (87 s before issue 26, target 10)
#   the same with --P 512 --K 511 --algorithm preemptive  (184 s, target 20)
#   usage: bench/redistribution.sh   (BUILD=dir to choose the build directory)
#          BIG=0 skips the CLI rows; BIG=only runs only them (GREEDY_P,
#          PREEMPTIVE_P: other sizes);
#          OLD=path/to/ssched also times that binary on the same rows and
#          compares its output with this build's (byte for byte).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-matching}
LOG=$(mktemp)
OUT=$(mktemp -d)
trap 'rm -f "$LOG"; rm -rf "$OUT"' EXIT
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$BUILD" --target bench_redistribution ssched_cli -j2; } >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "build failed" >&2
  exit 1
fi
[ "${BIG:-1}" = only ] || "$BUILD/bench/bench_redistribution" --seeds 5 --reps 11
[ "${BIG:-1}" = 0 ] && exit 0

# row LABEL BINARY P ALGORITHM: "CPU s, peak MB" medians of RUNS; the
# schedule of the last run stays in $OUT/LABEL.txt
row() {
    : > "$OUT/runs"
    i=0
    while [ "$i" -lt "${RUNS:-3}" ]; do
        /usr/bin/time -f "%U %S %M" -o "$OUT/time" "$2" redistribute --P "$3" --K $(($3 - 1)) \
            --N 10000000 --bw-min 10 --bw-max 200 --algorithm "$4" --max-work 0 \
            --max-memory 0 --quiet > "$OUT/$1.txt"
        cat "$OUT/time" >> "$OUT/runs"
        i=$((i + 1))
    done
    awk '{ print $1 + $2, $3 }' "$OUT/runs" | sort -n | awk -v label="$1" '
        { c[NR] = $1; m[NR] = $2 } END { k = int((NR + 1) / 2);
          printf "%-28s CPU %7.2f s (median of %d), peak RSS %5d MB\n", label, c[k], NR, m[k] / 1024 }'
}

echo
echo "CPU table rows (issue 26): P processors, K = P - 1, N = 10^7, bandwidths 10..200, seed 1"
for spec in "${GREEDY_P:-1024} greedy" "${PREEMPTIVE_P:-512} preemptive"; do
    set -- $spec
    row "$2-P$1" "$BUILD/ssched" "$1" "$2"
    if [ -n "${OLD:-}" ]; then
        row "$2-P$1-old" "$OLD" "$1" "$2"
        if cmp -s "$OUT/$2-P$1.txt" "$OUT/$2-P$1-old.txt"; then
            echo "  same schedule as OLD, byte for byte"
        else
            echo "  schedules DIFFER from OLD"
        fi
    fi
done
