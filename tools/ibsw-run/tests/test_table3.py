# SPDX-License-Identifier: GPL-2.0
"""Seed 002's Table III: the paper's ratios, ours from three HPCC
summaries, missing runs and fields, and the Markdown table."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ibswrun import mpi  # noqa: E402
from ibswrun import table3  # noqa: E402


class Table3(unittest.TestCase):
    def test_paper(self):
        rows = {r['key']: r for r in table3.compare({})}
        self.assertEqual(list(rows), [k for _, k, _ in mpi.TABLE3])
        # the paper's text: random-ring latency 2036 -> 11088 -> 2073,
        # PTRANS +76% with CC over CC off
        ror = rows['RandomlyOrderedRingLatency_usec']
        self.assertAlmostEqual(ror['paper_b'], 11088 / 2036)
        self.assertAlmostEqual(ror['paper_c'], 2073 / 2036)
        pt = table3.PAPER['PTRANS_GBs']
        self.assertAlmostEqual(pt[2] / pt[1], 1.760, places=3)
        self.assertEqual(ror['ours'], {'a': None, 'b': None, 'c': None})
        self.assertIsNone(ror['ratio_b'])

    def test_ours(self):
        rows = {r['key']: r for r in table3.compare({
            'a': {'RandomlyOrderedRingLatency_usec': 2000.0, 'PTRANS_GBs': 0.0},
            'b': {'RandomlyOrderedRingLatency_usec': 7000.0, 'PTRANS_GBs': 0.5},
            'c': {'RandomlyOrderedRingLatency_usec': 2100.0}})}
        ror = rows['RandomlyOrderedRingLatency_usec']
        self.assertEqual(ror['ours'], {'a': 2000.0, 'b': 7000.0, 'c': 2100.0})
        self.assertAlmostEqual(ror['ratio_b'], 3.5)
        self.assertAlmostEqual(ror['ratio_c'], 1.05)
        # a zero or missing a) gives no ratio
        self.assertIsNone(rows['PTRANS_GBs']['ratio_b'])
        self.assertIsNone(rows['PTRANS_GBs']['ratio_c'])

    def test_markdown(self):
        md = table3.markdown(table3.compare({'a': {'PTRANS_GBs': 0.002},
                                             'b': {'PTRANS_GBs': 0.001}}))
        lines = md.splitlines()
        self.assertEqual(len(lines), 2 + len(mpi.TABLE3))
        self.assertIn('| PTRANS | GB/s | 0.002 | 0.001 | - | 0.50 | - | 0.46 | 0.81 |', lines)

    def test_load(self):
        rows = table3.compare({'a': {'PTRANS_GBs': 0.002}, 'b': None, 'c': None,
                               'load': {'PTRANS_GBs': 0.0015}})
        pt = {r['key']: r for r in rows}['PTRANS_GBs']
        self.assertEqual(pt['ours']['load'], 0.0015)
        self.assertAlmostEqual(pt['ratio_load'], 0.75)
        lines = table3.markdown(rows).splitlines()
        self.assertEqual(lines[0].count('|'), 12)
        self.assertIn("| a') CPU load only | b/a |", lines[0])
        self.assertIn('| PTRANS | GB/s | 0.002 | - | - | 0.0015 | - | - | 0.46 | 0.81 | 0.75 |',
                      lines)
        # no control run: no such columns
        self.assertNotIn("a'", table3.markdown(table3.compare({})))


if __name__ == '__main__':
    unittest.main()
