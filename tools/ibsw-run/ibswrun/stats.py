# SPDX-License-Identifier: GPL-2.0
"""Summary statistics of sampled series, without numpy.

Throughput and counter rates are series of (t, value) points, t being the
midpoint of a sample interval in emulated seconds. A window [start, stop)
takes the points whose midpoint lies in it, so each interval counts in
exactly one of two adjacent windows. Sums use math.fsum so that results do
not depend on the order of the samples.
"""

import math


def mean(xs):
    """Arithmetic mean; None for no values."""
    return math.fsum(xs) / len(xs) if xs else None


def pvar(xs):
    """Population variance (divides by n: the samples are the whole run,
    not a sample of a larger one); None for no values."""
    if not xs:
        return None
    m = mean(xs)
    return math.fsum((x - m) ** 2 for x in xs) / len(xs)


def pstd(xs):
    """Population standard deviation (pvar's root); None for no values."""
    return None if not xs else math.sqrt(pvar(xs))


def summarize(xs):
    """{'mean', 'std', 'min', 'max', 'samples'} of values; None for the
    statistics of an empty list."""
    xs = list(xs)
    if not xs:
        return {'mean': None, 'std': None, 'min': None, 'max': None, 'samples': 0}
    return {'mean': mean(xs), 'std': pstd(xs), 'min': min(xs), 'max': max(xs),
            'samples': len(xs)}


def jain(xs):
    """Jain's fairness index (sum x)^2 / (n sum x^2): 1 for equal shares,
    1/n when one of n gets everything. None for no values, all zeros or a
    missing (None) value."""
    xs = list(xs)
    if not xs or any(x is None for x in xs):
        return None
    sq = math.fsum(x * x for x in xs)
    if sq == 0:
        return None
    return math.fsum(xs) ** 2 / (len(xs) * sq)


def shares(xs):
    """Each value's fraction of their sum (seed 002's Fig. 8: each
    contributor's share of the congested link). None for no values, a
    missing (None) value or a zero sum."""
    xs = list(xs)
    if not xs or any(x is None for x in xs):
        return None
    total = math.fsum(xs)
    if total <= 0:
        return None
    return [x / total for x in xs]


def treatment_variation(series, start, stop):
    """Seed 002's treatment variation Var (Section VII, Fig. 14) of a set
    of flows in the window [start, stop): at every sample time where each
    flow has a value, the gap between the fastest and the slowest, then
    the population variance of those gaps (how steadily the set is
    treated alike). series holds each flow's (t, value) points, sampled
    at the same times. {'var', 'gap': the mean gap, 'samples'}; None for
    var and gap when no sample time has every flow's value."""
    by_time = {}
    for pts in series:
        for t, v in pts:
            if v is not None and in_window(t, start, stop):
                by_time.setdefault(t, []).append(v)
    gaps = [max(vs) - min(vs) for t, vs in sorted(by_time.items()) if len(vs) == len(series)]
    if not series or not gaps:
        return {'var': None, 'gap': None, 'samples': 0}
    return {'var': pvar(gaps), 'gap': mean(gaps), 'samples': len(gaps)}


# The IB wire bytes of a packet besides its payload, as ibsw's counters
# count them (LRH to VCRC): LRH 8, BTH 12, ICRC 4, VCRC 2; and the RETH
# (16) of an RDMA write's first packet
PACKET_OVERHEAD = 8 + 12 + 4 + 2
RETH = 16


def payload_fraction(verb, size, mtu):
    """The share of a flow's wire data that is its messages' payload: a
    message of size bytes goes in ceil(size / mtu) packets (one at least),
    the last padded to 4 bytes, each with PACKET_OVERHEAD, a write's
    first with a RETH too (RC, as perftest sends). None for a read (its
    data comes back on the other direction) or an unknown size or MTU.
    Seed 002's Fig. 9 plots payload throughput against the send size: at
    1 byte a packet is 46 bytes on the wire."""
    if verb not in ('write', 'send') or not size or not mtu:
        return None
    packets = max(1, -(-size // mtu))
    last = size - (packets - 1) * mtu
    wire = size + (-last) % 4 + packets * PACKET_OVERHEAD + (RETH if verb == 'write' else 0)
    return size / wire


def in_window(t, start, stop):
    """Whether a point at t counts for the window [start, stop)."""
    return start <= t < stop


def select(points, start, stop):
    """Values of (t, value) points in the window [start, stop), skipping
    missing (None) values."""
    return [v for t, v in points if v is not None and in_window(t, start, stop)]


def rates(times, values, mul=1, div=1):
    """Rates of a cumulative counter: [(midpoint, delta * mul / dt / div)]
    (words to Gb/s: mul 32, div 1e9).

    An interval where the counter went down (it was reset, or wrapped) or
    a value is missing gives None; an interval without positive duration
    gives no point at all, since it has no midpoint between two times."""
    out = []
    for i in range(1, len(times)):
        t0, t1 = times[i - 1], times[i]
        if t0 is None or t1 is None or t1 <= t0:
            continue
        v0, v1 = values[i - 1], values[i]
        mid = (t0 + t1) / 2
        if v0 is None or v1 is None or v1 < v0:
            out.append((mid, None))
        else:
            out.append((mid, (v1 - v0) * mul / (t1 - t0) / div))
    return out
