#!/bin/sh
# Unit-free unrolling (issue 22 item 0): makespan / (K/TP) at K = 100, 1000,
# 10^4 (the CLI's exact figures; events written to /dev/null) for
#  - the broadcast from h0_0_0_0 on tiers-small, in its own units and with
#    every c and w multiplied by 65536/10^8 (seconds for 64 KB messages) and
#    by 10^6: the three columns must be equal;
#  - a one-port Tiers gossip among 6 hosts (gen tiers --seed 6 --nodes 30,
#    every other host of the first 12), where whole messages used to keep
#    2.3 % over K/TP at every K; and the gossip among every host of
#    tiers-small;
#  - a 2-host reduce on tiers-small (the solution's own pattern is a
#    candidate: the ratio tends to 1).
# Usage: bench/unroll_units.sh [KS]  (default "100 1000 10000";
#        SSCHED_BIN=path/to/ssched uses that binary instead of build/release)
set -e
cd "$(dirname "$0")/.."
if [ -n "${SSCHED_BIN:-}" ]; then
    B=$SSCHED_BIN
else
    cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build/release -j2 --target ssched_cli >/dev/null
    B=build/release/ssched
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
KS=${1:-"100 1000 10000"}
S=examples/tiers-small.graphml
hosts() { grep -o 'node id="h[^"]*"' "$1" | sed 's/node id="//;s/"//' | paste -sd, -; }
pick() { echo "$1" | tr ',' '\n' | awk -v n="$2" -v s="$3" 'NR % s == 1 && c < n { printf "%s%s", (c++ ? "," : ""), $0 }'; }
scale() { # file factor -> every c and w times factor (exact)
    python3 - "$1" "$2" <<'PY'
import re, sys
from fractions import Fraction as F
f = F(sys.argv[2])
def rep(m):
    v = F(m.group(2)) * f
    return m.group(1) + (str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}") + m.group(3)
sys.stdout.write(re.sub(r'(<data key="[cw]">)([^<]*)(</data>)', rep, open(sys.argv[1]).read()))
PY
}
ratio() { # K args... -> makespan/(K/TP) and the pattern
    K=$1; shift
    $B schedule "$@" --operations "$K" --unroll --no-check --quiet -o /dev/null > "$OUT/log" 2>&1 ||
        { echo "FAILED: $(tail -1 "$OUT/log")"; return; }
    python3 - "$OUT/log" <<'PY'
import re, sys
from fractions import Fraction as F
t = open(sys.argv[1]).read()
mk = F(re.search(r"time for K operations: (\S+)", t).group(1))
st = F(re.search(r"K/TP = (\S+)", t).group(1))
pat = re.search(r"pattern: period \S+ \((\S+)\) with (\d+) operations", t)
print(f"{float(mk / st):.5f} (period {pat.group(1)}, {pat.group(2)} ops)")
PY
}
scale $S 65536/100000000 > "$OUT/s64k.graphml"
scale $S 1000000 > "$OUT/s1e6.graphml"
$B gen tiers --seed 6 --nodes 30 -o "$OUT/t30.graphml"
G=$(pick "$(hosts "$OUT/t30.graphml")" 6 2)
HS=$(hosts $S)
echo "makespan / (K/TP)"
for K in $KS; do
    for f in "$S" "$OUT/s64k.graphml" "$OUT/s1e6.graphml"; do
        case $f in *s64k*) u="x 65536/10^8";; *s1e6*) u="x 10^6";; *) u="x 1";; esac
        printf "%-44s K=%-6s %s\n" "broadcast tiers-small $u" "$K" \
            "$(ratio "$K" "$f" --problem broadcast --source h0_0_0_0)"
    done
    printf "%-44s K=%-6s %s\n" "gossip 6 hosts, gen tiers seed 6 nodes 30" "$K" \
        "$(ratio "$K" "$OUT/t30.graphml" --problem gossip --sources "$G" --targets "$G")"
    printf "%-44s K=%-6s %s\n" "gossip every host, tiers-small" "$K" \
        "$(ratio "$K" $S --problem gossip --sources "$HS" --targets "$HS")"
    printf "%-44s K=%-6s %s\n" "2-host reduce tiers-small" "$K" \
        "$(ratio "$K" $S --problem reduce --participants h0_0_0_0,h0_0_1_0 --target h0_0_0_0)"
done
