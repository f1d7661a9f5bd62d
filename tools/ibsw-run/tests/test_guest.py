# SPDX-License-Identifier: GPL-2.0
"""The guest's pure helpers, without a kernel: sample times, counter
files and columns, the source ports of flows, perftest command lines and
roles, GID and listening-socket lookups on fake /sys and /proc files, the
sampler re-reading open files, and the xmit_late reads at window edges."""

import json
import os
import subprocess
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ibswrun import guest  # noqa: E402
from ibswrun import scenario  # noqa: E402


def flow(name='F1', src='H1', dst='H4', verb='write', size=65536, sl=0, qps=1,
         start=0.0, stop=0.01, count=None):
    return types.SimpleNamespace(name=name, src=src, dst=dst, verb=verb, size=size, sl=sl,
                                 qps=qps, start=start, stop=stop, line=1, count=count)


# Two switches as `ibswctl fabric up` describes seed002.net (shortened).
DESC = {
    'switches': [
        {'name': 'S1', 'ports': [{'port': 4}, {'port': 1}, {'port': 2}]},
        {'name': 'S2', 'ports': [{'port': 1}, {'port': 5}]},
    ],
    'hosts': [
        {'name': 'H1', 'switch': 'S1', 'switch_port': 1, 'hca_port': 1},
        {'name': 'H2', 'switch': 'S1', 'switch_port': 2, 'hca_port': 1},
        {'name': 'H4', 'switch': 'S2', 'switch_port': 1, 'hca_port': 1},
        {'name': 'H4', 'switch': 'S2', 'switch_port': 9, 'hca_port': 2},
    ],
}


class Hca(unittest.TestCase):
    DESC = {'mtu': 4200,
            'switches': [{'name': 'S1', 'ports': [{'port': 1, 'rate_bps': 2000000000}]}],
            'hosts': [{'name': 'H1', 'switch': 'S1', 'switch_port': 1, 'hca_port': 1,
                       'rdma_dev': 'rxe_H1'}]}

    def test_host_link(self):
        self.assertEqual(guest.host_link(self.DESC, 'H1'), (2000000000, 4096))
        desc = dict(self.DESC, mtu=1500)
        self.assertEqual(guest.host_link(desc, 'H1'), (2000000000, 1024))
        desc = dict(self.DESC, switches=[{'name': 'S1', 'ports': [{'port': 2}]}])
        with self.assertRaises(guest.GuestError):
            guest.host_link(desc, 'H1')

    def test_writes(self):
        c = scenario.HcaSetting('H1', {'ccti_increase': '1', 'ccti_timer': '150',
                                       'port_control': 'sl', 'cct': 'linear:3:8.656'}, 4)
        self.assertEqual(guest.hca_writes(c, 2000000000, 1024), [
            ('port_control', '1'),
            ('sl_settings', 'sl=all ccti_timer=150 ccti_increase=1'),
            ('cct', '0:0 3:16 3:32'), ('enabled', '1')])
        c = scenario.HcaSetting('*', {'sl': '2', 'ccti_min': '4'}, 5)
        self.assertEqual(guest.hca_writes(c, 32e9, 4096), [
            ('sl_settings', 'sl=2 ccti_min=4'), ('enabled', '1')])
        c = scenario.HcaSetting('H2', {'becn_coalesce': 'on'}, 6)
        self.assertEqual(guest.hca_writes(c, 32e9, 4096), [
            ('becn_coalesce', '1'), ('enabled', '1')])
        c = scenario.HcaSetting('H2', {'becn_coalesce': 'off', 'ccti_min': '1'}, 7)
        self.assertEqual(guest.hca_writes(c, 32e9, 4096), [
            ('sl_settings', 'sl=all ccti_min=1'), ('becn_coalesce', '0'), ('enabled', '1')])
        # cc hca * on: the device's own settings, enabled
        c = scenario.HcaSetting('*', {}, 6)
        self.assertEqual(guest.hca_writes(c, 32e9, 4096), [('enabled', '1')])

    def test_cc_set_commands(self):
        # cc switch * on every switch, cc switch S2 port 5 on that port, in order
        sc = types.SimpleNamespace(cc_settings=[
            scenario.CcSetting('*', None, ['threshold', '15'], 3),
            scenario.CcSetting('S2', 5, ['valid', 'off'], 4)])
        self.assertEqual(guest.cc_set_commands(sc, DESC), [
            (3, 'S1', ['threshold', '15']), (3, 'S2', ['threshold', '15']),
            (4, 'S2/5', ['valid', 'off'])])


class AppEnv(unittest.TestCase):
    def test_tools_first_in_path(self):
        with tempfile.TemporaryDirectory() as src:
            for t in ('ibswctl', 'dcms', 'ccmad'):
                os.makedirs(os.path.join(src, 'build', 'tools', t))
            env = guest.app_env({'PATH': '/usr/bin', 'HOME': '/root'}, src)
            self.assertEqual(env['PATH'], '%s/build/tools/ibswctl:%s/build/tools/dcms:'
                             '%s/build/tools/ccmad:/usr/bin' % (src, src, src))
            self.assertEqual(env['HOME'], '/root')
            os.makedirs(os.path.join(src, 'b', 'tools', 'ibswctl'))
            env = guest.app_env({'IBSW_BUILD': os.path.join(src, 'b')}, src)
            self.assertEqual(env['PATH'], '%s/b/tools/ibswctl:/usr/bin:/bin' % src)

    def test_installed(self):
        """Installed, no build directory: PATH as it was"""
        env = guest.app_env({'PATH': '/usr/sbin:/usr/bin'}, '/nonexistent')
        self.assertEqual(env['PATH'], '/usr/sbin:/usr/bin')


class HcaCounters(unittest.TestCase):
    def test_read(self):
        with tempfile.TemporaryDirectory() as d:
            hw = os.path.join(d, 'rxe_H1', 'ports', '1', 'hw_counters')
            os.makedirs(hw)
            for name, text in (('cc_becn_rcvd', '42\n'), ('rcvd_pkts', '7\n'), ('odd', 'x\n')):
                with open(os.path.join(hw, name), 'w') as f:
                    f.write(text)
            hosts = {'H1': {'rdma_dev': 'rxe_H1'}, 'H2': {'rdma_dev': 'rxe_H2'},
                     'H3': {'rdma_dev': None}}
            self.assertEqual(guest.hca_counters(d, hosts),
                             {'H1': {'cc_becn_rcvd': 42, 'rcvd_pkts': 7}})


class HcaCcState(unittest.TestCase):
    def test_read(self):
        with tempfile.TemporaryDirectory() as d:
            cc = os.path.join(d, 'rxe_H1', 'ports', '1', 'cc')
            os.makedirs(cc)
            for name, text in (('enabled', '1\n'), ('cct', '0:0 3:1\n'),
                               ('sl_settings', 'sl=0 ccti_timer=1200\nsl=1 ccti_timer=0\n'),
                               ('log', 'not a setting\n')):
                with open(os.path.join(cc, name), 'w') as f:
                    f.write(text)
            os.makedirs(os.path.join(d, 'rxe_H2', 'ports', '1'))
            hosts = {'H1': {'rdma_dev': 'rxe_H1'}, 'H2': {'rdma_dev': 'rxe_H2'},
                     'M1': {'rdma_dev': None}}
            self.assertEqual(guest.hca_cc_state(d, hosts), {'H1': {
                'enabled': '1', 'cct': '0:0 3:1',
                'sl_settings': 'sl=0 ccti_timer=1200\nsl=1 ccti_timer=0'}})


class Times(unittest.TestCase):
    def test_sample_times_exact(self):
        self.assertEqual(guest.sample_times(0.002, 0.0005),
                         [0.0, 0.0005, 0.001, 0.0015, 0.002])

    def test_sample_times_last_is_duration(self):
        # 0.055 / 0.0005 is 109.99999... in binary floating point
        times = guest.sample_times(0.055, 0.0005)
        self.assertEqual(len(times), 111)
        self.assertEqual(times[-1], 0.055)

    def test_job_progress(self):
        cases = [((None, 0.5, 1000, None), 'HPCC -'),
                 ((0.02, 0.3325, 1000, None), 'HPCC running 312 s'),
                 ((0.02, 0.0199, 1000, None), 'HPCC running 0 s'),
                 ((0.02, 0.5, 1000, 0), 'HPCC exit 0'),
                 ((0.02, 0.5, 100, 5), 'HPCC exit 5')]
        for args, want in cases:
            with self.subTest(args=args):
                self.assertEqual(guest.job_progress('HPCC', *args), want)

    def test_sample_times_partial_last(self):
        self.assertEqual(guest.sample_times(1.0, 0.3), [0.0, 0.3, 0.6, 0.8999999999999999, 1.0])

    def test_perftest_duration(self):
        # 10 ms at scale 1000: 10 s, plus 10 s of slack; never below 5
        self.assertEqual(guest.perftest_duration(flow(start=0.005, stop=0.015), 1000), 20)
        self.assertEqual(guest.perftest_duration(flow(stop=0.0001), 1), 11)

    def test_rate(self):
        # 1e6 words in 1 ms: 32e6 bits / 1e-3 s = 32 Gb/s
        self.assertAlmostEqual(guest.rate_gbps(0, 1000000, 0.001, 0.002), 32.0)
        self.assertIsNone(guest.rate_gbps(10, 5, 0.0, 1.0))	# counter reset
        self.assertIsNone(guest.rate_gbps(0, 5, 1.0, 1.0))


class Counters(unittest.TestCase):
    def test_column_name(self):
        self.assertEqual(guest.column_name('S2', 3, 'port_xmit_wait'), 'S2/3:port_xmit_wait')
        self.assertEqual(guest.column_name('S2', 3, 'port_xmit_data', 0),
                         'S2/3:port_xmit_data@0')

    def test_counter_path(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'S1/ports/2/counters'))
            open(os.path.join(d, 'S1/ports/2/counters/port_xmit_wait'), 'w').close()
            self.assertEqual(guest.counter_path(d, 'S1', 2, 'port_xmit_wait'),
                             os.path.join(d, 'S1/ports/2/counters/port_xmit_wait'))
            self.assertEqual(guest.counter_path(d, 'S1', 2, 'rcv_oversize'),
                             os.path.join(d, 'S1/ports/2/hw_counters/rcv_oversize'))
            self.assertEqual(guest.counter_path(d, 'S1', 2, 'port_xmit_data', 3),
                             os.path.join(d, 'S1/ports/2/vls/3/counters/port_xmit_data'))

    def test_columns_expand_star_in_port_order(self):
        sc = types.SimpleNamespace(counters=[
            types.SimpleNamespace(switch='S1', port='*', name='port_xmit_wait', vl=None),
            types.SimpleNamespace(switch='S1', port=4, name='port_xmit_wait', vl=None),
            types.SimpleNamespace(switch='S2', port=5, name='port_xmit_data', vl=1)])
        cols = [c[0] for c in guest.counter_columns(sc, DESC)]
        self.assertEqual(cols, ['S1/1:port_xmit_wait', 'S1/2:port_xmit_wait',
                                'S1/4:port_xmit_wait', 'S2/5:port_xmit_data@1'])

    def test_unknown_switch(self):
        with self.assertRaises(guest.GuestError):
            guest.connected_ports(DESC, 'S9')

    def test_sources(self):
        sc = types.SimpleNamespace(
            flows=[flow('F1', 'H1', 'H4'), flow('F2', 'H4', 'H2', verb='read')],
            apps=[types.SimpleNamespace(name='A1', host='H2'),
                  types.SimpleNamespace(name='mgr', host='-')])
        # an app beside ibsw-run (host '-') has no source port
        self.assertEqual(guest.sources(sc, DESC), {
            'F1': {'switch': 'S1', 'port': 1},
            'F2': {'switch': 'S2', 'port': 1},	# the HCA's first port
            'A1': {'switch': 'S1', 'port': 2}})

    def test_app_on_management_node(self):
        # a manager on the management node: its namespace, its switch port
        desc = dict(DESC, mgmt_nodes=[{'name': 'M1', 'netns': 'M1', 'ibdev': 'ibsw_mgmt0',
                                       'switch': 'S2', 'switch_port': 5}])
        sc = types.SimpleNamespace(flows=[], apps=[types.SimpleNamespace(name='mgr', host='M1')])
        self.assertEqual(guest.sources(sc, desc), {'mgr': {'switch': 'S2', 'port': 5}})
        self.assertEqual(guest.desc_app_nodes(desc)['M1']['netns'], 'M1')
        self.assertEqual(sorted(guest.desc_app_nodes(desc)), ['H1', 'H2', 'H4', 'M1'])
        self.assertNotIn('M1', guest.desc_hosts(desc))
        with self.assertRaises(guest.GuestError):
            guest.sources(sc, DESC)

    def test_sampler_rereads(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, 'a'), os.path.join(d, 'b')
            for p, v in ((a, '5\n'), (b, '7\n')):
                with open(p, 'w') as f:
                    f.write(v)
            s = guest.Sampler([a, b, a])
            self.assertEqual(s.read(), [5, 7, 5])
            with open(a, 'w') as f:
                f.write('123456789012\n')
            self.assertEqual(s.read(), [123456789012, 7, 123456789012])
            s.close()
            with self.assertRaises(guest.GuestError):
                guest.Sampler([os.path.join(d, 'missing')])


class XmitLate(unittest.TestCase):
    """Every connected port's xmit_late, read at the samples that open or
    close a window, from a fake sysfs."""

    DESC = {'switches': [
        {'name': 'S2', 'ports': [
            {'port': 3, 'kind': 'host', 'host': 'H5', 'rate_bps': 2000000000},
            {'port': 1, 'kind': 'link', 'peer': 'S1', 'peer_port': 4, 'rate_bps': 4000000000}]},
        {'name': 'S1', 'ports': [
            {'port': 4, 'kind': 'link', 'peer': 'S2', 'peer_port': 1, 'rate_bps': 4000000000},
            {'port': 1, 'kind': 'host', 'host': 'H1'}]}]}

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.sysfs = self.tmp.name
        # S1/1 has no xmit_late (an older ibsw.ko)
        for key in ('S2/3', 'S2/1', 'S1/4'):
            os.makedirs(os.path.join(self.sysfs, key.replace('/', '/ports/'), 'hw_counters'))
            self.set(key, 0)

    def tearDown(self):
        self.tmp.cleanup()

    def set(self, key, ticks):
        sw, port = key.split('/')
        with open(os.path.join(self.sysfs, sw, 'ports', port, 'hw_counters', 'xmit_late'),
                  'w') as f:
            f.write('%d\n' % ticks)

    def test_ports(self):
        self.assertEqual(guest.late_ports(self.DESC), [
            ('S2/1', 'S2', 1, 4000000000, 'S1/4'), ('S2/3', 'S2', 3, 2000000000, 'H5'),
            ('S1/1', 'S1', 1, None, 'H1'), ('S1/4', 'S1', 4, 4000000000, 'S2/1')])

    def test_edges(self):
        windows = {'run': (0.0, 0.01), 'a': (0.002, 0.005), 'b': (0.005, 0.01)}
        self.assertEqual(guest.window_edges(windows, 0.01), [0.0, 0.002, 0.005, 0.01])

    def test_reads_at_edges(self):
        edges = guest.window_edges({'run': (0.0, 0.006), 'w': (0.0015, 0.003)}, 0.006)
        rec = guest.LateRecorder(self.sysfs, self.DESC, edges, 1e-9)
        self.assertEqual(rec.missing, ['S1/1'])
        self.assertEqual(rec.ports['S2/3'], {'rate_bps': 2000000000, 'peer': 'H5'})
        scale, read = 1000, []
        # samples every ms, each 0.2 wall ms late; reads at 0, 2 (for
        # 1.5), 3 and 6 ms
        for k in range(7):
            self.set('S2/3', 100 * k)
            t = k * 0.001 + 0.0000002
            if rec.due(t):
                r = rec.read(lambda: t * scale, scale)
                read.append((k, r['ticks']['S2/3']))
        self.assertEqual(read, [(0, 0), (2, 200), (3, 300), (6, 600)])
        self.assertFalse(rec.behind(0.006))
        j = json.loads(json.dumps(rec.to_json()))
        self.assertEqual(sorted(j), ['error', 'missing', 'ports', 'reads'])
        self.assertEqual(j['reads'][1], {'t': 0.0020002, 'wall': 2.0002,
                                         'ticks': {'S2/1': 0, 'S2/3': 200, 'S1/4': 0}})
        rec.close()

    def test_stopped_early(self):
        rec = guest.LateRecorder(self.sysfs, self.DESC, [0.0, 0.01], 1e-9)
        rec.read(lambda: 0.0, 1000)
        self.assertFalse(rec.due(0.004))
        self.assertTrue(rec.behind(0.004))		# teardown reads once more
        self.set('S2/1', 7)
        rec.read(lambda: 4.0, 1000)
        self.assertEqual(rec.reads[-1]['ticks']['S2/1'], 7)
        self.assertFalse(rec.behind(0.004))
        rec.close()

    def test_unreadable(self):
        rec = guest.LateRecorder(self.sysfs, self.DESC, [0.0], 1e-9)
        self.set('S2/1', 0)
        with open(os.path.join(self.sysfs, 'S2/ports/1/hw_counters/xmit_late'), 'w') as f:
            f.write('garbage\n')
        self.assertIsNone(rec.read(lambda: 0.0, 1000))
        self.assertIn('cannot read xmit_late', rec.error)
        self.assertIsNone(rec.read(lambda: 0.0, 1000))	# closed: the run goes on
        self.assertEqual(rec.reads, [])

    def test_no_counters(self):
        rec = guest.LateRecorder(os.path.join(self.sysfs, 'none'), self.DESC, [0.0], 1e-9)
        self.assertEqual(rec.missing, ['S2/1', 'S2/3', 'S1/1', 'S1/4'])
        self.assertIsNone(rec.read(lambda: 0.0, 1000))
        self.assertEqual(rec.to_json()['reads'], [])


class Perftest(unittest.TestCase):
    def test_roles(self):
        # data always goes from SRC to DST
        self.assertEqual(guest.perftest_roles(flow(verb='write')), ('H4', 'H1'))
        self.assertEqual(guest.perftest_roles(flow(verb='send')), ('H4', 'H1'))
        self.assertEqual(guest.perftest_roles(flow(verb='read')), ('H1', 'H4'))

    def test_client_argv(self):
        argv = guest.perftest_argv(flow(verb='send', size=4096, qps=2, sl=3), 'rxe_H1', 1,
                                   18600, 20, '10.1.0.4')
        self.assertEqual(argv, ['ib_send_bw', '-d', 'rxe_H1', '-x', '1', '-p', '18600', '-F',
                                '-s', '4096', '-q', '2', '-D', '20', '-u', '20',
                                '--report_gbits', '--sl=3', '--tclass=48', '10.1.0.4'])

    def test_fixed_size_argv(self):
        # -n on both sides, and no -D: it ends when its messages are sent
        for peer in (None, '10.1.0.4'):
            argv = guest.perftest_argv(flow(count=1000), 'rxe_H1', 1, 18600, 20, peer)
            self.assertEqual(argv[8:16], ['-s', '65536', '-q', '1', '-n', '1000', '-u', '20'])
            self.assertNotIn('-D', argv)

    def test_server_argv_sl0(self):
        argv = guest.perftest_argv(flow(), 'rxe_H4', 3, 18601, 12)
        self.assertEqual(argv[0], 'ib_write_bw')
        self.assertNotIn('--tclass=0', argv)
        self.assertEqual(argv[-1], '--report_gbits')


class Renice(unittest.TestCase):
    """A flow's programs start at nice 0 and go to PERFTEST_NICE once it
    sends: every thread of the program, not only its first."""

    def test_every_thread(self):
        prog = ('import threading, time\n'
                'threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n'
                'print("up", flush=True)\n'
                'time.sleep(30)\n')
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'log')
            p = guest.Proc('test', None, [sys.executable, '-c', prog], log)
            try:
                for _ in range(200):
                    with open(log) as f:
                        if 'up' in f.read().splitlines():
                            break
                    subprocess.run(['sleep', '0.05'], check=True)
                tids = [int(t) for t in os.listdir('/proc/%d/task' % p.pid)]
                self.assertEqual(len(tids), 2)
                # the caller's niceness (0 in the test lane; 19 under
                # scripts/lowest-priority)
                self.assertEqual({os.getpriority(os.PRIO_PROCESS, t) for t in tids},
                                 {os.getpriority(os.PRIO_PROCESS, 0)})
                p.renice(guest.PERFTEST_NICE)
                self.assertEqual({os.getpriority(os.PRIO_PROCESS, t) for t in tids},
                                 {guest.PERFTEST_NICE})
            finally:
                p.signal_group(9)
                p.p.wait()

    def test_gone(self):
        with tempfile.TemporaryDirectory() as d:
            p = guest.Proc('test', None, ['true'], os.path.join(d, 'log'))
            p.p.wait()
            p.renice(guest.PERFTEST_NICE)   # no error for a program that ended


class Placement(unittest.TestCase):
    """A scenario's cpus lines: a host's programs start on its CPUs, at
    their niceness."""

    def test_proc_cpus(self):
        cpus = sorted(os.sched_getaffinity(0))[-1:]
        prog = 'import os; print(sorted(os.sched_getaffinity(0)), os.nice(0))'
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'log')
            p = guest.Proc('test', None, [sys.executable, '-c', prog], log, nice=3, cpus=cpus)
            p.p.wait()
            with open(log) as f:
                out = f.read().splitlines()[-1]
        self.assertEqual(out, '%s %d' % (cpus, min(19, os.getpriority(os.PRIO_PROCESS, 0) + 3)))


class Lookups(unittest.TestCase):
    def test_ipv4_gid(self):
        self.assertEqual(guest.ipv4_gid('10.0.1.2'), '0000:0000:0000:0000:0000:ffff:0a00:0102')

    def test_port_ready(self):
        with tempfile.TemporaryDirectory() as d:
            port = os.path.join(d, 'rxe_H1', 'ports', '1')
            os.makedirs(os.path.join(port, 'gids'))
            os.makedirs(os.path.join(port, 'gid_attrs', 'types'))
            gid = guest.ipv4_gid('10.0.0.3')
            for idx, g, t in ((0, 'fe80:0000:0000:0000:0000:0000:0000:0001', 'RoCE v2'),
                              (1, gid, 'IB/RoCE v1'), (2, gid, 'RoCE v2')):
                with open(os.path.join(port, 'gids', str(idx)), 'w') as f:
                    f.write(g + '\n')
                with open(os.path.join(port, 'gid_attrs', 'types', str(idx)), 'w') as f:
                    f.write(t + '\n')
            h1 = {'rdma_dev': 'rxe_H1', 'ipv4': '10.0.0.3', 'netns': 'ibsw-H1'}
            # not ACTIVE yet: no GID counts
            self.assertIsNone(guest.port_ready(d, h1))
            with open(os.path.join(port, 'state'), 'w') as f:
                f.write('4: ACTIVE\n')
            self.assertEqual(guest.port_ready(d, h1), 2)
            self.assertIsNone(guest.port_ready(d, dict(h1, ipv4='10.0.0.4')))
            self.assertIsNone(guest.port_ready(d, dict(h1, rdma_dev='rxe_H2')))

    def test_dir_access(self):
        """read_dir and write_dir, here and as the standalone programs
        run_in_netns runs in a host's namespace."""
        with tempfile.TemporaryDirectory() as d:
            sub = os.path.join(d, 'cc')
            os.makedirs(os.path.join(sub, 'x'))
            self.assertIsNone(guest.write_dir(sub, [('a', '1'), ('b', 'two words')]))
            self.assertEqual(guest.read_dir(sub, ()), {'a': '1\n', 'b': 'two words\n'})
            self.assertEqual(guest.read_dir(sub, ['b', 'nosuch']), {'b': 'two words\n'})
            self.assertIsNone(guest.read_dir(os.path.join(d, 'nosuch'), ()))
            self.assertEqual(guest.write_dir(sub, [('a', '3'), ('x', '1'), ('b', '4')]),
                             'x: Is a directory')
            self.assertEqual(guest.read_dir(sub, ['a', 'b']), {'a': '3\n', 'b': 'two words\n'})

            def standalone(func, *args):
                r = subprocess.run([sys.executable, '-c', guest.standalone(func),
                                    json.dumps(args)], stdout=subprocess.PIPE, check=True,
                                   text=True, cwd=d, env={'PATH': os.environ['PATH']})
                return json.loads(r.stdout)
            self.assertEqual(standalone(guest.read_dir, sub, []), guest.read_dir(sub, ()))
            self.assertIsNone(standalone(guest.read_dir, os.path.join(d, 'nosuch'), []))
            self.assertEqual(standalone(guest.write_dir, sub, [['a', '5']]), None)
            self.assertEqual(guest.read_dir(sub, ['a']), {'a': '5\n'})

    def test_in_host_netns(self):
        """The namespace is used only where this one does not see the
        device, and never for a sysfs of the tests' own."""
        with tempfile.TemporaryDirectory() as d:
            h = {'rdma_dev': 'rxe_H1', 'netns': 'ibsw-H1'}
            self.assertIsNone(guest.in_host_netns(d, h))
            self.assertEqual(guest.in_host_netns('/sys/class/infiniband',
                                                 dict(h, rdma_dev='rxe_surely_not_here')),
                             'ibsw-H1')

    def test_tcp_listening(self):
        head = '  sl  local_address rem_address   st tx_queue rx_queue\n'
        with tempfile.TemporaryDirectory() as d:
            tcp = os.path.join(d, 'tcp')
            with open(tcp, 'w') as f:
                f.write(head)
                # 18600 = 0x48A8: one established connection, one listener
                f.write('   0: 0100007F:48A8 0100007F:9C40 01 00000000:00000000\n')
                f.write('   1: 00000000:48A9 00000000:0000 0A 00000000:00000000\n')
            self.assertFalse(guest.tcp_listening([tcp], 18600))
            self.assertTrue(guest.tcp_listening([os.path.join(d, 'none'), tcp], 18601))


if __name__ == '__main__':
    unittest.main()
