#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's checkpatch.pl --strict over every kernel source file and
# every patch of the rxe series: one case per file. Files generated from
# the netlink spec (a YNL-GEN marker) are left to ynl_gen.sh, as the kernel
# leaves its own generated files alone.
set -u
. "$(dirname "$0")/../../scripts/common.sh"

cd "$IBSW_ROOT" || exit 1
failed=0
for f in $(git ls-files 'drivers/net/ibsw/*.[ch]' 'include/*.h' \
	'drivers/infiniband/sw/rxe/patches/*.patch' 'tools/*.[ch]'); do
	grep -q 'YNL-GEN' "$f" && continue
	if out=$(scripts/checkpatch "$f" 2>&1); then
		echo "PASS: checkpatch/$f"
	else
		echo "FAIL: checkpatch/$f ($(grep -cE '^(ERROR|WARNING|CHECK)' <<<"$out") findings)"
		sed 's/^/# /' <<<"$out"
		failed=1
	fi
done
exit $failed
