#!/bin/bash
# vm-options: --no-modules
# cpu: shared
# duration: 20
# SPDX-License-Identifier: GPL-2.0
#
# Negative control: with the STOCK rdma_rxe of the distro kernel, two rxe
# devices on a veth pair between two network namespaces cannot talk (the
# RoCEv2 sockets and route lookups are in init_net only). The cases pass
# when the stock module shows exactly that. Run it in a VM without our
# modules (scripts/vm --no-modules); a patched rdma_rxe that is loaded
# anyway is replaced by the stock one from /lib/modules.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

ibsw_require_root
IBSW_TOOL_TIMEOUT=30
ibsw_have ibv_rc_pingpong || ibsw_setup_fail "ibv_rc_pingpong not installed"
{
	ibsw_rxe_patched && ibsw_rxe_unload
	# --ignore-install: scripts/vm makes "modprobe rdma_rxe" load ours.
	modprobe --ignore-install rdma_rxe
} >>"$IBSW_CASE_LOG" 2>&1
ibsw_rxe_loaded || ibsw_setup_fail "modprobe rdma_rxe (stock) failed"
! ibsw_rxe_patched || ibsw_setup_fail "the loaded rdma_rxe is not the stock one"
ibsw_note "rdma_rxe: stock $(modinfo -F filename rdma_rxe)"
ibsw_two_hosts s1 s2 7 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "two hosts: ${_ibsw_reason:-see setup.log}"

# Stock rxe has no RoCEv2 socket in a new namespace.
no_pernet_socket() {
	local n

	n=$(ibsw_udp4791 "${HOST_NS[s1]}")
	[ "$n" = 0 ] || ibsw_fail "stock rxe has $n UDP 4791 sockets in a netns"
}

# ibv_rc_pingpong must fail, after a successful out-of-band exchange (so
# that it is RDMA that fails, not the TCP connection).
rc_pingpong_fails() {
	local clog

	if tool_rc_pingpong s1 s2; then
		ibsw_fail "ibv_rc_pingpong between two netns succeeded with stock rdma_rxe"
		return
	fi
	echo "failed as expected: $_ibsw_reason"
	clog=$IBSW_CASE_LOG
	grep -q 'remote address' "$clog" ||
		ibsw_fail "out-of-band exchange did not happen: $_ibsw_reason" ||
		return
	_ibsw_reason=
	return 0
}

ibsw_case no_pernet_socket no_pernet_socket
ibsw_case rc_pingpong_fails rc_pingpong_fails

ibsw_exit
