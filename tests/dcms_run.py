#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a run of scenarios/seed000-dcms-1x.scn from what dcms wrote.

The decisions are read from dcms's own files, in its own time base: the
JSON-lines log (decisions) and the CSV of per-sweep deltas of S1/15 (the
victim port), S2/23 (the root, towards D) and S2/24 (towards Y: X-Y's
traffic alone).  A-D's traffic is S1/15's minus S2/24's: the switch link
carries X-Y and A-D only.  X-Y's dip as a victim is read from the
runner's 5 ms samples (throughput.csv): it lasts until the Low acts,
less than a sweep, so a sweep's mean hides part of it.

    tests/dcms_run.py RUNDIR CHECK...

Each CHECK prints "# " lines with its numbers, and the script exits 1 with
the reason of the first that fails (2 for unusable input).  Checks:

  localized    before A-D, S2/23 was congested and nothing was decided
  low          the first Low of S2/23 came within two sweeps of A-D's start
  recovery     X-Y back to at least 80% of its solo rate within three sweeps
  t_i          Default again after exactly T_I sweeps of Low, then a second
               cycle of Low within T_I sweeps while X-Y still ran (the
               paper's Fig. 6)
  restore      on exit dcms restored every port it had changed
"""

import csv
import json
import os
import sys

ROOT, VICTIM, TO_Y = 'S2/23', 'S1/15', 'S2/24'
# A flow is running once it carries a tenth of a 1x SDR link (2 Gb/s)
RUNNING_WORDS_PER_S = 0.1 * 2e9 / 32
RECOVERY_SHARE = 0.8
RECOVERY_SWEEPS = 3
# X-Y is a victim if it keeps at most this much of its solo rate over
# VICTIM_WINDOW seconds (four of the runner's samples) in the
# VICTIM_SEARCH seconds after A-D starts (the Low comes within two sweeps)
VICTIM_SHARE = 0.6
VICTIM_WINDOW = 0.02
VICTIM_SEARCH = 0.12


class Bad(Exception):
    pass


class Run:
    def __init__(self, d):
        try:
            with open(os.path.join(d, 'dcms.jsonl')) as f:
                self.log = [json.loads(line) for line in f if line.strip()]
            with open(os.path.join(d, 'dcms.csv')) as f:
                rows = list(csv.DictReader(f))
        except (OSError, ValueError) as e:
            raise SystemExit('dcms_run: %s' % e) from e
        start = [e for e in self.log if e['event'] == 'start']
        if not start:
            raise SystemExit('dcms_run: no start event in the log')
        self.t_i, self.t_c, self.t_w = start[0]['T_I'], start[0]['T_C'], start[0]['T_W']
        self.low, self.default = start[0]['Low'], start[0]['Default']
        # One CSV row per sweep from sweep 1, the baseline; self.sweeps[k]
        # is sweep k, as the log numbers them (0: the start, no row)
        self.sweeps = [{'k': 0, 't': 0.0, 'xy': None, 'link': None, 'root_dC': None,
                        'mr': None}]
        for k, r in enumerate(rows, start=1):
            el = float(r['elapsed'] or 0)

            def rate(port, what):
                v = r.get('%s:%s' % (port, what), '')
                return int(v) / el if v != '' and el > 0 else None
            self.sweeps.append({
                'k': k, 't': float(r['t']),
                'xy': rate(TO_Y, 'dD'),
                'link': rate(VICTIM, 'dD'),
                'root_dC': int(r[ROOT + ':dC']) if r[ROOT + ':dC'] != '' else None,
                'to_y_dC': int(r[TO_Y + ':dC']) if r[TO_Y + ':dC'] != '' else 0,
                'victim_dW': int(r[VICTIM + ':dW']) if r[VICTIM + ':dW'] != '' else 0,
                'mr': r[ROOT + ':mr'],
            })
        for s in self.sweeps:
            s['ad'] = (s['link'] - s['xy']
                       if s['link'] is not None and s['xy'] is not None else None)
        self.samples = read_samples(os.path.join(d, 'throughput.csv'))

    def events(self, name, port=ROOT):
        sw, p = port.split('/')
        return [e for e in self.log if e['event'] == name and
                e.get('switch') == sw and e.get('port') == int(p)]

    def first_sweep(self, key):
        for s in self.sweeps:
            if s[key] is not None and s[key] > RUNNING_WORDS_PER_S:
                return s['k']
        raise Bad('%s never ran (no sweep with %s above %.0f words/s)'
                  % (key, key, RUNNING_WORDS_PER_S))

    def ad_start(self):
        return self.first_sweep('ad')

    def xy_solo(self):
        """X-Y's mean rate over the three sweeps before A-D started"""
        k = self.ad_start()
        xs = [s['xy'] for s in self.sweeps[max(2, k - 3):k] if s['xy']]
        if len(xs) < 2 or min(xs) < RUNNING_WORDS_PER_S:
            raise Bad('X-Y was not running alone before A-D (sweeps %d-%d)' % (k - 3, k - 1))
        return sum(xs) / len(xs)

    def first_low(self):
        lows = self.events('set_low')
        if not lows:
            raise Bad('%s was never set to Low' % ROOT)
        return lows[0]


    def victim_share(self):
        """X-Y's lowest VICTIM_WINDOW mean after A-D's start, over its mean
        of the VICTIM_SEARCH seconds before; from the runner's samples"""
        s = self.samples
        running = RUNNING_WORDS_PER_S * 32 / 1e9
        start = next((i for i, x in enumerate(s) if x['A-D'] > running), None)
        if start is None:
            raise Bad('A-D never ran in the runner\'s samples')
        t0 = s[start]['t']
        solo = [x['X-Y'] for x in s if t0 - VICTIM_SEARCH <= x['t'] < t0]
        if len(solo) < 2 or min(solo) < running:
            raise Bad('X-Y was not running alone in the %.0f ms before A-D'
                      % (1000 * VICTIM_SEARCH))
        after = [x for x in s[start:] if x['t'] < t0 + VICTIM_SEARCH]
        means = []
        for i in range(len(after)):
            w = [x['X-Y'] for x in after[i:] if x['t'] < after[i]['t'] + VICTIM_WINDOW - 1e-9]
            if after[i]['t'] + VICTIM_WINDOW <= t0 + VICTIM_SEARCH:
                means.append((sum(w) / len(w), after[i]['t']))
        if not means:
            raise Bad('no samples in the %.0f ms after A-D started' % (1000 * VICTIM_SEARCH))
        low, t = min(means)
        return low / (sum(solo) / len(solo)), t - t0


def read_samples(path):
    """throughput.csv: t, then each flow's Gb/s"""
    try:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        return [{'t': float(r['t']), 'X-Y': float(r['X-Y'] or 0), 'A-D': float(r['A-D'] or 0)}
                for r in rows]
    except (OSError, ValueError, KeyError) as e:
        raise SystemExit('dcms_run: %s: %s' % (path, e)) from e


def gbps(words_per_s):
    return words_per_s * 32 / 1e9


def note(fmt, *args):
    print('# ' + fmt % args)


def check_localized(r):
    k = r.ad_start()
    congested = [s for s in r.sweeps[2:k] if s['root_dC']]
    decided = [e for e in r.log if e['event'] in ('victim_add', 'set_low')
               and e['sweep'] < k]
    note('A-D started in sweep %d; before it %s was in congestion in %d sweeps',
         k, ROOT, len(congested))
    if len(congested) < 2:
        raise Bad('%s was not congested before A-D: no localized congestion to leave alone'
                  % ROOT)
    if decided:
        raise Bad('dcms acted before A-D: %s' % json.dumps(decided[0]))


def check_low(r):
    k = r.ad_start()
    e = r.first_low()
    note('first set_low of %s in sweep %d (t %.3f s), A-D started in sweep %d; '
         'victim %s/%s dW %s, root dC %s, mr %s, applied %s', ROOT, e['sweep'], e['t'], k,
         e['victim']['switch'], e['victim']['port'], e['victim']['dW'], e['root']['dC'],
         e['mr'], e['applied'])
    if not k <= e['sweep'] <= k + 2:
        raise Bad('first Low in sweep %d, A-D started in sweep %d' % (e['sweep'], k))
    if '%s/%s' % (e['victim']['switch'], e['victim']['port']) != VICTIM:
        raise Bad('the victim port was %s/%s, not %s'
                  % (e['victim']['switch'], e['victim']['port'], VICTIM))
    if e['mr'] != r.low or e['applied'] != 'yes':
        raise Bad('Low not applied: %s' % json.dumps(e))
    # X-Y's backlog, released by the Low, keeps port 24 in congestion;
    # it stays no root only while the victim port waits under T_W then
    hot = [s for s in r.sweeps[1:] if s['to_y_dC'] > r.t_c]
    note('%s above T_C %d in %d sweeps (at most %d ticks); %s waited at most %s of T_W %d in them',
         TO_Y, r.t_c, len(hot), max(s['to_y_dC'] for s in r.sweeps[1:]), VICTIM,
         max((s['victim_dW'] for s in hot), default='-'), r.t_w)
    others = [x for x in r.log if x['event'] == 'set_low' and
              '%s/%s' % (x['switch'], x['port']) != ROOT]
    if others:
        raise Bad('another port was set to Low: %s' % json.dumps(others[0]))


def check_recovery(r):
    solo = r.xy_solo()
    k = r.first_low()['sweep']
    after = r.sweeps[k + 1:k + 1 + RECOVERY_SWEEPS]
    shares = [s['xy'] / solo for s in after if s['xy'] is not None]
    victim, when = r.victim_share()
    note('X-Y alone %.2f Gb/s; as a victim %.0f%% of it (%.0f ms from %.0f ms after A-D\'s start);'
         ' after the Low, in the next %d sweeps %s', gbps(solo), 100 * victim,
         1000 * VICTIM_WINDOW, 1000 * when, RECOVERY_SWEEPS,
         ', '.join('%.0f%%' % (100 * x) for x in shares))
    if victim > VICTIM_SHARE:
        raise Bad('X-Y kept %.0f%% of its solo rate after A-D started: no victim' % (100 * victim))
    if not shares or max(shares) < RECOVERY_SHARE:
        raise Bad('X-Y did not regain %.0f%% of its solo rate within %d sweeps'
                  % (100 * RECOVERY_SHARE, RECOVERY_SWEEPS))


def check_t_i(r):
    low = r.first_low()
    defaults = [e for e in r.events('set_default') if e['sweep'] > low['sweep']]
    if not defaults:
        raise Bad('%s never went back to Default after the Low of sweep %d' % (ROOT, low['sweep']))
    d = defaults[0]
    # Low in sweep k is interval 1; interval T_I, the restore, is T_I - 1 sweeps later
    want = low['sweep'] + r.t_i - 1
    note('Low in sweep %d, Default in sweep %d (reason %s, interval %s, T_I %d)',
         low['sweep'], d['sweep'], d['reason'], d['interval'], r.t_i)
    if d['reason'] != 'I=T_I' or d['sweep'] != want or d['mr'] != r.default:
        raise Bad('wanted Default for I=T_I in sweep %d, got %s' % (want, json.dumps(d)))
    if r.sweeps[d['sweep']]['xy'] is None or r.sweeps[d['sweep']]['xy'] < RUNNING_WORDS_PER_S:
        raise Bad('X-Y was not running at the Default: no second cycle to see')
    # The tree regrows once the sources' CCTIs decay: usually by the next
    # sweep; a sweep in which the CPU stalled the flows (CI saw one) delays
    # it. A second Low within T_I sweeps is a second cycle of Fig. 6.
    again = [e for e in r.events('set_low') if d['sweep'] < e['sweep'] <= d['sweep'] + r.t_i]
    upto = again[0]['sweep'] if again else min(d['sweep'] + r.t_i, len(r.sweeps) - 1)
    note('after the Default: %s', ', '.join(
        'sweep %d root dC %s victim dW %s X-Y %.2f Gb/s' %
        (s['k'], s['root_dC'], s['victim_dW'], gbps(s['xy'] or 0))
        for s in r.sweeps[d['sweep'] + 1:upto + 1]))
    if not again:
        raise Bad('no second Low within T_I (%d) sweeps of the Default while X-Y ran' % r.t_i)
    note('second cycle: Low again in sweep %d, %d after the Default',
         again[0]['sweep'], again[0]['sweep'] - d['sweep'])


def check_restore(r):
    changed = {(e['switch'], e['port']) for e in r.log if e['event'] in ('set_low', 'set_default')}
    restored = {(e['switch'], e['port']) for e in r.log
                if e['event'] == 'restore' and e['applied'] == 'yes'}
    stop = [e for e in r.log if e['event'] == 'stop']
    note('ports changed %s, restored %s, stop %s', sorted(changed), sorted(restored),
         stop[0]['reason'] if stop else 'missing')
    if not stop:
        raise Bad('no stop event: dcms did not exit cleanly')
    if changed - restored:
        raise Bad('not restored: %s' % sorted(changed - restored))


CHECKS = {'localized': check_localized, 'low': check_low, 'recovery': check_recovery,
          't_i': check_t_i, 'restore': check_restore}


def main(argv):
    if len(argv) < 2 or any(c not in CHECKS for c in argv[1:]):
        print('usage: dcms_run.py RUNDIR CHECK... (%s)' % ' '.join(CHECKS), file=sys.stderr)
        return 2
    r = Run(argv[0])
    for c in argv[1:]:
        try:
            CHECKS[c](r)
        except Bad as e:
            print('%s: %s' % (c, e), file=sys.stderr)
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
