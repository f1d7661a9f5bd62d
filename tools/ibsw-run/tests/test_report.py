# SPDX-License-Identifier: GPL-2.0
"""The report on a fixture run (fixtures/run1: run.json and samples.csv
of fixtures/fixture.scn): exact throughput values, window selection,
counter resets, the summary, the table and the PNGs."""

import csv
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ibswrun import plot, report  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures', 'run1')
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'


def read_csv(path):
    with open(path, newline='', encoding='utf-8') as f:
        return list(csv.reader(f))


class Report(unittest.TestCase):
    """One report made from the fixture for the whole class (gnuplot
    takes a few tenths of a second)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix='ibsw-run-test-')
        cls.dir = os.path.join(cls.tmp, 'run1')
        shutil.copytree(FIXTURE, cls.dir)
        cls.summary = report.make(cls.dir, plots=plot.available())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_throughput_csv(self):
        # Words in 1 ms * 32 bits / 1 ms: 250000 -> 8 Gb/s, 125000 -> 4.
        # t is each interval's midpoint; the truncated last row is dropped.
        self.assertEqual(read_csv(self.path('throughput.csv')), [
            ['t', 'F1', 'F2'],
            ['0.0005', '8', '0'],
            ['0.0015', '8', '0'],
            ['0.0025', '8', '0'],
            ['0.0035', '4', '4'],
            ['0.0045', '4', '4'],
            ['0.0055', '4', '4']])

    def test_counters_csv_and_reset(self):
        # port_xmit_wait went from 2000 to 500 at 3 ms (cleared): that
        # interval is empty, the others are 1000 ticks per ms.
        rows = read_csv(self.path('counters.csv'))
        self.assertEqual(rows[0], ['t', 'S1/3:port_xmit_wait', 'S1/3:port_xmit_data_gbps@0'])
        self.assertEqual([r[1] for r in rows[1:]],
                         ['1000000', '1000000', '', '1000000', '1000000', '1000000'])
        self.assertEqual([r[2] for r in rows[1:]], ['8'] * 6)
        c = self.summary['counters']['S1/3:port_xmit_wait']
        self.assertEqual((c['switch'], c['port'], c['counter'], c['vl'], c['unit']),
                         ('S1', 3, 'port_xmit_wait', None, 'ticks/s'))
        self.assertEqual(c['windows']['run']['samples'], 5)
        self.assertAlmostEqual(c['windows']['run']['mean'], 1e6, delta=1e-6)
        self.assertAlmostEqual(c['windows']['run']['std'], 0, delta=1e-6)
        d = self.summary['counters']['S1/3:port_xmit_data_gbps@0']
        self.assertEqual((d['vl'], d['unit']), (0, 'Gb/s'))
        self.assertAlmostEqual(d['windows']['both']['mean'], 8.0, places=9)

    def test_flow_statistics(self):
        f1 = self.summary['flows']['F1']['windows']
        f2 = self.summary['flows']['F2']['windows']
        want = {  # window: (F1 mean, std, min, max, n), (F2 ...)
            'run': ((6, 2, 4, 8, 6), (2, 2, 0, 4, 6)),
            'alone': ((8, 0, 8, 8, 3), (0, 0, 0, 0, 3)),
            'both': ((4, 0, 4, 4, 3), (4, 0, 4, 4, 3)),
            # [1.5 ms, 3.5 ms): the midpoints 1.5 and 2.5 ms, not 3.5 ms
            'edge': ((8, 0, 8, 8, 2), (0, 0, 0, 0, 2)),
        }
        for w, (a, b) in want.items():
            for got, exp in ((f1[w], a), (f2[w], b)):
                self.assertEqual(got['samples'], exp[4], w)
                for key, value in zip(('mean', 'std', 'min', 'max'), exp[:4]):
                    self.assertAlmostEqual(got[key], value, places=9, msg=f'{w} {key}')

    def test_fairness(self):
        jain = self.summary['fairness']['pair']['jain']
        self.assertEqual(self.summary['fairness']['pair']['flows'], ['F1', 'F2'])
        # means (6, 2): 64 / (2 * 40) = 0.8; (8, 0): 1/2; (4, 4): 1
        self.assertAlmostEqual(jain['run'], 0.8, places=12)
        self.assertAlmostEqual(jain['alone'], 0.5, places=12)
        self.assertAlmostEqual(jain['both'], 1.0, places=12)
        self.assertAlmostEqual(jain['edge'], 0.5, places=12)
        # shares of the pair's total: (6, 2) -> 3/4, 1/4; (8, 0) -> 1, 0
        shares = self.summary['fairness']['pair']['shares']
        self.assertAlmostEqual(shares['run']['F1'], 0.75, places=12)
        self.assertAlmostEqual(shares['run']['F2'], 0.25, places=12)
        self.assertEqual(shares['alone'], {'F1': 1.0, 'F2': 0.0})
        # the pair's sum: 6 + 2, 8 + 0, 4 + 4
        total = self.summary['fairness']['pair']['total']
        self.assertEqual((total['run'], total['alone'], total['both']), (8.0, 8.0, 8.0))
        # seed 002's Var: the gaps per sample are 8, 8, 8 (F1 alone) and
        # 0, 0, 0 (both at 4): over the run a mean gap of 4 and a
        # variance of 16, none in the windows where the gap stays
        var = self.summary['fairness']['pair']['variation']
        self.assertEqual(var['run'], {'var': 16.0, 'gap': 4.0, 'samples': 6})
        self.assertEqual(var['alone'], {'var': 0.0, 'gap': 8.0, 'samples': 3})
        self.assertEqual(var['both'], {'var': 0.0, 'gap': 0.0, 'samples': 3})
        text = report.table(self.summary)
        self.assertIn(report.VAR_ROW, text)

    def test_summary_json(self):
        with open(self.path('summary.json'), encoding='utf-8') as f:
            s = json.load(f)
        self.assertEqual(s['schema'], 1)
        self.assertEqual((s['name'], s['scale'], s['sample'], s['duration'], s['samples']),
                         ('fixture', 1000, 0.001, 0.006, 7))
        self.assertEqual((s['interrupted'], s['error'], s['wall']), (False, None, 6.0))
        self.assertEqual(list(s['windows']), ['run', 'alone', 'both', 'edge'])
        self.assertEqual(s['windows']['edge'], {
            'start': 0.0015, 'stop': 0.0035, 'scheduled_start': 0.0015, 'scheduled_stop': 0.0035,
            'valid': True, 'invalid': None})
        self.assertEqual(s['schedule'], {'shift': 0, 'start_timeout': None, 'not_started': {},
                                         'holding': False})
        f1 = s['flows']['F1']
        self.assertEqual((f1['kind'], f1['src'], f1['dst'], f1['verb'], f1['exit']),
                         ('flow', 'H1', 'H3', 'write', 0))
        self.assertEqual(f1['source_port'], {'switch': 'S1', 'port': 1})
        self.assertEqual(json.loads(json.dumps(self.summary)), s)

    def test_table(self):
        with open(self.path('summary.txt'), encoding='utf-8') as f:
            text = f.read()
        self.assertEqual(text, report.table(self.summary))
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith(
            'fixture: 7 samples over 6ms emulated, time scale 1000'))
        self.assertEqual(lines[1].split(), ['mean', 'Gb/s', 'run', 'alone', 'both', 'edge'])
        self.assertEqual(lines[2].split(), ['0-6ms', '0-3ms', '3-6ms', '1.5-3.5ms'])
        self.assertEqual(lines[3].split(), ['F1', 'H1->H3', '6.00', '8.00', '4.00', '8.00'])
        self.assertEqual(lines[4].split(), ['F2', 'H2->H3', '2.00', '0.00', '4.00', '0.00'])
        self.assertEqual(lines[5], "Jain's index")
        self.assertEqual(lines[6].split(), ['pair', '0.800', '0.500', '1.000', '0.500'])

    def test_pngs(self):
        if not plot.available():
            self.skipTest('gnuplot not installed')
        self.assertEqual(self.summary['plot_errors'], [])
        self.assertEqual(self.summary['plots'], ['throughput.png', 'counters.png'])
        for name in ('throughput.png', 'counters.png'):
            with open(self.path(name), 'rb') as f:
                data = f.read()
            self.assertEqual(data[:8], PNG_MAGIC, name)
            self.assertGreater(len(data), 10000, name)	# axes, lines, text: not blank
            # IHDR: width and height, big-endian, after the signature
            width = int.from_bytes(data[16:20], 'big')
            height = int.from_bytes(data[20:24], 'big')
            self.assertEqual(width, 1000, name)
            self.assertGreaterEqual(height, 600, name)
            self.assertTrue(os.path.exists(self.path(name[:-4] + '.gp')))


class FixtureCopy:
    """A test on its own copy of the fixture run, run.json edited."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-run-test-')
        self.dir = os.path.join(self.tmp, 'run')
        shutil.copytree(FIXTURE, self.dir)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def edit(self, rows=None, **run_changes):
        with open(os.path.join(self.dir, 'run.json'), encoding='utf-8') as f:
            run = json.load(f)
        run.update(run_changes)
        with open(os.path.join(self.dir, 'run.json'), 'w', encoding='utf-8') as f:
            json.dump(run, f)
        if rows is not None:
            path = os.path.join(self.dir, 'samples.csv')
            with open(path, encoding='utf-8') as f:
                lines = f.read().splitlines()
            with open(path, 'w', encoding='utf-8') as f:
                f.write('\n'.join(lines[:rows + 1]) + '\n')


class FlowSpan(unittest.TestCase):
    def test_cases(self):
        # (a flow's summary entry, the sample interval) -> where it is drawn
        # (times in powers of two: exact in binary)
        for flow, step, span in [
                ({'start': 0.25, 'stop': 1.0}, 0.125, (0.125, 1.125)),
                ({'launched': 0.375, 'start': 0.25, 'stopped': 0.75, 'stop': 1.0}, 0.125,
                 (0.25, 0.875)),
                ({'launched': None, 'start': 0.0, 'stopped': None, 'stop': 1.0}, 0.125,
                 (0.0, 1.125)),			# never before time zero
                ({'start': None, 'stop': 1.0}, 0.125, None),
                ({'start': 0.25}, 0.125, None)]:
            with self.subTest(flow=flow):
                self.assertEqual(report.flow_span(flow, step), span)


class SweepPoint(unittest.TestCase):
    """A sweep point's plots say which point they are."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-run-test-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def title(self, directory):
        report.make(directory)		# without gnuplot the script is still written
        with open(os.path.join(directory, 'throughput.gp'), encoding='utf-8') as f:
            return [line for line in f if line.startswith('set title')][0].strip()

    def test_title(self):
        point = os.path.join(self.tmp, 'sw', 'points', 'mr=8,size=1024')
        shutil.copytree(FIXTURE, point)
        self.assertIsNone(report.sweep_point(point))	# no sweep.json: not a sweep's
        with open(os.path.join(self.tmp, 'sw', 'sweep.json'), 'w', encoding='utf-8') as f:
            f.write('{}')
        self.assertEqual(report.sweep_point(point + '/'), 'mr=8,size=1024')
        self.assertRegex(self.title(point), r"^set title 'fixture \[mr=8,size=1024\]: CC ")
        alone = os.path.join(self.tmp, 'run')
        shutil.copytree(FIXTURE, alone)
        self.assertIsNone(report.sweep_point(alone))
        self.assertRegex(self.title(alone), r"^set title 'fixture: CC ")


class Partial(FixtureCopy, unittest.TestCase):
    """Interrupted and empty runs still give a report."""

    def test_interrupted(self):
        self.edit(rows=4, interrupted=True)	# stopped after 3 ms
        s = report.make(self.dir, plots=False)
        self.assertTrue(s['interrupted'])
        self.assertEqual((s['duration'], s['samples']), (0.003, 4))
        self.assertEqual(s['flows']['F1']['windows']['alone']['samples'], 3)
        self.assertEqual(s['flows']['F1']['windows']['both']['samples'], 0)
        self.assertIsNone(s['flows']['F1']['windows']['both']['mean'])
        self.assertIsNone(s['fairness']['pair']['jain']['both'])
        self.assertIsNone(s['fairness']['pair']['shares']['both'])
        self.assertIsNone(s['fairness']['pair']['total']['both'])
        self.assertIsNone(s['fairness']['pair']['variation']['both']['var'])
        text = report.table(s)
        self.assertIn('INTERRUPTED', text)
        self.assertEqual(text.splitlines()[4].split()[-2:], ['-', '8.00'])

    def test_ended_early(self):
        # the run's MPI jobs ended at 3 ms: 'run' is 0-3 ms, not 0-6 ms
        self.edit(rows=4)
        s = report.make(self.dir, plots=False)
        self.assertEqual((s['windows']['run']['start'], s['windows']['run']['stop']),
                         (0.0, 0.003))
        self.assertEqual(report.table(s).splitlines()[2].split()[0], '0-3ms')
        # a last sample one interval short of the end is the end
        shutil.copy(os.path.join(FIXTURE, 'samples.csv'), self.dir)
        self.edit(rows=6)
        s = report.make(self.dir, plots=False)
        self.assertEqual(s['windows']['run']['stop'], 0.006)

    def test_no_samples(self):
        os.unlink(os.path.join(self.dir, 'samples.csv'))
        self.edit(error='fabric up failed')
        s = report.make(self.dir)
        self.assertEqual((s['samples'], s['duration'], s['flows'], s['plots']), (0, 0.0, {}, []))
        self.assertIn('ERROR: fabric up failed', report.table(s))
        self.assertEqual(read_csv(os.path.join(self.dir, 'throughput.csv')), [['t']])

    def test_no_run_json(self):
        os.unlink(os.path.join(self.dir, 'run.json'))
        with self.assertRaises(report.ReportError):
            report.make(self.dir)

    def test_main(self):
        out = io.StringIO()
        with redirect_stdout(out):
            rc = report.main([self.dir, '--no-plots'])
        self.assertEqual(rc, 0)
        self.assertIn('F1 H1->H3', out.getvalue())
        self.assertIn(f'results in {self.dir}: summary.json', out.getvalue())
        with redirect_stderr(io.StringIO()):
            self.assertEqual(report.main([]), 2)


FIXTURES = os.path.dirname(FIXTURE)
TICK_S = 512 / 32e9	# a tick of a 4x QDR port (all of the fixture's)


def late_fixture(name):
    with open(os.path.join(FIXTURES, f'xmit_late-{name}.json'), encoding='utf-8') as f:
        return json.load(f)


def fraction(late, port, i, j):
    """Independently: ticks * 512 / rate over the emulated time between
    the fixture's reads i and j."""
    r0, r1 = late['reads'][i], late['reads'][j]
    return (r1['ticks'][port] - r0['ticks'][port]) * TICK_S / (r1['t'] - r0['t'])


class CpuLimited(FixtureCopy, unittest.TestCase):
    """run1 with the xmit_late readings of a link-limited run
    (fixtures/xmit_late-link.json) and of a CPU-limited one
    (xmit_late-cpu.json: H3's port S1/3 loses 4.8% of the run, 9% of
    `both`; H2's S1/2 loses 1.3% of the run but 2.5% of `both`; S2/3 has
    no counter). The reads are at the first sample at or after each window
    edge, as the guest takes them: 0, 2 (for 1.5), 3, 4 (for 3.5) and 6 ms,
    each a little after its sample."""

    def make(self, late, **run_changes):
        self.edit(xmit_late=late, **run_changes)
        return report.make(self.dir, plots=False)

    def test_link_limited(self):
        late = late_fixture('link')
        s = self.make(late)
        c = s['cpu_limited']
        self.assertEqual((c['threshold'], c['recorded'], c['limited'], c['over']),
                         (0.02, True, False, []))
        self.assertAlmostEqual(c['ports']['S1/3'], fraction(late, 'S1/3', 0, 4), places=12)
        self.assertAlmostEqual(c['lost_s']['S1/3'], 1100 * TICK_S, places=15)
        self.assertEqual(c['ports']['S2/2'], 0)
        # the worst: S1/3 in `alone`, 600 ticks in 3 ms
        w = c['worst']
        self.assertEqual((w['port'], w['peer'], w['window']), ('S1/3', 'H3', 'alone'))
        self.assertAlmostEqual(w['fraction'], fraction(late, 'S1/3', 0, 2), places=12)
        text = report.table(s)
        self.assertNotIn('WARNING', text)
        self.assertEqual(text.splitlines()[-1],
                         'link-limited: no port lost more than 2% of the run or of a window to '
                         'late engine runs (most: S1/3 (H3), 0.3% of window alone)')
        with open(os.path.join(self.dir, 'summary.txt'), encoding='utf-8') as f:
            self.assertEqual(f.read(), text)

    def test_cpu_limited(self):
        late = late_fixture('cpu')
        s = self.make(late)
        c = s['cpu_limited']
        self.assertTrue(c['recorded'])
        self.assertTrue(c['limited'])
        run13 = fraction(late, 'S1/3', 0, 4)		# 286 us of 6 ms
        both13 = fraction(late, 'S1/3', 2, 4)		# 270 us of 3 ms
        both12 = fraction(late, 'S1/2', 2, 4)		# 75.2 us of 3 ms
        edge13 = fraction(late, 'S1/3', 1, 3)		# reads at 2 and 4 ms
        self.assertAlmostEqual(run13, 0.0477, places=4)
        self.assertAlmostEqual(c['ports']['S1/3'], run13, places=12)
        self.assertAlmostEqual(c['windows']['run']['S1/3'], run13, places=12)
        self.assertAlmostEqual(c['windows']['both']['S1/3'], both13, places=12)
        self.assertAlmostEqual(c['windows']['edge']['S1/3'], edge13, places=12)
        self.assertAlmostEqual(c['windows']['both']['S1/2'], both12, places=12)
        self.assertLess(c['ports']['S1/2'], 0.02)
        self.assertIsNone(c['ports']['S2/3'])
        self.assertEqual(c['missing'], ['S2/3'])
        # above 2%, the worst first
        self.assertEqual([(e['port'], e['window']) for e in c['over']],
                         [('S1/3', 'both'), ('S1/3', 'edge'), ('S1/3', 'run'),
                          ('S1/2', 'both')])
        self.assertEqual(c['worst']['fraction'], c['over'][0]['fraction'])
        lines = report.table(s).splitlines()
        self.assertEqual(lines[-2:], [
            'WARNING: CPU-limited: S1/3 (H3) lost %.1f%% of the run (%.1f%% of window both) '
            'to late engine runs; raise the time scale' % (100 * run13, 100 * both13),
            'WARNING: CPU-limited: S1/2 (H2) lost %.1f%% of window both to late engine runs; '
            'raise the time scale' % (100 * both12)])
        self.assertIn('4.8% of the run (9.0% of window both)', lines[-2])
        # the table's row: the worst port's percentage in each window
        row = [l for l in lines if l.startswith(report.LATE_ROW)][0]
        self.assertEqual(row[len(report.LATE_ROW):].split(), [
            '%.1f' % (100 * f) for f in (run13, fraction(late, 'S1/3', 0, 2), both13, edge13)])
        with open(os.path.join(self.dir, 'summary.json'), encoding='utf-8') as f:
            self.assertEqual(json.load(f)['cpu_limited'], json.loads(json.dumps(c)))

    def test_interrupted(self):
        # stopped at 4 ms: the last read is the guest's at its last sample
        late = late_fixture('cpu')
        late['reads'] = late['reads'][:4]
        c = self.make(late, interrupted=True)['cpu_limited']
        self.assertAlmostEqual(c['ports']['S1/3'], fraction(late, 'S1/3', 0, 3), places=12)
        self.assertIsNone(c['windows']['both']['S1/3'])		# no read at 6 ms
        self.assertAlmostEqual(c['windows']['alone']['S1/3'], fraction(late, 'S1/3', 0, 2),
                               places=12)

    def test_not_recorded(self):
        # run.json of an older runner (run1 has no xmit_late), or one read
        for late in (None, dict(late_fixture('link'), reads=late_fixture('link')['reads'][:1])):
            s = self.make(late)
            self.assertEqual((s['cpu_limited']['recorded'], s['cpu_limited']['limited']),
                             (False, None))
            lines = report.table(s).splitlines()
            self.assertEqual(lines[-1],
                             'link or CPU: not known (no xmit_late readings in run.json)')
            self.assertFalse([l for l in lines if l.startswith(report.LATE_ROW)])

    def test_lost(self):
        r0 = {'t': 0.001, 'ticks': {'A': 100, 'B': 50}}
        r1 = {'t': 0.003, 'ticks': {'A': 2100, 'B': 10}}
        # 2000 ticks of 512 bit at 8 Gb/s: 128 us of 2 ms
        lost, frac = report.late_lost(r0, r1, 'A', 8e9)
        self.assertAlmostEqual(lost, 128e-6, places=15)
        self.assertAlmostEqual(frac, 0.064, places=12)
        self.assertEqual(report.late_lost(r0, r1, 'B', 8e9), (None, None))	# cleared
        self.assertEqual(report.late_lost(r0, r1, 'C', 8e9), (None, None))	# no counter
        self.assertEqual(report.late_lost(r0, r1, 'A', None), (None, None))	# no rate

    def test_many_ports(self):
        late = late_fixture('cpu')
        for r in late['reads']:
            for p in late['ports']:
                r['ticks'][p] = int(r['t'] * 0.05 / TICK_S)	# 5% of the time
        lines = report.table(self.make(late)).splitlines()
        warn = [l for l in lines if l.startswith('WARNING')]
        self.assertEqual(len(warn), report.LATE_LINES + 1)
        self.assertEqual(warn[-1], 'WARNING: CPU-limited: 3 more ports lost more than 2%: '
                         'see cpu_limited in summary.json')


class FixedSize(unittest.TestCase):
    """Completion of fixed-size flows, from the fixture run with F2 made
    one of 300 messages of 4096 bytes that ended at 5 ms (its port's
    counter stops growing there) and F1 one that did not send them all."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-run-test-')
        self.dir = os.path.join(self.tmp, 'run')
        shutil.copytree(FIXTURE, self.dir)
        with open(os.path.join(self.dir, 'run.json')) as f:
            run = json.load(f)
        run['scenario']['flows'][0]['count'] = 1000
        run['flows']['F1']['exit'] = 1
        run['scenario']['flows'][1].update(count=300, size=4096)
        with open(os.path.join(self.dir, 'run.json'), 'w') as f:
            json.dump(run, f)
        rows = read_csv(os.path.join(self.dir, 'samples.csv'))
        col = rows[0].index('flow:F2')
        for r in rows[1:]:
            if len(r) > col and float(r[0]) > 0.005:
                r[col] = rows[6][col]	# the 5 ms sample's value: no more data
        with open(os.path.join(self.dir, 'samples.csv'), 'w', newline='') as f:
            csv.writer(f, lineterminator='\n').writerows(rows)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_completion(self):
        summary = report.make(self.dir, plots=False)
        self.assertEqual(summary['flows']['F2']['completion'], {
            'messages': 300, 'bytes': 1228800, 'start': 0.003, 'end': 0.005, 'sent': True,
            'time': 0.002})
        c1 = summary['flows']['F1']['completion']
        self.assertEqual((c1['time'], c1['sent'], c1['start']), (None, False, 0.0))
        text = report.table(summary)
        self.assertIn('completion F2: 300 x 4096 B in 2ms emulated (3ms to 5ms, to within a '
                      'sample at each end)\n', text)
        self.assertIn('completion F1: 1000 x 65536 B: not all sent (perftest exit 1)\n', text)

    def test_plain_flows_have_none(self):
        with open(os.path.join(self.dir, 'run.json')) as f:
            run = json.load(f)
        for fl in run['scenario']['flows']:
            fl.pop('count')
        with open(os.path.join(self.dir, 'run.json'), 'w') as f:
            json.dump(run, f)
        summary = report.make(self.dir, plots=False)
        self.assertNotIn('completion', summary['flows']['F1'])
        self.assertNotIn('completion', report.table(summary))


class Payload(unittest.TestCase):
    """Each write or send flow's payload throughput per window: its mean
    times the share of its wire data that is payload, from its size and
    the MTU run.json records (seed 002's Fig. 9 is against send size)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-run-test-')
        self.dir = os.path.join(self.tmp, 'run')
        shutil.copytree(FIXTURE, self.dir)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def make(self, edit):
        with open(os.path.join(self.dir, 'run.json')) as f:
            run = json.load(f)
        edit(run)
        with open(os.path.join(self.dir, 'run.json'), 'w') as f:
            json.dump(run, f)
        return report.make(self.dir, plots=False)

    def test_payload(self):
        def edit(run):
            run['scenario']['flows'][0].update(verb='write', size=1)
            run['scenario']['flows'][1].update(verb='read', size=65536)
            run['flows']['F1']['mtu'] = run['flows']['F2']['mtu'] = 2048
        s = self.make(edit)
        f1 = s['flows']['F1']
        self.assertAlmostEqual(f1['payload_fraction'], 1 / 46)	# 1 B in 46 on the wire
        for w, st in f1['windows'].items():
            with self.subTest(window=w):
                if st['mean'] is None:
                    self.assertIsNone(st['payload'])
                else:
                    self.assertAlmostEqual(st['payload'], st['mean'] / 46)
        self.assertIsNone(s['flows']['F2']['payload_fraction'])
        self.assertIsNone(s['flows']['F2']['windows']['both']['payload'])

    def test_no_mtu_recorded(self):
        # a run.json of before the MTU was recorded
        s = self.make(lambda run: None)
        self.assertIsNone(s['flows']['F1']['payload_fraction'])


if __name__ == '__main__':
    unittest.main()


class HeldSchedule(unittest.TestCase):
    """The fixture as if F1 had measurably started 1 ms late (so F2 was
    launched at 4 ms) and F2 never started: the windows move, and those
    that should hold F2 are invalid, with null statistics."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-run-test-')
        self.dir = os.path.join(self.tmp, 'run1')
        shutil.copytree(FIXTURE, self.dir)
        with open(os.path.join(self.dir, 'run.json'), encoding='utf-8') as f:
            run = json.load(f)
        why = 'F2 did not start within 60 s'
        run['schedule'] = {
            'start_timeout': 60.0, 'start_words': 4200, 'shift': 0.001, 'end': 0.007,
            'holding': False, 'not_started': {'F2': why},
            'groups': [{'scheduled': 0.0, 'launched': 0.0, 'flows': ['F1'],
                        'measured': {'F1': 0.001}, 'delay': 0.001, 'failed': {}},
                       {'scheduled': 0.003, 'launched': 0.004, 'flows': ['F2'],
                        'measured': {'F2': None}, 'delay': 0.0, 'failed': {'F2': why}}]}
        run['flows']['F1']['measured_start'] = 0.001
        run['flows']['F2'].update({'started': 0.004, 'measured_start': None, 'not_started': why})
        with open(os.path.join(self.dir, 'run.json'), 'w', encoding='utf-8') as f:
            json.dump(run, f)
        self.summary = report.make(self.dir, plots=False)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_windows_moved(self):
        w = self.summary['windows']
        self.assertEqual((w['alone']['start'], w['alone']['stop']), (0.001, 0.004))
        self.assertEqual((w['alone']['scheduled_start'], w['alone']['scheduled_stop']),
                         (0.0, 0.003))
        self.assertEqual((w['run']['start'], w['run']['stop']), (0.0, 0.007))
        self.assertAlmostEqual(w['edge']['start'], 0.0025)
        self.assertEqual(self.summary['schedule']['shift'], 0.001)
        # the intervals with midpoints 1.5, 2.5 and 3.5 ms
        self.assertEqual(self.summary['flows']['F1']['windows']['alone']['samples'], 3)

    def test_invalid_windows(self):
        w = self.summary['windows']
        why = 'F2 did not start within 60 s'
        self.assertEqual({n: v['invalid'] for n, v in w.items() if not v['valid']},
                         {'run': why, 'both': why, 'edge': why})
        self.assertTrue(w['alone']['valid'])
        for name in ('run', 'both', 'edge'):
            self.assertIsNone(self.summary['flows']['F1']['windows'][name]['mean'])
            self.assertIsNone(self.summary['fairness']['pair']['jain'][name])
            self.assertIsNone(
                self.summary['counters']['S1/3:port_xmit_wait']['windows'][name]['mean'])
        self.assertIsNotNone(self.summary['flows']['F1']['windows']['alone']['mean'])
        f2 = self.summary['flows']['F2']
        self.assertEqual((f2['launched'], f2['measured_start'], f2['not_started']),
                         (0.004, None, why))
        text = report.table(self.summary)
        self.assertIn('INVALID window both: ' + why, text)
        self.assertIn('flows started 1ms later than scheduled', text)
