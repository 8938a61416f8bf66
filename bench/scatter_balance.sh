#!/bin/sh
# Seed 004's experiment (section 5) predicted from Table 1: 16 processors,
# n = 817,101 rays, root dinadan.  Uniform (MPI_Scatter) vs balanced,
# descending vs ascending bandwidth order; predicted makespans next to the
# times the paper measured; plus the heuristics, the root choice of section
# 3.4 and the time the exact optimum takes.
# usage: bench/scatter_balance.sh      (BUILD_DIR defaults to build)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
DATA=${DATA:-$ROOT/../shared/data/seed004_table1.csv}
OUT=${OUT:-$(mktemp -d)}
cmake -S "$ROOT" -B "$BUILD_DIR" >/dev/null
cmake --build "$BUILD_DIR" --target ssched_cli -j2 >/dev/null
SSCHED="$BUILD_DIR/ssched"
N=817101

run() { # name algorithm order [extra...]
    name=$1; alg=$2; order=$3; shift 3
    "$SSCHED" scatter-balance "$DATA" --items $N --algorithm "$alg" --order "$order" \
        --json --plot "$OUT/$name.svg" "$@" > "$OUT/$name.json"
}
t0=$(date +%s.%N); run uniform_desc uniform bandwidth-desc
t1=$(date +%s.%N); run exact_desc exact bandwidth-desc
t2=$(date +%s.%N); run exact_asc exact bandwidth-asc
run uniform_asc uniform bandwidth-asc
run lp_desc lp bandwidth-desc
run lp_asc lp bandwidth-asc
run cf_desc closed-form bandwidth-desc
run exact_given exact given
run root_choice exact bandwidth-desc --choose-root
t3=$(date +%s.%N)
# wall time of one exact optimum, CLI start to finish (parse + solve + JSON + SVG)
printf "exact optimum, n = %s, p = 16, whole CLI run (parse, solve, JSON, SVG): %.3f s\n" $N "$(echo "$t2 - $t1" | bc)"

python3 - "$OUT" <<'PY'
import json, sys
from fractions import Fraction as F
out = sys.argv[1]
def load(n): return json.load(open(f"{out}/{n}.json"))
def fin(j): return [F(e["finish"]) for e in j["distribution"]]
def row(label, j, paper):
    f = fin(j); ms = F(j["makespan"])
    print(f"{label:<44} {float(ms):>10.2f} {float(min(f)):>9.2f}-{float(max(f)):<9.2f} {paper:>22}")
print()
print(f"{'seed 004: n = 817101, p = 16, root dinadan':<44} {'predicted':>10} {'predicted finish':>19} {'paper (measured)':>22}")
print(f"{'':<44} {'makespan':>10} {'earliest-latest':>19} {'earliest-latest':>22}")
print("-" * 99)
u, d, a = load("uniform_desc"), load("exact_desc"), load("exact_asc")
row("uniform (MPI_Scatter), desc. bw (Fig. 2)", u, "259 - 853 s")
row("balanced (exact optimum), desc. bw (Fig. 3)", d, "405 - 430 s")
row("balanced (exact optimum), asc. bw (Fig. 4)", a, "437 - 486 s")
row("uniform, asc. bw", load("uniform_asc"), "-")
row("balanced (exact optimum), file order", load("exact_given"), "-")
print("-" * 99)
mu, md, ma = F(u["makespan"]), F(d["makespan"]), F(a["makespan"])
print(f"gain uniform/balanced (desc):  predicted {float(mu/md):.2f}x   paper {853/430:.2f}x (\"approximately half\")")
print(f"ascending - descending:        predicted {float(ma-md):+.2f} s  paper +56 s (part of it a peak load on sekhmet)")
print()
print(f"{'heuristic':<34} {'T (rational LP)':>16} {'rounded T_prime':>16} {'T_opt (exact)':>14} {'rel. error':>11} {'eq.(4) bound':>13}")
for name, ref in (("lp_desc", d), ("lp_asc", a), ("cf_desc", d)):
    j = load(name); r = j["relaxation"]
    T, Tp, To, G = F(r["makespan"]), F(j["makespan"]), F(ref["makespan"]), F(r["guarantee"])
    label = {"lp_desc": "LP (3) + rounding, desc.", "lp_asc": "LP (3) + rounding, asc.",
             "cf_desc": "Theorems 1-2 + rounding, desc."}[name]
    print(f"{label:<34} {float(T):>16.6f} {float(Tp):>16.6f} {float(To):>14.6f} {float((Tp-To)/To):>11.2e} {float(T+G):>13.6f}")
print("(seed 004: the heuristic's error relative to the optimum was below 6e-6)")
print()
rc = load("root_choice")
best = rc["root"]
tot = sorted(((F(e["total"]), e["root"]) for e in rc["root_choice"]))
print(f"root choice (section 3.4, relay model): best root {best}, total {float(tot[0][0]):.2f} s; "
      f"runner-up {tot[1][1]} {float(tot[1][0]):.2f} s; worst {tot[-1][1]} {float(tot[-1][0]):.2f} s")
print(f"balanced distribution (desc.): " + ", ".join(f"{e['name']} {e['items']}" for e in d["distribution"]))
PY
echo "stair diagrams (Figs. 2-4): $OUT/uniform_desc.svg $OUT/exact_desc.svg $OUT/exact_asc.svg"
