# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib/process.sh: processes and waiting. wait_for (no sleeps in the
# tests), the cleanup of everything a script made (the EXIT trap), and
# commands run in a host's netns, in the background or not: ibsw_bg,
# ibsw_run, and ibsw_server_client with its readiness checks.

# ----------------------------------------------------------------- waiting

# wait_for DESC TIMEOUT CMD [ARGS...]: poll CMD until it succeeds; on
# timeout record "timeout (Ns) waiting for DESC" as the reason and fail.
# TIMEOUT (whole seconds) is for Debian's kernel: IBSW_TIME_FACTOR (the
# debug kernel's, scripts/debug-kernel) multiplies it.
wait_for() {
	local desc=$1 timeout=$(($2 * ${IBSW_TIME_FACTOR:-1})) end delay=0.02
	shift 2

	end=$((${EPOCHREALTIME/./} + timeout * 1000000))
	while :; do
		"$@" && return 0
		if [ "${EPOCHREALTIME/./}" -ge "$end" ]; then
			echo "timeout (${timeout}s) waiting for $desc"
			ibsw_fail "timeout (${timeout}s) waiting for $desc"
			return 1
		fi
		sleep "$delay"
		case $delay in
		0.02) delay=0.05 ;;
		0.05) delay=0.1 ;;
		0.1) delay=0.2 ;;
		esac
	done
}

# ------------------------------------------------------------------ cleanup

ibsw_defer() {
	_ibsw_defer+=("$*")
}

# Stop background processes: SIGTERM, then SIGKILL after 5 s.
ibsw_kill_pids() {
	local pid live=() reason=$_ibsw_reason

	for pid in "$@"; do
		kill -TERM "$pid" 2>/dev/null && live+=("$pid")
	done
	[ ${#live[@]} -gt 0 ] || return 0
	_ibsw_all_gone() {
		local p
		for p in "${live[@]}"; do
			kill -0 "$p" 2>/dev/null && return 1
		done
		return 0
	}
	wait_for "processes to exit" 5 _ibsw_all_gone >/dev/null ||
		kill -KILL "${live[@]}" 2>/dev/null
	for pid in "${live[@]}"; do
		wait "$pid" 2>/dev/null
	done
	_ibsw_reason=$reason
	return 0
}

# ibsw_netns_kill NS: SIGKILL whatever still runs in namespace NS, saying
# what. rxe cannot take a device away from a process, so a program left
# behind (a child that outlived its killed `timeout`) would block `rdma
# link delete` for as long as it runs.
ibsw_netns_kill() {
	local pid left

	left=$(ip netns pids "$1" 2>/dev/null) || return 0
	[ -n "$left" ] || return 0
	for pid in $left; do
		echo "$(ibsw_ts) left running in $1: $pid $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
		kill -KILL "$pid" 2>/dev/null
	done
	for _ in $(seq 50); do
		[ -n "$(ip netns pids "$1" 2>/dev/null)" ] || return 0
		sleep 0.2
	done
	echo "$(ibsw_ts) still running in $1 after SIGKILL: $(ip netns pids "$1" 2>/dev/null)"
}

# Kill what the current case left running in the background (its flows
# too: they run until this).
ibsw_reap() {
	_ibsw_flows_forget
	[ ${#_ibsw_pids[@]} -gt 0 ] || return 0
	ibsw_kill_pids "${_ibsw_pids[@]}"
	_ibsw_pids=()
}

cleanup() {
	local rc=$? i ns dev

	trap - EXIT
	{
		ibsw_reap
		for ((i = ${#_ibsw_defer[@]} - 1; i >= 0; i--)); do
			eval "${_ibsw_defer[i]}"
		done
		for ns in "${_ibsw_netns[@]}"; do
			ibsw_netns_kill "$ns"
		done
		for dev in "${_ibsw_rxe[@]}"; do
			[ -e "/sys/class/infiniband/$dev" ] &&
				rdma link delete "$dev"
		done
		for ns in "${_ibsw_netns[@]}"; do
			ip netns del "$ns"
		done
		for dev in "${_ibsw_links[@]}"; do
			ip link show dev "$dev" >/dev/null 2>&1 &&
				ip link del dev "$dev"
		done
	} >>"$IBSW_LOGDIR/cleanup.log" 2>&1 </dev/null
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------ background and runs

_ibsw_port=18515
# ibsw_next_port: a fresh TCP/rdma_cm port for the next server, in
# _ibsw_port. Back to the first after 32767, below Linux's ephemeral ports:
# a soak's servers come by the ten thousand, and a port used 14000
# servers ago is long free again.
ibsw_next_port() { _ibsw_port=$((_ibsw_port >= 32767 ? 18516 : _ibsw_port + 1)); }

# ibsw_bg HOST LOG TIMEOUT CMD...: start CMD in HOST's netns in the
# background, killed after TIMEOUT seconds; its pid is in IBSW_BG_PID and
# it is killed when the case (or the script) ends.
ibsw_bg() {
	local host=$1 log=$2 timeout=$3
	shift 3

	echo "$(ibsw_ts) [${host}] $*" >>"$log"
	# shellcheck disable=SC2046 # the prefix is words
	timeout -k 3 "$timeout" $(ibsw_nsexec "${HOST_NS[$host]}") \
		"$@" >>"$log" 2>&1 </dev/null &
	IBSW_BG_PID=$!
	_ibsw_pids+=("$IBSW_BG_PID")
}

# ibsw_pid_gone PID: the process has exited
ibsw_pid_gone() { ! kill -0 "$1" 2>/dev/null; }

# ibsw_wait_pid PID TIMEOUT: wait for a background process; its status.
ibsw_wait_pid() {
	local pid=$1

	# TERM first: the pid is often a `timeout`, which passes TERM on to
	# its child; a KILL would leave the child running, holding its device
	wait_for "process $pid to exit" "$2" ibsw_pid_gone "$pid" >/dev/null || {
		ibsw_kill_pids "$pid"
		return 124
	}
	wait "$pid"
}

# ibsw_run HOST TIMEOUT CMD...: run CMD in HOST's netns, output to the case
# log; on failure the reason names the command and its last output line.
ibsw_run() {
	local host=$1 timeout=$2 rc out
	shift 2

	echo "$(ibsw_ts) [${host}] $*"
	# shellcheck disable=SC2046 # the prefix is words
	out=$(timeout -k 3 "$timeout" $(ibsw_nsexec "${HOST_NS[$host]}") \
		"$@" 2>&1 </dev/null)
	rc=$?
	echo "$out"
	echo "$(ibsw_ts) exit $rc"
	[ $rc = 0 ] && return 0
	[ $rc = 124 ] && out="timeout after ${timeout}s"
	ibsw_fail "$1 on $host: exit $rc: $(ibsw_last_line "$out")"
}

ibsw_last_line() {
	grep -v '^[[:space:]]*$' <<<"$1" | tail -n 1 | cut -c1-120
}

# ibsw_server_client SRV CLI READY TIMEOUT SRVCMD... -- CLICMD...
# Start SRVCMD on host SRV in the background, wait until READY (a command
# run with the server's port in $IBSW_PORT) succeeds, run CLICMD on host
# CLI, then wait for the server to exit. Both must succeed within TIMEOUT.
# Commands may use $IBSW_PORT (quoted, expanded by the caller with
# ibsw_next_port beforehand).
ibsw_server_client() {
	local srv=$1 cli=$2 ready=$3 timeout=$4 slog rc
	local -a scmd=() ccmd=()
	shift 4

	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		scmd+=("$1")
		shift
	done
	shift
	ccmd=("$@")
	slog=${IBSW_CASE_LOG%.log}.server.log
	: >"$slog"
	echo "$(ibsw_ts) [${srv}] server: ${scmd[*]} (log ${slog##*/})"
	# The server lives from before the wait for its readiness until after
	# the client's end: up to twice the timeout, and the grace below. With
	# the timeout alone it was killed while a slow client still succeeded.
	ibsw_bg "$srv" "$slog" "$((2 * timeout + 15))" "${scmd[@]}"
	local spid=$IBSW_BG_PID

	_ibsw_srv_ready() {
		kill -0 "$spid" 2>/dev/null || return 0
		$ready "$srv"
	}
	wait_for "${scmd[0]} server on $srv" "$timeout" _ibsw_srv_ready ||
		{ ibsw_kill_pids "$spid"; return 1; }
	kill -0 "$spid" 2>/dev/null || {
		wait "$spid"
		rc=$?
		ibsw_fail "${scmd[0]} server on $srv exited early (status $rc): $(ibsw_last_line "$(cat "$slog")")"
		return 1
	}
	# a failed client leaves a server waiting for it: stopped here, as the
	# case may run in a subshell whose ibsw_reap never sees it, and the
	# server holds its device (fabric down waits for that)
	ibsw_run "$cli" "$timeout" "${ccmd[@]}" || { ibsw_kill_pids "$spid"; return 1; }
	wait_for "${scmd[0]} server on $srv to exit" 15 ibsw_pid_gone "$spid" >/dev/null || {
		# what the server still waits for, before it is stopped
		declare -F ibsw_rdma_dump >/dev/null && ibsw_rdma_dump "$srv" "$cli"
	}
	ibsw_wait_pid "$spid" 1
	rc=$?
	[ $rc = 0 ] ||
		ibsw_fail "${scmd[0]} server on $srv: exit $rc: $(ibsw_last_line "$(cat "$slog")")"
}

# Readiness checks for ibsw_server_client.
ready_tcp() {
	hx "$1" ss -Hltn "sport = :$IBSW_PORT" | grep -q .
}

ready_rdma_cm() {
	rdma resource show cm_id 2>/dev/null | grep LISTEN |
		grep -q -- ":$IBSW_PORT\b"
}
