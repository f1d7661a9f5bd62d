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
no congestion is no contributors). A sweep stopped part way goes on
with --resume: points whose run ended are kept.

Pure logic: no VM, no fabric; ibsw-run drives the runs.
"""

import csv
import hashlib
import itertools
import json
import os
import re
import shlex

from . import plot, scenario
from .scenario import ScenarioError

SCHEMA = 1
NAME_RE = re.compile(r'[A-Za-z_][A-Za-z0-9_]*\Z')
# a value becomes part of a directory name and of a scenario's words
VALUE_RE = re.compile(r'[A-Za-z0-9_.:+-]+\Z')
REF_RE = re.compile(r'\$\{([^}]*)\}')
# "when NAME=VALUE[,VALUE...] LINE": the condition and the line it keeps
WHEN_RE = re.compile(r'\s*when\s+(\S+)\s+(.*)\Z')
MAX_AXES = 4
MAX_POINTS = 1000


class Sweep:
    """A sweep file: its text, the axes [(name, [values], line)] and the
    grid of points (each a dict NAME -> VALUE, in axis order)."""

    def __init__(self, path, text, axes):
        self.path, self.text, self.axes = path, text, axes
        self.points = [dict(zip([a[0] for a in axes], vals))
                       for vals in itertools.product(*[a[1] for a in axes])]

    def digest(self):
        """Identifies the sweep's text: a resumed sweep must be the same."""
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
    axes, used, refs, whens = [], set(), [], []
    for no, line in enumerate(lines, 1):
        words = _words(line)
        if not words:
            continue
        if words[0] == 'when':
            cond = _when(path, no, line, words)
            whens.append((no, cond))
            if not words[2:] or words[2] in ('sweep', 'when'):
                raise ScenarioError(path, no, "'when' takes a condition and a scenario line "
                                    '(when NAME=VALUE[,VALUE...] LINE)')
        if words[0] != 'sweep':
            refs += [(no, m.group(1)) for w in words for m in REF_RE.finditer(w)]
            continue
        if len(words) < 3:
            raise ScenarioError(path, no, "'sweep' takes a name and at least one value "
                                "(sweep NAME VALUE...)")
        name, values = words[1], words[2:]
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
    if not axes:
        for no, name in refs:
            raise ScenarioError(path, no, f'${{{name}}} but no sweep line defines {name}')
        for no, _ in whens:
            raise ScenarioError(path, no, "'when' but no sweep line: it chooses the "
                                "lines of a sweep's points")
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
    if len(axes) > MAX_AXES:
        raise ScenarioError(path, axes[MAX_AXES][2], f'more than {MAX_AXES} sweep lines')
    n = 1
    for _, values, _ in axes:
        n *= len(values)
    if n > MAX_POINTS:
        raise ScenarioError(path, axes[-1][2], f'the grid has {n} points, more than '
                            f'{MAX_POINTS}')
    return Sweep(path, text, axes)


def _when(path, no, line, words):
    """(NAME, [VALUE...]) of a when line's condition."""
    name, eq, vals = words[1].partition('=') if len(words) > 1 else ('', '', '')
    vals = vals.split(',')
    if not eq or not NAME_RE.match(name) or not all(VALUE_RE.match(v) for v in vals) \
            or not WHEN_RE.match(line):
        raise ScenarioError(path, no, "'when' takes a condition and a scenario line "
                            '(when NAME=VALUE[,VALUE...] LINE)')
    return name, vals


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
        if words and words[0] == 'sweep':
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
    """Every point's Scenario, in grid order: one bad point stops all."""
    return [load_point(sw, p) for p in sw.points]


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
    if d.get('digest') != sw.digest():
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
    each fairness set's Jain index, and each fixed-size flow's completion
    time (emulated s), from the points' summaries (None where a point has
    none)."""
    sums = [_summary(outdir, p) for p in sw.points]
    windows, flows, fair, fixed = [], [], [], []
    for s in sums:
        if not s:
            continue
        for w in s.get('windows', {}):
            if w not in windows:
                windows.append(w)
        for f, v in s.get('flows', {}).items():
            if f not in flows:
                flows.append(f)
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
    fair = [(f, w) for w in windows for f, fw in fair if fw == w]
    cols += [f'jain {f} {w}' for f, w in fair]
    cols += [f'{f} completion s' for f in fixed]
    rows = []
    for p, s in zip(sw.points, sums):
        row = [point_id(p)] + list(p.values()) + [point_state(point_dir(outdir, p))]
        for w in windows:
            for f in flows:
                fw = (((s or {}).get('flows') or {}).get(f) or {}).get('windows') or {}
                row.append((fw.get(w) or {}).get('mean'))
        for f, w in fair:
            row.append(((((s or {}).get('fairness') or {}).get(f) or {}).get('jain')
                        or {}).get(w))
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


def _cell(v):
    if v is None:
        return '-'
    if isinstance(v, float):
        return f'{v:.3f}'
    return str(v)


def text_table(cols, rows):
    """The table as aligned text (sweep.txt); throughputs in Gb/s."""
    cells = [cols] + [[_cell(v) for v in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(cols))]
    lines = ['  '.join(c.rjust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, '  '.join('-' * w for w in widths))
    return '\n'.join(lines) + '\n'


def write(outdir, sw, plots=True):
    """sweep.csv, sweep.txt, shares-SET.csv per fairness set and (with
    gnuplot) sweep.png and shares.png; return the text table and a list of
    plot errors."""
    cols, rows = table(outdir, sw)
    with open(os.path.join(outdir, 'sweep.csv'), 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(cols)
        w.writerows([['' if v is None else v for v in r] for r in rows])
    text = text_table(cols, rows)
    with open(os.path.join(outdir, 'sweep.txt'), 'w', encoding='utf-8') as f:
        f.write(text)
    errors = []
    shares = share_tables(outdir, sw)
    for name, window, flows, srows in shares:
        with open(os.path.join(outdir, f'shares-{name}.csv'), 'w', newline='',
                  encoding='utf-8') as f:
            w = csv.writer(f, lineterminator='\n')
            w.writerow(['point'] + flows)
            w.writerows([['' if v is None else v for v in r] for r in srows])
    if plots and shares and rows:
        try:
            plot.shares(outdir, [(f'shares-{n}.csv', f'{n} in {w}', fl)
                                 for n, w, fl, _ in shares],
                        f'{os.path.basename(sw.path)}: shares of the throughput')
        except plot.PlotError as e:
            errors.append(str(e))
    first = len(sw.axes) + 2		# point, the axes, state
    series = [(i + 1, c) for i, c in enumerate(cols)
              if i >= first and not c.startswith('jain ') and not c.endswith(' completion s')]
    if plots and series and rows:
        try:
            plot.sweep(outdir, series, f'{os.path.basename(sw.path)}: mean throughput per point')
        except plot.PlotError as e:
            errors.append(str(e))
    return text, errors
