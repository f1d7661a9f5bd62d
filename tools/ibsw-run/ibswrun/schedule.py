# SPDX-License-Identifier: GPL-2.0
"""The schedule held for slow flow starts: pure functions.

A flow's program takes a variable, sometimes long, time to start in the
test VM (perftest: 2.5 to 20 wall seconds and more under QEMU TCG), while
a scenario's times are fixed in emulated time. So the runner launches the
flows due at one scheduled time together (a *group*), then holds the rest
of the scenario (later starts and stops, apps, window edges, the end of
the run) until each of them has measurably started: its source's
port_rcv_data (the counter the report measures its throughput with) has
grown by a few largest packets since the launch. Everything later is
shifted by how much later than scheduled the group started; the shifts
add up. A group's record, in run.json's schedule.groups:

    {"scheduled": s, "launched": t, "flows": [names], "measured": {name: t or null},
     "delay": d, "failed": {name: reason}}

s is the scenario's time, t the emulated time of the launch (s plus the
shift before it, or later on a loaded CPU), d the shift the group added
(the latest measured start, or the time the runner gave up on a flow,
less s plus the shift before; never negative). The semantics are in
Documentation/experiments.md ("Start times and windows").
"""

# A flow has started once its source sent this many largest packets.
START_PACKETS = 4
# Bytes on the wire over the IB MTU (LRH, GRH, BTH, RETH, ICRC, VCRC),
# rounded up.
PACKET_OVERHEAD = 128
# Wall-clock seconds the runner waits for a launched flow to start.
DEFAULT_START_TIMEOUT = 60.0
TOL = 1e-12


def start_words(mtu, packets=START_PACKETS):
    """port_rcv_data (32-bit words) of `packets` packets of the IB MTU."""
    return packets * (mtu + PACKET_OVERHEAD) // 4


def measured_start(samples, launch, words):
    """The emulated time of the first sample at which a flow launched at
    `launch` has measurably started: its counter grew by at least `words`
    since the last sample at or before the launch (the first sample if
    none is). samples: (t, cumulative value) in time order. None if no
    sample shows it (yet)."""
    base = None
    for t, v in samples:
        if base is None or t <= launch + TOL:
            base = v
        elif v - base >= words:
            return t
    return None


def group_delay(scheduled, shift_before, resolved):
    """The shift a group adds: the latest of its flows' measured starts
    (or the times the runner gave up on them), `resolved`, less its
    scheduled time plus the shift before it; at least 0."""
    return max([0.0] + [r - (scheduled + shift_before) for r in resolved])


def shift_at(t, groups, inclusive):
    """The shift of a scheduled time t: the delays of the groups scheduled
    before t, and with inclusive those at t too. A window's start is
    inclusive (a window opening with a flow waits for it), its stop and a
    flow's stop are not (a window closing when a flow is due ends at
    that flow's launch, before it sends)."""
    return sum(g.get('delay') or 0.0 for g in groups
               if g['scheduled'] < t - TOL or (inclusive and abs(g['scheduled'] - t) <= TOL))


def actual_windows(windows, groups, duration):
    """Window name -> (start, stop) in the run's emulated time: each edge
    shifted by shift_at; `run` is [0, the shifted end]."""
    out = {}
    for name, (a, b) in windows.items():
        if name == 'run':
            out[name] = (0.0, duration + shift_at(duration, groups, False))
        else:
            out[name] = (a + shift_at(a, groups, True), b + shift_at(b, groups, False))
    if 'run' not in out:
        out = {'run': (0.0, duration + shift_at(duration, groups, False)), **out}
    return out


def edges(windows, duration):
    """(scheduled time, inclusive) of each window edge and of the run's 0
    and end, distinct, in time order."""
    out = {(0.0, False), (float(duration), False)}
    for name, (a, b) in windows.items():
        if name != 'run':
            out.update(((float(a), True), (float(b), False)))
    return sorted(out)


def known_edges(edge_list, groups, pending):
    """The edges whose place in the run's time is known while the group
    scheduled at `pending` (None: none) is held: those before it, and at
    it those that do not wait for it. Their run times, sorted, distinct."""
    out = set()
    for e, inclusive in edge_list:
        if pending is not None and (e > pending + TOL or
                                    (inclusive and abs(e - pending) <= TOL)):
            continue
        out.add(round(e + shift_at(e, groups, inclusive), 12))
    return sorted(out)


def invalid_windows(windows, flows, failed):
    """Window name -> the reasons it is invalid: a flow that should have
    run in it, `flows` name -> its scheduled (start, stop), is in `failed`
    (name -> why, as "F3 did not start within 60 s"). A window [a, b)
    should contain the flows with start < b and a < stop; `run` all of
    them."""
    out = {}
    for w, (a, b) in windows.items():
        why = [failed[f] for f, (s, e) in flows.items()
               if f in failed and (w == 'run' or (s < b - TOL and a < e - TOL))]
        if why:
            out[w] = why
    return out


def total_shift(groups):
    return sum(g.get('delay') or 0.0 for g in groups)


def perftest_slack(flow_start, flow_stop, group_times, timeout):
    """Wall seconds a flow may have to run beyond (stop - start) x scale:
    a start timeout for each group scheduled from its start to before its
    stop, its own among them (perftest's -D must not end it first)."""
    n = len({round(s, 12) for s in group_times if flow_start - TOL <= s < flow_stop - TOL})
    return n * timeout
