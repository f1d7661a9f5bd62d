#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A scenario's fabric, flows and congestion control, for a test that
builds on a scenario without running it (tests/long/seed002_cc_soak.sh),
through ibsw-run's own parser and CC code, so that both apply the same.

  scenario_cc.py info SCENARIO
      "topology PATH", "scale S", "fabric ARGS..." and one "flow NAME SRC
      DST VERB SIZE" line per flow
  scenario_cc.py apply SCENARIO DESC [HOST...]
      the cc switch lines (ibswctl cc set; only without HOST) and the cc
      hca lines on the HOSTs' rxe (every host without HOST), on the fabric
      of the description DESC
"""
import json
import os
import subprocess
import sys

ROOT = os.environ.get('IBSW_ROOT') or os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'tools', 'ibsw-run'))
from ibswrun import guest, scenario  # noqa: E402


def info(sc):
    print('topology', sc.topology)
    print('scale', sc.scale)
    print('fabric', *sc.fabric_args)
    for f in sc.flows:
        print('flow', f.name, f.src, f.dst, f.verb, f.size)


def apply(sc, desc, hosts):
    known = guest.desc_hosts(desc)
    if not hosts:
        for line, target, args in guest.cc_set_commands(sc, desc):
            r = subprocess.run(['ibswctl', 'cc', 'set', target] + args, stdin=subprocess.DEVNULL)
            if r.returncode:
                sys.exit('line %d: ibswctl cc set %s: exit %d' % (line, target, r.returncode))
    for h in hosts or sorted(known):
        if h not in known:
            sys.exit('no host %s in the fabric description' % h)
        for c in sc.hca_settings:
            if c.host in ('*', h):
                guest.set_hca(guest.SYSFS_IB, desc, c, h)


def main(argv):
    if len(argv) < 3 or argv[1] not in ('info', 'apply') or (argv[1] == 'apply' and len(argv) < 4):
        sys.exit(__doc__.strip())
    try:
        sc = scenario.load(argv[2], warn=None)
    except scenario.ScenarioError as e:
        sys.exit(str(e))
    if argv[1] == 'info':
        info(sc)
        return
    with open(argv[3]) as f:
        desc = json.load(f)
    try:
        apply(sc, desc, argv[4:])
    except guest.GuestError as e:
        sys.exit(str(e))


if __name__ == '__main__':
    main(sys.argv)
