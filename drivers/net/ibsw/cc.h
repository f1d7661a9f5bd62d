/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Switch congestion control (IBA vol 1 annex A10, switch side): the pure
 * logic, free of netdevs so that KUnit tests it on tables (design §8).
 *
 * - Threshold levels: a Threshold of 1..15 becomes, per output port VL, a
 *   fill (credits queued for the port VL, summed over the input ports) at
 *   which the port VL enters the congestion state, and a lower one at
 *   which it leaves it again (hysteresis of one largest packet). How the
 *   VoQs' fills meet the levels is a switch setting (fill_compare): their
 *   sum, each VoQ on its own, or the sum against the levels divided by
 *   the input ports queueing.
 * - State: a port VL is in the state while its fill is at or above the
 *   level and it is a root (it has had credit for its next packet at the
 *   end of the last %IBSW_CC_ROOT_PASSES engine passes) or its
 *   Victim_Mask bit is set.
 * - Marking: eligible packets (requests and RDMA READ responses, unicast)
 *   of at least Packet_Size credits leaving a port VL in the state are
 *   FECN-marked, exactly one in every window of Marking_Rate + 1.
 * - Time in the state, per port VL and per port, in wall-clock ns.
 * - 256-bit port masks as SwitchCongestionSetting carries them.
 * - The CongestionLog ring of marking events.
 *
 * Nothing here locks, sleeps or allocates: callers hold the lock of the
 * state they pass (the engine lock, the switch's log lock).
 */
#ifndef _IBSW_CC_H
#define _IBSW_CC_H

#include <linux/types.h>

#include <uapi/linux/ibsw.h>

#include "pkt.h"

/* Bytes of a 256-bit port mask (Victim_Mask, Credit_Mask, PortMap) */
#define IBSW_CC_MASK_LEN	32

/* Highest port a mask may name: bit 255 is reserved */
#define IBSW_CC_MASK_PORT_MAX	254

/* Index of the port-wide entry in the time-in-congestion arrays */
#define IBSW_CC_PORT		IBSW_NR_DATA_VLS

/**
 * struct ibsw_cc_params - effective congestion control settings of a port
 * @threshold: 0 (off) or 1 (least aggressive) to 15 (most aggressive)
 * @packet_size: smallest packet marked, in 64-byte credits
 * @marking_rate: eligible packets left unmarked between two marked ones
 * @victim: its Victim_Mask bit: it may enter the state as a victim
 * @fill_compare: the switch's IBSW_CC_FILL_COMPARE_*: how the VoQs' fills
 *	meet the levels
 */
struct ibsw_cc_params {
	u8	threshold;
	u8	packet_size;
	u16	marking_rate;
	bool	victim;
	u8	fill_compare;
};

/**
 * struct ibsw_cc_level - fills at which a port VL enters and leaves the state
 * @enter: enter at a fill of this many credits or more; 0: never (off)
 * @leave: stay while the fill is at least this, always 1 or more
 * @floor: the lowest entry level (ibsw_cc_enter_level())
 * @hyst: credits of the largest packet: @leave is @enter less this
 */
struct ibsw_cc_level {
	u32	enter;
	u32	leave;
	u32	floor;
	u32	hyst;
};

/*
 * Passes in a row an output must end with credit for a port VL (or nothing
 * queued) before the port VL counts as a root again, after it had packets
 * and no credit (a victim). A victim downstream of congestion gets credit
 * back a packet at a time and now and then ends a pass with credit for the
 * next packet too; without this it would count as a root for a moment and
 * mark a packet. A root briefly stalled by its receiver is one again after
 * a few packets.
 */
#define IBSW_CC_ROOT_PASSES	8

/**
 * ibsw_cc_root_run() - count a pass toward root-ness
 * @run: passes in a row that ended with credit (or nothing queued)
 * @credit: this one did
 *
 * Return: the new count; the port VL is a root while it is at least
 * %IBSW_CC_ROOT_PASSES (it saturates there).
 */
static inline u8 ibsw_cc_root_run(u8 run, bool credit)
{
	if (!credit)
		return 0;
	return run < IBSW_CC_ROOT_PASSES ? run + 1 : run;
}

u32 ibsw_cc_enter_level(unsigned int threshold, unsigned int buf_credits,
			unsigned int floor);
u32 ibsw_cc_jitter_credits(u64 rate_bps, u32 scale, u64 slack_ns);
void ibsw_cc_level_init(struct ibsw_cc_level *lv, unsigned int threshold,
			unsigned int buf_credits, unsigned int floor,
			unsigned int max_pkt);
void ibsw_cc_level_per_input(struct ibsw_cc_level *out,
			     const struct ibsw_cc_level *lv,
			     unsigned int inputs);

/**
 * ibsw_cc_next_state() - the congestion state of a port VL after a change
 * @cong: in the state now
 * @lv: its levels
 * @fill: credits queued for it, over all input ports
 * @root: its head packet has credit downstream
 * @victim_ok: its port's Victim_Mask bit is set
 *
 * A port VL without credit is a victim: it enters (or stays in) the state
 * only if its Victim_Mask bit says so. Otherwise the fill decides, with
 * hysteresis: enter at @lv->enter, leave below @lv->leave.
 *
 * Return: in the state afterwards.
 */
static inline bool ibsw_cc_next_state(bool cong, const struct ibsw_cc_level *lv,
				      u32 fill, bool root, bool victim_ok)
{
	if (!lv->enter || (!root && !victim_ok))
		return false;
	return fill >= (cong ? lv->leave : lv->enter);
}

/**
 * ibsw_cc_class_eligible() - may packets of this class be FECN-marked?
 * @cls: class of the BTH opcode
 *
 * Requests (data, RDMA READ and atomic requests, UC/UD sends) and RDMA
 * READ responses, which carry data. ACKs, atomic ACKs and CNPs are not:
 * a destination ignores FECN on them (IBA A10.3.1), and reserved or
 * vendor opcodes are left alone.
 *
 * Return: true if eligible.
 */
static inline bool ibsw_cc_class_eligible(enum ibsw_pkt_class cls)
{
	return cls == IBSW_PKT_REQUEST || cls == IBSW_PKT_RESPONSE;
}

/**
 * ibsw_cc_lid_multicast() - is a DLID a multicast (or permissive) LID?
 * @lid: the LID
 *
 * Return: true for 0xc000 to 0xffff.
 */
static inline bool ibsw_cc_lid_multicast(u16 lid)
{
	return lid > IBSW_LID_UNICAST_MAX;
}

/**
 * ibsw_cc_size_ok() - is a packet large enough to be marked?
 * @credits: its size in 64-byte credits
 * @packet_size: Packet_Size
 *
 * Return: true unless the packet is smaller than Packet_Size.
 */
static inline bool ibsw_cc_size_ok(unsigned int credits, unsigned int packet_size)
{
	return credits >= packet_size;
}

/**
 * struct ibsw_cc_marker - Marking_Rate state of a port VL
 * @pos: position of the next eligible packet in the current window
 * @at: position of the packet to mark in it
 * @rnd: xorshift32 state that picks @at; never 0
 *
 * The eligible packets of a port VL form consecutive windows of
 * Marking_Rate + 1; exactly one packet of each window is marked, at a
 * pseudo-random position. Counts are exact (one mark per window, the mean
 * spacing exactly Marking_Rate), while a periodic arrival pattern, such
 * as the round-robin between input ports, cannot line up with the marks
 * and leave a flow that always takes the same turn unmarked, as marking
 * every (Marking_Rate + 1)-th packet would.
 */
struct ibsw_cc_marker {
	u16	pos;
	u16	at;
	u32	rnd;
};

/**
 * ibsw_cc_marker_init() - start marking from a new window
 * @m: the marker
 * @seed: any value; the same seed gives the same marks
 *
 * The first window marks its first packet: a port VL that has just
 * entered the state with fresh settings marks at once.
 */
static inline void ibsw_cc_marker_init(struct ibsw_cc_marker *m, u32 seed)
{
	m->pos = 0;
	m->at = 0;
	m->rnd = seed ?: 1;
}

/**
 * ibsw_cc_mark_next() - count an eligible packet; is it the one to mark?
 * @m: the port VL's marker
 * @rate: Marking_Rate; 0 marks every eligible packet
 *
 * Return: true if this packet is marked.
 */
static inline bool ibsw_cc_mark_next(struct ibsw_cc_marker *m, u16 rate)
{
	bool mark = m->pos == m->at;

	if (m->pos < rate) {
		m->pos++;
		return mark;
	}
	/* A new window: pick the packet to mark in it */
	m->rnd ^= m->rnd << 13;
	m->rnd ^= m->rnd >> 17;
	m->rnd ^= m->rnd << 5;
	m->pos = 0;
	m->at = ((u64)m->rnd * ((u32)rate + 1)) >> 32;
	return mark;
}

/**
 * ibsw_cc_mark_decide() - is a packet leaving a port VL in the state marked?
 * @p: the port's settings
 * @m: the port VL's marker
 * @eligible: its class may be marked and its destination address is
 *	unicast (the IBSW_CB_CC_ELIGIBLE of the datapath)
 * @dlid: its DLID
 * @credits: its size in credits
 *
 * Ineligible packets, multicast DLIDs and packets below Packet_Size are
 * never marked and do not count toward Marking_Rate.
 *
 * Return: true if the packet gets FECN.
 */
static inline bool ibsw_cc_mark_decide(const struct ibsw_cc_params *p,
				       struct ibsw_cc_marker *m, bool eligible,
				       u16 dlid, unsigned int credits)
{
	if (!eligible || ibsw_cc_lid_multicast(dlid) ||
	    !ibsw_cc_size_ok(credits, p->packet_size))
		return false;
	return ibsw_cc_mark_next(m, p->marking_rate);
}

/**
 * struct ibsw_cc_clock - time in the congestion state
 * @mask: the clocks running: bit v VL v, bit %IBSW_CC_PORT the port
 * @last: wall-clock ns of the last update
 * @ns: accumulated wall-clock ns, per VL and (%IBSW_CC_PORT) per port
 */
struct ibsw_cc_clock {
	u16	mask;
	u64	last;
	u64	ns[IBSW_NR_DATA_VLS + 1];
};

void ibsw_cc_clock_update(struct ibsw_cc_clock *c, u64 now, u16 vls);

/**
 * ibsw_cc_clock_mask() - the clocks that run for a set of VLs in the state
 * @vls: bit v: VL v is in the state
 *
 * Return: @vls, plus the port's clock if any VL is in the state.
 */
static inline u16 ibsw_cc_clock_mask(u16 vls)
{
	return vls ? vls | BIT(IBSW_CC_PORT) : 0;
}

/* 256-bit port masks: one big-endian integer, bit n is port n */

/**
 * ibsw_cc_mask_test() - is port @port in the mask?
 * @mask: %IBSW_CC_MASK_LEN bytes
 * @port: 0 to 255
 *
 * Return: the bit of @port.
 */
static inline bool ibsw_cc_mask_test(const u8 *mask, unsigned int port)
{
	return mask[IBSW_CC_MASK_LEN - 1 - port / 8] & (1 << (port % 8));
}

/**
 * ibsw_cc_mask_set() - add a port to a mask
 * @mask: %IBSW_CC_MASK_LEN bytes
 * @port: 0 to 255
 */
static inline void ibsw_cc_mask_set(u8 *mask, unsigned int port)
{
	mask[IBSW_CC_MASK_LEN - 1 - port / 8] |= 1 << (port % 8);
}

int ibsw_cc_mask_check(const u8 *mask, unsigned int nr_ports);
bool ibsw_cc_mask_empty(const u8 *mask);

u32 ibsw_cc_timestamp(u64 wall_ns, unsigned int scale);

/**
 * struct ibsw_cc_event - a CongestionLogEvent (switch), with where it was
 * @slid: LID of the source address, 0 if unknown
 * @dlid: destination LID
 * @sl: service level
 * @port: output port that marked
 * @vl: its VL
 * @timestamp: emulated time in 1.024 us units, ibsw_cc_timestamp()
 * @ns: wall-clock ns, which orders the events of different ports
 */
struct ibsw_cc_event {
	u16	slid;
	u16	dlid;
	u8	sl;
	u8	port;
	u8	vl;
	u32	timestamp;
	u64	ns;
};

/**
 * struct ibsw_cc_ring - the most recent marking events
 * @ev: the events, a ring
 * @next: where the next one goes
 * @nr: events held, up to %IBSW_CC_LOG_EVENTS
 */
struct ibsw_cc_ring {
	struct ibsw_cc_event	ev[IBSW_CC_LOG_EVENTS];
	u8			next;
	u8			nr;
};

void ibsw_cc_ring_push(struct ibsw_cc_ring *r, const struct ibsw_cc_event *ev);
unsigned int ibsw_cc_ring_read(const struct ibsw_cc_ring *r,
			       struct ibsw_cc_event *out);
void ibsw_cc_recent_add(struct ibsw_cc_event *keep, unsigned int *nr,
			const struct ibsw_cc_event *ev);

#endif /* _IBSW_CC_H */
