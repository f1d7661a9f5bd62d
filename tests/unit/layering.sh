#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel module's layering (drivers/net/ibsw/ibsw.h's map): the datapath
# files call no function defined in a control file, and the pure logic files
# call none defined in either. A function counts as called when its name is
# followed by "(" in the file outside comments; definitions are found by
# their kernel-style first line ("type name(" at the start of a line).
set -u
. "$(dirname "$0")/../../scripts/common.sh"

dir=$IBSW_ROOT/drivers/net/ibsw
datapath=(input.c engine.c host.c neigh.c mad.c mgmt_hca.c remote.c)
pure=(pkt.c rate.c credit.c vlarb.c fwd.c cc.c smp_route.c smp_attr.c mad_pkt.c mad_roce.c
      pma_attr.c cc_mad_attr.c rlink.c)
failed=0

# defined FILE...: the ibsw_ functions the files define
defined() {
	sed -nE 's/^[a-z][a-z0-9_ *]*[ *](ibsw_[a-z0-9_]+)\(.*/\1/p' "$@" | sort -u
}

# calls FILE: the ibsw_ names the file calls, comments left out
calls() {
	perl -0pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' "$1" |
		grep -oE '\bibsw_[a-z0-9_]+\(' | tr -d '(' | sort -u
}

# check WHAT FILE... -- FORBIDDEN...: no FILE calls a function the
# FORBIDDEN files define
check() {
	local what=$1 f bad
	local -a files=() forbidden=()

	shift
	while [ "$1" != -- ]; do
		files+=("$1")
		shift
	done
	shift
	forbidden=("$@")
	for f in "${files[@]}"; do
		bad=$(comm -12 <(calls "$dir/$f") <(cd "$dir" && defined "${forbidden[@]}"))
		if [ -z "$bad" ]; then
			echo "PASS: layering/$what/$f"
		else
			echo "FAIL: layering/$what/$f (calls $(tr '\n' ' ' <<<"$bad"))"
			failed=1
		fi
	done
}

mapfile -t all < <(cd "$dir" && ls ./*.c | sed 's|^\./||' | grep -v '\.mod\.c$')
mapfile -t control < <(printf '%s\n' "${all[@]}" |
	grep -vxF -f <(printf '%s\n' "${datapath[@]}" "${pure[@]}"))

# The lists must name files that exist, or the check proves nothing
for f in "${datapath[@]}" "${pure[@]}"; do
	[ -f "$dir/$f" ] || { echo "FAIL: layering/files ($f is gone: update $0)"; exit 1; }
done
[ "${#control[@]}" -ge 8 ] || { echo "FAIL: layering/files (control files: ${control[*]})"; exit 1; }

check datapath "${datapath[@]}" -- "${control[@]}"
check pure "${pure[@]}" -- "${control[@]}" "${datapath[@]}"
exit "$failed"
