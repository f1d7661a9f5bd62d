#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 115
#
# One ibsw switch, two hosts (topologies/one-switch.net), built by
# `ibswctl fabric up`: every kind of RDMA traffic crosses the switch
# (ibv_rc_pingpong, ibv_ud_pingpong, rping with data verification,
# ib_write_bw, ib_send_lat, IPv4 and IPv6 GIDs). Address resolution is
# answered by the switch, the counters add up, the HCA injection rate and
# the clock offsets are set and read back, and nothing is dropped.
# Then the same fabric again in rdma's exclusive netns mode.
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

# The same fabric in rdma's exclusive netns mode (ibswctl(8), "RDMA NETWORK
# NAMESPACE MODE"), from the shared mode: fabric up switches and saves the
# shared mode, every host sees its own rxe device only (bound to its
# namespace by rxe patch 0006), hca clock and fabric set scale reach the
# devices there, RDMA works with the device each host sees, and fabric down
# deletes the devices in their namespaces and restores the shared mode.
IBSW_DESC_X=$IBSW_LOGDIR/fabric-exclusive.json
RDMA_SAVED=/run/ibsw/rdma-netns

rdma_mode() { rdma system show | awk '{ print $2 }'; }
have_exclusive() { [ -e "$IBSW_DESC_X" ] || ibsw_fail "no fabric in exclusive mode"; }

exclusive_down() {
	local h

	[ -e "$IBSW_DESC_X" ] || return 0
	for h in H1 H2; do
		ibsw_netns_kill "${HOST_NS[$h]}"
	done
	ibswctl fabric down desc "$IBSW_DESC_X"
}

exclusive_up() {
	# the mode changes only while no namespace but the initial one exists
	ibsw_fabric_down || ibsw_fail "fabric down (shared) failed" || return
	echo "mode before: $(rdma_mode)"
	[ "$(rdma_mode)" = shared ] || ibsw_fail "mode $(rdma_mode) before, not shared" || return
	ibswctl fabric up "$IBSW_ROOT/topologies/one-switch.net" desc "$IBSW_DESC_X" scale 50 \
		rdma-netns exclusive || ibsw_fail "fabric up rdma-netns exclusive failed" || return
	ibsw_defer exclusive_down
	echo "mode: $(rdma_mode), saved: $(cat "$RDMA_SAVED")"
	[ "$(rdma_mode)" = exclusive ] || ibsw_fail "mode $(rdma_mode) after fabric up" || return
	[ "$(cat "$RDMA_SAVED")" = shared ] || ibsw_fail "$RDMA_SAVED does not say shared" || return
	IBSW_DESC=$IBSW_DESC_X ibsw_fabric_load_desc
}

# In the host's namespace: the IPv4 RoCEv2 GID index of its device
# shellcheck disable=SC2016 # expanded by the shell in the namespace
xgid4() {
	hx "$1" sh -c 'p=/sys/class/infiniband/$1/ports/1
		for i in $(seq 0 15); do
			[ "$(cat $p/gids/$i)" = "$2" ] &&
				[ "$(cat $p/gid_attrs/types/$i 2>/dev/null)" = "RoCE v2" ] &&
				{ echo "$i"; exit 0; }
		done
		exit 1' sh "${HOST_RXE[$1]}" "$(ibsw_addr_gid "${HOST_IP4[$1]}")"
}

exclusive_own_device() {
	local h devs

	have_exclusive || return
	devs=$(ls /sys/class/infiniband)
	echo "initial namespace: rdma devices '$devs'"
	[ -z "$devs" ] || ibsw_fail "the initial namespace sees $devs" || return
	for h in H1 H2; do
		wait_for "IPv4 RoCEv2 GID of ${HOST_RXE[$h]}" 20 xgid4 "$h" >/dev/null || return
		devs=$(hx "$h" ls /sys/class/infiniband | tr '\n' ' ')
		echo "$h: sysfs: $devs; rdma link: $(hx "$h" rdma link show | tr '\n' ' ')"
		[ "$devs" = "${HOST_RXE[$h]} " ] || ibsw_fail "$h sees '$devs'" || return
		[ "$(hx "$h" rdma link show | wc -l)" = 1 ] ||
			ibsw_fail "$h: rdma link shows more than its device" || return
		# fabric up set its clock from the host's namespace (hca clock ... netns)
		[ "$(hx "$h" cat "/sys/class/infiniband/${HOST_RXE[$h]}/ports/1/cc/time_scale")" = 50 ] ||
			ibsw_fail "${HOST_RXE[$h]}: cc time_scale is not the fabric's 50" || return
	done
	ibswctl fabric set scale 60 || ibsw_fail "fabric set scale 60 failed" || return
	for h in H1 H2; do
		[ "$(hx "$h" cat "/sys/class/infiniband/${HOST_RXE[$h]}/ports/1/cc/time_scale")" = 60 ] ||
			ibsw_fail "${HOST_RXE[$h]}: fabric set scale did not reach it" || return
	done
}

ready_cm_in_host() {
	hx "$1" rdma resource show cm_id 2>/dev/null | grep LISTEN | grep -q -- ":$IBSW_PORT\b"
}

# rdma_cm finds the device of the host's namespace by itself; the client
# through rping_client.sh, which forgives rping's own teardown race
exclusive_rping() {
	have_exclusive || return
	ibsw_next_port
	IBSW_PORT=$_ibsw_port
	ibsw_server_client H2 H1 ready_cm_in_host 60 \
		rping -s -a "${HOST_IP4[H2]}" -p "$IBSW_PORT" -C 10 -S 1024 -V -- \
		"$_ibsw_lib/rping_client.sh" 10 -c -a "${HOST_IP4[H2]}" -I "${HOST_IP4[H1]}" \
		-p "$IBSW_PORT" -C 10 -S 1024 -V
}

# perftest without -d: the one device the host sees
exclusive_write_bw() {
	local g1 g2

	have_exclusive || return
	g1=$(xgid4 H1) && g2=$(xgid4 H2) || ibsw_fail "no IPv4 RoCEv2 GID" || return
	ibsw_next_port
	IBSW_PORT=$_ibsw_port
	ibsw_server_client H2 H1 ready_tcp 60 \
		ib_write_bw -x "$g2" -p "$IBSW_PORT" -F -u 20 -s 65536 -n 100 --report_gbits -- \
		ib_write_bw -x "$g1" -p "$IBSW_PORT" -F -u 20 -s 65536 -n 100 --report_gbits "$(_oob H2)" ||
		return
	grep -q "Device *: ${HOST_RXE[H1]}" "$IBSW_CASE_LOG" ||
		ibsw_fail "ib_write_bw on H1 did not use ${HOST_RXE[H1]}"
}

exclusive_down_restores() {
	local err=$IBSW_LOGDIR/exclusive-down.err rc=0

	exclusive_down 2>"$err" || rc=$?
	cat "$err"
	[ "$rc" = 0 ] || ibsw_fail "fabric down failed: $(tail -n 1 "$err")" || return
	# the devices were deleted where they were, not found "already gone"
	! grep -q "already gone" "$err" || ibsw_fail "$(grep -m 1 "already gone" "$err")" || return
	echo "mode after: $(rdma_mode)"
	[ "$(rdma_mode)" = shared ] || ibsw_fail "mode $(rdma_mode) after fabric down" || return
	[ ! -e "$RDMA_SAVED" ] || ibsw_fail "$RDMA_SAVED is still there" || return
	[ -z "$(ls /sys/class/infiniband)" ] || ibsw_fail "rdma devices left: $(ls /sys/class/infiniband)"
}

ibsw_case exclusive_up exclusive_up
ibsw_case exclusive_own_device exclusive_own_device
ibsw_case exclusive_rping exclusive_rping
ibsw_case exclusive_write_bw exclusive_write_bw
ibsw_case exclusive_down_restores exclusive_down_restores

ibsw_exit
