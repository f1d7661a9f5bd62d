// SPDX-License-Identifier: GPL-2.0
/*
 * The congestion control ops of the ibsw netlink family (design §8):
 * cc-get, cc-set, cc-log-get and cc-log-clear, and the cc-change-ntf
 * notification. They marshal to and from ccctl.c through ctl.h, with the
 * helpers of netlink.h; netlink.c has the rest of the family.
 */

#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "compat.h"
#include "ctl.h"
#include "genl.h"
#include "netlink.h"

/* Upper bound of a cc-get reply (or notification) of @nr_ports ports */
static size_t ibsw_nl_cc_size(unsigned int nr_ports)
{
	/* port, vls-congested; valid, control-type, threshold, packet-size; rate */
	size_t port = nla_total_size(0) + 2 * nla_total_size(sizeof(u32)) +
		      4 * nla_total_size(sizeof(u8)) +
		      nla_total_size(sizeof(u16));

	return nla_total_size(IBSW_NAME_LEN + 1) +
	       nla_total_size(sizeof(u16)) +			/* info */
	       nla_total_size(sizeof(u32)) +			/* control-map */
	       2 * nla_total_size(IBSW_CC_MASK_BYTES) +		/* masks */
	       /* threshold, packet-size, cs-threshold, fill-compare */
	       4 * nla_total_size(sizeof(u8)) +
	       2 * nla_total_size(sizeof(u16)) +	/* cs-return-delay, marking-rate */
	       nr_ports * port;
}

static size_t ibsw_nl_cc_log_size(void)
{
	size_t ev = nla_total_size(0) + 6 * nla_total_size(sizeof(u32));

	return nla_total_size(IBSW_NAME_LEN + 1) +
	       2 * nla_total_size(sizeof(u32)) +	/* events-counter, timestamp */
	       nla_total_size(sizeof(u64)) +		/* threshold-events */
	       nla_total_size(IBSW_CC_MASK_BYTES) +	/* port-map */
	       IBSW_CC_LOG_EVENTS * ev;
}

static int ibsw_nl_cc_put(struct sk_buff *skb, const struct ibsw_switch *sw,
			  struct ibsw_cc_info *ci)
{
	static const u8 zero[IBSW_CC_MASK_BYTES];
	struct ibsw_switch_info si;
	struct nlattr *nest;
	unsigned int i;
	int err;

	ibsw_switch_info(sw, &si);
	err = ibsw_cc_get(sw, ci);
	if (err)
		return err;
	if (nla_put_string(skb, IBSW_A_CC_SWITCH_NAME, si.name) ||
	    nla_put_u16(skb, IBSW_A_CC_INFO, ci->info) ||
	    nla_put_u32(skb, IBSW_A_CC_CONTROL_MAP, ci->sw.control_map) ||
	    nla_put(skb, IBSW_A_CC_VICTIM_MASK, IBSW_CC_MASK_BYTES,
		    ci->sw.victim_mask) ||
	    nla_put(skb, IBSW_A_CC_CREDIT_MASK, IBSW_CC_MASK_BYTES, zero) ||
	    nla_put_u8(skb, IBSW_A_CC_THRESHOLD, ci->sw.threshold) ||
	    nla_put_u8(skb, IBSW_A_CC_PACKET_SIZE, ci->sw.packet_size) ||
	    nla_put_u8(skb, IBSW_A_CC_CS_THRESHOLD, 0) ||
	    nla_put_u16(skb, IBSW_A_CC_CS_RETURN_DELAY, 0) ||
	    nla_put_u16(skb, IBSW_A_CC_MARKING_RATE, ci->sw.marking_rate) ||
	    nla_put_u8(skb, IBSW_A_CC_FILL_COMPARE, ci->sw.fill_compare))
		return -EMSGSIZE;
	for (i = 0; i < ci->nr_ports; i++) {
		const struct ibsw_cc_port_setting *ps = &ci->port[i];

		nest = nla_nest_start(skb, IBSW_A_CC_PORT_SETTING);
		if (!nest ||
		    nla_put_u32(skb, IBSW_A_CC_PORT_PORT, ps->port) ||
		    nla_put_u8(skb, IBSW_A_CC_PORT_VALID, ps->valid) ||
		    nla_put_u8(skb, IBSW_A_CC_PORT_CONTROL_TYPE, 0) ||
		    nla_put_u8(skb, IBSW_A_CC_PORT_THRESHOLD, ps->threshold) ||
		    nla_put_u8(skb, IBSW_A_CC_PORT_PACKET_SIZE,
			       ps->packet_size) ||
		    nla_put_u16(skb, IBSW_A_CC_PORT_MARKING_RATE,
				ps->marking_rate) ||
		    nla_put_u32(skb, IBSW_A_CC_PORT_VLS_CONGESTED,
				ps->vls_congested))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* cc-get and cc-change-ntf; @arg: the switch */
static int ibsw_nl_cc_fill(struct sk_buff *msg, struct genl_info *info,
			   const void *arg)
{
	struct ibsw_cc_info *ci;
	int err;

	ci = kvmalloc(sizeof(*ci), GFP_KERNEL);
	if (!ci)
		return -ENOMEM;
	err = ibsw_nl_cc_put(msg, arg, ci);
	kvfree(ci);
	return err;
}

int ibsw_nl_cc_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibsw_switch_info si;
	struct ibsw_switch *sw;

	if (ibsw_nl_missing(info, IBSW_A_CC_SWITCH_NAME, "switch-name"))
		return -EINVAL;
	sw = ibsw_nl_switch(info, IBSW_A_CC_SWITCH_NAME);
	if (IS_ERR(sw))
		return PTR_ERR(sw);
	ibsw_switch_info(sw, &si);
	return ibsw_nl_reply(info, ibsw_nl_cc_size(si.nr_ports),
			     ibsw_nl_cc_fill, sw);
}

/* The port-setting nests of a cc-set; *ports is kvfree()d by the caller */
static int ibsw_nl_parse_cc_ports(struct genl_info *info,
				  struct ibsw_cc_port_setting **ports,
				  unsigned int *nr)
{
	struct nlattr *tb[IBSW_A_CC_PORT_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct ibsw_cc_port_setting *ps;
	unsigned int n = 0;
	struct nlattr *a;
	int rem, err;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		n += nla_type(a) == IBSW_A_CC_PORT_SETTING;
	*nr = 0;
	if (!n)
		return 0;
	if (n > IBSW_MAX_PORTS) {
		NL_SET_ERR_MSG_FMT(extack, "%u port-settings: at most %u", n,
				   IBSW_MAX_PORTS);
		return -EINVAL;
	}
	*ports = kvcalloc(n, sizeof(**ports), GFP_KERNEL);
	if (!*ports)
		return -ENOMEM;

	ps = *ports;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != IBSW_A_CC_PORT_SETTING)
			continue;
		err = nla_parse_nested(tb, IBSW_A_CC_PORT_MAX, a,
				       ibsw_cc_port_nl_policy, extack);
		if (err)
			return err;
		if (ibsw_nl_nest_missing(extack, a, tb, IBSW_A_CC_PORT_PORT,
					 "port-setting", "port"))
			return -EINVAL;
		if (tb[IBSW_A_CC_PORT_VLS_CONGESTED]) {
			NL_SET_ERR_MSG_ATTR(extack,
					    tb[IBSW_A_CC_PORT_VLS_CONGESTED],
					    "port-setting: vls-congested is state, it cannot be set");
			return -EINVAL;
		}
		ps->port = nla_get_u32(tb[IBSW_A_CC_PORT_PORT]);
		if (tb[IBSW_A_CC_PORT_VALID]) {
			ps->set |= IBSW_CC_PORT_VALID;
			ps->valid = nla_get_u8(tb[IBSW_A_CC_PORT_VALID]);
		}
		if (tb[IBSW_A_CC_PORT_CONTROL_TYPE]) {
			ps->set |= IBSW_CC_PORT_CONTROL_TYPE;
			ps->control_type =
				nla_get_u8(tb[IBSW_A_CC_PORT_CONTROL_TYPE]);
		}
		if (tb[IBSW_A_CC_PORT_THRESHOLD]) {
			ps->set |= IBSW_CC_PORT_THRESHOLD;
			ps->threshold = nla_get_u8(tb[IBSW_A_CC_PORT_THRESHOLD]);
		}
		if (tb[IBSW_A_CC_PORT_PACKET_SIZE]) {
			ps->set |= IBSW_CC_PORT_PACKET_SIZE;
			ps->packet_size =
				nla_get_u8(tb[IBSW_A_CC_PORT_PACKET_SIZE]);
		}
		if (tb[IBSW_A_CC_PORT_MARKING_RATE]) {
			ps->set |= IBSW_CC_PORT_MARKING_RATE;
			ps->marking_rate =
				nla_get_u16(tb[IBSW_A_CC_PORT_MARKING_RATE]);
		}
		ps++;
		(*nr)++;
	}
	return 0;
}

static void ibsw_nl_parse_cc(struct genl_info *info,
			     struct ibsw_cc_setting *req)
{
	struct nlattr **tb = info->attrs;

	if (tb[IBSW_A_CC_CONTROL_MAP]) {
		req->set |= IBSW_CC_SET_CONTROL_MAP;
		req->control_map = nla_get_u32(tb[IBSW_A_CC_CONTROL_MAP]);
	}
	if (tb[IBSW_A_CC_VICTIM_MASK]) {
		req->set |= IBSW_CC_SET_VICTIM_MASK;
		nla_memcpy(req->victim_mask, tb[IBSW_A_CC_VICTIM_MASK],
			   sizeof(req->victim_mask));
	}
	if (tb[IBSW_A_CC_CREDIT_MASK]) {
		req->set |= IBSW_CC_SET_CREDIT_MASK;
		nla_memcpy(req->credit_mask, tb[IBSW_A_CC_CREDIT_MASK],
			   sizeof(req->credit_mask));
	}
	if (tb[IBSW_A_CC_THRESHOLD]) {
		req->set |= IBSW_CC_SET_THRESHOLD;
		req->threshold = nla_get_u8(tb[IBSW_A_CC_THRESHOLD]);
	}
	if (tb[IBSW_A_CC_PACKET_SIZE]) {
		req->set |= IBSW_CC_SET_PACKET_SIZE;
		req->packet_size = nla_get_u8(tb[IBSW_A_CC_PACKET_SIZE]);
	}
	if (tb[IBSW_A_CC_CS_THRESHOLD]) {
		req->set |= IBSW_CC_SET_CS_THRESHOLD;
		req->cs_threshold = nla_get_u8(tb[IBSW_A_CC_CS_THRESHOLD]);
	}
	if (tb[IBSW_A_CC_CS_RETURN_DELAY]) {
		req->set |= IBSW_CC_SET_CS_RETURN_DELAY;
		req->cs_return_delay = nla_get_u16(tb[IBSW_A_CC_CS_RETURN_DELAY]);
	}
	if (tb[IBSW_A_CC_MARKING_RATE]) {
		req->set |= IBSW_CC_SET_MARKING_RATE;
		req->marking_rate = nla_get_u16(tb[IBSW_A_CC_MARKING_RATE]);
	}
	if (tb[IBSW_A_CC_FILL_COMPARE]) {
		req->set |= IBSW_CC_SET_FILL_COMPARE;
		req->fill_compare = nla_get_u8(tb[IBSW_A_CC_FILL_COMPARE]);
	}
}

int ibsw_nl_cc_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibsw_cc_port_setting *ports = NULL;
	struct ibsw_cc_setting *req;
	struct ibsw_switch *sw;
	unsigned int nr;
	int err;

	if (ibsw_nl_missing(info, IBSW_A_CC_SWITCH_NAME, "switch-name"))
		return -EINVAL;
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ibsw_nl_parse_cc(info, req);
	err = ibsw_nl_parse_cc_ports(info, &ports, &nr);
	if (err)
		goto out;
	if (!(req->set & ~IBSW_CC_SET_CONTROL_MAP) && !nr) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to set: give a setting or a port-setting");
		err = -EINVAL;
		goto out;
	}
	sw = ibsw_nl_switch(info, IBSW_A_CC_SWITCH_NAME);
	err = IS_ERR(sw) ? PTR_ERR(sw) :
		ibsw_cc_set(sw, req, ports, nr, info->extack);
out:
	kvfree(ports);
	kfree(req);
	return err;
}

static int ibsw_nl_cc_log_put(struct sk_buff *skb, const char *name,
			      const struct ibsw_cc_log_info *li)
{
	struct nlattr *nest;
	unsigned int i;

	if (nla_put_string(skb, IBSW_A_CC_LOG_SWITCH_NAME, name) ||
	    nla_put_u32(skb, IBSW_A_CC_LOG_EVENTS_COUNTER, li->events_counter) ||
	    nla_put_uint(skb, IBSW_A_CC_LOG_THRESHOLD_EVENTS,
			 li->threshold_events) ||
	    nla_put_u32(skb, IBSW_A_CC_LOG_CURRENT_TIMESTAMP,
			li->current_timestamp) ||
	    nla_put(skb, IBSW_A_CC_LOG_PORT_MAP, IBSW_CC_MASK_BYTES,
		    li->port_map))
		return -EMSGSIZE;
	for (i = 0; i < li->nr_events; i++) {
		const struct ibsw_cc_log_event *ev = &li->event[i];

		nest = nla_nest_start(skb, IBSW_A_CC_LOG_EVENT);
		if (!nest ||
		    nla_put_u32(skb, IBSW_A_CC_LOG_EVENT_SLID, ev->slid) ||
		    nla_put_u32(skb, IBSW_A_CC_LOG_EVENT_DLID, ev->dlid) ||
		    nla_put_u32(skb, IBSW_A_CC_LOG_EVENT_SL, ev->sl) ||
		    nla_put_u32(skb, IBSW_A_CC_LOG_EVENT_TIMESTAMP,
				ev->timestamp) ||
		    nla_put_u32(skb, IBSW_A_CC_LOG_EVENT_PORT, ev->port) ||
		    nla_put_u32(skb, IBSW_A_CC_LOG_EVENT_VL, ev->vl))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int ibsw_nl_cc_log_get_fill(struct sk_buff *msg,
				   struct genl_info *info, const void *arg)
{
	struct ibsw_cc_log_info *li;
	struct ibsw_switch_info si;
	struct ibsw_switch *sw;
	int err;

	li = kmalloc(sizeof(*li), GFP_KERNEL);
	if (!li)
		return -ENOMEM;
	sw = ibsw_nl_switch(info, IBSW_A_CC_LOG_SWITCH_NAME);
	if (IS_ERR(sw)) {
		err = PTR_ERR(sw);
		goto free;
	}
	ibsw_switch_info(sw, &si);
	ibsw_cc_log_get(sw, li);
	err = ibsw_nl_cc_log_put(msg, si.name, li);
free:
	kfree(li);
	return err;
}

int ibsw_nl_cc_log_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (ibsw_nl_missing(info, IBSW_A_CC_LOG_SWITCH_NAME, "switch-name"))
		return -EINVAL;
	return ibsw_nl_reply(info, ibsw_nl_cc_log_size(),
			     ibsw_nl_cc_log_get_fill, NULL);
}

int ibsw_nl_cc_log_clear_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ibsw_switch *sw;

	if (ibsw_nl_missing(info, IBSW_A_CC_LOG_SWITCH_NAME, "switch-name"))
		return -EINVAL;
	sw = ibsw_nl_switch(info, IBSW_A_CC_LOG_SWITCH_NAME);
	if (IS_ERR(sw))
		return PTR_ERR(sw);
	ibsw_cc_log_clear(sw);
	return 0;
}

/* ------------------------------------------------------------ notifications */

/**
 * ibsw_nl_notify_cc() - announce a change of a switch's congestion control
 * @sw: the switch
 *
 * Context: process context, RTNL held.
 */
void ibsw_nl_notify_cc(const struct ibsw_switch *sw)
{
	struct ibsw_switch_info si;

	ibsw_switch_info(sw, &si);
	ibsw_nl_notify(IBSW_CMD_CC_CHANGE_NTF, ibsw_nl_cc_size(si.nr_ports),
		       ibsw_nl_cc_fill, sw);
}
