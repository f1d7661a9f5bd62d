# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Seed 000's Experiment II with DCMS, run by ibsw-run and judged by
# tests/dcms_run.py: tests/integration/dcms.sh (the netlink backend) and
# tests/long/dcms_mad.sh (the MAD backend) share it. Not sourced by
# lib.sh: a script that wants it sources it after lib.sh.
#
#   dcms_require           ibsw-run and dcms are there, or a setup failure
#   dcms_experiment SCN    the cases: experiment (the run), then localized,
#                          low, recovery, t_i, restore (the judgments) and
#                          plot (the paper's Fig. 5b); judgments of a run
#                          that did not happen are skipped

DCMS_RUN=$IBSW_ROOT/tools/ibsw-run/ibsw-run
DCMS_BIN=${IBSW_BUILD:-$IBSW_ROOT/build}/tools/dcms/dcms
DCMS_PLOT=$IBSW_ROOT/tools/dcms/dcms-plot
DCMS_CHECK=$IBSW_ROOT/tests/dcms_run.py

dcms_require() {
	if [ ! -x "$DCMS_RUN" ] || [ ! -x "$DCMS_BIN" ]; then
		ibsw_setup_fail "$DCMS_RUN or $DCMS_BIN missing"
	fi
}

_dcms_run() {
	local rc

	timeout -k 10 600 "$DCMS_RUN" --no-vm "$1" -o "$DCMS_OUT" >"$IBSW_LOGDIR/run.out" 2>&1
	rc=$?
	sed -n '/^mean Gb\/s/,$p' "$IBSW_LOGDIR/run.out"
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc: $(tail -n 1 "$IBSW_LOGDIR/run.out")"
}

# _dcms_judge CHECK: a check of tests/dcms_run.py on the run; its numbers
# are kept for the summary at the end
_dcms_judge() {
	[ -s "$DCMS_OUT/dcms.csv" ] || ibsw_skip "no run to judge" || return
	"$DCMS_CHECK" "$DCMS_OUT" "$1" 2>&1 | tee -a "$IBSW_LOGDIR/summary"
	[ "${PIPESTATUS[0]}" = 0 ] || ibsw_fail "$(tail -n 1 "$IBSW_LOGDIR/summary")"
}

_dcms_plot() {
	[ -s "$DCMS_OUT/dcms.csv" ] || ibsw_skip "no run to plot" || return
	"$DCMS_PLOT" "$DCMS_OUT/dcms.csv" --log "$DCMS_OUT/dcms.jsonl" -o "$DCMS_OUT/dcms.png" ||
		ibsw_fail "dcms-plot exit $?" || return
	[ -s "$DCMS_OUT/dcms.png" ] || ibsw_fail "no $DCMS_OUT/dcms.png"
}

dcms_experiment() {
	local c

	DCMS_OUT=$IBSW_LOGDIR/run
	ibsw_case experiment _dcms_run "$1"
	for c in localized low recovery t_i restore; do
		ibsw_case "$c" _dcms_judge "$c"
	done
	ibsw_case plot _dcms_plot
	grep -h '^# ' "$IBSW_LOGDIR/summary" 2>/dev/null
}
