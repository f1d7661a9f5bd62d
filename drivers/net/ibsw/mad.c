// SPDX-License-Identifier: GPL-2.0
/*
 * Management packets in the datapath. An SMP arrives at a switch port on
 * VL15 (no credits); directed-route SMPs take one step of their route
 * here (smp_route.c), LID-routed ones go by the LFT. One for this switch,
 * or for the emulated CA behind one of its host ports, is handed to the
 * SMA (sma.c, process context); the others leave on VL15 by the port
 * their route names. What cannot go on is dropped and counted in
 * VL15Dropped of the port it came in on.
 *
 * GMPs travel on data VLs as data does (input.c); one for the switch's
 * LID leaves its input buffer for the switch's agents (agent.c), whose
 * replies enter the switch at port 0.
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

/*
 * Hand a MAD to process context (@work, which empties @q), for switch @sw
 * (@ca: the CA behind port @port); one that finds @max waiting is
 * dropped and counted at the port it came in on.
 */
static void ibsw_mad_to_work(struct ibsw_switch *sw, struct ibsw_port *in,
			     unsigned int port, bool ca, struct sk_buff *skb,
			     struct sk_buff_head *q, unsigned int max,
			     struct work_struct *work)
{
	struct ibsw_sma_cb *scb = ibsw_sma_cb(skb);
	bool queued = false;

	scb->sw_id = sw->id;
	scb->port = port;
	scb->ca = ca;
	spin_lock(&q->lock);
	if (skb_queue_len(q) < max) {
		__skb_queue_tail(q, skb);
		queued = true;
	}
	spin_unlock(&q->lock);
	if (!queued) {
		ibsw_smp_drop(in, skb);
		return;
	}
	queue_work(system_unbound_wq, work);
}

/* To the SMA of switch @sw (@ca: the CA behind port @port) */
static void ibsw_smp_to_sma(struct ibsw_switch *sw, struct ibsw_port *in,
			    unsigned int port, bool ca, struct sk_buff *skb)
{
	ibsw_mad_to_work(sw, in, port, ca, skb, &ibsw_fabric.sma_queue,
			 IBSW_SMA_QLEN, &ibsw_fabric.sma_work);
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

/**
 * ibsw_gmp_receive() - a GMP for the switch's agents (its port 0)
 * @in: the port it came in on
 * @skb: the packet, its input buffer credits held
 *
 * It leaves the input buffer at once; the agents answer in process
 * context. Only a management HCA's packets (IBA local headers) are
 * management packets here: no host address maps to a switch's LID. What
 * the agents cannot take is dropped and counted in VL15Dropped, the
 * counter of management packets a port had no room for.
 *
 * Context: BH disabled, no engine lock held.
 */
void ibsw_gmp_receive(struct ibsw_port *in, struct sk_buff *skb)
{
	struct ibsw_skb_cb *cb = ibsw_cb(skb);

	ibsw_credit_release(in, cb->in_vl, cb->wire_len);
	if (!(cb->flags & IBSW_CB_IB) || skb_linearize(skb)) {
		ibsw_stat_inc(in, IBSW_CNT_RCV_ERRORS);
		kfree_skb(skb);
		return;
	}
	ibsw_mad_to_work(in->sw, in, in->num, false, skb,
			 &ibsw_fabric.agent_queue, IBSW_AGENT_QLEN,
			 &ibsw_fabric.agent_work);
}

/**
 * ibsw_gmp_send() - a GMP from the switch's port 0 (its agents)
 * @sw: the switch
 * @skb: the packet, IBA local headers; ibsw_cb() has its length, DLID
 *	and SL
 *
 * It goes by the LFT, on the VL of its SL from port 0, into the output
 * port's queue of port 0, which holds no credits. What cannot go is
 * dropped (the requester times out).
 *
 * Context: BH disabled, RCU.
 */
void ibsw_gmp_send(struct ibsw_switch *sw, struct sk_buff *skb)
{
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	const struct ibsw_sl2vl_tab *tab;
	struct ibsw_port *out;
	unsigned int o, vl;

	o = ibsw_lft_lookup(rcu_dereference(sw->lft), cb->dlid);
	if (o == IBSW_PORT_NONE || o > sw->nr_ports)
		goto drop;
	out = sw->ports[o];
	tab = rcu_dereference(out->sl2vl);
	vl = ibsw_sl2vl_get(&tab->map[0], cb->sl);
	if (ibsw_vl_drop(vl, READ_ONCE(out->nr_vls)))
		goto drop;
	skb->data[0] = (skb->data[0] & 0x0f) | vl << 4;	/* LRH VL */
	cb->in_port = 0;
	cb->in_vl = vl;
	cb->out_vl = vl;
	if (!ibsw_engine_enqueue(out->out, 0, skb))
		return;
drop:
	kfree_skb(skb);
}
