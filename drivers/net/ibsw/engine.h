/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engines: the transmitters of the fabric, one per switch output port
 * and one per host port's HCA. engine.c runs them (the datapath),
 * engine_ctl.c opens, configures, reads and closes them (the control
 * plane, under RTNL).
 */
#ifndef _IBSW_ENGINE_H
#define _IBSW_ENGINE_H

#include <linux/hrtimer.h>

#include "ibsw.h"

/* Input ports of an engine: 0 (a host's HCA side) to IBSW_MAX_PORTS */
#define IBSW_MAX_SRC		(IBSW_MAX_PORTS + 1)

/* Packets an engine sends in one run, catching up or unpaced */
#define IBSW_ENGINE_BATCH	64

/* Engines one CPU runs nested before it defers to their timers */
#define IBSW_ENGINE_DEPTH	4

/* Passes a run makes on request before it leaves the rest to the timer */
#define IBSW_ENGINE_PASSES	4

/* Input credits a run returns once the engine lock is dropped */
struct ibsw_ret {
	u8	src;
	u8	vl;
	u16	len;
};

/*
 * Timer slack a busy link catches up on (design §2's max_lag): the test
 * VM's soft hrtimers fire up to a few milliseconds late.
 */
#define IBSW_PACE_SLACK_NS	(5 * NSEC_PER_MSEC)

/* Most an HCA FIFO holds before the netdev queues that fill it stop */
#define IBSW_HCA_FIFO_MAX	(256 * 1024)

/*
 * Most it ever holds: a stopped queue lets one more packet in, so only a
 * sender that ignores the stop (none should) reaches this; its packets
 * are dropped (hca_discards) rather than growing the FIFO without bound.
 */
#define IBSW_HCA_FIFO_CAP	(2 * IBSW_HCA_FIFO_MAX)

/* Index of the port-wide entry in the PortXmitWait arrays */
#define IBSW_WAIT_PORT		IBSW_NR_DATA_VLS

/**
 * struct ibsw_cc_log - an output port's share of its switch's CongestionLog
 * @ring: its most recent marking events
 * @events: marking events since the last clear
 * @marked: it marked a packet since the last clear (CongestionLog's
 *	PortMap)
 *
 * Written by the engine under its lock as it marks; the switch's log is
 * the merge of its ports' (ibsw_cc_log_get()).
 */
struct ibsw_cc_log {
	struct ibsw_cc_ring	ring;
	u32			events;
	bool			marked;
};

/**
 * struct ibsw_engine - a transmitter: a switch output port or a host's HCA
 * @lock: protects everything below but @timer, @port, @hca, @nr_src and
 *	@hoq_timer
 * @timer: soft hrtimer that runs the engine
 * @port: the port it belongs to
 * @hca: the HCA transmitter of a host port (sources: per-VL FIFOs, index
 *	0); otherwise a switch output port (sources: VoQs per input port)
 * @nr_src: sources per VL
 * @open: accepts packets; false while the port is unconnected
 * @scheduled: the timer is armed (or about to run)
 * @running: a context owns the run (ibsw_engine_own())
 * @rerun: the owner of the run must pass once more
 * @peer: link: the port it delivers to
 * @down: input buffers of the receiver (NULL: always credit, a host HCA)
 * @queued: VLs with a packet queued
 * @last_src: input port served last, per VL (round-robin)
 * @busy: input ports with a packet queued, per VL
 * @arb: VL arbiter
 * @rate_bps: data rate of the link, what its counters are in
 * @pace_bps: rate it sends at: @rate_bps off by its clock offset, or an
 *	HCA's injection rate
 * @busy_until: wall-clock ns at which the packet on the wire has left
 * @backlog: when the timer was armed, packets could follow the one on the
 *	wire: a timer later than the slack loses the link time
 * @wire: the packet on the wire, or NULL
 * @nr_vls: it takes packets of VLs 0 to @nr_vls - 1 only; lowered by
 *	ibsw_engine_trim() under the lock, so a sender that read the port's
 *	old count before the trim cannot queue on a VL that is gone
 * @vl15: subnet management packets (VL15): no credits, sent before any
 *	data VL, at most %IBSW_VL15_QLEN (more are dropped: VL15Dropped)
 * @fifo_bytes: HCA: wire bytes in each VL's FIFO
 * @fifo_limit: HCA: FIFO bytes at which the netdev queues filling the VL
 *	stop
 * @fifo_stopped: HCA: the netdev TX queues (one per SL) each VL's FIFO
 *	stopped, to wake as it drains
 * @wait_mask: which PortXmitWait clocks run (bit v: VL v; bit 15: port)
 * @wait_last: when they were last accounted
 * @wait_ns: accumulated waiting, wall-clock ns, since @wait_ticks
 * @wait_ticks: waiting converted at earlier rates
 * @late_ns: wall-clock ns the busy link lost to a late run, since
 *	@late_ticks
 * @late_ticks: that time converted at earlier rates
 * @cc: congestion control settings of a switch output (threshold 0: off)
 * @cc_level: entry and exit fills of each VL
 * @cc_fill: credits queued per VL, over all input ports
 * @cc_state: VLs in the congestion state
 * @cc_victim: VLs that are victims, not roots (@cc_root_run)
 * @cc_root_run: per VL, passes in a row that ended with credit or nothing
 *	queued (ibsw_cc_root_run())
 * @cc_mark: Marking_Rate state, per VL
 * @cc_time: time in the congestion state, wall-clock ns, since @cc_ticks
 * @cc_ticks: that time converted at earlier rates
 * @cc_fecn: packets marked, per VL and (%IBSW_CC_PORT) in all
 * @cc_log: its share of the switch's CongestionLog
 * @hoq_timer: soft hrtimer that runs the engine when a head of queue's
 *	lifetime ends (ibsw_engine_hoq())
 * @hoq_life: HOQLife of a switch output (%IBSW_HOQ_LIFE_INFINITE and
 *	above: none; always none for an HCA)
 * @hoq_since: per VL, wall-clock ns since its head of queue has stood
 *	there: its last packet sent, or the first pass that saw it queued
 *	(0 until then)
 * @hoq_armed: when @hoq_timer fires; 0 if it is not armed
 * @voq_fill: switch output: credits queued in each VoQ, indexed as @voq
 *	(%IBSW_CC_FILL_COMPARE_VOQ compares each with the levels); the
 *	array follows @voq in the engine's allocation
 * @ret: the input credits a pass returns after it drops the lock: what it
 *	sends and an expired head per VL. The run owner's alone (one context
 *	at a time runs an engine); on the stack it would take 316 bytes a
 *	nesting level, zeroed on every pass by kernels built with
 *	INIT_STACK_ALL_ZERO (Debian's, among others)
 * @voq: the queues, [src * IBSW_NR_DATA_VLS + vl]
 */
struct ibsw_engine {
	spinlock_t		lock;	/* the engine state, see above */
	struct hrtimer		timer;
	struct ibsw_port	*port;
	bool			hca;
	unsigned int		nr_src;

	bool			open;
	bool			scheduled;
	bool			running;
	bool			rerun;
	struct ibsw_port	*peer;
	struct ibsw_credit_buf	*down;
	u16			queued;
	u8			last_src[IBSW_NR_DATA_VLS];
	unsigned long		busy[IBSW_NR_DATA_VLS][BITS_TO_LONGS(IBSW_MAX_SRC)];
	struct ibsw_vlarb	arb;
	u64			rate_bps;
	u64			pace_bps;
	u64			busy_until;
	bool			backlog;
	struct sk_buff		*wire;
	struct sk_buff_head	vl15;
	u8			nr_vls;
	u32			fifo_bytes[IBSW_NR_DATA_VLS];
	u32			fifo_limit;
	u16			fifo_stopped[IBSW_NR_DATA_VLS];

	u16			wait_mask;
	u64			wait_last;
	u64			wait_ns[IBSW_NR_DATA_VLS + 1];
	u64			wait_ticks[IBSW_NR_DATA_VLS + 1];
	u64			late_ns;
	u64			late_ticks;

	struct ibsw_cc_params	cc;
	struct ibsw_cc_level	cc_level[IBSW_NR_DATA_VLS];
	u32			cc_fill[IBSW_NR_DATA_VLS];
	u16			cc_state;
	u16			cc_victim;
	u8			cc_root_run[IBSW_NR_DATA_VLS];
	struct ibsw_cc_marker	cc_mark[IBSW_NR_DATA_VLS];
	struct ibsw_cc_clock	cc_time;
	u64			cc_ticks[IBSW_NR_DATA_VLS + 1];
	u64			cc_fecn[IBSW_NR_DATA_VLS + 1];
	struct ibsw_cc_log	cc_log;

	struct hrtimer		hoq_timer;
	u8			hoq_life;
	u64			hoq_since[IBSW_NR_DATA_VLS];
	u64			hoq_armed;

	u32			*voq_fill;
	struct ibsw_ret		ret[IBSW_ENGINE_BATCH + IBSW_NR_DATA_VLS];
	struct sk_buff_head	voq[];
};

/**
 * struct ibsw_engine_cnt - the counters an output engine keeps
 * @wait: PortXmitWait ticks, per VL and (%IBSW_WAIT_PORT) the port
 * @time_cong: PortXmitTimeCong ticks, likewise (%IBSW_CC_PORT)
 * @fecn: packets FECN-marked, likewise
 * @late: ticks the busy link lost because the engine ran late
 */
struct ibsw_engine_cnt {
	u64	wait[IBSW_NR_DATA_VLS + 1];
	u64	time_cong[IBSW_NR_DATA_VLS + 1];
	u64	fecn[IBSW_NR_DATA_VLS + 1];
	u64	late;
};

static inline struct sk_buff_head *ibsw_voq(struct ibsw_engine *e,
					    unsigned int src, unsigned int vl)
{
	return &e->voq[src * IBSW_NR_DATA_VLS + vl];
}

/*
 * Subnet management packets an engine holds. SMPs are few and small; a
 * port that cannot take one drops it, as VL15 has no flow control.
 */
#define IBSW_VL15_QLEN		64

/* engine.c: the datapath */
enum hrtimer_restart ibsw_engine_run(struct hrtimer *timer);
enum hrtimer_restart ibsw_engine_hoq_run(struct hrtimer *timer);
int ibsw_engine_enqueue_vl15(struct ibsw_engine *e, struct sk_buff *skb);
void ibsw_engine_kick(struct ibsw_engine *e);
int ibsw_engine_enqueue(struct ibsw_engine *e, unsigned int src,
			struct sk_buff *skb);
int ibsw_hca_enqueue(struct ibsw_engine *e, struct sk_buff *skb,
		     struct netdev_queue *txq);
void ibsw_engine_wait_update(struct ibsw_engine *e, u64 now, u16 mask);
void ibsw_engine_cc_eval(struct ibsw_engine *e);
void ibsw_engine_cc_off(struct ibsw_engine *e, u64 now);

/* engine_ctl.c: the control plane */
struct ibsw_engine *ibsw_engine_alloc(struct ibsw_port *port, bool hca);
void ibsw_engine_free(struct ibsw_engine *e);
void ibsw_engine_open(struct ibsw_engine *e, struct ibsw_port *peer,
		      struct ibsw_credit_buf *down);
void ibsw_engine_close(struct ibsw_engine *e);
void ibsw_engine_trim(struct ibsw_engine *e, unsigned int nr_vls);
void ibsw_engine_set_rate(struct ibsw_engine *e, u64 rate_bps, u64 pace_bps);
void ibsw_engine_rescale(struct ibsw_engine *e);
void ibsw_engine_set_vlarb(struct ibsw_engine *e,
			   const struct ibsw_vlarb_table *table);
void ibsw_engine_set_hoq_life(struct ibsw_engine *e, u8 hoq_life);
void ibsw_engine_read_cnt(struct ibsw_engine *e, struct ibsw_engine_cnt *cnt);
void ibsw_engine_clear_cnt(struct ibsw_engine *e);
void ibsw_engine_clear_sel(struct ibsw_engine *e, u32 cnt, u32 vl_cnt,
			   u16 vls);
void ibsw_engine_set_cc(struct ibsw_engine *e,
			const struct ibsw_cc_params *cc);
u16 ibsw_engine_cc_state(struct ibsw_engine *e);
unsigned int ibsw_engine_cc_log_read(struct ibsw_engine *e,
				     struct ibsw_cc_event *ev, u32 *events,
				     bool *marked);
void ibsw_engine_cc_log_clear(struct ibsw_engine *e);

#endif /* _IBSW_ENGINE_H */
