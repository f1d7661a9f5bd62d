# SPDX-License-Identifier: GPL-2.0
"""CCT generation (ibswrun/cct.py) and the ibsw-cct command."""

import os
import subprocess
import sys
import unittest

from ibswrun import cct

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, '..', 'ibsw-cct')


class Rates(unittest.TestCase):
    def test_names(self):
        self.assertEqual(cct.rate_bps('4xQDR'), 32e9)
        self.assertEqual(cct.rate_bps('1x SDR'), 2e9)
        self.assertEqual(cct.rate_bps('12xEDR'), 300e9)
        self.assertAlmostEqual(cct.rate_bps('4xFDR'), 54545454545.45, places=1)
        self.assertEqual(cct.rate_bps('2e9'), 2e9)

    def test_bad(self):
        for word in ('4xQQR', '3xQDR', 'fast', '0', '-5'):
            with self.subTest(word=word), self.assertRaises(cct.CctError):
                cct.rate_bps(word)

    def test_max_packet(self):
        # 4154 wire bytes at 4x QDR
        self.assertAlmostEqual(cct.max_packet_us(32e9, 4096), 1.0385)
        self.assertAlmostEqual(cct.max_packet_us(2e9, 1024), 4.328)


class Entries(unittest.TestCase):
    def test_finest_shift_that_fits(self):
        self.assertEqual(cct.entry(0, 1.0), (0, 0))
        self.assertEqual(cct.entry(1.0, 1.0), (3, 8))
        self.assertEqual(cct.entry(0.125, 1.0), (3, 1))
        self.assertEqual(cct.entry(16383 / 8, 1.0), (3, 16383))
        self.assertEqual(cct.entry(2048, 1.0), (2, 8192))
        self.assertEqual(cct.entry(16383, 1.0), (0, 16383))

    def test_beyond_the_table(self):
        with self.assertRaisesRegex(cct.CctError, 'beyond the largest entry'):
            cct.entry(16384, 1.0)
        with self.assertRaises(cct.CctError):
            cct.entry(-1, 1.0)

    def test_ird_of_entry(self):
        self.assertEqual(cct.ird_us((3, 8), 2.0), 2.0)
        self.assertEqual(cct.ird_us((0, 5), 2.0), 10.0)


class Shapes(unittest.TestCase):
    def test_seed002(self):
        irds = cct.shape('seed002')
        self.assertEqual(len(irds), 128)
        self.assertEqual(irds[0], 0)
        self.assertAlmostEqual(irds[127], 127 ** 2 * 7 / 1062)

    def test_linear_and_quadratic(self):
        self.assertEqual(cct.shape('linear', 4, 2.5), [0, 2.5, 5.0, 7.5])
        self.assertEqual(cct.shape('quadratic', 3, 1.0), [0, 1.0, 4.0])

    def test_errors(self):
        for args in (('quadratic',), ('linear', 0, 1.0), ('linear', 257, 1.0),
                     ('cubic', 8, 1.0), ('linear', 8, -1.0)):
            with self.subTest(args=args), self.assertRaises(cct.CctError):
                cct.shape(*args)

    def test_seed002_table_follows_the_paper(self):
        # every IRD within half a step (1/16 of a packet time) of the paper's
        unit = cct.max_packet_us(32e9, 4096)
        want = cct.shape('seed002')
        for i, e in enumerate(cct.table(want, 32e9, 4096)):
            self.assertLessEqual(abs(cct.ird_us(e, unit) - want[i]), unit / 16 + 1e-9, i)
        self.assertEqual(cct.table(want, 32e9, 4096)[127], (3, 819))


class Text(unittest.TestCase):
    def test_round_trip(self):
        t = [(0, 0), (3, 16383), (1, 7)]
        self.assertEqual(cct.format_table(t), '0:0 3:16383 1:7')
        self.assertEqual(cct.format_table(t, ','), '0:0,3:16383,1:7')
        self.assertEqual(cct.parse_table('0:0, 3:16383\n1:7'), t)

    def test_parse_errors(self):
        for text in ('', '4:1', '0:16384', '0:1,x', '1', ' '.join(['0:1'] * 257)):
            with self.subTest(text=text[:20]), self.assertRaises(cct.CctError):
                cct.parse_table(text)

    def test_spec(self):
        self.assertEqual(cct.spec('0:0,0:3', 2e9, 4096), [(0, 0), (0, 3)])
        self.assertEqual(len(cct.spec('seed002', 32e9, 4096)), 128)
        self.assertEqual(cct.spec('linear:3:8.656', 2e9, 1024), [(0, 0), (3, 16), (3, 32)])
        for text in ('cubic', 'linear:x', 'linear:4', 'linear:4:1:2', '0:0,9:9'):
            with self.subTest(text=text), self.assertRaises(cct.CctError):
                cct.spec(text, 2e9, 4096)


class Command(unittest.TestCase):
    def run_tool(self, *args):
        return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)

    def test_seed002(self):
        r = self.run_tool('seed002', '--rate', '4xQDR')
        self.assertEqual(r.returncode, 0, r.stderr)
        t = cct.parse_table(r.stdout)
        self.assertEqual(len(t), 128)
        self.assertEqual(t[127], (3, 819))

    def test_opensm_and_show(self):
        r = self.run_tool('linear', '--coef', '2', '--entries', '4', '--rate', '2e9',
                          '--opensm')
        self.assertEqual(r.stdout.strip().count(','), 3)
        r = self.run_tool('linear', '--coef', '2', '--entries', '4', '--rate', '2e9',
                          '--show')
        self.assertEqual(r.returncode, 0)
        self.assertEqual(len(r.stdout.strip().splitlines()), 5)

    def test_errors(self):
        r = self.run_tool('seed002', '--rate', '4xQQR')
        self.assertEqual(r.returncode, 2)
        self.assertIn("bad rate '4xQQR'", r.stderr)
        r = self.run_tool('linear', '--rate', '2e9')
        self.assertEqual(r.returncode, 2)
        self.assertIn('needs a coefficient', r.stderr)


if __name__ == '__main__':
    unittest.main()
