#!/bin/sh
# Benchmark of src/redistribution/ (issue 7): reproduces the trends of seed 003
# Fig. 5 -- (a) P = 64, K = 9..63, bandwidths 10..200; (b) K = 40 with growing
# heterogeneity -- for the lower bound, the greedy heuristic, the direct
# K-step schedule and the optimal preemptive schedule; then the effect of
# start-up times (each extra piece of a split message pays one), and the
# scheduling time for P = 64, K = 63 (median), which seed 003 reports as
# 10 ms on a Cray T3E node.  Every schedule is checked by the independent
# checker before it is counted.
#   usage: bench/redistribution.sh   (BUILD=dir to choose the build directory)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-matching}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
if ! { cmake -S "$ROOT" -B "$BUILD" && cmake --build "$BUILD" --target bench_redistribution -j2; } >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "build failed" >&2
  exit 1
fi
"$BUILD/bench/bench_redistribution" --seeds 5 --reps 11
