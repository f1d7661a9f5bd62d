#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 65
#
# RDMA between two emulated hosts in two network namespaces, joined by a
# veth pair, each with an rxe device on its end (patched rdma_rxe):
# ibv_rc_pingpong, ibv_ud_pingpong, rping (rdma_cm, data validated),
# ib_write_bw and ib_read_lat over IPv4 RoCEv2 GIDs with the server on
# either side, then rping and ibv_rc_pingpong over IPv6 GIDs.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

ibsw_require_patched_rxe
ibsw_two_hosts h1 h2 1 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "two hosts: ${_ibsw_reason:-see setup.log}"

# Each namespace has its own RoCEv2 sockets (IPv4 and IPv6).
pernet_sockets() {
	local h n

	for h in h1 h2; do
		n=$(ibsw_udp4791 "${HOST_NS[$h]}")
		echo "$h: $n sockets on UDP 4791"
		[ "$n" = 2 ] || ibsw_fail "$h has $n UDP 4791 sockets, want 2" ||
			return
	done
}
ibsw_case pernet_sockets pernet_sockets

# tool CASE TOOL: both directions.
both_ways() {
	ibsw_case "$1_srv_h1" "$2" h1 h2
	ibsw_case "$1_srv_h2" "$2" h2 h1
}

both_ways rc_pingpong rc
both_ways ud_pingpong ud
both_ways rping rp
both_ways write_bw wbw
both_ways read_lat rlat

for c in write_bw_srv_h1 write_bw_srv_h2; do
	bw=$(ibsw_bw_from_log "$IBSW_LOGDIR/$c.log")
	ibsw_note "$c: ib_write_bw 64 KiB messages: ${bw:-?} Gb/s"
done

IBSW_AF=6
ibsw_case rping_ipv6_srv_h1 rp h1 h2
ibsw_case rping_ipv6_srv_h2 rp h2 h1
ibsw_case rc_pingpong_ipv6_srv_h1 rc h1 h2
ibsw_case rc_pingpong_ipv6_srv_h2 rc h2 h1

ibsw_exit
