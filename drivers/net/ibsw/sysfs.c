// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/ibsw: read-only, one value per file.
 *
 *   SW/{id,nr_ports}
 *   SW/ports/N/{kind,rate,width,speed,lid,peer,ifname}
 *   SW/ports/N/counters/<IBA PortCounters names>
 *   SW/ports/N/hw_counters/<ibsw's own drop counters>
 *   SW/ports/N/vls/V/{buffer_credits,buffer_free}
 *   SW/ports/N/vls/V/counters/<per-VL counters>
 *
 * Counter files are generated from ibsw_counter_names[]. Documented in
 * Documentation/ABI/testing/sysfs-class-ibsw.
 */

#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "ibsw.h"
#include "remote.h"

static ssize_t id_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  container_of(dev, struct ibsw_switch, dev)->id);
}
static DEVICE_ATTR_RO(id);

static ssize_t nr_ports_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  container_of(dev, struct ibsw_switch, dev)->nr_ports);
}
static DEVICE_ATTR_RO(nr_ports);

static struct attribute *ibsw_switch_attrs[] = {
	&dev_attr_id.attr,
	&dev_attr_nr_ports.attr,
	NULL
};

static const struct attribute_group ibsw_switch_group = {
	.attrs = ibsw_switch_attrs,
};

const struct attribute_group *ibsw_switch_groups[] = {
	&ibsw_switch_group,
	NULL
};

/* Ports */

static struct ibsw_port *ibsw_kobj_port(struct kobject *kobj)
{
	return container_of(kobj, struct ibsw_port, kobj);
}

static ssize_t kind_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	static const char * const names[] = {
		[IBSW_PORT_KIND_NONE] = "none",
		[IBSW_PORT_KIND_HOST] = "host",
		[IBSW_PORT_KIND_LINK] = "link",
		[IBSW_PORT_KIND_MGMT] = "mgmt",
		[IBSW_PORT_KIND_REMOTE] = "remote",
	};
	unsigned int kind = READ_ONCE(ibsw_kobj_port(kobj)->kind);

	return sysfs_emit(buf, "%s\n", kind < ARRAY_SIZE(names) ?
			  names[kind] : "unknown");
}

static ssize_t rate_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct ibsw_port *port = ibsw_kobj_port(kobj);
	enum ibsw_link_width width = READ_ONCE(port->width);
	enum ibsw_link_speed speed = READ_ONCE(port->speed);
	u64 rate = READ_ONCE(port->rate_bps);
	u32 rem;
	u64 gb;

	/* As /sys/class/infiniband, but the data rate: "32 Gb/sec (4X QDR)" */
	gb = div_u64_rem(rate, 1000000000, &rem);
	if (rem)
		return sysfs_emit(buf, "%llu.%03u Gb/sec (%uX %s)\n", gb,
				  rem / 1000000, ibsw_width_lanes(width),
				  ibsw_speed_name(speed));
	return sysfs_emit(buf, "%llu Gb/sec (%uX %s)\n", gb,
			  ibsw_width_lanes(width), ibsw_speed_name(speed));
}

static ssize_t width_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  ibsw_width_name(READ_ONCE(ibsw_kobj_port(kobj)->width)));
}

static ssize_t speed_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  ibsw_speed_name(READ_ONCE(ibsw_kobj_port(kobj)->speed)));
}

static ssize_t lid_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(ibsw_kobj_port(kobj)->lid));
}

static ssize_t peer_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct ibsw_port *port = ibsw_kobj_port(kobj);
	struct ibsw_port *peer;
	ssize_t n;

	rcu_read_lock();
	peer = rcu_dereference(port->peer);
	/* '/' never occurs in a switch name */
	if (peer)
		n = sysfs_emit(buf, "%s/%u\n", peer->sw->name, peer->num);
	else
		n = sysfs_emit(buf, "\n");
	rcu_read_unlock();
	return n;
}

static ssize_t ifname_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct ibsw_port *port = ibsw_kobj_port(kobj);
	struct net_device *dev;
	ssize_t n;

	rcu_read_lock();
	dev = rcu_dereference(port->netdev);
	n = sysfs_emit(buf, "%s\n", dev ? dev->name : "");
	rcu_read_unlock();
	return n;
}

/* bit/s of emulated time a host's HCA injects at: the rate in force */
static ssize_t hca_rate_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct ibsw_port *port = ibsw_kobj_port(kobj);

	return sysfs_emit(buf, "%llu\n",
			  ibsw_hca_rate(READ_ONCE(port->rate_bps),
					READ_ONCE(port->hca_bps)));
}

static ssize_t clock_ppm_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(ibsw_kobj_port(kobj)->clock_ppm));
}

/* HOQLife of the output (PortInfo), 20 and above: for ever */
static ssize_t hoq_life_show(struct kobject *kobj,
			     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(ibsw_kobj_port(kobj)->hoq_life));
}

static struct kobj_attribute ibsw_port_attr_kind = __ATTR_RO(kind);
static struct kobj_attribute ibsw_port_attr_rate = __ATTR_RO(rate);
static struct kobj_attribute ibsw_port_attr_width = __ATTR_RO(width);
static struct kobj_attribute ibsw_port_attr_speed = __ATTR_RO(speed);
static struct kobj_attribute ibsw_port_attr_lid = __ATTR_RO(lid);
static struct kobj_attribute ibsw_port_attr_peer = __ATTR_RO(peer);
static struct kobj_attribute ibsw_port_attr_ifname = __ATTR_RO(ifname);
static struct kobj_attribute ibsw_port_attr_hca_rate = __ATTR_RO(hca_rate);
static struct kobj_attribute ibsw_port_attr_clock_ppm = __ATTR_RO(clock_ppm);
static struct kobj_attribute ibsw_port_attr_hoq_life = __ATTR_RO(hoq_life);

static struct attribute *ibsw_port_attrs[] = {
	&ibsw_port_attr_kind.attr,
	&ibsw_port_attr_rate.attr,
	&ibsw_port_attr_width.attr,
	&ibsw_port_attr_speed.attr,
	&ibsw_port_attr_lid.attr,
	&ibsw_port_attr_peer.attr,
	&ibsw_port_attr_ifname.attr,
	&ibsw_port_attr_hca_rate.attr,
	&ibsw_port_attr_clock_ppm.attr,
	&ibsw_port_attr_hoq_life.attr,
	NULL
};

static const struct attribute_group ibsw_port_group = {
	.attrs = ibsw_port_attrs,
};

/* Counter files: one attribute per counter, named from the table */
struct ibsw_cnt_attr {
	struct kobj_attribute	attr;
	unsigned int		cnt;
};

static ssize_t ibsw_port_cnt_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	struct ibsw_cnt_attr *ca = container_of(attr, struct ibsw_cnt_attr, attr);
	struct ibsw_counters *cnt;
	ssize_t n;

	cnt = kmalloc(sizeof(*cnt), GFP_KERNEL);
	if (!cnt)
		return -ENOMEM;
	ibsw_stats_read(ibsw_kobj_port(kobj), cnt, NULL);
	n = sysfs_emit(buf, "%llu\n", cnt->val[ca->cnt]);
	kfree(cnt);
	return n;
}

#define IBSW_CNT_ATTR(_cnt, _show) {					\
	.attr = {							\
		.attr = { .name = NULL, .mode = 0444 },			\
		.show = _show,						\
	},								\
	.cnt = _cnt,							\
}

/* The IBA PortCounters go in counters/, ibsw's own in hw_counters/ */
static bool ibsw_cnt_is_hw(unsigned int cnt)
{
	return cnt == IBSW_CNT_RCV_FOREIGN || cnt == IBSW_CNT_RCV_VL_DISCARDS ||
	       cnt == IBSW_CNT_RCV_OVERSIZE || cnt == IBSW_CNT_NEIGH_REPLIES ||
	       cnt == IBSW_CNT_XMIT_LATE || cnt == IBSW_CNT_HCA_DISCARDS;
}

static struct ibsw_cnt_attr ibsw_port_cnt_attrs[IBSW_NR_COUNTERS];
static struct attribute *ibsw_port_cnt_ptrs[IBSW_NR_COUNTERS + 1];
static struct attribute *ibsw_port_hw_ptrs[IBSW_NR_COUNTERS + 1];

/*
 * remote/: a remote link's state and counters; empty (state "") on a
 * port that is not remote.
 */
static ssize_t ibsw_remote_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct ibsw_cnt_attr *ca = container_of(attr, struct ibsw_cnt_attr, attr);
	struct ibsw_port *port = ibsw_kobj_port(kobj);
	u64 cnt[IBSW_RL_NR_COUNTERS] = {};
	struct ibsw_remote *rl;
	ssize_t n;

	rcu_read_lock();
	rl = rcu_dereference(port->remote);
	switch (ca->cnt) {
	case IBSW_RL_NR_COUNTERS:	/* state */
		n = sysfs_emit(buf, "%s\n", !rl ? "" :
			       READ_ONCE(rl->state) == IBSW_RL_UP ? "up" : "down");
		break;
	case IBSW_RL_NR_COUNTERS + 1:	/* dev */
		n = sysfs_emit(buf, "%s\n", rl ? rl->dev->name : "");
		break;
	case IBSW_RL_NR_COUNTERS + 2:	/* id */
		n = rl ? sysfs_emit(buf, "%u\n", rl->link_id) :
			 sysfs_emit(buf, "\n");
		break;
	case IBSW_RL_NR_COUNTERS + 3:	/* peer: the peer's word for itself */
		if (!rl) {
			n = sysfs_emit(buf, "\n");
			break;
		}
		spin_lock_bh(&rl->rx_lock);
		n = rl->peer_epoch && rl->peer_name[0] ?
		    sysfs_emit(buf, "%s/%u\n", rl->peer_name, rl->peer_port) :
		    sysfs_emit(buf, "\n");
		spin_unlock_bh(&rl->rx_lock);
		break;
	case IBSW_RL_NR_COUNTERS + 4:	/* mismatch: why it is not up */
		n = sysfs_emit(buf, "%s\n",
			       rl ? ibsw_rl_mismatch_name(READ_ONCE(rl->mismatch)) : "");
		break;
	case IBSW_RL_NR_COUNTERS + 5: {	/* credits: the peer's buffers' free */
		unsigned int vl, nr = READ_ONCE(port->nr_vls);

		n = 0;
		for (vl = 0; rl && vl < nr; vl++)
			n += sysfs_emit_at(buf, n, "%s%d", vl ? " " : "",
					   atomic_read(&rl->credit[vl].free));
		n += sysfs_emit_at(buf, n, "\n");
		break;
	}
	case IBSW_RL_NR_COUNTERS + 6 ...
	     IBSW_RL_NR_COUNTERS + 5 + IBSW_A_REMOTE_LOOP_MAX: {
		u64 loop[IBSW_A_REMOTE_LOOP_MAX] = {};	/* the credit loop */

		if (rl)
			ibsw_remote_loop(rl, loop);
		n = sysfs_emit(buf, "%llu\n",
			       loop[ca->cnt - IBSW_RL_NR_COUNTERS - 6]);
		break;
	}
	default:
		if (rl)
			ibsw_remote_read(rl, cnt);
		n = sysfs_emit(buf, "%llu\n", cnt[ca->cnt]);
		break;
	}
	rcu_read_unlock();
	return n;
}

/* Then the credit loop, in the order of IBSW_A_REMOTE_LOOP_* */
static const char * const ibsw_remote_files[] = {
	"state", "dev", "id", "peer", "mismatch", "credits",
	"credit_wait_ns", "rtt_samples", "rtt_last_ns", "rtt_min_ns",
	"rtt_srtt_ns", "rtt_max_ns",
};

#define IBSW_NR_REMOTE_ATTRS	(IBSW_RL_NR_COUNTERS + ARRAY_SIZE(ibsw_remote_files))
static_assert(ARRAY_SIZE(ibsw_remote_files) == 6 + IBSW_A_REMOTE_LOOP_MAX);
static struct ibsw_cnt_attr ibsw_remote_attrs[IBSW_NR_REMOTE_ATTRS];
static struct attribute *ibsw_remote_ptrs[IBSW_NR_REMOTE_ATTRS + 1];

static const struct attribute_group ibsw_remote_group = {
	.name = "remote",
	.attrs = ibsw_remote_ptrs,
};

static const struct attribute_group ibsw_port_cnt_group = {
	.name = "counters",
	.attrs = ibsw_port_cnt_ptrs,
};

static const struct attribute_group ibsw_port_hw_group = {
	.name = "hw_counters",
	.attrs = ibsw_port_hw_ptrs,
};

static const struct attribute_group *ibsw_port_groups[] = {
	&ibsw_port_group,
	&ibsw_port_cnt_group,
	&ibsw_port_hw_group,
	&ibsw_remote_group,
	NULL
};

static void ibsw_port_kobj_release(struct kobject *kobj)
{
	ibsw_port_release(ibsw_kobj_port(kobj));
}

const struct kobj_type ibsw_port_ktype = {
	.release	= ibsw_port_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= ibsw_port_groups,
};

/* VLs */

struct ibsw_vl_kobj {
	struct kobject		kobj;
	struct ibsw_port	*port;
	unsigned int		vl;
};

static struct ibsw_vl_kobj *ibsw_kobj_vl(struct kobject *kobj)
{
	return container_of(kobj, struct ibsw_vl_kobj, kobj);
}

static ssize_t buffer_credits_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct ibsw_vl_kobj *vk = ibsw_kobj_vl(kobj);

	return sysfs_emit(buf, "%u\n", READ_ONCE(vk->port->in[vk->vl].size));
}

static ssize_t buffer_free_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct ibsw_vl_kobj *vk = ibsw_kobj_vl(kobj);

	return sysfs_emit(buf, "%d\n",
			  max(atomic_read(&vk->port->in[vk->vl].free), 0));
}

static struct kobj_attribute ibsw_vl_attr_credits = __ATTR_RO(buffer_credits);
static struct kobj_attribute ibsw_vl_attr_free = __ATTR_RO(buffer_free);

static struct attribute *ibsw_vl_attrs[] = {
	&ibsw_vl_attr_credits.attr,
	&ibsw_vl_attr_free.attr,
	NULL
};

static const struct attribute_group ibsw_vl_group = {
	.attrs = ibsw_vl_attrs,
};

static ssize_t ibsw_vl_cnt_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct ibsw_cnt_attr *ca = container_of(attr, struct ibsw_cnt_attr, attr);
	struct ibsw_vl_kobj *vk = ibsw_kobj_vl(kobj);
	struct ibsw_counters *cnt;
	ssize_t n;

	cnt = kmalloc_array(IBSW_NR_DATA_VLS + 1, sizeof(*cnt), GFP_KERNEL);
	if (!cnt)
		return -ENOMEM;
	ibsw_stats_read(vk->port, &cnt[IBSW_NR_DATA_VLS], cnt);
	n = sysfs_emit(buf, "%llu\n", cnt[vk->vl].val[ca->cnt]);
	kfree(cnt);
	return n;
}

static struct ibsw_cnt_attr ibsw_vl_cnt_attrs[IBSW_NR_VL_COUNTERS];
static struct attribute *ibsw_vl_cnt_ptrs[IBSW_NR_VL_COUNTERS + 1];

static const struct attribute_group ibsw_vl_cnt_group = {
	.name = "counters",
	.attrs = ibsw_vl_cnt_ptrs,
};

static const struct attribute_group *ibsw_vl_groups[] = {
	&ibsw_vl_group,
	&ibsw_vl_cnt_group,
	NULL
};

static void ibsw_vl_kobj_release(struct kobject *kobj)
{
	kfree(ibsw_kobj_vl(kobj));
	ibsw_obj_released();
}

static const struct kobj_type ibsw_vl_ktype = {
	.release	= ibsw_vl_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= ibsw_vl_groups,
};

/* Fill in the counter attributes from ibsw_counter_names[], once */
static void ibsw_sysfs_init_counters(void)
{
	unsigned int i, n = 0, hw = 0;

	if (ibsw_port_cnt_attrs[0].attr.attr.name)
		return;
	for (i = 0; i < IBSW_NR_REMOTE_ATTRS; i++) {
		struct ibsw_cnt_attr *ca = &ibsw_remote_attrs[i];

		*ca = (struct ibsw_cnt_attr)IBSW_CNT_ATTR(i, ibsw_remote_show);
		ca->attr.attr.name = i < IBSW_RL_NR_COUNTERS ?
				     ibsw_rl_counter_names[i] :
				     ibsw_remote_files[i - IBSW_RL_NR_COUNTERS];
		ibsw_remote_ptrs[i] = &ca->attr.attr;
	}
	for (i = 0; i < IBSW_NR_COUNTERS; i++) {
		struct ibsw_cnt_attr *ca = &ibsw_port_cnt_attrs[i];

		*ca = (struct ibsw_cnt_attr)IBSW_CNT_ATTR(i, ibsw_port_cnt_show);
		ca->attr.attr.name = ibsw_counter_names[i];
		if (ibsw_cnt_is_hw(i))
			ibsw_port_hw_ptrs[hw++] = &ca->attr.attr;
		else
			ibsw_port_cnt_ptrs[n++] = &ca->attr.attr;
	}
	for (i = 0, n = 0; i < IBSW_NR_COUNTERS; i++) {
		struct ibsw_cnt_attr *ca = &ibsw_vl_cnt_attrs[n];

		if (!ibsw_counter_per_vl(i))
			continue;
		*ca = (struct ibsw_cnt_attr)IBSW_CNT_ATTR(i, ibsw_vl_cnt_show);
		ca->attr.attr.name = ibsw_counter_names[i];
		ibsw_vl_cnt_ptrs[n++] = &ca->attr.attr;
	}
}

/**
 * ibsw_sysfs_vls_update() - make vls/ match the port's VLs
 * @port: the port, in sysfs
 *
 * Context: RTNL.
 * Return: 0 or a negative errno.
 */
int ibsw_sysfs_vls_update(struct ibsw_port *port)
{
	unsigned int v, nr_vls = port->nr_vls;
	struct ibsw_vl_kobj *vk;
	int err;

	if (!port->vls_kobj)
		return 0;
	for (v = 0; v < IBSW_NR_DATA_VLS; v++) {
		vk = port->vl_kobj[v];
		if (v >= nr_vls && vk) {
			port->vl_kobj[v] = NULL;
			kobject_del(&vk->kobj);
			kobject_put(&vk->kobj);
		} else if (v < nr_vls && !vk) {
			vk = kzalloc(sizeof(*vk), GFP_KERNEL);
			if (!vk)
				return -ENOMEM;
			vk->port = port;
			vk->vl = v;
			ibsw_obj_made();
			err = kobject_init_and_add(&vk->kobj, &ibsw_vl_ktype,
						   port->vls_kobj, "%u", v);
			if (err) {
				kobject_put(&vk->kobj);
				return err;
			}
			port->vl_kobj[v] = vk;
		}
	}
	return 0;
}

/**
 * ibsw_sysfs_ports_add() - add ports/ and the port directories
 * @sw: a registered switch
 *
 * Context: RTNL.
 * Return: 0 or a negative errno; undo with ibsw_sysfs_ports_del().
 */
int ibsw_sysfs_ports_add(struct ibsw_switch *sw)
{
	struct ibsw_port *port;
	unsigned int i;
	int err;

	ibsw_sysfs_init_counters();
	sw->ports_kobj = kobject_create_and_add("ports", &sw->dev.kobj);
	if (!sw->ports_kobj)
		return -ENOMEM;
	for (i = 1; i <= sw->nr_ports; i++) {
		port = sw->ports[i];
		err = kobject_add(&port->kobj, sw->ports_kobj, "%u", i);
		if (err)
			return err;
		port->vls_kobj = kobject_create_and_add("vls", &port->kobj);
		if (!port->vls_kobj)
			return -ENOMEM;
		err = ibsw_sysfs_vls_update(port);
		if (err)
			return err;
	}
	return 0;
}

/**
 * ibsw_sysfs_ports_del() - remove what ibsw_sysfs_ports_add() added
 * @sw: the switch
 *
 * The ports' own references stay: the switch drops them.
 *
 * Context: RTNL.
 */
void ibsw_sysfs_ports_del(struct ibsw_switch *sw)
{
	struct ibsw_port *port;
	unsigned int i, v;

	for (i = 1; i <= sw->nr_ports; i++) {
		port = sw->ports[i];
		for (v = 0; v < IBSW_NR_DATA_VLS; v++) {
			if (!port->vl_kobj[v])
				continue;
			kobject_del(&port->vl_kobj[v]->kobj);
			kobject_put(&port->vl_kobj[v]->kobj);
			port->vl_kobj[v] = NULL;
		}
		kobject_put(port->vls_kobj);
		port->vls_kobj = NULL;
		if (port->kobj.state_in_sysfs)
			kobject_del(&port->kobj);
	}
	kobject_put(sw->ports_kobj);
	sw->ports_kobj = NULL;
}
