# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib.sh: library of the ibsw integration tests. Every script in
# tests/integration/ sources it and runs as root inside the test VM
# (scripts/vm), one VM per script. This file holds the conventions, the
# environment and the state the helpers share; it sources the helpers,
# a file a topic, from tests/lib/ (at its end).
#
# Conventions (kselftest-like):
#  * every case prints exactly one line on stdout:
#      PASS: <test>/<case>
#      FAIL: <test>/<case> (reason)
#      SKIP: <test>/<case> (reason)
#    anything else on stdout starts with "# ";
#  * a case is a shell function run by ibsw_case; it returns 0 (pass),
#    $IBSW_SKIP (skip) or anything else (fail); ibsw_fail/ibsw_skip record
#    the reason;
#  * the script ends with ibsw_exit: status 0 if no case failed, else 1;
#  * all objects (netns, links, rdma links, background processes) are
#    made through this library, get random-suffixed names and are removed
#    by the EXIT trap;
#  * no sleeps: wait_for polls a condition with a timeout.
#
# Environment: IBSW_ROOT, IBSW_RXE_KO (the patched rdma_rxe.ko), IBSW_OUT
# (directory for logs; optional).

IBSW_TEST=${IBSW_TEST:-$(basename "$0" .sh)}
IBSW_SKIP=4
IBSW_SFX=$(printf '%04x' $((RANDOM ^ ($$ & 0xffff))))
IBSW_ROOT=${IBSW_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
IBSW_RXE_KO=${IBSW_RXE_KO:-$IBSW_ROOT/build/rxe/rdma_rxe.ko}

_ibsw_failed=0
_ibsw_reason=
_ibsw_pids=()		# background processes
_ibsw_defer=()		# extra cleanup commands, run in reverse order
_ibsw_rxe=()		# rdma links
_ibsw_netns=()		# namespaces
_ibsw_links=()		# netdevs created in init_net

declare -A HOST_NS HOST_DEV HOST_RXE HOST_IP4 HOST_IP6

ibsw_logdir_init() {
	local d

	for d in "${IBSW_OUT:+$IBSW_OUT/$IBSW_TEST}" "/tmp/ibsw-$IBSW_TEST-$IBSW_SFX"; do
		[ -n "$d" ] || continue
		if mkdir -p "$d" 2>/dev/null && [ -w "$d" ]; then
			IBSW_LOGDIR=$d
			return
		fi
	done
	echo "# cannot create a log directory" >&2
	exit 1
}
ibsw_logdir_init
IBSW_CASE_LOG=$IBSW_LOGDIR/setup.log

# The helpers, a file a topic, in tests/lib/ (next to this file: the
# tests of one tree use its library whatever IBSW_ROOT says).
_ibsw_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")/lib" && pwd)
# shellcheck source=tests/lib/report.sh
. "$_ibsw_lib/report.sh"
# shellcheck source=tests/lib/hosts.sh
. "$_ibsw_lib/hosts.sh"
# shellcheck source=tests/lib/process.sh
. "$_ibsw_lib/process.sh"
# shellcheck source=tests/lib/tools.sh
. "$_ibsw_lib/tools.sh"
# shellcheck source=tests/lib/fabric.sh
. "$_ibsw_lib/fabric.sh"
# shellcheck source=tests/lib/rates.sh
. "$_ibsw_lib/rates.sh"
# shellcheck source=tests/lib/flows.sh
. "$_ibsw_lib/flows.sh"
# shellcheck source=tests/lib/rxe_cc.sh
. "$_ibsw_lib/rxe_cc.sh"
