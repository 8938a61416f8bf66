#!/bin/sh
# Benchmark of the GraphML platform loader (issue 11 item 5) on directed
# chains n0 -> n1 -> ... -> n(N-1) (w = 1, c = 1), N = 10^4, 5*10^4, 10^5.
# Columns, medians of REPS runs (default 5) per size:
#   load_s        ssched_platform_load_graphml() alone (bench_platform_load)
#   load+solve_s  wall time of `ssched solve` with a 2-node scatter
#                 (source n0 -> target n1): load, LP, exact certificate.
#   usage: bench/platform_load.sh   (BUILD=dir to choose the build directory,
#                                    SIZES="..." and REPS=k to change the runs)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-platform-load}
SIZES=${SIZES:-"10000 50000 100000"}
REPS=${REPS:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$BUILD" --target ssched_cli bench_platform_load -j2; } >"$TMP/log" 2>&1; then
  cat "$TMP/log" >&2
  echo "build failed" >&2
  exit 1
fi
BIN="$BUILD/ssched"
LOAD="$BUILD/bench/bench_platform_load"

chain() { # chain N FILE
  awk -v n="$1" 'BEGIN {
    print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    print "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">"
    print "  <key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>"
    print "  <key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>"
    print "  <graph id=\"G\" edgedefault=\"directed\">"
    for (i = 0; i < n; i++) printf "    <node id=\"n%d\"><data key=\"w\">1</data></node>\n", i
    for (i = 0; i + 1 < n; i++)
      printf "    <edge source=\"n%d\" target=\"n%d\"><data key=\"c\">1</data></edge>\n", i, i + 1
    print "  </graph>"
    print "</graphml>"
  }' >"$2"
}

now() { date +%s.%N; }

printf '%-8s %10s %8s %13s  %s\n' nodes bytes load_s load+solve_s "load+solve runs (s)"
for n in $SIZES; do
  f="$TMP/chain-$n.graphml"
  chain "$n" "$f"
  times=""
  for r in $(seq "$REPS"); do
    t0=$(now)
    if ! "$BIN" solve "$f" --problem scatter --source n0 --targets n1 --quiet >"$TMP/out" 2>"$TMP/err"; then
      echo "solve failed on $n nodes:" >&2
      cat "$TMP/err" >&2
      exit 1
    fi
    t1=$(now)
    times="$times $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')"
  done
  med=$(printf '%s\n' $times | sort -g | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f", m }')
  runs=$(printf '%s\n' $times | awk '{ printf "%s%.3f", (NR > 1 ? " " : ""), $1 }')
  load=$("$LOAD" --reps "$REPS" "$f" | awk '{ print $4 }')
  printf '%-8s %10s %8s %13s  %s\n' "$n" "$(wc -c <"$f")" "$load" "$med" "$runs"
done
