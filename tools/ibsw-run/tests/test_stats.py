# SPDX-License-Identifier: GPL-2.0
"""Statistics on known inputs with exact outputs: mean, population
standard deviation, min/max, Jain's index, windows, counter rates."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ibswrun import stats  # noqa: E402


class Stats(unittest.TestCase):
    def test_mean_std(self):
        # The textbook set: mean 5, population std exactly 2 (sample std
        # would be 2.138...).
        xs = [2, 4, 4, 4, 5, 5, 7, 9]
        self.assertEqual(stats.mean(xs), 5.0)
        self.assertEqual(stats.pstd(xs), 2.0)
        self.assertEqual(stats.summarize(xs),
                         {'mean': 5.0, 'std': 2.0, 'min': 2, 'max': 9, 'samples': 8})

    def test_constant_and_single(self):
        self.assertEqual(stats.summarize([3.5] * 4),
                         {'mean': 3.5, 'std': 0.0, 'min': 3.5, 'max': 3.5, 'samples': 4})
        self.assertEqual(stats.summarize([7]),
                         {'mean': 7.0, 'std': 0.0, 'min': 7, 'max': 7, 'samples': 1})

    def test_empty(self):
        self.assertIsNone(stats.mean([]))
        self.assertIsNone(stats.pstd([]))
        self.assertEqual(stats.summarize([]),
                         {'mean': None, 'std': None, 'min': None, 'max': None, 'samples': 0})

    def test_mean_order_independent(self):
        # fsum: the same mean whatever the order of the samples
        xs = [1e16, 1.0, -1e16, 3.0]
        self.assertEqual(stats.mean(xs), 1.0)
        self.assertEqual(stats.mean(list(reversed(xs))), 1.0)

    def test_treatment_variation(self):
        # Seed 002's Var, worked by hand: at t 0.1, 0.2, 0.3 the gaps
        # between the fastest and the slowest of three flows are 2, 4
        # and 0; their mean is 2, their variance (0 + 4 + 4) / 3. The
        # point at 0.4 is outside the window, the one at 0.05 too.
        a = [(0.05, 9.0), (0.1, 1.0), (0.2, 5.0), (0.3, 2.0), (0.4, 0.0)]
        b = [(0.05, 0.0), (0.1, 3.0), (0.2, 1.0), (0.3, 2.0), (0.4, 8.0)]
        c = [(0.05, 1.0), (0.1, 2.0), (0.2, 3.0), (0.3, 2.0), (0.4, 1.0)]
        self.assertEqual(stats.treatment_variation([a, b, c], 0.1, 0.4),
                         {'var': 8 / 3, 'gap': 2.0, 'samples': 3})

    def test_treatment_variation_needs_every_flow(self):
        # a sample time where one flow has no value (None, or no point)
        # does not count: the gap would not be the set's
        a = [(0.1, 1.0), (0.2, 4.0), (0.3, 3.0)]
        b = [(0.1, 2.0), (0.2, None)]
        self.assertEqual(stats.treatment_variation([a, b], 0.0, 1.0),
                         {'var': 0.0, 'gap': 1.0, 'samples': 1})
        # a set treated alike at every sample: no gap, no variance
        self.assertEqual(stats.treatment_variation([a, a], 0.0, 1.0),
                         {'var': 0.0, 'gap': 0.0, 'samples': 3})

    def test_treatment_variation_undefined(self):
        none = {'var': None, 'gap': None, 'samples': 0}
        self.assertEqual(stats.treatment_variation([], 0.0, 1.0), none)
        self.assertEqual(stats.treatment_variation([[(0.5, 1.0)], [(0.6, 1.0)]], 0.0, 1.0),
                         none)
        self.assertEqual(stats.treatment_variation([[(2.0, 1.0)]], 0.0, 1.0), none)

    def test_jain_equal_shares(self):
        self.assertEqual(stats.jain([4.0, 4.0, 4.0, 4.0]), 1.0)
        self.assertEqual(stats.jain([2.5, 2.5]), 1.0)

    def test_jain_one_of_n(self):
        for n in (2, 3, 4, 5, 8):
            self.assertEqual(stats.jain([6.0] + [0.0] * (n - 1)), 1 / n)

    def test_jain_hand_computed(self):
        # (1+2+3)^2 / (3 * (1+4+9)) = 36/42 = 6/7
        self.assertEqual(stats.jain([1, 2, 3]), 6 / 7)
        # seed 002's parking lot: F2, F3 at 2 Gb/s, F4, F5 at 4.5:
        # 13^2 / (4 * (4+4+20.25+20.25)) = 169/194
        self.assertEqual(stats.jain([2, 2, 4.5, 4.5]), 169 / 194)

    def test_jain_undefined(self):
        self.assertIsNone(stats.jain([]))
        self.assertIsNone(stats.jain([0, 0, 0]))
        self.assertIsNone(stats.jain([1.0, None]))

    def test_shares(self):
        # seed 002's parking lot without CC: F2, F3 a sixth, F4, F5 a third
        self.assertEqual(stats.shares([1.5, 1.5, 3.0, 3.0]), [1 / 6, 1 / 6, 1 / 3, 1 / 3])
        self.assertEqual(stats.shares([2.0, 0.0]), [1.0, 0.0])
        self.assertIsNone(stats.shares([]))
        self.assertIsNone(stats.shares([0, 0]))
        self.assertIsNone(stats.shares([1.0, None]))

    def test_payload_fraction(self):
        # (verb, size, mtu, wire bytes of one message, counted by hand:
        # payload + pad + packets x (LRH 8 + BTH 12 + ICRC 4 + VCRC 2)
        # + RETH 16 for a write)
        cases = [
            ('write', 1, 2048, 1 + 3 + 26 + 16),
            ('write', 4, 2048, 4 + 26 + 16),
            ('write', 2048, 2048, 2048 + 26 + 16),
            ('write', 2049, 2048, 2049 + 3 + 52 + 16),
            ('write', 65536, 2048, 65536 + 32 * 26 + 16),
            ('write', 65536, 4096, 65536 + 16 * 26 + 16),
            ('write', 1048576, 2048, 1048576 + 512 * 26 + 16),
            ('send', 1, 4096, 1 + 3 + 26),
            ('send', 4097, 4096, 4097 + 3 + 52),
        ]
        for verb, size, mtu, wire in cases:
            with self.subTest(verb=verb, size=size, mtu=mtu):
                self.assertAlmostEqual(stats.payload_fraction(verb, size, mtu), size / wire)
        self.assertIsNone(stats.payload_fraction('read', 65536, 2048))
        self.assertIsNone(stats.payload_fraction('write', 65536, None))
        self.assertIsNone(stats.payload_fraction('write', 0, 2048))

    def test_window_selection(self):
        pts = [(0.5, 1), (1.5, 2), (2.5, None), (3.0, 4), (3.5, 5)]
        # [start, stop): the start counts, the stop does not; None skipped
        self.assertEqual(stats.select(pts, 1.5, 3.0), [2])
        self.assertEqual(stats.select(pts, 3.0, 3.5), [4])
        self.assertEqual(stats.select(pts, 0, 10), [1, 2, 4, 5])
        self.assertEqual(stats.select(pts, 4, 10), [])
        self.assertTrue(stats.in_window(1.0, 1.0, 2.0))
        self.assertFalse(stats.in_window(2.0, 1.0, 2.0))

    def test_rates(self):
        t = [0.0, 1.0, 2.0, 4.0, 5.0, 5.0, 6.0]
        v = [0, 10, 30, 70, 5, 6, None]
        self.assertEqual(stats.rates(t, v),
                         [(0.5, 10.0), (1.5, 20.0), (3.0, 20.0),
                          (4.5, None),		# counter went down: reset
                          # no point for the zero-length interval 5.0-5.0
                          (5.5, None)])	# missing value
        # words to Gb/s: 250000 words in 1 ms = 8 Gb/s
        self.assertEqual(stats.rates([0.0, 0.001], [0, 250000], 32, 1e9), [(0.0005, 8.0)])
        self.assertEqual(stats.rates([], []), [])
        self.assertEqual(stats.rates([0.0], [5]), [])


if __name__ == '__main__':
    unittest.main()
