// SPDX-License-Identifier: GPL-2.0
/*
 * Switches and their ports: creation and destruction, forwarding tables,
 * port configuration, links between switch ports, and the snapshots the
 * netlink family replies with. All of it runs under RTNL.
 *
 * Lifetimes: a switch is a device of class ibsw; each port a kobject
 * below it (ports/N), freed by its own release; the switch is freed by the
 * device release, which comes after all its ports' (a child kobject holds
 * its parent). Before the last references go, a destroyed switch has
 * closed every engine and waited for an RCU grace period, so the datapath
 * no longer sees it.
 */

#include <kunit/visibility.h>
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "engine.h"
#include "mgmt_hca.h"
#include "remote.h"
#include "sma.h"

/*
 * The fabric belongs to the initial network namespace, as the netlink
 * family does: a host's namespace (its own sysfs mount) does not see it.
 */
static const void *
ibsw_class_namespace(IBSW_CLASS_DEV_CONST struct device *dev)
{
	return &init_net;
}

/*
 * class_unregister() drops the class's kobject, whose release (delayed by
 * CONFIG_DEBUG_KOBJECT_RELEASE, or held by a sysfs reader) reads this
 * struct, module data: it is counted like our other objects, and module
 * exit waits for it.
 */
static void ibsw_class_release(IBSW_CLASS_CONST struct class *class)
{
	ibsw_obj_released();
}

struct class ibsw_class = {
	.name = "ibsw",
	.ns_type = &net_ns_type_operations,
	.namespace = ibsw_class_namespace,
	.class_release = ibsw_class_release,
};

static const char * const ibsw_kind_names[] = {
	[IBSW_PORT_KIND_NONE] = "unconnected",
	[IBSW_PORT_KIND_HOST] = "a host port",
	[IBSW_PORT_KIND_LINK] = "linked",
	[IBSW_PORT_KIND_MGMT] = "a management HCA's",
	[IBSW_PORT_KIND_REMOTE] = "remote",
};

static bool ibsw_name_valid(const char *name)
{
	size_t len = strnlen(name, IBSW_NAME_LEN + 1);
	size_t i;

	if (!len || len > IBSW_NAME_LEN)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("_.:-", name[i]))
			return false;
	return true;
}

static struct ibsw_sl2vl_tab *ibsw_sl2vl_tab_alloc(unsigned int nr)
{
	struct ibsw_sl2vl_tab *tab;

	tab = kzalloc(struct_size(tab, map, nr), GFP_KERNEL);
	if (tab)
		tab->nr = nr;
	return tab;
}

static void ibsw_sl2vl_tab_default(struct ibsw_sl2vl_tab *tab,
				   unsigned int nr_vls)
{
	unsigned int i;

	for (i = 0; i < tab->nr; i++)
		ibsw_sl2vl_default(&tab->map[i], nr_vls);
}

/* Called by the port kobject's release */
void ibsw_port_release(struct ibsw_port *port)
{
	ibsw_engine_free(port->out);
	ibsw_engine_free(port->hca);
	ibsw_stats_free(&port->stats);
	kfree(rcu_dereference_protected(port->sl2vl, 1));
	kfree(port);
	ibsw_obj_released();
}

/*
 * Set the rates a port's engines send at from its link's rate: the output
 * at its clock offset, the HCA (of a host port) at its injection rate.
 * Only the sending side of a host is held back: what the switch sends to
 * it is taken at the link's rate, as the HCA always has credit (design
 * §4.1). Also converts the time counters counted so far.
 */
static void ibsw_port_set_pace(struct ibsw_port *port)
{
	u64 rate = port->rate_bps;

	ibsw_engine_set_rate(port->out, rate,
			     ibsw_rate_ppm(rate, port->clock_ppm));
	ibsw_engine_set_rate(port->hca, rate,
			     ibsw_hca_rate(rate, port->hca_bps));
}

/* Context: RTNL */
void ibsw_port_set_rate(struct ibsw_port *port, enum ibsw_link_width width,
			enum ibsw_link_speed speed)
{
	port->width = width;
	port->speed = speed;
	WRITE_ONCE(port->rate_bps, ibsw_rate_bps(width, speed));
	ibsw_port_set_pace(port);
}

/* The port's clock offset from the fabric's clock seed and spread */
static void ibsw_port_set_clock(struct ibsw_port *port)
{
	WRITE_ONCE(port->clock_ppm,
		   ibsw_clock_ppm(ibsw_fabric.clock_seed, ibsw_fabric.clock_ppm,
				  port->sw->name, port->num));
}

static struct ibsw_port *ibsw_port_alloc(struct ibsw_switch *sw,
					 unsigned int num)
{
	const unsigned int max_len = ibsw_wire_len_max(IBSW_IB_MTU_MAX);
	struct ibsw_sl2vl_tab *tab;
	struct ibsw_port *port;
	unsigned int v;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return NULL;
	/* From here on kobject_put() frees whatever was allocated */
	kobject_init(&port->kobj, &ibsw_port_ktype);
	ibsw_obj_made();
	port->sw = sw;
	port->num = num;
	port->kind = IBSW_PORT_KIND_NONE;
	port->nr_vls = IBSW_DEFAULT_NR_VLS;
	port->hoq_life = IBSW_HOQ_LIFE_DEFAULT;
	ibsw_vlarb_table_default(&port->vlarb, port->nr_vls);
	ibsw_vlarb_table_default(&port->hca_vlarb, port->nr_vls);
	for (v = 0; v < IBSW_NR_DATA_VLS; v++)
		ibsw_credit_init(&port->in[v], IBSW_DEFAULT_CREDITS, max_len);

	tab = ibsw_sl2vl_tab_alloc(sw->nr_ports + 1);
	if (!tab)
		goto err;
	ibsw_sl2vl_tab_default(tab, port->nr_vls);
	RCU_INIT_POINTER(port->sl2vl, tab);
	if (ibsw_stats_alloc(&port->stats))
		goto err;
	port->out = ibsw_engine_alloc(port, false);
	port->hca = ibsw_engine_alloc(port, true);
	if (!port->out || !port->hca)
		goto err;
	ibsw_port_set_clock(port);
	ibsw_port_set_rate(port, IBSW_DEFAULT_WIDTH, IBSW_DEFAULT_SPEED);
	ibsw_engine_set_vlarb(port->out, &port->vlarb);
	ibsw_engine_set_vlarb(port->hca, &port->hca_vlarb);
	return port;

err:
	kobject_put(&port->kobj);
	return NULL;
}

static void ibsw_switch_release(struct device *dev)
{
	struct ibsw_switch *sw = container_of(dev, struct ibsw_switch, dev);

	kfree(sw->agent);
	kfree(sw->sma);
	kfree(sw);
	ibsw_obj_released();
}

struct ibsw_switch *ibsw_switch_find(const char *name)
{
	struct ibsw_switch *sw;
	unsigned long id;

	ASSERT_RTNL();
	xa_for_each(&ibsw_fabric.switches, id, sw)
		if (!strcmp(sw->name, name))
			return sw;
	return NULL;
}

/**
 * ibsw_switch_next() - iterate over the switches in id order
 * @id: the lowest id wanted
 *
 * Context: RTNL.
 * Return: the switch with the lowest id at or above @id, or NULL.
 */
struct ibsw_switch *ibsw_switch_next(u32 id)
{
	unsigned long index = id;

	ASSERT_RTNL();
	return xa_find(&ibsw_fabric.switches, &index, ULONG_MAX, XA_PRESENT);
}

void ibsw_switch_info(const struct ibsw_switch *sw,
		      struct ibsw_switch_info *info)
{
	const struct ibsw_lft *lft = rtnl_dereference(sw->lft);

	memset(info, 0, sizeof(*info));
	info->id = sw->id;
	strscpy(info->name, sw->name, sizeof(info->name));
	info->nr_ports = sw->nr_ports;
	info->lft_top = lft ? lft->top : 0;
}

struct ibsw_switch *ibsw_switch_create(const char *name, unsigned int nr_ports,
				       struct netlink_ext_ack *extack)
{
	struct ibsw_switch *sw;
	unsigned int i;
	int err;

	ASSERT_RTNL();
	if (!ibsw_name_valid(name)) {
		NL_SET_ERR_MSG_FMT(extack,
				   "invalid switch name \"%s\": 1 to %u of A-Z a-z 0-9 _ . : -",
				   name, IBSW_NAME_LEN);
		return ERR_PTR(-EINVAL);
	}
	if (nr_ports < 1 || nr_ports > IBSW_MAX_PORTS) {
		NL_SET_ERR_MSG_FMT(extack, "%u ports: want 1 to %u", nr_ports,
				   IBSW_MAX_PORTS);
		return ERR_PTR(-EINVAL);
	}
	if (ibsw_switch_find(name)) {
		NL_SET_ERR_MSG_FMT(extack, "a switch named %s exists", name);
		return ERR_PTR(-EEXIST);
	}

	sw = kzalloc(struct_size(sw, ports, nr_ports + 1), GFP_KERNEL);
	if (!sw)
		return ERR_PTR(-ENOMEM);
	sw->id = ibsw_fabric.next_id;
	strscpy(sw->name, name, sizeof(sw->name));
	sw->nr_ports = nr_ports;
	ibsw_cc_switch_init(sw);
	for (i = 1; i <= nr_ports; i++) {
		sw->ports[i] = ibsw_port_alloc(sw, i);
		if (!sw->ports[i]) {
			err = -ENOMEM;
			goto err_ports;
		}
	}

	err = xa_insert(&ibsw_fabric.switches, sw->id, sw, GFP_KERNEL);
	if (err)
		goto err_ports;

	device_initialize(&sw->dev);
	ibsw_obj_made();
	sw->dev.class = &ibsw_class;
	sw->dev.groups = ibsw_switch_groups;
	sw->dev.release = ibsw_switch_release;
	err = dev_set_name(&sw->dev, "%s", name);
	if (err)
		goto err_dev;
	err = device_add(&sw->dev);
	if (err)
		goto err_dev;
	err = ibsw_sysfs_ports_add(sw);
	if (err)
		goto err_sysfs;

	ibsw_fabric.next_id++;
	ibsw_nl_notify_switch(sw, IBSW_CMD_SWITCH_NEW_NTF);
	return sw;

err_sysfs:
	ibsw_sysfs_ports_del(sw);
	device_del(&sw->dev);
err_dev:
	xa_erase(&ibsw_fabric.switches, sw->id);
	for (i = 1; i <= nr_ports; i++)
		kobject_put(&sw->ports[i]->kobj);
	NL_SET_ERR_MSG_FMT(extack, "cannot create switch %s: %d", name, err);
	put_device(&sw->dev);
	return ERR_PTR(err);

err_ports:
	while (--i)
		kobject_put(&sw->ports[i]->kobj);
	kfree(sw);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_switch_create);

/* Undo a link; both ends become unconnected and discard what they hold */
static void ibsw_link_disconnect(struct ibsw_port *a, struct ibsw_port *b)
{
	WRITE_ONCE(a->kind, IBSW_PORT_KIND_NONE);
	WRITE_ONCE(b->kind, IBSW_PORT_KIND_NONE);
	RCU_INIT_POINTER(a->peer, NULL);
	RCU_INIT_POINTER(b->peer, NULL);
	RCU_INIT_POINTER(a->upstream, NULL);
	RCU_INIT_POINTER(b->upstream, NULL);
	ibsw_engine_close(a->out);
	ibsw_engine_close(b->out);
}

void ibsw_switch_destroy(struct ibsw_switch *sw)
{
	LIST_HEAD(dev_kill);
	struct ibsw_port *port, *peer;
	unsigned int i;

	ASSERT_RTNL();
	for (i = 1; i <= sw->nr_ports; i++) {
		port = sw->ports[i];
		switch (port->kind) {
		case IBSW_PORT_KIND_HOST:
			ibsw_host_detach(port, &dev_kill);
			break;
		case IBSW_PORT_KIND_LINK:
			peer = rtnl_dereference(port->peer);
			ibsw_link_disconnect(port, peer);
			if (peer->sw != sw)
				ibsw_notify_port(peer);
			break;
		case IBSW_PORT_KIND_MGMT:
			ibsw_mgmt_detach(port);
			break;
		case IBSW_PORT_KIND_REMOTE:
			ibsw_remote_detach(port);
			break;
		default:
			break;
		}
	}
	unregister_netdevice_many(&dev_kill);

	ibsw_nl_notify_switch(sw, IBSW_CMD_SWITCH_DEL_NTF);
	xa_erase(&ibsw_fabric.switches, sw->id);
	ibsw_lft_replace(&sw->lft, NULL, true);
	/* Nothing in the datapath can reach the switch after this */
	synchronize_rcu();

	ibsw_sysfs_ports_del(sw);
	for (i = 1; i <= sw->nr_ports; i++)
		kobject_put(&sw->ports[i]->kobj);
	device_unregister(&sw->dev);
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_switch_destroy);

/**
 * ibsw_switch_destroy_all() - destroy every switch
 *
 * Context: RTNL.
 */
void ibsw_switch_destroy_all(void)
{
	struct ibsw_switch *sw;
	unsigned long id;

	xa_for_each(&ibsw_fabric.switches, id, sw)
		ibsw_switch_destroy(sw);
}

/**
 * ibsw_fabric_fold_wait() - set every port's rates again, converting the
 *	time its counters counted so far (PortXmitWait, PortXmitTimeCong,
 *	xmit-late)
 *
 * Called before the time scale changes, and after clock offsets change.
 *
 * Context: RTNL.
 */
void ibsw_fabric_fold_wait(void)
{
	struct ibsw_switch *sw;
	unsigned long id;
	unsigned int i;

	xa_for_each(&ibsw_fabric.switches, id, sw)
		for (i = 1; i <= sw->nr_ports; i++)
			ibsw_port_set_pace(sw->ports[i]);
}

/**
 * ibsw_fabric_reclock() - give every port the clock offset the fabric's
 *	clock seed and spread give it now
 *
 * Context: RTNL, after either changed.
 */
void ibsw_fabric_reclock(void)
{
	struct ibsw_switch *sw;
	unsigned long id;
	unsigned int i;

	xa_for_each(&ibsw_fabric.switches, id, sw)
		for (i = 1; i <= sw->nr_ports; i++)
			ibsw_port_set_clock(sw->ports[i]);
	/* Every port's engines paced again, at the new offsets */
	ibsw_fabric_fold_wait();
}

/**
 * ibsw_fabric_rescale() - let every engine follow a new time scale
 *
 * Context: RTNL, after the time scale changed.
 */
void ibsw_fabric_rescale(void)
{
	struct ibsw_switch *sw;
	unsigned long id;
	unsigned int i;

	xa_for_each(&ibsw_fabric.switches, id, sw)
		for (i = 1; i <= sw->nr_ports; i++) {
			ibsw_engine_rescale(sw->ports[i]->out);
			ibsw_engine_rescale(sw->ports[i]->hca);
		}
}

int ibsw_switch_set_lft(struct ibsw_switch *sw, const u8 *ports,
			unsigned int len, struct netlink_ext_ack *extack)
{
	struct ibsw_lft *lft = NULL;
	unsigned int i;

	ASSERT_RTNL();
	if (len > IBSW_LID_UNICAST_MAX + 1) {
		NL_SET_ERR_MSG_FMT(extack,
				   "forwarding table of %u entries: at most %u",
				   len, IBSW_LID_UNICAST_MAX + 1);
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (ports[i] != IBSW_LFT_NO_ROUTE && ports[i] > sw->nr_ports) {
			NL_SET_ERR_MSG_FMT(extack,
					   "forwarding table: LID %u to port %u, but %s has %u ports",
					   i, ports[i], sw->name, sw->nr_ports);
			return -EINVAL;
		}
	}
	if (len) {
		lft = ibsw_lft_alloc(len - 1, NULL);
		if (IS_ERR(lft))
			return PTR_ERR(lft);
		memcpy(lft->port, ports, len);
	}
	ibsw_switch_publish_lft(sw, lft);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_switch_set_lft);

/**
 * ibsw_switch_publish_lft() - replace a switch's forwarding table
 * @sw: the switch
 * @lft: from ibsw_lft_alloc(), every entry a port of @sw or none; or NULL
 *
 * Context: RTNL.
 */
void ibsw_switch_publish_lft(struct ibsw_switch *sw, struct ibsw_lft *lft)
{
	ASSERT_RTNL();
	ibsw_lft_replace(&sw->lft, lft, lockdep_rtnl_is_held());
	ibsw_nl_notify_switch(sw, IBSW_CMD_SWITCH_CHANGE_NTF);
}

unsigned int ibsw_switch_get_lft(const struct ibsw_switch *sw, u8 *buf,
				 unsigned int size)
{
	const struct ibsw_lft *lft = rtnl_dereference(sw->lft);
	unsigned int len;

	if (!lft)
		return 0;
	len = lft->top + 1;
	memcpy(buf, lft->port, min(len, size));
	return len;
}

static struct ibsw_port *ibsw_port_get(const struct ibsw_switch *sw,
				       unsigned int num,
				       struct netlink_ext_ack *extack)
{
	if (num < 1 || num > sw->nr_ports) {
		NL_SET_ERR_MSG_FMT(extack, "port %u: %s has ports 1 to %u",
				   num, sw->name, sw->nr_ports);
		return NULL;
	}
	return sw->ports[num];
}

/*
 * Port @num of @sw, unconnected, for a new cable; else an error pointer:
 * -EINVAL (no such port) or -EBUSY (connected), the reason in @extack.
 */
static struct ibsw_port *ibsw_port_unconnected(const struct ibsw_switch *sw,
					       unsigned int num,
					       struct netlink_ext_ack *extack)
{
	struct ibsw_port *port = ibsw_port_get(sw, num, extack);

	if (!port)
		return ERR_PTR(-EINVAL);
	if (port->kind != IBSW_PORT_KIND_NONE) {
		NL_SET_ERR_MSG_FMT(extack, "port %u of %s is %s", num, sw->name,
				   ibsw_kind_names[port->kind]);
		return ERR_PTR(-EBUSY);
	}
	return port;
}

/*
 * Port @num of @sw if it is cabled as @kind, to uncable; else an error
 * pointer: -EINVAL (no such port) or -ENOTCONN (another kind).
 */
static struct ibsw_port *ibsw_port_cabled(const struct ibsw_switch *sw,
					  unsigned int num,
					  enum ibsw_port_kind kind,
					  struct netlink_ext_ack *extack)
{
	static const char * const not_kind[] = {
		[IBSW_PORT_KIND_HOST] = "not a host port",
		[IBSW_PORT_KIND_LINK] = "not linked",
		[IBSW_PORT_KIND_MGMT] = "not a management HCA's",
		[IBSW_PORT_KIND_REMOTE] = "not remote",
	};
	struct ibsw_port *port = ibsw_port_get(sw, num, extack);

	if (!port)
		return ERR_PTR(-EINVAL);
	if (port->kind != kind) {
		NL_SET_ERR_MSG_FMT(extack, "port %u of %s is %s, %s", num,
				   sw->name, ibsw_kind_names[port->kind],
				   not_kind[kind]);
		return ERR_PTR(-ENOTCONN);
	}
	return port;
}

/* The arbitration table a request leaves the port with */
static void ibsw_port_cfg_vlarb(const struct ibsw_port *port,
				const struct ibsw_port_cfg *cfg,
				struct ibsw_vlarb_table *t)
{
	if (cfg->set & IBSW_PORT_CFG_NR_VLS && cfg->nr_vls != port->nr_vls)
		ibsw_vlarb_table_default(t, cfg->nr_vls);
	else
		*t = port->vlarb;
	if (cfg->set & IBSW_PORT_CFG_VLARB_HIGH) {
		memcpy(t->high, cfg->vlarb.high, sizeof(t->high));
		t->nr_high = cfg->vlarb.nr_high;
	}
	if (cfg->set & IBSW_PORT_CFG_VLARB_LOW) {
		memcpy(t->low, cfg->vlarb.low, sizeof(t->low));
		t->nr_low = cfg->vlarb.nr_low;
	}
	if (cfg->set & IBSW_PORT_CFG_VLARB_LIMIT)
		t->high_limit = cfg->vlarb.high_limit;
}

/*
 * Check a request against a port that is, or is about to be, of @kind.
 * Nothing is changed.
 */
static int ibsw_port_cfg_check(const struct ibsw_port *port,
			       const struct ibsw_port_cfg *cfg,
			       enum ibsw_port_kind kind,
			       struct netlink_ext_ack *extack)
{
	const unsigned int min = ibsw_wire_credits(ibsw_wire_len_max(IBSW_IB_MTU_MAX));
	const struct ibsw_switch *sw = port->sw;
	struct ibsw_vlarb_table *t;
	struct ibsw_port *other;
	unsigned int i, sl;
	unsigned long starved;
	int err;

	if (cfg->set & IBSW_PORT_CFG_WIDTH && cfg->width > IBSW_LINK_WIDTH_MAX) {
		NL_SET_ERR_MSG_FMT(extack, "link width %u unknown", cfg->width);
		return -EINVAL;
	}
	if (cfg->set & IBSW_PORT_CFG_SPEED && cfg->speed > IBSW_LINK_SPEED_MAX) {
		NL_SET_ERR_MSG_FMT(extack, "link speed %u unknown", cfg->speed);
		return -EINVAL;
	}
	if (cfg->set & IBSW_PORT_CFG_NR_VLS &&
	    (cfg->nr_vls < 1 || cfg->nr_vls > IBSW_NR_DATA_VLS)) {
		NL_SET_ERR_MSG_FMT(extack, "%u VLs: want 1 to %u", cfg->nr_vls,
				   IBSW_NR_DATA_VLS);
		return -EINVAL;
	}
	if (cfg->set & IBSW_PORT_CFG_LID && cfg->lid) {
		if (kind != IBSW_PORT_KIND_HOST) {
			NL_SET_ERR_MSG_FMT(extack,
					   "LID %u: port %u of %s is not a host port",
					   cfg->lid, port->num, sw->name);
			return -EINVAL;
		}
		if (cfg->lid > IBSW_LID_UNICAST_MAX) {
			NL_SET_ERR_MSG_FMT(extack,
					   "LID %u is not unicast (1 to %u)",
					   cfg->lid, IBSW_LID_UNICAST_MAX);
			return -EINVAL;
		}
		other = xa_load(&ibsw_fabric.lids, cfg->lid);
		if (other && other != port) {
			NL_SET_ERR_MSG_FMT(extack,
					   "LID %u is taken by port %u of %s",
					   cfg->lid, other->num, other->sw->name);
			return -EBUSY;
		}
	}
	if (cfg->set & IBSW_PORT_CFG_HCA_VLARB) {
		if (kind != IBSW_PORT_KIND_HOST) {
			NL_SET_ERR_MSG_FMT(extack,
					   "HCA arbitration table: port %u of %s is not a host port",
					   port->num, sw->name);
			return -EINVAL;
		}
		if (ibsw_vlarb_table_check(&cfg->hca_vlarb)) {
			NL_SET_ERR_MSG(extack,
				       "HCA arbitration table: more than 64 entries in a list, or a VL above 14");
			return -EINVAL;
		}
	}
	if (cfg->set & IBSW_PORT_CFG_HCA_RATE) {
		if (kind == IBSW_PORT_KIND_LINK) {
			NL_SET_ERR_MSG_FMT(extack,
					   "HCA rate: port %u of %s is a link, not a host port",
					   port->num, sw->name);
			return -EINVAL;
		}
		if (cfg->hca_bps > IBSW_RATE_BPS_MAX) {
			NL_SET_ERR_MSG_FMT(extack,
					   "HCA rate %llu bit/s: want at most %llu",
					   cfg->hca_bps, IBSW_RATE_BPS_MAX);
			return -EINVAL;
		}
	}
	if (cfg->set & IBSW_PORT_CFG_HOQ_LIFE &&
	    cfg->hoq_life > IBSW_HOQ_LIFE_MAX) {
		NL_SET_ERR_MSG_FMT(extack, "HOQLife %u: want 0 to %u",
				   cfg->hoq_life, IBSW_HOQ_LIFE_MAX);
		return -EINVAL;
	}
	if (cfg->buffer_set) {
		if (kind != IBSW_PORT_KIND_NONE) {
			NL_SET_ERR_MSG_FMT(extack,
					   "port %u of %s is %s: buffer sizes change only while unconnected",
					   port->num, sw->name,
					   ibsw_kind_names[kind]);
			return -EBUSY;
		}
		for (i = 0; i < 16; i++) {
			if (!(cfg->buffer_set & BIT(i)))
				continue;
			if (i >= IBSW_NR_DATA_VLS) {
				NL_SET_ERR_MSG_FMT(extack,
						   "buffer of VL %u: data VLs are 0 to %u",
						   i, IBSW_NR_DATA_VLS - 1);
				return -EINVAL;
			}
			if (cfg->buffer_credits[i] < min ||
			    cfg->buffer_credits[i] > IBSW_BUFFER_CREDITS_MAX) {
				NL_SET_ERR_MSG_FMT(extack,
						   "buffer of VL %u: %u credits, want %u (one largest packet) to %u",
						   i, cfg->buffer_credits[i], min,
						   IBSW_BUFFER_CREDITS_MAX);
				return -EINVAL;
			}
		}
	}
	if (cfg->set & (IBSW_PORT_CFG_VLARB_HIGH | IBSW_PORT_CFG_VLARB_LOW |
			IBSW_PORT_CFG_VLARB_LIMIT)) {
		t = kmalloc(sizeof(*t), GFP_KERNEL);
		if (!t)
			return -ENOMEM;
		ibsw_port_cfg_vlarb(port, cfg, t);
		err = ibsw_vlarb_table_check(t);
		starved = GENMASK(cfg->set & IBSW_PORT_CFG_NR_VLS ?
				  cfg->nr_vls - 1 : port->nr_vls - 1, 0) &
			  ~ibsw_vlarb_table_served(t);
		kfree(t);
		if (err) {
			NL_SET_ERR_MSG(extack,
				       "VL arbitration table: more than 64 entries in a list, or a VL above 14");
			return err;
		}
		if (cfg->set & (IBSW_PORT_CFG_VLARB_HIGH |
				IBSW_PORT_CFG_VLARB_LOW) &&
		    starved && !cfg->starve_ok) {
			NL_SET_ERR_MSG_FMT(extack,
					   "VL arbitration: VL %u of port %u has no weight: it would never send",
					   (unsigned int)__ffs(starved), port->num);
			return -EINVAL;
		}
	}
	for (i = 0; i < cfg->nr_sl2vl; i++) {
		const struct ibsw_port_sl2vl *s = &cfg->sl2vl[i];

		if (!s->all && s->in_port > sw->nr_ports) {
			NL_SET_ERR_MSG_FMT(extack,
					   "SL-to-VL table of input port %u: %s has ports 1 to %u",
					   s->in_port, sw->name, sw->nr_ports);
			return -EINVAL;
		}
		for (sl = 0; sl < IBSW_NR_SLS; sl++) {
			if (s->map.vl[sl] > IBSW_VL15) {
				NL_SET_ERR_MSG_FMT(extack,
						   "SL-to-VL: SL %u to VL %u, want 0 to 15",
						   sl, s->map.vl[sl]);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Resize an idle input buffer; stale packets may still hold credits */
static void ibsw_port_set_buffer(struct ibsw_port *port, unsigned int vl,
				 unsigned int size)
{
	struct ibsw_credit_buf *buf = &port->in[vl];
	int delta = (int)size - (int)buf->size;

	WRITE_ONCE(buf->size, size);
	atomic_add(delta, &buf->free);
}

/*
 * Apply a checked request. Changing nr_vls resets the port's VL
 * arbitration tables (its output's and its HCA's) and its SL-to-VL tables
 * to the defaults for the new count before the rest of the request
 * applies.
 */
static int ibsw_port_cfg_apply(struct ibsw_port *port,
			       const struct ibsw_port_cfg *cfg,
			       struct netlink_ext_ack *extack)
{
	bool new_vls = cfg->set & IBSW_PORT_CFG_NR_VLS &&
		       cfg->nr_vls != port->nr_vls;
	struct ibsw_sl2vl_tab *tab = NULL, *old;
	struct ibsw_vlarb_table *arb = NULL;
	struct net_device *dev;
	unsigned int i, j, sl;
	int err;

	if (new_vls || cfg->nr_sl2vl) {
		old = rtnl_dereference(port->sl2vl);
		tab = ibsw_sl2vl_tab_alloc(old->nr);
		if (!tab)
			return -ENOMEM;
		if (new_vls)
			ibsw_sl2vl_tab_default(tab, cfg->nr_vls);
		else
			memcpy(tab->map, old->map, sizeof(old->map[0]) * old->nr);
		for (i = 0; i < cfg->nr_sl2vl; i++) {
			const struct ibsw_port_sl2vl *s = &cfg->sl2vl[i];

			for (j = 0; j < tab->nr; j++) {
				if (!s->all && j != s->in_port)
					continue;
				for (sl = 0; sl < IBSW_NR_SLS; sl++)
					ibsw_sl2vl_set(&tab->map[j], sl,
						       s->map.vl[sl]);
			}
		}
	}
	/* [0] the output's table, [1] the HCA's */
	arb = kmalloc_array(2, sizeof(*arb), GFP_KERNEL);
	if (!arb) {
		err = -ENOMEM;
		goto err;
	}
	ibsw_port_cfg_vlarb(port, cfg, &arb[0]);
	if (cfg->set & IBSW_PORT_CFG_LID) {
		err = ibsw_lid_claim(port, cfg->lid, extack);
		if (err)
			goto err;
	}

	/* Nothing fails from here on */
	if (cfg->set & (IBSW_PORT_CFG_WIDTH | IBSW_PORT_CFG_SPEED))
		ibsw_port_set_rate(port,
				   cfg->set & IBSW_PORT_CFG_WIDTH ?
				   cfg->width : port->width,
				   cfg->set & IBSW_PORT_CFG_SPEED ?
				   cfg->speed : port->speed);
	if (cfg->set & IBSW_PORT_CFG_HCA_RATE) {
		WRITE_ONCE(port->hca_bps, cfg->hca_bps);
		ibsw_port_set_pace(port);
	}
	if (cfg->set & IBSW_PORT_CFG_HOQ_LIFE) {
		WRITE_ONCE(port->hoq_life, cfg->hoq_life);
		ibsw_engine_set_hoq_life(port->out, cfg->hoq_life);
	}
	if (new_vls) {
		WRITE_ONCE(port->nr_vls, cfg->nr_vls);
		ibsw_engine_trim(port->out, cfg->nr_vls);
		ibsw_engine_trim(port->hca, cfg->nr_vls);
		dev = rtnl_dereference(port->netdev);
		/*
		 * The SLs of the VLs gone map to others now, and their queues
		 * may have been stopped by a FIFO just emptied: restart every
		 * queue, and let a full FIFO stop its queues again.
		 */
		if (dev)
			netif_tx_wake_all_queues(dev);
		if (ibsw_sysfs_vls_update(port))
			pr_warn("%s port %u: cannot update sysfs VLs\n",
				port->sw->name, port->num);
	}
	if (new_vls || cfg->set & (IBSW_PORT_CFG_VLARB_HIGH |
				   IBSW_PORT_CFG_VLARB_LOW |
				   IBSW_PORT_CFG_VLARB_LIMIT)) {
		port->vlarb = arb[0];
		ibsw_engine_set_vlarb(port->out, &arb[0]);
	}
	if (new_vls || cfg->set & IBSW_PORT_CFG_HCA_VLARB) {
		if (cfg->set & IBSW_PORT_CFG_HCA_VLARB)
			arb[1] = cfg->hca_vlarb;
		else
			ibsw_vlarb_table_default(&arb[1], cfg->nr_vls);
		port->hca_vlarb = arb[1];
		ibsw_engine_set_vlarb(port->hca, &arb[1]);
	}
	for (i = 0; i < IBSW_NR_DATA_VLS; i++)
		if (cfg->buffer_set & BIT(i))
			ibsw_port_set_buffer(port, i, cfg->buffer_credits[i]);
	/* The congestion thresholds are relative to the buffer size */
	if (cfg->buffer_set)
		ibsw_cc_port_update(port);
	if (tab) {
		old = rcu_replace_pointer(port->sl2vl, tab,
					  lockdep_rtnl_is_held());
		kfree_rcu(old, rcu);
	}
	kfree(arb);
	return 0;

err:
	kfree(arb);
	kfree(tab);
	return err;
}

int ibsw_port_set(struct ibsw_switch *sw, unsigned int num,
		  const struct ibsw_port_cfg *cfg,
		  struct netlink_ext_ack *extack)
{
	struct ibsw_port *port, *peer = NULL;
	int err;

	ASSERT_RTNL();
	port = ibsw_port_get(sw, num, extack);
	if (!port)
		return -EINVAL;
	err = ibsw_port_cfg_check(port, cfg, port->kind, extack);
	if (err)
		return err;
	err = ibsw_port_cfg_apply(port, cfg, extack);
	if (err)
		return err;
	/* A link has one rate: set it at the other end too */
	if (port->kind == IBSW_PORT_KIND_LINK &&
	    cfg->set & (IBSW_PORT_CFG_WIDTH | IBSW_PORT_CFG_SPEED)) {
		peer = rtnl_dereference(port->peer);
		ibsw_port_set_rate(peer, port->width, port->speed);
	}
	ibsw_notify_port(port);
	if (peer && peer != port)
		ibsw_notify_port(peer);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_port_set);

int ibsw_link_create(struct ibsw_switch *sw, unsigned int num,
		     struct ibsw_switch *peer_sw, unsigned int peer_num,
		     const struct ibsw_port_cfg *cfg,
		     struct netlink_ext_ack *extack)
{
	struct ibsw_port *a, *b;
	int err;

	ASSERT_RTNL();
	a = ibsw_port_get(sw, num, extack);
	if (!a)
		return -EINVAL;
	b = ibsw_port_get(peer_sw, peer_num, extack);
	if (!b)
		return -EINVAL;
	if (a == b) {
		NL_SET_ERR_MSG_FMT(extack, "port %u of %s cannot link to itself",
				   num, sw->name);
		return -EINVAL;
	}
	if (a->kind != IBSW_PORT_KIND_NONE || b->kind != IBSW_PORT_KIND_NONE) {
		struct ibsw_port *p = a->kind != IBSW_PORT_KIND_NONE ? a : b;

		NL_SET_ERR_MSG_FMT(extack, "port %u of %s is %s", p->num,
				   p->sw->name, ibsw_kind_names[p->kind]);
		return -EBUSY;
	}
	err = ibsw_port_cfg_check(a, cfg, IBSW_PORT_KIND_NONE, extack);
	if (err)
		return err;
	err = ibsw_port_cfg_apply(a, cfg, extack);
	if (err)
		return err;
	/*
	 * Without a rate in the request the ends train to what both
	 * support: the narrower width and the slower speed.
	 */
	if (!(cfg->set & (IBSW_PORT_CFG_WIDTH | IBSW_PORT_CFG_SPEED)))
		ibsw_port_set_rate(a, min(a->width, b->width),
				   min(a->speed, b->speed));
	ibsw_port_set_rate(b, a->width, a->speed);

	rcu_assign_pointer(a->peer, b);
	rcu_assign_pointer(b->peer, a);
	ibsw_engine_open(a->out, b, b->in);
	ibsw_engine_open(b->out, a, a->in);
	rcu_assign_pointer(a->upstream, b->out);
	rcu_assign_pointer(b->upstream, a->out);
	WRITE_ONCE(a->kind, IBSW_PORT_KIND_LINK);
	WRITE_ONCE(b->kind, IBSW_PORT_KIND_LINK);
	ibsw_notify_port(a);
	ibsw_notify_port(b);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_link_create);

int ibsw_link_destroy(struct ibsw_switch *sw, unsigned int num,
		      struct netlink_ext_ack *extack)
{
	struct ibsw_port *a, *b;

	ASSERT_RTNL();
	a = ibsw_port_cabled(sw, num, IBSW_PORT_KIND_LINK, extack);
	if (IS_ERR(a))
		return PTR_ERR(a);
	b = rtnl_dereference(a->peer);
	ibsw_link_disconnect(a, b);
	ibsw_notify_port(a);
	ibsw_notify_port(b);
	return 0;
}

int ibsw_remote_create(struct ibsw_switch *sw, unsigned int num,
		       struct net_device *dev, u32 remote_id, const u8 *mac,
		       const struct ibsw_port_cfg *cfg,
		       struct netlink_ext_ack *extack)
{
	struct ibsw_port *port;
	int err;

	ASSERT_RTNL();
	port = ibsw_port_unconnected(sw, num, extack);
	if (IS_ERR(port))
		return PTR_ERR(port);
	err = ibsw_port_cfg_check(port, cfg, IBSW_PORT_KIND_NONE, extack);
	if (err)
		return err;
	err = ibsw_port_cfg_apply(port, cfg, extack);
	if (err)
		return err;
	err = ibsw_remote_attach(port, dev, remote_id, mac, extack);
	if (err)
		return err;
	ibsw_notify_port(port);
	return 0;
}

int ibsw_remote_destroy(struct ibsw_switch *sw, unsigned int num,
			struct netlink_ext_ack *extack)
{
	struct ibsw_port *port;

	ASSERT_RTNL();
	port = ibsw_port_cabled(sw, num, IBSW_PORT_KIND_REMOTE, extack);
	if (IS_ERR(port))
		return PTR_ERR(port);
	ibsw_remote_detach(port);
	ibsw_notify_port(port);
	return 0;
}

int ibsw_host_create(struct ibsw_switch *sw, unsigned int num,
		     const char *ifname, struct net *net, const u8 *mac,
		     const struct ibsw_port_cfg *cfg,
		     struct netlink_ext_ack *extack)
{
	struct net_device *dev;
	struct ibsw_port *port;
	int err;

	ASSERT_RTNL();
	port = ibsw_port_unconnected(sw, num, extack);
	if (IS_ERR(port))
		return PTR_ERR(port);
	err = ibsw_port_cfg_check(port, cfg, IBSW_PORT_KIND_HOST, extack);
	if (err)
		return err;
	dev = ibsw_host_netdev_new(port, ifname, net, mac, extack);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	err = ibsw_port_cfg_apply(port, cfg, extack);
	if (err) {
		unregister_netdevice(dev);
		return err;
	}
	ibsw_host_attach(port, dev);
	ibsw_notify_port(port);
	return 0;
}

int ibsw_host_destroy(struct ibsw_switch *sw, unsigned int num,
		      struct netlink_ext_ack *extack)
{
	struct ibsw_port *port;

	ASSERT_RTNL();
	port = ibsw_port_cabled(sw, num, IBSW_PORT_KIND_HOST, extack);
	if (IS_ERR(port))
		return PTR_ERR(port);
	ibsw_host_detach(port, NULL);
	ibsw_notify_port(port);
	return 0;
}

int ibsw_mgmt_port_create(struct ibsw_switch *sw, unsigned int num,
			  struct ibsw_mgmt *m, u16 lid,
			  struct netlink_ext_ack *extack)
{
	struct ibsw_port *port;
	int err;

	ASSERT_RTNL();
	port = ibsw_port_unconnected(sw, num, extack);
	if (IS_ERR(port))
		return PTR_ERR(port);
	if (lid) {
		err = ibsw_lid_claim(port, lid, extack);
		if (err)
			return err;
		ibsw_mgmt_set_lid(m, lid);
	}
	ibsw_mgmt_attach(port, m);
	ibsw_notify_port(port);
	return 0;
}

int ibsw_mgmt_port_destroy(struct ibsw_switch *sw, unsigned int num,
			   struct netlink_ext_ack *extack)
{
	struct ibsw_port *port;

	ASSERT_RTNL();
	port = ibsw_port_cabled(sw, num, IBSW_PORT_KIND_MGMT, extack);
	if (IS_ERR(port))
		return PTR_ERR(port);
	ibsw_mgmt_detach(port);
	ibsw_notify_port(port);
	return 0;
}

int ibsw_counters_clear(struct ibsw_switch *sw, unsigned int num,
			struct netlink_ext_ack *extack)
{
	unsigned int i, first = num, last = num;
	int err;

	ASSERT_RTNL();
	if (!num) {
		first = 1;
		last = sw->nr_ports;
	} else if (!ibsw_port_get(sw, num, extack)) {
		return -EINVAL;
	}
	for (i = first; i <= last; i++) {
		err = ibsw_stats_clear(sw->ports[i]);
		if (err)
			return err;
		ibsw_notify_port(sw->ports[i]);
	}
	return 0;
}

int ibsw_port_info(const struct ibsw_switch *sw, unsigned int num,
		   struct ibsw_port_info *info)
{
	struct ibsw_counters *vl_cnt;
	struct ibsw_remote *rl;
	struct net_device *dev;
	struct ibsw_mgmt *m;
	struct ibsw_port *port;
	struct ibsw_port *peer;
	unsigned int v;

	ASSERT_RTNL();
	if (num < 1 || num > sw->nr_ports)
		return -EINVAL;
	port = sw->ports[num];
	vl_cnt = kmalloc_array(IBSW_NR_DATA_VLS, sizeof(*vl_cnt), GFP_KERNEL);
	if (!vl_cnt)
		return -ENOMEM;

	memset(info, 0, sizeof(*info));
	ibsw_switch_info(sw, &info->sw);
	info->port = num;
	info->kind = port->kind;
	info->width = port->width;
	info->speed = port->speed;
	info->rate_bps = port->rate_bps;
	info->hca_bps = ibsw_hca_rate(port->rate_bps, port->hca_bps);
	info->clock_ppm = port->clock_ppm;
	info->hoq_life = port->hoq_life;
	info->nr_vls = port->nr_vls;
	info->lid = port->lid;
	peer = rtnl_dereference(port->peer);
	if (peer) {
		ibsw_switch_info(peer->sw, &info->peer);
		info->peer_port = peer->num;
	}
	m = rtnl_dereference(port->mgmt);
	if (m) {
		strscpy(info->ibdev, dev_name(&m->ibdev.dev),
			sizeof(info->ibdev));
		info->guid = m->guid;
	}
	rl = rtnl_dereference(port->remote);
	if (rl) {
		strscpy(info->ifname, rl->dev->name, sizeof(info->ifname));
		info->ifindex = rl->dev->ifindex;
		info->remote_id = rl->link_id;
		info->remote_state = READ_ONCE(rl->state);
		ibsw_remote_read(rl, info->remote_cnt);
		ibsw_remote_loop(rl, info->remote_loop);
		spin_lock_bh(&rl->rx_lock);
		if (rl->peer_epoch && rl->peer_name[0]) {
			strscpy(info->peer.name, rl->peer_name,
				sizeof(info->peer.name));
			info->peer_port = rl->peer_port;
		}
		spin_unlock_bh(&rl->rx_lock);
	}
	dev = rtnl_dereference(port->netdev);
	if (dev) {
		strscpy(info->ifname, dev->name, sizeof(info->ifname));
		info->ifindex = dev->ifindex;
		info->net = dev_net(dev);
		ether_addr_copy(info->mac, dev->dev_addr);
	}
	ibsw_stats_read(port, &info->cnt, vl_cnt);
	for (v = 0; v < port->nr_vls; v++) {
		info->vl[v].buffer_credits = port->in[v].size;
		info->vl[v].buffer_free =
			max_t(int, atomic_read(&port->in[v].free), 0);
		info->vl[v].cnt = vl_cnt[v];
	}
	info->vlarb = port->vlarb;
	info->hca_vlarb = port->hca_vlarb;
	kfree(vl_cnt);
	return 0;
}

int ibsw_port_get_sl2vl(const struct ibsw_switch *sw, unsigned int num,
			unsigned int in_port, struct ibsw_sl2vl *map)
{
	const struct ibsw_sl2vl_tab *tab;
	const struct ibsw_port *port;

	ASSERT_RTNL();
	if (num < 1 || num > sw->nr_ports || in_port > sw->nr_ports)
		return -EINVAL;
	port = sw->ports[num];
	/* Input port 0 is the HCA side, which only a host port has */
	if (!in_port && port->kind != IBSW_PORT_KIND_HOST)
		return -ENOENT;
	tab = rtnl_dereference(port->sl2vl);
	*map = tab->map[in_port];
	return 0;
}
