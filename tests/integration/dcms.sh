#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 900 -c 1
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
#    recovery    X-Y is a victim once A-D starts (at most 60% of its solo
#                rate over 20 ms of the runner's samples: the dip lasts
#                until the Low acts, less than a sweep) and regains at
#                least 80% within three sweeps of the Low;
#    t_i         Default after T_I sweeps, then Low again within T_I
#                sweeps while X-Y runs (the paper's Fig. 6);
#    restore     on exit dcms restored what it changed;
#    plot        dcms-plot draws the paper's Fig. 5b from the run.
# The run takes about three minutes of wall-clock time (scale 200), in a
# one-vCPU VM as the other rate tests.
# shellcheck source=tests/lib.sh disable=SC2317
. "$(dirname "$0")/../lib.sh"

# shellcheck source=tests/lib/dcms_experiment.sh
. "$_ibsw_lib/dcms_experiment.sh"

ibsw_require_ibsw
dcms_require

static() {
	local h sw got

	ibsw_fabric_up "$IBSW_ROOT/topologies/seed000-1x.net" scale 200 ||
		ibsw_fail "fabric up failed" || return
	"$DCMS_BIN" static --conf "$IBSW_ROOT/tools/dcms/profiles/seed000.conf" ||
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

dcms_experiment "$IBSW_ROOT/scenarios/seed000-dcms-1x.scn"
ibsw_exit
