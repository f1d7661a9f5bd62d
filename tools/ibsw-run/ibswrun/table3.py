# SPDX-License-Identifier: GPL-2.0
"""Seed 002's Table III (Gran et al., IPDPS 2010): the HPC Challenge as the
victim of a hot spot it did not create, a) without congestion, b) with
congestion and CC off, c) with congestion and CC on; the paper's numbers
beside a reproduction's, as ratios b/a and c/a (the testbeds' absolute
numbers are not comparable: 2010 hardware at 20 Gb/s against rxe in a
TCG guest at a time scale)."""

from . import mpi

# The paper's Table III in HPCC's summary units (its latencies are in ms,
# its bandwidths in MB/s, HPL in Gflop/s): key -> (a, b, c)
PAPER = {
    'MinPingPongLatency_usec': (1.132, 1.192, 1.172),
    'AvgPingPongLatency_usec': (1.678, 12.385, 1.729),
    'MaxPingPongLatency_usec': (1.957, 18.001, 2.056),
    'NaturallyOrderedRingLatency_usec': (2.193, 11.396, 2.098),
    'RandomlyOrderedRingLatency_usec': (2.036, 11.088, 2.073),
    'MinPingPongBandwidth_GBytes': (0.880463, 0.663235927, 0.876049),
    'AvgPingPongBandwidth_GBytes': (1.354021, 0.733159, 1.36026),
    'MaxPingPongBandwidth_GBytes': (1.590559, 0.879125, 1.611025),
    'NaturallyOrderedRingBandwidth_GBytes': (0.742469675, 0.213687109, 0.743769828),
    'RandomlyOrderedRingBandwidth_GBytes': (0.68466655, 0.350356751, 0.683451954),
    'PTRANS_GBs': (0.755254, 0.347585, 0.611816),
    'HPL_Tflops': (0.001819, 0.00179, 0.001827),
    'MPIRandomAccess_GUPs': (0.015118991, 0.01195898, 0.014409549),
    'MPIFFT_Gflops': (1.3768, 0.982365, 1.36891),
}
RUNS = ('a', 'b', 'c')
# The control run (seed002-hpcc-load.scn): a)'s network, b)'s CPU load.
LOAD = 'load'


def _ratio(x, y):
    if x is None or y is None or y == 0:
        return None
    return x / y


def compare(ours):
    """Rows of the comparison: ours is {'a': hpcc summary or None, 'b':
    ..., 'c': ..., and optionally 'load': the control run's}. Each row:
    label, key, unit, our a, b, c (and load), our b/a and c/a (and
    load/a), the paper's b/a and c/a."""
    rows = []
    for label, key, unit in mpi.TABLE3:
        vals = [(ours.get(r) or {}).get(key) for r in RUNS]
        pa, pb, pc = PAPER[key]
        row = {'label': label, 'key': key, 'unit': unit,
               'ours': dict(zip(RUNS, vals)),
               'ratio_b': _ratio(vals[1], vals[0]), 'ratio_c': _ratio(vals[2], vals[0]),
               'paper_b': pb / pa, 'paper_c': pc / pa}
        if LOAD in ours:
            row['ours'][LOAD] = (ours[LOAD] or {}).get(key)
            row['ratio_load'] = _ratio(row['ours'][LOAD], vals[0])
        rows.append(row)
    return rows


def _f(v, fmt):
    return '-' if v is None else format(v, fmt)


def markdown(rows):
    """The comparison as a Markdown table, with the control run's
    columns when the rows have them."""
    load = any('ratio_load' in r for r in rows)
    head = ['HPCC', 'unit', 'a) no congestion', 'b) congestion, CC off',
            'c) congestion, CC on', 'b/a', 'c/a', 'paper b/a', 'paper c/a']
    if load:
        head[5:5] = ["a') CPU load only"]
        head.append("a'/a")
    out = ['| %s |' % ' | '.join(head), '|%s' % ('---|' * len(head))]
    for r in rows:
        o = r['ours']
        cells = [r['label'], r['unit'], _f(o['a'], '.4g'), _f(o['b'], '.4g'),
                 _f(o['c'], '.4g'), _f(r['ratio_b'], '.2f'), _f(r['ratio_c'], '.2f'),
                 _f(r['paper_b'], '.2f'), _f(r['paper_c'], '.2f')]
        if load:
            cells[5:5] = [_f(o.get(LOAD), '.4g')]
            cells.append(_f(r.get('ratio_load'), '.2f'))
        out.append('| %s |' % ' | '.join(cells))
    return '\n'.join(out) + '\n'
