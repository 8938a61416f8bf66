#!/bin/bash
# Issue 26, the CPU-seconds table: the LP rows (column generation at the
# scale of real grids).  Platforms as bench/colgen.sh makes them:
#   ssched gen tiers --nodes N --seed 1 --wan-redundancy 3 --man-redundancy 3
# Rows (ONLY="row ..." selects some):
#   reduce100   ordered reduce, the first 100 hosts of 250 nodes, target the first
#   reduce150   the same, 150 hosts of 375 nodes
#   reduce200   the same, 200 hosts of 500 nodes (~20 CPU s; 1 run when > 120 s)
#   gossip80    all-to-all among every 5th host of 500 nodes (80 hosts)
#   commut1000  commutative reduce, every host of 1000 nodes, target the first
#   bcast10000  broadcast from the first host to every other node of 10^4 nodes
#   scatter3000 the first host to every other host of 3000 nodes
#   allred24    ordered all-reduce of the first 24 hosts of 99 nodes (best root)
# Figures: CPU seconds (user+sys, /usr/bin/time) of `ssched solve --method
# colgen --quiet`, median of 3 (1 run when the first exceeds 120 s), peak RSS,
# the certified throughput, and the issue's "today" and target columns.
set -e
cd "$(dirname "$0")/.."
# SSCHED=path/to/ssched uses that binary (a Release build) instead of building one.
if [ -z "${SSCHED:-}" ]; then
    BUILD=${BUILD:-build/bench}
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSSCHED_BUILD_TESTS=OFF >/dev/null
    cmake --build "$BUILD" -j2 >/dev/null
    SSCHED="$BUILD/ssched"
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

platform() { # nodes -> file
    [ -f "$TMP/p$1.graphml" ] ||
        "$SSCHED" gen tiers --nodes "$1" --seed 1 --wan-redundancy 3 --man-redundancy 3 -o "$TMP/p$1.graphml"
    echo "$TMP/p$1.graphml"
}
hosts() { grep -o 'node id="h[^"]*"' "$1" | sed 's/node id="//; s/"//'; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
# one run: "cpu_seconds peak_kb" (user+sys; the solver's stdout kept in $TMP/out)
cpu_run() {
    /usr/bin/time -f "%U %S %M" -o "$TMP/time" "$@" >"$TMP/out" 2>/dev/null || return 1
    awk '{printf "%.2f %d", $1 + $2, $3}' "$TMP/time"
}

printf '%-12s %-40s | %8s %8s | %7s %7s | %s\n' row size cpu_s peak_MB today target TP
row() { # name today target size-text command...
    local name=$1 today=$2 target=$3 size=$4
    shift 4
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then return 0; fi
    local r t mem a=() k
    r=$(cpu_run "$SSCHED" solve "$@" --method colgen --quiet --json) || { echo "$name: solve failed" >&2; return 1; }
    t=${r% *}; mem=${r#* }
    a+=("$t")
    if awk -v t="$t" 'BEGIN{exit !(t <= 120)}'; then
        for k in 2 3; do r=$(cpu_run "$SSCHED" solve "$@" --method colgen --quiet --json); a+=("${r% *}"); done
        t=$(median3 "${a[@]}")
    fi
    local tp; tp=$(grep '"throughput"' "$TMP/out" | head -1 | sed 's/.*: "//; s/".*//')
    printf '%-12s %-40s | %8s %8.1f | %7s %7s | %s\n' "$name" "$size" "$t" \
        "$(awk -v m="$mem" 'BEGIN{print m/1024}')" "$today" "$target" "$tp"
}
want() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

reduce_row() { # name nodes N today target
    want "$1" || return 0
    local plat all part
    plat=$(platform "$2"); all=$(hosts "$plat")
    part=$(echo "$all" | head -"$3" | paste -sd, -)
    row "$1" "$4" "$5" "ordered reduce $3 of $2 nodes" "$plat" --problem reduce \
        --participants "$part" --target "$(echo "$all" | head -1)"
}
reduce_row reduce100 250 100 16 2
reduce_row reduce150 375 150 143 15
reduce_row reduce200 500 200 640 60

if want gossip80; then
    plat=$(platform 500); g=$(hosts "$plat" | awk 'NR % 5 == 1' | paste -sd, -)
    row gossip80 49 5 "gossip every 5th host of 500 ($(echo "$g" | tr ',' '\n' | wc -l))" "$plat" \
        --problem gossip --sources "$g" --targets "$g"
fi
if want commut1000; then
    plat=$(platform 1000); all=$(hosts "$plat")
    row commut1000 66 5 "commutative reduce, all $(echo "$all" | wc -l) hosts of 1000" "$plat" \
        --problem reduce --commutative --participants "$(echo "$all" | paste -sd, -)" \
        --target "$(echo "$all" | head -1)"
fi
if want bcast10000; then
    plat=$(platform 10000)
    row bcast10000 50 5 "broadcast to every node of 10000" "$plat" --problem broadcast \
        --source "$(hosts "$plat" | head -1)"
fi
if want scatter3000; then
    plat=$(platform 3000); all=$(hosts "$plat")
    row scatter3000 18 2 "scatter to all $(echo "$all" | wc -l) hosts of 3000" "$plat" --problem scatter \
        --source "$(echo "$all" | head -1)" --targets "$(echo "$all" | tail -n +2 | paste -sd, -)"
fi
if want allred24; then
    plat=$(platform 99)
    row allred24 13 2 "ordered all-reduce of 24 hosts of 99" "$plat" --problem allreduce \
        --participants "$(hosts "$plat" | head -24 | paste -sd, -)"
fi
echo "cpu_s: user+sys CPU seconds, median of 3 (1 run above 120 s); today/target: issue 26's table;"
echo "every TP is exact and certified by the exact pricing pass"
