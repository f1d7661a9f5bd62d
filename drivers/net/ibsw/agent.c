// SPDX-License-Identifier: GPL-2.0
/*
 * The general service agents of a switch, at its port 0: the GMPs that
 * mad.c hands over for the switch's LID are answered here, in process
 * context under RTNL (a Set changes what netlink changes), and the
 * replies enter the switch at port 0 (ibsw_gmp_send()).
 *
 * A class the switch has no agent for is answered as ib_core answers one
 * at a CA: a Get or Set gets its GetResp with the status "method and
 * attribute not supported"; anything else is dropped (IBA 13.4.9).
 */

#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <rdma/ib_mad.h>

#include "engine.h"
#include "mad_pkt.h"
#include "sma.h"

/* Does @method ask for a response (IBA 13.4.5)? */
static bool ibsw_agent_request(u8 method)
{
	switch (method) {
	case IB_MGMT_METHOD_GET:
	case IB_MGMT_METHOD_SET:
		return true;
	default:
		return false;
	}
}

/* Turn the request in @skb into its reply and send it from port 0 */
static void ibsw_agent_reply(struct ibsw_switch *sw, struct sk_buff *skb,
			     u16 status)
{
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)(skb->data + IBSW_MAD_OFF);
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	struct ibsw_mad_addr a;

	ibsw_mad_hdrs_get(skb->data, skb->len, &a);
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	hdr->status = cpu_to_be16(status);
	a.dlid = a.slid;
	a.slid = sw->sma_lid;
	a.dqp = a.sqp;
	a.sqp = 1;
	a.qkey = IB_QP1_QKEY;
	ibsw_mad_hdrs_put(skb->data, &a);
	memset(cb, 0, sizeof(*cb));
	cb->wire_len = IBSW_MAD_WIRE_LEN;
	cb->dlid = a.dlid;
	cb->slid = a.slid;
	cb->sl = a.sl;
	cb->flags = IBSW_CB_IB;

	local_bh_disable();
	rcu_read_lock();
	ibsw_gmp_send(sw, skb);
	rcu_read_unlock();
	local_bh_enable();
}

static void ibsw_agent_one(struct sk_buff *skb)
{
	const struct ibsw_sma_cb *scb = ibsw_sma_cb(skb);
	struct ib_mad_hdr *hdr;
	struct ibsw_mad_addr a;
	struct ibsw_switch *sw;

	sw = xa_load(&ibsw_fabric.switches, scb->sw_id);
	if (!sw || ibsw_mad_hdrs_get(skb->data, skb->len, &a) || a.dqp != 1)
		goto drop;
	hdr = (struct ib_mad_hdr *)(skb->data + IBSW_MAD_OFF);
	if (hdr->base_version != IB_MGMT_BASE_VERSION ||
	    !ibsw_agent_request(hdr->method))
		goto drop;
	ibsw_agent_reply(sw, skb, IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	return;
drop:
	kfree_skb(skb);
}

/**
 * ibsw_agent_work() - answer the GMPs waiting for the switches' agents
 * @work: ibsw_fabric.agent_work
 *
 * Context: process; takes RTNL.
 */
void ibsw_agent_work(struct work_struct *work)
{
	struct sk_buff_head *q = &ibsw_fabric.agent_queue;
	struct sk_buff *skb;

	rtnl_lock();
	while ((skb = skb_dequeue(q)))
		ibsw_agent_one(skb);
	rtnl_unlock();
}
