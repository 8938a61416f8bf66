#!/bin/sh
# The main job on a shipped example: install missing packages, build, and
# plan a series of reduces on a generated Tiers-like platform (RR-4872 §4.7):
# the certified optimal throughput, the period, the reduction trees, the
# periodic schedule (checked by the independent checker), a Gantt chart, and
# 1000 operations unrolled into a checked finite schedule with its ratio to
# the lower bound, then run by the MPI executor in SMPI (simulated).
set -e
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j2 >/dev/null
set -x
./build/release/ssched schedule examples/tiers-small.graphml --problem reduce \
    --participants h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_0,h0_0_0_1,h1_0_0_1 --target h0_0_0_0 \
    --gantt build/release/reduce-gantt.svg -o build/release/reduce-schedule.json
./build/release/ssched check build/release/reduce-schedule.json
# The same reduce as something to run: 1000 operations unrolled (pattern
# chosen for K, pieces of messages, left-shifted), streamed to a file and
# checked; it prints the time for K against LB(K) = max(K/TP, LB1).
./build/release/ssched schedule examples/tiers-small.graphml --problem reduce \
    --participants h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_0,h0_0_0_1,h1_0_0_1 --target h0_0_0_0 \
    --operations 1000 --unroll -o build/release/reduce-unrolled.json
# Run it: the MPI executor in SimGrid's SMPI (one simulated host per node,
# links of B / c bytes per second), with each value's 2x2-matrix product
# verified against the ordered reduction; the simulated makespan is the
# schedule's.  (On a cluster: mpirun -np 20 ssched-exec FILE --verify.)
if [ -x build/release/ssched-exec-smpi ]; then
    ./build/release/ssched export simgrid examples/tiers-small.graphml \
        -o build/release/tiers-small.xml --hostfile build/release/tiers-small.hosts
    smpirun -np 20 -platform build/release/tiers-small.xml -hostfile build/release/tiers-small.hosts \
        $(bench/smpi_exact.sh --print-cfg B) --log=root.threshold:error \
        build/release/ssched-exec-smpi build/release/reduce-unrolled.json --verify --json | tail -n 1
fi
