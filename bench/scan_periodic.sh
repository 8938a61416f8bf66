#!/bin/bash
# Issue 27 item 4: periodic scan schedules (ssched schedule --problem scan,
# no --unroll; schedule/build_scan.c) and their independent checker
# (ssched check: schedule/check_periodic_scan*.c, the problem solved again).
# Participants: the first N hosts (nodes with w) in file order; inclusive and
# --exclusive; the graph model (one-port), --routers switch, --model routed.
#
# Columns: the period and operations per period of the file, the schedule's
# throughput (ops/period), the achievable TP `ssched solve` certifies (they
# must be equal: "=" or "DIFF"), the certified upper bound, slots, and the
# CPU seconds (user+sys) of `schedule` (solve + build + self-check) and of
# `check` (full check, the problem solved again).
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/bench}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSSCHED_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j2 >/dev/null
SSCHED="$BUILD/ssched"
hosts() { grep -B1 'key="w"' "$1" | grep -o 'node id="[^"]*"' | sed 's/node id="//;s/"//'; }
cpu() { awk '{print $1 + $2}' "$1"; }
TMP=$(mktemp)
FILE=$(mktemp)
trap 'rm -f "$TMP" "$FILE"' EXIT

printf '%-12s %-3s %-9s %-16s %-12s %-10s %-12s %-4s %-12s %5s %8s %8s\n' platform N kind model \
    period ops/period TP '' bound slots sched_s check_s
for spec in tiers-small:4 tiers-small:8 tiers-99:8 tiers-99:16; do
    name=${spec%%:*}
    N=${spec##*:}
    PLAT=examples/$name.graphml
    LIST=$(hosts "$PLAT" | head -n "$N" | paste -sd, -)
    for kind in inclusive exclusive; do
        X=; [ $kind = exclusive ] && X=--exclusive
        for model in "" "--routers switch" "--model routed"; do
            # shellcheck disable=SC2086
            SOLVE=$("$SSCHED" solve "$PLAT" --problem scan --participants "$LIST" $X $model --quiet)
            CERT=$(echo "$SOLVE" | sed -n 's/^throughput (achievable.*TP = \([^ ]*\) .*/\1/p')
            # shellcheck disable=SC2086
            OUT=$(/usr/bin/time -f '%U %S' -o "$TMP" "$SSCHED" schedule "$PLAT" --problem scan \
                --participants "$LIST" $X $model -o "$FILE")
            S1=$(cpu "$TMP")
            /usr/bin/time -f '%U %S' -o "$TMP" "$SSCHED" check "$FILE" >/dev/null
            S2=$(cpu "$TMP")
            P=$(echo "$OUT" | sed -n 's/^period = \([^ ]*\) .*/\1/p')
            O=$(echo "$OUT" | sed -n 's/.*operations per period = \([0-9]*\).*/\1/p')
            T=$(echo "$OUT" | sed -n 's/^throughput = achievable TP (certified packing) = \([^ ]*\) (\([^)]*\)).*/\1 \2/p')
            B=$(echo "$OUT" | sed -n 's/^upper bound UB = [^ ]* (\([^)]*\)).*/\1/p')
            SL=$(echo "$OUT" | sed -n 's/.*by rate, \([0-9]*\) slots.*/\1/p')
            EQ=DIFF; [ "${T%% *}" = "$CERT" ] && EQ="="
            printf '%-12s %-3s %-9s %-16s %-12s %-10s %-12s %-4s %-12s %5s %8.2f %8.2f\n' "$name" \
                "$N" "$kind" "${model:-graph}" "$P" "$O" "${T##* }" "$EQ" "$B" "$SL" "$S1" "$S2"
        done
    done
done
