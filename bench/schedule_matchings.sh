#!/bin/bash
# Issue 3 item 8: number of matchings (slots) and decomposition time against
# the number of bipartite edges, on schedules of generated Tiers-like
# platforms (ssched gen tiers --nodes N --seed 7 --man-redundancy 3): a
# scatter from the first host to every other host, and a gossip among the
# first H hosts; bottleneck matchings (ssched's choice) against arbitrary
# perfect matchings, both in this run.  Medians of 3 decompositions.
# (bench/matching.sh measures the decomposition alone on larger graphs.)
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/bench}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSSCHED_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j2 >/dev/null
SSCHED="$BUILD/ssched"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
field() { grep "\"$1\"" "$2" | head -1 | sed 's/.*: //; s/[",]//g'; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
printf '%-8s %6s %4s %6s | %7s %6s %10s | %7s %6s %10s | %7s\n' problem nodes H b_edges \
    r_bneck bound t_bneck_ms r_arb bound t_arb_ms r_ratio
for spec in "scatter 20 0" "scatter 46 0" "scatter 66 0" "scatter 99 0" "gossip 20 4" "gossip 46 6" \
            "gossip 66 8" "gossip 99 8" "gossip 150 10"; do
    set -- $spec
    kind=$1; n=$2; h=$3
    "$SSCHED" gen tiers --nodes "$n" --seed 7 --man-redundancy 3 -o "$TMP/p.graphml"
    all=$(grep -o 'node id="h[^"]*"' "$TMP/p.graphml" | sed 's/node id="//; s/"//')
    if [ "$kind" = scatter ]; then
        opts="--problem scatter --source $(echo "$all" | head -1) --targets $(echo "$all" | tail -n +2 | paste -sd, -)"
        h=$(echo "$all" | wc -l)
    else
        hosts=$(echo "$all" | head -"$h" | paste -sd, -)
        opts="--problem gossip --sources $hosts --targets $hosts"
    fi
    declare -A r b t e
    for rule in bottleneck arbitrary; do
        times=()
        for k in 1 2 3; do
            "$SSCHED" schedule "$TMP/p.graphml" $opts --matching $rule --json > "$TMP/s.json"
            times+=("$(field decompose_seconds "$TMP/s.json")")
        done
        r[$rule]=$(field matchings "$TMP/s.json"); b[$rule]=$(field bound "$TMP/s.json")
        e[$rule]=$(field bipartite_edges "$TMP/s.json")
        t[$rule]=$(median3 "${times[@]}" | awk '{printf "%.3f", $1 * 1000}')
    done
    printf '%-8s %6s %4s %6s | %7s %6s %10s | %7s %6s %10s | %7s\n' "$kind" "$n" "$h" "${e[bottleneck]}" \
        "${r[bottleneck]}" "${b[bottleneck]}" "${t[bottleneck]}" "${r[arbitrary]}" "${b[arbitrary]}" \
        "${t[arbitrary]}" "$(awk -v a="${r[bottleneck]}" -v b="${r[arbitrary]}" 'BEGIN{printf "%.3f", a/b}')"
done
echo "r = matchings (slots per period); bound = proven bound on r; r_ratio = bottleneck / arbitrary"
