#!/bin/bash
# Issue 27: the scan (parallel prefix).  Participants: the first N hosts (nodes
# with w) in file order; inclusive and --exclusive; the graph model (every node
# one-port), --routers switch and --model routed.
#
# Part 1 (default method): the achievable TP (column generation over prefix
# structures, lp/colgen_scan.c), its certified upper bound and where it comes
# from ("reduce" = the ordered reduce of one demand's prefix, "edge" = the scan
# edge LP, "edge:K" = the scan edge LP over K of the N-1 demands), the gap, and the CPU seconds (user+sys) of the whole `ssched solve`.
# Issue target: 16 participants on tiers-99, bound and achievable, < 60 s.
#
# Part 2 (--method lp): the scan edge LP's bound alone on tiers-small, N <=
# MAXN (default 6): N = 8 under --model routed takes about 6 minutes.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/bench}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSSCHED_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j2 >/dev/null
SSCHED="$BUILD/ssched"
MAXN=${MAXN:-6}
hosts() { grep -B1 'key="w"' "$1" | grep -o 'node id="[^"]*"' | sed 's/node id="//;s/"//'; }
cpu() { awk '{print $1 + $2}' "$1"; }
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT

echo "== achievable TP and certified bound (default method) =="
printf '%-12s %-3s %-9s %-16s %-14s %-14s %-7s %-12s %8s\n' platform N kind model \
    achievable bound source gap cpu_s
for spec in tiers-small:4 tiers-small:8 tiers-99:8 tiers-99:16; do
    name=${spec%%:*}
    N=${spec##*:}
    PLAT=examples/$name.graphml
    LIST=$(hosts "$PLAT" | head -n "$N" | paste -sd, -)
    for kind in inclusive exclusive; do
        X=; [ $kind = exclusive ] && X=--exclusive
        for model in "" "--routers switch" "--model routed"; do
            # shellcheck disable=SC2086
            OUT=$(/usr/bin/time -f '%U %S' -o "$TMP" "$SSCHED" solve "$PLAT" --problem scan \
                --participants "$LIST" $X $model --quiet)
            A=$(echo "$OUT" | sed -n 's/^throughput (achievable.*TP = [^ ]* (\([^)]*\)).*/\1/p')
            B=$(echo "$OUT" | sed -n 's/^upper bound (.*) = [^ ]* (\([^)]*\)); gap.*/\1/p')
            G=$(echo "$OUT" | sed -n 's/^upper bound (.*; gap = \([^ ]*\).*/\1/p')
            S=reduce
            echo "$OUT" | grep -q '^upper bound (scan edge LP' && S=edge
            K=$(echo "$OUT" | sed -n 's/^upper bound (scan edge LP over \([0-9]*\) of.*/\1/p')
            [ -n "$K" ] && S="edge:$K"
            printf '%-12s %-3s %-9s %-16s %-14s %-14s %-7s %-12s %8.2f\n' "$name" "$N" "$kind" \
                "${model:-graph}" "$A" "$B" "$S" "$G" "$(cpu "$TMP")"
        done
    done
done

echo
echo "== the scan edge LP alone (--method lp), tiers-small =="
PLAT=examples/tiers-small.graphml
printf '%-3s %-9s %-16s %-22s %7s %7s %8s\n' N kind model bound rows cols cpu_s
for N in 4 6 8; do
    [ "$N" -le "$MAXN" ] || continue
    LIST=$(hosts "$PLAT" | head -n "$N" | paste -sd, -)
    for kind in inclusive exclusive; do
        X=; [ $kind = exclusive ] && X=--exclusive
        for model in "" "--routers switch" "--model routed"; do
            # shellcheck disable=SC2086
            OUT=$(/usr/bin/time -f '%U %S' -o "$TMP" "$SSCHED" solve "$PLAT" --problem scan \
                --participants "$LIST" $X $model --method lp --quiet)
            B=$(echo "$OUT" | sed -n 's/^upper bound on TP = \([^ ]*\).*/\1/p')
            R=$(echo "$OUT" | sed -n 's/^solver: edge LP, \([0-9]*\) rows, \([0-9]*\) columns.*/\1 \2/p')
            printf '%-3s %-9s %-16s %-22s %7s %7s %8.2f\n' "$N" "$kind" "${model:-graph}" "$B" \
                ${R} "$(cpu "$TMP")"
        done
    done
done

echo
echo "== unrolled scans (ssched schedule --unroll; checked): makespan against K/TP and K/UB =="
echo "   (UNROLL_K=\"100 1000\" by default; graph model, one-port and --routers switch; cpu_s:"
echo "   the median of REPEAT=3 runs, user+sys, the check included; BEFORE=<git commit>: the"
echo "   same rows from that commit's ssched beside, e.g. BEFORE=53cca80, before issue 27's"
echo "   offset-first pattern and the greedy's interval index)"
OLD=
if [ -n "${BEFORE:-}" ]; then
    BDIR=$(mktemp -d)
    git archive "$BEFORE" | tar -x -C "$BDIR"
    cmake -S "$BDIR" -B "$BDIR/build" -DCMAKE_BUILD_TYPE=Release -DSSCHED_BUILD_TESTS=OFF >/dev/null
    cmake --build "$BDIR/build" -j2 --target ssched_cli >/dev/null
    OLD="$BDIR/build/ssched"
    trap 'rm -f "$TMP"; rm -rf "$BDIR"' EXIT
fi
# run_unroll BIN ARGS..: OUT (the last run's output), RATIO (makespan / LB(K)) and
# CPU (the median of REPEAT runs' user+sys)
run_unroll() {
    local bin=$1 cpus=
    shift
    for _ in $(seq "${REPEAT:-3}"); do
        OUT=$(/usr/bin/time -f '%U %S' -o "$TMP" "$bin" schedule "$@" -o /dev/null)
        cpus="$cpus $(cpu "$TMP")"
    done
    RATIO=$(echo "$OUT" | sed -n 's/^makespan \/ LB(K) = [^ ]* (\([^)]*\)).*/\1/p')
    CPU=$(echo $cpus | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
}
printf '%-12s %-3s %-9s %-16s %6s %-16s %-12s %-12s %8s' platform N kind model K makespan \
    'mk/(K/TP)' 'mk/(K/UB)' cpu_s
[ -n "$OLD" ] && printf ' %-12s %8s' 'before:mk/LB' cpu_s
echo
for spec in tiers-small:4 tiers-small:8 tiers-99:8 tiers-99:16; do
    name=${spec%%:*}
    N=${spec##*:}
    PLAT=examples/$name.graphml
    LIST=$(hosts "$PLAT" | head -n "$N" | paste -sd, -)
    for kind in inclusive exclusive; do
        X=; [ $kind = exclusive ] && X=--exclusive
        for model in "" "--routers switch"; do
            for K in ${UNROLL_K:-100 1000}; do
                # shellcheck disable=SC2086
                set -- "$PLAT" --problem scan --participants "$LIST" $X $model --operations "$K" --unroll
                run_unroll "$SSCHED" "$@"
                C=$CPU
                M=$(echo "$OUT" | sed -n 's/^time for K operations: [^ ]* (\([^)]*\)).*/\1/p')
                R1=$(echo "$OUT" | sed -n 's/^makespan \/ LB(K) = [^ ]* (\([^)]*\)).*/\1/p')
                R2=$(echo "$OUT" | sed -n 's/.*makespan \/ max(K\/UB, LB1) = [^ ]* (\([^)]*\)).*/\1/p')
                printf '%-12s %-3s %-9s %-16s %6s %-16s %-12s %-12s %8.2f' "$name" "$N" \
                    "$kind" "${model:-graph}" "$K" "$M" "$R1" "$R2" "$C"
                if [ -n "$OLD" ]; then
                    run_unroll "$OLD" "$@"
                    printf ' %-12s %8.2f' "$RATIO" "$CPU"
                fi
                echo
            done
        done
    done
done
