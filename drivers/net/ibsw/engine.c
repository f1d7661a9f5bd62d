// SPDX-License-Identifier: GPL-2.0
/*
 * Engines: the transmitters of the fabric (design §4.2), as they run.
 * engine_ctl.c opens, configures and closes them.
 *
 * A switch output port's engine serves the virtual output queues of every
 * input port of its switch; a host port's HCA engine serves the per-VL
 * FIFOs that its netdev fills. Both run from a soft hrtimer: deliver the
 * packet on the wire once it has been serialised, pick the next one (VL
 * arbitration over the VLs with a packet and downstream credit, then
 * round-robin over the input ports of that VL), take its downstream
 * credits, and re-arm the timer for the time the packet leaves the link.
 *
 * Everything an engine owns is under its spinlock. What it does to other
 * objects - returning input buffer credits, kicking the engine upstream
 * of those buffers, delivering to a peer switch port or a host netdev -
 * happens after the lock is dropped, so no two engine locks are ever held
 * together. A kick may run the other engine at once, nested in the
 * kicker's run up to IBSW_ENGINE_DEPTH, or arm its timer.
 *
 * One context at a time runs an engine, its deliveries included: the
 * timer on one CPU and a kick on another would otherwise each take a
 * packet off the wire and deliver it unlocked, in either order, and the
 * packets of a flow would arrive out of order. Run ownership is the
 * @running flag, taken and given up under the engine lock; a run that
 * finds it taken leaves a @rerun request for the owner and returns, so it
 * never waits. Lock order: run ownership of an engine -> any engine lock
 * (its own, or another's while delivering); spinlocks are still taken one
 * at a time.
 *
 * Credit coming back kicks the engine upstream without its lock: it reads
 * whether the engine is idle with packets queued (ibsw_engine_kick()).
 *
 * A packet that finds its engine idle skips the queue (cut-through,
 * ibsw_engine_cut()): it is what the first pass would send.
 */

#include <kunit/visibility.h>
#include <linux/bitmap.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>

#include "engine.h"
#include "pkt.h"
#include "remote.h"

static void ibsw_engine_arm(struct ibsw_engine *e, u64 when)
{
	lockdep_assert_held(&e->lock);
	WRITE_ONCE(e->scheduled, true);
	hrtimer_start(&e->timer, ns_to_ktime(when), HRTIMER_MODE_ABS_SOFT);
}

static DEFINE_PER_CPU(unsigned int, ibsw_engine_depth);

/*
 * Should a packet just queued run the engine: it is idle, or its timer
 * is late and the packet on the wire has left already.
 */
static bool ibsw_engine_due(struct ibsw_engine *e)
{
	lockdep_assert_held(&e->lock);
	return !e->scheduled || (e->wire && ktime_get_ns() >= e->busy_until);
}

/* Account the PortXmitWait clocks that ran since the last call */
void ibsw_engine_wait_update(struct ibsw_engine *e, u64 now, u16 mask)
{
	unsigned long running = e->wait_mask;
	u64 d = now > e->wait_last ? now - e->wait_last : 0;
	unsigned int i;

	for_each_set_bit(i, &running, IBSW_NR_DATA_VLS + 1)
		e->wait_ns[i] += d;
	e->wait_mask = mask;
	e->wait_last = now;
}

static bool ibsw_engine_credit(const struct ibsw_engine *e, unsigned int vl,
			       unsigned int len)
{
	/* A host's HCA consumes at once: always credit toward it */
	return !e->down || ibsw_credit_can_take(&e->down[vl], len);
}

/*
 * For each VL with a packet: the input port whose turn it is (@src), and
 * whether the receiver has room for the packet at its head.
 */
static u16 ibsw_engine_eligible(struct ibsw_engine *e, u8 *src, u16 *nocredit)
{
	unsigned long queued = e->queued;
	u16 ok = 0, no = 0;
	unsigned int vl;

	for_each_set_bit(vl, &queued, IBSW_NR_DATA_VLS) {
		unsigned int s = ibsw_vlarb_rr_next(e->busy[vl], e->nr_src,
						    e->last_src[vl]);
		struct sk_buff *head;

		if (WARN_ON_ONCE(s >= e->nr_src))
			continue;
		head = skb_peek(ibsw_voq(e, s, vl));
		src[vl] = s;
		if (ibsw_engine_credit(e, vl, ibsw_cb(head)->wire_len))
			ok |= BIT(vl);
		else
			no |= BIT(vl);
	}
	*nocredit = no;
	return ok;
}

/* A switch output's packet of @len wire bytes left the VoQ of @src, @vl */
static void ibsw_engine_fill_sub(struct ibsw_engine *e, unsigned int src,
				 unsigned int vl, unsigned int len)
{
	unsigned int credits = ibsw_wire_credits(len);

	e->cc_fill[vl] -= credits;
	e->voq_fill[src * IBSW_NR_DATA_VLS + vl] -= credits;
}

static struct sk_buff *ibsw_engine_dequeue(struct ibsw_engine *e,
					   unsigned int vl, unsigned int src)
{
	struct sk_buff_head *q = ibsw_voq(e, src, vl);
	struct sk_buff *skb = __skb_dequeue(q);

	if (skb_queue_empty(q)) {
		__clear_bit(src, e->busy[vl]);
		if (ibsw_vlarb_rr_none(e->busy[vl], e->nr_src))
			WRITE_ONCE(e->queued, e->queued & ~BIT(vl));
	}
	e->last_src[vl] = src;
	return skb;
}

/*
 * A data packet of @len wire bytes leaves by @vl, from its queue or cut
 * through: the arbiter's charge, the downstream credit (checked before it
 * was chosen; this engine is the buffer's only taker) and a switch port's
 * transmit counters.
 */
static void ibsw_engine_charge(struct ibsw_engine *e, unsigned int vl,
			       unsigned int len)
{
	ibsw_vlarb_account(&e->arb, vl, len);
	if (e->down)
		WARN_ON_ONCE(!ibsw_credit_take(&e->down[vl], len));
	if (!e->hca)
		ibsw_stat_pkt(e->port, true, vl, len);
}

/*
 * Head-of-queue lifetime (IBA vol 1, 18.2.5.4): a packet that has stood
 * at the head of its VL's queue longer than the port's HOQLife, for want
 * of credit or of the arbiter's turn, is discarded (PortXmitDiscards,
 * PortSwHOQLifetimeLimitDiscards) and returns its input credits; the next
 * packet of the VL is the head from then on. The head is the packet of
 * the input port whose turn it is. This bounds how long a packet stays
 * in the fabric whatever the downstream ports or the arbitration tables
 * do. A switch output only: HOQLife is a switch port's.
 */

/* Discard the expired heads; their credits go back with @ret's */
static unsigned int ibsw_engine_hoq(struct ibsw_engine *e, u64 now, u64 life,
				    struct ibsw_ret *ret,
				    struct sk_buff_head *drop)
{
	unsigned long queued = e->queued & ~BIT(IBSW_VL15);
	unsigned int vl, n = 0;

	for_each_set_bit(vl, &queued, IBSW_NR_DATA_VLS) {
		struct ibsw_skb_cb *cb;
		struct sk_buff *skb;
		unsigned int s;

		/* Queued since the last pass: its lifetime starts now */
		if (!e->hoq_since[vl]) {
			e->hoq_since[vl] = now;
			continue;
		}
		if (now < ibsw_hoq_expiry(e->hoq_since[vl], life))
			continue;
		s = ibsw_vlarb_rr_next(e->busy[vl], e->nr_src, e->last_src[vl]);
		if (WARN_ON_ONCE(s >= e->nr_src))
			continue;
		skb = ibsw_engine_dequeue(e, vl, s);
		cb = ibsw_cb(skb);
		ret[n].src = cb->in_port;
		ret[n].vl = cb->in_vl;
		ret[n].len = cb->wire_len;
		n++;
		ibsw_engine_fill_sub(e, s, vl, cb->wire_len);
		ibsw_stat_inc(e->port, IBSW_CNT_XMIT_DISCARDS);
		ibsw_stat_inc(e->port, IBSW_CNT_HOQ_DISCARDS);
		__skb_queue_tail(drop, skb);
		e->hoq_since[vl] = now;
	}
	return n;
}

/*
 * An engine that stops with packets it cannot send runs again when the
 * first of their heads expires. One that sends runs at least once a
 * packet time, and each run looks.
 */
static void ibsw_engine_hoq_arm(struct ibsw_engine *e, u64 life)
{
	unsigned long queued = e->queued & ~BIT(IBSW_VL15);
	u64 next = U64_MAX;
	unsigned int vl;

	lockdep_assert_held(&e->lock);
	for_each_set_bit(vl, &queued, IBSW_NR_DATA_VLS)
		next = min(next, ibsw_hoq_expiry(e->hoq_since[vl], life));
	if (next == U64_MAX || (e->hoq_armed && e->hoq_armed <= next))
		return;
	e->hoq_armed = next;
	hrtimer_start(&e->hoq_timer, ns_to_ktime(next), HRTIMER_MODE_ABS_SOFT);
}

/*
 * Congestion control of a switch output (design §8). The state of a port
 * VL follows from its fill (credits queued for it) and whether it is a
 * victim: at the end of one of the engine's last IBSW_CC_ROOT_PASSES
 * passes it had packets and could send none for lack of credit (its
 * PortXmitWait clock ran). Judged at the moment of sending, any port VL
 * would look like a root: it sends because credit has just come back.
 * The state is re-evaluated when a packet is queued, before each packet
 * sent (the fill fell) and at the end of each pass (credit changed).
 */

/* At the end of a pass: which VLs are roots; @no: queued, without credit */
static void ibsw_engine_cc_roots(struct ibsw_engine *e, u16 no)
{
	unsigned int vl;
	u16 victim = 0;

	for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++) {
		e->cc_root_run[vl] = ibsw_cc_root_run(e->cc_root_run[vl],
						      !(no & BIT(vl)));
		if (e->cc_root_run[vl] < IBSW_CC_ROOT_PASSES)
			victim |= BIT(vl);
	}
	e->cc_victim = victim;
}

/* The fullest of a VL's VoQs, in credits */
static u32 ibsw_engine_voq_fill_max(const struct ibsw_engine *e,
				    unsigned int vl)
{
	unsigned int s;
	u32 most = 0;

	for_each_set_bit(s, e->busy[vl], e->nr_src)
		most = max(most, e->voq_fill[s * IBSW_NR_DATA_VLS + vl]);
	return most;
}

static void ibsw_engine_cc_vl(struct ibsw_engine *e, unsigned int vl)
{
	const struct ibsw_cc_level *lv = &e->cc_level[vl];
	bool cong = e->cc_state & BIT(vl);
	u32 fill = e->cc_fill[vl];
	struct ibsw_cc_level per;

	lockdep_assert_held(&e->lock);
	switch (e->cc.fill_compare) {
	case IBSW_CC_FILL_COMPARE_VOQ:
		fill = ibsw_engine_voq_fill_max(e, vl);
		break;
	case IBSW_CC_FILL_COMPARE_PER_INPUT:
		ibsw_cc_level_per_input(&per, lv,
					bitmap_weight(e->busy[vl], e->nr_src));
		lv = &per;
		break;
	}
	if (ibsw_cc_next_state(cong, lv, fill, !(e->cc_victim & BIT(vl)),
			       e->cc.victim) == cong)
		return;
	e->cc_state ^= BIT(vl);
	ibsw_cc_clock_update(&e->cc_time, ktime_get_ns(), e->cc_state);
	if (!cong)
		atomic64_inc(&e->port->sw->cc_threshold_events);
}

/* Every VL with a packet or in the state */
void ibsw_engine_cc_eval(struct ibsw_engine *e)
{
	unsigned long vls = e->queued | e->cc_state;
	unsigned int vl;

	if (!e->cc.threshold)
		return;
	for_each_set_bit(vl, &vls, IBSW_NR_DATA_VLS)
		ibsw_engine_cc_vl(e, vl);
}

/* Leave the state on every VL (its clocks stop) */
void ibsw_engine_cc_off(struct ibsw_engine *e, u64 now)
{
	lockdep_assert_held(&e->lock);
	e->cc_state = 0;
	ibsw_cc_clock_update(&e->cc_time, now, 0);
}

/* Log a marked packet in the port's share of the CongestionLog */
static void ibsw_engine_cc_log(struct ibsw_engine *e, unsigned int vl,
			       const struct ibsw_skb_cb *cb, u64 now)
{
	struct ibsw_cc_event ev = {
		.slid = cb->slid,
		.dlid = cb->dlid,
		.sl = cb->sl,
		.port = e->port->num,
		.vl = vl,
		.timestamp = ibsw_cc_timestamp(now,
					       READ_ONCE(ibsw_fabric.time_scale)),
		.ns = now,
	};

	ibsw_cc_ring_push(&e->cc_log.ring, &ev);
	e->cc_log.events++;
	e->cc_log.marked = true;
}

/*
 * A packet leaves a VL in the congestion state: mark it if it is eligible
 * and its turn has come (Marking_Rate), count it and log it.
 */
static void ibsw_engine_cc_mark(struct ibsw_engine *e, unsigned int vl,
				struct sk_buff *skb, u64 now)
{
	struct ibsw_skb_cb *cb = ibsw_cb(skb);

	if (!ibsw_cc_mark_decide(&e->cc, &e->cc_mark[vl],
				 cb->flags & IBSW_CB_CC_ELIGIBLE, cb->dlid,
				 ibsw_wire_credits(cb->wire_len)))
		return;
	/* Unclones the header if it must (GFP_ATOMIC); unmarked if it fails */
	if (ibsw_pkt_set_fecn_at(skb, cb->l4_off, cb->bth_off))
		return;
	cb->flags |= IBSW_CB_FECN;
	e->cc_fecn[vl]++;
	e->cc_fecn[IBSW_CC_PORT]++;
	ibsw_engine_cc_log(e, vl, cb, now);
}

/* After a run, without the lock: credits, wake-ups, deliveries */
static void ibsw_engine_finish(struct ibsw_engine *e, struct ibsw_port *peer,
			       struct sk_buff_head *done,
			       const struct ibsw_ret *ret, unsigned int nret,
			       u16 wake)
{
	struct ibsw_port *port = e->port;
	struct sk_buff *skb;
	unsigned int i;

	rcu_read_lock();
	if (e->hca) {
		struct net_device *dev = rcu_dereference(port->netdev);
		unsigned long w = wake;

		while ((skb = __skb_dequeue(done))) {
			/* The HCA has sent it: rxe may send the next one */
			skb_orphan(skb);
			ibsw_switch_receive(port, skb);
		}
		if (dev)
			for_each_set_bit(i, &w, IBSW_NR_SLS)
				netif_tx_wake_queue(netdev_get_tx_queue(dev, i));
		rcu_read_unlock();
		return;
	}

	/* Source 0: the switch's own port 0 (its agents), no input buffer */
	for (i = 0; i < nret; i++)
		if (ret[i].src)
			ibsw_credit_release(port->sw->ports[ret[i].src],
					    ret[i].vl, ret[i].len);
	if (!peer) {
		struct ibsw_mgmt *m = rcu_dereference(port->mgmt);

		/* In order, through the host port's NAPI queue */
		if (READ_ONCE(port->kind) == IBSW_PORT_KIND_REMOTE)
			ibsw_remote_xmit(port, done);
		else if (m)
			ibsw_mgmt_receive(m, done);
		else if (!skb_queue_empty(done))
			ibsw_host_deliver(port, done);
		rcu_read_unlock();
		return;
	}
	while ((skb = __skb_dequeue(done))) {
		struct ibsw_skb_cb *cb = ibsw_cb(skb);

		cb->in_port = peer->num;
		cb->in_vl = cb->out_vl;
		ibsw_switch_receive(peer, skb);
	}
	rcu_read_unlock();
}

/*
 * How far behind its deadline a busy link may start its next packet: one
 * largest packet, or the timer slack, whichever is more. Timers that fire
 * late (by milliseconds in an emulated VM) are caught up on, so the link
 * keeps its rate; an idle link catches up on nothing (lag 0).
 */
static u64 ibsw_engine_lag(const struct ibsw_engine *e, u32 scale)
{
	return max_t(u64, IBSW_PACE_SLACK_NS,
		     ibsw_rate_xmit_ns(ibsw_wire_len_max(IBSW_IB_MTU_MAX),
				       e->pace_bps, scale));
}

/*
 * A run of a busy link (packets were waiting behind the one on the wire)
 * came later than the slack it catches up on: the link lost the rest of
 * the time, because the CPU did not run it. Count it, so a result can say
 * whether the link or the CPU limited it.
 */
static void ibsw_engine_late(struct ibsw_engine *e, u64 now, u64 lag)
{
	if (e->backlog)
		e->late_ns += ibsw_pace_lost(e->busy_until, now, lag);
}

/*
 * One pass of an engine: deliver the packet on the wire if it has left,
 * send what the link and the credits allow, re-arm the timer, then do
 * the deliveries unlocked.
 *
 * Context: BH disabled; called with e->lock held and the run owned,
 * returns with it dropped.
 */
static void ibsw_engine_pass(struct ibsw_engine *e)
	__releases(&e->lock)
{
	unsigned int nret = 0, budget = IBSW_ENGINE_BATCH;
	struct ibsw_ret *ret = e->ret;
	bool pacing = READ_ONCE(ibsw_fabric.pacing);
	u32 scale = READ_ONCE(ibsw_fabric.time_scale);
	u8 src[IBSW_NR_DATA_VLS];
	struct sk_buff_head done, drop;
	struct ibsw_port *peer;
	u16 wake = 0, ok, no;
	bool eligible_known = false;
	u64 now, lag, lag_busy, life = U64_MAX;

	lockdep_assert_held(&e->lock);
	__skb_queue_head_init(&done);
	__skb_queue_head_init(&drop);
	WRITE_ONCE(e->scheduled, false);
	/* Pairs with the credit return before a lockless ibsw_engine_kick() */
	smp_mb();
	if (!e->open) {
		spin_unlock(&e->lock);
		return;
	}
	peer = e->peer;
	now = ktime_get_ns();
	/*
	 * Run by its own timer after a packet, the link may catch up on a
	 * late timer by about one largest packet; kicked out of idle, it
	 * cannot have started a packet before it arrived (design §2).
	 */
	lag_busy = pacing ? ibsw_engine_lag(e, scale) : 0;
	lag = e->wire ? lag_busy : 0;
	if (e->wire && pacing)
		ibsw_engine_late(e, now, lag);
	/* Finite by default: an SM or netlink makes it infinite */
	if (e->hoq_life < IBSW_HOQ_LIFE_INFINITE) {
		life = ibsw_hoq_life_ns(e->hoq_life, scale);
		nret = ibsw_engine_hoq(e, now, life, ret, &drop);
	}
	for (;;) {
		struct ibsw_skb_cb *cb;
		struct sk_buff *skb;
		unsigned int len;
		int vl;

		if (e->wire) {
			if (pacing && now < e->busy_until)
				break;
			__skb_queue_tail(&done, e->wire);
			e->wire = NULL;
		}
		if (!budget)
			break;
		/* Subnet management first, without credits (VL15) */
		if (unlikely(e->queued & BIT(IBSW_VL15))) {
			skb = __skb_dequeue(&e->vl15);
			if (skb_queue_empty(&e->vl15))
				WRITE_ONCE(e->queued,
					   e->queued & ~BIT(IBSW_VL15));
			len = ibsw_cb(skb)->wire_len;
			budget--;
			if (!e->hca)
				ibsw_stat_pkt(e->port, true, IBSW_VL15, len);
			goto on_wire;
		}
		/* Drained: nothing eligible, nothing without credit */
		if (!e->queued) {
			ok = 0;
			no = 0;
			eligible_known = true;
			break;
		}
		ok = ibsw_engine_eligible(e, src, &no);
		if (e->cc.threshold)
			ibsw_engine_cc_eval(e);
		/* Nothing to send: the arbiter has nothing to say */
		vl = ok ? ibsw_vlarb_next(&e->arb, ok) : -ENOENT;
		if (vl < 0) {
			/* @ok and @no are those of the end of the pass */
			eligible_known = true;
			break;
		}
		skb = ibsw_engine_dequeue(e, vl, src[vl]);
		cb = ibsw_cb(skb);
		len = cb->wire_len;
		e->hoq_since[vl] = now;
		ibsw_engine_charge(e, vl, len);
		budget--;
		if (e->hca) {
			e->fifo_bytes[vl] -= len;
			if (e->fifo_bytes[vl] < e->fifo_limit) {
				wake |= e->fifo_stopped[vl];
				e->fifo_stopped[vl] = 0;
			}
		} else {
			ret[nret].src = cb->in_port;
			ret[nret].vl = cb->in_vl;
			ret[nret].len = len;
			nret++;
			ibsw_engine_fill_sub(e, src[vl], vl, len);
			if (e->cc_state & BIT(vl))
				ibsw_engine_cc_mark(e, vl, skb, now);
		}
on_wire:
		if (pacing)
			e->busy_until = ibsw_pace_next(e->busy_until, now,
						       ibsw_rate_xmit_ns(len, e->pace_bps, scale),
						       lag);
		else
			e->busy_until = now;
		lag = lag_busy;
		e->wire = skb;
	}
	if (e->wire)
		ibsw_engine_arm(e, pacing ? e->busy_until : now);
	else if (!budget && e->queued)
		ibsw_engine_arm(e, now);
	else if (life != U64_MAX)
		ibsw_engine_hoq_arm(e, life);

	if (!eligible_known)
		ok = ibsw_engine_eligible(e, src, &no);
	e->backlog = e->wire && ok;
	if (e->cc.threshold) {
		ibsw_engine_cc_roots(e, no);
		ibsw_engine_cc_eval(e);
	}
	ibsw_engine_wait_update(e, now, no |
				(!e->wire && no && !ok ?
				 BIT(IBSW_WAIT_PORT) : 0));
	spin_unlock(&e->lock);

	ibsw_engine_finish(e, peer, &done, ret, nret, wake);
	__skb_queue_purge(&drop);
}

/*
 * Run an engine whose run nobody owns: it passes again before it lets go
 * if asked to meanwhile, so the work that came in is done and its
 * deliveries stay in the order the packets left the wire. An owner asked
 * again and again hands over to the timer, so a context that kicked it
 * is not held up for long.
 *
 * Context: BH disabled; called with e->lock held and @running clear,
 * returns with it dropped.
 */
static void ibsw_engine_own(struct ibsw_engine *e)
	__releases(&e->lock)
{
	unsigned int passes = 0;

	lockdep_assert_held(&e->lock);
	e->running = true;
	for (;;) {
		e->rerun = false;
		ibsw_engine_pass(e);
		spin_lock(&e->lock);
		/* Checked and given up under the lock: no request is missed */
		if (!e->rerun)
			break;
		if (++passes >= IBSW_ENGINE_PASSES) {
			e->rerun = false;
			if (e->open)
				ibsw_engine_arm(e, ktime_get_ns());
			break;
		}
	}
	e->running = false;
	spin_unlock(&e->lock);
}

/*
 * Run an engine that is due (idle, or its timer late): at once, in the
 * caller's context, which saves a timer's latency per hop (milliseconds
 * in an emulated VM); from its timer when engines are already nested on
 * this CPU (an engine delivering to a switch whose engine delivers
 * on...), so the depth stays bounded; or leave the run to the context
 * that owns it (a @rerun request). It never waits, and never lets go of
 * the lock between the caller's change and claiming the run.
 *
 * Context: BH disabled; called with e->lock held, returns with it
 * dropped.
 */
static void ibsw_engine_start(struct ibsw_engine *e)
	__releases(&e->lock)
{
	unsigned int *depth = this_cpu_ptr(&ibsw_engine_depth);

	lockdep_assert_held(&e->lock);
	if (!e->open || !e->queued || !ibsw_engine_due(e)) {
		spin_unlock(&e->lock);
		return;
	}
	if (*depth >= IBSW_ENGINE_DEPTH) {
		if (!e->scheduled)
			ibsw_engine_arm(e, ktime_get_ns());
		spin_unlock(&e->lock);
		return;
	}
	if (e->running) {
		e->rerun = true;
		spin_unlock(&e->lock);
		return;
	}
	(*depth)++;
	ibsw_engine_own(e);
	(*depth)--;
}

/*
 * Cut-through: a packet that finds its engine idle - no run, no timer,
 * nothing on the wire or queued - is the one its first pass would send,
 * so it goes on the wire at once, without passing through its queue,
 * when it has downstream credit and the arbiter's turn (asked here: a yes
 * is charged as it is sent). A switch output under congestion control
 * queues every packet, as its marking state follows the passes
 * (ibsw_engine_cc_roots()).
 *
 * Context: BH disabled; e->lock held.
 */
static bool ibsw_engine_cut_ok(struct ibsw_engine *e, unsigned int vl,
			       unsigned int len)
{
	lockdep_assert_held(&e->lock);
	return !e->queued && !e->wire && !e->scheduled && !e->running &&
	       !e->cc.threshold &&
	       *this_cpu_ptr(&ibsw_engine_depth) < IBSW_ENGINE_DEPTH &&
	       ibsw_engine_credit(e, vl, len) &&
	       ibsw_vlarb_next(&e->arb, BIT(vl)) == vl;
}

/*
 * Send what ibsw_engine_cut_ok() let through, as a pass sends a packet:
 * paced, it is on the wire until its timer; unpaced, it is delivered now.
 * The run is owned meanwhile, as by ibsw_engine_own().
 *
 * Context: BH disabled; called with e->lock held, returns with it
 * dropped.
 */
static void ibsw_engine_cut(struct ibsw_engine *e, struct sk_buff *skb,
			    unsigned int src, unsigned int vl)
	__releases(&e->lock)
{
	unsigned int *depth = this_cpu_ptr(&ibsw_engine_depth);
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	struct ibsw_ret ret = {
		.src = cb->in_port,
		.vl = cb->in_vl,
		.len = cb->wire_len,
	};
	struct ibsw_port *peer = e->peer;
	struct sk_buff_head done;

	lockdep_assert_held(&e->lock);
	__skb_queue_head_init(&done);
	ibsw_engine_charge(e, vl, ret.len);
	e->last_src[vl] = src;
	if (READ_ONCE(ibsw_fabric.pacing)) {
		u32 scale = READ_ONCE(ibsw_fabric.time_scale);

		/* An idle link starts it now (lag 0) */
		e->busy_until = ibsw_pace_next(e->busy_until, ktime_get_ns(),
					       ibsw_rate_xmit_ns(ret.len,
								 e->pace_bps,
								 scale),
					       0);
		e->wire = skb;
		e->backlog = false;
		ibsw_engine_arm(e, e->busy_until);
	} else {
		__skb_queue_tail(&done, skb);
	}
	e->running = true;
	spin_unlock(&e->lock);

	(*depth)++;
	/* Its input credits go back (source 0 has none, an HCA's neither) */
	ibsw_engine_finish(e, peer, &done, &ret, e->hca ? 0 : 1, 0);
	spin_lock(&e->lock);
	e->running = false;
	/* Packets queued, or a timer that fired, while it was delivered */
	if (e->rerun)
		ibsw_engine_own(e);
	else
		spin_unlock(&e->lock);
	(*depth)--;
}

/**
 * ibsw_engine_kick() - let an idle engine look at its queues again
 * @e: the engine
 *
 * Credit came back, or its VL arbitration changed. Only an engine that is
 * idle with packets queued needs a run, and that is read without its
 * lock: the caller returned the credit with a full barrier
 * (ibsw_credit_return()) and a pass reads credit only after a full
 * barrier that follows its clearing @scheduled (ibsw_engine_pass()), so
 * either that pass sees the credit or this sees the engine idle.
 *
 * Context: BH disabled, no engine lock held.
 */
void ibsw_engine_kick(struct ibsw_engine *e)
{
	if (READ_ONCE(e->open) && !READ_ONCE(e->scheduled) &&
	    READ_ONCE(e->queued)) {
		spin_lock(&e->lock);
		ibsw_engine_start(e);
	}
}

/* Run from a timer; a context that owns the run passes again */
static void ibsw_engine_timer_run(struct ibsw_engine *e)
	__releases(&e->lock)
{
	if (e->running) {
		e->rerun = true;
		spin_unlock(&e->lock);
	} else {
		ibsw_engine_own(e);
	}
}

/* The engine's timer: it is due */
enum hrtimer_restart ibsw_engine_run(struct hrtimer *timer)
{
	struct ibsw_engine *e = container_of(timer, struct ibsw_engine, timer);

	spin_lock(&e->lock);
	ibsw_engine_timer_run(e);
	return HRTIMER_NORESTART;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_engine_run);

/* A head of queue's lifetime ended: the engine looks at its heads */
enum hrtimer_restart ibsw_engine_hoq_run(struct hrtimer *timer)
{
	struct ibsw_engine *e = container_of(timer, struct ibsw_engine,
					     hoq_timer);

	spin_lock(&e->lock);
	e->hoq_armed = 0;
	ibsw_engine_timer_run(e);
	return HRTIMER_NORESTART;
}

/**
 * ibsw_hca_enqueue() - queue a host's packet in its HCA transmitter
 * @e: the host port's HCA engine
 * @skb: the packet, its ibsw_cb() filled in
 * @txq: the netdev TX queue it came from (its SL's), stopped while its
 *	VL's FIFO is at its limit (the next one waits in the qdisc: nothing
 *	is dropped); NULL for a management HCA, whose MADs find the FIFO
 *	full at its limit
 *
 * Context: ndo_start_xmit or a management HCA's tx_work (BH disabled).
 * Return: 0 if queued or sent; -ENOTCONN if the port is going away;
 * -ERANGE if the port no longer operates its VL; -ENOBUFS if the FIFO
 * holds IBSW_HCA_FIFO_CAP (a sender ignored the stopped queue), or
 * without @txq its limit.
 */
int ibsw_hca_enqueue(struct ibsw_engine *e, struct sk_buff *skb,
		     struct netdev_queue *txq)
{
	/* The TX queue's index, its SL */
	u16 q = txq ? BIT(txq - txq->dev->_tx) : 0;
	unsigned int vl = ibsw_cb(skb)->out_vl;

	spin_lock(&e->lock);
	if (unlikely(!e->open)) {
		spin_unlock(&e->lock);
		return -ENOTCONN;
	}
	if (unlikely(vl >= e->nr_vls)) {
		spin_unlock(&e->lock);
		return -ERANGE;
	}
	if (unlikely(e->fifo_bytes[vl] >=
		     (txq ? IBSW_HCA_FIFO_CAP : e->fifo_limit))) {
		if (txq) {
			netif_tx_stop_queue(txq);
			e->fifo_stopped[vl] |= q;
		}
		spin_unlock(&e->lock);
		return -ENOBUFS;
	}
	if (ibsw_engine_cut_ok(e, vl, ibsw_cb(skb)->wire_len)) {
		ibsw_engine_cut(e, skb, 0, vl);
		return 0;
	}
	__skb_queue_tail(ibsw_voq(e, 0, vl), skb);
	__set_bit(0, e->busy[vl]);
	WRITE_ONCE(e->queued, e->queued | BIT(vl));
	e->fifo_bytes[vl] += ibsw_cb(skb)->wire_len;
	/* Under the lock: the engine's wake comes after this stop */
	if (txq && e->fifo_bytes[vl] >= e->fifo_limit) {
		netif_tx_stop_queue(txq);
		e->fifo_stopped[vl] |= q;
	}
	ibsw_engine_start(e);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_hca_enqueue);

/**
 * ibsw_engine_enqueue() - queue a packet in a switch output port's VoQ
 * @e: the output port's engine
 * @src: the input port it came in on
 * @skb: the packet, its ibsw_cb() filled in, @out_vl set
 *
 * Context: BH disabled, no engine lock held.
 * Return: 0 if queued or sent; -ENOTCONN if the port is unconnected;
 * -ERANGE if the port no longer operates the packet's VL; -EMSGSIZE if
 * the packet is larger than the receiver's buffer (it would wait for
 * credit forever).
 */
int ibsw_engine_enqueue(struct ibsw_engine *e, unsigned int src,
			struct sk_buff *skb)
{
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	unsigned int vl = cb->out_vl, credits;
	int err;

	spin_lock(&e->lock);
	if (unlikely(!e->open)) {
		err = -ENOTCONN;
		goto refuse;
	}
	if (unlikely(vl >= e->nr_vls)) {
		/* Trimmed after the sender read the port's VLs */
		err = -ERANGE;
		goto refuse;
	}
	if (unlikely(e->down && ibsw_wire_credits(cb->wire_len) >
			       e->down[vl].size)) {
		/* It would wait for credit forever */
		err = -EMSGSIZE;
		goto refuse;
	}
	if (ibsw_engine_cut_ok(e, vl, cb->wire_len)) {
		ibsw_engine_cut(e, skb, src, vl);
		return 0;
	}
	/* A new head: the next pass starts its lifetime */
	if (!(e->queued & BIT(vl)))
		e->hoq_since[vl] = 0;
	__skb_queue_tail(ibsw_voq(e, src, vl), skb);
	__set_bit(src, e->busy[vl]);
	WRITE_ONCE(e->queued, e->queued | BIT(vl));
	credits = ibsw_wire_credits(cb->wire_len);
	e->cc_fill[vl] += credits;
	e->voq_fill[src * IBSW_NR_DATA_VLS + vl] += credits;
	if (e->cc.threshold)
		ibsw_engine_cc_vl(e, vl);
	ibsw_engine_start(e);
	return 0;

refuse:
	spin_unlock(&e->lock);
	return err;
}

/**
 * ibsw_engine_enqueue_vl15() - queue a subnet management packet (VL15)
 * @e: the engine of the port it leaves by
 * @skb: the packet, its ibsw_cb() filled in, out_vl %IBSW_VL15
 *
 * VL15 has no credits: the packet goes before any data VL, and one that
 * finds %IBSW_VL15_QLEN waiting is refused.
 *
 * Context: BH disabled, no engine lock held.
 * Return: 0 if queued; -ENOTCONN if the port is unconnected; -ENOBUFS if
 * the queue is full.
 */
int ibsw_engine_enqueue_vl15(struct ibsw_engine *e, struct sk_buff *skb)
{
	int err;

	spin_lock(&e->lock);
	if (unlikely(!e->open)) {
		err = -ENOTCONN;
	} else if (skb_queue_len(&e->vl15) >= IBSW_VL15_QLEN) {
		err = -ENOBUFS;
	} else {
		__skb_queue_tail(&e->vl15, skb);
		WRITE_ONCE(e->queued, e->queued | BIT(IBSW_VL15));
		ibsw_engine_start(e);
		return 0;
	}
	spin_unlock(&e->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_engine_enqueue_vl15);
