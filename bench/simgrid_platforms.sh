#!/bin/bash
# SimGrid platform files in (issue 23 target): every shipped platform of
# ../shared/data/simgrid loads, and a 1500-host platform's routes are read
# in under 10 s.  Generates a 1500-host flat cluster (private links and a
# backbone: 3 links per route) and a 1500-host multi-zone platform (15
# clusters of 100 in a Floyd zone, joined pairwise through their uplinks:
# 5 links per route across clusters), and times `ssched export hostfile`
# (SimGrid's load in a child, every ordered pair's route, the routed
# platform built exactly).
# Columns: hosts, CPU seconds of `ssched export hostfile` and its child
# (user + system, median of REPS runs, default 3).
#   usage: bench/simgrid_platforms.sh  (BUILD=dir, HOSTS=n, REPS=k)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build/release}
HOSTS=${HOSTS:-1500}
REPS=${REPS:-3}
DATA="$ROOT/../shared/data/simgrid"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$BUILD" --target ssched_cli -j2; } >"$TMP/log" 2>&1; then
  cat "$TMP/log" >&2
  echo "build failed" >&2
  exit 1
fi
BIN="$BUILD/ssched"

header() {
  echo "<?xml version='1.0'?>"
  echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
  echo '<platform version="4.1">'
}
cluster() { # cluster N
  header
  echo "  <cluster id=\"c\" prefix=\"node-\" radical=\"0-$(($1 - 1))\" suffix=\"\" speed=\"1Gf\"" \
       "bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"/>"
  echo '</platform>'
}
zones() { # zones N: 15 clusters, Floyd routing between their routers
  local z=15 per=$(($1 / 15))
  header
  echo '  <zone id="world" routing="Floyd">'
  for k in $(seq 0 $((z - 1))); do
    echo "    <cluster id=\"c$k\" prefix=\"c$k-\" radical=\"0-$((per - 1))\" suffix=\"\"" \
         "speed=\"$((k + 1))Gf\" bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"" \
         "router_id=\"r$k\"/>"
  done
  for k in $(seq 0 $((z - 1))); do
    echo "    <link id=\"up$k\" bandwidth=\"1.25GBps\" latency=\"1ms\"/>"
  done
  for k in $(seq 0 $((z - 1))); do
    for m in $(seq $((k + 1)) $((z - 1))); do
      echo "    <zoneRoute src=\"c$k\" dst=\"c$m\" gw_src=\"r$k\" gw_dst=\"r$m\">" \
           "<link_ctn id=\"up$k\"/><link_ctn id=\"up$m\"/></zoneRoute>"
    done
  done
  echo '  </zone>'
  echo '</platform>'
}

cpu_once() { # cpu_once FILE: user+sys seconds of ssched and its child
  local TIMEFORMAT='%U %S' t
  t=$( { time "$BIN" export hostfile "$1" -o "$TMP/out.hosts" >"$TMP/summary" 2>"$TMP/err"; } \
      2>&1 ) || { cat "$TMP/err" >&2; exit 1; }
  echo "$t" | awk '{printf "%.2f\n", $1 + $2}'
}

row() { # row NAME FILE
  local times med
  times=$(for _ in $(seq "$REPS"); do cpu_once "$2"; done | sort -n)
  med=$(echo "$times" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
  printf '%-22s %6s %10s\n' "$1" "$(wc -l < "$TMP/out.hosts")" "$med"
}

printf '%-22s %6s %10s\n' platform hosts cpu_s
for f in "$DATA"/*.xml; do
  row "$(basename "$f")" "$f"
done
cluster "$HOSTS" > "$TMP/cluster.xml"
row "cluster-$HOSTS" "$TMP/cluster.xml"
zones "$HOSTS" > "$TMP/zones.xml"
row "zones-$HOSTS" "$TMP/zones.xml"
echo "(cpu_s: load, all $HOSTS x $(($HOSTS - 1)) routes, exact routed platform; target: under 10 s)"
