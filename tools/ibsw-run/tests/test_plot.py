# SPDX-License-Identifier: GPL-2.0
"""The NetPIPE figure: its gnuplot script (a line per curve in each of the
two panels, log-log) and, with gnuplot, the PNG drawn from it."""

import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ibswrun import plot  # noqa: E402

# NetPIPE's output: bytes, Mb/s, one-way seconds
NP = '1 0.001 0.005\n1024 0.6 0.012\n65536 7.4 0.067\n'


class Netpipe(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-plot-test-')
        for name in ('a.out', "it's.out"):
            with open(os.path.join(self.tmp, name), 'w', encoding='ascii') as f:
                f.write(NP)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_script_and_png(self):
        curves = [('No congestion', 'a.out'), ("CC 'off'", "it's.out")]
        try:
            png = plot.netpipe(self.tmp, 'np', curves, 'T')
        except plot.PlotError:
            if plot.available():
                raise
            png = None
        with open(os.path.join(self.tmp, 'np.gp'), encoding='utf-8') as f:
            gp = f.read()
        self.assertIn("set output 'np.png'", gp)
        self.assertIn('set logscale xy', gp)
        self.assertEqual(gp.count("'a.out' using 1:2 "), 1)
        self.assertEqual(gp.count("'a.out' using 1:($3*1e3) "), 1)
        self.assertEqual(gp.count("'it''s.out' using"), 2)
        self.assertEqual(gp.count("title 'CC ''off'''"), 2)
        if not plot.available():
            self.skipTest('gnuplot not installed')
        self.assertEqual(png, os.path.join(self.tmp, 'np.png'))
        with open(png, 'rb') as f:
            self.assertEqual(f.read(8), b'\x89PNG\r\n\x1a\n')


if __name__ == '__main__':
    unittest.main()
