# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib/tools.sh: one run of an RDMA tool between two hosts, server
# and client (ibv_rc_pingpong, ibv_ud_pingpong, rping, perftest), and
# the case functions that run one each (rc, ud, rp, wbw, rlat, slat).

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
	# The client through rping_client.sh: rping's own teardown race
	ibsw_server_client "$s" "$c" ready_rdma_cm "${IBSW_TOOL_TIMEOUT:-60}" \
		rping -s -a "$(_ip "$s")" -p "$IBSW_PORT" -C 10 -S 1024 -V -- \
		"$_ibsw_lib/rping_client.sh" 10 -c -a "$(_ip "$s")" \
		-I "$(_ip "$c")" -p "$IBSW_PORT" -C 10 -S 1024 -V
}

# perftest: PERFTEST_ARGS is added to both sides.
_perftest() {
	local tool=$1 s=$2 c=$3 sa ca
	shift 3
	sa=$(_dev_args "$s" -d -x) && ca=$(_dev_args "$c" -d -x) || return 1
	ibsw_next_port
	IBSW_PORT=$_ibsw_port
	# -u 20: a 4 s ACK timeout, as for the flows (flows.sh): rxe's timers
	# run on the wall clock, slow links and a busy CPU on the emulated one
	# shellcheck disable=SC2086
	ibsw_server_client "$s" "$c" ready_tcp "${IBSW_TOOL_TIMEOUT:-60}" \
		"$tool" $sa -p "$IBSW_PORT" -F -u 20 "$@" -- \
		"$tool" $ca -p "$IBSW_PORT" -F -u 20 "$@" "$(_oob "$s")"
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

# ibsw_rdma_dump HOST...: the state of each host's RDMA device, for a run
# that hangs: its QPs (rdma's own view: state and PSNs), the rxe
# counters, its port's netdev statistics, and the counters of the
# switch port it hangs off that are not 0.
ibsw_rdma_dump() {
	local h dev sw p

	for h; do
		dev=${HOST_RXE[$h]} sw=${HOST_SW[$h]:-} p=${HOST_PORT[$h]:-}
		echo "--- $h ($dev)"
		hx "$h" rdma -d res show qp link "$dev/1"
		hx "$h" rdma statistic show link "$dev/1"
		hx "$h" ip -s link show dev "${HOST_DEV[$h]}"
		[ -n "$sw" ] && [ -n "$p" ] &&
			grep -v '^0$' -r "/sys/class/ibsw/$sw/ports/$p/counters" | sed "s|.*/| $sw/$p |"
	done 2>&1
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

tool_send_lat() {
	_perftest ib_send_lat "$1" "$2" -s 64 -n 200
}
slat() { _have ib_send_lat && tool_send_lat "$@"; }

# rc_pairs AT_ONCE SERVER-CLIENT...: ibv_rc_pingpong (IBSW_PINGPONG_N, 10
# by default) for each pair, AT_ONCE at a time, each with its own port and
# logs (pair-SERVER-CLIENT.log, .server.log). Fails naming every pair that
# failed and why; the logs of those go to the case log.
rc_pairs() {
	local at_once=$1 p k fails=0 n=0 t=$EPOCHREALTIME why=''
	local -a pids=() pairs=()
	shift

	_rc_pairs_wait() {
		for k in "${!pids[@]}"; do
			wait "${pids[k]}" && continue
			fails=$((fails + 1))
			echo "FAILED: ${pairs[k]}"
			cat "$IBSW_LOGDIR/pair-${pairs[k]}.log" "$IBSW_LOGDIR/pair-${pairs[k]}.server.log"
			why+=" ${pairs[k]}: $(tail -n 1 "$IBSW_LOGDIR/pair-${pairs[k]}.log");"
		done
		pids=() pairs=()
	}
	for p; do
		# a port of its own: a host may serve two pairs at once
		ibsw_next_port
		IBSW_CASE_LOG=$IBSW_LOGDIR/pair-$p.log IBSW_PINGPONG_N=${IBSW_PINGPONG_N:-10} \
			_rc_pair "${p%-*}" "${p#*-}" >"$IBSW_LOGDIR/pair-$p.log" 2>&1 &
		pids+=($!) pairs+=("$p")
		n=$((n + 1))
		[ ${#pids[@]} -lt "$at_once" ] || _rc_pairs_wait
	done
	_rc_pairs_wait
	echo "ibv_rc_pingpong, $n pairs, $at_once at a time: $fails failed, $(ibsw_elapsed "$t" "$EPOCHREALTIME") s"
	[ "$fails" = 0 ] || ibsw_fail "$fails of $n ibv_rc_pingpong pairs failed:${why%;}"
}

# _rc_pair SERVER CLIENT: rc, with the time it took or why it failed as
# the last line of its output
_rc_pair() {
	local t=$EPOCHREALTIME

	rc "$@" && { echo "done in $(ibsw_elapsed "$t" "$EPOCHREALTIME") s"; return; }
	echo "failed after $(ibsw_elapsed "$t" "$EPOCHREALTIME") s: ${_ibsw_reason:-no reason}"
	return 1
}
