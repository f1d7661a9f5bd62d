#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 110
#
# The management agents fuzzed with real MADs: ibsw-mad-fuzz (tools/madfuzz)
# sends generated requests, each a valid one with fields changed (data,
# modifier, attribute, method, versions, status, directed route, key),
# through ib_umad to the agents of one-switch.net, after OpenSM set it up
# once from a management HCA on the switch's port 3:
#  - the switch's SMA (directed route 0,1) and an emulated CA's (0,1,P);
#  - the switch's PMA and congestion control agent (by its LID);
#  - rxe's congestion control agent and PMA on H2 (patch 0005; from H1,
#    RoCE with a GRH).
# Each answer must fit its request, and a request that was refused, went
# unanswered or only read must leave what Gets read of the agent as it
# was, but for the violation counters. Then the agents still answer
# (smpquery, perfquery, ibsw-ccmad) and RDMA still runs (rping). The VM's
# log check fails the run on any kernel warning; make debugcheck runs it
# on KASAN, lockdep and kmemleak.
# IBSW_FUZZ_SECONDS (15 by default) is each agent's time. The seed is
# fixed, so that make check repeats itself: the one whose run found the
# SMAs keeping a requester's Status bits in their replies. IBSW_FUZZ_SEED
# gives another (IBSW_FUZZ_SEED=random: a new one, printed).
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

FUZZ=${IBSW_BUILD:-$IBSW_ROOT/build}/tools/madfuzz/ibsw-mad-fuzz
CCMAD=${IBSW_BUILD:-$IBSW_ROOT/build}/tools/ccmad/ibsw-ccmad
SECS=${IBSW_FUZZ_SECONDS:-15}
SEED=${IBSW_FUZZ_SEED:-1795996209}
[ "$SEED" != random ] || SEED=$(date +%s%N)
MP=3
DEV=ibsw_madfz0

ibsw_require_ibsw
ibsw_require_patched_rxe
[ -x "$FUZZ" ] || ibsw_setup_fail "$FUZZ missing (make tools)"
[ -x "$CCMAD" ] || ibsw_setup_fail "$CCMAD missing (make tools)"
for t in opensm smpquery perfquery; do
	ibsw_have "$t" || ibsw_setup_fail "$t missing (scripts/deps: opensm, infiniband-diags)"
done
modprobe ib_umad || ibsw_setup_fail "modprobe ib_umad failed"
ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" scale 100 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"
SW=${HOST_SW[H1]}
ibswctl mgmt add "$SW/$MP" name "$DEV" lid 100 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "mgmt add $SW/$MP failed"
ibsw_defer "ibswctl mgmt del $SW/$MP 2>/dev/null"
GUID=$(ibstat -p "$DEV")
ibsw_note "seed $SEED, $SECS s an agent"

smp() { timeout 20 smpquery -C "$DEV" -P 1 "$@"; }
field() { awk -F'[.]+' -v k="$1" '$1 == k { print $2 }'; }

# OpenSM once: LIDs, the switch's table, every port ACTIVE; with ARGS
# (-Q: QoS) more
sm_once() {
	local log=$IBSW_LOGDIR/opensm$#.log cache

	cache=$(mktemp -d)
	OSM_CACHE_DIR=$cache timeout 120 opensm -g "$GUID" -o -e -f "$log" -s 0 "$@" >/dev/null 2>&1
	rm -rf "$cache"
	grep -q "SUBNET UP" "$log" || ibsw_fail "no SUBNET UP in opensm's log" || return
	SWLID=$(smp -D portinfo 0,1 0 | field Lid:)
	echo "the switch's LID: $SWLID"
	[ -n "$SWLID" ] && [ "$SWLID" != 0 ] || ibsw_fail "the switch has no LID" || return
}
ibsw_case sm_once sm_once

# fuzz [hx HOST] ibsw-mad-fuzz ARGS...: a run of SECS seconds; its
# findings fail the case
fuzz() {
	local out rc pre=()

	[ "$1" != hx ] || { pre=(hx "$2"); shift 2; }
	out=$("${pre[@]}" timeout $((SECS * 3 + 120)) "$@" -T "$SECS" -n 1000000 -s "$SEED" 2>&1)
	rc=$?
	echo "$out"
	[ "$rc" = 0 ] || ibsw_fail "$(grep -m1 -E '^finding|^# the target|ibsw-mad-fuzz:' <<<"$out" || echo "exit $rc")" || return
	grep -q '^mad-fuzz: [1-9][0-9]* requests' <<<"$out" || ibsw_fail "no request sent" || return
}

[ -n "${SWLID:-}" ] || ibsw_setup_fail "no LID for the switch: see sm_once"
# The SMAs last: their Sets change the forwarding and SL-to-VL tables
ibsw_case pma_switch fuzz "$FUZZ" -d "$DEV" -N 4 pma "$SWLID"
ibsw_case cc_switch fuzz "$FUZZ" -d "$DEV" -N 4 cc "$SWLID"
ibsw_case cc_ca fuzz hx H1 "$FUZZ" -d "${HOST_RXE[H1]}" cc gid "${HOST_IP6[H2]}"
ibsw_case pma_ca fuzz hx H1 "$FUZZ" -d "${HOST_RXE[H1]}" pma gid "${HOST_IP6[H2]}"
ibsw_case smp_ca fuzz "$FUZZ" -d "$DEV" smp "0,1,${HOST_PORT[H1]}"
ibsw_case smp_switch fuzz "$FUZZ" -d "$DEV" smp 0,1

# OpenSM sets up what the fuzzer changed (the fuzzer gave the keys back),
# with QoS, so that the SL-to-VL and VL arbitration tables the fuzzer set
# are the SM's again; then the agents answer the real tools, and RDMA runs
ibsw_case sm_again sm_once -Q
ccmad_info() { hx H1 "$CCMAD" -d "${HOST_RXE[H1]}" -g "${HOST_IP6[H2]}" -t 2000 -r 2 get info; }
after() {
	smp -D nodeinfo 0,1 >/dev/null || ibsw_fail "smpquery nodeinfo 0,1 failed" || return
	smp -D portinfo "0,1,${HOST_PORT[H1]}" >/dev/null ||
		ibsw_fail "smpquery portinfo of H1's CA failed" || return
	timeout 30 perfquery -C "$DEV" -P 1 "$SWLID" 1 >/dev/null ||
		ibsw_fail "perfquery of the switch failed" || return
	# The fuzzer may leave H2's congestion control throttling what H2
	# sends, its answers too: then with it off
	if ! ccmad_info; then
		echo "H2's congestion control after the fuzzing:"
		rxe_cc_state H2
		echo 0 >"$(rxe_cc_file H2 enabled)"
		if ! ccmad_info; then
			ibswctl -d port show "$SW/${HOST_PORT[H1]}"
			ibswctl -d port show "$SW/${HOST_PORT[H2]}"
			ibsw_fail "ibsw-ccmad get info of H2 failed"
			return
		fi
		ibsw_note "ibsw-ccmad answered once H2's congestion control was off"
	fi
	tool_rping H1 H2 || ibsw_fail "rping H1 -> H2 failed"
}
ibsw_case after after

ibsw_exit
