# SPDX-License-Identifier: GPL-2.0
"""Turn a results directory's raw samples into what people read.

Input (written by the guest): run.json and samples.csv, whose columns are
raw cumulative counters. Output: throughput.csv and counters.csv (rates
per sample interval), summary.json (statistics per window, Jain's index,
whether the CPU rather than the links limited the run), summary.txt (the
table also printed), throughput.png and counters.png.

Everything is derived from the counters alone, so the report can be made
again at any time, on the host or in the VM, and from an interrupted run:

    python3 -m ibswrun.report DIR

The formats are documented in Documentation/experiments.md.
"""

import csv
import json
import math
import os
import sys

from . import mpi, plot, schedule, stats
from .scenario import DATA_COUNTERS, fmt_time

SCHEMA = 1
WORD_BITS = 32		# PortXmitData/PortRcvData count 32-bit words
GBPS = 1e9
TICK_BITS = 512		# a PortXmitWait/xmit_late tick: 64 bytes at the port's rate
# A run is CPU-limited when a port lost more than this fraction of the run
# or of a window to late engine runs (xmit_late); the integration tests'
# IBSW_LATE_MAX is the same 2%. Why 2%: Documentation/experiments.md.
LATE_MAX = 0.02
LATE_LINES = 4		# warning lines at most, one a port
LATE_ROW = 'late % (worst port)'	# the table's row of it
# seed 002's treatment variation, of the gap between the set's fastest
# and slowest flow per sample (stats.treatment_variation)
VAR_ROW = 'Var of the gap, (Gb/s)^2'


class ReportError(RuntimeError):
    """The results directory cannot be reported on (no run.json...)."""


def _number(text):
    """A CSV field: int if it is one (exact counter deltas), float, or
    None for an empty or unreadable field."""
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return None


def read_samples(path):
    """(header, columns) of samples.csv: columns maps each header name to
    its list of values. Rows with the wrong number of fields (the last one
    of a run killed while writing) are dropped."""
    try:
        with open(path, newline='', encoding='utf-8') as f:
            rows = list(csv.reader(f))
    except FileNotFoundError:
        return [], {}
    if not rows:
        return [], {}
    header = rows[0]
    good = [r for r in rows[1:] if len(r) == len(header)]
    columns = {name: [_number(r[i]) for r in good] for i, name in enumerate(header)}
    return header, columns


def counter_parts(key):
    """'S2/3:port_xmit_data@0' -> ('S2', '3', 'port_xmit_data', 0)."""
    where, _, name = key.partition(':')
    sw, _, port = where.partition('/')
    name, at, vl = name.partition('@')
    return sw, port, name, int(vl) if at and vl.isdigit() else None


def rate_key(key):
    """Key of a counter's rate: data counters become Gb/s and are named
    ..._gbps ('S2/3:port_xmit_data_gbps@0'); others keep their key and are
    per second."""
    where, _, name = key.partition(':')
    name, at, vl = name.partition('@')
    if name in DATA_COUNTERS:
        name += '_gbps'
    return f'{where}:{name}' + (f'@{vl}' if at else '')


def rate_unit(name):
    """Unit of the rate of a counter name."""
    if name in DATA_COUNTERS:
        return 'Gb/s'
    if name in ('port_xmit_wait', 'port_xmit_time_cong'):
        return 'ticks/s'
    if name.endswith('fecn') or name.endswith('becn'):
        return 'packets/s'
    if name.endswith('packets') or name.endswith('discards') or name.endswith('errors'):
        return 'packets/s'
    return '1/s'


def _fmt(v):
    return '' if v is None else f'{v:.9g}'


def _write_csv(path, names, times, series):
    """t, then one column per series; series values aligned with times."""
    with open(path, 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['t'] + names)
        for i, t in enumerate(times):
            w.writerow([_fmt(t)] + [_fmt(s[i][1]) for s in series])


def _window_stats(points, windows):
    return {w: stats.summarize(stats.select(points, a, b)) for w, (a, b) in windows.items()}


def _late_span(reads, start, stop, tol):
    """The reads that stand for the edges of the window [start, stop): the
    first read at or after each edge (the guest reads at the first sample
    at or after an edge), or None if there is none or they are the same."""
    r0 = next((r for r in reads if r['t'] >= start - tol), None)
    r1 = next((r for r in reads if r['t'] >= stop - tol), None)
    if r0 is None or r1 is None or r1['t'] <= r0['t']:
        return None
    return r0, r1


def late_lost(r0, r1, port, rate_bps):
    """(emulated seconds, fraction of the span) a port lost to late engine
    runs between two xmit_late reads: ticks * 512 / rate_bps, over the
    emulated time between the reads; (None, None) without both readings or
    a rate, or if the counter went down (cleared)."""
    a, b = r0['ticks'].get(port), r1['ticks'].get(port)
    dt = r1['t'] - r0['t']
    if a is None or b is None or not rate_bps or dt <= 0 or b < a:
        return None, None
    lost = (b - a) * TICK_BITS / rate_bps
    return lost, lost / dt


def cpu_limited(late, windows, sample=None, threshold=LATE_MAX):
    """summary['cpu_limited'] from run.json's xmit_late readings: each
    port's lost fraction of the run (first to last read) and of each
    window, the (port, window) pairs above threshold, the worst one, and
    whether the run was CPU-limited (None when not known)."""
    out = {'threshold': threshold, 'recorded': False, 'limited': None,
           'ports': {}, 'lost_s': {}, 'windows': {}, 'over': [], 'worst': None,
           'missing': list((late or {}).get('missing') or [])}
    reads = sorted((late or {}).get('reads') or [], key=lambda r: r['t'])
    ports = (late or {}).get('ports') or {}
    if len(reads) < 2 or not ports:
        return out
    tol = (sample or 0.0) * 1e-6 + 1e-12
    spans = {w: (reads[0], reads[-1]) if w == 'run' else _late_span(reads, a, b, tol)
             for w, (a, b) in windows.items()}
    spans.setdefault('run', (reads[0], reads[-1]))
    every = []
    for w in ['run'] + [w for w in windows if w != 'run']:
        fracs = {}
        for port, info in ports.items():
            lost, frac = None, None
            if spans[w]:
                lost, frac = late_lost(*spans[w], port, info.get('rate_bps'))
            fracs[port] = frac
            if w == 'run':
                out['ports'][port] = frac
                out['lost_s'][port] = lost
            if frac is not None:
                every.append({'port': port, 'peer': info.get('peer'), 'window': w,
                              'fraction': frac})
        if w in windows:
            out['windows'][w] = fracs
    if not any(f is not None for f in out['ports'].values()):
        return out
    out['recorded'] = True
    # sorted() is stable: on a tie the run comes before its windows
    every.sort(key=lambda e: -e['fraction'])
    out['over'] = [e for e in every if e['fraction'] > threshold]
    out['worst'] = every[0] if every else None
    out['limited'] = bool(out['over'])
    return out


def make(directory, plots=True):
    """Write the derived files of a results directory; return the summary
    (the content of summary.json). Plot failures (no gnuplot) are noted in
    summary['plot_errors'] and do not raise."""
    try:
        with open(os.path.join(directory, 'run.json'), encoding='utf-8') as f:
            run = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f'{directory}: cannot read run.json: {e}') from e
    sc = run.get('scenario') or {}
    planned = {k: tuple(v) for k, v in (sc.get('windows') or {}).items()}
    if 'run' not in planned:
        planned = {'run': (0.0, sc.get('duration') or 0.0), **planned}
    # The windows as the run placed them: held for slow flow starts
    # (schedule.py); a window that should hold a flow that did not start
    # is invalid, and its statistics are null.
    sched = run.get('schedule') or {}
    groups = sched.get('groups') or []
    windows = schedule.actual_windows(planned, groups, sc.get('duration') or 0.0)
    not_started = sched.get('not_started') or {}
    invalid = schedule.invalid_windows(
        planned, {f['name']: (f['start'], f['stop'])
                  for f in list(sc.get('flows', [])) + list(sc.get('apps', []))}, not_started)
    header, cols = read_samples(os.path.join(directory, 'samples.csv'))
    times = cols.get('t', [])
    walls = cols.get('wall', [])
    # A run that ended early (its MPI jobs ended, or it was stopped) covers
    # only the time it sampled.
    if times and times[-1] < windows['run'][1] - 1.5 * (sc.get('sample') or 0.0):
        windows['run'] = (0.0, times[-1])

    # Per-flow throughput: the source port's received words, in Gb/s.
    flow_names = [h[5:] for h in header if h.startswith('flow:')]
    flow_pts = [stats.rates(times, cols[f'flow:{n}'], WORD_BITS, GBPS) for n in flow_names]
    counter_keys = [h for h in header if h not in ('t', 'wall') and not h.startswith('flow:')]
    counter_pts = []
    for key in counter_keys:
        name = counter_parts(key)[2]
        if name in DATA_COUNTERS:
            counter_pts.append(stats.rates(times, cols[key], WORD_BITS, GBPS))
        else:
            counter_pts.append(stats.rates(times, cols[key]))
    mids = [t for t, _ in (stats.rates(times, times) if times else [])]

    _write_csv(os.path.join(directory, 'throughput.csv'), flow_names, mids, flow_pts)
    _write_csv(os.path.join(directory, 'counters.csv'), [rate_key(k) for k in counter_keys],
               mids, counter_pts)

    sc_flows = {f['name']: f for f in sc.get('flows', [])}
    sc_apps = {a['name']: a for a in sc.get('apps', [])}
    flows = {}
    for name, pts in zip(flow_names, flow_pts):
        info = {}
        if name in sc_flows:
            f = sc_flows[name]
            info = {'kind': 'flow', 'src': f['src'], 'dst': f['dst'], 'verb': f['verb'],
                    'start': f['start'], 'stop': f['stop']}
        elif name in sc_apps:
            a = sc_apps[name]
            info = {'kind': 'app', 'src': a['host'], 'dst': None, 'verb': None,
                    'start': a['start'], 'stop': a['stop']}
        run_flow = (run.get('flows') or {}).get(name) or {}
        info['launched'] = run_flow.get('started')
        info['stopped'] = run_flow.get('stopped')
        info['measured_start'] = run_flow.get('measured_start')
        info['not_started'] = run_flow.get('not_started')
        info['exit'] = run_flow.get('exit')
        info['source_port'] = (run.get('sources') or {}).get(name)
        info['windows'] = _window_stats(pts, windows)
        if name in sc_flows:
            # the messages' payload: what perftest and the papers count
            frac = stats.payload_fraction(sc_flows[name]['verb'], sc_flows[name].get('size'),
                                          run_flow.get('mtu'))
            info['payload_fraction'] = frac
            for st in info['windows'].values():
                st['payload'] = None if frac is None or st['mean'] is None else st['mean'] * frac
        if name in sc_flows and sc_flows[name].get('count'):
            info['completion'] = completion(sc_flows[name], times, cols[f'flow:{name}'],
                                            info['launched'], info['exit'])
        flows[name] = info

    fairness = {}
    pts_of = dict(zip(flow_names, flow_pts))
    for fs in sc.get('fairness', []):
        jain, shares, total, variation = {}, {}, {}, {}
        for w in fs['windows']:
            means = [flows[f]['windows'][w]['mean'] if f in flows and w in windows else None
                     for f in fs['flows']]
            jain[w] = stats.jain(means)
            sh = stats.shares(means)
            shares[w] = dict(zip(fs['flows'], sh)) if sh else None
            total[w] = None if None in means else math.fsum(means)
            variation[w] = (stats.treatment_variation([pts_of[f] for f in fs['flows']],
                                                      *windows[w])
                            if w in windows and all(f in pts_of for f in fs['flows'])
                            else stats.treatment_variation([], 0.0, 0.0))
        fairness[fs['name']] = {'flows': fs['flows'], 'jain': jain, 'shares': shares,
                                'total': total, 'variation': variation}

    counters = {}
    for key, pts in zip(counter_keys, counter_pts):
        sw, port, name, vl = counter_parts(key)
        counters[rate_key(key)] = {
            'switch': sw, 'port': int(port) if port.isdigit() else port, 'counter': name,
            'vl': vl, 'unit': rate_unit(name), 'windows': _window_stats(pts, windows)}

    for w in invalid:
        for obj in list(flows.values()) + list(counters.values()):
            if w in obj['windows']:
                obj['windows'][w] = {**stats.summarize([]), **(
                    {'payload': None} if 'payload' in obj['windows'][w] else {})}
        for fs in fairness.values():
            if w in fs['jain']:
                fs['jain'][w] = None
                fs['shares'][w] = None
                fs['total'][w] = None
                fs['variation'][w] = stats.treatment_variation([], 0.0, 0.0)

    summary = {
        'schema': SCHEMA,
        'name': sc.get('name'),
        'scale': run.get('scale', sc.get('scale')),
        'cc': sc.get('cc', 'off'),
        'sample': run.get('sample', sc.get('sample')),
        'duration': times[-1] if times else 0.0,
        'planned_duration': sc.get('duration'),
        'wall': walls[-1] if walls and walls[-1] is not None else None,
        'samples': len(times),
        'interrupted': bool(run.get('interrupted')),
        'error': run.get('error'),
        'windows': {w: {'start': a, 'stop': b, 'scheduled_start': planned[w][0],
                        'scheduled_stop': planned[w][1], 'valid': w not in invalid,
                        'invalid': '; '.join(invalid[w]) if w in invalid else None}
                    for w, (a, b) in windows.items()},
        'schedule': {'shift': schedule.total_shift(groups),
                     'start_timeout': sched.get('start_timeout'),
                     'not_started': not_started,
                     'holding': bool(sched.get('holding'))},
        'flows': flows,
        'mpi': {j['name']: mpi.job_summary(directory, j, (run.get('flows') or {}).get(j['name']))
                for j in sc.get('mpi', [])},
        'fairness': fairness,
        'counters': counters,
        'cpu_limited': cpu_limited(run.get('xmit_late'), windows,
                                   run.get('sample', sc.get('sample'))),
        'plots': [],
        'plot_errors': [],
    }
    if plots:
        for name in ('throughput.png', 'counters.png'):	# none left from an older report
            try:
                os.unlink(os.path.join(directory, name))
            except FileNotFoundError:
                pass
        _plots(directory, summary, counter_keys)
    with open(os.path.join(directory, 'summary.json'), 'w', encoding='utf-8') as f:
        json.dump(summary, f, indent=1)
        f.write('\n')
    with open(os.path.join(directory, 'summary.txt'), 'w', encoding='utf-8') as f:
        f.write(table(summary))
    return summary


def completion(flow, times, values, launched, exit_):
    """A fixed-size flow's completion from its source port's counter: from
    its launch, or the start of the first sample interval after it in
    which the port counted data if later, to the end of the last such
    interval, so to within a sample at each end; 'time' is None unless
    perftest ended well (exit 0) after sending every message."""
    first = last = None
    for i in range(1, len(times)):
        if launched is not None and times[i] <= launched:
            continue
        if values[i] is not None and values[i - 1] is not None and values[i] > values[i - 1]:
            if first is None:
                first = times[i - 1] if launched is None else max(times[i - 1], launched)
            last = times[i]
    done = exit_ == 0 and first is not None
    return {'messages': flow['count'], 'bytes': flow['count'] * flow['size'],
            'start': first, 'end': last, 'sent': exit_ == 0,
            'time': last - first if done else None}


def completion_lines(summary):
    """A line per fixed-size flow: its bytes and how long they took."""
    out = []
    for name, f in summary['flows'].items():
        c = f.get('completion')
        if not c:
            continue
        what = f"{c['messages']} x {c['bytes'] // c['messages']} B"
        if c['time'] is None:
            why = 'not all sent' if not c['sent'] else 'no data seen'
            out.append(f'completion {name}: {what}: {why} (perftest exit {f.get("exit")})')
        else:
            out.append(f"completion {name}: {what} in {fmt_time(c['time'])} emulated "
                       f"({fmt_time(c['start'])} to {fmt_time(c['end'])}, to within a sample "
                       'at each end)')
    return out


def _first(*vals):
    return next((v for v in vals if v is not None), None)


def flow_span(flow, step):
    """Where a flow's line is drawn (its summary's entry, the sample
    interval): from one interval before its launch, so the rise shows, to
    one after its stop; None when it has no start."""
    start = _first(flow.get('launched'), flow.get('start'))
    stop = _first(flow.get('stopped'), flow.get('stop'))
    if start is None or stop is None:
        return None
    return (max(start - step, 0.0), stop + step)


def sweep_point(directory):
    """The ID of the sweep point whose results directory this is
    (SWEEPDIR/points/ID, SWEEPDIR holding sweep.json), else None."""
    path = os.path.abspath(directory)
    parent = os.path.dirname(path)
    if os.path.basename(parent) == 'points' and \
            os.path.isfile(os.path.join(os.path.dirname(parent), 'sweep.json')):
        return os.path.basename(path)
    return None


def _plots(directory, summary, counter_keys):
    """throughput.png and counters.png; errors go to the summary. A sweep
    point's titles name the point: its scenario's name is the sweep's."""
    point = sweep_point(directory)
    title = (f"{summary['name']}{f' [{point}]' if point else ''}: CC {summary['cc']}, "
             f"time scale {summary['scale']}")
    if summary['interrupted']:
        title += ' (interrupted)'
    windows = {w: (v['start'], v['stop']) for w, v in summary['windows'].items()}
    end = max(summary['duration'] or 0.0, summary['planned_duration'] or 0.0) or 1.0
    jobs = []
    if summary['flows'] and summary['samples'] >= 2:
        step = summary['sample'] or 0.0
        ranges = [flow_span(f, step) for f in summary['flows'].values()]
        jobs.append(lambda: plot.throughput(directory, list(summary['flows']), windows, end,
                                            title, ranges))
    if counter_keys and summary['samples'] >= 2:
        panels, peaks = {}, {}
        for col, key in enumerate(counter_keys, 2):
            sw, port, name, vl = counter_parts(key)
            label = f'{sw}/{port}' + ('' if vl is None else f' VL{vl}')
            panels.setdefault(name, []).append((col, label))
            peak = summary['counters'][rate_key(key)]['windows']['run']['max'] or 0
            peaks[name] = max(peaks.get(name, 0), peak)
        spec = [(n, rate_unit(n), peaks[n], s) for n, s in panels.items()]
        jobs.append(lambda: plot.counters(directory, spec, windows, end, title))
    for job in jobs:
        try:
            summary['plots'].append(os.path.basename(job()))
        except (plot.PlotError, OSError, ValueError) as e:
            summary['plot_errors'].append(str(e))


def _cell(v, fmt, width):
    return ('-' if v is None else format(v, fmt)).rjust(width)


def table(summary):
    """The text table: mean throughput per flow and window, then Jain's
    index per fairness set; one header line on the run."""
    windows = summary['windows']
    out = []
    head = (f"{summary['name']}: {summary['samples']} samples over "
            f"{fmt_time(summary['duration'] or 0.0)} emulated, time scale {summary['scale']}")
    if summary.get('wall') is not None:
        head += f", {summary['wall']:.1f} s wall"
    out.append(head)
    if summary['interrupted']:
        out.append('INTERRUPTED: the run was stopped before its end')
    if summary.get('error'):
        out.append(f"ERROR: {summary['error']}")
    out += schedule_lines(summary)
    labels = []
    for name, f in summary['flows'].items():
        route = f" {f['src']}->{f['dst']}" if f.get('dst') else (
            f" on {f['src']}" if f.get('src') else '')
        labels.append(name + route)
    labels += list(summary['fairness'])
    late = summary.get('cpu_limited') or {}
    first = max([len(s) for s in labels] + [len('mean Gb/s')]
                + [len(LATE_ROW)] * bool(late.get('recorded')))
    widths = {w: max(len(w), len(_span(v)), 6) for w, v in windows.items()}
    out.append('mean Gb/s'.ljust(first) + ''.join('  ' + w.rjust(widths[w]) for w in windows))
    out.append(''.ljust(first) + ''.join('  ' + _span(v).rjust(widths[w])
                                         for w, v in windows.items()))
    for label, f in zip(labels, summary['flows'].values()):
        out.append(label.ljust(first) + ''.join(
            '  ' + _cell(f['windows'][w]['mean'], '.2f', widths[w]) for w in windows))
    if summary['fairness']:
        out.append("Jain's index")
        for name, fs in summary['fairness'].items():
            out.append(name.ljust(first) + ''.join(
                '  ' + (_cell(fs['jain'][w], '.3f', widths[w]) if w in fs['jain']
                        else ''.rjust(widths[w])) for w in windows))
        out.append('sum, Gb/s')
        for name, fs in summary['fairness'].items():
            out.append(name.ljust(first) + ''.join(
                '  ' + (_cell(fs['total'][w], '.2f', widths[w]) if w in fs['total']
                        else ''.rjust(widths[w])) for w in windows))
        out.append(VAR_ROW)
        for name, fs in summary['fairness'].items():
            out.append(name.ljust(first) + ''.join(
                '  ' + (_cell(fs['variation'][w]['var'], '.4f', widths[w])
                        if w in fs['variation'] else ''.rjust(widths[w])) for w in windows))
    if late.get('recorded'):
        # per window, the most any port lost: whether its results are the
        # links' or the CPU's
        out.append(LATE_ROW.ljust(first) + ''.join(
            '  ' + _cell(_most(late['windows'].get(w)), '.1f', widths[w]) for w in windows))
    if not summary['flows']:
        out.append('(no flow samples)')
    out += completion_lines(summary)
    for name, job in (summary.get('mpi') or {}).items():
        out += mpi.summary_lines(name, job)
    out += late_lines(late)
    return '\n'.join(out) + '\n'


def schedule_lines(summary):
    """How much the flows' starts moved the windows, and the windows that
    are invalid because a flow did not start."""
    sched = summary.get('schedule') or {}
    out = []
    if sched.get('shift'):
        out.append(f"flows started {fmt_time(sched['shift'])} later than scheduled in all: "
                   'later starts, stops and windows moved by that (windows as used below)')
    for w, v in summary['windows'].items():
        if not v.get('valid', True):
            out.append(f"INVALID window {w}: {v['invalid']}")
    return out


def _most(fracs):
    """The largest of a window's port fractions, in percent, or None."""
    vals = [f for f in (fracs or {}).values() if f is not None]
    return 100 * max(vals) if vals else None


def _pct(f):
    if 0 < f < 0.0005:
        return '<0.1%'
    return f'{100 * f:.1f}%'


def _port_name(e):
    """'S2/3 (H5)' for a host's port, 'S1/4' for a link's."""
    peer = e.get('peer')
    return f"{e['port']} ({peer})" if peer and '/' not in peer else e['port']


def _where(w):
    return 'the run' if w == 'run' else f'window {w}'


def late_lines(late):
    """The lines that say whether the run was link- or CPU-limited: a
    WARNING line per port that lost more than the threshold of the run
    or of a window (the worst first), else one line that it was
    link-limited."""
    thr = f"{100 * late.get('threshold', LATE_MAX):g}%"
    if not late.get('recorded'):
        return ['link or CPU: not known (no xmit_late readings in run.json)']
    if not late['limited']:
        w = late['worst']
        most = (f"most: {_port_name(w)}, {_pct(w['fraction'])} of {_where(w['window'])}"
                if w and w['fraction'] > 0 else 'none lost any')
        return [f'link-limited: no port lost more than {thr} of the run or of a window '
                f'to late engine runs ({most})']
    worst = {}
    for e in late['over']:		# the worst first
        worst.setdefault(e['port'], e)
    out = []
    for port, e in list(worst.items())[:LATE_LINES]:
        run = late['ports'].get(port)
        if run is not None and run > late['threshold']:
            what = f'{_pct(run)} of the run'
            if e['window'] != 'run':
                what += f" ({_pct(e['fraction'])} of {_where(e['window'])})"
        else:
            what = f"{_pct(e['fraction'])} of {_where(e['window'])}"
        out.append(f'WARNING: CPU-limited: {_port_name(e)} lost {what} to late engine runs; '
                   'raise the time scale')
    if len(worst) > LATE_LINES:
        out.append(f'WARNING: CPU-limited: {len(worst) - LATE_LINES} more ports lost more than '
                   f'{thr}: see cpu_limited in summary.json')
    return out


def _span(v):
    """'2-15ms' for a window's bounds, in the unit that suits the stop."""
    a, b = v['start'], v['stop']
    for unit, factor in (('s', 1), ('ms', 1e3), ('us', 1e6)):
        if b * factor >= 1 or unit == 'us':
            return f'{a * factor:g}-{b * factor:g}{unit}'
    return f'{a:g}-{b:g}s'


def main(argv=None):
    """python3 -m ibswrun.report DIR [--no-plots]: make the report, print
    the table and where the files are."""
    argv = sys.argv[1:] if argv is None else argv
    plots = '--no-plots' not in argv
    args = [a for a in argv if a != '--no-plots']
    if len(args) != 1 or args[0].startswith('-'):
        print('usage: python3 -m ibswrun.report DIR [--no-plots]', file=sys.stderr)
        return 2
    try:
        summary = make(args[0], plots=plots)
    except ReportError as e:
        print(f'ibsw-run report: {e}', file=sys.stderr)
        return 1
    sys.stdout.write(table(summary))
    for e in summary['plot_errors']:
        print(f'ibsw-run report: {e}', file=sys.stderr)
    files = ['summary.json', 'summary.txt', 'throughput.csv', 'counters.csv'] + summary['plots']
    print(f"results in {args[0]}: {' '.join(files)}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
