// SPDX-License-Identifier: GPL-2.0
/*
 * The general service agents of a switch, at its port 0: the GMPs that
 * mad.c hands over for the switch's LID are answered here, in process
 * context under RTNL (a Set changes what netlink changes), and the
 * replies enter the switch at port 0 (ibsw_gmp_send()).
 *
 * The PMA answers from the counters sysfs and netlink show (pma_attr.c
 * lays them out), the congestion control agent from and to the settings
 * netlink shows and sets (cc_mad_attr.c). A class the switch has no agent
 * for is answered as ib_core answers one at a CA: a Get or Set gets its
 * GetResp with the status "method and attribute not supported";
 * responses and notices are dropped (IBA 13.4.9).
 */

#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <rdma/ib_mad.h>

#include "cc_mad_attr.h"
#include "engine.h"
#include "mad_pkt.h"
#include "pma_attr.h"
#include "sma.h"

/**
 * struct ibsw_agent - what a switch's agents keep beyond the switch's
 *	state
 * @cc_key: CongestionKeyInfo and its lease
 */
struct ibsw_agent {
	struct ibsw_cc_key	cc_key;
};

/* Where a PMA MAD's attribute starts (after the header and 40 reserved) */
#define IBSW_PMA_DATA_AT	(IBSW_MAD_OFF + IBSW_PMA_DATA_OFFSET)

/* The counters of port @ps of @sw, or their sums (PortSelect 0xFF) */
static void ibsw_agent_pma_read(struct ibsw_switch *sw, unsigned int ps,
				struct ibsw_counters *cnt,
				struct ibsw_counters *vl_cnt,
				struct ibsw_counters *tmp)
{
	unsigned int p, v;

	if (ps != IBSW_PMA_PORT_SELECT_ALL) {
		/* Port 0, the switch's management port, counts nothing */
		if (ps)
			ibsw_stats_read(sw->ports[ps], cnt, vl_cnt);
		return;
	}
	for (p = 1; p <= sw->nr_ports; p++) {
		ibsw_stats_read(sw->ports[p], &tmp[0], &tmp[1]);
		ibsw_pma_counters_add(cnt, &tmp[0]);
		for (v = 0; v < IBSW_NR_DATA_VLS; v++)
			ibsw_pma_counters_add(&vl_cnt[v], &tmp[1 + v]);
	}
}

/*
 * The PMA: a Set clears what its CounterSelect names, on one port or
 * all; both are answered with the counters as they are then.
 * Return: the MAD status, or IBSW_MAD_NO_REPLY.
 */
static int ibsw_agent_pma(struct ibsw_switch *sw, struct ib_mad_hdr *hdr,
			  u8 *data)
{
	u16 attr = be16_to_cpu(hdr->attr_id);
	struct ibsw_counters *c;
	struct ibsw_pma_clear clr;
	unsigned int p;
	int status;

	status = ibsw_pma_check(hdr, data, sw->nr_ports);
	if (status)
		return status;
	if (hdr->method == IB_MGMT_METHOD_SET) {
		ibsw_pma_clear_get(data, attr, &clr);
		for (p = 1; p <= sw->nr_ports; p++)
			if ((clr.port_select == p ||
			     clr.port_select == IBSW_PMA_PORT_SELECT_ALL) &&
			    ibsw_stats_clear_sel(sw->ports[p], clr.cnt,
						 clr.vl_cnt, clr.vls))
				return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	/* A port's and its VLs' counters, then room to sum ports */
	c = kcalloc(2 * (1 + IBSW_NR_DATA_VLS), sizeof(*c), GFP_KERNEL);
	if (!c)
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	ibsw_agent_pma_read(sw, data[1], &c[0], &c[1],
			    &c[1 + IBSW_NR_DATA_VLS]);
	ibsw_pma_put(data, attr, data[1], &c[0], &c[1]);
	kfree(c);
	return 0;
}

/*
 * SwitchCongestionSetting and SwitchPortCongestionSetting: a Set goes
 * through ibsw_cc_set(), as netlink's cc-set does; both are answered
 * with the settings as they are then.
 */
static int ibsw_agent_cc_setting(struct ibsw_switch *sw, u16 attr, u32 mod,
				 bool set, u8 *data)
{
	struct ibsw_cc_port_setting ports[IBSW_CC_SW_PORT_BLOCK];
	struct ibsw_cc_setting req = {};
	struct ibsw_cc_info *info;
	unsigned int nr = 0;
	int status = 0;

	if (set) {
		if (attr == IBSW_CC_ATTR_SW_SETTING)
			ibsw_cc_sw_setting_get(data, &req);
		else
			nr = ibsw_cc_sw_port_get(data, mod, sw->nr_ports, ports);
		if (ibsw_cc_set(sw, &req, ports, nr, NULL))
			status = IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info || ibsw_cc_get(sw, info)) {
		kfree(info);
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	if (attr == IBSW_CC_ATTR_SW_SETTING)
		ibsw_cc_sw_setting_put(data, &info->sw);
	else
		ibsw_cc_sw_port_put(data, mod, info->port, info->nr_ports);
	kfree(info);
	return status;
}

/*
 * The congestion control agent: CC_Key checked as the rxe series checks
 * it (a wrong key is answered with 0x001C and counted in the key's
 * violations); a CongestionLog read clears the log, as the IBA says.
 * Return: the MAD status, or IBSW_MAD_NO_REPLY.
 */
static int ibsw_agent_cc(struct ibsw_switch *sw, struct ib_mad *mad)
{
	struct ib_mad_hdr *hdr = &mad->mad_hdr;
	u8 *data = (u8 *)mad + IBSW_CC_MAD_DATA_OFFSET;
	u16 attr = be16_to_cpu(hdr->attr_id);
	struct ibsw_cc_log_info *log;
	bool set = hdr->method == IB_MGMT_METHOD_SET;
	int status;

	status = ibsw_cc_check(hdr, sw->nr_ports);
	if (status)
		return status;
	if (!sw->agent) {
		sw->agent = kzalloc(sizeof(*sw->agent), GFP_KERNEL);
		if (!sw->agent)
			return IBSW_MAD_NO_REPLY;
	}
	if (!ibsw_cc_key_check(&sw->agent->cc_key, mad, ktime_get_ns()))
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	switch (attr) {
	case IBSW_CC_ATTR_CLASS_PORT_INFO:
		ibsw_cc_cpi_put(data);
		break;
	case IBSW_CC_ATTR_CONG_INFO:
		ibsw_cc_info_put(data, 0);
		break;
	case IBSW_CC_ATTR_KEY_INFO:
		if (set)
			ibsw_cc_key_info_set(&sw->agent->cc_key, data);
		ibsw_cc_key_info_put(data, &sw->agent->cc_key);
		break;
	case IBSW_CC_ATTR_LOG:
		log = kmalloc(sizeof(*log), GFP_KERNEL);
		if (!log)
			return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
		ibsw_cc_log_get(sw, log);
		ibsw_cc_log_info_put((u8 *)mad + IBSW_CC_MAD_LOG_OFFSET, log);
		ibsw_cc_log_clear(sw);
		kfree(log);
		break;
	case IBSW_CC_ATTR_SW_SETTING:
	case IBSW_CC_ATTR_SW_PORT_SETTING:
		return ibsw_agent_cc_setting(sw, attr,
					     be32_to_cpu(hdr->attr_mod), set,
					     data);
	case IBSW_CC_ATTR_TIMESTAMP:
		ibsw_cc_timestamp_put(data,
				      ibsw_cc_timestamp(ktime_get_ns(),
							READ_ONCE(ibsw_fabric.time_scale)));
		break;
	default:
		return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	}
	return 0;
}

/* Turn the request in @skb into its reply and send it from port 0 */
static void ibsw_agent_reply(struct ibsw_switch *sw, struct sk_buff *skb,
			     u16 status)
{
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)(skb->data + IBSW_MAD_OFF);
	struct ibsw_skb_cb *cb = ibsw_cb(skb);
	struct ibsw_mad_addr a;

	ibsw_mad_hdrs_get(skb->data, skb->len, &a);
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	hdr->status = cpu_to_be16(status);
	a.dlid = a.slid;
	a.slid = sw->sma_lid;
	a.dqp = a.sqp;
	a.sqp = 1;
	a.qkey = IB_QP1_QKEY;
	ibsw_mad_hdrs_put(skb->data, &a);
	memset(cb, 0, sizeof(*cb));
	cb->wire_len = IBSW_MAD_WIRE_LEN;
	cb->dlid = a.dlid;
	cb->slid = a.slid;
	cb->sl = a.sl;
	cb->flags = IBSW_CB_IB;

	local_bh_disable();
	rcu_read_lock();
	ibsw_gmp_send(sw, skb);
	rcu_read_unlock();
	local_bh_enable();
}

static void ibsw_agent_one(struct sk_buff *skb)
{
	const struct ibsw_sma_cb *scb = ibsw_sma_cb(skb);
	struct ib_mad_hdr *hdr;
	struct ibsw_mad_addr a;
	struct ibsw_switch *sw;
	int status;

	sw = xa_load(&ibsw_fabric.switches, scb->sw_id);
	if (!sw || ibsw_mad_hdrs_get(skb->data, skb->len, &a) || a.dqp != 1)
		goto drop;
	hdr = (struct ib_mad_hdr *)(skb->data + IBSW_MAD_OFF);
	switch (hdr->mgmt_class) {
	case IB_MGMT_CLASS_PERF_MGMT:
		status = ibsw_agent_pma(sw, hdr, skb->data + IBSW_PMA_DATA_AT);
		break;
	case IB_MGMT_CLASS_CONG_MGMT:
		status = ibsw_agent_cc(sw, (struct ib_mad *)hdr);
		break;
	default:
		status = ibsw_gmp_check(hdr, hdr->mgmt_class,
					hdr->class_version) ?:
			 IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		break;
	}
	if (status == IBSW_MAD_NO_REPLY)
		goto drop;
	ibsw_agent_reply(sw, skb, status);
	return;
drop:
	kfree_skb(skb);
}

/**
 * ibsw_agent_work() - answer the GMPs waiting for the switches' agents
 * @work: ibsw_fabric.agent_work
 *
 * Context: process; takes RTNL.
 */
void ibsw_agent_work(struct work_struct *work)
{
	struct sk_buff_head *q = &ibsw_fabric.agent_queue;
	struct sk_buff *skb;

	rtnl_lock();
	while ((skb = skb_dequeue(q)))
		ibsw_agent_one(skb);
	rtnl_unlock();
}
