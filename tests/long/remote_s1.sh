#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# runs-on: host
#
# Seed 002's scenario 1 (CC off, its last phase: all five flows) in one VM
# and split over two (issue 22): seed002.net in one VM, then
# seed002-2m.net with S1 and H1-H3 in VM A, S2 and H4-H7 in VM B, joined
# by QEMU dgram NICs for the cut S1-S2 link and the management networks.
# What each host injects over a 10 s window is compared: F1 and the
# contributors' sum split must be within 5% of one VM's, and the remote
# link must lose nothing. The guest side is tests/long/remote_s1/guest.sh.
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../../scripts/common.sh"
ibsw_paths

out=${IBSW_OUT:-$IBSW_BUILD/test-logs/long_remote_s1.out}
mkdir -p "$out"
base=$((40000 + $$ % 20000))
guest=$IBSW_ROOT/tests/long/remote_s1/guest.sh
failed=0

# vm MODE [VM OPTIONS...]: one VM, its logs in $out/MODE*
vm() {
	local mode=$1

	shift
	# shellcheck disable=SC2086 # IBSW_VM_OPTS (the debug kernel's) are words
	"$IBSW_ROOT/scripts/vm" -t 900 "$@" ${IBSW_VM_OPTS:-} --keep-log "$out/$mode.vm" \
		-o "$out/$mode" -- env IBSW_TEST="remote_s1/$mode" "$guest" "$mode" >"$out/$mode.log" 2>&1
}

vm one || failed=1
vm A -c 1 --nic "dgram:$base:$((base + 1))" --nic "dgram:$((base + 2)):$((base + 3))" &
a=$!
vm B -c 1 --nic "dgram:$((base + 1)):$base" --nic "dgram:$((base + 3)):$((base + 2))" || failed=1
wait "$a" || failed=1
for m in one A B; do
	grep -E '^(PASS|FAIL|SKIP): ' "$out/$m.log" ||
		{ echo "FAIL: remote_s1/$m (no case reported; see $out/$m.log)"; failed=1; }
done

declare -A one split
while read -r _ f v; do one[$f]=$v; done < <(cat "$out/one/rates" 2>/dev/null)
while read -r _ f v; do split[$f]=$v; done < <(cat "$out/A/rates" "$out/B/rates" 2>/dev/null)

echo "| flow | one VM (Mb/s) | two VMs (Mb/s) | two / one |"
echo "|---|---|---|---|"
s1=0 s2=0
for f in F1 F2 F3 F4 F5; do
	a=${one[$f]:-0} b=${split[$f]:-0}
	[ "$f" = F1 ] || { s1=$((s1 + a)); s2=$((s2 + b)); }
	echo "| $f | $((a / 1000000)) | $((b / 1000000)) | $(awk -v a="$a" -v b="$b" 'BEGIN { if (a) printf "%.3f", b / a; else print "-" }') |"
done
echo "| F2-F5 | $((s1 / 1000000)) | $((s2 / 1000000)) | $(awk -v a="$s1" -v b="$s2" 'BEGIN { if (a) printf "%.3f", b / a; else print "-" }') |"

# within5 NAME ONE SPLIT
within5() {
	if [ "$2" -gt 0 ] && [ $((100 * ($3 > $2 ? $3 - $2 : $2 - $3))) -le $((5 * $2)) ]; then
		echo "PASS: remote_s1/$1"
	else
		echo "FAIL: remote_s1/$1 (one VM $2, two VMs $3 bit/s)"
		failed=1
	fi
}
within5 f1_within_5pct "${one[F1]:-0}" "${split[F1]:-0}"
within5 contributors_within_5pct "$s1" "$s2"
exit "$failed"
