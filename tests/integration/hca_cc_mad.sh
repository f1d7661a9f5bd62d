#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 75
#
# Congestion Control MADs answered by the patched rxe (patch 0005), sent by
# tools/ccmad (ibsw-ccmad: umad, QP1, GRH) from host H1's namespace to H2
# across one ibsw switch (topologies/one-switch.net):
#  - query: every CA attribute read back, in agreement with H2's sysfs;
#  - set: CACongestionSetting and CCT blocks set by MAD show up in H2's
#    ports/1/cc/ files (and H1's stay as they were);
#  - bad: wrong class version, bad method, an attribute a CA lacks, a Set
#    of a read-only attribute, CCT block and CCTI_Limit out of range,
#    bad Port_Control: each answered with its IBA status, nothing changed;
#  - short: a CACongestionSetting Set forged as a RoCEv2 frame with a valid
#    ICRC (tests/frames.py) is applied when whole, and a copy cut after 8
#    bytes of data is dropped and counted in mad_short_dropped, nothing
#    changed (the MAD layer reuses its buffers: the rest would be stale);
#  - key: with a CC_Key set, a Set without it (and a Get once protected)
#    is refused with status 0x001c and counted in CC_KeyViolations; a new
#    key set without protect= or lease= is protected for good;
#  - counters: ib_core's ports/1/counters/ (PMA through process_mad) read
#    without errors, packets counted;
#  - rdma_cm: rping -V, ibv_rc_pingpong and ib_write_bw still pass.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

CCMAD=${IBSW_CCMAD:-${IBSW_BUILD:-$IBSW_ROOT/build}/tools/ccmad/ibsw-ccmad}
KEY=0x00c0ffee12345678

ibsw_require_ibsw
ibsw_require_patched_rxe
[ -x "$CCMAD" ] || ibsw_setup_fail "$CCMAD missing (make tools)"
modprobe ib_umad || ibsw_setup_fail "cannot load ib_umad"
ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" scale 100 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"
[ -d "/sys/class/infiniband/${HOST_RXE[H2]}/ports/1/cc" ] ||
	ibsw_setup_fail "rxe has no congestion control (ports/1/cc): not our patched module?"



# mad [OPTIONS] COMMAND...: ibsw-ccmad from H1 to H2, between their IPv6
# RoCEv2 GIDs (ib_core cannot match the answers to IPv4 GIDs' requests)
mad() {
	echo "+ ibsw-ccmad $*" >&2
	hx H1 "$CCMAD" -d "${HOST_RXE[H1]}" -g "${HOST_IP6[H2]}" "$@"
}

# mad_status STATUS ARGS...: the MAD is answered with STATUS (exit 2)
mad_status() {
	local want=$1 out rc
	shift

	out=$(mad -j "$@")
	rc=$?
	echo "$out"
	[ "$rc" = 2 ] || ibsw_fail "ibsw-ccmad $* exited $rc, not 2 (MAD status)" || return
	[ "$(jq -r .status <<<"$out")" = "$((want))" ] ||
		ibsw_fail "ibsw-ccmad $*: status $(jq -r .status <<<"$out"), not $want" || return
}

# ---------------------------------------------------------------- query

query() {
	local out

	out=$(mad get cpi) && echo "$out" || ibsw_fail "get cpi: $out" || return
	grep -q "base_version=1 class_version=2 " <<<"$out" || ibsw_fail "ClassPortInfo: $out" || return
	out=$(mad get info) && echo "$out" || return
	[ "$out" = "congestion_info=0x0000 control_table_cap=4" ] || ibsw_fail "CongestionInfo: $out" || return
	out=$(mad get key) && echo "$out" || return
	[ "$out" = "cc_key=0x0000000000000000 protect=0 lease_period=0 violations=0" ] ||
		ibsw_fail "CongestionKeyInfo: $out" || return
	# the same text as H2's sysfs
	out=$(mad get ca) && echo "$out" || return
	[ "$(tail -n +2 <<<"$out")" = "$(rxe_cc_get H2 sl_settings)" ] &&
		[ "$(head -1 <<<"$out")" = "port_control=$(rxe_cc_get H2 port_control) control_map=0xffff" ] ||
		ibsw_fail "CACongestionSetting differs from sysfs" || return
	out=$(mad get cct) && echo "$out" || return
	[ "$out" = "ccti_limit=$(rxe_cc_get H2 ccti_limit)"$'\n'"$(rxe_cc_get H2 cct)" ] ||
		ibsw_fail "CCT differs from sysfs: $out" || return
	out=$(mad get log) && echo "$out" || return
	[[ $out == "log_type=2 event_counter=0 sl_map=0x0000 timestamp="* ]] ||
		ibsw_fail "CongestionLog: $out" || return
	# emulated time, 1.024 us units, runs
	out=$(mad -j get timestamp | jq .timestamp) && [ "$out" -gt 0 ] ||
		ibsw_fail "TimeStamp: $out" || return
	# without -g: the tool's own port
	hx H1 "$CCMAD" -d "${HOST_RXE[H1]}" get info || ibsw_fail "H1 cannot query itself" || return
	# an IPv4 destination is refused with the reason
	if hx H1 "$CCMAD" -d "${HOST_RXE[H1]}" -g "${HOST_IP4[H2]}" get info 2>"$IBSW_LOGDIR/v4.txt"; then
		ibsw_fail "an IPv4 DGID was accepted" || return
	fi
	cat "$IBSW_LOGDIR/v4.txt"
	grep -q "IPv6" "$IBSW_LOGDIR/v4.txt" || ibsw_fail "no reason for refusing IPv4" || return
}
ibsw_case query query

# ------------------------------------------------------------------ set

set_() {
	local h1 out want i entries=() n

	h1=$(rxe_cc_state H1)
	out=$(mad set ca port_control=1 sl=1,3-4 ccti_timer=150 ccti_increase=2 \
		trigger_threshold=5 ccti_min=1) && echo "$out" || ibsw_fail "set ca: $out" || return
	head -1 <<<"$out" | grep -qx "port_control=1 control_map=0x001a" ||
		ibsw_fail "Set answer: $(head -1 <<<"$out")" || return
	[ "$(rxe_cc_get H2 port_control)" = 1 ] || ibsw_fail "port_control not set in sysfs" || return
	for i in 1 3 4; do
		grep -qx "sl=$i ccti_timer=150 ccti_increase=2 trigger_threshold=5 ccti_min=1" \
			"$(rxe_cc_file H2 sl_settings)" || ibsw_fail "SL $i not set in sysfs" || return
	done
	grep -qx "sl=2 ccti_timer=0 ccti_increase=0 trigger_threshold=0 ccti_min=0" \
		"$(rxe_cc_file H2 sl_settings)" || ibsw_fail "SL 2 changed" || return
	# one SL field only: the rest of the entry keeps its value
	mad set ca sl=3 ccti_increase=7 >/dev/null || return
	grep -qx "sl=3 ccti_timer=150 ccti_increase=7 trigger_threshold=5 ccti_min=1" \
		"$(rxe_cc_file H2 sl_settings)" || ibsw_fail "sl=3 ccti_increase=7 not read back" || return
	[ "$(mad -j get ca | jq -c '.sl[3]')" = \
		'{"sl":3,"ccti_timer":150,"ccti_increase":7,"trigger_threshold":5,"ccti_min":1}' ] ||
		ibsw_fail "JSON get ca: $(mad -j get ca)" || return

	# a 70-entry table: two blocks, CCTI_Limit 69 (OpenSM's way)
	for ((i = 0; i < 70; i++)); do entries+=("$((i % 4)):$((i * 100))"); done
	mad set cct "${entries[@]}" || ibsw_fail "set cct" || return
	[ "$(rxe_cc_get H2 ccti_limit)" = 69 ] && [ "$(rxe_cc_get H2 cct)" = "${entries[*]}" ] ||
		ibsw_fail "CCT not in sysfs: limit $(rxe_cc_get H2 ccti_limit), $(rxe_cc_get H2 cct)" || return
	out=$(mad get cct) || return
	[ "$out" = "ccti_limit=69"$'\n'"${entries[*]}" ] || ibsw_fail "get cct: $out" || return
	# one block alone: block 1, entries 64.. (the rest of it zero)
	mad set cct block=1 limit=65 1:1 2:2 || ibsw_fail "set cct block=1" || return
	want="${entries[*]:0:64} 1:1 2:2"
	[ "$(rxe_cc_get H2 cct)" = "$want" ] || ibsw_fail "block 1: $(rxe_cc_get H2 cct)" || return
	n=$(mad get cct block=1 | tail -1 | wc -w)
	[ "$n" = 64 ] || ibsw_fail "get cct block=1 listed $n entries" || return

	[ "$h1" = "$(rxe_cc_state H1)" ] || ibsw_fail "H1's settings changed" || return
	[ "$(rxe_cc_get H2 enabled)" = 0 ] || ibsw_fail "a MAD turned congestion control on" || return
}
ibsw_case set set_

# ------------------------------------------------------------------ bad

bad() {
	local before after

	before=$(rxe_cc_state H2)
	mad_status 0x0004 -V 1 get ca || return
	mad_status 0x0004 -V 3 set ca sl=0 ccti_timer=1 || return
	mad_status 0x0008 raw 0x03 0x16 || return		# Send
	mad_status 0x0008 raw 0x05 0x17 || return		# Trap
	mad_status 0x000c get 0x14 || return			# SwitchCongestionSetting
	mad_status 0x000c get 0x15 || return			# SwitchPortCongestionSetting
	mad_status 0x000c raw 0x02 0x11 || return		# Set CongestionInfo
	mad_status 0x000c raw 0x02 0x13 || return		# Set CongestionLog
	mad_status 0x001c get cct block=4 || return		# ControlTableCap 4
	mad_status 0x001c set cct block=4 limit=255 0:1 || return
	mad_status 0x001c set cct block=0 limit=256 0:1 || return
	mad_status 0x001c set ca port_control=2 || return
	mad_status 0x001c raw 0x02 0x16 1 || return		# modifier 1
	after=$(rxe_cc_state H2)
	[ "$before" = "$after" ] || {
		diff <(echo "$before") <(echo "$after")
		ibsw_fail "a refused MAD changed the settings"
		return
	}
	# a status is not an error of the tool: stderr names it in text
	mad get cct block=9 2>"$IBSW_LOGDIR/status.txt"
	grep -q "status=0x001c (invalid attribute field or modifier value) attribute=CongestionControlTable modifier=9" \
		"$IBSW_LOGDIR/status.txt" || ibsw_fail "status text: $(cat "$IBSW_LOGDIR/status.txt")"
}
ibsw_case bad bad

# ---------------------------------------------------------------- short

# frames KIND: one tests/frames.py frame from H1's port to H2's rxe
frames() {
	local mac

	mac=$(hx H2 cat "/sys/class/net/${HOST_DEV[H2]}/address") || return
	hx H1 "$IBSW_ROOT/tests/frames.py" "${HOST_DEV[H1]}" "$1" 1 --src4 "${HOST_IP4[H1]}" \
		--dst4 "${HOST_IP4[H2]}" --dmac "$mac" || ibsw_fail "frames.py $1 failed"
}

# wait_cc H2-FILE TEXT: the file shows TEXT within 5 s
wait_cc() {
	local i

	for ((i = 0; i < 50; i++)); do
		grep -qx "$2" "$(rxe_cc_file H2 "$1")" && return 0
		sleep 0.1
	done
	ibsw_fail "H2's cc/$1 has no line '$2': $(cat "$(rxe_cc_file H2 "$1")")"
}

# rxe_hw HOST NAME: an rdma hw counter of HOST's rxe
rxe_hw() { cat "/sys/class/infiniband/${HOST_RXE[$1]}/ports/1/hw_counters/$2"; }

short() {
	local before d0 d1 i

	mad set ca port_control=0 sl=all ccti_timer=0 ccti_increase=0 trigger_threshold=0 \
		ccti_min=0 >/dev/null || ibsw_fail "set ca" || return
	# whole: the frame is good, rxe applies it
	frames cc-mad || return
	wait_cc sl_settings "sl=1 ccti_timer=4321 ccti_increase=5 trigger_threshold=6 ccti_min=7" ||
		return
	[ "$(rxe_cc_get H2 port_control)" = 1 ] || ibsw_fail "port_control not 1" || return
	# short: dropped, counted, nothing changed (the settings first: an rxe
	# without the check has no counter either)
	before=$(rxe_cc_state H2)
	d0=$(rxe_hw H2 mad_short_dropped 2>/dev/null)
	frames cc-mad-short || return
	for ((i = 0; i < 30; i++)); do
		sleep 0.1
		d1=$(rxe_hw H2 mad_short_dropped 2>/dev/null)
		[ "$d1" != "$d0" ] && break
	done
	[ "$before" = "$(rxe_cc_state H2)" ] || {
		diff <(echo "$before") <(rxe_cc_state H2)
		ibsw_fail "a short Set changed the settings"
		return
	}
	[ -n "$d0" ] || ibsw_fail "no hw counter mad_short_dropped" || return
	[ "$d1" = $((d0 + 1)) ] || ibsw_fail "mad_short_dropped went from $d0 to $d1, not by 1" || return
}
ibsw_case short short

# ------------------------------------------------------------------ key

key() {
	local before out

	mad set key key="$KEY" protect=0 lease=0 || ibsw_fail "set key" || return
	before=$(rxe_cc_state H2)
	# Sets need the key
	mad_status 0x001c set cct 0:9 || return
	mad_status 0x001c -k 0x1234 set ca sl=all ccti_min=3 || return
	[ "$before" = "$(rxe_cc_state H2)" ] || ibsw_fail "a Set with a wrong key changed something" || return
	# unprotected: anyone may read, the key too
	out=$(mad get key) && echo "$out" || return
	[ "$out" = "cc_key=$KEY protect=0 lease_period=0 violations=2" ] ||
		ibsw_fail "violations not counted: $out" || return
	mad -k "$KEY" set cct 0:0 0:1 >/dev/null || ibsw_fail "a Set with the key refused" || return
	[ "$(rxe_cc_get H2 cct)" = "0:0 0:1" ] || ibsw_fail "keyed Set not applied" || return
	# protected: Gets need it too
	mad -k "$KEY" set key protect=1 >/dev/null || return
	mad_status 0x001c get ca || return
	mad_status 0x001c get key || return
	out=$(mad -k "$KEY" get key) && echo "$out" || return
	[ "$out" = "cc_key=$KEY protect=1 lease_period=0 violations=4" ] ||
		ibsw_fail "protected Gets not counted: $out" || return
	# the key and the count cleared
	mad -k "$KEY" set key key=0 protect=0 violations=0 || return
	out=$(mad get key) || return
	[ "$out" = "cc_key=0x0000000000000000 protect=0 lease_period=0 violations=0" ] ||
		ibsw_fail "key not cleared: $out" || return
	# a new key without protect= or lease=: protected, the lease never runs out
	mad set key key="$KEY" >/dev/null || return
	mad_status 0x001c get key || return
	out=$(mad -k "$KEY" get key) || return
	[[ $out == "cc_key=$KEY protect=1 lease_period=0 "* ]] ||
		ibsw_fail "a new key is not protected for good: $out" || return
	mad -k "$KEY" set key key=0 protect=0 violations=0 >/dev/null || return
}
ibsw_case key key

# ------------------------------------------------------------- counters

# ib_core adds ports/1/counters/ for a device with process_mad and reads
# them as PMA PortCounters through it
counters() {
	local d=/sys/class/infiniband/${HOST_RXE[H2]}/ports/1 f v sent

	[ -d "$d/counters" ] || ibsw_fail "no $d/counters" || return
	for f in "$d"/counters/*; do
		v=$(cat "$f") || ibsw_fail "reading ${f##*/} failed" || return
		echo "${f##*/}: $v"
	done
	v=$(cat "$d/counters/port_xmit_packets")
	sent=$(cat "$d/hw_counters/sent_pkts")
	[ "$v" -gt 0 ] && [ "$v" -le "$sent" ] ||
		ibsw_fail "port_xmit_packets $v, sent_pkts $sent" || return
	[ "$(cat "$d/counters/port_rcv_packets")" -gt 0 ] || ibsw_fail "no packet received" || return
}
ibsw_case counters counters

# --------------------------------------------------------------- rdma_cm

rdma_cm() {
	rp H1 H2 && rc H1 H2 && wbw H2 H1 || return
	ibsw_nothing_lost
}
ibsw_case rdma_cm rdma_cm

ibsw_exit
