# SPDX-License-Identifier: GPL-2.0
"""The schedule held for slow flow starts (ibswrun.schedule): a flow's
start found in its counter samples, the shift each group of flows adds,
window edges and the run's end moved by the shifts, the edges known while
a group is held, the windows a flow that did not start invalidates, and
perftest's -D slack."""

import os
import sys
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ibswrun import guest, schedule  # noqa: E402


def group(s, d):
    return {'scheduled': s, 'delay': d}


class MeasuredStart(unittest.TestCase):
    W = schedule.start_words(4096)

    def test_words(self):
        # four packets of 4096 bytes and their headers, in 32-bit words
        self.assertEqual(self.W, 4 * (4096 + 128) // 4)

    def test_first_sample_with_enough_growth(self):
        samples = [(0.0, 100), (0.005, 120), (0.010, 100 + self.W - 1),
                   (0.015, 100 + self.W), (0.020, 10 ** 9)]
        self.assertEqual(schedule.measured_start(samples, 0.0, self.W), 0.015)

    def test_baseline_is_the_last_sample_before_the_launch(self):
        # traffic before the launch (another flow of the host, stopped) counts not
        samples = [(0.0, 0), (0.005, 50000), (0.010, 50000 + self.W), (0.015, 50000 + 2 * self.W)]
        self.assertEqual(schedule.measured_start(samples, 0.007, self.W), 0.010)
        self.assertEqual(schedule.measured_start(samples, 0.010, self.W), 0.015)

    def test_not_yet(self):
        samples = [(0.0, 7), (0.005, 7), (0.010, 9)]
        self.assertIsNone(schedule.measured_start(samples, 0.0, self.W))
        self.assertIsNone(schedule.measured_start([], 0.0, self.W))

    def test_no_sample_before_the_launch(self):
        self.assertEqual(schedule.measured_start([(0.2, 10), (0.3, 10 + self.W)], 0.1, self.W), 0.3)


class Shift(unittest.TestCase):
    def test_group_delay(self):
        # scheduled 250 ms, 100 ms of shift before: due at 350 ms; the later
        # of the two measured starts, 420 ms, is 70 ms late
        self.assertAlmostEqual(schedule.group_delay(0.25, 0.1, [0.4, 0.42]), 0.07)
        self.assertEqual(schedule.group_delay(0.25, 0.1, [0.3]), 0.0)
        self.assertEqual(schedule.group_delay(0.25, 0.1, []), 0.0)

    def test_shift_at(self):
        groups = [group(0.0, 0.1), group(0.25, 0.02), group(0.255, None)]
        self.assertEqual(schedule.shift_at(0.0, groups, False), 0.0)
        self.assertEqual(schedule.shift_at(0.0, groups, True), 0.1)
        self.assertEqual(schedule.shift_at(0.2, groups, False), 0.1)
        self.assertEqual(schedule.shift_at(0.25, groups, False), 0.1)
        self.assertAlmostEqual(schedule.shift_at(0.25, groups, True), 0.12)
        self.assertAlmostEqual(schedule.shift_at(1.0, groups, False), 0.12)
        self.assertAlmostEqual(schedule.total_shift(groups), 0.12)

    def test_seed002_cc_1x(self):
        # F1 at 0 started 100 ms late, F2 at 250 ms 30 ms late, F3-F5
        # each 10 ms late: f1-alone ends at F2's launch, `all` opens after F5
        windows = {'run': (0.0, 2.45), 'f1-alone': (0.2, 0.25), 'all': (0.45, 2.45)}
        groups = [group(0.0, 0.1), group(0.25, 0.03), group(0.255, 0.01), group(0.26, 0.01),
                  group(0.265, 0.01)]
        got = schedule.actual_windows(windows, groups, 2.45)
        self.assertEqual(list(got), ['run', 'f1-alone', 'all'])
        for name, (a, b) in {'run': (0.0, 2.61), 'f1-alone': (0.3, 0.35),
                             'all': (0.61, 2.61)}.items():
            self.assertAlmostEqual(got[name][0], a, msg=name)
            self.assertAlmostEqual(got[name][1], b, msg=name)

    def test_window_opening_with_a_flow_waits_for_it(self):
        got = schedule.actual_windows({'steady': (0.0, 0.01)}, [group(0.0, 0.004)], 0.02)
        self.assertEqual(got, {'run': (0.0, 0.024), 'steady': (0.004, 0.014)})

    def test_no_groups(self):
        w = {'run': (0.0, 1.0), 'a': (0.2, 0.5)}
        self.assertEqual(schedule.actual_windows(w, [], 1.0), w)


class Edges(unittest.TestCase):
    WINDOWS = {'run': (0.0, 0.6), 'f1-alone': (0.2, 0.25), 'all': (0.45, 0.6)}

    def test_edges(self):
        self.assertEqual(schedule.edges(self.WINDOWS, 0.6),
                         [(0.0, False), (0.2, True), (0.25, False), (0.45, True), (0.6, False)])

    def test_known_while_held(self):
        e = schedule.edges(self.WINDOWS, 0.6)
        # F1 held at 0: only time zero is known
        self.assertEqual(schedule.known_edges(e, [group(0.0, None)], 0.0), [0.0])
        # F2 held at 250 ms, F1 was 100 ms late: f1-alone closes at F2's launch
        g = [group(0.0, 0.1), group(0.25, None)]
        self.assertEqual(schedule.known_edges(e, g, 0.25), [0.0, 0.3, 0.35])
        g[1]['delay'] = 0.05
        self.assertEqual(schedule.known_edges(e, g, None), [0.0, 0.3, 0.35, 0.6, 0.75])


class Invalid(unittest.TestCase):
    def test_windows_that_should_hold_the_flow(self):
        windows = {'run': (0.0, 0.6), 'f1-alone': (0.2, 0.25), 'all': (0.45, 0.6),
                   'late': (0.3, 0.4)}
        flows = {'F1': (0.0, 0.6), 'F2': (0.25, 0.6), 'F3': (0.255, 0.35)}
        why = {'F3': 'F3 did not start within 60 s'}
        self.assertEqual(schedule.invalid_windows(windows, flows, why),
                         {'run': [why['F3']], 'late': [why['F3']]})
        why['F2'] = 'F2 exited (status 1) before it started'
        self.assertEqual(schedule.invalid_windows(windows, flows, why),
                         {'run': [why['F2'], why['F3']], 'all': [why['F2']],
                          'late': [why['F2'], why['F3']]})
        self.assertEqual(schedule.invalid_windows(windows, flows, {}), {})


class Perftest(unittest.TestCase):
    def test_slack(self):
        starts = [0.0, 0.25, 0.255, 0.26, 0.265]
        self.assertEqual(schedule.perftest_slack(0.0, 2.45, starts, 60), 300)
        self.assertEqual(schedule.perftest_slack(0.25, 2.45, starts + [0.25], 60), 240)
        self.assertEqual(schedule.perftest_slack(0.0, 0.25, starts, 60), 60)

    def test_duration_with_slack(self):
        f = types.SimpleNamespace(start=0.0, stop=2.45)
        self.assertEqual(guest.perftest_duration(f, 100, 300), 245 + 300 + 10)


if __name__ == '__main__':
    unittest.main()
