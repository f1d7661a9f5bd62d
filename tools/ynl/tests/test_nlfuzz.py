# SPDX-License-Identifier: GPL-2.0
"""Unit tests of ibsw_nlfuzz.py's wire forms: attributes and their padding,
the request header, the ack and its extack message (bytes written here by
hand, as <linux/netlink.h> and <linux/genetlink.h> lay them out on
x86-64), and what a comparison leaves out."""

import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import ibsw_nlfuzz as nf  # noqa: E402  pylint: disable=wrong-import-position


class Wire(unittest.TestCase):
    def test_attr_padding(self):
        self.assertEqual(nf.nla(3, b'ab'), bytes([6, 0, 3, 0, 0x61, 0x62, 0, 0]))
        self.assertEqual(nf.nla(1, b''), bytes([4, 0, 1, 0]))
        self.assertEqual(nf.nla(2, b'\x01\x02\x03\x04'),
                         bytes([8, 0, 2, 0, 1, 2, 3, 4]))

    def test_nested_flag(self):
        self.assertEqual(nf.nla(5, b'', nested=True), bytes([4, 0, 5, 0x80]))

    def test_request_header(self):
        msg = nf.genl_msg(0x1a, 7, bytes([4, 0, 1, 0]), 9)
        self.assertEqual(msg, bytes([
            24, 0, 0, 0,	# nlmsg_len
            0x1a, 0,		# nlmsg_type: the family
            5, 0,		# NLM_F_REQUEST | NLM_F_ACK
            9, 0, 0, 0,		# seq
            0, 0, 0, 0,		# pid
            7, 1, 0, 0,		# cmd, version 1, reserved
            4, 0, 1, 0]))

    def error(self, seq, err, text=None):
        """An NLMSG_ERROR as the kernel sends it with NETLINK_CAP_ACK."""
        tlv = b''
        flags = 0x100	# NLM_F_CAPPED
        if text is not None:
            payload = text.encode() + b'\0'
            tlv = struct.pack('HH', 4 + len(payload), 1) + payload
            tlv += b'\0' * (-len(tlv) % 4)
            flags |= 0x200
        body = struct.pack('i', -err) + struct.pack('IHHII', 20, 0x1a, 5, seq, 0)
        return struct.pack('IHHII', 16 + len(body) + len(tlv), 2, flags, seq,
                           0) + body + tlv

    def test_ack(self):
        self.assertEqual(nf.parse_ack(self.error(4, 0), 4), (0, None))

    def test_error_with_message(self):
        buf = self.error(4, 22, 'no such switch')
        self.assertEqual(nf.parse_ack(buf, 4), (22, 'no such switch'))

    def test_error_without_message(self):
        self.assertEqual(nf.parse_ack(self.error(4, 1), 4), (1, None))

    def test_other_seq(self):
        self.assertIsNone(nf.parse_ack(self.error(3, 22, 'x'), 4))

    def test_reply_then_ack(self):
        reply = struct.pack('IHHII', 20, 0x1a, 0, 4, 0) + b'\x07\x01\0\0'
        buf = reply + self.error(4, 0)
        self.assertEqual(nf.parse_ack(buf, 4), (0, None))

    def test_short_message(self):
        with self.assertRaises(ValueError):
            nf.parse_ack(struct.pack('IHHII', 8, 2, 0, 4, 0), 4)


class Compare(unittest.TestCase):
    def test_counters_left_out(self):
        a = {'port-get': [{'port': 1, 'counters': {'xmit': 5},
                           'remote-counters': {'x': 1},
                           'vl': [{'buffer-free': 3, 'credits': 8}]}]}
        self.assertEqual(nf.strip_counters(a),
                         {'port-get': [{'port': 1, 'vl': [{'credits': 8}]}]})


if __name__ == '__main__':
    unittest.main()
