#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cpu: shared
# duration: 160
#
# The ibsw netlink family (Documentation/netlink/specs/ibsw.yaml), driven
# through the kernel's ynl library (tools/ynl/ibsw_ynl.py runs many
# requests per Python start; cli.py is checked once): valid requests are
# accepted and read back; every required attribute missing, every value out
# of range, duplicates and unknown switch names are refused with an extack
# message that names the problem, and change nothing; a caller without
# CAP_NET_ADMIN can read but not change; another network namespace cannot
# see the family; changes are announced to the monitor group; dumps that
# need several messages resume where they stopped.
# shellcheck source=tests/lib.sh disable=SC2317,SC2034
. "$(dirname "$0")/../lib.sh"
# shellcheck source=scripts/common.sh
. "$IBSW_ROOT/scripts/common.sh"

ibsw_require_root
if [ ! -d /sys/module/ibsw ]; then
	modprobe ibsw >>"$IBSW_LOGDIR/setup.log" 2>&1 ||
		ibsw_setup_fail "ibsw.ko is not loaded"
fi

# The kernel's ynl (cli.py and its library), as scripts/ynl-gen caches it
YNL_DIR=$(ibsw_ynl_dir)/tools/net/ynl
if [ ! -f "$YNL_DIR/lib/ynl.py" ]; then
	"$IBSW_ROOT/scripts/ynl-gen" --check >>"$IBSW_LOGDIR/setup.log" 2>&1
	[ -f "$YNL_DIR/lib/ynl.py" ] ||
		ibsw_setup_fail "no ynl in $YNL_DIR: run scripts/ynl-gen"
fi
SPEC=$IBSW_ROOT/Documentation/netlink/specs/ibsw.yaml
NL=(python3 "$IBSW_ROOT/tools/ynl/ibsw_ynl.py" --ynl "$YNL_DIR" --spec "$SPEC")

S1=nla-$IBSW_SFX
S2=nlb-$IBSW_SFX
S3=nlc-$IBSW_SFX
NPORTS=4

# ------------------------------------------------------------ request queue
# Queue requests with what each must give, then run them all in one Python
# process and compare, one answer per request.

_q=()
_want=()

# q_ok OP [JSON], q_dump OP [JSON]: the do (dump) request must succeed
q_ok() {
	_q+=("do $*")
	_want+=(ok)
}

q_dump() {
	_q+=("dump $*")
	_want+=(ok)
}

# q_err ERRNO REGEX [-d] OP [JSON]: the do (-d: dump) request must fail
# with ERRNO and an extack that matches REGEX and, unless ERRNO is EPERM,
# has a message. The extack reads "bad-attr: .vl.vl; msg: ...; policy: ..."
# (keys sorted: bad-attr, miss-nest, miss-type, msg, policy).
q_err() {
	local e=$1 re=$2 mode="do"
	shift 2
	if [ "$1" = -d ]; then
		mode=dump
		shift
	fi
	_q+=("$mode $*")
	_want+=("$e $re")
}

# 6.12's __netlink_dump_start() gives a dump's start the request's extack
# (cb->extack); 6.1's does not, so there a dump that its start refuses
# says nothing but its errno. 6.1 is the oldest kernel ibsw builds for.
DUMP_START_EXTACK=1
[ "$(ibsw_kseries "$(uname -r)")" = 6.1 ] && DUMP_START_EXTACK=0

# q_run [PREFIX...]: run the queue (through PREFIX, e.g. setpriv) and check
# every answer; the answers stay in Q_OUT (JSON lines).
q_run() {
	local i ok errno ext want line bad=0 first=
	local -a res

	Q_OUT=$(printf '%s\n' "${_q[@]}" | "$@" "${NL[@]}" batch)
	mapfile -t res < <(jq -r '[.ok, .errno // "", .extack // ""] | @tsv' <<<"$Q_OUT")
	for i in "${!_q[@]}"; do
		line=${res[i]:-}
		IFS=$'\t' read -r ok errno ext <<<"$line"
		want=${_want[i]}
		echo "> ${_q[i]:0:200}"
		echo "< ${line:-(no answer)}"
		if [ "$want" = ok ]; then
			[ "$ok" = true ] && continue
		elif [ "$ok" = false ] && [ "$errno" = "${want%% *}" ] &&
			grep -qE -- "${want#* }" <<<"$ext"; then
			# every refusal but the permission check says why
			[[ $errno = EPERM || $ext = *"msg: "* ]] && continue
		elif [ "$DUMP_START_EXTACK" = 0 ] && [ "${_q[i]%% *}" = dump ] &&
			[ "$ok" = false ] && [ "$errno" = "${want%% *}" ] && [ -z "$ext" ]; then
			echo "# (no extack from a dump's start on this kernel)"
			continue
		fi
		echo "! want: $want"
		bad=$((bad + 1))
		[ -n "$first" ] || first="${_q[i]:0:60}: want $want, got ${line:-nothing}"
	done
	_q=()
	_want=()
	[ "$bad" = 0 ] || ibsw_fail "$bad wrong answers; first: ${first:0:200}"
}

# The reply of request N (0-based) of the last q_run
q_reply() {
	sed -n "$(($1 + 1))p" <<<"$Q_OUT" | jq -c '.reply'
}

# Everything the family reports, for before/after comparisons
state() {
	printf '%s\n' 'do fabric-get' 'dump switch-get' 'dump addr-get' \
		'dump port-get' "do lft-get {\"name\":\"$S1\"}" |
		"${NL[@]}" batch
}

# refused: run the queue, all of it refused, and check nothing changed
refused() {
	local before after

	before=$(state) || ibsw_fail "cannot read the state" || return
	q_run "$@" || return
	after=$(state)
	[ "$before" = "$after" ] && return 0
	diff <(jq -S . <<<"$before") <(jq -S . <<<"$after") | head -40
	ibsw_fail "a refused request changed the state"
}

# ipv4-mapped address in hex: v4hex 10.0.0.1
v4hex() {
	local a b c d
	IFS=. read -r a b c d <<<"$1"
	printf '00000000000000000000ffff%02x%02x%02x%02x' "$a" "$b" "$c" "$d"
}

# N bytes of BYTE (two hex digits) as hex
hexrep() {
	printf "%0$(($1 * 2))d" 0 | sed "s/00/$2/g"
}

ibsw_netns_add NS nl || ibsw_setup_fail "ip netns add failed"
ibsw_defer "printf 'do switch-del {\"name\":\"%s\"}\n' $S1 $S2 $S3 | ${NL[*]} batch"

# ------------------------------------------------------------------- cases

accepted() {
	local fd pid map

	exec {fd}<"/run/netns/$NS"
	sleep 120 &
	pid=$!
	_ibsw_pids+=("$pid")
	map=00010203000102030001020300010203

	q_ok switch-new "{\"name\":\"$S1\",\"nr-ports\":$NPORTS}"
	q_ok switch-new "{\"name\":\"$S2\",\"nr-ports\":$NPORTS}"
	q_ok link-new "{\"switch-name\":\"$S1\",\"port\":3,\"peer-switch-name\":\"$S2\",\"peer-port\":3,\"width\":\"4x\",\"speed\":\"qdr\"}"
	q_ok host-new "{\"switch-name\":\"$S1\",\"port\":1,\"ifname\":\"nlh1-$IBSW_SFX\",\"netns-fd\":$fd,\"lid\":1,\"mac\":\"020000000001\"}"
	q_ok host-new "{\"switch-name\":\"$S2\",\"port\":1,\"ifname\":\"nlh2-$IBSW_SFX\",\"netns-pid\":$pid,\"lid\":2}"
	q_ok port-set "{\"switch-name\":\"$S1\",\"port\":2,\"nr-vls\":2,\"vl\":[{\"vl\":0,\"buffer-credits\":128},{\"vl\":1,\"buffer-credits\":200}],\"vlarb-high\":[{\"vl\":1,\"weight\":10}],\"vlarb-low\":[{\"vl\":0,\"weight\":64},{\"vl\":1,\"weight\":0},{\"vl\":1,\"weight\":4}],\"vlarb-high-limit\":7,\"sl2vl\":[{\"map\":\"$map\"}],\"hoq-life\":10}"
	q_ok port-set "{\"switch-name\":\"$S1\",\"port\":2,\"vlarb-high\":[{}]}"
	q_ok lft-set "{\"name\":\"$S1\",\"lft\":\"000103ff02\"}"
	q_ok lft-set "{\"name\":\"$S2\",\"lft\":\"00030100\"}"
	q_ok addr-set "{\"addr\":[{\"ip\":\"$(v4hex 10.9.0.1)\",\"lid\":1},{\"ip\":\"fd000009000000000000000000000002\",\"lid\":2}]}"
	q_ok fabric-set '{"time-scale":100}'
	q_ok counters-clear "{\"switch-name\":\"$S1\"}"
	q_ok counters-clear "{\"switch-name\":\"$S1\",\"port\":1}"
	q_ok port-get "{\"switch-name\":\"$S1\",\"port\":2}"
	q_ok port-get "{\"switch-name\":\"$S1\",\"port\":1}"
	q_ok port-get "{\"switch-name\":\"$S1\",\"port\":3}"
	q_ok lft-get "{\"name\":\"$S1\"}"
	q_ok fabric-get
	q_dump addr-get
	q_ok switch-get "{\"name\":\"$S2\"}"
	q_run
	exec {fd}<&-
	[ -z "$_ibsw_reason" ] || return 1

	# what was set reads back
	local p2 p1 p3 lft fab addrs
	p2=$(q_reply 13) p1=$(q_reply 14) p3=$(q_reply 15)
	lft=$(q_reply 16) fab=$(q_reply 17) addrs=$(q_reply 18)
	jq -e '.["nr-vls"] == 2 and ([.vl[] | .["buffer-credits"]] == [128, 200])
		and (.["vlarb-high"] // [] | length == 0)
		and .["vlarb-low"] == [{"vl":0,"weight":64},{"vl":1,"weight":0},{"vl":1,"weight":4}]
		and .["vlarb-high-limit"] == 7 and .["hoq-life"] == 10
		and ([.sl2vl[] | .map] | unique == ["'"$map"'"])
		and .kind == "none" and (.counters | has("xmit-data"))' <<<"$p2" >/dev/null ||
		ibsw_fail "port-set did not read back: $p2" || return
	jq -e '.kind == "host" and .lid == 1 and .mac == "02:00:00:00:00:01"
		and .ifname == "nlh1-'"$IBSW_SFX"'" and has("netns-id") and has("ifindex")
		and (.sl2vl | map(.["in-port"]) | any(. == 0))' <<<"$p1" >/dev/null ||
		ibsw_fail "host port reads wrong: $p1" || return
	jq -e '.kind == "link" and .["peer-switch-name"] == "'"$S2"'"
		and .["peer-port"] == 3 and .width == "4x" and .speed == "qdr"
		and .rate == 32000000000' <<<"$p3" >/dev/null ||
		ibsw_fail "link port reads wrong: $p3" || return
	jq -e '.lft == "000103ff02" and .["lft-top"] == 4' <<<"$lft" >/dev/null ||
		ibsw_fail "lft-get: $lft" || return
	jq -e '.["time-scale"] == 100 and .["nr-addrs"] == 2' <<<"$fab" >/dev/null ||
		ibsw_fail "fabric-get: $fab" || return
	jq -e 'length == 2' <<<"$addrs" >/dev/null ||
		ibsw_fail "addr-get: $addrs" || return
	ip -n "$NS" link show "nlh1-$IBSW_SFX" ||
		ibsw_fail "host port nlh1-$IBSW_SFX is not in $NS (netns-fd)" || return
	ip link show "nlh2-$IBSW_SFX" ||
		ibsw_fail "host port nlh2-$IBSW_SFX is not in init_net (netns-pid)"
}

# cli.py itself prints the extack message
cli_extack() {
	local out

	out=$(python3 "$YNL_DIR/cli.py" --spec "$SPEC" --no-schema \
		--do switch-get --json '{"name":"nosuch-'"$IBSW_SFX"'"}' 2>&1)
	echo "$out"
	grep -q "no switch named nosuch-$IBSW_SFX" <<<"$out" ||
		ibsw_fail "cli.py does not show the extack message"
}

missing_attrs() {
	local s=\"switch-name\":\"$S1\" m='missing attribute'

	q_err EINVAL "$m name" switch-new '{"nr-ports":4}'
	q_err EINVAL "$m nr-ports" switch-new '{"name":"x'"$IBSW_SFX"'"}'
	q_err EINVAL "$m name" switch-del '{}'
	q_err EINVAL "$m name" switch-get '{}'
	q_err EINVAL "$m name" lft-set '{"lft":"00"}'
	q_err EINVAL "$m lft" lft-set "{\"name\":\"$S1\"}"
	q_err EINVAL "$m name" lft-get '{}'
	q_err EINVAL "$m switch-name" port-get '{"port":1}'
	q_err EINVAL "$m port" port-get "{$s}"
	q_err EINVAL "$m switch-name" port-set '{"port":1,"nr-vls":2}'
	q_err EINVAL "$m port" port-set "{$s,\"nr-vls\":2}"
	q_err EINVAL "$m switch-name" link-new "{\"port\":4,\"peer-switch-name\":\"$S2\",\"peer-port\":4}"
	q_err EINVAL "$m port" link-new "{$s,\"peer-switch-name\":\"$S2\",\"peer-port\":4}"
	q_err EINVAL "$m peer-switch-name" link-new "{$s,\"port\":4,\"peer-port\":4}"
	q_err EINVAL "$m peer-port" link-new "{$s,\"port\":4,\"peer-switch-name\":\"$S2\"}"
	q_err EINVAL "$m switch-name" link-del '{"port":3}'
	q_err EINVAL "$m port" link-del "{$s}"
	q_err EINVAL "$m switch-name" host-new '{"port":4}'
	q_err EINVAL "$m port" host-new "{$s}"
	q_err EINVAL "$m switch-name" host-del '{"port":1}'
	q_err EINVAL "$m port" host-del "{$s}"
	q_err EINVAL "$m switch-name" counters-clear '{"port":1}'
	q_err EINVAL "$m ip in addr" addr-set '{"addr":[{"lid":1}]}'
	q_err EINVAL "$m lid in addr" addr-set "{\"addr\":[{\"ip\":\"$(v4hex 10.9.0.3)\"}]}"
	q_err EINVAL "$m vl in vl" port-set "{$s,\"port\":2,\"vl\":[{\"buffer-credits\":100}]}"
	q_err EINVAL "$m buffer-credits in vl" port-set "{$s,\"port\":2,\"vl\":[{\"vl\":0}]}"
	# port-get's read-only attributes are refused, not ignored
	q_err EINVAL "read-only attribute buffer-free in vl" port-set "{$s,\"port\":2,\"vl\":[{\"vl\":0,\"buffer-credits\":100,\"buffer-free\":5}]}"
	q_err EINVAL "read-only attribute counters in vl" port-set "{$s,\"port\":2,\"vl\":[{\"vl\":0,\"buffer-credits\":100,\"counters\":{\"xmit-data\":1}}]}"
	q_err EINVAL "bad-attr: \\.clock-ppm; msg: Unsupported attribute" port-set "{$s,\"port\":2,\"clock-ppm\":5}"
	q_err EINVAL "Unsupported attribute" port-set "{$s,\"port\":2,\"counters\":{\"xmit-data\":1}}"
	q_err EINVAL "$m weight in vlarb-high" port-set "{$s,\"port\":2,\"vlarb-high\":[{\"vl\":0}]}"
	q_err EINVAL "$m vl in vlarb-low" port-set "{$s,\"port\":2,\"vlarb-low\":[{\"weight\":3}]}"
	q_err EINVAL "$m map in sl2vl" port-set "{$s,\"port\":2,\"sl2vl\":[{\"in-port\":1}]}"
	q_err EINVAL "nothing to set" fabric-set '{}'
	refused
}

# A policy rejection names the attribute (bad-attr) and says why
out_of_range() {
	local s=\"switch-name\":\"$S1\" r='bad-attr: '
	local ok16=00010203000102030001020300010203

	q_err ERANGE "${r}\.nr-ports;" switch-new '{"name":"x'"$IBSW_SFX"'","nr-ports":0}'
	q_err ERANGE "${r}\.nr-ports;" switch-new '{"name":"x'"$IBSW_SFX"'","nr-ports":255}'
	q_err ERANGE "${r}\.port;" port-get "{$s,\"port\":0}"
	q_err EINVAL "bad-attr: \.port;.*no port 5" port-get "{$s,\"port\":5}"
	q_err EINVAL "no port 5" port-set "{$s,\"port\":5,\"nr-vls\":2}"
	q_err EINVAL "no port 9" link-new "{$s,\"port\":4,\"peer-switch-name\":\"$S2\",\"peer-port\":9}"
	q_err EINVAL "no port 5" host-new "{$s,\"port\":5}"
	q_err EINVAL "no port 5" host-del "{$s,\"port\":5}"
	q_err EINVAL "no port 5" counters-clear "{$s,\"port\":5}"
	q_err ERANGE "${r}\.time-scale;" fabric-set '{"time-scale":0}'
	q_err ERANGE "${r}\.time-scale;" fabric-set '{"time-scale":10001}'
	q_err ERANGE "${r}\.pacing;" fabric-set '{"pacing":2}'
	q_err ERANGE "${r}\.vl\.vl;" port-set "{$s,\"port\":2,\"vl\":[{\"vl\":15,\"buffer-credits\":100}]}"
	q_err ERANGE "${r}\.vl\.buffer-credits;" port-set "{$s,\"port\":2,\"vl\":[{\"vl\":0,\"buffer-credits\":65536}]}"
	q_err ERANGE "${r}\.vlarb-high\.vl;" port-set "{$s,\"port\":2,\"vlarb-high\":[{\"vl\":15,\"weight\":1}]}"
	q_err ERANGE "${r}\.vlarb-low\.weight;" port-set "{$s,\"port\":2,\"vlarb-low\":[{\"vl\":0,\"weight\":256}]}"
	q_err ERANGE "${r}\.vlarb-high-limit;" port-set "{$s,\"port\":2,\"vlarb-high-limit\":256}"
	q_err ERANGE "${r}\.hoq-life;" port-set "{$s,\"port\":2,\"hoq-life\":32}"
	q_err ERANGE "${r}\.nr-vls;" port-set "{$s,\"port\":2,\"nr-vls\":0}"
	q_err ERANGE "${r}\.nr-vls;" port-set "{$s,\"port\":2,\"nr-vls\":16}"
	q_err ERANGE "${r}\.width;" port-set "{$s,\"port\":2,\"width\":4}"
	q_err ERANGE "${r}\.speed;" port-set "{$s,\"port\":2,\"speed\":8}"
	q_err ERANGE "${r}\.lid;" port-set "{$s,\"port\":1,\"lid\":49152}"
	q_err ERANGE "${r}\.lid;" host-new "{$s,\"port\":4,\"lid\":49152}"
	q_err ERANGE "${r}\.addr\.lid;" addr-set "{\"addr\":[{\"ip\":\"$(v4hex 10.9.0.3)\",\"lid\":49152}]}"
	q_err ERANGE "${r}\.addr\.lid;" addr-set "{\"addr\":[{\"ip\":\"$(v4hex 10.9.0.3)\",\"lid\":0}]}"
	q_err ERANGE "${r}\.addr\.ip;" addr-set '{"addr":[{"ip":"0a090003","lid":3}]}'
	q_err EINVAL "SL 5 mapped to VL 16" port-set "{$s,\"port\":2,\"sl2vl\":[{\"map\":\"00010203001002030001020300010203\"}]}"
	q_err ERANGE "${r}\.sl2vl\.map" port-set "{$s,\"port\":2,\"sl2vl\":[{\"map\":\"000102\"}]}"
	q_err ERANGE "${r}\.sl2vl\.in-port" port-set "{$s,\"port\":2,\"sl2vl\":[{\"in-port\":255,\"map\":\"$ok16\"}]}"
	q_err EINVAL "msg: .*(buffer|credit)" port-set "{$s,\"port\":2,\"vl\":[{\"vl\":0,\"buffer-credits\":1}]}"
	q_err EINVAL "LFT of 49153 entries" lft-set "{\"name\":\"$S1\",\"lft\":\"$(hexrep 49153 ff)\"}"
	q_err EINVAL "LID 2 to port 5" lft-set "{\"name\":\"$S1\",\"lft\":\"00ff05\"}"
	q_err ERANGE "${r}\.mac;" host-new "{$s,\"port\":4,\"mac\":\"0200000001\"}"
	q_err EINVAL "${r}\.name;" switch-new "{\"name\":\"$(printf 'n%.0s' {1..33})\",\"nr-ports\":1}"
	refused
}

other_refusals() {
	local s=\"switch-name\":\"$S1\" e=
	local v='{"vl":1,"weight":1}'

	for _ in {1..65}; do e+=${e:+,}$v; done
	q_err EINVAL "VL 1 given twice" port-set "{$s,\"port\":2,\"vl\":[{\"vl\":1,\"buffer-credits\":100},{\"vl\":1,\"buffer-credits\":100}]}"
	q_err EINVAL "vlarb-low: more than 64 entries" port-set "{$s,\"port\":2,\"vlarb-low\":[$e]}"
	q_err EINVAL "vlarb-high: an empty entry" port-set "{$s,\"port\":2,\"vlarb-high\":[{},$v]}"
	# a table that leaves VL 1 of the port's 2 without weight (an SM may set it)
	q_err EINVAL "VL 1 of port 2 has no weight" port-set "{$s,\"port\":2,\"vlarb-low\":[{\"vl\":0,\"weight\":64},{\"vl\":1,\"weight\":0}]}"
	q_err EINVAL "not both" host-new "{$s,\"port\":4,\"netns-fd\":0,\"netns-pid\":1}"
	q_err EBADF "netns-fd 999 is not" host-new "{$s,\"port\":4,\"netns-fd\":999}"
	q_err ESRCH "no process 4000000" host-new "{$s,\"port\":4,\"netns-pid\":4000000}"
	q_err EBADF "netns-fd 999 is not" mgmt-new "{$s,\"port\":4,\"netns-fd\":999}"
	q_err ESRCH "no process 4000000" mgmt-new "{$s,\"port\":4,\"netns-pid\":4000000}"
	q_err EINVAL "MAC 01:00:5e:00:00:01 is not a unicast" host-new "{$s,\"port\":4,\"mac\":\"01005e000001\"}"
	q_err EINVAL "MAC 00:00:00:00:00:00" host-new "{$s,\"port\":4,\"mac\":\"000000000000\"}"
	q_err EINVAL "not a valid name" host-new "{$s,\"port\":4,\"ifname\":\"a/b\"}"
	# the core's refusals come through with their messages
	q_err EEXIST "appears twice" addr-set "{\"addr\":[{\"ip\":\"$(v4hex 10.9.0.7)\",\"lid\":1},{\"ip\":\"$(v4hex 10.9.0.7)\",\"lid\":2}]}"
	q_err EINVAL "input port 9" port-set "{$s,\"port\":2,\"sl2vl\":[{\"in-port\":9,\"map\":\"00010203000102030001020300010203\"}]}"
	q_err EBUSY "LID 2 is taken" port-set "{$s,\"port\":1,\"lid\":2}"
	q_err EBUSY "unconnected" port-set "{$s,\"port\":1,\"vl\":[{\"vl\":0,\"buffer-credits\":300}]}"
	q_err EBUSY "port 1 of $S1" host-new "{$s,\"port\":1}"
	q_err EBUSY "port 3 of $S1" link-new "{$s,\"port\":3,\"peer-switch-name\":\"$S2\",\"peer-port\":4}"
	q_err EINVAL "itself" link-new "{$s,\"port\":4,\"peer-switch-name\":\"$S1\",\"peer-port\":4}"
	q_err ENOTCONN "not linked" link-del "{$s,\"port\":2}"
	q_err ENOTCONN "not a host port" host-del "{$s,\"port\":3}"
	refused
}

names() {
	local n=nosuch-$IBSW_SFX m="no switch named nosuch-$IBSW_SFX"
	local p=\"port\":1

	q_err EEXIST "bad-attr: \.name;.*$S1 exists" switch-new "{\"name\":\"$S1\",\"nr-ports\":2}"
	q_err EINVAL msg: switch-new '{"name":"","nr-ports":2}'
	q_err EINVAL msg: switch-new '{"name":"a/b","nr-ports":2}'
	q_err ENOENT "bad-attr: \.name;.*$m" switch-del "{\"name\":\"$n\"}"
	q_err ENOENT "$m" switch-get "{\"name\":\"$n\"}"
	q_err ENOENT "$m" lft-set "{\"name\":\"$n\",\"lft\":\"00\"}"
	q_err ENOENT "$m" lft-get "{\"name\":\"$n\"}"
	q_err ENOENT "bad-attr: \.switch-name;.*$m" port-get "{\"switch-name\":\"$n\",$p}"
	q_err ENOENT "$m" -d port-get "{\"switch-name\":\"$n\"}"
	q_err ENOENT "$m" port-set "{\"switch-name\":\"$n\",$p,\"nr-vls\":1}"
	q_err ENOENT "bad-attr: \.switch-name;.*$m" link-new "{\"switch-name\":\"$n\",\"port\":4,\"peer-switch-name\":\"$S2\",\"peer-port\":4}"
	q_err ENOENT "bad-attr: \.peer-switch-name;.*$m" link-new "{\"switch-name\":\"$S1\",\"port\":4,\"peer-switch-name\":\"$n\",\"peer-port\":4}"
	q_err ENOENT "$m" link-del "{\"switch-name\":\"$n\",\"port\":3}"
	q_err ENOENT "$m" host-new "{\"switch-name\":\"$n\",\"port\":4}"
	q_err ENOENT "$m" host-del "{\"switch-name\":\"$n\",$p}"
	q_err ENOENT "$m" counters-clear "{\"switch-name\":\"$n\"}"
	refused
}

# Without CAP_NET_ADMIN: every change is refused, reads work
unprivileged() {
	local s=\"switch-name\":\"$S1\" e=EPERM
	local -a drop=(setpriv --inh-caps=-net_admin --bounding-set=-net_admin)

	"${drop[@]}" grep Cap /proc/self/status
	q_err $e "" fabric-set '{"time-scale":5}'
	q_err $e "" addr-set '{}'
	q_err $e "" switch-new '{"name":"x'"$IBSW_SFX"'","nr-ports":1}'
	q_err $e "" switch-del "{\"name\":\"$S1\"}"
	q_err $e "" lft-set "{\"name\":\"$S1\",\"lft\":\"00\"}"
	q_err $e "" port-set "{$s,\"port\":2,\"nr-vls\":1}"
	q_err $e "" link-new "{$s,\"port\":4,\"peer-switch-name\":\"$S2\",\"peer-port\":4}"
	q_err $e "" link-del "{$s,\"port\":3}"
	q_err $e "" host-new "{$s,\"port\":4}"
	q_err $e "" host-del "{$s,\"port\":1}"
	q_err $e "" counters-clear "{$s}"
	q_ok fabric-get
	q_dump addr-get
	q_ok switch-get "{\"name\":\"$S1\"}"
	q_dump switch-get
	q_ok lft-get "{\"name\":\"$S1\"}"
	q_ok port-get "{$s,\"port\":1}"
	q_dump port-get
	refused "${drop[@]}"
}

# The family exists in the initial namespace only
other_netns() {
	local out rc

	out=$(echo 'do fabric-get' | ip netns exec "$NS" "${NL[@]}" batch 2>&1)
	rc=$?
	echo "exit $rc: $out"
	[ "$rc" = 2 ] && grep -q "not supported" <<<"$out" ||
		ibsw_fail "the family answers in another netns: $out" || return
	out=$(ip netns exec "$NS" "${NL[@]}" monitor 1 2>&1)
	rc=$?
	echo "exit $rc: $out"
	[ "$rc" = 2 ] || ibsw_fail "monitor works in another netns: $out" || return
	# Nor does sysfs show the fabric there (ip netns exec mounts the
	# namespace's sysfs), while the initial namespace's does
	[ -e "/sys/class/ibsw/$S1/ports/1" ] ||
		ibsw_fail "/sys/class/ibsw/$S1 missing in the initial netns" || return
	out=$(ip netns exec "$NS" ls -A /sys/class/ibsw 2>&1)
	echo "/sys/class/ibsw in $NS: ${out:-empty}"
	[ -z "$out" ] || ibsw_fail "/sys/class/ibsw in another netns: $out"
}

has_ntf() { grep -q "\"name\": \"$1\"" "$2"; }

notifications() {
	local log=${IBSW_CASE_LOG%.log}.monitor.log n

	"${NL[@]}" monitor 60 >"$log" 2>&1 &
	_ibsw_pids+=("$!")
	wait_for "the monitor to subscribe" 30 grep -q '^ready' "$log" || return

	q_ok switch-new "{\"name\":\"$S3\",\"nr-ports\":2}"
	q_ok lft-set "{\"name\":\"$S3\",\"lft\":\"0001\"}"
	q_ok port-set "{\"switch-name\":\"$S3\",\"port\":2,\"nr-vls\":3}"
	q_ok fabric-set '{"pacing":1}'
	q_ok switch-del "{\"name\":\"$S3\"}"
	q_run || return
	wait_for "switch-del-ntf" 20 has_ntf switch-del-ntf "$log" || return
	cat "$log"
	for n in switch-new-ntf switch-change-ntf port-change-ntf fabric-change-ntf; do
		has_ntf "$n" "$log" || ibsw_fail "no $n" || return
	done
	grep '"port-change-ntf"' "$log" | head -1 |
		jq -e '.msg["switch-name"] == "'"$S3"'" and .msg.port == 2 and .msg["nr-vls"] == 3' ||
		ibsw_fail "port-change-ntf does not describe the port"
}

# Dumps larger than one message batch come back whole, once each
dumps() {
	local i n want got

	q_ok switch-new "{\"name\":\"$S3\",\"nr-ports\":64}"
	for i in $(seq 1 60); do
		q_ok switch-new "{\"name\":\"nld$i-$IBSW_SFX\",\"nr-ports\":1}"
	done
	q_dump switch-get
	q_dump port-get "{\"switch-name\":\"$S3\"}"
	q_dump port-get
	q_run || return
	got=$(sed -n 62p <<<"$Q_OUT" | jq '[.reply[] | .name] | map(select(endswith("'"$IBSW_SFX"'"))) | length')
	echo "switch-get dump: $got of our switches"
	[ "$got" = 63 ] || ibsw_fail "switch dump has $got of 63 switches" || return
	got=$(sed -n 63p <<<"$Q_OUT" | jq -c '[.reply[] | .port]')
	want=$(seq 1 64 | jq -sc .)
	[ "$got" = "$want" ] || ibsw_fail "port dump of $S3: $got" || return
	n=$(sed -n 63p <<<"$Q_OUT" | jq '[.reply[] | .sl2vl | length] | min')
	[ "$n" -ge 63 ] || ibsw_fail "a port of $S3 has $n SL-to-VL tables" || return
	got=$(sed -n 64p <<<"$Q_OUT" | jq '[.reply[] | select(.["switch-name"] | endswith("'"$IBSW_SFX"'")) | [.["switch-name"], .port]] | unique | length')
	want=$((NPORTS * 2 + 64 + 60))
	echo "port-get dump: $got of $want ports"
	[ "$got" = "$want" ] || ibsw_fail "full port dump has $got of $want ports" || return

	# the largest forwarding table there is
	q_ok lft-set "{\"name\":\"$S3\",\"lft\":\"00$(hexrep 49151 01)\"}"
	q_ok lft-get "{\"name\":\"$S3\"}"
	q_run || return
	got=$(sed -n 2p <<<"$Q_OUT" | jq '[.reply["lft-top"], (.reply.lft | length / 2)]' -c)
	[ "$got" = "[49151,49152]" ] || ibsw_fail "lft-get of a full table: $got" || return

	for i in $(seq 1 60); do
		q_ok switch-del "{\"name\":\"nld$i-$IBSW_SFX\"}"
	done
	q_ok switch-del "{\"name\":\"$S3\"}"
	q_run
}

# A dump whose passes straddle a change to the fabric says so in
# NLM_F_DUMP_INTR, and one that does not, does not (read 8 KiB a pass)
dump_intr() {
	local i out

	for i in $(seq 1 40); do
		q_ok switch-new "{\"name\":\"nli$i-$IBSW_SFX\",\"nr-ports\":8}"
	done
	q_run || return
	out=$("${NL[@]}" dump-intr port-get true) ||
		ibsw_fail "dump-intr port-get failed" || return
	echo "no change in between: $out"
	jq -e '.parts >= 3 and (.intr_before | not) and (.intr_after | not)' \
		<<<"$out" >/dev/null ||
		ibsw_fail "a dump without a change: $out" || return
	out=$("${NL[@]}" dump-intr port-get "$IBSWCTL" switch add "nli0-$IBSW_SFX" ports 1) ||
		ibsw_fail "dump-intr port-get with a change failed" || return
	echo "a switch added in between: $out"
	jq -e '.parts >= 3 and (.intr_before | not) and .intr_after' \
		<<<"$out" >/dev/null ||
		ibsw_fail "a dump across a change: $out" || return

	for i in $(seq 0 40); do
		q_ok switch-del "{\"name\":\"nli$i-$IBSW_SFX\"}"
	done
	q_run
}

ibsw_case accepted accepted
ibsw_case cli_extack cli_extack
ibsw_case missing_attrs missing_attrs
ibsw_case out_of_range out_of_range
ibsw_case other_refusals other_refusals
ibsw_case names names
ibsw_case unprivileged unprivileged
ibsw_case other_netns other_netns
ibsw_case notifications notifications
ibsw_case dumps dumps
ibsw_case dump_intr dump_intr

ibsw_exit
