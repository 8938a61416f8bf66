#!/bin/sh
# Benchmarks of src/makespan/ (issue 6): one-shot reduce / broadcast.
#  1. seed 000 Tables 2-4: table references per entry T(f,s) of the naive
#     two-class program, with Lemma 4 and with Lemmas 4+5 (c_s = 2,
#     f, s <= 150), totals and times;
#  2. seed 000 / seed 002 Table 1: branch-and-bound on random 3-class
#     clusters, P = 10..21 searched processors, 50 clusters each: nodes
#     examined, time and search ratio of the seeds' techniques ("paper"),
#     of our full search ("full") and of a generic branch-and-bound run in
#     the same process on the same clusters (node-capped: '>' marks lower
#     bounds), with the seeds' published ratios alongside;
#  3. beyond the seeds: exact optimum for 3-class clusters of 40-100
#     processors by the class-count programs (target: under 1 s), against
#     SNF/FNF and the full branch-and-bound.
#   usage: bench/makespan.sh   (BUILD=dir to choose the build directory,
#                               REPS=n clusters per size for part 2, default 50)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-makespan-bench}
REPS=${REPS:-50}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSSCHED_BUILD_TESTS=OFF &&
       cmake --build "$BUILD" -j2 --target bench_makespan_dp bench_makespan_search bench_makespan_large; } \
     >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "build failed" >&2
  exit 1
fi
B="$BUILD/bench"
echo "== 1. two-class dynamic programs (seed 000 Tables 2-4) =="
"$B/bench_makespan_dp" --cs 2 --max 150 --step 10 --reps 5
echo
echo "== 2a. reduce branch-and-bound (seed 000 Table 1), times 2,3,5 =="
"$B/bench_makespan_search" --op reduce --min 10 --max 21 --reps "$REPS" --cap 20000000 --times 2,3,5
echo
echo "== 2b. broadcast branch-and-bound (seed 002 Table 1), times 2,3,5 =="
"$B/bench_makespan_search" --op broadcast --min 10 --max 21 --reps "$REPS" --cap 5000000 --times 2,3,5
echo
echo "== 3. exact optimum for 40-100 processors, 3 random classes =="
"$B/bench_makespan_large" --sizes 40,60,80,100 --reps 20 --cap 2000000
