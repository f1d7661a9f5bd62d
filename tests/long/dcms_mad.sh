#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 900
#
# Seed 000's Experiment II with DCMS over MADs (issue 17), judged as
# tests/integration/dcms.sh judges the netlink run: the same flows, rates
# and DCMS parameters (scenarios/seed000-dcms-1x-mad.scn), with OpenSM on
# the management node M1 of topologies/seed000-1x-sm.net and DCMS in M1's
# namespace reading the counters by PMA and setting Marking_Rate by CC
# MADs through ibsw_mgmt0 (dcms "backend mad"). Localized congestion left
# alone, Low within two sweeps of A-D's start, X-Y back to 80% within
# three, the T_I cycle, the restore on exit, the plot. Four more minutes
# beside dcms.sh's run: make longcheck, not make check (tests/integration/
# opensm.sh's dcms_mad case checks the backend's MADs there).
# shellcheck source=tests/lib.sh disable=SC2317
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/lib/dcms_experiment.sh
. "$_ibsw_lib/dcms_experiment.sh"

ibsw_require_ibsw
dcms_require
ibsw_have opensm || ibsw_setup_fail "opensm missing (scripts/deps)"
modprobe ib_umad || ibsw_setup_fail "modprobe ib_umad failed"

dcms_experiment "$IBSW_ROOT/scenarios/seed000-dcms-1x-mad.scn"
ibsw_exit
