#!/bin/sh
# Unrolled schedules: makespan / (K/TP), makespan / LB(K) and the buffer
# needs (buffer_peak: the most messages a node holds at once, and where)
# for K = 100, 1000, 10^4 on the issue's instances, and the K = 10^5
# scatter to every host of tiers-99.  Every schedule is written by
# `ssched schedule --unroll --no-check` and then passed through
# `ssched check`: wall time and peak memory of each step apart.
# Usage: bench/unrolled.sh [KS]   (default "100 1000 10000"; BIG=0 skips 10^5;
#        SSCHED_BIN=path/to/ssched uses that binary instead of build/release)
set -e
cd "$(dirname "$0")/.."
if [ -n "${SSCHED_BIN:-}" ]; then
    B=$SSCHED_BIN # a binary already built
else
    cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build/release -j2 --target ssched_cli >/dev/null
    B=build/release/ssched
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
KS=${1:-"100 1000 10000"}
hosts() { grep -o 'node id="h[^"]*"' "$1" | sed 's/node id="//;s/"//' | paste -sd, -; }
first() { echo "$1" | cut -d, -f1; }
rest() { echo "$1" | cut -d, -f2-; }
pick() { echo "$1" | tr ',' '\n' | awk -v n="$2" -v s="$3" 'NR % s == 1 && c < n { printf "%s%s", (c++ ? "," : ""), $0 }'; }

run() { # name K args...
    name=$1; K=$2; shift 2
    # generation alone (--no-check), then the checker on the written file
    /usr/bin/time -f "%e %M" -o "$OUT/time" $B schedule "$@" --operations "$K" --unroll \
        --no-check -o "$OUT/u.json" > "$OUT/log" 2>&1 || { echo "$name K=$K: FAILED: $(tail -1 "$OUT/log")"; return; }
    /usr/bin/time -f "%e %M" -o "$OUT/ctime" $B check "$OUT/u.json" > "$OUT/clog" 2>&1 ||
        { echo "$name K=$K: CHECK FAILED: $(tail -1 "$OUT/clog")"; return; }
    python3 - "$OUT/u.json" "$OUT/time" "$OUT/ctime" "$name" "$K" <<'PY'
import re, sys
from fractions import Fraction as F
# the figures are the file's last lines: no need to parse gigabytes
with open(sys.argv[1], "rb") as f:
    f.seek(0, 2)
    f.seek(max(0, f.tell() - 8192))
    tail = f.read().decode()
d = dict(re.findall(r'^ "([a-z_0-9]+)": "([^"]*)",?$', tail, re.M))
t, mem = open(sys.argv[2]).read().split()
ct, cmem = open(sys.argv[3]).read().split()
mk, st, lb = F(d["makespan"]), F(d["steady_time"]), F(d["lower_bound"])
print(f"{sys.argv[4]:<34} K={sys.argv[5]:>6}  makespan/(K/TP) = {float(mk/st):.4f}"
      f"  makespan/LB(K) = {float(mk/lb):.4f}  ops/period = {d['operations_per_period']:>4}"
      f"  buffer = {d['buffer_peak']:>7} at {d['buffer_node']:<9}"
      f"  gen {t:>6} s {int(mem)//1024:>5} MB  check {ct:>6} s {int(cmem)//1024:>5} MB")
PY
}

S=examples/tiers-small.graphml; T46=examples/tiers-46.graphml; T99=examples/tiers-99.graphml
HS=$(hosts $S); H46=$(hosts $T46); H99=$(hosts $T99)
echo "instance                           K       ratios (checked schedules)"
for K in $KS; do
    run "2-host reduce tiers-small" "$K" $S --problem reduce --participants h0_0_0_0,h0_0_1_0 --target h0_0_0_0
    P=$(pick "$H46" 6 2); run "reduce 6 participants tiers-46" "$K" $T46 --problem reduce --participants "$P" --target "$(first "$P")"
    P=$(pick "$H99" 12 5); run "reduce 12 participants tiers-99" "$K" $T99 --problem reduce --participants "$P" --target "$(first "$P")"
    run "scatter to all hosts tiers-small" "$K" $S --problem scatter --source "$(first "$HS")" --targets "$(rest "$HS")"
    run "gossip among all hosts tiers-small" "$K" $S --problem gossip --sources "$HS" --targets "$HS"
done
[ "${BIG:-1}" = 0 ] && exit 0
run "scatter to all hosts tiers-99" 100000 $T99 --problem scatter --source "$(first "$H99")" --targets "$(rest "$H99")"
