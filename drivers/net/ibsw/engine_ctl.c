// SPDX-License-Identifier: GPL-2.0
/*
 * Engines, the control side: allocate, open, configure, read the counters
 * they keep, close and free (design §4.2). Everything here runs in process
 * context, mostly under RTNL, and takes an engine's lock with BH disabled
 * to change what its runs read (engine.c).
 */

#include <kunit/visibility.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/random.h>
#include <linux/skbuff.h>

#include "engine.h"
#include "pkt.h"

/**
 * ibsw_engine_alloc() - allocate an engine, closed
 * @port: the port it transmits for
 * @hca: the HCA transmitter of a host port (else the switch output)
 *
 * Context: process context.
 * Return: the engine or NULL.
 */
struct ibsw_engine *ibsw_engine_alloc(struct ibsw_port *port, bool hca)
{
	unsigned int nr_src = hca ? 1 : port->sw->nr_ports + 1;
	struct ibsw_engine *e;
	unsigned int i;

	e = kvzalloc(size_add(struct_size(e, voq, nr_src * IBSW_NR_DATA_VLS),
			      array_size(nr_src * IBSW_NR_DATA_VLS,
					 sizeof(*e->voq_fill))),
		     GFP_KERNEL);
	if (!e)
		return NULL;
	e->voq_fill = (u32 *)&e->voq[nr_src * IBSW_NR_DATA_VLS];
	spin_lock_init(&e->lock);
	hrtimer_init(&e->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	e->timer.function = ibsw_engine_run;
	hrtimer_init(&e->hoq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	e->hoq_timer.function = ibsw_engine_hoq_run;
	e->hoq_life = hca ? IBSW_HOQ_LIFE_MAX : IBSW_HOQ_LIFE_DEFAULT;
	e->port = port;
	e->hca = hca;
	e->nr_src = nr_src;
	/* Until the port's VLs change: the port's check is the only one */
	e->nr_vls = IBSW_NR_DATA_VLS;
	/* At or beyond nr_src: the round-robin starts from port 0 */
	memset(e->last_src, 0xff, sizeof(e->last_src));
	/* Every VL starts as a root: it has not waited for credit */
	memset(e->cc_root_run, IBSW_CC_ROOT_PASSES, sizeof(e->cc_root_run));
	for (i = 0; i < nr_src * IBSW_NR_DATA_VLS; i++)
		__skb_queue_head_init(&e->voq[i]);
	__skb_queue_head_init(&e->vl15);
	return e;
}

/**
 * ibsw_engine_free() - free a closed engine
 * @e: the engine, or NULL
 *
 * Context: process context; the engine is closed and nothing can kick it.
 */
void ibsw_engine_free(struct ibsw_engine *e)
{
	unsigned int i;

	if (!e)
		return;
	hrtimer_cancel(&e->timer);
	hrtimer_cancel(&e->hoq_timer);
	for (i = 0; i < e->nr_src * IBSW_NR_DATA_VLS; i++)
		__skb_queue_purge(&e->voq[i]);
	__skb_queue_purge(&e->vl15);
	kfree_skb(e->wire);
	kvfree(e);
}

/**
 * ibsw_engine_open() - start accepting packets
 * @e: a closed engine
 * @peer: the switch port it delivers to, NULL for a host or the HCA
 * @down: the receiver's input buffers, NULL for a host (always credit)
 *
 * Context: RTNL.
 */
void ibsw_engine_open(struct ibsw_engine *e, struct ibsw_port *peer,
		      struct ibsw_credit_buf *down)
{
	spin_lock_bh(&e->lock);
	e->peer = peer;
	e->down = down;
	e->busy_until = 0;
	WRITE_ONCE(e->open, true);
	spin_unlock_bh(&e->lock);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_engine_open);

/*
 * Drop packets taken out of an engine by the control plane: they count as
 * discarded at the output port and free their input buffer credits.
 */
static void ibsw_engine_drop(struct ibsw_engine *e, struct sk_buff_head *list)
{
	struct sk_buff *skb;

	local_bh_disable();
	while ((skb = __skb_dequeue(list))) {
		struct ibsw_skb_cb *cb = ibsw_cb(skb);

		if (!e->hca) {
			ibsw_stat_inactive_discard(e->port);
			/* VL15 holds no credits */
			if (cb->in_vl < IBSW_NR_DATA_VLS)
				ibsw_credit_release(e->port->sw->ports[cb->in_port],
						    cb->in_vl, cb->wire_len);
		}
		kfree_skb(skb);
	}
	local_bh_enable();
}

/**
 * ibsw_engine_close() - stop an engine and discard what it holds
 * @e: the engine
 *
 * Queued packets are discarded (PortXmitDiscards of a switch port) and
 * return their input credits; the packet on the wire returns the
 * receiver's credits it held. When this returns the timer is idle and
 * stays so: nothing can kick a closed engine.
 *
 * Context: RTNL, process context.
 */
void ibsw_engine_close(struct ibsw_engine *e)
{
	struct ibsw_credit_buf *down;
	struct sk_buff_head drop;
	struct sk_buff *wire;
	unsigned int i;

	__skb_queue_head_init(&drop);
	spin_lock_bh(&e->lock);
	WRITE_ONCE(e->open, false);
	for (i = 0; i < e->nr_src * IBSW_NR_DATA_VLS; i++)
		skb_queue_splice_tail_init(&e->voq[i], &drop);
	skb_queue_splice_tail_init(&e->vl15, &drop);
	memset(e->busy, 0, sizeof(e->busy));
	memset(e->fifo_bytes, 0, sizeof(e->fifo_bytes));
	memset(e->fifo_stopped, 0, sizeof(e->fifo_stopped));
	WRITE_ONCE(e->queued, 0);
	memset(e->cc_fill, 0, sizeof(e->cc_fill));
	memset(e->voq_fill, 0,
	       e->nr_src * IBSW_NR_DATA_VLS * sizeof(*e->voq_fill));
	e->cc_victim = 0;
	memset(e->cc_root_run, IBSW_CC_ROOT_PASSES, sizeof(e->cc_root_run));
	wire = e->wire;
	e->wire = NULL;
	e->backlog = false;
	down = e->down;
	e->down = NULL;
	e->peer = NULL;
	ibsw_engine_wait_update(e, ktime_get_ns(), 0);
	ibsw_engine_cc_off(e, ktime_get_ns());
	spin_unlock_bh(&e->lock);

	/*
	 * Wait for a run in progress, including its deliveries: the timer's,
	 * or a kick's in another context, which ends at its next pass.
	 */
	hrtimer_cancel(&e->timer);
	hrtimer_cancel(&e->hoq_timer);
	spin_lock_bh(&e->lock);
	while (e->running) {
		spin_unlock_bh(&e->lock);
		usleep_range(10, 50);
		spin_lock_bh(&e->lock);
	}
	WRITE_ONCE(e->scheduled, false);
	e->hoq_armed = 0;
	spin_unlock_bh(&e->lock);

	if (wire) {
		if (down && ibsw_cb(wire)->out_vl < IBSW_NR_DATA_VLS)
			ibsw_credit_return(&down[ibsw_cb(wire)->out_vl],
					   ibsw_cb(wire)->wire_len);
		kfree_skb(wire);
	}
	ibsw_engine_drop(e, &drop);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_engine_close);

/**
 * ibsw_engine_trim() - the port operates VLs 0 to @nr_vls - 1 from now on
 * @e: the engine
 * @nr_vls: VLs 0 to @nr_vls - 1 stay
 *
 * Discards the packets of the VLs gone, and refuses those that come for
 * them later (a sender may have read the port's old count just before).
 *
 * Context: RTNL.
 */
void ibsw_engine_trim(struct ibsw_engine *e, unsigned int nr_vls)
{
	struct sk_buff_head drop;
	unsigned int s, vl;

	__skb_queue_head_init(&drop);
	spin_lock_bh(&e->lock);
	e->nr_vls = nr_vls;
	for (vl = nr_vls; vl < IBSW_NR_DATA_VLS; vl++) {
		for (s = 0; s < e->nr_src; s++) {
			skb_queue_splice_tail_init(ibsw_voq(e, s, vl), &drop);
			e->voq_fill[s * IBSW_NR_DATA_VLS + vl] = 0;
		}
		bitmap_zero(e->busy[vl], IBSW_MAX_SRC);
		e->fifo_bytes[vl] = 0;
		e->fifo_stopped[vl] = 0;
		e->cc_fill[vl] = 0;
		e->cc_victim &= ~BIT(vl);
		e->cc_root_run[vl] = IBSW_CC_ROOT_PASSES;
		WRITE_ONCE(e->queued, e->queued & ~BIT(vl));
	}
	if (e->cc_state & ~(BIT(nr_vls) - 1)) {
		e->cc_state &= BIT(nr_vls) - 1;
		ibsw_cc_clock_update(&e->cc_time, ktime_get_ns(), e->cc_state);
	}
	spin_unlock_bh(&e->lock);
	ibsw_engine_drop(e, &drop);
}

/* Convert waiting time at the current rate and scale: they are changing */
static void ibsw_engine_fold_wait(struct ibsw_engine *e, u64 now)
{
	u32 scale = READ_ONCE(ibsw_fabric.time_scale);
	unsigned int i;

	ibsw_engine_wait_update(e, now, e->wait_mask);
	ibsw_cc_clock_update(&e->cc_time, now, e->cc_state);
	for (i = 0; i <= IBSW_NR_DATA_VLS; i++) {
		e->wait_ticks[i] += ibsw_rate_wait_ticks(e->wait_ns[i],
							 e->rate_bps, scale);
		e->wait_ns[i] = 0;
		e->cc_ticks[i] += ibsw_rate_wait_ticks(e->cc_time.ns[i],
						       e->rate_bps, scale);
		e->cc_time.ns[i] = 0;
	}
	e->late_ticks += ibsw_rate_wait_ticks(e->late_ns, e->rate_bps, scale);
	e->late_ns = 0;
}

/*
 * What an HCA FIFO may hold before its netdev queue stops: what the link
 * carries in the timer slack, so a late timer finds enough to catch up
 * on; at least one largest packet, at most IBSW_HCA_FIFO_MAX (rxe limits
 * what a QP has in flight anyway).
 */
static u32 ibsw_hca_fifo_limit(u64 pace_bps)
{
	u32 scale = READ_ONCE(ibsw_fabric.time_scale);
	u64 bytes = div_u64(mul_u64_u64_div_u64(pace_bps, IBSW_PACE_SLACK_NS,
						NSEC_PER_SEC), 8 * scale);

	return clamp_t(u64, bytes, ibsw_wire_len_max(IBSW_IB_MTU_MAX),
		       IBSW_HCA_FIFO_MAX);
}

/*
 * The entry and exit levels of every VL from the threshold. The lowest
 * level is one largest packet plus the queue that timer jitter alone
 * builds on this link at line rate: an engine and the one feeding it may
 * each run a pacing slack late and catch up (design §8).
 */
static void ibsw_engine_cc_levels(struct ibsw_engine *e)
{
	u32 scale = READ_ONCE(ibsw_fabric.time_scale);
	unsigned int max_pkt, floor, vl;

	lockdep_assert_held(&e->lock);
	max_pkt = ibsw_wire_credits(ibsw_wire_len_max(IBSW_IB_MTU_MAX));
	floor = max_pkt + ibsw_cc_jitter_credits(e->rate_bps, scale,
						 2 * IBSW_PACE_SLACK_NS);
	for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++)
		ibsw_cc_level_init(&e->cc_level[vl], e->cc.threshold,
				   READ_ONCE(e->port->in[vl].size), floor,
				   max_pkt);
}

/**
 * ibsw_engine_set_rate() - set the link rate and the rate an engine sends at
 * @e: the engine
 * @rate_bps: the link's data rate in bit/s: its counters' unit
 * @pace_bps: the rate it sends at (its clock offset, an HCA's injection
 *	rate), at most %IBSW_PACE_BPS_MAX
 *
 * Also called with the current rates before the time scale changes, to
 * convert the PortXmitWait and PortXmitTimeCong time counted so far at
 * the old scale.
 *
 * Context: RTNL.
 */
void ibsw_engine_set_rate(struct ibsw_engine *e, u64 rate_bps, u64 pace_bps)
{
	spin_lock_bh(&e->lock);
	ibsw_engine_fold_wait(e, ktime_get_ns());
	e->rate_bps = rate_bps;
	e->pace_bps = pace_bps;
	e->fifo_limit = ibsw_hca_fifo_limit(pace_bps);
	ibsw_engine_cc_levels(e);
	spin_unlock_bh(&e->lock);
}

/**
 * ibsw_engine_rescale() - follow a change of the time scale
 * @e: the engine
 *
 * What depends on the wall-clock rate of the link: the HCA FIFO limit and
 * the congestion levels.
 *
 * Context: RTNL, after the time scale changed.
 */
void ibsw_engine_rescale(struct ibsw_engine *e)
{
	spin_lock_bh(&e->lock);
	e->fifo_limit = ibsw_hca_fifo_limit(e->pace_bps);
	ibsw_engine_cc_levels(e);
	spin_unlock_bh(&e->lock);
}

/**
 * ibsw_engine_set_vlarb() - (re)start the VL arbiter with a table
 * @e: the engine
 * @table: checked table
 *
 * Context: RTNL.
 */
void ibsw_engine_set_vlarb(struct ibsw_engine *e,
			   const struct ibsw_vlarb_table *table)
{
	spin_lock_bh(&e->lock);
	ibsw_vlarb_init(&e->arb, table);
	spin_unlock_bh(&e->lock);
	/* VLs the old table did not serve may be served now */
	local_bh_disable();
	ibsw_engine_kick(e);
	local_bh_enable();
}

/**
 * ibsw_engine_set_hoq_life() - a switch output's head-of-queue lifetime
 * @e: the output engine
 * @hoq_life: HOQLife (PortInfo), 0 to %IBSW_HOQ_LIFE_MAX
 *
 * The heads queued now start their new lifetime at the engine's next
 * pass, which comes at once if it has packets queued: it arms its timer
 * for them.
 *
 * Context: process context.
 */
void ibsw_engine_set_hoq_life(struct ibsw_engine *e, u8 hoq_life)
{
	u64 now;

	spin_lock_bh(&e->lock);
	e->hoq_life = hoq_life;
	memset(e->hoq_since, 0, sizeof(e->hoq_since));
	if (e->open && hoq_life < IBSW_HOQ_LIFE_INFINITE && e->queued) {
		now = ktime_get_ns();
		e->hoq_armed = now;
		hrtimer_start(&e->hoq_timer, ns_to_ktime(now),
			      HRTIMER_MODE_ABS_SOFT);
	}
	spin_unlock_bh(&e->lock);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_engine_set_hoq_life);

/**
 * ibsw_engine_read_cnt() - the counters an engine keeps
 * @e: the engine
 * @cnt: PortXmitWait and PortXmitTimeCong in ticks of 64 bytes at the
 *	port's rate, and the packets it FECN-marked, per VL and per port (an
 *	output engine's); the time the link lost to late runs (any engine)
 *
 * Context: process context.
 */
void ibsw_engine_read_cnt(struct ibsw_engine *e, struct ibsw_engine_cnt *cnt)
{
	u32 scale = READ_ONCE(ibsw_fabric.time_scale);
	unsigned int i;
	u64 now;

	spin_lock_bh(&e->lock);
	now = ktime_get_ns();
	ibsw_engine_wait_update(e, now, e->wait_mask);
	ibsw_cc_clock_update(&e->cc_time, now, e->cc_state);
	for (i = 0; i <= IBSW_NR_DATA_VLS; i++) {
		cnt->wait[i] = e->wait_ticks[i] +
			       ibsw_rate_wait_ticks(e->wait_ns[i], e->rate_bps,
						    scale);
		cnt->time_cong[i] = e->cc_ticks[i] +
				    ibsw_rate_wait_ticks(e->cc_time.ns[i],
							 e->rate_bps, scale);
		cnt->fecn[i] = e->cc_fecn[i];
	}
	cnt->late = e->late_ticks +
		    ibsw_rate_wait_ticks(e->late_ns, e->rate_bps, scale);
	spin_unlock_bh(&e->lock);
}

/* Clear entries @vls (bit IBSW_NR_DATA_VLS: the port's) of a counter */
static void ibsw_engine_clear_vls(u64 *a, u64 *b, unsigned long vls)
{
	unsigned int i;

	for_each_set_bit(i, &vls, IBSW_NR_DATA_VLS + 1) {
		a[i] = 0;
		b[i] = 0;
	}
}

/**
 * ibsw_engine_clear_sel() - reset some of the counters an engine keeps
 * @e: the engine
 * @cnt: port-wide counters to reset, BIT(enum ibsw_counter): PortXmitWait,
 *	PortXmitTimeCong, FECN marks and the late ticks are the engine's
 * @vl_cnt: per-VL counters to reset, likewise
 * @vls: the VLs of @vl_cnt
 *
 * Context: process context.
 */
void ibsw_engine_clear_sel(struct ibsw_engine *e, u32 cnt, u32 vl_cnt,
			   u16 vls)
{
	unsigned long port = BIT(IBSW_NR_DATA_VLS);
	u64 now;

	spin_lock_bh(&e->lock);
	now = ktime_get_ns();
	ibsw_engine_wait_update(e, now, e->wait_mask);
	ibsw_cc_clock_update(&e->cc_time, now, e->cc_state);
	ibsw_engine_clear_vls(e->wait_ns, e->wait_ticks,
			      (cnt & BIT(IBSW_CNT_XMIT_WAIT) ? port : 0) |
			      (vl_cnt & BIT(IBSW_CNT_XMIT_WAIT) ? vls : 0));
	ibsw_engine_clear_vls(e->cc_time.ns, e->cc_ticks,
			      (cnt & BIT(IBSW_CNT_XMIT_TIME_CONG) ? port : 0) |
			      (vl_cnt & BIT(IBSW_CNT_XMIT_TIME_CONG) ? vls : 0));
	if (cnt & BIT(IBSW_CNT_XMIT_FECN))
		e->cc_fecn[IBSW_CC_PORT] = 0;
	if (vl_cnt & BIT(IBSW_CNT_XMIT_FECN))
		ibsw_engine_clear_vls(e->cc_fecn, e->cc_fecn, vls);
	if (cnt & BIT(IBSW_CNT_XMIT_LATE)) {
		e->late_ns = 0;
		e->late_ticks = 0;
	}
	spin_unlock_bh(&e->lock);
}

/**
 * ibsw_engine_clear_cnt() - reset the counters an engine keeps
 * @e: the engine
 *
 * Context: process context.
 */
void ibsw_engine_clear_cnt(struct ibsw_engine *e)
{
	ibsw_engine_clear_sel(e, U32_MAX, U32_MAX, U16_MAX);
}

/**
 * ibsw_engine_set_cc() - set the congestion control of a switch output
 * @e: the output engine
 * @cc: the port's effective settings
 *
 * The levels follow from the threshold and the port's input buffer sizes
 * (the yardstick of one input), which change only while the port is
 * unconnected; port-set calls this again when they do. Marking restarts
 * with a new window, and the state is re-evaluated at once.
 *
 * Context: RTNL.
 */
void ibsw_engine_set_cc(struct ibsw_engine *e, const struct ibsw_cc_params *cc)
{
	u32 seed[IBSW_NR_DATA_VLS];
	unsigned int vl;

	for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++)
		seed[vl] = get_random_u32();
	spin_lock_bh(&e->lock);
	e->cc = *cc;
	ibsw_engine_cc_levels(e);
	for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++)
		ibsw_cc_marker_init(&e->cc_mark[vl], seed[vl]);
	/* Roots and victims as the last pass found them */
	if (!cc->threshold)
		ibsw_engine_cc_off(e, ktime_get_ns());
	else
		ibsw_engine_cc_eval(e);
	spin_unlock_bh(&e->lock);
}

/**
 * ibsw_engine_cc_state() - the VLs of an output in the congestion state
 * @e: the output engine
 *
 * Context: process context.
 * Return: bit v set: VL v is in the state.
 */
u16 ibsw_engine_cc_state(struct ibsw_engine *e)
{
	u16 state;

	spin_lock_bh(&e->lock);
	state = e->cc_state;
	spin_unlock_bh(&e->lock);
	return state;
}

/**
 * ibsw_engine_cc_log_read() - an output port's share of the CongestionLog
 * @e: the output engine
 * @ev: room for %IBSW_CC_LOG_EVENTS events, filled oldest first
 * @events: marking events since the last clear
 * @marked: it marked since the last clear
 *
 * Context: process context.
 * Return: the number of events in @ev.
 */
unsigned int ibsw_engine_cc_log_read(struct ibsw_engine *e,
				     struct ibsw_cc_event *ev, u32 *events,
				     bool *marked)
{
	unsigned int n;

	spin_lock_bh(&e->lock);
	n = ibsw_cc_ring_read(&e->cc_log.ring, ev);
	*events = e->cc_log.events;
	*marked = e->cc_log.marked;
	spin_unlock_bh(&e->lock);
	return n;
}

/**
 * ibsw_engine_cc_log_clear() - empty an output port's share of the log
 * @e: the output engine
 *
 * Context: process context.
 */
void ibsw_engine_cc_log_clear(struct ibsw_engine *e)
{
	spin_lock_bh(&e->lock);
	memset(&e->cc_log, 0, sizeof(e->cc_log));
	spin_unlock_bh(&e->lock);
}
