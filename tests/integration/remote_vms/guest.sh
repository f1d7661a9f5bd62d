#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One VM's part of tests/integration/remote_vms.sh: guest.sh A or guest.sh B.
# A has S1 and H1-H3, B has S2 and H4-H7 (topologies/seed002-2m.net); the
# other VM is at the other end of eth0 (and of eth1, which joins the two
# management networks). B serves rping and ib_write_bw in H4, A's H1 is
# their client; B then moves to another time scale, which both ends must
# refuse, and back; A takes its fabric down, and B's end must see it.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../../lib.sh"

SIDE=$1
# A's rxe feeds H1's port late when the machine is slow: with two busy
# loops beside the VMs, S1/4 carried 30% of H1's 13 Gb/s at scale 1000
# and 93% at 2000, never short of credit, its engines on time
SCALE=2000
# Long enough for the other VM to boot and build its part beside this one
PEER_WAIT=240

case $SIDE in
A) SW=S1 PORT=4 ;;
B) SW=S2 PORT=5 ;;
*) ibsw_setup_fail "side A or B, not '$SIDE'" ;;
esac
R=/sys/class/ibsw/$SW/ports/$PORT/remote

ibsw_require_ibsw
modprobe virtio_net && wait_for "eth0" 20 ip link show eth0 >/dev/null &&
	ip link set eth0 mtu 9000 up || ibsw_setup_fail "no eth0: the VM's --nic"
ibsw_fabric_up "$IBSW_ROOT/topologies/seed002-2m.net" scale "$SCALE" \
	machine "$SIDE" carrier eth0 mgmt-carrier eth1 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"
H4_IP=$(jq -r '(.hosts + .remote_hosts)[] | select(.name == "H4") | .ipv4' "$IBSW_DESC")
H4_LID=$(jq -r '(.hosts + .remote_hosts)[] | select(.name == "H4") | .lid' "$IBSW_DESC")
# H4's management address (ibswctl's: 10.1 and the LID), over eth1,
# which fabric up put in each VM's management bridge
H4_MGMT=10.1.$((H4_LID >> 8)).$((H4_LID & 255))
WBW=(ib_write_bw -F -u 20 -p 18515 -s 65536 -n 400 --report_gbits)

state() { [ "$(cat "$R/state" 2>/dev/null)" = "$1" ]; }

case_up() {
	wait_for "$SW/$PORT up" "$PEER_WAIT" state up || return 1
	grep -H . "$R"/* | tr '\n' ' '
	echo
	ibsw_note "$SW/$PORT up with $(cat "$R/peer") over $(cat "$R/dev")"
	M0=$(cat "$R/mismatches") D0=$(cat "$R/link_downs")
}

# A: the client, again until the server in B answers (it may still be
# coming up); rping_client.sh forgives rping's own teardown race
case_rping() {
	local end=$((SECONDS + PEER_WAIT)) rc=1

	while [ $SECONDS -lt $end ]; do
		timeout 120 ip netns exec "${HOST_NS[H1]}" "$_ibsw_lib/rping_client.sh" 10 \
			-c -a "$H4_IP" -I "${HOST_IP4[H1]}" -C 10 -S 1024 -V && { rc=0; break; }
		sleep 2
	done
	grep -H . "$R"/* | tr '\n' ' '
	echo
	[ $rc = 0 ] || { ibsw_fail "rping to H4 ($H4_IP) across $SW/$PORT never verified"; return 1; }
	ibsw_note "rping -V H1 -> H4: 10 pings across; $SW/$PORT tx_frames $(cat "$R/tx_frames"), rx_seq_gaps $(cat "$R/rx_seq_gaps")"
}

# S1/4 has sent 1 MiB since it read BASE words
sending() {
	local v

	read -r v </sys/class/ibsw/S1/ports/4/counters/port_xmit_data
	[ $((v - $1)) -ge $((1 << 18)) ]
}

# A: 400 writes of 64 KiB from H1 to H4, again until B's server listens;
# S1/4 sends them at H1's injection rate (13 Gb/s), as inside one kernel
case_write_bw() {
	local end=$((SECONDS + PEER_WAIT)) pid rc=1 log=$IBSW_LOGDIR/wbw-client.log inj b0 w0 w1
	local -A r

	# shellcheck disable=SC2046 # device and GID arguments are words
	while [ $SECONDS -lt $end ]; do
		timeout 120 ip netns exec "${HOST_NS[H1]}" "${WBW[@]}" $(_dev_args H1 -d -x) \
			"$H4_MGMT" >"$log" 2>&1 &
		pid=$!
		sleep 3
		kill -0 "$pid" 2>/dev/null && break
		wait "$pid" && { rc=0; break; }
	done
	kill -0 "$pid" 2>/dev/null || [ $rc = 0 ] ||
		{ cat "$log"; ibsw_fail "ib_write_bw to H4 never connected"; return 1; }
	# The window starts once the writes flow (QP setup takes seconds)
	read -r b0 </sys/class/ibsw/S1/ports/4/counters/port_xmit_data
	wait_for "writes across S1/4" 60 sending "$b0" || return 1
	read -r w0 </sys/class/ibsw/S1/ports/4/counters/port_xmit_wait
	ibsw_rate_window -c port_xmit_data r 5 S1:4
	read -r w1 </sys/class/ibsw/S1/ports/4/counters/port_xmit_wait
	wait "$pid" || { rc=$?; cat "$log"; ibsw_fail "ib_write_bw: exit $rc"; return 1; }
	cat "$log"
	grep -H . "$R"/* | tr '\n' ' '
	echo
	read -r inj _ < <(ibsw_hca_rate H1)
	ibsw_note "ib_write_bw H1 -> H4: S1/4 sent $((${r[S1:4]} / 1000000)) Mb/s of emulated time, H1 injects at most $((inj / 1000000))"
	ibsw_note "S1/4 waited for credit $(ibsw_ticks_pct S1:4 $((w1 - w0)))% of the window; the carrier's round trip $(($(cat "$R/rtt_srtt_ns") / 1000)) us smoothed, $(($(cat "$R/rtt_max_ns") / 1000)) us at most"
	[ "${r[S1:4]}" -ge $((inj * 9 / 10)) ] && return
	# Say whether the CPU was late (a case of its own), then fail
	ibsw_cpu_check S1:4 S1:1 || return
	ibsw_rate_fail "S1/4 at ${r[S1:4]} bit/s, below 90% of H1's $inj"
}

# B: ib_write_bw's server in H4, for one client
case_write_bw_server() {
	# shellcheck disable=SC2046 # device and GID arguments are words
	timeout $((PEER_WAIT + 120)) ip netns exec "${HOST_NS[H4]}" "${WBW[@]}" \
		$(_dev_args H4 -d -x) || { ibsw_fail "ib_write_bw server in H4: exit $?"; return 1; }
}

# B: the server, for one client
case_rping_server() {
	timeout "$PEER_WAIT" ip netns exec "${HOST_NS[H4]}" \
		rping -s -a "$H4_IP" -C 10 -S 1024 -V ||
		{ ibsw_fail "rping server in H4: exit $?"; return 1; }
}

mismatch() { [ "$(cat "$R/mismatch" 2>/dev/null)" = "$1" ]; }
# The link went down on a mismatching HELLO since case_up: counted, so
# it is seen even if this VM looks after the link is up again
refused() { [ "$(cat "$R/mismatches")" -gt "$M0" ] && [ "$(cat "$R/link_downs")" -gt "$D0" ]; }

# B moves to another time scale: both ends refuse the link (down, the
# reason in remote/mismatch) until B is back at the fabric's
case_scale_refused() {
	if [ "$SIDE" = B ]; then
		ibswctl fabric set scale $((SCALE - 1)) &&
			wait_for "mismatch time-scale" 10 mismatch time-scale || return 1
	fi
	wait_for "$SW/$PORT refused on a mismatch" 120 refused || return 1
	if [ "$SIDE" = B ]; then
		ibswctl fabric set scale "$SCALE" || return 1
	fi
	wait_for "$SW/$PORT up again" 60 state up || return 1
	ibsw_note "scales $SCALE and $((SCALE - 1)): down ($(cat "$R/mismatches") mismatching HELLOs); equal again: up"
}

# A's fabric down: B's end goes down (BYE) and forgets its peer
peer_gone() { state down && [ -z "$(cat "$R/peer")" ]; }

case_down() {
	case $SIDE in
	A)
		ibsw_fabric_down
		;;
	B)
		wait_for "$SW/$PORT down, peer gone" 180 peer_gone || return 1
		ibsw_note "$SW/$PORT down after the peer's fabric down; link_downs $(cat "$R/link_downs")"
		;;
	esac
}

ibsw_case up case_up
if [ "$SIDE" = A ]; then
	ibsw_case rping case_rping
	ibsw_case write_bw case_write_bw
else
	ibsw_case rping_server case_rping_server
	ibsw_case write_bw_server case_write_bw_server
fi
ibsw_case scale_refused case_scale_refused
ibsw_case down case_down
ibsw_exit
