// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric: the one per kernel. Its time scale and pacing switch, the
 * address table (destination address -> DLID, the SA's answer to a path
 * query), the switches by id and the host ports by LID. Module init and
 * exit of the core live here too.
 */

#include <kunit/visibility.h>
#include <linux/rtnetlink.h>
#include <linux/wait_bit.h>
#include <net/rtnetlink.h>

#include "ibsw.h"
#include "mgmt_hca.h"
#include "remote.h"
#include "sma.h"

struct ibsw_fabric ibsw_fabric = {
	.time_scale	= IBSW_DEFAULT_TIME_SCALE,
	.pacing		= true,
	.clock_seed	= 1,
	.clock_ppm	= IBSW_CLOCK_PPM_DEFAULT,
	.switches	= XARRAY_INIT(ibsw_fabric.switches, 0),
	.lids		= XARRAY_INIT(ibsw_fabric.lids, 0),
	.nr_objs	= ATOMIC_INIT(0),
};
EXPORT_SYMBOL_IF_KUNIT(ibsw_fabric);

/**
 * ibsw_notify_port() - announce a change of a port to the monitor group
 * @port: the port
 *
 * Context: RTNL.
 */
void ibsw_notify_port(struct ibsw_port *port)
{
	ibsw_nl_notify_port(port->sw, port->num);
}

void ibsw_fabric_info(struct ibsw_fabric_info *info)
{
	const struct ibsw_addr_table *addrs;
	struct ibsw_switch *sw;
	unsigned long id;

	ASSERT_RTNL();
	memset(info, 0, sizeof(*info));
	info->time_scale = ibsw_fabric.time_scale;
	info->pacing = ibsw_fabric.pacing;
	info->clock_seed = ibsw_fabric.clock_seed;
	info->clock_ppm = ibsw_fabric.clock_ppm;
	xa_for_each(&ibsw_fabric.switches, id, sw)
		info->nr_switches++;
	info->nr_hosts = ibsw_fabric.nr_hosts;
	addrs = rtnl_dereference(ibsw_fabric.addrs);
	info->nr_addrs = addrs ? addrs->nr : 0;
}

int ibsw_fabric_set(const struct ibsw_fabric_cfg *cfg,
		    struct netlink_ext_ack *extack)
{
	const u32 *time_scale = cfg->time_scale;

	ASSERT_RTNL();
	if (time_scale && !ibsw_time_scale_valid(*time_scale)) {
		NL_SET_ERR_MSG_FMT(extack, "time scale %u: want %u to %u",
				   *time_scale, IBSW_TIME_SCALE_MIN,
				   IBSW_TIME_SCALE_MAX);
		return -EINVAL;
	}
	if (cfg->clock_ppm && *cfg->clock_ppm > IBSW_CLOCK_PPM_MAX) {
		NL_SET_ERR_MSG_FMT(extack, "clock offset %u ppm: want 0 to %u",
				   *cfg->clock_ppm, IBSW_CLOCK_PPM_MAX);
		return -EINVAL;
	}
	if (time_scale && *time_scale != ibsw_fabric.time_scale) {
		/* PortXmitWait counted so far is converted at the old scale */
		ibsw_fabric_fold_wait();
		WRITE_ONCE(ibsw_fabric.time_scale, *time_scale);
		ibsw_fabric_rescale();
	}
	if (cfg->pacing)
		WRITE_ONCE(ibsw_fabric.pacing, *cfg->pacing);
	if (cfg->clock_seed || cfg->clock_ppm) {
		if (cfg->clock_seed)
			ibsw_fabric.clock_seed = *cfg->clock_seed;
		if (cfg->clock_ppm)
			ibsw_fabric.clock_ppm = *cfg->clock_ppm;
		ibsw_fabric_reclock();
	}
	ibsw_nl_notify_fabric();
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_fabric_set);

int ibsw_addr_set(const struct ibsw_addr *addrs, unsigned int nr,
		  struct netlink_ext_ack *extack)
{
	struct ibsw_addr_table *table;

	ASSERT_RTNL();
	table = ibsw_addr_table_build(addrs, nr);
	if (IS_ERR(table)) {
		switch (PTR_ERR(table)) {
		case -EINVAL:
			NL_SET_ERR_MSG(extack,
				       "address table: a LID is not unicast (1 to 0xbfff)");
			break;
		case -EEXIST:
			NL_SET_ERR_MSG(extack,
				       "address table: an address appears twice");
			break;
		default:
			NL_SET_ERR_MSG(extack, "address table: out of memory");
			break;
		}
		return PTR_ERR(table);
	}
	ibsw_addr_table_replace(&ibsw_fabric.addrs, table, lockdep_rtnl_is_held());
	ibsw_nl_notify_fabric();
	return 0;
}

bool ibsw_addr_get(unsigned int i, struct ibsw_addr *addr)
{
	const struct ibsw_addr_table *table;

	ASSERT_RTNL();
	table = rtnl_dereference(ibsw_fabric.addrs);
	if (!table || i >= table->nr)
		return false;
	*addr = table->entries[i];
	return true;
}

/**
 * ibsw_lid_claim() - give a host port a LID
 * @port: the port
 * @lid: unicast LID, or 0 to release the port's LID
 * @extack: for errors
 *
 * Context: RTNL.
 * Return: 0, -EBUSY if another port has @lid, -ENOMEM.
 */
int ibsw_lid_claim(struct ibsw_port *port, u16 lid,
		   struct netlink_ext_ack *extack)
{
	struct ibsw_port *other;
	int err;

	ASSERT_RTNL();
	if (lid == port->lid)
		return 0;
	if (lid) {
		err = xa_insert(&ibsw_fabric.lids, lid, port, GFP_KERNEL);
		if (err == -EBUSY) {
			other = xa_load(&ibsw_fabric.lids, lid);
			NL_SET_ERR_MSG_FMT(extack,
					   "LID %u is taken by port %u of %s",
					   lid, other->num, other->sw->name);
		}
		if (err)
			return err;
	}
	ibsw_lid_release(port);
	WRITE_ONCE(port->lid, lid);
	return 0;
}

/**
 * ibsw_lid_release() - take a host port's LID away
 * @port: the port
 *
 * Context: RTNL.
 */
void ibsw_lid_release(struct ibsw_port *port)
{
	ASSERT_RTNL();
	if (port->lid)
		xa_erase(&ibsw_fabric.lids, port->lid);
	WRITE_ONCE(port->lid, 0);
}

/**
 * ibsw_host_set_lid() - the SM gives a host port's CA another LID
 * @port: the host port
 * @lid: its new LID
 *
 * The addresses of the host follow it in the address table, so RDMA
 * traffic takes the SM's routes. The SM is the authority: a LID another
 * host port holds (the builder's numbering) is swapped with this port's,
 * addresses included, until the SM gets to that port too.
 *
 * Context: RTNL.
 * Return: 0, or an errno (the LID is not unicast, is taken while the port
 * has none to give in exchange, or out of memory).
 */
int ibsw_host_set_lid(struct ibsw_port *port, u16 lid)
{
	const struct ibsw_addr_table *old = rtnl_dereference(ibsw_fabric.addrs);
	unsigned int i, nr = old ? old->nr : 0;
	struct ibsw_addr_table *table;
	struct ibsw_port *other;
	struct ibsw_addr *addrs;
	u16 was = port->lid;
	int err;

	ASSERT_RTNL();
	if (lid < IBSW_LID_UNICAST_MIN || lid > IBSW_LID_UNICAST_MAX)
		return -EINVAL;
	if (lid == was)
		return 0;
	other = xa_load(&ibsw_fabric.lids, lid);
	if (other && !was)
		return -EBUSY;
	addrs = kmalloc_array(nr ?: 1, sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		addrs[i] = old->entries[i];
		if (was && addrs[i].lid == was)
			addrs[i].lid = lid;
		else if (other && addrs[i].lid == lid)
			addrs[i].lid = was;
	}
	table = ibsw_addr_table_build(addrs, nr);
	kfree(addrs);
	if (IS_ERR(table))
		return PTR_ERR(table);
	if (other) {
		/* Both LIDs stay taken: no allocation can fail */
		xa_store(&ibsw_fabric.lids, lid, port, GFP_KERNEL);
		xa_store(&ibsw_fabric.lids, was, other, GFP_KERNEL);
		WRITE_ONCE(port->lid, lid);
		WRITE_ONCE(other->lid, was);
	} else {
		err = ibsw_lid_claim(port, lid, NULL);
		if (err) {
			ibsw_addr_table_free(table);
			return err;
		}
	}
	ibsw_addr_table_replace(&ibsw_fabric.addrs, table, true);
	ibsw_nl_notify_fabric();
	ibsw_notify_port(port);
	if (other)
		ibsw_notify_port(other);
	return 0;
}

int ibsw_core_init(void)
{
	int err;

	skb_queue_head_init(&ibsw_fabric.sma_queue);
	INIT_WORK(&ibsw_fabric.sma_work, ibsw_sma_work);
	skb_queue_head_init(&ibsw_fabric.agent_queue);
	INIT_WORK(&ibsw_fabric.agent_work, ibsw_agent_work);
	ibsw_obj_made();
	err = class_register(&ibsw_class);
	if (err) {
		/* class_register() released what it made, but not through us */
		ibsw_obj_released();
		return err;
	}
	err = rtnl_link_register(&ibsw_link_ops);
	if (err)
		goto err_class;
	err = ibsw_remote_init();
	if (err)
		goto err_link;
	return 0;

err_link:
	rtnl_link_unregister(&ibsw_link_ops);
err_class:
	class_unregister(&ibsw_class);
	ibsw_objs_wait();
	return err;
}

void ibsw_core_exit(void)
{
	/*
	 * Deletes the host netdevs of every namespace, detaching them. The
	 * netlink family is gone already (main.c): none of it is announced.
	 */
	rtnl_link_unregister(&ibsw_link_ops);

	rtnl_lock();
	ibsw_switch_destroy_all();
	ibsw_addr_table_replace(&ibsw_fabric.addrs, NULL, true);
	rtnl_unlock();
	/* No remote link is left for a netdev's going to detach */
	ibsw_remote_exit();
	/* No switch is left to hand them an SMP or a GMP */
	cancel_work_sync(&ibsw_fabric.sma_work);
	skb_queue_purge(&ibsw_fabric.sma_queue);
	cancel_work_sync(&ibsw_fabric.agent_work);
	skb_queue_purge(&ibsw_fabric.agent_queue);
	ibsw_mgmt_reap_wait();

	class_unregister(&ibsw_class);
	/* Sysfs readers may still hold a switch, a port, a VL or the class */
	ibsw_objs_wait();
	xa_destroy(&ibsw_fabric.switches);
	xa_destroy(&ibsw_fabric.lids);
	rcu_barrier();
}
