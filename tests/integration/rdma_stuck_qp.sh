#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 120
#
# Packets that cannot leave, and the QP that sent them (issue 20, finding
# 1). OpenSM, in one sweep with QoS, gives every switch port a VL
# arbitration table without VL 0, as the IBA lets an SM do (netlink
# refuses such a table): nothing is ever sent on VL 0. An ib_write_bw from
# H1 to H2 (SL 0, VL 0) fills S1's input buffer, no credits come back, and
# the packets of H1's QP wait in H1's host port.
#  - stuck: killing the client destroys that QP with its packets queued;
#    the process is gone well within the 50 s rxe used to wait for the
#    references the packets held (then it warned and freed the QP under
#    them). OpenSM's HOQLife toward CAs (16: 268 emulated ms, 268 s here
#    at scale 1000) holds them meanwhile.
#  - hoq_drain: S1/2's HOQLife lowered to 4 (65.5 us, 65 ms here): the
#    dead QP's packets are discarded at the head of the queue one
#    lifetime apart and S1's buffer from H1 empties; nothing touches the
#    QP that sent them (scripts/vm fails the run on a warning or an oops;
#    the unpatched destructor dropped a reference of the freed QP).
#  - hoq_flow: a new flow on VL 0 has its packets discarded as they come
#    (its QP retransmits for ever: rxe takes retry count 7, perftest's,
#    as infinite); perfquery reads the discards in PortXmitDiscardDetails
#    (PortSwHOQLifetimeLimitDiscards) of S1/2 as sysfs counts them.
#  - restore: default tables by netlink, RDMA between the hosts works.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

MP=3				# the management HCA's switch port
DEV=ibsw_mgmt0

ibsw_require_ibsw
ibsw_require_patched_rxe
for t in opensm ibstat smpquery perfquery; do
	ibsw_have "$t" || ibsw_setup_fail "$t missing (scripts/deps: opensm, infiniband-diags)"
done
modprobe ib_umad || ibsw_setup_fail "modprobe ib_umad failed"
ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" scale 1000 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"
ibswctl mgmt add "S1/$MP" name "$DEV" lid 100 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "mgmt add S1/$MP failed"
ibsw_defer "ibswctl mgmt del S1/$MP 2>/dev/null"
GUID=$(ibstat -p "$DEV")

P1=${HOST_PORT[H1]}
P2=${HOST_PORT[H2]}
HOQ=port_sw_hoq_lifetime_limit_discards

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

# port_default P: the arbitration table of a port of 4 VLs as it started
port_default() {
	ibswctl port set "S1/$1" vlarb-high none vlarb-low 0:64,1:64,2:64,3:64
}

case_starve() {
	local conf log=$IBSW_LOGDIR/opensm.log cache out

	conf=$(mktemp)
	cache=$(mktemp -d)
	cat >"$conf" <<-EOF
		qos TRUE
		qos_swe_vlarb_high 0:0
		qos_swe_vlarb_low 1:64,2:64,3:64
	EOF
	OSM_CACHE_DIR=$cache timeout 120 opensm -F "$conf" -g "$GUID" -o -e -f "$log" -s 0 >/dev/null 2>&1
	rm -rf "$cache" "$conf"
	grep -E "SUBNET UP|ERRORS" "$log"
	grep -q "SUBNET UP" "$log" || ibsw_fail "no SUBNET UP in opensm's log" || return
	out=$(ibswctl -d port show "S1/$P2")
	echo "$out"
	grep -qx " *vlarb-low 1:64,2:64,3:64" <<<"$out" || ibsw_fail "vlarb-low is not OpenSM's" || return
	grep -q " vlarb-high [0-9]" <<<"$out" && ibsw_fail "VL 0 kept a high-priority weight" && return
	# OpenSM's leaf_head_of_queue_lifetime, by PortInfo Set
	grep -qx " *hoq-life 16" <<<"$out" || ibsw_fail "HOQLife is not OpenSM's 16" || return
	[ "$(cat "/sys/class/ibsw/S1/ports/$P2/hoq_life")" = 16 ] ||
		ibsw_fail "sysfs hoq_life is not 16" || return
	# netlink refuses what the SM may do
	if out=$(ibswctl port set "S1/$P2" vlarb-high none vlarb-low 1:64 2>&1); then
		ibsw_fail "netlink took a table that starves VL 0"
		return
	fi
	echo "refused: $out"
	grep -q "VL 0 of port $P2 has no weight" <<<"$out" ||
		ibsw_fail "refused without saying why: $out" || return
	# GMPs to and from the management HCA go on VL 0
	port_default "$MP" || ibsw_fail "cannot give S1/$MP its table back"
}
ibsw_case starve case_starve

case_stuck() {
	local cli t0 gone

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
	ibsw_reap
	[ "$(ibsw_cnt S1 "$P2" "$HOQ")" = 0 ] || ibsw_fail "S1/$P2 discarded at HOQLife 16"
}
ibsw_case stuck case_stuck

# S1's buffer from H1 on VL 0 is empty
h1_buffer_free() {
	local d=/sys/class/ibsw/S1/ports/$P1/vls/0

	[ "$(cat "$d/buffer_free")" = "$(cat "$d/buffer_credits")" ]
}

case_hoq_drain() {
	ibswctl port set "S1/$P2" hoq-life 4 || ibsw_fail "port set hoq-life 4 failed" || return
	wait_for "the dead QP's packets to go" 120 h1_buffer_free ||
		{ ibsw_fail "S1's buffer from H1 still holds $(cat "/sys/class/ibsw/S1/ports/$P1/vls/0/buffer_free") free credits"; return 1; }
	echo "S1/$P2: $(ibsw_cnt S1 "$P2" "$HOQ") discarded at the head of the queue," \
		"$(ibsw_cnt S1 "$P2" port_xmit_discards) in all"
	[ "$(ibsw_cnt S1 "$P2" "$HOQ")" -gt 0 ] || ibsw_fail "no HOQ discards counted" || return
	[ "$(ibsw_cnt S1 "$P2" port_inactive_discards)" = 0 ] ||
		ibsw_fail "HOQ discards counted as inactive"
}
ibsw_case hoq_drain case_hoq_drain

# S1/2 discarded at least 20 more packets at the head of the queue
hoq_grew() { [ "$(ibsw_cnt S1 "$P2" "$HOQ")" -ge $((HOQ_BEFORE + 20)) ]; }

case_hoq_flow() {
	local swlid out want got

	HOQ_BEFORE=$(ibsw_cnt S1 "$P2" "$HOQ")
	ibsw_flow_start H1 H2 || return 1
	wait_for "S1/$P2 to discard the new flow's packets" 120 hoq_grew ||
		{ ibsw_fail "S1/$P2 discarded $(($(ibsw_cnt S1 "$P2" "$HOQ") - HOQ_BEFORE)) of the flow's packets in 120 s"; return 1; }
	ibsw_reap
	# what the dead QP left goes to H2 now: the counters stand still
	port_default "$P2" || ibsw_fail "cannot give S1/$P2 its table back" || return
	wait_for "S1's buffer from H1 to empty" 60 h1_buffer_free || return
	want=$(ibsw_cnt S1 "$P2" "$HOQ")
	echo "S1/$P2 HOQ discards: $HOQ_BEFORE -> $want"
	# the switch's PMA agrees (the switch's LID is OpenSM's)
	swlid=$(timeout 20 smpquery -C "$DEV" -P 1 -D portinfo 0,1 0 | awk -F'[.]+' '$1 == "Lid:" { print $2 }')
	out=$(timeout 30 perfquery --xmtdisc -C "$DEV" -P 1 "$swlid" "$P2" 2>&1) ||
		ibsw_fail "perfquery --xmtdisc $swlid $P2 failed: $out" || return
	echo "$out"
	got=$(awk -F'[.]+' '$1 == "PortSwHOQLifetimeLimitDiscards:" { print $2 }' <<<"$out")
	# a 16-bit counter
	[ "$got" = $((want > 65535 ? 65535 : want)) ] ||
		ibsw_fail "PortSwHOQLifetimeLimitDiscards $got, sysfs $want" || return
	got=$(awk -F'[.]+' '$1 == "PortInactiveDiscards:" { print $2 }' <<<"$out")
	[ "$got" = 0 ] || ibsw_fail "PortInactiveDiscards $got, not 0"
}
ibsw_case hoq_flow case_hoq_flow

case_restore() {
	if ! { port_default "$P1" && port_default "$P2" &&
	       ibswctl port set "S1/$P2" hoq-life 16; }; then
		ibsw_fail "port set failed"
		return 1
	fi
	tool_rping H1 H2
}
ibsw_case restore case_restore

ibsw_exit
