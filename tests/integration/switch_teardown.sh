#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 220
#
# Teardown under traffic, on the testbed of seed 002: while RDMA flows
# run, delete a host's namespace, a switch-to-switch link, a switch, and
# finally unload ibsw.ko with the remaining hosts still sending. Every
# step must leave the rest of the fabric working and the kernel clean (no
# warning, no reference left: scripts/vm fails the run on those); packets
# lost with a port are counted as discards. Then ibsw.ko loads again and
# a new fabric carries traffic.
#
# A netdev under an rxe device is freed only once the processes using that
# device have closed it (rxe cannot take user contexts away), so a step
# that removes host ports runs in the background, the test then ends the
# processes of the hosts concerned, and the step must complete.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

ibsw_require_ibsw

# Traffic the case kills: flows on paths that cross what goes away, one
# each way, each sending before anything goes (they run until the case
# stops them).
busy() {
	local s d

	for s in "$@"; do
		d=${s#*>} s=${s%>*}
		ibsw_flow_start "$s" "$d" && ibsw_flows_started "$IBSW_FLOW" || return 1
	done
}

# step_start CMD...: run a teardown step in the background (STEP_PID)
step_start() {
	echo "$(ibsw_ts) $*"
	"$@" &
	STEP_PID=$!
}

# step_finish DESC: end the flows, then the step must complete.
step_finish() {
	ibsw_reap
	ibsw_wait_pid "$STEP_PID" 60
	local rc=$?
	echo "$(ibsw_ts) $1: exit $rc"
	[ $rc = 0 ] || ibsw_fail "$1: exit $rc"
}

# A switch deleted while a host's namespace is being dismantled (fabric
# down deletes the namespaces, then the switches). In rdma's exclusive
# mode the namespace's exit first moves the host's rxe device back to the
# initial namespace, which waits for every open file of the device: here
# a process that opened it in the host and then left the namespace keeps
# that exit waiting. The switch's deletion must not wait for it, nor
# unregister the host's netdev itself: the netdev would then outlive the
# namespace's exit, whose netdev-genl socket netdev_run_todo() uses while
# it waits for rxe's references (a NULL dereference, seen on the debug
# kernel). The namespace's exit deletes it, and then the rxe device.
# First, on a machine with no namespace yet: rdma's mode changes only then
# (a host's namespace of the cases below outlives its fabric by a minute or
# two when its orphaned TCP sockets keep sending FINs to a peer gone).
netns_dying() {
	local rc

	netns_dying_run
	rc=$?
	# whatever failed, the cases below need the machine without it
	[ -z "$HOLDER" ] || { kill "$HOLDER" 2>/dev/null; wait "$HOLDER" 2>/dev/null; }
	[ -d /sys/module/ibsw ] || insmod "$IBSW_KO"
	ibsw_fabric_down >/dev/null 2>&1
	HOST_NS=() HOST_DEV=() HOST_RXE=() HOST_IP4=() HOST_IP6=() HOST_MGMT=()
	return $rc
}

netns_dying_run() {
	local ns rxe uverbs step t0

	ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" rdma-netns exclusive || return 1
	ns=${HOST_NS[H1]} rxe=${HOST_RXE[H1]}
	uverbs=$(hx H1 grep -lx "$rxe" /sys/class/infiniband_verbs/uverbs*/ibdev)
	uverbs=${uverbs%/ibdev} uverbs=/dev/infiniband/${uverbs##*/}
	[ -c "$uverbs" ] || ibsw_fail "no uverbs device of $rxe in $ns" || return
	nsenter --net="/run/netns/$ns" python3 -c '
import ctypes, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
libc = ctypes.CDLL(None, use_errno=True)
if libc.setns(os.open("/proc/1/ns/net", os.O_RDONLY), 0x40000000):
	sys.exit("setns: " + os.strerror(ctypes.get_errno()))
print("holding", sys.argv[1], "from the initial namespace", flush=True)
time.sleep(600)
' "$uverbs" >"$IBSW_LOGDIR/holder.log" 2>&1 &
	HOLDER=$!
	wait_for "the holder to leave $ns" 30 grep -q holding "$IBSW_LOGDIR/holder.log" || return
	[ "$(readlink "/proc/$HOLDER/ns/net")" = "$(readlink /proc/1/ns/net)" ] ||
		ibsw_fail "the holder did not leave $ns" || return
	ip netns del "$ns" || ibsw_fail "ip netns del $ns" || return
	unset "HOST_NS[H1]"
	sleep 2	# the namespace's exit starts and waits for the holder
	t0=${EPOCHREALTIME/./}
	step_start ibswctl switch del S1
	step=$STEP_PID
	wait_for "switch del S1 while $ns's exit waits" 15 ibsw_pid_gone "$step" || {
		kill "$HOLDER"
		ibsw_wait_pid "$step" 60
		return 1
	}
	wait "$step" || ibsw_fail "switch del S1 failed" || return
	echo "switch del S1: $(((${EPOCHREALTIME/./} - t0) / 1000)) ms"
	kill "$HOLDER"
	wait "$HOLDER" 2>/dev/null
	HOLDER=
	# Unloading waits for the namespaces being dismantled (pernet_ops_rwsem):
	# then the netdev and the rxe device must be gone
	timeout 60 rmmod ibsw || ibsw_fail "rmmod ibsw after $ns's exit" || return
	[ ! -e "/sys/class/infiniband/$rxe" ] || ibsw_fail "$rxe outlived $ns" || return
	insmod "$IBSW_KO" || ibsw_fail "insmod $IBSW_KO" || return
	ibsw_fabric_down || ibsw_fail "fabric down failed" || return
}
HOLDER=
ibsw_case netns_dying netns_dying

ibsw_fabric_up "$IBSW_ROOT/topologies/seed002.net" >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"

# Congested flows killed at once, with perftest's default QP timeout
# (67 ms) and infinite retries: their peers go away with them, so they
# retransmit while their packets still queue in the fabric, and yet
# destroying their QPs must end promptly. (Before rxe patch 0002, rxe
# waited 50 s for those packets' references, freed the QPs anyway and
# crashed in the packets' destructor.) Three of seed 002's contributors
# to H5, two of them across the switch link, fill the queues of both
# switches; its other two flows took another minute to start here.
kill_congested() {
	local f t0 t1

	for f in H2:H5 H3:H5 H6:H5; do
		ibsw_flow_start "${f%:*}" "${f#*:}" -u 14 || return 1
		ibsw_flows_started "$IBSW_FLOW" || return
	done
	# All at once, as a job killed with Ctrl-C would be
	t0=${EPOCHREALTIME/./}
	pkill -TERM -x ib_write_bw
	none_left() { ! pgrep -x ib_write_bw >/dev/null; }
	wait_for "the killed ib_write_bw to exit" 20 none_left || return
	t1=${EPOCHREALTIME/./}
	ibsw_reap
	echo "flows ended in $(((t1 - t0) / 1000)) ms"
	tool_rc_pingpong H5 H2 || return 1	# and the fabric still works
}
ibsw_case kill_congested kill_congested

delete_netns() {
	local ns=${HOST_NS[H4]} pids

	busy "H1>H4" "H4>H6" || return 1
	# The namespace dies when its last process does: H4's peers keep
	# sending to it meanwhile.
	pids=$(ip netns pids "$ns")
	ip netns del "$ns" || ibsw_fail "ip netns del $ns" || return
	# shellcheck disable=SC2086
	kill -KILL $pids
	wait_for "H4's port to become unconnected" 60 \
		grep -qx none "/sys/class/ibsw/${HOST_SW[H4]}/ports/${HOST_PORT[H4]}/kind" || return
	unset "HOST_NS[H4]"
	ibsw_reap
	tool_rc_pingpong H5 H2 || return 1	# the rest still works
}
ibsw_case delete_netns delete_netns

delete_link() {
	local before after

	busy "H1>H6" "H5>H3" || return 1
	before=$(ibsw_cnt_total port_xmit_discards)
	ibswctl link del S1/4 || ibsw_fail "link del S1/4" || return
	ibsw_reap
	after=$(ibsw_cnt_total port_xmit_discards)
	echo "discards: $before -> $after"
	tool_rc_pingpong H2 H1 || return 1	# S1 alone still works
	tool_rc_pingpong H5 H6 || return 1	# S2 alone still works
	ibswctl link add S1/4 S2/5 rate 4xQDR || ibsw_fail "link add S1/4 S2/5" || return
	tool_rc_pingpong H7 H1 || return 1	# and across again
}
ibsw_case delete_link delete_link

delete_switch() {
	busy "H1>H5" "H7>H2" || return 1
	step_start ibswctl switch del S2
	step_finish "switch del S2" || return
	[ ! -e /sys/class/ibsw/S2 ] || ibsw_fail "/sys/class/ibsw/S2 still there" || return
	tool_rc_pingpong H2 H1 || return 1
}
ibsw_case delete_switch delete_switch

unload_under_traffic() {
	busy "H1>H2" "H3>H1" || return 1
	step_start rmmod ibsw
	step_finish "rmmod ibsw" || return
	[ ! -d /sys/module/ibsw ] || ibsw_fail "ibsw still loaded" || return
	# the host ports went with the module, and their rxe devices with them
	local h
	for h in H1 H2 H3; do
		hx "$h" ip link show dev "${HOST_DEV[$h]}" >/dev/null 2>&1 &&
			{ ibsw_fail "${HOST_DEV[$h]} of $h survived rmmod"; return 1; }
		[ ! -e "/sys/class/infiniband/${HOST_RXE[$h]}" ] ||
			ibsw_fail "${HOST_RXE[$h]} survived rmmod" || return
	done
	# fabric down copes: the switches went with the module
	ibsw_fabric_down || ibsw_fail "fabric down after rmmod failed" || return
	[ ! -e "$IBSW_DESC" ] || ibsw_fail "fabric down kept $IBSW_DESC"
}
ibsw_case unload_under_traffic unload_under_traffic

reload() {
	# (ibswctl may have had the module autoloaded: MODULE_ALIAS_GENL_FAMILY)
	[ -d /sys/module/ibsw ] || insmod "$IBSW_KO" || ibsw_fail "insmod $IBSW_KO" || return
	HOST_NS=() HOST_DEV=() HOST_RXE=() HOST_IP4=() HOST_IP6=() HOST_MGMT=()
	ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" || return 1
	tool_rc_pingpong H1 H2
}
ibsw_case reload reload

ibsw_exit
