#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of 'make install' and 'make uninstall' (scripts/install) into a
# DESTDIR: every file of the list is there with its mode, the programs run
# from where they were installed and find each other and the data without
# the checkout (ibswctl's topology, ibsw-run's scenario and package), the
# manual pages render without a warning, the dcms unit points at the
# installed dcms, a second install changes nothing, and uninstall leaves
# no file behind. Needs 'make' first (make check builds everything).
# Prints "PASS: install/CASE" or "FAIL: install/CASE (why)" per case and
# exits 1 if any failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
failed=0

result() {	# name, "" or the reason it failed
	if [ -z "$2" ]; then
		echo "PASS: install/$1"
	else
		echo "FAIL: install/$1 ($2)"
		failed=1
	fi
}

inst() {
	env DESTDIR="$dest" PREFIX=/usr UNITDIR=/lib/systemd/system \
		"$root/scripts/install" --no-depmod "$@"
}

# files: the list names the modules, programs, pages and data
list=$(inst --list)
why=
for f in /usr/sbin/ibswctl /usr/sbin/dcms /usr/sbin/ibsw-ccmad \
	/usr/bin/ibsw-run /usr/bin/topo-gen /usr/lib/ibsw/ibswrun/guest.py \
	/usr/lib/ibsw/ibsw-mpi-agent /usr/share/ibsw/topologies/seed002.net \
	/usr/share/ibsw/scenarios/seed002-s1.scn /usr/share/ibsw/scenarios/hpcc/hpccinf.txt \
	/usr/share/ibsw/dcms/seed000.conf /usr/share/man/man8/ibswctl.8 \
	/usr/share/man/man1/ibsw-run.1 /lib/systemd/system/dcms.service \
	/usr/share/doc/ibsw/README.md; do
	grep -qxF "$f" <<<"$list" || why+=" $f"
done
grep -qE '^/lib/modules/[^/]+/updates/rdma_rxe\.ko$' <<<"$list" || why+=" rdma_rxe.ko"
grep -qE '^/lib/modules/[^/]+/updates/ibsw\.ko$' <<<"$list" || why+=" ibsw.ko"
result list "${why:+missing from the list:$why}"

# install: every listed file there, programs executable, data not
why=
out=$(inst 2>&1) || why="scripts/install failed: $(tail -n 3 <<<"$out")"
if [ -z "$why" ]; then
	while read -r f; do
		[ -e "$dest$f" ] || { why+=" $f missing"; continue; }
		case $f in
		*/sbin/* | */bin/*) [ -x "$dest$f" ] || why+=" $f not executable" ;;
		*/share/*) [ ! -x "$dest$f" ] || why+=" $f executable" ;;
		esac
	done <<<"$list"
	extra=$(cd "$dest" && find . -type f -o -type l | sed 's/^\.//' | sort |
		comm -23 - <(sort <<<"$list"))
	[ -z "$extra" ] || why+=" not in the list: $extra"
fi
result install "$why"

# topology: the installed ibswctl finds a topology of the installed data
# from a directory that has none (the README's fabric up, as a dry run)
why=
out=$(cd "$tmp" && "$dest/usr/sbin/ibswctl" fabric up topologies/seed002.net dry-run 2>&1) ||
	why="fabric up dry-run failed: $(head -n 2 <<<"$out")"
[ -n "$why" ] || grep -q '^ibswctl switch add S1 ports 36$' <<<"$out" ||
	why="no plan: $(head -n 2 <<<"$out")"
out=$(cd "$tmp" && "$dest/usr/sbin/ibswctl" fabric up topologies/none.net dry-run 2>&1) &&
	why+=" a missing topology was accepted"
grep -q 'topologies/none.net: cannot open' <<<"$out" || why+=" missing: '$out'"
result topology "$why"

# scenario: the installed ibsw-run runs outside the checkout, finds an
# installed scenario by its name (and its topology beside it), and its
# results would go under the current directory
why=
mkdir -p "$tmp/busy/x"
out=$(cd "$tmp" && "$dest/usr/bin/ibsw-run" -o busy seed002-s1.scn 2>&1)
grep -q "busy exists and is not an empty directory" <<<"$out" ||
	why="seed002-s1.scn not loaded: $out"
out=$(cd "$tmp" && COLUMNS=1000 "$dest/usr/bin/ibsw-run" --help 2>&1)
grep -q '(always so when installed)' <<<"$out" || why+=" --help: $out"
result scenario "$why"

# man: every installed page renders without a warning
why=
while read -r f; do
	case $f in */man/man[18]/*) ;; *) continue ;; esac
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$dest$f" 2>&1 >/dev/null)
	[ -z "$w" ] || why+=" ${f##*/}: $w"
	grep -q '^\.SH DESCRIPTION' "$dest$f" || why+=" ${f##*/}: no DESCRIPTION"
done <<<"$list"
result man "$why"

# unit: dcms.service starts the installed dcms
why=
grep -qx 'ExecStart=/usr/sbin/dcms --conf /etc/dcms.conf' "$dest/lib/systemd/system/dcms.service" ||
	why="$(grep ExecStart "$dest/lib/systemd/system/dcms.service")"
result unit "$why"

# again: a second install succeeds and changes no file
why=
before=$(cd "$dest" && find . -type f -exec sha256sum {} + | sort)
out=$(inst 2>&1) || why="failed: $out"
after=$(cd "$dest" && find . -type f -exec sha256sum {} + | sort)
[ "$before" = "$after" ] || why+=" files changed"
result again "$why"

# uninstall: no file or link left, and no directory of ours
why=
out=$(inst --uninstall 2>&1) || why="failed: $out"
left=$(cd "$dest" && find . ! -type d)
[ -z "$left" ] || why+=" left: $left"
for d in usr/lib/ibsw usr/share/ibsw usr/share/doc/ibsw; do
	[ ! -e "$dest/$d" ] || why+=" $d left"
done
result uninstall "$why"

exit "$failed"
