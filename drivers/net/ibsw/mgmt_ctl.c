// SPDX-License-Identifier: GPL-2.0
/*
 * Management HCAs on switch ports, the control plane: registering the
 * ib_device (mgmt_hca.c), cabling it to a port and taking it off (RTNL),
 * and unregistering it, which must happen without RTNL: ib_core's
 * clients (ipoib) take it when a device comes and goes.
 */

#include <linux/rtnetlink.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <net/net_namespace.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "engine.h"
#include "mgmt_hca.h"
#include "sma.h"

/* Detached HCAs whose ib_device is still registered */
static LIST_HEAD(ibsw_mgmt_dead);
static DEFINE_SPINLOCK(ibsw_mgmt_dead_lock);

static void ibsw_mgmt_reap_work(struct work_struct *work)
{
	ibsw_mgmt_reap();
}

static DECLARE_WORK(ibsw_mgmt_reaper, ibsw_mgmt_reap_work);

/**
 * ibsw_mgmt_reap() - unregister and free the detached management HCAs
 *
 * Context: process, without RTNL.
 */
void ibsw_mgmt_reap(void)
{
	struct ibsw_mgmt *m, *tmp;
	LIST_HEAD(list);

	spin_lock(&ibsw_mgmt_dead_lock);
	list_splice_init(&ibsw_mgmt_dead, &list);
	spin_unlock(&ibsw_mgmt_dead_lock);
	list_for_each_entry_safe(m, tmp, &list, reap) {
		list_del(&m->reap);
		ibsw_mgmt_destroy(m);
	}
	if (!list_empty(&ibsw_mgmt_dead))
		ibsw_mgmt_reap();
}

/**
 * ibsw_mgmt_default_guid() - the GUID of a management HCA on a port
 * @sw: the switch
 * @num: the port
 *
 * Return: ibsw's GUID prefix, the switch's id and the port.
 */
u64 ibsw_mgmt_default_guid(const struct ibsw_switch *sw, unsigned int num)
{
	return IBSW_GUID_BASE | (u64)(sw->id + 1) << 16 | 0x100 | num;
}

/**
 * ibsw_mgmt_attach() - cable a registered management HCA to a port
 * @port: the port, unconnected
 * @m: from ibsw_mgmt_create()
 *
 * Context: RTNL.
 */
void ibsw_mgmt_attach(struct ibsw_port *port, struct ibsw_mgmt *m)
{
	ASSERT_RTNL();
	ibsw_engine_open(port->out, NULL, NULL);
	ibsw_engine_open(port->hca, NULL, port->in);
	rcu_assign_pointer(port->upstream, port->hca);
	rcu_assign_pointer(port->mgmt, m);
	rcu_assign_pointer(m->port, port);
	WRITE_ONCE(port->kind, IBSW_PORT_KIND_MGMT);
	ibsw_mgmt_link(m, true);
	ibsw_sma_link_change(port);
}

/**
 * ibsw_mgmt_detach() - take a management HCA off its port
 * @port: a port with a management HCA
 *
 * Its ib_device goes on the list that ibsw_mgmt_reap() unregisters, which
 * a work item runs (or the module's exit).
 *
 * Context: RTNL.
 */
void ibsw_mgmt_detach(struct ibsw_port *port)
{
	struct ibsw_mgmt *m = rtnl_dereference(port->mgmt);

	ASSERT_RTNL();
	WRITE_ONCE(port->kind, IBSW_PORT_KIND_NONE);
	RCU_INIT_POINTER(port->upstream, NULL);
	ibsw_lid_release(port);
	ibsw_engine_close(port->hca);
	ibsw_engine_close(port->out);
	RCU_INIT_POINTER(port->mgmt, NULL);
	RCU_INIT_POINTER(m->port, NULL);
	ibsw_mgmt_link(m, false);
	ibsw_sma_link_change(port);
	/* Its tx work may still look at the port: not once RCU says so */
	synchronize_net();
	spin_lock(&ibsw_mgmt_dead_lock);
	list_add_tail(&m->reap, &ibsw_mgmt_dead);
	spin_unlock(&ibsw_mgmt_dead_lock);
	schedule_work(&ibsw_mgmt_reaper);
}

/**
 * ibsw_mgmt_lid_work() - the SM gave the HCA's port a LID
 * @work: the HCA's lid_work
 *
 * Its switch port takes it as a host port takes its CA's (the addresses
 * mapped to the old LID follow), so hosts reach the HCA by address.
 *
 * Context: process; takes RTNL.
 */
void ibsw_mgmt_lid_work(struct work_struct *work)
{
	struct ibsw_mgmt *m = container_of(work, struct ibsw_mgmt, lid_work);
	struct ibsw_port *port;
	unsigned long flags;
	u16 lid;

	rtnl_lock();
	port = rtnl_dereference(m->port);
	spin_lock_irqsave(&m->lock, flags);
	lid = m->lid;
	spin_unlock_irqrestore(&m->lock, flags);
	if (port && lid && lid != port->lid && ibsw_host_set_lid(port, lid))
		pr_warn_ratelimited("ibsw: %s: cannot take LID %u for its switch port\n",
				    dev_name(&m->ibdev.dev), lid);
	rtnl_unlock();
}

/**
 * ibsw_mgmt_reap_wait() - wait for the HCAs detached so far to be gone
 *
 * Context: process, without RTNL.
 */
void ibsw_mgmt_reap_wait(void)
{
	flush_work(&ibsw_mgmt_reaper);
	ibsw_mgmt_reap();
}

/**
 * ibsw_mgmt_create() - register a management HCA
 * @name: ib_device name (may hold %d)
 * @guid: its node, system image and port GUID
 * @desc: its NodeDescription
 * @net: its management node's namespace (a reference held until it returns)
 *
 * Its port is down (PortState Down, PhysState Polling) until it is
 * cabled to a switch port.
 *
 * ib_alloc_device() puts a device in init_net. In rdma's exclusive netns
 * mode only its own namespace sees and opens it, and a management HCA
 * cannot move later ("rdma dev set DEV netns" needs
 * disassociate_ucontext): it is bound to @net before it is registered,
 * as rxe's devices are to their netdev's namespace. For a device still in
 * init_net, rdma_dev_access_netns() is true for another namespace only in
 * the shared mode, where it stays in init_net and every namespace sees
 * it. When @net is dismantled, ib_core moves the device back to init_net
 * (its pernet exit), so no reference is kept.
 *
 * Context: process, may sleep.
 * Return: the device, or an ERR_PTR().
 */
struct ibsw_mgmt *ibsw_mgmt_create(const char *name, u64 guid,
				   const char *desc, struct net *net)
{
	struct ibsw_mgmt *m;
	int err;

	m = ib_alloc_device(ibsw_mgmt, ibdev);
	if (!m)
		return ERR_PTR(-ENOMEM);
	if (ibsw_stats_alloc(&m->stats)) {
		ib_dealloc_device(&m->ibdev);
		return ERR_PTR(-ENOMEM);
	}
	spin_lock_init(&m->lock);
	skb_queue_head_init(&m->txq);
	INIT_WORK(&m->tx_work, ibsw_mgmt_tx_work);
	INIT_WORK(&m->lid_work, ibsw_mgmt_lid_work);
	INIT_LIST_HEAD(&m->reap);
	m->guid = guid;
	m->gid_prefix = 0xfe80000000000000ULL;
	m->port_state = IB_PORT_DOWN;
	m->phys_state = IB_PORT_PHYS_STATE_POLLING;
	m->cap_mask = IB_PORT_CM_SUP | IB_PORT_CLIENT_REG_SUP;
	m->subnet_timeout = 18;

	m->ibdev.node_type = RDMA_NODE_IB_CA;
	m->ibdev.node_guid = cpu_to_be64(guid);
	m->ibdev.phys_port_cnt = 1;
	m->ibdev.num_comp_vectors = 1;
	m->ibdev.local_dma_lkey = 0;
	strscpy(m->ibdev.node_desc, desc, sizeof(m->ibdev.node_desc));
	ib_set_device_ops(&m->ibdev, &ibsw_mgmt_ops);
	if (!rdma_dev_access_netns(&m->ibdev, net))
		write_pnet(&m->ibdev.coredev.rdma_net, net);

	err = ib_register_device(&m->ibdev, name, NULL);
	if (err) {
		ibsw_stats_free(&m->stats);
		ib_dealloc_device(&m->ibdev);
		return ERR_PTR(err);
	}
	return m;
}

/**
 * ibsw_mgmt_destroy() - unregister a management HCA and free it
 * @m: the device
 *
 * ib_core closes its users (the MAD layer, umad's files) first.
 *
 * Context: process, may sleep.
 */
void ibsw_mgmt_destroy(struct ibsw_mgmt *m)
{
	ib_unregister_device(&m->ibdev);
	cancel_work_sync(&m->tx_work);
	cancel_work_sync(&m->lid_work);
	skb_queue_purge(&m->txq);
	ibsw_stats_free(&m->stats);
	ib_dealloc_device(&m->ibdev);
}

/**
 * ibsw_mgmt_set_lid() - give the HCA's port a LID, as an SM would
 * @m: the device
 * @lid: the LID its switch port holds
 *
 * Context: RTNL (the switch port's LID changes with it).
 */
void ibsw_mgmt_set_lid(struct ibsw_mgmt *m, u16 lid)
{
	unsigned long flags;

	spin_lock_irqsave(&m->lock, flags);
	m->lid = lid;
	spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * ibsw_mgmt_link() - the port's cable is plugged in or pulled
 * @m: the device
 * @up: the peer is there (PhysState LinkUp, PortState Init) or not
 *
 * Context: process or BH.
 */
void ibsw_mgmt_link(struct ibsw_mgmt *m, bool up)
{
	unsigned long flags;
	struct ib_event ev = { .device = &m->ibdev, .element.port_num = 1 };

	spin_lock_irqsave(&m->lock, flags);
	m->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
			     IB_PORT_PHYS_STATE_POLLING;
	m->port_state = up ? IB_PORT_INIT : IB_PORT_DOWN;
	spin_unlock_irqrestore(&m->lock, flags);
	if (!up) {
		ev.event = IB_EVENT_PORT_ERR;
		ib_dispatch_event(&ev);
	}
}
