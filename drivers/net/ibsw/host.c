// SPDX-License-Identifier: GPL-2.0
/*
 * Host ports: the netdev an emulated host's rxe device binds to.
 *
 * The netdev lives in the host's namespace and has one TX queue per VL.
 * What the host sends goes through the HCA transmitter of the port (an
 * engine, engine.c) into the switch port's input buffers; what the switch
 * sends to the host goes through an RX queue that the netdev's NAPI
 * instance empties, in the order the packets left the link (netif_rx()
 * would queue them to the backlog of whichever CPU ran the engine, and
 * two CPUs' backlogs are processed in either order). ARP requests and
 * IPv6 neighbour solicitations are answered here, from the fabric's
 * address table, so that resolution works on any topology without
 * flooding (design §4.5).
 */

#include <linux/etherdevice.h>
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/arp.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/ndisc.h>
#include <net/rtnetlink.h>

#include "ibsw.h"
#include "pkt.h"

/**
 * struct ibsw_host - netdev private data of a host port
 * @port: the switch port, NULL once detached
 * @napi: delivers @rxq to the stack
 * @rxq: packets from the switch, in the order they left the link
 * @rx_on: @napi is enabled and @rxq takes packets (@rxq.lock; RTNL to
 *	change)
 */
struct ibsw_host {
	struct ibsw_port __rcu	*port;
	struct napi_struct	napi;
	struct sk_buff_head	rxq;
	bool			rx_on;
};

/* An ARP packet for IPv4 over Ethernet */
struct ibsw_arp {
	struct arphdr	hdr;
	u8		sha[ETH_ALEN];
	__be32		sip;
	u8		tha[ETH_ALEN];
	__be32		tip;
} __packed;

/* Largest MTU whose frames stay within IBSW_WIRE_LEN_MAX: IPv4 + UDP */
#define IBSW_HOST_MAX_MTU \
	(IBSW_WIRE_LEN_MAX - IBSW_LRH_LEN - IBSW_VCRC_LEN + \
	 sizeof(struct iphdr) + sizeof(struct udphdr))

static unsigned int ibsw_host_vl(struct ibsw_port *port,
				 const struct ibsw_pkt *pkt)
{
	const struct ibsw_sl2vl_tab *tab = rcu_dereference(port->sl2vl);

	/* Input port 0: the HCA side's SL-to-VL table */
	return ibsw_sl2vl_get(&tab->map[0], ibsw_dscp_to_sl(pkt->dscp));
}

static u16 ibsw_host_select_queue(struct net_device *dev, struct sk_buff *skb,
				  struct net_device *sb_dev)
{
	struct ibsw_host *h = netdev_priv(dev);
	struct ibsw_port *port;
	struct ibsw_pkt pkt;
	u16 q = 0;

	rcu_read_lock();
	port = rcu_dereference(h->port);
	if (port && ibsw_pkt_parse(skb, &pkt) == IBSW_PKT_OK) {
		unsigned int vl = ibsw_host_vl(port, &pkt);

		if (vl < dev->real_num_tx_queues)
			q = vl;
	}
	rcu_read_unlock();
	return q;
}

/* Hand a reply from the switch to the host */
static void ibsw_host_reply(struct ibsw_port *port, struct net_device *dev,
			    struct sk_buff *reply)
{
	unsigned int len = reply->len;

	reply->protocol = eth_type_trans(reply, dev);
	dev_sw_netstats_rx_add(dev, len);
	netif_rx(reply);
	ibsw_stat_inc(port, IBSW_CNT_NEIGH_REPLIES);
}

/* MAC of the host port that owns @addr, other than @port itself */
static bool ibsw_host_owner(struct ibsw_port *port, const struct in6_addr *addr,
			    u8 *mac)
{
	struct net_device *odev;
	struct ibsw_port *owner;
	u16 lid;

	lid = ibsw_addr_lookup(rcu_dereference(ibsw_fabric.addrs), addr);
	if (!lid)
		return false;
	owner = ibsw_lid_port_rcu(lid);
	if (!owner || owner == port)
		return false;
	odev = rcu_dereference(owner->netdev);
	if (!odev)
		return false;
	ether_addr_copy(mac, odev->dev_addr);
	return true;
}

static bool ibsw_host_arp(struct ibsw_port *port, struct net_device *dev,
			  struct sk_buff *skb)
{
	struct ibsw_arp _a;
	const struct ibsw_arp *a;
	struct sk_buff *reply;
	struct in6_addr addr;
	u8 mac[ETH_ALEN];

	a = skb_header_pointer(skb, ETH_HLEN, sizeof(_a), &_a);
	if (!a || a->hdr.ar_hrd != htons(ARPHRD_ETHER) ||
	    a->hdr.ar_pro != htons(ETH_P_IP) || a->hdr.ar_hln != ETH_ALEN ||
	    a->hdr.ar_pln != 4 || a->hdr.ar_op != htons(ARPOP_REQUEST))
		return false;
	/* A probe (RFC 5227) must not be answered: no conflict to report */
	if (!a->sip)
		return false;
	ipv6_addr_set_v4mapped(a->tip, &addr);
	if (!ibsw_host_owner(port, &addr, mac))
		return false;
	reply = arp_create(ARPOP_REPLY, ETH_P_ARP, a->sip, dev, a->tip,
			   a->sha, mac, a->sha);
	if (!reply)
		return false;
	ibsw_host_reply(port, dev, reply);
	return true;
}

static bool ibsw_host_ndisc(struct ibsw_port *port, struct net_device *dev,
			    struct sk_buff *skb, const struct ethhdr *eh)
{
	const unsigned int len = sizeof(struct nd_msg) + 8;
	const struct ipv6hdr *ip6;
	const struct nd_msg *ns;
	struct ipv6hdr _ip6, *rip6;
	struct sk_buff *reply;
	struct nd_msg _ns, *na;
	u8 mac[ETH_ALEN];
	struct ethhdr *reh;

	ip6 = skb_header_pointer(skb, ETH_HLEN, sizeof(_ip6), &_ip6);
	if (!ip6 || ip6->nexthdr != IPPROTO_ICMPV6 || ip6->hop_limit != 255 ||
	    ntohs(ip6->payload_len) < sizeof(*ns))
		return false;
	/* Duplicate address detection: the address is the asker's own */
	if (ipv6_addr_any(&ip6->saddr))
		return false;
	ns = skb_header_pointer(skb, ETH_HLEN + sizeof(*ip6), sizeof(_ns), &_ns);
	if (!ns || ns->icmph.icmp6_type != NDISC_NEIGHBOUR_SOLICITATION ||
	    ns->icmph.icmp6_code || ipv6_addr_is_multicast(&ns->target))
		return false;
	if (!ibsw_host_owner(port, &ns->target, mac))
		return false;

	reply = alloc_skb(NET_IP_ALIGN + ETH_HLEN + sizeof(*rip6) + len,
			  GFP_ATOMIC);
	if (!reply)
		return false;
	skb_reserve(reply, NET_IP_ALIGN);
	reh = skb_put(reply, ETH_HLEN);
	ether_addr_copy(reh->h_dest, eh->h_source);
	ether_addr_copy(reh->h_source, mac);
	reh->h_proto = htons(ETH_P_IPV6);

	rip6 = skb_put(reply, sizeof(*rip6));
	ip6_flow_hdr(rip6, 0, 0);
	rip6->payload_len = htons(len);
	rip6->nexthdr = IPPROTO_ICMPV6;
	rip6->hop_limit = 255;
	rip6->saddr = ns->target;
	rip6->daddr = ip6->saddr;

	/* A solicited advertisement that overrides, with the target's MAC */
	na = skb_put_zero(reply, len);
	na->icmph.icmp6_type = NDISC_NEIGHBOUR_ADVERTISEMENT;
	na->icmph.icmp6_solicited = 1;
	na->icmph.icmp6_override = 1;
	na->target = ns->target;
	na->opt[0] = ND_OPT_TARGET_LL_ADDR;
	na->opt[1] = 1;		/* in units of 8 bytes */
	ether_addr_copy(&na->opt[2], mac);
	na->icmph.icmp6_cksum = csum_ipv6_magic(&rip6->saddr, &rip6->daddr,
						len, IPPROTO_ICMPV6,
						csum_partial(na, len, 0));
	reply->dev = dev;
	ibsw_host_reply(port, dev, reply);
	return true;
}

/* A well-formed frame that is not RoCEv2: answer or count and drop */
static void ibsw_host_foreign(struct ibsw_port *port, struct net_device *dev,
			      struct sk_buff *skb)
{
	const struct ethhdr *eh;
	struct ethhdr _eh;
	bool done = false;

	eh = skb_header_pointer(skb, 0, sizeof(_eh), &_eh);
	if (eh && eh->h_proto == htons(ETH_P_ARP))
		done = ibsw_host_arp(port, dev, skb);
	else if (eh && eh->h_proto == htons(ETH_P_IPV6))
		done = ibsw_host_ndisc(port, dev, skb, eh);
	if (!done)
		ibsw_stat_inc(port, IBSW_CNT_RCV_FOREIGN);
	consume_skb(skb);
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
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	unsigned int vl, len;
	u16 dlid;
	int err;

	dlid = ibsw_addr_lookup(rcu_dereference(ibsw_fabric.addrs),
				&pkt->daddr);
	if (!dlid) {
		ibsw_stat_inc(port, IBSW_CNT_RCV_SWITCH_RELAY_ERRORS);
		goto drop;
	}
	vl = ibsw_host_vl(port, pkt);
	if (ibsw_vl_drop(vl, READ_ONCE(port->nr_vls))) {
		ibsw_stat_inc(port, IBSW_CNT_RCV_VL_DISCARDS);
		goto drop;
	}
	/*
	 * Only the queue of its VL stops when that VL's FIFO fills: a packet
	 * on another (tc skbedit, pktgen queue_map, or queued before the
	 * mapping changed) would pass a stopped VL without limit.
	 */
	if (unlikely(skb_get_queue_mapping(skb) != vl)) {
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
	cb->slid = READ_ONCE(port->lid);
	cb->bth_off = pkt->bth_off;
	cb->l4_off = pkt->l4_off;
	cb->flags = ibsw_host_cc_flags(pkt);
	cb->in_port = port->num;
	cb->in_vl = vl;
	cb->out_vl = vl;
	cb->sl = ibsw_dscp_to_sl(pkt->dscp);
	dev_sw_netstats_tx_add(dev, 1, skb->len);
	err = ibsw_hca_enqueue(port->hca, skb, netdev_get_tx_queue(dev, vl));
	if (likely(!err))
		return;
	if (err == -ENOBUFS)
		ibsw_stat_inc(port, IBSW_CNT_HCA_DISCARDS);
drop:
	dev_core_stats_tx_dropped_inc(dev);
	kfree_skb(skb);
}

static netdev_tx_t ibsw_host_xmit(struct sk_buff *skb, struct net_device *dev)
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
		ibsw_host_foreign(port, dev, skb);
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
static void ibsw_host_rx_drop(struct ibsw_port *port, struct net_device *dev,
			      struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list))) {
		if (port)
			ibsw_stat_inc(port, IBSW_CNT_XMIT_DISCARDS);
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
			ibsw_stat_inc(port, IBSW_CNT_XMIT_DISCARDS);
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
	ibsw_host_rx_drop(port, dev, list);
	if (likely(on))
		napi_schedule(&h->napi);
}

static int ibsw_host_poll(struct napi_struct *napi, int budget)
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
		unsigned int len = skb->len;

		skb->protocol = eth_type_trans(skb, dev);
		dev_sw_netstats_rx_add(dev, len);
		netif_receive_skb(skb);
	}
	/* A packet queued meanwhile set NAPI_STATE_MISSED: polled again */
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

static int ibsw_host_open(struct net_device *dev)
{
	struct ibsw_host *h = netdev_priv(dev);

	napi_enable(&h->napi);
	spin_lock_bh(&h->rxq.lock);
	h->rx_on = true;
	spin_unlock_bh(&h->rxq.lock);
	return 0;
}

/*
 * Stop delivering to the stack and discard what waits, counted on @port
 * if it is still known. Idempotent: host detach stops it before the
 * netdev is closed for unregistering.
 */
static void ibsw_host_rx_stop(struct net_device *dev, struct ibsw_port *port)
{
	struct ibsw_host *h = netdev_priv(dev);
	struct sk_buff_head purge;
	bool on;

	ASSERT_RTNL();
	__skb_queue_head_init(&purge);
	spin_lock_bh(&h->rxq.lock);
	on = h->rx_on;
	h->rx_on = false;
	spin_unlock_bh(&h->rxq.lock);
	if (!on)
		return;
	/* Nothing queues any more; wait for a poll in progress */
	napi_disable(&h->napi);
	spin_lock_bh(&h->rxq.lock);
	skb_queue_splice_init(&h->rxq, &purge);
	spin_unlock_bh(&h->rxq.lock);
	local_bh_disable();
	ibsw_host_rx_drop(port, dev, &purge);
	local_bh_enable();
}

static int ibsw_host_stop(struct net_device *dev)
{
	struct ibsw_host *h = netdev_priv(dev);

	ibsw_host_rx_stop(dev, rtnl_dereference(h->port));
	return 0;
}

static const struct net_device_ops ibsw_host_netdev_ops = {
	.ndo_open		= ibsw_host_open,
	.ndo_stop		= ibsw_host_stop,
	.ndo_start_xmit		= ibsw_host_xmit,
	.ndo_select_queue	= ibsw_host_select_queue,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_get_stats64	= dev_get_tstats64,
};

static void ibsw_host_setup(struct net_device *dev)
{
	ether_setup(dev);
	/*
	 * A packet is scrubbed, rewritten and queued in the switch: pktgen's
	 * clone_skb and burst, which send one skb again and again, must not.
	 */
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->netdev_ops = &ibsw_host_netdev_ops;
	dev->rtnl_link_ops = &ibsw_link_ops;
	dev->needs_free_netdev = true;
	dev->lltx = true;
	/* The port belongs to its host: it does not move between namespaces */
	dev->netns_immutable = true;
	dev->pcpu_stat_type = NETDEV_PCPU_STAT_TSTATS;
	dev->mtu = IBSW_HOST_MTU;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = IBSW_HOST_MAX_MTU;
	/* While a VL's queue is stopped its packets wait in the qdisc */
	dev->tx_queue_len = IBSW_HOST_TXQLEN;
}

static int ibsw_host_newlink(struct net *src_net, struct net_device *dev,
			     struct nlattr *tb[], struct nlattr *data[],
			     struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack,
		       "create host ports with ibswctl host add / IBSW_CMD_HOST_NEW");
	return -EOPNOTSUPP;
}

/**
 * ibsw_host_detach() - take a host port's netdev off its switch port
 * @port: a host port
 * @head: where to queue the netdev for unregistration, NULL to
 *	unregister it now
 *
 * The port becomes unconnected: its engines discard what they hold, its
 * LID is released.
 *
 * Context: RTNL.
 */
void ibsw_host_detach(struct ibsw_port *port, struct list_head *head)
{
	struct net_device *dev = rtnl_dereference(port->netdev);
	struct ibsw_host *h = netdev_priv(dev);

	ASSERT_RTNL();
	WRITE_ONCE(port->kind, IBSW_PORT_KIND_NONE);
	RCU_INIT_POINTER(h->port, NULL);
	RCU_INIT_POINTER(port->upstream, NULL);
	ibsw_lid_release(port);
	ibsw_engine_close(port->hca);
	ibsw_engine_close(port->out);
	/* The engine delivers no more: discard what waits for NAPI */
	ibsw_host_rx_stop(dev, port);
	/* unregister_netdevice waits for readers before freeing it */
	RCU_INIT_POINTER(port->netdev, NULL);
	ibsw_fabric.nr_hosts--;
	unregister_netdevice_queue(dev, head);
}

static void ibsw_host_dellink(struct net_device *dev, struct list_head *head)
{
	struct ibsw_host *h = netdev_priv(dev);
	struct ibsw_port *port = rtnl_dereference(h->port);

	if (!port) {
		unregister_netdevice_queue(dev, head);
		return;
	}
	ibsw_host_detach(port, head);
	ibsw_notify_port(port);
}

struct rtnl_link_ops ibsw_link_ops = {
	.kind		= "ibsw",
	.priv_size	= sizeof(struct ibsw_host),
	.setup		= ibsw_host_setup,
	.newlink	= ibsw_host_newlink,
	.dellink	= ibsw_host_dellink,
};

/**
 * ibsw_host_netdev_new() - create and register a host port's netdev
 * @port: the port, unconnected, configured
 * @ifname: name, or NULL for "ibsw%d"
 * @net: the host's namespace
 * @mac: address, or NULL for a random one
 * @extack: for errors
 *
 * Context: RTNL.
 * Return: the registered netdev, not yet attached, or an ERR_PTR().
 */
struct net_device *ibsw_host_netdev_new(struct ibsw_port *port,
					const char *ifname, struct net *net,
					const u8 *mac,
					struct netlink_ext_ack *extack)
{
	bool named = ifname && *ifname;
	struct net_device *dev;
	struct ibsw_host *h;
	int err;

	ASSERT_RTNL();
	if (named && !dev_valid_name(ifname)) {
		NL_SET_ERR_MSG_FMT(extack, "invalid netdev name \"%s\"", ifname);
		return ERR_PTR(-EINVAL);
	}
	if (named && !strchr(ifname, '%') && __dev_get_by_name(net, ifname)) {
		NL_SET_ERR_MSG_FMT(extack,
				   "a netdev named %s exists in that namespace",
				   ifname);
		return ERR_PTR(-EEXIST);
	}
	dev = alloc_netdev_mqs(sizeof(struct ibsw_host),
			       named ? ifname : "ibsw%d",
			       named ? NET_NAME_USER : NET_NAME_ENUM,
			       ibsw_host_setup, IBSW_NR_DATA_VLS, 1);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	h = netdev_priv(dev);
	skb_queue_head_init(&h->rxq);
	/* Disabled until ndo_open; free_netdev() deletes it */
	netif_napi_add(dev, &h->napi, ibsw_host_poll);
	dev_net_set(dev, net);
	if (mac)
		eth_hw_addr_set(dev, mac);
	else
		eth_hw_addr_random(dev);
	err = netif_set_real_num_tx_queues(dev, port->nr_vls);
	if (err)
		goto err_free;
	err = register_netdevice(dev);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "cannot register netdev %s: %d",
				   dev->name, err);
		goto err_free;
	}
	return dev;

err_free:
	free_netdev(dev);
	return ERR_PTR(err);
}

/**
 * ibsw_host_attach() - connect a registered host netdev to its port
 * @port: the port, unconnected
 * @dev: from ibsw_host_netdev_new()
 *
 * Context: RTNL.
 */
void ibsw_host_attach(struct ibsw_port *port, struct net_device *dev)
{
	struct ibsw_host *h = netdev_priv(dev);

	ASSERT_RTNL();
	ibsw_engine_open(port->out, NULL, NULL);
	ibsw_engine_open(port->hca, NULL, port->in);
	rcu_assign_pointer(port->upstream, port->hca);
	rcu_assign_pointer(port->netdev, dev);
	WRITE_ONCE(port->kind, IBSW_PORT_KIND_HOST);
	rcu_assign_pointer(h->port, port);
	ibsw_fabric.nr_hosts++;
}
