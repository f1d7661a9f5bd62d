#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's checkpatch.pl --strict over every kernel source file and
# every patch of the rxe series: one case per file. Files generated from
# the netlink spec (a YNL-GEN marker) are left to ynl_gen.sh, as the kernel
# leaves its own generated files alone. Source files are checked in one
# run (scripts/checkpatch), each finding names its file; a patch names the
# files it changes, so each patch has a run of its own.
set -u
. "$(dirname "$0")/../../scripts/common.sh"

cd "$IBSW_ROOT" || exit 1
failed=0
mapfile -t files < <(git ls-files 'drivers/net/ibsw/*.[ch]' 'include/*.h' 'tools/*.[ch]' |
	xargs grep -L 'YNL-GEN')
out=$(scripts/checkpatch "${files[@]}" 2>&1)
rc=$?
# One finding a paragraph: "TYPE: text", "#N: FILE: path:line:", the line
findings=$(awk -v RS= '{ if (match($0, /FILE: [^:]+:/)) print substr($0, RSTART + 6, RLENGTH - 7) }' <<<"$out")
for f in "${files[@]}"; do
	n=$(grep -cxF "$f" <<<"$findings")
	if [ "$n" = 0 ]; then
		echo "PASS: checkpatch/$f"
	else
		echo "FAIL: checkpatch/$f ($n findings)"
		awk -v RS= -v f="FILE: $f:" 'index($0, f) { print; print "" }' <<<"$out" | sed 's/^/# /'
		failed=1
	fi
done
# a failure no file was named in: everything it said
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
	echo "FAIL: checkpatch (exit $rc, no file named)"
	sed 's/^/# /' <<<"$out"
	failed=1
fi
for f in $(git ls-files 'drivers/infiniband/sw/rxe/patches*/*.patch'); do
	if out=$(scripts/checkpatch "$f" 2>&1); then
		echo "PASS: checkpatch/$f"
	else
		echo "FAIL: checkpatch/$f ($(grep -cE '^(ERROR|WARNING|CHECK)' <<<"$out") findings)"
		sed 's/^/# /' <<<"$out"
		failed=1
	fi
done
exit $failed
