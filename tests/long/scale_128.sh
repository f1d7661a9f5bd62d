#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 3000
#
# A fabric of 128 hosts in one kernel (issue 22), too long for make check
# (make longcheck T=scale_128): topologies/fat-tree-128.net (16 leaves of
# 8 hosts, 8 spines, 1x SDR) comes up in rdma's exclusive netns mode, and
# RDMA (ibv_rc_pingpong) works between a sample of its host pairs: every
# host once as a client, to a host chosen so that the sample crosses every
# spine and includes pairs on one leaf. Then the runner runs the incast
# scenario on it (ibsw-run --no-vm scenarios/incast-128.scn), judged from
# its summary: the root (S1's port to L1) busy at its rate, the fifteen
# contributors sharing it fairly, the bystander N unhindered and the
# victim V held back by head-of-line blocking.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

TOPO=$IBSW_ROOT/topologies/fat-tree-128.net
RUN=$IBSW_ROOT/tools/ibsw-run/ibsw-run
SCN=$IBSW_ROOT/scenarios/incast-128.scn
AT_ONCE=8

ibsw_require_ibsw
ibsw_have ibv_rc_pingpong || ibsw_setup_fail "ibv_rc_pingpong missing (scripts/deps)"

mem_avail() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }

case_up() {
	local t=$EPOCHREALTIME m0 m1

	m0=$(mem_avail)
	ibsw_fabric_up "$TOPO" rdma-netns exclusive >>"$IBSW_CASE_LOG" 2>&1 ||
		{ ibsw_fail "fabric up: ${_ibsw_reason:-see the log}"; return 1; }
	m1=$(mem_avail)
	[ "${#HOST_NS[@]}" = 128 ] || { ibsw_fail "${#HOST_NS[@]} hosts, not 128"; return 1; }
	ibsw_note "fabric up with its 128 GIDs ready: $(ibsw_elapsed "$t" "$EPOCHREALTIME") s; MemAvailable -$(((m0 - m1) / 1024)) MiB, $(((m0 - m1) / 128)) KiB a host"
}

# Host i (1..128) to host (37 i) mod 128 + 1: 37 is odd, so the servers
# are a permutation of the hosts, none the client itself; they sit behind
# every spine, and 8 of the pairs are on one leaf.
sample_pairs() {
	local i j

	for ((i = 1; i <= 128; i++)); do
		j=$(((37 * i) % 128 + 1))
		[ "$i" = "$j" ] || echo "H$j-H$i"
	done
}

case_pairs() {
	local -a pairs
	local same=0 p s c

	mapfile -t pairs < <(sample_pairs)
	for p in "${pairs[@]}"; do
		s=${p%-*} c=${p#*-}
		[ $(((${s#H} - 1) / 8)) = $(((${c#H} - 1) / 8)) ] && same=$((same + 1))
	done
	echo "${#pairs[@]} pairs, $same on one leaf"
	IBSW_TOOL_TIMEOUT=180 rc_pairs "$AT_ONCE" "${pairs[@]}"
	local rc=$?
	# lossless: whatever a failure was, no switch, qdisc or rxe lost a packet
	ibsw_nothing_lost || return 1
	[ "$rc" = 0 ] || return 1
	ibsw_note "${#pairs[@]} pairs ($same on one leaf), every one done, nothing lost"
}

case_down() {
	local t=$EPOCHREALTIME

	ibsw_fabric_down >>"$IBSW_CASE_LOG" 2>&1 || { ibsw_fail "fabric down"; return 1; }
	rm -f "$IBSW_DESC"
	[ -z "$(ls /sys/class/ibsw 2>/dev/null)" ] || { ibsw_fail "switches left"; return 1; }
	ibsw_note "fabric down: $(ibsw_elapsed "$t" "$EPOCHREALTIME") s"
}

# judge DIR: the incast run's summary (scenarios/incast-128.scn). Link
# rate 2 Gb/s (1x SDR): a flow alone reaches 98.75% of it (the HCA's
# injection rate), the root's port_xmit_data counts headers too.
judge() {
	jq -r --argjson solo 1.9 '
	def w(f; win): .flows[f].windows[win].mean;
	[.fairness.contributors.flows[] as $c | w($c; "incast")] as $cs |
	{ limited: .cpu_limited.limited,
	  root: .counters["S1/1:port_xmit_data_gbps"].windows.incast.mean,
	  jain: .fairness.contributors.jain.incast,
	  contributors: ($cs | add), fewest: ($cs | min),
	  v_alone: w("V"; "alone"), v: w("V"; "incast"),
	  n_alone: w("N"; "alone"), n: w("N"; "incast") } |
	"root \(.root * 100 | round / 100) Gb/s, contributors \(.contributors * 100 | round / 100) Gb/s (Jain \(.jain * 1000 | round / 1000)), V \(.v * 100 | round / 100) of \(.v_alone * 100 | round / 100), N \(.n * 100 | round / 100) of \(.n_alone * 100 | round / 100) Gb/s",
	(if .limited then "FAIL CPU-limited (cpu_limited in summary.json)"
	 elif .root < 1.9 then "FAIL the root carried \(.root) Gb/s, not its rate"
	 elif .jain < 0.95 then "FAIL the contributors unfair: Jain \(.jain)"
	 elif .contributors < 0.95 * $solo then "FAIL the contributors together \(.contributors) Gb/s"
	 elif .v_alone < $solo or .n_alone < $solo then "FAIL V or N alone below 1.9 Gb/s"
	 elif .n < 0.9 * .n_alone then "FAIL the bystander N fell to \(.n) Gb/s"
	 elif .v > 0.5 * .v_alone then "FAIL the victim V kept \(.v) Gb/s: no head-of-line blocking"
	 else "ok" end)' "$1/summary.json"
}

case_incast() {
	local out=$IBSW_LOGDIR/incast verdict

	timeout -k 10 2400 "$RUN" --no-vm -o "$out" "$SCN" >"$IBSW_LOGDIR/incast.out" 2>&1 ||
		{ ibsw_fail "ibsw-run exit $?: $(tail -n 1 "$IBSW_LOGDIR/incast.out")"; return 1; }
	sed -n '/^mean Gb\/s/,$p' "$IBSW_LOGDIR/incast.out"
	verdict=$(judge "$out") || { ibsw_fail "no summary"; return 1; }
	echo "$verdict"
	ibsw_note "$(head -n 1 <<<"$verdict")"
	[ "$(tail -n 1 <<<"$verdict")" = ok ] || { ibsw_fail "$(tail -n 1 <<<"$verdict")"; return 1; }
}

ibsw_case up case_up
ibsw_case pairs case_pairs
ibsw_case down case_down
ibsw_case incast case_incast

ibsw_exit
