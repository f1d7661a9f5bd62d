#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Send hand-made Ethernet frames out of a network interface.

The switch tests use it to feed a host port what rxe never sends:
truncated and malformed RoCEv2 frames, foreign protocols, RoCEv2 packets
to unknown destinations, on a VL the port drops, or larger than the
switch's input buffer.  Run it inside the host's namespace:

    ip netns exec H1 tests/frames.py ib0 KIND [COUNT] [--dst ADDR] ...

Each KIND builds one frame; COUNT copies are sent.  `frames.py --list`
prints the kinds with what the switch must do with them.  The BTH of the
RoCEv2 kinds addresses QP 0xabcdef, which no rxe has, and the ICRC is left
zero: a switch does not check it (the receiving HCA does).  The cc-mad
kinds are for the HCA at --dst4 and --dmac: a Congestion Control MAD to
its QP1 as a UD SEND with a valid ICRC, which rxe takes as its own. So is
the cnp kind: a RoCEv2 CNP to its QP --qpn with P_Key --pkey.
"""

import argparse
import ipaddress
import socket
import struct
import sys
import zlib

ROCE_PORT = 4791
ETH_P_IP = 0x0800
ETH_P_IPV6 = 0x86DD
ETH_P_8021Q = 0x8100


def eth(src, proto, dst=b"\x02\x1b\xff\xff\xff\xfe"):
    return dst + src + struct.pack("!H", proto)


def ip4(src, dst, payload, proto=socket.IPPROTO_UDP, tos=0, ihl=5,
        tot_len=None, version=4, frag=0, options=b""):
    hdr_len = 20 + len(options)
    if tot_len is None:
        tot_len = hdr_len + len(payload)
    hdr = struct.pack("!BBHHHBBH4s4s", (version << 4) | ihl, tos, tot_len,
                      0x1b1b, frag, 64, proto, 0,
                      ipaddress.IPv4Address(src).packed,
                      ipaddress.IPv4Address(dst).packed) + options
    csum = inet_csum(hdr)
    return hdr[:10] + struct.pack("!H", csum) + hdr[12:] + payload


def ip6(src, dst, payload, nexthdr=socket.IPPROTO_UDP, tclass=0,
        plen=None):
    if plen is None:
        plen = len(payload)
    first = (6 << 28) | (tclass << 20)
    return struct.pack("!IHBB16s16s", first, plen, nexthdr, 64,
                       ipaddress.IPv6Address(src).packed,
                       ipaddress.IPv6Address(dst).packed) + payload


def udp(payload, dport=ROCE_PORT, length=None):
    if length is None:
        length = 8 + len(payload)
    return struct.pack("!HHHH", 0xc000, dport, length, 0) + payload


def bth(payload_len=0, tver=0, pad=0, opcode=0x04):
    """An RC SEND Only to QP 0xabcdef, its payload and a zero ICRC."""
    flags = (pad << 4) | tver
    hdr = struct.pack("!BBHII", opcode, flags, 0xffff, 0xabcdef, 1)
    return hdr + bytes(payload_len) + bytes(4)


def icrc4(frame_ip):
    """The ICRC of an IPv4 RoCEv2 packet (IP header on): CRC-32 over 8
    bytes of ones for the LRH, the IP and UDP headers and the BTH with the
    fields a router may change set to ones (TOS, TTL, IP and UDP
    checksums, the BTH's resv8a), then the rest; little-endian."""
    ihl = (frame_ip[0] & 0xf) * 4
    m = bytearray(frame_ip)
    m[1] = 0xff
    m[8] = 0xff
    m[10:12] = b"\xff\xff"
    m[ihl + 6:ihl + 8] = b"\xff\xff"
    m[ihl + 8 + 4] = 0xff
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(m)))


GSI_QKEY = 0x80010000


def cc_mad_set(data):
    """A Congestion Control Set (class 0x21, version 2) of
    CACongestionSetting with CC_Key 0: the MAD header, the key, the 32
    bytes of log data, then DATA (192 bytes in a whole MAD)."""
    hdr = struct.pack("!BBBBHHQHHI", 1, 0x21, 2, 0x02, 0, 0, 0x1b1bcc00,
                      0x0016, 0, 0)
    return hdr + bytes(8) + bytes(32) + data


def ca_setting(port_control, control_map, entries):
    """CACongestionSetting data: entries {SL: (timer, increase, trigger,
    min)}, 192 bytes."""
    d = bytearray(192)
    struct.pack_into("!HH", d, 0, port_control, control_map)
    for sl, (timer, inc, trig, cmin) in entries.items():
        struct.pack_into("!HBBB", d, 4 + 8 * sl, timer, inc, trig, cmin)
    return bytes(d)


def gmp4(a, mad):
    """MAD to QP1 of --dst4 from QP1 of --src4: BTH (UD SEND Only), DETH,
    the MAD, the ICRC, in an IPv4 frame."""
    roce = struct.pack("!BBHII", 0x64, 0, 0xffff, 1, 0x1b1b) + \
        struct.pack("!II", GSI_QKEY, 1) + mad
    ip = ip4(a.src4, a.dst4, udp(roce + bytes(4)))
    return eth(a.mac, ETH_P_IP, bytes.fromhex(a.dmac.replace(":", ""))) + \
        ip[:-4] + icrc4(ip[:-4])


def cnp4(a):
    """A RoCEv2 CNP to QP --qpn of --dst4: BTH (opcode 0x81, P_Key --pkey,
    BECN set, PSN 0), 16 reserved bytes, the ICRC, in an IPv4 frame."""
    roce = struct.pack("!BBHII", 0x81, 0, a.pkey, (0x40 << 24) | a.qpn, 0) + \
        bytes(16)
    ip = ip4(a.src4, a.dst4, udp(roce + bytes(4)))
    return eth(a.mac, ETH_P_IP, bytes.fromhex(a.dmac.replace(":", ""))) + \
        ip[:-4] + icrc4(ip[:-4])


def inet_csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


# KIND: (what the switch must count, builder(args, src_mac))
def kinds():
    def v4(a, payload, **kw):
        return eth(a.mac, ETH_P_IP) + ip4(a.src4, a.dst4, payload, **kw)

    def v6(a, payload, **kw):
        return eth(a.mac, ETH_P_IPV6) + ip6(a.src6, a.dst6, payload, **kw)

    roce = udp(bth(256))
    return {
        # Malformed: port_rcv_errors
        "trunc-vlan": ("port_rcv_errors",
                       lambda a: eth(a.mac, ETH_P_8021Q) + b"\x00"),
        "trunc-ip4": ("port_rcv_errors",
                      lambda a: eth(a.mac, ETH_P_IP) + bytes(12)),
        "trunc-ip6": ("port_rcv_errors",
                      lambda a: eth(a.mac, ETH_P_IPV6) + bytes(30)),
        "ip4-len-long": ("port_rcv_errors",
                         lambda a: v4(a, roce, tot_len=20 + len(roce) + 100)),
        "ip4-len-short": ("port_rcv_errors",
                          lambda a: v4(a, roce, tot_len=12)),
        "ip6-len-long": ("port_rcv_errors",
                         lambda a: v6(a, roce, plen=len(roce) + 100)),
        "ip-version": ("port_rcv_errors",
                       lambda a: v4(a, roce, version=6)),
        "ip4-ihl": ("port_rcv_errors", lambda a: v4(a, roce, ihl=4)),
        "trunc-udp": ("port_rcv_errors", lambda a: v4(a, b"\xc0\x00\x12")),
        "udp-len": ("port_rcv_errors",
                    lambda a: v4(a, udp(bth(256), length=100))),
        "trunc-bth": ("port_rcv_errors", lambda a: v4(a, udp(bytes(10)))),
        "bth-tver": ("port_rcv_errors", lambda a: v4(a, udp(bth(256, tver=1)))),
        "bth-pad": ("port_rcv_errors", lambda a: v4(a, udp(bth(2, pad=3)))),
        # Well-formed, not RoCEv2: rcv_foreign
        "ethertype": ("rcv_foreign",
                      lambda a: eth(a.mac, 0x88b5) + bytes(46)),
        "vlan-stacked": ("rcv_foreign",
                         lambda a: eth(a.mac, ETH_P_8021Q) +
                         struct.pack("!HH", 7, ETH_P_8021Q) + bytes(42)),
        "ip4-options": ("rcv_foreign",
                        lambda a: v4(a, roce, ihl=6, options=bytes(4))),
        "ip4-frag": ("rcv_foreign", lambda a: v4(a, roce, frag=0x2000)),
        "ip6-exthdr": ("rcv_foreign",
                       lambda a: v6(a, bytes(8) + roce, nexthdr=0)),
        "tcp": ("rcv_foreign",
                lambda a: v4(a, bytes(20), proto=socket.IPPROTO_TCP)),
        "udp-other": ("rcv_foreign", lambda a: v4(a, udp(bth(64), dport=53))),
        # RoCEv2 the switch cannot deliver
        "roce-unknown4": ("port_rcv_switch_relay_errors",
                          lambda a: v4(a, roce)),
        "roce-unknown6": ("port_rcv_switch_relay_errors",
                          lambda a: v6(a, roce)),
        "roce-sl": ("rcv_vl_discards",
                    lambda a: v4(a, roce, tos=a.sl << 4)),
        "roce-big": ("rcv_oversize",
                     lambda a: v4(a, udp(bth(a.size)))),
        # Well-formed RoCEv2 (for the destinations of --dst)
        "roce": ("", lambda a: v4(a, roce)),
        # For the HCA at --dst4: a whole CACongestionSetting Set
        # (Port_Control 1, SL 1: CCTI_Timer 4321, CCTI_Increase 5,
        # Trigger_Threshold 6, CCTI_Min 7), and one cut after 8 bytes of
        # its data (Port_Control 0, SL 0: CCTI_Timer 1234), which the HCA
        # must drop (hw counter mad_short_dropped)
        "cc-mad": ("", lambda a: gmp4(a, cc_mad_set(
            ca_setting(1, 0x0002, {1: (4321, 5, 6, 7)})))),
        "cc-mad-short": ("mad_short_dropped", lambda a: gmp4(a, cc_mad_set(
            ca_setting(0, 0x0001, {0: (1234, 9, 9, 9)})[:8]))),
        "roce6": ("", lambda a: v6(a, roce)),
        # For the HCA at --dst4: a CNP to its QP --qpn (hw counters
        # cc_cnp_rcvd, and cc_cnp_refused unless that QP may take it)
        "cnp": ("cc_cnp_rcvd", cnp4),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ifname", nargs="?")
    ap.add_argument("kind", nargs="?")
    ap.add_argument("count", nargs="?", type=int, default=1)
    ap.add_argument("--list", action="store_true",
                    help="print the kinds and the counter each must raise")
    ap.add_argument("--src4", default="10.0.0.1")
    ap.add_argument("--dst4", default="10.0.250.250")
    ap.add_argument("--src6", default="fd00:1b::1")
    ap.add_argument("--dst6", default="fd00:1b::fa:fa")
    ap.add_argument("--dmac", default="02:1b:ff:ff:ff:fe",
                    help="destination MAC of the cc-mad kinds: the HCA's "
                    "netdev (the switch does not rewrite it)")
    ap.add_argument("--qpn", type=lambda v: int(v, 0), default=0xabcdef,
                    help="destination QP of the cnp kind")
    ap.add_argument("--pkey", type=lambda v: int(v, 0), default=0xffff,
                    help="P_Key of the cnp kind")
    ap.add_argument("--sl", type=int, default=15,
                    help="service level of roce-sl (DSCP = 4 * SL)")
    ap.add_argument("--size", type=int, default=8500,
                    help="payload bytes of roce-big (fits MTU 9000)")
    a = ap.parse_args()
    table = kinds()
    if a.list:
        for k, (cnt, _) in table.items():
            print(f"{k}\t{cnt or '-'}")
        return 0
    if not a.ifname or a.kind not in table:
        ap.error(f"need IFNAME and one of: {' '.join(table)}")
    if a.count < 0:
        ap.error("COUNT must not be negative")

    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((a.ifname, 0))
    a.mac = s.getsockname()[4]
    frame = table[a.kind][1](a)
    for _ in range(a.count):
        s.send(frame)
    return 0


if __name__ == "__main__":
    sys.exit(main())
