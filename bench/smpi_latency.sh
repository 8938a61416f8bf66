#!/bin/sh
# What SMPI (SimGrid 3.32) does with a link latency, measured on one link
# (bandwidth B = 10^8 B/s, latency L = 1 ms; bench/smpi_latency.c): N = 4
# messages of S bytes in four sending disciplines, under the exact
# configuration (bench/smpi_exact.sh --print-cfg B) and under SMPI's
# default network model (network/model:SMPI with the exact
# configuration's non-network options).  Printed: each message's arrival
# after the sender's start, and what the schedule's semantics predict
# (SEMANTICS: a message takes L + S/B, holds the link only for S/B; in the
# paced discipline message k is sent at k S/B, so it arrives at
# L + (k+1) S/B).  Under the default model the prediction uses SMPI's
# latency factor f(S) (smpi/lat-factor, looked up on S + 16 bytes): f L + S/B,
# and its sends below smpi/send-is-detached-thresh (64 KiB) complete at once
# (the exact configuration sets the threshold to 0).  Measured (SimGrid
# 3.32): every arrival equals its prediction to the printed 0.1 us; f = 1.95
# at 1 KB, 3.49 at 16 KB (SIZES="1024 16384": one 16 KB message arrives at
# 3.6523 ms = 3.48845 x 1 ms + 0.1638 ms), 11.64 at 64 KB and above.  So a
# plan's batch of n operations, one message of n x S bytes, pays the
# factor of n x S, not of S: bench/smpi_latency_fit.py fits the "default"
# platform of bench/mpi_vs_collectives.sh to the sizes a plan sends.
#
# Cross-traffic (SMPI's default model has network/crosstraffic:1, the exact
# configuration 0): a flow also takes 5 % of its rate on the reverse
# route's links.  Measured on an asymmetric pair (a->b 1.03 MB/s, b->a
# 4.35 MB/s, no latency, tiers-small's man1_0 - wan1 ratio), N = 10
# messages of 64 KB each way, one at a time: alone (and both ways under the
# exact configuration) each way takes N S / B (0.636 s, 0.151 s); both ways
# at once under the default model, max-min gives the two flows the same
# rate, the slower link's B / 1.05, so both end at 1.05 N S / min B
# (0.667 s: the fast way 4.4 times slower).  bench/mpi_vs_collectives.sh plans the "default" rows
# with that rate on the link pairs a plan uses both ways.
#
# usage: bench/smpi_latency.sh      env: SIZES="1024 65536 1048576"
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZES=${SIZES:-"1024 65536 1048576"}
. "$ROOT/bench/smpi_lib.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
bench_smpi_program "$ROOT" "$W" "$ROOT/bench/smpi_latency.c" "$W/lat"
# Two hosts a, b, one link each way: pair_platform FILE BW_AB BW_BA LATENCY
pair_platform() {
    cat >"$1" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1e9f"/>
    <host id="b" speed="1e9f"/>
    <link id="ab" bandwidth="$2" latency="$4"/>
    <link id="ba" bandwidth="$3" latency="$4"/>
    <route src="a" dst="b" symmetrical="NO"><link_ctn id="ab"/></route>
    <route src="b" dst="a" symmetrical="NO"><link_ctn id="ba"/></route>
  </zone>
</platform>
XML
}
pair_platform "$W/p.xml" 100000000Bps 100000000Bps 0.001s
printf 'a\nb\n' >"$W/h.txt"
EXACT=$("$ROOT/bench/smpi_exact.sh" --print-cfg B)
DEFAULT="--cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 --cfg=smpi/test:0 --cfg=smpi/iprobe:0"
for S in $SIZES; do
    gap=$(python3 -c "print($S / 1e8)")
    for model in exact default; do
        if [ "$model" = exact ]; then CFG=$EXACT; else CFG=$DEFAULT; fi
        for mode in single burst serial paced; do
            N=4; [ "$mode" = single ] && N=1
            # shellcheck disable=SC2086
            got=$(smpirun -np 2 -platform "$W/p.xml" -hostfile "$W/h.txt" $CFG "$W/lat" "$mode" "$N" "$S" "$gap" 2>/dev/null |
                sed 's/^[^:]*: //')
            echo "$S $model $mode $N $got"
        done
    done
done >"$W/rows"
pair_platform "$W/p2.xml" 1030927.8350515464Bps 4347826.086956522Bps 0s
for model in exact default; do
    if [ "$model" = exact ]; then CFG=$EXACT; else CFG=$DEFAULT; fi
    for mode in ab ba both; do
        # shellcheck disable=SC2086
        got=$(smpirun -np 2 -platform "$W/p2.xml" -hostfile "$W/h.txt" $CFG "$W/lat" "$mode" 10 65536 0 \
            2>/dev/null | sed 's/^[^:]*: //')
        echo "cross $model $mode $got"
    done
done >>"$W/rows"
python3 -c '
import sys
L, B = 1e-3, 1e8
def f(s):  # smpi/lat-factor default (SimGrid 3.32), on s + 16 bytes
    s += 16
    for t, x in ((65472, 11.6436), (15424, 3.48845), (9376, 2.59299), (5776, 2.18796),
                 (3484, 1.88101), (1426, 1.61075), (732, 1.9503), (257, 1.95341), (0, 2.01467)):
        if s >= t:
            return x
print("%8s %7s %6s  arrivals (ms)  /  predicted (ms)" % ("S", "model", "mode"))
cross = []
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] == "cross":
        cross.append(w[1:])
        continue
    S, model, mode, N = int(w[0]), w[1], w[2], int(w[3])
    got = [float(x) * 1e3 for x in w[4:]]
    lat = L * (f(S) if model == "default" else 1)
    d = S / B
    if mode == "paced" or mode == "single":
        pred = [(lat + (k + 1) * d) * 1e3 for k in range(N)]
    elif mode == "burst":  # fair sharing of the link: all end together
        pred = [(lat + N * d) * 1e3] * N
    elif model == "default" and S < 65536:  # serial, but a detached send completes at once
        pred = [(lat + N * d) * 1e3] * N
    else:  # serial: each waits for the previous one to arrive
        pred = [((k + 1) * (lat + d)) * 1e3 for k in range(N)]
    g = " ".join(f"{x:.4f}" for x in got)
    p = " ".join(f"{x:.4f}" for x in pred)
    print(f"{S:>8} {model:>7} {mode:>6}  {g}  /  {p}")
print("cross-traffic, 10 x 64 KB each way, a->b 1.03 MB/s, b->a 4.35 MB/s: last arrival at b, at a (s)"
      "  /  predicted")
Bab, Bba, T = 1e8 / 97, 1e8 / 23, 10 * 65536
for model, mode, b, a in cross:
    tied = model == "default" and mode == "both"  # cross-traffic: one rate for both
    pb = T * 1.05 / min(Bab, Bba) if tied else T / Bab if mode != "ba" else 0
    pa = T * 1.05 / min(Bab, Bba) if tied else T / Bba if mode != "ab" else 0
    print(f"{model:>7} {mode:>4}  {float(b):.6f} {float(a):.6f}  /  {pb:.6f} {pa:.6f}")
' "$W/rows"
