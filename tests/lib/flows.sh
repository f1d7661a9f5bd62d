# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib/flows.sh: bulk flows (perftest bw tools) that run in the
# background until the case ends: starting them, waiting until they
# send, checking that they still run.

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
# IBSW_FLOW), and IBSW_FLOW_CLI is its client's pid (the timeout running
# the tool). IBSW_FLOW_TOOL (another perftest bw tool) and IBSW_FLOW_SIZE
# change the tool and the message size; the client runs on SRC, so with
# ib_read_bw the data goes from DST to SRC. Its programs run at nice 0
# until ibsw_flows_started sees the flow send: a case that measures a
# rate waits for it so.
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
	# Both programs start at nice 0 and go to nice 19 once the flow sends
	# (ibsw_flows_started): perftest busy-polls, and at nice 0 the softirqs
	# and workers that run the emulated links and rxe wait for its time
	# slices; at nice 19 from the start, a program set itself up in what
	# the flows already polling left it (ibsw-run's guest.py)
	# shellcheck disable=SC2086
	ibsw_bg "$d" "$log" "$IBSW_FLOW_LIMIT" "$tool" $sa -p "$IBSW_PORT" -F \
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
	ibsw_bg "$s" "$log" "$IBSW_FLOW_LIMIT" "$tool" $ca -p "$IBSW_PORT" -F \
		-s "$size" --run_infinitely -D "$IBSW_FLOW_REPORT" --report_gbits -u 20 "$@" "$(_oob "$d")"
	f="$s>$d"
	[ -n "${_ibsw_flow_t0[$f]+x}" ] || _ibsw_flows+=("$f")
	_ibsw_flow_from[$f]=$from _ibsw_flow_base[$f]=$base _ibsw_flow_t0[$f]=${EPOCHREALTIME/./}
	_ibsw_flow_cli[$f]=$IBSW_BG_PID _ibsw_flow_srv[$f]=$spid _ibsw_flow_log[$f]=$log
	unset "_ibsw_flow_up[$f]"
	IBSW_FLOW=$f IBSW_FLOW_CLI=$IBSW_BG_PID
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

# _ibsw_flow_nice FLOW: its server and client (the programs their
# `timeout`s run), every thread, to nice 19
_ibsw_flow_nice() {
	local pid prog t

	for pid in "${_ibsw_flow_cli[$1]}" "${_ibsw_flow_srv[$1]}"; do
		for prog in $(pgrep -P "$pid"); do
			for t in /proc/"$prog"/task/*; do
				renice -n 19 -p "${t##*/}" >/dev/null 2>&1
			done
		done
	done
}

# ibsw_flows_started [FLOW...]: wait until each flow ("SRC>DST" as
# started; default: every flow of the case) has measurably started: its
# sender's switch port received IBSW_FLOW_START_BYTES of data since the
# flow was started (1 MiB: 16 of its messages; acknowledgements a host
# sends for another flow come to a thousandth of that flow's data, far
# less in the time allowed; but a host that already sends another flow
# looks started at once). A flow that has not sent that after
# IBSW_FLOW_START_TIMEOUT wall seconds from its client's start fails the
# case: "flow H6->H5 did not start within 90 s". A flow that sends goes to
# nice 19. Start flows one at a time, each waited for, so that one starts
# beside flows already at nice 19.
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
				_ibsw_flow_nice "$f"
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
