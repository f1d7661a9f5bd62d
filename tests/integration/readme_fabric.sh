#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 45
#
# README.md's "A fabric in three commands" as a newcomer runs it: the block
# is read from the README itself and run by bash exactly as written, with the
# PATH scripts/vm gives, so this test breaks when the README and the tools
# part ways. Every command succeeds, perftest reports a bandwidth, S2's
# counters show the data it moved, and fabric down leaves nothing behind.
# shellcheck source=tests/lib.sh disable=SC2317
. "$(dirname "$0")/../lib.sh"

README=$IBSW_ROOT/README.md
HEADING='## A fabric in three commands'
OUT=$IBSW_LOGDIR/readme.out
RESULTS=$IBSW_LOGDIR/results

ibsw_require_ibsw

# The first ``` block after the heading, as it stands.
BLOCK=$(awk -v h="$HEADING" '$0 == h { in_sec = 1; next }
	in_sec && /^```/ { if (in_block) exit; in_block = 1; next }
	in_block' "$README")
[ -n "$BLOCK" ] || ibsw_setup_fail "no code block under \"$HEADING\" in README.md"
printf '%s\n' "$BLOCK" | sed 's/^/# readme: /'

# If the block stops half-way, what it built goes as lib.sh's fabrics do.
readme_cleanup() {
	local ns

	[ -e /run/ibsw/fabric.json ] || return 0
	for ns in $(jq -r '.hosts[].netns' /run/ibsw/fabric.json); do
		ibsw_netns_kill "$ns"
	done
	ibswctl fabric down
}
ibsw_defer readme_cleanup

# The README runs the block as scripts/vm -- bash -c '...': no single quote.
quotable() {
	case $BLOCK in
	*\'*) ibsw_fail "the block has a single quote: it does not fit in bash -c '...'" ;;
	esac
}

# bash -e: every command must succeed, in the README's order; -x marks
# where each command's output starts.
commands() {
	local rc=0 at

	timeout 120 bash -e -x -c "$BLOCK" >"$OUT" 2>&1 || rc=$?
	cat "$OUT"
	[ "$rc" -eq 0 ] && return 0
	at=$(grep '^+ ' "$OUT" | tail -n 1)
	[ "$rc" -ne 124 ] || ibsw_fail "timeout (120 s) at: ${at#+ }" || return
	[ "$rc" -ne 127 ] || ibsw_fail "command not found at: ${at#+ }" || return
	ibsw_fail "exit $rc at: ${at#+ }"
}

# perftest's result line: "#bytes #iterations BW-peak BW-average MsgRate"
# (MB/s); its first occurrence as "BYTES ITERS AVERAGE".
perftest_result() {
	awk 'NF == 5 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $4 ~ /^[0-9.]+$/ {
		print $1, $2, $4; exit }' "$OUT"
}

bandwidth() {
	local bytes iters bw

	read -r bytes iters bw < <(perftest_result)
	[ -n "$bw" ] || ibsw_fail "ib_write_bw printed no result" || return
	echo "ib_write_bw: $iters x $bytes bytes, $bw MB/s average (wall clock)" | tee -a "$RESULTS"
	awk -v bw="$bw" 'BEGIN { exit !(bw > 0) }' ||
		ibsw_fail "ib_write_bw reported $bw MB/s"
}

# The largest PortXmitData of a port in the output of `counters show`:
# "SW/PORT" lines, then "    Name value Name value ..." lines.
counters() {
	local bytes iters bw words max

	read -r bytes iters bw < <(perftest_result)
	[ -n "$bw" ] || ibsw_fail "no ib_write_bw result to compare with" || return
	words=$((bytes * iters / 4))
	max=$(awk '/^\+ / { in_cnt = ($0 ~ /^\+ ibswctl counters show/); next }
		in_cnt { for (i = 1; i < NF; i++)
			if ($i == "PortXmitData" && $(i + 1) + 0 > max) max = $(i + 1) + 0 }
		END { print max + 0 }' "$OUT")
	echo "counters show: largest PortXmitData $max words for $words words of payload" |
		tee -a "$RESULTS"
	[ "$max" -ge "$words" ] ||
		ibsw_fail "largest PortXmitData $max words, below the $words words ib_write_bw wrote"
}

# After fabric down: no switch, namespace, rxe device, description or
# perftest left.
teardown() {
	local left

	left=$(ls /sys/class/ibsw 2>/dev/null)
	[ -z "$left" ] || ibsw_fail "switches left: ${left//$'\n'/ }" || return
	left=$(ip netns list)
	[ -z "$left" ] || ibsw_fail "namespaces left: ${left//$'\n'/ }" || return
	left=$(ls /sys/class/infiniband 2>/dev/null)
	[ -z "$left" ] || ibsw_fail "rdma devices left: ${left//$'\n'/ }" || return
	[ ! -e /run/ibsw/fabric.json ] || ibsw_fail "/run/ibsw/fabric.json left" || return
	! pgrep -lx ib_write_bw || ibsw_fail "ib_write_bw still running"
}

ibsw_case quotable quotable
ibsw_case commands commands
ibsw_case bandwidth bandwidth
ibsw_case counters counters
ibsw_case teardown teardown

[ -s "$RESULTS" ] && while read -r l; do ibsw_note "$l"; done <"$RESULTS"

ibsw_exit
