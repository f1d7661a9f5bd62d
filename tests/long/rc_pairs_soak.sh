#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 7200
#
# Rounds of ibv_rc_pingpong between the leaves of the 16-host fat tree, 8
# pairs at a time (sm_fabric's leaf pairs, without OpenSM), to catch what
# a single round rarely shows (make longcheck T=rc_pairs_soak;
# IBSW_SOAK_ROUNDS, default 100, about 75 minutes; scripts/vm passes
# IBSW_SOAK_* into the guest, and nothing else of the caller's
# environment). The failure it was written for: a
# server that waited forever for the completion of its last send, its
# client gone, once in some 75 rounds with a second VM beside it (rxe
# patch 0007). A round that fails stops the run; its log has the stuck
# server's QP state and counters (ibsw_rdma_dump) and the kernel log.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

ROUNDS=${IBSW_SOAK_ROUNDS:-100}

ibsw_require_ibsw
ibsw_have ibv_rc_pingpong || ibsw_setup_fail "ibv_rc_pingpong missing (scripts/deps)"
ibsw_fabric_up "$IBSW_ROOT/topologies/fat-tree-16.net" ||
	ibsw_setup_fail "fabric up fat-tree-16.net: ${_ibsw_reason:-see setup.log}"

leaf_pairs() {
	IBSW_TOOL_TIMEOUT=180 rc_pairs 8 H1-H5 H9-H1 H1-H13 H6-H10 H14-H6 H11-H15 H2-H3 H8-H7
}

rounds() {
	local r

	for ((r = 1; r <= ROUNDS; r++)); do
		echo "round $r"
		leaf_pairs || { dmesg | tail -n 300; return 1; }
	done
	ibsw_note "$ROUNDS rounds of 8 pairs, none failed"
}
ibsw_case rounds rounds
ibsw_case nothing_lost ibsw_nothing_lost
ibsw_exit
