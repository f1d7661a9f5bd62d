#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests of the experiment runner's Python modules
# (tools/ibsw-run/tests/test_*.py, unittest): the scenario parser and its
# errors, the statistics, the report and its plots on a fixture run.
# Prints "PASS: ibsw_run/MODULE.CASE", "FAIL: ... (why)" or "SKIP: ...
# (why)" per case, the tracebacks of failures as "# " lines, and exits 1
# if any case failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)

cd "$root/tools/ibsw-run" || exit 1
exec python3 -B "$root/tests/lib/pyunit.py" . ibsw_run module
