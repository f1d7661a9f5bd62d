#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests of the topology generator (tools/topo-gen/tests/test_*.py,
# unittest): its cabling read back by a parser of the tests' own (fat
# trees of two and three levels, tori, meshes, dragonflies),
# fat-tree-16.net reproduced, the shipped topologies it made still what it
# makes, every usage error, and ibswctl's dry-run plan and routes of the
# generated files when ibswctl is built.
# Prints "PASS: topo_gen/CASE", "FAIL: ... (why)" or "SKIP: ... (why)" per
# case, the tracebacks of failures as "# " lines, and exits 1 if any case
# failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)

cd "$root/tools/topo-gen" || exit 1
exec python3 -B "$root/tests/lib/pyunit.py" . topo_gen
