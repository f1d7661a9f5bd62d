#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests of tests/dcms_run.py, the judge of the dcms integration test
# (tests/tests/test_dcms_run.py, unittest): its recovery judgment on runs
# written by the test. Prints "PASS: dcms_run/NAME" or "FAIL: ... (why)"
# per case and exits 1 if any case failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)

exec python3 -B "$root/tests/lib/pyunit.py" "$root/tests" dcms_run
