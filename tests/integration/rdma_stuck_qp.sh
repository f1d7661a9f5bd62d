#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 90
#
# A QP destroyed while its packets cannot leave (issue 20, finding 1).
# S1's port to H2 is given a VL arbitration table without VL 0, so nothing
# is ever sent to H2 on it; an ib_write_bw from H1 to H2 (SL 0, VL 0) then
# fills S1's input buffer, no credits come back, and the packets of H1's
# QP wait in H1's host port. Killing the client destroys that QP with its
# packets queued:
#  - the process is gone well within the 50 s rxe used to wait for the
#    references the packets held (then it warned and freed the QP under
#    them);
#  - once the table is restored the packets leave, and nothing touches
#    the QP that sent them (scripts/vm fails the run on a warning or an
#    oops; the unpatched destructor dropped a reference of the freed QP);
#  - RDMA between the two hosts works again.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

ibsw_require_ibsw
ibsw_require_patched_rxe
ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" scale 1000 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"

P1=${HOST_PORT[H1]}
P2=${HOST_PORT[H2]}

# S1 stopped taking H1's data: its port from H1 received nothing for 2 s
_last=-1
h1_stalled() {
	local now

	now=$(ibsw_cnt S1 "$P1" port_rcv_data) || return 1
	[ "$now" = "$_last" ] && [ "$now" -gt 0 ] && return 0
	_last=$now
	sleep 2
	return 1
}

case_stuck() {
	local cli t0 gone

	ibswctl port set "S1/$P2" vlarb-high none vlarb-low none || return 1
	ibsw_flow_start H1 H2 || return 1
	cli=$IBSW_FLOW_CLI
	wait_for "H1's flow to stall at S1" 60 h1_stalled ||
		{ ibsw_fail "S1 still takes H1's data with VL 0 starved"; return 1; }
	echo "H1's flow stalled: S1/$P1 received $(ibsw_cnt S1 "$P1" port_rcv_data) words"
	hx H1 rdma resource show qp link "${HOST_RXE[H1]}/1"
	# SIGKILL the client (not its timeout), so its QP is destroyed at exit
	t0=$EPOCHREALTIME
	pkill -KILL -P "$cli" || { ibsw_fail "no client process under $cli"; return 1; }
	wait_for "H1's ib_write_bw to exit" 60 ibsw_pid_gone "$cli" >/dev/null ||
		{ ibsw_fail "H1's ib_write_bw still exiting 60 s after SIGKILL"; return 1; }
	gone=$(ibsw_elapsed "$t0" "$EPOCHREALTIME")
	echo "client gone $gone s after SIGKILL"
	# rxe's wait for the packets was 50 s; the process's own teardown
	# takes 3 s here, 17 s on the debug kernel (KASAN) beside another VM
	[ "${gone%.*}" -lt 30 ] || { ibsw_fail "the client took $gone s to exit"; return 1; }

	# the packets the dead QP left go now
	ibswctl port set "S1/$P2" vlarb-low 0:64 || return 1
	sleep 3
	ibsw_reap
	tool_rping H1 H2
}
ibsw_case stuck case_stuck

ibsw_exit
