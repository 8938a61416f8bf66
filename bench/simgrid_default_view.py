#!/usr/bin/env python3
"""A SimGrid platform file as SMPI's default network model simulates it.

usage: simgrid_default_view.py IN.xml OUT.xml BYTES [GAMMA] [--gamma-on scaled|file]
       [--cross shared|all]

Under network/model:SMPI (SimGrid 3.32; bench/simgrid_exec.sh CONFIG=default,
the envelope shim keeping the bandwidth factor exact) a message of S bytes
over a route of latency L and bottleneck bandwidth B is not L + S/B:
  - its latency is latfactor(S) x L (smpi/lat-factor, piecewise in S:
    bench/smpi_latency_fit.py; 11.6436 from 64 KB on);
  - network/crosstraffic:1: a flow also takes 5 % of its rate on its
    reverse route; on a SHARED link the reverse route is the same link, so
    a lone flow gets at most bandwidth / 1.05;
  - network/TCP-gamma (4 MiB by default): a flow's rate is at most
    GAMMA / (2 x its route's latency), the file's latency, not the scaled
    one (--gamma-on scaled|file, default file).
Measured with one 1 MB MPI_Send under smpirun (small_platform.xml, SMPI
3.32): Boivin->Fafard 0.739933 s (0.05104 s of latency x 11.6436 + 10^6 /
(7.20975 MB/s / 1.05) = 0.739932), Jacquelin->Tremblay 1.176142 (1.176141),
Tremblay->Fafard 0.151716 (0.151716); with TCP-gamma on the scaled latency
the first would be 0.8777.
This writes the platform the routed model should plan for: every latency
times latfactor(BYTES) (BYTES: the messages' size; a batch of n operations
is larger, but every message of at least 64 KB has the same factor), every
SHARED link's bandwidth / 1.05, and on each explicit <route> of a Full zone
one more FATPIPE link of bandwidth GAMMA / (2 L) and no latency (a FATPIPE
limits each flow, not their sum: TCP-gamma's bound).  Cluster zones have no
explicit routes: their TCP-gamma bound is left out (their latencies are
small: the bound is above their links' bandwidth on the shipped files, see
bench/simgrid_exec.sh).  SPLITDUPLEX links keep their bandwidth (their
reverse direction is another resource; the 5 % matters only when both
directions carry flows; --cross all divides them too, for plans that use
both directions).  Host names and order are unchanged, so a plan
made on OUT runs on IN with IN's hostfile.
"""
import re
import sys
from fractions import Fraction as F

sys.path.insert(0, __import__("os").path.dirname(__file__))
from smpi_latency_fit import latfactor  # noqa: E402

UNITS = {"s": F(1), "ms": F(1, 1000), "us": F(1, 10**6), "ns": F(1, 10**9), "": F(1)}
BW = {"Bps": F(1), "kBps": F(10**3), "KBps": F(10**3), "MBps": F(10**6), "GBps": F(10**9),
      "KiBps": F(2**10), "MiBps": F(2**20), "GiBps": F(2**30), "": F(1)}


def seconds(v):
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([a-z]*)\s*", v)
    return F(m.group(1)) * UNITS[m.group(2)]


def bytes_per_s(v):
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([A-Za-z]*)\s*", v)
    return F(m.group(1)) * BW[m.group(2)]


def dec(q):
    """q as a decimal string: exact when its denominator is 2^a 5^b (it then
    terminates), else 17 significant digits"""
    for k in range(0, 80):
        v = q * 10**k
        if v.denominator == 1:
            return f"{v.numerator}e-{k}" if k else str(v.numerator)
    return f"{float(q):.17g}"


def main():
    src, dst, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    gamma = F(sys.argv[4]) if len(sys.argv) > 4 and not sys.argv[4].startswith("-") else F(4194304)
    cross_all = "--cross" in sys.argv and sys.argv[sys.argv.index("--cross") + 1] == "all"
    on = "file"
    if "--gamma-on" in sys.argv:
        on = sys.argv[sys.argv.index("--gamma-on") + 1]
    f = F(latfactor(size))
    t = open(src).read()
    lat = {}   # link id -> its file latency (s)
    for m in re.finditer(r"<link\b[^>]*>", t):
        tag = m.group(0)
        i = re.search(r'id="([^"]+)"', tag)
        la = re.search(r'latency="([^"]*)"', tag)
        if i:
            lat[i.group(1)] = seconds(la.group(1)) if la else F(0)

    def link(m):
        tag = m.group(0)
        la = re.search(r'latency="([^"]*)"', tag)
        if la:
            tag = tag.replace(la.group(0), f'latency="{dec(seconds(la.group(1)) * f)}s"')
        sp = re.search(r'sharing_policy="([^"]*)"', tag)
        if cross_all or not sp or sp.group(1) == "SHARED":
            bw = re.search(r'bandwidth="([^"]*)"', tag)
            tag = tag.replace(bw.group(0), f'bandwidth="{dec(bytes_per_s(bw.group(1)) / F(21, 20))}Bps"')
        return tag
    t = re.sub(r"<link\b[^>]*>", link, t)

    def cluster(m):
        tag = m.group(0)
        for a in ("lat", "bb_lat", "loopback_lat"):
            la = re.search(rf'\b{a}="([^"]*)"', tag)
            if la:
                tag = tag.replace(la.group(0), f'{a}="{dec(seconds(la.group(1)) * f)}s"')
        # the backbone is SHARED unless said otherwise; the private links
        # SPLITDUPLEX unless sharing_policy says SHARED
        bb = re.search(r'\bbb_bw="([^"]*)"', tag)
        bsp = re.search(r'bb_sharing_policy="([^"]*)"', tag)
        if bb and (not bsp or bsp.group(1) == "SHARED"):
            tag = tag.replace(bb.group(0), f'bb_bw="{dec(bytes_per_s(bb.group(1)) / F(21, 20))}Bps"')
        sp = re.search(r'\bsharing_policy="([^"]*)"', tag)
        bw = re.search(r'\bbw="([^"]*)"', tag)
        if bw and (cross_all or (sp and sp.group(1) == "SHARED")):
            tag = tag.replace(bw.group(0), f'bw="{dec(bytes_per_s(bw.group(1)) / F(21, 20))}Bps"')
        return tag
    t = re.sub(r"<cluster\b[^>]*>", cluster, t)

    # TCP-gamma: one FATPIPE per explicit route (no latency)
    extra = []

    def route(m):
        ids = re.findall(r'<link_ctn id="([^"]+)"', m.group(0))
        L = sum((lat.get(i, F(0)) for i in ids), F(0))
        if on == "scaled":
            L *= f
        if L == 0:
            return m.group(0)
        name = f"tcpgamma_{len(extra)}"
        extra.append(f'    <link id="{name}" bandwidth="{dec(gamma / (2 * L))}Bps" latency="0" '
                     f'sharing_policy="FATPIPE"/>\n')
        return re.sub(r"(\s*)</route>", rf'\1  <link_ctn id="{name}"/>\1</route>', m.group(0), count=1)
    t = re.sub(r"<route\b[^>]*>.*?</route>", route, t, flags=re.S)
    if extra:
        # the new links go before the first route (SimGrid wants links first)
        k = t.index("<route")
        k = t.rindex("\n", 0, k) + 1
        t = t[:k] + "".join(extra) + t[k:]
    open(dst, "w").write(t)


if __name__ == "__main__":
    main()
