# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib.sh: library of the ibsw integration tests. Every script in
# tests/integration/ sources it and runs as root inside the test VM
# (scripts/vm), one VM per script.
#
# Conventions (kselftest-like):
#  * every case prints exactly one line on stdout:
#      PASS: <test>/<case>
#      FAIL: <test>/<case> (reason)
#      SKIP: <test>/<case> (reason)
#    anything else on stdout starts with "# ";
#  * a case is a shell function run by ibsw_case; it returns 0 (pass),
#    $IBSW_SKIP (skip) or anything else (fail); ibsw_fail/ibsw_skip record
#    the reason;
#  * the script ends with ibsw_exit: status 0 if no case failed, else 1;
#  * all objects (netns, links, rdma links, background processes) are
#    made through this library, get random-suffixed names and are removed
#    by the EXIT trap;
#  * no sleeps: wait_for polls a condition with a timeout.
#
# Environment: IBSW_ROOT, IBSW_RXE_KO (the patched rdma_rxe.ko), IBSW_OUT
# (directory for logs; optional).

IBSW_TEST=${IBSW_TEST:-$(basename "$0" .sh)}
IBSW_SKIP=4
IBSW_SFX=$(printf '%04x' $((RANDOM ^ ($$ & 0xffff))))
IBSW_ROOT=${IBSW_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
IBSW_RXE_KO=${IBSW_RXE_KO:-$IBSW_ROOT/build/rxe/rdma_rxe.ko}

_ibsw_failed=0
_ibsw_reason=
_ibsw_pids=()		# background processes
_ibsw_defer=()		# extra cleanup commands, run in reverse order
_ibsw_rxe=()		# rdma links
_ibsw_netns=()		# namespaces
_ibsw_links=()		# netdevs created in init_net

declare -A HOST_NS HOST_DEV HOST_RXE HOST_IP4 HOST_IP6

ibsw_logdir_init() {
	local d

	for d in "${IBSW_OUT:+$IBSW_OUT/$IBSW_TEST}" "/tmp/ibsw-$IBSW_TEST-$IBSW_SFX"; do
		[ -n "$d" ] || continue
		if mkdir -p "$d" 2>/dev/null && [ -w "$d" ]; then
			IBSW_LOGDIR=$d
			return
		fi
	done
	echo "# cannot create a log directory" >&2
	exit 1
}
ibsw_logdir_init
IBSW_CASE_LOG=$IBSW_LOGDIR/setup.log

# ---------------------------------------------------------------- reporting

ibsw_note() { echo "# $*"; }

# ibsw_fail REASON: record why the running case fails; returns 1.
#   some_command || ibsw_fail "what went wrong" || return
ibsw_fail() {
	_ibsw_reason=$*
	return 1
}

# ibsw_skip REASON: record why the running case is skipped.
#   have_ipv6 || { ibsw_skip "no IPv6"; return; }
ibsw_skip() {
	_ibsw_reason=$*
	return $IBSW_SKIP
}

# ibsw_case NAME FUNCTION [ARGS...]: run one case, print its result line.
# The function's output goes to $IBSW_LOGDIR/NAME.log, which is shown
# (prefixed with "# ") when the case fails.
ibsw_case() {
	local name=$1 rc t0 t1
	shift

	_ibsw_reason=
	IBSW_CASE=$name		# for the case function
	IBSW_CASE_LOG=$IBSW_LOGDIR/$name.log
	: >"$IBSW_CASE_LOG"
	t0=$EPOCHREALTIME
	_ibsw_t0=$t0
	"$@" >>"$IBSW_CASE_LOG" 2>&1 </dev/null
	rc=$?
	t1=$EPOCHREALTIME
	ibsw_reap
	echo "case $name: status $rc, $(ibsw_elapsed "$t0" "$t1") s" >>"$IBSW_CASE_LOG"

	case $rc in
	0)
		echo "PASS: $IBSW_TEST/$name"
		;;
	"$IBSW_SKIP")
		echo "SKIP: $IBSW_TEST/$name (${_ibsw_reason:-skipped})"
		;;
	*)
		echo "FAIL: $IBSW_TEST/$name (${_ibsw_reason:-exit status $rc})"
		_ibsw_failed=1
		ibsw_show_log "$IBSW_CASE_LOG"
		;;
	esac
	IBSW_CASE_LOG=$IBSW_LOGDIR/setup.log
	return 0
}

# Show the end of a case log (and of the server logs it names).
ibsw_show_log() {
	local f

	for f in "$1" "${1%.log}".*.log; do
		[ -s "$f" ] || continue
		echo "# --- ${f##*/} (last 25 lines)"
		# (a newline after an unfinished last line: perftest's reports
		# end theirs when the next begins, and the result lines that
		# follow must start a line)
		# shellcheck disable=SC1003 # sed: append a newline
		tail -n 25 "$f" | sed -e 's/^/#   /' -e '$a\'
	done
}

ibsw_exit() {
	exit $_ibsw_failed
}

# Abort the script: setup failed, so every case is reported as failed.
ibsw_setup_fail() {
	echo "FAIL: $IBSW_TEST/setup ($*)"
	ibsw_show_log "$IBSW_LOGDIR/setup.log"
	exit 1
}

# ibsw_ts: "[+S.SS]", the time since the start of the case, for logs.
_ibsw_t0=$EPOCHREALTIME
ibsw_ts() {
	echo "[+$(ibsw_elapsed "$_ibsw_t0" "$EPOCHREALTIME")]"
}

ibsw_elapsed() {
	local a=${1/./} b=${2/./}

	printf '%d.%02d' $(((b - a) / 1000000)) $(((b - a) % 1000000 / 10000))
}

# ----------------------------------------------------------------- waiting

# wait_for DESC TIMEOUT CMD [ARGS...]: poll CMD until it succeeds; on
# timeout record "timeout (Ns) waiting for DESC" as the reason and fail.
wait_for() {
	local desc=$1 timeout=$2 end delay=0.02
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
			ibsw_port_active "${HOST_RXE[$h]}" || return 1
	done
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

host_gid4() { ibsw_gid_index "${HOST_RXE[$1]}" "${HOST_IP4[$1]}"; }
host_gid6() { ibsw_gid_index "${HOST_RXE[$1]}" "${HOST_IP6[$1]}"; }

# ------------------------------------------------------ background and runs

_ibsw_port=18515
# ibsw_port: a fresh TCP/rdma_cm port for the next server.
ibsw_next_port() { _ibsw_port=$((_ibsw_port + 1)); }

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

# ibsw_wait_pid PID TIMEOUT: wait for a background process; its status.
ibsw_wait_pid() {
	local pid=$1

	_ibsw_pid_gone() { ! kill -0 "$pid" 2>/dev/null; }
	wait_for "process $pid to exit" "$2" _ibsw_pid_gone >/dev/null || {
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
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
	wait_for "${scmd[0]} server on $srv" "$timeout" _ibsw_srv_ready || return 1
	kill -0 "$spid" 2>/dev/null || {
		wait "$spid"
		rc=$?
		ibsw_fail "${scmd[0]} server on $srv exited early (status $rc): $(ibsw_last_line "$(cat "$slog")")"
		return 1
	}
	ibsw_run "$cli" "$timeout" "${ccmd[@]}" || return 1
	ibsw_wait_pid "$spid" 15
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

# ibsw_udp4791 HOST|NS: number of UDP port 4791 sockets (v4 and v6) in
# the netns ("" = init_net).
ibsw_udp4791() {
	ibsw_in "$1" cat /proc/net/udp /proc/net/udp6 |
		awk '$2 ~ /:12B7$/ { n++ } END { print n + 0 }'
}

# ------------------------------------------------------------ RDMA tools
# Each takes SERVER CLIENT (host names) and runs server and client with the
# rxe device and RoCEv2 GID of their host. IBSW_AF=6 picks the IPv6 GIDs
# (and addresses, for rdma_cm); the out-of-band TCP connection of the
# verbs tools always uses IPv4 (their servers listen on IPv4 only).

# _oob HOST: the address the verbs tools' out-of-band TCP connection goes
# to: the host's management address on a fabric (ibsw forwards only
# RDMA), else its IPv4 address.
_oob() { echo "${HOST_MGMT[$1]:-${HOST_IP4[$1]}}"; }

_gid() { if [ "${IBSW_AF:-4}" = 6 ]; then host_gid6 "$1"; else host_gid4 "$1"; fi; }
_ip() { if [ "${IBSW_AF:-4}" = 6 ]; then echo "${HOST_IP6[$1]}"; else echo "${HOST_IP4[$1]}"; fi; }

# _dev_args HOST OPT_DEV OPT_GID: "-d rxe -g idx"
_dev_args() {
	local g

	g=$(_gid "$1") || { ibsw_fail "no RoCEv2 GID on ${HOST_RXE[$1]}"; return 1; }
	echo "$2 ${HOST_RXE[$1]} $3 $g"
}

tool_rc_pingpong() {
	local s=$1 c=$2 sa ca
	sa=$(_dev_args "$s" -d -g) && ca=$(_dev_args "$c" -d -g) || return 1
	ibsw_next_port
	IBSW_PORT=$_ibsw_port
	# shellcheck disable=SC2086
	ibsw_server_client "$s" "$c" ready_tcp "${IBSW_TOOL_TIMEOUT:-60}" \
		ibv_rc_pingpong $sa -p "$IBSW_PORT" -s 4096 -n "${IBSW_PINGPONG_N:-100}" -c -- \
		ibv_rc_pingpong $ca -p "$IBSW_PORT" -s 4096 -n "${IBSW_PINGPONG_N:-100}" -c "$(_oob "$s")"
}

tool_ud_pingpong() {
	local s=$1 c=$2 sa ca
	sa=$(_dev_args "$s" -d -g) && ca=$(_dev_args "$c" -d -g) || return 1
	ibsw_next_port
	IBSW_PORT=$_ibsw_port
	# shellcheck disable=SC2086
	ibsw_server_client "$s" "$c" ready_tcp "${IBSW_TOOL_TIMEOUT:-60}" \
		ibv_ud_pingpong $sa -p "$IBSW_PORT" -s 512 -n 100 -c -- \
		ibv_ud_pingpong $ca -p "$IBSW_PORT" -s 512 -n 100 -c "$(_oob "$s")"
}

tool_rping() {
	local s=$1 c=$2
	ibsw_next_port
	IBSW_PORT=$_ibsw_port
	ibsw_server_client "$s" "$c" ready_rdma_cm "${IBSW_TOOL_TIMEOUT:-60}" \
		rping -s -a "$(_ip "$s")" -p "$IBSW_PORT" -C 10 -S 1024 -V -- \
		rping -c -a "$(_ip "$s")" -I "$(_ip "$c")" -p "$IBSW_PORT" \
		-C 10 -S 1024 -V
}

# perftest: PERFTEST_ARGS is added to both sides.
_perftest() {
	local tool=$1 s=$2 c=$3 sa ca
	shift 3
	sa=$(_dev_args "$s" -d -x) && ca=$(_dev_args "$c" -d -x) || return 1
	ibsw_next_port
	IBSW_PORT=$_ibsw_port
	# shellcheck disable=SC2086
	ibsw_server_client "$s" "$c" ready_tcp "${IBSW_TOOL_TIMEOUT:-60}" \
		"$tool" $sa -p "$IBSW_PORT" -F "$@" -- \
		"$tool" $ca -p "$IBSW_PORT" -F "$@" "$(_oob "$s")"
}

tool_write_bw() {
	_perftest ib_write_bw "$1" "$2" -s 65536 -n 100 --report_gbits
}

tool_read_lat() {
	_perftest ib_read_lat "$1" "$2" -s 64 -n 100
}

# The average bandwidth column of the last perftest bw table in a log.
ibsw_bw_from_log() {
	awk '/BW average/ { hdr = 1; next }
	     hdr && $1 ~ /^[0-9]+$/ { bw = $4 }
	     END { if (bw != "") print bw }' "$1"
}

# Case functions running one tool, SERVER CLIENT as arguments; each skips
# the case when its program is not installed.
_have() {
	ibsw_have "$@" || ibsw_skip "$* not installed"
}

rc() { _have ibv_rc_pingpong && tool_rc_pingpong "$@"; }
ud() { _have ibv_ud_pingpong && tool_ud_pingpong "$@"; }
rp() { _have rping && tool_rping "$@"; }
wbw() { _have ib_write_bw && tool_write_bw "$@"; }
rlat() { _have ib_read_lat && tool_read_lat "$@"; }

# ------------------------------------------------------------------ fabric
# An emulated IB fabric built by `ibswctl fabric up` from a topology file
# (ibsw.ko is loaded by scripts/vm). Hosts are known by their topology
# names; HOST_* are filled from the fabric description, so the tool
# functions above work on them unchanged.

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

# ibsw_hca_rate HOST: "BPS WHERE": the rate at which HOST's HCA injects at
# most, bit/s of emulated time, as the fabric has it in force (its switch
# port's hca_rate in sysfs, or `ibswctl -j port show`), else as the
# topology asks for it (the inject= option of its port); WHERE says which
ibsw_hca_rate() {
	local h=$1 v

	if read -r v <"/sys/class/ibsw/${HOST_SW[$h]}/ports/${HOST_PORT[$h]}/hca_rate" 2>/dev/null &&
		[ "${v:-0}" != 0 ]; then
		echo "$v sysfs"
		return
	fi
	v=$(ibswctl -j port show "${HOST_SW[$h]}/${HOST_PORT[$h]}" 2>/dev/null |
		jq -r '(if type == "array" then .[0] else . end) | .hca_rate // empty' 2>/dev/null)
	if [ -n "$v" ] && [ "$v" != 0 ]; then
		echo "$v ibswctl"
		return
	fi
	v=$(awk -v h="\"$h\"" '
		{ sub(/#.*/, "") }
		$1 ~ /^(Hca|Ca|Switch)$/ { host = ($1 != "Switch" && $3 == h); next }
		host && match($0, /inject=[0-9]+[kMG]?/) {
			v = substr($0, RSTART + 7, RLENGTH - 7); m = 1
			if (v ~ /k$/) m = 1e3; else if (v ~ /M$/) m = 1e6; else if (v ~ /G$/) m = 1e9
			printf "%.0f\n", v * m; exit
		}' "${IBSW_TOPO:-/dev/null}")
	[ -n "$v" ] || return 1
	echo "$v topology"
}

# ibsw_rate_window [-c COUNTER] VAR SECONDS SW:PORT...: bit/s of
# emulated time of IB wire data received by each switch port (port_rcv_data,
# or COUNTER: port_xmit_data for what it sent; both in 4-byte words) over
# SECONDS of wall-clock time. VAR gets "SW:PORT=bit/s ...". Each counter
# is read with the shell's own read (a fork and exec take tens of
# milliseconds in a busy TCG guest) and timed right after its read.
# Place a window after ibsw_flows_started. It fails if a flow of the case
# through a measured port stopped before the window's end (the rate would
# be wrong), and records the ports' xmit_late for ibsw_cpu_check.
ibsw_rate_window() {
	local cnt=port_rcv_data

	if [ "$1" = -c ]; then
		cnt=$2
		shift 2
	fi
	local -n _rw_out=$1
	local secs=$2 scale p v f w0 w1
	local -A file before t0
	shift 2

	scale=$(ibsw_time_scale) || return 1
	for p; do
		ibsw_cnt_file f "${p%:*}" "${p#*:}" "$cnt"
		file[$p]=$f
	done
	_ibsw_late_read _ibsw_late0
	w0=${EPOCHREALTIME/./}
	for p; do
		read -r v <"${file[$p]}" || return 1
		t0[$p]=${EPOCHREALTIME/./} before[$p]=$v
	done
	sleep "$secs"
	_rw_out=()
	for p; do
		read -r v <"${file[$p]}" || return 1
		# words * 32 bits / (wall us / scale / 1e6) = bit/s of emulated time
		_rw_out[$p]=$(((v - before[$p]) * 32 * 1000000 * scale / (${EPOCHREALTIME/./} - t0[$p])))
	done
	w1=${EPOCHREALTIME/./}
	_ibsw_late_read _ibsw_late1
	_ibsw_win_ports=("$@") _ibsw_win_us=$((w1 - w0)) _ibsw_win_scale=$scale
	ibsw_flows_running "$@"
}

# ---------------------------------------------------------- CPU or link?
# A rate measured in the VM is the link's only if the CPU ran the links'
# engines in time. Each port counts in xmit_late the ticks (64 bytes at its
# rate, emulated time) its busy transmitters lost because their engine ran
# later than the pacing slack (a host port adds its HCA's transmitter).
#
# IBSW_LATE_MAX, in percent of a window: 2. The rates the tests assert
# have margins of 5% (95% of a link's or an HCA's rate) and more (the
# congestion ratios); a port that lost under 2% of the window leaves a
# failing assertion to the link and the switch, one that lost more makes
# the CPU a cause of its own. On a quiet machine the ports of passing runs
# lost 0.0 to 1.6% (Documentation/testing.md), other VMs on the same cores
# pushed them to 4 to 13%.
IBSW_LATE_MAX=${IBSW_LATE_MAX:-2}

_ibsw_win_ports=()
_ibsw_win_us=
_ibsw_win_scale=
declare -A _ibsw_late0 _ibsw_late1

# _ibsw_late_read ARRAY: ARRAY[SW:PORT] gets the xmit_late of every
# connected port of every switch
_ibsw_late_read() {
	local -n _lr=$1
	local d k f v sw p

	_lr=()
	for d in /sys/class/ibsw/*/ports/*; do
		read -r k <"$d/kind" 2>/dev/null || continue
		[ "$k" != none ] || continue
		sw=${d#/sys/class/ibsw/}
		sw=${sw%%/*}
		p=${d##*/}
		ibsw_cnt_file f "$sw" "$p" xmit_late
		read -r v <"$f" 2>/dev/null || continue
		# shellcheck disable=SC2004 # an associative array
		_lr[$sw:$p]=$v
	done
}

# ibsw_port_name SW:PORT: "S1/1", with the host it serves: "S1/1 (H1)"
ibsw_port_name() {
	local h

	for h in "${!HOST_SW[@]}"; do
		if [ "${HOST_SW[$h]}:${HOST_PORT[$h]}" = "$1" ]; then
			echo "${1/:/\/} ($h)"
			return
		fi
	done
	echo "${1/:/\/}"
}

# ibsw_late_pct SW:PORT: percent of the last window that the port lost to
# late engine runs ("" if it has no xmit_late)
ibsw_late_pct() {
	local p=$1 rate

	[ -n "${_ibsw_late1[$p]+x}" ] && [ -n "${_ibsw_late0[$p]+x}" ] || return 1
	read -r rate _ <"/sys/class/ibsw/${p%:*}/ports/${p#*:}/rate" || return 1
	# ticks * 512 bit / rate = emulated s lost; window: us / 1e6 / scale
	awk -v t=$((_ibsw_late1[$p] - _ibsw_late0[$p])) -v r="$rate" -v s="$_ibsw_win_scale" \
		-v us="$_ibsw_win_us" 'BEGIN { printf "%.1f", 100 * t * 512 / (r * 1e9) * 1e6 * s / us }'
}

# ibsw_cpu_check [SW:PORT...]: the case fails, with "CPU-limited: port X
# lost N% of the window to late engine runs", when one of these ports (the
# ports the last ibsw_rate_window measured, by default) lost more than
# IBSW_LATE_MAX percent of that window. Every port that lost time is
# logged. A late engine makes a measured rate too low, never too high: so
# check the ports of a rate that must be at most something before that
# assertion (a pass could be the CPU's), and those of a rate that must be
# at least something when it fails (the failure could be the CPU's).
ibsw_cpu_check() {
	local p pct worst='' wpct='' line=''

	[ $# -gt 0 ] || set -- "${_ibsw_win_ports[@]}"
	[ -n "$_ibsw_win_us" ] || ibsw_fail "ibsw_cpu_check: no window measured" || return
	for p in "${!_ibsw_late1[@]}"; do
		[ "${_ibsw_late1[$p]}" != "${_ibsw_late0[$p]:-}" ] || continue
		line+=" $(ibsw_port_name "$p") $(ibsw_late_pct "$p")%"
	done
	echo "$(ibsw_ts) xmit_late over the window ($((_ibsw_win_us / 1000)) ms wall):${line:- none}"
	for p; do
		pct=$(ibsw_late_pct "$p") ||
			ibsw_fail "cannot tell whether CPU-limited: no xmit_late for port $(ibsw_port_name "$p")" ||
			return
		if awk -v a="$pct" -v b="${wpct:-$IBSW_LATE_MAX}" 'BEGIN { exit !(a > b) }'; then
			worst=$p wpct=$pct
		fi
	done
	[ -z "$worst" ] ||
		ibsw_fail "CPU-limited: port $(ibsw_port_name "$worst") lost $wpct% of the window to late engine runs"
}

tool_send_lat() {
	_perftest ib_send_lat "$1" "$2" -s 64 -n 200
}
slat() { _have ib_send_lat && tool_send_lat "$@"; }

# ------------------------------------------------------------------- flows
# Bulk flows run until the case ends (ibsw_reap stops them with the rest
# of its background processes), not for a duration guessed in advance:
# under QEMU TCG a perftest takes from one to tens of seconds to start,
# longer while other flows, builds or VMs load the CPUs, and a flow that
# ran out before a window ended gave that window a wrong rate. A case
# waits with ibsw_flows_started until its flows send, then measures.

IBSW_FLOW_LIMIT=${IBSW_FLOW_LIMIT:-1800}	# wall s: the end of a lost flow
IBSW_FLOW_REPORT=${IBSW_FLOW_REPORT:-10}	# s between perftest's reports
IBSW_FLOW_START_TIMEOUT=${IBSW_FLOW_START_TIMEOUT:-90}
IBSW_FLOW_START_BYTES=${IBSW_FLOW_START_BYTES:-1048576}

_ibsw_flows=()		# "SRC>DST" of the running case's flows
declare -A _ibsw_flow_from _ibsw_flow_base _ibsw_flow_t0 _ibsw_flow_cli _ibsw_flow_srv \
	_ibsw_flow_log _ibsw_flow_up

_ibsw_flows_forget() {
	_ibsw_flows=()
	_ibsw_flow_from=() _ibsw_flow_base=() _ibsw_flow_t0=() _ibsw_flow_cli=()
	_ibsw_flow_srv=() _ibsw_flow_log=() _ibsw_flow_up=()
}

# ibsw_flow_start SRC DST [ARGS...]: a bulk flow from host SRC to host DST
# (ib_write_bw, 64 KiB messages) in the background, running until the case
# ends, when ibsw_reap kills server and client. Returns once the client
# was started; the flow is "SRC>DST" for ibsw_flows_started (also in
# IBSW_FLOW). IBSW_FLOW_TOOL (another perftest bw tool) and IBSW_FLOW_SIZE
# change the tool and the message size; the client runs on SRC, so with
# ib_read_bw the data goes from DST to SRC.
ibsw_flow_start() {
	local s=$1 d=$2 sa ca log tool=${IBSW_FLOW_TOOL:-ib_write_bw} from f cf base
	local size=${IBSW_FLOW_SIZE:-65536}
	shift 2

	sa=$(_dev_args "$d" -d -x) && ca=$(_dev_args "$s" -d -x) || return 1
	ibsw_next_port
	IBSW_PORT=$_ibsw_port
	log=${IBSW_CASE_LOG%.log}.flow-$s-$d.log
	# --run_infinitely: a report every IBSW_FLOW_REPORT s, no end (perftest
	# 4.5 has it for the bw tests). -u 20: a QP timeout of 4 s, as queueing
	# delays grow with the time scale (rxe's own timers are not scaled).
	# nice 19: perftest busy-polls, and at nice 0 the softirqs and workers
	# that run the emulated links and rxe wait for its time slices
	# (ibsw-run's guest.py)
	# shellcheck disable=SC2086
	ibsw_bg "$d" "$log" "$IBSW_FLOW_LIMIT" nice -n 19 "$tool" $sa -p "$IBSW_PORT" -F \
		-s "$size" --run_infinitely -D "$IBSW_FLOW_REPORT" --report_gbits -u 20 "$@"
	local spid=$IBSW_BG_PID
	_ibsw_flow_srv_ready() {
		kill -0 "$spid" 2>/dev/null || return 0
		ready_tcp "$d"
	}
	# (a server's start takes seconds under TCG, tens on a busy machine)
	wait_for "$tool server on $d" "$IBSW_FLOW_START_TIMEOUT" _ibsw_flow_srv_ready >/dev/null ||
		ibsw_fail "flow $s->$d: its server ($tool on $d) did not listen within $IBSW_FLOW_START_TIMEOUT s" ||
		return
	kill -0 "$spid" 2>/dev/null ||
		ibsw_fail "flow $s->$d: its server exited: $(ibsw_last_line "$(cat "$log")")" || return
	# The data leaves from the client's host, but from the server's with
	# ib_read_bw: its switch port's port_rcv_data shows when the flow sends
	from=$s
	[ "$tool" = ib_read_bw ] && from=$d
	ibsw_cnt_file cf "${HOST_SW[$from]}" "${HOST_PORT[$from]}" port_rcv_data
	read -r base <"$cf" || ibsw_fail "no port_rcv_data for $from ($cf)" || return
	# shellcheck disable=SC2086
	ibsw_bg "$s" "$log" "$IBSW_FLOW_LIMIT" nice -n 19 "$tool" $ca -p "$IBSW_PORT" -F \
		-s "$size" --run_infinitely -D "$IBSW_FLOW_REPORT" --report_gbits -u 20 "$@" "$(_oob "$d")"
	f="$s>$d"
	[ -n "${_ibsw_flow_t0[$f]+x}" ] || _ibsw_flows+=("$f")
	_ibsw_flow_from[$f]=$from _ibsw_flow_base[$f]=$base _ibsw_flow_t0[$f]=${EPOCHREALTIME/./}
	_ibsw_flow_cli[$f]=$IBSW_BG_PID _ibsw_flow_srv[$f]=$spid _ibsw_flow_log[$f]=$log
	unset "_ibsw_flow_up[$f]"
	IBSW_FLOW=$f
	echo "$(ibsw_ts) flow $s -> $d started ($tool, log ${log##*/})"
}

# _ibsw_flow_dead FLOW: whether its server or client exited; the reason
# if so
_ibsw_flow_dead() {
	local f=$1 side pid

	for side in client server; do
		if [ $side = client ]; then pid=${_ibsw_flow_cli[$f]}; else pid=${_ibsw_flow_srv[$f]}; fi
		kill -0 "$pid" 2>/dev/null && continue
		echo "its $side exited: $(ibsw_last_line "$(cat "${_ibsw_flow_log[$f]}")")"
		return 0
	done
	return 1
}

# ibsw_flows_started [FLOW...]: wait until each flow ("SRC>DST" as
# started; default: every flow of the case) has measurably started: its
# sender's switch port received IBSW_FLOW_START_BYTES of data since the
# flow was started (1 MiB: 16 of its messages; acknowledgements a host
# sends for another flow come to a thousandth of that flow's data, far
# less in the time allowed; but a host that already sends another flow
# looks started at once). A flow that has not sent that after
# IBSW_FLOW_START_TIMEOUT wall seconds from its client's start fails the
# case: "flow H6->H5 did not start within 90 s".
ibsw_flows_started() {
	local f cf v now left words=$((IBSW_FLOW_START_BYTES / 4)) why delay=0.05

	[ $# -gt 0 ] || set -- "${_ibsw_flows[@]}"
	for f; do
		[ -n "${_ibsw_flow_t0[$f]+x}" ] || ibsw_fail "no flow $f was started" || return
	done
	while :; do
		left=0
		now=${EPOCHREALTIME/./}
		for f; do
			[ -z "${_ibsw_flow_up[$f]+x}" ] || continue
			ibsw_cnt_file cf "${HOST_SW[${_ibsw_flow_from[$f]}]}" \
				"${HOST_PORT[${_ibsw_flow_from[$f]}]}" port_rcv_data
			read -r v <"$cf" || v=0
			if [ $((v - _ibsw_flow_base[$f])) -ge "$words" ]; then
				_ibsw_flow_up[$f]=$now
				echo "$(ibsw_ts) flow ${f/>/->} sending, $(ibsw_elapsed "${_ibsw_flow_t0[$f]}" "$now") s after its client's start"
				continue
			fi
			if why=$(_ibsw_flow_dead "$f"); then
				ibsw_fail "flow ${f/>/->} did not start: $why"
				return 1
			fi
			if [ $((now - _ibsw_flow_t0[$f])) -ge $((IBSW_FLOW_START_TIMEOUT * 1000000)) ]; then
				echo "$(ibsw_ts) flow ${f/>/->}: $(((v - _ibsw_flow_base[$f]) * 4)) bytes sent"
				ibsw_fail "flow ${f/>/->} did not start within $IBSW_FLOW_START_TIMEOUT s"
				return 1
			fi
			left=$((left + 1))
		done
		[ $left -gt 0 ] || return 0
		sleep $delay
		delay=0.2
	done
}

# ibsw_flows_running [SW:PORT...]: the flows of the case still run (those
# whose sender or receiver is on one of these ports, if given); else the
# case fails: "flow H1->H4 stopped: its client exited: ...".
ibsw_flows_running() {
	local f p h why hit

	for f in "${_ibsw_flows[@]}"; do
		if [ $# -gt 0 ]; then
			hit=
			for p; do
				for h in "${f%>*}" "${f#*>}"; do
					[ "${HOST_SW[$h]}:${HOST_PORT[$h]}" != "$p" ] || hit=1
				done
			done
			[ -n "$hit" ] || continue
		fi
		if why=$(_ibsw_flow_dead "$f"); then
			ibsw_fail "flow ${f/>/->} stopped: $why"
			return 1
		fi
	done
}

# ibsw_cc_file HOST FILE: a file of the patched rxe's congestion control
# of HOST (ports/1/cc, drivers/infiniband/sw/rxe/README.md)
ibsw_cc_file() { echo "/sys/class/infiniband/${HOST_RXE[$1]}/ports/1/cc/$2"; }
ibsw_cc_get() { cat "$(ibsw_cc_file "$1" "$2")"; }

# ibsw_cc_state HOST: every setting of HOST's congestion control, to
# compare before and after a refused change
ibsw_cc_state() {
	local f

	for f in enabled port_control time_scale link_rate cct ccti_limit sl_settings; do
		echo "$f: $(ibsw_cc_get "$1" "$f")"
	done
}

# Sum of an rxe hardware counter over the hosts' devices.
ibsw_rxe_cnt_total() {
	local h n=0 v

	for h in "${!HOST_RXE[@]}"; do
		read -r v <"/sys/class/infiniband/${HOST_RXE[$h]}/ports/1/hw_counters/$1" || return 1
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
		hca_discards
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
