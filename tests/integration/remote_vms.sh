#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# runs-on: host
# cpu: whole
#
# A fabric across two machines: two VMs joined by a QEMU dgram NIC
# (scripts/vm --nic), seed 002 split by topologies/seed002-2m.net, S1 and
# H1-H3 in VM A, S2 and H4-H7 in VM B, each built by `ibswctl fabric up
# ... machine A|B carrier eth0`. Both ends of the cut S1-S2 link come up;
# rping with data verification runs from H1 (A) to H4 (B) across it, and
# ib_write_bw at H1's injection rate (the management networks of the two
# joined by a second NIC for perftest's out-of-band TCP); a
# time scale B changes is refused at both ends until it is back; A's
# fabric down takes B's end down. What runs in each VM is
# tests/integration/remote_vms/guest.sh; its cases are named A/... and B/....
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../../scripts/common.sh"
ibsw_paths

out=${IBSW_OUT:-$IBSW_BUILD/test-logs/integration_remote_vms.out}
mkdir -p "$out"
# Two loopback UDP ports, one per VM, unlikely to be taken
base=$((40000 + $$ % 20000))
guest=$IBSW_ROOT/tests/integration/remote_vms/guest.sh

# vm SIDE LPORT RPORT: one VM, its cases and logs in $out/SIDE*. Its
# eth0 carries the remote link, eth1 joins the management networks
# (perftest's out-of-band TCP) on LPORT + 2 and RPORT + 2.
vm() {
	# shellcheck disable=SC2086 # IBSW_VM_OPTS (the debug kernel's) are words
	"$IBSW_ROOT/scripts/vm" -c 1 -t 900 --nic "dgram:$2:$3" \
		--nic "dgram:$(($2 + 2)):$(($3 + 2))" ${IBSW_VM_OPTS:-} \
		--keep-log "$out/$1.vm" -o "$out/$1" -- env IBSW_TEST="remote_vms/$1" "$guest" "$1" \
		>"$out/$1.log" 2>&1
}

vm A "$base" $((base + 1)) &
a=$!
vm B $((base + 1)) "$base" &
b=$!
wait "$a"
ra=$?
wait "$b"
rb=$?
for s in A B; do
	grep -E '^(PASS|FAIL|SKIP): ' "$out/$s.log"
done
for s in A B; do
	if ! grep -qE '^(PASS|FAIL|SKIP): ' "$out/$s.log"; then
		echo "FAIL: remote_vms/$s (the VM reported no case; last lines of $out/$s.log:)"
		tail -n 15 "$out/$s.log" | sed 's/^/   | /'
	fi
done
[ "$ra" = 0 ] && [ "$rb" = 0 ]
