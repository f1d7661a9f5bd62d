#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 1800
#
# The kinds of tools/topo-gen beyond the two-level fat tree, too long for
# make check (make longcheck): a small instance of each, made by topo-gen
# into the log directory, comes up with fabric up and the builder's own
# routes (no SM), has the switches, hosts and cables its definition gives,
# carries ibv_rc_pingpong between far pairs of hosts (light traffic: min-hop
# routes on the torus, mesh and dragonfly could deadlock under load) with
# nothing lost, and goes down:
#   fat-tree3 --k 4: 20 switches, 16 hosts, 32 cables; pairs across the
#     cores and within a pod;
#   torus --dims 3x3: 9 switches, 9 hosts, 18 cables; pairs 2 hops apart
#     over the wrap-around, and 1;
#   mesh --dims 3x3: 9 switches, 9 hosts, 12 cables; corner to corner (4
#     hops) and across the middle;
#   dragonfly a=2, p=1, h=1: 3 groups, 6 routers, 6 hosts, 6 cables; pairs
#     3 hops apart (local, global, local), and 1.
# Then the OpenSM engines topo-gen's help recommends for the cycles, each on
# the same instance with a management node: the torus under dfsssp (with
# qos), the mesh under dor; each must route the fabric itself (its "tables
# configured", no fallback to minhop) and carry the pairs.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

TOPO_GEN=$IBSW_ROOT/tools/topo-gen/topo-gen
SMDIR=/run/ibsw/opensm
AT_ONCE=4

ibsw_require_ibsw
for t in ibv_rc_pingpong jq; do
	ibsw_have "$t" || ibsw_setup_fail "$t missing (scripts/deps)"
done

# fabric NAME [FABRIC-UP-ARGS...]: up from $IBSW_LOGDIR/NAME.net, HOST_*
# for its hosts only
fabric() {
	HOST_NS=() HOST_DEV=() HOST_RXE=() HOST_IP4=() HOST_IP6=() HOST_SW=() HOST_PORT=()
	HOST_LID=() HOST_MGMT=()
	ibsw_fabric_up "$IBSW_LOGDIR/$1.net" "${@:2}" || ibsw_fail "fabric up $1.net failed"
}

# counts SWITCHES HOSTS CABLES: the fabric's description has them
counts() {
	local sw h l

	sw=$(jq '.switches | length' "$IBSW_DESC")
	h=$(jq '.hosts | length' "$IBSW_DESC")
	l=$(jq '.links | length' "$IBSW_DESC")
	echo "switches $sw, hosts $h, cables $l"
	[ "$sw $h $l" = "$1 $2 $3" ] || ibsw_fail "$sw switches, $h hosts, $l cables: not $1, $2, $3"
}

# kind NAME SWITCHES HOSTS CABLES PAIRS -- TOPO-GEN-ARGS...: topo-gen, fabric up
# with the builder's routes, the counts, RDMA between the PAIRS (one word)
kind() {
	local name=$1 nsw=$2 nhosts=$3 ncables=$4 far=$5

	shift 6
	"$TOPO_GEN" "$@" -o "$IBSW_LOGDIR/$name.net" || ibsw_fail "topo-gen $* failed" || return
	head -n 30 "$IBSW_LOGDIR/$name.net"
	fabric "$name" || return
	counts "$nsw" "$nhosts" "$ncables" || return
	# shellcheck disable=SC2086 # the pairs are words
	rc_pairs "$AT_ONCE" $far || return
	ibsw_nothing_lost
}

# sm_kind NAME ENGINE PAIRS FABRIC-UP-ARGS...: NAME.net (made before) under
# OpenSM's ENGINE
sm_kind() {
	local name=$1 engine=$2 far=$3

	shift 3
	ibsw_have opensm || { ibsw_skip "opensm missing (scripts/deps)"; return; }
	modprobe ib_umad || ibsw_fail "modprobe ib_umad failed" || return
	fabric "$name" sm opensm routing-engine "$engine" "$@" ||
		{ tail -n 40 "$SMDIR/opensm.log"; return 1; }
	grep -E "tables configured|routing engine|SUBNET UP|ERR" "$SMDIR/opensm.log" | head -40
	grep -q "$engine tables configured on all switches" "$SMDIR/opensm.log" ||
		ibsw_fail "OpenSM's $engine did not route $name" || return
	grep -q "minhop tables configured" "$SMDIR/opensm.log" &&
		ibsw_fail "OpenSM fell back to minhop on $name" && return
	# shellcheck disable=SC2086 # the pairs are words
	rc_pairs "$AT_ONCE" $far
}

down() {
	ibsw_fabric_down >>"$IBSW_LOGDIR/down.log" 2>&1
}

ibsw_case fat_tree3 kind fat-tree3 20 16 32 "H1-H16 H3-H14 H5-H12 H1-H3" -- \
	fat-tree3 --k 4
down
ibsw_case torus kind torus 9 9 18 "H1-H9 H3-H7 H1-H5 H2-H8" -- torus --dims 3x3
down
ibsw_case mesh kind mesh 9 9 12 "H1-H9 H3-H7 H2-H8 H4-H6" -- mesh --dims 3x3
down
ibsw_case dragonfly kind dragonfly 6 6 6 "H1-H6 H3-H5 H2-H4 H1-H3" -- \
	dragonfly --routers-per-group 2 --hosts-per-router 1 --global-links 1
down

"$TOPO_GEN" torus --dims 3x3 --mgmt -o "$IBSW_LOGDIR/torus-mgmt.net"
"$TOPO_GEN" mesh --dims 3x3 --mgmt -o "$IBSW_LOGDIR/mesh-mgmt.net"
ibsw_case torus_dfsssp sm_kind torus-mgmt dfsssp "H1-H9 H3-H7 H1-H5 H2-H8" qos on
down
ibsw_case mesh_dor sm_kind mesh-mgmt dor "H1-H9 H3-H7 H2-H8 H4-H6"
down

ibsw_exit
