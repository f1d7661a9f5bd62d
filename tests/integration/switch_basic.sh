#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One ibsw switch, two hosts (topologies/one-switch.net), built by
# `ibswctl fabric up`: every kind of RDMA traffic crosses the switch
# (ibv_rc_pingpong, ibv_ud_pingpong, rping with data verification,
# ib_write_bw, ib_send_lat, IPv4 and IPv6 GIDs). Address resolution is
# answered by the switch, the counters add up, the HCA injection rate and
# the clock offsets are set and read back, and nothing is dropped.
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

# A host's HCA injection rate: 98.75% of the link by default, set and
# read back by port set, never above the link, refused on a link port.
hca_rate() {
	local sw=${HOST_SW[H1]} p=${HOST_PORT[H1]} rate want got
	local f=/sys/class/ibsw/$sw/ports/$p/hca_rate

	rate=$(ibswctl -j port show "$sw/$p" | jq -r '.[0].rate') || return
	want=$((rate * 987500 / 1000000))
	read -r got <"$f"
	echo "link $rate bit/s, default HCA rate $got"
	[ "$got" = "$want" ] || ibsw_fail "default HCA rate $got, not $want" || return
	ibswctl port set "$sw/$p" hca-rate 1G || ibsw_fail "port set hca-rate 1G refused" || return
	read -r got <"$f"
	[ "$got" = 1000000000 ] || ibsw_fail "hca-rate 1G reads back $got" || return
	got=$(ibswctl -j port show "$sw/$p" | jq -r '.[0].hca_rate')
	[ "$got" = 1000000000 ] || ibsw_fail "port show: hca_rate $got, not 1G" || return
	ibswctl port set "$sw/$p" hca-rate 1000G || return
	read -r got <"$f"
	[ "$got" = "$rate" ] || ibsw_fail "hca-rate above the link reads $got, not $rate" || return
	ibswctl port set "$sw/$p" hca-rate 0 || return
	read -r got <"$f"
	[ "$got" = "$want" ] || ibsw_fail "hca-rate 0 reads $got, not the default $want" || return
}
ibsw_case hca_rate hca_rate

# Clock offsets: within +-clock-ppm, not all alike, from the seed; 0 ppm
# makes every clock nominal.
clock_ppm() {
	local sw=${HOST_SW[H1]} f v all1 all7 n=0

	for f in /sys/class/ibsw/"$sw"/ports/*/clock_ppm; do
		read -r v <"$f"
		[ "$v" -ge -100 ] && [ "$v" -le 100 ] || ibsw_fail "$f: $v ppm, beyond 100" || return
		all1+="$v " n=$((n + 1))
	done
	echo "seed 1, 100 ppm: $all1"
	[ "$(tr ' ' '\n' <<<"$all1" | sort -u | grep -c .)" -gt 1 ] ||
		ibsw_fail "all $n clocks at the same offset" || return
	ibswctl fabric set clock-seed 7 || return
	all7=$(cat /sys/class/ibsw/"$sw"/ports/*/clock_ppm | tr '\n' ' ')
	echo "seed 7, 100 ppm: $all7"
	[ "$all7" != "$all1" ] || ibsw_fail "seed 7 gave the clocks of seed 1" || return
	ibswctl fabric set clock-ppm 0 || return
	[ "$(sort -u /sys/class/ibsw/"$sw"/ports/*/clock_ppm)" = 0 ] ||
		ibsw_fail "clock-ppm 0 left offsets" || return
	! ibswctl fabric set clock-ppm 1001 2>/dev/null || ibsw_fail "clock-ppm 1001 accepted" || return
	ibswctl fabric set clock-seed 1 clock-ppm 100 || return
	[ "$(cat /sys/class/ibsw/"$sw"/ports/*/clock_ppm | tr '\n' ' ')" = "$all1" ] ||
		ibsw_fail "seed 1 again gave other clocks" || return
	ibswctl fabric show
}
ibsw_case clock_ppm clock_ppm

ibsw_case nothing_lost ibsw_nothing_lost

ibsw_exit
