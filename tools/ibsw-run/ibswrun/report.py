# SPDX-License-Identifier: GPL-2.0
"""Turn a results directory's raw samples into what people read.

Input (written by the guest): run.json and samples.csv, whose columns are
raw cumulative counters. Output: throughput.csv and counters.csv (rates
per sample interval), summary.json (statistics per window, Jain's index),
summary.txt (the table also printed), throughput.png and counters.png.

Everything is derived from the counters alone, so the report can be made
again at any time, on the host or in the VM, and from an interrupted run:

    python3 -m ibswrun.report DIR

The formats are documented in Documentation/experiments.md.
"""

import csv
import json
import os
import sys

from . import plot, stats
from .scenario import DATA_COUNTERS, fmt_time

SCHEMA = 1
WORD_BITS = 32		# PortXmitData/PortRcvData count 32-bit words
GBPS = 1e9


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
    windows = {k: tuple(v) for k, v in (sc.get('windows') or {}).items()}
    if 'run' not in windows:
        windows = {'run': (0.0, sc.get('duration') or 0.0), **windows}
    header, cols = read_samples(os.path.join(directory, 'samples.csv'))
    times = cols.get('t', [])
    walls = cols.get('wall', [])

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
        info['exit'] = run_flow.get('exit')
        info['source_port'] = (run.get('sources') or {}).get(name)
        info['windows'] = _window_stats(pts, windows)
        flows[name] = info

    fairness = {}
    for fs in sc.get('fairness', []):
        jain = {}
        for w in fs['windows']:
            means = [flows[f]['windows'][w]['mean'] if f in flows and w in windows else None
                     for f in fs['flows']]
            jain[w] = stats.jain(means)
        fairness[fs['name']] = {'flows': fs['flows'], 'jain': jain}

    counters = {}
    for key, pts in zip(counter_keys, counter_pts):
        sw, port, name, vl = counter_parts(key)
        counters[rate_key(key)] = {
            'switch': sw, 'port': int(port) if port.isdigit() else port, 'counter': name,
            'vl': vl, 'unit': rate_unit(name), 'windows': _window_stats(pts, windows)}

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
        'windows': {w: {'start': a, 'stop': b} for w, (a, b) in windows.items()},
        'flows': flows,
        'fairness': fairness,
        'counters': counters,
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


def _plots(directory, summary, counter_keys):
    """throughput.png and counters.png; errors go to the summary."""
    title = f"{summary['name']}: CC {summary['cc']}, time scale {summary['scale']}"
    if summary['interrupted']:
        title += ' (interrupted)'
    windows = {w: (v['start'], v['stop']) for w, v in summary['windows'].items()}
    end = max(summary['duration'] or 0.0, summary['planned_duration'] or 0.0) or 1.0
    jobs = []
    if summary['flows'] and summary['samples'] >= 2:
        # Each flow from one interval before its start (the rise shows) to
        # one after its stop (the fall).
        step = summary['sample'] or 0.0
        ranges = [(max(f['start'] - step, 0.0), f['stop'] + step) if f.get('start') is not None
                  else None for f in summary['flows'].values()]
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
    labels = []
    for name, f in summary['flows'].items():
        route = f" {f['src']}->{f['dst']}" if f.get('dst') else (
            f" on {f['src']}" if f.get('src') else '')
        labels.append(name + route)
    labels += list(summary['fairness'])
    first = max([len(s) for s in labels] + [len('mean Gb/s')])
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
    if not summary['flows']:
        out.append('(no flow samples)')
    return '\n'.join(out) + '\n'


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
