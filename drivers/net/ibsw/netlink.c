// SPDX-License-Identifier: GPL-2.0
/*
 * The ibsw generic netlink family (Documentation/netlink/specs/ibsw.yaml):
 * request handlers, replies and notifications, but for the congestion
 * control ops of netlink_cc.c, with which it shares the helpers of
 * netlink.h. genl.c (generated) holds the policies and the ops table; the
 * two files only marshal between netlink and the control plane of ctl.h,
 * whose every call runs under RTNL: every do handler runs between
 * ibsw_nl_pre_doit() and ibsw_nl_post_doit(), which take and release it,
 * and every dump pass in ibsw_nl_dump().
 *
 * Attribute policies already bound every scalar; the checks here are those
 * a policy cannot express (required attributes, duplicates, values that
 * depend on a switch) and each rejection says what was wrong in extack.
 */

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "compat.h"
#include "ctl.h"
#include "genl.h"
#include "netlink.h"

/* LFT entries: LIDs 0 to the highest unicast LID (LinearFDBTop <= 0xbfff) */
#define IBSW_NL_LFT_MAX		(IBSW_LID_UNICAST_MAX + 1)

/*
 * The family is registered: notifications may be sent. Written under RTNL,
 * which every notifier holds, so none runs against an unregistered family.
 */
static bool ibsw_nl_live;

/*
 * Changes to the fabric so far, never 0 (RTNL): every change notifies, so
 * ibsw_nl_notify() counts them, and a dump that sees the count move
 * between its passes says so with NLM_F_DUMP_INTR.
 */
static unsigned int ibsw_nl_gen = 1;

/**
 * struct ibsw_nl_dump_ctx - where a dump stands, in netlink_callback::ctx
 * @id: switch to continue with (the first whose id is at least this)
 * @port: port of that switch to continue with
 * @index: address table entry to continue with
 * @done: nothing left; the next call ends the dump
 */
struct ibsw_nl_dump_ctx {
	u32	id;
	u32	port;
	u32	index;
	bool	done;
};

static_assert(sizeof(struct ibsw_nl_dump_ctx) <=
	      sizeof_field(struct netlink_callback, ctx));

static struct ibsw_nl_dump_ctx *ibsw_nl_dump_ctx(struct netlink_callback *cb)
{
	return (struct ibsw_nl_dump_ctx *)cb->ctx;
}

/* ------------------------------------------------------------- message sizes */

static size_t ibsw_nl_counters_size(unsigned int nr)
{
	/* nla_put_uint() takes 8 bytes for values above U32_MAX */
	return nla_total_size(0) + nr * nla_total_size(sizeof(u64));
}

static size_t ibsw_nl_fabric_size(void)
{
	return nla_total_size(sizeof(u32)) +	/* time-scale */
	       nla_total_size(sizeof(u8)) +	/* pacing */
	       2 * nla_total_size(sizeof(u32)) +	/* clock-seed, -ppm */
	       3 * nla_total_size(sizeof(u32));	/* nr-switches, -hosts, -addrs */
}

static size_t ibsw_nl_switch_size(void)
{
	return nla_total_size(sizeof(u32)) +		/* id */
	       nla_total_size(IBSW_NAME_LEN + 1) +	/* name */
	       2 * nla_total_size(sizeof(u32));		/* nr-ports, lft-top */
}

/* Upper bound of a port message of a switch of @nr_ports ports */
static size_t ibsw_nl_port_size(unsigned int nr_ports)
{
	size_t vl = nla_total_size(0) + 3 * nla_total_size(sizeof(u32)) +
		    ibsw_nl_counters_size(IBSW_NR_VL_COUNTERS);
	size_t entry = nla_total_size(0) + 2 * nla_total_size(sizeof(u32));
	size_t sl2vl = nla_total_size(0) + nla_total_size(sizeof(u32)) +
		       nla_total_size(IBSW_NR_SLS);

	/*
	 * switch-id, port, kind, width, speed, nr-vls, lid, peer-switch-id,
	 * peer-port, ifindex, netns-id, vlarb-high-limit, clock-ppm,
	 * hca-vlarb-high-limit, hoq-life; rate, hca-rate
	 */
	return 15 * nla_total_size(sizeof(u32)) +
	       2 * nla_total_size(sizeof(u64)) +
	       2 * nla_total_size(IBSW_NAME_LEN + 1) +	/* (peer-)switch-name */
	       nla_total_size(IFNAMSIZ) +
	       nla_total_size(64) + nla_total_size(sizeof(u64)) + /* ibdev, guid */
	       nla_total_size(ETH_ALEN) +
	       IBSW_NR_DATA_VLS * vl +
	       4 * IBSW_VLARB_MAX_ENTRIES * entry +	/* and hca-vlarb-* */
	       (nr_ports + 1) * sl2vl +
	       ibsw_nl_counters_size(IBSW_NR_COUNTERS) +
	       /* remote-id, -state, -counters, -loop */
	       2 * nla_total_size(sizeof(u32)) +
	       ibsw_nl_counters_size(IBSW_A_REMOTE_COUNTERS_MAX) +
	       ibsw_nl_counters_size(IBSW_A_REMOTE_LOOP_MAX);
}

/* ---------------------------------------------------------------- requests */

/* A required attribute is missing: extack names it (miss-type) and says so */
bool ibsw_nl_missing(struct genl_info *info, unsigned int attr,
		     const char *name)
{
	if (!GENL_REQ_ATTR_CHECK(info, attr))
		return false;
	NL_SET_ERR_MSG_FMT(info->extack, "missing attribute %s", name);
	return true;
}

/* Likewise inside nest @nest of kind @what */
bool ibsw_nl_nest_missing(struct netlink_ext_ack *extack,
			  const struct nlattr *nest, struct nlattr **tb,
			  unsigned int attr, const char *what,
			  const char *name)
{
	if (!NL_REQ_ATTR_CHECK(extack, nest, tb, attr))
		return false;
	NL_SET_ERR_MSG_FMT(extack, "missing attribute %s in %s", name, what);
	return true;
}

/* The switch named by attribute @attr, or ERR_PTR. RTNL held. */
struct ibsw_switch *ibsw_nl_switch(struct genl_info *info, unsigned int attr)
{
	const struct nlattr *a = info->attrs[attr];
	struct ibsw_switch *sw;

	sw = ibsw_switch_find(nla_data(a));
	if (!sw) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, a, "no switch named %s",
					(const char *)nla_data(a));
		return ERR_PTR(-ENOENT);
	}
	return sw;
}

/*
 * The switch named by @name_attr and the number in @port_attr, which must
 * be one of its ports. RTNL held.
 */
static struct ibsw_switch *ibsw_nl_switch_port(struct genl_info *info,
					       unsigned int name_attr,
					       unsigned int port_attr,
					       unsigned int *port)
{
	const struct nlattr *a = info->attrs[port_attr];
	struct ibsw_switch_info si;
	struct ibsw_switch *sw;

	sw = ibsw_nl_switch(info, name_attr);
	if (IS_ERR(sw))
		return sw;
	ibsw_switch_info(sw, &si);
	*port = nla_get_u32(a);
	if (*port < 1 || *port > si.nr_ports) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, a,
					"switch %s has no port %u (1 to %u)",
					si.name, *port, si.nr_ports);
		return ERR_PTR(-EINVAL);
	}
	return sw;
}

/*
 * One vlarb-high or vlarb-low list. Return: 1 if given, 0 if not, or an
 * error.
 */
static int ibsw_nl_parse_vlarb(struct genl_info *info, unsigned int type,
			       const char *what, struct ibsw_vlarb_entry *list,
			       u8 *nr)
{
	struct nlattr *tb[IBSW_A_VLARB_ENTRY_MAX + 1];
	unsigned int n = 0, empty = 0, total = 0;
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *a;
	int rem, err;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != type)
			continue;
		total++;
		if (!nla_len(a)) {
			/* a list of one empty entry is the empty list */
			empty++;
			continue;
		}
		if (n == IBSW_VLARB_MAX_ENTRIES) {
			NL_SET_ERR_MSG_ATTR_FMT(extack, a,
						"%s: more than %u entries", what,
						IBSW_VLARB_MAX_ENTRIES);
			return -EINVAL;
		}
		err = nla_parse_nested(tb, IBSW_A_VLARB_ENTRY_MAX, a,
				       ibsw_vlarb_entry_nl_policy, extack);
		if (err)
			return err;
		if (ibsw_nl_nest_missing(extack, a, tb, IBSW_A_VLARB_ENTRY_VL,
					 what, "vl") ||
		    ibsw_nl_nest_missing(extack, a, tb,
					 IBSW_A_VLARB_ENTRY_WEIGHT, what,
					 "weight"))
			return -EINVAL;
		list[n].vl = nla_get_u32(tb[IBSW_A_VLARB_ENTRY_VL]);
		list[n].weight = nla_get_u32(tb[IBSW_A_VLARB_ENTRY_WEIGHT]);
		n++;
	}
	if (empty && total > 1) {
		NL_SET_ERR_MSG_FMT(extack,
				   "%s: an empty entry clears the list and must be its only entry",
				   what);
		return -EINVAL;
	}
	*nr = n;
	return total > 0;
}

static int ibsw_nl_parse_vls(struct genl_info *info, struct ibsw_port_cfg *cfg)
{
	struct nlattr *tb[IBSW_A_VL_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *a;
	unsigned int vl;
	int rem, err;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != IBSW_A_PORT_VL)
			continue;
		err = nla_parse_nested(tb, IBSW_A_VL_MAX, a, ibsw_vl_nl_policy,
				       extack);
		if (err)
			return err;
		if (ibsw_nl_nest_missing(extack, a, tb, IBSW_A_VL_VL, "vl",
					 "vl") ||
		    ibsw_nl_nest_missing(extack, a, tb, IBSW_A_VL_BUFFER_CREDITS,
					 "vl", "buffer-credits"))
			return -EINVAL;
		/* port-get's, shared by the attribute set: refused, not ignored */
		if (tb[IBSW_A_VL_BUFFER_FREE]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IBSW_A_VL_BUFFER_FREE],
					    "read-only attribute buffer-free in vl");
			return -EINVAL;
		}
		if (tb[IBSW_A_VL_COUNTERS]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IBSW_A_VL_COUNTERS],
					    "read-only attribute counters in vl");
			return -EINVAL;
		}
		vl = nla_get_u32(tb[IBSW_A_VL_VL]);
		if (cfg->buffer_set & BIT(vl)) {
			NL_SET_ERR_MSG_ATTR_FMT(extack, tb[IBSW_A_VL_VL],
						"VL %u given twice", vl);
			return -EINVAL;
		}
		cfg->buffer_set |= BIT(vl);
		cfg->buffer_credits[vl] =
			nla_get_u32(tb[IBSW_A_VL_BUFFER_CREDITS]);
	}
	return 0;
}

static int ibsw_nl_parse_sl2vl(struct genl_info *info,
			       struct ibsw_port_cfg *cfg)
{
	struct nlattr *tb[IBSW_A_SL2VL_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct ibsw_port_sl2vl *tables, *t;
	unsigned int n = 0, sl;
	struct nlattr *a;
	const u8 *map;
	int rem, err;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		n += nla_type(a) == IBSW_A_PORT_SL2VL;
	if (!n)
		return 0;
	tables = kvcalloc(n, sizeof(*tables), GFP_KERNEL);
	if (!tables)
		return -ENOMEM;
	cfg->sl2vl = tables;

	t = tables;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != IBSW_A_PORT_SL2VL)
			continue;
		err = nla_parse_nested(tb, IBSW_A_SL2VL_MAX, a,
				       ibsw_sl2vl_nl_policy, extack);
		if (err)
			return err;
		if (ibsw_nl_nest_missing(extack, a, tb, IBSW_A_SL2VL_MAP,
					 "sl2vl", "map"))
			return -EINVAL;
		map = nla_data(tb[IBSW_A_SL2VL_MAP]);
		for (sl = 0; sl < IBSW_NR_SLS; sl++) {
			if (map[sl] > IBSW_VL15) {
				NL_SET_ERR_MSG_ATTR_FMT(extack,
							tb[IBSW_A_SL2VL_MAP],
							"sl2vl: SL %u mapped to VL %u, at most %u",
							sl, map[sl], IBSW_VL15);
				return -EINVAL;
			}
			t->map.vl[sl] = map[sl];
		}
		if (tb[IBSW_A_SL2VL_IN_PORT])
			t->in_port = nla_get_u32(tb[IBSW_A_SL2VL_IN_PORT]);
		else
			t->all = true;
		t++;
		cfg->nr_sl2vl++;
	}
	return 0;
}

/*
 * info->attrs has room for the attributes of the op's policy only, up to
 * its maxattr (genl.c): IBSW_NL_*_MAXATTR below. Multi-attr nests are
 * read from the message itself, where validation admitted no others.
 */
#define IBSW_NL_PORT_SET_MAXATTR	IBSW_A_PORT_HOQ_LIFE
#define IBSW_NL_LINK_NEW_MAXATTR	IBSW_A_PORT_PEER_PORT
#define IBSW_NL_HOST_NEW_MAXATTR	IBSW_A_PORT_HCA_RATE
#define IBSW_NL_REMOTE_NEW_MAXATTR	IBSW_A_PORT_REMOTE_ID

static struct nlattr *ibsw_nl_attr(const struct genl_info *info,
				   unsigned int maxattr, unsigned int type)
{
	return type <= maxattr ? info->attrs[type] : NULL;
}

/*
 * Fill @cfg (zeroed by the caller) from the port attributes of a port-set,
 * link-new or host-new request, whose policy ends at @maxattr.
 * cfg->sl2vl is allocated: free it with kvfree() whatever the result.
 */
static int ibsw_nl_parse_port_cfg(struct genl_info *info,
				  unsigned int maxattr,
				  struct ibsw_port_cfg *cfg)
{
	struct nlattr *a;
	int ret;

	a = ibsw_nl_attr(info, maxattr, IBSW_A_PORT_WIDTH);
	if (a) {
		cfg->width = nla_get_u32(a);
		cfg->set |= IBSW_PORT_CFG_WIDTH;
	}
	a = ibsw_nl_attr(info, maxattr, IBSW_A_PORT_SPEED);
	if (a) {
		cfg->speed = nla_get_u32(a);
		cfg->set |= IBSW_PORT_CFG_SPEED;
	}
	a = ibsw_nl_attr(info, maxattr, IBSW_A_PORT_NR_VLS);
	if (a) {
		cfg->nr_vls = nla_get_u32(a);
		cfg->set |= IBSW_PORT_CFG_NR_VLS;
	}
	a = ibsw_nl_attr(info, maxattr, IBSW_A_PORT_LID);
	if (a) {
		cfg->lid = nla_get_u32(a);
		cfg->set |= IBSW_PORT_CFG_LID;
	}
	a = ibsw_nl_attr(info, maxattr, IBSW_A_PORT_VLARB_HIGH_LIMIT);
	if (a) {
		cfg->vlarb.high_limit = nla_get_u32(a);
		cfg->set |= IBSW_PORT_CFG_VLARB_LIMIT;
	}
	a = ibsw_nl_attr(info, maxattr, IBSW_A_PORT_HCA_RATE);
	if (a) {
		cfg->hca_bps = nla_get_uint(a);
		cfg->set |= IBSW_PORT_CFG_HCA_RATE;
	}
	a = ibsw_nl_attr(info, maxattr, IBSW_A_PORT_HOQ_LIFE);
	if (a) {
		cfg->hoq_life = nla_get_u32(a);
		cfg->set |= IBSW_PORT_CFG_HOQ_LIFE;
	}

	ret = ibsw_nl_parse_vlarb(info, IBSW_A_PORT_VLARB_HIGH, "vlarb-high",
				  cfg->vlarb.high, &cfg->vlarb.nr_high);
	if (ret < 0)
		return ret;
	if (ret)
		cfg->set |= IBSW_PORT_CFG_VLARB_HIGH;
	ret = ibsw_nl_parse_vlarb(info, IBSW_A_PORT_VLARB_LOW, "vlarb-low",
				  cfg->vlarb.low, &cfg->vlarb.nr_low);
	if (ret < 0)
		return ret;
	if (ret)
		cfg->set |= IBSW_PORT_CFG_VLARB_LOW;

	ret = ibsw_nl_parse_vls(info, cfg);
	if (ret)
		return ret;
	return ibsw_nl_parse_sl2vl(info, cfg);
}

/* ------------------------------------------------------------------ replies */

/* fabric-get and fabric-change-ntf */
static int ibsw_nl_fabric_fill(struct sk_buff *msg, struct genl_info *info,
			       const void *arg)
{
	struct ibsw_fabric_info fi;

	ibsw_fabric_info(&fi);
	if (nla_put_u32(msg, IBSW_A_FABRIC_TIME_SCALE, fi.time_scale) ||
	    nla_put_u8(msg, IBSW_A_FABRIC_PACING, fi.pacing) ||
	    nla_put_u32(msg, IBSW_A_FABRIC_CLOCK_SEED, fi.clock_seed) ||
	    nla_put_u32(msg, IBSW_A_FABRIC_CLOCK_PPM, fi.clock_ppm) ||
	    nla_put_u32(msg, IBSW_A_FABRIC_NR_SWITCHES, fi.nr_switches) ||
	    nla_put_u32(msg, IBSW_A_FABRIC_NR_HOSTS, fi.nr_hosts) ||
	    nla_put_u32(msg, IBSW_A_FABRIC_NR_ADDRS, fi.nr_addrs))
		return -EMSGSIZE;
	return 0;
}

static int ibsw_nl_switch_put(struct sk_buff *skb,
			      const struct ibsw_switch *sw)
{
	struct ibsw_switch_info si;

	ibsw_switch_info(sw, &si);
	if (nla_put_u32(skb, IBSW_A_SWITCH_ID, si.id) ||
	    nla_put_string(skb, IBSW_A_SWITCH_NAME, si.name) ||
	    nla_put_u32(skb, IBSW_A_SWITCH_NR_PORTS, si.nr_ports) ||
	    nla_put_u32(skb, IBSW_A_SWITCH_LFT_TOP, si.lft_top))
		return -EMSGSIZE;
	return 0;
}

/* The counters of @cnt whose bits are set in @mask */
static int ibsw_nl_counters_put(struct sk_buff *skb, int type,
				const struct ibsw_counters *cnt,
				unsigned long mask)
{
	struct nlattr *nest;
	unsigned int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	for_each_set_bit(i, &mask, IBSW_NR_COUNTERS)
		if (nla_put_uint(skb, IBSW_A_COUNTERS_XMIT_DATA + i,
				 cnt->val[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* A nest @type of @nr values as "uint" attributes, @first the first's */
static int ibsw_nl_uints_put(struct sk_buff *skb, int type, int first,
			     const u64 *val, unsigned int nr)
{
	struct nlattr *nest;
	unsigned int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < nr; i++)
		if (nla_put_uint(skb, first + i, val[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int ibsw_nl_vlarb_put(struct sk_buff *skb, int type,
			     const struct ibsw_vlarb_entry *list,
			     unsigned int nr)
{
	struct nlattr *nest;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		nest = nla_nest_start(skb, type);
		if (!nest ||
		    nla_put_u32(skb, IBSW_A_VLARB_ENTRY_VL, list[i].vl) ||
		    nla_put_u32(skb, IBSW_A_VLARB_ENTRY_WEIGHT, list[i].weight))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int ibsw_nl_vls_put(struct sk_buff *skb,
			   const struct ibsw_port_info *pi)
{
	const struct ibsw_vl_info *v;
	struct nlattr *nest;
	unsigned int vl;

	for (vl = 0; vl < pi->nr_vls && vl < IBSW_NR_DATA_VLS; vl++) {
		v = &pi->vl[vl];
		nest = nla_nest_start(skb, IBSW_A_PORT_VL);
		if (!nest ||
		    nla_put_u32(skb, IBSW_A_VL_VL, vl) ||
		    nla_put_u32(skb, IBSW_A_VL_BUFFER_CREDITS, v->buffer_credits) ||
		    nla_put_u32(skb, IBSW_A_VL_BUFFER_FREE, v->buffer_free) ||
		    ibsw_nl_counters_put(skb, IBSW_A_VL_COUNTERS, &v->cnt,
					 IBSW_VL_COUNTERS))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* The SL-to-VL tables of every input port that has one for this output */
static int ibsw_nl_sl2vl_put(struct sk_buff *skb,
			     const struct ibsw_switch *sw, unsigned int port,
			     unsigned int nr_ports)
{
	struct ibsw_sl2vl map;
	struct nlattr *nest;
	unsigned int in;

	for (in = 0; in <= nr_ports; in++) {
		if (ibsw_port_get_sl2vl(sw, port, in, &map))
			continue;
		nest = nla_nest_start(skb, IBSW_A_PORT_SL2VL);
		if (!nest ||
		    nla_put_u32(skb, IBSW_A_SL2VL_IN_PORT, in) ||
		    nla_put(skb, IBSW_A_SL2VL_MAP, sizeof(map.vl), map.vl))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/*
 * The attributes of a port, as port-get replies. @net is the namespace of
 * the receiver, in which netns-id is given. @pi is scratch space.
 */
static int ibsw_nl_port_put(struct sk_buff *skb, const struct ibsw_switch *sw,
			    unsigned int port, struct ibsw_port_info *pi,
			    struct net *net)
{
	int err, id;

	err = ibsw_port_info(sw, port, pi);
	if (err)
		return err;

	if (nla_put_u32(skb, IBSW_A_PORT_SWITCH_ID, pi->sw.id) ||
	    nla_put_string(skb, IBSW_A_PORT_SWITCH_NAME, pi->sw.name) ||
	    nla_put_u32(skb, IBSW_A_PORT_PORT, pi->port) ||
	    nla_put_u32(skb, IBSW_A_PORT_KIND, pi->kind) ||
	    nla_put_u32(skb, IBSW_A_PORT_WIDTH, pi->width) ||
	    nla_put_u32(skb, IBSW_A_PORT_SPEED, pi->speed) ||
	    nla_put_uint(skb, IBSW_A_PORT_RATE, pi->rate_bps) ||
	    nla_put_u32(skb, IBSW_A_PORT_NR_VLS, pi->nr_vls) ||
	    nla_put_s32(skb, IBSW_A_PORT_CLOCK_PPM, pi->clock_ppm))
		return -EMSGSIZE;

	switch (pi->kind) {
	case IBSW_PORT_KIND_LINK:
		if (nla_put_u32(skb, IBSW_A_PORT_PEER_SWITCH_ID, pi->peer.id) ||
		    nla_put_string(skb, IBSW_A_PORT_PEER_SWITCH_NAME,
				   pi->peer.name) ||
		    nla_put_u32(skb, IBSW_A_PORT_PEER_PORT, pi->peer_port))
			return -EMSGSIZE;
		break;
	case IBSW_PORT_KIND_HOST:
		if (nla_put_u32(skb, IBSW_A_PORT_LID, pi->lid) ||
		    nla_put_string(skb, IBSW_A_PORT_IFNAME, pi->ifname) ||
		    nla_put_u32(skb, IBSW_A_PORT_IFINDEX, pi->ifindex) ||
		    nla_put(skb, IBSW_A_PORT_MAC, ETH_ALEN, pi->mac) ||
		    nla_put_uint(skb, IBSW_A_PORT_HCA_RATE, pi->hca_bps) ||
		    ibsw_nl_vlarb_put(skb, IBSW_A_PORT_HCA_VLARB_HIGH,
				      pi->hca_vlarb.high,
				      min_t(unsigned int, pi->hca_vlarb.nr_high,
					    IBSW_VLARB_MAX_ENTRIES)) ||
		    ibsw_nl_vlarb_put(skb, IBSW_A_PORT_HCA_VLARB_LOW,
				      pi->hca_vlarb.low,
				      min_t(unsigned int, pi->hca_vlarb.nr_low,
					    IBSW_VLARB_MAX_ENTRIES)) ||
		    nla_put_u32(skb, IBSW_A_PORT_HCA_VLARB_HIGH_LIMIT,
				pi->hca_vlarb.high_limit))
			return -EMSGSIZE;
		if (pi->net) {
			id = peernet2id_alloc(net, pi->net, GFP_KERNEL);
			if (id >= 0 &&
			    nla_put_s32(skb, IBSW_A_PORT_NETNS_ID, id))
				return -EMSGSIZE;
		}
		break;
	case IBSW_PORT_KIND_REMOTE:
		if (nla_put_string(skb, IBSW_A_PORT_IFNAME, pi->ifname) ||
		    nla_put_u32(skb, IBSW_A_PORT_IFINDEX, pi->ifindex) ||
		    nla_put_u32(skb, IBSW_A_PORT_REMOTE_ID, pi->remote_id) ||
		    nla_put_u8(skb, IBSW_A_PORT_REMOTE_STATE, pi->remote_state) ||
		    (pi->peer.name[0] &&
		     (nla_put_string(skb, IBSW_A_PORT_PEER_SWITCH_NAME,
				     pi->peer.name) ||
		      nla_put_u32(skb, IBSW_A_PORT_PEER_PORT, pi->peer_port))) ||
		    ibsw_nl_uints_put(skb, IBSW_A_PORT_REMOTE_COUNTERS,
				      IBSW_A_REMOTE_COUNTERS_TX_FRAMES,
				      pi->remote_cnt,
				      ARRAY_SIZE(pi->remote_cnt)) ||
		    ibsw_nl_uints_put(skb, IBSW_A_PORT_REMOTE_LOOP,
				      IBSW_A_REMOTE_LOOP_CREDIT_WAIT_NS,
				      pi->remote_loop,
				      ARRAY_SIZE(pi->remote_loop)))
			return -EMSGSIZE;
		break;
	case IBSW_PORT_KIND_MGMT:
		if (nla_put_string(skb, IBSW_A_PORT_IBDEV_NAME, pi->ibdev) ||
		    nla_put_uint(skb, IBSW_A_PORT_GUID, pi->guid) ||
		    nla_put_u32(skb, IBSW_A_PORT_LID, pi->lid))
			return -EMSGSIZE;
		break;
	default:
		break;
	}

	if (ibsw_nl_vls_put(skb, pi) ||
	    ibsw_nl_vlarb_put(skb, IBSW_A_PORT_VLARB_HIGH, pi->vlarb.high,
			      min_t(unsigned int, pi->vlarb.nr_high,
				    IBSW_VLARB_MAX_ENTRIES)) ||
	    ibsw_nl_vlarb_put(skb, IBSW_A_PORT_VLARB_LOW, pi->vlarb.low,
			      min_t(unsigned int, pi->vlarb.nr_low,
				    IBSW_VLARB_MAX_ENTRIES)) ||
	    nla_put_u32(skb, IBSW_A_PORT_VLARB_HIGH_LIMIT,
			pi->vlarb.high_limit) ||
	    nla_put_u32(skb, IBSW_A_PORT_HOQ_LIFE, pi->hoq_life) ||
	    ibsw_nl_sl2vl_put(skb, sw, port, pi->sw.nr_ports) ||
	    ibsw_nl_counters_put(skb, IBSW_A_PORT_COUNTERS, &pi->cnt,
				 GENMASK(IBSW_NR_COUNTERS - 1, 0)))
		return -EMSGSIZE;
	return 0;
}

/*
 * A reply to @info or, if @info is NULL, a @cmd notification, with room
 * for @size bytes of attributes, which @fill puts. Freed on failure.
 */
static struct sk_buff *ibsw_nl_msg(struct genl_info *info, u8 cmd,
				   size_t size, ibsw_nl_fill_t fill,
				   const void *arg)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		return ERR_PTR(-ENOMEM);
	if (info)
		hdr = genlmsg_put_reply(msg, info, &ibsw_nl_family, 0,
					info->genlhdr->cmd);
	else
		hdr = genlmsg_put(msg, 0, 0, &ibsw_nl_family, 0, cmd);
	err = hdr ? fill(msg, info, arg) : -EMSGSIZE;
	if (err) {
		/* sized for their content: only a bug gets here */
		WARN_ON_ONCE(err == -EMSGSIZE);
		nlmsg_free(msg);
		return ERR_PTR(err);
	}
	genlmsg_end(msg, hdr);
	return msg;
}

/**
 * ibsw_nl_reply() - answer a do request
 * @info: the request
 * @size: room for the attributes @fill puts
 * @fill: puts them, doing the request's work first if it has any
 * @arg: for @fill
 *
 * Context: a do handler: process context, RTNL held.
 * Return: 0, or the error of @fill or of building or sending the reply.
 */
int ibsw_nl_reply(struct genl_info *info, size_t size, ibsw_nl_fill_t fill,
		  const void *arg)
{
	struct sk_buff *msg;

	msg = ibsw_nl_msg(info, 0, size, fill, arg);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	return genlmsg_reply(msg, info);
}

/* ------------------------------------------------------------------ locking */

/**
 * ibsw_nl_pre_doit() - take RTNL for a do request: every op's pre_doit
 * @ops: the op
 * @skb: the request
 * @info: its attributes
 *
 * The control plane (ctl.h) runs under RTNL. Held from here to
 * ibsw_nl_post_doit(), it covers a request's lookups, its change and its
 * reply, so a reply shows what the request did. genetlink checks
 * CAP_NET_ADMIN and the attribute policy before it calls this.
 *
 * Return: 0
 */
int ibsw_nl_pre_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		     struct genl_info *info)
{
	rtnl_lock();
	return 0;
}

/**
 * ibsw_nl_post_doit() - release RTNL after a do request: every op's
 *	post_doit
 * @ops: the op
 * @skb: the request
 * @info: its attributes
 */
void ibsw_nl_post_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		       struct genl_info *info)
{
	rtnl_unlock();
}

/**
 * ibsw_nl_dump() - one pass of a dump, under RTNL
 * @skb: the buffer to fill
 * @cb: the dump, whose ctx says where this pass starts
 * @fill: puts messages from there on, moving ctx on; 0 or an error
 *
 * RTNL cannot be held from a dump's start to its done: every pass returns
 * to userspace. Each pass takes it here instead, and a pass that finds
 * the fabric changed since the one before marks its first message
 * NLM_F_DUMP_INTR (the netlink core marks NLMSG_DONE alike).
 *
 * Return: the length of @skb (0: the dump is over) or an error.
 */
static int ibsw_nl_dump(struct sk_buff *skb, struct netlink_callback *cb,
			int (*fill)(struct sk_buff *skb,
				    struct netlink_callback *cb))
{
	int err;

	rtnl_lock();
	cb->seq = ibsw_nl_gen;
	err = fill(skb, cb);
	rtnl_unlock();
	if (skb->len)
		nl_dump_check_consistent(cb, nlmsg_hdr(skb));

	/* full: the next pass resumes where ctx says */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* ------------------------------------------------------------------- fabric */

int ibsw_nl_fabric_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibsw_nl_reply(info, ibsw_nl_fabric_size(), ibsw_nl_fabric_fill,
			     NULL);
}

int ibsw_nl_fabric_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *ts_attr = info->attrs[IBSW_A_FABRIC_TIME_SCALE];
	struct nlattr *pacing_attr = info->attrs[IBSW_A_FABRIC_PACING];
	struct nlattr *seed_attr = info->attrs[IBSW_A_FABRIC_CLOCK_SEED];
	struct nlattr *ppm_attr = info->attrs[IBSW_A_FABRIC_CLOCK_PPM];
	struct ibsw_fabric_cfg cfg = {};
	u32 ts, seed, ppm;
	bool pacing;

	if (!ts_attr && !pacing_attr && !seed_attr && !ppm_attr) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to set: give time-scale, pacing, clock-seed or clock-ppm");
		return -EINVAL;
	}
	if (ts_attr) {
		ts = nla_get_u32(ts_attr);
		cfg.time_scale = &ts;
	}
	if (pacing_attr) {
		pacing = nla_get_u8(pacing_attr);
		cfg.pacing = &pacing;
	}
	if (seed_attr) {
		seed = nla_get_u32(seed_attr);
		cfg.clock_seed = &seed;
	}
	if (ppm_attr) {
		ppm = nla_get_u32(ppm_attr);
		cfg.clock_ppm = &ppm;
	}

	return ibsw_fabric_set(&cfg, info->extack);
}

int ibsw_nl_addr_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[IBSW_A_ADDR_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct ibsw_addr *addrs = NULL;
	unsigned int n = 0, i = 0;
	struct nlattr *a;
	int rem, err;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		n += nla_type(a) == IBSW_A_FABRIC_ADDR;
	if (n) {
		addrs = kvcalloc(n, sizeof(*addrs), GFP_KERNEL);
		if (!addrs)
			return -ENOMEM;
	}
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != IBSW_A_FABRIC_ADDR)
			continue;
		err = nla_parse_nested(tb, IBSW_A_ADDR_MAX, a,
				       ibsw_addr_nl_policy, extack);
		if (err)
			goto out;
		if (ibsw_nl_nest_missing(extack, a, tb, IBSW_A_ADDR_IP, "addr",
					 "ip") ||
		    ibsw_nl_nest_missing(extack, a, tb, IBSW_A_ADDR_LID, "addr",
					 "lid")) {
			err = -EINVAL;
			goto out;
		}
		nla_memcpy(&addrs[i].addr, tb[IBSW_A_ADDR_IP],
			   sizeof(addrs[i].addr));
		addrs[i].lid = nla_get_u32(tb[IBSW_A_ADDR_LID]);
		i++;
	}

	err = ibsw_addr_set(addrs, n, extack);
out:
	kvfree(addrs);
	return err;
}

static int ibsw_nl_addr_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ibsw_nl_dump_ctx *ctx = ibsw_nl_dump_ctx(cb);
	struct ibsw_addr addr;
	struct nlattr *nest;
	int err = 0;
	void *hdr;

	for (; ibsw_addr_get(ctx->index, &addr); ctx->index++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ibsw_nl_family,
				  NLM_F_MULTI, IBSW_CMD_ADDR_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		nest = nla_nest_start(skb, IBSW_A_FABRIC_ADDR);
		if (!nest ||
		    nla_put_in6_addr(skb, IBSW_A_ADDR_IP, &addr.addr) ||
		    nla_put_u32(skb, IBSW_A_ADDR_LID, addr.lid)) {
			genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		nla_nest_end(skb, nest);
		genlmsg_end(skb, hdr);
	}
	return err;
}

int ibsw_nl_addr_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ibsw_nl_dump(skb, cb, ibsw_nl_addr_dump);
}

/* ----------------------------------------------------------------- switches */

/* Made once its reply exists, so that the reply cannot fail after */
static int ibsw_nl_switch_new_fill(struct sk_buff *msg,
				   struct genl_info *info, const void *arg)
{
	const struct nlattr *name_attr = info->attrs[IBSW_A_SWITCH_NAME];
	const char *name = nla_data(name_attr);
	struct ibsw_switch *sw;

	if (ibsw_switch_find(name)) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, name_attr,
					"a switch named %s exists", name);
		return -EEXIST;
	}
	sw = ibsw_switch_create(name,
				nla_get_u32(info->attrs[IBSW_A_SWITCH_NR_PORTS]),
				info->extack);
	return IS_ERR(sw) ? PTR_ERR(sw) : ibsw_nl_switch_put(msg, sw);
}

int ibsw_nl_switch_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (ibsw_nl_missing(info, IBSW_A_SWITCH_NAME, "name") ||
	    ibsw_nl_missing(info, IBSW_A_SWITCH_NR_PORTS, "nr-ports"))
		return -EINVAL;
	return ibsw_nl_reply(info, ibsw_nl_switch_size(),
			     ibsw_nl_switch_new_fill, NULL);
}

int ibsw_nl_switch_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibsw_switch *sw;

	if (ibsw_nl_missing(info, IBSW_A_SWITCH_NAME, "name"))
		return -EINVAL;

	sw = ibsw_nl_switch(info, IBSW_A_SWITCH_NAME);
	if (IS_ERR(sw))
		return PTR_ERR(sw);
	ibsw_switch_destroy(sw);
	return 0;
}

/* switch-*-ntf; @arg: the switch */
static int ibsw_nl_switch_fill(struct sk_buff *msg, struct genl_info *info,
			       const void *arg)
{
	return ibsw_nl_switch_put(msg, arg);
}

static int ibsw_nl_switch_get_fill(struct sk_buff *msg,
				   struct genl_info *info, const void *arg)
{
	struct ibsw_switch *sw = ibsw_nl_switch(info, IBSW_A_SWITCH_NAME);

	return IS_ERR(sw) ? PTR_ERR(sw) : ibsw_nl_switch_put(msg, sw);
}

int ibsw_nl_switch_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (ibsw_nl_missing(info, IBSW_A_SWITCH_NAME, "name"))
		return -EINVAL;
	return ibsw_nl_reply(info, ibsw_nl_switch_size(),
			     ibsw_nl_switch_get_fill, NULL);
}

static int ibsw_nl_switch_dump(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	struct ibsw_nl_dump_ctx *ctx = ibsw_nl_dump_ctx(cb);
	struct ibsw_switch_info si;
	struct ibsw_switch *sw;
	int err = 0;
	void *hdr;

	if (ctx->done)
		return 0;
	for (sw = ibsw_switch_next(ctx->id); sw;
	     sw = ibsw_switch_next(ctx->id)) {
		ibsw_switch_info(sw, &si);
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ibsw_nl_family,
				  NLM_F_MULTI, IBSW_CMD_SWITCH_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = ibsw_nl_switch_put(skb, sw);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		if (si.id == U32_MAX) {
			ctx->done = true;
			break;
		}
		ctx->id = si.id + 1;
	}
	return err;
}

int ibsw_nl_switch_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ibsw_nl_dump(skb, cb, ibsw_nl_switch_dump);
}

int ibsw_nl_lft_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *lft_attr = info->attrs[IBSW_A_SWITCH_LFT];
	struct ibsw_switch_info si;
	struct ibsw_switch *sw;
	unsigned int len, lid;
	const u8 *lft;

	if (ibsw_nl_missing(info, IBSW_A_SWITCH_NAME, "name") ||
	    ibsw_nl_missing(info, IBSW_A_SWITCH_LFT, "lft"))
		return -EINVAL;
	lft = nla_data(lft_attr);
	len = nla_len(lft_attr);
	if (len > IBSW_NL_LFT_MAX) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, lft_attr,
					"LFT of %u entries, at most %u (LIDs 0 to 0x%x)",
					len, IBSW_NL_LFT_MAX,
					IBSW_LID_UNICAST_MAX);
		return -EINVAL;
	}

	sw = ibsw_nl_switch(info, IBSW_A_SWITCH_NAME);
	if (IS_ERR(sw))
		return PTR_ERR(sw);
	ibsw_switch_info(sw, &si);
	for (lid = 0; lid < len; lid++) {
		if (lft[lid] == IBSW_PORT_NONE ||
		    lft[lid] == IBSW_LFT_NO_ROUTE || lft[lid] <= si.nr_ports)
			continue;
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, lft_attr,
					"LFT: LID %u to port %u, %s has %u ports",
					lid, lft[lid], si.name, si.nr_ports);
		return -EINVAL;
	}
	return ibsw_switch_set_lft(sw, lft, len, info->extack);
}

/* LFT entries an lft-get reply holds: the table up to its top */
static unsigned int ibsw_nl_lft_len(const struct ibsw_switch_info *si)
{
	if (!si->lft_top)
		return 0;
	return min_t(unsigned int, si->lft_top + 1, IBSW_NL_LFT_MAX);
}

/* @arg: the switch */
static int ibsw_nl_lft_get_fill(struct sk_buff *msg, struct genl_info *info,
				const void *arg)
{
	const struct ibsw_switch *sw = arg;
	struct ibsw_switch_info si;
	unsigned int len;
	struct nlattr *a;

	ibsw_switch_info(sw, &si);
	len = ibsw_nl_lft_len(&si);
	if (nla_put_u32(msg, IBSW_A_SWITCH_ID, si.id) ||
	    nla_put_string(msg, IBSW_A_SWITCH_NAME, si.name) ||
	    nla_put_u32(msg, IBSW_A_SWITCH_LFT_TOP, si.lft_top))
		return -EMSGSIZE;
	if (!len)
		return 0;
	a = nla_reserve(msg, IBSW_A_SWITCH_LFT, len);
	if (!a)
		return -EMSGSIZE;
	/* entries the table lacks read as "no route" */
	memset(nla_data(a), IBSW_LFT_NO_ROUTE, len);
	ibsw_switch_get_lft(sw, nla_data(a), len);
	return 0;
}

int ibsw_nl_lft_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibsw_switch_info si;
	struct ibsw_switch *sw;

	if (ibsw_nl_missing(info, IBSW_A_SWITCH_NAME, "name"))
		return -EINVAL;

	sw = ibsw_nl_switch(info, IBSW_A_SWITCH_NAME);
	if (IS_ERR(sw))
		return PTR_ERR(sw);
	ibsw_switch_info(sw, &si);
	/* up to 48 KiB of table: sized for it, not NLMSG_GOODSIZE */
	return ibsw_nl_reply(info,
			     ibsw_nl_switch_size() +
			     nla_total_size(ibsw_nl_lft_len(&si)),
			     ibsw_nl_lft_get_fill, sw);
}

/* -------------------------------------------------------------------- ports */

static int ibsw_nl_port_get_fill(struct sk_buff *msg, struct genl_info *info,
				 const void *arg)
{
	struct ibsw_port_info *pi;
	struct ibsw_switch *sw;
	unsigned int port;
	int err;

	pi = kmalloc(sizeof(*pi), GFP_KERNEL);
	if (!pi)
		return -ENOMEM;
	sw = ibsw_nl_switch_port(info, IBSW_A_PORT_SWITCH_NAME,
				 IBSW_A_PORT_PORT, &port);
	err = IS_ERR(sw) ? PTR_ERR(sw) :
		ibsw_nl_port_put(msg, sw, port, pi, genl_info_net(info));
	kfree(pi);
	return err;
}

int ibsw_nl_port_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (ibsw_nl_missing(info, IBSW_A_PORT_SWITCH_NAME, "switch-name") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_PORT, "port"))
		return -EINVAL;
	return ibsw_nl_reply(info, ibsw_nl_port_size(IBSW_MAX_PORTS),
			     ibsw_nl_port_get_fill, NULL);
}

/* A port, as port-change-ntf gives it */
struct ibsw_nl_port_ref {
	const struct ibsw_switch	*sw;
	unsigned int			port;
};

static int ibsw_nl_port_ntf_fill(struct sk_buff *msg, struct genl_info *info,
				 const void *arg)
{
	const struct ibsw_nl_port_ref *ref = arg;
	struct ibsw_port_info *pi;
	int err;

	pi = kmalloc(sizeof(*pi), GFP_KERNEL);
	if (!pi)
		return -ENOMEM;
	/* netns-id as seen from init_net, where every listener is */
	err = ibsw_nl_port_put(msg, ref->sw, ref->port, pi, &init_net);
	kfree(pi);
	return err;
}

/*
 * A dump skb must hold at least one whole port message: ask for room for
 * the largest switch there is now (a larger one made during the dump may
 * still not fit, and ends the dump with -EMSGSIZE). A switch-name filter
 * that names no switch is refused here, before anything is dumped. It runs
 * once, before and apart from the passes, so it takes RTNL itself.
 */
int ibsw_nl_port_get_dump_start(struct netlink_callback *cb)
{
	const struct nlattr *name =
		ibsw_genl_dump_attrs(cb)[IBSW_A_PORT_SWITCH_NAME];
	unsigned int nr_ports = 0;
	struct ibsw_switch_info si;
	struct ibsw_switch *sw;
	int err = 0;

	rtnl_lock();
	if (name) {
		sw = ibsw_switch_find(nla_data(name));
		if (sw) {
			ibsw_switch_info(sw, &si);
			nr_ports = si.nr_ports;
		} else {
			NL_SET_ERR_MSG_ATTR_FMT(cb->extack, name,
						"no switch named %s",
						(const char *)nla_data(name));
			err = -ENOENT;
		}
	} else {
		for (sw = ibsw_switch_next(0); sw;
		     sw = ibsw_switch_next(si.id + 1)) {
			ibsw_switch_info(sw, &si);
			nr_ports = max(nr_ports, si.nr_ports);
			if (si.id == U32_MAX)
				break;
		}
	}
	rtnl_unlock();

	cb->min_dump_alloc =
		nlmsg_total_size(genlmsg_total_size(ibsw_nl_port_size(nr_ports)));
	return err;
}

static int ibsw_nl_port_dump_one(struct sk_buff *skb,
				 struct netlink_callback *cb,
				 const struct ibsw_switch *sw,
				 unsigned int port, struct ibsw_port_info *pi)
{
	void *hdr;
	int err;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ibsw_nl_family, NLM_F_MULTI, IBSW_CMD_PORT_GET);
	if (!hdr)
		return -EMSGSIZE;
	err = ibsw_nl_port_put(skb, sw, port, pi, sock_net(cb->skb->sk));
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int ibsw_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct nlattr *name =
		ibsw_genl_dump_attrs(cb)[IBSW_A_PORT_SWITCH_NAME];
	struct ibsw_nl_dump_ctx *ctx = ibsw_nl_dump_ctx(cb);
	struct ibsw_switch_info si;
	struct ibsw_port_info *pi;
	struct ibsw_switch *sw;
	unsigned int port;
	int err = 0;

	if (ctx->done)
		return 0;
	pi = kmalloc(sizeof(*pi), GFP_KERNEL);
	if (!pi)
		return -ENOMEM;

	if (name) {
		/* gone, or replaced by another of that name: the dump ends */
		sw = ibsw_switch_find(nla_data(name));
		if (sw) {
			ibsw_switch_info(sw, &si);
			if (ctx->port && si.id != ctx->id)
				sw = NULL;
		}
	} else {
		sw = ibsw_switch_next(ctx->id);
	}

	while (sw) {
		ibsw_switch_info(sw, &si);
		if (si.id != ctx->id) {
			/* the next switch, or the one we were in is gone */
			ctx->id = si.id;
			ctx->port = 1;
		}
		for (port = max(ctx->port, 1U); port <= si.nr_ports; port++) {
			err = ibsw_nl_port_dump_one(skb, cb, sw, port, pi);
			if (err)
				goto out;
			ctx->port = port + 1;
		}
		if (name || si.id == U32_MAX)
			break;
		sw = ibsw_switch_next(si.id + 1);
	}
	ctx->done = true;
out:
	kfree(pi);
	return err;
}

int ibsw_nl_port_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ibsw_nl_dump(skb, cb, ibsw_nl_port_dump);
}

int ibsw_nl_port_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibsw_port_cfg *cfg;
	struct ibsw_switch *sw;
	unsigned int port;
	int err;

	if (ibsw_nl_missing(info, IBSW_A_PORT_SWITCH_NAME, "switch-name") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_PORT, "port"))
		return -EINVAL;

	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	err = ibsw_nl_parse_port_cfg(info, IBSW_NL_PORT_SET_MAXATTR, cfg);
	if (err)
		goto free;

	sw = ibsw_nl_switch_port(info, IBSW_A_PORT_SWITCH_NAME,
				 IBSW_A_PORT_PORT, &port);
	err = IS_ERR(sw) ? PTR_ERR(sw) :
		ibsw_port_set(sw, port, cfg, info->extack);
free:
	kvfree(cfg->sl2vl);
	kfree(cfg);
	return err;
}

int ibsw_nl_link_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibsw_switch *sw, *peer;
	unsigned int port, peer_port;
	struct ibsw_port_cfg *cfg;
	int err;

	if (ibsw_nl_missing(info, IBSW_A_PORT_SWITCH_NAME, "switch-name") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_PORT, "port") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_PEER_SWITCH_NAME,
			    "peer-switch-name") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_PEER_PORT, "peer-port"))
		return -EINVAL;

	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	err = ibsw_nl_parse_port_cfg(info, IBSW_NL_LINK_NEW_MAXATTR, cfg);
	if (err)
		goto free;

	sw = ibsw_nl_switch_port(info, IBSW_A_PORT_SWITCH_NAME,
				 IBSW_A_PORT_PORT, &port);
	if (IS_ERR(sw)) {
		err = PTR_ERR(sw);
		goto free;
	}
	peer = ibsw_nl_switch_port(info, IBSW_A_PORT_PEER_SWITCH_NAME,
				   IBSW_A_PORT_PEER_PORT, &peer_port);
	if (IS_ERR(peer)) {
		err = PTR_ERR(peer);
		goto free;
	}
	err = ibsw_link_create(sw, port, peer, peer_port, cfg, info->extack);
free:
	kvfree(cfg->sl2vl);
	kfree(cfg);
	return err;
}

/* link-del, host-del: one port of a switch */
static int ibsw_nl_port_del(struct genl_info *info,
			    int (*del)(struct ibsw_switch *sw,
				       unsigned int port,
				       struct netlink_ext_ack *extack))
{
	struct ibsw_switch *sw;
	unsigned int port;

	if (ibsw_nl_missing(info, IBSW_A_PORT_SWITCH_NAME, "switch-name") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_PORT, "port"))
		return -EINVAL;

	sw = ibsw_nl_switch_port(info, IBSW_A_PORT_SWITCH_NAME,
				 IBSW_A_PORT_PORT, &port);
	return IS_ERR(sw) ? PTR_ERR(sw) : del(sw, port, info->extack);
}

int ibsw_nl_link_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibsw_nl_port_del(info, ibsw_link_destroy);
}

int ibsw_nl_remote_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *mac = info->attrs[IBSW_A_PORT_MAC];
	struct ibsw_port_cfg *cfg;
	struct net_device *dev;
	struct ibsw_switch *sw;
	unsigned int port;
	int err;

	if (ibsw_nl_missing(info, IBSW_A_PORT_SWITCH_NAME, "switch-name") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_PORT, "port") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_IFNAME, "ifname") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_REMOTE_ID, "remote-id"))
		return -EINVAL;
	if (mac && !is_valid_ether_addr(nla_data(mac))) {
		NL_SET_ERR_MSG_ATTR(info->extack, mac,
				    "the peer's mac must be a unicast address");
		return -EINVAL;
	}
	dev = __dev_get_by_name(genl_info_net(info),
				nla_data(info->attrs[IBSW_A_PORT_IFNAME]));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[IBSW_A_PORT_IFNAME],
				    "no such netdev in this namespace");
		return -ENODEV;
	}
	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	err = ibsw_nl_parse_port_cfg(info, IBSW_NL_REMOTE_NEW_MAXATTR, cfg);
	if (err)
		goto free;
	sw = ibsw_nl_switch_port(info, IBSW_A_PORT_SWITCH_NAME,
				 IBSW_A_PORT_PORT, &port);
	if (IS_ERR(sw)) {
		err = PTR_ERR(sw);
		goto free;
	}
	err = ibsw_remote_create(sw, port, dev,
				 nla_get_u32(info->attrs[IBSW_A_PORT_REMOTE_ID]),
				 mac ? nla_data(mac) : NULL, cfg, info->extack);
free:
	kvfree(cfg->sl2vl);
	kfree(cfg);
	return err;
}

int ibsw_nl_remote_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibsw_nl_port_del(info, ibsw_remote_destroy);
}

/*
 * The namespace a host port goes to, or a management HCA belongs to; a
 * reference the caller puts. As for rtnetlink's IFLA_NET_NS_FD, the
 * requester must administer that namespace too.
 */
static struct net *ibsw_nl_target_net(const struct sk_buff *skb,
				      struct genl_info *info)
{
	const struct nlattr *fd = info->attrs[IBSW_A_PORT_NETNS_FD];
	const struct nlattr *pid = info->attrs[IBSW_A_PORT_NETNS_PID];
	struct net *net;

	if (fd && pid) {
		NL_SET_ERR_MSG_ATTR(info->extack, pid,
				    "give netns-fd or netns-pid, not both");
		return ERR_PTR(-EINVAL);
	}
	if (fd) {
		net = get_net_ns_by_fd(nla_get_s32(fd));
		if (IS_ERR(net)) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, fd,
						"netns-fd %d is not a network namespace",
						nla_get_s32(fd));
			return net;
		}
	} else if (pid) {
		net = get_net_ns_by_pid(nla_get_u32(pid));
		if (IS_ERR(net)) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, pid,
						"netns-pid: no process %u",
						nla_get_u32(pid));
			return net;
		}
	} else {
		return get_net(genl_info_net(info));
	}
	if (!netlink_ns_capable(skb, net->user_ns, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG_ATTR(info->extack, fd ?: pid,
				    "no CAP_NET_ADMIN in that network namespace");
		put_net(net);
		return ERR_PTR(-EPERM);
	}
	return net;
}

/* What host-new makes the host port of, beside the request's attributes */
struct ibsw_nl_host_new {
	const struct sk_buff		*skb;	/* the request */
	const struct ibsw_port_cfg	*cfg;
	const char			*ifname;
	const u8			*mac;
};

/* Made once its reply exists, so that the reply cannot fail after */
static int ibsw_nl_host_new_fill(struct sk_buff *msg, struct genl_info *info,
				 const void *arg)
{
	const struct ibsw_nl_host_new *req = arg;
	struct ibsw_port_info *pi;
	struct ibsw_switch *sw;
	unsigned int port;
	struct net *net;
	int err;

	pi = kmalloc(sizeof(*pi), GFP_KERNEL);
	if (!pi)
		return -ENOMEM;
	net = ibsw_nl_target_net(req->skb, info);
	if (IS_ERR(net)) {
		err = PTR_ERR(net);
		goto free;
	}
	sw = ibsw_nl_switch_port(info, IBSW_A_PORT_SWITCH_NAME,
				 IBSW_A_PORT_PORT, &port);
	err = IS_ERR(sw) ? PTR_ERR(sw) :
		ibsw_host_create(sw, port, req->ifname, net, req->mac,
				 req->cfg, info->extack);
	if (!err)
		err = ibsw_nl_port_put(msg, sw, port, pi, genl_info_net(info));
	put_net(net);
free:
	kfree(pi);
	return err;
}

int ibsw_nl_host_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *mac_attr = info->attrs[IBSW_A_PORT_MAC];
	const struct nlattr *ifname_attr = info->attrs[IBSW_A_PORT_IFNAME];
	struct ibsw_nl_host_new req = { .skb = skb };
	struct ibsw_port_cfg *cfg;
	int err;

	if (ibsw_nl_missing(info, IBSW_A_PORT_SWITCH_NAME, "switch-name") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_PORT, "port"))
		return -EINVAL;
	if (mac_attr) {
		req.mac = nla_data(mac_attr);
		if (!is_valid_ether_addr(req.mac)) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, mac_attr,
						"MAC %pM is not a unicast address",
						req.mac);
			return -EINVAL;
		}
	}
	if (ifname_attr) {
		req.ifname = nla_data(ifname_attr);
		if (!dev_valid_name(req.ifname)) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, ifname_attr,
						"ifname \"%s\" is not a valid name",
						req.ifname);
			return -EINVAL;
		}
	}

	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	err = ibsw_nl_parse_port_cfg(info, IBSW_NL_HOST_NEW_MAXATTR, cfg);
	if (!err) {
		req.cfg = cfg;
		err = ibsw_nl_reply(info, ibsw_nl_port_size(IBSW_MAX_PORTS),
				    ibsw_nl_host_new_fill, &req);
	}
	kvfree(cfg->sl2vl);
	kfree(cfg);
	return err;
}

int ibsw_nl_host_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ibsw_nl_port_del(info, ibsw_host_destroy);
}

int ibsw_nl_counters_clear_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibsw_switch *sw;
	unsigned int port = 0;

	if (ibsw_nl_missing(info, IBSW_A_PORT_SWITCH_NAME, "switch-name"))
		return -EINVAL;

	/* without a port: every port of the switch */
	if (info->attrs[IBSW_A_PORT_PORT])
		sw = ibsw_nl_switch_port(info, IBSW_A_PORT_SWITCH_NAME,
					 IBSW_A_PORT_PORT, &port);
	else
		sw = ibsw_nl_switch(info, IBSW_A_PORT_SWITCH_NAME);
	return IS_ERR(sw) ? PTR_ERR(sw) :
		ibsw_counters_clear(sw, port, info->extack);
}

/* ------------------------------------------------------------ notifications */

/**
 * ibsw_nl_notify() - tell the monitor group, if anyone is listening
 * @cmd: the notification
 * @size: room for the attributes @fill puts
 * @fill: puts them
 * @arg: for @fill
 *
 * The one gate of notifications: each ibsw_nl_notify_*() comes here, and
 * their callers call them whenever something changed. A notification is
 * built only if the family is registered (ibsw_nl_live) and has
 * listeners. The family is not netnsok: listeners are all in init_net,
 * where genlmsg_multicast() sends. Each call counts a change for dumps.
 *
 * Context: process context, RTNL held.
 */
void ibsw_nl_notify(u8 cmd, size_t size, ibsw_nl_fill_t fill, const void *arg)
{
	struct sk_buff *msg;

	ASSERT_RTNL();
	if (!++ibsw_nl_gen)
		ibsw_nl_gen = 1;
	if (!READ_ONCE(ibsw_nl_live) ||
	    !genl_has_listeners(&ibsw_nl_family, &init_net,
				IBSW_NLGRP_MONITOR))
		return;
	msg = ibsw_nl_msg(NULL, cmd, size, fill, arg);
	if (!IS_ERR(msg))
		genlmsg_multicast(&ibsw_nl_family, msg, 0, IBSW_NLGRP_MONITOR,
				  GFP_KERNEL);
}

/**
 * ibsw_nl_notify_fabric() - announce a change of the fabric's settings
 *
 * Context: process context, RTNL held.
 */
void ibsw_nl_notify_fabric(void)
{
	ibsw_nl_notify(IBSW_CMD_FABRIC_CHANGE_NTF, ibsw_nl_fabric_size(),
		       ibsw_nl_fabric_fill, NULL);
}

/**
 * ibsw_nl_notify_switch() - announce a switch created, deleted or changed
 * @sw: the switch, still valid when it is being deleted
 * @cmd: %IBSW_CMD_SWITCH_NEW_NTF, _DEL_NTF or _CHANGE_NTF
 *
 * Context: process context, RTNL held.
 */
void ibsw_nl_notify_switch(const struct ibsw_switch *sw, u8 cmd)
{
	if (WARN_ON_ONCE(cmd != IBSW_CMD_SWITCH_NEW_NTF &&
			 cmd != IBSW_CMD_SWITCH_DEL_NTF &&
			 cmd != IBSW_CMD_SWITCH_CHANGE_NTF))
		return;
	ibsw_nl_notify(cmd, ibsw_nl_switch_size(), ibsw_nl_switch_fill, sw);
}

/**
 * ibsw_nl_notify_port() - announce a port configured, (dis)connected or
 *	cleared
 * @sw: its switch
 * @port: its number
 *
 * Context: process context, RTNL held.
 */
void ibsw_nl_notify_port(const struct ibsw_switch *sw, unsigned int port)
{
	const struct ibsw_nl_port_ref ref = { .sw = sw, .port = port };
	struct ibsw_switch_info si;

	ibsw_switch_info(sw, &si);
	ibsw_nl_notify(IBSW_CMD_PORT_CHANGE_NTF, ibsw_nl_port_size(si.nr_ports),
		       ibsw_nl_port_ntf_fill, &ref);
}

/* ---------------------------------------------------------------- lifetime */

/**
 * ibsw_nl_init() - register the family; the last step of module init
 *
 * Return: 0 or the error of genl_register_family().
 */
int ibsw_nl_init(void)
{
	int err;

	/*
	 * ynl-gen makes every family netnsok. This one drives a fabric
	 * shared by the whole kernel, so it exists in the initial namespace
	 * only: other namespaces can neither resolve nor call it, and
	 * notifications go to init_net alone. The family is still writable
	 * here: __ro_after_init takes effect when module init returns.
	 */
	ibsw_nl_family.netnsok = false;
	err = genl_register_family(&ibsw_nl_family);
	if (err)
		return err;
	rtnl_lock();
	WRITE_ONCE(ibsw_nl_live, true);
	rtnl_unlock();
	return 0;
}

/**
 * ibsw_nl_exit() - unregister the family; the first step of module exit
 *
 * After it, no request is running and no notification is sent.
 */
void ibsw_nl_exit(void)
{
	rtnl_lock();
	WRITE_ONCE(ibsw_nl_live, false);
	rtnl_unlock();
	genl_unregister_family(&ibsw_nl_family);
}

struct ibsw_nl_mgmt_new {
	struct ibsw_mgmt	*m;
	u16			lid;
};

static int ibsw_nl_mgmt_new_fill(struct sk_buff *msg, struct genl_info *info,
				 const void *arg)
{
	const struct ibsw_nl_mgmt_new *req = arg;
	struct ibsw_port_info *pi;
	struct ibsw_switch *sw;
	unsigned int port;
	int err;

	pi = kmalloc(sizeof(*pi), GFP_KERNEL);
	if (!pi)
		return -ENOMEM;
	sw = ibsw_nl_switch_port(info, IBSW_A_PORT_SWITCH_NAME,
				 IBSW_A_PORT_PORT, &port);
	err = IS_ERR(sw) ? PTR_ERR(sw) :
		ibsw_mgmt_port_create(sw, port, req->m, req->lid,
				      info->extack);
	if (!err)
		err = ibsw_nl_port_put(msg, sw, port, pi, genl_info_net(info));
	kfree(pi);
	return err;
}

/*
 * A management HCA: its ib_device is registered without RTNL (ib_core's
 * clients take it when a device comes), then cabled under it.
 */
int ibsw_nl_mgmt_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *name_attr = info->attrs[IBSW_A_PORT_IBDEV_NAME];
	const struct nlattr *guid_attr = info->attrs[IBSW_A_PORT_GUID];
	const struct nlattr *lid_attr = info->attrs[IBSW_A_PORT_LID];
	struct ibsw_nl_mgmt_new req = {
		.lid = lid_attr ? nla_get_u32(lid_attr) : 0,
	};
	char desc[64];	/* NodeDescription */
	struct ibsw_switch_info si;
	struct ibsw_switch *sw;
	unsigned int port;
	struct net *net;
	u64 guid;
	int err;

	if (ibsw_nl_missing(info, IBSW_A_PORT_SWITCH_NAME, "switch-name") ||
	    ibsw_nl_missing(info, IBSW_A_PORT_PORT, "port"))
		return -EINVAL;
	rtnl_lock();
	sw = ibsw_nl_switch_port(info, IBSW_A_PORT_SWITCH_NAME,
				 IBSW_A_PORT_PORT, &port);
	if (IS_ERR(sw)) {
		rtnl_unlock();
		return PTR_ERR(sw);
	}
	ibsw_switch_info(sw, &si);
	guid = guid_attr ? nla_get_uint(guid_attr) :
	       ibsw_mgmt_default_guid(sw, port);
	rtnl_unlock();
	snprintf(desc, sizeof(desc), "ibsw management HCA %s/%u", si.name,
		 port);

	net = ibsw_nl_target_net(skb, info);
	if (IS_ERR(net))
		return PTR_ERR(net);
	req.m = ibsw_mgmt_create(name_attr ? nla_data(name_attr) :
				 "ibsw_mgmt%d", guid, desc, net);
	put_net(net);
	if (IS_ERR(req.m)) {
		NL_SET_ERR_MSG_FMT(info->extack,
				   "cannot register the ib_device: %ld",
				   PTR_ERR(req.m));
		return PTR_ERR(req.m);
	}
	rtnl_lock();
	err = ibsw_nl_reply(info, ibsw_nl_port_size(IBSW_MAX_PORTS),
			    ibsw_nl_mgmt_new_fill, &req);
	rtnl_unlock();
	if (err)
		ibsw_mgmt_destroy(req.m);
	return err;
}

int ibsw_nl_mgmt_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	int err;

	rtnl_lock();
	err = ibsw_nl_port_del(info, ibsw_mgmt_port_destroy);
	rtnl_unlock();
	/* Its ib_device goes once its users have closed it */
	if (!err)
		ibsw_mgmt_reap_wait();
	return err;
}
