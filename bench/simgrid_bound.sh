#!/bin/bash
# Is the routed model a true bound?  (issue 23 target: on every shipped
# SimGrid platform and problem, K/TP is at most the time of every MPI
# algorithm SMPI 3.32 offers for the same K operations, exact configuration.)
#
# For each platform of ../shared/data/simgrid (the ORIGINAL files, read by
# SimGrid itself in both tools): the hosts H (`ssched export hostfile`,
# SimGrid's order); the participants S = all hosts if at most 16, else 16
# spread evenly over H (every n/16-th host); the hostfile is S, one rank per
# host, rank i = S[i], so no rank sits on a host outside the problem.
# Problems (K operations of UNIT bytes, ssched --unit-bytes UNIT, exact TP
# from `ssched solve --json`):
#   reduce      ordered reduce of S to S[0]; MPI_Reduce / MPI_Ireduce of
#               bench/mpi_collectives.c with its non-commutative operator
#               (2x2 matrix products, commute = 0)
#   creduce     the same with a commutative operator (commute = 1, entry
#               sums) against `ssched solve --commutative` (its certified
#               upper_bound)
#   broadcast   from S[0] to the rest of S: MPI_Bcast / MPI_Ibcast
#   scatter     from S[0] to the rest of S: MPI_Scatter (every smpi/scatter
#               algorithm), MPI_Scatterv, MPI_Iscatter, MPI_Iscatterv
#   gossip      all-to-all among S: MPI_Alltoallv / MPI_Ialltoallv
#   allreduce   ordered all-reduce of S (ssched: best root); MPI_Allreduce /
#               MPI_Iallreduce with the non-commutative operator
#   callreduce  the same, commutative (both sides)
# Reductions: every operator application on b bytes charges
# smpi_execute_flops(FLOPS * b / UNIT) (mpi_collectives.c), i.e. exactly
# ssched's task w(x) = FLOPS / speed(x) per unit message: ssched solve gets
# --flops-per-task FLOPS.  The other problems compute nothing.
# Where the solver gives an upper_bound (commutative reduce, broadcast to a
# strict subset, all-reduce) K / upper_bound is the bound (K/TP column).
#
# Every algorithm SMPI lists for the collective (asked from SMPI itself:
# --cfg=smpi/COLL:help; "automatic" left out: it runs every algorithm inside
# each call and reports the selection, not an algorithm's time) is run
# blocking, plus the nonblocking call (SMPI has one implementation of each)
# under `bench/smpi_exact.sh --print-cfg B` (CM02, envelope cancelled,
# simulate-computation:no).  A run is "correct" when mpi_collectives.c
# verified the last operation's result; a failed run (SMPI refuses the
# datatype or non-commutative operator, deadlock, timeout) is listed as
# fail.  An ordered-reduce algorithm whose result is wrong reordered the
# operands: it did a commutative reduce, so it is compared with the
# commutative bound as well (shown in the "beats" column only if it beats
# the ordered bound, marked '!').
#
# Output per platform x problem: K/TP, the fastest correct MPI algorithm and
# its time, ratio = MPI_best / (K/TP) (must be >= 1), and every algorithm
# (correct or not) faster than K/TP (a violation of the bound).  Exit 1 if
# any correct algorithm beats its bound.
#
# usage: bench/simgrid_bound.sh
# env:   QUICK=1 (small_platform and two_clusters, K = 10, the first 3
#        algorithms of each collective), K=100, UNIT=1000000, FLOPS=1e7,
#        PLATFORMS="small_platform two_clusters ..." (names in
#        ../shared/data/simgrid or paths), PROBLEMS="reduce creduce broadcast
#        scatter gossip allreduce callreduce", MAXHOSTS=16, RUN_TIMEOUT=120 (s
#        per smpirun), SOLVE_TIMEOUT=300 (s per
#        ssched solve; a problem not solved in time is shown n/a and its MPI
#        runs are skipped), NALGS=n (only the first n algorithms), KEEP=dir (keep
#        the raw results: DIR/results)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=$ROOT/../shared/data/simgrid
if [ "${QUICK:-0}" = 1 ]; then
    K=${K:-10}
    PLATFORMS=${PLATFORMS:-"small_platform two_clusters"}
    NALGS=${NALGS:-3}
    RUN_TIMEOUT=${RUN_TIMEOUT:-20}
fi
K=${K:-100}
UNIT=${UNIT:-1000000}
FLOPS=${FLOPS:-1e7}
PROBLEMS=${PROBLEMS:-"reduce creduce broadcast scatter gossip allreduce callreduce"}
MAXHOSTS=${MAXHOSTS:-16}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
SOLVE_TIMEOUT=${SOLVE_TIMEOUT:-300}
NALGS=${NALGS:-1000}
. "$ROOT/bench/smpi_lib.sh"
bench_ssched "$ROOT"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
bench_smpi_program "$ROOT" "$W" "$ROOT/bench/mpi_collectives.c" "$W/mc"
CFG=$("$ROOT/bench/smpi_exact.sh" --print-cfg B)
# default platforms: every shipped file, fewest hosts first
if [ -z "${PLATFORMS:-}" ]; then
    PLATFORMS=$(for f in "$DATA"/*.xml; do
        "$SSCHED" export hostfile "$f" -o "$W/count.txt" >/dev/null
        echo "$(wc -l <"$W/count.txt") $(basename "$f" .xml)"
    done | sort -n | cut -d' ' -f2 | tr '\n' ' ')
fi
RES=${KEEP:+$KEEP/results}
RES=${RES:-$W/results}
[ -z "${KEEP:-}" ] || mkdir -p "$KEEP"
: >"$RES"

# algs COLL: SMPI's own list of algorithms for smpi/COLL (minus automatic)
algs() {
    smpirun -np 1 -platform "$P" -hostfile "$W/hosts.txt" "--cfg=smpi/$1:list" "$W/mc" 2>&1 |
        sed -n 's/.*Valid algorithms: \(.*\)\./\1/p' | tr -d ',' | tr ' ' '\n' |
        grep -vx -e automatic -e '' | head -n "$NALGS" | tr '\n' ' '
}
# run LABEL CFG-EXTRA PROGRAM-ARGS...: appends " LABEL=time=verified" (time
# "fail": SMPI refused or aborted; "timeout": no end within RUN_TIMEOUT).  A
# run that times out is retried once with SMPI's default polling costs
# (smpi/test, smpi/iprobe 1e-4 s a call; label LABEL+poll): under the exact
# configuration a polling loop (bcast arrival_pattern_aware_wait) never
# advances the simulated clock; the retry's time can only be larger than
# the algorithm's exact one, so it is never counted as the best.
run() {
    local label=$1 extra=$2 t v rc=0
    shift 2
    # shellcheck disable=SC2086
    timeout "$RUN_TIMEOUT" smpirun -np "$NP" -platform "$P" -hostfile "$W/hosts.txt" \
        $CFG $extra "$W/mc" "$@" >"$W/out" 2>"$W/err" || rc=$?
    if [ "$rc" = 124 ] && [ -n "$extra" ] && [ "${label%+poll}" = "$label" ]; then
        printf ' %s=timeout=-' "$label" >>"$W/row"
        run "$label+poll" "$extra --cfg=smpi/test:1e-4 --cfg=smpi/iprobe:1e-4" "$@"
        return
    fi
    t=$(awk '$1 == "time" { print $2 }' "$W/out"); v=$(awk '$1 == "verified" { print $2 }' "$W/out")
    if [ "$rc" != 0 ] || [ -z "$t" ]; then t=fail; v=-; fi
    [ "$rc" != 124 ] || t=timeout
    printf ' %s=%s=%s' "$label" "$t" "$v" >>"$W/row"
}
frac() { # FILE: upper_bound if given, else throughput
    python3 -c "import json,sys; d = json.load(open(sys.argv[1])); print(d.get('upper_bound') or d['throughput'])" "$1"
}

for plat in $PLATFORMS; do
    case $plat in */*) P=$plat ;; *) P=$DATA/$plat.xml ;; esac
    pname=$(basename "$P" .xml)
    "$SSCHED" export hostfile "$P" -o "$W/all.txt" >/dev/null
    n=$(wc -l <"$W/all.txt")
    awk -v n="$n" -v m="$MAXHOSTS" 'n <= m || (NR - 1) == int(c * n / m) { print; c++ }' \
        "$W/all.txt" >"$W/hosts.txt"
    NP=$(wc -l <"$W/hosts.txt")
    S=$(paste -sd, "$W/hosts.txt")
    S0=$(head -1 "$W/hosts.txt")
    REST=$(tail -n +2 "$W/hosts.txt" | paste -sd, -)
    ALL=$(seq 0 $((NP - 1)) | paste -sd, -)
    OTH=$(seq 1 $((NP - 1)) | paste -sd, -)
    for prob in $PROBLEMS; do
        case $prob in
        reduce) set -- --problem reduce --participants "$S" --target "$S0" ;;
        creduce) set -- --problem reduce --participants "$S" --target "$S0" --commutative ;;
        broadcast) set -- --problem broadcast --source "$S0" --targets "$REST" ;;
        scatter) set -- --problem scatter --source "$S0" --targets "$REST" ;;
        gossip) set -- --problem gossip --sources "$S" --targets "$S" ;;
        allreduce) set -- --problem allreduce --participants "$S" ;;
        callreduce) set -- --problem allreduce --participants "$S" --commutative ;;
        *) echo "unknown problem $prob" >&2; exit 2 ;;
        esac
        : >"$W/row"
        if ! timeout "$SOLVE_TIMEOUT" "$SSCHED" solve "$P" --unit-bytes "$UNIT" --flops-per-task "$FLOPS" \
            "$@" --quiet --json >"$W/solve.json"; then
            # no certified bound in time: nothing to compare the MPI runs with
            echo "$pname $NP $prob $K n/a" >>"$RES"
            tail -n 1 "$RES" >&2
            continue
        fi
        TP=$(frac "$W/solve.json")
        case $prob in
        reduce | creduce)
            mp=$prob
            for a in $(algs reduce); do run "$a" "--cfg=smpi/reduce:$a" "$mp" blocking "$K" "$UNIT" "$FLOPS" 1 "$ALL" 0; done
            run Ireduce "" "$mp" nonblocking "$K" "$UNIT" "$FLOPS" 1 "$ALL" 0 ;;
        allreduce | callreduce)
            for a in $(algs allreduce); do run "$a" "--cfg=smpi/allreduce:$a" "$prob" blocking "$K" "$UNIT" "$FLOPS" 1 "$ALL"; done
            run Iallreduce "" "$prob" nonblocking "$K" "$UNIT" "$FLOPS" 1 "$ALL" ;;
        broadcast)
            for a in $(algs bcast); do run "$a" "--cfg=smpi/bcast:$a" bcast blocking "$K" "$UNIT" "$FLOPS" 1 0 "$OTH"; done
            run Ibcast "" bcast nonblocking "$K" "$UNIT" "$FLOPS" 1 0 "$OTH" ;;
        scatter)
            for a in $(algs scatter); do run "$a" "--cfg=smpi/scatter:$a" scatter blocking "$K" "$UNIT" "$FLOPS" 1 0 "$OTH"; done
            run Scatterv "" scatterv blocking "$K" "$UNIT" "$FLOPS" 1 0 "$OTH"
            run Iscatter "" scatter nonblocking "$K" "$UNIT" "$FLOPS" 1 0 "$OTH"
            run Iscatterv "" scatterv nonblocking "$K" "$UNIT" "$FLOPS" 1 0 "$OTH" ;;
        gossip)
            for a in $(algs alltoallv); do run "$a" "--cfg=smpi/alltoallv:$a" gossip blocking "$K" "$UNIT" "$FLOPS" 1 "$ALL"; done
            run Ialltoallv "" gossip nonblocking "$K" "$UNIT" "$FLOPS" 1 "$ALL" ;;
        esac
        echo "$pname $NP $prob $K $TP$(cat "$W/row")" >>"$RES"
        tail -n 1 "$RES" >&2
    done
done

python3 - "$RES" <<'PY'
import sys
from fractions import Fraction as F
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
bound = {(r[0], r[2]): int(r[3]) / F(r[4]) for r in rows if r[4] != "n/a"}
bad = 0
print(f"{'platform':<18} {'hosts':>5} {'problem':<10} {'K/TP':>10} {'best correct MPI':>34} "
      f"{'ratio':>7}  algorithms faster than K/TP")
for r in rows:
    plat, np_, prob, K, tp = r[:5]
    if tp == "n/a":
        print(f"{plat:<18} {np_:>5} {prob:<10} {'n/a':>10}  (ssched solve not done within SOLVE_TIMEOUT: "
              "no bound, MPI not run)")
        continue
    kt = bound[(plat, prob)]
    runs = []
    for b in r[5:]:
        name, t, v = b.rsplit("=", 2)
        runs.append((name, None if t in ("fail", "timeout") else float(t), v == "yes"))
    ok = [(t, n) for n, t, v in runs if t is not None and v and not n.endswith("+poll")]
    best = min(ok) if ok else None
    ratio = best[0] / float(kt) if best else None
    # 1e-9 relative: SMPI's float times against the exact bound
    beat = [(n, t, v) for n, t, v in runs if t is not None and t < float(kt) * (1 - 1e-9)]
    bad |= any(v for _, _, v in beat)
    desc = []
    for n, t, v in beat:
        s = f"{n}={t:.6g}{'' if v else '!'}"
        ck = bound.get((plat, "c" + prob))
        if not v and ck is not None:
            s += f" (>= commutative K/TP {float(ck):.6g}: {'yes' if t >= float(ck) * (1 - 1e-9) else 'NO'})"
        desc.append(s)
    nfail = sum(t is None for _, t, _ in runs)
    ntime = sum(b.rsplit("=", 2)[1] == "timeout" for b in r[5:])
    nwrong = sum(t is not None and not v for _, t, v in runs)
    bs = f"{best[1]} {best[0]:.6g}" if best else "n/a"
    rs = f"{ratio:.4f}" if ratio else "n/a"
    print(f"{plat:<18} {np_:>5} {prob:<10} {float(kt):>10.6g} {bs:>34} {rs:>7}  "
          f"{' '.join(desc) if desc else 'none'}  [{len(runs)} runs, {nwrong} wrong result, {nfail} failed of which {ntime} timed out]")
print("ratio = best correct MPI time / (K/TP), >= 1 if the model bounds SMPI; '!' = wrong result "
      "(an ordered reduce reordered by the algorithm)")
sys.exit(1 if bad else 0)
PY
