#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One ibsw switch, two hosts (topologies/one-switch.net), built by
# `ibswctl fabric up`: every kind of RDMA traffic crosses the switch
# (ibv_rc_pingpong, ibv_ud_pingpong, rping with data verification,
# ib_write_bw, ib_send_lat, IPv4 and IPv6 GIDs). Address resolution is
# answered by the switch, the counters add up, and nothing is dropped.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

ibsw_require_ibsw
ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"

both_ways() {
	ibsw_case "$1_srv_h1" "$2" H1 H2
	ibsw_case "$1_srv_h2" "$2" H2 H1
}

both_ways rc_pingpong rc
both_ways ud_pingpong ud
both_ways rping rp
both_ways write_bw wbw
ibsw_case send_lat slat H1 H2

IBSW_AF=6
ibsw_case rping_ipv6 rp H1 H2
ibsw_case rc_pingpong_ipv6 rc H2 H1
IBSW_AF=4

# ARP and neighbour solicitations were answered by the switch ports.
neigh_answered() {
	local h n

	for h in H1 H2; do
		n=$(ibsw_cnt "${HOST_SW[$h]}" "${HOST_PORT[$h]}" neigh_replies)
		echo "$h: neigh_replies $n"
		[ "$n" -gt 0 ] || ibsw_fail "no neighbour replies to $h" || return
	done
}
ibsw_case neigh_answered neigh_answered

# What one port received from its host, the other sent to its host.
counters_consistent() {
	local p1=${HOST_PORT[H1]} p2=${HOST_PORT[H2]} sw=${HOST_SW[H1]} c

	for c in port_xmit_packets port_rcv_packets port_xmit_data port_rcv_data; do
		echo "$c: port $p1 $(ibsw_cnt "$sw" "$p1" $c), port $p2 $(ibsw_cnt "$sw" "$p2" $c)"
	done
	[ "$(ibsw_cnt "$sw" "$p1" port_rcv_packets)" -gt 1000 ] ||
		ibsw_fail "port $p1 received too few packets" || return
	[ "$(ibsw_cnt "$sw" "$p1" port_rcv_packets)" = "$(ibsw_cnt "$sw" "$p2" port_xmit_packets)" ] ||
		ibsw_fail "rcv packets of port $p1 != xmit packets of port $p2" || return
	[ "$(ibsw_cnt "$sw" "$p2" port_rcv_data)" = "$(ibsw_cnt "$sw" "$p1" port_xmit_data)" ] ||
		ibsw_fail "rcv data of port $p2 != xmit data of port $p1" || return
	[ "$(ibsw_cnt "$sw" "$p1" port_xmit_data 0)" = "$(ibsw_cnt "$sw" "$p1" port_xmit_data)" ] ||
		ibsw_fail "all traffic is SL 0: VL 0 data should be the port's" || return
}
ibsw_case counters_consistent counters_consistent

ibsw_case nothing_lost ibsw_nothing_lost

ibsw_exit
