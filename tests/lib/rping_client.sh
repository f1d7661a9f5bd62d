#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rping_client.sh COUNT ARGS...: run "rping -v ARGS" (a client doing COUNT
# verified pings) and exit with its status, except for one race of rping
# itself. Debian 12's rping (rdma-core 44) lets its CM thread block in
# rdma_get_cm_event() while main, done, destroys the event channel; the
# thread then fails with EBADF and exits 255 after a complete, verified
# run (later rpings wake the thread with an eventfd first). That ending,
# after all COUNT pings were printed and the disconnect was seen, is a
# success; anything else keeps its status.
count=$1
shift
out=$(rping -v "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
race=$'client DISCONNECT EVENT...\nrdma_get_cm_event: Bad file descriptor'
if [ "$rc" = 255 ] && [ "$(tail -n 2 <<<"$out")" = "$race" ] &&
	[ "$(grep -c '^ping data: ' <<<"$out")" = "$count" ]; then
	echo "# all $count pings verified; rping's CM thread then read the closed event channel (rdma-core 44 teardown race): success"
	exit 0
fi
exit "$rc"
