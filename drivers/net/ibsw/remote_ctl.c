// SPDX-License-Identifier: GPL-2.0
/*
 * Remote links, the control plane: cabling a port to a peer in another
 * kernel, the link state machine (HELLO keepalives, up and down) and the
 * counters. remote.c is the datapath; design §9 the whole.
 *
 * The state machine runs in @work (process context, RTNL taken with
 * trylock, so detaching under RTNL can cancel it): every
 * %IBSW_RL_HELLO_MS it sends a HELLO and a CREDIT, brings the link up
 * once both ends heard each other with settings that match, and down
 * when the peer went silent, changed epoch, disagreed or said BYE. Down,
 * the output engine is closed (what is routed to the port is discarded,
 * as on an unconnected port) and the credit state starts again at zero
 * with the next epoch pair.
 */

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>

#include "engine.h"
#include "remote.h"

static unsigned int ibsw_nr_remotes;

/**
 * ibsw_remote_read() - the counters of a remote link
 * @rl: the link
 * @cnt: %IBSW_RL_NR_COUNTERS values
 *
 * Context: any.
 */
void ibsw_remote_read(struct ibsw_remote *rl, u64 *cnt)
{
	unsigned int cpu, i, start;

	memset(cnt, 0, IBSW_RL_NR_COUNTERS * sizeof(*cnt));
	for_each_possible_cpu(cpu) {
		const struct ibsw_rl_pcpu *s = per_cpu_ptr(rl->stats, cpu);
		u64 v[IBSW_RL_NR_COUNTERS];

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < IBSW_RL_NR_COUNTERS; i++)
				v[i] = u64_stats_read(&s->cnt[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < IBSW_RL_NR_COUNTERS; i++)
			cnt[i] += v[i];
	}
}

/**
 * ibsw_remote_loop() - a remote link's credit loop as measured
 * @rl: the link
 * @loop: %IBSW_A_REMOTE_LOOP_MAX values, IBSW_A_REMOTE_LOOP_* - 1
 *
 * Context: any but hard IRQ.
 */
void ibsw_remote_loop(struct ibsw_remote *rl, u64 *loop)
{
	struct ibsw_rl_rtt rtt;

	spin_lock_bh(&rl->rx_lock);
	rtt = rl->rtt;
	spin_unlock_bh(&rl->rx_lock);
	loop[IBSW_A_REMOTE_LOOP_CREDIT_WAIT_NS - 1] = READ_ONCE(rl->credit_ns);
	loop[IBSW_A_REMOTE_LOOP_RTT_SAMPLES - 1] = rtt.samples;
	loop[IBSW_A_REMOTE_LOOP_RTT_LAST_NS - 1] = rtt.last;
	loop[IBSW_A_REMOTE_LOOP_RTT_MIN_NS - 1] = rtt.min;
	loop[IBSW_A_REMOTE_LOOP_RTT_SRTT_NS - 1] = rtt.srtt;
	loop[IBSW_A_REMOTE_LOOP_RTT_MAX_NS - 1] = rtt.max;
}

/* A count from process context */
static void ibsw_rl_inc_bh(struct ibsw_remote *rl, enum ibsw_rl_counter c)
{
	local_bh_disable();
	ibsw_rl_inc(rl, c);
	local_bh_enable();
}

/* Context: process, BH enabled; the work, which alone writes @settings */
static void ibsw_rl_send_hello(struct ibsw_remote *rl)
{
	struct ibsw_switch *sw = rl->port->sw;
	struct ibsw_rl_stamp stamp;
	struct ibsw_rl_hello *h;
	struct sk_buff *skb;

	local_bh_disable();
	skb = ibsw_rl_alloc(rl, IBSW_RL_HELLO_LEN);
	if (skb) {
		h = skb_put(skb, IBSW_RL_HELLO_LEN);
		spin_lock(&rl->rx_lock);
		ibsw_rl_stamp_make(&stamp, ktime_get_ns(),
				   rl->peer_epoch ? rl->heard_ns : 0,
				   rl->heard_at);
		ibsw_rl_hello_build(h, rl->peer_epoch, &rl->settings,
				    rl->port->num, sw->name, &stamp);
		spin_unlock(&rl->rx_lock);
		ibsw_rl_send(rl, skb, IBSW_RL_HELLO, -1, 0);
		ibsw_rl_inc(rl, IBSW_RL_HELLO_TX);
	}
	local_bh_enable();
}

/* Forget the credit state of an epoch pair. Context: RTNL, link down. */
static void ibsw_rl_reset(struct ibsw_remote *rl)
{
	unsigned int vl;

	spin_lock_bh(&rl->tx_lock);
	spin_lock(&rl->rx_lock);
	for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++) {
		rl->tx[vl].tbs = 0;
		rl->tx[vl].cl = 0;
		WRITE_ONCE(rl->rx[vl].abr, 0);
		atomic_set(&rl->credit[vl].free, 0);
		WRITE_ONCE(rl->advertised[vl], 0);
	}
	spin_unlock(&rl->rx_lock);
	spin_unlock_bh(&rl->tx_lock);
}

/* Context: RTNL */
static void ibsw_rl_down(struct ibsw_remote *rl)
{
	if (rl->state != IBSW_RL_UP)
		return;
	WRITE_ONCE(rl->state, IBSW_RL_DOWN);
	hrtimer_cancel(&rl->credit_timer);
	ibsw_engine_close(rl->port->out);
	ibsw_rl_reset(rl);
	ibsw_rl_inc_bh(rl, IBSW_RL_LINK_DOWNS);
	ibsw_notify_port(rl->port);
}

/* Context: RTNL */
static void ibsw_rl_up(struct ibsw_remote *rl)
{
	struct ibsw_port *port = rl->port;
	unsigned int vl;

	if (rl->state == IBSW_RL_UP)
		return;
	ibsw_rl_reset(rl);
	/*
	 * The peer's buffer sizes are its own; any of them holds a largest
	 * packet (ibsw_credit_init()), which is all the engine asks of size.
	 */
	for (vl = 0; vl < IBSW_NR_DATA_VLS; vl++)
		rl->credit[vl].size = IBSW_BUFFER_CREDITS_MAX;
	/* Train to what both ends support, as a link inside a kernel does */
	ibsw_port_set_rate(port, min(rl->settings.width, rl->peer.width),
			   min(rl->settings.speed, rl->peer.speed));
	ibsw_engine_open(port->out, NULL, rl->credit);
	WRITE_ONCE(rl->state, IBSW_RL_UP);
	ibsw_rl_inc_bh(rl, IBSW_RL_LINK_UPS);
	local_bh_disable();
	ibsw_rl_send_credit(rl);
	local_bh_enable();
	ibsw_notify_port(port);
}

static void ibsw_rl_work(struct work_struct *w)
{
	struct ibsw_remote *rl = container_of(to_delayed_work(w),
					      struct ibsw_remote, work);
	unsigned long dead = msecs_to_jiffies(IBSW_RL_DEAD_MS);
	u8 want;

	if (!rtnl_trylock()) {
		mod_delayed_work(system_wq, &rl->work, 1);
		return;
	}
	spin_lock_bh(&rl->rx_lock);
	/* What the fabric says now: a rescale must reach the peer's check */
	rl->settings.time_scale = READ_ONCE(ibsw_fabric.time_scale);
	rl->settings.pacing = READ_ONCE(ibsw_fabric.pacing);
	rl->settings.nr_vls = rl->port->nr_vls;
	WRITE_ONCE(rl->credit_ns,
		   ibsw_rl_credit_delay_ns(rl->settings.pacing,
					   rl->port->rate_bps,
					   rl->settings.time_scale,
					   rl->port->in[0].size));
	if (rl->peer_epoch && time_after(jiffies, READ_ONCE(rl->last_rx) + dead)) {
		/* Silent too long: forget it, as if it said BYE */
		rl->peer_epoch = 0;
		rl->have_seq = false;
		rl->heard_us = false;
		rl->want = IBSW_RL_WANT_DOWN;
	}
	want = rl->want;
	rl->want = 0;
	spin_unlock_bh(&rl->rx_lock);
	if (want & IBSW_RL_WANT_DOWN)
		ibsw_rl_down(rl);
	if (want & IBSW_RL_WANT_UP)
		ibsw_rl_up(rl);
	rtnl_unlock();

	ibsw_rl_send_hello(rl);
	if (READ_ONCE(rl->state) == IBSW_RL_UP) {
		local_bh_disable();
		ibsw_rl_send_credit(rl);
		local_bh_enable();
	}
	mod_delayed_work(system_wq, &rl->work,
			 msecs_to_jiffies(IBSW_RL_HELLO_MS));
}

/**
 * ibsw_remote_attach() - cable a port to a port of another kernel
 * @port: an unconnected port
 * @dev: the netdev that carries the link; a reference is taken
 * @link_id: the link's id, the same at both ends and unique on @dev
 * @peer_mac: the peer's Ethernet address, or NULL to learn it
 * @extack: why it was refused
 *
 * The link comes up when the peer answers (ibsw_rl_work()).
 *
 * Context: RTNL.
 * Return: 0 or a negative errno.
 */
int ibsw_remote_attach(struct ibsw_port *port, struct net_device *dev,
		       u32 link_id, const u8 *peer_mac,
		       struct netlink_ext_ack *extack)
{
	unsigned int need = IBSW_HOST_MTU + IBSW_RL_HDR_LEN + IBSW_RL_DATA_LEN;
	struct ibsw_remote *rl;
	int err;

	ASSERT_RTNL();
	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN) {
		NL_SET_ERR_MSG_FMT(extack, "%s is not an Ethernet device",
				   dev->name);
		return -EINVAL;
	}
	if (dev->rtnl_link_ops == &ibsw_link_ops) {
		NL_SET_ERR_MSG_FMT(extack, "%s is a host port of ibsw",
				   dev->name);
		return -EINVAL;
	}
	if (dev->mtu < need) {
		NL_SET_ERR_MSG_FMT(extack,
				   "%s has MTU %u; a remote link needs %u",
				   dev->name, dev->mtu, need);
		return -EINVAL;
	}
	rcu_read_lock();
	rl = ibsw_rl_find_rcu(dev, link_id);
	rcu_read_unlock();
	if (rl) {
		NL_SET_ERR_MSG_FMT(extack, "link %u on %s is %s port %u's",
				   link_id, dev->name, rl->port->sw->name,
				   rl->port->num);
		return -EEXIST;
	}
	rl = kzalloc(sizeof(*rl), GFP_KERNEL);
	if (!rl)
		return -ENOMEM;
	rl->stats = netdev_alloc_pcpu_stats(struct ibsw_rl_pcpu);
	if (!rl->stats) {
		err = -ENOMEM;
		goto err_free;
	}
	rl->port = port;
	rl->dev = dev;
	netdev_hold(dev, &rl->dev_tracker, GFP_KERNEL);
	rl->link_id = link_id;
	if (peer_mac) {
		ether_addr_copy(rl->peer_mac, peer_mac);
		rl->mac_fixed = true;
	} else {
		eth_broadcast_addr(rl->peer_mac);
	}
	rl->settings.time_scale = READ_ONCE(ibsw_fabric.time_scale);
	rl->settings.pacing = READ_ONCE(ibsw_fabric.pacing);
	rl->settings.width = port->width;
	rl->settings.speed = port->speed;
	rl->settings.nr_vls = port->nr_vls;
	do
		rl->epoch = get_random_u32();
	while (!rl->epoch);
	rl->credit_ns = IBSW_RL_CREDIT_MIN_NS;
	spin_lock_init(&rl->tx_lock);
	spin_lock_init(&rl->rx_lock);
	hrtimer_init(&rl->credit_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	rl->credit_timer.function = ibsw_rl_credit_timer;
	INIT_DELAYED_WORK(&rl->work, ibsw_rl_work);

	if (!ibsw_nr_remotes++)
		dev_add_pack(&ibsw_rl_ptype);
	hash_add_rcu(ibsw_remotes, &rl->node, ibsw_rl_hash(dev, link_id));
	rcu_assign_pointer(port->remote, rl);
	WRITE_ONCE(port->kind, IBSW_PORT_KIND_REMOTE);
	mod_delayed_work(system_wq, &rl->work, 0);
	return 0;

err_free:
	kfree(rl);
	return err;
}

static void ibsw_rl_free_rcu(struct rcu_head *head)
{
	struct ibsw_remote *rl = container_of(head, struct ibsw_remote, rcu);

	free_percpu(rl->stats);
	kfree(rl);
}

/**
 * ibsw_remote_detach() - uncable a remote port
 * @port: the port
 *
 * Tells the peer (BYE), closes the output engine and drops what it held,
 * and frees the link after a grace period.
 *
 * Context: RTNL.
 */
void ibsw_remote_detach(struct ibsw_port *port)
{
	struct ibsw_remote *rl = rtnl_dereference(port->remote);
	struct sk_buff *skb;

	if (!rl)
		return;
	/* The work takes RTNL by trylock only: this cannot deadlock */
	cancel_delayed_work_sync(&rl->work);
	local_bh_disable();
	skb = ibsw_rl_alloc(rl, 0);
	if (skb)
		ibsw_rl_send(rl, skb, IBSW_RL_BYE, -1, 0);
	local_bh_enable();
	WRITE_ONCE(port->kind, IBSW_PORT_KIND_NONE);
	WRITE_ONCE(rl->state, IBSW_RL_DOWN);
	hash_del_rcu(&rl->node);
	RCU_INIT_POINTER(port->remote, NULL);
	ibsw_engine_close(port->out);
	if (!--ibsw_nr_remotes)
		__dev_remove_pack(&ibsw_rl_ptype);
	/* No receive path or engine can reach it after this */
	synchronize_net();
	hrtimer_cancel(&rl->credit_timer);
	/* A frame received meanwhile may have queued the work again */
	cancel_delayed_work_sync(&rl->work);
	netdev_put(rl->dev, &rl->dev_tracker);
	call_rcu(&rl->rcu, ibsw_rl_free_rcu);
}

/* The netdev under a remote link goes away: the link goes with it */
static int ibsw_rl_netdev_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct ibsw_remote *rl;
	struct hlist_node *tmp;
	unsigned int bkt;

	if (event != NETDEV_UNREGISTER || !ibsw_nr_remotes)
		return NOTIFY_DONE;
	hash_for_each_safe(ibsw_remotes, bkt, tmp, rl, node) {
		struct ibsw_port *port = rl->port;

		if (rl->dev != dev)
			continue;
		ibsw_remote_detach(port);
		ibsw_notify_port(port);
	}
	return NOTIFY_DONE;
}

static struct notifier_block ibsw_rl_notifier = {
	.notifier_call = ibsw_rl_netdev_event,
};

int ibsw_remote_init(void)
{
	return register_netdevice_notifier(&ibsw_rl_notifier);
}

void ibsw_remote_exit(void)
{
	unregister_netdevice_notifier(&ibsw_rl_notifier);
}
