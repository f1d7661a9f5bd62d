# SPDX-License-Identifier: GPL-2.0
"""gnuplot scripts for the report's figures.

The figures follow the papers' throughput plots: one line per flow against
time, a legend, axes with units, large enough fonts to read when scaled
down. Each script is written next to its PNG (throughput.gp, counters.gp)
and reads the CSV files of the results directory, so a figure can be
restyled and redrawn with "cd DIR && gnuplot throughput.gp".
gnuplot (Debian gnuplot-nox, terminal pngcairo) runs as a subprocess.
"""

import os
import shutil
import subprocess

WIDTH, HEIGHT, PANEL = 1000, 600, 320
FONT = 'sans,13'
# Okabe-Ito colours (distinguishable with colour blindness), then more
COLOURS = ('#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9',
           '#000000', '#8c564b', '#7f7f7f', '#bcbd22', '#17becf', '#9467bd',
           '#1f3a93', '#a50026', '#4d9221', '#f781bf')


class PlotError(RuntimeError):
    """gnuplot is missing or failed."""


def available():
    """Whether gnuplot can be run."""
    return shutil.which('gnuplot') is not None


def _quote(text):
    """A gnuplot single-quoted string ('' is a quote inside)."""
    return "'" + str(text).replace("'", "''") + "'"


def _common(windows, duration):
    """Axis and window-boundary settings shared by every panel."""
    lines = [
        f'set xrange [0:{duration!r}]',
        'set yrange [0:*]',
        'set offsets 0, 0, graph 0.08, 0',	# headroom over the highest line
        'set lmargin at screen 0.11',		# panels aligned whatever the tics
        'set rmargin at screen 0.86',		# the legend goes right of it
        'set format x "%g"',
        'set grid ytics lc rgb "#e0e0e0" lw 1 dt 1',
        'set border 3 lw 1.2',
        'set tics nomirror out',
        'set key outside right top vertical Left reverse samplen 2 spacing 1.2',
    ]
    # Light vertical lines at the windows' edges, the name over the middle.
    edges = sorted({t for name, (a, b) in windows.items() if name != 'run' for t in (a, b)
                    if 0 < t < duration})
    for t in edges:
        lines.append(f'set arrow from {t!r}, graph 0 to {t!r}, graph 1 nohead '
                     'lc rgb "#b0b0b0" lw 1 dt 2 back')
    for name, (a, b) in windows.items():
        if name == 'run':
            continue
        lines.append(f'set label {_quote(name)} at {(a + b) / 2!r}, graph 1.03 center '
                     'font ",10" tc rgb "#707070"')
    return lines


def _series(csv, columns, titles, div=1, ranges=None, colours=None):
    """Plot clauses of columns (1-based) of a CSV file with a header,
    values divided by div, each drawn only within its (start, stop) of
    ranges if given, in the colours of COLOURS' indices colours if given
    (a flow keeps its colour across panels), else in order."""
    parts = []
    for i, (col, title) in enumerate(zip(columns, titles)):
        colour = COLOURS[(colours[i] if colours else i) % len(COLOURS)]
        y = str(col) if div == 1 else f'(${col}/{div:g})'
        if ranges and ranges[i]:
            a, b = ranges[i]
            y = f'(($1 >= {a!r} && $1 <= {b!r}) ? ${col} : NaN)'
        parts.append(f'{_quote(csv)} skip 1 using 1:{y} with lines lw 2.2 '
                     f'lc rgb "{colour}" title {_quote(title)}')
    return 'plot ' + ', \\\n     '.join(parts)


def _run(directory, name, script):
    """Write NAME.gp in directory and run it there; return the PNG path."""
    gp = os.path.join(directory, name + '.gp')
    with open(gp, 'w', encoding='utf-8') as f:
        f.write(script)
    if not available():
        raise PlotError('gnuplot not found (Debian package gnuplot-nox)')
    png = os.path.join(directory, name + '.png')
    try:
        os.unlink(png)
    except FileNotFoundError:
        pass
    try:
        r = subprocess.run(['gnuplot', name + '.gp'], cwd=directory, capture_output=True,
                           text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        raise PlotError(f'gnuplot {gp}: {e}') from e
    if r.returncode != 0 or not os.path.exists(png):
        raise PlotError(f'gnuplot {gp} failed: {r.stderr.strip()[-500:]}')
    return png


def throughput(directory, flows, windows, duration, title, ranges=None):
    """throughput.png from throughput.csv (t, then one column per flow in
    the order of flows). ranges: per flow, None or the (start, stop) of
    emulated time to draw it in, so that a flow that has not started yet
    is not a line along the axis hiding the others."""
    script = [
        '# SPDX-License-Identifier: GPL-2.0',
        '# Per-flow throughput of an ibsw-run experiment; redraw: gnuplot throughput.gp',
        f'set terminal pngcairo size {WIDTH},{HEIGHT} enhanced font "{FONT}" '
        'linewidth 1 rounded',
        "set output 'throughput.png'",
        'set datafile separator comma',
        f'set title {_quote(title)} noenhanced',
        "set xlabel 'Time (emulated s)'",
        "set ylabel 'Throughput (emulated Gb/s)'",
        'set key noenhanced',
        'set tmargin 4',
    ]
    script += _common(windows, duration)
    script.append(_series('throughput.csv', range(2, len(flows) + 2), flows, ranges=ranges))
    return _run(directory, 'throughput', '\n'.join(script) + '\n')


def timelines(directory, panels, duration, title, ymax=None):
    """timelines.png: a panel per sweep point, its flows' throughput
    against time, on the same axes (seed 002's Fig. 10, CC off above CC
    on). panels: [(panel title, the point's throughput.csv relative to
    directory, its windows {name: (start, stop)}, its flows [(column,
    flow, colour index, (start, stop) or None)])]; ymax, the y axis's
    top (every panel the same), else each its own."""
    script = [
        '# SPDX-License-Identifier: GPL-2.0',
        "# Sweep points' throughput against time; redraw: gnuplot timelines.gp",
        f'set terminal pngcairo size {WIDTH},{max(HEIGHT, PANEL * len(panels) + 80)} '
        f'enhanced font "{FONT}" linewidth 1 rounded',
        "set output 'timelines.png'",
        'set datafile separator comma',
        'set key noenhanced',
        "set ylabel 'Throughput (emulated Gb/s)'",
        f'set multiplot layout {len(panels)},1 title {_quote(title)} noenhanced',
    ]
    for i, (name, csv, windows, flows) in enumerate(panels):
        script += ['unset arrow', 'unset label', f'set title {_quote(name)} noenhanced',
                   "set xlabel 'Time (emulated s)'" if i == len(panels) - 1 else 'unset xlabel']
        script += _common(windows, duration)
        if ymax:
            script.append(f'set yrange [0:{ymax!r}]')
        script.append(_series(csv, [c for c, _, _, _ in flows], [f for _, f, _, _ in flows],
                              ranges=[r for _, _, _, r in flows],
                              colours=[k for _, _, k, _ in flows]))
    script.append('unset multiplot')
    return _run(directory, 'timelines', '\n'.join(script) + '\n')


def counters(directory, panels, windows, duration, title):
    """counters.png from counters.csv: one panel per counter name.

    panels: [(counter name, unit, peak, [(column, line title)...])],
    columns 1-based in counters.csv; peak, the largest value, chooses a
    multiplier for the axis (ticks/s in millions rather than 1x10^6)."""
    height = max(HEIGHT, PANEL * len(panels) + 80)
    script = [
        '# SPDX-License-Identifier: GPL-2.0',
        '# Switch counter rates of an ibsw-run experiment; redraw: gnuplot counters.gp',
        f'set terminal pngcairo size {WIDTH},{height} enhanced font "{FONT}" '
        'linewidth 1 rounded',
        "set output 'counters.png'",
        'set datafile separator comma',
        'set key noenhanced',
        f'set multiplot layout {len(panels)},1 title {_quote(title)} noenhanced',
    ]
    script += _common(windows, duration)
    for i, (name, unit, peak, series) in enumerate(panels):
        div, label = 1, unit
        for d, word in ((1e9, 'billions'), (1e6, 'millions'), (1e3, 'thousands')):
            if peak and peak >= 10 * d:
                div, label = d, f'{unit} ({word})'
                break
        script.append(f'set title {_quote(name)} noenhanced')
        script.append(f'set ylabel {_quote(label)} noenhanced')
        last = i == len(panels) - 1
        script.append("set xlabel 'Time (emulated s)'" if last else 'unset xlabel')
        script.append(_series('counters.csv', [c for c, _ in series], [t for _, t in series],
                              div))
    script.append('unset multiplot')
    return _run(directory, 'counters', '\n'.join(script) + '\n')


def netpipe(directory, name, curves, title):
    """NAME.png in directory: NetPIPE's curves against message size, its
    rate above and its one-way time below, both axes logarithmic (seed
    002's Fig. 9 for an MPI program). curves: [(title, path of NetPIPE's
    output: bytes, Mb/s, seconds)]; absolute paths, or relative to
    directory."""
    plots = []
    for col, label in ((2, 'Rate (Mb/s, wall clock)'),
                       ('($3*1e3)', 'One-way time (ms, wall clock)')):
        parts = []
        for i, (t, path) in enumerate(curves):
            parts.append(f'{_quote(path)} using 1:{col} with linespoints lw 2 pt 7 ps 0.6 '
                         f'lc rgb "{COLOURS[i % len(COLOURS)]}" title {_quote(t)}')
        plots.append((label, 'plot ' + ', \\\n     '.join(parts)))
    script = [
        '# SPDX-License-Identifier: GPL-2.0',
        f'# NetPIPE curves; redraw: gnuplot {name}.gp',
        f'set terminal pngcairo size {WIDTH},{2 * PANEL + 120} enhanced font "{FONT}" '
        'linewidth 1 rounded',
        f"set output '{name}.png'",
        'set key noenhanced outside right top vertical Left reverse',
        'set logscale xy',
        'set format xy "10^{%L}"',
        'set grid xtics ytics lc rgb "#e0e0e0" lw 1 dt 1',
        'set border 3 lw 1.2',
        'set tics nomirror out',
        'set lmargin at screen 0.11',
        'set rmargin at screen 0.72',
        f'set multiplot layout 2,1 title {_quote(title)} noenhanced',
    ]
    for i, (label, plot) in enumerate(plots):
        script.append(f'set ylabel {_quote(label)} noenhanced')
        script.append("set xlabel 'Message size (bytes)'" if i else 'unset xlabel')
        script.append(plot)
    script.append('unset multiplot')
    return _run(directory, name, '\n'.join(script) + '\n')


# The axes of a sweep's figures: one tic per point, named by its ID
_POINT_AXES = (
    'set xtics rotate by -30 left noenhanced font ",10"',
    'set grid ytics lc rgb "#e0e0e0" lw 1 dt 1',
    'set border 3 lw 1.2',
    'set tics nomirror out',
    'set lmargin at screen 0.11',
    'set rmargin at screen 0.78',
)


def _sweep_head(title, name='sweep', what="each point's mean throughput"):
    """The first lines of NAME.gp, whichever way it draws the points."""
    return [
        '# SPDX-License-Identifier: GPL-2.0',
        f'# A sweep of ibsw-run: {what}; redraw: gnuplot {name}.gp',
        f'set terminal pngcairo size {WIDTH},{HEIGHT} enhanced font "{FONT}" '
        'linewidth 1 rounded',
        f"set output '{name}.png'",
        'set datafile separator comma',
        'set datafile missing ""',
        f'set title {_quote(title)} noenhanced',
    ]


def sweep(directory, series, title, ylabel='Mean throughput (emulated Gb/s)', logy=False):
    """sweep.png from sweep.csv: one line per series [(column, title)]
    (1-based columns), the points along x, named by sweep.csv's first
    column."""
    parts = []
    for i, (col, t) in enumerate(series):
        xtic = ':xtic(1)' if i == 0 else ''
        parts.append(f"'sweep.csv' skip 1 using 0:{col}{xtic} with linespoints lw 2 pt 7 "
                     f'ps 0.8 lc rgb "{COLOURS[i % len(COLOURS)]}" title {_quote(t)}')
    script = [
        *_sweep_head(title),
        "set xlabel 'Sweep point'",
        f'set ylabel {_quote(ylabel)}',
        'set key noenhanced outside right top vertical Left reverse samplen 2 spacing 1.2',
        'set logscale y' if logy else 'set yrange [0:*]',
        'set offsets graph 0.03, graph 0.03, graph 0.08, 0',
        *_POINT_AXES,
        'set bmargin 7',
        'plot ' + ', \\\n     '.join(parts),
    ]
    return _run(directory, 'sweep', '\n'.join(script) + '\n')


def sweep_curves(directory, xcol, xlabel, blocks, series, title,
                 ylabel='Mean throughput (emulated Gb/s)', logx=False, logy=False,
                 name='sweep', what="each point's mean throughput", evenx=False):
    """NAME.png (sweep.png) from sweep.csv, against the last sweep axis's
    values (column xcol): a line per block of rows [(first, last, label)]
    and series [(column, title)] (seed 002's Fig. 9: F1 against the send
    size, a line each for CC on, CC off and no congestion). evenx: the
    values evenly spaced, each a tic (seed 000's Marking_Rate 0, 8 ...
    128, 2048)."""
    parts = []
    i = 0
    using = f'0:{{col}}:xtic({xcol})' if evenx else f'{xcol}:{{col}}'
    for first, last, label in blocks:
        for col, t in series:
            key = f'{label} {t}' if label else t
            parts.append(f"'sweep.csv' skip 1 every ::{first}::{last} using "
                         f"{using.format(col=col)} "
                         f'with linespoints lw 2 pt 7 ps 0.8 '
                         f'lc rgb "{COLOURS[i % len(COLOURS)]}" title {_quote(key)}')
            i += 1
    script = [
        *_sweep_head(title, name, what),
        f'set xlabel {_quote(xlabel)} noenhanced',
        f'set ylabel {_quote(ylabel)}',
        'set key noenhanced outside right top vertical Left reverse samplen 2 spacing 1.2',
        'set logscale x' if logx else '',
        'set logscale y' if logy else 'set yrange [0:*]',
        'set format x "10^{%L}"' if logx else '',
        'set offsets graph 0.03, graph 0.03, 0, 0' if evenx else '',
        'set format y "10^{%L}"' if logy else '',
        'set grid xtics ytics lc rgb "#e0e0e0" lw 1 dt 1',
        'set border 3 lw 1.2',
        'set tics nomirror out',
        'set lmargin at screen 0.11',
        'set rmargin at screen 0.70',
        'plot ' + ', \\\n     '.join(parts),
    ]
    return _run(directory, name, '\n'.join(line for line in script if line) + '\n')


def shares(directory, sets, title):
    """shares.png: per fairness set, a bar per sweep point stacked with
    each flow's share of the set's throughput (seed 002's Fig. 8).
    sets: [(csv file in directory: point, then a column per flow; panel
    title; flows)]."""
    script = [
        '# SPDX-License-Identifier: GPL-2.0',
        '# Shares of a sweep\'s fairness sets; redraw: gnuplot shares.gp',
        f'set terminal pngcairo size {WIDTH},{max(HEIGHT, PANEL * len(sets) + 120)} '
        f'enhanced font "{FONT}" linewidth 1 rounded',
        "set output 'shares.png'",
        'set datafile separator comma',
        'set datafile missing ""',
        'set style data histograms',
        'set style histogram rowstacked',
        'set style fill solid 0.85 border rgb "#ffffff"',
        'set boxwidth 0.6',
        'set yrange [0:1]',
        'set ytics 0.25',
        'set format y "%.2f"',
        "set ylabel 'Share of the throughput'",
        'set key noenhanced outside right top vertical Left reverse',
        *_POINT_AXES,
        f'set multiplot layout {len(sets)},1 title {_quote(title)} noenhanced',
    ]
    for csv_name, panel, flows in sets:
        parts = []
        for i, f in enumerate(flows):
            using = f'{i + 2}:xtic(1)' if i == 0 else f'{i + 2}'
            parts.append(f'{_quote(csv_name)} skip 1 using {using} lc rgb '
                         f'"{COLOURS[i % len(COLOURS)]}" title {_quote(f)}')
        script.append(f'set title {_quote(panel)} noenhanced')
        script.append('plot ' + ', \\\n     '.join(parts))
    script.append('unset multiplot')
    return _run(directory, 'shares', '\n'.join(script) + '\n')
