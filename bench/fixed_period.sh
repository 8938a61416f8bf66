#!/bin/bash
# Issue 5 item 3 / issue 4 item 4: fixed-period reduce schedules from the
# column-generation master's trees against edge LP + EXTRACT_TREES, on the
# same instances: number of trees, the report's floor throughput
# (sum floor(w(T) TF/T) / TF), the report's guarantee TP - card(TREES)/TF,
# and ssched's achieved throughput (floors plus greedy fill).  Every
# schedule is checked by the independent checker inside `ssched schedule`.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/bench}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSSCHED_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j2 >/dev/null
SSCHED="$BUILD/ssched"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
field() { grep "\"$1\"" "$2" | head -1 | sed 's/.*: //; s/[",]//g'; }
dec() { awk -v q="$1" 'BEGIN{n=split(q,a,"/"); printf "%.6f", n==2 ? a[1]/a[2] : a[1]}'; }
cases=()
"$SSCHED" gen tiers --nodes 46 --seed 1 --wan-redundancy 3 --man-redundancy 3 -o "$TMP/p46.graphml"
"$SSCHED" gen tiers --nodes 66 --seed 1 --wan-redundancy 3 --man-redundancy 3 -o "$TMP/p66.graphml"
h46=$(grep -o 'node id="h[^"]*"' "$TMP/p46.graphml" | sed 's/node id="//; s/"//' | head -8 | paste -sd, -)
h66=$(grep -o 'node id="h[^"]*"' "$TMP/p66.graphml" | sed 's/node id="//; s/"//' | head -12 | paste -sd, -)
cases+=("fig6|examples/fig6.graphml|P0,P1,P2|P0")
cases+=("tiers-small|examples/tiers-small.graphml|h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_0,h0_0_0_1,h1_0_0_1|h0_0_0_0")
cases+=("tiers46,N=8|$TMP/p46.graphml|$h46|${h46%%,*}")
cases+=("tiers66,N=12|$TMP/p66.graphml|$h66|${h66%%,*}")
printf '%-14s %6s | %-6s %5s %10s %10s %10s %10s\n' instance TF method trees TP floor guarantee achieved
for c in "${cases[@]}"; do
    IFS='|' read -r name plat part target <<< "$c"
    for tf in 10 100 1000; do
        for method in lp colgen; do
            "$SSCHED" schedule "$plat" --problem reduce --participants "$part" --target "$target" \
                --fixed-period "$tf" --method $method --quiet --json > "$TMP/s.json"
            trees=$(grep -c '"weight"' "$TMP/s.json")
            printf '%-14s %6s | %-6s %5s %10s %10s %10s %10s\n' "$name" "$tf" $method "$trees" \
                "$(dec "$(field optimal_throughput "$TMP/s.json")")" "$(dec "$(field floor_throughput "$TMP/s.json")")" \
                "$(dec "$(field report_bound "$TMP/s.json")")" "$(dec "$(field throughput "$TMP/s.json")")"
        done
    done
done
