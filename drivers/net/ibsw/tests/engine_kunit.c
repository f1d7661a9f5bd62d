// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the engines (engine.c, engine_ctl.c) and the switch
 * input (input.c), on real switches whose ports have no netdev.
 *
 * A test builds switches and links with the control API, as netlink
 * would, and stands in for the hosts: it injects packets straight into a
 * switch input port (taking that buffer's credits, as a transmitter
 * would), and a "sink" port delivers into an unregistered netdev's RX
 * queue, where its NAPI instance never runs, so the test reads what
 * arrived and in which order. Packets carry a tag in their SLID.
 *
 * With pacing off every engine runs in the caller's context, nested up
 * to IBSW_ENGINE_DEPTH, so most cases are deterministic; the HCA FIFO
 * case paces a 1x SDR link at the largest time scale (about 4 ms of wall
 * time per test packet).
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/sch_generic.h>

#include "../engine.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KT_DLID		7
#define KT_LEN		1000	/* wire bytes of a test packet: 16 credits */

/* The fabric's settings before the test, put back after it */
struct kt_ctx {
	u32	time_scale;
	bool	pacing;
};

static void kt_fabric_set(struct kunit *test, bool pacing, u32 scale)
{
	struct ibsw_fabric_cfg cfg = { .pacing = &pacing, .time_scale = &scale };

	rtnl_lock();
	KUNIT_ASSERT_EQ(test, ibsw_fabric_set(&cfg, NULL), 0);
	rtnl_unlock();
}

static int kt_init(struct kunit *test)
{
	struct kt_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->time_scale = READ_ONCE(ibsw_fabric.time_scale);
	ctx->pacing = READ_ONCE(ibsw_fabric.pacing);
	test->priv = ctx;
	return 0;
}

static void kt_exit(struct kunit *test)
{
	struct kt_ctx *ctx = test->priv;

	kt_fabric_set(test, ctx->pacing, ctx->time_scale);
}

static void kt_switch_destroy(void *sw)
{
	rtnl_lock();
	ibsw_switch_destroy(sw);
	rtnl_unlock();
}

/* A switch of @nr_ports ports that routes KT_DLID to port @out */
static struct ibsw_switch *kt_switch(struct kunit *test, const char *name,
				     unsigned int nr_ports, unsigned int out)
{
	u8 lft[KT_DLID + 1];
	struct ibsw_switch *sw;

	memset(lft, IBSW_LFT_NO_ROUTE, sizeof(lft));
	lft[KT_DLID] = out;
	rtnl_lock();
	sw = ibsw_switch_create(name, nr_ports, NULL);
	if (!IS_ERR(sw))
		KUNIT_EXPECT_EQ(test, ibsw_switch_set_lft(sw, lft, sizeof(lft),
							  NULL), 0);
	rtnl_unlock();
	KUNIT_ASSERT_FALSE(test, IS_ERR(sw));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_switch_destroy,
							sw), 0);
	return sw;
}

static void kt_link(struct kunit *test, struct ibsw_switch *a, unsigned int pa,
		    struct ibsw_switch *b, unsigned int pb)
{
	struct ibsw_port_cfg cfg = {};
	int err;

	rtnl_lock();
	err = ibsw_link_create(a, pa, b, pb, &cfg, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, err, 0);
}

/* Slow a port's link to 1x SDR, the slowest there is */
static void kt_port_sdr(struct kunit *test, struct ibsw_switch *sw,
			unsigned int port)
{
	struct ibsw_port_cfg cfg = {
		.set = IBSW_PORT_CFG_WIDTH | IBSW_PORT_CFG_SPEED,
		.width = IBSW_LINK_WIDTH_1X,
		.speed = IBSW_LINK_SPEED_SDR,
	};
	int err;

	rtnl_lock();
	err = ibsw_port_set(sw, port, &cfg, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, err, 0);
}

/* A netdev that only holds what a port delivers: never registered */
static struct net_device *kt_netdev(struct kunit *test)
{
	struct net_device *dev;
	struct ibsw_host *h;
	unsigned int i;

	dev = alloc_netdev_mqs(sizeof(*h), "kt%d", NET_NAME_ENUM, ether_setup,
			       IBSW_NR_DATA_VLS, 1);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	h = netdev_priv(dev);
	skb_queue_head_init(&h->rxq);
	/* Added but not enabled: napi_schedule() leaves @rxq to the test */
	netif_napi_add(dev, &h->napi, ibsw_host_poll);
	h->rx_on = true;
	/* A woken TX queue schedules its qdisc */
	for (i = 0; i < dev->num_tx_queues; i++)
		rcu_assign_pointer(netdev_get_tx_queue(dev, i)->qdisc,
				   &noop_qdisc);
	return dev;
}

static void kt_port_unplug(void *arg)
{
	struct ibsw_port *port = arg;
	struct net_device *dev;

	rtnl_lock();
	RCU_INIT_POINTER(port->upstream, NULL);
	ibsw_engine_close(port->hca);
	ibsw_engine_close(port->out);
	dev = rtnl_dereference(port->netdev);
	RCU_INIT_POINTER(port->netdev, NULL);
	rtnl_unlock();
	synchronize_rcu();
	if (dev) {
		skb_queue_purge(&((struct ibsw_host *)netdev_priv(dev))->rxq);
		free_netdev(dev);
	}
}

/*
 * Plug a fake host into an unconnected port: its output delivers into the
 * netdev's RX queue; with @hca, its HCA transmitter runs too.
 */
static struct sk_buff_head *kt_host(struct kunit *test, struct ibsw_port *port,
				    bool hca)
{
	struct net_device *dev = kt_netdev(test);

	rtnl_lock();
	ibsw_engine_open(port->out, NULL, NULL);
	if (hca) {
		ibsw_engine_open(port->hca, NULL, port->in);
		rcu_assign_pointer(port->upstream, port->hca);
	}
	rcu_assign_pointer(port->netdev, dev);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_port_unplug,
							port), 0);
	return &((struct ibsw_host *)netdev_priv(dev))->rxq;
}

static struct sk_buff *kt_pkt(struct kunit *test, unsigned int tag,
			      unsigned int in_port, unsigned int vl)
{
	struct sk_buff *skb = alloc_skb(64, GFP_KERNEL);
	struct ibsw_skb_cb *cb;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_zero(skb, ETH_ZLEN);
	cb = ibsw_cb(skb);
	memset(cb, 0, sizeof(*cb));
	cb->wire_len = KT_LEN;
	cb->dlid = KT_DLID;
	cb->slid = tag;
	cb->in_port = in_port;
	cb->in_vl = vl;
	cb->out_vl = vl;
	cb->sl = vl;
	return skb;
}

/* A transmitter sends a packet of SL and VL @vl into a switch input port */
static void kt_send_vl(struct kunit *test, struct ibsw_port *in,
		       unsigned int tag, unsigned int vl)
{
	struct sk_buff *skb = kt_pkt(test, tag, in->num, vl);

	KUNIT_ASSERT_TRUE(test, ibsw_credit_take(&in->in[vl], KT_LEN));
	local_bh_disable();
	ibsw_switch_receive(in, skb);
	local_bh_enable();
}

/* The same on SL and VL 0 */
static void kt_send(struct kunit *test, struct ibsw_port *in, unsigned int tag)
{
	kt_send_vl(test, in, tag, 0);
}

/* The tags that arrived, in order, as a string "1 2 3" */
static const char *kt_arrived(struct kunit *test, struct sk_buff_head *rxq)
{
	char *s = kunit_kzalloc(test, 256, GFP_KERNEL);
	struct sk_buff *skb;
	size_t n = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	spin_lock_bh(&rxq->lock);
	skb_queue_walk(rxq, skb)
		n += scnprintf(s + n, 256 - n, n ? " %u" : "%u",
			       ibsw_cb(skb)->slid);
	spin_unlock_bh(&rxq->lock);
	return s;
}

static u64 kt_cnt(struct ibsw_port *port, enum ibsw_counter c)
{
	struct ibsw_counters cnt;

	ibsw_stats_read(port, &cnt, NULL);
	return cnt.val[c];
}

static unsigned int kt_free(struct ibsw_port *port)
{
	return ibsw_credit_free(&port->in[0]);
}

/* Pacing off: packets cross a switch at once, in order, credits return */
static void ibsw_engine_forward_test(struct kunit *test)
{
	struct ibsw_switch *sw;
	struct sk_buff_head *rxq;

	kt_fabric_set(test, false, IBSW_DEFAULT_TIME_SCALE);
	sw = kt_switch(test, "kt_fwd", 3, 3);
	rxq = kt_host(test, sw->ports[3], false);

	kt_send(test, sw->ports[1], 1);
	kt_send(test, sw->ports[1], 2);
	kt_send(test, sw->ports[2], 3);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "1 2 3");
	KUNIT_EXPECT_EQ(test, kt_free(sw->ports[1]), sw->ports[1]->in[0].size);
	KUNIT_EXPECT_EQ(test, kt_free(sw->ports[2]), sw->ports[2]->in[0].size);
	KUNIT_EXPECT_EQ(test, kt_cnt(sw->ports[3], IBSW_CNT_XMIT_PKTS), 3);
	KUNIT_EXPECT_EQ(test, kt_cnt(sw->ports[1], IBSW_CNT_RCV_PKTS), 2);
}

/* No route: counted at the input, dropped, its credits back at once */
static void ibsw_engine_no_route_test(struct kunit *test)
{
	struct ibsw_switch *sw;
	struct sk_buff_head *rxq;

	kt_fabric_set(test, false, IBSW_DEFAULT_TIME_SCALE);
	/* KT_DLID routes back out of its input port */
	sw = kt_switch(test, "kt_noroute", 2, 1);
	rxq = kt_host(test, sw->ports[2], false);

	kt_send(test, sw->ports[1], 1);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "");
	KUNIT_EXPECT_EQ(test, kt_cnt(sw->ports[1],
				     IBSW_CNT_RCV_SWITCH_RELAY_ERRORS), 1);
	KUNIT_EXPECT_EQ(test, kt_free(sw->ports[1]), sw->ports[1]->in[0].size);
}

/*
 * Switch A's port 2 cabled to switch B's port 1, a host at B's port 2;
 * pacing off
 */
struct kt_chain {
	struct ibsw_switch	*a, *b;
	struct ibsw_port	*down;	/* B's input from A */
	struct ibsw_engine	*e;	/* A's output to B */
	struct sk_buff_head	*rxq;	/* what reaches the host */
};

static void kt_chain(struct kunit *test, struct kt_chain *c, const char *a,
		     const char *b)
{
	kt_fabric_set(test, false, IBSW_DEFAULT_TIME_SCALE);
	c->a = kt_switch(test, a, 2, 2);
	c->b = kt_switch(test, b, 2, 2);
	kt_link(test, c->a, 2, c->b, 1);
	c->rxq = kt_host(test, c->b->ports[2], false);
	c->down = c->b->ports[1];
	c->e = c->a->ports[2]->out;
}

/* Something else holds all of B's buffer for @vl: returns its bytes */
static unsigned int kt_fill_down(struct kunit *test, struct kt_chain *c,
				 unsigned int vl)
{
	unsigned int all = c->down->in[vl].size * IBSW_CREDIT_LEN;

	KUNIT_ASSERT_TRUE(test, ibsw_credit_take(&c->down->in[vl], all));
	return all;
}

/*
 * A full downstream buffer holds a packet in its VoQ; the credit coming
 * back kicks the idle engine, which sends it (ibsw_engine_kick()).
 */
static void ibsw_engine_credit_kick_test(struct kunit *test)
{
	struct kt_chain c;
	unsigned int all;

	kt_chain(test, &c, "kt_kick_a", "kt_kick_b");
	all = kt_fill_down(test, &c, 0);
	kt_send(test, c.a->ports[1], 1);
	kt_send(test, c.a->ports[1], 2);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, c.rxq), "");
	KUNIT_EXPECT_EQ(test, kt_cnt(c.a->ports[2], IBSW_CNT_XMIT_PKTS), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(c.e->queued), BIT(0));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(c.e->scheduled));
	/* The packets hold their input buffer's credits while they wait */
	KUNIT_EXPECT_EQ(test, kt_free(c.a->ports[1]),
			c.a->ports[1]->in[0].size - 2 * ibsw_wire_credits(KT_LEN));

	local_bh_disable();
	ibsw_credit_release(c.down, 0, all);
	local_bh_enable();
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, c.rxq), "1 2");
	KUNIT_EXPECT_EQ(test, READ_ONCE(c.e->queued), 0);
	KUNIT_EXPECT_EQ(test, kt_free(c.a->ports[1]), c.a->ports[1]->in[0].size);
	KUNIT_EXPECT_EQ(test, kt_free(c.down), c.down->in[0].size);
}

static void kt_engine_own(struct ibsw_engine *e, bool own)
{
	spin_lock_bh(&e->lock);
	e->running = own;
	if (own)
		e->rerun = false;
	spin_unlock_bh(&e->lock);
}

static void kt_engine_release(void *e)
{
	kt_engine_own(e, false);
}

/*
 * Cut-through: a packet that finds its engine idle is sent at once, but
 * charged to the VL arbiter as the pass would charge it. VLs 0 and 1
 * share the low list, two packets a turn: after 1 (VL 0, cut through),
 * VL 0 has one packet of its turn left, so the queued 2 goes, then VL 1's
 * turn (4, 5), then 3. An arbiter that missed the charge would send 2 and
 * 3 first.
 */
static void ibsw_engine_cut_arbiter_test(struct kunit *test)
{
	struct ibsw_vlarb_table table = {
		.low = {
			{ .vl = 0, .weight = 2 * ibsw_wire_credits(KT_LEN) },
			{ .vl = 1, .weight = 2 * ibsw_wire_credits(KT_LEN) },
		},
		.nr_low = 2,
	};
	unsigned int all0, all1;
	struct kt_chain c;

	kt_chain(test, &c, "kt_cut_a", "kt_cut_b");
	ibsw_engine_set_vlarb(c.e, &table);

	kt_send_vl(test, c.a->ports[1], 1, 0);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, c.rxq), "1");
	KUNIT_EXPECT_EQ(test, READ_ONCE(c.e->queued), 0);
	KUNIT_EXPECT_EQ(test, kt_cnt(c.a->ports[2], IBSW_CNT_XMIT_PKTS), 1);
	KUNIT_EXPECT_EQ(test, kt_free(c.a->ports[1]), c.a->ports[1]->in[0].size);
	KUNIT_EXPECT_EQ(test, kt_free(c.down), c.down->in[0].size);

	/* Downstream full on both VLs: the next ones queue */
	all0 = kt_fill_down(test, &c, 0);
	all1 = kt_fill_down(test, &c, 1);
	kt_send_vl(test, c.a->ports[1], 2, 0);
	kt_send_vl(test, c.a->ports[1], 3, 0);
	kt_send_vl(test, c.a->ports[1], 4, 1);
	kt_send_vl(test, c.a->ports[1], 5, 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(c.e->queued), BIT(0) | BIT(1));

	/* Both VLs' credit back before the engine looks again */
	kt_engine_own(c.e, true);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kt_engine_release,
							c.e), 0);
	local_bh_disable();
	ibsw_credit_release(c.down, 0, all0);
	ibsw_credit_release(c.down, 1, all1);
	local_bh_enable();
	kt_engine_own(c.e, false);
	local_bh_disable();
	ibsw_engine_run(&c.e->timer);
	local_bh_enable();
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, c.rxq), "1 2 4 5 3");
}

/*
 * Cut-through on a paced link: the packet is on the wire at once, its
 * input credits back, and it arrives when its serialisation time is over
 * (1x SDR at the largest time scale: about 4 ms of wall time).
 */
static void ibsw_engine_cut_paced_test(struct kunit *test)
{
	struct sk_buff_head *rxq;
	struct ibsw_switch *sw;
	struct ibsw_engine *e;
	bool on_wire, armed;
	unsigned int i;
	u64 sent;

	kt_fabric_set(test, true, IBSW_TIME_SCALE_MAX);
	sw = kt_switch(test, "kt_cut_paced", 2, 2);
	kt_port_sdr(test, sw, 2);
	rxq = kt_host(test, sw->ports[2], false);
	e = sw->ports[2]->out;

	sent = ktime_get_ns();
	local_bh_disable();
	kt_send(test, sw->ports[1], 1);
	/* Softirqs are off: its timer cannot deliver it yet */
	on_wire = READ_ONCE(e->wire) && !READ_ONCE(e->queued);
	armed = READ_ONCE(e->scheduled);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, on_wire);
	KUNIT_EXPECT_TRUE(test, armed);
	KUNIT_EXPECT_EQ(test, kt_free(sw->ports[1]), sw->ports[1]->in[0].size);
	KUNIT_EXPECT_EQ(test, kt_cnt(sw->ports[2], IBSW_CNT_XMIT_PKTS), 1);
	KUNIT_EXPECT_GE(test, READ_ONCE(e->busy_until),
			sent + ibsw_rate_xmit_ns(KT_LEN, e->pace_bps,
						 IBSW_TIME_SCALE_MAX));

	for (i = 0; i < 200 && skb_queue_empty_lockless(rxq); i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "1");
	KUNIT_EXPECT_GE(test, ktime_get_ns(), READ_ONCE(e->busy_until));
	KUNIT_EXPECT_NULL(test, READ_ONCE(e->wire));
}

/*
 * Run ownership: packets that arrive while another context runs the
 * engine only ask it to pass again; its next pass serves the input ports
 * of the VL round-robin.
 */
static void ibsw_engine_round_robin_test(struct kunit *test)
{
	struct ibsw_switch *sw;
	struct sk_buff_head *rxq;
	struct ibsw_engine *e;
	unsigned int i;

	kt_fabric_set(test, false, IBSW_DEFAULT_TIME_SCALE);
	sw = kt_switch(test, "kt_rr", 4, 4);
	rxq = kt_host(test, sw->ports[4], false);
	e = sw->ports[4]->out;

	kt_engine_own(e, true);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kt_engine_release, e),
			0);
	/* Port 1 sends 11, 12, 13; port 2 21, 22; port 3 31 */
	for (i = 1; i <= 3; i++)
		kt_send(test, sw->ports[1], 10 + i);
	for (i = 1; i <= 2; i++)
		kt_send(test, sw->ports[2], 20 + i);
	kt_send(test, sw->ports[3], 31);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "");
	KUNIT_EXPECT_TRUE(test, READ_ONCE(e->rerun));

	/* The owner lets go; its timer runs the engine */
	kt_engine_own(e, false);
	local_bh_disable();
	ibsw_engine_run(&e->timer);
	local_bh_enable();
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "11 21 31 12 22 13");
}

/*
 * Engines run nested in the context that kicked them only up to
 * IBSW_ENGINE_DEPTH: along a chain of switches the next one is left to
 * its timer, and the packet arrives later.
 */
static void ibsw_engine_depth_test(struct kunit *test)
{
	static const char * const names[] = {
		"kt_depth0", "kt_depth1", "kt_depth2", "kt_depth3",
		"kt_depth4", "kt_depth5",
	};
	struct ibsw_switch *sw[ARRAY_SIZE(names)];
	unsigned int i, n = ARRAY_SIZE(names);
	struct sk_buff_head *rxq;
	bool deferred, arrived;
	struct ibsw_engine *e;
	struct sk_buff *skb;

	static_assert(ARRAY_SIZE(names) > IBSW_ENGINE_DEPTH + 1);
	kt_fabric_set(test, false, IBSW_DEFAULT_TIME_SCALE);
	for (i = 0; i < n; i++) {
		sw[i] = kt_switch(test, names[i], 2, 2);
		if (i)
			kt_link(test, sw[i - 1], 2, sw[i], 1);
	}
	rxq = kt_host(test, sw[n - 1]->ports[2], false);

	skb = kt_pkt(test, 1, 1, 0);
	KUNIT_ASSERT_TRUE(test, ibsw_credit_take(&sw[0]->ports[1]->in[0],
						 KT_LEN));
	local_bh_disable();
	ibsw_switch_receive(sw[0]->ports[1], skb);
	/* Softirqs are off: the deferred engine's timer cannot run yet */
	e = sw[IBSW_ENGINE_DEPTH]->ports[2]->out;
	deferred = READ_ONCE(e->scheduled) && READ_ONCE(e->queued) == BIT(0);
	arrived = !skb_queue_empty_lockless(rxq);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, deferred);
	KUNIT_EXPECT_FALSE(test, arrived);
	KUNIT_EXPECT_EQ(test, kt_cnt(sw[IBSW_ENGINE_DEPTH - 1]->ports[2],
				     IBSW_CNT_XMIT_PKTS), 1);

	for (i = 0; i < 100 && skb_queue_empty_lockless(rxq); i++)
		usleep_range(5000, 10000);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "1");
}

/* A host sends a packet of VL 0 into its HCA transmitter */
static int kt_hca_send(struct kunit *test, struct ibsw_port *port,
		       struct netdev_queue *txq, unsigned int tag)
{
	struct sk_buff *skb = kt_pkt(test, tag, port->num, 0);
	int err;

	local_bh_disable();
	err = ibsw_hca_enqueue(port->hca, skb, txq);
	local_bh_enable();
	if (err)
		kfree_skb(skb);
	return err;
}

/*
 * The HCA FIFO stops the netdev queue of its VL at its limit and the
 * engine wakes it as the FIFO drains; a sender that ignores the stop is
 * refused at IBSW_HCA_FIFO_CAP.
 */
static void ibsw_engine_hca_fifo_test(struct kunit *test)
{
	struct netdev_queue *txq;
	struct ibsw_switch *sw;
	struct ibsw_port *host;
	struct ibsw_engine *e;
	unsigned int i, sent;
	int err;

	kt_fabric_set(test, true, IBSW_TIME_SCALE_MAX);
	sw = kt_switch(test, "kt_hca", 2, 2);
	host = sw->ports[1];
	kt_port_sdr(test, sw, 1);
	kt_host(test, sw->ports[2], false);
	kt_host(test, host, true);
	e = host->hca;
	txq = netdev_get_tx_queue(rcu_access_pointer(host->netdev), 0);
	/* The link moves less than a packet in the timer slack */
	KUNIT_ASSERT_EQ(test, e->fifo_limit,
			ibsw_wire_len_max(IBSW_IB_MTU_MAX));

	/* The first goes on the wire at once; the FIFO fills behind it */
	KUNIT_ASSERT_EQ(test, kt_hca_send(test, host, txq, 1), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(e->fifo_bytes[0]), 0);
	for (sent = 1; !netif_xmit_stopped(txq) && sent < 16; sent++) {
		KUNIT_EXPECT_LT(test, READ_ONCE(e->fifo_bytes[0]),
				e->fifo_limit);
		KUNIT_ASSERT_EQ(test, kt_hca_send(test, host, txq, 1 + sent), 0);
	}
	KUNIT_EXPECT_TRUE(test, netif_xmit_stopped(txq));
	KUNIT_EXPECT_EQ(test, sent,
			1 + DIV_ROUND_UP(e->fifo_limit, KT_LEN));
	KUNIT_EXPECT_GE(test, READ_ONCE(e->fifo_bytes[0]), e->fifo_limit);

	/* The engine drains it and wakes the queue below the limit */
	for (i = 0; i < 200 && netif_xmit_stopped(txq); i++)
		usleep_range(5000, 10000);
	KUNIT_EXPECT_FALSE(test, netif_xmit_stopped(txq));
	KUNIT_EXPECT_LT(test, READ_ONCE(e->fifo_bytes[0]), e->fifo_limit);

	/* A sender that ignores the stop meets the cap */
	for (i = 0; i < IBSW_HCA_FIFO_CAP / KT_LEN + 2; i++) {
		err = kt_hca_send(test, host, txq, 100);
		if (err)
			break;
	}
	KUNIT_EXPECT_EQ(test, err, -ENOBUFS);
	KUNIT_EXPECT_GE(test, READ_ONCE(e->fifo_bytes[0]), IBSW_HCA_FIFO_CAP);
	KUNIT_EXPECT_LT(test, READ_ONCE(e->fifo_bytes[0]),
			IBSW_HCA_FIFO_CAP + KT_LEN);
	KUNIT_EXPECT_TRUE(test, netif_xmit_stopped(txq));
}

/*
 * A port's VLs shrink while a sender is between reading the old count and
 * queueing (issue 20, finding 7): the trimmed engine refuses the packet,
 * which is counted and gives its credits back, rather than waiting for
 * ever on a VL nothing arbitrates.
 */
static void ibsw_engine_trim_race_test(struct kunit *test)
{
	struct ibsw_port *in, *host;
	struct sk_buff_head *rxq;
	struct ibsw_switch *sw;
	struct sk_buff *skb;
	int err;

	kt_fabric_set(test, false, IBSW_DEFAULT_TIME_SCALE);
	sw = kt_switch(test, "kt_trim", 3, 3);
	in = sw->ports[1];
	host = sw->ports[3];
	rxq = kt_host(test, host, true);
	/* The port still says 4 VLs: what the sender read */
	KUNIT_ASSERT_EQ(test, READ_ONCE(host->nr_vls), 4);
	rtnl_lock();
	ibsw_engine_trim(host->out, 2);
	ibsw_engine_trim(host->hca, 2);
	rtnl_unlock();

	skb = kt_pkt(test, 1, in->num, 3);
	KUNIT_ASSERT_TRUE(test, ibsw_credit_take(&in->in[3], KT_LEN));
	local_bh_disable();
	ibsw_switch_receive(in, skb);
	local_bh_enable();
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "");
	KUNIT_EXPECT_EQ(test, kt_cnt(in, IBSW_CNT_RCV_VL_DISCARDS), 1);
	KUNIT_EXPECT_EQ(test, ibsw_credit_free(&in->in[3]), in->in[3].size);
	KUNIT_EXPECT_EQ(test, kt_cnt(host, IBSW_CNT_XMIT_PKTS), 0);

	/* The host's HCA transmitter refuses it too */
	skb = kt_pkt(test, 2, host->num, 3);
	local_bh_disable();
	err = ibsw_hca_enqueue(host->hca, skb,
			       netdev_get_tx_queue(rcu_access_pointer(host->netdev), 3));
	local_bh_enable();
	if (err)
		kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, err, -ERANGE);

	/* A VL it still operates passes */
	kt_send(test, in, 3);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "3");
}

/* Set a port's HOQLife as netlink and the SMA do */
static int kt_hoq_life(struct ibsw_port *port, u8 hoq_life)
{
	struct ibsw_port_cfg cfg = {
		.set = IBSW_PORT_CFG_HOQ_LIFE,
		.hoq_life = hoq_life,
	};
	int err;

	rtnl_lock();
	err = ibsw_port_set(port->sw, port->num, &cfg, NULL);
	rtnl_unlock();
	return err;
}

/* Wait up to 2 s for @port's HOQ discards to reach @want */
static u64 kt_hoq_wait(struct ibsw_port *port, u64 want)
{
	unsigned int i;
	u64 n = 0;

	for (i = 0; i < 100; i++) {
		n = kt_cnt(port, IBSW_CNT_HOQ_DISCARDS);
		if (n >= want)
			break;
		msleep(20);
	}
	return n;
}

/*
 * Head-of-queue lifetime, for want of credit: the packets a full
 * downstream buffer holds are discarded one lifetime apart (HOQLife 12:
 * 16.8 ms at scale 1), counted, and return their input credits. With an
 * infinite lifetime the next one waits until credit comes back.
 */
static void ibsw_engine_hoq_credit_test(struct kunit *test)
{
	struct ibsw_switch *a, *b;
	struct sk_buff_head *rxq;
	struct ibsw_port *out, *down;
	unsigned int all;

	kt_fabric_set(test, false, 1);
	a = kt_switch(test, "kt_hoq_a", 2, 2);
	b = kt_switch(test, "kt_hoq_b", 2, 2);
	kt_link(test, a, 2, b, 1);
	rxq = kt_host(test, b->ports[2], false);
	out = a->ports[2];
	down = b->ports[1];
	KUNIT_EXPECT_EQ(test, out->hoq_life, IBSW_HOQ_LIFE_DEFAULT);
	KUNIT_EXPECT_EQ(test, kt_hoq_life(out, IBSW_HOQ_LIFE_MAX + 1), -EINVAL);
	KUNIT_ASSERT_EQ(test, kt_hoq_life(out, 12), 0);
	KUNIT_EXPECT_EQ(test, out->hoq_life, 12);

	all = down->in[0].size * IBSW_CREDIT_LEN;
	KUNIT_ASSERT_TRUE(test, ibsw_credit_take(&down->in[0], all));
	kt_send(test, a->ports[1], 1);
	kt_send(test, a->ports[1], 2);
	/* Not before its lifetime */
	KUNIT_EXPECT_EQ(test, kt_cnt(out, IBSW_CNT_HOQ_DISCARDS), 0);
	KUNIT_EXPECT_EQ(test, kt_hoq_wait(out, 2), 2);
	KUNIT_EXPECT_EQ(test, READ_ONCE(out->out->queued), 0);
	KUNIT_EXPECT_EQ(test, kt_cnt(out, IBSW_CNT_XMIT_DISCARDS), 2);
	KUNIT_EXPECT_EQ(test, kt_cnt(out, IBSW_CNT_INACTIVE_DISCARDS), 0);
	KUNIT_EXPECT_EQ(test, kt_cnt(out, IBSW_CNT_XMIT_PKTS), 0);
	KUNIT_EXPECT_EQ(test, kt_free(a->ports[1]), a->ports[1]->in[0].size);

	KUNIT_ASSERT_EQ(test, kt_hoq_life(out, IBSW_HOQ_LIFE_INFINITE), 0);
	kt_send(test, a->ports[1], 3);
	msleep(50);
	KUNIT_EXPECT_EQ(test, READ_ONCE(out->out->queued), BIT(0));
	KUNIT_EXPECT_EQ(test, kt_cnt(out, IBSW_CNT_HOQ_DISCARDS), 2);
	local_bh_disable();
	ibsw_credit_release(down, 0, all);
	local_bh_enable();
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "3");
	KUNIT_EXPECT_EQ(test, kt_free(a->ports[1]), a->ports[1]->in[0].size);
}

/*
 * Head-of-queue lifetime, for want of the arbiter's turn (issue 20,
 * finding 1): an arbitration table that leaves VL 1 without weight, which
 * an SM may set and netlink may not, never serves VL 1; its head is
 * discarded after its lifetime, while VL 0 goes on.
 */
static void ibsw_engine_hoq_starved_test(struct kunit *test)
{
	struct ibsw_port_cfg *cfg;
	struct sk_buff_head *rxq;
	struct ibsw_switch *sw;
	struct ibsw_port *in, *out;
	struct sk_buff *skb;

	kt_fabric_set(test, false, 1);
	sw = kt_switch(test, "kt_hoq_starve", 2, 2);
	in = sw->ports[1];
	out = sw->ports[2];
	rxq = kt_host(test, out, false);
	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	cfg->set = IBSW_PORT_CFG_VLARB_HIGH | IBSW_PORT_CFG_VLARB_LOW |
		   IBSW_PORT_CFG_HOQ_LIFE;
	cfg->vlarb.nr_low = 1;
	cfg->vlarb.low[0].vl = 0;
	cfg->vlarb.low[0].weight = 64;
	cfg->hoq_life = 12;
	rtnl_lock();
	/* Netlink's request is refused, and changes nothing */
	KUNIT_EXPECT_EQ(test, ibsw_port_set(sw, out->num, cfg, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, out->hoq_life, IBSW_HOQ_LIFE_DEFAULT);
	KUNIT_EXPECT_EQ(test, out->vlarb.nr_low, 4);
	/* The SMA's is taken */
	cfg->starve_ok = true;
	KUNIT_ASSERT_EQ(test, ibsw_port_set(sw, out->num, cfg, NULL), 0);
	rtnl_unlock();

	skb = kt_pkt(test, 1, in->num, 1);
	KUNIT_ASSERT_TRUE(test, ibsw_credit_take(&in->in[1], KT_LEN));
	local_bh_disable();
	ibsw_switch_receive(in, skb);
	local_bh_enable();
	kt_send(test, in, 2);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "2");
	KUNIT_EXPECT_EQ(test, kt_hoq_wait(out, 1), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(out->out->queued), 0);
	KUNIT_EXPECT_EQ(test, ibsw_credit_free(&in->in[1]), in->in[1].size);
	KUNIT_EXPECT_STREQ(test, kt_arrived(test, rxq), "2");
}

/*
 * How the VoQs' fills meet the threshold (fill_compare). Input port 1
 * queues packets for the output's VL 0 under its entry level L, then
 * input port 2 queues one more:
 * - "sum over L": port 1 just under L, so the sum reaches L and no VoQ
 *   does: sum and per-input enter, voq does not;
 * - "sum over L/2": port 1 at max(L / 2, floor), the sum still under L:
 *   only per-input enters, and only once the second input queues.
 * The engine is held by the test, so the packets stay queued.
 */
struct kt_fill_case {
	const char	*desc;
	u8		how;
	bool		half;		/* "sum over L/2", else "sum over L" */
	bool		two_inputs;	/* in the state once port 2 queues */
};

static const struct kt_fill_case kt_fill_cases[] = {
	{ "sum, sum over L", IBSW_CC_FILL_COMPARE_SUM, false, true },
	{ "voq, sum over L", IBSW_CC_FILL_COMPARE_VOQ, false, false },
	{ "per-input, sum over L", IBSW_CC_FILL_COMPARE_PER_INPUT, false, true },
	{ "sum, sum over L/2", IBSW_CC_FILL_COMPARE_SUM, true, false },
	{ "voq, sum over L/2", IBSW_CC_FILL_COMPARE_VOQ, true, false },
	{ "per-input, sum over L/2", IBSW_CC_FILL_COMPARE_PER_INPUT, true, true },
};

KUNIT_ARRAY_PARAM_DESC(kt_fill, kt_fill_cases, desc);

static void ibsw_engine_fill_compare_test(struct kunit *test)
{
	const struct kt_fill_case *c = test->param_value;
	struct ibsw_cc_params p = { .threshold = 1, .fill_compare = c->how };
	unsigned int credits = ibsw_wire_credits(KT_LEN), n, i;
	struct ibsw_switch *sw;
	struct ibsw_engine *e;
	u32 enter, floor;

	/* The largest scale: pacing jitter adds least to the floor */
	kt_fabric_set(test, false, IBSW_TIME_SCALE_MAX);
	sw = kt_switch(test, "kt_fill", 3, 3);
	kt_host(test, sw->ports[3], false);
	e = sw->ports[3]->out;
	kt_engine_own(e, true);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kt_engine_release, e),
			0);
	rtnl_lock();
	ibsw_engine_set_cc(e, &p);
	rtnl_unlock();
	enter = e->cc_level[0].enter;
	floor = e->cc_level[0].floor;

	if (c->half) {
		n = DIV_ROUND_UP(max(enter / 2, floor), credits);
		/* room for the case: the sum stays under L */
		KUNIT_ASSERT_LT(test, (n + 1) * credits, enter);
	} else {
		n = (enter - 1) / credits;
	}
	KUNIT_ASSERT_LE(test, n * credits, kt_free(sw->ports[1]));
	for (i = 0; i < n; i++)
		kt_send(test, sw->ports[1], 1);
	/* One input under L: no way of comparing enters */
	KUNIT_EXPECT_EQ(test, ibsw_engine_cc_state(e), 0);
	kt_send(test, sw->ports[2], 2);
	KUNIT_EXPECT_EQ(test, ibsw_engine_cc_state(e) & 1, c->two_inputs);
	KUNIT_EXPECT_EQ(test, e->voq_fill[1 * IBSW_NR_DATA_VLS], n * credits);
	KUNIT_EXPECT_EQ(test, e->voq_fill[2 * IBSW_NR_DATA_VLS], credits);
	KUNIT_EXPECT_EQ(test, e->cc_fill[0], (n + 1) * credits);
}

static struct kunit_case ibsw_engine_test_cases[] = {
	KUNIT_CASE(ibsw_engine_forward_test),
	KUNIT_CASE(ibsw_engine_no_route_test),
	KUNIT_CASE(ibsw_engine_credit_kick_test),
	KUNIT_CASE(ibsw_engine_cut_arbiter_test),
	KUNIT_CASE(ibsw_engine_cut_paced_test),
	KUNIT_CASE(ibsw_engine_round_robin_test),
	KUNIT_CASE(ibsw_engine_depth_test),
	KUNIT_CASE(ibsw_engine_hca_fifo_test),
	KUNIT_CASE(ibsw_engine_trim_race_test),
	KUNIT_CASE(ibsw_engine_hoq_credit_test),
	KUNIT_CASE(ibsw_engine_hoq_starved_test),
	KUNIT_CASE_PARAM(ibsw_engine_fill_compare_test, kt_fill_gen_params),
	{}
};

static struct kunit_suite ibsw_engine_test_suite = {
	.name = "ibsw_engine",
	.init = kt_init,
	.exit = kt_exit,
	.test_cases = ibsw_engine_test_cases,
};

kunit_test_suite(ibsw_engine_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ibsw engines and switch input");
MODULE_LICENSE("GPL");
