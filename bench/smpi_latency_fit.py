#!/usr/bin/env python3
"""The platform SMPI's default network model simulates, fitted to a plan.

usage: smpi_latency_fit.py BASE.graphml SF LAT U PLAN.json STATE.json OUT.graphml [CROSS]

BASE is the platform with unit-message costs (as examples/*.graphml), SF
the exact factor scaling every c and w (a unit message of U bytes), LAT
"tiers" or "0" (bench/mpi_vs_collectives.sh: 10 us on links with a host
end, 100 us LAN-MAN, 1 ms with a WAN end), PLAN.json an unrolled schedule
planned on the previous fit (or on the platform with every latency times
latfactor(U)), STATE.json what the previous fits decided (absent or empty:
nothing yet).  CROSS=1 (default) also applies the cross-traffic rate.

Under network/model:SMPI a message of S bytes over a route of latency L
takes latfactor(S) x L + S / B (bench/smpi_latency.sh measures it; the
envelope shim keeps the bandwidth exact).  smpi/lat-factor is piecewise in
S, and the plan's messages are not all of U bytes: a batch of n operations
is one message of n x U bytes (n x the piece), so a 1 KB all-reduce
planned with batches of 16 sends 16 KB messages, whose factor is 3.49, not
the 1.95 of 1 KB (it ran 19.6 % behind its plan).  So every edge the plan
uses gets the factor of the messages it sends there (the most frequent
size on that edge; the larger on a tie), the others latfactor(U), and the
bench plans again until the plan sends what it was planned with.

Cross-traffic (network/crosstraffic:1): a flow also takes 5 % of its rate
on the reverse route, and max-min gives two opposite flows of a link pair
one rate, the slower link's bandwidth / 1.05; the pairs (edge, reverse)
the plan uses both ways get c = max(c, c_reverse) x 21/20 on both edges
(the set only grows).

Exit 0 when OUT was written with a fit that differs from STATE (plan
again), 1 when the plan already matches its fit (nothing written)."""
import json
import os
import re
import sys
from collections import Counter
from fractions import Fraction as F

# SMPI's default smpi/lat-factor (SimGrid 3.32), looked up on S + 16 bytes
LAT_FACTOR = ((65472, "11.6436"), (15424, "3.48845"), (9376, "2.59299"), (5776, "2.18796"),
              (3484, "1.88101"), (1426, "1.61075"), (732, "1.9503"), (257, "1.95341"),
              (0, "2.01467"))


def latfactor(size):
    s = size + 16
    for t, f in LAT_FACTOR:
        if s >= t:
            return f
    return LAT_FACTOR[-1][1]


def tier(n):
    return 0 if n.startswith("h") else 3 if n.startswith("wan") else 1 if n.startswith("lan") else 2


def tier_latency(a, b):
    ta, tb = tier(a), tier(b)
    return F(1, 1000) if 3 in (ta, tb) else F(1, 100000) if 0 in (ta, tb) else F(1, 10000)


def main():
    base, sf, lat, unit, plan, statef, out = sys.argv[1:8]
    cross = len(sys.argv) <= 8 or sys.argv[8] == "1"
    sf, unit = F(sf), int(unit)
    state = {"factor": {}, "pairs": []}
    if os.path.exists(statef) and os.path.getsize(statef) > 0:
        state = json.load(open(statef))
    transfers = json.load(open(plan))["transfers"]
    sizes = {}
    for x in transfers:
        n = x.get("batch", 1)
        part = F(x["piece"][1]) if "piece" in x else F(1)
        b = n * part * unit
        sizes.setdefault("%s %s" % (x["from"], x["to"]), Counter())[int(round(b))] += 1
    factor = {}
    for e, cnt in sizes.items():
        top = max(cnt.values())
        factor[e] = latfactor(max(s for s, k in cnt.items() if k == top))
    used = {tuple(e.split()) for e in sizes}
    pairs = {tuple(p) for p in state["pairs"]}
    if cross:
        pairs |= {(a, b) for a, b in used if (b, a) in used}
    # edges the plan does not use keep the factor they had (or latfactor(U))
    merged = dict(state["factor"])
    merged.update(factor)
    if merged == state["factor"] and pairs == {tuple(p) for p in state["pairs"]}:
        return 1
    json.dump({"factor": merged, "pairs": sorted(pairs)}, open(statef, "w"))
    t = re.sub(r'<data key="(c|w)">([^<]+)</data>',
               lambda m: '<data key="%s">%s</data>' % (m.group(1), F(m.group(2)) * sf),
               open(base).read())
    edge_re = r'<edge source="([^"]+)" target="([^"]+)">(.*?)</edge>'
    c = {(m.group(1), m.group(2)): F(re.search(r'<data key="c">([^<]+)</data>', m.group(3)).group(1))
         for m in re.finditer(edge_re, t, re.S)}

    def edge(m):
        a, b = m.group(1), m.group(2)
        ce = c[(a, b)]
        if (a, b) in pairs or (b, a) in pairs:
            ce = max(ce, c.get((b, a), ce)) * F(21, 20)
        s = re.sub(r'<data key="c">[^<]+</data>', '<data key="c">%s</data>' % ce, m.group(0))
        if lat == "tiers":
            f = F(merged.get("%s %s" % (a, b), latfactor(unit)))
            s = s.replace("</edge>", '<data key="l">%s</data></edge>' % (tier_latency(a, b) * f))
        return s

    t = re.sub(edge_re, edge, t, flags=re.S)
    if lat == "tiers":
        t = t.replace('<key id="c" for="edge"', '<key id="l" for="edge" attr.name="l" '
                      'attr.type="string"/>\n  <key id="c" for="edge"', 1)
    open(out, "w").write(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
