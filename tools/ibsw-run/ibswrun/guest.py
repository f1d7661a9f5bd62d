# SPDX-License-Identifier: GPL-2.0
"""The run itself, on the machine that has ibsw.ko (the test VM).

Brings the fabric of a scenario up with `ibswctl fabric up`, starts its
flows (perftest) and applications in the hosts' namespaces when they are
due on the emulated clock, samples the switch counters from sysfs on the
same clock, stops everything at its time and tears the fabric down, also
on errors, SIGTERM and DIR/.stop. It writes run.json, samples.csv,
flows/NAME.log and guest.log into the results directory (the format is in
tools/ibsw-run's contract and Documentation/experiments.md).

One long-lived process does all of it: under QEMU TCG every program start
costs about 0.1 s and a Python start up to a second, so the sampler keeps
the sysfs files open and re-reads them with pread(), and the only programs
started during the run are the flows and applications themselves.
"""

import datetime
import inspect
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time

from . import cct
from . import mpi
from . import scenario
from . import schedule as sched

# TCP ports of the perftest servers' out-of-band connections: one per flow.
PORT_BASE = 18600
# perftest's QP timeout, 4.096 us * 2^20 = 4.3 s: queueing delays grow with
# the time scale, rxe's own timers do not.
QP_TIMEOUT = 20
# Seconds for a host's rxe port to get its GID and become ACTIVE, for a
# server to listen, and for a stopped program to exit before SIGKILL.
HOST_WAIT = 30
SERVER_WAIT = 30
KILL_GRACE = 3

PERFTEST = {'write': 'ib_write_bw', 'read': 'ib_read_bw', 'send': 'ib_send_bw'}
# perftest busy-polls its CQ (write has no event mode). At nice 19 it gives
# the vCPU up at once to the softirqs and workers that run the emulated
# links and rxe; at nice 0 they wait for its time slice, milliseconds in
# a TCG guest with a host core for all its vCPUs, and the links fall
# behind their pace (a standing queue that the switches mark). A flow's
# two programs start at nice 0 and go to PERFTEST_NICE once it sends: at
# nice 19 from the start, a client set itself up in the time slices the
# flows already polling left it, 13 to 15 wall seconds for the fifth flow
# of seed 002's scenario 1 against 2 for the first.
PERFTEST_NICE = 19
# Runs a scenario's MPI jobs (and nices their ranks as perftest is)
MPIRUN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'ibsw-mpirun')


class GuestError(Exception):
    """A run cannot go on; the text says why."""


class Terminated(Exception):
    """SIGTERM or SIGHUP: tear down and leave."""


# ------------------------------------------------------------ pure helpers

def column_name(switch, port, name, vl=None):
    """samples.csv column of a switch counter: SW/PORT:NAME[@VL]."""
    return '%s/%d:%s%s' % (switch, port, name, '' if vl is None else '@%d' % vl)


def counter_path(sysfs, switch, port, name, vl=None):
    """sysfs file of a counter; standard PMA counters live in counters/,
    ibsw's own in hw_counters/, per-VL ones in vls/V/counters/."""
    base = os.path.join(sysfs, switch, 'ports', str(port))
    if vl is not None:
        return os.path.join(base, 'vls', str(vl), 'counters', name)
    path = os.path.join(base, 'counters', name)
    if os.path.exists(path):
        return path
    return os.path.join(base, 'hw_counters', name)


def desc_hosts(desc):
    """The description's hosts by name (the first port of a multi-port HCA)."""
    hosts = {}
    for h in desc.get('hosts', []):
        hosts.setdefault(h['name'], h)
    return hosts


def desc_app_nodes(desc):
    """Where apps may run, by name: the hosts, and the management nodes
    (an SM or a MAD-based manager runs on one)."""
    nodes = dict(desc_hosts(desc))
    for m in desc.get('mgmt_nodes', []):
        nodes.setdefault(m['name'], m)
    return nodes


def host_link(desc, host):
    """The data rate (bit/s) of a host's link and its IB MTU, from the
    fabric description (rxe takes the netdev MTU less 80 header bytes down
    to a power of two)."""
    h = desc_hosts(desc)[host]
    rate = None
    for sw in desc.get('switches', []):
        if sw['name'] == h['switch']:
            for p in sw.get('ports', []):
                if p['port'] == h['switch_port']:
                    rate = p.get('rate_bps')
    if not rate:
        raise GuestError('no rate for the port of host %s in the fabric description' % host)
    room = desc.get('mtu', 4200) - 80
    mtu = max([m for m in (256, 512, 1024, 2048, 4096) if m <= room] or [256])
    return rate, mtu


def hca_writes(setting, rate, mtu):
    """The rxe ports/1/cc files a cc hca line writes, in order, as (file,
    value), 'enabled' last. The time scale and link rate are not among
    them: ibswctl fabric up sets those (hca clock). rate and mtu convert
    a CCT shape."""
    o = setting.opts
    out = []
    if 'port_control' in o:
        out.append(('port_control', '1' if o['port_control'] == 'sl' else '0'))
    per_sl = ['%s=%s' % (k, o[k]) for k in ('ccti_timer', 'ccti_increase',
                                             'trigger_threshold', 'ccti_min') if k in o]
    if per_sl:
        out.append(('sl_settings', ' '.join(['sl=' + o.get('sl', 'all')] + per_sl)))
    if 'cct' in o:
        out.append(('cct', cct.format_table(cct.spec(o['cct'], rate, mtu))))
    if 'becn_coalesce' in o:
        out.append(('becn_coalesce', '1' if o['becn_coalesce'] == 'on' else '0'))
    out.append(('enabled', '1'))
    return out


def cc_set_commands(sc, desc):
    """The scenario's cc lines as ibswctl cc set commands, in order, on the
    switches of description DESC: [(line, target, args)]."""
    names = [sw.get('name') for sw in desc.get('switches', [])]
    out = []
    for c in sc.cc_settings:
        for sw in (names if c.switch == '*' else [c.switch]):
            out.append((c.line, sw if c.port is None else '%s/%d' % (sw, c.port), list(c.args)))
    return out


def set_hca(sysfs_ib, desc, c, host):
    """One cc hca line C on HOST's rxe, through ports/1/cc under SYSFS_IB
    (in the host's namespace where only that shows it); GuestError."""
    h = desc_hosts(desc)[host]
    dev = h['rdma_dev']
    base = os.path.join(sysfs_ib, dev, 'ports', '1', 'cc')
    if port_files(sysfs_ib, h, 'cc', ['enabled']) is None:
        raise GuestError('line %d: %s has no congestion control (%s): not the patched '
                         'rdma_rxe?' % (c.line, dev, base))
    try:
        rate, mtu = host_link(desc, host)
        writes = hca_writes(c, rate, mtu)
    except cct.CctError as e:
        raise GuestError('line %d: cct for %s: %s' % (c.line, host, e)) from None
    netns = in_host_netns(sysfs_ib, h)
    err = run_in_netns(netns, write_dir, base, writes) if netns else write_dir(base, writes)
    if err:
        raise GuestError('line %d: %s cc/%s' % (c.line, dev, err))


def read_dir(d, names):
    """Files NAMES (every file if empty) of directory D as name -> text;
    None if D is not a directory, unreadable files left out. It also runs
    alone in a host's namespace (port_files()): it imports what it uses."""
    import os
    if not os.path.isdir(d):
        return None
    out = {}
    for n in names or sorted(os.listdir(d)):
        try:
            with open(os.path.join(d, n)) as f:
                out[n] = f.read()
        except OSError:
            continue
    return out


def write_dir(d, writes):
    """Write (name, value) pairs to the files of directory D in order; the
    first failure as 'NAME: reason', or None. Runs alone as read_dir()."""
    import os
    for name, value in writes:
        try:
            with open(os.path.join(d, name), 'w') as f:
                f.write(value + '\n')
        except OSError as e:
            return '%s: %s' % (name, e.strerror)
    return None


def in_host_netns(sysfs_ib, host):
    """The namespace to reach HOST's rxe in, or None for this one. rdma's
    exclusive netns mode (fabric up ... rdma-netns exclusive) shows a
    device in its own namespace only; `ip netns exec` mounts that
    namespace's sysfs, where it is."""
    dev = host.get('rdma_dev')
    if os.path.isdir(os.path.join(sysfs_ib, dev)) or sysfs_ib != SYSFS_IB:
        return None
    return host.get('netns')


def standalone(func):
    """A Python program that prints func(*json.loads(argv[1])) as JSON;
    func must be self-contained (read_dir, write_dir)."""
    return '%s\nimport json, sys\nprint(json.dumps(%s(*json.loads(sys.argv[1]))))\n' % (
        inspect.getsource(func), func.__name__)


def run_in_netns(netns, func, *args):
    """func(*args) in a Python of its own in network namespace NETNS, its
    result (through JSON)."""
    r = subprocess.run(['ip', 'netns', 'exec', netns, sys.executable, '-c', standalone(func),
                        json.dumps(args)], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise GuestError('reading %s in namespace %s failed (exit %d): %s' % (
            args[0], netns, r.returncode, r.stderr.strip()[-200:]))
    return json.loads(r.stdout)


def port_files(sysfs_ib, host, sub, names=()):
    """HOST's rxe ports/1/SUB files as name -> text (every file if NAMES is
    empty), read where its device is seen; None without a device or the
    directory."""
    dev = host.get('rdma_dev')
    if not dev:
        return None
    d = os.path.join(sysfs_ib, dev, 'ports', '1', sub)
    netns = in_host_netns(sysfs_ib, host)
    return run_in_netns(netns, read_dir, d, list(names)) if netns else read_dir(d, names)


def hca_counters(sysfs_ib, hosts):
    """Each host's rxe hw_counters (those of its congestion control among
    them: cc_becn_rcvd, cc_cnp_sent, ...) as host -> name -> value; hosts
    without a device or counters are left out, unreadable files skipped."""
    out = {}
    for h, host in sorted(hosts.items()):
        files = port_files(sysfs_ib, host, 'hw_counters')
        if files is None:
            continue
        vals = {}
        for name, text in sorted(files.items()):
            try:
                vals[name] = int(text.split()[0])
            except (ValueError, IndexError):
                continue
        out[h] = vals
    return out


# rdma devices in sysfs, as this namespace sees them
SYSFS_IB = '/sys/class/infiniband'
# ib_umad's ABI version: the module is loaded
UMAD_ABI = '/sys/class/infiniband_mad/abi_version'
# rxe's congestion control settings (ports/1/cc), as cc_state records them
HCA_CC_FILES = ('enabled', 'port_control', 'sl_settings', 'cct', 'ccti_limit',
                'time_scale', 'link_rate', 'becn_coalesce')


def hca_cc_state(sysfs_ib, hosts):
    """Each host's rxe congestion control settings as host -> file ->
    its text (stripped); hosts without ports/1/cc are left out."""
    out = {}
    for h, host in sorted(hosts.items()):
        files = port_files(sysfs_ib, host, 'cc', HCA_CC_FILES)
        if files is not None:
            out[h] = {name: text.strip() for name, text in files.items()}
    return out


def tools_dir(environ, root):
    """Where the project's C tools are built."""
    return os.path.join(environ.get('IBSW_BUILD', os.path.join(root, 'build')), 'tools')


def app_env(environ, root):
    """The environment of apps: the project's tools (ibswctl, dcms,
    ibsw-ccmad) first in PATH, from the build directory (installed, they
    are in PATH already)."""
    tools = [os.path.join(tools_dir(environ, root), t) for t in ('ibswctl', 'dcms', 'ccmad')]
    tools = [t for t in tools if os.path.isdir(t)]
    env = dict(environ)
    env['PATH'] = ':'.join(tools + [environ.get('PATH', '/usr/bin:/bin')])
    return env


def connected_ports(desc, switch):
    """Connected ports of a switch in the description, in port order."""
    for sw in desc.get('switches', []):
        if sw['name'] == switch:
            return sorted(p['port'] for p in sw.get('ports', []))
    raise GuestError('switch %s is not in the fabric description' % switch)


def sources(sc, desc):
    """The switch port facing each flow's and application's source host:
    its port_rcv_data is what that source sends into the fabric."""
    hosts = desc_app_nodes(desc)
    out = {}
    for item in list(sc.flows) + list(sc.apps):
        name = item.src if hasattr(item, 'src') else item.host
        if name == scenario.CONTROL_HOST:
            continue
        h = hosts.get(name)
        if h is None:
            raise GuestError('host %s is not in the fabric description' % name)
        out[item.name] = {'switch': h['switch'], 'port': h['switch_port']}
    return out


def counter_columns(sc, desc):
    """(column, switch, port, name, vl) for each counter of the scenario,
    ports `*` expanded to every connected port, duplicates dropped."""
    cols, seen = [], set()
    for c in sc.counters:
        ports = connected_ports(desc, c.switch) if c.port == '*' else [c.port]
        for p in ports:
            col = column_name(c.switch, p, c.name, c.vl)
            if col not in seen:
                seen.add(col)
                cols.append((col, c.switch, p, c.name, c.vl))
    return cols


def late_ports(desc):
    """(key, switch, port, rate_bps, peer) of every connected port of every
    switch, switches in the description's order, ports in port order: the
    ports whose xmit_late the run records. key is 'SW/PORT'; peer the host
    a host port serves, or 'SW/PORT' at the other end of a link; rate_bps
    the port's data rate (the unit of its ticks), None if not described."""
    out = []
    for sw in desc.get('switches', []):
        for p in sorted(sw.get('ports', []), key=lambda p: p['port']):
            if p.get('kind') == 'host':
                peer = p.get('host')
            elif p.get('peer') is not None:
                peer = '%s/%s' % (p['peer'], p.get('peer_port'))
            else:
                peer = None
            out.append(('%s/%d' % (sw['name'], p['port']), sw['name'], p['port'],
                        p.get('rate_bps'), peer))
    return out


def window_edges(windows, duration):
    """The distinct emulated times at which a window opens or closes, the
    run's own 0 and duration among them, in order."""
    edges = {0.0, float(duration)}
    for a, b in windows.values():
        edges.update((float(a), float(b)))
    return sorted(e for e in edges if 0 <= e <= duration)


def wall_seconds(emulated, scale):
    """Wall-clock seconds of an emulated duration."""
    return emulated * scale


def perftest_duration(flow, scale, slack=0.0):
    """perftest's -D for a flow: whole wall seconds past its stop time (the
    runner stops it at its stop time; -D only bounds a lost program), plus
    slack, the wall seconds the schedule may be held while it runs
    (schedule.perftest_slack)."""
    return max(5, int(math.ceil(wall_seconds(flow.stop - flow.start, scale) + slack)) + 10)


def perftest_roles(flow):
    """(server host, client host). Data goes from SRC to DST for every verb:
    write and send clients push their data, a read client pulls the
    server's, so for `read` the server runs on SRC and the client on DST."""
    if flow.verb == 'read':
        return flow.src, flow.dst
    return flow.dst, flow.src


def perftest_argv(flow, dev, gid, port, secs, peer=None):
    """perftest command line of one side (the client when peer is given):
    RoCEv2 GID of the host's IPv4 address, the flow's size, QPs and SL,
    traffic class SL*16 (the switch maps DSCP>>2, i.e. tclass>>4, to SL)."""
    # a fixed-size flow sends its messages (-n, both sides) and ends;
    # the others run for secs (-D) and the runner stops them
    length = ['-n', str(flow.count)] if flow.count else ['-D', str(secs)]
    argv = [PERFTEST[flow.verb], '-d', dev, '-x', str(gid), '-p', str(port), '-F',
            '-s', str(flow.size), '-q', str(flow.qps), *length,
            '-u', str(QP_TIMEOUT), '--report_gbits']
    if flow.sl:
        argv += ['--sl=%d' % flow.sl, '--tclass=%d' % (flow.sl * 16)]
    if peer is not None:
        argv.append(peer)
    return argv


def sample_times(duration, sample):
    """Emulated times of the samples: 0, sample, 2 sample, ..., duration."""
    n = int(math.floor(duration / sample + 1e-9))
    times = [k * sample for k in range(n + 1)]
    if duration - times[-1] > sample * 1e-6:
        times.append(duration)
    else:
        times[-1] = duration
    return times


def ipv4_gid(addr):
    """The RoCEv2 GID of an IPv4 address as sysfs shows it (v4-mapped)."""
    a = [int(x) for x in addr.split('.')]
    return '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' % tuple(a)


# The GID table entries port_ready() looks at
GIDS_SEEN = 16


def port_ready(sysfs_ib, host):
    """Index of the RoCE v2 GID of HOST's IPv4 address on port 1 of its
    rdma device, if that port is ACTIVE; else None."""
    names = ['state'] + ['gids/%d' % i for i in range(GIDS_SEEN)] + \
        ['gid_attrs/types/%d' % i for i in range(GIDS_SEEN)]
    files = port_files(sysfs_ib, host, '', names) or {}
    if 'ACTIVE' not in files.get('state', ''):
        return None
    want = ipv4_gid(host['ipv4'])
    for idx in range(GIDS_SEEN):
        if files.get('gids/%d' % idx, '').strip() == want and \
           files.get('gid_attrs/types/%d' % idx, '').strip() == 'RoCE v2':
            return idx
    return None


def tcp_listening(proc_net_files, port):
    """A socket listens on TCP port `port` in /proc/PID/net/tcp{,6}."""
    hexport = ':%04X' % port
    for path in proc_net_files:
        try:
            with open(path) as f:
                next(f, None)
                for line in f:
                    w = line.split()
                    if len(w) > 3 and w[1].endswith(hexport) and w[3] == '0A':
                        return True
        except OSError:
            continue
    return False


def rate_gbps(w0, w1, t0, t1):
    """Emulated Gb/s of a port_rcv_data delta (32-bit words)."""
    if t1 <= t0 or w1 < w0:
        return None
    return (w1 - w0) * 32 / (t1 - t0) / 1e9


def fmt_time(t, duration):
    """An emulated time in the unit that suits the run's duration."""
    if duration < 1:
        return '%.2f ms' % (t * 1e3)
    return '%.3f s' % t


# -------------------------------------------------------------- the sampler

class Sampler:
    """Reads a fixed set of sysfs counters, keeping the files open: a
    pread() at offset 0 makes sysfs produce the current value again."""

    def __init__(self, paths):
        self.fds = {}
        self.order = []
        for p in paths:
            if p not in self.fds:
                try:
                    self.fds[p] = os.open(p, os.O_RDONLY)
                except OSError as e:
                    self.close()
                    raise GuestError('cannot open counter %s: %s' % (p, e.strerror))
            self.order.append(self.fds[p])

    def read(self):
        """Current values, in the order of the paths given."""
        cache = {}
        out = []
        for fd in self.order:
            if fd not in cache:
                cache[fd] = int(os.pread(fd, 64, 0))
            out.append(cache[fd])
        return out

    def close(self):
        for fd in self.fds.values():
            os.close(fd)
        self.fds = {}


class LateRecorder:
    """The xmit_late counter (hw_counters/xmit_late: ticks a busy
    transmitter lost because the CPU ran its engine later than its pacing
    slack) of every connected port of every switch, read at the first
    sample at or after each window edge (0 and the duration among them),
    and once more when a run stops early.

    Not every sample: that would add a sysfs read per port to each
    sample (each makes ibsw sum the port's counters over the CPUs and lock
    its engines), in the process whose CPU the emulated links share, and
    widen the span of the sample's reads that its t stands for. The
    summary's results are per window, and the reads at the edges give each
    window its own fraction. The form in run.json is in
    Documentation/experiments.md."""

    def __init__(self, sysfs, desc, edges, tol=1e-9):
        self.ports = {}
        self.missing = []
        self.keys = []
        paths = []
        for key, sw, port, rate, peer in late_ports(desc):
            self.ports[key] = {'rate_bps': rate, 'peer': peer}
            path = counter_path(sysfs, sw, port, 'xmit_late')
            if os.path.exists(path):
                self.keys.append(key)
                paths.append(path)
            else:
                self.missing.append(key)
        self.edges = list(edges)
        self.tol = tol
        self.reads = []
        self.error = None
        self.sampler = None
        try:
            self.sampler = Sampler(paths) if paths else None
        except GuestError as e:
            self.error = str(e)

    def due(self, t):
        """A sample at emulated time t opens or closes a window."""
        return bool(self.edges) and t >= self.edges[0] - self.tol

    def behind(self, t):
        """No read at or after the sample at t (a run that stopped early)."""
        return not self.reads or self.reads[-1]['t'] < t - self.tol

    def read(self, wall_now, scale):
        """Read every port now; wall_now() is the wall-clock seconds since
        the run's time zero. Read errors stop the recording (the run goes
        on) and are kept in .error; returns the read or None."""
        if self.sampler is None:
            return None
        a = wall_now()
        try:
            vals = self.sampler.read()
        except (OSError, ValueError) as e:
            self.error = 'cannot read xmit_late: %s' % e
            self.close()
            return None
        wall = (a + wall_now()) / 2
        t = wall / scale
        r = {'t': round(t, 9), 'wall': round(wall, 6), 'ticks': dict(zip(self.keys, vals))}
        self.reads.append(r)
        while self.edges and self.edges[0] <= t + self.tol:
            self.edges.pop(0)
        return r

    def to_json(self):
        return {'ports': self.ports, 'missing': self.missing, 'reads': self.reads,
                'error': self.error}

    def close(self):
        if self.sampler is not None:
            self.sampler.close()
            self.sampler = None


# ---------------------------------------------------------------- processes

def place(nice, cpus):
    """A child's set-up before exec: its niceness, and the CPUs it (and
    what it starts) may run on, its host's (a scenario's cpus line); None
    when there is nothing to set."""
    if not nice and not cpus:
        return None

    def setup():
        if cpus:
            os.sched_setaffinity(0, cpus)
        if nice:
            os.nice(nice)
    return setup


class Proc:
    """A program in a host's namespace, in its own session (its process
    group is what gets signalled), output appended to a log."""

    def __init__(self, label, netns, argv, log_path, nice=0, env=None, cwd=None, cpus=None):
        self.label = label
        self.argv = argv
        self.exit = None
        self.kill_at = None
        self.gone = False
        prefix = ['ip', 'netns', 'exec', netns] if netns else []
        with open(log_path, 'ab', buffering=0) as log:
            log.write(('# %s: %s\n' % (label, ' '.join(prefix + argv))).encode())
            self.p = subprocess.Popen(prefix + argv,
                                      stdin=subprocess.DEVNULL, stdout=log,
                                      stderr=subprocess.STDOUT,
                                      start_new_session=True, close_fds=True, env=env, cwd=cwd,
                                      preexec_fn=place(nice, cpus))
        self.pid = self.p.pid

    def poll(self):
        """Exit status once it ended (negative: killed by that signal)."""
        if self.exit is None:
            rc = self.p.poll()
            if rc is not None:
                self.exit = rc
        return self.exit

    def running(self):
        return self.poll() is None

    def renice(self, nice):
        """Every thread of the program to niceness nice (a thread's own)."""
        try:
            tids = os.listdir('/proc/%d/task' % self.pid)
        except OSError:
            return
        for tid in tids:
            try:
                os.setpriority(os.PRIO_PROCESS, int(tid), nice)
            except OSError:
                pass

    def signal_group(self, sig):
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def stop(self):
        """SIGTERM now, SIGKILL after KILL_GRACE seconds (see reap)."""
        if self.running() and self.kill_at is None:
            self.signal_group(signal.SIGTERM)
            self.kill_at = time.monotonic() + KILL_GRACE

    def reap(self, now):
        """Escalate a stop that takes too long; True once it is gone."""
        if self.gone:
            return True
        if not self.running():
            # Children the program left in its group go too; only once,
            # as the group's number may be reused once it is empty.
            self.signal_group(signal.SIGKILL)
            self.gone = True
            return True
        if self.kill_at is not None and now >= self.kill_at:
            self.signal_group(signal.SIGKILL)
        return False


def job_progress(name, started, t, scale, status):
    """An MPI job on the progress line: not yet started, running for so
    many wall-clock seconds (its programs print those), or its exit."""
    if started is None:
        return '%s -' % name
    if status is not None:
        return '%s exit %d' % (name, status)
    return '%s running %d s' % (name, max(0, round((t - started) * scale)))


class Item:
    """A flow or an application and what the run did with it."""

    def __init__(self, spec, kind):
        self.spec = spec
        self.kind = kind		# 'flow', 'app' or 'mpi'
        self.name = spec.name
        self.server = None
        self.client = None		# the flow's client, or the application
        self.started = None		# launched, emulated time
        self.stopped = None
        self.measured_start = None	# first sample showing its traffic
        self.not_started = None		# why it did not start, or None
        self.mtu = None			# a flow's IB MTU, its source's
        self.note = None
        self.reported_exit = False

    def procs(self):
        return [p for p in (self.client, self.server) if p is not None]

    def settle(self):
        """Its programs to PERFTEST_NICE, once the runner is done waiting
        for it to start (they busy-poll)."""
        for p in self.procs():
            p.renice(PERFTEST_NICE)

    def state(self):
        exit_ = self.client.poll() if self.client else None
        d = {'scheduled_start': self.spec.start, 'scheduled_stop': self.spec.stop,
             'started': self.started, 'stopped': self.stopped, 'exit': exit_,
             'log': 'flows/%s.log' % self.name}
        if self.kind == 'flow':
            d['measured_start'] = self.measured_start
            d['not_started'] = self.not_started
            d['mtu'] = self.mtu
        if self.kind == 'app':
            d['app'] = True
        if self.kind == 'mpi':
            d['mpi'] = mpi.job_dir(self.name)
        if self.note:
            d['note'] = self.note
        return d


# --------------------------------------------------------------------- run

class Run:
    """One run of a scenario into a results directory."""

    def __init__(self, sc, outdir, root, progress=None, stop_flag=None):
        self.sc = sc
        self.dir = os.path.abspath(outdir)
        self.root = root
        self.progress = progress or (lambda line: print(line, flush=True))
        self.stop_flag = stop_flag or (lambda: False)
        self.stop_path = os.path.join(self.dir, '.stop')
        self.desc_path = os.path.join(self.dir, 'fabric.json')
        self.sysfs = os.environ.get('IBSW_SYSFS', '/sys/class/ibsw')
        self.sysfs_ib = SYSFS_IB
        self.ibswctl = self._find_ibswctl()
        self.app_env = app_env(os.environ, self.root)
        self.t_start = time.monotonic()
        self.t0 = None
        self.desc = None
        self.sources = {}
        self.items = ([Item(f, 'flow') for f in sc.flows] + [Item(a, 'app') for a in sc.apps] +
                      [Item(j, 'mpi') for j in sc.mpi])
        self.interrupted = False
        self.error = None
        self.fabric_up = False
        self.log = None
        self.samples = None
        self.sampler = None
        self.late = None
        self.last_row = None
        self.groups = []		# schedule.py's group records
        self.pending = None		# the group being waited for
        self.edge_list = sched.edges(sc.windows, sc.duration)
        self.start_words = None
        self.run_json = {}
        self.hca_counters = {}
        self.cc_state = None
        self.hosts = {}

    # ---- plumbing

    def _find_ibswctl(self):
        cands = [os.environ.get('IBSWCTL'),
                 os.path.join(tools_dir(os.environ, self.root), 'ibswctl', 'ibswctl'),
                 os.path.join(tools_dir({}, self.root), 'ibswctl', 'ibswctl')]
        for c in cands:
            if c and os.access(c, os.X_OK):
                return c
        return 'ibswctl'

    def now_emu(self):
        return (time.monotonic() - self.t0) / self.sc.scale if self.t0 is not None else None

    def note(self, msg, show=False):
        """A line in guest.log (wall seconds since the start, and the
        emulated time once the run's clock runs); also on stdout if show."""
        stamp = '[%8.3f]' % (time.monotonic() - self.t_start)
        t = self.now_emu()
        if t is not None:
            stamp += ' t=%s' % fmt_time(t, self.sc.duration)
        if self.log:
            self.log.write('%s %s\n' % (stamp, msg))
            self.log.flush()
        if show:
            self.progress('ibsw-run: %s' % msg)

    def stop_requested(self):
        return os.path.exists(self.stop_path) or self.stop_flag()

    def write_run_json(self):
        d = {
            'schema': 1,
            'scenario': scenario.to_dict(self.sc),
            'scale': self.sc.scale,
            'sample': self.sc.sample,
            'kernel': os.uname().release,
            'cpus': os.cpu_count(),
            'started': self.started_iso,
            'fabric': self.desc,
            'sources': self.sources,
            'flows': {it.name: it.state() for it in self.items},
            'hca_counters': self.hca_counters,
            'cc_state': self.cc_state,
            'xmit_late': self.late.to_json() if self.late else None,
            'schedule': self.schedule_json(),
            'interrupted': self.interrupted,
            'error': self.error,
        }
        tmp = os.path.join(self.dir, '.run.json.tmp')
        with open(tmp, 'w') as f:
            json.dump(d, f, indent=1)
            f.write('\n')
        os.replace(tmp, os.path.join(self.dir, 'run.json'))

    def ibswctl_run(self, args):
        """Run ibswctl, its output into guest.log; its exit status."""
        self.note('%s %s' % (self.ibswctl, ' '.join(args)))
        r = subprocess.run([self.ibswctl] + args, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = r.stdout.decode(errors='replace').rstrip()
        if out:
            self.log.write(''.join('    %s\n' % l for l in out.splitlines()))
        self.last_output = out
        return r.returncode

    # ---- phases

    def load_umad(self):
        """OpenSM reaches its port through ib_umad, which nothing loads for
        an rxe or management HCA: load it for a fabric with an SM."""
        if 'sm' not in self.sc.fabric_args[::2] or os.path.exists(UMAD_ABI):
            return
        r = subprocess.run(['modprobe', 'ib_umad'], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise GuestError('fabric sm: modprobe ib_umad failed (exit %d): %s' % (
                r.returncode, r.stdout.decode(errors='replace').strip()))
        self.note('modprobe ib_umad (for the SM)')

    def bring_up(self):
        t = time.monotonic()
        self.load_umad()
        self.progress('ibsw-run: %s: fabric up (%s, scale %d)' % (
            self.sc.name, os.path.basename(self.sc.topology), self.sc.scale))
        args = ['fabric', 'up', self.sc.topology, 'scale', str(self.sc.scale),
                'desc', self.desc_path] + list(self.sc.fabric_args)
        rc = self.ibswctl_run(args)
        # Whatever the builder left behind (it undoes its own failed
        # steps), a description means there is something to take down.
        self.fabric_up = os.path.exists(self.desc_path)
        if rc != 0:
            last = self.last_output.splitlines()[-1] if self.last_output else ''
            raise GuestError('ibswctl fabric up failed (exit %d): %s' % (rc, last))
        with open(self.desc_path) as f:
            self.desc = json.load(f)
        self.hosts = desc_hosts(self.desc)
        self.sources = sources(self.sc, self.desc)
        self.note('fabric up: %d switches, %d hosts in %.1f s' % (
            len(self.desc.get('switches', [])), len(self.hosts), time.monotonic() - t), show=True)

    def set_cc(self):
        """The scenario's cc lines, in order, with ibswctl cc set (before
        any traffic, so that the run starts from a known configuration)."""
        for line, target, args in cc_set_commands(self.sc, self.desc):
            rc = self.ibswctl_run(['cc', 'set', target] + args)
            if rc != 0:
                last = self.last_output.splitlines()[-1] if self.last_output else ''
                raise GuestError('line %d: ibswctl cc set %s failed (exit %d): %s' % (
                    line, target, rc, last))
        if self.sc.cc_settings:
            self.note('congestion control: %d cc lines applied' % len(self.sc.cc_settings),
                      show=True)
        for c in self.sc.hca_settings:
            for h in (sorted(self.hosts) if c.host == '*' else [c.host]):
                set_hca(self.sysfs_ib, self.desc, c, h)
        if self.sc.hca_settings:
            self.note('HCA congestion control: %d cc hca lines applied'
                      % len(self.sc.hca_settings), show=True)

    def read_cc_state(self):
        """The congestion control settings the traffic starts with, as
        ibswctl cc show and rxe's sysfs give them, whoever set them (the
        cc lines, an SM): {'switches': {SW: ...}, 'hcas': {HOST: ...}}."""
        switches = {}
        for sw in [s.get('name') for s in self.desc.get('switches', [])]:
            r = subprocess.run([self.ibswctl, '-j', 'cc', 'show', sw], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            try:
                switches[sw] = json.loads(r.stdout) if r.returncode == 0 else None
            except ValueError:
                switches[sw] = None
        self.cc_state = {'switches': switches,
                         'hcas': hca_cc_state(self.sysfs_ib, self.hosts)}

    def wait_hosts(self):
        """The rxe ports of the hosts that run something have their IPv4
        RoCEv2 GID and are ACTIVE."""
        used = set()
        for it in self.items:
            if it.kind == 'flow':
                used.update((it.spec.src, it.spec.dst))
        self.gid = {}
        deadline = time.monotonic() + HOST_WAIT
        for h in sorted(used):
            dev, ip = self.hosts[h]['rdma_dev'], self.hosts[h]['ipv4']
            if not dev:
                raise GuestError('host %s has no rdma device (fabric "no-rxe"?)' % h)
            while True:
                idx = port_ready(self.sysfs_ib, self.hosts[h])
                if idx is not None:
                    self.gid[h] = idx
                    break
                if time.monotonic() > deadline:
                    raise GuestError('%s of host %s: no RoCEv2 GID of %s or port not ACTIVE after %d s'
                                     % (dev, h, ip, HOST_WAIT))
                self.check_stop()
                time.sleep(0.05)
        self.note('hosts ready: %s' % ', '.join('%s gid %d' % kv for kv in sorted(self.gid.items())))

    def open_sampler(self):
        cols = counter_columns(self.sc, self.desc)
        paths, header = [], ['t', 'wall']
        # the items with a throughput column: not the control-plane apps
        self.measured = [it for it in self.items if it.name in self.sources]
        for it in self.measured:
            s = self.sources[it.name]
            header.append('flow:%s' % it.name)
            paths.append(counter_path(self.sysfs, s['switch'], s['port'], 'port_rcv_data'))
        for col, sw, port, name, vl in cols:
            p = counter_path(self.sysfs, sw, port, name, vl)
            if not os.path.exists(p):
                what = 'VL %d of ' % vl if vl is not None else ''
                raise GuestError('counter %s: no %s%s/%d counter %s (%s)' % (
                    col, what, sw, port, name, p))
            header.append(col)
            paths.append(p)
        self.sampler = Sampler(paths)
        self.header = header
        self.late = LateRecorder(self.sysfs, self.desc,
                                 sched.known_edges(self.edge_list, [], None),
                                 self.sc.sample * 1e-6)
        for it in self.items:
            if it.kind == 'flow':
                it.mtu = host_link(self.desc, it.spec.src)[1]
        mtus = [it.mtu for it in self.items if it.kind == 'flow']
        self.start_words = sched.start_words(max(mtus or [4096]))
        if self.late.missing:
            self.note('xmit_late: no counter on %s: not known whether CPU-limited there'
                      % ' '.join(self.late.missing), show=True)
        if self.late.error:
            self.note('xmit_late: %s' % self.late.error, show=True)
        self.samples = open(os.path.join(self.dir, 'samples.csv'), 'w', buffering=1)
        self.samples.write(','.join(header) + '\n')
        self.samples.flush()
        self.last_row = None
        self.last_print = None

    def start_servers(self):
        os.makedirs(os.path.join(self.dir, 'flows'), exist_ok=True)
        for i, it in enumerate(self.items):
            it.port = PORT_BASE + i
            it.log = os.path.join(self.dir, 'flows', '%s.log' % it.name)
            if it.kind != 'flow':
                continue
            f = it.spec
            srv, _ = perftest_roles(f)
            h = self.hosts[srv]
            argv = perftest_argv(f, h['rdma_dev'], self.gid[srv], it.port,
                                 perftest_duration(f, self.sc.scale, self.slack(f)))
            it.server = Proc('server on %s' % srv, h['netns'], argv, it.log,
                             cpus=self.sc.cpus.get(srv))
            self.note('flow %s: server on %s (pid %d): %s' % (it.name, srv, it.server.pid, ' '.join(argv)))
        deadline = time.monotonic() + SERVER_WAIT
        for it in self.items:
            if it.server is None:
                continue
            files = ['/proc/%d/net/tcp' % it.server.pid, '/proc/%d/net/tcp6' % it.server.pid]
            while not tcp_listening(files, it.port):
                if not it.server.running():
                    raise GuestError('flow %s: the %s server exited (status %s) before listening; see %s'
                                     % (it.name, it.spec.verb, it.server.poll(),
                                        os.path.relpath(it.log, self.dir)))
                if time.monotonic() > deadline:
                    raise GuestError('flow %s: no server listening on port %d after %d s'
                                     % (it.name, it.port, SERVER_WAIT))
                self.check_stop()
                time.sleep(0.05)
        self.note('servers listening')

    def start_item(self, it):
        if it.kind == 'flow':
            f = it.spec
            srv, cli = perftest_roles(f)
            if not it.server.running():
                it.note = 'server exited (status %s) before the client started' % it.server.poll()
                self.note('flow %s: %s' % (it.name, it.note), show=True)
            h = self.hosts[cli]
            peer = self.hosts[srv].get('mgmt_ipv4') or self.hosts[srv]['ipv4']
            argv = perftest_argv(f, h['rdma_dev'], self.gid[cli], it.port,
                                 perftest_duration(f, self.sc.scale, self.slack(f)), peer)
            netns = h['netns']
            label = 'client on %s' % cli
            nice, cpus = 0, self.sc.cpus.get(cli)
        elif it.kind == 'mpi':
            cwd = os.path.join(self.dir, mpi.job_dir(it.name))
            os.makedirs(cwd, exist_ok=True)
            for path in it.spec.inputs:
                shutil.copy(path, cwd)
            argv = mpi.runner_argv(it.spec, MPIRUN, self.desc_path, cwd, self.sc.cpus)
            netns, label, nice, cpus = None, 'MPI job beside ibsw-run', 0, None
        else:
            try:
                argv = scenario.expand(it.spec.argv, self.hosts,
                                       {'dir': self.dir, 'scale': self.sc.scale,
                                        'root': self.root})
            except ValueError as e:
                raise GuestError('app %s: %s' % (it.name, e))
            if it.spec.host == scenario.CONTROL_HOST:
                netns, label = None, 'app beside ibsw-run'
            else:
                netns = desc_app_nodes(self.desc)[it.spec.host]['netns']
                label = 'app on %s' % it.spec.host
            nice, cpus = 0, self.sc.cpus.get(it.spec.host)
        it.started = self.now_emu()
        it.client = Proc(label, netns, argv, it.log, nice,
                         self.app_env if it.kind != 'flow' else None,
                         cwd if it.kind == 'mpi' else None, cpus)
        self.note('%s %s started (pid %d): %s' % (it.kind, it.name, it.client.pid, ' '.join(argv)))

    def stop_item(self, it):
        for p in it.procs():
            p.stop()
        if it.started is not None and it.stopped is None:
            it.stopped = self.now_emu()
            self.note('%s %s stopped' % (it.kind, it.name))

    def take_sample(self):
        a = time.monotonic()
        vals = self.sampler.read()
        b = time.monotonic()
        wall = (a + b) / 2 - self.t0
        t = wall / self.sc.scale
        self.samples.write('%.9f,%.6f,%s\n' % (t, wall, ','.join(map(str, vals))))
        self.samples.flush()
        if self.late and self.late.due(t):
            self.read_late()
        prev, self.last_row = self.last_row, (t, vals)
        if prev is not None and (self.last_print is None or b - self.last_print >= 1.0
                                 or t >= self.sc.duration - 1e-12):
            self.last_print = b
            parts = []
            for i, it in enumerate(self.measured):
                r = rate_gbps(prev[1][i], vals[i], prev[0], t)
                running = it.started is not None and it.stopped is None
                parts.append('%s %s' % (it.name, '%.2f' % r if r is not None and running else '-'))
            jobs = [job_progress(it.name, it.started, t, self.sc.scale,
                                 it.client.poll() if it.client else None)
                    for it in self.items if it.kind == 'mpi']
            self.progress('ibsw-run: t %s / %s%s%s' % (
                fmt_time(t, self.sc.duration), fmt_time(self.sc.duration, self.sc.duration),
                '  %s Gb/s' % '  '.join(parts) if parts else '',
                '  ' + '  '.join(jobs) if jobs else ''))

    def check_stop(self):
        if self.stop_requested():
            raise StopRequested()

    def slack(self, flow):
        """Wall seconds the schedule may be held while a flow runs."""
        return sched.perftest_slack(flow.start, flow.stop, [f.start for f in self.sc.flows],
                                    self.sc.start_timeout)

    def schedule_json(self):
        shift = sched.total_shift(self.groups)
        return {'start_timeout': self.sc.start_timeout, 'start_words': self.start_words,
                'groups': self.groups, 'shift': shift, 'end': self.sc.duration + shift,
                'holding': self.pending is not None,
                'not_started': {it.name: it.not_started for it in self.items if it.not_started}}

    def set_late_edges(self):
        """The window edges whose run time is known now (schedule.py)."""
        if not self.late:
            return
        pending = self.pending['scheduled'] if self.pending else None
        last = self.late.reads[-1]['t'] if self.late.reads else None
        self.late.edges = [e for e in sched.known_edges(self.edge_list, self.groups, pending)
                           if last is None or e > last + self.late.tol]

    def hold(self, scheduled, shift, flows):
        """Flows launched together: hold the rest of the schedule until
        each has measurably started (or the runner gave up on it)."""
        t, vals = self.last_row
        g = {'scheduled': scheduled, 'launched': min(it.started for it in flows),
             'flows': [it.name for it in flows], 'measured': {it.name: None for it in flows},
             'delay': None, 'failed': {}}
        self.groups.append(g)
        self.pending = {
            'scheduled': scheduled, 'shift': shift, 'group': g, 'flows': flows,
            'deadline_wall': time.monotonic() + self.sc.start_timeout,
            'series': {it.name: [(t, vals[self.measured.index(it)])] for it in flows},
            'resolved': {}}
        self.set_late_edges()
        self.note('holding the schedule until %s started' % ', '.join(g['flows']))

    def watch_starts(self):
        """After a sample or at the deadline: which held flows started."""
        p = self.pending
        t, vals = self.last_row
        now = self.now_emu()
        for it in p['flows']:
            if it.name in p['resolved']:
                continue
            series = p['series'][it.name]
            if series[-1][0] < t:
                series.append((t, vals[self.measured.index(it)]))
            ms = sched.measured_start(series, it.started, self.start_words)
            if ms is not None:
                it.settle()
                it.measured_start = ms
                p['group']['measured'][it.name] = ms
                p['resolved'][it.name] = ms
                self.note('flow %s started at t=%s (launched at %s)' % (
                    it.name, fmt_time(ms, self.sc.duration), fmt_time(it.started, self.sc.duration)))
                continue
            why = None
            if it.client is not None and it.client.poll() is not None:
                why = '%s exited (status %s) before it started' % (it.name, it.client.poll())
            elif time.monotonic() >= p['deadline_wall']:
                why = '%s did not start within %g s' % (it.name, self.sc.start_timeout)
            if why:
                it.settle()
                it.not_started = why
                p['group']['failed'][it.name] = why
                p['resolved'][it.name] = now
                self.note('flow %s: %s; the windows that should hold it are invalid' % (
                    it.name, why), show=True)
        if len(p['resolved']) < len(p['flows']):
            return
        g = p['group']
        g['delay'] = sched.group_delay(p['scheduled'], p['shift'], p['resolved'].values())
        self.pending = None
        self.set_late_edges()
        self.note('%s: schedule held %s: later starts, stops, windows and the end move by that '
                  '(shift %s)' % (
            ', '.join(g['flows']), fmt_time(g['delay'], self.sc.duration),
            fmt_time(sched.total_shift(self.groups), self.sc.duration)),
            show=self.sc.scale * g['delay'] >= 1.0)

    def schedule(self):
        """The run proper: samples, stops and starts in emulated time.
        Flows due at one time are launched together, then the rest of the
        schedule (later starts and stops, window edges, the end) is held
        until they have measurably started and moved by how late that was
        (schedule.py); sampling goes on meanwhile."""
        sc = self.sc
        starts = sorted(self.items, key=lambda it: it.spec.start)
        stops = sorted(self.items, key=lambda it: it.spec.stop)
        k = 0
        done = False
        self.t0 = time.monotonic()
        self.note('time zero', show=False)
        self.progress('ibsw-run: running %s emulated (%.0f s of wall-clock time at scale %d)' % (
            fmt_time(sc.duration, sc.duration), sc.duration * sc.scale, sc.scale))
        while True:
            shift = sched.total_shift(self.groups)
            holding = self.pending is not None
            end = sc.duration + shift
            cand = []
            ts = None
            if not done:
                ts = k * sc.sample
                if not holding and ts > end - sc.sample * 1e-6:
                    ts = end
                cand.append(ts)
            if holding:
                cand.append((self.pending['deadline_wall'] - self.t0) / sc.scale)
            else:
                if starts:
                    cand.append(starts[0].spec.start + shift)
                if stops:
                    cand.append(stops[0].spec.stop + shift)
            if not cand:
                break
            delay = self.t0 + min(cand) * sc.scale - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            # Due at the same time: the sample first (it closes the
            # interval before), then stops, then starts.
            now = self.now_emu() + 1e-12
            if ts is not None and ts <= now:
                self.take_sample()
                done = not holding and ts >= end
                # Behind schedule (a loaded CPU): skip the slots missed.
                late = self.now_emu()
                while k * sc.sample <= late:
                    k += 1
                self.check_stop()
            self.reap_all(block=False)
            self.check_exits()
            if self.mpi_done():
                self.take_sample()
                self.note('every MPI job has ended: the run ends at %s' % fmt_time(
                    self.now_emu(), sc.duration), show=True)
                break
            if self.pending is not None:
                self.watch_starts()
                continue
            while stops and stops[0].spec.stop + shift <= now:
                self.stop_item(stops.pop(0))
            if starts and starts[0].spec.start + shift <= now:
                s = starts[0].spec.start
                group = []
                while starts and starts[0].spec.start <= s + 1e-12:
                    group.append(starts.pop(0))
                    self.start_item(group[-1])
                flows = [it for it in group if it.kind == 'flow']
                if flows:
                    self.hold(s, shift, flows)
        self.note('run complete', show=False)

    def mpi_done(self):
        """Whether the scenario has MPI jobs and all of them have ended:
        the run is then over (the scenario's duration is its limit)."""
        jobs = [it for it in self.items if it.kind == 'mpi']
        return bool(jobs) and all(it.client is not None and not it.client.running()
                                  for it in jobs)

    def check_exits(self):
        for it in self.items:
            if it.client is None or it.stopped is not None or it.reported_exit:
                continue
            rc = it.client.poll()
            if rc is not None:
                it.reported_exit = True
                it.stopped = self.now_emu()
                if it.kind == 'flow' and it.spec.count and rc == 0:
                    self.note('flow %s: its %d messages sent at t=%s' % (
                        it.name, it.spec.count, fmt_time(it.stopped, self.sc.duration)))
                    continue
                self.note('%s %s: %s exited with status %d before its stop time; see flows/%s.log' % (
                    it.kind, it.name, it.client.argv[0], rc, it.name), show=rc != 0)

    def reap_all(self, block):
        """Escalate stops; with block, until every program is gone."""
        while True:
            now = time.monotonic()
            live = [p for it in self.items for p in it.procs() if not p.reap(now)]
            if not block or not live:
                return live
            time.sleep(0.05)

    def read_late(self):
        """Every port's xmit_late, after a sample (see LateRecorder)."""
        had = self.late.error
        self.late.read(lambda: time.monotonic() - self.t0, self.sc.scale)
        if self.late.error != had:
            self.note(self.late.error, show=True)

    def read_hca_counters(self):
        """Before the fabric takes the rxe devices away."""
        self.hca_counters = hca_counters(self.sysfs_ib, self.hosts)

    def teardown(self):
        # A run that stopped early closes its measurement at its last
        # sample, before the flows stop.
        if self.late and self.last_row and self.late.behind(self.last_row[0]):
            self.read_late()
        for it in self.items:
            self.stop_item(it)
        self.reap_all(block=True)
        if self.sampler:
            self.sampler.close()
            self.sampler = None
        if self.late:
            self.late.close()
        if self.samples:
            self.samples.close()
            self.samples = None
        if self.fabric_up:
            self.read_hca_counters()
            t = time.monotonic()
            rc = self.ibswctl_run(['fabric', 'down', 'desc', self.desc_path])
            if rc != 0:
                last = self.last_output.splitlines()[-1] if self.last_output else ''
                msg = 'ibswctl fabric down failed (exit %d): %s' % (rc, last)
                self.error = self.error or msg
                self.note(msg, show=True)
            else:
                self.fabric_up = False
                self.note('fabric down in %.1f s' % (time.monotonic() - t), show=True)

    def execute(self):
        """Everything, teardown included; the exit status: 0, 1 (error) or
        130 (stopped through DIR/.stop or a stop request)."""
        os.makedirs(self.dir, exist_ok=True)
        self.started_iso = datetime.datetime.now().astimezone().isoformat(timespec='seconds')
        self.log = open(os.path.join(self.dir, 'guest.log'), 'a')
        # SIGINT stays the caller's (ibsw-run --no-vm turns the first
        # Ctrl-C into a stop request).
        old = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
        signal.signal(signal.SIGTERM, _terminate)
        signal.signal(signal.SIGHUP, _terminate)
        try:
            self.note('scenario %s, kernel %s, %d CPUs, pid %d'
                      % (self.sc.path, os.uname().release, os.cpu_count(), os.getpid()))
            if self.sc.vcpus and self.sc.vcpus != os.cpu_count():
                self.note('the scenario asks for %d CPUs (vcpus), this machine has %d: its '
                          'results may differ from the VM\'s' % (self.sc.vcpus, os.cpu_count()),
                          show=True)
            have = os.sched_getaffinity(0)
            for host, cpus in sorted(self.sc.cpus.items()):
                if not set(cpus) <= have:
                    raise GuestError('cpus: host %s is placed on CPUs %s, this run may use %s'
                                     % (host, ','.join(map(str, cpus)),
                                        ','.join(map(str, sorted(have)))))
            self.write_run_json()
            self.check_stop()
            self.bring_up()
            self.write_run_json()
            self.check_stop()
            self.set_cc()
            self.read_cc_state()
            self.write_run_json()
            self.wait_hosts()
            self.open_sampler()
            self.start_servers()
            self.check_stop()
            self.schedule()
        except StopRequested:
            self.interrupted = True
            self.note('stop requested: stopping', show=True)
        except Terminated as e:
            self.interrupted = True
            self.error = 'terminated by %s' % e
            self.note(self.error, show=True)
        except GuestError as e:
            self.error = str(e)
            self.note('error: %s' % e, show=True)
        except Exception as e:		# a bug: still tear down, and say what
            self.error = '%s: %s' % (type(e).__name__, e)
            self.note('error: %s' % self.error, show=True)
            import traceback
            self.log.write(traceback.format_exc())
        finally:
            # A second signal must not cut the teardown short.
            for s in old:
                signal.signal(s, signal.SIG_IGN)
            try:
                self.teardown()
            finally:
                try:
                    self.write_run_json()
                except Exception as e:
                    self.note('cannot write run.json: %s' % e, show=True)
                self.log.close()
                try:
                    os.unlink(self.stop_path)
                except OSError:
                    pass
                for s, h in old.items():
                    signal.signal(s, h)
        if self.error and not self.interrupted:
            return 1
        return 130 if self.interrupted else 0


class StopRequested(Exception):
    """DIR/.stop exists (Ctrl-C on the host) or a stop was asked for."""


def _terminate(signum, frame):
    raise Terminated(signal.Signals(signum).name)


def run(sc, outdir, root, progress=None, stop_flag=None):
    """Run scenario sc into outdir; the exit status (0, 1 error, 130 stopped)."""
    return Run(sc, outdir, root, progress, stop_flag).execute()
