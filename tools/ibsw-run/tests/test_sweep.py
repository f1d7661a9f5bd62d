# SPDX-License-Identifier: GPL-2.0
"""Sweeps: the sweep lines and their errors (file and line), the grid,
each point's scenario, the table of the points' summaries, and ibsw-run's
sweep driver with fake runs: every point run once, an interrupted sweep
resumed without redoing the points that ended."""

import csv
import hashlib
import importlib.machinery
import importlib.util
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from ibswrun import plot, scenario, sweep  # noqa: E402
from ibswrun.scenario import ScenarioError  # noqa: E402

TOPO = os.path.join(HERE, 'fixtures', 'fabric.net')

# Lines 1-9; a sweep of marking_rate (2 values) by the flows' size (3)
SWEEP = f'''name sw
topology {TOPO}
duration 10ms
sweep mr 0 8
sweep size 1024 4096 65536
cc switch * threshold 15 marking_rate ${{mr}}
flow F1 H1 H3 write size ${{size}}
flow F2 H2 H3 write size ${{size}} start 5ms
window both 5ms 10ms
'''


def load_script():
    """ibsw-run, the script, as a module (its functions, not its main)."""
    path = os.path.join(HERE, '..', 'ibsw-run')
    loader = importlib.machinery.SourceFileLoader('ibsw_run_script', path)
    spec = importlib.util.spec_from_loader('ibsw_run_script', loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-run-test-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, text, name='s.scn'):
        path = os.path.join(self.tmp, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    def drawn(self, out, name):
        """NAME.gp's text, once NAME.png is a PNG."""
        with open(os.path.join(out, name + '.png'), 'rb') as f:
            self.assertEqual(f.read(8), b'\x89PNG\r\n\x1a\n')
        with open(os.path.join(out, name + '.gp')) as f:
            return f.read()


class Read(Base):
    def test_plain_scenario(self):
        self.assertIsNone(sweep.read(self.write(f'topology {TOPO}\nduration 1ms\n')))

    def test_grid_first_line_slowest(self):
        sw = sweep.read(self.write(SWEEP))
        self.assertEqual([(n, v, line) for n, v, line in sw.axes],
                         [('mr', ['0', '8'], 4), ('size', ['1024', '4096', '65536'], 5)])
        self.assertEqual([sweep.point_id(p) for p in sw.points], [
            'mr=0,size=1024', 'mr=0,size=4096', 'mr=0,size=65536',
            'mr=8,size=1024', 'mr=8,size=4096', 'mr=8,size=65536'])

    def test_repeat(self):
        # every point three times, the runs the slowest axis, used by no line
        sw = sweep.read(self.write(SWEEP.replace('sweep size 1024 4096 65536\n',
                                                 'sweep size 1024 4096\nrepeat 3\n')))
        self.assertEqual(sw.axes[0], ('run', ['1', '2', '3'], 6))
        self.assertEqual(len(sw.points), 12)
        self.assertEqual([sweep.point_id(p) for p in sw.points[:5]], [
            'run=1,mr=0,size=1024', 'run=1,mr=0,size=4096', 'run=1,mr=8,size=1024',
            'run=1,mr=8,size=4096', 'run=2,mr=0,size=1024'])
        lines = sweep.render(sw, sw.points[5]).split('\n')
        self.assertEqual(lines[5], '# repeat 3')
        self.assertEqual([sc.cc_settings[0].args[-1] for sc in sweep.load_all(sw)],
                         ['0', '0', '8', '8'] * 3)
        # alone, a sweep of N runs of one scenario
        sw = sweep.read(self.write(f'topology {TOPO}\nduration 1ms\nrepeat 2\n'))
        self.assertEqual([sweep.point_id(p) for p in sw.points], ['run=1', 'run=2'])
        # and a ${run} may vary something
        sw = sweep.read(self.write(SWEEP + 'repeat 2\nwindow w${run} 1ms 2ms\n'))
        self.assertIn('w2', sweep.load_all(sw)[-1].windows)

    def test_repeat_errors(self):
        for text, line, reason in [
                (SWEEP + 'repeat 1\n', 10, "'repeat' takes a number of runs, 2 to 20"),
                (SWEEP + 'repeat 21\n', 10, "'repeat' takes a number of runs, 2 to 20"),
                (SWEEP + 'repeat three\n', 10, "'repeat' takes a number of runs"),
                (SWEEP + 'repeat 2 4\n', 10, "'repeat' takes a number of runs"),
                (SWEEP + 'repeat 2\nrepeat 3\n', 11, "'repeat' given twice (first at line 10)"),
                (SWEEP + 'sweep run 1 2\n', 10, "sweep name 'run' is repeat's")]:
            with self.subTest(reason):
                with self.assertRaises(ScenarioError) as cm:
                    sweep.read(self.write(text))
                self.assertEqual(cm.exception.line, line)
                self.assertIn(reason, cm.exception.reason)
        path = self.write(f'topology {TOPO}\nduration 1ms\nrepeat 2\n')
        with self.assertRaises(ScenarioError) as cm:
            scenario.load(path, warn=None)
        self.assertIn("'repeat' makes the file a sweep", cm.exception.reason)

    def test_render_keeps_lines(self):
        sw = sweep.read(self.write(SWEEP + '# ${other} in a comment\n'))
        text = sweep.render(sw, {'mr': '8', 'size': '4096'})
        lines = text.split('\n')
        self.assertEqual(len(lines), len(SWEEP.split('\n')) + 1)
        self.assertEqual(lines[3], '# sweep mr 0 8')
        self.assertEqual(lines[5], 'cc switch * threshold 15 marking_rate 8')
        self.assertEqual(lines[7], 'flow F2 H2 H3 write size 4096 start 5ms')
        self.assertEqual(lines[9], '# ${other} in a comment')

    def test_points_load(self):
        sw = sweep.read(self.write(SWEEP))
        scs = sweep.load_all(sw)
        self.assertEqual(len(scs), 6)
        self.assertEqual(scs[4].cc_settings[0].args, ['threshold', '15', 'marking_rate', '8'])
        self.assertEqual([f.size for f in scs[4].flows], [4096, 4096])
        self.assertEqual(scs[0].cc_settings[0].args[-1], '0')

    def test_bad_point(self):
        # the point's error at the sweep file's line, naming the point
        path = self.write(SWEEP.replace('sweep mr 0 8', 'sweep mr 0 70000'))
        with self.assertRaises(ScenarioError) as cm:
            sweep.load_all(sweep.read(path))
        self.assertEqual(cm.exception.line, 6)
        self.assertTrue(str(cm.exception).startswith(f'{path}:6: '), str(cm.exception))
        self.assertIn('(sweep point mr=70000,size=1024)', str(cm.exception))

    def test_when(self):
        # no congestion is no contributor: F2 runs at the other points only
        text = SWEEP.replace('flow F2 H2 H3', 'when mr=8  flow F2 H2 H3') + \
            'when size=1024,65536 window small 1ms 2ms\n'
        sw = sweep.read(self.write(text))
        self.assertEqual(len(sw.points), 6)
        lines = sweep.render(sw, {'mr': '8', 'size': '4096'}).split('\n')
        self.assertEqual(lines[7], 'flow F2 H2 H3 write size 4096 start 5ms')
        self.assertEqual(lines[9], '# when size=1024,65536 window small 1ms 2ms')
        lines = sweep.render(sw, {'mr': '0', 'size': '65536'}).split('\n')
        self.assertEqual(lines[7], '# when mr=8  flow F2 H2 H3 write size ${size} start 5ms')
        self.assertEqual(lines[9], 'window small 1ms 2ms')
        scs = sweep.load_all(sw)
        self.assertEqual([[f.name for f in sc.flows] for sc in scs],
                         [['F1']] * 3 + [['F1', 'F2']] * 3)
        self.assertEqual(['small' in sc.windows for sc in scs], [True, False, True] * 2)

    def test_when_only_use(self):
        # a sweep line only a when line uses is used
        sw = sweep.read(self.write(SWEEP.replace('marking_rate ${mr}', 'marking_rate 8')
                                   + 'when mr=0 counter S1/3 port_xmit_wait\n'))
        self.assertEqual(len(sw.points), 6)

    def test_single_run_refuses_when(self):
        path = self.write(f'topology {TOPO}\nduration 10ms\nwhen a=1 flow F1 H1 H3 write\n')
        with self.assertRaises(ScenarioError) as cm:
            scenario.load(path, warn=None)
        self.assertEqual(cm.exception.line, 3)
        self.assertIn("'when' belongs to a sweep", cm.exception.reason)

    def test_single_run_refuses_sweep(self):
        path = self.write(SWEEP)
        with self.assertRaises(ScenarioError) as cm:
            scenario.load(path, warn=None)
        self.assertEqual(cm.exception.line, 4)
        self.assertIn("'sweep' makes the file a sweep", cm.exception.reason)


# (name, text, line, part of the reason)
ERRORS = [
    ('no_value', 'sweep a\nflow F1 H1 H3 write size ${a}\n', 3,
     "'sweep' takes a name and at least one value"),
    ('bad_name', 'sweep 1a 2\n', 3, "sweep name '1a': letters, digits and _"),
    ('twice', 'sweep a 1\nsweep a 2\nflow F1 H1 H3 write size ${a}\n', 4,
     "sweep 'a' given twice (first at line 3)"),
    ('bad_value', 'sweep a 1 x/y\nflow F1 H1 H3 write size ${a}\n', 3,
     "sweep a: value 'x/y': letters, digits and . : + - _ only"),
    ('same_value', 'sweep a 1 2 1\nflow F1 H1 H3 write size ${a}\n', 3,
     'sweep a: value 1 given twice'),
    ('undefined', 'sweep a 1\nflow F1 H1 H3 write size ${b}\n', 4,
     "${b}: no sweep line defines 'b' (a)"),
    ('no_sweep', 'flow F1 H1 H3 write size ${b}\n', 3, '${b} but no sweep line defines b'),
    ('unused', 'sweep a 1 2\nflow F1 H1 H3 write\n', 3, 'sweep a: no line uses ${a}'),
    ('too_many_points', ''.join(f'sweep {n} 1 2 3 4 5 6\n' for n in 'abcd')
     + 'flow F1 H1 H3 write size ${a}${b}${c}${d}\n', 6,
     'the grid has 1296 points, more than 1000'),
    ('when_no_line', 'sweep a 1 2\nwhen a=1\nflow F1 H1 H3 write size ${a}\n', 4,
     "'when' takes a condition and a scenario line"),
    ('when_no_value', 'sweep a 1 2\nwhen a flow F1 H1 H3 write size ${a}\n', 4,
     "'when' takes a condition and a scenario line"),
    ('when_comment_only', 'sweep a 1 2\nwhen a=1 # flow\nflow F1 H1 H3 write size ${a}\n', 4,
     "'when' takes a condition and a scenario line"),
    ('when_nested', 'sweep a 1 2\nwhen a=1 when a=2 flow F1 H1 H3 write size ${a}\n', 4,
     "'when' takes a condition and a scenario line"),
    ('when_plot', 'sweep a 1 2\nwhen a=1 plot F1:run\nflow F1 H1 H3 write size ${a}\n', 4,
     "'when' takes a condition and a scenario line"),
    ('when_undefined', 'sweep a 1 2\nwhen b=1 flow F1 H1 H3 write size ${a}\n', 4,
     "when b: no sweep line defines 'b' (a)"),
    ('when_bad_value', 'sweep a 1 2\nwhen a=1,3 flow F1 H1 H3 write size ${a}\n', 4,
     'when a=3: 3 is not a value of sweep a (1 2)'),
    ('when_no_sweep', 'when a=1 flow F1 H1 H3 write\n', 3,
     "'when' but no sweep line"),
    ('too_many_axes', ''.join(f'sweep {n} 1\n' for n in 'abcde')
     + 'flow F1 H1 H3 write size ${a}${b}${c}${d}${e}\n', 7, 'more than 4 sweep lines'),
]


class Errors(Base):
    def test_errors(self):
        for name, text, line, reason in ERRORS:
            with self.subTest(name):
                path = self.write(f'topology {TOPO}\nduration 10ms\n' + text, name + '.scn')
                with self.assertRaises(ScenarioError) as cm:
                    sweep.read(path)
                self.assertEqual(cm.exception.line, line, str(cm.exception))
                self.assertIn(reason, cm.exception.reason)
                self.assertTrue(str(cm.exception).startswith(f'{path}:{line}: '))


class Resolved(Base):
    def test_paths_absolute(self):
        # a point's scenario file lives elsewhere: its paths must not move
        shutil.copy(TOPO, os.path.join(self.tmp, 'fabric.net'))
        with open(os.path.join(self.tmp, 'sm.conf'), 'w') as f:
            f.write('congestion_control FALSE\n')
        text = ('topology fabric.net  # relative\nduration 10ms\n'
                'fabric mtu 2048 sm-conf sm.conf\nflow F1 H1 H3 write\n')
        sc = scenario.load(self.write(text), warn=None)
        out = scenario.resolved_text(sc, text).split('\n')
        self.assertEqual(out[0], 'topology ' + os.path.join(self.tmp, 'fabric.net'))
        self.assertEqual(out[2], 'fabric mtu 2048 sm-conf ' + os.path.join(self.tmp, 'sm.conf'))
        self.assertEqual(out[1], 'duration 10ms')
        other = os.path.join(self.tmp, 'elsewhere')
        os.mkdir(other)
        sc2 = scenario.load(self.write('\n'.join(out), 'elsewhere/p.scn'), warn=None)
        self.assertEqual(sc2.topology, sc.topology)
        self.assertEqual(sc2.fabric_args, sc.fabric_args)


def fake_summary(pdir, means, interrupted=False, not_started=None, completion=None,
                 payload=None):
    """A point's summary.json as report.make writes it, trimmed to what the
    sweep reads; payload: {flow: payload fraction}."""
    os.makedirs(pdir, exist_ok=True)
    s = {'interrupted': interrupted, 'error': None,
         'schedule': {'not_started': not_started or {}},
         'windows': {'run': {}, 'both': {}},
         'flows': {f: {'windows': {'run': {'mean': m / 2}, 'both': {'mean': m}}}
                   for f, m in means.items()},
         'fairness': {'pair': {'jain': {'both': 1.0}}}}	# the set's windows only
    for f, frac in (payload or {}).items():
        s['flows'][f]['payload_fraction'] = frac
        for st in s['flows'][f]['windows'].values():
            st['payload'] = st['mean'] * frac
    for f, t in (completion or {}).items():
        s['flows'][f]['completion'] = {'time': t}
    total = sum(means.values())
    s['fairness']['pair'].update(flows=list(means), shares={
        'run': None, 'both': {f: m / total for f, m in means.items()}},
        total={'both': total},
        variation={'both': {'var': 0.0625, 'gap': 0.5, 'samples': 3}})
    with open(os.path.join(pdir, 'summary.json'), 'w') as f:
        json.dump(s, f)


class Table(Base):
    def test_shares(self):
        # Fig. 8: each flow's share of its fairness set, a row per point
        sw = sweep.read(self.write(SWEEP.replace('1024 4096 65536', '1024')))
        out = os.path.join(self.tmp, 'out')
        fake_summary(sweep.point_dir(out, sw.points[0]), {'F1': 1.5, 'F2': 0.5})
        self.assertEqual(sweep.share_tables(out, sw), [
            ('pair', 'both', ['F1', 'F2'], [['mr=0,size=1024', 0.75, 0.25],
                                            ['mr=8,size=1024', None, None]])])
        sweep.write(out, sw, plots=False)
        with open(os.path.join(out, 'shares-pair.csv'), 'rb') as f:
            # a point of two axes has a comma in its name: quoted (RFC 4180)
            self.assertEqual(f.read(), b'point,F1,F2\n"mr=0,size=1024",0.75,0.25\n'
                             b'"mr=8,size=1024",,\n')

    def test_runs_table(self):
        # each point's columns over the runs: mean, min, max of those that
        # have a value; the points of the other axes in order
        sw = sweep.read(self.write(SWEEP.replace('sweep size 1024 4096 65536\n',
                                                 'sweep size 1024\nrepeat 3\n')))
        out = os.path.join(self.tmp, 'out')
        for p, f1 in zip(sw.points, [1.0, 0.5, 2.0, 0.25, 1.5, None]):
            if f1 is not None:
                fake_summary(sweep.point_dir(out, p), {'F1': f1, 'F2': 1.0})
        cols, rows = sweep.table(out, sw)
        rcols, rrows = sweep.runs_table(sw, cols, rows)
        self.assertEqual(rcols[:7], ['point', 'mr', 'size', 'runs', 'F1 both mean',
                                     'F1 both min', 'F1 both max'])
        self.assertEqual(rrows[0][:7], ['mr=0,size=1024', '0', '1024', 3, 1.5, 1.0, 2.0])
        self.assertEqual(rrows[1][:7], ['mr=8,size=1024', '8', '1024', 2, 0.375, 0.25, 0.5])
        self.assertEqual(rrows[1][rcols.index('sum pair both mean')], 1.375)
        sweep.write(out, sw, plots=False)
        with open(os.path.join(out, 'sweep-runs.csv')) as f:
            self.assertEqual(f.readline().split(',')[:4], ['point', 'mr', 'size', 'runs'])
        self.assertIsNone(sweep.runs_table(sweep.read(self.write(SWEEP)), cols, rows))

    def test_completion_column(self):
        sw = sweep.read(self.write(SWEEP.replace('1024 4096 65536', '1024')))
        out = os.path.join(self.tmp, 'out')
        fake_summary(sweep.point_dir(out, sw.points[1]), {'F1': 1.5, 'F2': 0.25},
                     completion={'F1': 0.0125})
        cols, rows = sweep.table(out, sw)
        self.assertEqual(cols[-1], 'F1 completion s')
        self.assertEqual([r[-1] for r in rows], [None, 0.0125])

    def test_states(self):
        d = os.path.join(self.tmp, 'p')
        self.assertEqual(sweep.point_state(d), 'not run')
        os.mkdir(d)
        self.assertEqual(sweep.point_state(d), 'failed')
        fake_summary(d, {'F1': 1.0}, interrupted=True)
        self.assertEqual(sweep.point_state(d), 'interrupted')
        fake_summary(d, {'F1': 1.0}, not_started={'F1': 'F1 did not start'})
        self.assertEqual(sweep.point_state(d), 'failed')
        fake_summary(d, {'F1': 1.0})
        self.assertEqual(sweep.point_state(d), 'done')

    def test_table(self):
        sw = sweep.read(self.write(SWEEP.replace('1024 4096 65536', '1024')))
        out = os.path.join(self.tmp, 'out')
        fake_summary(sweep.point_dir(out, sw.points[0]), {'F1': 1.5, 'F2': 0.25})
        cols, rows = sweep.table(out, sw)
        # a fairness set's Jain index, sum and Var (seed 002's Fig. 14)
        self.assertEqual(cols, ['point', 'mr', 'size', 'state', 'F1 both', 'F2 both',
                                'jain pair both', 'sum pair both', 'var pair both'])
        self.assertEqual(rows, [['mr=0,size=1024', '0', '1024', 'done', 1.5, 0.25, 1.0, 1.75,
                                 0.0625],
                                ['mr=8,size=1024', '8', '1024', 'not run'] + [None] * 5])
        text, errors = sweep.write(out, sw, plots=False)
        self.assertEqual(errors, [])
        self.assertEqual(text.split('\n')[2].split(),
                         ['mr=0,size=1024', '0', '1024', 'done', '1.500', '0.250', '1.000',
                          '1.750', '0.0625'])
        self.assertEqual(text.split('\n')[3].split()[-5:], ['-'] * 5)
        with open(os.path.join(out, 'sweep.csv'), newline='') as f:
            self.assertEqual(list(csv.reader(f))[2], ['mr=8,size=1024', '8', '1024', 'not run',
                                                      '', '', '', '', ''])
        with open(os.path.join(out, 'sweep.csv'), 'rb') as f:	# lines as the shell reads them
            self.assertEqual(f.read().split(b'\n')[0],
                             b'point,mr,size,state,F1 both,F2 both,jain pair both,'
                             b'sum pair both,var pair both')


    def test_payload_columns(self):
        # write and send flows have their payload throughput, after the means
        sw = sweep.read(self.write(SWEEP.replace('1024 4096 65536', '1024')))
        out = os.path.join(self.tmp, 'out')
        fake_summary(sweep.point_dir(out, sw.points[0]), {'F1': 1.5, 'F2': 0.25},
                     payload={'F1': 0.5})
        cols, rows = sweep.table(out, sw)
        self.assertEqual(cols, ['point', 'mr', 'size', 'state', 'F1 both', 'F2 both',
                                'F1 both payload', 'jain pair both', 'sum pair both',
                                'var pair both'])
        self.assertEqual(rows[0][4:], [1.5, 0.25, 0.75, 1.0, 1.75, 0.0625])
        self.assertEqual(rows[1][4:], [None] * 6)


# Seed 002's Fig. 9 in small: F1's payload against its size, a line per
# case; no congestion is no F2
CURVES = f'''name fig9
topology {TOPO}
duration 10ms
sweep case off on none
sweep size 1 64 65536
plot F1:both:payload logy
when case=off cc switch * threshold 0
when case=on,none cc switch * threshold 15
flow F1 H1 H3 write size ${{size}}
when case=off,on flow F2 H2 H3 write start 5ms
window both 5ms 10ms
'''


class Curves(Base):
    def test_plot_line(self):
        sw = sweep.read(self.write(CURVES))
        self.assertEqual((sw.plot.series, sw.plot.logx, sw.plot.logy, sw.plot.line),
                         ([('F1', 'both', True)], False, True, 6))
        self.assertEqual(sw.plot.columns(), ['F1 both payload'])
        text = sweep.render(sw, sw.points[0])
        self.assertEqual(text.split('\n')[5], '# plot F1:both:payload logy')
        self.assertEqual([[f.name for f in sc.flows] for sc in sweep.load_all(sw)],
                         [['F1', 'F2']] * 6 + [['F1']] * 3)

    def test_evenx(self):
        sw = sweep.read(self.write(CURVES.replace('payload logy', 'payload evenx logy')))
        self.assertEqual((sw.plot.logx, sw.plot.logy, sw.plot.evenx), (False, True, True))
        self.assertFalse(sweep.read(self.write(CURVES)).plot.evenx)

    def test_digest_leaves_out_the_plot_line(self):
        # a plot line only draws and a comment says: adding, changing or
        # removing them keeps the sweep's identity; anything else changes it
        base = sweep.read(self.write(CURVES))
        for text in (CURVES.replace('payload logy', 'payload evenx'),
                     CURVES.replace('plot F1:both:payload logy\n', ''),
                     '# Fig. 9\n\n' + CURVES.replace('\nwhen', '  # off\nwhen', 1)):
            self.assertEqual(sweep.read(self.write(text)).digest(), base.digest())
        for text in (CURVES.replace('1 64', '1 32'), CURVES.replace('duration 10ms', 'duration 9ms')):
            self.assertNotEqual(sweep.read(self.write(text)).digest(), base.digest())
        self.assertEqual(base.text_digest(), hashlib.sha256(CURVES.encode()).hexdigest())

    def test_blocks(self):
        values, blocks = sweep.curves(sweep.read(self.write(CURVES)))
        self.assertEqual(values, [1.0, 64.0, 65536.0])
        self.assertEqual(blocks, [(0, 2, 'case=off'), (3, 5, 'case=on'), (6, 8, 'case=none')])
        # not numbers along the last axis: no curves
        sw = sweep.read(self.write(CURVES.replace('sweep case off on none\nsweep size 1 64 65536',
                                                  'sweep size 1 64 65536\nsweep case off on none')))
        self.assertIsNone(sweep.curves(sw))

    def test_plot_errors(self):
        for text, reason in [
                (CURVES.replace('plot F1:both:payload logy', 'plot logy'),
                 "'plot' takes at least one series"),
                (CURVES.replace('plot F1:both:payload', 'plot F1'), "plot: 'F1' is no series"),
                (CURVES + 'plot F1:both\n', "'plot' given twice (first at line 6)"),
                (CURVES.replace('logy', 'logx evenx'), 'logx and evenx exclude each other')]:
            with self.subTest(reason):
                with self.assertRaises(ScenarioError) as cm:
                    sweep.read(self.write(text))
                self.assertIn(reason, cm.exception.reason)
        for text, reason in [
                (CURVES.replace('plot F1:both', 'plot F9:both'), 'plot F9:both: no point has a flow F9'),
                (CURVES.replace('plot F1:both', 'plot F1:other'),
                 'plot F1:other: no point has a window other'),
                (CURVES.replace('H1 H3 write', 'H1 H3 read'), 'F1 is a read')]:
            with self.subTest(reason):
                with self.assertRaises(ScenarioError) as cm:
                    sweep.load_all(sweep.read(self.write(text)))
                self.assertEqual(cm.exception.line, 6)
                self.assertIn(reason, cm.exception.reason)
        with self.assertRaises(ScenarioError) as cm:
            sweep.read(self.write(f'topology {TOPO}\nduration 1ms\nplot F1:run\n'))
        self.assertIn("'plot' but no sweep line", cm.exception.reason)

    @unittest.skipUnless(plot.available(), 'no gnuplot')
    def test_png(self):
        sw = sweep.read(self.write(CURVES))
        out = os.path.join(self.tmp, 'out')
        for i, p in enumerate(sw.points):
            means = {'F1': 0.001 * 10 ** (i % 3)} if p['case'] == 'none' else \
                {'F1': 0.0001 * 10 ** (i % 3), 'F2': 1.0}
            fake_summary(sweep.point_dir(out, p), means, payload={'F1': 0.5})
        _, errors = sweep.write(out, sw)
        self.assertEqual(errors, [])
        gp = self.drawn(out, 'sweep')
        # x is the size column (3), a line per case, log x (1 to 65536)
        self.assertIn("every ::6::8 using 3:7 ", gp)
        self.assertIn("title 'case=none F1 both payload'", gp)
        self.assertIn('set logscale x', gp)
        self.assertIn('set logscale y', gp)
        # the fairness set's sum (column 9) and Var (10), seed 002's Figs.
        # 12 and 14, against the size the same way, on linear y axes
        for name, col in (('sweep-sum', 9), ('sweep-var', 10)):
            gp = self.drawn(out, name)
            self.assertIn(f"every ::6::8 using 3:{col} ", gp)
            self.assertIn("title 'case=none pair both'", gp)
            self.assertIn(f"set output '{name}.png'", gp)
            self.assertNotIn('set logscale y', gp)

    @unittest.skipUnless(plot.available(), 'no gnuplot')
    def test_png_evenx_completion(self):
        # seed 000's Fig. 4a: a fixed-size flow's completion time, the
        # values evenly spaced (0 cannot go on a log axis)
        sw = sweep.read(self.write(CURVES.replace('sweep size 1 64 65536', 'sweep size 0 64 65536')
                                   .replace('payload logy', 'payload evenx')))
        out = os.path.join(self.tmp, 'out')
        for i, p in enumerate(sw.points):
            fake_summary(sweep.point_dir(out, p), {'F1': 0.5, 'F2': 1.0}, payload={'F1': 0.5},
                         completion={'F1': 0.25 + i})
        cols, _ = sweep.table(out, sw)
        self.assertEqual(cols.index('F1 completion s'), 10)
        _, errors = sweep.write(out, sw)
        self.assertEqual(errors, [])
        for name, col in (('sweep', 7), ('sweep-sum', 9), ('sweep-completion', 11)):
            gp = self.drawn(out, name)
            self.assertIn(f"every ::3::5 using 0:{col}:xtic(3) ", gp)
            self.assertNotIn('set logscale x', gp)
        self.assertIn("title 'case=on F1'", gp)
        self.assertIn("set ylabel 'Completion time (emulated s)'", gp)


def fake_throughput(pdir, flows, rows, launched=None):
    """A point's throughput.csv (t, a column per flow) and the summary.json
    fields timelines.png reads: its sample, duration, windows and each
    flow's start and stop (launched: {flow: emulated time})."""
    os.makedirs(pdir, exist_ok=True)
    with open(os.path.join(pdir, 'throughput.csv'), 'w') as f:
        f.write(','.join(['t'] + flows) + '\n')
        f.writelines(','.join(map(str, r)) + '\n' for r in rows)
    launched = launched or {}
    s = {'sample': 0.001, 'duration': rows[-1][0], 'planned_duration': 0.01,
         'windows': {'run': {'start': 0.0, 'stop': 0.01}, 'both': {'start': 0.005, 'stop': 0.01},
                     'never': {'start': None, 'stop': None}},
         'flows': {f: {'launched': launched.get(f), 'start': 0.0, 'stopped': None,
                       'stop': 0.01} for f in flows}}
    with open(os.path.join(pdir, 'summary.json'), 'w') as f:
        json.dump(s, f)


class Timelines(Base):
    """timelines POINT...: the named points' flows against time, a panel
    each (seed 002's Fig. 10: CC off above CC on)."""
    TEXT = SWEEP + 'timelines size=1024,mr=8 mr=0,size=65536\n'

    def test_points(self):
        sw = sweep.read(self.write(self.TEXT))
        # in the axes' order whatever the line's, as point_id names them
        self.assertEqual([sweep.point_id(p) for p in sw.timelines],
                         ['mr=8,size=1024', 'mr=0,size=65536'])
        self.assertEqual(sweep.read(self.write(SWEEP)).timelines, [])
        # a point's run does not see it: a comment at its line
        self.assertEqual(sweep.render(sw, sw.points[0]).split('\n')[9],
                         '# timelines size=1024,mr=8 mr=0,size=65536')
        self.assertEqual(len(sweep.load_all(sw)), 6)

    def test_only_draws(self):
        # adding, changing or removing it keeps the sweep's identity
        base = sweep.read(self.write(SWEEP)).digest()
        for text in (self.TEXT, SWEEP + 'timelines mr=0,size=1024\n'):
            self.assertEqual(sweep.read(self.write(text)).digest(), base)

    def test_errors(self):
        for text, reason in [
                (SWEEP + 'timelines\n', "'timelines' takes the points to draw"),
                (SWEEP + 'timelines mr=0\n', "timelines mr=0: no value for 'size'"),
                (SWEEP + 'timelines mr=0,size=1024,mr=8\n', 'mr given twice'),
                (SWEEP + 'timelines mr=1,size=1024\n', '1 is not a value of sweep mr (0 8)'),
                (SWEEP + 'timelines mr=0,size=1024,x=1\n', "no sweep line defines 'x' (mr size)"),
                (SWEEP + 'timelines mr=0,,size=1024\n', "'mr=0,,size=1024' is no point"),
                (SWEEP + 'timelines mr=0,size=1024 size=1024,mr=0\n',
                 'timelines: mr=0,size=1024 given twice'),
                (SWEEP + 'timelines ' + ' '.join(f'mr={m},size={s}' for m in (0, 8)
                                                 for s in (1024, 4096, 65536))
                 + ' mr=0,size=1024\n', '7 points, more than 6 panels'),
                (self.TEXT + 'timelines mr=0,size=1024\n',
                 "'timelines' given twice (first at line 10)"),
                (SWEEP.replace('cc switch', 'when mr=0 timelines mr=0,size=1024\ncc switch'),
                 "'when' takes a condition and a scenario line")]:
            with self.subTest(reason):
                with self.assertRaises(ScenarioError) as cm:
                    sweep.read(self.write(text))
                self.assertIn(reason, cm.exception.reason)
        with self.assertRaises(ScenarioError) as cm:
            sweep.read(self.write(f'topology {TOPO}\nduration 1ms\ntimelines a=1\n'))
        self.assertEqual(cm.exception.line, 3)
        self.assertIn("'timelines' but no sweep line", cm.exception.reason)
        # and a single run refuses it as a sweep's
        with self.assertRaises(ScenarioError) as cm:
            scenario.load(self.write(f'topology {TOPO}\nduration 1ms\ntimelines\n'))
        self.assertIn("'timelines' belongs to a sweep", cm.exception.reason)

    def test_panels(self):
        sw = sweep.read(self.write(self.TEXT))
        out = os.path.join(self.tmp, 'out')
        self.assertIsNone(sweep.timeline_panels(out, sw))
        # the second point only: the first has not run
        p8, p0 = sw.timelines
        fake_throughput(sweep.point_dir(out, p0), ['F2', 'F1'],
                        [(0.0005, 0, 1.5), (0.0015, 0.25, 2.0)], launched={'F2': 0.005})
        panels, end, top = sweep.timeline_panels(out, sw)
        self.assertEqual(panels, [(
            'mr=0,size=65536', os.path.join('points', 'mr=0,size=65536', 'throughput.csv'),
            {'run': (0.0, 0.01), 'both': (0.005, 0.01)},
            [(2, 'F2', 0, (0.004, 0.011)), (3, 'F1', 1, (0.0, 0.011))])])
        self.assertEqual((end, top), (0.01, 2.0))
        # a flow keeps its colour in every panel; the x axis spans the longest
        fake_throughput(sweep.point_dir(out, p8), ['F1', 'F3'],
                        [(0.0005, 2.5, 0), (0.0125, 1.0, 1.0)])
        panels, end, top = sweep.timeline_panels(out, sw)
        self.assertEqual([[(c, f, k) for c, f, k, _ in fl] for _, _, _, fl in panels],
                         [[(2, 'F1', 0), (3, 'F3', 1)], [(2, 'F2', 2), (3, 'F1', 0)]])
        self.assertEqual((end, top), (0.0125, 2.5))

    @unittest.skipUnless(plot.available(), 'no gnuplot')
    def test_png(self):
        sw = sweep.read(self.write(self.TEXT))
        out = os.path.join(self.tmp, 'out')
        for p in sw.points:
            fake_summary(sweep.point_dir(out, p), {'F1': 1.0, 'F2': 1.0})
        for p in sw.timelines:
            fake_throughput(sweep.point_dir(out, p), ['F1', 'F2'],
                            [(0.0005, 1.0, 0), (0.0015, 2.0, 1.0)])
        _, errors = sweep.write(out, sw)
        self.assertEqual(errors, [])
        gp = self.drawn(out, 'timelines')
        self.assertIn('set multiplot layout 2,1', gp)
        self.assertIn("set title 'mr=8,size=1024'", gp)
        self.assertIn("'points/mr=0,size=65536/throughput.csv' skip 1 using 1:", gp)
        self.assertEqual(gp.count('set yrange [0:2.16'), 2)	# one axis for both


class Driver(Base):
    """ibsw-run's run_sweep with run_here replaced by a fake run that
    writes a summary (or is interrupted at a chosen point)."""

    def setUp(self):
        super().setUp()
        self.mod = load_script()
        self.ran = []
        self.stop_at = None
        self.mod.run_here = self.fake_run
        self.path = self.write(SWEEP)
        self.out = os.path.join(self.tmp, 'out')

    def fake_run(self, sc, pdir, guest_only):
        pid = os.path.basename(pdir)
        self.ran.append(pid)
        # the point's own scenario file reads alone: its values are in it
        size = sc.flows[0].size
        if pid == self.stop_at:
            fake_summary(pdir, {'F1': size / 1e5}, interrupted=True)
            return 130
        fake_summary(pdir, {'F1': size / 1e5, 'F2': 1.0})
        return 0

    def sweep(self, *extra):
        args = self.mod.parse_args([self.path, '-o', self.out, '--no-vm', *extra])
        with redirect_stdout(io.StringIO()) as out, redirect_stderr(io.StringIO()) as err:
            try:
                rc = self.mod.run_sweep(args, *self.mod.load_sweep(self.path))
            except SystemExit as e:
                rc = ('exit', e.code)
        return rc, out.getvalue(), err.getvalue()

    def states(self):
        with open(os.path.join(self.out, 'sweep.json')) as f:
            return [p['state'] for p in json.load(f)['points']]

    def test_all_points(self):
        rc, out, _ = self.sweep()
        self.assertEqual(rc, 0)
        self.assertEqual(self.ran, [sweep.point_id(p) for p in sweep.read(self.path).points])
        self.assertEqual(self.states(), ['done'] * 6)
        self.assertIn('mr=8,size=65536', out)
        with open(os.path.join(self.out, 'points', 'mr=8,size=4096', 'scenario.scn')) as f:
            text = f.read()
        self.assertIn('marking_rate 8\n', text)
        self.assertIn('topology ' + TOPO, text)

    def test_interrupted_then_resumed(self):
        self.stop_at = 'mr=0,size=65536'
        rc, _, err = self.sweep()
        self.assertEqual(rc, 130)
        self.assertEqual(self.ran, ['mr=0,size=1024', 'mr=0,size=4096', 'mr=0,size=65536'])
        self.assertEqual(self.states(), ['done', 'done', 'interrupted'] + ['not run'] * 3)
        self.assertIn('--resume', err)
        # without --resume the directory is taken
        self.assertEqual(self.sweep()[0], ('exit', 2))
        self.ran, self.stop_at = [], None
        rc, out, _ = self.sweep('--resume')
        self.assertEqual(rc, 0)
        self.assertEqual(self.ran, ['mr=0,size=65536', 'mr=8,size=1024', 'mr=8,size=4096',
                                    'mr=8,size=65536'])
        self.assertEqual(self.states(), ['done'] * 6)
        self.assertIn('0.655', out)	# F1 of size=65536 in the table

    def test_resume_refuses_changed_sweep(self):
        self.stop_at = 'mr=0,size=1024'
        self.assertEqual(self.sweep()[0], 130)
        self.write(SWEEP.replace('sweep mr 0 8', 'sweep mr 0 16'))
        rc, _, err = self.sweep('--resume')
        self.assertEqual(rc, ('exit', 2))
        self.assertIn('holds another sweep, or', err)

    def test_resume_redraws_with_a_new_plot_line(self):
        self.assertEqual(self.sweep()[0], 0)
        self.ran = []
        self.write(SWEEP.replace('window both', 'plot F1:both evenx\nwindow both'))
        rc, out, _ = self.sweep('--resume')
        self.assertEqual((rc, self.ran), (0, []))
        self.assertIn('0 to run', out)
        if plot.available():
            with open(os.path.join(self.out, 'sweep.gp')) as f:
                self.assertIn('using 0:5:xtic(3)', f.read())
        # a sweep.json of before the plot line was left out of the digest
        # (the whole text's) still resumes
        self.write(SWEEP.replace('window both', 'plot F1:both\nwindow both'))
        sw = sweep.read(self.path)
        with open(os.path.join(self.out, 'sweep.json')) as f:
            d = json.load(f)
        d['digest'] = sw.text_digest()
        with open(os.path.join(self.out, 'sweep.json'), 'w') as f:
            json.dump(d, f)
        self.assertEqual(self.sweep('--resume')[0], 0)
        self.assertEqual(self.ran, [])

    def test_only_then_the_rest(self):
        # a grid run in two parts: --only one value, then --resume --only
        # the other; the table has every point from the first part on
        rc, out, err = self.sweep('--only', 'mr=8', '--only', 'size=1024,65536')
        self.assertEqual(rc, 0)
        self.assertEqual(self.ran, ['mr=8,size=1024', 'mr=8,size=65536'])
        self.assertIn('6 points (mr 2 x size 3) of which --only chose 2, 2 to run', out)
        self.assertEqual(self.states(), ['not run'] * 3 + ['done', 'not run', 'done'])
        self.assertIn('4 points not done', err)
        self.assertIn('--resume', err)
        with open(os.path.join(self.out, 'sweep.csv')) as f:
            self.assertEqual(len(f.read().strip().split('\n')), 7)
        self.ran = []
        rc, _, _ = self.sweep('--resume', '--only', 'mr=0')
        self.assertEqual(rc, 0)
        self.assertEqual(self.ran, ['mr=0,size=1024', 'mr=0,size=4096', 'mr=0,size=65536'])
        self.assertEqual(self.states(), ['done'] * 4 + ['not run', 'done'])
        self.ran = []
        rc, _, err = self.sweep('--resume')
        self.assertEqual((rc, self.ran, err), (0, ['mr=8,size=4096'], ''))
        self.assertEqual(self.states(), ['done'] * 6)

    def test_only_refused(self):
        # what --only names must be in the sweep: nothing runs otherwise
        for spec, why in (('mr=16', "--only mr=16: 16 is not a value of sweep mr (0 8)"),
                          ('rate=1', "--only rate=1: no sweep line defines 'rate' (mr size)"),
                          ('mr', '--only mr: NAME=VALUE[,VALUE...]'),
                          ('mr=', '--only mr=: NAME=VALUE[,VALUE...]')):
            rc, _, err = self.sweep('--only', spec)
            self.assertEqual((rc, self.ran), (('exit', 2), []), spec)
            self.assertIn(why, err)
            self.assertFalse(os.path.exists(self.out))
        rc, _, err = self.sweep('--only', 'mr=0', '--only', 'mr=8')
        self.assertEqual(rc, ('exit', 2))
        self.assertIn('--only mr=8: mr given twice', err)

    def test_only_plain_scenario(self):
        self.path = self.write(f'topology {TOPO}\nduration 1ms\n', 'plain.scn')
        with redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit) as cm:
            self.mod.main([self.path, '-o', self.out, '--no-vm', '--only', 'mr=0'])
        self.assertEqual(cm.exception.code, 2)
        self.assertIn('--only is for sweeps', err.getvalue())

    def test_resume_plain_scenario(self):
        self.path = self.write(f'topology {TOPO}\nduration 1ms\n', 'plain.scn')
        with redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit) as cm:
            self.mod.main([self.path, '-o', self.out, '--no-vm', '--resume'])
        self.assertEqual(cm.exception.code, 2)
        self.assertIn('--resume is for sweeps', err.getvalue())


if __name__ == '__main__':
    unittest.main()
