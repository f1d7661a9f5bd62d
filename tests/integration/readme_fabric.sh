#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 45
#
# README.md's "A fabric in three commands" as a newcomer runs it: the block
# is read from the README itself and run by bash exactly as written, with the
# PATH scripts/vm gives, so this test breaks when the README and the tools
# part ways. Every command succeeds, perftest reports a bandwidth, S2's
# counters show the data it moved, and fabric down leaves nothing behind.
# (install_packages runs the same block with the installed packages.)
# shellcheck source=tests/lib.sh disable=SC2317
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/lib/readme.sh
. "$(dirname "$0")/../lib/readme.sh"

README_OUT=$IBSW_LOGDIR/readme.out
README_RESULTS=$IBSW_LOGDIR/results

ibsw_require_ibsw

BLOCK=$(readme_block)
[ -n "$BLOCK" ] || ibsw_setup_fail "no code block under \"$README_HEADING\" in README.md"
printf '%s\n' "$BLOCK" | sed 's/^/# readme: /'
ibsw_defer readme_cleanup

# The README runs the block as scripts/vm -- bash -c '...': no single quote.
quotable() {
	case $BLOCK in
	*\'*) ibsw_fail "the block has a single quote: it does not fit in bash -c '...'" ;;
	esac
}

commands() {
	readme_run "$BLOCK"
}

ibsw_case quotable quotable
ibsw_case commands commands
ibsw_case bandwidth readme_bandwidth
ibsw_case counters readme_counters
ibsw_case teardown readme_teardown

[ -s "$README_RESULTS" ] && while read -r l; do ibsw_note "$l"; done <"$README_RESULTS"

ibsw_exit
