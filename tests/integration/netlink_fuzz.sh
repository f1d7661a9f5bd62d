#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 55
#
# The ibsw netlink family fuzzed from its spec (tools/ynl/ibsw_nlfuzz.py):
# requests of every operation with its attributes at the edges of their
# types and checks, names of the fabric or nonsense, one in ten with a
# malformed attribute, against two switches with a link and a host port:
#  - alone: each answered, every refusal but EPERM with an extack message,
#    and a refused request changing nothing the dumps show;
#  - churn: the same while the host port's namespace comes and goes, the
#    port's netdev gets a tc skbedit filter that picks any TX queue, and
#    raw frames go out of it;
# then the fabric is deleted and set up again, and RDMA runs across it.
# The VM's log check fails the run on any kernel warning; make debugcheck
# runs it on KASAN, lockdep and kmemleak. IBSW_FUZZ_SECONDS (15 by
# default) is each phase's time; the seed is fixed (IBSW_FUZZ_SEED gives
# another, IBSW_FUZZ_SEED=random a new one, printed).
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/common.sh
. "$IBSW_ROOT/scripts/common.sh"

SECS=${IBSW_FUZZ_SECONDS:-15}
SEED=${IBSW_FUZZ_SEED:-20261130}
[ "$SEED" != random ] || SEED=$(date +%s%N)
S1=fz0
S2=fz1
NS=nlfz-$IBSW_SFX

ibsw_require_ibsw
YNL_DIR=$(ibsw_ynl_dir)/tools/net/ynl
if [ ! -f "$YNL_DIR/lib/ynl.py" ]; then
	"$IBSW_ROOT/scripts/ynl-gen" --check >>"$IBSW_LOGDIR/setup.log" 2>&1
	[ -f "$YNL_DIR/lib/ynl.py" ] ||
		ibsw_setup_fail "no ynl in $YNL_DIR: run scripts/ynl-gen"
fi
FUZZ=(python3 "$IBSW_ROOT/tools/ynl/ibsw_nlfuzz.py" --ynl "$YNL_DIR")
ibsw_note "seed $SEED, $SECS s a phase"

# Two switches, a link, a host port in a namespace
fabric() {
	ibswctl switch add "$S1" ports 8 && ibswctl switch add "$S2" ports 4 &&
		ibswctl link add "$S1/1" "$S2/1" rate 4xQDR &&
		ip netns add "$NS" &&
		ibswctl host add "$S1/2" name nlfz0 netns "$NS"
}

# Whatever the fuzzer left, and ours
cleanup() {
	local d

	for d in /sys/class/ibsw/*; do
		[ -e "$d" ] && ibswctl switch del "${d##*/}"
	done
	ip netns del "$NS" 2>/dev/null
	return 0
}
ibsw_defer cleanup

# fuzz [ARGS...]: one run; its findings fail the case
fuzz() {
	local out rc

	out=$(timeout $((SECS * 4 + 120)) "${FUZZ[@]}" --seconds "$SECS" --seed "$SEED" \
		--names "$S1,$S2,$S1/2,nlfz0,$NS,fz2" "$@" 2>&1)
	rc=$?
	echo "$out"
	[ "$rc" = 0 ] || ibsw_fail "$(grep -m1 -E '^finding|Error|error' <<<"$out" || echo "exit $rc")" || return
	grep -q '^nl-fuzz: [1-9][0-9]* requests' <<<"$out" || ibsw_fail "no request sent"
}

alone() {
	fabric || ibsw_fail "cannot set up the fabric" || return
	fuzz
}
ibsw_case alone alone

# The host port's namespace comes and goes, with tc and raw frames
churn_loop() {
	local i=0

	while :; do
		i=$((i + 1))
		cleanup >/dev/null 2>&1
		fabric >/dev/null 2>&1 || continue
		ip netns exec "$NS" ip link set nlfz0 up
		ip netns exec "$NS" tc qdisc add dev nlfz0 clsact 2>/dev/null
		ip netns exec "$NS" tc filter add dev nlfz0 egress matchall \
			action skbedit queue_mapping $((i % 16)) 2>/dev/null
		ip netns exec "$NS" python3 -c '
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("nlfz0", 0))
for n in (14, 60, 64, 1000, 4200):
    try:
        s.send(b"\xff" * 6 + b"\x02" * 6 + b"\x89\x15" + bytes(n - 14))
    except OSError:
        pass
' 2>/dev/null
		ip netns del "$NS"
	done
}

churn() {
	local pid

	cleanup
	churn_loop &
	pid=$!
	fuzz --no-compare
	local rc=$?
	kill "$pid"
	wait "$pid" 2>/dev/null
	return $rc
}
ibsw_case churn churn

# The fabric works afterwards, with the settings a fabric-set changed
# back to their defaults
after() {
	cleanup
	ibswctl fabric set scale 1 pacing on clock-seed 1 clock-ppm 100 ||
		ibsw_fail "fabric set failed" || return
	ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" ||
		ibsw_fail "fabric up: ${_ibsw_reason:-failed}" || return
	tool_rping H1 H2 || ibsw_fail "rping H1 -> H2 failed"
}
ibsw_case after after

ibsw_exit
