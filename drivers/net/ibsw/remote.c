// SPDX-License-Identifier: GPL-2.0
/*
 * Remote links (design §9): a switch port cabled to a switch port of
 * another kernel. Frames (rlink.h) go over an ordinary netdev: a NIC, a
 * veth, or a tunnel netdev (VXLAN, Geneve, GRE) where the two machines
 * are not on one Ethernet.
 *
 * The datapath: the port's output engine sends as to any link, its
 * downstream credits being @credit, this end's view of the peer's
 * buffers; ibsw_remote_xmit() puts what left the wire on the netdev as
 * DATA. Frames from the peer arrive in ibsw_remote_rcv() (softirq): DATA
 * takes its credits in the port's input buffer, as the transmitter
 * upstream does inside one kernel, and enters the switch
 * (ibsw_switch_receive()); CREDIT raises @credit and kicks the engine. As
 * packets leave the input buffer, their credits are advertised back in a
 * CREDIT (ibsw_remote_credit_freed(), coalesced by @credit_timer).
 *
 * HELLOs and BYEs only leave requests (@want) for the link state
 * machine, remote_ctl.c, which runs in process context.
 */

#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>

#include "engine.h"
#include "remote.h"

const char * const ibsw_rl_counter_names[IBSW_RL_NR_COUNTERS] = {
	[IBSW_RL_TX_FRAMES] = "tx_frames",
	[IBSW_RL_TX_BYTES] = "tx_bytes",
	[IBSW_RL_RX_FRAMES] = "rx_frames",
	[IBSW_RL_RX_BYTES] = "rx_bytes",
	[IBSW_RL_TX_DROPS] = "tx_drops",
	[IBSW_RL_TX_TOO_BIG] = "tx_too_big",
	[IBSW_RL_RX_SEQ_GAPS] = "rx_seq_gaps",
	[IBSW_RL_RX_LOST_FRAMES] = "rx_lost_frames",
	[IBSW_RL_RX_LATE] = "rx_late",
	[IBSW_RL_RX_BAD] = "rx_bad",
	[IBSW_RL_RX_WRONG_EPOCH] = "rx_wrong_epoch",
	[IBSW_RL_RX_DOWN] = "rx_down",
	[IBSW_RL_RX_OVERRUN] = "rx_overrun",
	[IBSW_RL_CREDIT_TX] = "credit_tx",
	[IBSW_RL_CREDIT_RX] = "credit_rx",
	[IBSW_RL_HELLO_TX] = "hello_tx",
	[IBSW_RL_HELLO_RX] = "hello_rx",
	[IBSW_RL_LINK_UPS] = "link_ups",
	[IBSW_RL_LINK_DOWNS] = "link_downs",
	[IBSW_RL_MISMATCHES] = "mismatches",
};

/* Remote links by (netdev, link id): RTNL to change, RCU to read */
DEFINE_HASHTABLE(ibsw_remotes, IBSW_RL_HASH_BITS);

/*
 * Count, per CPU. Context: BH disabled, as for every per-cpu writer: a
 * softirq's count must not interrupt this CPU's.
 */
void ibsw_rl_add(struct ibsw_remote *rl, enum ibsw_rl_counter c, u64 v)
{
	struct ibsw_rl_pcpu *s = this_cpu_ptr(rl->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_add(&s->cnt[c], v);
	u64_stats_update_end(&s->syncp);
}

void ibsw_rl_inc(struct ibsw_remote *rl, enum ibsw_rl_counter c)
{
	ibsw_rl_add(rl, c, 1);
}

struct ibsw_remote *ibsw_rl_find_rcu(const struct net_device *dev,
				     u32 link_id)
{
	struct ibsw_remote *rl;

	hash_for_each_possible_rcu(ibsw_remotes, rl, node,
				   ibsw_rl_hash(dev, link_id))
		if (rl->dev == dev && rl->link_id == link_id)
			return rl;
	return NULL;
}

/*
 * Put the link and Ethernet headers in front of a frame's body and send
 * it. The frame number, a DATA's blocks in its VL's FCTBS and a CREDIT's
 * FCTBS are taken under @tx_lock, in the order frames reach the netdev's
 * queue.
 *
 * Context: BH disabled.
 */
void ibsw_rl_send(struct ibsw_remote *rl, struct sk_buff *skb,
		  enum ibsw_rl_type type, int vl, unsigned int blocks)
{
	struct net_device *dev = rl->dev;
	struct ibsw_rl_hdr *h;
	struct ethhdr *eth;
	unsigned int len;

	if (skb_cow_head(skb, ETH_HLEN + IBSW_RL_HDR_LEN +
			 LL_RESERVED_SPACE(dev))) {
		ibsw_rl_inc(rl, IBSW_RL_TX_DROPS);
		kfree_skb(skb);
		return;
	}
	if (unlikely(skb->len + IBSW_RL_HDR_LEN > dev->mtu)) {
		ibsw_rl_inc(rl, IBSW_RL_TX_TOO_BIG);
		kfree_skb(skb);
		return;
	}
	h = skb_push(skb, IBSW_RL_HDR_LEN);
	eth = skb_push(skb, ETH_HLEN);
	ether_addr_copy(eth->h_source, dev->dev_addr);
	ether_addr_copy(eth->h_dest, rl->peer_mac);
	eth->h_proto = htons(IBSW_RL_ETHERTYPE);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb->protocol = htons(IBSW_RL_ETHERTYPE);
	skb->dev = dev;
	len = skb->len;

	spin_lock(&rl->tx_lock);
	ibsw_rl_hdr_build(h, type, rl->link_id, rl->epoch, rl->tx_seq++);
	if (vl >= 0)
		rl->tx[vl].tbs += blocks;
	if (type == IBSW_RL_CREDIT) {
		struct ibsw_rl_credit *c = (void *)(h + 1);

		for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++)
			c->vl[vl].fctbs = cpu_to_be32(rl->tx[vl].tbs);
	}
	/* In order: the netdev's queue takes it under @tx_lock */
	if (dev_queue_xmit(skb) == NET_XMIT_SUCCESS) {
		spin_unlock(&rl->tx_lock);
		ibsw_rl_inc(rl, IBSW_RL_TX_FRAMES);
		if (type == IBSW_RL_CREDIT)
			ibsw_rl_inc(rl, IBSW_RL_CREDIT_TX);
		ibsw_rl_add(rl, IBSW_RL_TX_BYTES, len);
		return;
	}
	spin_unlock(&rl->tx_lock);
	ibsw_rl_inc(rl, IBSW_RL_TX_DROPS);
}

/*
 * A frame of @len body bytes, with room for the headers in front.
 * Context: BH disabled; GFP_ATOMIC.
 */
struct sk_buff *ibsw_rl_alloc(struct ibsw_remote *rl, unsigned int len)
{
	unsigned int head = ETH_HLEN + IBSW_RL_HDR_LEN +
			    LL_RESERVED_SPACE(rl->dev);
	struct sk_buff *skb = alloc_skb(head + len, GFP_ATOMIC);

	if (!skb) {
		ibsw_rl_inc(rl, IBSW_RL_TX_DROPS);
		return NULL;
	}
	skb_reserve(skb, head);
	return skb;
}

/* FCCL of a VL: ABR read before the free credits (see the DATA path) */
static u32 ibsw_rl_fccl_now(struct ibsw_remote *rl, unsigned int vl)
{
	struct ibsw_rl_rx_vl rx = { .abr = READ_ONCE(rl->rx[vl].abr) };

	/*
	 * Pairs with the fully ordered credit take before ABR grows in
	 * ibsw_rl_rcv_data(): seeing the new ABR, we see the buffer's
	 * credits taken too, so FCCL never runs ahead of the buffer.
	 */
	smp_rmb();
	return ibsw_rl_fccl(&rx, ibsw_credit_free(&rl->port->in[vl]));
}

/*
 * Send a CREDIT: every VL's FCCL, and its FCTBS (filled in by
 * ibsw_rl_send() under @tx_lock, so it counts exactly the DATA sent
 * before it).
 *
 * Context: BH disabled.
 */
void ibsw_rl_send_credit(struct ibsw_remote *rl)
{
	struct ibsw_rl_credit *c;
	struct sk_buff *skb;
	unsigned int vl;

	skb = ibsw_rl_alloc(rl, IBSW_RL_CREDIT_LEN);
	if (!skb)
		return;
	c = skb_put_zero(skb, IBSW_RL_CREDIT_LEN);
	c->nr_vls = IBSW_NR_DATA_VLS;
	for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++) {
		u32 fccl = ibsw_rl_fccl_now(rl, vl);

		c->vl[vl].fccl = cpu_to_be32(fccl);
		WRITE_ONCE(rl->advertised[vl], fccl);
	}
	ibsw_rl_send(rl, skb, IBSW_RL_CREDIT, -1, 0);
}

enum hrtimer_restart ibsw_rl_credit_timer(struct hrtimer *t)
{
	struct ibsw_remote *rl = container_of(t, struct ibsw_remote,
					      credit_timer);

	if (READ_ONCE(rl->state) == IBSW_RL_UP)
		ibsw_rl_send_credit(rl);
	return HRTIMER_NORESTART;
}

/**
 * ibsw_remote_credit_freed() - a packet left a remote port's input buffer
 * @port: the port
 * @vl: the buffer's VL
 *
 * Its credits are free again (ibsw_credit_release()); the peer learns of
 * them in a CREDIT: at once if the VL has an eighth of its buffer not yet
 * advertised, else within @credit_ns (ibsw_rl_credit_delay_ns()).
 *
 * Context: BH disabled, RCU read lock.
 */
void ibsw_remote_credit_freed(struct ibsw_port *port, unsigned int vl)
{
	struct ibsw_remote *rl = rcu_dereference(port->remote);

	if (!rl || READ_ONCE(rl->state) != IBSW_RL_UP)
		return;
	if (ibsw_rl_fccl_now(rl, vl) - READ_ONCE(rl->advertised[vl]) >=
	    port->in[vl].size / 8) {
		hrtimer_try_to_cancel(&rl->credit_timer);
		ibsw_rl_send_credit(rl);
		return;
	}
	if (!hrtimer_active(&rl->credit_timer))
		hrtimer_start(&rl->credit_timer,
			      ns_to_ktime(READ_ONCE(rl->credit_ns)),
			      HRTIMER_MODE_REL_SOFT);
}

/**
 * ibsw_remote_xmit() - packets a remote port's output engine sent
 * @port: the port
 * @list: the packets, in the order they left the wire; emptied
 *
 * Each goes to the netdev as a DATA frame. The engine took the peer's
 * credits for them already; a frame the netdev drops still counts in
 * FCTBS, and the peer's next CREDIT gives its blocks back.
 *
 * Context: BH disabled, RCU read lock; the port's output engine.
 */
void ibsw_remote_xmit(struct ibsw_port *port, struct sk_buff_head *list)
{
	struct ibsw_remote *rl = rcu_dereference(port->remote);
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list))) {
		struct ibsw_skb_cb *cb = ibsw_cb(skb);
		struct ibsw_rl_data *d;
		unsigned int vl = cb->out_vl;

		if (unlikely(!rl || vl >= IBSW_NR_DATA_VLS)) {
			/* VL15 goes nowhere remote yet: SMPs stay local */
			if (vl == IBSW_VL15)
				ibsw_stat_inc(port, IBSW_CNT_VL15_DROPPED);
			else
				ibsw_stat_inactive_discard(port);
			kfree_skb(skb);
			continue;
		}
		skb_orphan(skb);
		if (skb_cow_head(skb, IBSW_RL_DATA_LEN)) {
			ibsw_rl_inc(rl, IBSW_RL_TX_DROPS);
			kfree_skb(skb);
			continue;
		}
		d = skb_push(skb, IBSW_RL_DATA_LEN);
		ibsw_rl_data_build(d, vl, cb->sl, cb->flags, cb->wire_len,
				   cb->dlid, cb->slid, cb->bth_off, cb->l4_off);
		ibsw_rl_send(rl, skb, IBSW_RL_DATA, vl,
			     ibsw_wire_credits(cb->wire_len));
	}
}

/* DATA: into the switch, as a link inside one kernel would deliver it */
static void ibsw_rl_rcv_data(struct ibsw_remote *rl, struct sk_buff *skb)
{
	struct ibsw_port *port = rl->port;
	struct ibsw_rl_data d;
	struct ibsw_skb_cb *cb;
	unsigned int vl, len;
	int err;

	if (!pskb_may_pull(skb, IBSW_RL_DATA_LEN))
		goto bad;
	memcpy(&d, skb->data, sizeof(d));
	__skb_pull(skb, IBSW_RL_DATA_LEN);
	err = ibsw_rl_data_check(&d, skb->len, READ_ONCE(port->nr_vls));
	if (err == -ERANGE) {
		ibsw_stat_inc(port, IBSW_CNT_RCV_VL_DISCARDS);
		goto drop;
	}
	if (err == -EMSGSIZE) {
		ibsw_stat_inc(port, IBSW_CNT_RCV_OVERSIZE);
		goto drop;
	}
	if (err)
		goto bad;
	len = be16_to_cpu(d.wire_len);
	vl = d.vl;
	/*
	 * The buffer's credits first, then ABR: an FCCL computed meanwhile
	 * (ibsw_rl_fccl_now()) can only fall short, never run ahead.
	 */
	if (!ibsw_credit_take(&port->in[vl], len)) {
		ibsw_rl_inc(rl, IBSW_RL_RX_OVERRUN);
		ibsw_stat_inc(port, IBSW_CNT_EXCESSIVE_BUFFER_OVERRUN_ERRORS);
		spin_lock(&rl->rx_lock);
		WRITE_ONCE(rl->rx[vl].abr,
			   rl->rx[vl].abr + ibsw_wire_credits(len));
		spin_unlock(&rl->rx_lock);
		goto drop;
	}
	spin_lock(&rl->rx_lock);
	WRITE_ONCE(rl->rx[vl].abr, rl->rx[vl].abr + ibsw_wire_credits(len));
	spin_unlock(&rl->rx_lock);

	skb_scrub_packet(skb, true);
	skb_reset_mac_header(skb);
	if (skb_linearize(skb)) {
		ibsw_credit_release(port, vl, len);
		goto drop;
	}
	cb = ibsw_cb(skb);
	memset(cb, 0, sizeof(*cb));
	cb->wire_len = len;
	cb->dlid = be16_to_cpu(d.dlid);
	cb->slid = be16_to_cpu(d.slid);
	cb->bth_off = be16_to_cpu(d.bth_off);
	cb->l4_off = be16_to_cpu(d.l4_off);
	cb->in_port = port->num;
	cb->in_vl = vl;
	cb->sl = d.sl;
	cb->flags = d.flags;
	ibsw_switch_receive(port, skb);
	return;
bad:
	ibsw_rl_inc(rl, IBSW_RL_RX_BAD);
drop:
	kfree_skb(skb);
}

/* CREDIT: the peer's FCTBS heals lost DATA, its FCCL grants credits */
static void ibsw_rl_rcv_credit(struct ibsw_remote *rl, struct sk_buff *skb)
{
	struct ibsw_engine *e = rl->port->out;
	const struct ibsw_rl_credit *c;
	bool granted = false;
	unsigned int vl;

	if (!pskb_may_pull(skb, IBSW_RL_CREDIT_LEN)) {
		ibsw_rl_inc(rl, IBSW_RL_RX_BAD);
		return;
	}
	c = (const struct ibsw_rl_credit *)skb->data;
	if (c->nr_vls != IBSW_NR_DATA_VLS) {
		ibsw_rl_inc(rl, IBSW_RL_RX_BAD);
		return;
	}
	ibsw_rl_inc(rl, IBSW_RL_CREDIT_RX);
	spin_lock(&rl->rx_lock);
	for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++) {
		struct ibsw_rl_rx_vl rx = rl->rx[vl];
		u32 d;

		ibsw_rl_rx_sync(&rx, be32_to_cpu(c->vl[vl].fctbs));
		WRITE_ONCE(rl->rx[vl].lost, rx.lost);
		WRITE_ONCE(rl->rx[vl].abr, rx.abr);
		d = ibsw_rl_tx_grant(&rl->tx[vl], be32_to_cpu(c->vl[vl].fccl));
		if (d) {
			atomic_add(d, &rl->credit[vl].free);
			granted = true;
		}
	}
	spin_unlock(&rl->rx_lock);
	if (granted)
		ibsw_engine_kick(e);
}

/*
 * HELLO: who the peer is, whether it heard us, whether we can be a link.
 * ibsw_remote_rcv() checked its length.
 */
static void ibsw_rl_rcv_hello(struct ibsw_remote *rl, struct sk_buff *skb)
{
	u64 rtt, now = ktime_get_ns();
	struct ibsw_rl_settings peer;
	const struct ibsw_rl_hello *h;
	struct ibsw_rl_stamp stamp;
	enum ibsw_rl_mismatch m;
	bool up, kick = false;

	h = (const struct ibsw_rl_hello *)skb->data;
	ibsw_rl_inc(rl, IBSW_RL_HELLO_RX);
	ibsw_rl_hello_parse(h, &peer, &stamp);

	spin_lock(&rl->rx_lock);
	rl->heard_ns = stamp.sent_ns;
	rl->heard_at = now;
	m = ibsw_rl_settings_match(&rl->settings, &peer);
	rl->peer = peer;
	/* A peer's name need not end in NUL: read no byte past the field */
	memcpy(rl->peer_name, h->switch_name, sizeof(h->switch_name));
	rl->peer_name[sizeof(h->switch_name)] = '\0';
	rl->peer_port = h->port;
	rl->mismatch = m;
	rl->heard_us = be32_to_cpu(h->peer_epoch) == rl->epoch;
	/* Only a peer that knows this epoch echoes this end's stamps */
	if (rl->heard_us && ibsw_rl_rtt_sample(&stamp, now, &rtt))
		ibsw_rl_rtt_add(&rl->rtt, rtt);
	up = READ_ONCE(rl->state) == IBSW_RL_UP;
	if (m != IBSW_RL_MATCH || !rl->heard_us) {
		/* Up with a peer that forgot us, or disagrees: down */
		if (up) {
			rl->want = IBSW_RL_WANT_DOWN;
			kick = true;
		}
	} else if (!up && !(rl->want & IBSW_RL_WANT_UP)) {
		rl->want |= IBSW_RL_WANT_UP;
		kick = true;
	}
	/* Not up yet: it may not know us; tell it at once */
	if (!rl->heard_us)
		kick = true;
	spin_unlock(&rl->rx_lock);
	if (m != IBSW_RL_MATCH)
		ibsw_rl_inc(rl, IBSW_RL_MISMATCHES);
	if (kick)
		mod_delayed_work(system_wq, &rl->work, 0);
}

/*
 * A frame from the netdev. The peer's epoch is the one of its frames we
 * took first; another epoch means it started again: its old frames are
 * dropped, and its HELLOs take the link down to start it afresh.
 *
 * Context: softirq.
 */
static int ibsw_remote_rcv(struct sk_buff *skb, struct net_device *dev,
			   struct packet_type *pt, struct net_device *orig)
{
	struct ibsw_remote *rl;
	struct ibsw_rl_hdr h;
	enum ibsw_rl_seq s;
	u32 epoch, lost;
	int type;

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;
	if (!pskb_may_pull(skb, IBSW_RL_HDR_LEN))
		goto drop;
	memcpy(&h, skb->data, sizeof(h));
	rl = ibsw_rl_find_rcu(dev, be32_to_cpu(h.link_id));
	if (!rl)
		goto drop;
	type = ibsw_rl_hdr_check(&h);
	if (type < 0) {
		ibsw_rl_inc(rl, IBSW_RL_RX_BAD);
		goto drop;
	}
	ibsw_rl_inc(rl, IBSW_RL_RX_FRAMES);
	ibsw_rl_add(rl, IBSW_RL_RX_BYTES, skb->len + ETH_HLEN);
	__skb_pull(skb, IBSW_RL_HDR_LEN);
	epoch = be32_to_cpu(h.epoch);
	/* A HELLO can change the peer's epoch: only a whole one may */
	if (type == IBSW_RL_HELLO && !pskb_may_pull(skb, IBSW_RL_HELLO_LEN)) {
		ibsw_rl_inc(rl, IBSW_RL_RX_BAD);
		goto drop;
	}

	spin_lock(&rl->rx_lock);
	if (epoch != rl->peer_epoch) {
		/* Only a HELLO introduces an epoch; a BYE of another is moot */
		if (type != IBSW_RL_HELLO) {
			spin_unlock(&rl->rx_lock);
			ibsw_rl_inc(rl, IBSW_RL_RX_WRONG_EPOCH);
			goto drop;
		}
		if (rl->peer_epoch)
			rl->want = IBSW_RL_WANT_DOWN;
		rl->peer_epoch = epoch;
		rl->have_seq = false;
	}
	s = ibsw_rl_seq_check(rl->have_seq, rl->rx_last, be32_to_cpu(h.seq),
			      &lost);
	if (s == IBSW_RL_SEQ_OLD) {
		spin_unlock(&rl->rx_lock);
		ibsw_rl_inc(rl, IBSW_RL_RX_LATE);
		goto drop;
	}
	rl->have_seq = true;
	rl->rx_last = be32_to_cpu(h.seq);
	WRITE_ONCE(rl->last_rx, jiffies);
	if (!rl->mac_fixed && !ether_addr_equal(rl->peer_mac,
						eth_hdr(skb)->h_source))
		ether_addr_copy(rl->peer_mac, eth_hdr(skb)->h_source);
	spin_unlock(&rl->rx_lock);
	if (s == IBSW_RL_SEQ_GAP) {
		ibsw_rl_inc(rl, IBSW_RL_RX_SEQ_GAPS);
		ibsw_rl_add(rl, IBSW_RL_RX_LOST_FRAMES, lost);
		ibsw_stat_inc(rl->port, IBSW_CNT_RCV_ERRORS);
	}

	switch (type) {
	case IBSW_RL_HELLO:
		ibsw_rl_rcv_hello(rl, skb);
		break;
	case IBSW_RL_BYE:
		spin_lock(&rl->rx_lock);
		rl->peer_epoch = 0;
		rl->have_seq = false;
		rl->heard_us = false;
		rl->want = IBSW_RL_WANT_DOWN;
		spin_unlock(&rl->rx_lock);
		mod_delayed_work(system_wq, &rl->work, 0);
		break;
	default:
		if (READ_ONCE(rl->state) != IBSW_RL_UP) {
			ibsw_rl_inc(rl, IBSW_RL_RX_DOWN);
			break;
		}
		if (type == IBSW_RL_DATA) {
			ibsw_rl_rcv_data(rl, skb);
			return NET_RX_SUCCESS;
		}
		ibsw_rl_rcv_credit(rl, skb);
		break;
	}
	consume_skb(skb);
	return NET_RX_SUCCESS;
drop:
	kfree_skb(skb);
	return NET_RX_DROP;
}

struct packet_type ibsw_rl_ptype __read_mostly = {
	.type = cpu_to_be16(IBSW_RL_ETHERTYPE),
	.func = ibsw_remote_rcv,
};

