#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-options: -c 1
#
# The experiment runner end to end on this kernel (ibsw-run --no-vm):
# scenarios/two-flows.scn (H1 and H2 into H5's 1x SDR link) gives the
# samples, summary and plots it should (each flow half the link, Jain's
# index near 1); a run stopped through DIR/.stop tears the fabric down and
# keeps its samples; switch marking (cc switch) and HCA congestion control
# (cc hca: a flow held at a CCT entry's rate) apply; a fixed-size flow
# ends by itself with its completion time; a sweep runs each of its
# points and tabulates them; bad scenario files are refused,
# FILE:LINE, before anything starts.
# shellcheck source=tests/lib.sh disable=SC2317
. "$(dirname "$0")/../lib.sh"

RUN=$IBSW_ROOT/tools/ibsw-run/ibsw-run
SCN=$IBSW_ROOT/scenarios/two-flows.scn

ibsw_require_ibsw
[ -x "$RUN" ] || ibsw_setup_fail "$RUN missing"

# Nothing of a fabric is left: no switch, no namespace, no perftest.
fabric_gone() {
	local sw ns

	sw=$(ls /sys/class/ibsw 2>/dev/null)
	[ -z "$sw" ] || ibsw_fail "switches left: ${sw//$'\n'/ }" || return
	ns=$(ip netns list)
	[ -z "$ns" ] || ibsw_fail "namespaces left: ${ns//$'\n'/ }" || return
	# process names, matched whole (pgrep ignores patterns over 15 characters)
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		! pgrep -lx "$t" || ibsw_fail "perftest still running" || return
	done
}

# check_results DIR MODE: the results directory of a two-flows run; prints what
# it measured, exits 1 with the reason on its last line.
check_results() {
	python3 - "$@" <<'EOF'
import csv, json, os, struct, sys

d, mode = sys.argv[1], sys.argv[2]
def bad(why):
    print(why)
    sys.exit(1)

with open(os.path.join(d, 'run.json')) as f:
    run = json.load(f)
with open(os.path.join(d, 'summary.json')) as f:
    summ = json.load(f)
rows = list(csv.reader(open(os.path.join(d, 'samples.csv'))))
head, rows = rows[0], rows[1:]
want = ['t', 'wall', 'flow:F1', 'flow:F2', 'S1/5:port_xmit_data', 'S1/5:port_xmit_wait']
if head != want:
    bad('samples.csv columns %s, expected %s' % (head, want))
vals = [[float(x) for x in r] for r in rows]
if len(vals) < 2:
    bad('samples.csv has %d rows' % len(vals))
if any(len(r) != len(want) for r in vals):
    bad('samples.csv: a row without %d values' % len(want))
if vals[0][0] > 0.0005:
    bad('first sample at t=%g, not 0' % vals[0][0])
for a, b in zip(vals, vals[1:]):
    if b[0] <= a[0] or b[1] <= a[1]:
        bad('samples.csv: time goes back at t=%g' % b[0])
    if any(y < x for x, y in zip(a[2:], b[2:])):
        bad('samples.csv: a counter decreased at t=%g' % b[0])
for name in ('F1', 'F2'):
    fl = run['flows'][name]
    if fl['started'] is None or fl['stopped'] is None:
        bad('run.json: %s started %s stopped %s' % (name, fl['started'], fl['stopped']))
if run['sources'] != {'F1': {'switch': 'S1', 'port': 1}, 'F2': {'switch': 'S1', 'port': 2}}:
    bad('run.json: sources %s' % run['sources'])
for png in ('throughput.png', 'counters.png'):
    with open(os.path.join(d, png), 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n' or data[12:16] != b'IHDR' or data[-8:-4] != b'IEND':
        bad('%s is not a PNG' % png)
    w, h = struct.unpack('>II', data[16:24])
    if w < 100 or h < 100 or len(data) < 5000:
        bad('%s: %dx%d, %d bytes' % (png, w, h, len(data)))
    print('%s: %dx%d, %d bytes' % (png, w, h, len(data)))

if mode == 'complete':
    if run['interrupted'] or run['error'] or summ['interrupted']:
        bad('interrupted %s, error %s' % (run['interrupted'], run['error']))
    # 20 ms sampled every 0.5 ms, the end moved by the flows' late start
    # (run.json's schedule): 41 rows and more unless a loaded CPU skipped some
    end = run['schedule']['end']
    want = int(end / 0.0005 + 1e-6) + 1
    if not 0.75 * want <= len(vals) <= want + 1 or vals[-1][0] < end - 1e-9:
        bad('%d samples up to t=%g, expected %d up to %g' % (len(vals), vals[-1][0], want, end))
    f1 = summ['flows']['F1']['windows']['steady']['mean']
    f2 = summ['flows']['F2']['windows']['steady']['mean']
    jain = summ['fairness']['pair']['jain']['steady']
    link = summ['counters']['S1/5:port_xmit_data_gbps']['windows']['steady']['mean']
    print('steady: F1 %.3f F2 %.3f Gb/s, H5 link %.3f Gb/s, Jain %.4f' % (f1, f2, link, jain))
    # 1x SDR carries 2 Gb/s of data, and the two flows share it. The link
    # measured 92 to 100% of its rate when the host was idle, down to 75%
    # with other VMs busy on the same cores (the CPU then sets the rate:
    # Documentation/ibsw-design.md, timer slack); below 70% something is
    # wrong. Each flow gets half of what the link carried, within 10%.
    if link < 1.4:
        bad("H5's link at %.3f Gb/s, below 70%% of 2" % link)
    for n, v in (('F1', f1), ('F2', f2)):
        if abs(v / link - 0.5) > 0.05:
            bad('%s %.3f Gb/s, not half of the %.3f Gb/s of the link' % (n, v, link))
    if jain is None or jain < 0.9:
        bad("Jain's index %s < 0.9" % jain)
else:
    if not run['interrupted'] or not summ['interrupted'] or run['error']:
        bad('interrupted %s/%s, error %s' % (run['interrupted'], summ['interrupted'], run['error']))
    if vals[-1][0] >= run['schedule']['end']:
        bad('the last sample at t=%g: the run was not stopped midway' % vals[-1][0])
    if vals[-1][2] == 0 or vals[-1][3] == 0:
        bad('no traffic in the samples kept')
    print('stopped at t=%g after %d samples' % (vals[-1][0], len(vals)))
EOF
}

two_flows() {
	local out=$IBSW_LOGDIR/two-flows rc

	timeout -k 10 300 "$RUN" --no-vm "$SCN" -o "$out"
	rc=$?
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc" || return
	check_results "$out" complete >"$IBSW_LOGDIR/two-flows.check" 2>&1
	rc=$?
	cat "$IBSW_LOGDIR/two-flows.check"
	[ "$rc" = 0 ] || ibsw_fail "$(tail -n 1 "$IBSW_LOGDIR/two-flows.check")" || return
	fabric_gone
}
ibsw_case two_flows two_flows
[ -s "$IBSW_LOGDIR/two-flows.check" ] &&
	ibsw_note "two-flows $(grep '^steady' "$IBSW_LOGDIR/two-flows.check")"

# The scenario's cc lines reach the switch before the flows: with marking
# on at S1, the port to H5 marks the two flows' packets (port_xmit_fecn
# sampled like any counter); cc settings S1 does not take fail the run.
cc_marking() {
	local out=$IBSW_LOGDIR/cc scn=$IBSW_LOGDIR/cc.scn rc fecn

	sed -e '/^cc off/d' -e 's/^counter S1\/5 .*/counter S1\/5 port_xmit_data port_xmit_fecn/' \
		-e 's/^duration .*/duration 10ms/' -e 's/^window .*/window steady 5ms 10ms/' \
		"$SCN" >"$scn"
	printf '%s\n' "cc switch S1 threshold 15 marking_rate 0 packet_size 8" >>"$scn"
	sed -i "s|^topology .*|topology $IBSW_ROOT/topologies/fan-in.net|" "$scn"
	timeout -k 10 300 "$RUN" --no-vm "$scn" -o "$out"
	rc=$?
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc" || return
	fabric_gone || return
	fecn=$(jq -r '.counters["S1/5:port_xmit_fecn"].windows.steady.mean' "$out/summary.json")
	echo "S1/5 port_xmit_fecn: $fecn packets/s in the steady window"
	jq -e '.cc == "switch marking"' "$out/summary.json" >/dev/null ||
		ibsw_fail "summary.json does not say the switches marked" || return
	awk -v f="$fecn" 'BEGIN { exit !(f + 0 > 0) }' ||
		ibsw_fail "S1's port to H5 marked nothing ($fecn)"
}
ibsw_case cc_marking cc_marking

# An app on host '-' runs beside ibsw-run, in the namespace that has the
# fabric's management bridge (no host has it), with {run.dir} and
# {run.scale} expanded and ibswctl in its PATH; it gets no throughput
# column and the flows' columns stay as they were.
control_app() {
	local out=$IBSW_LOGDIR/ctl scn=$IBSW_LOGDIR/ctl.scn rc

	# The app (ip, ibswctl, jq) takes about 3 s of wall time in the VM, 6 ms
	# of emulated time at scale 500: it has 20 ms, as a busy machine may
	# take several times that
	sed -e 's/^duration .*/duration 25ms/' -e 's/^window .*/window steady 5ms 10ms/' \
		-e "s|^topology .*|topology $IBSW_ROOT/topologies/fan-in.net|" "$SCN" >"$scn"
	cat >"$IBSW_LOGDIR/mgr.sh" <<'MGR'
ip -o link show ibsw-mgmt >"$1/mgr.txt" &&
	ibswctl -j fabric show | jq -e --argjson s "$2" '.time_scale == $s' >>"$1/mgr.txt"
MGR
	echo "app mgr - start 2ms -- sh $IBSW_LOGDIR/mgr.sh {run.dir} {run.scale}" >>"$scn"
	timeout -k 10 300 "$RUN" --no-vm "$scn" -o "$out"
	rc=$?
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc" || return
	fabric_gone || return
	cat "$out/mgr.txt" 2>/dev/null
	grep -q 'ibsw-mgmt' "$out/mgr.txt" 2>/dev/null && [ "$(tail -n 1 "$out/mgr.txt")" = true ] ||
		ibsw_fail "the app did not see ibsw-mgmt and the fabric's scale in {run.dir}: $(jq -c '.flows.mgr' "$out/run.json" 2>&1), log: $(tail -c 300 "$out/flows/mgr.log" 2>&1)" || return
	[ "$(jq -r '.flows.mgr.exit' "$out/run.json")" = 0 ] ||
		ibsw_fail "the app's exit: $(jq -c '.flows.mgr' "$out/run.json")" || return
	[ "$(head -n 1 "$out/samples.csv")" = "t,wall,flow:F1,flow:F2,S1/5:port_xmit_data,S1/5:port_xmit_wait" ] ||
		ibsw_fail "samples.csv columns: $(head -n 1 "$out/samples.csv")" || return
	jq -e '.flows | has("mgr") | not' "$out/summary.json" >/dev/null ||
		ibsw_fail "summary.json has a throughput for the app"
}
ibsw_case control_app control_app

# cc hca: F1's rxe holds it at CCT index 1 (CCTI_Min), an IRD of three
# largest packets: a quarter of H5's link (0.498 Gb/s); F2 takes the rest.
cc_hca() {
	local out=$IBSW_LOGDIR/hca scn=$IBSW_LOGDIR/hca.scn rc f1 f2

	sed -e '/^cc off/d' -e "s|^topology .*|topology $IBSW_ROOT/topologies/fan-in.net|" \
		"$SCN" >"$scn"
	printf '%s\n' "cc hca H1 ccti_min 1 cct 0:0,0:3" >>"$scn"
	timeout -k 10 300 "$RUN" --no-vm "$scn" -o "$out"
	rc=$?
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc" || return
	fabric_gone || return
	jq -e '.cc == "HCA"' "$out/summary.json" >/dev/null ||
		ibsw_fail "summary.json's cc is $(jq -c .cc "$out/summary.json"), not HCA" || return
	f1=$(jq -r '.flows.F1.windows.steady.mean' "$out/summary.json")
	f2=$(jq -r '.flows.F2.windows.steady.mean' "$out/summary.json")
	echo "F1 $f1 Gb/s (its CCT entry predicts 0.498), F2 $f2 Gb/s"
	awk -v a="$f1" -v b="$f2" 'BEGIN { exit !(a >= 0.40 && a <= 0.60 && b >= 2 * a) }' ||
		ibsw_rate_fail "F1 $f1, F2 $f2 Gb/s: F1 not held near 0.5 Gb/s by its CCT"
}
ibsw_case cc_hca cc_hca

# A fixed-size flow (count): F1 alone sends 100 messages of 64 KiB into
# H5's 1x SDR link (2 Gb/s) and ends by itself; its completion time, from
# its port's counter, is at least what the link allows (26.2 ms) and not
# much more.
fixed_size() {
	local out=$IBSW_LOGDIR/fixed scn=$IBSW_LOGDIR/fixed.scn rc t

	sed -e '/^flow F2/d' -e '/^fairness/d' -e 's/^flow F1 H1 H5 write$/flow F1 H1 H5 write count 100/' \
		-e 's/^duration .*/duration 60ms/' \
		-e "s|^topology .*|topology $IBSW_ROOT/topologies/fan-in.net|" "$SCN" >"$scn"
	grep -q 'count 100' "$scn" || ibsw_fail "no count in $scn" || return
	timeout -k 10 300 "$RUN" --no-vm "$scn" -o "$out"
	rc=$?
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc" || return
	fabric_gone || return
	jq -c '.flows.F1.completion' "$out/summary.json"
	[ "$(jq -r '.flows.F1.exit' "$out/run.json")" = 0 ] ||
		ibsw_fail "F1's perftest: $(jq -c '.flows.F1' "$out/run.json")" || return
	t=$(jq -r '.flows.F1.completion.time' "$out/summary.json")
	awk -v t="$t" 'BEGIN { exit !(t >= 0.0262 && t <= 0.0262 * 1.4) }' ||
		ibsw_rate_fail "F1's 6.55 MB took $t s: not 26.2 ms at 2 Gb/s to 40% more" || return
	grep -q '^completion F1: 100 x 65536 B in ' "$out/summary.txt" ||
		ibsw_fail "summary.txt has no completion line for F1"
}
ibsw_case fixed_size fixed_size

# A sweep (sweep lines): the cc_hca scenario with F1's CCTI_Min at 0 and
# 1, two runs in points/ID/, then the sweep's table: F1 at half of H5's
# link at 0 (its CCT's entry 0 holds nothing back), near its CCT entry's
# 0.498 Gb/s at 1. --resume on the finished sweep runs nothing again.
# timelines.png draws both points against time, each titled with its ID,
# and each point's own plots name it.
sweep_two_points() {
	local out=$IBSW_LOGDIR/sweep scn=$IBSW_LOGDIR/sweep.scn rc

	sed -e '/^cc off/d' -e "s|^topology .*|topology $IBSW_ROOT/topologies/fan-in.net|" \
		"$SCN" >"$scn"
	# shellcheck disable=SC2016 # ${ccti_min} is the sweep's, not the shell's
	printf '%s\n' 'sweep ccti_min 0 1' 'cc hca H1 ccti_min ${ccti_min} cct 0:0,0:3' \
		'timelines ccti_min=1 ccti_min=0' >>"$scn"
	timeout -k 10 600 "$RUN" --no-vm "$scn" -o "$out"
	rc=$?
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run exit $rc" || return
	fabric_gone || return
	cat "$out/sweep.txt"
	jq -e '[.points[].state] == ["done", "done"]' "$out/sweep.json" >/dev/null ||
		ibsw_fail "point states $(jq -c '[.points[].state]' "$out/sweep.json")" || return
	[ "$(head -n 1 "$out/sweep.csv")" = "point,ccti_min,state,F1 steady,F2 steady,F1 steady payload,F2 steady payload,jain pair steady,sum pair steady,var pair steady" ] ||
		ibsw_fail "sweep.csv columns: $(head -n 1 "$out/sweep.csv")" || return
	# the pair's sum is F1's and F2's means; its treatment variation a
	# variance (seed 002's Var)
	awk -F, 'NR > 1 { d = $9 - $4 - $5; if (d < -1e-9 || d > 1e-9 || $10 == "" || $10 < 0) bad = 1 }
		END { exit bad || NR != 3 }' "$out/sweep.csv" ||
		ibsw_fail "sum or var of the pair wrong: $(cut -d, -f4,5,9,10 "$out/sweep.csv" | tr '\n' ' ')" ||
		return
	awk -F, 'NR == 2 { a = $4 } NR == 3 { b = $4 }
		END { exit !(a >= 0.8 && a <= 1.2 && b >= 0.40 && b <= 0.60) }' "$out/sweep.csv" ||
		ibsw_rate_fail "F1 $(cut -d, -f4 "$out/sweep.csv" | tail -n 2 | tr '\n' ' ')Gb/s: not about 1 at CCTI_Min 0 and 0.5 at 1" || return
	# its payload: 64 KiB writes in 16 packets of 4096 (fabric up's MTU),
	# each with 26 bytes of headers and the first with a RETH of 16
	awk -F, 'NR > 1 { r = $6 / $4; if (r < 0.99345 || r > 0.99347) bad = 1 }
		END { exit bad || NR != 3 }' "$out/sweep.csv" ||
		ibsw_fail "F1's payload $(cut -d, -f6 "$out/sweep.csv" | tail -n 2 | tr '\n' ' ')is not 65536/65968 of its throughput" ||
		return
	grep -q 'ccti_min 1 cct 0:0,0:3' "$out/points/ccti_min=1/scenario.scn" ||
		ibsw_fail "points/ccti_min=1/scenario.scn does not have its value" || return
	if command -v gnuplot >/dev/null; then
		[ "$(head -c 4 "$out/timelines.png" | od -An -c | tr -d ' ')" = '211PNG' ] ||
			ibsw_fail "no timelines.png" || return
		[ "$(grep -c "^set title 'ccti_min=[01]'" "$out/timelines.gp")" = 2 ] &&
			grep -q "'points/ccti_min=0/throughput.csv' skip 1" "$out/timelines.gp" ||
			ibsw_fail "timelines.gp does not draw both points" || return
		grep -q "^set title '.*\[ccti_min=1\]: CC " "$out/points/ccti_min=1/throughput.gp" ||
			ibsw_fail "the point's throughput.png does not name it" || return
	fi
	timeout -k 10 60 "$RUN" --no-vm "$scn" -o "$out" --resume >"$IBSW_LOGDIR/resume.log" 2>&1
	rc=$?
	cat "$IBSW_LOGDIR/resume.log"
	[ "$rc" = 0 ] || ibsw_fail "ibsw-run --resume exit $rc" || return
	grep -q '2 points (ccti_min 2), 0 to run' "$IBSW_LOGDIR/resume.log" ||
		ibsw_fail "--resume did not keep both points" || return
	! grep -q 'sweep point' "$IBSW_LOGDIR/resume.log" ||
		ibsw_fail "--resume ran a point again"
}
ibsw_case sweep_two_points sweep_two_points

# Traffic of both flows in the last sample so far.
flows_running() {
	awk -F, 'NR > 1 { last = $3 > 0 && $4 > 0 } END { exit !last }' "$1/samples.csv" 2>/dev/null
}

stopped_midway() {
	local out=$IBSW_LOGDIR/stopped pid rc

	timeout -k 10 300 "$RUN" --no-vm "$SCN" -o "$out" &
	pid=$!
	_ibsw_pids+=("$pid")
	wait_for "both flows to run" 120 flows_running "$out" || return
	echo "$(ibsw_ts) touch $out/.stop"
	touch "$out/.stop"
	ibsw_wait_pid "$pid" 60
	rc=$?
	[ "$rc" = 130 ] || ibsw_fail "ibsw-run exit $rc, not 130 (interrupted)" || return
	fabric_gone || return
	check_results "$out" stopped >"$IBSW_LOGDIR/stopped.check" 2>&1
	rc=$?
	cat "$IBSW_LOGDIR/stopped.check"
	[ "$rc" = 0 ] || ibsw_fail "$(tail -n 1 "$IBSW_LOGDIR/stopped.check")"
}
ibsw_case stopped_midway stopped_midway

# bad_scenario LINE REASON-REGEX BODY: a scenario whose line LINE is wrong
# is refused with "FILE:LINE: reason" (exit 2), creates no results
# directory and starts nothing.
bad_scenario() {
	local line=$1 re=$2 body=$3 f out rc err

	f=$IBSW_LOGDIR/bad-$line-$RANDOM.scn
	out=$f.results
	printf '%s\n' "topology $IBSW_ROOT/topologies/fan-in.net" "duration 10ms" \
		"flow F1 H1 H5 write" "$body" >"$f"
	err=$("$RUN" --no-vm "$f" -o "$out" 2>&1 >/dev/null)
	rc=$?
	echo "exit $rc: $err"
	[ "$rc" = 2 ] || ibsw_fail "exit $rc, not 2: $err" || return
	[[ $err =~ ^$f:$line:\ $re ]] || ibsw_fail "not '$f:$line: $re...': $err" || return
	[ ! -e "$out" ] || ibsw_fail "$out was created" || return
	fabric_gone
}

bad_scenarios() {
	bad_scenario 4 ".*frobnicate" "frobnicate 3" &&
		bad_scenario 4 "say what to turn on" "cc on" &&
		bad_scenario 4 "unknown cc hca host 'H9'" "cc hca H9 ccti_increase 1" &&
		bad_scenario 4 "bad CCT entry '4:1'" "cc hca * cct 0:0,4:1" &&
		bad_scenario 4 ".*H9" "flow F2 H9 H5 write" &&
		bad_scenario 4 ".*stop <= duration" "flow F2 H2 H5 write stop 20ms" &&
		bad_scenario 4 ".*F1" "flow F1 H2 H5 write" &&
		bad_scenario 4 ".*F3" "fairness x F1,F3" &&
		bad_scenario 4 "sweep a: no line uses" "sweep a 1 2"
}
ibsw_case bad_scenarios bad_scenarios

ibsw_exit
