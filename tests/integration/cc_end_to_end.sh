#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 1200 -c 1
#
# Congestion control end to end: scenario 1 of seed 002 with switch
# marking and the patched rxe's HCA congestion control on, the paper's
# Table I parameters (scenarios/seed002-s1-cc-1x.scn, at an eighth of the
# paper's link rates), run with the experiment runner (ibsw-run --no-vm):
#  - cc_on: the victim F1 keeps at least 90% of its solo throughput while
#    the four contributors run, their Jain fairness index is at least 0.95
#    (the parking lot solved), S2 marked packets to H5, H5's rxe answered
#    them and every contributor's rxe got BECNs and raised its CCTI;
#  - cc_off: the same run with congestion control off: the head-of-line
#    blocking of the congestion tree returns, F1 falls below 60% of solo,
#    and the parking lot: F4 and F5, alone on their input ports of S2,
#    each get at least 1.5 times what F2 and F3, which share S1's link,
#    get;
#  - cc_opensm: the fabric with a management node where OpenSM's
#    congestion control manager sets Table I by MADs
#    (scenarios/seed002-s1-cc-1x-sm.scn): the switches and rxe devices
#    start the traffic with the settings cc_on's run wrote through ibswctl
#    and sysfs (F1 alone runs to show it).
# F1 alone is measured over 50 emulated ms, all five flows over 300 ms
# with CC on (150 ms with CC off). CC on runs at scale 200 (ON_SCALE,
# below), CC off at the scenario's 100: each run takes about two minutes
# of wall-clock time. One vCPU: under single-threaded TCG two vCPUs only
# add the wait of a process woken on the idle one for the other's timer
# tick, and the links fell behind their pace by 1.4% with two (0.01% with
# one), F1 with them. The scenario file's own window, the issue's last two
# emulated seconds, takes 4 minutes per run: IBSW_E2E_LONG=1 (make
# longcheck T=seed002_s1_cc) measures that, and there cc_opensm runs the
# contributors too and wants F1 within 5% of cc_on's rate.
# shellcheck source=tests/lib.sh disable=SC2317
. "$(dirname "$0")/../lib.sh"

RUN=$IBSW_ROOT/tools/ibsw-run/ibsw-run
SCN=$IBSW_ROOT/scenarios/seed002-s1-cc-1x.scn
SCN_SM=$IBSW_ROOT/scenarios/seed002-s1-cc-1x-sm.scn
LONG=${IBSW_E2E_LONG:-0}
# cc_on's time scale. The guest's one vCPU runs all seven hosts' rxe; at
# scale 100 it had no time to spare when the machine was slower (two busy
# loops beside the VM: F1 at 0.59 of solo, the contributors at 0.57 of
# H5's link, H1's rxe got 15 BECNs: its own CPU held F1 back, not the
# fabric), and CC needs its reactions on time. At 200 under the same
# loops F1 kept 1.007; quiet, 1.000, the contributors' Jain index 0.966
# to 0.991 in five runs.
ON_SCALE=200

ibsw_require_ibsw
ibsw_require_patched_rxe
[ -x "$RUN" ] || ibsw_setup_fail "$RUN missing"

# run NAME SCENARIO: ibsw-run --no-vm into $IBSW_LOGDIR/NAME, its report
run() {
	local out=$IBSW_LOGDIR/$1 rc

	timeout -k 10 600 "$RUN" --no-vm "$2" -o "$out" >"$IBSW_LOGDIR/$1.out" 2>&1
	rc=$?
	sed -n '/^mean Gb\/s/,$p' "$IBSW_LOGDIR/$1.out"
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc: $(tail -n 1 "$IBSW_LOGDIR/$1.out")"
}

# get DIR JQ: a value of DIR's summary.json
get() { jq -r "$2" "$IBSW_LOGDIR/$1/summary.json"; }
# hca DIR HOST COUNTER: an rxe counter of HOST at the end of the run
hca() { jq -r --arg h "$2" --arg c "$3" '.hca_counters[$h][$c] // "none"' "$IBSW_LOGDIR/$1/run.json"; }

# f1_share DIR: F1 in the window of all flows over F1 alone
f1_share() {
	awk -v a="$(get "$1" .flows.F1.windows.all.mean)" \
		-v s="$(get "$1" '.flows.F1.windows["f1-alone"].mean')" \
		'BEGIN { if (s <= 0) print 0; else printf "%.3f", a / s }'
}

# H1's injection rate in Gb/s, from the topology's inject=NNNM (1.625:
# 13/16 of its 1x SDR link, as the paper's hosts reached 13 of 16 Gb/s)
f1_max() {
	awk '$1 == "Hca" && $3 == "\"H1\"" { h = 1; next }
	     h && match($0, /inject=[0-9]+M/) { print substr($0, RSTART + 7, RLENGTH - 8) / 1000; exit }' \
		"$IBSW_ROOT/topologies/seed002-1x.net"
}

# solo_ok DIR: F1 alone ran at H1's injection rate (at least 95% of it),
# so the shares compare with a flow that had started
solo_ok() {
	local solo max

	solo=$(get "$1" '.flows.F1.windows["f1-alone"].mean')
	max=$(f1_max)
	[ -n "$max" ] || ibsw_fail "no inject= for H1 in seed002-1x.net" || return
	awk -v s="$solo" -v m="$max" 'BEGIN { exit !(s >= 0.95 * m) }' ||
		ibsw_rate_fail "F1 alone ran at $solo Gb/s, below 95% of H1's $max: CPU-limited? (the run's late %)"
}

# The numbers: in the case log, and as "# " lines at the end
note() {
	echo "# $*"
	echo "$*" >>"$IBSW_LOGDIR/summary"
}

# held DIR: when the flows measurably started, and the windows as the
# runner placed them after holding the schedule for those starts
held() {
	jq -r '"flows started at " + ([.flows | to_entries[] | select(.value.measured_start)
		| "\(.key) \(.value.measured_start * 1000 | round) ms"] | join(", "))' "$IBSW_LOGDIR/$1/run.json"
	jq -r '"schedule shifted \(.schedule.shift * 1000 | round) ms; windows " + ([.windows
		| to_entries[] | "\(.key) \(.value.start * 1000 | round)-\(.value.stop * 1000 | round) ms"]
		| join(", "))' "$IBSW_LOGDIR/$1/summary.json"
}

rm -f "$IBSW_LOGDIR/summary"

# short SCENARIO NAME [ALL [SCALE]]: the scenario with F1 alone for 100 ms
# (its rate is steady within 5 ms of its start), then all five flows for
# ALL ms (150) after the same 185 ms of settling as the paper's schedule:
# the contributors start 150 ms earlier than in the scenario file; at time
# scale SCALE (the scenario's). Written elsewhere, it names its topology
# and OpenSM's configuration by absolute paths.
short() {
	local all=${3:-150}
	local -a scale=()

	[ -z "${4:-}" ] || scale=(-e "s/^scale .*/scale $4/")
	sed -e "s/^name .*/name $2/" -e "s/^duration .*/duration $((300 + all))ms/" "${scale[@]}" \
		-e 's/^window f1-alone .*/window f1-alone 50ms 100ms/' \
		-e "s/^window all .*/window all 300ms $((300 + all))ms/" \
		-e "s|^topology \.\./|topology $IBSW_ROOT/|" \
		-e "s|^\(fabric .*sm-conf \)\([^ /][^ ]*\)|\1$IBSW_ROOT/scenarios/\2|" "$1" |
		awk '$1 == "flow" && $2 != "F1" && $(NF - 1) == "start" && $NF ~ /^[0-9]+ms$/ {
			$NF = ($NF + 0 - 150) "ms" } { print }'
}

cc_on() {
	local share jain fecn h becn inc scn=$SCN

	if [ "$LONG" != 1 ]; then
		scn=$IBSW_LOGDIR/on.scn
		short "$SCN" seed002-s1-cc-1x-short 300 "$ON_SCALE" >"$scn"
	fi
	run on "$scn" || return
	while read -r line; do note "CC on: $line"; done < <(held on)
	jq -e '.cc == "switch marking + HCA"' "$IBSW_LOGDIR/on/summary.json" >/dev/null ||
		ibsw_fail "summary's cc is $(get on .cc), not switch marking + HCA" || return
	share=$(f1_share on)
	jain=$(get on .fairness.contributors.jain.all)
	fecn=$(get on '.counters["S2/2:port_xmit_fecn"].windows.all.mean')
	note "CC on: F1 $(get on .flows.F1.windows.all.mean) Gb/s with the contributors, $share of solo; contributors' Jain index $jain; S2's port to H5 marked $fecn packets/s"
	note "CC on: S1's port to S2 waited $(get on '.counters["S1/4:port_xmit_wait"].windows.all.mean') ticks/s for credit in the window of all flows"
	note "CC on: packets/s marked in the window of all flows: S2's port to H5 $fecn, to H4 $(get on '.counters["S2/1:port_xmit_fecn"].windows.all.mean'), S1's port to S2 $(get on '.counters["S1/4:port_xmit_fecn"].windows.all.mean')"
	for h in H1 H2 H3 H6 H7; do
		note "CC on: $h's rxe: cc_becn_rcvd $(hca on "$h" cc_becn_rcvd), cc_ccti_increase $(hca on "$h" cc_ccti_increase), cc_delayed_ns $(hca on "$h" cc_delayed_ns)"
	done
	note "CC on: H5's rxe: cc_fecn_rcvd $(hca on H5 cc_fecn_rcvd), cc_becn_sent $(hca on H5 cc_becn_sent)"
	solo_ok on || return
	awk -v f="$share" 'BEGIN { exit !(f >= 0.9) }' ||
		ibsw_rate_fail "F1 kept only $share of its solo throughput" || return
	awk -v j="$jain" 'BEGIN { exit !(j >= 0.95) }' ||
		ibsw_rate_fail "contributors' Jain index $jain < 0.95" || return
	awk -v f="$fecn" 'BEGIN { exit !(f > 0) }' ||
		ibsw_fail "S2's port to H5 marked nothing" || return
	[ "$(hca on H5 cc_becn_sent)" -gt 0 ] 2>/dev/null ||
		ibsw_fail "H5's rxe sent no BECN" || return
	for h in H2 H3 H6 H7; do
		becn=$(hca on "$h" cc_becn_rcvd) inc=$(hca on "$h" cc_ccti_increase)
		[ "$becn" -gt 0 ] 2>/dev/null && [ "$inc" -gt 0 ] ||
			ibsw_fail "$h's rxe: $becn BECNs, $inc CCTI increases" || return
	done
}
ibsw_case cc_on cc_on

cc_off() {
	local scn=$IBSW_LOGDIR/off.scn share

	[ "$LONG" != 1 ] || ibsw_skip "IBSW_E2E_LONG=1 measures CC on only" || return
	short "$SCN" seed002-s1-cc-off-1x | sed -e '/^cc /d' >"$scn"
	echo "cc off" >>"$scn"
	run off "$scn" || return
	while read -r line; do note "CC off: $line"; done < <(held off)
	solo_ok off || return
	share=$(f1_share off)
	note "CC off: F1 $(get off .flows.F1.windows.all.mean) Gb/s with the contributors, $share of solo; contributors' Jain index $(get off .fairness.contributors.jain.all)"
	awk -v f="$share" 'BEGIN { exit !(f < 0.6) }' ||
		ibsw_rate_fail "F1 kept $share of its solo throughput with CC off: no head-of-line blocking?" ||
		return
	parking_lot off "CC off"
}

# parking_lot DIR LABEL: S2 serves its input ports in turn, and F2 and F3 share
# the one from S1, so F4 and F5 each get at least 1.5 times what F2 and
# F3 get (twice, in the paper)
parking_lot() {
	local f
	local -a r

	for f in F2 F3 F4 F5; do
		r[${f#F}]=$(get "$1" ".flows.$f.windows.all.mean")
	done
	note "$2: parking lot: F2 ${r[2]}, F3 ${r[3]}, F4 ${r[4]}, F5 ${r[5]} Gb/s"
	awk -v a="${r[2]}" -v b="${r[3]}" -v c="${r[4]}" -v d="${r[5]}" \
		'BEGIN { m = a > b ? a : b; exit !(c >= 1.5 * m && d >= 1.5 * m) }' ||
		ibsw_rate_fail "no parking lot with CC off: F4 ${r[4]}, F5 ${r[5]} against F2 ${r[2]}, F3 ${r[3]} Gb/s"
}
ibsw_case cc_off cc_off

# OpenSM's congestion control manager in ibswctl's place. The settings
# compared are those run.json recorded before the traffic (ibswctl -j cc
# show of each switch, each host's rxe cc/ files): equal settings are the
# same model, so F1 alone runs, to show the fabric under OpenSM carries
# traffic. With IBSW_E2E_LONG=1 the whole scenario runs and F1's rate with
# the contributors is within 5% of cc_on's.
cc_opensm() {
	local scn=$SCN_SM on sm ratio d

	[ -s "$IBSW_LOGDIR/on/run.json" ] || ibsw_skip "no cc_on run to compare with" || return
	if [ "$LONG" != 1 ]; then
		scn=$IBSW_LOGDIR/sm.scn
		# at cc_on's scale: rxe's time_scale is one of the settings compared
		short "$SCN_SM" seed002-s1-cc-1x-sm-f1 150 "$ON_SCALE" |
			awk '($1 == "flow" && $2 != "F1") || $1 == "fairness" ||
			     ($1 == "window" && $2 == "all") { next }
			     $1 == "duration" { $2 = "150ms" } { print }' >"$scn"
	fi
	# OpenSM's files stay where fabric up left them when it fails
	run sm "$scn" || { tail -n 30 /run/ibsw/opensm/opensm.log /run/ibsw/opensm/opensm.out; false; } ||
		return
	while read -r line; do note "OpenSM: $line"; done < <(held sm)
	jq -e '.cc == "switch marking + HCA (OpenSM)"' "$IBSW_LOGDIR/sm/summary.json" >/dev/null ||
		ibsw_fail "summary's cc is $(get sm .cc), not switch marking + HCA (OpenSM)" || return
	for d in on sm; do
		jq -S '.cc_state' "$IBSW_LOGDIR/$d/run.json" >"$IBSW_LOGDIR/$d.cc_state.json"
	done
	jq -e '.switches | length == 2 and all(.[]; . != null)' "$IBSW_LOGDIR/sm.cc_state.json" \
		>/dev/null || ibsw_fail "cc_state has not both switches' settings" || return
	jq -e '.hcas | length == 7 and all(.[]; .enabled == "1")' "$IBSW_LOGDIR/sm.cc_state.json" \
		>/dev/null || ibsw_fail "cc_state has not the 7 hosts' rxe enabled" || return
	diff -u "$IBSW_LOGDIR/on.cc_state.json" "$IBSW_LOGDIR/sm.cc_state.json" ||
		ibsw_fail "OpenSM's settings differ from those the scenario set with ibswctl" || return
	solo_ok sm || return
	[ "$LONG" = 1 ] || return 0
	on=$(get on .flows.F1.windows.all.mean) sm=$(get sm .flows.F1.windows.all.mean)
	ratio=$(awk -v a="$sm" -v b="$on" 'BEGIN { if (b <= 0) print 0; else printf "%.3f", a / b }')
	note "OpenSM: F1 $sm Gb/s with the contributors, $(f1_share sm) of solo, $ratio of cc_on's; contributors' Jain index $(get sm .fairness.contributors.jain.all)"
	awk -v r="$ratio" 'BEGIN { exit !(r >= 0.95 && r <= 1.05) }' ||
		ibsw_rate_fail "F1 under OpenSM's settings at $ratio of its rate under ibswctl's" || return
}
ibsw_case cc_opensm cc_opensm

[ -s "$IBSW_LOGDIR/summary" ] && while read -r line; do ibsw_note "$line"; done <"$IBSW_LOGDIR/summary"
ibsw_exit
