#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of scripts/qemu-parallel, which chooses the QEMU of a VM whose
# vCPUs run in parallel: only 8.1 or later (multi-threaded TCG before it
# kills guests), from $IBSW_QEMU, the PATH, then its cache, in that order;
# a clear error when there is none. Fake QEMUs print a version; fetching
# needs the network and is left to scripts/deps. Prints "PASS:
# qemu_parallel/CASE" or "FAIL: qemu_parallel/CASE (why)" per case and
# exits 1 if any failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

result() {	# name, "" or the reason it failed
	if [ -z "$2" ]; then
		echo "PASS: qemu_parallel/$1"
	else
		echo "FAIL: qemu_parallel/$1 ($2)"
		failed=1
	fi
}

fake() {	# fake PATH VERSION: a QEMU binary that only prints its version
	mkdir -p "$(dirname "$1")"
	printf '#!/bin/sh\necho "QEMU emulator version %s (fake)"\n' "$2" >"$1"
	chmod +x "$1"
}

fake "$tmp/q10/qemu-system-x86_64" 10.0.2
fake "$tmp/q81/qemu-system-x86_64" 8.1.0
fake "$tmp/q80/qemu-system-x86_64" 8.0.5
fake "$tmp/q72/qemu-system-x86_64" 7.2.22
fake "$tmp/cache/qemu-parallel/qemu-system-x86_64" 10.0.2
mkdir -p "$tmp/empty"

# expect NAME WANT-STATUS WANT-TEXT QEMU PATH-DIR CACHE: run it with that
# $IBSW_QEMU (may be empty), the fake on the PATH first, that cache.
expect() {
	local name=$1 status=$2 text=$3 qemu=$4 dir=$5 cache=$6 out rc

	out=$(IBSW_QEMU=$qemu IBSW_CACHE=$cache PATH="$dir:$PATH" \
		"$root/scripts/qemu-parallel" 2>&1)
	rc=$?
	if [ "$rc" -ne "$status" ]; then
		result "$name" "exit $rc, want $status: $out"
	elif ! grep -qF -- "$text" <<<"$out"; then
		result "$name" "output '$out' lacks '$text'"
	else
		result "$name" ""
	fi
}

expect ibsw_qemu_first 0 "$tmp/q10/qemu-system-x86_64" \
	"$tmp/q10/qemu-system-x86_64" "$tmp/q81" "$tmp/cache"
expect path_when_ibsw_qemu_old 0 "$tmp/q81/qemu-system-x86_64" \
	"$tmp/q80/qemu-system-x86_64" "$tmp/q81" "$tmp/cache"
expect cache_when_path_old 0 "$tmp/cache/qemu-parallel/qemu-system-x86_64" \
	"" "$tmp/q72" "$tmp/cache"
expect eight_zero_is_not_safe 1 "no QEMU 8.1 or later" \
	"$tmp/q80/qemu-system-x86_64" "$tmp/q72" "$tmp/empty"
expect none_says_how 1 "run scripts/deps (it fetches one into $tmp/empty/qemu-parallel)" \
	"" "$tmp/q72" "$tmp/empty"
expect missing_ibsw_qemu_skipped 0 "$tmp/q81/qemu-system-x86_64" \
	"$tmp/nowhere/qemu" "$tmp/q81" "$tmp/empty"

out=$("$root/scripts/qemu-parallel" --bogus 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'usage' <<<"$out"; then
	result usage ""
else
	result usage "exit $rc: $out"
fi

exit $failed
