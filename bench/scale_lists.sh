#!/bin/sh
# Bounded at scale (issue 24 item 5): CPU seconds (user + sys, median of 3)
# of the steps that were quadratic:
#   gen N        ssched gen tiers --nodes N (every node through add_node,
#                whose duplicate check was a linear search)
#   @list N      solve --problem scatter --targets @FILE with every host of
#                that platform (about 0.9 N names) and the source last, so
#                that the solve stops right after parsing the list (exit 2)
#   inline 10^4  the same with 10^4 names given as "a,b,c,..."
#   report N     ssched report of a scatter to 2 hosts on N nodes, K = 10
#                (the Kamada-Kawai layout was quadratic in time and memory)
# A run over LIMIT CPU seconds (default 150) is stopped and shown as ">LIMIT".
# Usage: bench/scale_lists.sh     B=path/to/ssched  the binary measured
#                                 (default: a Release build in build/release)
#        OLD=path/to/ssched       also measures that binary (e.g. a build of
#                                 main before this change)
#        SIZES="20000 100000"     the node counts for gen and @list
set -e
cd "$(dirname "$0")/.."
if [ -z "$B" ]; then
    cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build/release -j2 --target ssched_cli >/dev/null
    B=build/release/ssched
fi
LIMIT=${LIMIT:-150}
SIZES=${SIZES:-"20000 100000"}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# cpu BINARY ARGS...: CPU seconds of one run (">LIMIT" if stopped)
cpu() {
    if ( ulimit -t "$LIMIT"; /usr/bin/time -f "%U %S" -o "$OUT/t" "$@" >/dev/null 2>"$OUT/err" ); then :; fi
    if grep -q "signal\|Command terminated" "$OUT/t" 2>/dev/null; then
        echo ">$LIMIT"
    else
        awk 'END { printf "%.2f\n", $1 + $2 }' "$OUT/t"
    fi
}

# median3 BINARY ARGS...: the median of 3 runs (one run if the first is stopped)
median3() {
    a=$(cpu "$@")
    case $a in ">"*) echo "$a"; return;; esac
    b=$(cpu "$@")
    c=$(cpu "$@")
    printf "%s\n%s\n%s\n" "$a" "$b" "$c" | sort -n | sed -n 2p
}

measure() { # LABEL BINARY
    label=$1
    bin=$2
    for n in $SIZES; do
        g="$OUT/t$n.graphml"
        "$B" gen tiers --nodes "$n" -o "$g"
        grep -o 'node id="h[^"]*"' "$g" | sed 's/node id="//;s/"//' > "$OUT/hosts$n"
        src=$(head -1 "$OUT/hosts$n")
        { sed 1d "$OUT/hosts$n"; echo "$src"; } > "$OUT/list$n"
        printf "%-8s gen %-7s %8s s\n" "$label" "$n" "$(median3 "$bin" gen tiers --nodes "$n" -o "$OUT/g.graphml")"
        printf "%-8s @list %-5s %8s s   (%s names)\n" "$label" "$n" \
            "$(median3 "$bin" solve "$g" --problem scatter --source "$src" --targets @"$OUT/list$n")" \
            "$(wc -l < "$OUT/list$n")"
    done
    g="$OUT/t20000.graphml"
    [ -f "$g" ] || "$B" gen tiers --nodes 20000 -o "$g"
    src=h0_0_0_0
    inline=$(grep -o 'node id="h[^"]*"' "$g" | sed 's/node id="//;s/"//' | sed 1d | tail -n 9999 | paste -sd, -)
    printf "%-8s inline 10^4   %8s s\n" "$label" \
        "$(median3 "$bin" solve "$g" --problem scatter --source $src --targets "$inline,$src")"
    for n in 2000 5000; do
        g="$OUT/r$n.graphml"
        "$B" gen tiers --nodes $n -o "$g"
        printf "%-8s report %-6s %8s s\n" "$label" "$n" \
            "$(median3 "$bin" report "$g" --problem scatter --source h0_0_0_0 --targets h0_0_0_1,h0_0_0_2 --operations 10 --quiet -o "$OUT/r.html")"
    done
}

measure new "$B"
[ -n "$OLD" ] && measure old "$OLD"
exit 0
