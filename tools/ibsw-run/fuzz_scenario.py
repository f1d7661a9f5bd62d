#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A mutation fuzzer of the scenario parser (ibswrun/scenario.py, and
ibswrun/sweep.py for a file with sweep lines).

libFuzzer cannot drive Python, and atheris (its Python front end) is not
packaged by Debian, so this is a small fuzzer of our own: it mutates the
shipped scenarios and the test fixtures line by line and byte by byte,
with a dictionary of the format's keywords, and loads every mutant. The
parser must either accept it (and the result must turn into the JSON that
run.json embeds) or raise ScenarioError whose message is "FILE:LINE:
reason" with a line of the file, or "FILE: reason". Any other exception,
or a message that points elsewhere, is a finding: the input is saved.

    fuzz_scenario.py [--seconds N] [--seed S] [--out DIR] [FILE...]

FILEs are replayed once each first (the regression inputs). Prints one
line as tests/run counts it: PASS/FAIL: fuzz/scenario (...), and a line
per regression file.
"""

import argparse
import glob
import io
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback

SLOW_S = 5	# a parse taking longer is a finding
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, HERE)
from ibswrun import scenario, sweep  # noqa: E402

POINTS_MAX = 4	# a mutant sweep's points loaded (the first ones)

WORDS = [
    'name', 'topology', 'scale', 'duration', 'sample', 'fabric', 'buffer',
    'cc', 'switch', 'hca', 'off', 'on', 'flow', 'app', 'window', 'counter',
    'fairness', 'write', 'read', 'send', 'size', 'start', 'stop', 'qps',
    'threshold', 'marking_rate', 'packet_size', 'port_control', 'ccti_timer',
    'ccti_increase', 'ccti_min', 'cct', 'seed002:128:0.0527', '*', '-', '--',
    '0', '1', '-1', '65536', '4294967296', '1e999', '0.5ms', '10us', '1s',
    '250ms', 'ms', 'nan', 'inf', '{run.dir}', '{run.root}', '{', '}', '#',
    'S1', 'S2', 'H1', 'H5', 'S1/1', 'S2/24@0', 'port_xmit_data', '\t', '"',
    '\\', '\x00', '\u00e9', '\ufeff', 'sweep', 'x', '${x}', '${', '${}', '$',
    'when', 'mr=0', 'mr=0,8', 'size=', '=', ',', 'plot', 'F1:both', 'F1:both:payload',
    'logx', 'logy', 'evenx', 'repeat', '2', '20', '21', 'run', '${run}',
    'timelines', 'mr=0,size=1024',
]


def seeds():
    """Seed scenarios with absolute topology paths, so a mutant can live
    in a temporary directory: (name, text)"""
    files = sorted(glob.glob(os.path.join(ROOT, 'scenarios', '*.scn')) +
                   glob.glob(os.path.join(HERE, 'tests', 'fixtures', '*.scn')))
    out = []
    for path in files:
        with open(path, encoding='utf-8') as f:
            text = f.read()

        def absolute(m, base=os.path.dirname(path)):
            return m.group(1) + os.path.normpath(os.path.join(base, m.group(2)))
        out.append((os.path.basename(path),
                    re.sub(r'(?m)^(topology\s+)(\S+)', absolute, text)))
    return out


def mutate(rng, text):
    lines = text.split('\n')
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines = ['']
        if op == 0:					# drop a line
            del lines[i]
        elif op == 1:					# repeat one
            lines.insert(i, lines[i])
        elif op == 2:					# move one
            lines.insert(rng.randrange(len(lines)), lines.pop(i))
        elif op in (3, 4):				# a word for another
            words = lines[i].split(' ')
            j = rng.randrange(len(words))
            words[j] = rng.choice(WORDS) if op == 3 else str(rng.randint(-2**40, 2**40))
            lines[i] = ' '.join(words)
        elif op == 5:					# insert a word
            words = lines[i].split(' ')
            words.insert(rng.randrange(len(words) + 1), rng.choice(WORDS))
            lines[i] = ' '.join(words)
        elif op == 6:					# cut a line short
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
        elif op == 7:					# a byte for any other
            if lines[i]:
                j = rng.randrange(len(lines[i]))
                lines[i] = lines[i][:j] + chr(rng.randrange(1, 0x250)) + lines[i][j + 1:]
        else:						# a line from scratch
            lines.insert(i, ' '.join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))))
    return '\n'.join(lines)


class Slow(Exception):
    pass


def _alarm(signum, frame):
    raise Slow()


def check(path, data):
    """None if the parser behaved, else what went wrong"""
    nlines = data.count(b'\n') + 1
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, SLOW_S)
    try:
        sw = sweep.read(path)
        if sw is None:
            json.dumps(scenario.to_dict(scenario.load(path, warn=io.StringIO())))
        else:
            for p in sw.points[:POINTS_MAX]:
                json.dumps(scenario.to_dict(sweep.load_point(sw, p)))
    except Slow:
        return f'took more than {SLOW_S} s'
    except scenario.ScenarioError as e:
        msg = str(e)
        if not msg.startswith(path + ':'):
            return f'message does not start with the file: {msg!r}'
        if e.line is not None and not 1 <= e.line <= nlines:
            return f'line {e.line} of a {nlines}-line file: {msg!r}'
        if not e.reason:
            return f'no reason: {msg!r}'
    except Exception:		# noqa: BLE001 -- any other exception is the finding
        return traceback.format_exc().strip().splitlines()[-1]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seconds', type=float, default=20)
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'fuzz-scenario'))
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()

    bad = 0
    for path in a.files:
        with open(path, 'rb') as f:
            why = check(path, f.read())
        name = os.path.basename(path)
        print(f'FAIL: fuzz/scenario/regressions/{name} ({why})' if why else
              f'PASS: fuzz/scenario/regressions/{name}')
        bad += why is not None

    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    pool = seeds()
    runs, found = 0, []
    end = time.monotonic() + a.seconds
    with tempfile.TemporaryDirectory(prefix='fuzz-scenario-') as tmp:
        path = os.path.join(tmp, 'mutant.scn')
        while time.monotonic() < end and len(found) < 5:
            name, text = rng.choice(pool)
            mutant = mutate(rng, text)
            data = mutant.encode('utf-8', 'surrogatepass')
            with open(path, 'wb') as f:
                f.write(data)
            runs += 1
            why = check(path, data)
            if why:
                os.makedirs(a.out, exist_ok=True)
                keep = os.path.join(a.out, f'crash-{seed}-{runs}.scn')
                with open(keep, 'wb') as f:
                    f.write(data)
                found.append((keep, why))
    if found:
        print(f'FAIL: fuzz/scenario ({len(found)} findings in {runs} inputs, seed {seed}; '
              f'first: {found[0][1]}, input {found[0][0]})')
        for keep, why in found:
            print(f'# {keep}: {why}')
        bad += 1
    else:
        print(f'PASS: fuzz/scenario ({runs} inputs in {a.seconds:g} s, seed {seed})')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
