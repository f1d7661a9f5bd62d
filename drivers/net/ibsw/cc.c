// SPDX-License-Identifier: GPL-2.0
/*
 * Switch congestion control: threshold levels, time accounting, port
 * masks and the log ring (cc.h). The datapath's use of them is in
 * engine.c, the settings in ccctl.c.
 */

#include <kunit/visibility.h>
#include <linux/bitmap.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "cc.h"
#include "rate.h"

/**
 * ibsw_cc_enter_level() - fill at which a port VL enters the state
 * @threshold: 0 (off) to 15
 * @buf_credits: the VL's input buffer size of the port, in credits: what
 *	one input can hold, the yardstick of the fill
 * @floor: the lowest level: one largest packet (M), plus what pacing
 *	jitter alone queues on the port's link (ibsw_engine_cc_levels())
 *
 * L(t) = F + (16 - t) (B - F) / 15, rounded down: uniformly decreasing
 * from one full input buffer (t = 1: B) to a little above the floor
 * (t = 15: F + (B - F) / 15), never below the floor F. With F = M, one
 * largest packet, what a single packet on its way through takes, t = 15
 * is about two largest packets.
 *
 * Return: the level in credits, or 0 for threshold 0 (never enter).
 */
u32 ibsw_cc_enter_level(unsigned int threshold, unsigned int buf_credits,
			unsigned int floor)
{
	unsigned int span;

	if (!threshold)
		return 0;
	if (threshold > IBSW_CC_THRESHOLD_MAX)
		threshold = IBSW_CC_THRESHOLD_MAX;
	span = buf_credits > floor ? buf_credits - floor : 0;
	return floor + (16 - threshold) * span / 15;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_enter_level);

/**
 * ibsw_cc_jitter_credits() - queue that pacing jitter alone can build
 * @rate_bps: data rate of the output port's link
 * @scale: the fabric's time scale (at least 1)
 * @slack_ns: wall-clock time by which engines may run late and catch up
 *
 * An emulated link is paced by timers that fire late and then catch up,
 * so a link at line rate behind another one sees bursts of up to what it
 * carries in that slack, with no congestion at all. The levels start
 * above it (ibsw_engine_set_cc()), or a single flow would be marked.
 *
 * Return: that many bytes of the link, in credits, rounded up.
 */
u32 ibsw_cc_jitter_credits(u64 rate_bps, u32 scale, u64 slack_ns)
{
	u64 bytes = mul_u64_u64_div_u64(rate_bps, slack_ns,
					8ULL * NSEC_PER_SEC * max(scale, 1U));

	return min_t(u64, DIV_ROUND_UP_ULL(bytes, IBSW_CREDIT_LEN), U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_jitter_credits);

/**
 * ibsw_cc_level_init() - the levels of a port VL
 * @lv: filled in
 * @threshold: 0 (off) to 15
 * @buf_credits: as for ibsw_cc_enter_level()
 * @floor: the lowest entry level: one largest packet and what pacing
 *	jitter alone queues (ibsw_cc_jitter_credits())
 * @max_pkt: credits of the largest packet
 *
 * A port VL leaves the state when its fill falls below the entry level
 * minus one largest packet, so the state does not flap with each packet
 * that comes and goes and the marks do not follow the round-robin's turn
 * between inputs (with none, seed 002's scenario 2 ended with its three
 * flows 10% apart). It always leaves when nothing
 * is queued. The jitter in the floor only keeps a lone flow from
 * entering: leaving a floor below the entry level would mark on until
 * the queue has all but drained, and throttle the sources far more than
 * the queue above the level asks for.
 */
void ibsw_cc_level_init(struct ibsw_cc_level *lv, unsigned int threshold,
			unsigned int buf_credits, unsigned int floor,
			unsigned int max_pkt)
{
	lv->enter = ibsw_cc_enter_level(threshold, buf_credits, floor);
	lv->leave = lv->enter > max_pkt ? lv->enter - max_pkt : 1;
	lv->floor = floor;
	lv->hyst = max_pkt;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_level_init);

/**
 * ibsw_cc_level_per_input() - levels for a fill compared per input port
 * @out: filled in
 * @lv: the port VL's levels (ibsw_cc_level_init())
 * @inputs: input ports with packets queued for the port VL
 *
 * %IBSW_CC_FILL_COMPARE_PER_INPUT: the sum of the VoQs' fills meets the
 * entry level divided by the input ports that contribute to it, so the
 * more inputs share a port VL, the sooner it enters the state. The level
 * never goes below the floor, under which pacing jitter alone would mark;
 * the exit level keeps its hysteresis of one largest packet below it.
 * No input (an empty port VL) counts as one; off stays off.
 */
void ibsw_cc_level_per_input(struct ibsw_cc_level *out,
			     const struct ibsw_cc_level *lv,
			     unsigned int inputs)
{
	*out = *lv;
	if (!lv->enter || inputs <= 1)
		return;
	out->enter = max(lv->enter / inputs, lv->floor);
	out->leave = out->enter > lv->hyst ? out->enter - lv->hyst : 1;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_level_per_input);

/**
 * ibsw_cc_clock_update() - account time in the state up to now
 * @c: the clocks
 * @now: wall-clock ns; a time before the last update counts nothing
 * @vls: the VLs in the state from now on
 *
 * Each running clock gets the time since the last update; then the set of
 * running clocks becomes that of @vls (ibsw_cc_clock_mask()). Called at
 * every state change and before every read, so time is exact to the
 * change, as PortXmitWait is.
 */
void ibsw_cc_clock_update(struct ibsw_cc_clock *c, u64 now, u16 vls)
{
	unsigned long running = c->mask;
	unsigned int i;

	if (now > c->last) {
		for_each_set_bit(i, &running, IBSW_NR_DATA_VLS + 1)
			c->ns[i] += now - c->last;
		c->last = now;
	}
	c->mask = ibsw_cc_clock_mask(vls);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_clock_update);

/**
 * ibsw_cc_mask_check() - does a mask name only ports a switch has?
 * @mask: %IBSW_CC_MASK_LEN bytes
 * @nr_ports: the switch's ports are 1 to @nr_ports
 *
 * Port 0 (an enhanced port 0, which ibsw switches do not have), ports
 * above @nr_ports and the reserved bit 255 are refused.
 *
 * Return: -1 if the mask is good, else the lowest port it should not name.
 */
int ibsw_cc_mask_check(const u8 *mask, unsigned int nr_ports)
{
	unsigned int port;

	for (port = 0; port < IBSW_CC_MASK_LEN * 8; port++)
		if (ibsw_cc_mask_test(mask, port) &&
		    (!port || port > nr_ports || port > IBSW_CC_MASK_PORT_MAX))
			return port;
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_mask_check);

/**
 * ibsw_cc_mask_empty() - is no bit of a mask set?
 * @mask: %IBSW_CC_MASK_LEN bytes
 *
 * Return: true if all zero.
 */
bool ibsw_cc_mask_empty(const u8 *mask)
{
	unsigned int i;

	for (i = 0; i < IBSW_CC_MASK_LEN; i++)
		if (mask[i])
			return false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_mask_empty);

/**
 * ibsw_cc_timestamp() - a CongestionLog time stamp
 * @wall_ns: wall-clock ns (CLOCK_MONOTONIC)
 * @scale: fabric time scale, 1 to %IBSW_TIME_SCALE_MAX
 *
 * Return: the emulated time in 1.024 us units (1024 emulated ns), modulo
 * 2^32 as the 32-bit field wraps.
 */
u32 ibsw_cc_timestamp(u64 wall_ns, unsigned int scale)
{
	return (u32)div_u64(wall_ns, scale * 1024U);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_timestamp);

/**
 * ibsw_cc_ring_push() - log an event, dropping the oldest if full
 * @r: the ring
 * @ev: the event
 */
void ibsw_cc_ring_push(struct ibsw_cc_ring *r, const struct ibsw_cc_event *ev)
{
	r->ev[r->next] = *ev;
	r->next = (r->next + 1) % IBSW_CC_LOG_EVENTS;
	if (r->nr < IBSW_CC_LOG_EVENTS)
		r->nr++;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_ring_push);

/**
 * ibsw_cc_ring_read() - the events of a ring, oldest first
 * @r: the ring
 * @out: room for %IBSW_CC_LOG_EVENTS events
 *
 * Return: the number of events copied.
 */
unsigned int ibsw_cc_ring_read(const struct ibsw_cc_ring *r,
			       struct ibsw_cc_event *out)
{
	unsigned int i, first = (r->next + IBSW_CC_LOG_EVENTS - r->nr) %
				IBSW_CC_LOG_EVENTS;

	for (i = 0; i < r->nr; i++)
		out[i] = r->ev[(first + i) % IBSW_CC_LOG_EVENTS];
	return r->nr;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_ring_read);

/* Is @a older than @b: by time, then (a tie) by port */
static bool ibsw_cc_event_before(const struct ibsw_cc_event *a,
				 const struct ibsw_cc_event *b)
{
	return a->ns < b->ns || (a->ns == b->ns && a->port < b->port);
}

/**
 * ibsw_cc_recent_add() - keep the most recent of the events offered
 * @keep: %IBSW_CC_LOG_EVENTS events, oldest first
 * @nr: how many @keep holds
 * @ev: an event
 *
 * A switch's CongestionLog holds its most recent marking events; each
 * output port logs its own (no lock shared between ports), and reading
 * the log offers every port's events here, in any order.
 */
void ibsw_cc_recent_add(struct ibsw_cc_event *keep, unsigned int *nr,
			const struct ibsw_cc_event *ev)
{
	unsigned int i = *nr;

	if (i == IBSW_CC_LOG_EVENTS) {
		/* Full: the oldest makes room, unless @ev is older still */
		if (!ibsw_cc_event_before(&keep[0], ev))
			return;
		memmove(&keep[0], &keep[1], (i - 1) * sizeof(*keep));
		i--;
	} else {
		(*nr)++;
	}
	while (i > 0 && ibsw_cc_event_before(ev, &keep[i - 1])) {
		keep[i] = keep[i - 1];
		i--;
	}
	keep[i] = *ev;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_cc_recent_add);
