#!/bin/sh
# ssched-exec's sending discipline with latencies (issue 22 item 3), in SMPI.
#
# tiers-small exported by `ssched export simgrid` (a unit message = UNIT
# bytes, 10^8 as in issue 22; messages of S = 1 KB and 64 KB), link
# latencies then set in the XML as issue 22 does:
# 10 us on links with a host end, 1 ms on links with a WAN end, 100 us
# otherwise (LAN-MAN).  A scatter (first host to every other host) and a
# broadcast (first host to every node), K operations, planned by
# `ssched schedule --unroll` (SCHED_OPTS: more options, e.g. the latency-aware
# planning once it exists).  The plan is made for messages of size 1 and run
# with --unit-bytes S: the linear model scales every time by S / UNIT, and
# today `schedule --size S/UNIT` refuses the broadcast ("the periodic
# pattern has about 45600030 events per period", issue 22 item 0).  Each plan
# is run by
#   before  ssched-exec-smpi of revision OLD_REV (MPI_Issend, one transfer
#           in flight per port), built here with smpicc;
#   asap    today's ssched-exec-smpi --no-pace (MPI_Isend, several transfers
#           in flight per port when the schedule overlaps them);
#   paced   today's ssched-exec-smpi --pace S/UNIT (every event at its
#           start);
#   window  today's ssched-exec-smpi --no-pace --window W (W = WINDOW, 64:
#           W more transfers in flight per port than the plan overlaps);
# and against MPI's collectives (bench/mpi_collectives.c: MPI_Scatterv,
# MPI_Scatter under several smpi/scatter algorithms, MPI_Iscatterv; MPI_Bcast
# under several smpi/bcast algorithms, MPI_Ibcast), all in the exact
# configuration (bench/smpi_exact.sh --print-cfg B).  Prints one row per
# (problem, size): the plan's makespan, each executor's simulated time, the
# best MPI algorithm and MPI best / ssched (above 1 ssched is faster).
#
# usage: bench/exec_discipline.sh
# env:   K=100  SIZES="1000 65536" (bytes)  UNIT=100000000  OLD_REV=cd370d8  SCHED_OPTS=""
#        WINDOW=64
#        PROBLEMS="scatter broadcast"  RUN_TIMEOUT=900
#        SSCHED, SSCHED_EXEC_SMPI (default build/release/...)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
K=${K:-100}
SIZES=${SIZES:-"1000 65536"}
UNIT=${UNIT:-100000000}
WINDOW=${WINDOW:-64}
OLD_REV=${OLD_REV:-cd370d8}
SCHED_OPTS=${SCHED_OPTS:-}
PROBLEMS=${PROBLEMS:-"scatter broadcast"}
RUN_TIMEOUT=${RUN_TIMEOUT:-900}
SSCHED=${SSCHED:-$ROOT/build/release/ssched}
EXEC=${SSCHED_EXEC_SMPI:-$ROOT/build/release/ssched-exec-smpi}
FLOPS=1e9
SCATTER_ALGS=${SCATTER_ALGS:-"default ompi_binomial ompi_basic_linear mvapich2_two_level_binomial"}
BCAST_ALGS=${BCAST_ALGS:-"default binomial_tree flattree scatter_LR_allgather scatter_rdb_allgather ompi_pipeline NTSL"}
for f in "$SSCHED" "$EXEC"; do
    [ -x "$f" ] || { echo "$f not built (cmake --build build/release)" >&2; exit 1; }
done
command -v smpicc >/dev/null || { echo "smpicc not found (SimGrid)" >&2; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
CACHE=$ROOT/build/release/CMakeCache.txt
lib() { sed -n "s|^$1:FILEPATH=||p" "$CACHE"; }

# the executor of OLD_REV, built as CMake builds ssched-exec-smpi
mkdir -p "$W/old"
git -C "$ROOT" archive "$OLD_REV" src/mpi src/util include | tar -x -C "$W/old"
g++ -std=c++17 -O2 -fPIC -c "$W/old/src/mpi/smpi_envelope.cpp" -o "$W/old/env.o"
smpicc -std=c11 -O2 -DSSCHED_SMPI=1 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
    -I"$W/old/include" -I"$W/old" "$W"/old/src/mpi/plan*.c "$W/old/src/mpi/setup.c" \
    "$W/old/src/mpi/run.c" "$W/old/src/mpi/exec_main.c" "$W/old/env.o" -o "$W/old-exec" \
    "$ROOT/build/release/libssched.a" -ligraph -ljansson -lxml2 "$(lib LPSOLVE_LIBRARY)" \
    "$(lib COLAMD_LIBRARY)" -lgmp -lsimgrid -lstdc++ -lm -ldl >"$W/cc.log" 2>&1 ||
    { cat "$W/cc.log" >&2; exit 1; }
# MPI's collectives
. "$ROOT/bench/smpi_lib.sh"
bench_smpi_program "$ROOT" "$W" "$ROOT/bench/mpi_collectives.c" "$W/mc"
CFG=$(sh "$ROOT/bench/smpi_exact.sh" --print-cfg B)
PLAT=$ROOT/examples/tiers-small.graphml
H=$(grep -o 'node id="h[^"]*"' "$PLAT" | sed 's/node id="//;s/"//' | paste -sd, -)
SRC=$(echo "$H" | cut -d, -f1)

ranks() { # names -> ranks (hostfile line - 1)
    echo "$1" | tr ',' '\n' | while read -r h; do grep -nx "$h" "$W/hosts.txt" | cut -d: -f1; done |
        awk '{ printf "%s%d", (NR > 1 ? "," : ""), $1 - 1 }'
}
run() { # label program args... -> "label seconds" on stdout (fail if none)
    label=$1; shift
    # shellcheck disable=SC2086
    if timeout "$RUN_TIMEOUT" smpirun -np "$NP" -platform "$W/plat.xml" -hostfile "$W/hosts.txt" \
        $CFG --log=root.thres:critical "$@" >"$W/out" 2>"$W/err"; then
        t=$(awk '$1 == "time" { print $2 }' "$W/out")
        [ -n "$t" ] || t=$(tail -n 1 "$W/out" | python3 -c \
            "import json,sys; print(json.loads(sys.stdin.read())['makespan'])" 2>/dev/null || echo fail)
    else
        t=fail
    fi
    echo "$label $t"
}

: >"$W/rows"
"$SSCHED" export simgrid "$PLAT" -o "$W/plat0.xml" --hostfile "$W/hosts.txt" --unit-bytes "$UNIT" \
    --flops-per-task "$FLOPS" >/dev/null
for U in $SIZES; do
    SZD=$(python3 -c "print(repr($U / $UNIT))") # the message size in units
    # the latencies of issue 22, by the names of each link's two ends
    python3 - "$W/plat0.xml" "$W/plat.xml" <<'PY'
import re, sys
x = open(sys.argv[1]).read()
ends = {l: (a, b) for a, b, l in re.findall(
    r'<route src="([^"]+)" dst="([^"]+)"[^>]*><link_ctn id="([^"]+)"/>', x)}
def lat(l):
    a, b = ends[l]
    if a.startswith("wan") or b.startswith("wan"):
        return "1ms"
    if a.startswith("h") or b.startswith("h"):
        return "10us"
    return "100us"
x = re.sub(r'<link id="([^"]+)" bandwidth="([^"]+)" latency="0s"/>',
           lambda m: f'<link id="{m.group(1)}" bandwidth="{m.group(2)}" latency="{lat(m.group(1))}"/>', x)
open(sys.argv[2], "w").write(x)
PY
    NP=$(wc -l <"$W/hosts.txt")
    for prob in $PROBLEMS; do
        case $prob in
        scatter) set -- --problem scatter --source "$SRC" --targets "$(echo "$H" | cut -d, -f2-)" ;;
        broadcast) set -- --problem broadcast --source "$SRC" ;;
        esac
        # shellcheck disable=SC2086
        [ -f "$W/u-$prob.json" ] || "$SSCHED" schedule "$PLAT" "$@" $SCHED_OPTS --operations "$K" \
            --unroll -o "$W/u-$prob.json" >/dev/null
        cp "$W/u-$prob.json" "$W/u.json"
        PLAN=$(python3 -c "import json,sys; from fractions import Fraction as F; print(float(F(json.load(open(sys.argv[1]))['makespan']) * $U / $UNIT))" "$W/u.json")
        {
            echo "plan $PLAN"
            run before "$W/old-exec" "$W/u.json" --unit-bytes "$U" --json
            run asap "$EXEC" "$W/u.json" --unit-bytes "$U" --json --no-pace
            run paced "$EXEC" "$W/u.json" --unit-bytes "$U" --json --pace "$SZD"
            run window "$EXEC" "$W/u.json" --unit-bytes "$U" --json --no-pace --window "$WINDOW"
            L1=$(ranks "$SRC")
            if [ "$prob" = scatter ]; then
                L2=$(ranks "$(echo "$H" | cut -d, -f2-)")
                run Scatterv "$W/mc" scatterv blocking "$K" "$UNIT" "$FLOPS" "$SZD" "$L1" "$L2"
                for a in $SCATTER_ALGS; do
                    run "Scatter:$a" "--cfg=smpi/scatter:$a" "$W/mc" scatter blocking "$K" "$UNIT" "$FLOPS" "$SZD" "$L1" "$L2"
                done
                run Iscatterv "$W/mc" scatterv nonblocking "$K" "$UNIT" "$FLOPS" "$SZD" "$L1" "$L2"
            else
                L2=$(grep -vx "$SRC" "$W/hosts.txt" | paste -sd, -)
                L2=$(ranks "$L2")
                for a in $BCAST_ALGS; do
                    run "Bcast:$a" "--cfg=smpi/bcast:$a" "$W/mc" bcast blocking "$K" "$UNIT" "$FLOPS" "$SZD" "$L1" "$L2"
                done
                run Ibcast "$W/mc" bcast nonblocking "$K" "$UNIT" "$FLOPS" "$SZD" "$L1" "$L2"
            fi
        } >"$W/row"
        echo "$prob $U $(tr '\n' ' ' <"$W/row")" >>"$W/rows"
        tail -n 1 "$W/rows" >&2
    done
done

python3 - "$W/rows" <<'PY'
import sys
def num(s):
    try:
        return float(s)
    except ValueError:
        return None
print(f"{'problem':<10} {'bytes':>6} {'plan (s)':>10} {'before':>10} {'asap':>10} {'paced':>10} "
      f"{'window':>10} {'best MPI':>28} {'MPI/before':>10} {'MPI/asap':>9} {'MPI/paced':>9} "
      f"{'MPI/window':>10}")
for line in open(sys.argv[1]):
    f = line.split()
    prob, U, kv = f[0], f[1], f[2:]
    d = {kv[i]: num(kv[i + 1]) for i in range(0, len(kv), 2)}
    mine = ("plan", "before", "asap", "paced", "window")
    mpi = [(v, k) for k, v in d.items() if k not in mine and v]
    best = min(mpi) if mpi else None
    g = lambda k: f"{d[k]:.4f}" if d.get(k) else "fail"
    r = lambda k: f"{best[0] / d[k]:.3f}" if best and d.get(k) else "n/a"
    bs = f"{best[1]} {best[0]:.4f}" if best else "n/a"
    print(f"{prob:<10} {U:>6} {g('plan'):>10} {g('before'):>10} {g('asap'):>10} {g('paced'):>10} "
          f"{g('window'):>10} {bs:>28} {r('before'):>10} {r('asap'):>9} {r('paced'):>9} "
          f"{r('window'):>10}")
print("seconds simulated by SMPI (exact configuration, latencies 10us/100us/1ms); "
      "MPI/x above 1: ssched's executor x is faster than MPI's best")
PY
