#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of readme_run (tests/lib/readme.sh), which runs README.md's
# block for readme_fabric and install_packages: a block that succeeds runs
# once; one that fails runs once and fails with the command it stopped
# at; only perftest's failed key exchange runs it a second time, with a
# note, and a second failure fails. Prints "PASS: readme_run/CASE" or
# "FAIL: readme_run/CASE (why)" per case, exits 1 if any failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# run BLOCK: readme_run BLOCK in a shell of its own; its status in
# $tmp/rc, how often the block ran in $tmp/runs, its reason in $tmp/why
run() {
	rm -f "$tmp/runs" "$tmp/results"
	(
		IBSW_ROOT=$root IBSW_TEST=t IBSW_LOGDIR=$tmp IBSW_SKIP=4 _ibsw_failed=0
		README_OUT=$tmp/out README_RESULTS=$tmp/results
		# shellcheck source=tests/lib/report.sh
		. "$root/tests/lib/report.sh"
		# shellcheck source=tests/lib/readme.sh
		. "$root/tests/lib/readme.sh"
		readme_cleanup() { echo cleanup >>"$tmp/runs"; }
		readme_run "$1" >/dev/null
		rc=$?
		echo "${_ibsw_reason:-}" >"$tmp/why"
		exit $rc
	)
	echo $? >"$tmp/rc"
}

# check NAME WANT_RC WANT_RUNS WANT_NOTE [WANT_WHY]: status, the block's
# runs and cleanups in order ("run run" ...), whether results got a note
check() {
	local name=$1 rc runs note why
	rc=$(cat "$tmp/rc")
	runs=$(tr '\n' ' ' <"$tmp/runs" 2>/dev/null)
	note=no
	[ -s "$tmp/results" ] && note=yes
	why=$(cat "$tmp/why")
	if [ "$rc" = "$2" ] && [ "${runs% }" = "$3" ] && [ "$note" = "$4" ] &&
		[ "$why" = "${5:-}" ]; then
		echo "PASS: readme_run/$name"
	else
		echo "FAIL: readme_run/$name (exit $rc, runs '${runs% }', note $note, reason '$why')"
		failed=1
	fi
}

keys="echo \"ethernet_read_keys: Couldn't read remote address\" >&2"

run "echo run >>$tmp/runs
true"
check success 0 run no

run "echo run >>$tmp/runs
false"
check other_failure 1 run no "exit 1 at: false"

# fails the first time only, as the flake did
run "echo run >>$tmp/runs
if [ \$(grep -c run $tmp/runs) = 1 ]; then $keys; false; fi"
check key_exchange_once 0 "run cleanup run" yes

run "echo run >>$tmp/runs
$keys
false"
check key_exchange_twice 1 "run cleanup run" yes "exit 1 at: false"

exit $failed
