// SPDX-License-Identifier: GPL-2.0
/*
 * Subnet management packets in the datapath. An SMP arrives at a switch
 * port on VL15 (no credits); directed-route SMPs take one step of their
 * route here (smp_route.c), LID-routed ones go by the LFT. One for this
 * switch, or for the emulated CA behind one of its host ports, is handed
 * to the SMA (sma.c, process context); the others leave on VL15 by the
 * port their route names. What cannot go on is dropped and counted in
 * VL15Dropped of the port it came in on.
 */

#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>

#include "engine.h"
#include "mad_pkt.h"
#include "smp_route.h"

static struct ib_smp *ibsw_smp_of(struct sk_buff *skb)
{
	return (struct ib_smp *)(skb->data + IBSW_MAD_OFF);
}

/* Count and drop an SMP at the port it came in on */
static void ibsw_smp_drop(struct ibsw_port *in, struct sk_buff *skb)
{
	ibsw_stat_inc(in, IBSW_CNT_VL15_DROPPED);
	kfree_skb(skb);
}

/* To the SMA of switch @sw (@ca: the CA behind port @port), in process context */
static void ibsw_smp_to_sma(struct ibsw_switch *sw, struct ibsw_port *in,
			    unsigned int port, bool ca, struct sk_buff *skb)
{
	struct ibsw_sma_cb *scb = ibsw_sma_cb(skb);
	struct sk_buff_head *q = &ibsw_fabric.sma_queue;
	bool queued = false;

	scb->sw_id = sw->id;
	scb->port = port;
	scb->ca = ca;
	spin_lock(&q->lock);
	if (skb_queue_len(q) < IBSW_SMA_QLEN) {
		__skb_queue_tail(q, skb);
		queued = true;
	}
	spin_unlock(&q->lock);
	if (!queued) {
		ibsw_smp_drop(in, skb);
		return;
	}
	queue_work(system_unbound_wq, &ibsw_fabric.sma_work);
}

/**
 * ibsw_smp_send() - an SMP leaves a switch by a port, on VL15
 * @in: the port it came in on (for counting a drop)
 * @out: the port it leaves by
 * @skb: the SMP, its directed-route step taken
 *
 * Out of a host port it reaches the emulated CA there, whose SMA the
 * switch keeps.
 *
 * Context: BH disabled.
 */
void ibsw_smp_send(struct ibsw_port *in, struct ibsw_port *out,
		   struct sk_buff *skb)
{
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	struct ib_smp *smp = ibsw_smp_of(skb);
	unsigned int p;

	switch (READ_ONCE(out->kind)) {
	case IBSW_PORT_KIND_HOST:
		if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE &&
		    ibsw_smp_dr_recv(smp, false, 1, 1, &p) != IBSW_SMP_LOCAL)
			break;
		ibsw_smp_to_sma(out->sw, in, out->num, true, skb);
		return;
	case IBSW_PORT_KIND_LINK:
	case IBSW_PORT_KIND_MGMT:
		cb->out_vl = IBSW_VL15;
		cb->in_port = in->num;
		if (!ibsw_engine_enqueue_vl15(out->out, skb))
			return;
		break;
	default:
		break;
	}
	ibsw_smp_drop(in, skb);
}

/**
 * ibsw_smp_route() - an SMP leaves a switch by the LFT's port for a LID
 * @in: the port it came in on, or the port its SMA answered from
 * @lid: its destination
 * @skb: the SMP
 *
 * Context: BH disabled, RCU.
 */
void ibsw_smp_route(struct ibsw_port *in, u16 lid, struct sk_buff *skb)
{
	struct ibsw_switch *sw = in->sw;
	unsigned int o;

	o = ibsw_lft_lookup(rcu_dereference(sw->lft), lid);
	if (o == IBSW_PORT_NONE || o > sw->nr_ports) {
		ibsw_smp_drop(in, skb);
		return;
	}
	ibsw_smp_send(in, sw->ports[o], skb);
}

/**
 * ibsw_smp_receive() - an SMP arrives at a switch port on VL15
 * @in: the port
 * @skb: the packet, ibsw_cb() filled in
 *
 * Context: BH disabled, no engine lock held.
 */
void ibsw_smp_receive(struct ibsw_port *in, struct sk_buff *skb)
{
	struct ibsw_switch *sw = in->sw;
	struct ibsw_mad_addr a;
	struct ib_smp *smp;
	unsigned int o = 0;
	u16 lid;

	ibsw_stat_pkt(in, false, IBSW_VL15, ibsw_cb(skb)->wire_len);
	if (skb_linearize(skb) ||
	    ibsw_mad_hdrs_get(skb->data, skb->len, &a) || a.dqp != 0) {
		ibsw_smp_drop(in, skb);
		return;
	}
	smp = ibsw_smp_of(skb);
	rcu_read_lock();
	switch (smp->mgmt_class) {
	case IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE:
		switch (ibsw_smp_dr_recv(smp, true, in->num, sw->nr_ports, &o)) {
		case IBSW_SMP_LOCAL:
			ibsw_smp_to_sma(sw, in, in->num, false, skb);
			goto out;
		case IBSW_SMP_FORWARD:
			ibsw_smp_send(in, sw->ports[o], skb);
			goto out;
		case IBSW_SMP_LID_ROUTE:
			lid = be16_to_cpu(ib_get_smp_direction(smp) ?
					  smp->dr_slid : smp->dr_dlid);
			break;
		default:
			goto drop;
		}
		break;
	case IB_MGMT_CLASS_SUBN_LID_ROUTED:
		lid = a.dlid;
		break;
	default:
		goto drop;
	}
	/* LID routed: to this switch's port 0, or on by the LFT */
	if (lid == be16_to_cpu(IB_LID_PERMISSIVE) ||
	    (lid && lid == READ_ONCE(sw->sma_lid))) {
		ibsw_smp_to_sma(sw, in, in->num, false, skb);
		goto out;
	}
	ibsw_smp_route(in, lid, skb);
	goto out;
drop:
	ibsw_smp_drop(in, skb);
out:
	rcu_read_unlock();
}
