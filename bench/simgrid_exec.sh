#!/bin/sh
# Routed schedules run on the ORIGINAL SimGrid files (issue 23, item 3).
#
# On each SimGrid platform of ../shared/data/simgrid/ (SimGrid's own
# examples), for reduce (ordered), broadcast (to the chosen hosts), scatter,
# gossip and all-reduce over up to 8 hosts spread over the platform (every
# host when it has fewer), K operations of --unit-bytes U bytes each:
#   ssched solve     -> TP (the routed model, hosts multi-port)
#   ssched schedule --operations K --unroll (checked before it is written)
#                    -> the plan's makespan, LB(K) = max(K/TP, LB1)
#   ssched-exec-smpirun -np <every host> -platform FILE.xml -hostfile H
#                    -> the simulated makespan (SMPI's exact configuration,
#                       one rank per host, payloads verified)
# and, unless MPI=0, the best correct MPI algorithm SMPI offers for the same
# K operations on the same file (bench/mpi_collectives.c, as
# bench/mpi_vs_collectives.sh runs it; rank i = host i of the hostfile).
#
# Columns: K/TP, LB(K), plan (schedule makespan), sim (simulated),
# sim/plan, plan/LB, best MPI time and algorithm, best/sim (above 1:
# ssched's schedule is faster than every MPI algorithm tried).
#
# usage: bench/simgrid_exec.sh            (K = 100, 1 MB, the 4 platforms)
#        QUICK=1 bench/simgrid_exec.sh    (K = 10, small_platform and
#                                          two_clusters, two MPI algorithms)
# env:   K, UNIT_BYTES (1000000), FLOPS (--flops-per-task, 10000000),
#        PLATFORMS (file names under DATA), DATA (the folder), PROBLEMS,
#        MPI=0 (no baselines), RUN_TIMEOUT (s per smpirun, 600), PLAN_TIMEOUT
#        (s per `ssched schedule`, 600: the multicast LP on cluster_backbone's
#        100 hosts takes minutes), BUILD
#        (build/release), SEGMENTS (P or auto: `ssched schedule --segments`,
#        each operation cut into P segments, for the problems in SEG_PROBLEMS,
#        default allreduce; the row's problem reads e.g. allreduce/32; the
#        executor runs the file with the same units; LB(K) is then
#        max(K/TP, LB1 of a segment), K/TP the original problem's:
#        schedule/unroll_seg.c)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build/release}
SSCHED=$BUILD/ssched
RUNNER=$BUILD/ssched-exec-smpirun
DATA=${DATA:-$ROOT/../shared/data/simgrid}
U=${UNIT_BYTES:-1000000}
FLOPS=${FLOPS:-10000000}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
PLAN_TIMEOUT=${PLAN_TIMEOUT:-600}
MPI=${MPI:-1}
REDUCE_ALGS=${REDUCE_ALGS:-"default binomial ompi_in_order_binary mvapich2"}
SCATTER_ALGS=${SCATTER_ALGS:-"default ompi_binomial ompi_basic_linear"}
ALLTOALLV_ALGS=${ALLTOALLV_ALGS:-"default bruck ring ompi_basic_linear"}
BCAST_ALGS=${BCAST_ALGS:-"default binomial_tree flattree scatter_LR_allgather ompi_pipeline NTSL"}
ALLREDUCE_ALGS=${ALLREDUCE_ALGS:-"default redbcast rdb lr"}
if [ "${QUICK:-0}" = 1 ]; then
    K=${K:-10}
    PLATFORMS=${PLATFORMS:-"small_platform two_clusters"}
    REDUCE_ALGS="default binomial"; SCATTER_ALGS="default"; ALLTOALLV_ALGS="default"
    BCAST_ALGS="default binomial_tree"; ALLREDUCE_ALGS="default"
fi
K=${K:-100}
PLATFORMS=${PLATFORMS:-"small_platform two_clusters cluster_fat_tree cluster_backbone"}
PROBLEMS=${PROBLEMS:-"reduce broadcast scatter gossip allreduce"}

[ -x "$SSCHED" ] || { echo "build first: $SSCHED not found" >&2; exit 1; }
[ -x "$RUNNER" ] || { echo "$RUNNER not found (SimGrid's SMPI not built)" >&2; exit 1; }
command -v smpirun >/dev/null || { echo "smpirun not found (SimGrid)" >&2; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
EXACT_CFG=$("$RUNNER" --print-cfg)
if [ "$MPI" = 1 ]; then
    . "$ROOT/bench/smpi_lib.sh"
    bench_smpi_program "$ROOT" "$W" "$ROOT/bench/mpi_collectives.c" "$W/mc"
fi

# up to 8 hosts spread over the hostfile (every host when fewer)
pick() { awk -v n="$(wc -l <"$1")" 'BEGIN { s = n > 8 ? int(n / 8) : 1 } (NR - 1) % s == 0 && c < 8 { printf "%s%s", (c++ ? "," : ""), $0 }' "$1"; }
first() { echo "$1" | cut -d, -f1; }
rest() { echo "$1" | cut -d, -f2-; }
head6() { echo "$1" | cut -d, -f1-6; }
ranks() { # names -> comma-separated ranks (line numbers - 1 of the hostfile)
    echo "$1" | tr ',' '\n' | while read -r h; do grep -nx "$h" "$W/hosts.txt" | head -1 | cut -d: -f1; done |
        awk '{ printf "%s%d", (NR > 1 ? "," : ""), $1 - 1 }'
}
field() { python3 -c "
import json, sys
from fractions import Fraction
print(float(Fraction(json.load(open(sys.argv[1]))[sys.argv[2]])))" "$@"; }

mpi() { # label extra-cfg args... -> "label time" lines into $W/mpi when verified
    label=$1 extra=$2; shift 2
    # shellcheck disable=SC2086
    if timeout "$RUN_TIMEOUT" smpirun -np "$NP" -platform "$P" -hostfile "$W/hosts.txt" $EXACT_CFG \
        $extra --log=root.thres:critical "$W/mc" "$@" >"$W/mout" 2>"$W/merr"; then
        t=$(awk '$1 == "time" { print $2 }' "$W/mout"); v=$(awk '$1 == "verified" { print $2 }' "$W/mout")
        [ -n "$t" ] && [ "$v" = yes ] && echo "$label $t" >>"$W/mpi"
    fi
    return 0
}

printf '%-17s %-9s %2s %4s %9s %9s %9s %9s %10s %8s %9s %-26s %8s\n' platform problem n K K/TP 'LB(K)' \
    plan sim sim/plan plan/LB 'best MPI' '(algorithm)' best/sim
for plat in $PLATFORMS; do
    P=$DATA/$plat.xml
    [ -f "$P" ] || { echo "$P not found" >&2; continue; }
    "$SSCHED" export hostfile "$P" -o "$W/hosts.txt" >/dev/null
    NP=$(wc -l <"$W/hosts.txt")
    H=$(pick "$W/hosts.txt")
    for prob in $PROBLEMS; do
        case $prob in
        reduce) set -- --problem reduce --participants "$H" --target "$(first "$H")"
            L1=$(ranks "$H"); L2=$(ranks "$(first "$H")"); n=$(echo "$H" | tr ',' '\n' | wc -l) ;;
        broadcast) set -- --problem broadcast --source "$(first "$H")" --targets "$(rest "$H")"
            L1=$(ranks "$(first "$H")"); L2=$(ranks "$(rest "$H")"); n=$(echo "$H" | tr ',' '\n' | wc -l) ;;
        scatter) set -- --problem scatter --source "$(first "$H")" --targets "$(rest "$H")"
            L1=$(ranks "$(first "$H")"); L2=$(ranks "$(rest "$H")"); n=$(echo "$H" | tr ',' '\n' | wc -l) ;;
        gossip) G=$(head6 "$H"); set -- --problem gossip --sources "$G" --targets "$G"
            L1=$(ranks "$G"); L2=""; n=$(echo "$G" | tr ',' '\n' | wc -l) ;;
        allreduce) G=$(head6 "$H"); set -- --problem allreduce --participants "$G"
            L1=$(ranks "$G"); L2=""; n=$(echo "$G" | tr ',' '\n' | wc -l) ;;
        *) echo "unknown problem $prob" >&2; continue ;;
        esac
        OPTS="--unit-bytes $U --flops-per-task $FLOPS"
        SEG=""
        case " ${SEG_PROBLEMS:-allreduce} " in *" $prob "*) [ -n "${SEGMENTS:-}" ] && SEG="--segments $SEGMENTS" ;; esac
        # shellcheck disable=SC2086
        if ! timeout "$PLAN_TIMEOUT" "$SSCHED" schedule "$P" "$@" $OPTS $SEG --operations "$K" --unroll --quiet -o "$W/u.json" \
            >"$W/plan.log" 2>&1; then
            printf '%-17s %-9s %2s %4s plan failed: %s\n' "$plat" "$prob" "$n" "$K" "$(tail -1 "$W/plan.log")"
            continue
        fi
        PLAN=$(field "$W/u.json" makespan); LB=$(field "$W/u.json" lower_bound)
        PSEG=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1])).get('segments', ''))" "$W/u.json")
        LABEL=$prob; [ -z "$PSEG" ] || LABEL="$prob/$PSEG"
        KTP=$(field "$W/u.json" steady_time)
        # shellcheck disable=SC2086
        if timeout "$RUN_TIMEOUT" "$RUNNER" -np "$NP" -platform "$P" -hostfile "$W/hosts.txt" \
            --log=root.thres:critical "$W/u.json" $OPTS --verify --json >"$W/exec.out" 2>"$W/exec.err" &&
            grep -q '"verified": true' "$W/exec.out"; then
            SIM=$(tail -n 1 "$W/exec.out" | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['makespan'])")
        else
            SIM=fail
        fi
        : >"$W/mpi"
        if [ "$MPI" = 1 ]; then
            case $prob in
            reduce) for a in $REDUCE_ALGS; do
                    mpi "Reduce:$a" "--cfg=smpi/reduce:$a" reduce blocking "$K" "$U" "$FLOPS" 1 "$L1" "$L2"; done
                mpi Ireduce "" reduce nonblocking "$K" "$U" "$FLOPS" 1 "$L1" "$L2" ;;
            broadcast) for a in $BCAST_ALGS; do
                    mpi "Bcast:$a" "--cfg=smpi/bcast:$a" bcast blocking "$K" "$U" "$FLOPS" 1 "$L1" "$L2"; done
                mpi Ibcast "" bcast nonblocking "$K" "$U" "$FLOPS" 1 "$L1" "$L2" ;;
            scatter) mpi Scatterv "" scatterv blocking "$K" "$U" "$FLOPS" 1 "$L1" "$L2"
                for a in $SCATTER_ALGS; do
                    mpi "Scatter:$a" "--cfg=smpi/scatter:$a" scatter blocking "$K" "$U" "$FLOPS" 1 "$L1" "$L2"; done
                mpi Iscatterv "" scatterv nonblocking "$K" "$U" "$FLOPS" 1 "$L1" "$L2" ;;
            gossip) for a in $ALLTOALLV_ALGS; do
                    mpi "Alltoallv:$a" "--cfg=smpi/alltoallv:$a" gossip blocking "$K" "$U" "$FLOPS" 1 "$L1"; done
                mpi Ialltoallv "" gossip nonblocking "$K" "$U" "$FLOPS" 1 "$L1" ;;
            allreduce) for a in $ALLREDUCE_ALGS; do
                    mpi "Allreduce:$a" "--cfg=smpi/allreduce:$a" allreduce blocking "$K" "$U" "$FLOPS" 1 "$L1"; done
                mpi Iallreduce "" allreduce nonblocking "$K" "$U" "$FLOPS" 1 "$L1" ;;
            esac
        fi
        python3 - "$plat" "$LABEL" "$n" "$K" "$KTP" "$LB" "$PLAN" "$SIM" "$W/mpi" "$MPI" <<'PY'
import sys
plat, prob, n, K, ktp, lb, plan, sim, mpif, mpi = sys.argv[1:]
ktp, lb, plan = float(ktp), float(lb), float(plan)
best = None
for line in open(mpif):
    a, t = line.split()
    if best is None or float(t) < best[1]:
        best = (a, float(t))
s = float(sim) if sim != "fail" else None
f = lambda x: f"{x:.4f}" if x is not None else "fail"
r = f"{s / plan:.8f}" if s else "fail"
if mpi != "1":
    bm, ba, bs = "n/m", "(not measured)", "n/m"
elif best is None:
    bm, ba, bs = "none", "(no verified run)", "n/a"
else:
    bm, ba, bs = f"{best[1]:.4f}", f"({best[0]})", f"{best[1] / s:.3f}" if s else "n/a"
print(f"{plat:<17} {prob:<9} {n:>2} {K:>4} {ktp:>9.4f} {lb:>9.4f} {plan:>9.4f} {f(s):>9} {r:>10} "
      f"{plan / lb:>8.4f} {bm:>9} {ba:<26} {bs:>8}")
PY
    done
done
