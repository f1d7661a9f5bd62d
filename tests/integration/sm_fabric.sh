#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 900
# cpu: shared
# duration: 320
#
# OpenSM manages a fabric the builder made: "ibswctl fabric up FILE sm
# opensm" gives the topology's management node (devid=0x1b5e) a management
# HCA and starts Debian's opensm on it, unmodified, up to SUBNET UP.
# (a) Seed 002 with a management node, routed by OpenSM's minhop: every
# port ACTIVE, the hosts named by their NodeDescriptions, RDMA on OpenSM's
# LIDs and routes, GMPs from the management node to a host (perfquery),
# fabric show showing the SM, infiniband-diags (ibswitches, ibhosts,
# smpquery, ibtracert, saquery) agreeing with the kernel, OpenSM's
# congestion control manager configuring the switches and the rxe
# devices through the fabric. (c) The round trip: ibnetdiscover's output,
# fed to fabric up after fabric down, builds the same fabric, routed by
# updn (S1 its root) this time. (b) The 16-host fat tree with
# routing-engine ftree, in rdma's exclusive netns mode (the management HCA
# in M1 only, each host's rxe in its namespace only): ftree (not its
# minhop fallback) routes, RDMA between every pair of leaves, and every
# switch's LFT as ibswctl reads it is what ibroute reads through the SMA
# and what OpenSM dumped; a cable, then a spine, removed under OpenSM: it
# routes around them, and RDMA runs between the leaves again. (d) fabric
# down while OpenSM runs leaves no opensm, no device, the rdma netns mode
# of before and no warning in the kernel log. (e) In the exclusive mode, a
# management node's namespace deleted under its HCA and OpenSM gives the
# HCA back to the initial namespace once OpenSM ends, working, and fabric
# down deletes it there.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

DEV=ibsw_mgmt0
SMDIR=/run/ibsw/opensm

ibsw_require_ibsw
for t in opensm ibnetdiscover iblinkinfo ibroute ibswitches ibstat jq; do
	ibsw_have "$t" || ibsw_setup_fail "$t missing (scripts/deps: opensm, infiniband-diags)"
done
modprobe ib_umad || ibsw_setup_fail "modprobe ib_umad failed"
pgrep -x opensm && ibsw_setup_fail "an opensm runs already"

warnings() { dmesg | grep -cE 'WARNING:|BUG:|Oops|general protection'; }
WARN0=$(warnings)

# infiniband-diags on the management node, where the exclusive rdma netns
# mode shows its HCA (the shared mode shows it everywhere)
diag() { ip netns exec M1 timeout 120 "$@" -C "$DEV" -P 1; }

# The fabric as the description has it, without LIDs, GUIDs and addresses:
# what a round trip must keep
view() {
	jq -S '{switches: [.switches[] | {name, nports, ports: [.ports[] |
			{port, kind, peer, peer_port, rate}]}] | sort_by(.name),
		links: [.links[] | [[.switch, .port], [.peer, .peer_port], .rate] |
			(.[0:2] | sort) + [.[2]]] | sort,
		hosts: [.hosts[] | {ident, netns, ifname, rdma_dev, switch, switch_port, rate}]
			| sort_by(.ident),
		mgmt_nodes: [.mgmt_nodes[] | {ident, netns, ibdev, switch, switch_port}],
		sm: (.sm | {kind, netns, ibdev})}' "$IBSW_DESC"
}

sm_pid() { jq -r .sm.pid "$IBSW_DESC"; }
sm_ups() { grep -c "SUBNET UP" "$SMDIR/opensm.log"; }

# SUBNET UP, no initialization error, the SM alive and shown
sm_up() {
	local pid out

	pid=$(sm_pid)
	echo "opensm pid $pid"
	grep -E "SUBNET UP|ERRORS|tables configured" "$SMDIR/opensm.log"
	grep -q "SUBNET UP" "$SMDIR/opensm.log" || ibsw_fail "no SUBNET UP in opensm's log" || return
	kill -0 "$pid" || ibsw_fail "opensm (pid $pid) is not running" || return
	[ "$(cat "/proc/$pid/comm")" = opensm ] || ibsw_fail "pid $pid is not opensm" || return
	out=$(ibswctl fabric show desc "$IBSW_DESC") || ibsw_fail "fabric show failed" || return
	echo "$out"
	grep -q "^sm opensm pid $pid .*log $SMDIR/opensm.log" <<<"$out" ||
		ibsw_fail "fabric show does not show the SM" || return
	out=$(ibswctl -j fabric show desc "$IBSW_DESC") || ibsw_fail "fabric show -j failed" || return
	[ "$(jq .sm.pid <<<"$out")" = "$pid" ] || ibsw_fail "fabric show -j: no sm.pid" || return
	# the management HCA is seen from the management node's namespace
	rdma system
	out=$(ip netns exec M1 ibstat "$DEV") || ibsw_fail "ibstat $DEV in M1 failed" || return
	echo "$out"
	grep -q "State: Active" <<<"$out" || ibsw_fail "$DEV is not Active" || return
	grep -Eq "SM lid: [1-9]" <<<"$out" || ibsw_fail "$DEV has no SM LID" || return
}

# iblinkinfo: every cable of the topology Active/LinkUp, no other state
all_active() {
	local want=$1 out n

	out=$(diag iblinkinfo) || ibsw_fail "iblinkinfo failed" || return
	echo "$out"
	# each cable is listed from both of its ends (a CA's too)
	n=$(grep -c 'Active/  LinkUp' <<<"$out")
	echo "active ports: $n, want $want"
	[ "$n" = "$want" ] || ibsw_fail "$n ports Active, not $want" || return
	grep -E '(Initialize|Armed)/' <<<"$out" && ibsw_fail "a port is not Active" && return
	return 0
}

# the hosts' NodeDescriptions are "HOST rxe_HOST", the management node's too
node_descs() {
	local out

	out=$(diag ibnetdiscover) || ibsw_fail "ibnetdiscover failed" || return
	echo "$out" | tee "$IBSW_LOGDIR/discovered-$1.net"
	grep -q '^Ca	1 "H-[0-9a-f]*"		# "H1 rxe_H1"$' <<<"$out" ||
		ibsw_fail "no CA named \"H1 rxe_H1\"" || return
	grep -q '^Ca	1 "H-[0-9a-f]*"		# "M1 ibsw_mgmt0"$' <<<"$out" ||
		ibsw_fail "no CA named \"M1 ibsw_mgmt0\"" || return
	grep -B4 '# "M1 ibsw_mgmt0"$' <<<"$out" | grep -q '^devid=0x1b5e$' ||
		ibsw_fail "the management HCA is not devid=0x1b5e" || return
}

# (a) seed 002 with a management node. OpenSM's congestion control
# manager on (experimental in OpenSM, off by default): test values, not a
# paper's, each unlike the defaults of the switches and the rxe devices.
CC_CONF=$IBSW_LOGDIR/seed002.conf
printf '%s\n' "force_log_flush TRUE" "log_flags 0x43" "dump_files_dir $SMDIR" "sweep_interval 10" \
	"congestion_control TRUE" "cc_sw_cong_setting_control_map 0x15" \
	"cc_sw_cong_setting_victim_mask 0x$(printf '%062d' 0)fe" \
	"cc_sw_cong_setting_threshold 0x0d" "cc_sw_cong_setting_packet_size 8" \
	"cc_sw_cong_setting_marking_rate 96" "cc_ca_cong_setting_port_control 0x0000" \
	"cc_ca_cong_setting_control_map 0x0001" "cc_ca_cong_setting_ccti_timer 0 75" \
	"cc_ca_cong_setting_ccti_increase 0 2" "cc_ca_cong_setting_trigger_threshold 0 0" \
	"cc_ca_cong_setting_ccti_min 0 0" "cc_cct 0:0,0:1,0:2,0:3,1:5,1:7,2:10" >"$CC_CONF"
up_t0=$EPOCHREALTIME
sm_log_tail() { tail -n 40 "$SMDIR/opensm.log" "$SMDIR/opensm.out"; }
ibsw_fabric_up "$IBSW_ROOT/topologies/seed002-sm.net" sm opensm sm-conf "$CC_CONF" \
	>>"$IBSW_CASE_LOG" 2>&1 ||
	{ sm_log_tail >>"$IBSW_CASE_LOG" 2>&1; false; } ||
	ibsw_setup_fail "fabric up seed002-sm.net sm opensm: ${_ibsw_reason:-see setup.log}"
echo "# fabric up seed002-sm.net sm opensm: $(ibsw_elapsed "$up_t0" "$EPOCHREALTIME") s"
ibsw_case seed002_sm_up sm_up
_minhop() { grep -q "minhop tables configured on all switches" "$SMDIR/opensm.log"; }
ibsw_case seed002_minhop _minhop	# OpenSM's default engine
ibsw_case seed002_all_active all_active 18	# 9 cables (7 hosts, M1, S1-S2), both ends
ibsw_case seed002_node_descs node_descs seed002
ibsw_case seed002_rc_pingpong rc H1 H7

# GMPs from the management node to a host and back: the builder gave the
# management HCA a LID and addresses as a host's, which followed the LID
# OpenSM gave it, so H7's rxe answers perfquery
gmp_to_host() {
	local lid out

	lid=$(ibswctl port show "${HOST_SW[H7]}/${HOST_PORT[H7]}" |
		awk '{ for (i = 1; i < NF; i++) if ($i == "lid") print $(i + 1) }')
	# the first reply waits for H7 to resolve the HCA's address
	out=$(diag perfquery -e -t 5000 "$lid" 1 2>&1) ||
		ibsw_fail "perfquery of H7 (LID $lid) failed: $out" || return
	echo "$out"
	grep -q "PortXmitPkts" <<<"$out" || ibsw_fail "no PortCounters from H7's rxe" || return
}
ibsw_case seed002_gmp_to_host gmp_to_host

# A host's LID as OpenSM gave it (ibswctl reads it from the switch port)
lid_of() {
	ibswctl port show "${HOST_SW[$1]}/${HOST_PORT[$1]}" |
		awk '{ for (i = 1; i < NF; i++) if ($i == "lid") print $(i + 1) }'
}

# infiniband-diags against what the builder and the kernel know:
# ibswitches and ibhosts list the topology's nodes, smpquery reads a
# host's rxe GUID and a switch's LFT top, ibtracert follows H1 -> S1 -> S2
# -> H7, and OpenSM's SA (saquery) knows every node and the path H1-H7.
# Each switch's LinearFDBTop is the highest LID, as OpenSM set it.
# ibqueryerrors finds every port's PMA and no errors.
diags() {
	local out l1 l7 guid sw top max t

	out=$(diag ibswitches) || ibsw_fail "ibswitches failed" || return
	echo "$out"
	[ "$(grep -c '^Switch' <<<"$out")" = 2 ] && grep -q '"S1" base port 0 lid' <<<"$out" &&
		grep -q '"S2" base port 0 lid' <<<"$out" ||
		ibsw_fail "ibswitches does not list S1 and S2" || return
	out=$(diag ibhosts) || ibsw_fail "ibhosts failed" || return
	echo "$out"
	[ "$(grep -c '^Ca' <<<"$out")" = 8 ] && grep -q '"H7 rxe_H7"' <<<"$out" &&
		grep -q '"M1 ibsw_mgmt0"' <<<"$out" ||
		ibsw_fail "ibhosts does not list H1-H7 and M1" || return
	l1=$(lid_of H1) l7=$(lid_of H7)
	out=$(diag smpquery nodeinfo "$l7") || ibsw_fail "smpquery nodeinfo $l7 failed" || return
	echo "$out"
	guid=$(tr -d : <"/sys/class/infiniband/${HOST_RXE[H7]}/node_guid")
	grep -Eq "^Guid:\.+0x$guid$" <<<"$out" && grep -Eq "^NodeType:\.+Channel Adapter$" <<<"$out" ||
		ibsw_fail "nodeinfo of LID $l7 is not H7's rxe (node_guid $guid)" || return
	out=$(diag saquery) || ibsw_fail "saquery failed" || return
	[ "$(grep -c '^NodeRecord dump:' <<<"$out")" = 10 ] ||
		ibsw_fail "OpenSM's SA has $(grep -c '^NodeRecord dump:' <<<"$out") NodeRecords, not 10" || return
	# LinearFDBTop: OpenSM sets it to the highest LID, the table ends there
	max=$(sed -nE 's/^\s*lid\.+([0-9]+)$/\1/p' <<<"$out" | sort -n | tail -n 1)
	sw=$(diag ibswitches | sed -nE 's/.*"S1" base port 0 lid ([0-9]+).*/\1/p')
	out=$(diag smpquery switchinfo "$sw") || ibsw_fail "smpquery switchinfo $sw failed" || return
	echo "$out"
	top=$(sed -nE 's/^LinearFdbTop:\.+([0-9]+)$/\1/p' <<<"$out")
	read -r _ _ t < <(ibswctl lft show S1)
	echo "S1's LinearFdbTop $top; ibswctl: lft-top $t; the highest LID in the subnet $max"
	[ -n "$top" ] && [ "$top" = "$t" ] && [ "$top" = "$max" ] ||
		ibsw_fail "S1's LinearFdbTop $top, lft-top $t: not the highest LID, $max" || return
	out=$(diag ibtracert "$l1" "$l7") || ibsw_fail "ibtracert $l1 $l7 failed" || return
	echo "$out"
	[ "$(grep -c -- '-> switch port' <<<"$out")" = 2 ] &&
		grep -q -- '-> switch port .* "S1"$' <<<"$out" && grep -q -- '-> switch port .* "S2"$' <<<"$out" &&
		grep -q "^To ca .* lid $l7-$l7 \"H7 rxe_H7\"$" <<<"$out" ||
		ibsw_fail "ibtracert H1 -> H7 does not go through S1 and S2 to H7" || return
	out=$(diag saquery --src-to-dst "$l1:$l7") || ibsw_fail "saquery --src-to-dst failed" || return
	echo "$out"
	# 4x DDR host links: rate 6 (20 Gb/s), MTU 5 (4096), both "exactly"
	grep -Eq "dlid\.+$l7$" <<<"$out" && grep -Eq "slid\.+$l1$" <<<"$out" &&
		grep -Eq "rate\.+0x86$" <<<"$out" && grep -Eq "mtu\.+0x85$" <<<"$out" ||
		ibsw_fail "no PathRecord $l1 -> $l7 at 20 Gb/s, MTU 4096" || return
	# every port's PMA answers: the switches', the rxe devices', and the
	# management HCA's own (it had none: "2 PMA query failures")
	out=$(diag ibqueryerrors) || ibsw_fail "ibqueryerrors failed: $(tail -n 1 <<<"$out")" || return
	echo "$out"
	grep -q "Summary: 10 nodes checked, 0 bad nodes found" <<<"$out" ||
		ibsw_fail "ibqueryerrors did not check 10 nodes, 0 bad" || return
	grep "PMA query failures" <<<"$out" && ibsw_fail "ibqueryerrors: PMA query failures" && return
	return 0
}
ibsw_case seed002_diags diags

# OpenSM's congestion control manager, through the fabric's GMPs, set
# every switch's SwitchCongestionSetting and every host's CA settings and
# CCT as its configuration says, and no CC MAD of it timed out
cc_manager() {
	local sw got h

	grep -E "ERR C1|cc_" "$SMDIR/opensm.log"
	grep -q "ERR C1" "$SMDIR/opensm.log" && ibsw_fail "OpenSM's CC manager had errors" && return
	for sw in S1 S2; do
		got=$(ibswctl -j cc show "$sw" | jq -c '[.threshold, .marking_rate, .packet_size]')
		echo "$sw: threshold, marking_rate, packet_size $got"
		[ "$got" = '[13,96,8]' ] || ibsw_fail "$sw: $got, not [13,96,8]" || return
	done
	for h in H1 H2 H3 H4 H5 H6 H7; do
		got="$(rxe_cc_get "$h" cct) / $(rxe_cc_get "$h" sl_settings | grep '^sl=0 ')"
		echo "$h: $got"
		[ "$got" = "0:0 0:1 0:2 0:3 1:5 1:7 2:10 / sl=0 ccti_timer=75 ccti_increase=2 trigger_threshold=0 ccti_min=0" ] ||
			ibsw_fail "$h's rxe: $got" || return
	done
}
ibsw_case seed002_cc_manager cc_manager

# (c) the round trip: ibnetdiscover's output builds the same fabric
round_trip() {
	local net=$IBSW_LOGDIR/discovered-seed002.net before after t n

	[ -s "$net" ] || ibsw_fail "no ibnetdiscover output" || return
	view >"$IBSW_LOGDIR/view-before.json"
	# updn takes its roots from a file: on two switches in a line its
	# detection by hop counts finds none (and OpenSM falls back to
	# minhop). S1's GUID is known once the fabric is built: the first
	# sweep has no root, a SIGHUP makes OpenSM read the file again.
	: >"$IBSW_LOGDIR/roots"
	printf '%s\n' "force_log_flush TRUE" "log_flags 0x43" "dump_files_dir $SMDIR" \
		"sweep_interval 10" "root_guid_file $IBSW_LOGDIR/roots" >"$IBSW_LOGDIR/updn.conf"
	ibswctl fabric down desc "$IBSW_DESC" || ibsw_fail "fabric down failed" || return
	t=$EPOCHREALTIME
	# this time with OpenSM's updn (minhop, its default, routed before)
	ibswctl fabric up "$net" desc "$IBSW_DESC" sm opensm routing-engine updn \
		sm-conf "$IBSW_LOGDIR/updn.conf" ||
		ibsw_fail "fabric up of ibnetdiscover's output failed" || return
	echo "fabric up $net: $(ibsw_elapsed "$t" "$EPOCHREALTIME") s"
	diag ibswitches | sed -nE 's/^Switch\s*: (0x[0-9a-f]+) .*"S1".*/\1/p' >"$IBSW_LOGDIR/roots"
	n=$(sm_ups)
	kill -HUP "$(sm_pid)"
	_swept() { [ "$(sm_ups)" -gt "$n" ]; }
	wait_for "a heavy sweep after SIGHUP" 60 _swept || return
	grep -E "tables configured|routing engine" "$SMDIR/opensm.log"
	tail -n 1 "$SMDIR/opensm.log"
	grep "tables configured" "$SMDIR/opensm.log" | tail -n 1 | grep -q "updn tables configured on all switches" &&
		[ "$(jq -r .sm.routing_engine "$IBSW_DESC")" = updn ] ||
		ibsw_fail "updn did not route" || return
	cat "$SMDIR/opensm-updn-roots.dump"
	# the dump has no leading zeros
	grep -qix "$(printf '0x%x' "$(cat "$IBSW_LOGDIR/roots")")" "$SMDIR/opensm-updn-roots.dump" ||
		ibsw_fail "updn's root is not S1 ($(cat "$IBSW_LOGDIR/roots"))" || return
	view >"$IBSW_LOGDIR/view-after.json"
	diff -u "$IBSW_LOGDIR/view-before.json" "$IBSW_LOGDIR/view-after.json" ||
		ibsw_fail "the fabric built from ibnetdiscover's output differs" || return
	grep -q "SUBNET UP" "$SMDIR/opensm.log" || ibsw_fail "no SUBNET UP the second time" || return
	# the same topology, modulo GUIDs and LIDs, discovered again
	diag ibnetdiscover >"$IBSW_LOGDIR/discovered-again.net" ||
		ibsw_fail "ibnetdiscover failed" || return
	before=$(norm "$net")
	after=$(norm "$IBSW_LOGDIR/discovered-again.net")
	diff <(echo "$before") <(echo "$after") ||
		ibsw_fail "a second ibnetdiscover differs" || return
	[ -n "$after" ] || ibsw_fail "nothing discovered" || return
}
# ibnetdiscover's output without GUIDs, LIDs and its date
norm() {
	sed -E -e '/^#|^(sysimg|switch|ca)guid=/d' -e 's/"[SH]-[0-9a-f]{16}"/N/g' \
		-e 's/\([0-9a-f]+\)//g' -e 's/lid [0-9]+/lid L/g' "$1"
}
ibsw_case round_trip round_trip

rt_pingpong() {
	local -a names

	HOST_NS=() HOST_DEV=() HOST_RXE=() HOST_IP4=() HOST_IP6=() HOST_SW=() HOST_PORT=()
	HOST_LID=() HOST_MGMT=()
	ibsw_fabric_load_desc || return
	mapfile -t names < <(jq -r '.hosts[] | select(.ident == "H1" or .ident == "H7") | .name' \
		"$IBSW_DESC")
	[ ${#names[@]} = 2 ] || ibsw_fail "no H1 and H7 after the round trip" || return
	ibsw_hosts_ready "${names[@]}" || return
	rc "${names[0]}" "${names[1]}"
}
ibsw_case round_trip_rc_pingpong rt_pingpong

# (d) fabric down while OpenSM runs
down_under_sm() {
	local pid t rc

	pid=$(sm_pid)
	kill -0 "$pid" || ibsw_fail "opensm is not running before fabric down" || return
	t=$EPOCHREALTIME
	timeout 300 "$IBSWCTL" fabric down desc "$IBSW_DESC" 2>"$IBSW_LOGDIR/down.err"
	rc=$?
	cat "$IBSW_LOGDIR/down.err"
	echo "fabric down: status $rc, $(ibsw_elapsed "$t" "$EPOCHREALTIME") s"
	if [ "$rc" != 0 ]; then
		# who holds what fabric down waits for
		ps -N --ppid 2 -o pid,stat,etimes,wchan:32,args
		rdma resource show
		ibsw_fail "fabric down: status $rc after $(ibsw_elapsed "$t" "$EPOCHREALTIME") s: $(tail -n 1 "$IBSW_LOGDIR/down.err")"
		return
	fi
	kill -0 "$pid" 2>/dev/null && ibsw_fail "opensm (pid $pid) still runs" && return
	pgrep -ax opensm && ibsw_fail "an opensm is left" && return
	[ ! -e "/sys/class/infiniband/$DEV" ] || ibsw_fail "$DEV is still there" || return
	ip netns list | grep -qw M1 && ibsw_fail "namespace M1 is left" && return
	# deleted where they were (a switch the test deleted may be gone)
	grep -E "(rdma device|management HCA) .* already gone" "$IBSW_LOGDIR/down.err" &&
		ibsw_fail "$(grep -m 1 -E "(rdma device|management HCA) .* already gone" \
			"$IBSW_LOGDIR/down.err")" && return
	# the mode of before fabric up
	[ "$(rdma system show | awk '{ print $2 }')" = shared ] ||
		ibsw_fail "rdma netns mode $(rdma system show) after fabric down" || return
}
ibsw_case down_under_sm down_under_sm

# (b) the fat tree with ftree, in rdma's exclusive netns mode: each host
# sees its own rxe device only, the management node its HCA only
rdma_mode() { rdma system show | awk '{ print $2 }'; }
HOST_NS=() HOST_DEV=() HOST_RXE=() HOST_IP4=() HOST_IP6=() HOST_SW=() HOST_PORT=()
HOST_LID=() HOST_MGMT=()
up_t0=$EPOCHREALTIME
ibsw_fabric_up "$IBSW_ROOT/topologies/fat-tree-16.net" sm opensm routing-engine ftree \
	rdma-netns exclusive >>"$IBSW_CASE_LOG" 2>&1 ||
	{ sm_log_tail >>"$IBSW_CASE_LOG" 2>&1; false; } ||
	ibsw_setup_fail "fabric up fat-tree-16.net: ${_ibsw_reason:-see setup.log}"
echo "# fabric up fat-tree-16.net sm opensm routing-engine ftree rdma-netns exclusive: $(ibsw_elapsed "$up_t0" "$EPOCHREALTIME") s"

# the management HCA was made in M1 (mgmt add ... netns M1): only M1 sees
# it, and no namespace sees another's device
exclusive_views() {
	local devs

	echo "mode: $(rdma_mode)"
	[ "$(rdma_mode)" = exclusive ] || ibsw_fail "rdma netns mode $(rdma_mode)" || return
	devs=$(ls /sys/class/infiniband)
	echo "initial namespace: '$devs'"
	[ -z "$devs" ] || ibsw_fail "the initial namespace sees $devs" || return
	devs=$(ip netns exec M1 ls /sys/class/infiniband)
	echo "M1: '$devs'"
	[ "$devs" = "$DEV" ] || ibsw_fail "M1 sees '$devs', not $DEV" || return
	devs=$(hx H16 ls /sys/class/infiniband)
	echo "H16: '$devs'"
	[ "$devs" = "${HOST_RXE[H16]}" ] || ibsw_fail "H16 sees '$devs'" || return
	ibstat "$DEV" >/dev/null 2>&1 && ibsw_fail "ibstat $DEV works outside M1" && return
	return 0
}
ibsw_case fat_tree_exclusive exclusive_views

ftree_used() {
	sm_up || return
	grep -E "FatTree|rank|ftree|minhop" "$SMDIR/opensm.log" | head -40
	grep -q "ftree tables configured on all switches" "$SMDIR/opensm.log" ||
		ibsw_fail "ftree did not route" || return
	grep -q "minhop tables configured" "$SMDIR/opensm.log" &&
		ibsw_fail "OpenSM fell back to minhop" && return
	grep -q "^routing_engine ftree$" "$SMDIR/opensm.conf" ||
		ibsw_fail "opensm.conf does not say routing_engine ftree" || return
}
ibsw_case fat_tree_ftree ftree_used
ibsw_case fat_tree_all_active all_active 66	# 33 cables (16 hosts, M1, 16 up), both ends

# RDMA (ibv_rc_pingpong) between a host of each leaf and one of every
# other leaf, and within a leaf: every spine-leaf path class of the tree,
# 8 pairs at once. A run for each of the 120 pairs takes too long in the VM
# (some 25 s for 8 pairs at a time: 15 rounds; make longcheck runs them),
# and plain IP across ib0 (a TCP connect to a closed port) got no answer
# in the VM, so it cannot stand in for it. Each pair has 180 s: the 8 take
# some 25 s, and one of them failed with 60 s on a CI machine that ran
# this script at half the speed.
leaf_pairs() {
	[ ${#HOST_NS[@]} = 16 ] || ibsw_fail "${#HOST_NS[@]} hosts, not 16" || return
	# every pair of leaves (L1-L2, L3-L1, L1-L4, L2-L3, L4-L2, L3-L4), two within one
	IBSW_TOOL_TIMEOUT=180 rc_pairs 8 H1-H5 H9-H1 H1-H13 H6-H10 H14-H6 H11-H15 H2-H3 H8-H7
}
ibsw_case fat_tree_leaf_pairs leaf_pairs

# OpenSM's LFT of switch NAME as it dumped it at its last heavy sweep:
# "LID PORT" lines, without the switch's own LID (port 0)
osm_lft() {
	local l p

	awk -v n="('$1'):" '
		/^Unicast lids / { on = ($NF == n); next }
		on && /^0x/ && $2 + 0 != 0 { print $1, $2 }' "$SMDIR/opensm-lfts.dump" |
		while read -r l p; do echo "$((l)) $((10#$p))"; done | sort -n
}

# Every switch's LFT (N of them): ibswctl's (netlink) is ibroute's (the
# SMA's) and what OpenSM computed (opensm-lfts.dump). With SMA=0,
# ibswctl's and OpenSM's only: after a re-sweep, what the new routes prove
# is that OpenSM's reached the switches; the SMA's read path, a directed
# route discovery and an SMP query per switch (most of a minute in the
# VM), proved itself at the first sweep.
lfts_match() {
	local want=$1 sma=${2:-1} name lid a b c n=0

	[ -s "$SMDIR/opensm-lfts.dump" ] || ibsw_fail "OpenSM dumped no LFTs" || return
	while read -r name lid; do
		a=$(ibswctl lft show "$name" | awk '$1 == "lid" { print $2, $4 }' | sort -n)
		c=$(osm_lft "$name")
		echo "$name${lid:+ (lid $lid)}: $(wc -l <<<"$a") entries"
		[ -n "$a" ] || ibsw_fail "no LFT for $name" || return
		if [ "$sma" = 1 ]; then
			# lft show leaves out port 0: the switch's own LID
			b=$(diag ibroute "$lid" | awk '/^0x/ { print $1, $2 }' |
				while read -r l p; do echo "$((l)) $((10#$p))"; done |
				grep -v "^$lid 0$" | sort -n)
			diff <(echo "$a") <(echo "$b") ||
				ibsw_fail "$name: ibswctl and ibroute differ" || return
		fi
		diff <(echo "$a") <(echo "$c") || ibsw_fail "$name: ibswctl and OpenSM's dump differ" || return
		n=$((n + 1))
	done < <(if [ "$sma" = 1 ]; then
			diag ibswitches | sed -E 's/.*"([^"]*)".* lid ([0-9]+).*/\1 \2/'
		else
			ls /sys/class/ibsw
		fi)
	[ "$n" = "$want" ] || ibsw_fail "$n switches compared, not $want" || return
}
ibsw_case fat_tree_lfts lfts_match 8


# Re-sweeps: a spine-leaf cable (L1-S1), then a spine (S4), removed under
# OpenSM. Its next light sweep (every 10 s) finds SwitchInfo's
# PortStateChange set and a heavy sweep routes around what is gone (SUBNET
# UP again): no LFT entry leads to a port without a link, and the tables
# are OpenSM's. RDMA then runs between the leaves (resweep_leaf_pairs).
resweep() {
	local what=$1 n t f sw p

	n=$(sm_ups)
	t=$EPOCHREALTIME
	case $what in
	link) ibswctl link del L1/5 ;;
	switch) ibswctl switch del S4 ;;
	esac || ibsw_fail "removing the $what failed" || return
	_swept() { [ "$(sm_ups)" -gt "$n" ]; }
	wait_for "a heavy sweep after the $what went" 60 _swept || {
		tail -n 30 "$SMDIR/opensm.log"
		return 1
	}
	echo "SUBNET UP again $(ibsw_elapsed "$t" "$EPOCHREALTIME") s after the $what went"
	for f in /sys/class/ibsw/*/ports/*/kind; do
		[ "$(cat "$f")" = none ] || continue
		sw=${f#/sys/class/ibsw/} p=${sw#*/ports/}
		sw=${sw%%/*} p=${p%%/*}
		ibswctl lft show "$sw" | awk -v p="$p" '$1 == "lid" && $4 == p { e = 1 } END { exit !e }' &&
			ibsw_fail "$sw routes to its port $p, which has no link" && return
	done
	lfts_match "$2" 0
}
ibsw_case fat_tree_resweep_link resweep link 8
ibsw_case fat_tree_resweep_switch resweep switch 7
ibsw_case fat_tree_resweep_all_active all_active 56	# 33 cables less L1-S1 and S4's 4
ibsw_case fat_tree_resweep_leaf_pairs leaf_pairs

ibsw_case fat_tree_down_under_sm down_under_sm

# The management node's namespace deleted while its HCA is bound there
# and OpenSM runs on it (rdma's exclusive netns mode): OpenSM keeps the
# namespace, and the HCA in it, alive; once it ends, ib_core's pernet exit
# moves the HCA back to the initial namespace, its MAD agents come up again
# there (ibstat, an SMP to the switch), and fabric down deletes it there.
mgmt_netns_gone() {
	local topo=$IBSW_LOGDIR/mgmt-netns.net t dev out rc guid pid

	cat >"$topo" <<-EOF
		Switch	4 "NS1"
		[1]	"NH1"[1]
		[4]	"NM1"[1]

		Hca	1 "NH1"
		[1]	"NS1"[1]

		devid=0x1b5e
		Hca	1 "NM1"
		[1]	"NS1"[4]
	EOF
	HOST_NS=() HOST_DEV=() HOST_RXE=() HOST_IP4=() HOST_IP6=() HOST_SW=() HOST_PORT=()
	HOST_LID=() HOST_MGMT=()
	ibsw_fabric_up "$topo" rdma-netns exclusive || ibsw_fail "fabric up failed" || return
	dev=$(ip netns exec NM1 ls /sys/class/infiniband)
	echo "NM1: '$dev'"
	[ -n "$dev" ] && [ ! -e "/sys/class/infiniband/$dev" ] ||
		ibsw_fail "the management HCA is not NM1's alone" || return
	guid=0x$(ip netns exec NM1 cat "/sys/class/infiniband/$dev/node_guid" | tr -d :)
	ip netns exec NM1 opensm -g "$guid" -f "$IBSW_LOGDIR/opensm-nm1.log" >/dev/null 2>&1 &
	pid=$!
	_ibsw_pids+=("$pid")
	_active() { ip netns exec NM1 ibstat "$dev" 1 | grep -q "State: Active"; }
	wait_for "$dev ACTIVE under OpenSM in NM1" 60 _active || return
	ip netns del NM1 || ibsw_fail "ip netns del NM1 failed" || return
	sleep 2
	[ ! -e "/sys/class/infiniband/$dev" ] ||
		ibsw_fail "$dev left NM1 while OpenSM still ran there" || return
	t=$EPOCHREALTIME
	kill "$pid"
	ibsw_wait_pid "$pid" 10 || kill -9 "$pid" 2>/dev/null
	_back() { [ -e "/sys/class/infiniband/$dev/ports/1/state" ]; }
	wait_for "$dev back in the initial namespace" 60 _back || return
	echo "$dev in the initial namespace $(ibsw_elapsed "$t" "$EPOCHREALTIME") s after OpenSM, NM1's last process, ended"
	out=$(ibstat "$dev" 1) || ibsw_fail "ibstat $dev failed" || return
	echo "$out"
	grep -q "Physical state: LinkUp" <<<"$out" || ibsw_fail "$dev's link is not up" || return
	out=$(timeout 30 smpquery -C "$dev" -P 1 -D nodedesc 0,1 2>&1) ||
		ibsw_fail "no SMP through $dev after the move: $out" || return
	echo "$out"
	grep -q NS1 <<<"$out" || ibsw_fail "the switch's NodeDescription is not NS1" || return
	timeout 120 "$IBSWCTL" fabric down desc "$IBSW_DESC" 2>"$IBSW_LOGDIR/netns-down.err"
	rc=$?
	cat "$IBSW_LOGDIR/netns-down.err"
	[ "$rc" = 0 ] || ibsw_fail "fabric down: status $rc" || return
	[ ! -e "/sys/class/infiniband/$dev" ] || ibsw_fail "$dev is still there" || return
	grep -E "management HCA .* already gone" "$IBSW_LOGDIR/netns-down.err" &&
		ibsw_fail "fabric down did not find $dev" && return
	[ "$(rdma_mode)" = shared ] || ibsw_fail "rdma netns mode $(rdma_mode) after fabric down" || return
}
ibsw_case mgmt_netns_gone mgmt_netns_gone

no_warnings() {
	local w

	w=$(warnings)
	echo "kernel warnings: $WARN0 before, $w after"
	[ "$w" = "$WARN0" ] || { dmesg | grep -E -A20 'WARNING:|BUG:|Oops' | tail -60;
		ibsw_fail "the kernel warned"; }
}
ibsw_case no_kernel_warnings no_warnings

ibsw_exit
