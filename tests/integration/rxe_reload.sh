#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 120
#
# Load and unload the patched rdma_rxe ten times (ROUNDS). Each round
# makes two hosts in two namespaces with an rxe device each and checks the
# per-namespace UDP 4791 sockets; rounds 1, 5, 9 and the last also run a
# quick ibv_rc_pingpong (the others do not even wait for the GIDs). Odd
# rounds delete the rdma links and namespaces before unloading, even
# rounds unload with devices and namespaces still present. Then a load
# with UDP 4791 taken, and the priority of the QP tasks' workqueue.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

ibsw_require_patched_rxe
ROUNDS=${ROUNDS:-10}

dev_gone() { [ ! -e "/sys/class/infiniband/$1" ]; }
udp4791_is() { [ "$(ibsw_udp4791 "$1")" = "$2" ]; }

round() {
	local i=$1 a=r${1}a b=r${1}b h n pp=0

	[ $((i % 4)) = 1 ] || [ "$i" = "$ROUNDS" ] && pp=1

	if [ "$i" -gt 1 ]; then
		echo "$(ibsw_ts) insmod $IBSW_RXE_KO"
		ibsw_rxe_load_patched || ibsw_fail "insmod failed" || return
	fi
	n=$(ibsw_udp4791 "")
	[ "$n" = 2 ] || ibsw_fail "init_net has $n UDP 4791 sockets" || return
	# Without ping-pong, do not wait for the GIDs: unload races with
	# their population.
	echo "$(ibsw_ts) two hosts"
	IBSW_HOST_WAIT=$pp ibsw_two_hosts "$a" "$b" $((10 + i)) || return 1
	echo "$(ibsw_ts) hosts ready"
	for h in "$a" "$b"; do
		n=$(ibsw_udp4791 "${HOST_NS[$h]}")
		[ "$n" = 2 ] || ibsw_fail "$h has $n UDP 4791 sockets" || return
	done
	if [ "$pp" = 1 ]; then
		tool_rc_pingpong "$a" "$b" || return 1
	fi
	if [ $((i % 2)) = 1 ]; then
		echo "$(ibsw_ts) delete links and netns"
		rdma link delete "${HOST_RXE[$a]}" &&
			rdma link delete "${HOST_RXE[$b]}" &&
			ip netns del "${HOST_NS[$a]}" &&
			ip netns del "${HOST_NS[$b]}" ||
			ibsw_fail "teardown before unload failed" || return
	fi
	echo "$(ibsw_ts) rmmod rdma_rxe"
	rmmod rdma_rxe || ibsw_fail "rmmod rdma_rxe failed" ||
		return
	for h in "$a" "$b"; do
		dev_gone "${HOST_RXE[$h]}" ||
			ibsw_fail "${HOST_RXE[$h]} survived the unload" || return
		[ $((i % 2)) = 1 ] && continue
		n=$(ibsw_udp4791 "${HOST_NS[$h]}")
		[ "$n" = 0 ] ||
			ibsw_fail "$h has $n UDP 4791 sockets after unload" ||
			return
		ip netns del "${HOST_NS[$h]}" || return 1
	done
	echo "$(ibsw_ts) unloaded"
	n=$(ibsw_udp4791 "")
	[ "$n" = 0 ] ||
		ibsw_fail "init_net has $n UDP 4791 sockets after unload"
}

# UDP 4791 already taken by a user socket, in init_net and in a netns,
# when the module loads: the load succeeds, the namespaces keep the user's
# socket and get rxe's IPv6 one, the conflict is logged.
port_in_use() {
	local n ns

	ibsw_rxe_unload || ibsw_fail "rmmod rdma_rxe failed" || return
	ibsw_netns_add ns busy || return 1
	HOST_NS[busy]=$ns
	HOST_NS[init]=
	for h in init busy; do
		# shellcheck disable=SC2016 # perl code
		ibsw_bg "$h" "$IBSW_CASE_LOG" 120 perl -MIO::Socket::INET -e \
			'my $s = IO::Socket::INET->new(LocalPort => 4791, Proto => "udp") or die "bind: $!"; sleep 300'
		wait_for "user socket on 4791 in ${HOST_NS[$h]:-init_net}" 20 \
			udp4791_is "${HOST_NS[$h]}" 1 || return 1
	done
	dmesg -C
	ibsw_rxe_load_patched || ibsw_fail "insmod failed with 4791 in use" ||
		return
	dmesg | tee /dev/stderr | grep -q 'UDP port 4791 is in use' ||
		ibsw_fail "no log message about the port in use" || return
	for h in init busy; do
		n=$(ibsw_udp4791 "${HOST_NS[$h]}")
		[ "$n" = 2 ] ||
			ibsw_fail "${HOST_NS[$h]:-init_net}: $n sockets on 4791, want 2 (user IPv4, rxe IPv6)" ||
			return
	done
	ibsw_netns_add ns busy2 || ibsw_fail "ip netns add failed" || return
	# Get the init_net IPv4 socket back.
	ibsw_reap
	ibsw_rxe_unload && ibsw_rxe_load_patched ||
		ibsw_fail "reload failed" || return
	n=$(ibsw_udp4791 "")
	[ "$n" = 2 ] || ibsw_fail "init_net has $n UDP 4791 sockets after reload"
}

# The QP tasks run on rxe_wq at high priority (patch 0010: the requester
# paces flows, the responder returns BECNs); the workqueue goes with the
# module and comes back with it. 6.1's rxe runs them as tasklets.
# wq_highpri WHEN: rxe_wq exists at nice -20
wq_highpri() {
	local n

	n=$(cat /sys/bus/workqueue/devices/rxe_wq/nice 2>/dev/null)
	[ "$n" = -20 ] ||
		ibsw_fail "$1, rxe_wq at nice '${n:-(no rxe_wq)}', want -20"
}
task_priority() {
	[ "$(ibsw_kseries "$(uname -r)")" != 6.1 ] ||
		ibsw_skip "6.1's rxe runs its QP tasks as tasklets" || return
	wq_highpri loaded || return
	ibsw_rxe_unload || ibsw_fail "rmmod rdma_rxe failed" || return
	[ ! -e /sys/bus/workqueue/devices/rxe_wq ] ||
		ibsw_fail "rxe_wq outlived the module" || return
	ibsw_rxe_load_patched || ibsw_fail "insmod failed" || return
	wq_highpri reloaded
}

for ((r = 1; r <= ROUNDS; r++)); do
	ibsw_case "$(printf 'round_%02d' "$r")" round "$r"
done
ibsw_case port_in_use port_in_use
ibsw_case task_priority task_priority
# Leave the module loaded, as the VM started.
ibsw_rxe_load_patched >>"$IBSW_LOGDIR/cleanup.log" 2>&1

ibsw_exit
