# SPDX-License-Identifier: GPL-2.0
#
# ibsw: an emulated InfiniBand fabric in the Linux kernel.
#
#   make            install missing packages, build ibsw.ko, the patched
#                   rdma_rxe.ko and the userspace tools
#   make check      every test: tool unit tests, KUnit, VM integration
#   make demo       scenario 1 of seed 002 with ibsw-run: table and plots
#   make reproduce [R="NAME..."] [ONLY="NAME=VALUE[,VALUE...]..."]
#                   the papers' figures ibsw reproduces, one scenario each
#                   (Documentation/reproductions.md); an interrupted sweep
#                   resumes where it stopped; ONLY runs those points of
#                   the sweeps (a long grid in parts)
#   make table3     seed 002's Table III: HPCC as the victim of a hot spot,
#                   CC off and on, against the paper (scripts/table3; 2 h)
#   make netpipe    NetPIPE as the victim of that hot spot, CC off and on:
#                   seed 002's Fig. 9 for MPI (scripts/netpipe-victim)
#   make bench      rxe through ibsw against veth and a bridge (scripts/bench)
#   make bench-ports [P="4 16 64 128"]
#                   the per-packet cost of one switch as its port count
#                   grows, side by side in one boot (scripts/bench-ports)
#   make bench-remote
#                   seed 002's S1-S2 as a link and as a remote link over
#                   a veth pair, side by side in one boot (scripts/bench-remote)
#   make bench-scale [S="1000 500 200"]
#                   the lowest time scale at which seed 002's scenario 1
#                   at 1x rates stays link-limited (scripts/bench-scale)
#   make bench-sm [H="16 64 128"]
#                   OpenSM's time to SUBNET UP on fat trees of H hosts
#                   (or LxHxS, or topology files), DCMS's sweep over MADs
#                   and netlink (scripts/bench-sm)
#   make tcg-profile
#                   guest instructions per packet and kernel function over
#                   veth, a bridge and ibsw, counted by a QEMU TCG plugin
#                   (scripts/tcg-profile, tools/tcgprof)
#   make kunit      only the KUnit suites (kernel built from linux-source)
#   make vmcheck    only the integration tests (T=name runs one)
#   make longcheck  VM tests too long for make check (tests/long; T=name)
#   make repeat T="name..." [N=10] [M=regex]
#                   run VM tests N times on an idle machine and tabulate
#                   their notes (tests/repeat; not part of make check)
#   make install    the modules (/lib/modules/IBSW_KVER/updates), tools, man
#                   pages, data and the dcms unit; DESTDIR, PREFIX (/usr/local),
#                   BINDIR, SBINDIR, LIBDIR, DATADIR, MANDIR, DOCDIR, UNITDIR
#                   are honoured (scripts/install). IBSW_KVER=$(uname -r)
#                   for the running kernel; or DKMS (scripts/install --dkms)
#   make uninstall  remove what make install put there
#   make packages   the Debian packages ibsw-dkms and ibsw-tools (unsigned),
#                   lintian, and DKMS's build for the kernels here, in
#                   build/packages (scripts/packages)
#   make checkpatch checkpatch.pl over our kernel code and patches
#   make debugcheck [T="name..."]
#                   the integration tests on a debug kernel (KASAN, lockdep,
#                   kmemleak; built once, slow: not part of make check), or
#                   the named tests of tests/integration, tests/debug or
#                   tests/long
#   make kernelcheck K=KVER [T=name...]
#                   the integration tests on another kernel installed here
#                   with its headers, e.g. Debian 12's own 6.1 (K=6.1.0-56-amd64);
#                   its modules are built in build/kernel-KVER (scripts/kernel-check)
#
# KDIR, IBSW_KVER, IBSW_CACHE and IBSW_BUILD may be overridden.

IBSW_ROOT := $(CURDIR)
IBSW_KVER ?= $(shell $(IBSW_ROOT)/scripts/kver)
KDIR ?= /lib/modules/$(IBSW_KVER)/build
IBSW_BUILD ?= $(IBSW_ROOT)/build
export IBSW_ROOT IBSW_KVER KDIR IBSW_BUILD

Q := $(if $(V),,@)

.PHONY: all deps modules rxe tools install uninstall packages check unit kunit vmcheck longcheck repeat demo reproduce table3 netpipe bench bench-ports bench-remote bench-scale bench-sm tcg-profile checkpatch debugcheck kernelcheck clean

all: modules rxe tools

deps:
	$(Q)$(IBSW_ROOT)/scripts/deps

modules: deps
	$(Q)$(MAKE) -C $(KDIR) M=$(IBSW_ROOT) modules

rxe: deps
	$(Q)$(IBSW_ROOT)/scripts/rxe-build

tools: deps
	$(Q)$(MAKE) -C tools

# scripts/install reads the directories from the environment
export DESTDIR PREFIX BINDIR SBINDIR LIBDIR DATADIR MANDIR DOCDIR UNITDIR

install: all
	$(Q)$(IBSW_ROOT)/scripts/install

uninstall:
	$(Q)$(IBSW_ROOT)/scripts/install --uninstall

packages: deps
	$(Q)$(IBSW_ROOT)/scripts/packages

# Without T, tests/run builds (all packages) beside KUnit's kernel build
ifeq ($(T),)
check: deps
	$(Q)$(IBSW_ROOT)/tests/run all --build
else
check: all packages
	$(Q)$(IBSW_ROOT)/tests/run $(T)
endif

unit: tools
	$(Q)$(IBSW_ROOT)/tests/run unit

kunit: deps
	$(Q)$(IBSW_ROOT)/tests/run kunit

vmcheck: all packages
	$(Q)$(IBSW_ROOT)/tests/run integration $(T)

longcheck: all
	$(Q)$(IBSW_ROOT)/tests/run long $(T)

repeat: all
	$(Q)$(IBSW_ROOT)/tests/repeat -n $(or $(N),10) $(if $(M),-m '$(M)') $(T)

demo: all
	$(Q)$(IBSW_ROOT)/scripts/demo

reproduce: all
	$(Q)R="$(R)" ONLY="$(ONLY)" $(IBSW_ROOT)/scripts/reproduce

table3: all
	$(Q)$(IBSW_ROOT)/scripts/table3

netpipe: all
	$(Q)$(IBSW_ROOT)/scripts/netpipe-victim

bench: all
	$(Q)$(IBSW_ROOT)/scripts/bench -c 1

bench-ports: all
	$(Q)$(IBSW_ROOT)/scripts/bench-ports $(P)

bench-remote: all
	$(Q)$(IBSW_ROOT)/scripts/bench-remote -c 1

bench-scale: all
	$(Q)$(IBSW_ROOT)/scripts/bench-scale $(S)

bench-sm: all
	$(Q)$(IBSW_ROOT)/scripts/bench-sm $(H)

tcg-profile: all
	$(Q)$(IBSW_ROOT)/scripts/tcg-profile -c 1

checkpatch:
	$(Q)$(IBSW_ROOT)/scripts/checkpatch

debugcheck: tools
	$(Q)$(IBSW_ROOT)/scripts/debug-kernel --run $(T)

kernelcheck: tools packages
	$(Q)$(IBSW_ROOT)/scripts/kernel-check $(or $(K),$(error K=KVER: the kernel to test on, e.g. K=6.1.0-56-amd64)) $(T)

clean:
	$(Q)$(MAKE) -C $(KDIR) M=$(IBSW_ROOT) clean 2>/dev/null || true
	$(Q)$(MAKE) -C tools clean
	$(Q)rm -rf $(IBSW_BUILD)
