#!/bin/sh
# The main job on a shipped example: install missing packages, build, and
# plan a series of reduces on a generated Tiers-like platform (RR-4872 §4.7):
# the certified optimal throughput, the period, the reduction trees, the
# periodic schedule (checked by the independent checker), a Gantt chart, and
# 1000 operations unrolled into a checked finite schedule with its ratio to
# the lower bound, then run by the MPI executor in SMPI (simulated).
set -e
cd "$(dirname "$0")/.."
echo "== 1/5 installing missing Debian packages (if any)"
./scripts/install-deps.sh
echo "== 2/5 building (build/release; about a minute on 2 cores)"
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j2 2>&1 | awk '/Built target/ {n++; if (n % 10 == 0) printf "   %d targets built\n", n}'
test -x build/release/ssched
echo "== 3/5 a periodic schedule of reduces (certified TP, trees, Gantt chart), checked"
set -x
./build/release/ssched schedule examples/tiers-small.graphml --problem reduce \
    --participants h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_0,h0_0_0_1,h1_0_0_1 --target h0_0_0_0 \
    --gantt build/release/reduce-gantt.svg -o build/release/reduce-schedule.json
./build/release/ssched check build/release/reduce-schedule.json
{ set +x; } 2>/dev/null
echo "== 4/5 1000 reduces unrolled into a finite schedule, checked"
set -x
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
{ set +x; } 2>/dev/null
echo "== 5/5 that schedule run by the MPI executor in SimGrid's SMPI, every result verified"
if [ -x build/release/ssched-exec-smpi ]; then
    set -x
    ./build/release/ssched export simgrid examples/tiers-small.graphml \
        -o build/release/tiers-small.xml --hostfile build/release/tiers-small.hosts
    smpirun -np 20 -platform build/release/tiers-small.xml -hostfile build/release/tiers-small.hosts \
        $(bench/smpi_exact.sh --print-cfg B) --log=root.threshold:error \
        build/release/ssched-exec-smpi build/release/reduce-unrolled.json --verify --json | tail -n 1
fi
{ set +x; } 2>/dev/null
cat <<EOF

Done.  Written in build/release/:
  reduce-schedule.json   one period of the steady state (ssched check verifies it)
  reduce-gantt.svg       its Gantt chart (open it in a browser)
  reduce-unrolled.json   the 1000 operations, ready for ssched-exec
Next:
  export PATH=\$PWD/build/release:\$PATH      # or: cmake --install build/release --prefix ~/.local
  ssched solve examples/tiers-small.graphml --problem broadcast --source wan0
  ssched report examples/tiers-small.graphml --problem reduce \\
      --participants h0_0_0_0,h0_0_1_0,h1_0_0_0 --target h0_0_0_0 --operations 100 -o report.html
  ssched --help; man docs/ssched.1
EOF
