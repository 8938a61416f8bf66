#!/bin/sh
# The routed model (issue 23) on cluster-like platforms built through the
# API (bench/routed.c): H hosts on S sites, H(H-1) routed host pairs.
# Column generation (the default) for every size; the edge LP too at
# H = 16, with both certified TPs printed (they must be equal).  At H = 32
# the scatter's edge LP (31 types x 992 pairs) takes minutes: not run.
set -e
cd "$(dirname "$0")/.."
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j2 --target bench_routed >/dev/null
B=build/release/bench/bench_routed
$B 16 4 lp
$B 32 4
$B 64 8
