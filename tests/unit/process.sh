#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of tests/lib/process.sh: a background command that outlives
# its wait is stopped together with what it runs. The tests start their
# programs under `timeout`; killing only the `timeout` (SIGKILL) left the
# program running, holding its RDMA device, and the fabric's teardown then
# waited for it (a CI run's fabric down timed out after 300 s).
# Prints "PASS: process/CASE" or "FAIL: process/CASE (why)" per case,
# exits 1 if any failed. Also: server ports stay below the ephemeral range.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/t.sh" <<EOS
IBSW_TEST=process IBSW_LOGDIR=$tmp IBSW_SKIP=4 _ibsw_failed=0
_ibsw_pids=() _ibsw_defer=() _ibsw_rxe=() _ibsw_netns=() _ibsw_links=()
. "$root/tests/lib/report.sh"
. "$root/tests/lib/process.sh"

# wait_stops_child: a wait that times out stops the program under timeout
wait_stops_child() {
	local pid child rc

	timeout -k 3 100 sleep 300 &
	pid=\$!
	wait_for "timeout's child" 5 pgrep -P "\$pid" -x sleep >/dev/null || return
	child=\$(pgrep -P "\$pid" -x sleep)
	ibsw_wait_pid "\$pid" 1
	rc=\$?
	[ "\$rc" = 124 ] || ibsw_fail "status \$rc, not 124" || return
	_gone() { ! kill -0 "\$child" 2>/dev/null; }
	wait_for "sleep \$child to end" 10 _gone >/dev/null ||
		{ kill "\$child"; ibsw_fail "the program under timeout still runs"; }
}
ibsw_case wait_stops_child wait_stops_child

# wait_status: a command that ends in time gives its own status
wait_status() {
	local pid rc

	timeout 100 sh -c 'exit 3' &
	pid=\$!
	ibsw_wait_pid "\$pid" 10
	rc=\$?
	[ "\$rc" = 3 ] || ibsw_fail "status \$rc, not 3"
}
ibsw_case wait_status wait_status

# slow_kernel: IBSW_TIME_FACTOR stretches a wait (the debug kernel), and
# the reason of one that times out says how long it waited
_later() { [ "\${EPOCHREALTIME/./}" -ge "\$1" ]; }
slow_kernel() {
	local t=\$((\${EPOCHREALTIME/./} + 1500000))

	IBSW_TIME_FACTOR=3 wait_for "1.5 s to pass" 1 _later "\$t" ||
		ibsw_fail "a wait of 1 s times 3 ended before 1.5 s" || return
	IBSW_TIME_FACTOR=2 wait_for "never" 1 false
	[ "\$_ibsw_reason" = "timeout (2s) waiting for never" ] ||
		ibsw_fail "reason: \$_ibsw_reason" || return
	_ibsw_reason=
}
ibsw_case slow_kernel slow_kernel

# ports_wrap: server ports stay below the ephemeral range, whatever the
# number of servers
ports_wrap() {
	local i first

	ibsw_next_port
	first=\$_ibsw_port
	for ((i = 1; i < 40000; i++)); do
		ibsw_next_port
		[ "\$_ibsw_port" -ge 18516 ] && [ "\$_ibsw_port" -le 32767 ] ||
			ibsw_fail "port \$_ibsw_port after \$i" || return
	done
	[ "\$first" = 18516 ] || ibsw_fail "first port \$first, not 18516"
}
ibsw_case ports_wrap ports_wrap
ibsw_exit
EOS
bash "$tmp/t.sh" 2>&1 | grep -E '^(PASS|FAIL|SKIP):'
exit "${PIPESTATUS[0]}"
