#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of scripts/lowest-priority: the command runs at nice 19 in a
# session and process group whose ID is the PID its caller sees, and where
# the kernel schedules sessions as groups (autogroup), that group is at
# nice 19 as well. Without it, KUnit's build in its own session took half
# of the machine from the nice-19 VM tests (a CI guest's RCU stall).
# Prints "PASS: lowest_priority/CASE", "FAIL: ..." or "SKIP: ..." per case,
# exits 1 if any failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

IBSW_TEST=lowest_priority IBSW_LOGDIR=$tmp IBSW_SKIP=4 _ibsw_failed=0
. "$root/tests/lib/report.sh"
ibsw_reap() { :; }	# the cases start no programs of their own

# what the command sees of itself: "PID SID PGID NICE" and its autogroup
"$root/scripts/lowest-priority" sh -c \
	'ps -o pid=,sid=,pgid=,ni= -p $$; cat /proc/self/autogroup 2>/dev/null' \
	>"$tmp/seen" &
caller_pid=$!
wait "$caller_pid"
read -r pid sid pgid ni <"$tmp/seen"
autogroup=$(sed -n 2p "$tmp/seen")

own_group() {
	[ "$pid" = "$caller_pid" ] ||
		ibsw_fail "runs as PID $pid, the caller started $caller_pid" || return
	[ "$sid" = "$pid" ] && [ "$pgid" = "$pid" ] ||
		ibsw_fail "session $sid, group $pgid: not its own ($pid)"
}
ibsw_case own_group own_group

task_nice() {
	[ "$ni" = 19 ] || ibsw_fail "nice $ni, not 19"
}
ibsw_case task_nice task_nice

# /proc/self/autogroup: "/autogroup-N nice K"
autogroup_nice() {
	[ -n "$autogroup" ] || { ibsw_skip "no autogroup in this kernel"; return; }
	[ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ] ||
		{ ibsw_skip "autogroup disabled (kernel.sched_autogroup_enabled)"; return; }
	[ "${autogroup##* nice }" = 19 ] ||
		ibsw_fail "its session's group is '$autogroup', not at nice 19"
}
ibsw_case autogroup_nice autogroup_nice

ibsw_exit
