#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 900
#
# DCMS (seed 000) on an emulated fabric, with real RDMA flows:
#  - static: `dcms static` with the paper's profile sets every switch's
#    congestion control (Threshold 15, Marking_Rate 128) and every rxe's
#    (CCTI_Timer 75, CCTI_Increase 1, enabled);
#  - the paper's Experiment II (scenarios/seed000-dcms-1x.scn: B-D, X-Y,
#    C-D, A-D, at a quarter of its link rates), run by ibsw-run with dcms
#    beside it and switch and HCA congestion control on. From dcms's log
#    and counter series (tests/dcms_run.py):
#    localized   B-D and C-D congest S2's port 23, dcms does nothing;
#    low         port 23 goes to Low within two sweeps of A-D's start,
#                for the victim port S1/15;
#    recovery    the victim X-Y regains at least 80% of its solo rate
#                within three sweeps;
#    t_i         Default after T_I sweeps, then Low again within T_I
#                sweeps while X-Y runs (the paper's Fig. 6);
#    restore     on exit dcms restored what it changed;
#    plot        dcms-plot draws the paper's Fig. 5b from the run.
# The run takes about three minutes of wall-clock time (scale 200).
# shellcheck source=tests/lib.sh disable=SC2317
. "$(dirname "$0")/../lib.sh"

RUN=$IBSW_ROOT/tools/ibsw-run/ibsw-run
SCN=$IBSW_ROOT/scenarios/seed000-dcms-1x.scn
DCMS=${IBSW_BUILD:-$IBSW_ROOT/build}/tools/dcms/dcms
PLOT=$IBSW_ROOT/tools/dcms/dcms-plot
CHECK=$IBSW_ROOT/tests/dcms_run.py
OUT=$IBSW_LOGDIR/run

ibsw_require_ibsw
[ -x "$RUN" ] && [ -x "$DCMS" ] || ibsw_setup_fail "$RUN or $DCMS missing"

static() {
	local h sw got

	ibsw_fabric_up "$IBSW_ROOT/topologies/seed000-1x.net" scale 200 ||
		ibsw_fail "fabric up failed" || return
	"$DCMS" static --conf "$IBSW_ROOT/tools/dcms/profiles/seed000.conf" ||
		ibsw_fail "dcms static exit $?" || return
	for sw in S1 S2; do
		got=$(ibswctl -j cc show "$sw" | jq -c '[.threshold, .marking_rate]')
		echo "$sw: threshold, marking_rate $got"
		[ "$got" = '[15,128]' ] || ibsw_fail "$sw: $got, not [15,128]" || return
	done
	for h in X A B C D Y; do
		got="$(rxe_cc_get "$h" enabled) $(rxe_cc_get "$h" sl_settings | grep '^sl=0 ')"
		echo "$h: $got"
		case $got in
		"1 sl=0 ccti_timer=75 ccti_increase=1 "*) ;;
		*) ibsw_fail "$h's rxe: $got" || return ;;
		esac
	done
	ibsw_fabric_down && rm -f "$IBSW_DESC"
}
ibsw_case static static

experiment() {
	local rc

	timeout -k 10 600 "$RUN" --no-vm "$SCN" -o "$OUT" >"$IBSW_LOGDIR/run.out" 2>&1
	rc=$?
	sed -n '/^mean Gb\/s/,$p' "$IBSW_LOGDIR/run.out"
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc: $(tail -n 1 "$IBSW_LOGDIR/run.out")"
}
ibsw_case experiment experiment

# judge CHECK: a check of tests/dcms_run.py on the run; its numbers are
# kept for the summary at the end
judge() {
	[ -s "$OUT/dcms.csv" ] || ibsw_skip "no run to judge" || return
	"$CHECK" "$OUT" "$1" 2>&1 | tee -a "$IBSW_LOGDIR/summary"
	[ "${PIPESTATUS[0]}" = 0 ] || ibsw_fail "$(tail -n 1 "$IBSW_LOGDIR/summary")"
}
for c in localized low recovery t_i restore; do
	ibsw_case "$c" judge "$c"
done

plot() {
	[ -s "$OUT/dcms.csv" ] || ibsw_skip "no run to plot" || return
	"$PLOT" "$OUT/dcms.csv" --log "$OUT/dcms.jsonl" -o "$OUT/dcms.png" ||
		ibsw_fail "dcms-plot exit $?" || return
	[ -s "$OUT/dcms.png" ] || ibsw_fail "no $OUT/dcms.png"
}
ibsw_case plot plot

grep -h '^# ' "$IBSW_LOGDIR/summary" 2>/dev/null
ibsw_exit
