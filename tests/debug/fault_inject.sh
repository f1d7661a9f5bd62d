#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -t 3600 --log-expect vmalloc.error:.size|page.allocation.failure:.order
# (warn_alloc()'s reports of the allocations failed on purpose)
#
# Fault injection on the debug kernel (make debugcheck; scripts/debug.config
# has failslab, fail_page_alloc and their stack filter). Memory allocations
# made on behalf of module code (a frame of the module area on the stack)
# are failed in turn, one per run, with /proc/PID/fail-nth: every one of
# loading ibsw.ko; the first 64, then sampled ones, of adding a switch, a
# link, a host port and of changing a port's VLs; sampled ones (the first
# ten, then ever further apart) of adding a management HCA (ib_core's
# registration), an rxe device on a host port, and a whole fabric with
# `ibswctl fabric up`. Each run that met its failure either fails with a
# message and leaves everything as it was, or succeeds (the failure was one
# it may tolerate) and is undone; the run that meets none succeeds and ends
# the sweep. Then failures at random under traffic, in ibsw's code and then
# in rdma_rxe's: RDMA, neighbour resolution and SMPs go on or fail cleanly,
# and all of it works again once the injection stops. KASAN, lockdep and
# kmemleak (scripts/vm-init's scans after the command) judge what the
# failures left behind.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"

DBG=/sys/kernel/debug
ATTRS=(failslab fail_page_alloc)
# x86_64 with KASLR (x86_64_defconfig): MODULES_VADDR to MODULES_END
MOD_START=0xffffffffc0000000
MOD_END=0xffffffffff000000
SW_A=fia-$IBSW_SFX
SW_B=fib-$IBSW_SFX
NS=fi-$IBSW_SFX

ibsw_require_ibsw
[ -e "$DBG/failslab/require-start" ] && [ -e "$DBG/fail_page_alloc/require-start" ] ||
	ibsw_setup_fail "no failslab and fail_page_alloc with a stack filter: a debug kernel's test (make debugcheck)"
[ -w /proc/self/fail-nth ] || ibsw_setup_fail "no /proc/self/fail-nth"
KO=${IBSW_KO:-}
[ -f "$KO" ] || ibsw_setup_fail "no ibsw.ko (IBSW_KO '$KO')"
# The allocations of a sampled sweep
SAMPLE="1 2 3 4 5 6 7 8 9 10 12 15 20 25 30 40 50 65 80 100 130 160 200 250 320 400 500 650 800
	1000 1300 1600 2000 2500 3200 4000 5000 6500 8000 10000 13000 16000 20000 25000
	32000 40000 50000 65000 80000 100000"
# The module area above must hold the modules' code
while read -r addr _ sym mod; do
	[ $((16#$addr >= MOD_START && 16#$addr < MOD_END)) = 1 ] ||
		ibsw_setup_fail "$sym $mod at 0x$addr: outside the module area $MOD_START-$MOD_END"
done < <(awk '$4 == "[ibsw]" || $4 == "[rdma_rxe]"' /proc/kallsyms | sed -n '1p;$p')

# No failures inside net/core's netdev_register_kobject(): when one of its
# queue kobjects ("tx-11") fails to be added, register_netdevice() fails,
# and free_netdev(), which its caller must then call, frees the queues at
# once, while with CONFIG_DEBUG_KOBJECT_RELEASE the releases of those
# already added are still pending ("ODEBUG: free active ... timer_list
# hint: kobject_delayed_cleanup", then ref_tracker's WARNING). That is the
# debug option against net/core's error path, which ibsw cannot change.
REJECT=$(awk '{ print $1, $3 }' /proc/kallsyms | sort -u |
	awk '$2 == "netdev_register_kobject" { start = $1; next }
	     start != "" && $1 != start { print "0x" start, "0x" $1; exit }')
[ -n "$REJECT" ] || ibsw_setup_fail "netdev_register_kobject is not in /proc/kallsyms"

# ---------------------------------------------------------------- injection

fi_set() { echo "$2" >"$DBG/$1"; }

# fi_config RANGE_START RANGE_END PROBABILITY TIMES: both capabilities fail
# allocations whose stack has a frame in [START, END): the fail-nth one of a
# task that sets it, and with PROBABILITY (percent) any other, in any
# context, up to TIMES of them (-1: no limit). GFP_KERNEL allocations and
# order-0 pages too, which both leave alone by default.
fi_config() {
	local a

	for a in "${ATTRS[@]}"; do
		fi_set "$a/probability" 0
		fi_set "$a/require-start" "$1"
		fi_set "$a/require-end" "$2"
		fi_set "$a/reject-start" "${REJECT% *}"
		fi_set "$a/reject-end" "${REJECT#* }"
		fi_set "$a/stacktrace-depth" 32
		fi_set "$a/interval" 1
		fi_set "$a/space" 0
		fi_set "$a/task-filter" N
		fi_set "$a/ignore-gfp-wait" N
		fi_set "$a/verbose" 1
		fi_set "$a/times" "$4"
		fi_set "$a/probability" "$3"
	done
	fi_set fail_page_alloc/ignore-gfp-highmem N
	fi_set fail_page_alloc/min-order 0
}
fi_off() {
	local a

	for a in "${ATTRS[@]}"; do
		fi_set "$a/probability" 0
		fi_set "$a/times" 1
	done
}
ibsw_defer fi_off

# fi_met: which capability failed an allocation since fi_config set its
# times to 1 ("" if none); rearms it. Here and in fi_state, bash builtins
# only: a process takes a second or more to start on this kernel.
fi_met() {
	local a met=

	for a in "${ATTRS[@]}"; do
		if [ "$(<"$DBG/$a/times")" = 0 ]; then
			met+=" $a"
			fi_set "$a/times" 1
		fi
	done
	echo "${met# }"
}

# fi_run N CMD...: CMD with its N-th allocation (of those the filter takes)
# failed, set by the subshell that then becomes CMD. fail-nth survives
# exec, not fork: CMD's own children run clean.
fi_run() {
	(echo "$1" >/proc/self/fail-nth && shift && exec "$@")
}

# What the sweeps compare: whether ibsw is loaded, the netdevs of this
# namespace, the namespaces, the RDMA devices, the switches' ports and
# what each has (a host, a link...); FI_PORT's VLs.
fi_state() {
	local f

	[ -d /sys/module/ibsw ] && echo "ibsw loaded"
	echo /sys/class/net/* /run/netns/* /sys/class/infiniband/*
	for f in /sys/class/ibsw/*/ports/*/kind; do
		[ -e "$f" ] && echo "$f: $(<"$f")"
	done
	if [ -n "${FI_PORT:-}" ]; then
		f=/sys/class/ibsw/${FI_PORT%/*}/ports/${FI_PORT#*/}
		echo "$f/vls:" "$f"/vls/*
	fi
}

# fi_sweep MAX UNDO CMD...: run CMD with its first, second... allocation
# failed until a run meets no failure: every one of the first 64, then the
# SAMPLE ones up to MAX (a switch's sysfs files alone are a thousand
# allocations, most of them the same few lines run again). UNDO undoes a
# run that succeeded. FI_STEPS (a list of N) replaces these.
fi_sweep() {
	local max=$1 undo=$2 before after n rc out met handled=0 tolerated=0 i=0
	local -a steps
	shift 2

	before=$(fi_state)
	# shellcheck disable=SC2206 # a list of numbers
	steps=(${FI_STEPS:-$(seq 64; for n in $SAMPLE; do [ "$n" -le 64 ] || [ "$n" -gt "$max" ] || echo "$n"; done)})
	fi_config "$MOD_START" "$MOD_END" 0 1
	for n in "${steps[@]}"; do
		i=$((i + 1))
		out=$(fi_run "$n" "$@" 2>&1)
		rc=$?
		met=$(fi_met)
		if [ -z "$met" ]; then
			[ "$rc" = 0 ] || { echo "$out"; ibsw_fail "$*: failed with no allocation failed (n=$n)"; return; }
			$undo || ibsw_fail "$*: $undo failed after the clean run" || return
			after=$(fi_state)
			[ "$after" = "$before" ] ||
				{ diff <(echo "$before") <(echo "$after"); ibsw_fail "$*: $undo left changes"; return; }
			echo "$*: allocation $n not reached, $((i - 1)) runs each with one failed:" \
				"$handled refused the command, $tolerated tolerated"
			return 0
		fi
		if [ "$rc" = 0 ]; then
			tolerated=$((tolerated + 1))
			echo "n=$n ($met): succeeded"
			$undo || ibsw_fail "$*: $undo failed after allocation $n ($met) was failed" || return
		else
			handled=$((handled + 1))
			echo "n=$n ($met): exit $rc: $(ibsw_last_line "$out")"
			[ -n "$out" ] || ibsw_fail "$*: exit $rc without a message (allocation $n, $met)" || return
		fi
		after=$(fi_state)
		[ "$after" = "$before" ] || {
			diff <(echo "$before") <(echo "$after")
			ibsw_fail "$*: allocation $n ($met) failed, the command exited $rc and left changes"
			return
		}
	done
	ibsw_fail "$*: still failing allocations after ${#steps[@]} runs"
}

# ------------------------------------------------------------------ sweeps

# insmod: the module loader's allocations from ibsw_init on, and ibsw's.
# The module is back, loaded clean, whatever happens.
module_load() {
	local rc

	[ -z "$(ls /sys/class/ibsw 2>/dev/null)" ] || ibsw_fail "switches left before rmmod" || return
	rmmod ibsw || ibsw_fail "rmmod ibsw failed" || return
	FI_STEPS=$(seq 200) fi_sweep 0 "rmmod ibsw" insmod "$KO"
	rc=$?
	fi_off
	[ -d /sys/module/ibsw ] || insmod "$KO" || ibsw_fail "insmod $KO failed" || return
	return "$rc"
}
ibsw_case module_load module_load

switch_add() {
	fi_sweep 2000 "ibswctl switch del $SW_A" ibswctl switch add "$SW_A" ports 2
}
ibsw_case switch_add switch_add

with_switches() {
	ibswctl switch add "$SW_A" ports 8 && ibswctl switch add "$SW_B" ports 8 ||
		ibsw_fail "cannot add the switches" || return
	ibsw_defer "ibswctl switch del $SW_A 2>/dev/null; ibswctl switch del $SW_B 2>/dev/null"
	ip netns add "$NS" || ibsw_fail "ip netns add $NS failed" || return
	ibsw_defer "ip netns del $NS"
}
ibsw_case setup with_switches

link_add() {
	fi_sweep 2000 "ibswctl link del $SW_A/1" ibswctl link add "$SW_A/1" "$SW_B/1" rate 4xQDR
}
ibsw_case link_add link_add

host_add() {
	fi_sweep 2000 "ibswctl host del $SW_A/2" ibswctl host add "$SW_A/2" name fi0 netns "$NS"
}
ibsw_case host_add host_add

# A port's VLs, 1 to all of them: their sysfs directories, engine queues
# and arbitration tables.
port_vls() {
	local FI_PORT=$SW_A/3

	ibswctl port set "$FI_PORT" vls 1 || ibsw_fail "port set vls 1 failed" || return
	fi_sweep 2000 "ibswctl port set $FI_PORT vls 1" ibswctl port set "$FI_PORT" vls 15
}
ibsw_case port_vls port_vls

mgmt_add() {
	FI_STEPS=$SAMPLE fi_sweep 0 "ibswctl mgmt del $SW_A/4" ibswctl mgmt add "$SW_A/4" name fimgmt0
}
ibsw_case mgmt_add mgmt_add

# rdma_rxe's newlink and ib_core's registration, on a host port
rxe_add() {
	ibswctl host add "$SW_B/2" name fi1 netns "$NS" || ibsw_fail "host add failed" || return
	ibsw_defer "ibswctl host del $SW_B/2"
	FI_STEPS=$SAMPLE fi_sweep 0 "ip netns exec $NS rdma link del firxe0" \
		ip netns exec "$NS" rdma link add firxe0 type rxe netdev fi1
}
ibsw_case rxe_add rxe_add

# A whole fabric: ibswctl's many requests, and its undo of what it did when
# one fails.
fabric_up() {
	local topo=$IBSW_ROOT/topologies/one-switch.net desc=$IBSW_LOGDIR/fi-fabric.json

	FI_STEPS=$SAMPLE fi_sweep 0 "ibswctl fabric down desc $desc" ibswctl fabric up "$topo" desc "$desc"
}
ibsw_case fabric_up fabric_up

# ------------------------------------------------------- under traffic

# fi_random START END: fail 10% of the allocations of that range, anywhere,
# until fi_random_stop; prints how many were failed.
fi_random() { fi_config "$1" "$2" 10 1000000; }
fi_random_stop() {
	local a n=0

	for a in "${ATTRS[@]}"; do
		fi_set "$a/probability" 0
		n=$((n + 1000000 - $(cat "$DBG/$a/times")))
	done
	echo "$n"
}

# [START, END) of a module's code, from its symbols (the last one's size
# unknown: a page more)
mod_text() {
	awk -v m="[$1]" '$4 == m && ($2 == "t" || $2 == "T") { print $1 }' /proc/kallsyms |
		sort | sed -n '1p;$p' | { read -r lo; read -r hi; echo "0x$lo 0x$(printf '%x' $((16#$hi + 4096)))"; }
}

# Traffic through the fabric while FI fails allocations: rping and
# ibv_rc_pingpong between the hosts, neighbour entries flushed and
# resolved again, SMPs from a management HCA to the switch. Each may fail;
# none may crash, warn or leak.
traffic() {
	local i

	for i in 1 2 3; do
		hx H1 ip neigh flush dev "${HOST_DEV[H1]}"
		hx H2 ip neigh flush dev "${HOST_DEV[H2]}"
		IBSW_TOOL_TIMEOUT=30 rp H2 H1 || echo "rping: ${_ibsw_reason:-failed}"
		IBSW_TOOL_TIMEOUT=30 rc H1 H2 || echo "rc_pingpong: ${_ibsw_reason:-failed}"
		for _ in $(seq 10); do
			timeout 10 smpquery -C "$MGMT_DEV" -P 1 -D nodeinfo 0,1 >/dev/null ||
				echo "smpquery failed"
		done
	done
	_ibsw_reason=
}

works() {
	ibsw_case "$1_after_rping" rp H2 H1
	ibsw_case "$1_after_rc_pingpong" rc H1 H2
	ibsw_case "$1_after_smpquery" smp_works
}
smp_works() { timeout 20 smpquery -C "$MGMT_DEV" -P 1 -D nodeinfo 0,1; }

# under MODULE NAME: random failures in MODULE's code under traffic
under() {
	local range n

	range=$(mod_text "$1")
	echo "$1's code: $range"
	# shellcheck disable=SC2086 # two words
	fi_random $range
	traffic
	n=$(fi_random_stop)
	echo "$1: $n allocations failed under traffic"
	[ "$n" -gt 0 ] || ibsw_fail "no allocation of $1 failed under traffic" || return
	ibsw_note "under_traffic_$1: $n allocations failed"
}

fabric() {
	modprobe ib_umad || ibsw_fail "modprobe ib_umad failed" || return
	ibswctl switch del "$SW_A" && ibswctl switch del "$SW_B" || return
	ibsw_fabric_up "$IBSW_ROOT/topologies/one-switch.net" || return
	MGMT_DEV=fitm0
	ibswctl mgmt add "${HOST_SW[H1]}/3" name "$MGMT_DEV" || ibsw_fail "mgmt add failed" || return
	wait_for "$MGMT_DEV" 20 smp_works >/dev/null
}
ibsw_case fabric fabric
ibsw_case under_traffic_ibsw under ibsw
works ibsw
ibsw_case under_traffic_rdma_rxe under rdma_rxe
works rdma_rxe

ibsw_exit
