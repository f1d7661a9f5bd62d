# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib/fabric.sh: fabrics of ibsw switches. The ibswctl wrapper,
# `ibswctl fabric up`/`down` from a topology and the hosts it made, the
# switch ports' counters, and the check that nothing was lost anywhere
# in the fabric (ibsw_nothing_lost).

# ------------------------------------------------------------------ fabric
# An emulated IB fabric built by `ibswctl fabric up` from a topology file
# (ibsw.ko is loaded by scripts/vm). Hosts are known by their topology
# names; HOST_* are filled from the fabric description, so the tool
# functions (tools.sh) work on them unchanged.

IBSWCTL=${IBSWCTL:-${IBSW_BUILD:-$IBSW_ROOT/build}/tools/ibswctl/ibswctl}
IBSW_DESC=$IBSW_LOGDIR/fabric.json
declare -A HOST_SW HOST_PORT HOST_LID HOST_MGMT

ibswctl() { "$IBSWCTL" "$@"; }

ibsw_require_ibsw() {
	ibsw_require_patched_rxe
	[ -d /sys/module/ibsw ] || ibsw_setup_fail "ibsw.ko is not loaded"
	[ -x "$IBSWCTL" ] || ibsw_setup_fail "$IBSWCTL missing (make tools)"
}

# ibsw_fabric_up TOPO [ARGS...]: build the fabric (ARGS go to `fabric up`),
# fill HOST_* for every host and wait for their RoCEv2 GIDs and ACTIVE
# ports. The fabric goes down when the script exits.
ibsw_fabric_up() {
	local topo=$1 h
	shift

	echo "$(ibsw_ts) ibswctl fabric up $topo desc $IBSW_DESC $*"
	ibswctl fabric up "$topo" desc "$IBSW_DESC" "$@" || return 1
	IBSW_TOPO=$topo
	ibsw_defer "ibsw_fabric_down"
	ibsw_fabric_load_desc || return 1
	for h in "${!HOST_NS[@]}"; do
		wait_for "IPv4 RoCEv2 GID of ${HOST_RXE[$h]}" 20 host_gid4 "$h" >/dev/null &&
			wait_for "IPv6 RoCEv2 GID of ${HOST_RXE[$h]}" 20 host_gid6 "$h" >/dev/null ||
			return 1
	done
	ibsw_hosts_ready "${!HOST_NS[@]}"
}

ibsw_fabric_down() {
	local h

	[ -e "$IBSW_DESC" ] || return 0
	for h in "${!HOST_NS[@]}"; do
		ibsw_netns_kill "${HOST_NS[$h]}"
	done
	ibswctl fabric down desc "$IBSW_DESC"
}

# Read the hosts of the description into HOST_*.
ibsw_fabric_load_desc() {
	local name ns ifname rxe ip4 ip6 sw port lid mgmt

	while read -r name ns ifname rxe ip4 ip6 sw port lid mgmt; do
		HOST_NS[$name]=$ns
		HOST_DEV[$name]=$ifname
		HOST_RXE[$name]=$rxe
		HOST_IP4[$name]=$ip4
		HOST_IP6[$name]=$ip6
		HOST_SW[$name]=$sw
		HOST_PORT[$name]=$port
		HOST_LID[$name]=$lid
		[ "$mgmt" = null ] || HOST_MGMT[$name]=$mgmt
	done < <(jq -r '.hosts[] | [.name, .netns, .ifname, .rdma_dev, .ipv4,
		.ipv6, .switch, .switch_port, .lid, .mgmt_ipv4] | map(tostring) | join(" ")' "$IBSW_DESC")
	[ ${#HOST_NS[@]} -gt 0 ] || ibsw_fail "no hosts in $IBSW_DESC"
}

# ibsw_cnt_file VAR SW PORT NAME [VL]: VAR gets the sysfs file of a switch
# port's counter (no subshell: callers time their reads)
ibsw_cnt_file() {
	local -n _cf_out=$1
	local d=/sys/class/ibsw/$2/ports/$3

	if [ -n "${5:-}" ]; then
		_cf_out=$d/vls/$5/counters/$4
	elif [ -e "$d/counters/$4" ]; then
		_cf_out=$d/counters/$4
	else
		_cf_out=$d/hw_counters/$4
	fi
}

# Counters of a switch port from sysfs: ibsw_cnt SW PORT NAME [VL]
ibsw_cnt() {
	local f v

	ibsw_cnt_file f "$@"
	read -r v <"$f" && echo "$v"
}

# Sum of a counter over every port of every switch.
ibsw_cnt_total() {
	local f n=0 v

	for f in /sys/class/ibsw/*/ports/*/counters/"$1" /sys/class/ibsw/*/ports/*/hw_counters/"$1"; do
		[ -e "$f" ] || continue
		read -r v <"$f"
		n=$((n + v))
	done
	echo "$n"
}

# Time scale of the fabric.
ibsw_time_scale() {
	ibswctl -j fabric show | jq -r '.time_scale'
}

# ------------------------------------------------------------------ losses

# ibsw_rxe_cnt_total COUNTER [HOST...]: sum of an rxe hardware counter
# over these hosts' devices (all hosts by default).
ibsw_rxe_cnt_total() {
	local c=$1 h n=0 v f
	shift

	[ $# -gt 0 ] || set -- "${!HOST_RXE[@]}"
	for h; do
		f=/sys/class/infiniband/${HOST_RXE[$h]}/ports/1/hw_counters/$c
		# rdma's exclusive netns mode shows a device in its namespace only
		if [ -e "$f" ]; then
			read -r v <"$f" || return 1
		else
			v=$(ip netns exec "${HOST_NS[$h]}" cat "$f") || return 1
		fi
		n=$((n + v))
	done
	echo "$n"
}

# Packets the hosts' queue disciplines dropped on their fabric ports (the
# builder installs FIFOs that should never drop; see ibswctl(8)).
ibsw_qdisc_drops() {
	local h n=0 d

	for h in "${!HOST_NS[@]}"; do
		d=$(hx "$h" tc -s qdisc show dev "${HOST_DEV[$h]}" |
			awk '/dropped/ { sub(",", "", $7); n += $7 } END { print n + 0 }')
		n=$((n + d))
	done
	echo "$n"
}

# Case function: nothing was lost anywhere in the fabric. No switch counter
# shows a discard, no host queue discipline dropped a packet, and no rxe
# device saw a packet out of sequence (a gap: something lost on the way)
# or failed to send one. ibsw_nothing_lost [COUNTER...] checks only these
# switch counters (a test that provokes the others on purpose).
ibsw_nothing_lost() {
	local c n

	[ $# -gt 0 ] || set -- port_xmit_discards excessive_buffer_overrun_errors \
		port_rcv_errors rcv_oversize rcv_vl_discards port_rcv_switch_relay_errors \
		hca_discards port_rcv_constraint_errors
	for c in "$@"; do
		n=$(ibsw_cnt_total "$c")
		echo "switch $c: $n"
		[ "$n" = 0 ] || ibsw_fail "switch $c = $n" || return
	done
	n=$(ibsw_qdisc_drops)
	echo "host qdisc drops: $n"
	[ "$n" = 0 ] || ibsw_fail "the hosts' queue disciplines dropped $n packets" || return
	for c in out_of_seq_request rcvd_seq_err send_err; do
		n=$(ibsw_rxe_cnt_total $c)
		echo "rxe $c: $n"
		[ "$n" = 0 ] || ibsw_fail "rxe $c = $n: a packet was lost" || return
	done
}
