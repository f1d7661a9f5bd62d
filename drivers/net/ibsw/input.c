// SPDX-License-Identifier: GPL-2.0
/*
 * A switch's input ports: a packet arrives from the link, is forwarded by
 * the LFT and the SL-to-VL table into an output port's VoQ, and returns
 * its input buffer's credits when that port's engine sends it on
 * (design §4.1).
 */

#include <kunit/visibility.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>

#include "engine.h"
#include "remote.h"

/**
 * ibsw_switch_receive() - a packet has arrived at a switch input port
 * @in: the port
 * @skb: the packet; ibsw_cb() holds its length, DLID, SL and the input
 *	buffer VL whose credits it holds (taken by the transmitter)
 *
 * Routes it by the LFT and the SL-to-VL table of (@in, output port) into
 * the output port's VoQ for @in. A packet that cannot be forwarded is
 * counted and dropped, and its credits return at once.
 *
 * Context: BH disabled, no engine lock held.
 */
void ibsw_switch_receive(struct ibsw_port *in, struct sk_buff *skb)
{
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	struct ibsw_switch *sw = in->sw;
	const struct ibsw_sl2vl_tab *tab;
	struct ibsw_port *out;
	unsigned int o, vl;
	int err;

	/* Subnet management: no credits, its own routing (mad.c) */
	if (unlikely(cb->in_vl == IBSW_VL15)) {
		ibsw_smp_receive(in, skb);
		return;
	}
	rcu_read_lock();
	ibsw_stat_pkt(in, false, cb->in_vl, cb->wire_len);
	/* PortRcvConCtrl: as it arrives, from a host or marked upstream */
	if (unlikely(cb->flags & IBSW_CB_FECN))
		ibsw_stat_inc(in, IBSW_CNT_RCV_FECN);
	if (unlikely(cb->flags & IBSW_CB_BECN))
		ibsw_stat_inc(in, IBSW_CNT_RCV_BECN);
	/* A GMP for the switch's own agents (port 0) */
	if (unlikely(cb->dlid && cb->dlid == READ_ONCE(sw->sma_lid))) {
		rcu_read_unlock();
		ibsw_gmp_receive(in, skb);
		return;
	}
	o = ibsw_lft_lookup(rcu_dereference(sw->lft), cb->dlid);
	if (o == IBSW_PORT_NONE || o > sw->nr_ports || o == in->num) {
		ibsw_stat_inc(in, IBSW_CNT_RCV_SWITCH_RELAY_ERRORS);
		goto drop;
	}
	out = sw->ports[o];
	tab = rcu_dereference(out->sl2vl);
	vl = ibsw_sl2vl_get(&tab->map[in->num], cb->sl);
	if (ibsw_vl_drop(vl, READ_ONCE(out->nr_vls))) {
		ibsw_stat_inc(in, IBSW_CNT_RCV_VL_DISCARDS);
		goto drop;
	}
	cb->out_vl = vl;
	err = ibsw_engine_enqueue(out->out, in->num, skb);
	if (likely(!err)) {
		rcu_read_unlock();
		return;
	}
	if (err == -EMSGSIZE)
		ibsw_stat_inc(in, IBSW_CNT_RCV_OVERSIZE);
	else if (err == -ERANGE)
		ibsw_stat_inc(in, IBSW_CNT_RCV_VL_DISCARDS);
	else
		ibsw_stat_inactive_discard(out);
drop:
	ibsw_credit_release(in, cb->in_vl, cb->wire_len);
	rcu_read_unlock();
	kfree_skb(skb);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_switch_receive);

/**
 * ibsw_credit_release() - a packet left an input buffer
 * @in: the port of the buffer
 * @vl: its VL
 * @len: the packet's wire length
 *
 * Returns the credits and kicks the transmitter that fills the buffer (a
 * host's HCA engine, or the peer switch port's output engine), which may
 * have been waiting for them.
 *
 * Context: BH disabled, no engine lock held.
 */
void ibsw_credit_release(struct ibsw_port *in, unsigned int vl,
			 unsigned int len)
{
	struct ibsw_engine *up;

	ibsw_credit_return(&in->in[vl], len);
	rcu_read_lock();
	up = rcu_dereference(in->upstream);
	if (up)
		ibsw_engine_kick(up);
	else if (READ_ONCE(in->kind) == IBSW_PORT_KIND_REMOTE)
		ibsw_remote_credit_freed(in, vl);
	rcu_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_credit_release);
