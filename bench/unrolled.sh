#!/bin/sh
# Unrolled schedules: makespan / (K/TP) and makespan / LB(K) for K = 100,
# 1000, 10^4 on the issue's instances, and the K = 10^5 scatter to every
# host of tiers-99 (wall time and peak memory).  Every schedule is written
# by `ssched schedule --unroll` and passed through the checker.
# Usage: bench/unrolled.sh [KS]   (default "100 1000 10000"; BIG=0 skips 10^5)
set -e
cd "$(dirname "$0")/.."
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j2 --target ssched_cli >/dev/null
B=build/release/ssched
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
KS=${1:-"100 1000 10000"}
hosts() { grep -o 'node id="h[^"]*"' "$1" | sed 's/node id="//;s/"//' | paste -sd, -; }
first() { echo "$1" | cut -d, -f1; }
rest() { echo "$1" | cut -d, -f2-; }
pick() { echo "$1" | tr ',' '\n' | awk -v n="$2" -v s="$3" 'NR % s == 1 && c < n { printf "%s%s", (c++ ? "," : ""), $0 }'; }

run() { # name K args...
    name=$1; K=$2; shift 2
    /usr/bin/time -f "%e %M" -o "$OUT/time" $B schedule "$@" --operations "$K" --unroll \
        -o "$OUT/u.json" > "$OUT/log" 2>&1 || { echo "$name K=$K: FAILED: $(tail -1 "$OUT/log")"; return; }
    python3 - "$OUT/u.json" "$OUT/time" "$name" "$K" <<'PY'
import json, sys
from fractions import Fraction as F
d = json.load(open(sys.argv[1]))
t, mem = open(sys.argv[2]).read().split()
mk, st, lb = F(d["makespan"]), F(d["steady_time"]), F(d["lower_bound"])
print(f"{sys.argv[3]:<34} K={sys.argv[4]:>6}  makespan/(K/TP) = {float(mk/st):.4f}"
      f"  makespan/LB(K) = {float(mk/lb):.4f}  ops/period = {d['operations_per_period']:>4}"
      f"  {t:>6} s  {int(mem)//1024:>5} MB")
PY
}

S=examples/tiers-small.graphml; T46=examples/tiers-46.graphml; T99=examples/tiers-99.graphml
HS=$(hosts $S); H46=$(hosts $T46); H99=$(hosts $T99)
echo "instance                           K       ratios (checked schedules)"
for K in $KS; do
    run "demo reduce tiers-small" "$K" $S --problem reduce --participants h0_0_0_0,h0_0_1_0 --target h0_0_0_0
    P=$(pick "$H46" 6 2); run "reduce 6 participants tiers-46" "$K" $T46 --problem reduce --participants "$P" --target "$(first "$P")"
    P=$(pick "$H99" 12 5); run "reduce 12 participants tiers-99" "$K" $T99 --problem reduce --participants "$P" --target "$(first "$P")"
    run "scatter to all hosts tiers-small" "$K" $S --problem scatter --source "$(first "$HS")" --targets "$(rest "$HS")"
    run "gossip among all hosts tiers-small" "$K" $S --problem gossip --sources "$HS" --targets "$HS"
done
[ "${BIG:-1}" = 0 ] && exit 0
run "scatter to all hosts tiers-99" 100000 $T99 --problem scatter --source "$(first "$H99")" --targets "$(rest "$H99")"
