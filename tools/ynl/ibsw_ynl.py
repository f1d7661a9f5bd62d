#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drive the ibsw netlink family from tests, with the kernel's ynl library.

cli.py (tools/net/ynl) starts Python and parses the spec for every request,
which takes seconds in the test VM; this runs many requests in one process
and prints results a shell test can check line by line.

  ibsw_ynl.py --ynl DIR batch < REQUESTS
      One request per input line: "do OP [JSON]" or "dump OP [JSON]".
      Prints one JSON object per request, on one line:
        {"op": OP, "ok": true, "reply": REPLY}
        {"op": OP, "ok": false, "errno": "EINVAL", "extack": "msg: ...; ..."}
      Exits 0 once every request ran (whatever their results), 2 if the
      family cannot be used at all (for example from another namespace).

  ibsw_ynl.py --ynl DIR monitor SECONDS
      Joins the monitor group, prints "ready", then prints one JSON line
      per notification, {"name": NAME, "msg": ATTRS}, for SECONDS.

  ibsw_ynl.py --ynl DIR dump-intr OP CMD...
      Starts a dump of OP, reads its first part, runs CMD (a change to the
      fabric, or "true"), reads the rest, and prints
        {"parts": N, "msgs": N, "intr_before": BOOL, "intr_after": BOOL}
      whether a message read before (after) CMD had NLM_F_DUMP_INTR.

DIR is the kernel's tools/net/ynl (scripts/ynl-gen caches one in
$IBSW_CACHE/ynl-VERSION/tools/net/ynl). Binary attributes are hex strings,
in requests and in output.
"""

import argparse
import errno
import json
import os
import select
import struct
import subprocess
import sys
import time

NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_REQUEST = 0x1
NLM_F_DUMP_INTR = 0x10
NLM_F_DUMP = 0x300


class Encoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, bytes):
            return o.hex()
        if isinstance(o, set):
            return sorted(o)
        return super().default(o)


def emit(obj):
    print(json.dumps(obj, cls=Encoder, sort_keys=True), flush=True)


def extack_text(nl_msg):
    ext = getattr(nl_msg, 'extack', None) or {}
    return '; '.join(f'{k}: {v}' for k, v in sorted(ext.items()))


def batch(ynl, nl_error):
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        parts = line.split(None, 2)
        mode, op = parts[0], parts[1]
        attrs = json.loads(parts[2]) if len(parts) > 2 else {}
        try:
            if mode == 'do':
                reply = ynl.do(op, attrs)
            elif mode == 'dump':
                reply = ynl.dump(op, attrs)
            else:
                raise ValueError(f'bad mode {mode}')
            emit({'op': op, 'ok': True, 'reply': reply})
        except nl_error as e:
            emit({'op': op, 'ok': False,
                  'errno': errno.errorcode.get(e.error, str(e.error)),
                  'extack': extack_text(e.nl_msg)})
    return 0


def monitor(ynl, seconds):
    ynl.ntf_subscribe('monitor')
    print('ready', flush=True)
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return 0
        ready, _, _ = select.select([ynl.sock], [], [], left)
        if not ready:
            continue
        ynl.check_ntf()
        while ynl.async_msg_queue:
            emit(ynl.async_msg_queue.pop(0))


def dump_intr(ynl, op, cmd):
    """A dump whose passes straddle a change, read 8 KiB at a time."""
    seq = 4242
    genl = struct.pack('BBH', ynl.ops[op].req_value, 1, 0)
    hdr = struct.pack('IHHII', 16 + len(genl), ynl.nlproto.family_id,
                      NLM_F_REQUEST | NLM_F_DUMP, seq, 0)
    ynl.sock.send(hdr + genl)
    out = {'parts': 0, 'msgs': 0, 'intr_before': False, 'intr_after': False}
    key = 'intr_before'
    while True:
        buf = ynl.sock.recv(8192)
        out['parts'] += 1
        off = 0
        while off + 16 <= len(buf):
            length, kind, flags, mseq, _ = struct.unpack_from('IHHII', buf, off)
            if length < 16:
                raise ValueError('short netlink message')
            if mseq == seq:
                if flags & NLM_F_DUMP_INTR:
                    out[key] = True
                if kind == NLMSG_ERROR:
                    err = struct.unpack_from('i', buf, off + 16)[0]
                    raise OSError(-err, 'dump failed')
                if kind == NLMSG_DONE:
                    emit(out)
                    return 0
                out['msgs'] += 1
            off += (length + 3) & ~3
        if key == 'intr_before':
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            key = 'intr_after'


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ynl', required=True,
                    help="the kernel's tools/net/ynl directory")
    ap.add_argument('--spec', default=os.path.join(
        root, 'Documentation/netlink/specs/ibsw.yaml'))
    sub = ap.add_subparsers(dest='cmd', required=True)
    sub.add_parser('batch')
    mon = sub.add_parser('monitor')
    mon.add_argument('seconds', type=float)
    intr = sub.add_parser('dump-intr')
    intr.add_argument('op')
    intr.add_argument('change', nargs=argparse.REMAINDER)
    args = ap.parse_args()

    sys.path.insert(0, args.ynl)
    from lib import YnlFamily, NlError  # pylint: disable=import-outside-toplevel

    try:
        ynl = YnlFamily(args.spec, '')
    except Exception as e:  # pylint: disable=broad-except
        print(f'ibsw_ynl: cannot use the family: {e}', file=sys.stderr)
        return 2
    if args.cmd == 'batch':
        return batch(ynl, NlError)
    if args.cmd == 'dump-intr':
        return dump_intr(ynl, args.op, args.change)
    return monitor(ynl, args.seconds)


if __name__ == '__main__':
    sys.exit(main())
