# SPDX-License-Identifier: GPL-2.0
"""MPI jobs without a kernel: hosts from a fabric description and their
errors, the hostfile, the agent's map, UCX and MCA settings, the mpirun
command line, UCX logs of real runs (shortened) and the transport and
traffic checks on them."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ibswrun import mpi  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def host(name, sw='S1', port=1, rdma=True, mgmt=True):
    return {'name': name, 'netns': name, 'rdma_dev': 'rxe_' + name if rdma else None,
            'mgmt_ipv4': '10.1.0.9' if mgmt else None, 'switch': sw, 'switch_port': port,
            'ipv4': '10.0.0.9'}


DESC = {
    'mgmt': {'bridge': 'ibsw-mgmt', 'ipv4': '10.1.255.254', 'ifname': 'eth0'},
    # H2 has two ports: the first one counts
    'hosts': [host('H1', port=1), host('H2', port=2), host('H2', sw='S2', port=7),
              host('H4', sw='S2', port=4)],
}

# As UCX 1.13.1 wrote them on rxe through ibsw (rank on H1, pml ucx)
LOG_H1 = """\
[1795811258.61] [ibsw-vm:290  :0]     ucp_context.c:1849 UCX  INFO  Version 1.13.1
[1795811258.62] [ibsw-vm:290  :0]          parser.c:1916 UCX  INFO  UCX_* env variables: \
UCX_TLS=self,rc_v UCX_RC_TIMEOUT=30s UCX_NET_DEVICES=rxe_H1:1
[1795811258.86] [ibsw-vm:290  :0]      ucp_worker.c:1763 UCX  INFO    ep_cfg[0]: \
tag(self/memory0 rc_verbs/rxe_H1:1)
[1795811258.91] [ibsw-vm:290  :0]      ucp_worker.c:1763 UCX  INFO    ep_cfg[1]: \
tag(rc_verbs/rxe_H1:1)
"""
LOG_H4 = LOG_H1.replace('H1', 'H4')
# A rank of pml ob1 (TCP) with osc ucx: UCX loaded, no context on a device
LOG_OB1 = '[1795811258.61] [ibsw-vm:291  :0]     ucp_context.c:1849 UCX  INFO  Version 1.13.1\n'


class Hosts(unittest.TestCase):
    def test_named(self):
        hs = mpi.job_hosts(DESC, ['H4', 'H2'])
        self.assertEqual([h['name'] for h in hs], ['H4', 'H2'])
        self.assertEqual(hs[1], {'name': 'H2', 'netns': 'H2', 'rdma_dev': 'rxe_H2',
                                 'switch': 'S1', 'switch_port': 2})

    def test_all(self):
        self.assertEqual([h['name'] for h in mpi.job_hosts(DESC, None)], ['H1', 'H2', 'H4'])

    def test_errors(self):
        cases = [
            (DESC, ['H9'], "no host 'H9' in the fabric (hosts: H1 H2 H4)"),
            (DESC, ['H1', 'H1'], "host 'H1' given twice"),
            (DESC, [], 'no hosts'),
            ({'hosts': [host('H1', rdma=False)]}, ['H1'], "host 'H1' has no rxe device"),
            ({'hosts': [host('H1', mgmt=False)]}, ['H1'], "host 'H1' has no management"),
            ({'hosts': [host('h.1')]}, ['h.1'], "host 'h.1': Open MPI needs a name without dots"),
        ]
        for desc, names, msg in cases:
            with self.subTest(names=names):
                with self.assertRaises(mpi.MpiError) as cm:
                    mpi.job_hosts(desc, names)
                self.assertIn(msg, str(cm.exception))

    def test_mgmt_network(self):
        self.assertEqual(mpi.mgmt_network(DESC), '10.1.0.0/16')
        # the second machine's bridge of fabric up ... mgmt-carrier: the same network
        joined = dict(DESC, mgmt={'bridge': 'ibsw-mgmt', 'ipv4': '10.1.255.253',
                                  'ifname': 'eth0', 'carrier': 'eth2'})
        self.assertEqual(mpi.mgmt_network(joined), '10.1.0.0/16')
        for desc in ({'mgmt': None}, {}):
            with self.assertRaises(mpi.MpiError):
                mpi.mgmt_network(desc)


class Launch(unittest.TestCase):
    def test_hostfile(self):
        hs = mpi.job_hosts(DESC, ['H1', 'H4'])
        cases = [(2, 'H1 slots=1\nH4 slots=1\n'), (1, 'H1 slots=1\nH4 slots=1\n'),
                 (3, 'H1 slots=2\nH4 slots=2\n'), (4, 'H1 slots=2\nH4 slots=2\n')]
        for np, want in cases:
            with self.subTest(np=np):
                self.assertEqual(mpi.hostfile(hs, np), want)

    def test_agent_hosts(self):
        hs = mpi.job_hosts(DESC, ['H1', 'H4'])
        self.assertEqual(mpi.agent_hosts(hs), 'H1=H1,rxe_H1 H4=H4,rxe_H4')

    def test_parse_cpus(self):
        hs = mpi.job_hosts(DESC, ['H1', 'H4'])
        self.assertEqual(mpi.parse_cpus([], hs), '')
        self.assertEqual(mpi.parse_cpus(['H4=0,2-3', 'H1=1'], hs), 'H4=0,2-3 H1=1')
        for words, reason in ((['H1'], "bad --cpus 'H1'"), (['H1=a'], "bad --cpus 'H1=a'"),
                              (['H1=0,'], "bad --cpus 'H1=0,'"), (['H1='], "bad --cpus"),
                              (['H2=0'], 'H2 is not a host of the job (H1,H4)'),
                              (['H1=0', 'H1=1'], 'host H1 given twice')):
            with self.subTest(words=words):
                with self.assertRaises(mpi.MpiError) as cm:
                    mpi.parse_cpus(words, hs)
                self.assertIn(reason, str(cm.exception))

    def test_ucx_env(self):
        env = mpi.ucx_env('rc', 2, '/tmp/j')
        self.assertEqual(env['UCX_TLS'], 'self,rc_v')
        self.assertEqual(env['UCX_IB_TRAFFIC_CLASS'], '32')
        self.assertEqual(env['UCX_UD_VERBS_ETH_DGID_CHECK'], 'n')
        self.assertEqual(env['UCX_LOG_FILE'], '/tmp/j/ucx.%p.log')
        self.assertEqual(mpi.ucx_env('ud', 0, '/x')['UCX_TLS'], 'self,ud_v')
        for tls, sl in (('tcp', 0), ('rc', 16), ('rc', -1)):
            with self.subTest(tls=tls, sl=sl):
                with self.assertRaises(mpi.MpiError):
                    mpi.ucx_env(tls, sl, '/x')

    def test_mca_override(self):
        p = mpi.mca_params('10.1.0.0/16', '/t/ibsw-mpi-agent',
                           [('pml', 'ob1'), ('btl_tcp_if_include', 'eth0')])
        self.assertEqual(p['pml'], 'ob1')
        self.assertEqual(p['oob_tcp_if_include'], '10.1.0.0/16')
        self.assertEqual(p['plm_rsh_agent'], '/t/ibsw-mpi-agent')
        self.assertEqual(list(p).count('pml'), 1)
        self.assertEqual(list(p)[-1], 'btl_tcp_if_include')

    def test_argv(self):
        argv = mpi.mpirun_argv('/j/hostfile', 2, {'pml': 'ucx', 'btl': 'self'},
                               {'UCX_TLS': 'self,rc_v', 'UCX_A': '1'}, 60,
                               ['NPopenmpi', '-o', 'np.out'])
        self.assertEqual(argv, [
            'mpirun', '--allow-run-as-root', '--hostfile', '/j/hostfile', '-np', '2',
            '--map-by', 'node', '--bind-to', 'none', '--mca', 'pml', 'ucx', '--mca', 'btl',
            'self', '-x', 'UCX_A=1', '-x', 'UCX_TLS=self,rc_v', '--timeout', '60',
            'NPopenmpi', '-o', 'np.out'])
        self.assertNotIn('--timeout', mpi.mpirun_argv('h', 1, {}, {}, 0, ['a']))


class Agent(unittest.TestCase):
    """ibsw-mpi-agent's command line, with an ip that prints its argv."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-mpi-agent-test-')
        with open(os.path.join(self.tmp, 'ip'), 'w', encoding='ascii') as f:
            f.write('#!/bin/sh\nprintf "%s|" "$@"\n')
        os.chmod(os.path.join(self.tmp, 'ip'), 0o755)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_agent(self, cpus=None):
        env = dict(os.environ, PATH=self.tmp + ':' + os.environ['PATH'],
                   IBSW_MPI_HOSTS='H1=ns1,rxe_H1 H4=ns4,rxe_H4', IBSW_MPI_NICE='10')
        if cpus is not None:
            env['IBSW_MPI_CPUS'] = cpus
        agent = os.path.join(os.path.dirname(HERE), 'ibsw-mpi-agent')
        r = subprocess.run([agent, 'H4', 'orted', '-mca', 'x', '"1"'], env=env,
                           capture_output=True, text=True, check=True)
        return r.stdout.split('|')[:-1]

    def test_argv(self):
        base = ['netns', 'exec', 'ns4', 'nice', '-n', '10', 'env', 'UCX_NET_DEVICES=rxe_H4:1']
        self.assertEqual(self.run_agent(), base + ['/bin/sh', '-c', 'orted -mca x "1"'])
        self.assertEqual(self.run_agent('H1=1'), base + ['/bin/sh', '-c', 'orted -mca x "1"'])
        self.assertEqual(self.run_agent('H1=1 H4=0,2-3'),
                         base + ['taskset', '-c', '0,2-3', '/bin/sh', '-c', 'orted -mca x "1"'])


class Check(unittest.TestCase):
    HOSTS = [host('H1', port=1), host('H4', sw='S2', port=4)]

    def test_parse(self):
        self.assertEqual(mpi.parse_ucx_log(LOG_H1),
                         ('rxe_H1', {'self/memory0', 'rc_verbs/rxe_H1:1'}))
        self.assertEqual(mpi.parse_ucx_log(LOG_OB1), (None, set()))

    def test_transport(self):
        cases = [
            ('rc over the fabric', [LOG_H1, LOG_H4], 'rc', []),
            ('ob1 over TCP', [LOG_OB1, LOG_OB1], 'rc',
             ['0 of 2 ranks ran UCX on an rxe device']),
            ('one rank missing', [LOG_H1], 'rc', ['1 of 2 ranks']),
            ('ud asked, rc used', [LOG_H1, LOG_H4], 'ud',
             ['the rank on rxe_H1 used rc_verbs/rxe_H1:1, not ud_verbs',
              'the rank on rxe_H1 made no ud_verbs endpoint',
              'the rank on rxe_H4 used rc_verbs/rxe_H4:1, not ud_verbs',
              'the rank on rxe_H4 made no ud_verbs endpoint']),
            ('other host\'s device', [LOG_H1.replace('rc_verbs/rxe_H1', 'rc_verbs/rxe_H4'),
                                      LOG_H4], 'rc',
             ["the rank on rxe_H1 used rc_verbs/rxe_H4:1: another host's device"]),
            ('tcp transport', [LOG_H1.replace('tag(rc_verbs/rxe_H1:1)', 'tag(tcp/eth0)'),
                               LOG_H4], 'rc', ['the rank on rxe_H1 used tcp/eth0']),
            ('not a job host', [LOG_H1.replace('H1', 'H7'), LOG_H4], 'rc',
             ["a rank ran with device rxe_H7, not one of the job's hosts'"]),
        ]
        for what, logs, tls, want in cases:
            with self.subTest(what):
                got = mpi.check_transport(self.HOSTS, 2, logs, tls)
                self.assertEqual(len(got), len(want), got)
                for g, w in zip(got, want):
                    self.assertIn(w, g)

    def test_verdict(self):
        moved = {'H1': {'sent_pkts': 9, 'rcvd_pkts': 9}, 'H4': {'sent_pkts': 9, 'rcvd_pkts': 9}}
        idle = {'H1': {'sent_pkts': 9, 'rcvd_pkts': 9}, 'H4': {'sent_pkts': 0, 'rcvd_pkts': 0}}
        self.assertEqual(mpi.verdict(self.HOSTS, 2, [LOG_H1, LOG_H4], 'rc', moved, 0),
                         (True, []))
        ok, why = mpi.verdict(self.HOSTS, 2, [LOG_OB1, LOG_OB1], 'rc', moved, 0)
        self.assertIs(ok, False)
        self.assertIn('0 of 2 ranks ran UCX', why[0])
        # killed ranks leave empty logs (UCX writes them at exit): unknown,
        # with what the ports say
        ok, why = mpi.verdict(self.HOSTS, 2, ['', ''], 'rc', idle, 1)
        self.assertIsNone(ok)
        self.assertEqual(len(why), 2)
        self.assertIn('the ranks left no UCX log (mpirun status 1', why[0])
        self.assertIn('H4 sent 0', why[1])
        # empty logs of a job that succeeded are a failure, not unknown
        self.assertIs(mpi.verdict(self.HOSTS, 2, ['', ''], 'rc', moved, 0)[0], False)
        s = {'launched': 1.0, 'exit': 1, 'fabric_ok': None, 'problems': why, 'hosts': ['H1'],
             'np': 2, 'hpcc': None, 'argv': ['x'], 'dir': 'mpi/J'}
        self.assertTrue(mpi.summary_lines('J', s)[0].startswith(
            'MPI J on H1, 2 ranks: exit 1, transports unknown: the ranks left no UCX log'))

    def test_traffic(self):
        before = {('S1', 1, 'port_rcv_data'): 10, ('S1', 1, 'port_xmit_data'): 20,
                  ('S1', 1, 'port_rcv_packets'): 1, ('S1', 1, 'port_xmit_packets'): 2,
                  ('S2', 4, 'port_rcv_data'): 0, ('S2', 4, 'port_xmit_data'): 0,
                  ('S2', 4, 'port_rcv_packets'): 0, ('S2', 4, 'port_xmit_packets'): 0}
        after = dict(before)
        after[('S1', 1, 'port_rcv_data')] = 110
        after[('S1', 1, 'port_rcv_packets')] = 5
        after[('S1', 1, 'port_xmit_data')] = 21
        after[('S1', 1, 'port_xmit_packets')] = 3
        t = mpi.port_traffic(self.HOSTS, before, after)
        self.assertEqual(t['H1'], {'sent_bytes': 400, 'rcvd_bytes': 4, 'sent_pkts': 4,
                                   'rcvd_pkts': 1})
        self.assertEqual(t['H4'], {'sent_bytes': 0, 'rcvd_bytes': 0, 'sent_pkts': 0,
                                   'rcvd_pkts': 0})
        self.assertEqual(mpi.check_traffic(t),
                         ['H4 sent 0 and received 0 packets through its switch port'])


class Scenario(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='ibsw-mpi-test-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_runner_argv(self):
        job = types.SimpleNamespace(name='J', hosts=['H1', 'H4'], np=None, tls='ud', sl=1,
                                    nice=None, argv=['hpcc'])
        self.assertEqual(mpi.runner_argv(job, '/t/ibsw-mpirun', '/r/fabric.json', '/r/mpi/J'), [
            '/t/ibsw-mpirun', '--desc', '/r/fabric.json', '-H', 'H1,H4', '--tls', 'ud',
            '--sl', '1', '--json', '/r/mpi/J/report.json', '--keep', '/r/mpi/J/ucx', '--',
            'hpcc'])
        job.np, job.nice = 4, 0
        self.assertEqual(mpi.runner_argv(job, 'm', 'd', 'c')[5:9], ['-n', '4', '--nice', '0'])
        # the scenario's cpus lines: only the job's hosts, in its order
        cpus = {'H4': [0, 2], 'H1': [1], 'H2': [3]}
        self.assertEqual(mpi.runner_argv(job, 'm', 'd', 'c', cpus)[5:11],
                         ['-n', '4', '--cpus', 'H1=1', '--cpus', 'H4=0,2'])

    JOB = {'name': 'J', 'hosts': ['H1', 'H4'], 'np': None, 'tls': 'rc', 'sl': 0,
           'argv': ['/usr/bin/hpcc'], 'start': 0.5, 'stop': 10.0}

    def test_job_summary_nothing(self):
        s = mpi.job_summary(self.tmp, self.JOB, None)
        self.assertEqual((s['np'], s['launched'], s['exit'], s['fabric_ok'], s['hpcc']),
                         (2, None, None, None, None))
        self.assertEqual(mpi.summary_lines('J', s), [
            'MPI J on H1,H4, 2 ranks: not started, no ibsw-mpirun report',
            '  no HPCC summary in mpi/J/hpccoutf.txt (stopped before its end?)'])

    def test_job_summary(self):
        d = os.path.join(self.tmp, 'mpi', 'J')
        os.makedirs(d)
        with open(os.path.join(d, 'report.json'), 'w', encoding='utf-8') as f:
            json.dump({'fabric_ok': True, 'problems': [], 'ports': {'H1': {'sent_bytes': 8}},
                       'ranks': [{'device': 'rxe_H1',
                                  'transports': ['rc_verbs/rxe_H1:1', 'self/memory0']},
                                 {'device': 'rxe_H4', 'transports': ['rc_verbs/rxe_H4:1']}]}, f)
        with open(os.path.join(d, 'hpccoutf.txt'), 'w', encoding='utf-8') as f:
            f.write('Begin of Summary section.\nRandomlyOrderedRingLatency_usec=2036.5\n'
                    'PTRANS_GBs=0.0012\nEnd of Summary section.\n')
        s = mpi.job_summary(self.tmp, self.JOB, {'started': 0.5, 'stopped': 3.25, 'exit': 0})
        self.assertEqual((s['launched'], s['ended'], s['exit'], s['fabric_ok']),
                         (0.5, 3.25, 0, True))
        self.assertEqual(s['transports'],
                         ['rc_verbs/rxe_H1:1', 'rc_verbs/rxe_H4:1', 'self/memory0'])
        self.assertEqual(s['ports'], {'H1': {'sent_bytes': 8}})
        self.assertEqual(s['hpcc'], {'RandomlyOrderedRingLatency_usec': 2036.5,
                                     'PTRANS_GBs': 0.0012})
        lines = mpi.summary_lines('J', s)
        self.assertEqual(lines[0], 'MPI J on H1,H4, 2 ranks: exit 0, across the fabric '
                         '(rc_verbs/rxe_H1:1 rc_verbs/rxe_H4:1)')
        self.assertEqual(len(lines), 1 + len(mpi.TABLE3))
        self.assertIn('Randomly Ordered Ring Lat.', lines[5])
        self.assertTrue(lines[5].endswith(' 2036.5 us'), lines[5])
        self.assertTrue(lines[1].endswith(' - us'), lines[1])


if __name__ == '__main__':
    unittest.main()
