#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 0 --mem 3072
#
# Soak: seed 002's scenario 1 with congestion control on (the fabric,
# buffers, switch and HCA settings and the five flows of
# scenarios/seed002-s1-cc-1x.scn, applied by ibsw-run's own code through
# tests/lib/scenario_cc.py), while a seeded random schedule deletes and
# re-creates parts of the fabric under the flows. make longcheck
# T=seed002_cc_soak; best on the debug kernel (scripts/debug-kernel, then
# tests/run long seed002_cc_soak with its environment), where KASAN,
# lockdep and kmemleak watch it and scripts/vm fails the run on any
# report.
#
# Each round (IBSW_SOAK_ROUND wall seconds, 60) draws one event
# (IBSW_SOAK_EVENTS: the kinds to draw from, e.g. "host_netns"):
#  - nothing;
#  - a switch-to-switch cable deleted for 1 to 5 s and added again;
#  - a host port deleted (ibswctl host del) and re-created by the steps
#    fabric up took for it, its HCA CC settings applied again;
#  - a host's namespace deleted and re-created the same way.
# A host's flows, and their peers, are ended before its port goes (rxe
# cannot take a device from the processes using it) and started again
# after. Then every flow must still run, ibv_rc_pingpong --chk must carry
# verified data on every flow's path, and the round's FECN marks at the
# root of the congestion tree and BECNs to the senders' rxe are counted
# (none in every round fails the run).
#
# It runs until IBSW_SOAK_MINUTES emulated minutes have passed (30; at the
# scenario's scale of 100 that is 50 hours), or IBSW_SOAK_WALL wall
# seconds (0: no limit), whichever comes first, and reports the emulated
# time it covered. IBSW_SOAK_SEED repeats a schedule; IBSW_SOAK_SCALE
# changes the time scale (too small a scale and the rxe hosts, not the
# links, limit the flows: no tree forms, and the counts show it).
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

SCN=${IBSW_SOAK_SCENARIO:-$IBSW_ROOT/scenarios/seed002-s1-cc-1x.scn}
MINUTES=${IBSW_SOAK_MINUTES:-30}
WALL=${IBSW_SOAK_WALL:-0}
ROUND=${IBSW_SOAK_ROUND:-60}
SEED=${IBSW_SOAK_SEED:-$((SRANDOM % 1000000000))}
SCENARIO_CC=$IBSW_ROOT/tests/lib/scenario_cc.py
RANDOM=$SEED
# Flows end with the run, not after the library's half hour
IBSW_FLOW_LIMIT=$((10 * 24 * 3600))

ibsw_require_ibsw
ibsw_require_patched_rxe

TOPO='' SCALE='' FABRIC_ARGS=() FLOWS=()
while read -r key rest; do
	case $key in
	topology) TOPO=$rest ;;
	scale) SCALE=$rest ;;
	fabric) read -r -a FABRIC_ARGS <<<"$rest" ;;
	flow)
		# shellcheck disable=SC2086
		set -- $rest
		[ "$4" = write ] || ibsw_setup_fail "flow $1: $4, but the soak runs write flows only"
		FLOWS+=("$2>$3") FLOW_SIZE=$5
		;;
	esac
done < <(python3 "$SCENARIO_CC" info "$SCN") ||
	ibsw_setup_fail "$SCN: cannot read it"
if [ -z "$TOPO" ] || [ ${#FLOWS[@]} -eq 0 ]; then
	ibsw_setup_fail "$SCN: no topology or no flow"
fi
SCALE=${IBSW_SOAK_SCALE:-$SCALE}
IBSW_FLOW_SIZE=$FLOW_SIZE

echo "soak: $SCN at scale $SCALE, seed $SEED, rounds of $ROUND s, until $MINUTES emulated min" \
	"or ${WALL} wall s"
ibsw_fabric_up "$TOPO" scale "$SCALE" "${FABRIC_ARGS[@]}" >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"
python3 "$SCENARIO_CC" apply "$SCN" "$IBSW_DESC" >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "the scenario's cc lines: see setup.log"
# The steps fabric up took, to re-create a part of the fabric as it did
STEPS=$(ibswctl fabric up "$TOPO" scale "$SCALE" "${FABRIC_ARGS[@]}" dry-run) ||
	ibsw_setup_fail "fabric up dry-run"
mapfile -t CABLES < <(sed -n 's/^ibswctl link add //p' <<<"$STEPS")

# The root of the congestion tree: the switch port of the host most flows
# go to (H5 in seed 002)
ROOT_HOST=$(printf '%s\n' "${FLOWS[@]#*>}" | sort | uniq -c | sort -rn | awk '{ print $2; exit }')
ROOT_PORT="${HOST_SW[$ROOT_HOST]} ${HOST_PORT[$ROOT_HOST]}"

# flow_hosts: the hosts some flow uses
mapfile -t FLOW_HOSTS < <(printf '%s\n' "${FLOWS[@]%>*}" "${FLOWS[@]#*>}" | sort -u)

declare -A EVENTS=([none]=0 [cable]=0 [host_port]=0 [host_netns]=0)
# The draw: a cable and a host port twice as often as the others
read -r -a EVENT_KINDS <<<"${IBSW_SOAK_EVENTS:-none cable cable host_port host_port host_netns}"
for k in "${EVENT_KINDS[@]}"; do
	[ -n "${EVENTS[$k]+x}" ] || ibsw_setup_fail "IBSW_SOAK_EVENTS: no event $k (${!EVENTS[*]})"
done
mapfile -t SENDERS < <(printf '%s\n' "${FLOWS[@]%>*}" | sort -u)
RESTARTS=0 PAIRS=0

start_flows() {
	local f

	for f; do
		ibsw_flow_start "${f%>*}" "${f#*>}" && ibsw_flows_started "$IBSW_FLOW" || return 1
	done
}

# host_flows HOST: the flows from or to HOST
host_flows() {
	local f

	for f in "${FLOWS[@]}"; do
		[ "${f%>*}" = "$1" ] || [ "${f#*>}" = "$1" ] && echo "$f"
	done
}

# host_steps HOST netns|port: fabric up's steps for HOST: all of them, or
# those of its host port (they name its netdev or its rxe device). Words
# are matched whole: H1 is not H10.
host_steps() {
	awk -v h="$1" -v dev="${HOST_DEV[$1]}" -v from="$2" '
		{ mine = port = 0
		  for (i = 1; i <= NF; i++) {
			if ($i == h || $i == "m-" h || $i == "rxe_" h || $i == "'"'"'" h) mine = 1
			if ($i == dev || $i == "rxe_" h) port = 1
		  } }
		mine && (from == "netns" || port)' <<<"$STEPS"
}

host_gone() {
	grep -qx none "/sys/class/ibsw/${HOST_SW[$1]}/ports/${HOST_PORT[$1]}/kind"
}

# recreate_host HOST port|netns: end its flows, delete its port or its
# namespace, build it again, start its flows again
recreate_host() {
	local h=$1 how=$2 f line
	local -a mine

	mapfile -t mine < <(host_flows "$h")
	for f in "${mine[@]}"; do
		ibsw_kill_pids "${_ibsw_flow_cli[$f]}" "${_ibsw_flow_srv[$f]}"
	done
	ibsw_netns_kill "${HOST_NS[$h]}"
	echo "$(ibsw_ts) $h: deleting its $how, flows ${mine[*]:-none} ended"
	if [ "$how" = port ]; then
		ibswctl host del "${HOST_SW[$h]}/${HOST_PORT[$h]}" ||
			ibsw_fail "ibswctl host del ${HOST_SW[$h]}/${HOST_PORT[$h]}" || return
	else
		ip netns del "${HOST_NS[$h]}" || ibsw_fail "ip netns del ${HOST_NS[$h]}" || return
	fi
	wait_for "$h's switch port to become unconnected" 60 host_gone "$h" || return
	while IFS= read -r line; do
		echo "$(ibsw_ts) + $line"
		eval "$line" || ibsw_fail "re-creating $h: $line" || return
	done < <(host_steps "$h" "$how")
	wait_for "IPv4 RoCEv2 GID of ${HOST_RXE[$h]}" 20 host_gid4 "$h" >/dev/null &&
		wait_for "IPv6 RoCEv2 GID of ${HOST_RXE[$h]}" 20 host_gid6 "$h" >/dev/null &&
		ibsw_hosts_ready "$h" || return
	python3 "$SCENARIO_CC" apply "$SCN" "$IBSW_DESC" "$h" ||
		ibsw_fail "$h: the scenario's cc hca lines" || return
	start_flows "${mine[@]}" || return
	RESTARTS=$((RESTARTS + ${#mine[@]}))
}

# flap_cable "A B rate R": the cable out for 1 to 5 s, then back
flap_cable() {
	local a=${1%% *} out=$((1 + RANDOM % 5))

	echo "$(ibsw_ts) cable $1: out for $out s"
	ibswctl link del "$a" || ibsw_fail "ibswctl link del $a" || return
	sleep "$out"
	# shellcheck disable=SC2086 # the step's words
	ibswctl link add $1 || ibsw_fail "ibswctl link add $1" || return
}

# One round's event, drawn from the seeded generator out of EVENT_KINDS
event() {
	local h=${FLOW_HOSTS[RANDOM % ${#FLOW_HOSTS[@]}]}
	local kind=${EVENT_KINDS[RANDOM % ${#EVENT_KINDS[@]}]}

	EVENTS[$kind]=$((EVENTS[$kind] + 1))
	case $kind in
	none) ;;
	cable) flap_cable "${CABLES[RANDOM % ${#CABLES[@]}]}" ;;
	host_port) recreate_host "$h" port ;;
	host_netns) recreate_host "$h" netns ;;
	esac
}

# Verified data on each flow's path: ibv_rc_pingpong --chk, its server on
# the flow's receiver
verify_paths() {
	local f
	local -a pairs=()

	for f in "${FLOWS[@]}"; do
		pairs+=("${f#*>}-${f%>*}")
	done
	IBSW_TOOL_TIMEOUT=180 IBSW_PINGPONG_N=20 rc_pairs ${#pairs[@]} "${pairs[@]}" || return
	PAIRS=$((PAIRS + ${#pairs[@]}))
}

# result LINE: a line of the run's summary, shown after the case
result() { echo "$*" | tee -a "$IBSW_LOGDIR/results"; }

soak() {
	local started=$EPOCHREALTIME at round=0 bad=0 fecn0 fecn1 becn0 becn1 marked=0 throttled=0
	local ran_us left limit_us=$((MINUTES * 60 * SCALE * 1000000)) wall_us=$((WALL * 1000000))

	start_flows "${FLOWS[@]}" || return
	while :; do
		at=$EPOCHREALTIME
		ran_us=$((${at/./} - ${started/./}))
		[ "$ran_us" -lt "$limit_us" ] || break
		[ "$wall_us" = 0 ] || [ "$ran_us" -lt "$wall_us" ] || break
		round=$((round + 1))
		echo "$(ibsw_ts) round $round"
		event || { echo "round $round: the event failed"; bad=1; break; }
		ibsw_flows_running || { bad=1; break; }
		# From here the fabric is whole: the root marks, the senders'
		# rxe receive BECNs (a re-created host's counters start at 0)
		# shellcheck disable=SC2086
		fecn0=$(ibsw_cnt $ROOT_PORT port_xmit_fecn)
		becn0=$(ibsw_rxe_cnt_total cc_becn_rcvd "${SENDERS[@]}")
		verify_paths || { bad=1; break; }
		left=$((ROUND * 1000000 - (${EPOCHREALTIME/./} - ${at/./})))
		[ "$left" -le 0 ] || sleep "$((left / 1000000)).$(printf '%06d' $((left % 1000000)))"
		ibsw_flows_running || { bad=1; break; }
		# shellcheck disable=SC2086
		fecn1=$(ibsw_cnt $ROOT_PORT port_xmit_fecn)
		becn1=$(ibsw_rxe_cnt_total cc_becn_rcvd "${SENDERS[@]}")
		echo "$(ibsw_ts) round $round: $((fecn1 - fecn0)) FECN marks at the root," \
			"$((becn1 - becn0)) BECNs to the senders"
		[ "$fecn1" -gt "$fecn0" ] && marked=$((marked + 1))
		[ "$becn1" -gt "$becn0" ] && throttled=$((throttled + 1))
	done
	at=$EPOCHREALTIME
	result "seed $SEED, scale $SCALE: $round rounds in $(ibsw_elapsed "$started" "$at") wall s," \
		"$(((${at/./} - ${started/./}) / SCALE / 1000)) emulated ms"
	result "events: ${EVENTS[none]} none, ${EVENTS[cable]} cable flaps," \
		"${EVENTS[host_port]} host ports and ${EVENTS[host_netns]} host namespaces re-created;" \
		"$RESTARTS flows restarted"
	result "$PAIRS ibv_rc_pingpong --chk pairs verified; FECN marks at the root" \
		"(${ROOT_PORT/ //}) in $marked of $round rounds, BECNs to the senders in $throttled"
	[ "$bad" = 0 ] || { result "stopped in round $round: ${_ibsw_reason:-see the case log}"; return 1; }
	[ "$round" -gt 0 ] || ibsw_fail "no round ran" || return
	[ "$marked" -gt 0 ] || ibsw_fail "no FECN mark at the root (${ROOT_PORT/ //}) in any round" ||
		return
	[ "$throttled" -gt 0 ] || ibsw_fail "no BECN reached a sender in any round"
}
ibsw_case soak soak
[ -s "$IBSW_LOGDIR/results" ] && while read -r l; do ibsw_note "$l"; done <"$IBSW_LOGDIR/results"

ibsw_exit
