/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IB link rates, wire lengths and the fabric's time scale.
 *
 * A link of data rate R carries a packet of L wire bytes in 8 L / R seconds
 * of emulated time; the fabric stretches that by its time scale S, so the
 * packet occupies the link for 8 L S / R seconds of wall-clock time. All
 * times here are nanoseconds in u64: wall time as ktime_get_ns() counts it,
 * emulated time as wall time / S.
 *
 * Pure arithmetic on plain values: no locks, no allocation, callable in any
 * context.
 */
#ifndef _IBSW_RATE_H
#define _IBSW_RATE_H

#include <linux/build_bug.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/time64.h>
#include <linux/types.h>

#include <uapi/linux/ibsw.h>

/* What a RoCEv2 packet lacks of the local IB packet it stands for */
#define IBSW_LRH_LEN		8
#define IBSW_VCRC_LEN		2

/* IB flow control counts 64-byte blocks (IBA vol 1, 7.9) */
#define IBSW_CREDIT_LEN		64

/*
 * Largest wire length the time arithmetic is proven for: more than any
 * Ethernet jumbo frame a port can carry, and far more than an IB packet.
 */
#define IBSW_WIRE_LEN_MAX	10240

/*
 * Headers and trailers around a payload of MTU bytes in the largest local
 * IB packet (IBA vol 1, chapters 7 and 9): LRH 8, BTH 12, RDETH 4, DETH 8,
 * RETH 16, ImmDt 4 (an RD RDMA WRITE Only with Immediate), ICRC 4, VCRC 2.
 * Pad is 0 when the payload is a whole MTU.
 */
#define IBSW_WIRE_OVERHEAD_MAX	58

#define IBSW_TIME_SCALE_MIN	1
/* IBSW_TIME_SCALE_MAX: uapi */

/*
 * Widths and speeds are the uapi's enum ibsw_link_width and enum
 * ibsw_link_speed (include/uapi/linux/ibsw.h, from the netlink spec).
 */
#define IBSW_NR_WIDTHS		(IBSW_LINK_WIDTH_MAX + 1)
#define IBSW_NR_SPEEDS		(IBSW_LINK_SPEED_MAX + 1)

/* 12x NDR, the fastest link: 12 x 100 Gb/s */
#define IBSW_RATE_BPS_MAX	1200000000000ULL

/*
 * Clock offsets (ibsw_clock_ppm()): a transmitter runs at its link's rate
 * times (1 + ppm / 10^6), |ppm| at most IBSW_CLOCK_PPM_MAX (uapi). The
 * IBA allows a link's reference clock 100 ppm, the default spread.
 */
#define IBSW_CLOCK_PPM_DEFAULT	100
#define IBSW_PPM		1000000
#define IBSW_PACE_BPS_MAX	(IBSW_RATE_BPS_MAX + \
				 IBSW_RATE_BPS_MAX / IBSW_PPM * IBSW_CLOCK_PPM_MAX)

/*
 * What a host's HCA injects at most by default, in ppm of its link's rate:
 * seed 000's hosts (ConnectX-3, PCIe 2) sent 7.9 Gb/s on 4x SDR (8 Gb/s).
 * Seed 002's older hosts (PCIe 1.1 x8) reached 13 of 16 Gb/s; its
 * topologies say so per host.
 */
#define IBSW_HCA_RATE_DEFAULT_PPM	987500

/*
 * ibsw_rate_xmit_ns() computes 8 L S 10^9 + (R - 1) in u64. With L, S and
 * R at their maxima that is 8 * 10240 * 10000 * 10^9 + 1.2 * 10^12
 * < 8.2 * 10^17, well below U64_MAX (1.8 * 10^19): there is room for a
 * factor of 22 more. Checked here, so raising a limit cannot silently
 * break it.
 */
static_assert(IBSW_WIRE_LEN_MAX <=
	      (U64_MAX - IBSW_PACE_BPS_MAX) /
	      (8ULL * IBSW_TIME_SCALE_MAX * NSEC_PER_SEC));

const char *ibsw_width_name(enum ibsw_link_width width);
int ibsw_width_parse(const char *name);
unsigned int ibsw_width_lanes(enum ibsw_link_width width);
const char *ibsw_speed_name(enum ibsw_link_speed speed);
int ibsw_speed_parse(const char *name);
u64 ibsw_rate_bps(enum ibsw_link_width width, enum ibsw_link_speed speed);
u64 ibsw_rate_xmit_ns(unsigned int len, u64 bps, unsigned int scale);
u64 ibsw_rate_wait_ticks(u64 wall_ns, u64 bps, unsigned int scale);
u64 ibsw_rate_ppm(u64 bps, s32 ppm);
u64 ibsw_hca_rate(u64 link_bps, u64 hca_bps);
s32 ibsw_clock_ppm(u32 seed, u32 spread, const char *sw_name,
		   unsigned int port);

/**
 * ibsw_wire_len() - wire length of a RoCEv2 packet
 * @ib_len: its UDP payload length, BTH to ICRC inclusive
 *
 * Return: the length of the same packet as a local IB packet, LRH to VCRC:
 * what it costs in link time, credits and data counters.
 */
static inline unsigned int ibsw_wire_len(unsigned int ib_len)
{
	return IBSW_LRH_LEN + ib_len + IBSW_VCRC_LEN;
}

/**
 * ibsw_wire_len_max() - wire length of the largest packet for an MTU
 * @mtu: IB path MTU in bytes (256 to 4096)
 *
 * Return: the wire length no packet whose payload fits @mtu exceeds.
 */
static inline unsigned int ibsw_wire_len_max(unsigned int mtu)
{
	return mtu + IBSW_WIRE_OVERHEAD_MAX;
}

/**
 * ibsw_wire_credits() - flow-control credits a packet takes
 * @len: wire length in bytes
 *
 * Return: @len in 64-byte blocks, rounded up.
 */
static inline unsigned int ibsw_wire_credits(unsigned int len)
{
	return DIV_ROUND_UP(len, IBSW_CREDIT_LEN);
}

/**
 * ibsw_time_scale_valid() - is this a usable fabric time scale?
 * @scale: wall-clock time per unit of emulated time
 *
 * Return: true if @scale is within IBSW_TIME_SCALE_MIN..IBSW_TIME_SCALE_MAX,
 * the range the arithmetic here is proven for.
 */
static inline bool ibsw_time_scale_valid(unsigned int scale)
{
	return scale >= IBSW_TIME_SCALE_MIN && scale <= IBSW_TIME_SCALE_MAX;
}

/**
 * ibsw_time_wall_to_emu() - emulated time of a wall-clock interval
 * @wall_ns: wall-clock nanoseconds
 * @scale: fabric time scale, valid
 *
 * Return: @wall_ns / @scale, rounded down.
 */
static inline u64 ibsw_time_wall_to_emu(u64 wall_ns, unsigned int scale)
{
	return div_u64(wall_ns, scale);
}

/**
 * ibsw_time_emu_to_wall() - wall-clock time of an emulated interval
 * @emu_ns: emulated nanoseconds
 * @scale: fabric time scale, valid
 *
 * Return: @emu_ns * @scale, or U64_MAX if that does not fit (more than
 * 21 days of emulated time at the largest scale).
 */
static inline u64 ibsw_time_emu_to_wall(u64 emu_ns, unsigned int scale)
{
	u64 wall;

	if (check_mul_overflow(emu_ns, (u64)scale, &wall))
		return U64_MAX;
	return wall;
}

/*
 * Head-of-queue lifetime (IBA vol 1, 18.2.5.4, PortInfo:HOQLife): a
 * packet that has stood at the head of an output VL's queue for
 * 4.096 us * 2^HOQLife of emulated time is discarded, and the next one's
 * lifetime starts. HOQLife 20 to 31 is infinite. The default is OpenSM's
 * for ports between switches (head_of_queue_lifetime 0x12, 1.07 s); an
 * SM sets what it wants (OpenSM: 0x10, 268 ms, toward CAs).
 */
#define IBSW_HOQ_LIFE_UNIT_NS	4096
#define IBSW_HOQ_LIFE_INFINITE	20
#define IBSW_HOQ_LIFE_MAX	31
#define IBSW_HOQ_LIFE_DEFAULT	18

static_assert(((u64)IBSW_HOQ_LIFE_UNIT_NS << (IBSW_HOQ_LIFE_INFINITE - 1)) <=
	      U64_MAX / IBSW_TIME_SCALE_MAX);

/**
 * ibsw_hoq_life_ns() - wall-clock time a packet may head an output queue
 * @hoq_life: HOQLife, 0 to 31
 * @scale: fabric time scale, valid
 *
 * Return: 4096 ns * 2^@hoq_life * @scale; U64_MAX (for ever) for 20 and
 * above.
 */
static inline u64 ibsw_hoq_life_ns(unsigned int hoq_life, unsigned int scale)
{
	if (hoq_life >= IBSW_HOQ_LIFE_INFINITE)
		return U64_MAX;
	return ((u64)IBSW_HOQ_LIFE_UNIT_NS << hoq_life) * scale;
}

/**
 * ibsw_hoq_expiry() - when a head of queue has lived its lifetime
 * @since: when it became the head, wall-clock ns
 * @life: ibsw_hoq_life_ns()
 *
 * Return: @since + @life; U64_MAX (never) if @life is infinite or the sum
 * does not fit.
 */
static inline u64 ibsw_hoq_expiry(u64 since, u64 life)
{
	u64 t;

	if (life == U64_MAX || check_add_overflow(since, life, &t))
		return U64_MAX;
	return t;
}

/**
 * ibsw_pace_next() - when a link is free again after one more packet
 * @busy_until: when the link finished, or will finish, its last packet
 * @now: the current time
 * @pkt_ns: the new packet's serialisation time, ibsw_rate_xmit_ns()
 * @max_lag: how far in the past the new packet may start: 0 if the link
 *	was idle (the packet starts now at the earliest), the engine's
 *	catch-up allowance if it sends back to back from its timer
 *
 * The deadline accumulates: a packet sent when the timer for the previous
 * one fires starts when that one ended, not when the late timer noticed,
 * so timer latency does not lower the link's rate (design §4.2). The
 * catch-up is bounded by @max_lag: a link further behind starts at
 * @now - @max_lag and never sends a burst above its rate of more than
 * that. An output engine passes about one maximum packet time from its
 * timer and 0 when an enqueue kicks it out of idle: an idle link cannot
 * have started a packet that had not arrived. All times are wall-clock
 * nanoseconds.
 *
 * Return: the new busy_until, the time the packet has left the link.
 */
static inline u64 ibsw_pace_next(u64 busy_until, u64 now, u64 pkt_ns,
				 u64 max_lag)
{
	u64 start = busy_until;

	if (now > max_lag)
		start = max(start, now - max_lag);
	return start + pkt_ns;
}

/**
 * ibsw_pace_lost() - link time a late start loses for good
 * @busy_until: when the link finished its last packet
 * @now: the current time
 * @max_lag: how far in the past the next packet may start, as for
 *	ibsw_pace_next()
 *
 * A link whose next packet was waiting sends it at @busy_until, or, that
 * far behind, at @now - @max_lag: the time in between is lost. For an
 * engine that ran late because the CPU was busy, it is what the link
 * failed to carry (the xmit-late counter).
 *
 * Return: wall-clock ns lost, 0 if the link keeps its deadline.
 */
static inline u64 ibsw_pace_lost(u64 busy_until, u64 now, u64 max_lag)
{
	if (now <= max_lag || now - max_lag <= busy_until)
		return 0;
	return now - max_lag - busy_until;
}

#endif /* _IBSW_RATE_H */
