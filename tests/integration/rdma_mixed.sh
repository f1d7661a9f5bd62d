#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 50
#
# RDMA between a host in init_net and a host in a network namespace,
# joined by a veth pair (patched rdma_rxe), both directions.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

ibsw_require_patched_rxe
ibsw_two_hosts m1 m2 2 --init-h1 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "two hosts: ${_ibsw_reason:-see setup.log}"

for t in rc_pingpong:rc ud_pingpong:ud rping:rp write_bw:wbw; do
	ibsw_case "${t%:*}_srv_init" "${t#*:}" m1 m2
	ibsw_case "${t%:*}_srv_netns" "${t#*:}" m2 m1
done

IBSW_AF=6
ibsw_case rping_ipv6_srv_init rp m1 m2
ibsw_case rping_ipv6_srv_netns rp m2 m1

ibsw_exit
