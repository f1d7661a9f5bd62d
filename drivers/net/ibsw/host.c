// SPDX-License-Identifier: GPL-2.0
/*
 * Host ports, the datapath: the netdev an emulated host's rxe device binds
 * to.
 *
 * The netdev lives in the host's namespace and has one TX queue per SL,
 * as an HCA has send queues per SL: the SL is read ahead from the DSCP
 * (ndo_select_queue), the packet parsed once in ndo_start_xmit and mapped
 * to its VL there. What the host sends goes through the HCA transmitter of the port (an
 * engine, engine.c) into the switch port's input buffers; what the switch
 * sends to the host goes through an RX queue that the netdev's NAPI
 * instance empties, in the order the packets left the link (netif_rx()
 * would queue them to the backlog of whichever CPU ran the engine, and
 * two CPUs' backlogs are processed in either order). host_ctl.c creates,
 * attaches and detaches the netdev.
 */

#include <kunit/visibility.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <net/ipv6.h>

#include "engine.h"
#include "mad_roce.h"
#include "pkt.h"

/* ndo_select_queue: the TX queue of the packet's SL; 0 for other frames */
u16 ibsw_host_select_queue(struct net_device *dev, struct sk_buff *skb,
			   struct net_device *sb_dev)
{
	int dscp = ibsw_pkt_dscp(skb);

	return dscp < 0 ? 0 : ibsw_dscp_to_sl(dscp);
}

/* Multicast or broadcast destination address (IPv4 is v4-mapped) */
static bool ibsw_host_daddr_multicast(const struct in6_addr *a)
{
	if (ipv6_addr_v4mapped(a))
		return ipv4_is_multicast(a->s6_addr32[3]) ||
		       ipv4_is_lbcast(a->s6_addr32[3]);
	return ipv6_addr_is_multicast(a);
}

/* What congestion control needs to know of a packet: its cb flags */
static u8 ibsw_host_cc_flags(const struct ibsw_pkt *pkt)
{
	u8 flags = 0;

	if (pkt->fecn)
		flags |= IBSW_CB_FECN;
	if (pkt->becn)
		flags |= IBSW_CB_BECN;
	if (ibsw_cc_class_eligible(pkt->cls) &&
	    !ibsw_host_daddr_multicast(&pkt->daddr))
		flags |= IBSW_CB_CC_ELIGIBLE;
	return flags;
}

/* A RoCEv2 packet from the host: into the HCA transmitter */
static void ibsw_host_roce(struct ibsw_port *port, struct net_device *dev,
			   struct sk_buff *skb, const struct ibsw_pkt *pkt)
{
	unsigned int sl = ibsw_dscp_to_sl(pkt->dscp);
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	const struct ibsw_addr_table *addrs;
	const struct ibsw_sl2vl_tab *tab;
	unsigned int vl, len;
	u16 dlid, slid;
	int err;

	addrs = rcu_dereference(ibsw_fabric.addrs);
	dlid = ibsw_addr_lookup(addrs, &pkt->daddr);
	if (!dlid) {
		ibsw_stat_inc(port, IBSW_CNT_RCV_SWITCH_RELAY_ERRORS);
		goto drop;
	}
	/*
	 * Inbound filtering: a host sends from its own addresses only, or it
	 * could pose as another host (forged CNPs, reflected FECNs)
	 */
	slid = READ_ONCE(port->lid);
	if (unlikely(!slid || ibsw_addr_lookup(addrs, &pkt->saddr) != slid)) {
		ibsw_stat_inc(port, IBSW_CNT_RCV_CONSTRAINT_ERRORS);
		goto drop;
	}
	/* Input port 0: the HCA side's SL-to-VL table */
	tab = rcu_dereference(port->sl2vl);
	vl = ibsw_sl2vl_get(&tab->map[0], sl);
	if (ibsw_vl_drop(vl, READ_ONCE(port->nr_vls))) {
		ibsw_stat_inc(port, IBSW_CNT_RCV_VL_DISCARDS);
		goto drop;
	}
	/*
	 * A VL's FIFO stops the queues of the SLs that fill it: a packet on
	 * another SL's queue (tc skbedit, pktgen queue_map, a DSCP rewritten
	 * after the queue was picked) could pass a stopped one without limit.
	 */
	if (unlikely(skb_get_queue_mapping(skb) != sl)) {
		ibsw_stat_inc(port, IBSW_CNT_HCA_DISCARDS);
		goto drop;
	}
	len = ibsw_wire_len(pkt->ib_len);
	if (len > IBSW_WIRE_LEN_MAX ||
	    ibsw_wire_credits(len) > READ_ONCE(port->in[vl].size)) {
		ibsw_stat_inc(port, IBSW_CNT_RCV_OVERSIZE);
		goto drop;
	}

	memset(cb, 0, sizeof(*cb));
	cb->wire_len = len;
	cb->dlid = dlid;
	/* The LRH's SLID: this HCA port's LID (for the CongestionLog) */
	cb->slid = slid;
	cb->bth_off = pkt->bth_off;
	cb->l4_off = pkt->l4_off;
	cb->flags = ibsw_host_cc_flags(pkt);
	cb->in_port = port->num;
	cb->in_vl = vl;
	cb->out_vl = vl;
	cb->sl = sl;
	dev_sw_netstats_tx_add(dev, 1, skb->len);
	err = ibsw_hca_enqueue(port->hca, skb, netdev_get_tx_queue(dev, sl));
	if (likely(!err))
		return;
	if (err == -ENOBUFS)
		ibsw_stat_inc(port, IBSW_CNT_HCA_DISCARDS);
	else if (err == -ERANGE)
		ibsw_stat_inc(port, IBSW_CNT_RCV_VL_DISCARDS);
drop:
	dev_core_stats_tx_dropped_inc(dev);
	kfree_skb(skb);
}

/**
 * ibsw_host_xmit() - a host sends a frame: ndo_start_xmit
 * @skb: the frame
 * @dev: the host port's netdev
 *
 * RoCEv2 packets go into the HCA transmitter of their VL; ARP and
 * neighbour solicitations are answered (neigh.c); the rest is counted and
 * dropped.
 *
 * Return: NETDEV_TX_OK: the frame is always consumed.
 */
netdev_tx_t ibsw_host_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct ibsw_host *h = netdev_priv(dev);
	struct ibsw_port *port;
	enum ibsw_pkt_err err;
	struct ibsw_pkt pkt;

	rcu_read_lock();
	port = rcu_dereference(h->port);
	if (unlikely(!port)) {
		dev_core_stats_tx_dropped_inc(dev);
		kfree_skb(skb);
		goto out;
	}
	/* It crosses into the switch, and later into another namespace */
	skb_scrub_packet(skb, true);
	err = ibsw_pkt_parse(skb, &pkt);
	if (likely(err == IBSW_PKT_OK)) {
		ibsw_host_roce(port, dev, skb, &pkt);
	} else if (ibsw_pkt_err_foreign(err)) {
		ibsw_neigh_rcv(port, dev, skb);
	} else {
		ibsw_stat_inc(port, IBSW_CNT_RCV_ERRORS);
		dev_core_stats_tx_dropped_inc(dev);
		kfree_skb(skb);
	}
out:
	rcu_read_unlock();
	return NETDEV_TX_OK;
}

/* Discard what is queued for the stack: XmitDiscards of the switch port */
void ibsw_host_rx_drop(struct ibsw_port *port, struct net_device *dev,
		       struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list))) {
		if (port)
			ibsw_stat_inactive_discard(port);
		dev_core_stats_rx_dropped_inc(dev);
		kfree_skb(skb);
	}
}

/**
 * ibsw_host_deliver() - packets from the switch have reached the host
 * @port: the host port whose output engine sent them
 * @list: the packets, in the order they left the link; emptied
 *
 * Queues them for the netdev's NAPI poll, which hands them to the stack
 * in this order on one CPU. The port's output engine is the only caller
 * for a port, and one context at a time runs it.
 *
 * Context: BH disabled, RCU read lock, no engine lock held.
 */
void ibsw_host_deliver(struct ibsw_port *port, struct sk_buff_head *list)
{
	struct net_device *dev = rcu_dereference(port->netdev);
	struct ibsw_host *h;
	bool on;

	if (unlikely(!dev)) {
		while (!skb_queue_empty(list)) {
			ibsw_stat_inactive_discard(port);
			kfree_skb(__skb_dequeue(list));
		}
		return;
	}
	h = netdev_priv(dev);
	spin_lock(&h->rxq.lock);
	on = h->rx_on;
	if (likely(on)) {
		while (!skb_queue_empty(list) &&
		       skb_queue_len(&h->rxq) < IBSW_HOST_RXQ_MAX)
			__skb_queue_tail(&h->rxq, __skb_dequeue(list));
	}
	spin_unlock(&h->rxq.lock);
	/* Down, or a receiver that stopped taking packets */
	if (unlikely(!skb_queue_empty(list)))
		ibsw_host_rx_drop(port, dev, list);
	if (likely(on))
		napi_schedule(&h->napi);
}

/*
 * A management HCA's GMP (IBA local headers) as the RoCEv2 frame the
 * host's rxe takes: from an address of the HCA's LID to one of the host
 * port's, IPv4 if both have one, and the HCA's Ethernet address, which
 * the host's replies resolve to (neigh.c). NULL if it cannot be: no such
 * addresses (counted in the switch port's PortXmitDiscards).
 */
static struct sk_buff *ibsw_host_gmp(struct net_device *dev,
				     struct sk_buff *skb)
{
	struct ibsw_host *h = netdev_priv(dev);
	const struct ibsw_addr_table *addrs;
	const struct in6_addr *da, *sa = NULL;
	struct ibsw_mad_roce r = {};
	struct ibsw_port *port, *from;
	struct sk_buff *frame = NULL;
	struct ibsw_mad_addr a;
	unsigned int len;
	u16 lid;

	rcu_read_lock();
	port = rcu_dereference(h->port);
	if (!port || skb_linearize(skb) ||
	    ibsw_mad_hdrs_get(skb->data, skb->len, &a))
		goto out;
	addrs = rcu_dereference(ibsw_fabric.addrs);
	lid = READ_ONCE(port->lid);
	da = ibsw_addr_of_lid(addrs, lid, true);
	sa = da ? ibsw_addr_of_lid(addrs, a.slid, true) : NULL;
	if (!sa) {
		da = ibsw_addr_of_lid(addrs, lid, false);
		sa = da ? ibsw_addr_of_lid(addrs, a.slid, false) : NULL;
	}
	from = ibsw_lid_port_rcu(a.slid);
	if (!sa || !from || !ibsw_mgmt_mac(rcu_dereference(from->mgmt), r.smac))
		goto out;
	ether_addr_copy(r.dmac, dev->dev_addr);
	r.saddr = *sa;
	r.daddr = *da;
	r.dscp = a.sl << 2;
	/* An ephemeral port of the HCA's QP, as rxe picks one of a QP's */
	r.sport = 0xc000 | (a.sqp & 0x3fff);
	frame = netdev_alloc_skb(dev, IBSW_MAD_ROCE_MAX);
	if (frame) {
		len = ibsw_mad_roce_put(skb_put(frame, IBSW_MAD_ROCE_MAX), &r,
					skb->data + IBSW_LRH_LEN);
		skb_trim(frame, len);
	}
out:
	if (!frame && port)
		ibsw_stat_inc(port, IBSW_CNT_XMIT_DISCARDS);
	rcu_read_unlock();
	if (frame)
		consume_skb(skb);
	else
		kfree_skb(skb);
	return frame;
}

/* NAPI: hand what the switch delivered to the stack, in order */
int ibsw_host_poll(struct napi_struct *napi, int budget)
{
	struct ibsw_host *h = container_of(napi, struct ibsw_host, napi);
	struct net_device *dev = napi->dev;
	struct sk_buff_head list;
	struct sk_buff *skb;
	int done = 0;

	__skb_queue_head_init(&list);
	spin_lock(&h->rxq.lock);
	while (done < budget && (skb = __skb_dequeue(&h->rxq))) {
		__skb_queue_tail(&list, skb);
		done++;
	}
	spin_unlock(&h->rxq.lock);

	while ((skb = __skb_dequeue(&list))) {
		unsigned int len;

		if (unlikely(ibsw_cb(skb)->flags & IBSW_CB_IB)) {
			skb = ibsw_host_gmp(dev, skb);
			if (!skb)
				continue;
		}
		len = skb->len;
		skb->protocol = eth_type_trans(skb, dev);
		dev_sw_netstats_rx_add(dev, len);
		netif_receive_skb(skb);
	}
	/* A packet queued meanwhile set NAPI_STATE_MISSED: polled again */
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_host_poll);
