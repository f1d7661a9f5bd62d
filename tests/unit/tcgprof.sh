#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests of tcgprof (tools/tcgprof/tests/test_tcgprof.py, unittest):
# tcgprof-report's instructions per packet and function from hand-made
# snapshots and kallsyms (retranslated blocks, module and user addresses,
# every input error at its file:line), and the QEMU plugin loaded by QEMU
# without a guest (a snapshot per trigger, a bad label refused, the exit
# snapshot, its arguments checked).
# Prints "PASS: tcgprof/CASE", "FAIL: ... (why)" or "SKIP: ... (why)" per
# case, the tracebacks of failures as "# " lines, and exits 1 if any case
# failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)

cd "$root/tools/tcgprof" || exit 1
exec python3 -B "$root/tests/lib/pyunit.py" . tcgprof
