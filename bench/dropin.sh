#!/bin/sh
# Drop-in (issue 25): an unmodified MPI program (bench/osu_coll.c, OSU
# style) under smpirun, plain and with libssched_pmpi linked, on the same
# platform and configuration.  The program is compiled once (one object)
# and linked twice: plain, and with -Wl,--whole-archive
# libssched_pmpi_smpi.a (the interposer; SMPI declares MPI_* weak).  For
# each size a plan is made by `ssched plan` (SSCHED_PLANS=DIR), for the
# whole communicator (every host of the platform, or MAX_RANKS of them,
# rank i on the i-th host of `ssched export hostfile`).  Printed per
# (platform, collective, size): the plain time (SMPI's default selection,
# or the algorithm ALG of smpi/COLL:ALG), the whole message's bound (M / U
# / TP: no schedule is faster), ssched's predicted makespan, that plus the
# executor's fixed cost per rank (the predicted time per call), the interposer's
# time, whether both runs verified their results (the program checks the
# last call of each size against a closed form), the ratios plain /
# interposer (above 1: the interposer faster), best / bound (the most any
# schedule could gain over the best MPI algorithm) and interposer /
# (predicted + C).
#
# Configuration: bench/smpi_exact.sh --print-cfg B (network/model:CM02,
# the envelope cancelled by src/mpi/smpi_envelope.cpp, called by osu_coll
# after MPI_Init in both builds).  The interposer (compiled with
# SSCHED_SMPI) runs each plan paced where the platform has latencies, its
# combines taking the plan's simulated time: on rank r a call takes its
# fixed cost C_r (from its entry to the start, one margin after the last
# rank entered, src/mpi/run.c ssched_i_mpi_lean: ranks leave the
# benchmark's barrier apart) plus r's end in the plan; the script measures
# C_r per platform and collective (a one-segment 1 KB call) and gives
# them to `ssched plan --overhead-seconds C_0,C_1,...`, which predicts
# max_r (C_r + end_r) per call (src/cli/plan_call.c).  The reduce and all-reduce use a non-commutative
# operator on 8-byte elements; SMPI algorithms that reorder operands fail verification
# (marked '!').
#
# usage: bench/dropin.sh
# env:   PLATFORMS="small_platform tiers-small" (names of
#        ../shared/data/simgrid/*.xml, "tiers-small" = examples/
#        tiers-small.graphml exported with the latency tiers of
#        bench/mpi_vs_collectives.sh, or paths to SimGrid XML files)
#        COLLS="bcast reduce allreduce"
#        SIZES="1024 65536 1048576 16777216" (bytes; up to 268435456: each
#        rank holds two buffers of the size, real memory)
#        ALGS_bcast="default binomial_tree scatter_LR_allgather ompi_pipeline"
#        ALGS_reduce="default binomial ompi_in_order_binary"
#        ALGS_allreduce="default redbcast rdb lr"
#        MAX_SEGMENTS=512 (ssched plan --max-segments)
#        MAX_RANKS (default: every host) at most that many ranks, on hosts
#        spread over the platform's (cluster_backbone: 100 hosts)
#        RUN_TIMEOUT=900
#        PLAIN_SHARED=1: the plain runs (not the interposer's) with
#        OSU_SHARED=1 (bench/osu_coll.c: SMPI_SHARED_MALLOC buffers, the
#        same simulated time, results unchecked, shown '?'): for sizes
#        whose 2 x NP real buffers do not fit (256 MB on 20 ranks); list
#        then only algorithms verified at smaller sizes
#        BIGMEM_LOCK=FILE: each smpirun under `flock FILE` (a machine shared
#        with other big-memory runs: 256 MB on 16 ranks is about 9 GB)
#        RUNLOG=FILE: append one line per smpirun and per `ssched plan` of a
#        size to FILE (platform, collective, bytes, what, user and sys CPU
#        seconds, max RSS in KB, from /usr/bin/time): the memory a size needs
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${BUILD:-$ROOT/build/release}
SSCHED=${SSCHED:-$B/ssched}
PLATFORMS=${PLATFORMS:-"small_platform tiers-small"}
COLLS=${COLLS:-"bcast reduce allreduce"}
SIZES=${SIZES:-"1024 65536 1048576 16777216"}
ALGS_bcast=${ALGS_bcast:-"default binomial_tree scatter_LR_allgather ompi_pipeline"}
ALGS_reduce=${ALGS_reduce:-"default binomial ompi_in_order_binary"}
ALGS_allreduce=${ALGS_allreduce:-"default redbcast rdb lr"}
MAXSEG=${MAX_SEGMENTS:-512}
MAX_RANKS=${MAX_RANKS:-}
RUN_TIMEOUT=${RUN_TIMEOUT:-900}
PLAIN_SHARED=${PLAIN_SHARED:-}
RUNLOG=${RUNLOG:-}
BIGMEM_LOCK=${BIGMEM_LOCK:-}
# timed WHAT CMD...: CMD, its CPU seconds and max RSS appended to RUNLOG
timed() {
    what=$1; shift
    if [ -z "$RUNLOG" ]; then "$@"; return; fi
    rc=0
    /usr/bin/time -f '%U %S %M' -o "$W/time" "$@" || rc=$?
    echo "$(basename "$P" .xml) ${coll:-} ${size:-} $what $(tail -n 1 "$W/time")" >>"$RUNLOG"
    return $rc
}
[ -x "$SSCHED" ] && [ -f "$B/libssched_pmpi_smpi.a" ] ||
    { echo "build first: cmake --build $B (ssched, libssched_pmpi_smpi.a)" >&2; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# build once, link twice
g++ -std=c++17 -O2 -fPIC -c "$ROOT/src/mpi/smpi_envelope.cpp" -o "$W/env.o"
smpicc -O2 -DOSU_SMPI_EXACT -c "$ROOT/bench/osu_coll.c" -o "$W/osu.o" 2>"$W/cc.log" ||
    { cat "$W/cc.log" >&2; exit 1; }
smpicc "$W/osu.o" "$W/env.o" -o "$W/osu_plain" -lsimgrid -lstdc++ 2>>"$W/cc.log" ||
    { cat "$W/cc.log" >&2; exit 1; }
cache() { sed -n "s|^$1:[A-Z]*=||p" "$B/CMakeCache.txt"; }
# shellcheck disable=SC2046
smpicc "$W/osu.o" "$W/env.o" -o "$W/osu_ssched" -Wl,--whole-archive "$B/libssched_pmpi_smpi.a" \
    -Wl,--no-whole-archive "$B/libssched.a" $(pkg-config --libs igraph jansson libxml-2.0) \
    "$(cache LPSOLVE_LIBRARY)" "$(cache COLAMD_LIBRARY)" "$(cache GMP_LIBRARY)" \
    -lsimgrid -lstdc++ -lm -ldl 2>>"$W/cc.log" || { cat "$W/cc.log" >&2; exit 1; }
CFG=$("$ROOT/bench/smpi_exact.sh" --print-cfg B)

# tiers-small with latencies (bench/mpi_vs_collectives.sh): c, w for 10^8
# bytes, 10 us on host links, 100 us LAN-MAN, 1 ms with a WAN end
tiers() {
    python3 - "$ROOT/examples/tiers-small.graphml" "$W/tiers.graphml" <<'PY'
import re, sys
from fractions import Fraction
t = open(sys.argv[1]).read()
def tier(n):
    return 0 if n.startswith("h") else 3 if n.startswith("wan") else 1 if n.startswith("lan") else 2
def edge(m):
    a, b = tier(m.group(1)), tier(m.group(2))
    l = Fraction(1, 1000) if 3 in (a, b) else Fraction(1, 100000) if 0 in (a, b) else Fraction(1, 10000)
    return m.group(0).replace("</edge>", '<data key="l">%s</data></edge>' % l)
t = re.sub(r'<edge source="([^"]+)" target="([^"]+)">.*?</edge>', edge, t)
t = t.replace('<key id="c" for="edge"', '<key id="l" for="edge" attr.name="l" '
              'attr.type="string"/>\n  <key id="c" for="edge"', 1)
open(sys.argv[2], "w").write(t)
PY
    "$SSCHED" export simgrid "$W/tiers.graphml" -o "$W/tiers.xml" --hostfile "$W/tiers-hosts.txt" \
        --unit-bytes 100000000 \
        --flops-per-task 1e9 >/dev/null
}

run() { # label binary coll size root extra...  -> "time verified" or "fail -"
    bin=$1 coll=$2 size=$3 root=$4; shift 4
    # shellcheck disable=SC2086
    if timed "$(basename "$bin")${1:+:${1#--cfg=smpi/*:}}" ${BIGMEM_LOCK:+flock "$BIGMEM_LOCK"} timeout "$RUN_TIMEOUT" smpirun -np "$NP" -platform "$P" -hostfile "$W/hosts.txt" $CFG "$@" \
        "$bin" "$coll" "$size" "$size" 1 "$root" >"$W/out" 2>"$W/err"; then
        awk '$1 == "size" { print $4, $6 }' "$W/out"
    else
        echo "fail -"
    fi
}

printf "%-13s %-9s %10s %7s %11s %-21s %11s %11s %11s %11s %7s %7s %7s %8s %8s   %s\n" platform \
    coll bytes segment default "best (SMPI alg)" bound predicted "pred. + C" interposer verified \
    def/int best/int best/bnd int/pred "plain runs (! = wrong result, ? = unchecked)"
for plat in $PLATFORMS; do
    case $plat in
    tiers-small) tiers; P=$W/tiers.xml ;;
    */*) P=$plat ;;
    *) P=$ROOT/../shared/data/simgrid/$plat.xml ;;
    esac
    "$SSCHED" export hostfile "$P" -o "$W/hosts.txt" >/dev/null
    NP=$(grep -c . "$W/hosts.txt")
    TARGETS="" PP=$P # PP: the platform ssched plans on
    if [ -n "$MAX_RANKS" ] && [ "$NP" -gt "$MAX_RANKS" ]; then
        # MAX_RANKS hosts spread over the platform's (as bench/simgrid_exec.sh
        # picks them): the job's world is those ranks, a broadcast reaches them
        awk -v n="$NP" -v m="$MAX_RANKS" 'BEGIN { s = int(n / m) } (NR - 1) % s == 0 && c < m { c++; print }' \
            "$W/hosts.txt" >"$W/some.txt"
        mv "$W/some.txt" "$W/hosts.txt"
        echo "$(basename "$P" .xml): $MAX_RANKS of its $NP hosts, spread"
        NP=$MAX_RANKS
        tail -n +2 "$W/hosts.txt" >"$W/targets.txt"
        TARGETS="--targets @$W/targets.txt"
        # one <cluster>: plan on it restricted to the chosen hosts (radical
        # = their numbers).  A route between two of them is their links and
        # the backbone either way, so the plan is the same; planning over
        # every host's routes (cluster_backbone: 100 hosts, 10^4 routes)
        # took more than 15 minutes per candidate, 16 hosts one second
        python3 - "$P" "$W/hosts.txt" "$W/plan.xml" <<'PY' && PP=$W/plan.xml
import re, sys
x = open(sys.argv[1]).read()
c = re.findall(r'<cluster\b[^>]*>', x)
if len(c) != 1 or re.search(r'<(host|zone|AS|link)\b', x):  # the cluster alone
    sys.exit(1)
pre = re.search(r'prefix="([^"]*)"', c[0]).group(1)
suf = re.search(r'suffix="([^"]*)"', c[0]).group(1)
nums = [h.strip()[len(pre):len(h.strip()) - len(suf)] for h in open(sys.argv[2]) if h.strip()]
open(sys.argv[3], "w").write(x.replace(c[0], re.sub(r'radical="[^"]*"',
                                                  'radical="%s"' % ",".join(nums), c[0])))
PY
    fi
    SRC=$(head -n 1 "$W/hosts.txt")
    echo "$(basename "$P" .xml): $NP ranks"
    for coll in $COLLS; do
        case $coll in
        bcast) PROB="--problem broadcast --source $SRC $TARGETS"; DT=1 ;;
        reduce) PROB="--problem reduce --target $SRC"; DT=8 ;;
        allreduce) PROB="--problem allreduce"; DT=8 ;;
        esac
        eval "ALGS=\$ALGS_$coll"
        # the executor's fixed cost per call of this collective on this
        # platform, per rank (its start minus the rank's entry: ranks leave
        # the benchmark's barrier apart; src/cli/plan_call.c): a
        # one-segment 1 KB call, each rank's measured time (the interposer
        # prints it, SSCHED_PMPI_STATS=2) minus its end in the plan
        rm -rf "$W/plans"
        # shellcheck disable=SC2086
        "$SSCHED" plan "$PP" $PROB --hostfile "$W/hosts.txt" --bytes 1024 --datatype-size $DT \
            --segment 1024 -o "$W/plans" --quiet >"$W/plan.out"
        PRED=$(sed -n 's/.*predicted \([0-9.e+-]*\)$/\1/p' "$W/plan.out" | tail -n 1)
        set -- $(SSCHED_PMPI_STATS=2 SSCHED_PLANS="$W/plans" run "$W/osu_ssched" "$coll" 1024 0)
        OVER=$(python3 - "$W/err" "$W"/plans/*.plan.json <<'PY'
import json, re, sys
from fractions import Fraction as F
ends = json.load(open(sys.argv[2]))["rank_end_seconds"]
t = {int(m.group(1)): F(m.group(2)) for m in
     re.finditer(r"libssched_pmpi: rank (\d+) call 1: ([0-9.]+) s", open(sys.argv[1]).read())}
if sorted(t) != list(range(len(ends))):
    sys.exit("dropin.sh: the calibration run did not report every rank")
print(",".join("%.12f" % (t[r] - F(repr(e)).limit_denominator(10**12)) for r, e in enumerate(ends)))
PY
)
        echo "$coll: the executor's fixed cost per call, per rank: $OVER s (1 KB, one segment: $1 s measured, $PRED s planned)"
        for size in $SIZES; do
            best=""; bestn=""; vplain=""; tdef=""
            for a in $ALGS; do
                set -- $(OSU_SHARED=$PLAIN_SHARED run "$W/osu_plain" "$coll" "$size" 0 \
                    "--cfg=smpi/$coll:$a")
                vplain="$vplain$a=$1$(case $2 in yes) ;; unchecked) echo '?' ;; *) echo '!' ;; esac) "
                [ "$a" = default ] && tdef=$1
                [ "$1" != fail ] && { [ "$2" = yes ] || [ "$2" = unchecked ]; } || continue
                if [ -z "$best" ] || python3 -c "import sys; sys.exit(not $1 < $best)"; then
                    best=$1; bestn=$a
                fi
            done
            rm -rf "$W/plans"
            mkdir "$W/plans"
            # no plan where the best prediction plus the fixed cost is not
            # below the plain (default selection) time: the interposer then
            # falls back
            BASE="--overhead-seconds $OVER"
            [ -n "$tdef" ] && [ "$tdef" != fail ] && BASE="$BASE --baseline-seconds $tdef"
            # shellcheck disable=SC2086
            timed plan "$SSCHED" plan "$PP" $PROB --hostfile "$W/hosts.txt" --bytes "$size" \
                --datatype-size $DT --max-segments "$MAXSEG" -o "$W/plans" --quiet $BASE >"$W/plan.out"
            SEG=$(sed -n 's/^chosen: segment \([0-9]*\) bytes.*/\1/p' "$W/plan.out")
            PRED=$(awk '$1 ~ /^[0-9]+$/ && NF == 3 { if (m == "" || $3 < m) m = $3 } END { print m }' "$W/plan.out")
            # the whole message's bound (M / U / TP: no schedule is faster)
            # and the prediction per call, the plan + C
            BOUND=$(sed -n 's/^bound: .* at least \([0-9.e+-]*\) .*/\1/p' "$W/plan.out")
            PC=$(sed -n 's/.*per call (+ the overhead per rank) \([0-9.e+-]*\)$/\1/p; s/^no gain: the best prediction \([0-9.e+-]*\) .*/\1/p' "$W/plan.out")
            [ -n "$SEG" ] || SEG=none
            set -- $(SSCHED_PLANS="$W/plans" run "$W/osu_ssched" "$coll" "$size" 0)
            ti=$1 vi=$2
            rb=$(python3 -c "print('%.3f' % ($best / $ti))" 2>/dev/null || echo n/a)
            rd=$(python3 -c "print('%.3f' % ($tdef / $ti))" 2>/dev/null || echo n/a)
            # the most any schedule could gain over the best MPI algorithm
            rbb=$(python3 -c "print('%.3f' % ($best / $BOUND))" 2>/dev/null || echo n/a)
            # (no plan: the interposer ran MPI, the prediction is not its)
            rp=$(python3 -c "print('%.4f' % ($ti / $PC))" 2>/dev/null || echo n/a)
            [ "$SEG" != none ] || rp=-
            printf "%-13s %-9s %10s %7s %11s %-21s %11s %11s %11s %11s %7s %7s %7s %8s %8s %s  %s\n" \
                "$(basename "$P" .xml)" "$coll" "$size" "$SEG" "$tdef" "$bestn ${best:-n/a}" \
                "$BOUND" "$PRED" "$PC" "$ti" "$vi" "$rd" "$rb" "$rbb" "$rp" "" "$vplain"
        done
    done
done
echo "def/int: SMPI's default selection / interposer; best/int: the best verified SMPI algorithm /"
echo "interposer (above 1: the interposer faster); segment none: no plan (the best prediction was"
echo "not below the default's time), the interposer fell back to MPI; predicted: the best candidate's"
echo "makespan; pred. + C: the time per call ssched plan predicts, max over ranks r of the rank's"
echo "fixed cost C_r (measured at 1 KB) + its end in the plan; bound: the whole message's"
echo "M / U / TP; best/bnd: the most any schedule could gain over the best SMPI algorithm"
