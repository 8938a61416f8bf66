#!/bin/bash
# Issue 27 (first part): the scan (parallel prefix) upper-bound edge LP of
# lp/build_scan.c on examples/tiers-small.graphml.  Participants: the first
# N hosts in file order; inclusive and --exclusive; the graph model
# (every node one-port), --routers switch and --model routed.  Prints the
# certified bound, the LP size and the wall time of `ssched solve` (float
# solve + exact certification).  MAXN (default 6) bounds N: N = 8 under
# --model routed takes about 6 minutes (lp_solve's float phase).
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/bench}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSSCHED_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j2 >/dev/null
SSCHED="$BUILD/ssched"
PLAT=examples/tiers-small.graphml
MAXN=${MAXN:-6}
HOSTS=$(grep -B1 'key="w"' "$PLAT" | grep -o 'node id="[^"]*"' | sed 's/node id="//;s/"//')
printf '%-3s %-9s %-16s %-22s %7s %7s %8s\n' N kind model bound rows cols seconds
for N in 4 6 8; do
    [ "$N" -le "$MAXN" ] || continue
    LIST=$(echo "$HOSTS" | head -n "$N" | paste -sd, -)
    for kind in inclusive exclusive; do
        X=; [ $kind = exclusive ] && X=--exclusive
        for model in "" "--routers switch" "--model routed"; do
            t0=$(date +%s.%N)
            # shellcheck disable=SC2086
            OUT=$("$SSCHED" solve "$PLAT" --problem scan --participants "$LIST" $X $model --quiet)
            t1=$(date +%s.%N)
            B=$(echo "$OUT" | sed -n 's/^upper bound on TP = \([^ ]*\).*/\1/p')
            R=$(echo "$OUT" | sed -n 's/^solver: edge LP, \([0-9]*\) rows, \([0-9]*\) columns.*/\1 \2/p')
            printf '%-3s %-9s %-16s %-22s %7s %7s %8.2f\n' "$N" "$kind" "${model:-graph}" "$B" \
                ${R} "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')"
        done
    done
done
