# SPDX-License-Identifier: GPL-2.0
"""Sweeps: one scenario run at every point of a grid of values.

A scenario with "sweep NAME VALUE..." lines is a sweep. Its other lines
may say ${NAME} wherever a word or part of one goes; the runner runs the
scenario once for every combination of the values (the grid, the first
sweep line varying slowest), each point a run of its own in
DIR/points/ID/ (ID: "NAME=VALUE,..."), and then tabulates and plots the
points' summaries side by side (sweep.csv, sweep.txt, sweep.png). Every
point is checked before anything runs, its errors at the sweep file's
line. A line "when NAME=VALUE[,VALUE...] LINE" is LINE at the points
where NAME has one of those values and a comment at the others: the
points of a figure that differ by more than a value (seed 002's Fig. 9:
no congestion is no contributors). "plot SERIES... [logx] [logy] [evenx]"
chooses what sweep.png draws (FLOW:WINDOW, FLOW:WINDOW:payload); when
the last sweep line's values are numbers, sweep.png draws them along x,
a line per combination of the other lines' values, and sweep-sum.png and
sweep-var.png draw the fairness sets' sums and treatment variations the
same way (seed 002's Figs. 12 and 14), sweep-completion.png the
fixed-size flows' completion times (seed 000's Fig. 4a); "evenx" spaces
the values evenly instead. "timelines POINT..." draws timelines.png: the
named points' flows against time, a panel each (seed 002's Fig. 10, CC
off and on; seed 000's Fig. 3). A sweep stopped part way goes on with
--resume: points whose run ended are kept (the plot and timelines lines
may change).
--only NAME=VALUE[,VALUE...] runs only the points with those values (a
long grid run in parts: the table has every point, those not run empty).

Pure logic: no VM, no fabric; ibsw-run drives the runs.
"""

import csv
import hashlib
import itertools
import json
import os
import re
import shlex

from . import plot, report, scenario
from .scenario import ScenarioError

SCHEMA = 1
NAME_RE = re.compile(r'[A-Za-z_][A-Za-z0-9_]*\Z')
# a value becomes part of a directory name and of a scenario's words
VALUE_RE = re.compile(r'[A-Za-z0-9_.:+-]+\Z')
REF_RE = re.compile(r'\$\{([^}]*)\}')
# "plot SERIES...": FLOW:WINDOW, FLOW:WINDOW:payload
SERIES_RE = re.compile(r'([A-Za-z0-9_.-]+):([A-Za-z0-9_.-]+)(:payload)?\Z')
# "when NAME=VALUE[,VALUE...] LINE": the condition and the line it keeps
WHEN_RE = re.compile(r'\s*when\s+(\S+)\s+(.*)\Z')
MAX_AXES = 4
MAX_POINTS = 1000
# "repeat N": every point run N times, as a first axis of this name
REPEAT_AXIS = 'run'
MAX_REPEAT = 20
# "timelines POINT...": at most this many panels in timelines.png
MAX_TIMELINES = 6
# the lines that only draw: they change no point's run
DRAW_KEYWORDS = ('plot', 'timelines')


class Plot:
    """A plot line: series [(flow, window, payload)], log axes, evenly
    spaced x values (evenx), its line."""

    def __init__(self, series, logx, logy, line, evenx=False):
        self.series, self.logx, self.logy, self.line = series, logx, logy, line
        self.evenx = evenx

    def columns(self):
        """The sweep.csv columns of its series."""
        return [f'{f} {w} payload' if p else f'{f} {w}' for f, w, p in self.series]


class Sweep:
    """A sweep file: its text, the axes [(name, [values], line)], its plot
    line (a Plot, or None), the points its timelines line names (dicts,
    as in points) and the grid of points (each a dict NAME -> VALUE, in
    axis order)."""

    def __init__(self, path, text, axes, plot_line=None, timelines=None):
        self.path, self.text, self.axes, self.plot = path, text, axes, plot_line
        self.timelines = timelines or []
        self.points = [dict(zip([a[0] for a in axes], vals))
                       for vals in itertools.product(*[a[1] for a in axes])]

    def digest(self):
        """Identifies what the sweep's points run: its lines' words,
        without comments, blank lines and the plot and timelines lines,
        which only draw (a finished sweep given a new plot line and
        resumed is redrawn). A resumed sweep must be the same."""
        lines = []
        for no, line in enumerate(self.text.split('\n'), 1):
            words = _words(line)
            if words is None:
                words = [line]
            if words and words[0] not in DRAW_KEYWORDS:
                lines.append(' '.join(words))
        return hashlib.sha256('\n'.join(lines).encode('utf-8')).hexdigest()

    def text_digest(self):
        """The whole text's: what sweep.json held before comments and the
        plot line were left out of digest(), still accepted by --resume."""
        return hashlib.sha256(self.text.encode('utf-8')).hexdigest()


def _words(text):
    """A line's words as scenario.py reads them ('#' comments, quotes);
    None where scenario.py would refuse the line (it says why later)."""
    try:
        lex = shlex.shlex(text, posix=True)
        lex.whitespace_split = True
        lex.commenters = '#'
        return list(lex)
    except ValueError:
        return None


def read(path, text=None):
    """The Sweep of a scenario file, or None when it has no sweep line.
    Raise ScenarioError (FILE:LINE: reason) for a bad sweep line, a
    ${NAME} no sweep line defines, or a sweep line nothing uses."""
    if text is None:
        try:
            with open(path, encoding='utf-8') as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            reason = getattr(e, 'strerror', None) or str(e)
            raise ScenarioError(path, None, f'cannot read: {reason}') from e
    lines = text.split('\n')
    axes, used, refs, whens, plot_line, repeat = [], set(), [], [], None, None
    timelines = None
    for no, line in enumerate(lines, 1):
        words = _words(line)
        if not words:
            continue
        if words[0] == 'repeat':
            if repeat:
                raise ScenarioError(path, no, f"'repeat' given twice (first at line "
                                    f'{repeat[2]})')
            repeat = (REPEAT_AXIS, _repeat(path, no, words), no)
            continue
        if words[0] == 'plot':
            if plot_line:
                raise ScenarioError(path, no, f"'plot' given twice (first at line "
                                    f'{plot_line.line})')
            plot_line = _plot(path, no, words)
            continue
        if words[0] == 'timelines':
            if timelines:
                raise ScenarioError(path, no, "'timelines' given twice (first at line "
                                    f'{timelines[0]})')
            timelines = (no, words[1:])
            continue
        if words[0] == 'when':
            cond = _when(path, no, line, words)
            whens.append((no, cond))
            if not words[2:] or words[2] in ('sweep', 'when') + DRAW_KEYWORDS:
                raise ScenarioError(path, no, "'when' takes a condition and a scenario line "
                                    '(when NAME=VALUE[,VALUE...] LINE)')
        if words[0] != 'sweep':
            refs += [(no, m.group(1)) for w in words for m in REF_RE.finditer(w)]
            continue
        if len(words) < 3:
            raise ScenarioError(path, no, "'sweep' takes a name and at least one value "
                                "(sweep NAME VALUE...)")
        name, values = words[1], words[2:]
        if name == REPEAT_AXIS:
            raise ScenarioError(path, no, f"sweep name '{name}' is repeat's (repeat N runs "
                                'every point N times)')
        if not NAME_RE.match(name):
            raise ScenarioError(path, no, f"sweep name '{name}': letters, digits and _, "
                                'not starting with a digit')
        for n, vals, first in axes:
            if n == name:
                raise ScenarioError(path, no, f"sweep '{name}' given twice (first at line "
                                    f'{first})')
        for v in values:
            if not VALUE_RE.match(v):
                raise ScenarioError(path, no, f"sweep {name}: value '{v}': letters, digits "
                                    'and . : + - _ only')
        dup = sorted({v for v in values if values.count(v) > 1})
        if dup:
            raise ScenarioError(path, no, f"sweep {name}: value {dup[0]} given twice")
        axes.append((name, values, no))
    if repeat:
        # the slowest axis: each run a whole grid, used by no line
        axes.insert(0, repeat)
        used.add(REPEAT_AXIS)
    if not axes:
        for no, name in refs:
            raise ScenarioError(path, no, f'${{{name}}} but no sweep line defines {name}')
        for no, _ in whens:
            raise ScenarioError(path, no, "'when' but no sweep line: it chooses the "
                                "lines of a sweep's points")
        if plot_line:
            raise ScenarioError(path, plot_line.line, "'plot' but no sweep line: it "
                                "chooses what a sweep's sweep.png draws")
        if timelines:
            raise ScenarioError(path, timelines[0], "'timelines' but no sweep line: it "
                                "chooses the points a sweep's timelines.png draws")
        return None
    names = {a[0] for a in axes}
    for no, name in refs:
        if name not in names:
            raise ScenarioError(path, no, f"${{{name}}}: no sweep line defines '{name}' "
                                f"({' '.join(a[0] for a in axes)})")
        used.add(name)
    values = {a[0]: a[1] for a in axes}
    for no, (name, vals) in whens:
        if name not in names:
            raise ScenarioError(path, no, f"when {name}: no sweep line defines '{name}' "
                                f"({' '.join(a[0] for a in axes)})")
        for v in vals:
            if v not in values[name]:
                raise ScenarioError(path, no, f"when {name}={v}: {v} is not a value of "
                                    f"sweep {name} ({' '.join(values[name])})")
        used.add(name)
    for name, _, no in axes:
        if name not in used:
            raise ScenarioError(path, no, f'sweep {name}: no line uses ${{{name}}}')
    lines_only = axes[1:] if repeat else axes
    if len(lines_only) > MAX_AXES:
        raise ScenarioError(path, lines_only[MAX_AXES][2], f'more than {MAX_AXES} sweep lines')
    n = 1
    for _, values, _ in axes:
        n *= len(values)
    if n > MAX_POINTS:
        raise ScenarioError(path, axes[-1][2], f'the grid has {n} points, more than '
                            f'{MAX_POINTS}')
    return Sweep(path, text, axes, plot_line,
                 _timelines(path, *timelines, axes) if timelines else None)


def _repeat(path, no, words):
    """The run numbers of a repeat line, '1' to N."""
    if len(words) != 2 or not words[1].isdigit() or not 2 <= int(words[1]) <= MAX_REPEAT:
        raise ScenarioError(path, no, f"'repeat' takes a number of runs, 2 to {MAX_REPEAT} "
                            '(repeat N)')
    return [str(i) for i in range(1, int(words[1]) + 1)]


def _plot(path, no, words):
    """The Plot of a plot line."""
    series, opts = [], set()
    for w in words[1:]:
        if w in ('logx', 'logy', 'evenx'):
            opts.add(w)
            continue
        m = SERIES_RE.match(w)
        if not m:
            raise ScenarioError(path, no, f"plot: '{w}' is no series (FLOW:WINDOW or "
                                'FLOW:WINDOW:payload) and no logx, logy or evenx')
        series.append((m.group(1), m.group(2), bool(m.group(3))))
    if not series:
        raise ScenarioError(path, no, "'plot' takes at least one series (plot FLOW:WINDOW"
                            '[:payload]... [logx] [logy] [evenx])')
    if {'logx', 'evenx'} <= opts:
        raise ScenarioError(path, no, "plot: logx and evenx exclude each other (evenx: "
                            "the values evenly spaced along x)")
    return Plot(series, 'logx' in opts, 'logy' in opts, no, evenx='evenx' in opts)


def _timelines(path, no, specs, axes):
    """The points of a timelines line: each NAME=VALUE,... naming every
    axis once with one of its values (a point's ID, the names in any
    order)."""
    usage = ("'timelines' takes the points to draw, each NAME=VALUE,... with a value "
             "of every sweep line (timelines POINT...)")
    if not specs:
        raise ScenarioError(path, no, usage)
    if len(specs) > MAX_TIMELINES:
        raise ScenarioError(path, no, f'timelines: {len(specs)} points, more than '
                            f'{MAX_TIMELINES} panels')
    values = {n: v for n, v, _ in axes}
    points = []
    for spec in specs:
        given = {}
        for part in spec.split(','):
            name, eq, value = part.partition('=')
            if not eq or not name or not value:
                raise ScenarioError(path, no, f"timelines: '{spec}' is no point "
                                    '(NAME=VALUE,...)')
            if name not in values:
                raise ScenarioError(path, no, f"timelines {spec}: no sweep line defines "
                                    f"'{name}' ({' '.join(values)})")
            if name in given:
                raise ScenarioError(path, no, f'timelines {spec}: {name} given twice')
            if value not in values[name]:
                raise ScenarioError(path, no, f'timelines {spec}: {value} is not a value of '
                                    f"sweep {name} ({' '.join(values[name])})")
            given[name] = value
        missing = [n for n in values if n not in given]
        if missing:
            raise ScenarioError(path, no, f"timelines {spec}: no value for '{missing[0]}' "
                                '(a point names every sweep line)')
        point = {n: given[n] for n in values}
        if point in points:
            raise ScenarioError(path, no, f'timelines: {point_id(point)} given twice')
        points.append(point)
    return points


def _when(path, no, line, words):
    """(NAME, [VALUE...]) of a when line's condition."""
    name, eq, vals = words[1].partition('=') if len(words) > 1 else ('', '', '')
    vals = vals.split(',')
    if not eq or not NAME_RE.match(name) or not all(VALUE_RE.match(v) for v in vals) \
            or not WHEN_RE.match(line):
        raise ScenarioError(path, no, "'when' takes a condition and a scenario line "
                            '(when NAME=VALUE[,VALUE...] LINE)')
    return name, vals


def parse_only(sw, specs):
    """The points that --only NAME=VALUE[,VALUE...] options choose, as a
    dict NAME -> set of values (a point is chosen when it has one of the
    values of every name given; no option chooses every point). Raise
    ValueError saying why for a name no sweep line has, a value its line
    does not list, or a name given twice."""
    values = {n: v for n, v, _ in sw.axes}
    only = {}
    for spec in specs:
        name, eq, vals = spec.partition('=')
        if not eq or not name or not vals:
            raise ValueError(f"--only {spec}: NAME=VALUE[,VALUE...]")
        if name not in values:
            raise ValueError(f"--only {spec}: no sweep line defines '{name}' "
                             f"({' '.join(values)})")
        if name in only:
            raise ValueError(f'--only {spec}: {name} given twice')
        chosen = vals.split(',')
        for v in chosen:
            if v not in values[name]:
                raise ValueError(f'--only {spec}: {v} is not a value of sweep {name} '
                                 f"({' '.join(values[name])})")
        only[name] = set(chosen)
    return only


def chosen(point, only):
    """True when --only's choice (parse_only()) takes the point."""
    return all(point[n] in vals for n, vals in only.items())


def point_id(point):
    """The point's name and directory: 'marking_rate=8,ccti_timer=150'."""
    return ','.join(f'{k}={v}' for k, v in point.items())


def render(sw, point):
    """The scenario of one point: sweep lines, and when lines whose
    condition the point does not meet, made comments (the line numbers
    stay the sweep file's), the other when lines' conditions taken off,
    and every ${NAME} replaced."""
    out = []
    for line in sw.text.split('\n'):
        words = _words(line)
        if words and words[0] == 'when':
            name, vals = words[1].split('=', 1)
            if point[name] not in vals.split(','):
                out.append('# ' + line)
                continue
            line = WHEN_RE.match(line).group(2)
        if words and words[0] in ('sweep', 'repeat') + DRAW_KEYWORDS:
            out.append('# ' + line)
        else:
            # (a ${...} in a comment that is no sweep name stays)
            out.append(REF_RE.sub(lambda m: point.get(m.group(1), m.group(0)), line))
    return '\n'.join(out)


def load_point(sw, point):
    """The Scenario of one point, checked; a ScenarioError names the line
    of the sweep file and the point."""
    try:
        return scenario.load(sw.path, warn=None, text=render(sw, point))
    except ScenarioError as e:
        raise ScenarioError(e.path, e.line, f'{e.reason} (sweep point {point_id(point)})') \
            from e


def load_all(sw):
    """Every point's Scenario, in grid order: one bad point stops all, and
    so does a plot series whose flow or window no point has."""
    scs = [load_point(sw, p) for p in sw.points]
    for f, w, payload in (sw.plot.series if sw.plot else []):
        if not any(f in [fl.name for fl in sc.flows] for sc in scs):
            raise ScenarioError(sw.path, sw.plot.line, f'plot {f}:{w}: no point has a flow {f}')
        if not any(w in sc.windows for sc in scs):
            raise ScenarioError(sw.path, sw.plot.line, f'plot {f}:{w}: no point has a '
                                f'window {w}')
        if payload and not any(fl.verb in ('write', 'send') for sc in scs for fl in sc.flows
                               if fl.name == f):
            raise ScenarioError(sw.path, sw.plot.line, f'plot {f}:{w}:payload: {f} is a '
                                'read (its payload goes the other way): no payload')
    return scs


# ------------------------------------------------------------- the results

def point_dir(outdir, point):
    return os.path.join(outdir, 'points', point_id(point))


def point_state(pdir):
    """'done' when the point's run ended and was reported (kept by a
    resumed sweep); 'interrupted', 'failed' or 'not run' otherwise (run
    again). A run whose flow did not start is 'failed'."""
    try:
        with open(os.path.join(pdir, 'summary.json'), encoding='utf-8') as f:
            s = json.load(f)
    except (OSError, ValueError):
        return 'not run' if not os.path.exists(pdir) else 'failed'
    if s.get('interrupted'):
        return 'interrupted'
    if s.get('error') or (s.get('schedule') or {}).get('not_started'):
        return 'failed'
    return 'done'


def state_file(outdir):
    return os.path.join(outdir, 'sweep.json')


def write_state(outdir, sw, states):
    """sweep.json: the sweep's file, digest, axes and each point's state."""
    d = {'schema': SCHEMA, 'scenario': os.path.abspath(sw.path), 'digest': sw.digest(),
         'axes': [{'name': n, 'values': v} for n, v, _ in sw.axes],
         'points': [{'id': point_id(p), 'values': p, 'state': states.get(point_id(p), 'not run')}
                    for p in sw.points]}
    tmp = state_file(outdir) + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        json.dump(d, f, indent=1)
        f.write('\n')
    os.replace(tmp, state_file(outdir))


def check_resume(outdir, sw):
    """None when outdir holds this sweep (same text), else why not."""
    try:
        with open(state_file(outdir), encoding='utf-8') as f:
            d = json.load(f)
    except FileNotFoundError:
        return f'{outdir} holds no sweep (no sweep.json)'
    except (OSError, ValueError) as e:
        return f'{state_file(outdir)}: {e}'
    if d.get('digest') not in (sw.digest(), sw.text_digest()):
        return (f'{outdir} holds another sweep, or {sw.path} changed since '
                f"(it ran {d.get('scenario')})")
    return None


def _summary(outdir, point):
    try:
        with open(os.path.join(point_dir(outdir, point), 'summary.json'),
                  encoding='utf-8') as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def table(outdir, sw):
    """(columns, rows) of the sweep: the point's values, its state, then
    each flow's mean throughput (Gb/s) in each window but the whole run,
    each write or send flow's payload throughput (Gb/s, "F W payload"),
    each fairness set's Jain index, sum (Gb/s) and treatment variation
    (seed 002's Var, (Gb/s)^2), and each fixed-size flow's completion
    time (emulated s), from the points' summaries (None where a point has
    none)."""
    sums = [_summary(outdir, p) for p in sw.points]
    windows, flows, fair, fixed, payload = [], [], [], [], []
    for s in sums:
        if not s:
            continue
        for w in s.get('windows', {}):
            if w not in windows:
                windows.append(w)
        for f, v in s.get('flows', {}).items():
            if f not in flows:
                flows.append(f)
            if v.get('payload_fraction') and f not in payload:
                payload.append(f)
            if v.get('completion') and f not in fixed:
                fixed.append(f)
        for f, v in s.get('fairness', {}).items():
            for w in v.get('jain') or {}:		# the set's own windows
                if (f, w) not in fair:
                    fair.append((f, w))
    if len(windows) > 1:
        windows.remove('run')
    cols = ['point'] + [a[0] for a in sw.axes] + ['state']
    cols += [f'{f} {w}' for w in windows for f in flows]
    payload = [f for f in flows if f in payload]
    cols += [f'{f} {w} payload' for w in windows for f in payload]
    fair = [(f, w) for w in windows for f, fw in fair if fw == w]
    cols += [f'jain {f} {w}' for f, w in fair]
    cols += [f'sum {f} {w}' for f, w in fair]
    cols += [f'var {f} {w}' for f, w in fair]
    cols += [f'{f} completion s' for f in fixed]
    rows = []
    for p, s in zip(sw.points, sums):
        row = [point_id(p)] + list(p.values()) + [point_state(point_dir(outdir, p))]
        for key, names in (('mean', flows), ('payload', payload)):
            for w in windows:
                for f in names:
                    fw = (((s or {}).get('flows') or {}).get(f) or {}).get('windows') or {}
                    row.append((fw.get(w) or {}).get(key))
        for key in ('jain', 'total', 'variation'):
            for f, w in fair:
                v = ((((s or {}).get('fairness') or {}).get(f) or {}).get(key) or {}).get(w)
                row.append(v.get('var') if isinstance(v, dict) else v)
        for f in fixed:
            row.append(((((s or {}).get('flows') or {}).get(f) or {}).get('completion')
                        or {}).get('time'))
        rows.append(row)
    return cols, rows


def share_tables(outdir, sw):
    """Seed 002's Fig. 8 for a sweep: per fairness set, each flow's share
    of the set's total throughput at every point, in the set's last
    window. [(set, window, flows, rows)], rows [point id, share...] with
    None where a point has none."""
    sums = [_summary(outdir, p) for p in sw.points]
    sets = {}
    for s in sums:
        for name, fs in ((s or {}).get('fairness') or {}).items():
            if name not in sets and fs.get('shares'):
                sets[name] = (list(fs['shares'])[-1], fs['flows'])
    out = []
    for name, (window, flows) in sets.items():
        rows = []
        for p, s in zip(sw.points, sums):
            sh = (((((s or {}).get('fairness') or {}).get(name) or {}).get('shares') or {})
                  .get(window)) or {}
            rows.append([point_id(p)] + [sh.get(f) for f in flows])
        out.append((name, window, flows, rows))
    return out


def runs_table(sw, cols, rows):
    """A repeated sweep's runs side by side: (columns, rows), a row per
    point of the other axes with each measured column's mean, min and max
    over the runs that have it; None when the sweep has no repeat line."""
    if sw.axes[0][0] != REPEAT_AXIS:
        return None
    nruns = len(sw.axes[0][1])
    first = len(sw.axes) + 2		# point, the axes, state
    measured = cols[first:]
    out_cols = ['point'] + [a[0] for a in sw.axes[1:]] + ['runs']
    out_cols += [f'{c} {stat}' for c in measured for stat in ('mean', 'min', 'max')]
    per_run = len(rows) // nruns
    out_rows = []
    for i in range(per_run):
        same = [rows[r * per_run + i] for r in range(nruns)]
        point = dict(list(sw.points[i].items())[1:])
        row = [point_id(point) if point else 'all'] + list(point.values())
        row.append(sum(1 for r in same if r[first - 1] == 'done'))
        for j in range(first, len(cols)):
            vals = [r[j] for r in same if isinstance(r[j], (int, float))]
            row += [sum(vals) / len(vals), min(vals), max(vals)] if vals else [None] * 3
        out_rows.append(row)
    return out_cols, out_rows


def _cell(v):
    if v is None:
        return '-'
    if isinstance(v, float):
        # three significant digits below 0.1 (a 1-byte flow's payload,
        # a variance in (Gb/s)^2), three decimals above
        return f'{v:.3g}' if 0 < abs(v) < 0.1 else f'{v:.3f}'
    return str(v)


def text_table(cols, rows):
    """The table as aligned text (sweep.txt); throughputs in Gb/s."""
    cells = [cols] + [[_cell(v) for v in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(cols))]
    lines = ['  '.join(c.rjust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, '  '.join('-' * w for w in widths))
    return '\n'.join(lines) + '\n'


def _write_csv(path, cols, rows):
    """A table as CSV: a header, then the rows, None as an empty cell."""
    with open(path, 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(cols)
        w.writerows([['' if v is None else v for v in r] for r in rows])


def write(outdir, sw, plots=True):
    """sweep.csv, sweep.txt, shares-SET.csv per fairness set, with repeat
    sweep-runs.csv and sweep-runs.txt, and (with gnuplot) sweep.png and
    shares.png; return the text table and a list of plot errors."""
    cols, rows = table(outdir, sw)
    _write_csv(os.path.join(outdir, 'sweep.csv'), cols, rows)
    text = text_table(cols, rows)
    with open(os.path.join(outdir, 'sweep.txt'), 'w', encoding='utf-8') as f:
        f.write(text)
    runs = runs_table(sw, cols, rows)
    if runs:
        _write_csv(os.path.join(outdir, 'sweep-runs.csv'), *runs)
        runs_text = text_table(*runs)
        with open(os.path.join(outdir, 'sweep-runs.txt'), 'w', encoding='utf-8') as f:
            f.write(runs_text)
        text += '\nacross the runs (sweep-runs.csv)\n' + runs_text
    errors = []
    shares = share_tables(outdir, sw)
    for name, window, flows, srows in shares:
        _write_csv(os.path.join(outdir, f'shares-{name}.csv'), ['point'] + flows, srows)
    if plots and shares and rows:
        try:
            plot.shares(outdir, [(f'shares-{n}.csv', f'{n} in {w}', fl)
                                 for n, w, fl, _ in shares],
                        f'{os.path.basename(sw.path)}: shares of the throughput')
        except plot.PlotError as e:
            errors.append(str(e))
    if plots and rows:
        try:
            _plot_sweep(outdir, sw, cols)
            _plot_curves(outdir, sw, cols)
        except plot.PlotError as e:
            errors.append(str(e))
    if plots and sw.timelines:
        try:
            _plot_timelines(outdir, sw)
        except plot.PlotError as e:
            errors.append(str(e))
    return text, errors


def timeline_panels(outdir, sw):
    """What timelines.png draws: (panels as plot.timelines takes them,
    the emulated time the x axis spans, the highest throughput), a panel
    per point of the timelines line whose run left its throughput.csv and
    summary.json (a point not run yet is left out); None when none did.
    A flow has one colour in every panel and is drawn where
    throughput.png draws it (report.flow_span)."""
    panels, colours, end, top = [], {}, 0.0, 0.0
    for p in sw.timelines:
        pid = point_id(p)
        csv_path = os.path.join('points', pid, 'throughput.csv')
        try:
            with open(os.path.join(point_dir(outdir, p), 'summary.json'),
                      encoding='utf-8') as f:
                summary = json.load(f)
        except (OSError, ValueError):
            continue
        header, cols = report.read_samples(os.path.join(outdir, csv_path))
        if header[:1] != ['t'] or len(cols['t']) < 2:
            continue
        top = max([top] + [v for name in header[1:] for v in cols[name] if v is not None])
        step = summary.get('sample') or 0.0
        flows = []
        for col, name in enumerate(header[1:], 2):
            colours.setdefault(name, len(colours))
            span = report.flow_span((summary.get('flows') or {}).get(name) or {}, step)
            flows.append((col, name, colours[name], span))
        windows = {w: (v['start'], v['stop'])
                   for w, v in (summary.get('windows') or {}).items()
                   if v.get('start') is not None and v.get('stop') is not None}
        end = max(end, summary.get('duration') or 0.0, summary.get('planned_duration') or 0.0)
        panels.append((pid, csv_path, windows, flows))
    return (panels, end or 1.0, top) if panels else None


def _plot_timelines(outdir, sw):
    """timelines.png, when a point of the timelines line has run."""
    drawn = timeline_panels(outdir, sw)
    if drawn:
        panels, end, top = drawn
        plot.timelines(outdir, panels, end,
                       f'{os.path.basename(sw.path)}: throughput against time',
                       ymax=top * 1.08 if top > 0 else None)


def _number(v):
    try:
        return float(v)
    except ValueError:
        return None


def curves(sw):
    """When the last axis's values are all numbers (and more than one):
    (the values, [(first row, last row, label)]), a block of sweep.csv's
    rows per combination of the other axes' values (the last axis varies
    fastest); else None."""
    name, values, _ = sw.axes[-1]
    if len(values) < 2 or any(_number(v) is None for v in values):
        return None
    n = len(values)
    blocks = []
    for i in range(0, len(sw.points), n):
        p = sw.points[i]
        label = ','.join(f'{k}={v}' for k, v in p.items() if k != name)
        blocks.append((i, i + n - 1, label))
    return [_number(v) for v in values], blocks


def _plot_sweep(outdir, sw, cols):
    """sweep.png: the plot line's series, else every flow's mean in every
    window; against the last axis's values where they are numbers."""
    if sw.plot:
        names = [c for c in sw.plot.columns() if c in cols]
    else:
        first = len(sw.axes) + 2		# point, the axes, state
        names = [c for c in cols[first:] if not c.startswith(('jain ', 'sum ', 'var '))
                 and not c.endswith(' completion s') and not c.endswith(' payload')]
    if not names:
        return
    series = [(cols.index(c) + 1, c) for c in names]
    title = f'{os.path.basename(sw.path)}: mean throughput per point'
    payload = sw.plot and all(p for _, _, p in sw.plot.series)
    ylabel = ('Mean payload throughput (emulated Gb/s)' if payload
              else 'Mean throughput (emulated Gb/s)')
    cv = curves(sw)
    if cv is None:
        plot.sweep(outdir, series, title, ylabel=ylabel,
                   logy=bool(sw.plot and sw.plot.logy))
        return
    values, blocks = cv
    name = sw.axes[-1][0]
    plot.sweep_curves(outdir, cols.index(name) + 1, name, blocks, series, title, ylabel=ylabel,
                      logy=bool(sw.plot and sw.plot.logy), **_xaxis(sw, values))


def _xaxis(sw, values):
    """How the curves' x axis shows the last axis's values: evenly spaced
    when the plot line says evenx, else logarithmic when it says logx or
    they span a factor of 100 or more."""
    if sw.plot and sw.plot.evenx:
        return {'evenx': True}
    return {'logx': bool(sw.plot and sw.plot.logx) or
            (min(values) > 0 and max(values) >= 100 * min(values))}


# The fairness sets' and fixed-size flows' plots: column prefix or suffix
# -> (file, what, y label)
CURVE_PLOTS = {
    'sum ': ('sweep-sum', "each fairness set's summed throughput",
             'Sum of the mean throughputs (emulated Gb/s)'),
    'var ': ('sweep-var', "each fairness set's treatment variation",
             'Var of the gap, fastest to slowest ((emulated Gb/s)^2)'),
    ' completion s': ('sweep-completion', "each fixed-size flow's completion time",
                      'Completion time (emulated s)'),
}


def _plot_curves(outdir, sw, cols):
    """sweep-sum.png, sweep-var.png and sweep-completion.png, when the
    points have fairness sets or fixed-size flows and the last axis's
    values are numbers: each set's sum and treatment variation per window,
    each fixed-size flow's completion time, against them, a line per
    combination of the other axes' values (seed 002's Figs. 12 and 14,
    seed 000's Fig. 4)."""
    cv = curves(sw)
    if cv is None:
        return
    values, blocks = cv
    name = sw.axes[-1][0]
    for key, (png, what, ylabel) in CURVE_PLOTS.items():
        if key.startswith(' '):
            series = [(i + 1, c[:-len(key)]) for i, c in enumerate(cols) if c.endswith(key)]
        else:
            series = [(i + 1, c[len(key):]) for i, c in enumerate(cols) if c.startswith(key)]
        if series:
            plot.sweep_curves(outdir, cols.index(name) + 1, name, blocks, series,
                              f'{os.path.basename(sw.path)}: {what}', ylabel=ylabel,
                              name=png, what=what, **_xaxis(sw, values))
