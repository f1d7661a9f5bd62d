# SPDX-License-Identifier: GPL-2.0
"""Tests of topo-gen, run as a program as users run it.

Its output is read back by a parser of this file's own, not the
generator's model: a bug shared by both would go unseen otherwise.
"""

import os
import re
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOPO_GEN = os.path.join(HERE, '..', 'topo-gen')
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
FAT_TREE_16 = os.path.join(ROOT, 'topologies', 'fat-tree-16.net')
BUILD = os.environ.get('IBSW_BUILD', os.path.join(ROOT, 'build'))
IBSWCTL = os.path.join(BUILD, 'tools', 'ibswctl', 'ibswctl')

HEADER_RE = re.compile(r'^(Switch|Hca|Ca)\t(\d+) "([^"]+)"$')
PORT_RE = re.compile(r'^\[(\d+)\]\t"([^"]+)"\[(\d+)\]((?:\t[a-z]+=\S+)*)\t# (\S+)$')
MGMT_DEVID = '0x1b5e'


class Node:
    def __init__(self, kind, nports, name, devid):
        self.kind = kind
        self.nports = nports
        self.name = name
        self.devid = devid
        self.lines = []  # (port, peer, peer port, options, rate), file order

    def is_mgmt(self):
        return self.devid == MGMT_DEVID

    def port(self, port):
        return next((line for line in self.lines if line[0] == port), None)


def parse(text):
    """The nodes of a topology in the format topo-gen writes, in file
    order; anything else in it fails the test."""
    nodes, node, devid = [], None, None
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith('#'):
            continue
        if not line:
            node = None
            continue
        if line.startswith('devid='):
            devid = line[len('devid='):]
            continue
        m = HEADER_RE.match(line)
        if m:
            node = Node(m.group(1), int(m.group(2)), m.group(3), devid)
            nodes.append(node)
            devid = None
            continue
        m = PORT_RE.match(line)
        if not m or node is None:
            raise AssertionError(f'line {n}: unexpected {line!r}')
        node.lines.append((int(m.group(1)), m.group(2), int(m.group(3)),
                           m.group(4).split(), m.group(5)))
    return nodes


def links(nodes):
    """Every cable once, as a sorted pair of (name, port) ends, with its rate."""
    return {(tuple(sorted([(node.name, port), (peer, peer_port)])), rate)
            for node in nodes for port, peer, peer_port, _, rate in node.lines}


def run(*args):
    return subprocess.run([TOPO_GEN, *args], capture_output=True, text=True, timeout=60)


def generate(*args):
    proc = run(*args)
    if proc.returncode:
        raise AssertionError(f'topo-gen {" ".join(args)}: exit {proc.returncode}: '
                             f'{proc.stderr.strip()}')
    return proc.stdout


def by_name(nodes):
    return {node.name: node for node in nodes}


def number(name):
    return int(name[1:])


class Cabling(unittest.TestCase):
    def test_fat_tree_16(self):
        """The 16-host tree is topologies/fat-tree-16.net's: the same records
        in the same order, the same port lines; the switches there declare
        spare ports (8 and 12), topo-gen's as many as they use."""
        ours = parse(generate('fat-tree', '--leaves', '4', '--hosts-per-leaf', '4',
                              '--spines', '4', '--mgmt'))
        with open(FAT_TREE_16) as f:
            theirs = parse(f.read())
        self.assertEqual([(n.kind, n.name, n.devid, n.lines) for n in ours],
                         [(n.kind, n.name, n.devid, n.lines) for n in theirs])
        self.assertEqual(links(ours), links(theirs))
        for mine, file in zip(ours, theirs):
            used = max(line[0] for line in mine.lines)
            self.assertEqual(mine.nports, used, mine.name)
            self.assertGreaterEqual(file.nports, used, file.name)

    def check_both_ends(self, nodes):
        """Every link listed from both ends, each end naming the other, one
        cable a port, within the record's port count."""
        named = by_name(nodes)
        self.assertEqual(len(named), len(nodes), 'duplicate node names')
        for node in nodes:
            ports = [line[0] for line in node.lines]
            self.assertEqual(len(ports), len(set(ports)), f'{node.name}: a port listed twice')
            self.assertTrue(1 <= node.nports <= 254, node.name)
            for port, peer, peer_port, opts, rate in node.lines:
                where = f'{node.name}[{port}] -> {peer}[{peer_port}]'
                self.assertTrue(1 <= port <= node.nports, where)
                self.assertIn(peer, named, where)
                back = named[peer].port(peer_port)
                self.assertIsNotNone(back, f'{where}: not listed at {peer}')
                self.assertEqual(back[:3], (peer_port, node.name, port), where)
                self.assertEqual(back[4], rate, where)
                if node.kind != 'Switch':
                    self.assertEqual(named[peer].kind, 'Switch', f'{where}: host to host')

    def test_both_ends(self):
        for args in (['--leaves', '4', '--hosts-per-leaf', '4', '--spines', '4', '--mgmt'],
                     ['--hosts', '64', '--mgmt'],
                     ['--hosts', '128'],
                     ['--hosts', '1'],
                     ['--hosts', '648', '--mgmt'],
                     ['--leaves', '3', '--hosts-per-leaf', '8', '--spines', '2',
                      '--uplinks-per-spine', '3', '--mgmt', '--inject', '13G'],
                     ['--leaves', '5', '--hosts-per-leaf', '1', '--spines', '7']):
            with self.subTest(args=args):
                self.check_both_ends(parse(generate('fat-tree', *args)))

    def check_full_bisection(self, nodes, nhosts, nleaves, per_leaf):
        """nhosts hosts H1.. numbered leaf by leaf, per_leaf on each leaf but
        the last, per_leaf spines with one cable to every leaf."""
        hosts = [n for n in nodes if n.kind == 'Hca' and not n.is_mgmt()]
        spines = [n for n in nodes if n.kind == 'Switch' and n.name.startswith('S')]
        leaves = [n for n in nodes if n.kind == 'Switch' and n.name.startswith('L')]
        self.assertEqual([h.name for h in hosts], [f'H{i}' for i in range(1, nhosts + 1)])
        self.assertEqual([s.name for s in spines], [f'S{j}' for j in range(1, per_leaf + 1)])
        self.assertEqual([s.name for s in leaves], [f'L{i}' for i in range(1, nleaves + 1)])
        self.assertEqual(len(nodes), len(hosts) + len(spines) + len(leaves))
        # leaf by leaf: H1..H(per_leaf) on L1 ports 1.., and so on
        for i, host in enumerate(hosts):
            self.assertEqual(host.lines, [(1, f'L{i // per_leaf + 1}', i % per_leaf + 1, [],
                                           '4xQDR')], host.name)
        for leaf in leaves:
            up = [line[1] for line in leaf.lines if line[1].startswith('S')]
            self.assertEqual(up, [s.name for s in spines], leaf.name)
            down = [line for line in leaf.lines if line[1].startswith('H')]
            self.assertLessEqual(len(down), per_leaf, leaf.name)
        for spine in spines:
            self.assertEqual([line[:2] for line in spine.lines],
                             [(i, f'L{i}') for i in range(1, nleaves + 1)], spine.name)
        self.check_both_ends(nodes)

    def test_hosts_64(self):
        # radix 12: 6 hosts and 6 spines a leaf, 11 leaves, the last with 4
        text = generate('fat-tree', '--hosts', '64')
        self.check_full_bisection(parse(text), 64, 11, 6)
        self.assertIn('radix 12', text)
        self.assertIn('L11: 4', text)

    def test_hosts_128(self):
        # radix 16: 8 hosts and 8 spines on each of 16 leaves
        text = generate('fat-tree', '--hosts', '128')
        nodes = parse(text)
        self.check_full_bisection(nodes, 128, 16, 8)
        self.assertTrue(all(n.nports == 16 for n in nodes if n.kind == 'Switch'))
        self.assertIn('Oversubscription 8:8 (1:1, full bisection)', text)

    def test_hosts_radix(self):
        """--hosts N: the smallest even radix k with k/2 * k >= N."""
        for nhosts, nleaves, per_leaf in ((1, 1, 1), (2, 2, 1), (3, 2, 2), (8, 4, 2),
                                          (9, 3, 3), (100, 13, 8), (648, 36, 18)):
            with self.subTest(hosts=nhosts):
                nodes = parse(generate('fat-tree', '--hosts', str(nhosts)))
                self.check_full_bisection(nodes, nhosts, nleaves, per_leaf)

    def test_oversubscribed(self):
        # 8 hosts, 2 uplinks a leaf: 4:1
        text = generate('fat-tree', '--leaves', '4', '--hosts-per-leaf', '8', '--spines', '2')
        nodes = by_name(parse(text))
        self.assertIn('Oversubscription 8:2 (4:1)', text)
        for i in range(1, 5):
            leaf = nodes[f'L{i}']
            self.assertEqual(leaf.nports, 10)
            self.assertEqual([line[:3] for line in leaf.lines],
                             [(p, f'H{(i - 1) * 8 + p}', 1) for p in range(1, 9)] +
                             [(9, 'S1', i), (10, 'S2', i)])
        for j in (1, 2):
            self.assertEqual(nodes[f'S{j}'].nports, 4)
            self.assertEqual([line[:3] for line in nodes[f'S{j}'].lines],
                             [(i, f'L{i}', 8 + j) for i in range(1, 5)])

    def test_uplinks_per_spine(self):
        # K cables a leaf and spine: leaf Li's ports H+(j-1)K+1.. to Sj's (i-1)K+1..
        text = generate('fat-tree', '--leaves', '3', '--hosts-per-leaf', '4', '--spines', '2',
                        '--uplinks-per-spine', '2')
        nodes = by_name(parse(text))
        self.assertIn('Oversubscription 4:4 (1:1, full bisection)', text)
        self.assertEqual([line[:3] for line in nodes['L2'].lines[4:]],
                         [(5, 'S1', 3), (6, 'S1', 4), (7, 'S2', 3), (8, 'S2', 4)])
        self.assertEqual([line[:3] for line in nodes['S2'].lines],
                         [(1, 'L1', 7), (2, 'L1', 8), (3, 'L2', 7), (4, 'L2', 8),
                          (5, 'L3', 7), (6, 'L3', 8)])
        self.assertEqual(nodes['S2'].nports, 6)

    def test_mgmt(self):
        """M1 after devid=0x1b5e, on L1's first free port; no devid without it."""
        nodes = parse(generate('fat-tree', '--hosts', '64', '--mgmt'))
        mgmt = [n for n in nodes if n.is_mgmt()]
        self.assertEqual([(n.kind, n.name, n.nports) for n in mgmt], [('Hca', 'M1', 1)])
        self.assertEqual(mgmt[0].lines, [(1, 'L1', 13, [], '4xQDR')])
        self.assertEqual(by_name(nodes)['L1'].nports, 13)
        self.assertEqual(nodes[-1].name, 'M1')
        plain = parse(generate('fat-tree', '--hosts', '64'))
        self.assertFalse([n for n in plain if n.devid is not None or n.name == 'M1'])

    def test_rate_and_inject(self):
        nodes = parse(generate('fat-tree', '--hosts', '8', '--rate', '12xNDR', '--inject', '13G',
                               '--mgmt'))
        for node in nodes:
            for _, _, _, opts, rate in node.lines:
                self.assertEqual(rate, '12xNDR', node.name)
                # the hosts' rxe devices inject; the management HCA sends no data
                want = ['inject=13G'] if node.kind == 'Hca' and not node.is_mgmt() else []
                self.assertEqual(opts, want, node.name)

    def test_output_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'ft.net')
            proc = run('fat-tree', '--hosts', '16', '-o', path)
            self.assertEqual((proc.returncode, proc.stdout, proc.stderr), (0, '', ''))
            with open(path) as f:
                text = f.read()
            self.assertEqual(text, generate('fat-tree', '--hosts', '16'))
            # the header tells how to make the file again, not where it went
            self.assertNotIn(path, text)
            proc = run('fat-tree', '--hosts', '16', '-o', os.path.join(tmp, 'no', 'ft.net'))
            self.assertEqual(proc.returncode, 1)
            self.assertIn('cannot write', proc.stderr)

    def test_help(self):
        proc = run('--help')
        self.assertEqual(proc.returncode, 0)
        for word in ('fat-tree', '--leaves', '--hosts-per-leaf', '--spines',
                     '--uplinks-per-spine', '--hosts', '--rate', '--inject', '--mgmt',
                     '--output', 'FDR10', 'NDR', '254', 'routing-engine ftree'):
            self.assertIn(word, proc.stdout)


class Errors(unittest.TestCase):
    """Usage errors: exit 2, nothing on stdout, the bad option named."""

    def check_error(self, args, *words):
        proc = run('fat-tree', *args)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(proc.stdout, '')
        for word in words:
            self.assertIn(word, proc.stderr)


def error_case(args, *words):
    def test(self):
        self.check_error(args, *words)
    return test


SHAPE = ['--leaves', '4', '--hosts-per-leaf', '4', '--spines', '4']
ERROR_CASES = {
    'zero_leaves': (['--leaves', '0', '--hosts-per-leaf', '4', '--spines', '4'],
                    '--leaves', 'positive'),
    'negative_hosts_per_leaf': (['--leaves', '4', '--hosts-per-leaf', '-1', '--spines', '4'],
                                '--hosts-per-leaf', 'positive'),
    'zero_spines': (['--leaves', '4', '--hosts-per-leaf', '4', '--spines', '0'], '--spines'),
    'zero_uplinks': (SHAPE + ['--uplinks-per-spine', '0'], '--uplinks-per-spine'),
    'zero_hosts': (['--hosts', '0'], '--hosts', 'positive'),
    'not_a_number': (['--leaves', 'four', '--hosts-per-leaf', '4', '--spines', '4'],
                     '--leaves', "'four'"),
    'plus_sign': (['--leaves', '+4', '--hosts-per-leaf', '4', '--spines', '4'], '--leaves'),
    'leaf_ports': (['--leaves', '2', '--hosts-per-leaf', '200', '--spines', '55'],
                   '--hosts-per-leaf', '--spines', '255 ports', '254'),
    'leaf_ports_mgmt': (['--leaves', '2', '--hosts-per-leaf', '200', '--spines', '54', '--mgmt'],
                        '--mgmt', '255 ports'),
    'spine_ports': (['--leaves', '128', '--hosts-per-leaf', '1', '--spines', '1',
                     '--uplinks-per-spine', '2'], '--leaves', '--uplinks-per-spine', '256 ports'),
    'too_many_lids': (['--leaves', '254', '--hosts-per-leaf', '200', '--spines', '1'],
                      'LIDs', '--hosts-per-leaf'),
    'unknown_speed': (SHAPE + ['--rate', '4xXDR'], '--rate', '4xXDR', 'FDR10'),
    'unknown_width': (SHAPE + ['--rate', '2xQDR'], '--rate', '2xQDR', '12x'),
    'rate_case': (SHAPE + ['--rate', '4xqdr'], '--rate'),
    'rate_no_width': (SHAPE + ['--rate', 'QDR'], '--rate'),
    'inject_zero': (SHAPE + ['--inject', '0'], '--inject'),
    'inject_suffix': (SHAPE + ['--inject', '13X'], '--inject'),
    'inject_too_fast': (SHAPE + ['--inject', '1201G'], '--inject', '1200G'),
    'hosts_too_many': (['--hosts', '649'], '--hosts 649', '648'),
    'hosts_and_shape': (['--hosts', '64', '--spines', '4'], '--hosts', '--spines'),
    'hosts_and_uplinks': (['--hosts', '64', '--uplinks-per-spine', '2'],
                          '--uplinks-per-spine'),
    'missing_spines': (['--leaves', '4', '--hosts-per-leaf', '4'], '--spines'),
    'nothing': ([], '--leaves', '--hosts-per-leaf', '--spines', '--hosts'),
    'abbreviated': (SHAPE + ['--rat', '4xQDR'], '--rat'),
}
for _name, (_args, *_words) in ERROR_CASES.items():
    setattr(Errors, f'test_error_{_name}', error_case(_args, *_words))


class Builder(unittest.TestCase):
    """ibswctl's fabric builder plans the generated files (dry-run: no
    kernel module, nothing built)."""

    def setUp(self):
        if not os.access(IBSWCTL, os.X_OK):
            self.skipTest(f'{IBSWCTL} not built (make tools)')

    def plan(self, path):
        proc = subprocess.run([IBSWCTL, 'fabric', 'up', path, 'dry-run'],
                              capture_output=True, text=True, timeout=120)
        if proc.returncode:
            raise AssertionError(f'fabric up {path} dry-run: exit {proc.returncode}: '
                                 f'{proc.stderr.strip()[:300]}')
        return proc.stdout.splitlines()

    def check_plan(self, args, nhosts, nswitches):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'ft.net')
            generate('fat-tree', *args, '-o', path)
            plan = self.plan(path)
        count = {what: sum(line.startswith(f'ibswctl {what} add ') for line in plan)
                 for what in ('host', 'switch', 'mgmt')}
        self.assertEqual(count, {'host': nhosts, 'switch': nswitches, 'mgmt': 1})
        return plan

    def test_dry_run_16(self):
        plan = self.check_plan(SHAPE + ['--mgmt'], 16, 8)
        # the same fabric as fat-tree-16.net's but for the spare ports
        # that file declares: same links, hosts, LIDs and LFTs
        same = [line for line in self.plan(FAT_TREE_16)
                if not line.startswith('ibswctl switch add ')]
        self.assertEqual([line for line in plan if not line.startswith('ibswctl switch add ')],
                         same)

    def test_dry_run_64(self):
        self.check_plan(['--hosts', '64', '--mgmt'], 64, 17)

    def test_dry_run_128(self):
        self.check_plan(['--hosts', '128', '--mgmt'], 128, 24)


if __name__ == '__main__':
    unittest.main()
