#!/bin/sh
# Routers as switches (issue "Switches"): certified TP and solve time, one-port
# routers (RR-4872) against switches, for a scatter to every host, a gossip
# among every host and a reduce of 6 hosts, on the shipped Tiers platforms.
# Medians of 3 runs.
set -e
cd "$(dirname "$0")/.."
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j2 --target ssched_cli >/dev/null
B=build/release/ssched
hosts() { grep -o 'node id="h[^"]*"' "$1" | sed 's/node id="//;s/"//' | paste -sd, -; }
pick() { echo "$1" | tr ',' '\n' | awk -v n="$2" -v s="$3" 'NR % s == 1 && c < n { printf "%s%s", (c++ ? "," : ""), $0 }'; }

median_solve() { # args... -> "TP seconds" (median time of 3)
    for r in 1 2 3; do
        s=$(date +%s.%N)
        tp=$($B solve "$@" --json --quiet | python3 -c 'import json,sys; print(json.load(sys.stdin)["throughput"])')
        e=$(date +%s.%N)
        echo "$tp $(echo "$e - $s" | bc)"
    done | sort -k2 -g | sed -n 2p
}

printf '%-12s %-8s %-14s %10s   %-14s %10s   %s\n' platform problem "TP one-port" "time" "TP switch" "time" "switch/one-port"
for g in examples/tiers-small.graphml examples/tiers-46.graphml examples/tiers-99.graphml; do
    H=$(hosts $g); S=$(echo "$H" | cut -d, -f1); T=$(echo "$H" | cut -d, -f2-)
    P=$(pick "$H" 6 2); PT=$(echo "$P" | cut -d, -f1)
    for prob in scatter gossip reduce; do
        case $prob in
            scatter) args="--problem scatter --source $S --targets $T" ;;
            gossip) [ "$(echo "$H" | tr ',' '\n' | wc -l)" -gt 20 ] && continue
                    args="--problem gossip --sources $H --targets $H" ;;
            reduce) args="--problem reduce --participants $P --target $PT" ;;
        esac
        set -- $(median_solve $g $args --routers one-port) $(median_solve $g $args --routers switch)
        ratio=$(python3 -c "from fractions import Fraction as F; print(f'{float(F(\"$3\")/F(\"$1\")):.3f}')")
        printf '%-12s %-8s %-14s %9.3fs   %-14s %9.3fs   %s\n' "$(basename $g .graphml)" $prob "$1" "$2" "$3" "$4" "$ratio"
    done
done
