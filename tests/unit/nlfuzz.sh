#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests of tools/ynl/ibsw_nlfuzz.py, the netlink fuzzer of
# tests/integration/netlink_fuzz.sh: its attributes, request header and
# the parse of acks and extack messages, on bytes written by hand.
# Prints "PASS: nlfuzz/TEST" or "FAIL: nlfuzz/TEST" per test.
set -u
. "$(dirname "$0")/../../scripts/common.sh"

out=$(cd "$IBSW_ROOT/tools/ynl/tests" && python3 -B -m unittest -v test_nlfuzz 2>&1)
rc=$?
# "test_ack (test_nlfuzz.Wire.test_ack) ... ok"
sed -n 's/^\(test_[a-z_0-9]*\) (.*) \.\.\. ok$/PASS: nlfuzz\/\1/p
	s/^\(test_[a-z_0-9]*\) (.*) \.\.\. \(FAIL\|ERROR\)$/FAIL: nlfuzz\/\1/p' <<<"$out"
if [ "$rc" != 0 ]; then
	sed 's/^/# /' <<<"$out"
	grep -q '^FAIL: ' <<<"$(sed -n 's/^\(test_[a-z_0-9]*\) (.*) \.\.\. \(FAIL\|ERROR\)$/FAIL: x/p' <<<"$out")" ||
		echo "FAIL: nlfuzz/unittest (exit $rc)"
	exit 1
fi
