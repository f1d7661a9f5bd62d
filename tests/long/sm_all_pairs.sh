#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 1800
#
# RDMA between every pair of hosts on OpenSM's routes (issue 16), too long
# for make check (make longcheck): the 16-host fat tree under OpenSM's
# ftree, then seed 002 under minhop, ibv_rc_pingpong for each of their 120
# and 21 pairs, 8 at a time, each pair once (the server on the first host
# of the pair). One case per fabric; its log lists every pair's time and
# the pairs that failed.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

DEV=ibsw_mgmt0
AT_ONCE=8

ibsw_require_ibsw
for t in opensm ibv_rc_pingpong; do
	ibsw_have "$t" || ibsw_setup_fail "$t missing (scripts/deps)"
done
modprobe ib_umad || ibsw_setup_fail "modprobe ib_umad failed"

# all_pairs: ibv_rc_pingpong for every pair of the fabric's hosts
all_pairs() {
	local -a hosts pairs=()
	local i j

	mapfile -t hosts < <(printf '%s\n' "${!HOST_NS[@]}" | sort -V)
	for ((i = 0; i < ${#hosts[@]}; i++)); do
		for ((j = i + 1; j < ${#hosts[@]}; j++)); do
			pairs+=("${hosts[i]}-${hosts[j]}")
		done
	done
	echo "${#pairs[@]} pairs of ${#hosts[@]} hosts"
	IBSW_TOOL_TIMEOUT=180 rc_pairs "$AT_ONCE" "${pairs[@]}"
}

fabric() {
	HOST_NS=() HOST_DEV=() HOST_RXE=() HOST_IP4=() HOST_IP6=() HOST_SW=() HOST_PORT=()
	HOST_LID=() HOST_MGMT=()
	ibsw_fabric_up "$IBSW_ROOT/topologies/$1" sm opensm "${@:2}" >>"$IBSW_CASE_LOG" 2>&1 ||
		ibsw_setup_fail "fabric up $1: ${_ibsw_reason:-see setup.log}"
}

fabric fat-tree-16.net routing-engine ftree
ibsw_case fat_tree_ftree all_pairs
ibsw_fabric_down >>"$IBSW_CASE_LOG" 2>&1
fabric seed002-sm.net
ibsw_case seed002_minhop all_pairs

ibsw_exit
