#!/bin/bash
# vm-options: --no-modules
# cpu: shared
# duration: 280
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages ('make packages') as a user installs them, in a VM
# without the checkout's modules (its root is a tmpfs overlay: nothing
# reaches the host): dpkg installs ibsw-tools and ibsw-dkms, DKMS puts the
# modules in updates/dkms, modprobe loads them the way a user's would, and
# README.md's "A fabric in three commands" runs as written with the
# installed programs only (PATH without the checkout, in a directory
# without topologies). Then dpkg removes both packages and what DKMS
# installed.
#
# DKMS's build itself is the host's (scripts/packages, checked by the
# unit test packages), as a DKMS tarball where the package's postinst
# looks for prebuilt modules (/usr/share/ibsw-dkms/ibsw-VERSION.dkms.tar.gz,
# dkms ldtarball): the postinst finds the modules built and installs them.
# Under TCG the build would take 20 minutes.
# shellcheck source=tests/lib.sh disable=SC2317
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/lib/readme.sh
. "$(dirname "$0")/../lib/readme.sh"

README_OUT=$IBSW_LOGDIR/readme.out
README_RESULTS=$IBSW_LOGDIR/results
PKG=$IBSW_BUILD/packages
VERSION=$(cat "$IBSW_ROOT/VERSION")
KVER=$(uname -r)
USER_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
IBSW_TOOL_TIMEOUT=60

ibsw_require_root
# make debugcheck: DKMS has no headers package to build for a kernel built
# here, and what this test checks is packaging, not the kernel's
case $KVER in
*-ibsw-debug) ibsw_setup_skip "no packages for the debug kernel $KVER: DKMS has no headers package for it" ;;
esac
TOOLS_DEB=$PKG/ibsw-tools_${VERSION}_$(dpkg --print-architecture).deb
DKMS_DEB=$PKG/ibsw-dkms_${VERSION}_all.deb
BUILT=$PKG/dkms/ibsw-$VERSION-$KVER.dkms.tar.gz
PREBUILT=/usr/share/ibsw-dkms/ibsw-$VERSION.dkms.tar.gz
for f in "$TOOLS_DEB" "$DKMS_DEB" "$BUILT"; do
	[ -e "$f" ] || ibsw_setup_fail "$f missing: run make packages"
done
! [ -d /sys/module/ibsw ] || ibsw_setup_fail "ibsw is loaded: run with scripts/vm --no-modules"
ibsw_rxe_unload >>"$IBSW_CASE_LOG" 2>&1 || ibsw_setup_fail "cannot unload rdma_rxe"
# man-db's trigger would index every page, for minutes under TCG
rm -f /var/lib/man-db/auto-update
# The postinst builds for the running and the newest kernel: the guest
# has the headers of the running one only, as a machine that installed
# its kernel's headers (the host may have several)
for d in /lib/modules/*/build; do
	[ "$d" = "/lib/modules/$KVER/build" ] || rm -f "$d"
done

# DKMS runs depmod at install and at removal, and depmod decompresses
# every module of the kernel: 4230 took 2 minutes each time under TCG (2 s
# on a real machine). Show it the modules this test can load only: net
# but netfilter, arch, crypto (rxe asks for crc32), lib,
# drivers/infiniband, drivers/net's top level (veth)
# and every module loaded now. The tree is a tmpfs over the
# kernel's; depmod, modprobe and DKMS work on it as on the whole one.
trim_modules() {
	local kdir=/lib/modules/$KVER/kernel full d f keep=()

	for d in "$kdir"/net/*; do
		[ "${d##*/}" = netfilter ] || keep+=("${d#"$kdir"/}")
	done
	keep+=(arch crypto lib drivers/infiniband)
	for f in "$kdir"/drivers/net/*.ko*; do
		keep+=("${f#"$kdir"/}")
	done
	while read -r d _; do
		f=$(modinfo -n "$d" 2>/dev/null) || continue
		[ "${f#"$kdir"/}" = "$f" ] || keep+=("${f#"$kdir"/}")
	done </proc/modules

	full=$(mktemp -d) || return
	mount --bind "$kdir" "$full" || return
	ibsw_defer umount "$full"
	mount -t tmpfs ibsw-modules "$kdir" || return
	ibsw_defer umount "$kdir"
	for d in "${keep[@]}"; do
		[ -e "$kdir/$d" ] && continue
		if [ -d "$full/$d" ]; then
			mkdir -p "$kdir/$d" && mount --bind "$full/$d" "$kdir/$d" ||
				return
			ibsw_defer umount "$kdir/$d"
		else
			mkdir -p "$kdir/${d%/*}" && cp -a "$full/$d" "$kdir/$d" ||
				return
		fi
	done
	echo "depmod sees $(find "$kdir"/ -name '*.ko*' | wc -l) modules"
}

trim_modules >>"$IBSW_CASE_LOG" 2>&1 || ibsw_setup_fail "cannot hide the modules depmod need not read"

BLOCK=$(readme_block)
[ -n "$BLOCK" ] || ibsw_setup_fail "no code block under \"$README_HEADING\" in README.md"
WORK=$(mktemp -d)
ibsw_defer rm -rf "$WORK" "$PREBUILT"
ibsw_defer readme_cleanup

# dpkg_do ARGS...: dpkg, its output in the case log
dpkg_do() {
	DEBIAN_FRONTEND=noninteractive timeout 600 dpkg "$@" >>"$IBSW_CASE_LOG" 2>&1 ||
		ibsw_fail "dpkg $* failed: $(tail -n 3 "$IBSW_CASE_LOG")"
}

install_tools() {
	dpkg_do -i "$TOOLS_DEB" || return
	[ "$(env PATH="$USER_PATH" which ibswctl)" = /usr/sbin/ibswctl ] ||
		ibsw_fail "ibswctl is not /usr/sbin/ibswctl in a user's PATH" || return
	[ "$(env PATH="$USER_PATH" which ibsw-run)" = /usr/bin/ibsw-run ] ||
		ibsw_fail "ibsw-run is not /usr/bin/ibsw-run"
}

# The postinst loads the prebuilt modules and installs them
install_dkms() {
	local m f

	mkdir -p "${PREBUILT%/*}"
	cp "$BUILT" "$PREBUILT" || ibsw_fail "cannot copy $BUILT" || return
	dpkg_do -i "$DKMS_DEB" || return
	dkms status ibsw | tee -a "$IBSW_CASE_LOG" | grep -q "ibsw/$VERSION, $KVER, x86_64: installed" ||
		ibsw_fail "dkms status: $(dkms status ibsw)" || return
	for m in ibsw rdma_rxe; do
		f=$(modinfo -n "$m" 2>/dev/null)
		case $f in
		/lib/modules/"$KVER"/updates/dkms/"$m".ko*) ;;
		*) ibsw_fail "modinfo -n $m: '$f', not updates/dkms" || return ;;
		esac
	done
}

# modprobe ibsw and rdma_rxe, as a user would: the patched rdma_rxe from
# updates/dkms, not the kernel's
modprobe_modules() {
	modprobe ibsw || ibsw_fail "modprobe ibsw failed" || return
	[ -d /sys/class/ibsw ] || ibsw_fail "no /sys/class/ibsw after modprobe ibsw" || return
	modprobe rdma_rxe || ibsw_fail "modprobe rdma_rxe failed" || return
	ibsw_rxe_patched || ibsw_fail "the loaded rdma_rxe is the kernel's, not the patched one"
}

readme() {
	local here=$PWD rc=0

	cd "$WORK" || return
	PATH=$USER_PATH readme_run "$BLOCK" || rc=$?
	cd "$here" || return
	return "$rc"
}

remove() {
	local f m

	for m in ibsw rdma_rxe; do
		! [ -d "/sys/module/$m" ] || rmmod "$m" || ibsw_fail "rmmod $m failed" || return
	done
	dpkg_do -r ibsw-dkms ibsw-tools || return
	f=$(ls /lib/modules/"$KVER"/updates/dkms/ 2>/dev/null)
	[ -z "$f" ] || ibsw_fail "left in updates/dkms: $f" || return
	for f in /usr/sbin/ibswctl /usr/bin/ibsw-run /usr/src/ibsw-"$VERSION"/dkms.conf; do
		[ ! -e "$f" ] || ibsw_fail "$f left" || return
	done
	case $(modinfo -n rdma_rxe) in
	*/kernel/drivers/infiniband/sw/rxe/*) ;;
	*) ibsw_fail "modinfo -n rdma_rxe: $(modinfo -n rdma_rxe), not the kernel's" ;;
	esac
}

ibsw_case install_tools install_tools
ibsw_case install_dkms install_dkms
ibsw_case modprobe modprobe_modules
ibsw_case readme readme
ibsw_case bandwidth readme_bandwidth
ibsw_case counters readme_counters
ibsw_case teardown readme_teardown
ibsw_case remove remove

[ -s "$README_RESULTS" ] && while read -r l; do ibsw_note "$l"; done <"$README_RESULTS"

ibsw_exit
