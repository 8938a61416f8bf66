#!/bin/bash
# Certified steady-state solve against QSopt_ex's exact simplex on the same LP.
# For growing Tiers-like platforms (ssched gen tiers --nodes N --seed 1), a
# scatter from the first host to every other host and a gossip among the
# first hosts: `ssched solve` (float solve + exact certification) against
# `esolver` on the edge LP that `ssched lp` exports.  Medians of 3 runs.
# ssched uses its default method (column generation, certified exactly).
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/bench}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSSCHED_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j2 >/dev/null
SSCHED="$BUILD/ssched"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SIZES=${SIZES:-"20 46 66 99 150 200 300"}
GOSSIP_HOSTS=${GOSSIP_HOSTS:-6}

now() { date +%s.%N; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

run_timed() { # prints seconds
    local t0 t1
    t0=$(now); "$@" >/dev/null 2>&1 || { echo "FAILED: $*" >&2; exit 1; }; t1=$(now)
    echo "$t1 - $t0" | bc -l
}

printf '%-8s %-6s %6s %7s %7s %11s %11s %8s %s\n' problem nodes edges rows cols ssched_s esolver_s ratio TP
for n in $SIZES; do
    plat="$TMP/t$n.graphml"
    "$SSCHED" gen tiers --nodes "$n" --seed 1 -o "$plat"
    hosts=$(grep -o 'node id="h[^"]*"' "$plat" | sed 's/node id="//; s/"//')
    src=$(echo "$hosts" | head -1)
    tgts=$(echo "$hosts" | tail -n +2 | paste -sd, -)
    gsel=$(echo "$hosts" | head -"$GOSSIP_HOSTS" | paste -sd, -)
    for kind in scatter gossip; do
        if [ $kind = scatter ]; then opts="--problem scatter --source $src --targets $tgts";
        else opts="--problem gossip --sources $gsel --targets $gsel"; fi
        "$SSCHED" lp "$plat" $opts -o "$TMP/m.lp"
        json=$("$SSCHED" solve "$plat" $opts --json)
        tp=$(echo "$json" | grep '"throughput"' | head -1 | sed 's/.*: "//; s/".*//')
        rows=$(echo "$json" | grep '"rows"' | sed 's/[^0-9]//g')
        cols=$(echo "$json" | grep '"columns"' | sed 's/[^0-9]//g')
        a=(); b=()
        for r in 1 2 3; do
            a+=("$(run_timed "$SSCHED" solve "$plat" $opts)")
            b+=("$(run_timed esolver -L -O "$TMP/sol" "$TMP/m.lp")")
        done
        ev=$(grep 'Value = ' "$TMP/sol" | sed 's/.*Value = //')
        [ "$ev" = "$tp" ] || { echo "MISMATCH on $kind n=$n: ssched $tp, esolver $ev" >&2; exit 1; }
        ta=$(median3 "${a[@]}"); tb=$(median3 "${b[@]}")
        edges=$(grep -c '<edge ' "$plat")
        printf '%-8s %-6s %6s %7s %7s %11.4f %11.4f %8.2f %s\n' $kind "$n" "$edges" "$rows" "$cols" "$ta" "$tb" \
            "$(echo "$tb / $ta" | bc -l)" "$tp"
    done
done
echo "ratio = esolver time / ssched time (both exact; TP checked equal); rows/cols = the LP ssched solved"
echo "(the column-generation master by default; ssched lp exports the edge LP esolver solves)"
