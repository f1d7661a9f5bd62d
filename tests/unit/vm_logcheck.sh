#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of scripts/vm-logcheck, the kernel log scanner of scripts/vm:
# it must pass real clean boot logs (with their innocuous "bug" and
# "panic" words) and catch each kind of kernel bug report. Prints
# "PASS: vm_logcheck/CASE" or "FAIL: vm_logcheck/CASE (why)" per case and
# exits 1 if any failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
check=$root/scripts/vm-logcheck
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

result() {	# name, "" or the reason it failed
	if [ -z "$2" ]; then
		echo "PASS: vm_logcheck/$1"
	else
		echo "FAIL: vm_logcheck/$1 ($2)"
		failed=1
	fi
}

# expect_clean NAME [OPTION...]: the log on stdin passes.
expect_clean() {
	local name=$1 out rc
	shift
	cat >"$tmp/$name.log"
	out=$("$check" "$@" "$tmp/$name.log" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ]; then
		result "$name" "exit $rc: $(head -n 1 <<<"$out")"
	else
		result "$name" ""
	fi
}

# expect_hit NAME TEXT: the log on stdin fails, and the report shows TEXT.
expect_hit() {
	local name=$1 text=$2 out rc
	cat >"$tmp/$name.log"
	out=$("$check" "$tmp/$name.log" 2>&1)
	rc=$?
	if [ "$rc" -ne 1 ]; then
		result "$name" "exit $rc, want 1"
	elif ! grep -qF -- "$text" <<<"$out"; then
		result "$name" "report lacks '$text': $(head -n 1 <<<"$out")"
	else
		result "$name" ""
	fi
}

# Excerpts of a clean boot of the Debian 6.12 kernel in the test VM, with
# the lines that contain words like bug, panic, lock, fail or error.
expect_clean clean_boot <<'EOF'
[    0.000000] Linux version 6.12.117+deb12-amd64 (debian-kernel@lists.debian.org) (x86_64-linux-gnu-gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-14)
[    0.000000] Command line: console=ttyS0,115200 loglevel=7 panic=-1 oops=panic 8250.nr_uarts=1
[    0.000000] tsc: Fast TSC calibration failed
[    0.000000] Kernel command line: console=ttyS0,115200 loglevel=7 panic=-1 oops=panic 8250.nr_uarts=1
[    0.000000] RCU Tasks Trace: Setting shift to 1 and lim to 1 rcu_task_cb_adjust=1 rcu_task_cpu_ids=2.
[    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 25 jiffies.
[    0.201970] LSM: initializing lsm=lockdown,capability,landlock,yama,apparmor,tomoyo,bpf,ipe,ima,evm
[    0.884664] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
[    0.924948] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended configuration space under this bridge
[    1.236793] PCI: CLS 0 bytes, default 64
[    2.155663] sched_clock: Marking stable (2204307771, -51144441)->(2279054179, -125890849)
[    2.751508] RAS: Correctable Errors collector initialized.
[    2.951552] x86/mm: Checked W+X mappings: passed, no W+X pages found.
[    4.031209] 9pnet: Installing 9P2000 support
[   12.327048] ibsw: module verification failed: signature and/or required key missing - tainting kernel
[   13.331787] ibsw-vm: loaded /work/main/build/rxe/rdma_rxe.ko and /work/main/drivers/net/ibsw/ibsw.ko
[   13.707753] ibsw-vm: running the command
[   14.112233] IPv6: ADDRCONF(NETDEV_CHANGE): veth-a: link becomes ready
[   20.120000] ib_write_bw[321]: segfault at 0 ip 00007f35a1b2c3d4 sp 00007ffd1c2b3a40 error 4 in libc.so.6[7f35a1a00000+155000]
[   21.416767] ibsw-vm: command exited with status 0
[   21.500000] sysrq: Power Off
[   21.510000] reboot: Power down
EOF

# Words that look bad and are not: config symbols, sysctl names, the
# x86 vulnerability notice the allowlist keeps.
expect_clean innocuous_words <<'EOF'
[    0.000000] Unknown kernel command line parameters "CONFIG_BUG=y BUG_ON=1", will be passed to user space.
[    0.120000] Spectre V2 : WARNING: Unprivileged eBPF is enabled with eIBRS on, data leaks possible via Spectre v2 BHB attacks!
[    0.120001] RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable to RETBleed attacks, data leaks possible!
[    0.300000] DEBUG_BUGVERBOSE enabled
[    1.000000] NMI watchdog: Perf NMI watchdog permanently disabled
[    1.000001] sysctl: kernel.hung_task_timeout_secs = 120
[    1.000002] rcu: Hierarchical RCU implementation.
EOF

expect_clean empty </dev/null

expect_hit warning 'WARNING: CPU: 1 PID: 42 at net/core/dev.c:11367' <<'EOF'
[   42.123450] ------------[ cut here ]------------
[   42.123456] WARNING: CPU: 1 PID: 42 at net/core/dev.c:11367 unregister_netdevice_many_notify+0x7b1/0x8c0
[   42.123500] Modules linked in: ibsw(OE) rdma_rxe(OE) ib_uverbs ib_core ip6_udp_tunnel udp_tunnel 9p netfs overlay
[   42.123550] CPU: 1 UID: 0 PID: 42 Comm: ip Tainted: G           OE      6.12.117+deb12-amd64 #1  Debian 6.12.117-1~deb12u1
[   42.123600] RIP: 0010:unregister_netdevice_many_notify+0x7b1/0x8c0
[   42.123700] Call Trace:
[   42.123710]  <TASK>
[   42.123800] ---[ end trace 0000000000000000 ]---
EOF

expect_hit kasan 'BUG: KASAN: slab-use-after-free in rxe_qp_do_cleanup' <<'EOF'
[   55.000001] ==================================================================
[   55.000002] BUG: KASAN: slab-use-after-free in rxe_qp_do_cleanup+0x3c/0x2a0 [rdma_rxe]
[   55.000003] Read of size 8 at addr ffff888106f2a0c8 by task kworker/1:2/97
EOF

expect_hit lockdep_circular 'WARNING: possible circular locking dependency detected' <<'EOF'
[   61.200000] ======================================================
[   61.200001] WARNING: possible circular locking dependency detected
[   61.200002] 6.12.117-dbg #1 Tainted: G           OE
[   61.200003] ------------------------------------------------------
[   61.200004] rdma/212 is trying to acquire lock:
EOF

expect_hit lockdep_recursive 'WARNING: possible recursive locking detected' <<'EOF'
[   61.300001] WARNING: possible recursive locking detected
EOF

expect_hit suspicious_rcu 'WARNING: suspicious RCU usage' <<'EOF'
[   61.400000] =============================
[   61.400001] WARNING: suspicious RCU usage
[   61.400002] 6.12.117-dbg #1 Not tainted
EOF

expect_hit netdev_leak 'unregister_netdevice: waiting for veth0 to become free. Usage count = 2' <<'EOF'
[  130.555555] unregister_netdevice: waiting for veth0 to become free. Usage count = 2
EOF

expect_hit null_deref 'BUG: kernel NULL pointer dereference, address: 0000000000000008' <<'EOF'
[   70.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008
[   70.000002] #PF: supervisor read access in kernel mode
[   70.000003] Oops: Oops: 0000 [#1] PREEMPT SMP NOPTI
EOF

expect_hit gpf 'general protection fault, probably for non-canonical address' <<'EOF'
[   71.000001] Oops: general protection fault, probably for non-canonical address 0xdead000000000122: 0000 [#1] PREEMPT SMP NOPTI
EOF

expect_hit oops_int3 'Oops: int3: 0000 [#1] PREEMPT SMP NOPTI' <<'EOF'
[    3.654017] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
EOF

expect_hit bug_on 'kernel BUG at drivers/net/ibsw/port.c:77!' <<'EOF'
[   72.000001] ------------[ cut here ]------------
[   72.000002] kernel BUG at drivers/net/ibsw/port.c:77!
EOF

expect_hit panic 'Kernel panic - not syncing: Fatal exception' <<'EOF'
[   73.000001] Kernel panic - not syncing: Fatal exception
[   73.000002] Kernel Offset: 0x1a000000 from 0xffffffff81000000 (relocation range: 0xffffffff80000000-0xffffffffbfffffff)
EOF

# scripts/vm appends the kmemleak report (without time stamps).
expect_hit kmemleak 'unreferenced object 0xffff888104a4e000 (size 2048):' <<'EOF'
unreferenced object 0xffff888104a4e000 (size 2048):
  comm "modprobe", pid 201, jiffies 4294903456
  hex dump (first 32 bytes):
  backtrace (crc 5a1c2b3d):
    [<ffffffffa0123456>] kmalloc_trace_noprof+0x2a6/0x340
EOF

expect_hit soft_lockup 'watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [kworker/1:2:123]' <<'EOF'
[  200.000001] watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [kworker/1:2:123]
EOF

expect_hit hard_lockup 'Watchdog detected hard LOCKUP on cpu 1' <<'EOF'
[  201.000001] NMI watchdog: Watchdog detected hard LOCKUP on cpu 1
EOF

expect_hit rcu_stall 'rcu: INFO: rcu_preempt self-detected stall on CPU' <<'EOF'
[  202.000001] rcu: INFO: rcu_preempt self-detected stall on CPU
[  202.000002] rcu: 	1-....: (21002 ticks this GP) idle=5f4c/1/0x4000000000000000 softirq=2340/2340 fqs=5176
EOF

expect_hit rcu_stalls 'rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' <<'EOF'
[  202.100001] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
EOF

expect_hit hung_task 'INFO: task kworker/u8:3:77 blocked for more than 122 seconds.' <<'EOF'
[  245.000001] INFO: task kworker/u8:3:77 blocked for more than 122 seconds.
[  245.000002]       Tainted: G           OE      6.12.117+deb12-amd64 #1
[  245.000003] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.
EOF

expect_hit ubsan 'UBSAN: array-index-out-of-bounds in drivers/net/ibsw/switch.c:120:9' <<'EOF'
[   80.000001] UBSAN: array-index-out-of-bounds in drivers/net/ibsw/switch.c:120:9
EOF

expect_hit slub 'BUG kmalloc-64 (Tainted: G    B      OE     ): Poison overwritten' <<'EOF'
[   81.000001] =============================================================================
[   81.000002] BUG kmalloc-64 (Tainted: G    B      OE     ): Poison overwritten
EOF

expect_hit sleep_in_atomic 'BUG: sleeping function called from invalid context' <<'EOF'
[   82.000001] BUG: sleeping function called from invalid context at kernel/locking/mutex.c:283
EOF

# The serial console ends lines with CR LF; CONFIG_PRINTK_CALLER adds a
# caller field after the time stamp.
printf '[   1.000000][    T1] WARNING: CPU: 0 PID: 1 at kernel/foo.c:1 foo+0x1/0x2\r\n' |
	expect_hit crlf_caller 'WARNING: CPU: 0 PID: 1 at kernel/foo.c:1 foo+0x1/0x2'

# The same message in the console capture and in dmesg is reported once.
case_dedup() {
	local out
	echo '[    5.000000] WARNING: CPU: 1 PID: 9 at net/core/dev.c:1 x+0x1/0x2' >"$tmp/a.log"
	printf '[    1.000000] clean\r\n[    5.000000] WARNING: CPU: 1 PID: 9 at net/core/dev.c:1 x+0x1/0x2\r\n' >"$tmp/b.log"
	out=$("$check" "$tmp/a.log" "$tmp/b.log")
	[ $? -eq 1 ] || { result dedup "exit status not 1"; return; }
	[ "$(wc -l <<<"$out")" -eq 1 ] || { result dedup "$(wc -l <<<"$out") lines reported"; return; }
	[[ $out == a.log:1:* ]] || { result dedup "reported as '$out'"; return; }
	result dedup ""
}
case_dedup

# -a: a test that warns on purpose.
expect_clean allow_option -a 'WARNING: CPU: [0-9]+ PID: [0-9]+ at drivers/net/ibsw/selftest\.c' <<'EOF'
[   90.000001] WARNING: CPU: 0 PID: 300 at drivers/net/ibsw/selftest.c:12 ibsw_selftest+0x10/0x20 [ibsw]
EOF

# -e: an expected report (warn_alloc() after an allocation failed on
# purpose) and its stack dump are ignored; what follows it is not.
vmalloc_report() {
	cat <<'EOF'
[ 2030.376822] rping: vmalloc error: size 12288, failed to allocated page array size 24, mode:0xdc2(GFP_KERNEL|__GFP_HIGHMEM|__GFP_ZERO), nodemask=(null),cpuset=/,mems_allowed=0
[ 2030.380410] CPU: 0 UID: 0 PID: 3544 Comm: rping Tainted: G           O       6.12.117-ibsw-debug #1
[ 2030.380937] Call Trace:
[ 2030.381001]  <TASK>
[ 2030.381101]  dump_stack_lvl+0x80/0xa0
[ 2030.381977]  warn_alloc+0x24a/0x390
[ 2030.382835]  rxe_queue_init+0x23d/0x4a0 [rdma_rxe]
[ 2030.385854]  </TASK>
[ 2030.391670] Mem-Info:
EOF
}
vmalloc_report | expect_clean expect_option -e 'vmalloc error: size'
{
	vmalloc_report
	echo '[ 2031.000000] WARNING: CPU: 1 PID: 7 at drivers/net/ibsw/engine.c:10 x+0x1/0x2 [ibsw]'
} >"$tmp/expect_then.log"
out=$("$check" -e 'vmalloc error: size' "$tmp/expect_then.log")
if [ $? -eq 1 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && [[ $out == *engine.c:10* ]]; then
	result expect_then_warning ""
else
	result expect_then_warning "got: $out"
fi
vmalloc_report | expect_hit expect_needed 'Call Trace:'

# -m: at most MAX lines, then how many more.
case_max() {
	local out
	printf '[ 1.0] BUG: a\n[ 2.0] BUG: b\n[ 3.0] BUG: c\n' >"$tmp/max.log"
	out=$("$check" -m 2 "$tmp/max.log")
	if [ $? -eq 1 ] && [ "$(wc -l <<<"$out")" -eq 3 ] &&
		[ "$(tail -n 1 <<<"$out")" = "... and 1 more" ]; then
		result max ""
	else
		result max "got: $out"
	fi
}
case_max

case_missing_file() {
	"$check" "$tmp/does-not-exist.log" >/dev/null 2>&1
	local rc=$?
	if [ "$rc" -eq 2 ]; then
		result missing_file ""
	else
		result missing_file "exit $rc, want 2"
	fi
}
case_missing_file

exit "$failed"
