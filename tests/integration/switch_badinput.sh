#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 130
#
# Bad input on a host port (topologies/one-switch.net): H1 sends, through
# an AF_PACKET socket on its ib0 (tests/frames.py), truncated and malformed
# RoCEv2 frames, foreign protocols, RoCEv2 packets to destinations the
# fabric does not know, from another host's address or one the fabric does
# not know, on an SL whose VL the port drops, and larger than the switch's
# input buffer. Each kind raises exactly its counter of H1's
# switch port by the number sent and the netdev's tx_dropped by the same,
# none of them reaches H2, and RDMA between the two hosts carries on with
# nothing lost. So do RoCEv2 frames that a tc action put on another TX
# queue than their VL's (hca_discards), and pktgen may not send one skb
# many times through a host port.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034,SC2001
. "$(dirname "$0")/../lib.sh"

FRAMES=$IBSW_ROOT/tests/frames.py
N=25			# frames of each kind
BUF=128			# input buffer credits: 8 KiB, below a 9000-byte frame

ibsw_require_ibsw
ibsw_have python3 || ibsw_setup_fail "python3 missing"
ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" buffer $BUF >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"

SW=${HOST_SW[H1]}
P1=${HOST_PORT[H1]}
P2=${HOST_PORT[H2]}
DEV=${HOST_DEV[H1]}
SRC4=${HOST_IP4[H1]}	# frames the switch would carry come from H1's own address

cnt() { ibsw_cnt "$SW" "$1" "$2"; }
tx_dropped() { hx H1 cat "/sys/class/net/$DEV/statistics/tx_dropped"; }
rx_packets() { hx H2 cat "/sys/class/net/${HOST_DEV[H2]}/statistics/rx_packets"; }

# inject KIND COUNTER [frames.py options]: send N frames of KIND from H1
# and check that COUNTER of H1's port rose by exactly N (at least N for
# rcv_foreign, which the hosts' own IPv6 chatter also raises), tx_dropped
# of ib0 too if the host port drops them (HOST_DROP=1: not foreign, and not
# for the switch to route), and that H2's port sent nothing.
HOST_DROP=1
risen() { [ $(($(cnt "$P1" "$1") - $2)) -ge "$N" ]; }
inject() {
	local kind=$1 counter=$2 c0 c1 d0 d1 x0 x1 r0 r1
	shift 2

	c0=$(cnt "$P1" "$counter") d0=$(tx_dropped)
	x0=$(cnt "$P2" port_xmit_packets) r0=$(rx_packets)
	hx H1 "$FRAMES" "$DEV" "$kind" "$N" "$@" || ibsw_fail "frames.py $kind failed" || return
	# Frames take the host link's serialisation time, then the switch's
	wait_for "$counter += $N after $kind" 10 risen "$counter" "$c0" >/dev/null ||
		ibsw_fail "$kind: $counter rose by $(($(cnt "$P1" "$counter") - c0)), not $N" || return
	sleep 0.2
	c1=$(cnt "$P1" "$counter") d1=$(tx_dropped)
	x1=$(cnt "$P2" port_xmit_packets) r1=$(rx_packets)
	echo "$kind: $counter +$((c1 - c0)) tx_dropped +$((d1 - d0)) H2 port xmit +$((x1 - x0)) H2 rx +$((r1 - r0))"
	if [ "$counter" != rcv_foreign ]; then
		[ $((c1 - c0)) = "$N" ] || ibsw_fail "$kind: $counter rose by $((c1 - c0)), not $N" || return
	fi
	if [ "$HOST_DROP" = 1 ] && [ "$counter" != rcv_foreign ]; then
		[ $((d1 - d0)) = "$N" ] || ibsw_fail "$kind: tx_dropped rose by $((d1 - d0)), not $N" || return
	else
		[ $((d1 - d0)) = 0 ] || ibsw_fail "$kind: tx_dropped rose by $((d1 - d0)), not 0" || return
	fi
	[ $((x1 - x0)) = 0 ] || ibsw_fail "$kind: H2's port sent $((x1 - x0)) packets" || return
	[ $((r1 - r0)) = 0 ] || ibsw_fail "$kind: H2 received $((r1 - r0)) packets" || return
}

every_kind() {
	local kind counter

	"$FRAMES" --list >/dev/null || ibsw_fail "frames.py --list failed" || return
	while read -r kind counter; do
		case $kind in
		roce) continue ;;	# needs a destination: see no_route
		roce6) continue ;;	# likewise: see spoofed_source
		cc-mad* | cnp) continue ;;	# for an HCA: hca_cc_mad, hca_cc
		roce-big) inject "$kind" "$counter" --src4 "$SRC4" --dst4 "${HOST_IP4[H2]}" || return ;;
		roce-sl) inject "$kind" "$counter" --src4 "$SRC4" --dst4 "${HOST_IP4[H2]}" --sl 15 ||
			return ;;
		*) inject "$kind" "$counter" || return ;;
		esac
	done < <("$FRAMES" --list)
}

# SL 15 goes to VL 15 on H1's side of its port (VL 15: drop), and H1's
# link carries frames up to 9000 bytes: roce-big (8.5 KiB) exceeds the 8 KiB
# buffer.
setup_drops() {
	ibswctl port set "$SW/$P1" sl2vl in 0 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,15 || return
	hx H1 ip link set "$DEV" mtu 9000
}
restore() {
	hx H1 ip link set "$DEV" mtu 4200
	ibswctl port set "$SW/$P1" sl2vl in 0 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3
}

bad_frames() {
	setup_drops || ibsw_fail "cannot set up the drops" || return
	every_kind
	local rc=$?
	restore || ibsw_fail "cannot restore the port" || return
	return "$rc"
}
ibsw_case bad_frames bad_frames

# A frame on another netdev TX queue than its VL's: tc's skbedit on the
# clsact egress hook puts H1's frames (SL 0: VL 0) on queue 1, past the
# port's queue selection. Only VL 0's queue stops when VL 0's FIFO fills,
# so the host port drops them and counts hca_discards; they never reach H2.
wrong_queue() {
	local rc HOST_DROP=1

	[ -e "/sys/class/ibsw/$SW/ports/$P1/hw_counters/hca_discards" ] ||
		ibsw_fail "$SW/$P1 has no hw_counters/hca_discards" || return
	hx H1 tc qdisc add dev "$DEV" clsact || ibsw_fail "tc qdisc add clsact failed" || return
	if ! hx H1 tc filter add dev "$DEV" egress matchall action skbedit queue_mapping 1; then
		hx H1 tc qdisc del dev "$DEV" clsact
		ibsw_fail "tc filter ... skbedit queue_mapping 1 failed"
		return
	fi
	inject roce hca_discards --src4 "$SRC4" --dst4 "${HOST_IP4[H2]}"
	rc=$?
	hx H1 tc qdisc del dev "$DEV" clsact || ibsw_fail "tc qdisc del clsact failed" || return
	return "$rc"
}
ibsw_case wrong_queue wrong_queue

# pktgen's clone_skb and burst hand the driver one skb again and again; a
# host port scrubs, rewrites and queues what it gets, so it does not
# advertise IFF_TX_SKB_SHARING and pktgen refuses both.
pktgen_shared_skb() {
	local ctl=/proc/net/pktgen/kpktgend_0 pg=/proc/net/pktgen/$DEV rc=0 v

	modprobe pktgen || ibsw_fail "modprobe pktgen failed" || return
	hx H1 sh -c "echo 'add_device $DEV' >$ctl" || ibsw_fail "pktgen add_device $DEV failed" || return
	for v in "clone_skb 8" "burst 8"; do
		if hx H1 sh -c "echo '$v' >$pg" 2>/dev/null; then
			ibsw_fail "pktgen accepted '$v' on a host port"
			rc=1
			break
		fi
		echo "pktgen refused '$v'"
	done
	hx H1 grep -E 'clone_skb|burst' "$pg"
	hx H1 sh -c "echo rem_device_all >$ctl" || ibsw_fail "pktgen rem_device_all failed" || return
	return "$rc"
}
ibsw_case pktgen_shared_skb pktgen_shared_skb

# RoCEv2 to an address the table maps to a LID the switch has no route
# for, and to H2 with its LID routed back out of H1's own port: the
# switch (not the host port) counts relay errors.
no_route() {
	local addrs lft rc

	addrs=$(ibswctl addr show | awk '$2 == "lid" { printf "%s=%s ", $1, $3 }')
	lft=$(ibswctl lft show "$SW" | awk '$1 == "lid" { printf "%s%s:%s", s, $2, $4; s = "," }')
	echo "addresses: $addrs"
	echo "lft: $lft"
	[ -n "$addrs" ] && [ -n "$lft" ] || ibsw_fail "empty address or forwarding table" || return
	HOST_DROP=0
	# shellcheck disable=SC2086 # a list of words
	ibswctl addr set $addrs 10.0.250.77=77 || return
	inject roce port_rcv_switch_relay_errors --src4 "$SRC4" --dst4 10.0.250.77
	rc=$?
	# shellcheck disable=SC2086
	ibswctl addr set $addrs || return
	[ "$rc" = 0 ] || return "$rc"

	ibswctl lft set "$SW" "$(echo "$lft" | sed "s/\b${HOST_LID[H2]}:$P2\b/${HOST_LID[H2]}:$P1/")" || return
	ibswctl lft show "$SW"
	inject roce port_rcv_switch_relay_errors --src4 "$SRC4" --dst4 "${HOST_IP4[H2]}"
	rc=$?
	ibswctl lft set "$SW" "$lft" || return
	return "$rc"
}
ibsw_case no_route no_route

# A host sends from its own addresses only (inbound filtering, issue 20
# finding 6): RoCEv2 to H2 from H2's own addresses, or from one the fabric
# does not know, is dropped at H1's port and counted in
# PortRcvConstraintErrors; H2 never sees it.
spoofed_source() {
	local HOST_DROP=1

	inject roce port_rcv_constraint_errors --src4 "${HOST_IP4[H2]}" \
		--dst4 "${HOST_IP4[H2]}" || return
	inject roce port_rcv_constraint_errors --src4 10.0.250.1 \
		--dst4 "${HOST_IP4[H2]}" || return
	inject roce6 port_rcv_constraint_errors --src6 "${HOST_IP6[H2]}" \
		--dst6 "${HOST_IP6[H2]}"
}
ibsw_case spoofed_source spoofed_source

# After all that, RDMA between the hosts works and nothing else was lost.
ibsw_case rc_pingpong rc H1 H2
ibsw_case rping rp H2 H1
ibsw_case write_bw wbw H1 H2

# The switch discarded nothing else, H2's port saw none of it, and the
# hosts lost nothing.
nothing_else_lost() {
	local c n

	for c in port_rcv_errors rcv_oversize rcv_vl_discards port_rcv_switch_relay_errors \
		port_rcv_constraint_errors; do
		n=$(cnt "$P2" "$c")
		echo "H2's port $c: $n"
		[ "$n" = 0 ] || ibsw_fail "H2's port $c = $n" || return
	done
	ibsw_nothing_lost port_xmit_discards excessive_buffer_overrun_errors
}
ibsw_case nothing_else_lost nothing_else_lost

ibsw_exit
