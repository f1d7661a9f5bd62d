#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of tests/lib/report.sh, the result lines of the VM tests: a
# case that passes, fails or skips prints its line, and a case that a
# shell error ends (bash abandons the whole top-level command on an
# arithmetic expansion error, ibsw_case with it) is still reported as
# failed, by the next ibsw_case or by ibsw_exit, and fails the script.
# A rate bound (ibsw_rate_fail) fails a case, but where
# IBSW_RATES_ADVISORY is set (the debug kernel) the case goes on and its
# PASS line names the bound; ibsw_setup_skip skips a whole test.
# Prints "PASS: report/CASE" or "FAIL: report/CASE (why)" per case, exits
# 1 if any failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# script BODY: a test script of report.sh's cases, run; its output in
# $tmp/out, its exit status in $tmp/rc
script() {
	cat >"$tmp/t.sh" <<-EOS
		IBSW_TEST=t IBSW_LOGDIR=$tmp IBSW_SKIP=4 _ibsw_failed=0
		ibsw_reap() { :; }
		. "$root/tests/lib/report.sh"
		. "$root/tests/lib/rates.sh"
		ok() { :; }
		bad() { ibsw_fail "it failed"; }
		skip() { ibsw_skip "not here"; }
		slow() { false || ibsw_rate_fail "F1 at 1, below 2" || return; echo "went on"; }
		broken() { local n=-; echo "before"; echo \$((n + 1)); echo "after"; }
		$1
	EOS
	bash "$tmp/t.sh" >"$tmp/out" 2>/dev/null
	echo $? >"$tmp/rc"
}

# check NAME WANT_RC LINE...: the script exited WANT_RC and printed these
# result lines in this order, and no other
check() {
	local name=$1 want=$2 got
	shift 2
	got=$(grep -E '^(PASS|FAIL|SKIP):' "$tmp/out")
	if [ "$(cat "$tmp/rc")" = "$want" ] && [ "$got" = "$(printf '%s\n' "$@")" ]; then
		echo "PASS: report/$name"
	else
		echo "FAIL: report/$name (exit $(cat "$tmp/rc"), lines: $(echo "$got" | tr '\n' '|'))"
		failed=1
	fi
}

script $'ibsw_case a ok\nibsw_case b bad\nibsw_case c skip\nibsw_exit'
check results 1 "PASS: t/a" "FAIL: t/b (it failed)" "SKIP: t/c (not here)"

script $'ibsw_case a ok\nibsw_case c skip\nibsw_exit'
check all_pass 0 "PASS: t/a" "SKIP: t/c (not here)"

# setup after a failed case gives its own reason, not the case's
script $'ibsw_case b bad\nfalse || ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"'
check setup_after_failed_case 1 "FAIL: t/b (it failed)" "FAIL: t/setup (fabric up: see setup.log)"

# the case a shell error ends, reported before the next one
script $'ibsw_case a broken\nibsw_case b ok\nibsw_exit'
check broken_then_next 1 "FAIL: t/a (a shell error ended the case: see its log)" "PASS: t/b"
if grep -q '^#   before$' "$tmp/out" && ! grep -q after "$tmp/out"; then
	echo "PASS: report/broken_log_shown"
else
	echo "FAIL: report/broken_log_shown (no log of the broken case)"
	failed=1
fi

# ... and by ibsw_exit when it was the last
script $'ibsw_case a ok\nibsw_case b broken\nibsw_exit'
check broken_last 1 "PASS: t/a" "FAIL: t/b (a shell error ended the case: see its log)"

# a rate bound: a failure on Debian's kernel ...
script $'ibsw_case a slow\nibsw_exit'
check rate_bound 1 "FAIL: t/a (F1 at 1, below 2)"

# ... reported, not enforced, on the debug kernel, for its case only
script $'IBSW_RATES_ADVISORY=1\nibsw_case a slow\nibsw_case b slow\nibsw_case c ok\nibsw_case d bad\nibsw_exit'
check rate_bound_advisory 1 "PASS: t/a (not enforced here: F1 at 1, below 2)" \
	"PASS: t/b (not enforced here: F1 at 1, below 2)" "PASS: t/c" "FAIL: t/d (it failed)"
if grep -q '^went on$' "$tmp/a.log"; then
	echo "PASS: report/rate_bound_advisory_goes_on"
else
	echo "FAIL: report/rate_bound_advisory_goes_on (the case stopped at the bound)"
	failed=1
fi

# a test that does not apply: one SKIP line, exit 0
script $'ibsw_case a ok\nibsw_setup_skip "no packages here"\nibsw_case b bad\nibsw_exit'
check setup_skip 0 "PASS: t/a" "SKIP: t/setup (no packages here)"

exit $failed
