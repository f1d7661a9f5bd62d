#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 80
#
# Namespaces and netdevs going away under live RDMA flows (patched rdma_rxe).
#
# Documented behaviour:
#  * A process that uses an rxe device pins it: rxe has no
#    disassociate_ucontext, so unregistering the device waits until the
#    process closes it, and ib_core keeps a reference on the netdev until
#    then ("unregister_netdevice: waiting for ... to become free" after 10 s).
#  * A process running inside a namespace keeps that namespace alive, so
#    "ip netns del" of a namespace with RDMA processes in it only removes
#    its name; the flow goes on, and the namespace, its veth and its rxe
#    device go away as soon as the processes are killed.
#  * When the namespace of a netdev is dismantled while a process outside
#    it still uses the rxe device on that netdev, the netdev is
#    unregistered, the device's GIDs and routes disappear, its QPs
#    complete with errors and are flushed, the process sees the errors and
#    exits, and then the device is unregistered and the namespace freed.
#  * rmmod rdma_rxe with devices and namespaces still present removes the
#    devices and every per-namespace UDP 4791 socket.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

ibsw_require_patched_rxe
ibsw_have ib_write_bw || ibsw_setup_fail "ib_write_bw (perftest) not installed"

dev_gone() { [ ! -e "/sys/class/infiniband/$1" ]; }

counter() {
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || echo 0
}

# traffic_flows DEV: DEV sends packets (its sent_pkts counter grows by 50).
traffic_flows() {
	local dev=$1 base

	base=$(counter "$dev" sent_pkts)
	_grown() { [ "$(counter "$dev" sent_pkts)" -gt $((base + 50)) ]; }
	wait_for "RDMA traffic from $dev" 20 _grown
}

# start_flow SRV CLI [SRV_ADDR]: a long ib_write_bw from CLI to SRV; sets
# SRV_PID and CLI_PID and waits for the traffic.
start_flow() {
	local s=$1 c=$2 addr=${3:-${HOST_IP4[$1]}}

	ibsw_next_port
	IBSW_PORT=$_ibsw_port
	ibsw_bg "$s" "${IBSW_CASE_LOG%.log}.server.log" 120 \
		ib_write_bw -d "${HOST_RXE[$s]}" -x "$(host_gid4 "$s")" \
		-p "$IBSW_PORT" -F -s 4096 -D 100
	SRV_PID=$IBSW_BG_PID
	wait_for "ib_write_bw server on $s" 20 ready_tcp "$s" || return 1
	ibsw_bg "${CLI_HOST:-$c}" "${IBSW_CASE_LOG%.log}.client.log" 120 \
		ib_write_bw -d "${HOST_RXE[$c]}" -x "$(host_gid4 "$c")" \
		-p "$IBSW_PORT" -F -s 4096 -D 100 "$addr"
	CLI_PID=$IBSW_BG_PID
	traffic_flows "${HOST_RXE[$c]}"
}

# Kill the processes first, then delete the namespaces.
kill_then_delete() {
	ibsw_two_hosts a1 a2 3 || return 1
	start_flow a1 a2 || return 1
	ibsw_reap
	ip netns del "${HOST_NS[a1]}" && ip netns del "${HOST_NS[a2]}" ||
		ibsw_fail "ip netns del failed" || return
	wait_for "rxe_a1 to go" 20 dev_gone "${HOST_RXE[a1]}" &&
		wait_for "rxe_a2 to go" 20 dev_gone "${HOST_RXE[a2]}"
}

# Delete the namespaces while the processes still run in them, then kill
# the processes: the teardown completes.
delete_then_kill() {
	ibsw_two_hosts b1 b2 4 || return 1
	start_flow b1 b2 || return 1
	ip netns del "${HOST_NS[b1]}" && ip netns del "${HOST_NS[b2]}" ||
		ibsw_fail "ip netns del failed" || return
	# The processes keep their namespaces, devices and flow alive.
	traffic_flows "${HOST_RXE[b2]}" || return 1
	ibsw_reap
	wait_for "rxe_b1 to go" 20 dev_gone "${HOST_RXE[b1]}" &&
		wait_for "rxe_b2 to go" 20 dev_gone "${HOST_RXE[b2]}"
}

# Dismantle the namespace of a netdev whose rxe device is used by a
# process outside it (in init_net, talking to the server over a separate
# control link): the QP fails, the process exits by itself, the device
# and the namespace go away. The client's packets wait in a slow qdisc,
# as on a paced ibsw port, so that sends are unacknowledged and others
# not yet sent when the device goes; where the requester then is varies,
# so four rounds. 6.1's rxe hung in 6 rounds of 8 (a send failed behind
# unacknowledged ones) before patches-6.1/0009.
gone_under_qp() {
	local r=$1 s=q$1s c=q$1c rc t0
	local vc=vctl$1-$IBSW_SFX vp=vctlp$1-$IBSW_SFX ctl=10.$((100 + $1)).0

	ibsw_two_hosts "$s" "$c" $((30 + r)) || return 1
	ibsw_veth_add "$vc" "$vp" &&
		ip link set "$vp" netns "${HOST_NS[$s]}" &&
		ip addr add "$ctl.2/24" dev "$vc" &&
		ip link set "$vc" up &&
		hx "$s" ip addr add "$ctl.1/24" dev "$vp" &&
		hx "$s" ip link set "$vp" up ||
		ibsw_fail "round $r: control link setup failed" || return
	HOST_NS[init]=
	: >"${IBSW_CASE_LOG%.log}.client.log"
	CLI_HOST=init start_flow "$s" "$c" "$ctl.1" || return 1
	hx "$c" tc qdisc add dev "${HOST_DEV[$c]}" root tbf rate 1mbit burst 16kb latency 2s ||
		ibsw_fail "round $r: tbf on ${HOST_DEV[$c]} failed" || return
	sleep 1
	hx "$c" tc -s qdisc show dev "${HOST_DEV[$c]}" | sed -n 's/^ *backlog/round '"$r"': backlog/p'

	ip netns del "${HOST_NS[$c]}" || ibsw_fail "round $r: ip netns del failed" ||
		return
	t0=$EPOCHREALTIME
	# Well before the 10 s netdev refcount warning.
	if wait_for "the client to exit" 7 ibsw_pid_gone "$CLI_PID" >/dev/null; then
		wait "$CLI_PID"
		rc=$?
	else
		# where it waits, and what its device counted, before it is killed
		local p f
		for p in $(pgrep -x ib_write_bw); do
			echo "pid $p $(tr '\0' ' ' <"/proc/$p/cmdline"): $(grep State "/proc/$p/status")"
			cat "/proc/$p/stack"
		done
		for f in "/sys/class/infiniband/${HOST_RXE[$c]}/ports/1/hw_counters/"*; do
			[ ! -r "$f" ] || echo "${f##*/} $(cat "$f")"
		done
		ibsw_kill_pids "$CLI_PID"
		rc=124
	fi
	echo "round $r: client exit status $rc, $(ibsw_elapsed "$t0" "$EPOCHREALTIME") s after ip netns del"
	cat "${IBSW_CASE_LOG%.log}.client.log"
	[ "$rc" != 124 ] ||
		ibsw_fail "round $r: client still running 7 s after its netns was deleted" ||
		return
	[ "$rc" != 0 ] ||
		ibsw_fail "round $r: client exited 0, expected an error completion" ||
		return
	grep -qi 'error' "${IBSW_CASE_LOG%.log}.client.log" ||
		ibsw_fail "round $r: no completion error in the client's output" || return
	wait_for "${HOST_RXE[$c]} to go" 20 dev_gone "${HOST_RXE[$c]}"
}

netns_gone_under_qp() {
	local r

	for r in 1 2 3 4; do
		gone_under_qp "$r" || return
	done
}

no_refcount_wait() {
	! dmesg | grep 'waiting for .* to become free' ||
		ibsw_fail "netdev refcount wait in the kernel log"
}

# rmmod with devices and namespaces present: devices and every
# per-namespace socket are gone.
module_unload() {
	local ns n

	ibsw_two_hosts d1 d2 6 || return 1
	ibsw_netns_add ns empty || return 1
	for n in "$(ibsw_udp4791 "")" "$(ibsw_udp4791 "$ns")" \
		 "$(ibsw_udp4791 "${HOST_NS[d1]}")"; do
		[ "$n" = 2 ] ||
			ibsw_fail "$n UDP 4791 sockets before unload, want 2" ||
			return
	done
	echo "$(ibsw_ts) rmmod rdma_rxe"
	rmmod rdma_rxe || ibsw_fail "rmmod rdma_rxe failed" ||
		return
	! ibsw_rxe_loaded || ibsw_fail "rdma_rxe still loaded" || return
	ls /sys/class/infiniband
	for n in "${HOST_RXE[@]}"; do
		dev_gone "$n" || ibsw_fail "$n still exists" || return
	done
	for ns in "" "$ns" "${HOST_NS[d1]}" "${HOST_NS[d2]}"; do
		ibsw_in "$ns" ss -Hulpn 'sport = :4791'
		n=$(ibsw_udp4791 "$ns")
		[ "$n" = 0 ] ||
			ibsw_fail "$n UDP 4791 sockets left in netns '${ns:-init_net}'" ||
			return
	done
}

ibsw_case kill_then_delete kill_then_delete
ibsw_case delete_then_kill delete_then_kill
ibsw_case netns_gone_under_qp netns_gone_under_qp
ibsw_case no_refcount_wait no_refcount_wait
ibsw_case module_unload module_unload

ibsw_exit
