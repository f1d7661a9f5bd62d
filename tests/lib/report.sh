# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib/report.sh: what the tests report. ibsw_case runs a case and
# prints its PASS/FAIL/SKIP line, ibsw_fail and ibsw_skip record why,
# ibsw_note prints a "# " note, ibsw_exit ends the script; the case logs
# and the times in them (ibsw_ts).

# ---------------------------------------------------------------- reporting

ibsw_note() { echo "# $*"; }

# ibsw_fail REASON: record why the running case fails; returns 1.
#   some_command || ibsw_fail "what went wrong" || return
ibsw_fail() {
	_ibsw_reason=$*
	return 1
}

# ibsw_skip REASON: record why the running case is skipped.
#   have_ipv6 || { ibsw_skip "no IPv6"; return; }
ibsw_skip() {
	_ibsw_reason=$*
	return $IBSW_SKIP
}

# A case a shell error ended: bash abandons the whole top-level command on
# an expansion error ($((x - y)) of a word that is not a number, ${x?}),
# ibsw_case with it, so the case would print no result line and the script
# would go on. The next ibsw_case or ibsw_exit reports it as failed.
_ibsw_running=
_ibsw_abandoned() {
	[ -n "$_ibsw_running" ] || return 0
	echo "FAIL: $IBSW_TEST/$_ibsw_running (a shell error ended the case: see its log)"
	_ibsw_failed=1
	ibsw_show_log "$IBSW_LOGDIR/$_ibsw_running.log"
	_ibsw_running=
}

# ibsw_case NAME FUNCTION [ARGS...]: run one case, print its result line.
# The function's output goes to $IBSW_LOGDIR/NAME.log, which is shown
# (prefixed with "# ") when the case fails.
ibsw_case() {
	local name=$1 rc t0 t1
	shift

	_ibsw_abandoned
	_ibsw_running=$name
	_ibsw_reason=
	_ibsw_unenforced=
	IBSW_CASE=$name		# for the case function
	IBSW_CASE_LOG=$IBSW_LOGDIR/$name.log
	: >"$IBSW_CASE_LOG"
	t0=$EPOCHREALTIME
	_ibsw_t0=$t0
	"$@" >>"$IBSW_CASE_LOG" 2>&1 </dev/null
	rc=$?
	_ibsw_running=
	t1=$EPOCHREALTIME
	ibsw_reap
	echo "case $name: status $rc, $(ibsw_elapsed "$t0" "$t1") s" >>"$IBSW_CASE_LOG"

	case $rc in
	0)
		echo "PASS: $IBSW_TEST/$name${_ibsw_unenforced:+ (not enforced here: $_ibsw_unenforced)}"
		;;
	"$IBSW_SKIP")
		echo "SKIP: $IBSW_TEST/$name (${_ibsw_reason:-skipped})"
		;;
	*)
		echo "FAIL: $IBSW_TEST/$name (${_ibsw_reason:-exit status $rc})"
		_ibsw_failed=1
		ibsw_show_log "$IBSW_CASE_LOG"
		;;
	esac
	# what follows is setup again: its failures have their own reasons
	IBSW_CASE_LOG=$IBSW_LOGDIR/setup.log
	_ibsw_reason=
	return 0
}

# Show the end of a case log (and of the server logs it names).
ibsw_show_log() {
	local f

	for f in "$1" "${1%.log}".*.log; do
		[ -s "$f" ] || continue
		echo "# --- ${f##*/} (last 25 lines)"
		# (a newline after an unfinished last line: perftest's reports
		# end theirs when the next begins, and the result lines that
		# follow must start a line)
		# shellcheck disable=SC1003 # sed: append a newline
		tail -n 25 "$f" | sed -e 's/^/#   /' -e '$a\'
	done
}

ibsw_exit() {
	_ibsw_abandoned
	exit $_ibsw_failed
}

# Abort the script: setup failed, so every case is reported as failed.
ibsw_setup_fail() {
	echo "FAIL: $IBSW_TEST/setup ($*)"
	ibsw_show_log "$IBSW_LOGDIR/setup.log"
	exit 1
}

# ibsw_setup_skip REASON: the whole test does not apply here; it ends.
ibsw_setup_skip() {
	echo "SKIP: $IBSW_TEST/setup ($*)"
	exit 0
}

# ibsw_ts: "[+S.SS]", the time since the start of the case, for logs.
_ibsw_t0=$EPOCHREALTIME
ibsw_ts() {
	echo "[+$(ibsw_elapsed "$_ibsw_t0" "$EPOCHREALTIME")]"
}

ibsw_elapsed() {
	local a=${1/./} b=${2/./}

	printf '%d.%02d' $(((b - a) / 1000000)) $(((b - a) % 1000000 / 10000))
}
