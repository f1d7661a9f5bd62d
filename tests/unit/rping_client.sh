#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of tests/lib/rping_client.sh, the rping wrapper of the VM
# tests: rping's known teardown race (EBADF from its CM thread after a
# complete run) passes however the CM thread's disconnect line lands among
# the ping lines, and every other ending keeps rping's status. A fake
# rping (RPING) prints each case's output. Prints "PASS: rping_client/CASE"
# or "FAIL: rping_client/CASE (why)" per case, exits 1 if any failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
wrapper=$root/tests/lib/rping_client.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# pings N [SPLIT]: N verified ping lines; with SPLIT, the disconnect line
# lands inside ping SPLIT's data, as it did in a CI run
pings() {
	local i
	for ((i = 0; i < $1; i++)); do
		if [ "${2:-x}" = "$i" ]; then
			printf 'ping data: rdma-ping-%d: ABCDEFGHIJclient DISCONNECT EVENT...\nKLMNOP\n' "$i"
		else
			printf 'ping data: rdma-ping-%d: ABCDEFGHIJKLMNOP\n' "$i"
		fi
	done
}

# expect NAME WANT RC: the wrapper, counting 10 pings, over a fake rping
# that prints stdin, line by line in its order, and exits RC, exits WANT.
# The lines rping writes to standard error (perror's, "rping: ...", "cma
# event ...") go there.
expect() {
	local name=$1 want=$2 rc=$3 got
	cat >"$tmp/$name.out"
	cat >"$tmp/$name.rping" <<-EOF
		#!/bin/bash
		while IFS= read -r l; do
			case \$l in
			'rdma_get_cm_event: '* | 'rping: '* | 'cma event '*) printf '%s\n' "\$l" >&2 ;;
			*) printf '%s\n' "\$l" ;;
			esac
		done <$tmp/$name.out
		exit $rc
	EOF
	chmod +x "$tmp/$name.rping"
	RPING=$tmp/$name.rping bash "$wrapper" 10 -c -a 10.0.0.1 >/dev/null 2>&1
	got=$?
	if [ "$got" = "$want" ]; then
		echo "PASS: rping_client/$name"
	else
		echo "FAIL: rping_client/$name (exit $got, want $want)"
		failed=1
	fi
}

ebadf='rdma_get_cm_event: Bad file descriptor'
pings 10 | expect clean 0 0
{ pings 10; echo 'client DISCONNECT EVENT...'; echo "$ebadf"; } | expect race_after_pings 0 255
{ pings 10 7; echo "$ebadf"; } | expect race_inside_a_ping 0 255
{ pings 3; echo 'client DISCONNECT EVENT...'; pings 7 | sed 's/ping-/ping-1/'; echo "$ebadf"; } |
	expect race_between_pings 0 255
{ pings 9; echo 'client DISCONNECT EVENT...'; echo "$ebadf"; } | expect race_short_run 255 255
{ pings 10; echo "$ebadf"; } | expect ebadf_without_disconnect 255 255
{ pings 10 7; echo "$ebadf"; echo 'rping: something else'; } | expect ebadf_not_last 255 255
{ pings 4; echo 'cma event RDMA_CM_EVENT_REJECTED, error 8'; } | expect rejected 1 1
# main's last ping lines flushed after the thread's EBADF (a CI run)
{ pings 8 7; echo "$ebadf"; pings 2 | sed 's/ping-/ping-8/'; } | expect race_pings_after_ebadf 0 255

# Every rping client of the VM tests goes through the wrapper: a CI run
# failed on switch_basic/exclusive_rping, the one that called rping -c
# itself. A command line naming rping with -c, not in a comment.
direct=$(grep -rnE '(^|[[:space:]])rping[[:space:]]([^#]*[[:space:]])?-c([[:space:]]|$)' \
	"$root/tests" --include='*.sh' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#')
if [ -z "$direct" ]; then
	echo "PASS: rping_client/every_client_wrapped"
else
	echo "FAIL: rping_client/every_client_wrapped (rping -c without tests/lib/rping_client.sh: $(head -n 1 <<<"$direct" | sed "s|^$root/||"))"
	failed=1
fi
exit $failed
