#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One VM's part of tests/long/remote_s1.sh: guest.sh one|A|B. The five
# flows of seed 002's scenario 1 all at once (its last phase, CC off):
# F1 H1->H4 and the contributors F2-F5 (H2, H3, H6, H7 -> H5), RC writes
# of 64 KiB. "one": seed002.net in this VM; "A"/"B": this VM's half of
# seed002-2m.net, the other VM at the other end of eth0 (the link) and
# eth1 (the management networks). Each VM measures what its own hosts
# inject over a 10 s window (port_rcv_data of their switch ports) and
# writes "RATE FLOW BPS" lines to $IBSW_OUT/rates.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../../lib.sh"

MODE=$1
SCALE=1000
PEER_WAIT=240
WINDOW=10
FLOWS=("F1 H1 H4 18601" "F2 H2 H5 18602" "F3 H3 H5 18603" "F4 H6 H5 18604" "F5 H7 H5 18605")

ibsw_require_ibsw
case $MODE in
one)
	ibsw_fabric_up "$IBSW_ROOT/topologies/seed002.net" scale "$SCALE" >>"$IBSW_CASE_LOG" 2>&1 ||
		ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"
	;;
A | B)
	modprobe virtio_net && wait_for "eth0" 20 ip link show eth1 >/dev/null &&
		ip link set eth0 mtu 9000 up || ibsw_setup_fail "no eth0, eth1: the VM's --nic"
	ibsw_fabric_up "$IBSW_ROOT/topologies/seed002-2m.net" scale "$SCALE" \
		machine "$MODE" carrier eth0 mgmt-carrier eth1 >>"$IBSW_CASE_LOG" 2>&1 ||
		ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"
	;;
*) ibsw_setup_fail "mode one, A or B, not '$MODE'" ;;
esac

local_host() { [ -n "${HOST_NS[$1]:-}" ]; }

# The management address of any host of the fabric: 10.1 and its LID
mgmt_of() {
	local lid

	lid=$(jq -r --arg h "$1" '(.hosts + (.remote_hosts // []))[] | select(.name == $h) | .lid' \
		"$IBSW_DESC")
	echo "10.1.$((lid >> 8)).$((lid & 255))"
}

PERF=(nice -n 19 ib_write_bw -F -s 65536 --run_infinitely -D 10 --report_gbits -u 20)

listening() { ip netns exec "${HOST_NS[$1]}" ss -Hltn "sport = :$2" | grep -q .; }

# Each port's port_rcv_data has grown by 1 MiB: its host sends
sending() {
	local sw=$1 port=$2 base=$3 v

	read -r v <"/sys/class/ibsw/$sw/ports/$port/counters/port_rcv_data"
	[ $((v - base)) -ge $((1 << 18)) ]
}

case_flows() {
	local f name src dst p pid log ok i
	local -a mine=()
	local -A r base

	for f in "${FLOWS[@]}"; do
		read -r name src dst p <<<"$f"
		local_host "$dst" || continue
		# shellcheck disable=SC2046 # device and GID arguments are words
		ibsw_bg "$dst" "$IBSW_LOGDIR/$name-server.log" 600 "${PERF[@]}" -p "$p" $(_dev_args "$dst" -d -x)
	done
	for f in "${FLOWS[@]}"; do
		read -r name src dst p <<<"$f"
		local_host "$dst" || continue
		wait_for "$name's server" 60 listening "$dst" "$p" || return 1
	done
	# Clients, again until the other VM's server listens
	for f in "${FLOWS[@]}"; do
		read -r name src dst p <<<"$f"
		local_host "$src" || continue
		log=$IBSW_LOGDIR/$name-client.log ok=
		for ((i = 0; i < PEER_WAIT / 4; i++)); do
			# shellcheck disable=SC2046 # device and GID arguments are words
			ibsw_bg "$src" "$log" 600 "${PERF[@]}" -p "$p" $(_dev_args "$src" -d -x) "$(mgmt_of "$dst")"
			pid=$IBSW_BG_PID
			sleep 4
			kill -0 "$pid" 2>/dev/null && { ok=1; break; }
		done
		[ -n "$ok" ] || { cat "$log"; ibsw_fail "$name's client never connected"; return 1; }
		mine+=("$name ${HOST_SW[$src]} ${HOST_PORT[$src]}")
	done
	for f in "${mine[@]}"; do
		read -r name sw port <<<"$f"
		read -r base[$name] <"/sys/class/ibsw/$sw/ports/$port/counters/port_rcv_data"
		wait_for "$name sending" 60 sending "$sw" "$port" "${base[$name]}" || return 1
	done
	# B's flows start first: it waits until A's arrive, then as long as
	# A waits after its own, so that both windows see all five flows
	if [ "$MODE" = B ]; then
		read -r base[S2/5] </sys/class/ibsw/S2/ports/5/counters/port_rcv_data
		wait_for "A's flows" "$PEER_WAIT" sending S2 5 "${base[S2/5]}" || return 1
		sleep 12
	else
		sleep 8
	fi
	local ports=()
	for f in "${mine[@]}"; do
		read -r name sw port <<<"$f"
		ports+=("$sw:$port")
	done
	ibsw_rate_window r "$WINDOW" "${ports[@]}" || return 1
	ibsw_cpu_check "${ports[@]}" || echo "(the CPU held a window back: see above)"
	for f in "${mine[@]}"; do
		read -r name sw port <<<"$f"
		echo "RATE $name ${r[$sw:$port]}" | tee -a "$IBSW_OUT/rates"
	done
	# Keep sending while the other VM's window may still run
	[ "$MODE" = one ] || sleep 12
	if [ "$MODE" != one ]; then
		local R=/sys/class/ibsw/S1/ports/4/remote c

		[ "$MODE" = B ] && R=/sys/class/ibsw/S2/ports/5/remote
		grep -H . "$R"/* | tr '\n' ' '
		echo
		for c in rx_seq_gaps rx_late rx_overrun; do
			[ "$(cat "$R/$c")" = 0 ] || { ibsw_fail "$R/$c is $(cat "$R/$c")"; return 1; }
		done
	fi
	ibsw_note "$(tr '\n' ' ' <"$IBSW_OUT/rates")"
}

ibsw_case flows case_flows
ibsw_exit
