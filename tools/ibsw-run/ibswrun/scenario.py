# SPDX-License-Identifier: GPL-2.0
"""Scenario files (.scn): parse, check, describe.

A scenario names a topology, the flows and applications to run on it and
when, the switch counters to sample, and the windows and flow sets the
report summarises. Everything is checked here, on the host, before a VM
starts, so that a typo costs a second and not a boot: every error is
"FILE:LINE: reason" and names what is allowed. The format is documented in
Documentation/experiments.md.

The topology is read only for its node names and port counts;
"ibswctl fabric up" parses it for real in the VM.
"""

import dataclasses
import decimal
import os
import re
import shlex
import sys

from . import cct

NAME_RE = re.compile(r'[A-Za-z0-9_.-]+\Z')
KEYWORDS = ('name', 'topology', 'scale', 'fabric', 'duration', 'sample', 'start_timeout',
            'vcpus', 'cpus', 'cc', 'flow', 'app', 'mpi', 'counter', 'window', 'fairness')
SINGLE = ('name', 'topology', 'scale', 'fabric', 'duration', 'sample', 'start_timeout',
          'vcpus')
# vcpus: the test VM's CPU count for this scenario (scripts/vm --cpus),
# and 'parallel': one host thread per vCPU (multi-threaded TCG, QEMU 8.1 or
# later: scripts/qemu-parallel)
VCPUS_MAX = 64
# start_timeout: wall-clock seconds the runner waits for a launched flow
# to start (ibswrun.schedule); the default and the largest allowed
START_TIMEOUT = 60.0
START_TIMEOUT_MAX = 3600.0
VERBS = ('write', 'read', 'send')
# mpi lines: UCX transports (ibsw-mpirun --tls), the largest rank count,
# and the ranks' niceness (ibsw-mpirun --nice)
MPI_TLS = ('rc', 'ud')
MPI_NP_MAX = 1024
MPI_NICE_MAX = 19
# cc lines: the settings of `ibswctl cc set SW` and `cc set SW/PORT`, with
# the largest value of each number
CC_KEYS = {'switch': ('threshold', 'marking_rate', 'packet_size', 'victim_mask', 'fill_compare'),
           'port': ('valid', 'threshold', 'marking_rate', 'packet_size')}
CC_RANGES = {'threshold': 15, 'marking_rate': 65535, 'packet_size': 255}
# fill_compare: how a switch compares its VoQs' fill with the threshold
FILL_COMPARE = ('sum', 'voq', 'per_input', 'per-input')
# cc hca: rxe's congestion control settings (ports/1/cc in sysfs)
HCA_KEYS = ('port_control', 'sl', 'ccti_timer', 'ccti_increase', 'trigger_threshold',
            'ccti_min', 'cct', 'becn_coalesce')
HCA_RANGES = {'ccti_timer': 65535, 'ccti_increase': 255, 'trigger_threshold': 255,
              'ccti_min': 255}

# Per-port counters of Documentation/ABI/testing/sysfs-class-ibsw and the
# directory of ports/N/ that holds each; the per-VL ones live in
# ports/N/vls/V/counters/.
PORT_COUNTERS = {
    'port_xmit_data': 'counters',
    'port_rcv_data': 'counters',
    'port_xmit_packets': 'counters',
    'port_rcv_packets': 'counters',
    'port_xmit_wait': 'counters',
    'port_xmit_discards': 'counters',
    'port_rcv_errors': 'counters',
    'port_rcv_switch_relay_errors': 'counters',
    'port_rcv_constraint_errors': 'counters',
    'vl15_dropped': 'counters',
    'mkey_violations': 'counters',
    'excessive_buffer_overrun_errors': 'counters',
    'port_xmit_time_cong': 'counters',
    'port_xmit_fecn': 'counters',
    'port_rcv_fecn': 'counters',
    'port_rcv_becn': 'counters',
    'rcv_foreign': 'hw_counters',
    'rcv_vl_discards': 'hw_counters',
    'rcv_oversize': 'hw_counters',
    'neigh_replies': 'hw_counters',
    'hca_discards': 'hw_counters',
}
VL_COUNTERS = ('port_xmit_data', 'port_rcv_data', 'port_xmit_packets',
               'port_rcv_packets', 'port_xmit_wait', 'port_xmit_time_cong',
               'port_xmit_fecn')
DATA_COUNTERS = ('port_xmit_data', 'port_rcv_data')	# 32-bit words

DEFAULT_VLS = 4		# a switch port's data VLs unless "fabric vls N"
MAX_VLS = 15
# fabric words the runner leaves to the scenario; scale and desc are its own
FABRIC_OPTS = {'vls': (1, MAX_VLS), 'buffer': (1, 1 << 20),
               'mtu': (256, 9000), 'prefix': None, 'sm': ('opensm',),
               'routing-engine': None, 'sm-conf': None, 'qos': ('on', 'off'),
               'rdma-netns': ('shared', 'exclusive')}
# fabric words that name a file, relative to the scenario's directory
FABRIC_PATHS = ('sm-conf',)
# The DeviceID that makes an Hca record a management node (ibswctl's
# topology files): it runs apps (an SM, a manager), never flows
MGMT_DEVID = 0x1b5e

# {HOST.FIELD} in app commands -> member of the fabric description's host
PLACEHOLDERS = {'ip4': 'ipv4', 'ip6': 'ipv6', 'mgmt': 'mgmt_ipv4',
                'rdma': 'rdma_dev', 'dev': 'ifname', 'lid': 'lid'}
PLACEHOLDER_RE = re.compile(r'\{([^{}\s]+)\.([A-Za-z0-9_]+)\}')
# An app on host '-' runs beside ibsw-run, outside the hosts' namespaces:
# a fabric manager (dcms) that needs ibsw's control interface.
CONTROL_HOST = '-'
# {run.FIELD}: of the run itself, for any app; 'root' is the ibsw checkout
# (for its profiles: the VM sees it at the same path)
RUN_FIELDS = ('dir', 'scale', 'root')

SIZE_MAX = 8388608
# a fixed-size flow: perftest -n takes an int; bytes up to a TiB
COUNT_MAX = (1 << 31) - 1
BYTES_MAX = 1 << 40
TIME_RE = re.compile(r'(\d+(?:\.\d*)?|\.\d+)(?:[eE]([-+]?\d+))?(s|ms|us)?\Z')
TIME_UNITS = {None: 1, 's': 1, 'ms': decimal.Decimal('0.001'),
              'us': decimal.Decimal('0.000001')}


class ScenarioError(ValueError):
    """A bad scenario: str() is "FILE:LINE: reason" ("FILE: reason" when
    no single line is at fault, line None)."""

    def __init__(self, path, line, reason):
        self.path, self.line, self.reason = path, line, reason
        where = f'{path}:{line}' if line else path
        super().__init__(f'{where}: {reason}')


class _Bad(Exception):
    """A reason without a place; load() adds the file and line."""


@dataclasses.dataclass
class Flow:
    name: str
    src: str
    dst: str
    verb: str
    size: int
    sl: int
    qps: int
    start: float
    stop: float
    line: int
    count: object = None	# messages of a fixed-size flow, None: it runs to its stop


@dataclasses.dataclass
class App:
    name: str
    host: str
    start: float
    stop: float
    argv: list
    line: int


@dataclasses.dataclass
class MpiJob:
    """An mpi line: PROGRAM run by ibsw-mpirun on HOSTS, with the input
    files copied into its working directory (mpi/NAME/ of the results)."""
    name: str
    hosts: list
    np: object		# None: one rank per host
    tls: str
    sl: int
    start: float
    stop: float
    inputs: list
    argv: list
    line: int
    nice: object = None	# None: ibsw-mpirun's default


@dataclasses.dataclass
class CcSetting:
    """A cc line: ibswctl cc set SWITCH[/PORT] ARGS (ibccconfig's words)."""
    switch: str
    port: object	# None: the switch's settings; an int: that port's
    args: list
    line: int


@dataclasses.dataclass
class HcaSetting:
    """A cc hca line: rxe congestion control on for HOST (or every host,
    '*'), with these settings (HCA_KEYS, validated)."""
    host: str
    opts: dict
    line: int


@dataclasses.dataclass
class Counter:
    switch: str
    port: object	# int, or '*' for every connected port
    name: str
    vl: object		# int or None
    line: int


@dataclasses.dataclass
class Fairness:
    name: str
    flows: list
    windows: list
    line: int = 0


@dataclasses.dataclass
class Scenario:
    name: str
    path: str
    topology: str
    scale: int
    fabric_args: list
    duration: float
    sample: float
    cc: str
    cc_settings: list
    flows: list
    apps: list
    counters: list
    windows: dict
    fairness: list
    hosts: dict
    switches: dict
    warnings: list
    hca_settings: list = dataclasses.field(default_factory=list)
    start_timeout: float = START_TIMEOUT
    mpi: list = dataclasses.field(default_factory=list)
    vcpus: object = None	# None: scripts/vm's default
    parallel: bool = False	# vcpus N parallel
    cpus: dict = dataclasses.field(default_factory=dict)	# host -> [cpu, ...]


def parse_time(word):
    """'20ms', '0.02', '20e-3s' -> seconds as the float nearest the
    decimal value (so '2.3ms' is exactly float('0.0023'))."""
    m = TIME_RE.match(word)
    if not m:
        raise _Bad(f"bad time '{word}' (a number with an optional unit s, ms or us, "
                   "e.g. 0.02 or 20ms)")
    value = decimal.Decimal(m.group(1))
    if m.group(2):
        value = value.scaleb(int(m.group(2)))
    return float(value * TIME_UNITS[m.group(3)])


def parse_int(word, lo, hi, what):
    """A decimal integer in [lo, hi]; the message says which range."""
    if not re.fullmatch(r'\d+', word):
        raise _Bad(f"bad {what} '{word}' (an integer, {lo} to {hi})")
    value = int(word)
    if not lo <= value <= hi:
        raise _Bad(f'{what} {value} out of range ({lo} to {hi})')
    return value


def parse_cpu_list(word):
    """'0', '0-1', '0,2-3' (taskset -c's lists) -> sorted CPU numbers."""
    cpus = set()
    for part in word.split(','):
        m = re.fullmatch(r'(\d+)(?:-(\d+))?', part)
        if not m:
            raise _Bad(f"bad CPU list '{word}' (numbers and ranges: 0, 0-1, 0,2-3)")
        lo = int(m.group(1))
        hi = lo if m.group(2) is None else int(m.group(2))
        if lo > hi or hi >= VCPUS_MAX:
            raise _Bad(f"bad CPU range '{part}' in '{word}' (LOW-HIGH, below {VCPUS_MAX})")
        cpus.update(range(lo, hi + 1))
    return sorted(cpus)


def parse_size(word):
    """Bytes, optionally with K/KiB or M/MiB (binary)."""
    m = re.fullmatch(r'(\d+)(K|KiB|M|MiB)?', word)
    if not m:
        raise _Bad(f"bad size '{word}' (bytes, 1 to {SIZE_MAX}; K and M suffixes allowed)")
    value = int(m.group(1)) * {None: 1, 'K': 1024, 'KiB': 1024,
                               'M': 1 << 20, 'MiB': 1 << 20}[m.group(2)]
    if not 1 <= value <= SIZE_MAX:
        raise _Bad(f'size {value} out of range (1 to {SIZE_MAX} bytes)')
    return value


def parse_bytes(word):
    """A fixed-size flow's bytes, with K, M or G (binary)."""
    m = re.fullmatch(r'(\d+)(K|KiB|M|MiB|G|GiB)?', word)
    if not m:
        raise _Bad(f"bad byte count '{word}' (bytes; K, M and G suffixes allowed)")
    value = int(m.group(1)) * {None: 1, 'K': 1 << 10, 'KiB': 1 << 10, 'M': 1 << 20,
                               'MiB': 1 << 20, 'G': 1 << 30, 'GiB': 1 << 30}[m.group(2)]
    if not 1 <= value <= BYTES_MAX:
        raise _Bad(f'bytes {value} out of range (1 to {BYTES_MAX})')
    return value


def fmt_time(t):
    """Seconds for messages and tables: '15ms', '2us', '1.5s', '0'."""
    if t == 0:
        return '0'
    for unit, factor in (('s', 1), ('ms', 1e3), ('us', 1e6)):
        v = t * factor
        if v >= 1 or unit == 'us':
            return f'{v:.6g}{unit}'
    return f'{t}s'


def node_ident(name, kind, index):
    """ibswctl's identifier of a node (tools/lib topo_node.ident): the name
    if short and safe, else s<N>/h<N>. ibsw switches are named by it."""
    if re.fullmatch(r'[A-Za-z0-9][A-Za-z0-9_-]{0,9}', name):
        return name
    return f'{"s" if kind == "switch" else "h"}{index}'


def read_topology(path, mgmt=None):
    """(switches, hosts, aliases) of a topology file: {ident: nports} for
    switches, {name: nports} for HCAs, and a map of every name and
    identifier to the one used here. Only the record headers are read, and
    the devid= line before one: the names of management nodes go into the
    set mgmt, if given."""
    header = re.compile(r'\s*(Switch|Hca|Ca)\s+(\d+)\s+"([^"]+)"')
    devid_re = re.compile(r'\s*devid\s*=\s*(0[xX][0-9a-fA-F]+|\d+)\s*(#.*)?$')
    switches, hosts, aliases = {}, {}, {}
    counts = {'switch': 0, 'hca': 0}
    devid = None
    with open(path, encoding='utf-8', errors='replace') as f:
        for text in f:
            d = devid_re.match(text)
            if d:
                devid = int(d.group(1), 0)
                continue
            m = header.match(text)
            if not m:
                continue
            if devid == MGMT_DEVID and m.group(1) != 'Switch' and mgmt is not None:
                mgmt.add(m.group(3))
            devid = None
            kind = 'switch' if m.group(1) == 'Switch' else 'hca'
            counts[kind] += 1
            name, nports = m.group(3), int(m.group(2))
            ident = node_ident(name, kind, counts[kind])
            if kind == 'switch':
                switches[ident] = nports
                aliases[('switch', name)] = ident
                aliases[('switch', ident)] = ident
            else:
                hosts[name] = nports
                aliases[('hca', name)] = name
                aliases.setdefault(('hca', ident), name)
    return switches, hosts, aliases


def _opts(words, allowed, what):
    """Parse 'key value' pairs of a flow or app; each key at most once."""
    out = {}
    i = 0
    while i < len(words):
        key = words[i]
        if key not in allowed:
            raise _Bad(f"unknown {what} option '{key}' ({' '.join(allowed)})")
        if key in out:
            raise _Bad(f"{what} option '{key}' given twice")
        if i + 1 >= len(words):
            raise _Bad(f"{what} option '{key}' needs a value")
        out[key] = words[i + 1]
        i += 2
    return out


def _name(word, what):
    if not NAME_RE.match(word):
        raise _Bad(f"bad {what} name '{word}' (letters, digits, '_', '.', '-')")
    return word


class _Parser:
    """One pass over the lines collecting raw records, then checks that
    need the whole file (the topology, the duration, the names)."""

    def __init__(self, path, text=None):
        self.path = path
        self.text = text	# None: read the file
        self.single = {}	# keyword -> (line, words)
        self.flows, self.apps, self.counters, self.mpi = [], [], [], []
        self.windows, self.fairness = [], []
        self.cc_off, self.cc_settings, self.hca_settings = None, [], []
        self.cpus = []		# (line, hosts, cpu list)
        self.warnings = []

    def fail(self, line, reason):
        raise ScenarioError(self.path, line, reason)

    def read(self):
        try:
            if self.text is None:
                with open(self.path, encoding='utf-8') as f:
                    self.text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            reason = getattr(e, 'strerror', None) or str(e)
            raise ScenarioError(self.path, None, f'cannot read: {reason}') from e
        # not splitlines(): it also splits at form feeds and the like, and
        # the line numbers would not be an editor's
        lines = self.text.split('\n')
        for no, text in enumerate(lines, 1):
            if '\0' in text:
                self.fail(no, 'NUL byte in the line')
            try:
                lex = shlex.shlex(text, posix=True)
                lex.whitespace_split = True
                lex.commenters = '#'
                words = list(lex)
            except ValueError as e:
                self.fail(no, f'{str(e).lower()} (quotes must be closed on their line)')
            if not words:
                continue
            try:
                self.line(no, words)
            except _Bad as e:
                self.fail(no, str(e))

    def line(self, no, words):
        key, args = words[0], words[1:]
        if key in ('sweep', 'repeat'):
            raise _Bad(f"'{key}' makes the file a sweep, which ibsw-run runs point by point "
                       '(ibswrun.sweep); a single run cannot take it')
        if key in ('when', 'plot', 'timelines'):
            raise _Bad(f"'{key}' belongs to a sweep (ibswrun.sweep): 'when' chooses the lines "
                       "of its points, 'plot' what its sweep.png draws, 'timelines' which "
                       'points its timelines.png draws; a single run cannot take it')
        if key not in KEYWORDS:
            raise _Bad(f"unknown keyword '{key}' ({' '.join(KEYWORDS)})")
        if key in SINGLE:
            if key in self.single:
                raise _Bad(f"'{key}' given twice (first at line {self.single[key][0]})")
            self.single[key] = (no, args)
            want = {'name': 1, 'topology': 1, 'scale': 1, 'duration': 1,
                    'sample': 1, 'start_timeout': 1}.get(key)
            if want is not None and len(args) != want:
                raise _Bad(f"'{key}' takes one value, {len(args)} given")
            if key == 'vcpus' and (len(args) not in (1, 2) or args[1:] not in ([], ['parallel'])):
                raise _Bad("'vcpus' takes a CPU count and optionally 'parallel' (vcpus 2 parallel)")
            if key == 'fabric' and not args:
                raise _Bad("'fabric' needs words for ibswctl fabric up (e.g. vls 4 buffer 256)")
            return
        getattr(self, 'rec_' + key)(no, args)

    # Records with syntax checked now, meaning checked in finish().
    def rec_flow(self, no, args):
        if len(args) < 4:
            raise _Bad('flow needs NAME SRC DST VERB [size BYTES] [sl SL] [qps N] '
                       '[start T] [stop T] [count N | bytes B]')
        name = _name(args[0], 'flow')
        verb = args[3]
        if verb not in VERBS:
            raise _Bad(f"unknown verb '{verb}' (write, read or send)")
        opts = _opts(args[4:], ('size', 'sl', 'qps', 'start', 'stop', 'count', 'bytes'),
                     'flow')
        size = parse_size(opts['size']) if 'size' in opts else 65536
        qps = parse_int(opts['qps'], 1, 64, 'QP count') if 'qps' in opts else 1
        count = None
        if 'count' in opts and 'bytes' in opts:
            raise _Bad('a fixed-size flow takes count (messages) or bytes, not both')
        if 'count' in opts:
            count = parse_int(opts['count'], 1, COUNT_MAX, 'message count')
        elif 'bytes' in opts:
            # whole messages of the flow's size, at least the bytes asked
            total = parse_bytes(opts['bytes'])
            count = -(-total // size)
            if count > COUNT_MAX:
                raise _Bad(f'bytes {total}: {count} messages of {size} bytes, more than '
                           f'{COUNT_MAX}')
        if count is not None and qps > 1:
            raise _Bad('a fixed-size flow (count, bytes) has one QP (perftest counts '
                       'messages per QP)')
        flow = Flow(name, args[1], args[2], verb, size,
                    parse_int(opts['sl'], 0, 15, 'SL') if 'sl' in opts else 0, qps,
                    parse_time(opts['start']) if 'start' in opts else 0.0,
                    parse_time(opts['stop']) if 'stop' in opts else None, no, count)
        self.flows.append(flow)

    def rec_app(self, no, args):
        if '--' not in args:
            raise _Bad('app needs NAME HOST [start T] [stop T] -- COMMAND...')
        cut = args.index('--')
        head, argv = args[:cut], args[cut + 1:]
        if len(head) < 2:
            raise _Bad('app needs NAME HOST before --')
        if not argv:
            raise _Bad('app needs a command after --')
        opts = _opts(head[2:], ('start', 'stop'), 'app')
        self.apps.append(App(_name(head[0], 'app'), head[1],
                             parse_time(opts['start']) if 'start' in opts else 0.0,
                             parse_time(opts['stop']) if 'stop' in opts else None,
                             argv, no))

    def rec_mpi(self, no, args):
        usage = ('mpi needs NAME HOST,HOST... [np N] [tls rc|ud] [sl SL] [nice N] [start T] '
                 '[stop T] [in FILE,...] -- PROGRAM...')
        if '--' not in args:
            raise _Bad(usage)
        cut = args.index('--')
        head, argv = args[:cut], args[cut + 1:]
        if len(head) < 2:
            raise _Bad(usage)
        if not argv:
            raise _Bad('mpi needs a program after --')
        opts = _opts(head[2:], ('np', 'tls', 'sl', 'nice', 'start', 'stop', 'in'), 'mpi')
        hosts = head[1].split(',')
        if '' in hosts:
            raise _Bad(f"bad host list '{head[1]}' (HOST,HOST,... without blanks)")
        tls = opts.get('tls', 'rc')
        if tls not in MPI_TLS:
            raise _Bad(f"unknown mpi tls '{tls}' ({' '.join(MPI_TLS)})")
        inputs = []
        for word in opts['in'].split(',') if 'in' in opts else []:
            path = os.path.abspath(os.path.join(os.path.dirname(self.path), word))
            if not os.path.isfile(path) or not os.access(path, os.R_OK):
                raise _Bad(f"mpi input '{word}' ({path}) is not a readable file (the path "
                           "is relative to the scenario file's directory)")
            if os.path.basename(path) in [os.path.basename(p) for p in inputs]:
                raise _Bad(f"two mpi inputs named {os.path.basename(path)}: they go into "
                           'one directory')
            inputs.append(path)
        self.mpi.append(MpiJob(
            _name(head[0], 'mpi'), hosts,
            parse_int(opts['np'], 1, MPI_NP_MAX, 'rank count') if 'np' in opts else None,
            tls, parse_int(opts['sl'], 0, 15, 'SL') if 'sl' in opts else 0,
            parse_time(opts['start']) if 'start' in opts else 0.0,
            parse_time(opts['stop']) if 'stop' in opts else None, inputs, argv, no,
            parse_int(opts['nice'], 0, MPI_NICE_MAX, 'niceness') if 'nice' in opts else None))

    def rec_cc(self, no, args):
        if args == ['off']:
            if self.cc_off:
                raise _Bad(f"'cc off' given twice (first at line {self.cc_off})")
            self.cc_off = no
            return
        if not args:
            raise _Bad('cc needs off, switch SW|* SETTING..., port SW/PORT SETTING..., '
                       'or hca HOST|* SETTING...')
        kind, rest = args[0], args[1:]
        if kind == 'on':
            raise _Bad("say what to turn on: cc switch SW|* threshold T marking_rate R ..., "
                       "and cc hca HOST|* ccti_increase I ccti_timer T cct TABLE ...")
        if kind == 'hca':
            self.rec_cc_hca(no, rest)
            return
        if kind not in CC_KEYS:
            raise _Bad(f"bad cc '{kind}' (off, switch, port or hca)")
        if not rest:
            raise _Bad(f'cc {kind} needs ' + ('SW or *' if kind == 'switch' else 'SW/PORT'))
        target, words = rest[0], rest[1:]
        if kind == 'switch':
            sw, port = target, None
        else:
            m = re.fullmatch(r'([^/]+)/(\d+)', target)
            if not m:
                raise _Bad(f"bad port '{target}' (SW/PORT)")
            sw, port = m.group(1), int(m.group(2))
        if not words:
            raise _Bad(f"cc {kind} {target} needs settings ({' '.join(CC_KEYS[kind])})")
        opts = _opts(words, CC_KEYS[kind], f'cc {kind}')
        for key, value in opts.items():
            if key == 'valid':
                if value not in ('on', 'off'):
                    raise _Bad(f"bad valid '{value}' (on or off)")
            elif key == 'fill_compare':
                if value not in FILL_COMPARE:
                    raise _Bad(f"bad fill_compare '{value}' (sum, voq or per_input)")
            elif key == 'victim_mask':
                if not re.fullmatch(r'(0x)?[0-9a-fA-F]{1,64}|ports:[0-9,-]+', value):
                    raise _Bad(f"bad victim_mask '{value}' (a hex number of up to 256 bits, "
                               'or ports:LIST such as ports:1,3-5)')
            else:
                parse_int(value, 0, CC_RANGES[key], key)
        self.cc_settings.append(CcSetting(sw, port, words, no))

    def rec_cc_hca(self, no, rest):
        if not rest:
            raise _Bad('cc hca needs HOST or *')
        target, words = rest[0], rest[1:]
        if not words:
            raise _Bad(f"cc hca {target} needs settings ({' '.join(HCA_KEYS)}) or 'on'")
        if words == ['on']:
            # the settings the device has (an SM's): only enable them
            self.hca_settings.append(HcaSetting(target, {}, no))
            return
        opts = _opts(words, HCA_KEYS, 'cc hca')
        for key, value in opts.items():
            if key == 'port_control':
                if value not in ('qp', 'sl'):
                    raise _Bad(f"bad port_control '{value}' (qp or sl)")
            elif key == 'becn_coalesce':
                if value not in ('on', 'off'):
                    raise _Bad(f"bad becn_coalesce '{value}' (on or off)")
            elif key == 'sl':
                if value != 'all':
                    parse_int(value, 0, 15, 'sl')
            elif key == 'cct':
                try:
                    cct.parse_spec(value)
                except cct.CctError as e:
                    raise _Bad(f'{e} (cct SHIFT:MULT,... or SHAPE[:ENTRIES[:COEF_US]], '
                               f"shapes {', '.join(cct.SHAPES)})") from None
            else:
                parse_int(value, 0, HCA_RANGES[key], key)
        if 'sl' in opts and not any(k in opts for k in HCA_RANGES):
            raise _Bad('cc hca sl N selects the SL of ccti_timer, ccti_increase, '
                       'trigger_threshold and ccti_min: give one of them')
        self.hca_settings.append(HcaSetting(target, opts, no))

    def rec_cpus(self, no, args):
        if len(args) != 2:
            raise _Bad('cpus needs HOST,HOST...|* CPU-LIST (e.g. cpus H1,H4 0 or cpus * 0-1)')
        hosts = args[0].split(',')
        if '' in hosts:
            raise _Bad(f"bad host list '{args[0]}' (HOST,HOST,... without blanks, or *)")
        self.cpus.append((no, hosts, parse_cpu_list(args[1])))

    def rec_counter(self, no, args):
        if len(args) < 2:
            raise _Bad('counter needs SW/PORT NAME... (PORT a number or *)')
        m = re.fullmatch(r'([^/]+)/(\d+|\*)', args[0])
        if not m:
            raise _Bad(f"bad port '{args[0]}' (SW/PORT, PORT a number or *)")
        port = '*' if m.group(2) == '*' else int(m.group(2))
        for word in args[1:]:
            name, at, vl = word.partition('@')
            if name not in PORT_COUNTERS:
                raise _Bad(f"unknown counter '{name}' ({' '.join(PORT_COUNTERS)})")
            if at:
                if name not in VL_COUNTERS:
                    raise _Bad(f"counter '{name}' has no per-VL value "
                               f"(per VL: {' '.join(VL_COUNTERS)})")
                vl = parse_int(vl, 0, MAX_VLS - 1, 'VL')
            else:
                vl = None
            self.counters.append(Counter(m.group(1), port, name, vl, no))

    def rec_window(self, no, args):
        if len(args) != 3:
            raise _Bad('window needs NAME START STOP')
        name = _name(args[0], 'window')
        if name == 'run':
            raise _Bad("window name 'run' is reserved (the whole run)")
        self.windows.append((name, parse_time(args[1]), parse_time(args[2]), no))

    def rec_fairness(self, no, args):
        if len(args) not in (2, 3):
            raise _Bad('fairness needs NAME FLOW,FLOW,... [WINDOW,WINDOW,...]')
        flows = args[1].split(',')
        windows = args[2].split(',') if len(args) == 3 else None
        if '' in flows or (windows and '' in windows):
            raise _Bad('empty name in a comma-separated list')
        if len(flows) < 2:
            raise _Bad('a fairness set needs at least two flows')
        for f in flows:
            if flows.count(f) > 1:
                raise _Bad(f"flow '{f}' twice in the fairness set")
        self.fairness.append(Fairness(_name(args[0], 'fairness set'), flows, windows, no))

    def finish(self):
        """The checks that need the whole file; in line order where the
        order is free, so the first error reported is the first in the file."""
        def single(key):
            return self.single.get(key, (None, None))

        name_no, name = single('name')
        if name is not None:
            try:
                name = _name(name[0], 'scenario')
            except _Bad as e:
                self.fail(name_no, str(e))
        else:
            name = os.path.basename(self.path)
            name = name[:-4] if name.endswith('.scn') else name

        topo_no, topo = single('topology')
        if topo is None:
            self.fail(None, "no 'topology' line (topology PATH, relative to this file)")
        topology = os.path.abspath(os.path.join(os.path.dirname(self.path), topo[0]))
        mgmt = set()
        try:
            switches, hosts, aliases = read_topology(topology, mgmt)
        except OSError as e:
            where = '' if os.path.isabs(topo[0]) else f' ({topology})'
            self.fail(topo_no, f'cannot read topology {topo[0]}{where}: {e.strerror} '
                      "(the path is relative to the scenario file's directory)")
        if not switches:
            self.fail(topo_no, f'topology {topo[0]} has no switches (Switch N "name")')
        if not set(hosts) - mgmt:
            self.fail(topo_no, f'topology {topo[0]} has no hosts (Hca N "name")')

        dur_no, dur = single('duration')
        if dur is None:
            self.fail(None, "no 'duration' line (duration T, e.g. 20ms)")
        duration = self.at(dur_no, parse_time, dur[0])
        if duration <= 0:
            self.fail(dur_no, 'duration must be > 0')

        scale_no, scale = single('scale')
        scale = 1000 if scale is None else self.at(scale_no, parse_int, scale[0], 1, 10000,
                                                   'time scale')
        sample_no, sample = single('sample')
        if sample is None:
            sample = duration / 100
        else:
            sample = self.at(sample_no, parse_time, sample[0])
            if not 0 < sample <= duration:
                self.fail(sample_no, f'sample interval {fmt_time(sample)} must be > 0 and '
                          f'<= the duration ({fmt_time(duration)})')
        st_no, start_timeout = single('start_timeout')
        if start_timeout is None:
            start_timeout = START_TIMEOUT
        else:
            start_timeout = self.at(st_no, parse_time, start_timeout[0])
            if not 0 < start_timeout <= START_TIMEOUT_MAX:
                self.fail(st_no, f'start_timeout {start_timeout:g} s must be > 0 and <= '
                          f'{START_TIMEOUT_MAX:g} s (wall-clock seconds)')
        vcpus_no, vcpus = single('vcpus')
        parallel = False
        if vcpus is not None:
            parallel = vcpus[1:] == ['parallel']
            vcpus = self.at(vcpus_no, parse_int, vcpus[0], 1, VCPUS_MAX, 'VM CPU count')
        if self.cc_off and (self.cc_settings or self.hca_settings):
            first = (self.cc_settings or self.hca_settings)[0].line
            self.fail(first, f"cc settings and 'cc off' (line {self.cc_off}): drop one "
                      'or the other')
        for c in self.cc_settings:
            if c.switch == '*' and c.port is None:
                continue
            sw = aliases.get(('switch', c.switch))
            if sw is None:
                self.fail(c.line, f"unknown switch '{c.switch}' (topology switches: "
                          f"{' '.join(switches)}{', or *' if c.port is None else ''})")
            c.switch = sw
            if c.port is not None and not 1 <= c.port <= switches[sw]:
                self.fail(c.line, f'port {c.port} out of range for switch {sw} '
                          f'(1 to {switches[sw]})')
        fab_no, fabric_args = single('fabric')
        fabric_args = fabric_args or []
        vls = self.fabric_vls(fab_no, fabric_args)
        if 'sm' in fabric_args[::2] and not mgmt:
            self.fail(fab_no, f'fabric sm: topology {topo[0]} has no management node '
                      f'(an Hca record after devid=0x{MGMT_DEVID:x})')
        fabric_args, sm_cc = self.fabric_files(fab_no, fabric_args)
        if sm_cc and self.cc_off:
            self.fail(self.cc_off, "'cc off', but the sm-conf says congestion_control "
                      'TRUE: drop one or the other')

        def host(no, word, what):
            h = aliases.get(('hca', word))
            if h is None:
                self.fail(no, f"unknown {what} host '{word}' (topology hosts: "
                          f"{' '.join(hosts)})")
            if h in mgmt and what not in ('app', 'cpus'):
                self.fail(no, f"{what} host '{word}' is a management node "
                          f'(devid=0x{MGMT_DEVID:x}): it runs apps, not flows')
            return h

        def times(obj, what):
            if obj.stop is None:
                obj.stop = duration
            if not 0 <= obj.start < obj.stop <= duration:
                self.fail(obj.line, f'{what} {obj.name}: need 0 <= start < stop <= duration, '
                          f'got start {fmt_time(obj.start)}, stop {fmt_time(obj.stop)}, '
                          f'duration {fmt_time(duration)}')

        names = {}
        items = sorted(self.flows + self.apps + self.mpi, key=lambda o: o.line)
        for obj in items:
            what = {Flow: 'flow', App: 'app', MpiJob: 'mpi'}[type(obj)]
            if obj.name in names:
                self.fail(obj.line, f"duplicate flow/app/mpi name '{obj.name}' "
                          f'(first at line {names[obj.name].line})')
            names[obj.name] = obj
            if what == 'mpi':
                obj.hosts = [host(obj.line, h, 'mpi') for h in obj.hosts]
                dup = {h for h in obj.hosts if obj.hosts.count(h) > 1}
                if dup:
                    self.fail(obj.line, f"mpi {obj.name}: host {min(dup)} listed twice")
            elif what == 'flow':
                obj.src = host(obj.line, obj.src, 'source')
                obj.dst = host(obj.line, obj.dst, 'destination')
                if obj.src == obj.dst:
                    self.fail(obj.line, f'flow {obj.name}: source and destination are both '
                              f'{obj.src}')
            else:
                if obj.host != CONTROL_HOST:
                    obj.host = host(obj.line, obj.host, 'app')
                for word in obj.argv:
                    for m in PLACEHOLDER_RE.finditer(word):
                        if m.group(1) == 'run':
                            if m.group(2) not in RUN_FIELDS:
                                self.fail(obj.line, f"unknown field '{m.group(2)}' in placeholder "
                                          f"'{m.group(0)}' ({' '.join(RUN_FIELDS)})")
                            continue
                        if ('hca', m.group(1)) not in aliases:
                            self.fail(obj.line, f"unknown host '{m.group(1)}' in "
                                      f"placeholder '{m.group(0)}' (hosts: {' '.join(hosts)})")
                        if m.group(2) not in PLACEHOLDERS:
                            self.fail(obj.line, f"unknown field '{m.group(2)}' in placeholder "
                                      f"'{m.group(0)}' ({' '.join(PLACEHOLDERS)})")
            times(obj, what)
        self.overlaps([o for o in items if not isinstance(o, MpiJob)])

        seen = {}
        for c in self.counters:
            sw = aliases.get(('switch', c.switch))
            if sw is None:
                self.fail(c.line, f"unknown switch '{c.switch}' (topology switches: "
                          f"{' '.join(switches)})")
            c.switch = sw
            if c.port != '*' and not 1 <= c.port <= switches[sw]:
                self.fail(c.line, f'port {c.port} out of range for switch {sw} '
                          f'(1 to {switches[sw]}, or *)')
            if c.vl is not None and c.vl >= vls:
                self.fail(c.line, f'VL {c.vl} is not operated: ports have {vls} data VLs '
                          f'(VL 0 to {vls - 1}; more with "fabric vls N")')
            key = (c.switch, c.port, c.name, c.vl)
            if key in seen:
                self.fail(c.line, f'counter {counter_key(c)} listed twice '
                          f'(first at line {seen[key]})')
            seen[key] = c.line

        windows = {'run': (0.0, duration)}
        wlines = {}
        for wname, start, stop, no in self.windows:
            if wname in windows:
                self.fail(no, f"duplicate window '{wname}' (first at line {wlines[wname]})")
            if not 0 <= start < stop <= duration:
                self.fail(no, f'window {wname}: need 0 <= start < stop <= duration, got '
                          f'{fmt_time(start)} to {fmt_time(stop)}, duration {fmt_time(duration)}')
            windows[wname] = (start, stop)
            wlines[wname] = no

        fnames = {}
        for fs in self.fairness:
            if fs.name in fnames:
                self.fail(fs.line, f"duplicate fairness set '{fs.name}' "
                          f'(first at line {fnames[fs.name]})')
            fnames[fs.name] = fs.line
            for f in fs.flows:
                if isinstance(names.get(f), MpiJob):
                    self.fail(fs.line, f"mpi job '{f}' in fairness set {fs.name}: it has no "
                              'throughput of its own (only flows and apps do)')
                if f not in names:
                    self.fail(fs.line, f"unknown flow '{f}' in fairness set {fs.name} "
                              f"(flows and apps: {' '.join(names) or 'none'})")
            if fs.windows is None:
                fs.windows = list(windows)
            for w in fs.windows:
                if w not in windows:
                    self.fail(fs.line, f"unknown window '{w}' in fairness set {fs.name} "
                              f"(windows: {' '.join(windows)})")
                if fs.windows.count(w) > 1:
                    self.fail(fs.line, f"window '{w}' twice in fairness set {fs.name}")

        for c in self.hca_settings:
            if c.host != '*':
                c.host = host(c.line, c.host, 'cc hca')
        placed, placed_at = {}, {}
        for no, words, cpu_list in self.cpus:
            if vcpus is None:
                self.fail(no, "cpus places hosts' programs on the VM's CPUs: it needs a "
                          "vcpus line, their number (e.g. vcpus 2 parallel)")
            if max(cpu_list) >= vcpus:
                self.fail(no, f'CPU {max(cpu_list)}: the VM has {vcpus} (vcpus {vcpus}: '
                          f'0 to {vcpus - 1})')
            names = [h for h in hosts if h not in mgmt] if words == ['*'] else \
                [host(no, w, 'cpus') for w in words]
            for h in names:
                if h in placed_at:
                    self.fail(no, f'host {h} placed twice (first at line {placed_at[h]})')
                placed[h], placed_at[h] = cpu_list, no
        cc = ' + '.join(what for what, on in (('switch marking', self.cc_settings or sm_cc),
                                               ('HCA', self.hca_settings)) if on) or 'off'
        if sm_cc:
            cc += ' (OpenSM)'
        return Scenario(name, self.path, topology, scale, list(fabric_args), duration, sample,
                        cc, self.cc_settings, self.flows, self.apps, self.counters, windows, self.fairness,
                        hosts, switches, self.warnings, self.hca_settings, start_timeout,
                        self.mpi, vcpus, parallel, placed)

    def at(self, no, func, *args):
        try:
            return func(*args)
        except _Bad as e:
            self.fail(no, str(e))

    def fabric_vls(self, no, words):
        """Check the words for ibswctl fabric up; return the VLs a port
        will operate."""
        vls = DEFAULT_VLS
        i = 0
        while i < len(words):
            key = words[i]
            if key in ('scale', 'desc'):
                self.fail(no, f"fabric: '{key}' is set by ibsw-run"
                          + (" (use the 'scale' line)" if key == 'scale' else ''))
            if key not in FABRIC_OPTS:
                self.fail(no, f"fabric: unknown word '{key}' ({' '.join(FABRIC_OPTS)})")
            if i + 1 >= len(words):
                self.fail(no, f"fabric: '{key}' needs a value")
            rng = FABRIC_OPTS[key]
            if rng and isinstance(rng[0], str):
                if words[i + 1] not in rng:
                    self.fail(no, f"fabric {key}: '{words[i + 1]}' is not one of "
                              f"{' '.join(rng)}")
            elif rng:
                value = self.at(no, parse_int, words[i + 1], rng[0], rng[1], f'fabric {key}')
                if key == 'vls':
                    vls = value
            i += 2
        return vls

    def fabric_files(self, no, words):
        """The fabric words with the files of FABRIC_PATHS made absolute
        (the VM and ibswctl run elsewhere), each checked readable; and
        whether the SM configuration turns OpenSM's congestion control
        manager on."""
        out, sm_cc = list(words), False
        for i in range(0, len(out) - 1, 2):
            if out[i] not in FABRIC_PATHS:
                continue
            path = os.path.abspath(os.path.join(os.path.dirname(self.path), out[i + 1]))
            try:
                with open(path) as f:
                    text = f.read()
            except OSError as e:
                self.fail(no, f'fabric {out[i]}: cannot read {out[i + 1]} ({path}): '
                          f"{e.strerror} (the path is relative to the scenario file's "
                          'directory)')
            out[i + 1] = path
            if out[i] == 'sm-conf':
                sm_cc = any(l.split()[:2] == ['congestion_control', 'TRUE']
                            for l in text.splitlines())
        return out, sm_cc

    def overlaps(self, items):
        """Warn about two flows/apps sending from one host at once: the
        throughput of a flow is its sending host's port counter."""
        for i, b in enumerate(items):
            for a in items[:i]:
                if (sender(a) == sender(b) != CONTROL_HOST and a.start < b.stop and
                        b.start < a.stop):
                    msg = (f'{self.path}:{b.line}: warning: {b.name} and {a.name} (line '
                           f'{a.line}) both send from {sender(b)} at overlapping times; '
                           'throughput is measured per sending host port, so both '
                           'show the sum')
                    self.warnings.append(msg)


def sender(obj):
    """The host whose switch port measures a flow's or app's throughput.
    A flow's data always goes from SRC to DST (for read, the ib_read_bw
    client runs on DST and reads SRC's memory)."""
    return obj.host if isinstance(obj, App) else obj.src


def counter_key(c, port=None):
    """The samples.csv column of a counter: 'S2/3:port_xmit_wait@0'."""
    port = c.port if port is None else port
    return f'{c.switch}/{port}:{c.name}' + ('' if c.vl is None else f'@{c.vl}')


def load(path, warn=sys.stderr, text=None):
    """Parse and check a scenario file; raise ScenarioError. Warnings are
    written to warn (None: keep them only in Scenario.warnings). With
    text, parse that as if it were the file's (a sweep's point): messages
    name path, and relative paths are relative to its directory."""
    p = _Parser(path, text)
    p.read()
    sc = p.finish()
    if warn is not None:
        for w in sc.warnings:
            print(w, file=warn)
    return sc


def resolved_text(sc, text, topology=None, inputs=None):
    """text, the scenario sc was parsed from, with its file names absolute
    (the topology, fabric's sm-conf, mpi lines' inputs), so that it reads
    the same from any directory; topology and inputs ({mpi line: paths})
    replace the parsed ones."""
    jobs = {j.line: j for j in sc.mpi if j.inputs}
    out = []
    for no, line in enumerate(text.split('\n'), 1):
        words = line.split('#', 1)[0].split()
        if words and words[0] == 'topology':
            line = 'topology ' + shlex.quote(topology or sc.topology)
        elif words and words[0] == 'fabric' and any(k in sc.fabric_args[::2] for k in FABRIC_PATHS):
            line = shlex.join(['fabric'] + sc.fabric_args)
        elif no in jobs:
            lex = shlex.shlex(line, posix=True)	# as the parser reads it
            lex.whitespace_split = True
            lex.commenters = '#'
            words = list(lex)
            i = words.index('in', 0, words.index('--'))
            paths = (inputs or {}).get(no) or jobs[no].inputs
            line = shlex.join(words[:i + 1] + [','.join(paths)] + words[i + 2:])
        out.append(line)
    return '\n'.join(out)


def to_dict(sc):
    """The scenario as JSON-able data (run.json embeds it; the report
    reads it from there)."""
    d = dataclasses.asdict(sc)
    d['windows'] = {k: [a, b] for k, (a, b) in sc.windows.items()}
    return d


def expand(argv, hosts_desc, run=None):
    """Replace {HOST.FIELD} in an app's argv from the fabric description's
    hosts ({name: host entry}); hosts may also be named by identifier;
    {run.FIELD} from run ({field: value}). ValueError if a host or its
    field is missing."""
    lookup = dict(hosts_desc)
    for key, h in hosts_desc.items():
        if isinstance(h, dict) and h.get('ident'):
            lookup.setdefault(h['ident'], h)

    def sub(m):
        if m.group(1) == 'run' and m.group(2) in RUN_FIELDS:
            if run is None or run.get(m.group(2)) is None:
                raise ValueError(f'placeholder {m.group(0)}: not known here')
            return str(run[m.group(2)])
        h = lookup.get(m.group(1))
        field = PLACEHOLDERS.get(m.group(2))
        if h is None or field is None:
            raise ValueError(f'placeholder {m.group(0)}: no such host or field')
        value = h.get(field)
        if value is None:
            raise ValueError(f'placeholder {m.group(0)}: {m.group(1)} has no {field}')
        return str(value)
    return [PLACEHOLDER_RE.sub(sub, word) for word in argv]
