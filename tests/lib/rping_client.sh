#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rping_client.sh COUNT ARGS...: run "rping -v ARGS" (a client doing COUNT
# verified pings) and exit with its status, except for one race of rping
# itself. Debian 12's rping (rdma-core 44) lets its CM thread block in
# rdma_get_cm_event() while main, done, destroys the event channel; the
# thread then fails with EBADF and exits 255 after a complete, verified
# run (later rpings wake the thread with an eventfd first). That ending,
# after all COUNT pings were printed and the disconnect was seen, is a
# success; anything else keeps its status. The CM thread's "client
# DISCONNECT EVENT..." may land anywhere in main's buffered ping lines,
# even inside one (a CI run failed on that), so it is looked for as text;
# standard output and error are read apart: main's buffered ping lines
# can be flushed after the thread's unbuffered EBADF line (another CI
# run), which must be the last line of standard error. RPING may name
# another rping (unit tests).
count=$1
shift
err=$(mktemp)
out=$("${RPING:-rping}" -v "$@" 2>"$err")
rc=$?
errs=$(cat "$err")
rm -f "$err"
printf '%s\n' "$out"
[ -z "$errs" ] || printf '%s\n' "$errs"
if [ "$rc" = 255 ] &&
	[ "$(tail -n 1 <<<"$errs")" = "rdma_get_cm_event: Bad file descriptor" ] &&
	grep -qF "client DISCONNECT EVENT..." <<<"$out$errs" &&
	[ "$(grep -c '^ping data: rdma-ping-' <<<"$out")" = "$count" ]; then
	echo "# all $count pings verified; rping's CM thread then read the closed event channel (rdma-core 44 teardown race): success"
	exit 0
fi
exit "$rc"
