#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 120
#
# Subnet management with the real stack: a management HCA (an InfiniBand
# ib_device, ibswctl mgmt add) on port 3 of one-switch.net's switch, and
# Debian's opensm and infiniband-diags on it through ib_umad, unmodified.
# Directed-route SMPs reach the switch's SMA and the emulated CAs' (the two
# rxe hosts) hop by hop; ibnetdiscover sees the fabric with no SM; opensm
# brings every port to ACTIVE, assigns the LIDs and programs the switch's
# forwarding table, which ibswctl then reads back; the hosts' addresses
# follow their new LIDs and RDMA runs on the SM's routes. Bad SMPs are
# dropped and counted in VL15Dropped, or answered with the IBA's status
# (smpdump). SL-to-VL and VL arbitration tables read the
# same by SMP and by ibswctl, whether ibswctl or OpenSM's QoS set them;
# with OpenSM's M_Key, a Get without it goes unanswered and is counted.
# OpenSM's PerfMgr sweeps the switch's counters as sysfs shows them.
# Removing the HCA, or unloading ibsw, while OpenSM runs leaves no warning.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

MP=3				# the management HCA's switch port
DEV=ibsw_mgmt0
MKEY=0x00000000000012ab		# OpenSM's M_Key from the mkey case on

ibsw_require_ibsw
for t in opensm ibnetdiscover smpquery smpdump iblinkinfo ibroute ibstat; do
	ibsw_have "$t" || ibsw_setup_fail "$t missing (scripts/deps: opensm, infiniband-diags)"
done
modprobe ib_umad || ibsw_setup_fail "modprobe ib_umad failed"
ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "fabric up: ${_ibsw_reason:-see setup.log}"
SW=${HOST_SW[H1]}
# LID 100 until OpenSM gives it its own; hosts reach it at 10.0.250.1
ibswctl mgmt add "$SW/$MP" name "$DEV" lid 100 >>"$IBSW_CASE_LOG" 2>&1 ||
	ibsw_setup_fail "mgmt add $SW/$MP failed"
GUID=$(ibstat -p "$DEV")
ibsw_defer "ibswctl mgmt del $SW/$MP 2>/dev/null"

# diags: the HCA's own port
smp() { timeout 20 smpquery -C "$DEV" -P 1 "$@"; }
field() { awk -F'[.]+' -v k="$1" '$1 == k { print $2 }'; }

device() {
	local state

	ibstat "$DEV" || ibsw_fail "ibstat $DEV failed" || return
	state=$(cat "/sys/class/infiniband/$DEV/ports/1/phys_state")
	echo "phys_state: $state"
	[[ $state == *LinkUp* ]] || ibsw_fail "$DEV port is $state, not LinkUp" || return
	rdma link show "$DEV/1" || ibsw_fail "rdma link show failed" || return
	grep -lx "$DEV" /sys/class/infiniband_mad/*/ibdev ||
		ibsw_fail "no umad or issm file for $DEV" || return
	ibswctl port show "$SW/$MP"
	ibswctl port show "$SW/$MP" | grep -q "mgmt ibdev $DEV guid $GUID" ||
		ibsw_fail "ibswctl does not show $DEV with GUID $GUID on $SW/$MP" || return
}
ibsw_case device device

# Directed route, no SM yet: the switch one hop away, a CA two hops away
dr_queries() {
	local out

	out=$(smp -D nodeinfo 0,1) || ibsw_fail "NodeInfo of the switch failed" || return
	echo "$out"
	[ "$(field NodeType: <<<"$out")" = Switch ] || ibsw_fail "0,1 is not a switch" || return
	[ "$(field NumPorts: <<<"$out")" = 4 ] || ibsw_fail "the switch has not 4 ports" || return
	[ "$(field LocalPort: <<<"$out")" = "$MP" ] || ibsw_fail "LocalPort is not $MP" || return
	out=$(smp -D nodedesc 0,1) || ibsw_fail "NodeDescription failed" || return
	echo "$out"
	[[ $out == *"$SW"* ]] || ibsw_fail "NodeDescription is not $SW" || return
	out=$(smp -D portinfo 0,1 1) || ibsw_fail "PortInfo of $SW/1 failed" || return
	echo "$out"
	[ "$(field PhysLinkState: <<<"$out")" = LinkUp ] || ibsw_fail "$SW/1 is not LinkUp" || return
	[ "$(field LinkWidthActive: <<<"$out")" = 4X ] || ibsw_fail "$SW/1 is not 4X" || return
	out=$(smp -D portinfo 0,1 4) || ibsw_fail "PortInfo of $SW/4 failed" || return
	[ "$(field PhysLinkState: <<<"$out")" = Polling ] || ibsw_fail "$SW/4 (nothing cabled) is not Polling" || return
	out=$(smp -D nodeinfo 0,1,"${HOST_PORT[H1]}") || ibsw_fail "NodeInfo of H1's CA failed" || return
	echo "$out"
	[ "$(field NodeType: <<<"$out")" = "Channel Adapter" ] || ibsw_fail "H1 is not a CA" || return
}
ibsw_case dr_queries dr_queries

# ibnetdiscover, no SM: one switch and three CAs
discover() {
	local out

	out=$(timeout 60 ibnetdiscover -C "$DEV" -P 1) || ibsw_fail "ibnetdiscover failed" || return
	echo "$out"
	[ "$(grep -c '^Switch' <<<"$out")" = 1 ] || ibsw_fail "not 1 switch" || return
	[ "$(grep -c '^Ca' <<<"$out")" = 3 ] || ibsw_fail "not 3 CAs" || return
}
ibsw_case discover discover

# Bad SMPs from a real requester (libibmad itself refuses hop counts over
# 63: KUnit covers those). Dropped, the query timing out, and counted at
# the port they came in on: a route out of a port that does not exist, out
# of one with nothing cabled (port 4), through a CA. Answered with the
# IBA's status (0x8000 is the direction bit): an unknown attribute, at the
# switch and at a CA; PortInfo of a port the switch does not have.
bad_smps() {
	local path d0 d1 out want

	for path in 0,1,9 0,1,4 0,1,1,1; do
		d0=$(ibsw_cnt "$SW" "$MP" vl15_dropped)
		smp -D nodeinfo "$path" && ibsw_fail "NodeInfo by $path was answered" && return
		d1=$(ibsw_cnt "$SW" "$MP" vl15_dropped)
		echo "NodeInfo by $path: vl15_dropped $d0 -> $d1"
		# one per send: libibmad sends again (3 times at most) when the
		# kernel's timeout report reaches it before its own receive
		# times out, which a busy CPU decides
		[ "$d1" -ge $((d0 + 1)) ] && [ "$d1" -le $((d0 + 3)) ] ||
			ibsw_fail "by $path: vl15_dropped $d0 -> $d1, not +1 to +3" || return
	done
	d0=$(ibsw_cnt "$SW" "$MP" vl15_dropped)
	for want in "0,1 0xfe:0x800c" "0,1,1 0xfe:0x800c" "0,1 0x15 9:0x801c"; do
		# shellcheck disable=SC2086 # the path, attribute and modifier
		out=$(timeout 20 smpdump -C "$DEV" -P 1 -D ${want%:*}) ||
			ibsw_fail "smpdump ${want%:*} got no answer" || return
		echo "smpdump -D ${want%:*}: $(grep 'SMP status' <<<"$out")"
		grep -qx "SMP status: ${want#*:}" <<<"$out" ||
			ibsw_fail "smpdump ${want%:*}: not status ${want#*:}" || return
	done
	d1=$(ibsw_cnt "$SW" "$MP" vl15_dropped)
	[ "$d1" = "$d0" ] || ibsw_fail "answered SMPs raised vl15_dropped $d0 -> $d1" || return
}
ibsw_case bad_smps bad_smps

# The management HCA's own PMA (perfquery of its port): what it put on and
# took off its link, which the switch port at the other end counted as
# received and sent; its reset clears its counters, not the switch's.
# Before OpenSM, so that only this case's SMPs cross the link (perfquery of
# the HCA's own LID does not).
pma_hca() {
	local out i k dh ds
	local -A c

	# hca_read P: the HCA's counters by perfquery, as c[P:NAME]
	hca_read() {
		local f

		out=$(timeout 30 perfquery -x -C "$DEV" -P 1 2>&1) ||
			ibsw_fail "perfquery -x of $DEV failed: $out" || return
		for f in XmitPkts RcvPkts XmitData RcvData; do
			c[$1:$f]=$(awk -F'[.]+' -v k="Port$f:" '$1 == k { print $2 }' <<<"$out")
			[ -n "${c[$1:$f]}" ] || ibsw_fail "perfquery -x: no Port$f" || return
		done
	}
	# sw_read P: the switch port's, in the HCA's direction
	sw_read() {
		c[$1:XmitPkts]=$(ibsw_cnt "$SW" "$MP" port_rcv_packets)
		c[$1:RcvPkts]=$(ibsw_cnt "$SW" "$MP" port_xmit_packets)
		c[$1:XmitData]=$(ibsw_cnt "$SW" "$MP" port_rcv_data)
		c[$1:RcvData]=$(ibsw_cnt "$SW" "$MP" port_xmit_data)
	}
	hca_read h0 && sw_read s0 || return
	echo "$out"
	for i in 1 2 3; do
		smp -D nodeinfo 0,1 >/dev/null || ibsw_fail "smpquery nodeinfo 0,1 failed" || return
	done
	hca_read h1 && sw_read s1 || return
	for k in XmitPkts RcvPkts XmitData RcvData; do
		dh=$((${c[h1:$k]} - ${c[h0:$k]})) ds=$((${c[s1:$k]} - ${c[s0:$k]}))
		echo "Port$k: HCA ${c[h0:$k]} -> ${c[h1:$k]} (+$dh), switch port's other direction +$ds"
		case $k in
		*Pkts) [ "$dh" = 3 ] && [ "$ds" = 3 ] ||
			ibsw_fail "Port$k +$dh at the HCA, +$ds at the switch, not 3" || return ;;
		# 32-bit words of sums that may differ mod 4
		*) [ "$dh" -gt 200 ] && [ $((dh - ds)) -le 1 ] && [ $((ds - dh)) -le 1 ] ||
			ibsw_fail "Port$k +$dh at the HCA, +$ds at the switch" || return ;;
		esac
	done
	timeout 30 perfquery -R -C "$DEV" -P 1 || ibsw_fail "perfquery -R of $DEV failed" || return
	hca_read h2 && sw_read s2 || return
	echo "after perfquery -R: HCA ${c[h2:XmitPkts]} ${c[h2:RcvPkts]} ${c[h2:XmitData]} ${c[h2:RcvData]}"
	for k in XmitPkts RcvPkts XmitData RcvData; do
		[ "${c[h2:$k]}" = 0 ] || ibsw_fail "Port$k is ${c[h2:$k]} after the reset" || return
		[ "${c[s2:$k]}" = "${c[s1:$k]}" ] ||
			ibsw_fail "the HCA's reset changed the switch port's counters" || return
	done
}
ibsw_case pma_hca pma_hca

# OpenSM, once: SUBNET UP, every port ACTIVE, the tables its own
opensm_once() {
	local log=$IBSW_LOGDIR/opensm.log cache out lft

	cache=$(mktemp -d)
	OSM_CACHE_DIR=$cache timeout 120 opensm -g "$GUID" -o -e -f "$log" -s 0 >/dev/null 2>&1
	rm -rf "$cache"
	grep -E "SUBNET UP|ERRORS|ERR " "$log"
	grep -q "SUBNET UP" "$log" || ibsw_fail "no SUBNET UP in opensm's log" || return
	grep -q "ERRORS DURING INITIALIZATION" "$log" && ibsw_fail "opensm: errors during initialization" && return
	out=$(timeout 60 iblinkinfo -C "$DEV" -P 1) || ibsw_fail "iblinkinfo failed" || return
	echo "$out"
	[ "$(grep -c 'Active/  LinkUp' <<<"$out")" -ge 3 ] || ibsw_fail "not every link is Active" || return
	ibswctl addr show
	lft=$(ibswctl lft show "$SW") || ibsw_fail "lft show failed" || return
	echo "$lft"
	# Every host's LID, as OpenSM gave it, routes to its port, and the
	# switch's table reads the same through the SMA (ibroute)
	for h in H1 H2; do
		local lid p
		lid=$(ibswctl port show "$SW/${HOST_PORT[$h]}" | awk '{ for (i = 1; i < NF; i++) if ($i == "lid") print $(i + 1) }')
		p=$(awk -v l="$lid" '$1 == "lid" && $2 == l { print $4 }' <<<"$lft")
		echo "$h: lid $lid port $p"
		[ "$p" = "${HOST_PORT[$h]}" ] || ibsw_fail "$h's LID $lid routes to port $p" || return
	done
	swlid=$(smp -D portinfo 0,1 0 | field Lid:)
	out=$(timeout 30 ibroute -C "$DEV" -P 1 "$swlid") || ibsw_fail "ibroute $swlid failed" || return
	echo "$out"
	for h in H1 H2; do
		lid=$(ibswctl port show "$SW/${HOST_PORT[$h]}" | awk '{ for (i = 1; i < NF; i++) if ($i == "lid") print $(i + 1) }')
		grep -Eq "^0x0*$(printf '%x' "$lid") 00${HOST_PORT[$h]} " <<<"$out" ||
			ibsw_fail "ibroute does not route $h's LID $lid to port ${HOST_PORT[$h]}" || return
	done
}
ibsw_case opensm_once opensm_once

# After the SM: RDMA on its routes and LIDs
ibsw_case rc_pingpong rc H1 H2
ibsw_case rping rp H2 H1

# GMPs through the switch: a second management HCA, on port 4, reaches
# OpenSM's SA on the first (SA queries on the data VL of SL 0, credits
# and all), and the switch's port 0 answers a class it has no agent for
# with a MAD status rather than silence
gmp_across() {
	local log=$IBSW_LOGDIR/opensm-sa.log pid out lid swlid i

	: >"$log"
	opensm -g "$GUID" -f "$log" -s 1 >/dev/null 2>&1 &
	pid=$!
	_ibsw_pids+=("$pid")
	# Its log is flushed at exit only (force_log_flush FALSE): the port
	# ACTIVE says the subnet is up
	port_active() { ibstat "$DEV" 1 | grep -q "State: Active"; }
	wait_for "$DEV ACTIVE under OpenSM" 60 port_active || return
	ibswctl mgmt add "$SW/4" name ibsw_mgmt1 || ibsw_fail "mgmt add $SW/4 failed" || return
	ibsw_defer "ibswctl mgmt del $SW/4 2>/dev/null"
	# OpenSM's next sweep finds the new port: a LID, then ACTIVE
	for i in $(seq 60); do
		out=$(ibstat ibsw_mgmt1 1)
		grep -q "State: Active" <<<"$out" && break
		sleep 1
	done
	echo "$out"
	grep -q "State: Active" <<<"$out" || ibsw_fail "ibsw_mgmt1 did not become ACTIVE" || return
	lid=$(awk '/Base lid:/ { print $3 }' <<<"$out")
	out=$(timeout 30 saquery -C ibsw_mgmt1 -P 1 NR 2>&1) || ibsw_fail "saquery from ibsw_mgmt1 failed: $out" || return
	echo "$out" | grep -E "lid|NodeDescription"
	grep -q "NodeDescription.*$SW" <<<"$out" || ibsw_fail "the SA's node records lack $SW" || return
	[ "$(grep -c 'NodeRecord dump' <<<"$out")" = 5 ] ||
		ibsw_fail "not 5 node records (the switch, two hosts, two HCAs)" || return
	swlid=$(smp -D portinfo 0,1 0 | field Lid:)
	# ibsysstat's vendor class: no agent at port 0, an answer all the same
	# (status 0xc, which the ping does not check)
	out=$(timeout 30 ibsysstat -e -C ibsw_mgmt1 -P 1 "$swlid" 2>&1)
	echo "$out"
	grep -q "ping succeeded" <<<"$out" ||
		ibsw_fail "the switch's port 0 did not answer a vendor MAD" || return
	kill "$pid"
	ibsw_wait_pid "$pid" 10 || kill -9 "$pid" 2>/dev/null
	echo "ibsw_mgmt1: lid $lid; SA records and a status from port 0 across $SW"
}
ibsw_case gmp_across gmp_across

# GMPs to a host's rxe device and back: the switch port of the HCA took
# the LID OpenSM gave it, an address mapped to that LID is where the
# host's replies go, and the HCA's packets reach the rxe as RoCEv2 with a
# valid ICRC: its PMA and its congestion control agent answer
gmp_host() {
	local mlid plid h1 out d0 d1

	mlid=$(ibstat "$DEV" 1 | awk '/Base lid:/ { print $3 }')
	plid=$(ibswctl port show "$SW/$MP" | awk '{ for (i = 1; i < NF; i++) if ($i == "lid") print $(i + 1) }')
	echo "$DEV: lid $mlid, its switch port: lid $plid"
	[ -n "$mlid" ] && [ "$mlid" = "$plid" ] ||
		ibsw_fail "the switch port has LID ${plid:-none}, not the HCA's $mlid" || return
	# The table as the builder and OpenSM left it, and the HCA's address
	out=$(ibswctl addr show | awk '$2 == "lid" { printf "%s=%s ", $1, $3 }')
	# shellcheck disable=SC2086
	ibswctl addr set $out "10.0.250.1=$mlid" || ibsw_fail "addr set failed" || return
	h1=$(ibswctl port show "$SW/${HOST_PORT[H1]}" | awk '{ for (i = 1; i < NF; i++) if ($i == "lid") print $(i + 1) }')
	d0=$(ibsw_cnt "$SW" "${HOST_PORT[H1]}" port_xmit_discards)
	# The first reply waits for the host to resolve the HCA's address
	# (ARP, answered by the switch): that can take a second in the VM
	out=$(timeout 30 perfquery -e -t 5000 -C "$DEV" -P 1 "$h1" 1 2>&1) ||
		ibsw_fail "perfquery of H1 (LID $h1) failed: $out" || return
	echo "$out"
	grep -q "PortXmitPkts" <<<"$out" || ibsw_fail "no PortCounters from H1's rxe" || return
	out=$(timeout 30 ibccquery -e -t 5000 -C "$DEV" -P 1 CongestionInfo "$h1" 2>&1) ||
		ibsw_fail "ibccquery CongestionInfo of H1 failed: $out" || return
	echo "$out"
	grep -Eq "ControlTableCap:\.*4$" <<<"$out" ||
		ibsw_fail "H1's CongestionInfo is not the rxe agent's (ControlTableCap 4)" || return
	d1=$(ibsw_cnt "$SW" "${HOST_PORT[H1]}" port_xmit_discards)
	[ "$d0" = "$d1" ] || ibsw_fail "H1's port discarded $((d1 - d0)) packets" || return
}
ibsw_case gmp_host gmp_host
# The switch's PMA: perfquery's PortCounters and PortCountersExtended of
# an idle port equal its sysfs counters, all ports (PortSelect 255) are
# summed, and a reset clears the port's counters
pma_switch() {
	local swlid p=${HOST_PORT[H1]} out f want got

	swlid=$(smp -D portinfo 0,1 0 | field Lid:)
	out=$(timeout 30 perfquery -e -C "$DEV" -P 1 "$swlid" "$p" 2>&1) ||
		ibsw_fail "perfquery $swlid $p failed: $out" || return
	echo "$out"
	for f in XmitPkts:port_xmit_packets RcvPkts:port_rcv_packets XmitData:port_xmit_data \
		 RcvData:port_rcv_data; do
		want=$(ibsw_cnt "$SW" "$p" "${f#*:}")
		got=$(awk -F'[.]+' -v k="Port${f%%:*}:" '$1 == k { print $2 }' <<<"$out")
		echo "Port${f%%:*}: perfquery $got, sysfs $want"
		[ "$got" = "$want" ] || ibsw_fail "Port${f%%:*} is $got by PMA, $want in sysfs" || return
	done
	out=$(timeout 30 perfquery -e -x -C "$DEV" -P 1 "$swlid" "$p" 2>&1) ||
		ibsw_fail "perfquery -x failed: $out" || return
	got=$(awk -F'[.]+' '$1 == "PortXmitData:" { print $2 }' <<<"$out")
	want=$(ibsw_cnt "$SW" "$p" port_xmit_data)
	[ "$got" = "$want" ] || ibsw_fail "extended PortXmitData $got, sysfs $want" || return
	out=$(timeout 30 perfquery -e -a -C "$DEV" -P 1 "$swlid" 2>&1) ||
		ibsw_fail "perfquery -a failed: $out" || return
	echo "$out" | grep -E "PortSelect|XmitPkts"
	got=$(awk -F'[.]+' '$1 == "PortXmitPkts:" { print $2 }' <<<"$out")
	[ "$got" -ge "$(ibsw_cnt "$SW" "$p" port_xmit_packets)" ] ||
		ibsw_fail "the sum of all ports ($got) is below one port's" || return
	timeout 30 perfquery -e -R -C "$DEV" -P 1 "$swlid" "$p" ||
		ibsw_fail "perfquery -R failed" || return
	for f in port_xmit_packets port_rcv_data; do
		got=$(ibsw_cnt "$SW" "$p" "$f")
		[ "$got" = 0 ] || ibsw_fail "$f is $got after the PMA's reset" || return
	done
}
ibsw_case pma_switch pma_switch

# The switch's congestion control agent: ibccconfig sets what ibswctl cc
# shows, ibccquery reads what ibswctl cc set
cc_switch() {
	local swlid out

	swlid=$(smp -D portinfo 0,1 0 | field Lid:)
	out=$(timeout 30 ibccquery -e -C "$DEV" -P 1 CongestionInfo "$swlid" 2>&1) ||
		ibsw_fail "ibccquery CongestionInfo failed: $out" || return
	echo "$out"
	# Control map all, victim mask port 1, no credit mask, threshold 7,
	# packet size 8 credits, no credit starvation, marking rate 3
	out=$(timeout 30 ibccconfig -e -C "$DEV" -P 1 SwitchCongestionSetting "$swlid" \
		0x1f 0x2 0 7 8 0 0:0 3 2>&1) ||
		ibsw_fail "ibccconfig SwitchCongestionSetting failed: $out" || return
	out=$(ibswctl -j cc show "$SW")
	echo "$out"
	[ "$(jq -c '[.threshold, .packet_size, .marking_rate, .victim_mask]' <<<"$out")" = '[7,8,3,[1]]' ] ||
		ibsw_fail "ibswctl does not show what ibccconfig set" || return
	ibswctl cc set "$SW" threshold 4 marking_rate 9 || ibsw_fail "cc set failed" || return
	out=$(timeout 30 ibccquery -e -C "$DEV" -P 1 SwitchCongestionSetting "$swlid" 2>&1) ||
		ibsw_fail "ibccquery SwitchCongestionSetting failed: $out" || return
	echo "$out"
	grep -Eiq "^Threshold:\.+(0x)?0*4$" <<<"$out" && grep -Eiq "^Marking_?Rate:\.+(0x)?9$" <<<"$out" ||
		ibsw_fail "ibccquery does not read what ibswctl cc set" || return
	ibswctl cc set "$SW" threshold 0 || return
}
ibsw_case cc_switch cc_switch

# OpenSM's PerfMgr sweeps the switch's PMA, and its dump (the console's
# "perfmgr dump_counters mach") agrees with sysfs: each port's counters
# lie between the values sysfs showed before its last sweep and after the
# dump (equal where the port was idle), with the RDMA traffic run under it
# counted. CAs are not swept (perfmgr_ignore_cas) and the SM does not
# sweep again (sweep_interval 0), so no MAD crosses the host ports.
PM_COLS="xmit_data:port_xmit_data rcv_data:port_rcv_data xmit_pkts:port_xmit_packets
	 rcv_pkts:port_rcv_packets xmit_discards:port_xmit_discards vl15_dropped:vl15_dropped
	 rcv_switch_relay_err:port_rcv_switch_relay_errors"
PM_CONSOLE=10000
perfmgr() {
	local conf=$IBSW_LOGDIR/opensm-perfmgr.conf log=$IBSW_LOGDIR/opensm-perfmgr.log
	local dump=$IBSW_LOGDIR/perfmgr.tsv cache pid swguid rows ports p c i bad h2p t0 vals
	local -A lo hi pm

	cache=$(mktemp -d)
	ibsw_defer "rm -rf $cache"
	cat >"$conf" <<-EOF
		sweep_interval 0
		perfmgr TRUE
		perfmgr_sweep_time_s 1
		perfmgr_ignore_cas TRUE
		event_db_dump_file $dump
		console loopback
		console_port $PM_CONSOLE
	EOF
	swguid=$(smp -D nodeinfo 0,1 | field Guid: | sed 's/^0x0*/0x/')
	h2p=${HOST_PORT[H2]}
	t0=$(ibsw_cnt "$SW" "$h2p" port_xmit_data)
	OSM_CACHE_DIR=$cache opensm -F "$conf" -g "$GUID" -f "$log" >/dev/null 2>&1 &
	pid=$!
	_ibsw_pids+=("$pid")
	port_active() { ibstat "$DEV" 1 | grep -q "State: Active"; }
	wait_for "$DEV ACTIVE under OpenSM" 60 port_active || return

	# pm_dump: the dump's rows of the switch, "PORT COUNTER..." (PM_COLS)
	pm_dump() {
		local fd

		rm -f "$dump"
		exec {fd}<>"/dev/tcp/127.0.0.1/$PM_CONSOLE" || return 1
		printf 'perfmgr dump_counters mach\nquit\n' >&"$fd"
		timeout 10 cat <&"$fd" >/dev/null
		exec {fd}>&-
		[ -s "$dump" ] || return 1
		awk -F'\t' -v g="$swguid" -v want="$PM_COLS" '
			$1 == "Name" { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$2 == g {
				n = split(want, w, /[ \t\n]+/)
				line = $4
				for (i = 1; i <= n; i++)
					if (w[i] != "") { split(w[i], kv, ":"); line = line " " $(col[kv[1]]) }
				print line
			}' "$dump"
	}
	# sysfs P: the switch's counters, as ARRAY[PORT:COUNTER]
	sysfs() {
		local -n arr=$1
		local p c k

		for p in $ports; do
			for c in $PM_COLS; do
				k=$p:${c%%:*}
				arr["$k"]=$(ibsw_cnt "$SW" "$p" "${c#*:}")
			done
		done
	}
	# Swept once: the ports it monitors
	for i in $(seq 30); do
		rows=$(pm_dump) && [ -n "$rows" ] && break
		sleep 1
	done
	[ -n "$rows" ] || ibsw_fail "no PerfMgr dump with $SW ($swguid) in it" || return
	ports=$(awk '{ print $1 }' <<<"$rows" | sort -n | tr '\n' ' ')
	echo "PerfMgr monitors $SW ports $ports"
	[[ " $ports" == *" ${HOST_PORT[H1]} "* && " $ports" == *" $h2p "* ]] ||
		ibsw_fail "PerfMgr does not monitor the host ports" || return
	rc H1 H2 || return

	# Sysfs before, the dump, sysfs after; again while a sweep was under
	# way when the first values were read
	for i in $(seq 10); do
		sysfs lo
		sleep 3
		rows=$(pm_dump) || ibsw_fail "no PerfMgr dump" || return
		sysfs hi
		bad=
		while read -r p vals; do
			# shellcheck disable=SC2086 # the values, one word each
			set -- $vals
			for c in $PM_COLS; do
				c=${c%%:*}
				pm[$p:$c]=$1
				shift
				[ "${pm[$p:$c]}" -ge "${lo[$p:$c]}" ] && [ "${pm[$p:$c]}" -le "${hi[$p:$c]}" ] ||
					bad+=" $SW/$p $c: ${pm[$p:$c]} not in [${lo[$p:$c]}, ${hi[$p:$c]}]"
			done
		done <<<"$rows"
		[ -z "$bad" ] && break
		echo "dump $i:$bad"
	done
	for p in $ports; do
		echo "$SW/$p: PerfMgr xmit_data ${pm[$p:xmit_data]} rcv_data ${pm[$p:rcv_data]}" \
		     "xmit_pkts ${pm[$p:xmit_pkts]} rcv_pkts ${pm[$p:rcv_pkts]};" \
		     "sysfs ${hi[$p:xmit_data]} ${hi[$p:rcv_data]} ${hi[$p:xmit_pkts]} ${hi[$p:rcv_pkts]}"
	done
	[ -z "$bad" ] || ibsw_fail "PerfMgr's dump disagrees with sysfs:$bad" || return
	i=$((${pm[$h2p:xmit_data]} - t0))
	[ "$i" -ge 100000 ] || ibsw_fail "PerfMgr counted $i words to H2, not the pingpong's" || return
	kill "$pid"
	ibsw_wait_pid "$pid" 10 || kill -9 "$pid" 2>/dev/null
	# its log is written out at exit
	! grep "ERR 540B" "$log" || ibsw_fail "PerfMgr saw a counter clear it did not make" || return
}
ibsw_case perfmgr perfmgr

# DCMS with its MAD backend on the management HCA (Documentation/dcms.md,
# "The MAD backend"): dcms static sets the switch's congestion control by
# a SwitchCongestionSetting Set, and the daemon's sweeps read the cabled
# ports by PMA and their Marking_Rate by SwitchPortCongestionSetting, with
# the switch and its neighbours from a discovery. Experiment II over MADs:
# tests/long/dcms_mad.sh.
# dcms static CONF over MADs with CA keys (test values, none a default):
# both hosts' rxe devices get CACongestionSetting for SLs 0 and 2 and a
# 3-entry CCT, as their sysfs shows; the management HCA that sends them is
# not a target, the other one has no CC agent
dcms_static_cas() {
	local conf=$IBSW_LOGDIR/dcms-mad-ca.conf h dir got want out

	{
		cat "$1"
		printf '%s\n' "cc_ca_cong_setting_port_control 0x0001" \
			"cc_ca_cong_setting_control_map 0x0005" \
			"cc_ca_cong_setting_ccti_timer 0 77" "cc_ca_cong_setting_ccti_increase 0 3" \
			"cc_ca_cong_setting_ccti_timer 2 99" "cc_ca_cong_setting_ccti_min 2 4" \
			"cc_cct 0:0,1:3,2:5"
	} >"$conf"
	out=$(timeout 60 "$dcms" static --conf "$conf" --switches "$SW" 2>&1) ||
		ibsw_fail "dcms static (HCAs) exit $?: $out" || return
	echo "$out"
	for h in H1 H2; do
		grep -q "^hca $h (LID [0-9]*): CACongestionSetting and 1 CCT block set$" <<<"$out" ||
			ibsw_fail "dcms static did not set $h" || return
		dir=/sys/class/infiniband/${HOST_RXE[$h]}/ports/1/cc
		got="$(cat "$dir/port_control") $(cat "$dir/cct") $(grep -E '^sl=(0|1|2) ' "$dir/sl_settings" | tr '\n' ' ')"
		want="1 0:0 1:3 2:5 sl=0 ccti_timer=77 ccti_increase=3 trigger_threshold=0 ccti_min=0 "
		want+="sl=1 ccti_timer=0 ccti_increase=0 trigger_threshold=0 ccti_min=0 "
		want+="sl=2 ccti_timer=99 ccti_increase=0 trigger_threshold=0 ccti_min=4 "
		[ "$got" = "$want" ] || ibsw_fail "$h's rxe: '$got', not '$want'" || return
	done
	# the management HCAs have no CC agent (the other is skipped)
	[ "$(grep -c "CACongestionSetting and" <<<"$out")" = 2 ] ||
		ibsw_fail "dcms static set more than the two hosts" || return
}

dcms_mad() {
	local conf=$IBSW_LOGDIR/dcms-mad.conf csv=$IBSW_LOGDIR/dcms-mad.csv
	local log=$IBSW_LOGDIR/dcms-mad.jsonl dcms=${IBSW_BUILD:-$IBSW_ROOT/build}/tools/dcms/dcms out p rows

	[ -x "$dcms" ] || ibsw_fail "$dcms missing" || return
	cat >"$conf" <<-EOF
		backend mad
		mad_ca $DEV
		time_scale 1
		tau 1s
		congestion_control TRUE
		cc_sw_cong_setting_control_map 0x14
		cc_sw_cong_setting_threshold 6
		cc_sw_cong_setting_packet_size 8
		cc_sw_cong_setting_marking_rate 9
	EOF
	timeout 60 "$dcms" static --conf "$conf" --no-ca || ibsw_fail "dcms static exit $?" || return
	dcms_static_cas "$conf" || return
	out=$(ibswctl -j cc show "$SW")
	echo "$out"
	[ "$(jq -c '[.threshold, .marking_rate]' <<<"$out")" = '[6,9]' ] ||
		ibsw_fail "ibswctl does not show what dcms static set by MAD" || return
	p=${HOST_PORT[H1]}
	timeout 60 "$dcms" --conf "$conf" --duration 3.5s --dry-run --log "$log" --csv "$csv" \
		--ports "$SW/$p,$SW/$MP" || ibsw_fail "dcms exit $?" || return
	cat "$csv"
	grep -E '"(read_error|error)"' "$log" && ibsw_fail "dcms logged an error" && return
	rows=$(($(wc -l <"$csv") - 1))
	[ "$rows" -ge 2 ] || ibsw_fail "$rows sweeps in dcms's CSV, not 2 or more" || return
	# the Marking_Rate read back by MAD is the one dcms static set
	awk -F, 'NR > 1 && ($6 != 9 || $10 != 9) { bad = 1 } END { exit bad }' "$csv" ||
		ibsw_fail "dcms read a Marking_Rate other than 9" || return
	# the management port carries dcms's own MADs: its data counter moves
	awk -F, 'NR > 1 && $8 > 0 { moved = 1 } END { exit !moved }' "$csv" ||
		ibsw_fail "no PortXmitData read on $SW/$MP" || return
	ibswctl cc set "$SW" threshold 0 marking_rate 0 || return
}
ibsw_case dcms_mad dcms_mad

# ---- SL-to-VL and VL arbitration tables: the SMAs and ibswctl agree ----

# "in N V,V,...": the SL-to-VL tables smpquery sl2vl reads by directed
# route PATH (a switch: of output port PORT, every input port)
smp_sl2vl() {
	smp -D sl2vl "$@" | awk -F'|' '/^ports: in/ {
		split($1, n, /[^0-9]+/)
		s = "in " n[2] " "
		for (i = 2; i <= 17; i++) {
			v = $i
			gsub(/ /, "", v)
			s = s (i > 2 ? "," : "") v
		}
		print s
	}'
}

# "low VL:W,..." and "high VL:W,..." ("none"): the VL arbitration lists
# smpquery vlarb reads, without the VL 0 weight 0 entries past their end
smp_vlarb() {
	smp -D vlarb "$@" | awk '
	function hex(s,   i, c, v) {
		v = 0
		s = tolower(s)
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1))
			if (c)
				v = v * 16 + c - 1
		}
		return v
	}
	function list(name, n, e,   i, s, last) {
		last = 0
		for (i = 1; i <= n; i++)
			if (e[i] != "0:0")
				last = i
		s = ""
		for (i = 1; i <= last; i++)
			s = s (i > 1 ? "," : "") e[i]
		print name " " (last ? s : "none")
	}
	/^# Low/ { cur = "low" }
	/^# High/ { cur = "high" }
	/^VL +:/ { nv = split($0, vl, "|") }
	/^WEIGHT:/ {
		split($0, w, "|")
		for (i = 2; i < nv; i++) {
			if (cur == "low")
				lo[++nlo] = hex(vl[i]) ":" hex(w[i])
			else
				hi[++nhi] = hex(vl[i]) ":" hex(w[i])
		}
	}
	END { list("low", nlo, lo); list("high", nhi, hi) }'
}

# What ibswctl shows of SW/PORT: "in N ..." lines, or (KEY vlarb or
# hca-vlarb) "low ..." and "high ..."
ctl_sl2vl() { ibswctl -d port show "$1" | sed -n 's/^ *sl2vl //p'; }
ctl_vlarb() {
	ibswctl -d port show "$1" |
		sed -n "s/^ *$2-low /low /p; s/^ *$2-high /high /p" | sort -r
}

# The tables of switch port P (from input ports 1..N; 0 is the SMA's own
# base port 0 for the switch, the HCA side for ibswctl) and of the CA
# behind host H, by SMP and by ibswctl
tables_agree() {
	local p=$1 h=$2 a b

	a=$(smp_sl2vl 0,1 "$p" | grep -v '^in 0 ')
	b=$(ctl_sl2vl "$SW/$p" | grep -v '^in 0 ')
	echo "sl2vl of $SW/$p, smpquery:"; echo "$a"; echo "ibswctl:"; echo "$b"
	[ -n "$a" ] && [ "$a" = "$b" ] || ibsw_fail "SL2VL of $SW/$p: smpquery and ibswctl differ" || return
	a=$(smp_vlarb 0,1 "$p")
	b=$(ctl_vlarb "$SW/$p" vlarb)
	echo "vlarb of $SW/$p: smpquery $a; ibswctl $b"
	[ -n "$a" ] && [ "$a" = "$b" ] || ibsw_fail "VLArb of $SW/$p: smpquery and ibswctl differ" || return
	a=$(smp_sl2vl 0,1,"${HOST_PORT[$h]}")
	b=$(ctl_sl2vl "$SW/${HOST_PORT[$h]}" | grep '^in 0 ')
	echo "sl2vl of $h's CA: smpquery $a; ibswctl $b"
	[ -n "$a" ] && [ "$a" = "$b" ] || ibsw_fail "SL2VL of $h's CA: smpquery and ibswctl differ" || return
	a=$(smp_vlarb 0,1,"${HOST_PORT[$h]}")
	b=$(ctl_vlarb "$SW/${HOST_PORT[$h]}" hca-vlarb)
	echo "vlarb of $h's CA: smpquery $a; ibswctl $b"
	[ -n "$a" ] && [ "$a" = "$b" ] || ibsw_fail "VLArb of $h's CA: smpquery and ibswctl differ" || return
}

# ibswctl changes a switch port's tables; the SMA reads the new ones
tables_ibswctl() {
	local p=${HOST_PORT[H1]} want=3,2,1,0,3,2,1,0,3,2,1,0,3,2,1,15

	tables_agree "$p" H1 || return
	ibswctl port set "$SW/$p" sl2vl in 2 "$want" vlarb-low 1:10,0:20,3:4 \
		vlarb-high 2:5 || ibsw_fail "port set failed" || return
	tables_agree "$p" H1 || return
	smp_sl2vl 0,1 "$p" | grep -qx "in 2 $want" || ibsw_fail "smpquery does not read the new SL2VL" || return
	smp_vlarb 0,1 "$p" | grep -qx "low 1:10,0:20,3:4" || ibsw_fail "smpquery does not read the new VLArb" || return
}
ibsw_case tables_ibswctl tables_ibswctl

# OpenSM with qos TRUE programs the tables by SMP: ibswctl shows its
# configuration (VLs within the ports' 4), and smpquery agrees
opensm_qos() {
	local log=$IBSW_LOGDIR/opensm-qos.log conf cache p=${HOST_PORT[H1]} out
	local sw_sl2vl=3,2,1,0,3,2,1,0,3,2,1,0,3,2,1,0
	local ca_sl2vl=1,1,2,2,3,3,0,0,1,1,2,2,3,3,0,0

	conf=$(mktemp)
	cache=$(mktemp -d)
	cat >"$conf" <<-EOF
		qos TRUE
		qos_high_limit 6
		qos_vlarb_high 2:32,3:16
		qos_vlarb_low 0:64,1:128,3:8
		qos_sl2vl $sw_sl2vl
		qos_ca_high_limit 3
		qos_ca_vlarb_high 1:8
		qos_ca_vlarb_low 0:16,2:48
		qos_ca_sl2vl $ca_sl2vl
	EOF
	OSM_CACHE_DIR=$cache timeout 120 opensm -F "$conf" -g "$GUID" -o -e -f "$log" -s 0 >/dev/null 2>&1
	rm -rf "$cache" "$conf"
	grep -E "SUBNET UP|ERRORS|ERR " "$log"
	grep -q "SUBNET UP" "$log" || ibsw_fail "no SUBNET UP in opensm's log" || return
	grep -q "ERR 3111" "$log" && ibsw_fail "an SMA refused one of OpenSM's QoS MADs" && return
	out=$(ibswctl -d port show "$SW/$p")
	echo "$out"
	grep -qx " *vlarb-high 2:32,3:16" <<<"$out" || ibsw_fail "vlarb-high is not OpenSM's" || return
	grep -qx " *vlarb-low 0:64,1:128,3:8" <<<"$out" || ibsw_fail "vlarb-low is not OpenSM's" || return
	grep -qx " *vlarb-limit 6" <<<"$out" || ibsw_fail "vlarb-limit is not OpenSM's qos_high_limit" || return
	for i in 1 2 3 4; do
		grep -qx " *sl2vl in $i $sw_sl2vl" <<<"$out" ||
			ibsw_fail "SL2VL from port $i is not OpenSM's" || return
	done
	grep -qx " *sl2vl in 0 $ca_sl2vl" <<<"$out" || ibsw_fail "the CA's SL2VL is not OpenSM's" || return
	grep -qx " *hca-vlarb-high 1:8" <<<"$out" || ibsw_fail "the CA's vlarb-high is not OpenSM's" || return
	grep -qx " *hca-vlarb-low 0:16,2:48" <<<"$out" || ibsw_fail "the CA's vlarb-low is not OpenSM's" || return
	grep -qx " *hca-vlarb-limit 3" <<<"$out" || ibsw_fail "the CA's VLHighLimit is not OpenSM's" || return
	tables_agree "$p" H1
}
ibsw_case opensm_qos opensm_qos

# ---- M_Key ----

# OpenSM sets an M_Key with protection level 2: a Get without it is not
# answered and is counted, at the switch port it came in on (the switch)
# or at the CA's host port; with the key it is answered
mkey() {
	local log=$IBSW_LOGDIR/opensm-mkey.log conf cache key=$MKEY
	local p=${HOST_PORT[H1]} v0 v1 c0 c1 out

	conf=$(mktemp)
	cache=$(mktemp -d)
	printf 'm_key %s\nm_key_protection_level 2\nm_key_lease_period 0\n' "$key" >"$conf"
	OSM_CACHE_DIR=$cache timeout 120 opensm -F "$conf" -g "$GUID" -o -e -f "$log" -s 0 >/dev/null 2>&1
	rm -rf "$cache" "$conf"
	grep -E "SUBNET UP|ERRORS|ERR " "$log"
	grep -q "SUBNET UP" "$log" || ibsw_fail "no SUBNET UP in opensm's log" || return
	out=$(smp -y "$key" -D portinfo 0,1 0) || ibsw_fail "PortInfo with the M_Key was not answered" || return
	echo "$out"
	[ "$(field ProtectBits: <<<"$out")" = 2 ] || ibsw_fail "the switch's M_KeyProtectBits are not 2" || return
	v0=$(ibsw_cnt "$SW" "$MP" mkey_violations)
	smp -t 200 -D nodeinfo 0,1 && ibsw_fail "a Get without the M_Key was answered" && return
	v1=$(ibsw_cnt "$SW" "$MP" mkey_violations)
	echo "switch: mkey_violations $v0 -> $v1"
	[ "$v1" -gt "$v0" ] || ibsw_fail "mkey_violations of $SW/$MP did not rise" || return
	c0=$(ibsw_cnt "$SW" "$p" mkey_violations)
	smp -t 200 -D nodeinfo 0,1,"$p" && ibsw_fail "the CA answered a Get without the M_Key" && return
	c1=$(ibsw_cnt "$SW" "$p" mkey_violations)
	echo "CA: mkey_violations $c0 -> $c1"
	[ "$c1" -gt "$c0" ] || ibsw_fail "mkey_violations of $SW/$p did not rise" || return
	smp -y "$key" -D nodeinfo 0,1,"$p" || ibsw_fail "the CA did not answer with the M_Key" || return
	out=$(smp -y "$key" -D portinfo 0,1,"$p") || ibsw_fail "the CA's PortInfo failed" || return
	echo "$out"
	[ "$(field MkeyViolations: <<<"$out")" -ge 1 ] || ibsw_fail "the CA's M_KeyViolations is 0" || return
}
ibsw_case mkey mkey

# The HCA goes while OpenSM runs on it: no hang, no warning
remove_under_sm() {
	local pid i

	opensm -g "$GUID" -f "$IBSW_LOGDIR/opensm-daemon.log" -s 1 >/dev/null 2>&1 &
	pid=$!
	sleep 3
	echo "$(ibsw_ts) mgmt del"
	timeout 60 "$IBSWCTL" mgmt del "$SW/$MP" || ibsw_fail "mgmt del failed or hung" || return
	echo "$(ibsw_ts) mgmt del done"
	[ ! -e "/sys/class/infiniband/$DEV" ] || ibsw_fail "$DEV is still there" || return
	# OpenSM may not notice its port is gone: it is not ibsw's to wait for
	kill "$pid" 2>/dev/null
	for i in 1 2 3 4 5; do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "$(ibsw_ts) opensm gone"
	return 0
}
ibsw_case remove_under_sm remove_under_sm

# rmmod ibsw while OpenSM runs on a management HCA: the HCA goes with the
# module (ib_core closes OpenSM's umad files first), then the switch and
# the hosts' ports, and fabric down copes; the kernel log is checked for
# warnings after the run, kmemleak's too on the debug kernel
unload_under_sm() {
	local pid out cache conf=$IBSW_LOGDIR/opensm-unload.conf

	ibswctl mgmt add "$SW/$MP" name "$DEV" lid 100 || ibsw_fail "mgmt add failed" || return
	GUID=$(ibstat -p "$DEV")
	# The switch and the CAs keep the M_Key the mkey case had OpenSM set;
	# an empty cache, or OpenSM takes the keys of its guid2mkey file (the
	# daemons of before stored 0) over the one configured
	printf 'm_key %s\nm_key_protection_level 2\nm_key_lease_period 0\n' "$MKEY" >"$conf"
	cache=$(mktemp -d)
	ibsw_defer "rm -rf $cache"
	OSM_CACHE_DIR=$cache opensm -F "$conf" -g "$GUID" -f "$IBSW_LOGDIR/opensm-unload.log" \
		>/dev/null 2>&1 &
	pid=$!
	_ibsw_pids+=("$pid")
	port_active() { ibstat "$DEV" 1 | grep -q "State: Active"; }
	wait_for "$DEV ACTIVE under OpenSM" 60 port_active || return
	echo "$(ibsw_ts) rmmod ibsw"
	out=$(timeout 120 rmmod ibsw 2>&1) || ibsw_fail "rmmod ibsw failed or hung: $out" || return
	echo "$(ibsw_ts) rmmod ibsw done"
	[ ! -d /sys/module/ibsw ] || ibsw_fail "ibsw still loaded" || return
	[ ! -e "/sys/class/infiniband/$DEV" ] || ibsw_fail "$DEV survived rmmod" || return
	kill -0 "$pid" 2>/dev/null && echo "opensm still runs, its port gone"
	ibsw_fabric_down || ibsw_fail "fabric down after rmmod failed" || return
	insmod "$IBSW_KO" || ibsw_fail "insmod $IBSW_KO failed" || return
}
ibsw_case unload_under_sm unload_under_sm

ibsw_exit
