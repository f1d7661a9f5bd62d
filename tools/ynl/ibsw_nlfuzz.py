#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fuzz the ibsw generic netlink family with requests built from its spec.

  ibsw_nlfuzz.py --ynl DIR [--spec SPEC] [--seconds S] [--requests N]
                 [--seed N] [--names A,B,...] [--no-compare]

Each request is a "do" of one of the family's operations, with the
attributes its spec lists for the request, each present or not. Half of
the requests are plausible (small values within the checks, names of the
fabric from --names), half at the edges (of the types and the checks,
nonsense names); one in ten has a malformed attribute as well (a wrong
length, an unknown type, a nest that is not one, a length past the
message). Checks, for each request:
  - it is answered (an ack or an error) within 10 s;
  - a refusal other than EPERM says why (an extack message);
  - a refused request changes nothing that the family's dumps and
    fabric-get show (but for counters), unless --no-compare (changes
    made beside the fuzzer, such as namespaces coming and going).
Prints one line per finding and a summary,
  nl-fuzz: N requests in S s: A accepted, R refused (K errnos); F findings
and exits 1 if there was a finding. DIR is the kernel's tools/net/ynl
(scripts/ynl-gen caches one).
"""

import argparse
import errno
import json
import os
import random
import select
import socket
import struct
import sys
import time

NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLM_F_ACK_TLVS = 0x200
NLA_F_NESTED = 0x8000
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLMSGERR_ATTR_MSG = 1

INT_SIZES = {'u8': 1, 'u16': 2, 'u32': 4, 'u64': 8,
             's8': 1, 's16': 2, 's32': 4, 's64': 8}


def nla(kind, payload, nested=False):
    """One netlink attribute, padded to 4 bytes."""
    head = struct.pack('HH', 4 + len(payload),
                       kind | (NLA_F_NESTED if nested else 0))
    return head + payload + b'\0' * (-len(payload) % 4)


def genl_msg(family_id, cmd, attrs, seq, flags=NLM_F_REQUEST | NLM_F_ACK):
    """A generic netlink request: nlmsghdr, genlmsghdr (version 1), attrs."""
    body = struct.pack('BBH', cmd, 1, 0) + attrs
    return struct.pack('IHHII', 16 + len(body), family_id, flags, seq, 0) + body


def parse_ack(buf, seq):
    """The errno and extack message of the answer to seq in buf.

    Returns (errno, message or None), errno 0 for an ack, or None if buf
    holds no answer to seq (a reply message before the ack)."""
    off = 0
    while off + 16 <= len(buf):
        length, kind, flags, mseq, _ = struct.unpack_from('IHHII', buf, off)
        if length < 16:
            raise ValueError('short netlink message')
        if mseq == seq and kind == NLMSG_ERROR:
            err = -struct.unpack_from('i', buf, off + 16)[0]
            msg = None
            if flags & NLM_F_ACK_TLVS:
                # the request's header follows the error (NETLINK_CAP_ACK)
                a = off + 20 + 16
                while a + 4 <= off + length:
                    alen, atype = struct.unpack_from('HH', buf, a)
                    if alen < 4:
                        break
                    if atype == NLMSGERR_ATTR_MSG:
                        msg = buf[a + 4:a + alen].rstrip(b'\0').decode(
                            errors='replace')
                    a += (alen + 3) & ~3
            return err, msg
        off += (length + 3) & ~3
    return None


class Generator:
    """Requests from the spec: attribute sets, operations and constants."""

    def __init__(self, ynl, rng, names):
        self.ynl = ynl
        self.rng = rng
        self.names = names
        self.plausible = False
        self.ops = []
        for name, op in ynl.ops.items():
            req = op.yaml.get('do', {}).get('request')
            if req is not None:
                self.ops.append((name, op, req.get('attributes', [])))

    def const(self, v):
        if isinstance(v, int):
            return v
        c = self.ynl.consts.get(v)	# a const: its definition
        return c.get('value') if isinstance(c, dict) else None

    def int_value(self, attr):
        size = INT_SIZES[attr.type]
        top = (1 << (8 * size)) - 1
        checks = attr.yaml.get('checks', {})
        lo, hi = self.const(checks.get('min')), self.const(checks.get('max'))
        if self.plausible:
            # within the checks, small: ports, VLs, SLs, LIDs of a fabric
            first = lo or 0
            last = min(hi if hi is not None else top, first + 8)
            v = self.rng.randint(first, last)
        else:
            edges = [0, 1, 2, 3, 4, 7, 8, 15, 16, 255, 256, 0xffff, top,
                     top - 1, self.rng.randrange(top + 1)]
            for e in (lo, hi):
                if e is not None:
                    edges += [e - 1, e, e + 1]
            v = self.rng.choice(edges)
        v &= top
        fmt = {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[size]
        return struct.pack(fmt, v)

    def string_value(self, attr):
        checks = attr.yaml.get('checks', {})
        n = self.const(checks.get('max-len')) or 16
        pick = self.rng.randrange(10)
        if (pick < 5 or self.plausible) and self.names:
            s = self.rng.choice(self.names).encode()
        elif pick == 5:
            s = b''
        elif pick == 6:
            s = b'x' * (n + self.rng.choice((0, 1, 2)))
        elif pick == 7:
            s = self.rng.choice((b'a/b', b'..', b'.', b'a b', b'\xff\xfe',
                                 b'lo', b'eth0'))
        else:
            s = ('fz%d' % self.rng.randrange(4)).encode()
        if not self.plausible and self.rng.randrange(20) == 0:
            return s		# not NUL-terminated
        return s + b'\0'

    def binary_value(self, attr):
        checks = attr.yaml.get('checks', {})
        n = self.const(checks.get('exact-len'))
        if n is None:
            n = self.rng.choice((0, 1, 2, 4, 8, 16, 64, 256))
        elif not self.plausible:
            n = max(0, n + self.rng.choice((0, 0, 0, -1, 1)))
        if self.rng.randrange(3) == 0:
            return bytes(self.rng.choice((0, 1, 2, 255)) for _ in range(n))
        return bytes(self.rng.randrange(256) for _ in range(n))

    def attr_value(self, attr, depth):
        if attr.type in INT_SIZES:
            return self.int_value(attr), False
        if attr.type == 'string':
            return self.string_value(attr), False
        if attr.type == 'binary':
            return self.binary_value(attr), False
        if attr.type == 'flag':
            return b'', False
        if attr.type == 'nest':
            sub = self.ynl.attr_sets[attr.yaml['nested-attributes']]
            return self.attrs(sub, list(sub.attrs), depth + 1), True
        return bytes(self.rng.randrange(256)
                     for _ in range(self.rng.randrange(9))), False

    def attrs(self, attr_set, names, depth=0):
        out = b''
        if depth > 3:
            return out
        for name in names:
            attr = attr_set.attrs[name]
            n = 1 if self.rng.randrange(10) < (9 if self.plausible else 6) else 0
            if attr.is_multi:
                n = self.rng.choice((0, 1, 1, 2, 3, 8))
            for _ in range(n):
                payload, nested = self.attr_value(attr, depth)
                out += nla(attr.value, payload, nested)
        return out

    def malformed(self, attr_set, names):
        """One attribute that is wrong on the wire."""
        kind = self.rng.randrange(4)
        known = [attr_set.attrs[n] for n in names] or \
            list(attr_set.attrs.values())
        attr = self.rng.choice(known)
        if kind == 0:	# a wrong length
            return nla(attr.value, bytes(self.rng.randrange(256) for _ in
                                         range(self.rng.choice((0, 1, 3, 5, 9)))))
        if kind == 1:	# an unknown type
            top = max(a.value for a in attr_set.attrs.values())
            return nla(top + 1 + self.rng.randrange(4), b'\0\0\0\0')
        if kind == 2:	# a nest flag where there is none, or none where one is
            payload, nested = self.attr_value(attr, 3)
            return nla(attr.value, payload, not nested)
        # a length past the end of the message
        return struct.pack('HH', 64, attr.value) + b'\0\0\0\0'

    def request(self):
        name, op, names = self.rng.choice(self.ops)
        attr_set = op.attr_set
        # half of them plausible (small values within the checks, names of
        # the fabric), to get past the checks to what they guard
        self.plausible = self.rng.randrange(2) == 0
        body = self.attrs(attr_set, names)
        bad = self.rng.randrange(10) == 0
        if bad:
            body += self.malformed(attr_set, names)
        return name, op, body, bad


def strip_counters(obj):
    """What a dump shows but for the counters, which count on their own."""
    if isinstance(obj, dict):
        return {k: strip_counters(v) for k, v in obj.items()
                if 'counters' not in k and k != 'buffer-free'}
    if isinstance(obj, list):
        return [strip_counters(v) for v in obj]
    return obj


def snapshot(ynl):
    out = {'fabric': ynl.do('fabric-get', {})}
    for op in ('switch-get', 'port-get', 'addr-get'):
        out[op] = ynl.dump(op, {})
    return json.dumps(strip_counters(out), sort_keys=True, default=repr)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ynl', required=True)
    ap.add_argument('--spec', default=os.path.join(
        root, 'Documentation/netlink/specs/ibsw.yaml'))
    ap.add_argument('--seconds', type=float, default=20)
    ap.add_argument('--requests', type=int, default=1000000)
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--names', default='')
    ap.add_argument('--no-compare', action='store_true')
    args = ap.parse_args()

    sys.path.insert(0, args.ynl)
    from lib import YnlFamily  # pylint: disable=import-outside-toplevel

    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    ynl = YnlFamily(args.spec, '')
    gen = Generator(ynl, rng, [n for n in args.names.split(',') if n])
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
    sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sock.bind((0, 0))
    family = ynl.nlproto.family_id

    print(f'# seed {seed}', flush=True)
    stats = {'sent': 0, 'ok': 0, 'refused': 0, 'findings': 0}
    errnos = {}
    before = None if args.no_compare else snapshot(ynl)
    start = time.monotonic()
    seq = 1
    while (stats['sent'] < args.requests and
           time.monotonic() - start < args.seconds):
        name, op, body, bad = gen.request()
        seq += 1
        sock.send(genl_msg(family, op.req_value, body, seq))
        stats['sent'] += 1
        answer = None
        deadline = time.monotonic() + 10
        while answer is None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([sock], [], [], left)[0]:
                break
            answer = parse_ack(sock.recv(65536), seq)

        def finding(what):
            stats['findings'] += 1
            print(f'finding {stats["findings"]}: {name}'
                  f'{" (malformed)" if bad else ""}: {what}; request'
                  f' attributes {body.hex()}', flush=True)

        if answer is None:
            finding('no answer in 10 s')
            break
        err, msg = answer
        if not err:
            stats['ok'] += 1
            if before is not None:
                before = snapshot(ynl)
            continue
        stats['refused'] += 1
        ename = errno.errorcode.get(err, str(err))
        errnos[ename] = errnos.get(ename, 0) + 1
        if err != errno.EPERM and not msg:
            finding(f'{ename} without a message')
        if before is not None:
            after = snapshot(ynl)
            if after != before:
                finding(f'refused ({ename}: {msg}) but the fabric changed')
                before = after
    took = time.monotonic() - start
    print(f'nl-fuzz: {stats["sent"]} requests in {took:.1f} s:'
          f' {stats["ok"]} accepted, {stats["refused"]} refused'
          f' ({", ".join(f"{k} {v}" for k, v in sorted(errnos.items()))});'
          f' {stats["findings"]} findings', flush=True)
    return 1 if stats['findings'] else 0


if __name__ == '__main__':
    sys.exit(main())
