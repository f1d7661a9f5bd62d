#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 250
#
# Open MPI across the fabric with ibsw-mpirun: NetPIPE (NPopenmpi) between
# H1 and H4 of seed 002's fabric, across the S1-S2 link, at time scale 1000,
# the largest the scenarios use. Its ranks run in the hosts' namespaces,
# UCX over their rxe devices: each rank reports RC endpoints on its own
# host's device only; the bytes NetPIPE moved show at the hosts' switch
# ports; no rxe ACK timeout fired (wall-clock timers). UD alone on SL 1
# carries its packets on VL 1; NetPIPE completes at scale 100 too. A job
# that moves its messages over TCP (pml ob1) instead runs but fails
# ibsw-mpirun's check. --cpus puts a host's ranks on its CPUs. A scenario's
# mpi line runs NetPIPE through ibsw-run, which ends the run with the job.
# shellcheck source=tests/lib.sh disable=SC2317
. "$(dirname "$0")/../lib.sh"

TOPO=$IBSW_ROOT/topologies/seed002.net
SCALE=1000
RESULTS=$IBSW_LOGDIR/results

ibsw_require_ibsw
ibsw_have mpirun NPopenmpi || ibsw_setup_fail "no Open MPI or NetPIPE (scripts/deps)"
ibsw_fabric_up "$TOPO" scale $SCALE vls 2 >/dev/null || ibsw_setup_fail "fabric up failed"

# mpirun [ARGS...]: ibsw-mpirun between H1 and H4 with a watchdog; its
# output in $IBSW_LOGDIR/NAME.out, its report in NAME.json. Sets $rc.
mpi() {
	local name=$1
	shift

	rc=0
	timeout 300 ibsw-mpirun --desc "$IBSW_DESC" -H H1,H4 -t 240 --json "$IBSW_LOGDIR/$name.json" "$@" \
		>"$IBSW_LOGDIR/$name.out" 2>&1 || rc=$?
	grep '^ibsw-mpirun:' "$IBSW_LOGDIR/$name.out" | sed 's/^/# /'
}

# The sum of the sizes of NetPIPE's result file (bytes, Mbps, seconds).
np_bytes() {
	awk '{ n += $1 } END { print n + 0 }' "$1"
}

netpipe_rc() {
	local np=$IBSW_LOGDIR/np-rc.out json=$IBSW_LOGDIR/rc.json last sum sent rcvd

	mpi rc -- NPopenmpi -o "$np" -u 65536 -p 0
	[ "$rc" -eq 0 ] || ibsw_fail "ibsw-mpirun exit $rc" || return
	last=$(awk 'END { print $1 }' "$np")
	[ "$last" = 65536 ] || ibsw_fail "NetPIPE stopped at ${last:-nothing}, not 65536 bytes" ||
		return
	echo "NetPIPE rc: $(awk 'END { printf "%d bytes %.2f Mb/s %.1f ms", $1, $2, $3 * 1000 }' \
		"$np") (wall clock)" | tee -a "$RESULTS"
	# Each size goes out and back at least once.
	sum=$(np_bytes "$np")
	sent=$(jq '.ports.H1.sent_bytes' "$json")
	rcvd=$(jq '.ports.H1.rcvd_bytes' "$json")
	echo "H1's port: $sent bytes in, $rcvd out, for NetPIPE's $sum bytes each way" |
		tee -a "$RESULTS"
	if [ "$sent" -lt "$sum" ] || [ "$rcvd" -lt "$sum" ]; then
		ibsw_fail "H1's port moved $sent/$rcvd bytes, less than NetPIPE's $sum"
	fi
}

transport_rc() {
	local json=$IBSW_LOGDIR/rc.json got

	[ -s "$json" ] || ibsw_fail "no report" || return
	got=$(jq -r '[.ranks[].transports[]] | sort | join(" ")' "$json")
	[ "$got" = "rc_verbs/rxe_H1:1 rc_verbs/rxe_H4:1 self/memory0 self/memory0" ] ||
		ibsw_fail "transports: $got" || return
	[ "$(jq '.fabric_ok' "$json")" = true ] || ibsw_fail "$(jq -c '.problems' "$json")"
}

# The same job at scale 100, the smallest the scenarios use (the fabric's
# scale changed under it): NetPIPE completes.
scale_100() {
	local np=$IBSW_LOGDIR/np-100.out

	ibswctl fabric set scale 100 || ibsw_fail "fabric set scale 100 failed" || return
	mpi rc100 -- NPopenmpi -o "$np" -u 65536 -p 0
	ibswctl fabric set scale "$SCALE"
	[ "$rc" -eq 0 ] || ibsw_fail "ibsw-mpirun exit $rc" || return
	echo "NetPIPE rc at scale 100: $(awk 'END { printf "%d bytes %.2f Mb/s %.1f ms", $1, $2, \
		$3 * 1000 }' "$np") (wall clock)" | tee -a "$RESULTS"
}

# rxe's ACK timer runs on the wall clock: none may have fired at scale 1000
# or 100.
no_timeouts() {
	local c n

	for c in completer_retry_err rcvd_seq_err duplicate_request; do
		n=$(ibsw_rxe_cnt_total "$c" H1 H4) || ibsw_fail "no rxe counter $c" || return
		[ "$n" -eq 0 ] || ibsw_fail "$c $n on H1 and H4: a wall-clock timeout fired" || return
	done
}

ud_sl1() {
	local np=$IBSW_LOGDIR/np-ud.out json=$IBSW_LOGDIR/ud.json sw=${HOST_SW[H1]}
	local port=${HOST_PORT[H1]} vl0 vl1 d0 d1 got

	vl0=$(ibsw_cnt "$sw" "$port" port_rcv_data 0)
	vl1=$(ibsw_cnt "$sw" "$port" port_rcv_data 1)
	mpi ud --tls ud --sl 1 -- NPopenmpi -o "$np" -u 4096 -p 0
	[ "$rc" -eq 0 ] || ibsw_fail "ibsw-mpirun exit $rc" || return
	got=$(jq -r '[.ranks[].transports[] | select(startswith("self") | not)] | sort |
		join(" ")' "$json")
	[ "$got" = "ud_verbs/rxe_H1:1 ud_verbs/rxe_H4:1" ] || ibsw_fail "transports: $got" ||
		return
	d0=$(($(ibsw_cnt "$sw" "$port" port_rcv_data 0) - vl0))
	d1=$(($(ibsw_cnt "$sw" "$port" port_rcv_data 1) - vl1))
	echo "SL 1: H1's port took $((d1 * 4)) bytes on VL 1, $((d0 * 4)) on VL 0" |
		tee -a "$RESULTS"
	if [ "$d1" -lt "$(($(np_bytes "$np") / 4))" ] || [ "$d0" -ne 0 ]; then
		ibsw_fail "VL 1 took $d1 words, VL 0 $d0"
	fi
}

tcp_fails_check() {
	local out=$IBSW_LOGDIR/tcp.out

	mpi tcp --mca pml ob1 --mca btl self,tcp --mca btl_tcp_if_include 10.1.0.0/16 \
		-- NPopenmpi -o "$IBSW_LOGDIR/np-tcp.out" -u 1024 -p 0
	[ "$rc" -eq 5 ] || ibsw_fail "ibsw-mpirun exit $rc, not 5 (not across the fabric)" ||
		return
	grep -q 'not across the fabric: 0 of 2 ranks ran UCX on an rxe device' "$out" ||
		ibsw_fail "no transport complaint in $out"
}

# --cpus HOST=LIST: each host's ranks run on its CPUs only (the agent starts
# the host's daemon under taskset; mpirun binds to none). The program is
# no MPI program, so the transport check fails (exit 5) but it runs.
cpus_placed() {
	local out=$IBSW_LOGDIR/cpus.out got

	# shellcheck disable=SC2016 # the rank's shell expands it
	mpi cpus --cpus H1=1 --cpus H4=0 -- sh -c \
		'echo "rank $OMPI_COMM_WORLD_RANK: $(grep Cpus_allowed_list /proc/self/status)"'
	[ "$rc" -eq 0 ] || [ "$rc" -eq 5 ] || ibsw_fail "ibsw-mpirun exit $rc" || return
	got=$(grep -o '^rank [01]: Cpus_allowed_list:.*' "$out" | tr -s ' \t' ' ' | sort |
		tr '\n' ';')
	# map-by node: rank 0 on H1, rank 1 on H4
	[ "$got" = "rank 0: Cpus_allowed_list: 1;rank 1: Cpus_allowed_list: 0;" ] ||
		ibsw_fail "ranks' CPUs: '$got'"
}

# An mpi line of a scenario (ibsw-run --no-vm, which brings its own
# fabric up): NetPIPE as scenarios/seed002-netpipe.scn runs it, but to 4 KiB.
# The run ends when the job does, and summary.json has the job's report.
scenario_mpi() {
	local scn=$IBSW_LOGDIR/netpipe.scn out=$IBSW_LOGDIR/run rc=0 j dur

	ibsw_fabric_down || ibsw_fail "fabric down failed" || return
	sed -e "s|^topology .*|topology $IBSW_ROOT/topologies/seed002.net|" \
		-e 's|-u [0-9]*|-u 4096|' "$IBSW_ROOT/scenarios/seed002-netpipe.scn" >"$scn"
	timeout -k 10 300 "$IBSW_ROOT/tools/ibsw-run/ibsw-run" --no-vm "$scn" -o "$out" || rc=$?
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc" || return
	j=$out/summary.json
	[ "$(jq -r '.mpi.NP | "\(.exit) \(.fabric_ok)"' "$j")" = "0 true" ] ||
		ibsw_fail "job: $(jq -c '.mpi.NP' "$j")" || return
	[ "$(jq -r '.mpi.NP.transports | join(" ")' "$j")" = \
		"rc_verbs/rxe_H1:1 rc_verbs/rxe_H4:1 self/memory0" ] ||
		ibsw_fail "transports: $(jq -c '.mpi.NP.transports' "$j")" || return
	[ "$(awk 'END { print $1 }' "$out/mpi/NP/np.out")" = 4096 ] ||
		ibsw_fail "no NetPIPE curve to 4096 bytes in mpi/NP/np.out" || return
	dur=$(jq '.duration' "$j")
	echo "scenario: NetPIPE's job ended the run at $dur s emulated (of 1 s)" | tee -a "$RESULTS"
	awk -v d="$dur" 'BEGIN { exit !(d > 0 && d < 0.5) }' ||
		ibsw_fail "the run lasted $dur s: it did not end with the job" || return
	grep -q '^MPI NP on H1,H4, 2 ranks: exit 0, across the fabric' "$out/summary.txt" ||
		ibsw_fail "summary.txt has no line on the job"
}

ibsw_case netpipe_rc netpipe_rc
ibsw_case transport_rc transport_rc
ibsw_case ud_sl1 ud_sl1
ibsw_case tcp_fails_check tcp_fails_check
ibsw_case scale_100 scale_100
ibsw_case no_timeouts no_timeouts
ibsw_case cpus_placed cpus_placed
ibsw_case scenario_mpi scenario_mpi

[ -s "$RESULTS" ] && while read -r l; do ibsw_note "$l"; done <"$RESULTS"

ibsw_exit
