// SPDX-License-Identifier: GPL-2.0
/*
 * Neighbour resolution at the host ports: ARP requests and IPv6 neighbour
 * solicitations a host sends are answered here, from the fabric's address
 * table, so that resolution works on any topology without flooding
 * (design §4.5). The answer goes straight back up the asking host's
 * stack; nothing crosses the fabric.
 */

#include <linux/etherdevice.h>
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <net/arp.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/ndisc.h>

#include "ibsw.h"

/* An ARP packet for IPv4 over Ethernet */
struct ibsw_arp {
	struct arphdr	hdr;
	u8		sha[ETH_ALEN];
	__be32		sip;
	u8		tha[ETH_ALEN];
	__be32		tip;
} __packed;

/*
 * Hand a reply from the switch to the host a tick later, as if it had
 * crossed a wire. Handed up at once, it reached the neighbour table
 * before the asker was waiting for it: ib_core's address resolution
 * (rdma_resolve_ip(), behind rdma_cm and the AH of a reply to a GMP)
 * queues its request after sending the ARP request and missed the
 * update, then waited out its 1 s timeout.
 */
static void ibsw_neigh_reply(struct ibsw_port *port, struct net_device *dev,
			     struct sk_buff *reply)
{
	struct ibsw_host *h = netdev_priv(dev);
	bool queued = false;

	spin_lock(&h->rxq.lock);
	if (h->rx_on) {
		__skb_queue_tail(&h->neighq, reply);
		if (!timer_pending(&h->neigh_timer))
			mod_timer(&h->neigh_timer, jiffies + 1);
		queued = true;
	}
	spin_unlock(&h->rxq.lock);
	if (!queued) {
		kfree_skb(reply);
		return;
	}
	ibsw_stat_inc(port, IBSW_CNT_NEIGH_REPLIES);
}

/**
 * ibsw_neigh_timer() - hand the queued neighbour replies up to the host
 * @t: the host's neigh_timer
 *
 * Context: timer (softirq). ibsw_host_rx_stop() stops it and empties the
 * queue before the netdev goes.
 */
void ibsw_neigh_timer(struct timer_list *t)
{
	struct ibsw_host *h = from_timer(h, t, neigh_timer);
	struct sk_buff_head q;
	struct sk_buff *skb;

	__skb_queue_head_init(&q);
	spin_lock(&h->rxq.lock);
	skb_queue_splice_init(&h->neighq, &q);
	spin_unlock(&h->rxq.lock);
	while ((skb = __skb_dequeue(&q))) {
		unsigned int len = skb->len;

		skb->protocol = eth_type_trans(skb, skb->dev);
		dev_sw_netstats_rx_add(skb->dev, len);
		netif_rx(skb);
	}
}

/* MAC of the CA port that owns @addr, other than @port itself */
static bool ibsw_neigh_owner(struct ibsw_port *port,
			     const struct in6_addr *addr, u8 *mac)
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
	if (odev) {
		ether_addr_copy(mac, odev->dev_addr);
		return true;
	}
	/* A management HCA's port: it has a GUID, not a netdev */
	return ibsw_mgmt_mac(rcu_dereference(owner->mgmt), mac);
}

static bool ibsw_neigh_arp(struct ibsw_port *port, struct net_device *dev,
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
	if (!ibsw_neigh_owner(port, &addr, mac))
		return false;
	reply = arp_create(ARPOP_REPLY, ETH_P_ARP, a->sip, dev, a->tip,
			   a->sha, mac, a->sha);
	if (!reply)
		return false;
	ibsw_neigh_reply(port, dev, reply);
	return true;
}

static bool ibsw_neigh_ndisc(struct ibsw_port *port, struct net_device *dev,
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
	if (!ibsw_neigh_owner(port, &ns->target, mac))
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
	ibsw_neigh_reply(port, dev, reply);
	return true;
}

/**
 * ibsw_neigh_rcv() - a host sent a well-formed frame that is not RoCEv2
 * @port: its host port
 * @dev: the host port's netdev
 * @skb: the frame; consumed
 *
 * Answers an ARP request or an IPv6 neighbour solicitation for an address
 * of another host; counts anything else (rcv_foreign) and drops it.
 *
 * Context: ndo_start_xmit (BH disabled), RCU read lock.
 */
void ibsw_neigh_rcv(struct ibsw_port *port, struct net_device *dev,
		    struct sk_buff *skb)
{
	const struct ethhdr *eh;
	struct ethhdr _eh;
	bool done = false;

	eh = skb_header_pointer(skb, 0, sizeof(_eh), &_eh);
	if (eh && eh->h_proto == htons(ETH_P_ARP))
		done = ibsw_neigh_arp(port, dev, skb);
	else if (eh && eh->h_proto == htons(ETH_P_IPV6))
		done = ibsw_neigh_ndisc(port, dev, skb, eh);
	if (!done)
		ibsw_stat_inc(port, IBSW_CNT_RCV_FOREIGN);
	consume_skb(skb);
}
