#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fuzzers, each for a short bounded time (FUZZ_SECONDS, 20 by default)
# on its stored seeds, after replaying its regression inputs:
#  - tools/lib's libFuzzer target: the topology parser and routing
#    (tools/lib/README.md, "Fuzzing");
#  - tools/ibsw-run/fuzz_scenario.py: the scenario parser.
# Longer by hand: FUZZ_SECONDS=600 tests/unit/fuzz.sh
set -u
. "$(dirname "$0")/../../scripts/common.sh"
ibsw_paths

secs=${FUZZ_SECONDS:-20}
rc=0
make -s -C "$IBSW_ROOT/tools/lib" fuzz-check FUZZ_SECONDS="$secs" || rc=1
regs=("$IBSW_ROOT"/tools/ibsw-run/tests/fuzz-regressions/*.scn)
[ -e "${regs[0]}" ] || regs=()
python3 -B "$IBSW_ROOT/tools/ibsw-run/fuzz_scenario.py" --seconds "$secs" \
	--out "$IBSW_BUILD/fuzz-scenario" "${regs[@]}" || rc=1
exit $rc
