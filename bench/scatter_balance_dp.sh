#!/bin/sh
# Algorithms 1 and 2 of seed 004 against ssched's exact search on growing n
# (Table 1, 16 processors): medians, ratios and growth measured in one run.
# usage: bench/scatter_balance_dp.sh [reps] [max_n_alg1] [max_n_alg2]
# BUILD_DIR (default: build) is configured and built if needed.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
DATA=${DATA:-$ROOT/../shared/data/seed004_table1.csv}
cmake -S "$ROOT" -B "$BUILD_DIR" >/dev/null
cmake --build "$BUILD_DIR" --target bench_scatter_balance_dp -j2 >/dev/null
echo "machine: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
"$BUILD_DIR/bench/bench_scatter_balance_dp" "$DATA" "${1:-5}" "${2:-16000}" "${3:-817101}"
