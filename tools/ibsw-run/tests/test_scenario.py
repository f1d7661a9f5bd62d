# SPDX-License-Identifier: GPL-2.0
"""The scenario parser: times with units, defaults, names from the
topology, placeholders, and one test per kind of error, each checking the
file and line in the message."""

import dataclasses
import glob
import io
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ibswrun import cct  # noqa: E402
from ibswrun import scenario, sweep  # noqa: E402
from ibswrun.scenario import ScenarioError  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOPO = os.path.join(HERE, 'fixtures', 'fabric.net')
ROOT = os.path.join(HERE, '..', '..', '..')


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-run-test-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, text, name='t.scn'):
        path = os.path.join(self.tmp, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    def load(self, text, name='t.scn'):
        warn = io.StringIO()
        sc = scenario.load(self.write(text, name), warn=warn)
        self.warned = warn.getvalue()
        return sc


HEAD = f'topology {TOPO}\nduration 10ms\n'	# lines 1-2


class Parse(Base):
    def test_fixed_size_flows(self):
        sc = self.load(HEAD + 'flow F1 H1 H4 write count 1000\n'
                       'flow F2 H2 H5 write size 4096 bytes 10M start 1ms\n'
                       'flow F3 H3 H5 write size 4096 bytes 10001\n'
                       'flow F4 H4 H1 read stop 5ms\n')
        self.assertEqual([f.count for f in sc.flows], [1000, 2560, 3, None])
        self.assertEqual(sc.flows[0].stop, 0.01)	# it may run to the end

    def test_cc_hca(self):
        sc = self.load(HEAD + 'cc switch * threshold 15 marking_rate 1\n'
                       'cc hca * ccti_increase 1 ccti_timer 150 cct seed002\n'
                       'cc hca H1 sl 3 ccti_min 2 port_control sl cct 0:0,0:5\n')
        self.assertEqual(sc.cc, 'switch marking + HCA')
        self.assertEqual([(c.host, c.line) for c in sc.hca_settings], [('*', 4), ('H1', 5)])
        self.assertEqual(sc.hca_settings[1].opts,
                         {'sl': '3', 'ccti_min': '2', 'port_control': 'sl', 'cct': '0:0,0:5'})
        sc = self.load(HEAD + 'cc hca * becn_coalesce on\n')
        self.assertEqual(sc.hca_settings[0].opts, {'becn_coalesce': 'on'})
        sc = self.load(HEAD + 'cc hca H2 ccti_increase 2\n')
        self.assertEqual(sc.cc, 'HCA')
        # 'on' only enables what the device has (an SM's settings)
        sc = self.load(HEAD + 'cc hca * on\n')
        self.assertEqual([(c.host, c.opts) for c in sc.hca_settings], [('*', {})])
        for text, reason in (('cc hca H1 on off\n', "unknown cc hca option 'on'"),
                             ('cc hca H1\n', "needs settings (port_control sl ccti_timer "
                              "ccti_increase trigger_threshold ccti_min cct becn_coalesce) or 'on'")):
            with self.assertRaises(ScenarioError) as cm:
                scenario.load(self.write(HEAD + text), warn=None)
            self.assertEqual(cm.exception.line, 3)
            self.assertIn(reason, str(cm.exception))

    def test_mpi(self):
        with open(os.path.join(self.tmp, 'hpccinf.txt'), 'w', encoding='utf-8') as f:
            f.write('input\n')
        sc = self.load(HEAD + 'flow F1 H2 H3 write\n'
                       'mpi J1 H1,H4 -- NPopenmpi -o np.out\n'
                       'mpi J2 H1,H4,H5 np 6 tls ud sl 2 nice 5 start 1ms stop 9ms '
                       'in hpccinf.txt -- hpcc\n')
        j1, j2 = sc.mpi
        self.assertEqual((j1.name, j1.hosts, j1.np, j1.tls, j1.sl, j1.start, j1.stop, j1.inputs,
                          j1.argv, j1.line),
                         ('J1', ['H1', 'H4'], None, 'rc', 0, 0.0, 0.01, [],
                          ['NPopenmpi', '-o', 'np.out'], 4))
        self.assertEqual(j1.nice, None)
        self.assertEqual((j2.hosts, j2.np, j2.tls, j2.sl, j2.nice, j2.start, j2.stop, j2.inputs),
                         (['H1', 'H4', 'H5'], 6, 'ud', 2, 5, 0.001, 0.009,
                          [os.path.join(self.tmp, 'hpccinf.txt')]))
        # no overlap warning: an MPI job is not a flow measured at one port
        sc = self.load(HEAD + 'flow F1 H1 H3 write\nmpi J1 H1,H4 -- a\n')
        self.assertEqual(self.warned, '')
        self.assertEqual(scenario.to_dict(sc)['mpi'][0]['hosts'], ['H1', 'H4'])

    def test_times_with_units(self):
        cases = {'0.02': 0.02, '20ms': 0.02, '20000us': 0.02, '1s': 1.0, '2.3ms': 0.0023,
                 '.5ms': 0.0005, '5e-3': 0.005, '5e-3s': 0.005, '0': 0.0, '1.5e1us': 1.5e-5}
        for word, want in cases.items():
            self.assertEqual(scenario.parse_time(word), want, word)
        for bad in ('', '-1ms', '1 ms', '1min', 'ms', '1e', '1.2.3', '+2s', '2S'):
            with self.assertRaises(scenario._Bad, msg=bad):
                scenario.parse_time(bad)

    def test_defaults(self):
        sc = self.load(HEAD + 'flow F1 H1 H4 write\n', 'my-exp.scn')
        self.assertEqual(sc.name, 'my-exp')
        self.assertEqual(sc.topology, os.path.abspath(TOPO))
        self.assertEqual(sc.scale, 1000)
        self.assertEqual(sc.duration, 0.01)
        self.assertEqual(sc.sample, 0.01 / 100)
        self.assertEqual(sc.cc, 'off')
        self.assertEqual(sc.fabric_args, [])
        f = sc.flows[0]
        self.assertEqual((f.name, f.src, f.dst, f.verb, f.size, f.sl, f.qps, f.start, f.stop,
                          f.line), ('F1', 'H1', 'H4', 'write', 65536, 0, 1, 0.0, 0.01, 3))
        self.assertEqual(sc.windows, {'run': (0.0, 0.01)})
        self.assertEqual(sc.switches, {'S1': 8, 'S2': 4})
        self.assertEqual(sc.hosts, {'H1': 1, 'H2': 1, 'H3': 1, 'H4': 1, 'H5': 1})
        self.assertEqual(sc.warnings, [])

    def test_vcpus(self):
        self.assertIsNone(self.load(HEAD).vcpus)
        sc = self.load(HEAD + 'vcpus 1\n')
        self.assertEqual(sc.vcpus, 1)
        self.assertEqual(scenario.to_dict(sc)['vcpus'], 1)
        self.assertFalse(sc.parallel)
        self.assertTrue(self.load(HEAD + 'vcpus 2 parallel\n').parallel)

    def test_cpus(self):
        self.assertEqual(self.load(HEAD).cpus, {})
        sc = self.load(HEAD + 'vcpus 4 parallel\ncpus H1,H4 0\ncpus H2 1-2,3\n')
        self.assertEqual(sc.cpus, {'H1': [0], 'H4': [0], 'H2': [1, 2, 3]})
        sc = self.load(HEAD + 'vcpus 2\ncpus * 1,0\n')
        self.assertEqual(sc.cpus, {h: [0, 1] for h in ('H1', 'H2', 'H3', 'H4', 'H5')})
        self.assertEqual(scenario.to_dict(sc)['cpus']['H3'], [0, 1])

    def test_cpu_list(self):
        cases = [('0', [0]), ('3', [3]), ('0-1', [0, 1]), ('2,0', [0, 2]), ('0,2-3', [0, 2, 3]),
                 ('1-1,1', [1]), ('63', [63])]
        for word, want in cases:
            with self.subTest(word=word):
                self.assertEqual(scenario.parse_cpu_list(word), want)

    def test_start_timeout(self):
        self.assertEqual(self.load(HEAD).start_timeout, scenario.START_TIMEOUT)
        sc = self.load(HEAD + 'start_timeout 90s\n')
        self.assertEqual(sc.start_timeout, 90.0)
        self.assertEqual(scenario.to_dict(sc)['start_timeout'], 90.0)
        self.assertEqual(self.load(HEAD + 'start_timeout 2.5\n').start_timeout, 2.5)

    def test_full(self):
        os.makedirs(os.path.join(self.tmp, 'fixtures'))
        shutil.copy(TOPO, os.path.join(self.tmp, 'fixtures'))
        sc = self.load(
            '# a comment\n'
            '\n'
            'name exp1   # trailing comment\n'
            'topology fixtures/fabric.net\n'
            'scale 250\n'
            'fabric vls 8 buffer 256 mtu 4200\n'
            'duration 0.05\n'
            'sample 500us\n'
            'cc off\n'
            'flow F1 H1 H4 read size 4K sl 3 qps 2 start 1ms stop 40ms\n'
            'flow F2 H2 H4 send size 1M\n'
            "app ping H3 start 5ms -- ping -c 1 '{H4.ip4}' {H4.mgmt} # c\n"
            'counter S2/2 port_xmit_data port_xmit_wait@7\n'
            'counter S1/* port_rcv_data rcv_foreign\n'
            'window w1 1ms 20ms\n'
            'window w2 20ms 50ms\n'
            'fairness both F1,F2\n'
            'fairness late F1,F2,ping w2\n')
        # the topology is relative to the scenario file's directory
        self.assertEqual(sc.topology, os.path.join(self.tmp, 'fixtures', 'fabric.net'))
        self.assertEqual((sc.name, sc.scale, sc.duration, sc.sample),
                         ('exp1', 250, 0.05, 0.0005))
        self.assertEqual(sc.fabric_args, ['vls', '8', 'buffer', '256', 'mtu', '4200'])
        f1, f2 = sc.flows
        self.assertEqual((f1.verb, f1.size, f1.sl, f1.qps, f1.start, f1.stop, f1.line),
                         ('read', 4096, 3, 2, 0.001, 0.04, 10))
        self.assertEqual((f2.verb, f2.size, f2.stop), ('send', 1 << 20, 0.05))
        app = sc.apps[0]
        self.assertEqual((app.name, app.host, app.start, app.stop, app.line),
                         ('ping', 'H3', 0.005, 0.05, 12))
        # placeholders stay for the guest to expand; quotes and comment gone
        self.assertEqual(app.argv, ['ping', '-c', '1', '{H4.ip4}', '{H4.mgmt}'])
        self.assertEqual([(c.switch, c.port, c.name, c.vl) for c in sc.counters],
                         [('S2', 2, 'port_xmit_data', None), ('S2', 2, 'port_xmit_wait', 7),
                          ('S1', '*', 'port_rcv_data', None), ('S1', '*', 'rcv_foreign', None)])
        self.assertEqual(list(sc.windows), ['run', 'w1', 'w2'])
        self.assertEqual(sc.windows['w1'], (0.001, 0.02))
        both, late = sc.fairness
        self.assertEqual(both.windows, ['run', 'w1', 'w2'])	# default: every window
        self.assertEqual((late.flows, late.windows), (['F1', 'F2', 'ping'], ['w2']))
        self.assertEqual(sc.warnings, [])

    def test_to_dict_is_json(self):
        import json
        sc = self.load(HEAD + 'flow F1 H1 H4 write\nwindow w 1ms 2ms\n'
                       'counter S1/* port_xmit_wait\n')
        d = json.loads(json.dumps(scenario.to_dict(sc)))
        self.assertEqual(d['windows'], {'run': [0.0, 0.01], 'w': [0.001, 0.002]})
        self.assertEqual(d['flows'][0]['src'], 'H1')
        self.assertEqual(d['counters'][0]['port'], '*')
        self.assertEqual(d['duration'], 0.01)

    def test_overlap_warning(self):
        sc = self.load(HEAD + 'flow F1 H1 H4 write stop 5ms\n'
                       'flow F2 H1 H5 write start 5ms\n'	# back to back: fine
                       'flow F3 H1 H5 write start 4ms\n')
        self.assertEqual(len(sc.warnings), 2)
        self.assertIn(f'{self.tmp}/t.scn:5: warning: F3 and F1 (line 3) both send from H1',
                      sc.warnings[0])
        self.assertIn('F3 and F2 (line 4)', sc.warnings[1])
        self.assertIn('warning', self.warned)
        # data goes from SRC to DST for every verb, read included
        sc = self.load(HEAD + 'flow F1 H1 H4 read\nflow F2 H4 H5 write\n'
                       'flow F3 H1 H5 read start 9ms\n')
        self.assertEqual(len(sc.warnings), 1)
        self.assertIn('t.scn:5: warning: F3 and F1 (line 3) both send from H1', sc.warnings[0])
        self.assertEqual([scenario.sender(f) for f in sc.flows], ['H1', 'H4', 'H1'])

    def test_ibnetdiscover_names(self):
        # Switch names in samples and sysfs are ibswctl's identifiers.
        with open(os.path.join(self.tmp, 'ibnd.net'), 'w', encoding='utf-8') as f:
            f.write('Switch\t24 "S-0002c90000000010"\t\t# "sw" lid 1\n'
                    '[1]\t"H-0002c90300000101"[1]\t# lid 3 4xQDR\n\n'
                    'Ca\t1 "H-0002c90300000101"\t\t# "h1"\n'
                    '[1]\t"S-0002c90000000010"[1]\t# lid 3 4xQDR\n'
                    'Ca\t1 "node2"\n[1]\t"S-0002c90000000010"[2]\n')
        sc = self.load('topology ibnd.net\nduration 1ms\n'
                       'flow F1 h1 node2 write\n'
                       'counter S-0002c90000000010/1 port_xmit_data\ncounter s1/2 port_xmit_data\n')
        self.assertEqual(sc.switches, {'s1': 24})
        self.assertEqual(sc.hosts, {'H-0002c90300000101': 1, 'node2': 1})
        self.assertEqual(sc.flows[0].src, 'H-0002c90300000101')
        self.assertEqual([c.switch for c in sc.counters], ['s1', 's1'])

    def test_counter_key(self):
        c = scenario.Counter('S2', 3, 'port_xmit_data', 0, 1)
        self.assertEqual(scenario.counter_key(c), 'S2/3:port_xmit_data@0')
        c = scenario.Counter('S2', '*', 'port_xmit_wait', None, 1)
        self.assertEqual(scenario.counter_key(c, 5), 'S2/5:port_xmit_wait')

    def test_expand(self):
        hosts = {'H4': {'ident': 'H4', 'ipv4': '10.0.0.6', 'ipv6': 'fd00:1b::6',
                        'mgmt_ipv4': '10.1.0.6', 'rdma_dev': 'rxe_H4', 'ifname': 'ib0',
                        'lid': 6},
                 'long name': {'ident': 'h2', 'ipv4': '10.0.0.7'}}
        argv = ['x', '{H4.ip4}:{H4.lid}', '{H4.ip6}', '{H4.mgmt}', '-d', '{H4.rdma}',
                '{H4.dev}', '{h2.ip4}', '{}', '{a,b}', 'awk {print}']
        self.assertEqual(scenario.expand(argv, hosts),
                         ['x', '10.0.0.6:6', 'fd00:1b::6', '10.1.0.6', '-d', 'rxe_H4', 'ib0',
                          '10.0.0.7', '{}', '{a,b}', 'awk {print}'])
        with self.assertRaises(ValueError):
            scenario.expand(['{H9.ip4}'], hosts)
        with self.assertRaises(ValueError):
            scenario.expand(['{h2.lid}'], hosts)
        # the run's own fields
        self.assertEqual(scenario.expand(['--log', '{run.dir}/m.jsonl', '{run.scale}',
                                          '{run.root}/p.conf'], hosts,
                                         {'dir': '/r', 'scale': 500, 'root': '/src'}),
                         ['--log', '/r/m.jsonl', '500', '/src/p.conf'])
        with self.assertRaises(ValueError):
            scenario.expand(['{run.dir}'], hosts)

    def test_control_plane_app(self):
        sc = self.load(HEAD + 'app mgr - -- dcms --log {run.dir}/dcms.jsonl\n'
                       'app mgr2 - start 1ms -- ibswctl monitor\n'
                       'flow F1 H1 H4 write\n')
        self.assertEqual([(a.name, a.host) for a in sc.apps], [('mgr', '-'), ('mgr2', '-')])
        # two apps beside ibsw-run send nothing: no overlap warning
        self.assertEqual(sc.warnings, [])

    def test_management_node(self):
        # an SM on the fabric and an app on its management node: M1 takes
        # apps, and no flow; devid= applies to the next record only
        topo = os.path.join(HERE, 'fixtures', 'fabric-sm.net')
        sc = self.load(f'topology {topo}\nduration 10ms\nfabric sm opensm routing-engine updn\n'
                       'app mgr M1 -- dcms --conf {run.root}/x.conf\n'
                       'flow F1 H1 H4 write\n')
        self.assertEqual(sc.fabric_args, ['sm', 'opensm', 'routing-engine', 'updn'])
        self.assertEqual([(a.name, a.host) for a in sc.apps], [('mgr', 'M1')])
        for text, line, reason in (
                ('flow F1 M1 H4 write\n', 3, "source host 'M1' is a management node "
                 '(devid=0x1b5e): it runs apps, not flows'),
                ('flow F1 H1 M1 write\n', 3, "destination host 'M1' is a management node")):
            path = self.write(f'topology {topo}\nduration 10ms\n' + text)
            with self.assertRaises(ScenarioError) as cm:
                scenario.load(path, warn=None)
            self.assertEqual(cm.exception.line, line)
            self.assertIn(reason, str(cm.exception))
        mgmt = set()
        scenario.read_topology(topo, mgmt)
        self.assertEqual(mgmt, {'M1'})
        mgmt = set()
        scenario.read_topology(TOPO, mgmt)
        self.assertEqual(mgmt, set())

    def test_sm_conf(self):
        # sm-conf is relative to the scenario file and made absolute; one
        # that turns OpenSM's congestion control manager on counts as
        # switch marking
        topo = os.path.join(HERE, 'fixtures', 'fabric-sm.net')
        conf = self.write('force_log_flush TRUE\ncongestion_control TRUE\n', 'sm.conf')
        sc = self.load(f'topology {topo}\nduration 10ms\n'
                       'fabric sm opensm sm-conf sm.conf qos on\ncc hca * on\n')
        self.assertEqual(sc.fabric_args, ['sm', 'opensm', 'sm-conf', conf, 'qos', 'on'])
        self.assertEqual(sc.cc, 'switch marking + HCA (OpenSM)')
        self.write('force_log_flush TRUE\n# congestion_control TRUE\n', 'plain.conf')
        sc = self.load(f'topology {topo}\nduration 10ms\nfabric sm opensm sm-conf plain.conf\n')
        self.assertEqual(sc.cc, 'off')
        # a large fabric keeps each rdma device in its host's namespace
        sc = self.load(f'topology {topo}\nduration 10ms\nfabric rdma-netns exclusive\n')
        self.assertEqual(sc.fabric_args, ['rdma-netns', 'exclusive'])
        for text, line, reason in (
                ('fabric sm opensm sm-conf nosuch.conf\n', 3,
                 'fabric sm-conf: cannot read nosuch.conf ('),
                ('fabric sm opensm sm-conf sm.conf\ncc off\n', 4,
                 "'cc off', but the sm-conf says congestion_control TRUE"),
                ('fabric sm opensm qos maybe\n', 3, "fabric qos: 'maybe' is not one of on off"),
                ('fabric rdma-netns private\n', 3,
                 "fabric rdma-netns: 'private' is not one of shared exclusive")):
            with self.assertRaises(ScenarioError) as cm:
                scenario.load(self.write(f'topology {topo}\nduration 10ms\n' + text),
                              warn=None)
            self.assertEqual(cm.exception.line, line)
            self.assertIn(reason, str(cm.exception))

    def test_cc_settings(self):
        sc = self.load(HEAD + 'cc switch * threshold 15 marking_rate 0\n'
                       'cc switch S2 victim_mask ports:2,3 packet_size 8\n'
                       'cc port S1/4 valid on threshold 10\n'
                       'cc switch S1 fill_compare per_input\n')
        self.assertEqual(sc.cc, 'switch marking')
        self.assertEqual([(c.switch, c.port, c.args, c.line) for c in sc.cc_settings],
                         [('*', None, ['threshold', '15', 'marking_rate', '0'], 3),
                          ('S2', None, ['victim_mask', 'ports:2,3', 'packet_size', '8'], 4),
                          ('S1', 4, ['valid', 'on', 'threshold', '10'], 5),
                          ('S1', None, ['fill_compare', 'per_input'], 6)])
        self.assertEqual(self.load(HEAD + 'cc off\n').cc_settings, [])

    def test_shipped_scenarios(self):
        # every one loads, named after its file, without a warning
        files = sorted(glob.glob(os.path.join(ROOT, 'scenarios', '*.scn')))
        self.assertGreaterEqual(len(files), 8)
        for path in files:
            with self.subTest(path=path):
                sw = sweep.read(path)	# a sweep: every point
                for sc in sweep.load_all(sw) if sw else [scenario.load(path, warn=None)]:
                    self.assertEqual(sc.name, os.path.basename(path)[:-4])
                    self.assertEqual(sc.warnings, [])
        for name, nflows, napps in (('seed002-s1', 5, 0), ('seed000-dcms', 4, 0),
                                    ('seed000-dcms-1x', 4, 1), ('seed000-dcms-fig6', 4, 1),
                                    ('seed000-dcms-1x-mad', 4, 1)):
            sc = scenario.load(os.path.join(ROOT, 'scenarios', name + '.scn'), warn=None)
            self.assertEqual((len(sc.flows), len(sc.apps)), (nflows, napps))
        sc = scenario.load(os.path.join(ROOT, 'scenarios', 'seed002-s1.scn'), warn=None)
        self.assertEqual([f.start for f in sc.flows], [0.0, 0.02, 0.04, 0.06, 0.08])
        self.assertEqual([(c.switch, c.port, c.name) for c in sc.counters],
                         [('S2', 2, 'port_xmit_data'), ('S2', 2, 'port_xmit_wait'),
                          ('S1', 4, 'port_xmit_wait')])

    def test_opensm_twin(self):
        # seed002-s1-cc-1x-sm.scn is seed002-s1-cc-1x.scn with OpenSM
        # setting Table I: the same flows, windows and counters, and its
        # opensm.conf holds the twin's cc lines, the CCT as they expand
        # it at 1x SDR and the 4096-byte MTU
        d = os.path.join(ROOT, 'scenarios')
        ctl = scenario.load(os.path.join(d, 'seed002-s1-cc-1x.scn'), warn=None)
        sm = scenario.load(os.path.join(d, 'seed002-s1-cc-1x-sm.scn'), warn=None)
        def lineless(v):
            return [dataclasses.replace(x, line=0) for x in v] if isinstance(v, list) else v
        for field in ('scale', 'duration', 'sample', 'flows', 'windows', 'fairness'):
            self.assertEqual(lineless(getattr(sm, field)), lineless(getattr(ctl, field)), field)
        key = [(c.switch, c.port, c.name, c.vl) for c in ctl.counters]
        self.assertEqual([(c.switch, c.port, c.name, c.vl) for c in sm.counters], key)
        self.assertEqual(sm.cc, 'switch marking + HCA (OpenSM)')
        conf = {}
        with open(sm.fabric_args[sm.fabric_args.index('sm-conf') + 1]) as f:
            for line in f:
                words = line.split()
                if words and not words[0].startswith('#'):
                    conf.setdefault(words[0], []).append(' '.join(words[1:]))
        (sw,) = ctl.cc_settings
        want = dict(zip(sw.args[::2], sw.args[1::2]))
        for k in ('threshold', 'marking_rate', 'packet_size'):
            self.assertEqual(conf['cc_sw_cong_setting_' + k], [want[k]], k)
        self.assertEqual(conf['cc_sw_cong_setting_control_map'], ['0x14'])
        (hca,) = ctl.hca_settings
        self.assertEqual(conf['cc_ca_cong_setting_port_control'], ['0x0000'])
        self.assertEqual(hca.opts['port_control'], 'qp')
        self.assertEqual(conf['cc_ca_cong_setting_control_map'], ['0xffff'])
        for k in ('ccti_timer', 'ccti_increase', 'ccti_min'):
            self.assertEqual(conf['cc_ca_cong_setting_' + k],
                             [f'{sl} {hca.opts[k]}' for sl in range(16)], k)
        table = cct.spec(hca.opts['cct'], 2000000000, 4096)
        self.assertEqual(conf['cc_cct'], [cct.format_table(table).replace(' ', ',')])


# (name, text after HEAD, line, text of the reason)
ERRORS = [
    ('mpi_no_program', 'mpi J1 H1,H2 --\n', 3, 'mpi needs a program after --'),
    ('mpi_no_dashes', 'mpi J1 H1,H2 hpcc\n', 3, 'mpi needs NAME HOST,HOST... [np N]'),
    ('mpi_no_hosts', 'mpi J1 -- hpcc\n', 3, 'mpi needs NAME HOST,HOST... [np N]'),
    ('mpi_empty_host', 'mpi J1 H1,,H2 -- hpcc\n', 3, "bad host list 'H1,,H2'"),
    ('mpi_unknown_host', 'mpi J1 H1,H9 -- hpcc\n', 3,
     "unknown mpi host 'H9' (topology hosts: H1 H2 H3 H4 H5)"),
    ('mpi_host_twice', 'mpi J1 H1,H2,H1 -- hpcc\n', 3, 'mpi J1: host H1 listed twice'),
    ('mpi_tls', 'mpi J1 H1,H2 tls tcp -- hpcc\n', 3, "unknown mpi tls 'tcp' (rc ud)"),
    ('mpi_np', 'mpi J1 H1,H2 np 0 -- hpcc\n', 3, 'rank count 0 out of range (1 to 1024)'),
    ('mpi_sl', 'mpi J1 H1,H2 sl 16 -- hpcc\n', 3, 'SL 16 out of range (0 to 15)'),
    ('mpi_nice', 'mpi J1 H1,H2 nice 20 -- hpcc\n', 3, 'niceness 20 out of range (0 to 19)'),
    ('mpi_nice_negative', 'mpi J1 H1,H2 nice -1 -- hpcc\n', 3, "bad niceness '-1'"),
    ('mpi_option', 'mpi J1 H1,H2 ranks 2 -- hpcc\n', 3, "unknown mpi option 'ranks'"),
    ('mpi_input', 'mpi J1 H1,H2 in none.txt -- hpcc\n', 3,
     "mpi input 'none.txt' ("),
    ('mpi_stop', 'mpi J1 H1,H2 stop 11ms -- hpcc\n', 3,
     'mpi J1: need 0 <= start < stop <= duration'),
    ('mpi_same_name', 'flow J1 H1 H2 write\nmpi J1 H1,H2 -- hpcc\n', 4,
     "duplicate flow/app/mpi name 'J1' (first at line 3)"),
    ('mpi_fairness', 'flow F1 H3 H2 write\nmpi J1 H1,H2 -- hpcc\nfairness all F1,J1\n', 5,
     "mpi job 'J1' in fairness set all: it has no throughput"),
    ('unknown_keyword', 'flows F1 H1 H4 write\n', 3, "unknown keyword 'flows' (name topology"),
    ('repeated_keyword', 'duration 5ms\n', 3, "'duration' given twice (first at line 2)"),
    ('keyword_arity', 'scale 10 20\n', 3, "'scale' takes one value, 2 given"),
    ('bad_time', 'flow F1 H1 H4 write start 5min\n', 3, "bad time '5min' (a number with"),
    ('bad_scale', 'scale 1.5\n', 3, "bad time scale '1.5' (an integer, 1 to 10000)"),
    ('scale_range', 'scale 0\n', 3, 'time scale 0 out of range (1 to 10000)'),
    ('sample_too_long', 'sample 11ms\n', 3, 'sample interval 11ms must be > 0 and <= the duration'),
    ('sample_zero', 'sample 0\n', 3, 'sample interval'),
    ('cc_on', 'cc on\n', 3, 'say what to turn on: cc switch SW|* threshold T'),
    ('cc_bad', 'cc maybe\n', 3, "bad cc 'maybe' (off, switch, port or hca)"),
    ('cc_hca_host', 'cc hca H9 ccti_increase 1\n', 3,
     "unknown cc hca host 'H9' (topology hosts: H1 H2 H3 H4 H5)"),
    ('cc_hca_no_settings', 'cc hca H1\n', 3, 'cc hca H1 needs settings (port_control sl'),
    ('cc_hca_key', 'cc hca * ccti_max 3\n', 3, "unknown cc hca option 'ccti_max'"),
    ('cc_hca_range', 'cc hca * ccti_increase 256\n', 3, 'ccti_increase 256 out of range (0 to 255)'),
    ('cc_hca_timer', 'cc hca * ccti_timer 65536\n', 3, 'ccti_timer 65536 out of range'),
    ('cc_hca_port_control', 'cc hca * port_control vl\n', 3, "bad port_control 'vl' (qp or sl)"),
    ('cc_hca_sl', 'cc hca * sl 16 ccti_min 1\n', 3, 'sl 16 out of range (0 to 15)'),
    ('cc_hca_becn', 'cc hca * becn_coalesce 1\n', 3, "bad becn_coalesce '1' (on or off)"),
    ('cc_hca_sl_alone', 'cc hca * sl 3\n', 3, 'cc hca sl N selects the SL'),
    ('cc_hca_cct_entry', 'cc hca * cct 0:0,4:1\n', 3, "bad CCT entry '4:1'"),
    ('cc_hca_cct_shape', 'cc hca * cct cubic\n', 3, "unknown shape 'cubic'"),
    ('cc_hca_cct_coef', 'cc hca * cct linear:64\n', 3, 'shape linear needs a coefficient'),
    ('cc_hca_and_off', 'cc off\ncc hca * ccti_increase 1\n', 4, "cc settings and 'cc off' (line 3)"),
    ('cc_switch', 'cc switch S9 threshold 3\n', 3, "unknown switch 'S9' (topology switches: S1 S2, or *)"),
    ('cc_threshold', 'cc switch S1 threshold 16\n', 3, 'threshold 16 out of range (0 to 15)'),
    ('cc_port_range', 'cc port S2/5 threshold 3\n', 3, 'port 5 out of range for switch S2 (1 to 4)'),
    ('cc_port_syntax', 'cc port S2 threshold 3\n', 3, "bad port 'S2' (SW/PORT)"),
    ('cc_no_settings', 'cc switch *\n', 3, 'cc switch * needs settings'),
    ('cc_twice', 'cc switch S1 marking_rate 1 marking_rate 2\n', 3, "option 'marking_rate' given twice"),
    ('cc_port_key', 'cc port S1/4 victim_mask 0x10\n', 3, "unknown cc port option 'victim_mask'"),
    ('cc_mask', 'cc switch S1 victim_mask ports:x\n', 3, "bad victim_mask 'ports:x'"),
    ('cc_valid', 'cc port S1/4 valid 1\n', 3, "bad valid '1' (on or off)"),
    ('cc_fill_compare', 'cc switch * fill_compare max\n', 3,
     "bad fill_compare 'max' (sum, voq or per_input)"),
    ('cc_fill_compare_port', 'cc port S1/4 fill_compare voq\n', 3,
     "unknown cc port option 'fill_compare'"),
    ('cc_off_and_on', 'cc off\ncc switch S1 threshold 1\n', 4, "cc settings and 'cc off' (line 3)"),
    ('cc_off_twice', 'cc off\ncc off\n', 4, "'cc off' given twice (first at line 3)"),
    ('fabric_unknown', 'fabric vls 4 pacing off\n', 3, "fabric: unknown word 'pacing'"),
    ('fabric_scale', 'fabric scale 10\n', 3,
     "fabric: 'scale' is set by ibsw-run (use the 'scale' line)"),
    ('fabric_value', 'fabric vls 16\n', 3, 'fabric vls 16 out of range (1 to 15)'),
    ('fabric_missing_value', 'fabric buffer\n', 3, "fabric: 'buffer' needs a value"),
    ('fabric_empty', 'fabric\n', 3, "'fabric' needs words"),
    ('fabric_sm_value', 'fabric sm ibsim\n', 3, "fabric sm: 'ibsim' is not one of opensm"),
    ('fabric_sm_no_mgmt', 'fabric sm opensm\n', 3,
     'fabric sm: topology ' + TOPO + ' has no management node (an Hca record after '
     'devid=0x1b5e)'),
    ('flow_short', 'flow F1 H1 H4\n', 3, 'flow needs NAME SRC DST VERB'),
    ('flow_bad_name', 'flow F/1 H1 H4 write\n', 3, "bad flow name 'F/1'"),
    ('flow_verb', 'flow F1 H1 H4 atomic\n', 3, "unknown verb 'atomic' (write, read or send)"),
    ('count_and_bytes', 'flow F1 H1 H4 write count 10 bytes 1M\n', 3,
     'a fixed-size flow takes count (messages) or bytes, not both'),
    ('count_zero', 'flow F1 H1 H4 write count 0\n', 3,
     'message count 0 out of range (1 to 2147483647)'),
    ('bytes_bad', 'flow F1 H1 H4 write bytes 1T\n', 3,
     "bad byte count '1T' (bytes; K, M and G suffixes allowed)"),
    ('bytes_too_many', 'flow F1 H1 H4 write size 1 bytes 1024G\n', 3,
     'bytes 1099511627776: 1099511627776 messages of 1 bytes, more than 2147483647'),
    ('count_qps', 'flow F1 H1 H4 write count 10 qps 2\n', 3,
     'a fixed-size flow (count, bytes) has one QP'),
    ('flow_option', 'flow F1 H1 H4 write mtu 4096\n', 3,
     "unknown flow option 'mtu' (size sl qps start stop count bytes)"),
    ('flow_option_twice', 'flow F1 H1 H4 write sl 1 sl 2\n', 3, "flow option 'sl' given twice"),
    ('flow_option_value', 'flow F1 H1 H4 write size\n', 3, "flow option 'size' needs a value"),
    ('flow_bad_size', 'flow F1 H1 H4 write size 64k\n', 3, "bad size '64k'"),
    ('flow_size_range', 'flow F1 H1 H4 write size 16M\n', 3,
     'size 16777216 out of range (1 to 8388608 bytes)'),
    ('flow_sl_range', 'flow F1 H1 H4 write sl 16\n', 3, 'SL 16 out of range (0 to 15)'),
    ('flow_qps_range', 'flow F1 H1 H4 write qps 0\n', 3, 'QP count 0 out of range (1 to 64)'),
    ('flow_start_after_stop', 'flow F1 H1 H4 write start 5ms stop 5ms\n', 3,
     'flow F1: need 0 <= start < stop <= duration, got start 5ms, stop 5ms'),
    ('flow_stop_after_duration', 'flow F1 H1 H4 write stop 11ms\n', 3,
     'stop 11ms, duration 10ms'),
    ('flow_start_at_duration', 'flow F1 H1 H4 write start 10ms\n', 3, 'start 10ms, stop 10ms'),
    ('flow_same_host', 'flow F1 H1 H1 write\n', 3,
     'flow F1: source and destination are both H1'),
    ('flow_unknown_source', 'flow F1 H9 H4 write\n', 3,
     "unknown source host 'H9' (topology hosts: H1 H2 H3 H4 H5)"),
    ('flow_unknown_destination', 'flow F1 H1 S1 write\n', 3, "unknown destination host 'S1'"),
    ('duplicate_flow', 'flow F1 H1 H4 write\nflow F1 H2 H4 write\n', 4,
     "duplicate flow/app/mpi name 'F1' (first at line 3)"),
    ('app_no_dashes', 'app a H1 ping H4\n', 3, 'app needs NAME HOST [start T] [stop T] -- COMMAND'),
    ('app_no_command', 'app a H1 --\n', 3, 'app needs a command after --'),
    ('app_no_host', 'app a -- true\n', 3, 'app needs NAME HOST before --'),
    ('app_unknown_host', 'app a H7 -- true\n', 3, "unknown app host 'H7'"),
    ('app_option', 'app a H1 sl 1 -- true\n', 3, "unknown app option 'sl' (start stop)"),
    ('app_placeholder_host', 'app a H1 -- ping {H8.ip4}\n', 3,
     "unknown host 'H8' in placeholder '{H8.ip4}'"),
    ('app_run_field', 'app a - -- dcms {run.host}\n', 3,
     "unknown field 'host' in placeholder '{run.host}' (dir scale root)"),
    ('app_placeholder_field', 'app a H1 -- ping {H4.ipv4}\n', 3,
     "unknown field 'ipv4' in placeholder '{H4.ipv4}' (ip4 ip6 mgmt rdma dev lid)"),
    ('app_same_name_as_flow', 'flow x H1 H4 write\napp x H2 -- true\n', 4,
     "duplicate flow/app/mpi name 'x' (first at line 3)"),
    ('app_times', 'app a H1 start 20ms -- true\n', 3, 'app a: need 0 <= start < stop'),
    ('unclosed_quote', "app a H1 -- sh -c 'echo\n", 3, 'no closing quotation'),
    ('counter_short', 'counter S1/1\n', 3, 'counter needs SW/PORT NAME'),
    ('counter_bad_port', 'counter S1:1 port_xmit_data\n', 3, "bad port 'S1:1' (SW/PORT"),
    ('counter_unknown_switch', 'counter S3/1 port_xmit_data\n', 3,
     "unknown switch 'S3' (topology switches: S1 S2)"),
    ('counter_port_range', 'counter S2/5 port_xmit_data\n', 3,
     'port 5 out of range for switch S2 (1 to 4, or *)'),
    ('counter_port_zero', 'counter S2/0 port_xmit_data\n', 3, 'port 0 out of range for switch S2'),
    ('counter_unknown', 'counter S1/1 port_xmit_bytes\n', 3,
     "unknown counter 'port_xmit_bytes' (port_xmit_data port_rcv_data"),
    ('counter_no_vl', 'counter S1/1 port_xmit_discards@0\n', 3,
     "counter 'port_xmit_discards' has no per-VL value"),
    ('counter_vl_range', 'counter S1/1 port_xmit_data@15\n', 3, 'VL 15 out of range (0 to 14)'),
    ('counter_vl_not_operated', 'counter S1/1 port_xmit_data@4\n', 3,
     'VL 4 is not operated: ports have 4 data VLs'),
    ('counter_twice', 'counter S1/1 port_xmit_data\ncounter S1/1 port_rcv_data port_xmit_data\n',
     4, 'counter S1/1:port_xmit_data listed twice (first at line 3)'),
    ('window_arity', 'window w 1ms\n', 3, 'window needs NAME START STOP'),
    ('window_run', 'window run 0 1ms\n', 3, "window name 'run' is reserved"),
    ('window_duplicate', 'window w 0 1ms\nwindow w 1ms 2ms\n', 4,
     "duplicate window 'w' (first at line 3)"),
    ('window_range', 'window w 5ms 11ms\n', 3,
     'window w: need 0 <= start < stop <= duration, got 5ms to 11ms, duration 10ms'),
    ('window_empty', 'window w 5ms 5ms\n', 3, 'window w: need 0 <= start < stop'),
    ('fairness_arity', 'fairness f\n', 3, 'fairness needs NAME FLOW,FLOW,... [WINDOW,WINDOW,...]'),
    ('fairness_one_flow', 'flow F1 H1 H4 write\nfairness f F1\n', 4,
     'a fairness set needs at least two flows'),
    ('fairness_flow_twice', 'fairness f F1,F1\n', 3, "flow 'F1' twice in the fairness set"),
    ('fairness_empty_item', 'fairness f F1,,F2\n', 3, 'empty name in a comma-separated list'),
    ('fairness_unknown_flow', 'flow F1 H1 H4 write\nfairness f F1,F9\n', 4,
     "unknown flow 'F9' in fairness set f (flows and apps: F1)"),
    ('fairness_unknown_window', 'flow F1 H1 H4 write\nflow F2 H2 H4 write\n'
     'fairness f F1,F2 run,w\n', 5, "unknown window 'w' in fairness set f (windows: run)"),
    ('fairness_duplicate', 'flow F1 H1 H4 write\nflow F2 H2 H4 write\n'
     'fairness f F1,F2\nfairness f F2,F1\n', 6, "duplicate fairness set 'f' (first at line 5)"),
    ('bad_scenario_name', 'name my/exp\n', 3, "bad scenario name 'my/exp'"),
]

# (name, the whole file, line or None, text of the reason)
WHOLE = [
    ('missing_topology', 'duration 1ms\n', None, "no 'topology' line"),
    ('missing_duration', f'topology {TOPO}\n', None, "no 'duration' line"),
    ('unreadable_topology', 'topology nonexistent.net\nduration 1ms\n', 1,
     'cannot read topology nonexistent.net ('),
    ('topology_without_switches', 'topology empty.net\nduration 1ms\n', 1,
     'topology empty.net has no switches'),
    ('zero_duration', f'topology {TOPO}\n\nduration 0ms\n', 3, 'duration must be > 0'),
]


class Errors(Base):
    def check(self, text, line, reason):
        with open(os.path.join(self.tmp, 'empty.net'), 'w', encoding='utf-8') as f:
            f.write('# nothing\n')
        path = self.write(text)
        with self.assertRaises(ScenarioError) as cm:
            scenario.load(path, warn=None)
        e = cm.exception
        where = f'{path}:{line}: ' if line else f'{path}: '
        self.assertTrue(str(e).startswith(where), f'{e!s} does not start with {where}')
        self.assertIn(reason, str(e))
        self.assertEqual((e.path, e.line), (path, line))
        self.assertIsInstance(e, ValueError)
        self.assertEqual(str(e), where + e.reason)

    def test_error_nul_byte(self):
        # found by fuzz_scenario.py: open() raised ValueError on the path
        self.check(HEAD.replace('topology ', 'topology x\0') + 'flow F1 H1 H2 write\n', 1,
                   'NUL byte')
        self.check(HEAD + 'name a\0b\n', 3, 'NUL byte')

    def test_error_line_numbers_count_newlines_only(self):
        # found by fuzz_scenario.py: str.splitlines() also splits at form
        # feeds and other separators, so later lines were misnumbered
        self.check(HEAD + '# a \f page\n# \x1c \u2028\nscale 0\n', 5, 'scale')

    def test_error_vcpus(self):
        self.check(HEAD + 'vcpus 0\n', 3, 'VM CPU count 0 out of range (1 to 64)')
        self.check(HEAD + 'vcpus two\n', 3, "bad VM CPU count 'two'")
        self.check(HEAD + 'vcpus 1\nvcpus 2\n', 4, "'vcpus' given twice")
        self.check(HEAD + 'vcpus 1 2\n', 3, "'vcpus' takes a CPU count and optionally 'parallel'")
        self.check(HEAD + 'vcpus 2 parallel x\n', 3, "'vcpus' takes a CPU count")

    def test_error_cpus(self):
        self.check(HEAD + 'cpus H1 0\n', 3, 'it needs a vcpus line, their number')
        self.check(HEAD + 'vcpus 2\ncpus H1\n', 4, 'cpus needs HOST,HOST...|* CPU-LIST')
        self.check(HEAD + 'vcpus 2\ncpus H1, 0\n', 4, "bad host list 'H1,'")
        self.check(HEAD + 'vcpus 2\ncpus H1 2\n', 4, 'CPU 2: the VM has 2 (vcpus 2: 0 to 1)')
        self.check(HEAD + 'vcpus 2\ncpus H9 0\n', 4, "unknown cpus host 'H9'")
        self.check(HEAD + 'vcpus 2\ncpus H1,H2 0\ncpus H3,H1 1\n', 5,
                   'host H1 placed twice (first at line 4)')
        self.check(HEAD + 'vcpus 2\ncpus * 0\ncpus H1 1\n', 5, 'host H1 placed twice')
        for word, reason in (('x', "bad CPU list 'x'"), ('0-', "bad CPU list '0-'"),
                             ('1-0', "bad CPU range '1-0'"), ('0,,1', "bad CPU list '0,,1'"),
                             ('64', "bad CPU range '64'"), ('-1', "bad CPU list '-1'")):
            with self.subTest(word=word):
                self.check(HEAD + 'vcpus 2\ncpus H1 %s\n' % word, 4, reason)

    def test_error_start_timeout(self):
        self.check(HEAD + 'start_timeout 0\n', 3, 'start_timeout 0 s must be > 0 and <= 3600 s')
        self.check(HEAD + 'start_timeout 2h\n', 3, "'2h'")
        self.check(HEAD + 'start_timeout 1s\nstart_timeout 2s\n', 4, "'start_timeout' given twice")
        self.check(HEAD + 'start_timeout 1 2\n', 3, "'start_timeout' takes one value, 2 given")

    def test_error_unreadable_scenario(self):
        with self.assertRaises(ScenarioError) as cm:
            scenario.load(os.path.join(self.tmp, 'none.scn'))
        self.assertIn('none.scn: cannot read: No such file or directory', str(cm.exception))


def _make(text, line, reason):
    return lambda self: self.check(text, line, reason)


for _name, _text, _line, _reason in ERRORS:
    setattr(Errors, 'test_error_' + _name, _make(HEAD + _text, _line, _reason))
for _name, _text, _line, _reason in WHOLE:
    setattr(Errors, 'test_error_' + _name, _make(_text, _line, _reason))

if __name__ == '__main__':
    unittest.main()
