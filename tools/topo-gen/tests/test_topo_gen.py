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
from collections import Counter

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


class Checks(unittest.TestCase):
    """What every generated file must be, whatever its kind."""

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

    def check_contiguous(self, nodes):
        """Every node declares the ports it uses, 1..N, each cabled."""
        for node in nodes:
            self.assertEqual(sorted(line[0] for line in node.lines),
                             list(range(1, node.nports + 1)), node.name)

    def check_kind(self, nodes, nswitches, nhosts, nlinks, nports, mgmt=False):
        """The counts: switches, hosts, switch-to-switch cables, and how many
        switches have each number of ports ({ports: switches})."""
        switches = [n for n in nodes if n.kind == 'Switch']
        hosts = [n for n in nodes if n.kind == 'Hca' and not n.is_mgmt()]
        named = by_name(nodes)
        cables = [link for link in links(nodes)
                  if all(named[end[0]].kind == 'Switch' for end in link[0])]
        self.assertEqual((len(switches), len(hosts), len(cables)), (nswitches, nhosts, nlinks))
        self.assertEqual(len(nodes), nswitches + nhosts + mgmt)
        self.assertEqual(Counter(n.nports for n in switches), Counter(nports))
        # switches first, then H1..HN, then M1
        self.assertEqual([n.name for n in nodes[nswitches:nswitches + nhosts]],
                         [f'H{i}' for i in range(1, nhosts + 1)])
        for host in hosts:
            self.assertEqual((host.nports, len(host.lines)), (1, 1), host.name)
        self.check_both_ends(nodes)
        self.check_contiguous(nodes)
        return switches


class Cabling(Checks):
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


def coords(name):
    """Sx-y-z, Rg-r, Ap-j, Lp-i: the numbers of a name."""
    return tuple(int(n) for n in name[1:].split('-'))


def switch_peers(node):
    """The switches node's ports go to, in port order."""
    return [line[1] for line in node.lines if not line[1].startswith(('H', 'M'))]


# (args, cores, aggregation switches, leaves, hosts, leaf-aggregation
# cables, aggregation-core cables, {ports: switches}), from the definition:
# P pods of L leaves and A aggregation switches, H hosts a leaf, C cores;
# --k K: P = K, L = A = H = K/2, C = K^2/4
FAT_TREE3 = [
    (['--k', '4'], 4, 8, 8, 16, 16, 16, {4: 20}),
    (['--k', '2'], 1, 2, 2, 2, 2, 2, {2: 5}),
    (['--k', '8'], 16, 32, 32, 128, 128, 128, {8: 80}),
    (['--k', '36'], 324, 648, 648, 11664, 11664, 11664, {36: 1620}),
    # leaves 8 + 2 ports, aggregation switches 4 + 6/2, cores 3
    (['--pods', '3', '--leaves-per-pod', '4', '--hosts-per-leaf', '8', '--aggs-per-pod', '2',
      '--cores', '6'], 6, 6, 12, 96, 24, 18, {3: 6, 7: 6, 10: 12}),
    # one aggregation switch a pod: one plane of all 3 cores
    (['--pods', '2', '--leaves-per-pod', '3', '--hosts-per-leaf', '1', '--aggs-per-pod', '1',
      '--cores', '3'], 3, 2, 6, 6, 6, 6, {2: 9, 6: 2}),
]

# (args, switches, hosts, cables, {ports: switches}, {switch ports: switches})
TORUS = [
    (['--dims', '4x4'], 16, 16, 32, {5: 16}, {4: 16}),
    (['--dims', '3x3'], 9, 9, 18, {5: 9}, {4: 9}),
    (['--dims', '5x5x5'], 125, 125, 375, {7: 125}, {6: 125}),
    # x: 6 rings of 4; y: 8 rings of 3; z (size 2): 12 single cables
    (['--dims', '4x3x2', '--hosts-per-switch', '2'], 24, 48, 24 + 24 + 12, {7: 24}, {5: 24}),
    (['--dims', '8'], 8, 8, 8, {3: 8}, {2: 8}),
    (['--dims', '2'], 2, 2, 1, {2: 2}, {1: 2}),
    (['--dims', '2x2'], 4, 4, 4, {3: 4}, {2: 4}),
]

# mesh: corners, edges, faces and the inside have fewer neighbours
MESH = [
    (['--dims', '3x3'], 9, 9, 12, {3: 4, 4: 4, 5: 1}, {2: 4, 3: 4, 4: 1}),
    (['--dims', '4x4'], 16, 16, 24, {3: 4, 4: 8, 5: 4}, {2: 4, 3: 8, 4: 4}),
    (['--dims', '3x3x3', '--hosts-per-switch', '2'], 27, 54, 54,
     {5: 8, 6: 12, 7: 6, 8: 1}, {3: 8, 4: 12, 5: 6, 6: 1}),
    (['--dims', '5'], 5, 5, 4, {2: 2, 3: 3}, {1: 2, 2: 3}),
    (['--dims', '2x2'], 4, 4, 4, {3: 4}, {2: 4}),
    (['--dims', '4x2'], 8, 8, 10, {3: 4, 4: 4}, {2: 4, 3: 4}),
]

# (A routers a group, P hosts a router, H global links a router, G groups
# or None for A*H+1; groups, local cables, global cables, global cables
# between each pair of groups, {ports: routers})
DRAGONFLY = [
    (2, 1, 1, None, 3, 3, 3, 1, {3: 6}),
    (4, 2, 2, None, 9, 54, 36, 1, {7: 36}),
    (8, 4, 4, None, 33, 924, 528, 1, {15: 264}),
    (1, 1, 2, None, 3, 0, 3, 1, {3: 3}),
    # 8 global ports a group, 4 other groups: 2 cables to each
    (4, 2, 2, 5, 5, 30, 20, 2, {7: 20}),
    # 6 global ports a group, 4 other groups: 1 cable to each, k = 4, 5
    # (the second router's last two) uncabled
    (2, 1, 3, 5, 5, 5, 10, 1, {5: 5, 3: 5}),
]


def header(text):
    """The header comment's words, on one line."""
    return ' '.join(line[2:] for line in text.splitlines() if line.startswith('# '))


def dragonfly_args(a, p, h, g):
    args = ['--routers-per-group', str(a), '--hosts-per-router', str(p), '--global-links', str(h)]
    return args + (['--groups', str(g)] if g else [])


class Kinds(Checks):
    """fat-tree3, torus, mesh, dragonfly: their counts written from their
    definitions, their cabling read back."""

    def test_fat_tree3(self):
        for args, ncores, naggs, nleaves, nhosts, down, up, nports in FAT_TREE3:
            with self.subTest(args=args):
                nodes = parse(generate('fat-tree3', *args))
                switches = self.check_kind(nodes, ncores + naggs + nleaves, nhosts, down + up,
                                           nports)
                kinds = Counter(n.name[0] for n in switches)
                self.assertEqual(kinds, Counter({'C': ncores, 'A': naggs, 'L': nleaves}))
                # file order: cores, aggregation switches, leaves
                self.assertEqual([n.name[0] for n in switches],
                                 ['C'] * ncores + ['A'] * naggs + ['L'] * nleaves)
                self.check_fat_tree3(nodes, nhosts // nleaves, naggs, ncores)

    def check_fat_tree3(self, nodes, per_leaf, naggs, ncores):
        """Leaf Lp-i: hosts, then Ap-1.. (its port i); Ap-j: leaves Lp-1..,
        then the cores of plane j; core Cc: port p to pod p's Ap-j."""
        leaves = [n for n in nodes if n.name.startswith('L')]
        pods = max(coords(n.name)[0] for n in leaves)
        aggs_per_pod, leaves_per_pod = naggs // pods, len(leaves) // pods
        plane = ncores // aggs_per_pod
        for n in nodes:
            if n.name.startswith('L'):
                p, i = coords(n.name)
                self.assertEqual([line[:3] for line in n.lines[per_leaf:]],
                                 [(per_leaf + j, f'A{p}-{j}', i)
                                  for j in range(1, aggs_per_pod + 1)], n.name)
                self.assertTrue(all(line[1].startswith('H') for line in n.lines[:per_leaf]))
            elif n.name.startswith('A'):
                p, j = coords(n.name)
                self.assertEqual([line[1] for line in n.lines],
                                 [f'L{p}-{i}' for i in range(1, leaves_per_pod + 1)] +
                                 [f'C{(j - 1) * plane + m}' for m in range(1, plane + 1)],
                                 n.name)
            elif n.name.startswith('C'):
                c = coords(n.name)[0]
                j = (c - 1) // plane + 1
                self.assertEqual([line[:3] for line in n.lines],
                                 [(p, f'A{p}-{j}', leaves_per_pod + (c - 1) % plane + 1)
                                  for p in range(1, pods + 1)], n.name)

    def test_fat_tree3_hosts(self):
        # H1.. leaf by leaf, pod by pod: the 4-ary tree's H5 is L2-1's first
        nodes = by_name(parse(generate('fat-tree3', '--k', '4')))
        self.assertEqual(nodes['H5'].lines, [(1, 'L2-1', 1, [], '4xQDR')])
        self.assertEqual(nodes['H16'].lines, [(1, 'L4-2', 2, [], '4xQDR')])

    def check_grid(self, args, wrap, nswitches, nhosts, ncables, nports, degrees):
        nodes = parse(generate('torus' if wrap else 'mesh', *args))
        switches = self.check_kind(nodes, nswitches, nhosts, ncables, nports)
        self.assertEqual(Counter(len(switch_peers(n)) for n in switches), Counter(degrees))
        sizes = [int(n) for n in args[1].split('x')]
        per_switch = nhosts // nswitches
        for n in switches:
            c = coords(n.name)
            self.assertEqual(len(c), len(sizes), n.name)
            # the neighbours, dimension by dimension, lower coordinate first
            want = []
            for d, size in enumerate(sizes):
                for x in (c[d] - 1, c[d] + 1):
                    if not 1 <= x <= size:
                        if not wrap or size == 2:
                            continue
                        x = (x - 1) % size + 1
                    want.append('S' + '-'.join(map(str, c[:d] + (x,) + c[d + 1:])))
            self.assertEqual(switch_peers(n), want, n.name)
            self.assertEqual([line[1] for line in n.lines[:per_switch]],
                             [f'H{(switches.index(n)) * per_switch + h}'
                              for h in range(1, per_switch + 1)], n.name)
        # every switch once, the last coordinate fastest
        names = [n.name for n in switches]
        self.assertEqual(sorted(names, key=coords), names)
        return nodes

    def test_torus(self):
        for args, nswitches, nhosts, ncables, nports, degrees in TORUS:
            with self.subTest(args=args):
                self.check_grid(args, True, nswitches, nhosts, ncables, nports, degrees)

    def test_torus_ports(self):
        """The same ports on every switch: a 4x4 torus's port 2 goes to x-1
        (S1-y's to S4-y), 3 to x+1, 4 to y-1, 5 to y+1."""
        nodes = by_name(parse(generate('torus', '--dims', '4x4')))
        self.assertEqual([line[:3] for line in nodes['S1-1'].lines],
                         [(1, 'H1', 1), (2, 'S4-1', 3), (3, 'S2-1', 2), (4, 'S1-4', 5),
                          (5, 'S1-2', 4)])
        self.assertEqual([line[:3] for line in nodes['S4-4'].lines],
                         [(1, 'H16', 1), (2, 'S3-4', 3), (3, 'S1-4', 2), (4, 'S4-3', 5),
                          (5, 'S4-1', 4)])

    def test_torus_size_2(self):
        """A dimension of size 2 is cabled once: one cable between S1-1 and
        S1-2 of a 4x2 torus, as between S1-1 and S2-1."""
        nodes = parse(generate('torus', '--dims', '4x2'))
        pairs = Counter(tuple(sorted([a[0], b[0]])) for (a, b), _ in links(nodes)
                        if a[0].startswith('S') and b[0].startswith('S'))
        self.assertEqual(pairs[('S1-1', 'S1-2')], 1)
        self.assertEqual(pairs[('S1-1', 'S2-1')], 1)
        self.assertEqual(pairs[('S1-1', 'S4-1')], 1)
        self.assertEqual(set(pairs.values()), {1})
        self.assertEqual(len(pairs), 8 + 4)

    def test_mesh(self):
        for args, nswitches, nhosts, ncables, nports, degrees in MESH:
            with self.subTest(args=args):
                self.check_grid(args, False, nswitches, nhosts, ncables, nports, degrees)

    def test_mesh_corners(self):
        nodes = by_name(parse(generate('mesh', '--dims', '3x3')))
        for name in ('S1-1', 'S1-3', 'S3-1', 'S3-3'):
            self.assertEqual(len(switch_peers(nodes[name])), 2, name)
        for name in ('S1-2', 'S2-1', 'S2-3', 'S3-2'):
            self.assertEqual(len(switch_peers(nodes[name])), 3, name)
        self.assertEqual(switch_peers(nodes['S2-2']), ['S1-2', 'S3-2', 'S2-1', 'S2-3'])
        # a corner's ports: x+1 then y+1, right after its host
        self.assertEqual([line[:3] for line in nodes['S1-1'].lines],
                         [(1, 'H1', 1), (2, 'S2-1', 2), (3, 'S1-2', 3)])

    def test_dragonfly(self):
        for a, p, h, g, ngroups, nlocal, nglobal, per_pair, nports in DRAGONFLY:
            args = dragonfly_args(a, p, h, g)
            with self.subTest(args=args):
                nodes = parse(generate('dragonfly', *args))
                routers = self.check_kind(nodes, ngroups * a, ngroups * a * p, nlocal + nglobal,
                                          nports)
                self.check_dragonfly(routers, a, p, h, ngroups, nglobal, per_pair)

    def check_dragonfly(self, routers, a, p, h, ngroups, nglobal, per_pair):
        """Rg-r: hosts, the group's other routers in order, global links to
        other groups; every pair of groups per_pair global cables."""
        pairs = Counter()
        self.assertEqual([n.name for n in routers],
                         [f'R{g}-{r}' for g in range(1, ngroups + 1) for r in range(1, a + 1)])
        for n in routers:
            g, r = coords(n.name)
            peers = switch_peers(n)
            self.assertEqual(peers[:a - 1], [f'R{g}-{s}' for s in range(1, a + 1) if s != r],
                             n.name)
            self.assertEqual([line[0] for line in n.lines[p:p + a - 1]], list(range(p + 1, p + a)))
            glob = peers[a - 1:]
            self.assertLessEqual(len(glob), h, n.name)
            for peer in glob:
                self.assertNotEqual(coords(peer)[0], g, f'{n.name} -> {peer}')
                pairs[tuple(sorted((g, coords(peer)[0])))] += 1
        # each global cable counted from both ends
        self.assertEqual(sum(pairs.values()), 2 * nglobal)
        self.assertEqual(len(pairs), ngroups * (ngroups - 1) // 2)
        self.assertEqual(set(pairs.values()), {2 * per_pair})
        if per_pair * (ngroups - 1) == a * h:
            # no global port left over: every router has h of them
            self.assertTrue(all(len(switch_peers(n)) == a - 1 + h for n in routers))

    def test_dragonfly_consecutive(self):
        """a=2, p=1, h=1: 3 groups; group 1's global ports k=0 (R1-1), k=1
        (R1-2) to groups 2, 3; group 2's to 1, 3; group 3's to 1, 2."""
        nodes = parse(generate('dragonfly', *dragonfly_args(2, 1, 1, None)))
        named = by_name(nodes)
        glob = {ends for ends, _ in links(nodes) if all(e[0].startswith('R') for e in ends)
                and coords(ends[0][0])[0] != coords(ends[1][0])[0]}
        self.assertEqual(glob, {(('R1-1', 3), ('R2-1', 3)), (('R1-2', 3), ('R3-1', 3)),
                                (('R2-2', 3), ('R3-2', 3))})
        self.assertEqual([line[:3] for line in named['R2-1'].lines],
                         [(1, 'H3', 1), (2, 'R2-2', 2), (3, 'R1-1', 3)])

    def test_mgmt(self):
        """M1 on the first free port of the first switch with hosts."""
        for kind, args, switch, port in (
                ('fat-tree3', ['--k', '4'], 'L1-1', 5),
                ('torus', ['--dims', '3x3x3', '--hosts-per-switch', '2'], 'S1-1-1', 9),
                ('mesh', ['--dims', '3x3x3', '--hosts-per-switch', '2'], 'S1-1-1', 6),
                ('dragonfly', dragonfly_args(4, 2, 2, None), 'R1-1', 8)):
            with self.subTest(kind=kind):
                nodes = parse(generate(kind, *args, '--mgmt'))
                self.check_both_ends(nodes)
                self.check_contiguous(nodes)
                mgmt = [n for n in nodes if n.is_mgmt()]
                self.assertEqual([(n.kind, n.name, n.nports) for n in mgmt], [('Hca', 'M1', 1)])
                self.assertEqual(mgmt[0].lines, [(1, switch, port, [], '4xQDR')])
                self.assertEqual(nodes[-1].name, 'M1')
                self.assertEqual(by_name(nodes)[switch].nports, port)
                plain = parse(generate(kind, *args))
                self.assertFalse([n for n in plain if n.devid is not None or n.name == 'M1'])

    def test_rate_and_inject(self):
        for kind, args in (('fat-tree3', ['--k', '2']), ('torus', ['--dims', '3']),
                           ('mesh', ['--dims', '2x2']),
                           ('dragonfly', dragonfly_args(2, 1, 1, None))):
            with self.subTest(kind=kind):
                nodes = parse(generate(kind, *args, '--rate', '1xSDR', '--inject', '2500M',
                                       '--mgmt'))
                for node in nodes:
                    for _, _, _, opts, rate in node.lines:
                        self.assertEqual(rate, '1xSDR', node.name)
                        want = (['inject=2500M'] if node.kind == 'Hca' and not node.is_mgmt()
                                else [])
                        self.assertEqual(opts, want, node.name)

    def test_boundaries(self):
        """At the limits: 254 ports, the mesh's management node on a corner."""
        nodes = by_name(parse(generate('mesh', '--dims', '3x3', '--hosts-per-switch', '250',
                                       '--mgmt')))
        self.assertEqual((nodes['S2-2'].nports, nodes['S1-1'].nports), (254, 253))
        nodes = by_name(parse(generate('torus', '--dims', '4x4', '--hosts-per-switch', '250')))
        self.assertEqual(nodes['S1-1'].nports, 254)
        nodes = by_name(parse(generate('dragonfly', *dragonfly_args(200, 50, 4, 2), '--mgmt')))
        self.assertEqual(nodes['R1-1'].nports, 254)
        nodes = by_name(parse(generate('fat-tree3', '--pods', '254', '--leaves-per-pod', '1',
                                       '--hosts-per-leaf', '1', '--aggs-per-pod', '1',
                                       '--cores', '1')))
        self.assertEqual(nodes['C1'].nports, 254)

    def test_header(self):
        text = header(generate('torus', '--dims', '4x4', '--mgmt'))
        for words in ('A 4x4 torus of 16 switches and 16 hosts',
                      '"tools/topo-gen/topo-gen torus --dims 4x4 --mgmt"',
                      'Deadlock', 'routing-engine dfsssp qos on', 'S1-1/6'):
            self.assertIn(words, text)
        text = header(generate('fat-tree3', '--k', '4'))
        self.assertIn('Oversubscription 2:2 (1:1, full bisection) at the leaves', text)
        self.assertIn('(a 4-ary fat tree: switch radix 4, full bisection)', text)
        text = header(generate('mesh', '--dims', '3x3', '--mgmt'))
        self.assertIn('routing-engine dor', text)
        text = header(generate('dragonfly', *dragonfly_args(2, 1, 3, 5)))
        self.assertIn('consecutive', text)
        self.assertIn('the last 2 global ports of a group', text)

    def test_help(self):
        proc = run('--help')
        self.assertEqual(proc.returncode, 0)
        for word in ('fat-tree3', '--pods', '--leaves-per-pod', '--aggs-per-pod', '--cores',
                     '--k', 'torus', 'mesh', '--dims', '--hosts-per-switch', 'dragonfly',
                     '--routers-per-group', '--hosts-per-router', '--global-links', '--groups',
                     'consecutive', 'Deadlock', 'routing-engine dfsssp qos on',
                     'routing-engine dor', 'torus-2QoS', 'sm-conf', 'size 2 is cabled once'):
            self.assertIn(word, proc.stdout)


class Errors(unittest.TestCase):
    """Usage errors: exit 2, nothing on stdout, the bad option named."""

    def check_error(self, args, *words, kind='fat-tree'):
        proc = run(kind, *args)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(proc.stdout, '')
        for word in words:
            self.assertIn(word, proc.stderr)


def error_case(args, *words, kind='fat-tree'):
    def test(self):
        self.check_error(args, *words, kind=kind)
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

FT3 = ['--pods', '2', '--leaves-per-pod', '2', '--hosts-per-leaf', '2', '--aggs-per-pod', '2']


def ft3(pods, leaves, hosts, aggs, cores):
    return ['--pods', str(pods), '--leaves-per-pod', str(leaves), '--hosts-per-leaf', str(hosts),
            '--aggs-per-pod', str(aggs), '--cores', str(cores)]


# the other kinds' errors: (kind, args, words in the message)
KIND_ERROR_CASES = {
    'ft3_odd_k': ('fat-tree3', ['--k', '5'], '--k 5', 'even'),
    'ft3_k_too_big': ('fat-tree3', ['--k', '38'], '--k 38', '36'),
    'ft3_k_zero': ('fat-tree3', ['--k', '0'], '--k', 'positive'),
    'ft3_k_and_shape': ('fat-tree3', ['--k', '4', '--cores', '4'], '--k', '--cores'),
    'ft3_missing': ('fat-tree3', ['--pods', '2', '--leaves-per-pod', '2'],
                    'fat-tree3 needs --hosts-per-leaf, --aggs-per-pod, --cores (or --k K)'),
    'ft3_nothing': ('fat-tree3', [], '--pods', '--leaves-per-pod', '--k K'),
    'ft3_cores_multiple': ('fat-tree3', FT3 + ['--cores', '3'], '--cores 3',
                           '--aggs-per-pod 2'),
    'ft3_leaf_ports': ('fat-tree3', ft3(2, 2, 250, 5, 5), '255 ports', '--hosts-per-leaf 250',
                       '--aggs-per-pod 5', '254'),
    'ft3_leaf_ports_mgmt': ('fat-tree3', ft3(2, 2, 249, 5, 5) + ['--mgmt'], '255 ports',
                            '--mgmt'),
    'ft3_agg_ports': ('fat-tree3', ft3(2, 250, 1, 1, 5), 'an aggregation switch',
                      '255 ports', '--leaves-per-pod 250', '--cores 5'),
    'ft3_core_ports': ('fat-tree3', ft3(255, 1, 1, 1, 1), 'a core', '255 ports', '--pods 255'),
    'ft3_lids': ('fat-tree3', ft3(200, 200, 2, 1, 1), '120201', 'LIDs', '--hosts-per-leaf'),
    'ft3_rate': ('fat-tree3', ['--k', '4', '--rate', '4xXDR'], '--rate', '4xXDR'),
    'torus_no_dims': ('torus', [], '--dims'),
    'torus_size_1': ('torus', ['--dims', '4x1'], '--dims', "'4x1'", 'at least 2'),
    'torus_4_dims': ('torus', ['--dims', '2x2x2x2'], '--dims', '1 to 3'),
    'torus_bad_dims': ('torus', ['--dims', '4by4'], '--dims', "'4by4'"),
    'torus_empty_size': ('torus', ['--dims', '4x'], '--dims', "'4x'"),
    'torus_zero_hosts': ('torus', ['--dims', '4', '--hosts-per-switch', '0'],
                         '--hosts-per-switch', 'positive'),
    'torus_ports': ('torus', ['--dims', '4x4', '--hosts-per-switch', '251'], '255 ports',
                    '--hosts-per-switch 251', '254'),
    'torus_ports_mgmt': ('torus', ['--dims', '4x4', '--hosts-per-switch', '250', '--mgmt'],
                         '255 ports', '--mgmt'),
    'torus_lids': ('torus', ['--dims', '200x200'], '80000', 'LIDs', '--dims'),
    'torus_abbreviated': ('torus', ['--dim', '4'], '--dim'),
    'torus_inject': ('torus', ['--dims', '4', '--inject', '1201G'], '--inject', '1200G'),
    'mesh_size_0': ('mesh', ['--dims', '3x0'], '--dims', 'at least 2'),
    'mesh_ports': ('mesh', ['--dims', '3x3', '--hosts-per-switch', '251'], '255 ports'),
    'mesh_corner_mgmt': ('mesh', ['--dims', '2x2', '--hosts-per-switch', '252', '--mgmt'],
                         '255 ports', '--mgmt'),
    'mesh_lids': ('mesh', ['--dims', '100x100x3'], '60000', 'LIDs'),
    'df_missing': ('dragonfly', ['--routers-per-group', '2'],
                   'dragonfly needs --hosts-per-router, --global-links'),
    'df_groups_too_many': ('dragonfly', dragonfly_args(2, 1, 1, 4), '--groups 4',
                           'at most 3'),
    'df_groups_one': ('dragonfly', dragonfly_args(2, 1, 1, 1), '--groups 1', 'at least 2'),
    'df_ports': ('dragonfly', dragonfly_args(200, 52, 4, 2), '255 ports',
                 '--hosts-per-router 52', '--routers-per-group 200', '--global-links 4'),
    'df_ports_mgmt': ('dragonfly', dragonfly_args(200, 51, 4, 2) + ['--mgmt'], '255 ports',
                      '--mgmt'),
    'df_lids': ('dragonfly', dragonfly_args(32, 16, 16, None), 'LIDs', '--groups'),
    'df_zero_links': ('dragonfly', dragonfly_args(2, 1, 0, None), '--global-links',
                      'positive'),
}
for _name, (_kind, _args, *_words) in KIND_ERROR_CASES.items():
    setattr(Errors, f'test_error_{_name}', error_case(_args, *_words, kind=_kind))


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

    def check_kind_plan(self, kind, args, nswitches, nhosts, ncables, mgmt):
        """The plan's switches, hosts, cables and management nodes; every
        switch's LFT has every LID but its own (switches 1.. in file order,
        then the CAs), and following the LFTs from any switch reaches every
        CA on a shortest path."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, f'{kind}.net')
            generate(kind, *args, '-o', path)
            with open(path) as f:
                nodes = parse(f.read())
            plan = self.plan(path)
        count = {what: sum(line.startswith(f'ibswctl {what} add ') for line in plan)
                 for what in ('switch', 'link', 'host', 'mgmt')}
        self.assertEqual(count, {'switch': nswitches, 'link': ncables, 'host': nhosts,
                                 'mgmt': mgmt})
        lft = {}
        for line in plan:
            if line.startswith('ibswctl lft set '):
                name, entries = line.split(' ')[3:]
                lft[name] = {int(lid): int(port) for lid, port in
                             (entry.split(':') for entry in entries.split(','))}
        named = by_name(nodes)
        switches = [n.name for n in nodes if n.kind == 'Switch']
        cas = [n.name for n in nodes if n.kind != 'Switch']
        self.assertEqual(sorted(lft), sorted(switches))
        top = len(switches) + len(cas)
        for lid, name in enumerate(switches, 1):
            self.assertEqual(sorted(lft[name]), [x for x in range(1, top + 1) if x != lid], name)
        # hops between switches, breadth first from every switch
        dist = {}
        for a in switches:
            dist[a], todo = {a: 0}, [a]
            for s in todo:
                for _, peer, _, _, _ in named[s].lines:
                    if named[peer].kind == 'Switch' and peer not in dist[a]:
                        dist[a][peer] = dist[a][s] + 1
                        todo.append(peer)
        for lid, ca in enumerate(cas, len(switches) + 1):
            home = named[ca].lines[0][1]
            for start in switches:
                at, hops = start, 0
                while at != ca:
                    line = named[at].port(lft[at][lid])
                    self.assertIsNotNone(line, f'{at}: LID {lid} to an uncabled port')
                    at, hops = line[1], hops + 1
                    self.assertLessEqual(hops, len(switches), f'{start} -> {ca}: a loop')
                self.assertEqual(hops, dist[start][home] + 1, f'{start} -> {ca}')

    def test_dry_run_kinds(self):
        # counts from the kinds' definitions, as in Kinds
        for kind, args, nswitches, nhosts, ncables, mgmt in (
                ('fat-tree3', ['--k', '4', '--mgmt'], 20, 16, 32, 1),
                ('fat-tree3', ['--k', '8'], 80, 128, 256, 0),
                ('fat-tree3', ['--pods', '3', '--leaves-per-pod', '4', '--hosts-per-leaf', '8',
                               '--aggs-per-pod', '2', '--cores', '6'], 24, 96, 42, 0),
                ('torus', ['--dims', '3x3', '--mgmt'], 9, 9, 18, 1),
                ('torus', ['--dims', '4x3x2', '--hosts-per-switch', '2'], 24, 48, 60, 0),
                ('torus', ['--dims', '8'], 8, 8, 8, 0),
                ('mesh', ['--dims', '3x3', '--mgmt'], 9, 9, 12, 1),
                ('mesh', ['--dims', '4x4x4'], 64, 64, 144, 0),
                ('dragonfly', dragonfly_args(2, 1, 1, None) + ['--mgmt'], 6, 6, 6, 1),
                ('dragonfly', dragonfly_args(4, 2, 2, None), 36, 72, 90, 0),
                ('dragonfly', dragonfly_args(2, 1, 3, 5), 10, 10, 15, 0)):
            with self.subTest(kind=kind, args=args):
                self.check_kind_plan(kind, args, nswitches, nhosts, ncables, mgmt)


if __name__ == '__main__':
    unittest.main()
