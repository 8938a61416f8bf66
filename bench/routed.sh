#!/bin/sh
# The routed model (issue 23) on cluster-like platforms built through the
# API (bench/routed.c): H hosts on S sites, H(H-1) routed host pairs.
# Column generation (the default) for every size; the edge LP too up to
# H = 32, with both certified TPs printed (they must be equal).
set -e
cd "$(dirname "$0")/.."
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j2 --target bench_routed >/dev/null
B=build/release/bench/bench_routed
$B 16 4 lp
$B 32 4 lp
$B 64 8
