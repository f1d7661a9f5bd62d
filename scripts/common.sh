# SPDX-License-Identifier: GPL-2.0
# Shared settings for ibsw's scripts. Source it; it only defines variables
# and functions. Every value can be overridden from the environment.
#
#   IBSW_ROOT    the checkout
#   IBSW_BUILD   build products of this checkout (ignored by git)
#   IBSW_CACHE   caches shared between checkouts (kernel trees, initramfs)
#   IBSW_KVER    target kernel release, e.g. 6.12.117+deb12-amd64
#   KDIR         kernel build directory for out-of-tree modules
#   IBSW_VMLINUZ kernel image booted by scripts/vm

IBSW_ROOT=${IBSW_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
IBSW_BUILD=${IBSW_BUILD:-$IBSW_ROOT/build}
IBSW_CACHE=${IBSW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ibsw}

# The Debian 6.12 kernel series this release of ibsw is tested against.
# scripts/kver falls back to the newest 6.12.y Debian offers when this
# exact one is gone from the archive.
IBSW_KVER_PIN=6.12.117+deb12-amd64
IBSW_KSERIES=6.12

ibsw_die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

ibsw_log() {
	echo "${0##*/}: $*" >&2
}

# Resolve the target kernel release once per process tree.
ibsw_kver() {
	if [ -z "${IBSW_KVER:-}" ]; then
		IBSW_KVER=$("$IBSW_ROOT/scripts/kver") || exit 1
		export IBSW_KVER
	fi
	echo "$IBSW_KVER"
}

# ibsw_qemu_version [BIN]: "MAJOR.MINOR" of a QEMU binary
ibsw_qemu_version() {
	"${1:-qemu-system-x86_64}" --version |
		sed -n '1s/^QEMU emulator version \([0-9]*\.[0-9]*\).*/\1/p'
}

# ibsw_kseries KVER: the kernel series of a release, 6.12 of
# 6.12.117+deb12-amd64 and 6.1 of 6.1.0-56-amd64
ibsw_kseries() {
	local v=${1%%-*}

	v=${v%%+*}
	echo "${v%.*}"
}

# The kernel series ibsw's rxe patches exist for: patches/ holds the first
# one's, patches-SERIES/ each other's (Documentation/install.md, following
# a new kernel series).
IBSW_RXE_SERIES="6.12 6.1"

# ibsw_rxe_patches SERIES: the directory of the rxe series for that kernel
# series
ibsw_rxe_patches() {
	local d=$IBSW_ROOT/drivers/infiniband/sw/rxe

	case " $IBSW_RXE_SERIES " in
	*" $1 "*) ;;
	*) ibsw_die "no rxe series for kernel series $1: ibsw's rxe patches are for $IBSW_RXE_SERIES (drivers/infiniband/sw/rxe)" ;;
	esac
	if [ "$1" = "${IBSW_RXE_SERIES%% *}" ]; then
		echo "$d/patches"
	else
		echo "$d/patches-$1"
	fi
}

# ibsw_copy_module_sources DEST: bring a copy of ibsw.ko's sources in DEST
# up to date, for a build against another kernel (kbuild's M= writes its
# objects next to the sources). Only changed files are copied, so make
# rebuilds only what uses them; files gone here go there too.
ibsw_copy_module_sources() {
	local dest=$1 f
	local -a want

	_ibsw_module_sources() {	# DIR: the sources below DIR, relative
		(cd "$1" && find Kbuild drivers/net/ibsw include -type f \
			\( -name '*.[ch]' -o -name Makefile -o -name Kbuild -o -name Kconfig \) \
			! -name '*.mod.c' 2>/dev/null | LC_ALL=C sort) || true
	}
	mkdir -p "$dest"
	mapfile -t want < <(_ibsw_module_sources "$IBSW_ROOT")
	[ ${#want[@]} -gt 0 ] || ibsw_die "no module sources in $IBSW_ROOT"
	for f in "${want[@]}"; do
		if ! cmp -s "$IBSW_ROOT/$f" "$dest/$f"; then
			mkdir -p "$(dirname "$dest/$f")"
			cp "$IBSW_ROOT/$f" "$dest/$f"
		fi
	done
	while IFS= read -r f; do
		[ -e "$IBSW_ROOT/$f" ] || rm -f "$dest/$f"
	done < <(_ibsw_module_sources "$dest")
}

# ibsw_ynl_dir: the cache of the kernel's YNL tools (ynl-gen-c.py, the
# ynl library, cli.py), from linux-source-$IBSW_KSERIES whatever the target
# kernel's series: the committed genl.[ch] are that generator's output,
# and the library is a client that needs no particular kernel (6.1's
# source has no YNL at all).
ibsw_ynl_dir() {
	local kver

	kver=$(ibsw_kver) || return 1
	[ "$(ibsw_kseries "$kver")" = "$IBSW_KSERIES" ] || kver=$IBSW_KVER_PIN
	echo "$IBSW_CACHE/ynl-${kver%%+*}"
}

# ibsw_linux_tarball KVER: the linux-source tarball of KVER's series
ibsw_linux_tarball() {
	echo "/usr/src/linux-source-$(ibsw_kseries "$1").tar.xz"
}

ibsw_paths() {
	local kver
	kver=$(ibsw_kver) || exit 1
	KDIR=${KDIR:-/lib/modules/$kver/build}
	IBSW_VMLINUZ=${IBSW_VMLINUZ:-/boot/vmlinuz-$kver}
	IBSW_MODDIR=${IBSW_MODDIR:-/lib/modules/$kver}
	IBSW_LINUX_TARBALL=${IBSW_LINUX_TARBALL:-$(ibsw_linux_tarball "$kver")}
	IBSW_KO=${IBSW_KO:-$IBSW_ROOT/drivers/net/ibsw/ibsw.ko}
	IBSW_RXE_KO=${IBSW_RXE_KO:-$IBSW_BUILD/rxe/rdma_rxe.ko}
	export IBSW_ROOT IBSW_BUILD IBSW_CACHE KDIR IBSW_VMLINUZ IBSW_MODDIR \
		IBSW_LINUX_TARBALL IBSW_KO IBSW_RXE_KO
}
