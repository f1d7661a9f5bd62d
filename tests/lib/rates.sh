# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317,SC2034 # indirect calls, variables for the tests
#
# tests/lib/rates.sh: measuring rates. The injection rate of a host's
# HCA, the rate windows over the switch ports' counters, and whether the
# CPU held a window back (xmit_late: ibsw_cpu_check).

# ibsw_hca_rate HOST: "BPS WHERE": the rate at which HOST's HCA injects at
# most, bit/s of emulated time, as the fabric has it in force (its switch
# port's hca_rate in sysfs, or `ibswctl -j port show`), else as the
# topology asks for it (the inject= option of its port); WHERE says which
ibsw_hca_rate() {
	local h=$1 v

	if read -r v <"/sys/class/ibsw/${HOST_SW[$h]}/ports/${HOST_PORT[$h]}/hca_rate" 2>/dev/null &&
		[ "${v:-0}" != 0 ]; then
		echo "$v sysfs"
		return
	fi
	v=$(ibswctl -j port show "${HOST_SW[$h]}/${HOST_PORT[$h]}" 2>/dev/null |
		jq -r '(if type == "array" then .[0] else . end) | .hca_rate // empty' 2>/dev/null)
	if [ -n "$v" ] && [ "$v" != 0 ]; then
		echo "$v ibswctl"
		return
	fi
	v=$(awk -v h="\"$h\"" '
		{ sub(/#.*/, "") }
		$1 ~ /^(Hca|Ca|Switch)$/ { host = ($1 != "Switch" && $3 == h); next }
		host && match($0, /inject=[0-9]+[kMG]?/) {
			v = substr($0, RSTART + 7, RLENGTH - 7); m = 1
			if (v ~ /k$/) m = 1e3; else if (v ~ /M$/) m = 1e6; else if (v ~ /G$/) m = 1e9
			printf "%.0f\n", v * m; exit
		}' "${IBSW_TOPO:-/dev/null}")
	[ -n "$v" ] || return 1
	echo "$v topology"
}

# ibsw_rate_window [-c COUNTER] VAR SECONDS SW:PORT...: bit/s of
# emulated time of IB wire data received by each switch port (port_rcv_data,
# or COUNTER: port_xmit_data for what it sent; both in 4-byte words) over
# SECONDS of wall-clock time. VAR gets "SW:PORT=bit/s ...". Each counter
# is read with the shell's own read (a fork and exec take tens of
# milliseconds in a busy TCG guest) and timed right after its read.
# Place a window after ibsw_flows_started. It fails if a flow of the case
# through a measured port stopped before the window's end (the rate would
# be wrong), and records the ports' xmit_late for ibsw_cpu_check.
ibsw_rate_window() {
	local cnt=port_rcv_data

	if [ "$1" = -c ]; then
		cnt=$2
		shift 2
	fi
	local -n _rw_out=$1
	local secs=$2 scale p v f w0 w1
	local -A file before t0
	shift 2

	scale=$(ibsw_time_scale) || return 1
	for p; do
		ibsw_cnt_file f "${p%:*}" "${p#*:}" "$cnt"
		file[$p]=$f
	done
	_ibsw_late_read _ibsw_late0
	w0=${EPOCHREALTIME/./}
	for p; do
		read -r v <"${file[$p]}" || return 1
		t0[$p]=${EPOCHREALTIME/./} before[$p]=$v
	done
	sleep "$secs"
	_rw_out=()
	for p; do
		read -r v <"${file[$p]}" || return 1
		# words * 32 bits / (wall us / scale / 1e6) = bit/s of emulated time
		_rw_out[$p]=$(((v - before[$p]) * 32 * 1000000 * scale / (${EPOCHREALTIME/./} - t0[$p])))
	done
	w1=${EPOCHREALTIME/./}
	_ibsw_late_read _ibsw_late1
	_ibsw_win_ports=("$@") _ibsw_win_us=$((w1 - w0)) _ibsw_win_scale=$scale
	ibsw_flows_running "$@"
}

# ---------------------------------------------------------- CPU or link?
# A rate measured in the VM is the link's only if the CPU ran the links'
# engines in time. Each port counts in xmit_late the ticks (64 bytes at its
# rate, emulated time) its busy transmitters lost because their engine ran
# later than the pacing slack (a host port adds its HCA's transmitter).
#
# IBSW_LATE_MAX, in percent of a window: 2. The rates the tests assert
# have margins of 5% (95% of a link's or an HCA's rate) and more (the
# congestion ratios); a port that lost under 2% of the window leaves a
# failing assertion to the link and the switch, one that lost more makes
# the CPU a cause of its own. On a quiet machine the ports of passing runs
# lost 0.0 to 1.6% (Documentation/testing.md), other VMs on the same cores
# pushed them to 4 to 13%.
IBSW_LATE_MAX=${IBSW_LATE_MAX:-2}

_ibsw_win_ports=()
_ibsw_win_us=
_ibsw_win_scale=
declare -A _ibsw_late0 _ibsw_late1

# _ibsw_late_read ARRAY: ARRAY[SW:PORT] gets the xmit_late of every
# connected port of every switch
_ibsw_late_read() {
	local -n _lr=$1
	local d k f v sw p

	_lr=()
	for d in /sys/class/ibsw/*/ports/*; do
		read -r k <"$d/kind" 2>/dev/null || continue
		[ "$k" != none ] || continue
		sw=${d#/sys/class/ibsw/}
		sw=${sw%%/*}
		p=${d##*/}
		ibsw_cnt_file f "$sw" "$p" xmit_late
		read -r v <"$f" 2>/dev/null || continue
		# shellcheck disable=SC2004 # an associative array
		_lr[$sw:$p]=$v
	done
}

# ibsw_port_name SW:PORT: "S1/1", with the host it serves: "S1/1 (H1)"
ibsw_port_name() {
	local h

	for h in "${!HOST_SW[@]}"; do
		if [ "${HOST_SW[$h]}:${HOST_PORT[$h]}" = "$1" ]; then
			echo "${1/:/\/} ($h)"
			return
		fi
	done
	echo "${1/:/\/}"
}

# ibsw_late_pct SW:PORT: percent of the last window that the port lost to
# late engine runs ("" if it has no xmit_late)
ibsw_late_pct() {
	local p=$1

	[ -n "${_ibsw_late1[$p]+x}" ] && [ -n "${_ibsw_late0[$p]+x}" ] || return 1
	ibsw_ticks_pct "$p" $((_ibsw_late1[$p] - _ibsw_late0[$p]))
}

# ibsw_ticks_pct SW:PORT TICKS: TICKS of the port's xmit_late or
# port_xmit_wait (64-byte times at its rate) in percent of the last
# ibsw_rate_window, emulated time
ibsw_ticks_pct() {
	local p=$1 rate

	read -r rate _ <"/sys/class/ibsw/${p%:*}/ports/${p#*:}/rate" || return 1
	# ticks * 512 bit / rate = emulated s; window: us / 1e6 / scale
	awk -v t="$2" -v r="$rate" -v s="$_ibsw_win_scale" -v us="$_ibsw_win_us" \
		'BEGIN { printf "%.1f", 100 * t * 512 / (r * 1e9) * 1e6 * s / us }'
}

# ibsw_rate_fail REASON: a measured rate is outside its bound. The case
# fails as with ibsw_fail, unless IBSW_RATES_ADVISORY is set: on the debug
# kernel (scripts/debug-kernel) KASAN and lockdep take the CPU the time
# scale counts on, so a rate there tells nothing about ibsw's model. The
# case then goes on, and its PASS line names the bounds it missed.
#   [ "$got" -ge "$min" ] || ibsw_rate_fail "F1 at $got, below $min" || return
ibsw_rate_fail() {
	[ -n "${IBSW_RATES_ADVISORY:-}" ] || { ibsw_fail "$@"; return; }
	echo "$(ibsw_ts) rate bound not enforced on this kernel: $*"
	_ibsw_unenforced+="${_ibsw_unenforced:+; }$*"
	return 0
}

# ibsw_cpu_check [SW:PORT...]: the case fails, with "CPU-limited: port X
# lost N% of the window to late engine runs", when one of these ports (the
# ports the last ibsw_rate_window measured, by default) lost more than
# IBSW_LATE_MAX percent of that window. Every port that lost time is
# logged. A late engine makes a measured rate too low, never too high: so
# check the ports of a rate that must be at most something before that
# assertion (a pass could be the CPU's), and those of a rate that must be
# at least something when it fails (the failure could be the CPU's).
ibsw_cpu_check() {
	local p pct worst='' wpct='' line=''

	[ $# -gt 0 ] || set -- "${_ibsw_win_ports[@]}"
	[ -n "$_ibsw_win_us" ] || ibsw_fail "ibsw_cpu_check: no window measured" || return
	for p in "${!_ibsw_late1[@]}"; do
		[ "${_ibsw_late1[$p]}" != "${_ibsw_late0[$p]:-}" ] || continue
		line+=" $(ibsw_port_name "$p") $(ibsw_late_pct "$p")%"
	done
	echo "$(ibsw_ts) xmit_late over the window ($((_ibsw_win_us / 1000)) ms wall):${line:- none}"
	for p; do
		pct=$(ibsw_late_pct "$p") ||
			ibsw_fail "cannot tell whether CPU-limited: no xmit_late for port $(ibsw_port_name "$p")" ||
			return
		if awk -v a="$pct" -v b="${wpct:-$IBSW_LATE_MAX}" 'BEGIN { exit !(a > b) }'; then
			worst=$p wpct=$pct
		fi
	done
	[ -z "$worst" ] ||
		ibsw_rate_fail "CPU-limited: port $(ibsw_port_name "$worst") lost $wpct% of the window to late engine runs"
}

# The median of the numbers on standard input, one per line.
ibsw_median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
