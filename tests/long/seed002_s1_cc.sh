#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 1800 -c 1
#
# Seed 002's scenario 1 with congestion control for the scenario file's
# own two emulated seconds of all five flows (about 4 minutes of wall-clock
# time per run), under ibswctl's settings and under OpenSM's: the cases of
# tests/integration/cc_end_to_end.sh with IBSW_E2E_LONG=1. F1 keeps at
# least 90% of its solo rate with the contributors, their Jain index is at
# least 0.95, and F1 under OpenSM's settings is within 5% of its rate
# under ibswctl's.
IBSW_E2E_LONG=1 exec "$(dirname "$0")/../integration/cc_end_to_end.sh"
