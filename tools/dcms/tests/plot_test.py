#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of dcms-plot: the gnuplot script it writes for a fixture run,
its errors, and (with gnuplot installed) the PNG. Prints "PASS: dcms-plot/
CASE" or "FAIL: dcms-plot/CASE (why)" per case; exit 1 if any failed."""

import contextlib
import importlib.machinery
import io
import importlib.util
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, 'fixtures')
loader = importlib.machinery.SourceFileLoader('dcms_plot', os.path.join(HERE, '..', 'dcms-plot'))
spec = importlib.util.spec_from_loader('dcms_plot', loader)
plot = importlib.util.module_from_spec(spec)
loader.exec_module(plot)


class Plot(unittest.TestCase):
    def setUp(self):
        self.csv = os.path.join(FIX, 'plot.csv')
        self.header, self.rows = plot.read_csv(self.csv)

    def test_ports_of_the_csv(self):
        self.assertEqual(plot.csv_ports(self.header), ['S1/15', 'S2/23'])

    def test_only_counters_that_moved(self):
        s = plot.script('x.csv', self.header, self.rows, ['S1/15', 'S2/23'], [], 'o.png')
        # S1/15's congestion time and S2/23's wait never moved
        self.assertIn("'S1/15 PortXmitWait (ticks/s)'", s)
        self.assertIn("'S1/15 PortXmitData (words/s)'", s)
        self.assertIn("'S2/23 PortXmitCongTime (ticks/s)'", s)
        self.assertNotIn('S1/15 PortXmitCongTime', s)
        self.assertNotIn('S2/23 PortXmitWait', s)
        # rates are deltas over the sweep's length (column 2), S1/15:dW is column 3
        self.assertIn('using 1:($3 > 0 ? $3/$2 : 1/0)', s)
        self.assertIn("using 1:10 with steps lw 2 title 'S2/23 Marking_Rate'", s)
        self.assertIn("set output 'o.png'", s)

    def test_decisions_marked(self):
        ev = plot.read_events(os.path.join(FIX, 'plot.jsonl'))
        self.assertEqual(ev, [(0.02, 'set_low', 'S2/23', 0), (0.03, 'set_default', 'S2/23', 128)])
        s = plot.script('x.csv', self.header, self.rows, ['S2/23'], ev, 'o.png')
        self.assertIn("set arrow from 0.020000, graph 0 to 0.020000, graph 1 nohead dt 2 lc 'red'", s)
        self.assertIn("lc 'dark-green'", s)
        # a port not plotted gets no marks
        s = plot.script('x.csv', self.header, self.rows, ['S1/15'], ev, 'o.png')
        self.assertNotIn('set arrow', s)

    def test_errors(self):
        with self.assertRaisesRegex(plot.PlotError, 'port S9/1 is not in the CSV'):
            plot.script('x.csv', self.header, self.rows, ['S9/1'], [], 'o.png')
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, 'bad.csv')
            with open(bad, 'w') as f:
                f.write('a,b,c\n')
            with self.assertRaisesRegex(plot.PlotError, 'not a dcms CSV'):
                plot.read_csv(bad)
            log = os.path.join(d, 'bad.jsonl')
            with open(log, 'w') as f:
                f.write('{"event": "start"}\n{nope\n')
            with self.assertRaisesRegex(plot.PlotError, 'bad.jsonl:2:'):
                plot.read_events(log)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(plot.main([bad]), 2)
            self.assertIn('not a dcms CSV', err.getvalue())
        with self.assertRaisesRegex(plot.PlotError, 'No such file'):
            plot.read_csv('/nonexistent.csv')

    @unittest.skipUnless(shutil.which('gnuplot'), 'no gnuplot')
    def test_png(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'f.png')
            self.assertEqual(plot.main([self.csv, '--log', os.path.join(FIX, 'plot.jsonl'),
                                        '-o', out]), 0)
            with open(out, 'rb') as f:
                self.assertEqual(f.read(8), b'\x89PNG\r\n\x1a\n')
            self.assertTrue(os.path.exists(os.path.join(d, 'f.gp')))


class Result(unittest.TestResult):
    def name(self, test):
        return 'dcms-plot/' + test.id().split('.')[-1].removeprefix('test_')

    def addSuccess(self, test):
        super().addSuccess(test)
        print('PASS: ' + self.name(test))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        print('FAIL: %s (%s)' % (self.name(test), err[1]))

    def addError(self, test, err):
        super().addError(test, err)
        print('FAIL: %s (%s: %s)' % (self.name(test), err[0].__name__, err[1]))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print('SKIP: %s (%s)' % (self.name(test), reason))


if __name__ == '__main__':
    result = Result()
    unittest.defaultTestLoader.loadTestsFromTestCase(Plot).run(result)
    sys.exit(0 if result.wasSuccessful() else 1)
