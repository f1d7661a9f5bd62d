# SPDX-License-Identifier: GPL-2.0
"""MPI jobs across an emulated fabric, without a kernel: which hosts a job
runs on, the mpirun command line and UCX settings that make Open MPI move
its messages over the hosts' rxe devices through the switches, and the
proof that it did (UCX's endpoint reports, the hosts' switch ports).

Open MPI starts its daemons through ibsw-mpi-agent, which enters each
host's namespace; the daemons talk to mpirun over the management network.
Documentation/mpi.md explains each setting."""

import ipaddress
import json
import math
import os
import re

# UCX transport sets: RC for the data and UD for wire-up, or UD alone.
# No shared memory: UCX takes ranks in one IPC namespace for one node,
# whatever their network namespaces.
TLS = {'rc': 'self,rc_v', 'ud': 'self,ud_v'}

# Wall-clock timers of UCX (rxe's ACK timer is not time-scaled): a queue of
# a congested fabric at scale 1000 holds a packet for seconds; a 1 s RC
# timeout would resend (rxe retries retry_cnt 7 forever) what a lossless
# fabric delivers anyway, and UD wire-up gives up after 30 s.
RC_TIMEOUT = '30s'
UD_TIMEOUT = '600s'

# What a rank's UCX may use besides its own host's rxe device.
LOCAL_TRANSPORTS = ('self/',)

# ibsw-mpirun exit status when the job ran but not across the fabric.
EXIT_NOT_FABRIC = 5

# Ranks busy-poll: at nice 19 they leave a vCPU at once to the softirqs and
# workers that run rxe and the emulated links, which otherwise wait for
# their time slice and fall behind the links' pace (as perftest's).
NICE = 19

# A scenario's MPI job works in this directory of the results, and
# ibsw-mpirun leaves its report and the ranks' UCX logs there.
REPORT = 'report.json'
LOGS = 'ucx'


class MpiError(Exception):
    """A job that cannot run as asked (unknown host, no rxe, ...)."""


def job_hosts(desc, names):
    """The hosts of a job from the fabric description, in the order given:
    list of dicts name, netns, rdma_dev, switch, switch_port. names is a
    list, or None for every host of the fabric."""
    hosts = {}
    order = []
    for h in desc.get('hosts', []):
        if h['name'] not in hosts:
            hosts[h['name']] = h
            order.append(h['name'])
    if names is None:
        names = order
    if not names:
        raise MpiError('no hosts')
    seen = set()
    out = []
    for n in names:
        if n in seen:
            raise MpiError("host '%s' given twice" % n)
        seen.add(n)
        h = hosts.get(n)
        if h is None:
            raise MpiError("no host '%s' in the fabric (hosts: %s)" %
                           (n, ' '.join(order) or 'none'))
        if not h.get('rdma_dev'):
            raise MpiError("host '%s' has no rxe device (fabric up ... no-rxe?)" % n)
        if not h.get('mgmt_ipv4'):
            raise MpiError("host '%s' has no management address (fabric up ... no-mgmt?)" % n)
        if not re.fullmatch(r'[A-Za-z0-9_-]+', n):
            raise MpiError("host '%s': Open MPI needs a name without dots or blanks" % n)
        out.append({k: h[k] for k in ('name', 'netns', 'rdma_dev', 'switch', 'switch_port')})
    return out


def mgmt_network(desc):
    """The management network's CIDR, for Open MPI's out-of-band TCP. The
    fabric builder gives the bridge and the hosts /16 addresses."""
    mgmt = desc.get('mgmt')
    if not mgmt or not mgmt.get('ipv4'):
        raise MpiError('the fabric has no management network (fabric up ... no-mgmt?): '
                       'mpirun reaches the hosts over it')
    return str(ipaddress.ip_network(mgmt['ipv4'] + '/16', strict=False))


def job_dir(name):
    """A scenario's MPI job's directory, relative to the results."""
    return os.path.join('mpi', name)


def runner_argv(job, mpirun, desc_path, cwd, cpus=None):
    """The ibsw-mpirun command line of a scenario's mpi line (job: a
    scenario.MpiJob) that runs in cwd; cpus maps hosts to the CPUs their
    ranks run on (the scenario's cpus lines)."""
    argv = [mpirun, '--desc', desc_path, '-H', ','.join(job.hosts)]
    if job.np:
        argv += ['-n', str(job.np)]
    for host in job.hosts:
        if cpus and host in cpus:
            argv += ['--cpus', '%s=%s' % (host, ','.join(str(c) for c in cpus[host]))]
    if job.nice is not None:
        argv += ['--nice', str(job.nice)]
    return argv + ['--tls', job.tls, '--sl', str(job.sl),
                   '--json', os.path.join(cwd, REPORT), '--keep', os.path.join(cwd, LOGS),
                   '--'] + list(job.argv)


def hostfile(hosts, np):
    """Open MPI hostfile: one line per host, enough slots for np ranks
    placed round robin (--map-by node)."""
    slots = max(1, math.ceil(np / len(hosts)))
    return ''.join('%s slots=%d\n' % (h['name'], slots) for h in hosts)


def agent_hosts(hosts):
    """IBSW_MPI_HOSTS for ibsw-mpi-agent: "NAME=NETNS,RDMA_DEV ..."."""
    return ' '.join('%s=%s,%s' % (h['name'], h['netns'], h['rdma_dev']) for h in hosts)


def parse_cpus(words, hosts):
    """ibsw-mpirun --cpus HOST=LIST (LIST as taskset -c takes it: 0,2-3)
    for the job's hosts -> IBSW_MPI_CPUS for ibsw-mpi-agent, "NAME=LIST ..."."""
    names = [h['name'] for h in hosts]
    seen = {}
    for word in words:
        name, sep, cpus = word.partition('=')
        if not sep or not re.fullmatch(r'\d+(-\d+)?(,\d+(-\d+)?)*', cpus):
            raise MpiError("bad --cpus '%s' (HOST=LIST, e.g. H1=0 or H4=0,2-3)" % word)
        if name not in names:
            raise MpiError("--cpus %s: %s is not a host of the job (%s)"
                           % (word, name, ','.join(names)))
        if name in seen:
            raise MpiError('--cpus: host %s given twice' % name)
        seen[name] = cpus
    return ' '.join('%s=%s' % kv for kv in seen.items())


def ucx_env(tls, sl, log_dir):
    """The UCX variables of every rank (UCX_NET_DEVICES comes per host
    from the agent)."""
    if tls not in TLS:
        raise MpiError("unknown transport '%s' (%s)" % (tls, ', '.join(sorted(TLS))))
    if not 0 <= sl <= 15:
        raise MpiError('SL %d: 0 to 15' % sl)
    return {
        'UCX_TLS': TLS[tls],
        'UCX_RC_TIMEOUT': RC_TIMEOUT,
        'UCX_UD_TIMEOUT': UD_TIMEOUT,
        # UCX 1.13's UD reads a receive's IPv4/IPv6 type from the
        # completion's SL field, where only mlx5 puts it: on rxe every IPv4
        # RoCEv2 packet looks IPv6, fails the DGID check and is dropped
        # (UCX 1.19 reads the header instead, commit 7de57ad9f9).
        'UCX_UD_VERBS_ETH_DGID_CHECK': 'n',
        # The switches take the SL from the traffic class (DSCP >> 2); UCX's
        # default, 106, would be SL 6.
        'UCX_IB_TRAFFIC_CLASS': str(sl * 16),
        # One log per rank: its endpoints' transports, for the check.
        'UCX_LOG_LEVEL': 'info',
        'UCX_LOG_FILE': os.path.join(log_dir, 'ucx.%p.log'),
        'UCX_WARN_UNUSED_ENV_VARS': 'n',
    }


def mca_params(mgmt_cidr, agent, overrides=()):
    """Open MPI's MCA parameters, in order: agent is ibsw-mpi-agent's path;
    overrides (NAME, VALUE) pairs replace or add (mpirun refuses a
    parameter given twice)."""
    params = {
        # Debian's openmpi-mca-params.conf turns UCX off (pml = ^ucx), and
        # pml/ucx ranks itself below ob1 on a device not named mlx*: ask for
        # it, so that a UCX failure stops MPI_Init instead of falling back
        # to TCP.
        'pml': 'ucx',
        'osc': 'ucx',
        'btl': 'self',
        'plm_rsh_agent': agent,
        # mpirun starts every daemon itself (through the agent)
        'plm_rsh_no_tree_spawn': '1',
        'oob_tcp_if_include': mgmt_cidr,
        # Ranks of several emulated hosts share the VM's CPUs; idle ranks
        # yield to the kernel's rxe and switch work.
        'mpi_yield_when_idle': '1',
    }
    for name, value in overrides:
        params.pop(name, None)
        params[name] = value
    return params


def mpirun_argv(hostfile_path, np, params, env, timeout, program):
    """The mpirun command line."""
    argv = ['mpirun', '--allow-run-as-root', '--hostfile', hostfile_path, '-np', str(np),
            '--map-by', 'node', '--bind-to', 'none']
    for name, value in params.items():
        argv += ['--mca', name, value]
    for name in sorted(env):
        argv += ['-x', '%s=%s' % (name, env[name])]
    if timeout:
        argv += ['--timeout', str(timeout)]
    return argv + list(program)


_NET_DEVICES = re.compile(r'UCX_NET_DEVICES=(\S+?):\d+\b')
_EP_CFG = re.compile(r'ep_cfg\[\d+\]: \w+\(([^)]*)\)')


def parse_ucx_log(text):
    """One rank's UCX log: (the device it was given, or None; the set of
    transport/device pairs of its endpoints, e.g. 'rc_verbs/rxe_H1:1')."""
    m = _NET_DEVICES.search(text)
    dev = m.group(1) if m else None
    used = set()
    for m in _EP_CFG.finditer(text):
        used.update(m.group(1).split())
    return dev, used


def check_transport(hosts, np, logs, tls):
    """Problems (strings) with the ranks' transports: every rank must have
    reported endpoints on its own host's rxe device with the transport
    asked for, and nothing else but loopback. logs: the texts of the
    UCX logs of the job's processes; one without a device is a process
    that loaded UCX but did not start its messaging on it."""
    problems = []
    want = {h['rdma_dev'] for h in hosts}
    verbs = {'rc': 'rc_verbs', 'ud': 'ud_verbs'}[tls]
    ranks = [r for r in map(parse_ucx_log, logs) if r[0] is not None]
    if len(ranks) < np:
        problems.append('%d of %d ranks ran UCX on an rxe device: the others sent their '
                        'messages another way (pml ob1 over TCP?)' % (len(ranks), np))
    for dev, used in ranks:
        if dev not in want:
            problems.append("a rank ran with device %s, not one of the job's hosts'" % dev)
            continue
        for tl in sorted(used):
            if tl.startswith(LOCAL_TRANSPORTS):
                continue
            name, _, where = tl.partition('/')
            if where.split(':')[0] != dev:
                problems.append("the rank on %s used %s: another host's device" % (dev, tl))
            elif name not in (verbs, 'ud_verbs'):
                problems.append('the rank on %s used %s, not %s' % (dev, tl, verbs))
        if not any(t.startswith(verbs + '/') for t in used):
            problems.append('the rank on %s made no %s endpoint' % (dev, verbs))
    return problems


def verdict(hosts, np, logs, tls, traffic, status):
    """Whether the job crossed the fabric: (True, []), (False, problems)
    or, when mpirun failed and every rank's UCX log is empty, (None,
    why): UCX writes its log file when the process exits, and a rank that
    was killed (a job stopped at its scenario's end) leaves nothing."""
    if status and not any(t.strip() for t in logs):
        return None, ['the ranks left no UCX log (mpirun status %d: stopped before they '
                      'exited?): their transports are unknown' % status] + check_traffic(traffic)
    problems = check_transport(hosts, np, logs, tls) + check_traffic(traffic)
    return not problems, problems


def port_traffic(hosts, before, after):
    """Bytes and packets each host sent into and received from its switch
    port between two counter reads ({(switch, port, name): value}); the
    data counters count 32-bit words."""
    out = {}
    for h in hosts:
        key = (h['switch'], h['switch_port'])

        def delta(name):
            return after[key + (name,)] - before[key + (name,)]
        out[h['name']] = {
            'sent_bytes': 4 * delta('port_rcv_data'),
            'rcvd_bytes': 4 * delta('port_xmit_data'),
            'sent_pkts': delta('port_rcv_packets'),
            'rcvd_pkts': delta('port_xmit_packets'),
        }
    return out


def check_traffic(traffic):
    """Problems with the fabric's view: every host of the job must have
    sent and received packets through its switch port."""
    return ['%s sent %d and received %d packets through its switch port' %
            (name, t['sent_pkts'], t['rcvd_pkts'])
            for name, t in traffic.items() if t['sent_pkts'] <= 0 or t['rcvd_pkts'] <= 0]


def _value(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_hpcc(text):
    """The Summary section of HPCC's hpccoutf.txt as {key: number or
    text}, or None when there is none (HPCC writes it last: a run that
    was stopped has only the sections before)."""
    out = None
    for line in text.splitlines():
        line = line.strip()
        if line == 'Begin of Summary section.':
            out = {}
        elif line == 'End of Summary section.':
            return out
        elif out is not None and '=' in line:
            key, _, value = line.partition('=')
            out[key.strip()] = _value(value.strip())
    return None


# The HPCC summary fields of seed 002's Table III, in its order:
# (the paper's row, HPCC's key, unit).
TABLE3 = (
    ('Min Ping Pong Lat.', 'MinPingPongLatency_usec', 'us'),
    ('Avg Ping Pong Lat.', 'AvgPingPongLatency_usec', 'us'),
    ('Max Ping Pong Lat.', 'MaxPingPongLatency_usec', 'us'),
    ('Naturally Ordered Ring Lat.', 'NaturallyOrderedRingLatency_usec', 'us'),
    ('Randomly Ordered Ring Lat.', 'RandomlyOrderedRingLatency_usec', 'us'),
    ('Min Ping Pong BW', 'MinPingPongBandwidth_GBytes', 'GB/s'),
    ('Avg Ping Pong BW', 'AvgPingPongBandwidth_GBytes', 'GB/s'),
    ('Max Ping Pong BW', 'MaxPingPongBandwidth_GBytes', 'GB/s'),
    ('Naturally Ordered Ring BW', 'NaturallyOrderedRingBandwidth_GBytes', 'GB/s'),
    ('Randomly Ordered Ring BW', 'RandomlyOrderedRingBandwidth_GBytes', 'GB/s'),
    ('PTRANS', 'PTRANS_GBs', 'GB/s'),
    ('HPLinpack', 'HPL_Tflops', 'Tflop/s'),
    ('MPIRandomAccess', 'MPIRandomAccess_GUPs', 'GUP/s'),
    ('MPIFFT', 'MPIFFT_Gflops', 'Gflop/s'),
)
HPCC_OUTPUT = 'hpccoutf.txt'


def _read(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read()
    except OSError:
        return None


def job_summary(results, job, state):
    """summary.json's entry of a scenario's MPI job: job is its scenario
    entry (a dict), state its run.json entry; ibsw-mpirun's report and
    HPCC's summary from the job's directory, when there."""
    state = state or {}
    d = os.path.join(results, job_dir(job['name']))
    out = {'hosts': job['hosts'], 'np': job['np'] or len(job['hosts']), 'tls': job['tls'],
           'sl': job['sl'], 'argv': job['argv'], 'start': job['start'], 'stop': job['stop'],
           'launched': state.get('started'), 'ended': state.get('stopped'),
           'exit': state.get('exit'), 'dir': job_dir(job['name']),
           'fabric_ok': None, 'problems': None, 'transports': None, 'ports': None,
           'hpcc': None}
    text = _read(os.path.join(d, REPORT))
    if text:
        try:
            rep = json.loads(text)
        except ValueError:
            rep = {'problems': ['%s is not JSON' % REPORT]}
        out['fabric_ok'] = rep.get('fabric_ok')
        out['problems'] = rep.get('problems')
        out['ports'] = rep.get('ports')
        out['transports'] = sorted({t for r in rep.get('ranks', []) for t in r['transports']})
    text = _read(os.path.join(d, HPCC_OUTPUT))
    if text:
        out['hpcc'] = parse_hpcc(text)
    return out


def summary_lines(name, s):
    """The report table's lines on an MPI job (s: its job_summary)."""
    status = 'not started' if s['launched'] is None else (
        'running at the end' if s['exit'] is None else 'exit %d' % s['exit'])
    if s['fabric_ok'] is None:
        fabric = ('transports unknown: %s' % '; '.join(s['problems']) if s['problems']
                  else 'no ibsw-mpirun report')
    elif s['fabric_ok']:
        fabric = 'across the fabric (%s)' % ' '.join(
            t for t in s['transports'] if not t.startswith(LOCAL_TRANSPORTS))
    else:
        fabric = 'NOT across the fabric: %s' % '; '.join(s['problems'])
    out = ['MPI %s on %s, %d ranks: %s, %s' % (name, ','.join(s['hosts']), s['np'], status,
                                              fabric)]
    if s['hpcc'] is not None:
        for label, key, unit in TABLE3:
            v = s['hpcc'].get(key)
            out.append('  %-28s %14s %s' % (label, '-' if v is None else '%.6g' % v, unit))
    elif os.path.basename(s['argv'][0]) == 'hpcc':
        out.append('  no HPCC summary in %s/%s (stopped before its end?)' % (s['dir'],
                                                                           HPCC_OUTPUT))
    return out
