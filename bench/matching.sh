#!/bin/sh
# Benchmark of matching/ (issue 3 item 8): number of matchings r and
# decomposition time against the number of bipartite edges, on random
# bipartite multigraphs of growing size, bottleneck perfect matchings versus
# arbitrary perfect matchings on the same graphs in the same run.
# Columns: bound = proven bound on r (|E| + slack - n + 1), D_bits = bits of
# the maximum weighted degree (the period), medians over 5 seeds,
# r_ratio / t_ratio = bottleneck / arbitrary.
#   usage: bench/matching.sh        (BUILD=dir to choose the build directory)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-matching}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
if ! { cmake -S "$ROOT" -B "$BUILD" && cmake --build "$BUILD" --target bench_matching -j2; } >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "build failed" >&2
  exit 1
fi
BIN="$BUILD/bench/bench_matching"
echo "== random weights in [1, 2^20], m = 8n =="
"$BIN" --weights random --reps 5 --max-nodes 1024 --degree 8
echo
echo "== LCM-period weights (rates num/den, den <= 60, scaled by the LCM), m = 8n =="
"$BIN" --weights lcm --reps 5 --max-nodes 512 --degree 8
echo
echo "== denser graphs, random weights, m = 32n =="
"$BIN" --weights random --reps 5 --max-nodes 256 --degree 32
