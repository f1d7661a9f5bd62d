#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of the Debian packages and the DKMS tree ('make packages',
# scripts/packages, which this runs when its products are missing): the
# packages were built and lintian (pedantic, experimental) found nothing;
# what each package holds and depends on; DKMS's build of ibsw for every
# kernel here whose series has an rxe series (both modules, for that
# kernel); a kernel of another series refused, by DKMS (BUILD_EXCLUSIVE)
# and by scripts/dkms-build with a message that says why.
# Prints "PASS: packages/CASE" or "FAIL: packages/CASE (why)" per case and
# exits 1 if any failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/common.sh
. "$root/scripts/common.sh"
out=$IBSW_BUILD/packages
version=$(cat "$root/VERSION")
arch=$(dpkg --print-architecture)
tools_deb=$out/ibsw-tools_${version}_$arch.deb
dkms_deb=$out/ibsw-dkms_${version}_all.deb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

result() {	# name, "" or the reason it failed
	if [ -z "$2" ]; then
		echo "PASS: packages/$1"
	else
		echo "FAIL: packages/$1 ($2)"
		failed=1
	fi
}

# build: the packages are there and lintian is silent
why=
if [ ! -f "$tools_deb" ] || [ ! -f "$dkms_deb" ] || [ ! -d "$out/dkms" ]; then
	"$root/scripts/packages" >"$tmp/packages.log" 2>&1 ||
		why="scripts/packages failed: $(tail -n 5 "$tmp/packages.log")"
fi
for f in "$tools_deb" "$dkms_deb"; do
	[ -f "$f" ] || why+=" ${f##*/} missing"
done
lint=$(grep -v '^running with root privileges' "$out/lintian.log" 2>/dev/null)
[ -z "$lint" ] || why+=" lintian: $lint"
result build "$why"

# tools: the programs, pages, data and unit, the libraries they link
why=
list=$(dpkg-deb -c "$tools_deb" 2>&1 | awk '{ print $6 }' | sed 's|^\.||')
for f in /usr/sbin/ibswctl /usr/sbin/dcms /usr/sbin/ibsw-ccmad /usr/bin/ibsw-run \
	/usr/lib/ibsw/ibswrun/scenario.py /usr/share/ibsw/topologies/seed002.net \
	/usr/share/ibsw/scenarios/seed002-s1.scn /usr/share/man/man8/ibswctl.8.gz \
	/usr/share/man/man1/ibsw-run.1.gz /lib/systemd/system/dcms.service \
	/usr/share/doc/ibsw-tools/copyright; do
	grep -qxF "$f" <<<"$list" || why+=" $f missing"
done
! grep -q '^/lib/modules/\|^/usr/src/' <<<"$list" || why+=" holds modules"
dep=$(dpkg-deb -f "$tools_deb" Depends)
for p in libmnl0 libibumad3 python3; do
	grep -q "\b$p\b" <<<"$dep" || why+=" Depends lacks $p: $dep"
done
result tools "$why"

# dkms: the source tree and its dkms.conf, DKMS run by the maintainer scripts
why=
list=$(dpkg-deb -c "$dkms_deb" 2>&1 | awk '{ print $6 }' | sed 's|^\.||')
src=/usr/src/ibsw-$version
for f in "$src/dkms.conf" "$src/Kbuild" "$src/drivers/net/ibsw/main.c" \
	"$src/include/uapi/linux/ibsw.h" "$src/scripts/dkms-build" \
	"$src/drivers/infiniband/sw/rxe/patches/0001-RDMA-rxe-Support-network-namespaces.patch"; do
	grep -qxF "$f" <<<"$list" || why+=" $f missing"
done
! grep -q '\.o$\|\.ko$' <<<"$list" || why+=" holds build products"
dpkg-deb --fsys-tarfile "$dkms_deb" | tar -xOf - ".$src/dkms.conf" >"$tmp/dkms.conf" 2>/dev/null
grep -qx "PACKAGE_VERSION=\"$version\"" "$tmp/dkms.conf" || why+=" dkms.conf: no PACKAGE_VERSION $version"
dpkg-deb -I "$dkms_deb" postinst 2>/dev/null | grep -q '/usr/lib/dkms/common.postinst' ||
	why+=" postinst does not run DKMS"
dpkg-deb -I "$dkms_deb" prerm 2>/dev/null | grep -q 'dkms remove' || why+=" prerm does not remove"
result dkms "$why"

# dkms_build: both modules built by DKMS for each kernel here it supports,
# and the build as a DKMS tarball (install_packages installs from it)
n=0
for kdir in /lib/modules/*/build; do
	kver=${kdir#/lib/modules/} kver=${kver%/build}
	case " $IBSW_RXE_SERIES " in *" $(ibsw_kseries "$kver") "*) ;; *) continue ;; esac
	n=$((n + 1))
	if [ ! -r "$(ibsw_linux_tarball "$kver")" ]; then
		echo "SKIP: packages/dkms_build_$kver ($(ibsw_linux_tarball "$kver") not installed)"
		continue
	fi
	why=
	for m in ibsw rdma_rxe; do
		f=$(ls "$out/dkms/ibsw/$version/$kver/x86_64/module/$m.ko"* 2>/dev/null | head -n 1)
		if [ -z "$f" ]; then
			why+=" no $m.ko"
			continue
		fi
		vm=$(modinfo -F vermagic "$f")
		[ "${vm%% *}" = "$kver" ] || why+=" $m vermagic $vm"
	done
	[ -f "$out/dkms/ibsw-$version-$kver.dkms.tar.gz" ] || why+=" no DKMS tarball"
	result "dkms_build_$kver" "$why"
done
[ "$n" -gt 0 ] || result dkms_build "no kernel headers of series $IBSW_RXE_SERIES installed"

# unsupported: a kernel of another series is not built, and says why
why=
mkdir -p "$tmp/dkms"
kdir=$(ls -d /lib/modules/*/build | head -n 1)
dkms --dkmstree "$tmp/dkms" --sourcetree "$out/dkms-src" build -m ibsw -v "$version" \
	-k 5.10.0-1-amd64 --kernelsourcedir "$kdir" >"$tmp/excl.log" 2>&1
rc=$?
[ "$rc" = 77 ] || why="dkms build for 5.10 exited $rc, not 77 (skipped)"
grep -q 'BUILD_EXCLUSIVE directive which does not match' "$tmp/excl.log" ||
	why+=" dkms said: $(tail -n 2 "$tmp/excl.log")"
msg=$(cd "$out/dkms-src/ibsw-$version" && scripts/dkms-build 5.10.0-1-amd64 "$kdir" 2>&1) &&
	why+=" dkms-build built for 5.10"
grep -q "no rxe series for kernel series 5.10: ibsw's rxe patches are for $IBSW_RXE_SERIES" <<<"$msg" ||
	why+=" dkms-build said: $msg"
result unsupported "$why"

# note: on a kernel of another series, ibsw-dkms's postinst (run without its
# DKMS part, with that kernel's uname and the package's dkms.conf) says why
# nothing was built; on a kernel of a supported series it says nothing
why=
mkdir -p "$tmp/src" "$tmp/bin"
cp -r "$out/dkms-src/ibsw-$version" "$tmp/src/"
dpkg-deb -I "$dkms_deb" postinst |
	sed '/^# Automatically added by dh_dkms/,/^# End automatically added section/d' >"$tmp/postinst"
for k in 5.10.0-30-amd64 "$(ls /lib/modules | grep -m 1 "^${IBSW_RXE_SERIES%% *}\.")"; do
	printf '#!/bin/sh\necho %s\n' "$k" >"$tmp/bin/uname"
	chmod +x "$tmp/bin/uname"
	msg=$(unshare -m sh -c 'mount --bind "$1/src" /usr/src && PATH=$1/bin:$PATH sh "$1/postinst" configure' \
		sh "$tmp" 2>&1) || why+=" postinst failed on $k: $msg"
	case $k in
	5.10.*)
		grep -qx "ibsw-dkms: nothing built for the running kernel $k: ibsw's rxe patches are for kernel series $IBSW_RXE_SERIES only" <<<"$msg" ||
			why+=" on $k: '$msg'" ;;
	*)
		[ -z "$msg" ] || why+=" on $k: '$msg'" ;;
	esac
done
result note "$why"

exit "$failed"
