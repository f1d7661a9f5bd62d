// SPDX-License-Identifier: GPL-2.0
/*
 * Host ports, the control side: create a host port's netdev in the host's
 * namespace, attach it to its switch port, open and stop it, and detach
 * and unregister it (RTNL). host.c is its datapath.
 */

#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/udp.h>
#include <net/net_namespace.h>
#include <net/rtnetlink.h>

#include "engine.h"
#include "pkt.h"

/* Largest MTU whose frames stay within IBSW_WIRE_LEN_MAX: IPv4 + UDP */
#define IBSW_HOST_MAX_MTU \
	(IBSW_WIRE_LEN_MAX - IBSW_LRH_LEN - IBSW_VCRC_LEN + \
	 sizeof(struct iphdr) + sizeof(struct udphdr))

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
	/* Nothing queues any more; wait for a poll and a timer in progress */
	napi_disable(&h->napi);
	timer_delete_sync(&h->neigh_timer);
	spin_lock_bh(&h->rxq.lock);
	skb_queue_splice_init(&h->rxq, &purge);
	spin_unlock_bh(&h->rxq.lock);
	skb_queue_purge(&h->neighq);
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

/*
 * After its last reference is gone: the namespace it was unregistered in
 * may go now (ibsw_host_detach())
 */
static void ibsw_host_destructor(struct net_device *dev)
{
	struct ibsw_host *h = netdev_priv(dev);

	if (h->net_hold)
		put_net(h->net_hold);
}

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
	dev->priv_destructor = ibsw_host_destructor;
	ibsw_netdev_set_lltx(dev);
	/* The port belongs to its host: it does not move between namespaces */
	ibsw_netdev_set_netns_immutable(dev);
	dev->pcpu_stat_type = NETDEV_PCPU_STAT_TSTATS;
	dev->mtu = IBSW_HOST_MTU;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = IBSW_HOST_MAX_MTU;
	/* While a queue is stopped its packets wait in the qdisc */
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

/*
 * Take @dev off its switch port: the port becomes unconnected, its engines
 * discard what they hold, its LID is released.
 */
static void ibsw_host_unplug(struct ibsw_port *port, struct net_device *dev)
{
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
}

/*
 * The netdev's last references (rxe's) can outlive its unregistering by
 * seconds, during which netdev_run_todo() sends NETDEV_UNREGISTER again, to
 * notifiers that use its namespace (netdev-genl: its genl socket). A
 * namespace that loses its last user meanwhile (rxe's device, in rdma's
 * exclusive mode) no longer waits for a netdev already off its list: hold
 * it until the netdev is freed (ibsw_host_destructor()). Fails for a
 * namespace already being dismantled.
 */
static bool ibsw_host_hold_net(struct net_device *dev)
{
	struct ibsw_host *h = netdev_priv(dev);

	h->net_hold = maybe_get_net(dev_net(dev));
	return h->net_hold;
}

/**
 * ibsw_host_detach() - take a host port's netdev off its switch port, and
 *	unregister it
 * @port: a host port
 * @head: where to queue the netdev for unregistration, NULL to
 *	unregister it now
 *
 * The port becomes unconnected: its engines discard what they hold, its
 * LID is released. In a namespace already being dismantled, the netdev is
 * left registered: that namespace's exit (default_device_exit_batch())
 * deletes it through ibsw_host_dellink() and waits for its last reference
 * before the namespace's subsystems go; unregistered here, it would
 * outlive them.
 *
 * Context: RTNL.
 */
void ibsw_host_detach(struct ibsw_port *port, struct list_head *head)
{
	struct net_device *dev = rtnl_dereference(port->netdev);

	ibsw_host_unplug(port, dev);
	if (ibsw_host_hold_net(dev))
		unregister_netdevice_queue(dev, head);
}

static void ibsw_host_dellink(struct net_device *dev, struct list_head *head)
{
	struct ibsw_host *h = netdev_priv(dev);
	struct ibsw_port *port = rtnl_dereference(h->port);

	if (port) {
		ibsw_host_unplug(port, dev);
		ibsw_notify_port(port);
	}
	/* From the namespace's own exit this fails, and that exit waits */
	ibsw_host_hold_net(dev);
	unregister_netdevice_queue(dev, head);
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
			       ibsw_host_setup, IBSW_NR_SLS, 1);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	h = netdev_priv(dev);
	skb_queue_head_init(&h->rxq);
	skb_queue_head_init(&h->neighq);
	timer_setup(&h->neigh_timer, ibsw_neigh_timer, 0);
	/* Disabled until ndo_open; free_netdev() deletes it */
	netif_napi_add(dev, &h->napi, ibsw_host_poll);
	dev_net_set(dev, net);
	if (mac)
		eth_hw_addr_set(dev, mac);
	else
		eth_hw_addr_random(dev);
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
