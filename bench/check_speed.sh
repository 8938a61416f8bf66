#!/bin/sh
# Speed of the independent checker of unrolled files (`ssched check`):
# the scatter to every host of tiers-99 unrolled for K = 10^4 (4.82e6
# transfers, median of 3 checks) and K = 10^5 (4.82e7 transfers, ~6.5 GB,
# one check).  Each file is generated once with --no-check; the check is
# timed alone: wall seconds, us per transfer, CPU seconds (user + sys: the
# wall time also counts other processes' use of the cores), peak RSS.
# Then (issue 26, its CPU table) the ordered reduce of the first 12 hosts
# of tiers-99 to the first, unrolled for K = 10^4 (690000 transfers,
# 110000 computations, median of 3) and K = 10^5 (one check; the row was
# 48 s and 3.5 GB before issue 26, target 20 s and 200 MB).
# Usage: bench/check_speed.sh        BIG=0 skips 10^5; ONLY=reduce or
#                                    ONLY=scatter runs one kind;
#        OLD=path/to/ssched          also times that binary's checker on the
#                                    same files (e.g. a build of an older
#                                    commit: git worktree add /tmp/old HEAD).
#        B=path/to/ssched            the binary measured (default: a Release
#                                    build in build/release)
set -e
cd "$(dirname "$0")/.."
if [ -z "$B" ]; then
    cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build/release -j2 --target ssched_cli >/dev/null
    B=build/release/ssched
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
T99=examples/tiers-99.graphml
H99=$(grep -o 'node id="h[^"]*"' $T99 | sed 's/node id="//;s/"//' | paste -sd, -)
SRC=$(echo "$H99" | cut -d, -f1)
DST=$(echo "$H99" | cut -d, -f2-)
NOCHECK=
$B schedule --help 2>&1 | grep -q -- '--no-check' && NOCHECK=--no-check

# time_check BINARY FILE: prints "seconds peak_kB user sys transfers"
time_check() {
    /usr/bin/time -f "%e %M %U %S" -o "$OUT/time" "$1" check "$2" > "$OUT/log" 2>&1 ||
        { echo "check failed: $(tail -1 "$OUT/log")" >&2; exit 1; }
    n=$(sed -n 's/.*(\([0-9]*\) timed transfers.*/\1/p' "$OUT/log")
    echo "$(cat "$OUT/time") $n"
}

# report LABEL BINARY FILE RUNS
report() {
    : > "$OUT/runs"
    i=0
    while [ $i -lt "$4" ]; do
        time_check "$2" "$3" >> "$OUT/runs"
        i=$((i + 1))
    done
    sort -n "$OUT/runs" | awk -v label="$1" -v runs="$4" '
        { t[NR] = $1; m[NR] = $2; cpu[NR] = $3 + $4; n = $5 }
        END { k = int((NR + 1) / 2)
              printf "%-22s %9d transfers %7.2f s (median of %d) %6.3f us/transfer, CPU %6.2f s, peak RSS %4d MB\n",
                     label, n, t[k], runs, t[k] * 1e6 / n, cpu[k], m[k] / 1024 }'
}

R12=$(echo "$H99" | cut -d, -f1-12)

run() { # K RUNS [reduce]
    K=$1
    RUNS=$2
    F="$OUT/u$K.json"
    start=$(date +%s.%N)
    if [ "${3:-scatter}" = reduce ]; then
        set -- --problem reduce --participants "$R12" --target "$SRC"
    else
        set -- --problem scatter --source "$SRC" --targets "$DST"
    fi
    $B schedule $T99 "$@" --operations "$K" \
        --unroll $NOCHECK --quiet -o "$F" > "$OUT/gen" 2>&1 ||
        { echo "generation failed: $(tail -1 "$OUT/gen")" >&2; exit 1; }
    gen=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    printf "K=%-6s generated in %.1f s%s (%s MB)\n" "$K" "$gen" \
        "${NOCHECK:+ with --no-check}" "$(($(stat -c %s "$F") / 1048576))"
    report "  check (this build)" "$B" "$F" "$RUNS"
    if [ -n "$OLD" ]; then
        # older checkers refuse the newer "buffer_peak"/"buffer_node" keys
        # (the last two figures): they read a copy without them
        size=$(stat -c %s "$F")
        tail -c 4096 "$F" > "$OUT/tail"
        at=$(grep -b '^ *"buffer_peak"' "$OUT/tail" | head -1 | cut -d: -f1 || true)
        if [ -n "$at" ]; then # cut the ",\n" before that line too
            head -c $((size - 4096 + at - 2)) "$F" > "$OUT/old.json"
            printf '\n}\n' >> "$OUT/old.json"
            rm -f "$F"
            F="$OUT/old.json"
        fi
        report "  check (OLD)" "$OLD" "$F" 1
    fi
    rm -f "$F"
}

if [ "${ONLY:-scatter}" = scatter ]; then
    echo "scatter from $SRC to every other host of tiers-99"
    run 10000 3
    [ "${BIG:-1}" = 0 ] || run 100000 1
fi
if [ "${ONLY:-reduce}" = reduce ]; then
    echo "ordered reduce of $R12 to $SRC"
    run 10000 3 reduce
    [ "${BIG:-1}" = 0 ] || run 100000 1 reduce
fi
