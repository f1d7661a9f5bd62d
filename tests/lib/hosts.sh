# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib/hosts.sh: emulated hosts. Prerequisites (root, commands, the
# patched rdma_rxe module), namespaces, veth pairs, hosts with an rxe
# device (HOST_*, hx), and their RoCEv2 GIDs.

# ---------------------------------------------------------- prerequisites

ibsw_require_root() {
	[ "$(id -u)" = 0 ] || ibsw_setup_fail "must run as root (in the test VM)"
}

# ibsw_have CMD...: all commands exist.
ibsw_have() {
	local c

	for c; do
		command -v "$c" >/dev/null || return 1
	done
}

ibsw_rxe_loaded() { [ -d /sys/module/rdma_rxe ]; }

# The loaded rdma_rxe is ours: out of tree (taint O).
ibsw_rxe_patched() {
	ibsw_rxe_loaded && grep -q O /sys/module/rdma_rxe/taint 2>/dev/null
}

# Unload rdma_rxe only: its dependencies stay (insmod cannot load them).
ibsw_rxe_unload() {
	ibsw_rxe_loaded || return 0
	rmmod rdma_rxe
}

# Load the patched module (dependencies through modprobe, then insmod).
ibsw_rxe_load_patched() {
	ibsw_rxe_patched && return 0
	ibsw_rxe_unload || return 1
	[ -r "$IBSW_RXE_KO" ] || {
		echo "$IBSW_RXE_KO not found (make rxe)"
		return 1
	}
	modprobe -a ib_uverbs udp_tunnel ip6_udp_tunnel &&
		insmod "$IBSW_RXE_KO" &&
		ibsw_rxe_patched
}

# Every test but the stock control needs the patched module.
ibsw_require_patched_rxe() {
	ibsw_require_root
	ibsw_rxe_load_patched >>"$IBSW_LOGDIR/setup.log" 2>&1 ||
		ibsw_setup_fail "cannot load the patched rdma_rxe ($IBSW_RXE_KO)"
	ibsw_note "rdma_rxe: taint $(cat /sys/module/rdma_rxe/taint), $IBSW_RXE_KO"
}

# ------------------------------------------------------------------- hosts

# ibsw_netns_add VAR NAME: make netns "ibsw-NAME-<suffix>", lo up; store
# its name in VAR.
ibsw_netns_add() {
	local -n _ns_var=$1
	local _ns_name=ibsw-$2-$IBSW_SFX

	ip netns add "$_ns_name" || return 1
	_ibsw_netns+=("$_ns_name")
	ip -n "$_ns_name" link set lo up || return 1
	_ns_var=$_ns_name
}

# ibsw_veth_add DEV1 DEV2: veth pair in init_net, deleted on exit.
ibsw_veth_add() {
	ip link add "$1" type veth peer name "$2" || return 1
	_ibsw_links+=("$1")
}

# ibsw_in NS CMD...: run CMD in netns NS ("" = init_net).
ibsw_in() {
	local ns=$1
	shift

	if [ -n "$ns" ]; then
		ip netns exec "$ns" "$@"
	else
		"$@"
	fi
}

# ibsw_nsexec NS: the command prefix that enters NS (nothing for init_net).
ibsw_nsexec() {
	[ -z "$1" ] || echo "ip netns exec $1"
}

# hx HOST CMD...: run CMD in the netns of HOST.
hx() {
	local h=$1
	shift

	ibsw_in "${HOST_NS[$h]}" "$@"
}

# ibsw_host_add HOST DEV IP4/LEN IP6/LEN [--init]: an emulated host.
# Without --init, make netns ibsw-HOST-<sfx> and move DEV (from init_net)
# into it. Put the addresses on DEV, bring it up and, from inside the
# netns, add rxe device rxe_HOST_<sfx> on it; wait for its RoCEv2 GIDs.
# Sets HOST_NS, HOST_DEV, HOST_RXE, HOST_IP4, HOST_IP6 [HOST].
ibsw_host_add() {
	local host=$1 dev=$2 ip4=$3 ip6=$4 ns=
	local rxe=rxe_${host}_$IBSW_SFX

	if [ "${5:-}" != --init ]; then
		ibsw_netns_add ns "$host" || return 1
		ip link set dev "$dev" netns "$ns" || return 1
	fi
	HOST_NS[$host]=$ns
	HOST_DEV[$host]=$dev
	HOST_RXE[$host]=$rxe
	HOST_IP4[$host]=${ip4%/*}
	HOST_IP6[$host]=${ip6%/*}

	hx "$host" ip link set dev "$dev" up || return 1
	hx "$host" ip addr add "$ip4" dev "$dev" || return 1
	hx "$host" ip -6 addr add "$ip6" dev "$dev" nodad || return 1
	echo "$(ibsw_ts) [$host] rdma link add $rxe type rxe netdev $dev"
	hx "$host" rdma link add "$rxe" type rxe netdev "$dev" || return 1
	_ibsw_rxe+=("$rxe")
	[ "${IBSW_HOST_WAIT:-1}" = 1 ] || return 0
	wait_for "IPv4 RoCEv2 GID of $rxe" 20 host_gid4 "$host" >/dev/null &&
		wait_for "IPv6 RoCEv2 GID of $rxe" 20 host_gid6 "$host" >/dev/null
}

ibsw_port_active() {
	grep -q ACTIVE "/sys/class/infiniband/$1/ports/1/state" 2>/dev/null
}

# ibsw_hosts_ready HOST...: the rxe ports are ACTIVE.
ibsw_hosts_ready() {
	local h

	for h; do
		wait_for "port of ${HOST_RXE[$h]} to become ACTIVE" 20 \
			_host_port_active "$h" || return 1
	done
}

# Whether the initial namespace shows HOST's rdma device; in rdma's
# exclusive netns mode only the host's own namespace does
_host_dev_here() {
	[ -e "/sys/class/infiniband/${HOST_RXE[$1]}" ] || [ -z "${HOST_NS[$1]}" ]
}

_host_port_active() {
	local dev=${HOST_RXE[$1]}

	if _host_dev_here "$1"; then
		ibsw_port_active "$dev"
	else
		hx "$1" grep -q ACTIVE "/sys/class/infiniband/$dev/ports/1/state" 2>/dev/null
	fi
}

# ibsw_two_hosts H1 H2 NET [--init-h1]: H1 and H2 joined by a veth pair,
# addresses 10.NET.0.1/2 and fd00:NET::1/2; H1 in init_net with
# --init-h1, else in its own netns; H2 always in its own netns. Waits for
# the GIDs and ACTIVE ports unless IBSW_HOST_WAIT=0.
ibsw_two_hosts() {
	local h1=$1 h2=$2 net=$3 init=
	local d1=v$h1-$IBSW_SFX d2=v$h2-$IBSW_SFX

	[ "${4:-}" = --init-h1 ] && init=--init
	ibsw_veth_add "$d1" "$d2" &&
		ibsw_host_add "$h1" "$d1" "10.$net.0.1/24" "fd00:$net::1/64" $init &&
		ibsw_host_add "$h2" "$d2" "10.$net.0.2/24" "fd00:$net::2/64" ||
		return 1
	[ "${IBSW_HOST_WAIT:-1}" = 1 ] || return 0
	ibsw_hosts_ready "$h1" "$h2"
}

# ibsw_bridge_hosts H1 H2 NET: H1 and H2 in namespaces of their own, each
# on a veth pair whose other end is a port of a Linux bridge in init_net,
# addresses 10.NET.0.1/2 and fd00:NET::1/2 (the bridge path 'make bench'
# compares ibsw with). Waits for the GIDs and ACTIVE ports.
ibsw_bridge_hosts() {
	local h1=$1 h2=$2 net=$3 br=ibr-$IBSW_SFX
	local b1=b$h1-$IBSW_SFX b2=b$h2-$IBSW_SFX d1=v$h1-$IBSW_SFX d2=v$h2-$IBSW_SFX

	ip link add "$br" type bridge && ip link set "$br" up &&
		ibsw_defer "ip link del $br" &&
		ibsw_veth_add "$b1" "$d1" && ibsw_veth_add "$b2" "$d2" &&
		ip link set "$b1" master "$br" up && ip link set "$b2" master "$br" up &&
		ibsw_host_add "$h1" "$d1" "10.$net.0.1/24" "fd00:$net::1/64" &&
		ibsw_host_add "$h2" "$d2" "10.$net.0.2/24" "fd00:$net::2/64" &&
		ibsw_hosts_ready "$h1" "$h2"
}

# ------------------------------------------------------------------- GIDs

# ibsw_ip6_expand ADDR: 8 groups of 4 lower-case hex digits, as in sysfs.
ibsw_ip6_expand() {
	local a=${1,,} head tail g i n out=()
	local -a h=() t=()

	if [[ $a == *::* ]]; then
		head=${a%%::*}
		tail=${a#*::}
	else
		head=$a
		tail=
	fi
	[ -z "$head" ] || IFS=: read -ra h <<<"$head"
	[ -z "$tail" ] || IFS=: read -ra t <<<"$tail"
	n=$((8 - ${#h[@]} - ${#t[@]}))
	for g in "${h[@]}"; do out+=("$(printf '%04x' $((16#$g)))"); done
	for ((i = 0; i < n; i++)); do out+=(0000); done
	for g in "${t[@]}"; do out+=("$(printf '%04x' $((16#$g)))"); done
	(IFS=:; echo "${out[*]}")
}

# ibsw_addr_gid ADDR: the GID of an IPv4 (v4-mapped) or IPv6 address.
ibsw_addr_gid() {
	local a b c d

	if [[ $1 == *:* ]]; then
		ibsw_ip6_expand "$1"
	else
		IFS=. read -r a b c d <<<"$1"
		printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' \
			"$a" "$b" "$c" "$d"
	fi
}

# ibsw_gid_index DEV ADDR [TYPE]: index of the GID of ADDR on port 1 of
# rdma device DEV with gid type TYPE (default "RoCE v2").
ibsw_gid_index() {
	local dev=$1 gid type=${3:-RoCE v2} f idx t g
	local port=/sys/class/infiniband/$dev/ports/1

	gid=$(ibsw_addr_gid "$2")
	# The table has 1024 entries; look at the first ones without forking.
	for ((idx = 0; idx < 16; idx++)); do
		read -r g <"$port/gids/$idx" 2>/dev/null || return 1
		[ "$g" = "$gid" ] || continue
		read -r t <"$port/gid_attrs/types/$idx" 2>/dev/null || continue
		if [ "$t" = "$type" ]; then
			echo "$idx"
			return 0
		fi
	done
	# shellcheck disable=SC2013 # sysfs paths have no blanks
	for f in $(grep -lxF "$gid" "$port"/gids/* 2>/dev/null); do
		idx=${f##*/}
		read -r t <"$port/gid_attrs/types/$idx" 2>/dev/null || continue
		if [ "$t" = "$type" ]; then
			echo "$idx"
			return 0
		fi
	done
	return 1
}

host_gid4() { _host_gid "$1" "${HOST_IP4[$1]}"; }
host_gid6() { _host_gid "$1" "${HOST_IP6[$1]}"; }

_host_gid() {
	local dev=${HOST_RXE[$1]}

	if _host_dev_here "$1"; then
		ibsw_gid_index "$dev" "$2"
		return
	fi
	(
		export -f ibsw_gid_index ibsw_addr_gid ibsw_ip6_expand
		# shellcheck disable=SC2016 # expanded by bash in the namespace
		hx "$1" bash -c 'ibsw_gid_index "$@"' _ "$dev" "$2"
	)
}

# ibsw_udp4791 HOST|NS: number of UDP port 4791 sockets (v4 and v6) in
# the netns ("" = init_net).
ibsw_udp4791() {
	ibsw_in "$1" cat /proc/net/udp /proc/net/udp6 |
		awk '$2 ~ /:12B7$/ { n++ } END { print n + 0 }'
}
