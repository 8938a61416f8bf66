#!/bin/sh
# The one-scan makespan (issue 27 item 6): for a few clusters of 3 to 6
# processors, the exact optimum of `ssched makespan scan --algorithm optimal`
# (inclusive and exclusive) against the chain, with the search's CPU
# seconds (user + sys, /usr/bin/time).  A search stopped by the node budget
# (--max-work, default 10^10 steps = 6.7 x 10^7 nodes, 5 to 20 s) shows "stopped@N"
# (N nodes).
#   usage: bench/makespan_scan.sh   (SSCHED=path, CLUSTERS="t,t,.. t,t,..")
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SSCHED=${SSCHED:-$ROOT/build/release/ssched}
CLUSTERS=${CLUSTERS:-"5,5,1 10,1,1 1,1,1,1 3,1,1,1 1,2,3,4 4,3,2,1 1,1,1,1,1 1,2,3,4,5 3,1,4,1,5 2,3,5,7,11 1,2,3,4,5,6"}
T=$(mktemp)
trap 'rm -f "$T"' EXIT
printf '%-16s %-9s %10s %16s %8s\n' cluster variant chain optimal "cpu s"
for c in $CLUSTERS; do
    for x in inclusive exclusive; do
        flag=""
        [ "$x" = exclusive ] && flag=--exclusive
        chain=$("$SSCHED" makespan scan --times "$c" --algorithm chain $flag --json |
            python3 -c "import json,sys; print(json.load(sys.stdin)['makespan'])")
        # shellcheck disable=SC2086
        if /usr/bin/time -f "%U %S" -o "$T" "$SSCHED" makespan scan --times "$c" \
            --algorithm optimal $flag --json --quiet >"$T.json" 2>"$T.err"; then
            opt=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['makespan'])" "$T.json")
        else
            opt=stopped@$(grep -o 'after [0-9]* nodes' "$T.err" | awk '{ print $2 }')
        fi
        cpu=$(tail -n 1 "$T" | awk '{ printf "%.2f", $1 + $2 }')
        printf '%-16s %-9s %10s %16s %8s\n' "$c" "$x" "$chain" "$opt" "$cpu"
    done
done
rm -f "$T.json" "$T.err"
