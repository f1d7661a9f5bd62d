# SPDX-License-Identifier: GPL-2.0
"""tests/dcms_run.py's recovery judgment on runs written here: dcms's
sweep CSV and log, and the runner's 5 ms samples."""

import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

JUDGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'dcms_run.py')
SWEEP = 0.04
SAMPLE = 0.005
SOLO_GBPS = 2.0


def words(gbps, seconds):
    return int(gbps * 1e9 / 32 * seconds)


def write_run(d, xy, ad, low_sweep):
    """xy(t), ad(t): Gb/s at emulated time t; dcms set S2/23 Low in
    low_sweep. One second of run, sweeps of 40 ms, samples of 5 ms."""
    with open(os.path.join(d, 'throughput.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['t', 'X-Y', 'A-D'])
        for i in range(200):
            t = (i + 0.5) * SAMPLE
            w.writerow([t, xy(t), ad(t)])
    cols = ['t', 'elapsed']
    for p in ('S1/15', 'S2/23', 'S2/24'):
        cols += ['%s:%s' % (p, c) for c in ('dW', 'dD', 'dC', 'mr')]
    with open(os.path.join(d, 'dcms.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, cols)
        w.writeheader()
        for k in range(1, 26):
            t1 = k * SWEEP
            # the sweep's mean of each flow, from 1 ms steps
            ms = [t1 - SWEEP + (j + 0.5) / 1000 for j in range(40)]
            xy_w = sum(words(xy(t), 0.001) for t in ms)
            ad_w = sum(words(ad(t), 0.001) for t in ms)
            row = {c: '' for c in cols}
            row.update({'t': '%.6f' % t1, 'elapsed': '%.6f' % SWEEP,
                        'S1/15:dD': xy_w + ad_w, 'S1/15:dW': 0, 'S2/24:dD': xy_w,
                        'S2/24:dC': 0, 'S2/23:dC': 0, 'S2/23:mr': 128})
            w.writerow(row)
    log = [{'t': 0.0, 'sweep': 0, 'event': 'start', 'T_I': 4, 'T_C': 100, 'T_W': 100,
            'Low': 0, 'Default': 128},
           {'t': low_sweep * SWEEP, 'sweep': low_sweep, 'event': 'set_low', 'switch': 'S2',
            'port': 23, 'mr': 0}]
    with open(os.path.join(d, 'dcms.jsonl'), 'w') as f:
        for e in log:
            f.write(json.dumps(e) + '\n')


def judge(d):
    p = subprocess.run([sys.executable, JUDGE, d, 'recovery'], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


AD_START = 0.3376


def ad_flow(t):
    return 0.65 if t >= AD_START else 0.0


class Recovery(unittest.TestCase):
    def run_judge(self, xy, low_sweep=9):
        with tempfile.TemporaryDirectory() as d:
            write_run(d, xy, ad_flow, low_sweep)
            return judge(d)

    def test_short_dip_across_sweeps(self):
        # CI's failing run: X-Y at 33% for 35 ms from A-D's start, split
        # over sweeps 9 and 10 (each mean above 60%); then the Low acts
        def xy(t):
            return 0.66 if AD_START <= t < AD_START + 0.035 else SOLO_GBPS
        rc, out = self.run_judge(xy)
        self.assertEqual(rc, 0, out)
        self.assertIn('as a victim 33% of it', out)

    def test_no_dip_no_victim(self):
        rc, out = self.run_judge(lambda t: SOLO_GBPS)
        self.assertEqual(rc, 1, out)
        self.assertIn('kept 100% of its solo rate after A-D started: no victim', out)

    def test_dip_below_the_window(self):
        # a 10 ms dip is half of the 20 ms window: 66% of solo, no victim
        def xy(t):
            return 0.66 if AD_START <= t < AD_START + 0.01 else SOLO_GBPS
        rc, out = self.run_judge(xy)
        self.assertEqual(rc, 1, out)
        self.assertIn('kept 66%', out)

    def test_no_recovery(self):
        def xy(t):
            return 0.66 if t >= AD_START else SOLO_GBPS
        rc, out = self.run_judge(xy)
        self.assertEqual(rc, 1, out)
        self.assertIn('did not regain 80%', out)

    def test_ad_never_ran(self):
        with tempfile.TemporaryDirectory() as d:
            write_run(d, lambda t: SOLO_GBPS, lambda t: 0.0, 9)
            rc, out = judge(d)
        self.assertEqual(rc, 1, out)
        self.assertIn('never ran', out)


if __name__ == '__main__':
    unittest.main()
