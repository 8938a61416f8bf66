#!/bin/sh
# Exact commutative pricing (issue 26 item 3, lp/colgen_comm_bb.inc): on
# random Tiers platforms, how many commutative reduces (optional merge
# points: the hosts outside the problem) and commutative all-reduces
# (routers as switches) are certified optimal ("optimal": true, i.e. the
# certified TP equals ssched's own certified upper bound), with the CPU
# seconds of each solve.
#
#   bench/commut_exact.sh [SSCHED [OLD_SSCHED]]
#
# SSCHED defaults to build/release/ssched.  With OLD_SSCHED (a build before
# the exact pricing) every instance is solved by both and the table shows
# the old TP as a fraction of the new one.  A third family, "dense" (DENSE
# instances, default 20): 12 nodes all with w, a ring plus each other
# ordered pair with probability 0.35 (as tests/test_util's random
# platforms), 3-4 participants: 7-8 merge points and the participants'
# second roles, where the branch and bound's relaxation is weak.  Env: REDUCES (default 50),
# ALLREDUCES (40), NODES (24: 12 hosts; 30: 16), GEN (more `gen tiers`
# options; default "--c-lan 1:10 --w-range 1/10:1": LAN links as dear as
# MAN links and fast merges, where merging at a host outside the problem
# pays, so the pricing's choice of merge points matters).  Participants: at least
# hosts - 12 of them (2..6 more), so at most 12 hosts are optional points.
set -eu
cd "$(dirname "$0")/.."
B=${1:-build/release/ssched}
OLD=${2:-}
REDUCES=${REDUCES:-50}
DENSE=${DENSE:-20}
ALLREDUCES=${ALLREDUCES:-40}
NODES=${NODES:-24}
GEN=${GEN:---c-lan 1:10 --w-range 1/10:1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# field NAME FILE: the first "NAME": value of a JSON file, quotes removed
field() { grep -m1 "\"$1\":" "$2" | sed 's/.*": *//; s/[",]//g'; }

# run BIN OUT ARGS...: solve, CPU seconds (user + sys) on stdout
run() {
    bin=$1; out=$2; shift 2
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$bin" solve "$@" --quiet --json > "$out"
    awk '{printf "%.2f", $1 + $2}' "$tmp/time"
}

# ratio A B: A/B for two exact rationals, 4 decimals
ratio() { echo "$1 $2" | awk '{split($1, a, "/"); split($2, b, "/");
    if (a[2] == "") a[2] = 1; if (b[2] == "") b[2] = 1;
    printf "%.4f", (a[1] / a[2]) / (b[1] / b[2])}'; }

# pick SEED KIND: "participants target" from the platform's hosts
pick() {
    grep -o 'node id="[hP][^"]*"' "$tmp/p.graphml" | sed 's/node id="//; s/"//' |
        awk -v s="$1" -v kind="$2" 'BEGIN { srand(s) } { h[n++] = $0 }
        END { lo = n - 12; if (lo < 2) lo = 2; k = lo + int(rand() * 5); if (k > n) k = n
              if (kind == "dense") k = 3 + int(rand() * 2)
              for (i = 0; i < n; i++) { j = i + int(rand() * (n - i)); t = h[i]; h[i] = h[j]; h[j] = t }
              p = h[0]; for (i = 1; i < k; i++) p = p "," h[i]
              t = int(rand() * n); if (kind == "allreduce") t = 0
              printf "%s %s %d\n", p, h[t], n - k - (t >= k) }'
}

# dense SEED: the dense family's platform (GraphML) on stdout
dense() {
    awk -v s="$1" 'BEGIN { srand(s); n = 12
        print "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">"
        print "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>"
        print "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>"
        print "<graph edgedefault=\"directed\">"
        for (i = 0; i < n; i++)
            printf "<node id=\"P%d\"><data key=\"w\">%d</data></node>\n", i, 1 + int(rand() * 4)
        for (i = 0; i < n; i++) for (j = 0; j < n; j++)
            if (i != j && (j == (i + 1) % n || rand() < 0.35))
                printf "<edge source=\"P%d\" target=\"P%d\"><data key=\"c\">%d/%d</data></edge>\n",
                       i, j, 1 + int(rand() * 9), 1 + int(rand() * 6)
        print "</graph>"; print "</graphml>" }'
}

bench() {
    kind=$1 count=$2
    opt=0 total=0 cpu_all=0
    printf '%-4s %-9s %4s %6s %7s %-9s %8s' seed kind pts TP/UB optimal pricing cpu_s
    [ -n "$OLD" ] && printf ' %9s %8s %7s' old_opt old_cpu old/new
    printf '\n'
    for s in $(seq 1 "$count"); do
        # shellcheck disable=SC2086
        if [ "$kind" = dense ]; then
            dense "$s" > "$tmp/p.graphml"
        else
            "$B" gen tiers --nodes "$NODES" $GEN --seed "$s" -o "$tmp/p.graphml"
        fi
        set -- $(pick "$s" "$kind")
        parts=$1 target=$2 pts=$3
        if [ "$kind" != allreduce ]; then
            args="$tmp/p.graphml --problem reduce --commutative --participants $parts --target $target"
        else
            args="$tmp/p.graphml --routers switch --problem allreduce --commutative --participants $parts"
        fi
        # shellcheck disable=SC2086
        cpu=$(run "$B" "$tmp/new.json" $args)
        tp=$(field throughput "$tmp/new.json")
        ub=$(field upper_bound "$tmp/new.json")
        o=$(field optimal "$tmp/new.json")
        pr=$(field pricing "$tmp/new.json")
        total=$((total + 1))
        [ "$o" = true ] && opt=$((opt + 1))
        cpu_all=$(echo "$cpu_all $cpu" | awk '{print $1 + $2}')
        printf '%-4s %-9s %4s %6s %7s %-9s %8s' "$s" "$kind" "$pts" "$(ratio "$tp" "$ub")" "$o" "$pr" "$cpu"
        if [ -n "$OLD" ]; then
            # shellcheck disable=SC2086
            ocpu=$(run "$OLD" "$tmp/old.json" $args)
            printf ' %9s %8s %7s' "$(field optimal "$tmp/old.json")" "$ocpu" \
                "$(ratio "$(field throughput "$tmp/old.json")" "$tp")"
        fi
        printf '\n'
    done
    echo "$kind: $opt of $total certified optimal, CPU $cpu_all s in all"
}

bench reduce "$REDUCES"
bench allreduce "$ALLREDUCES"
bench dense "$DENSE"
