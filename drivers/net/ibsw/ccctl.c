// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion control settings and the CongestionLog of a switch
 * (design §8): SwitchCongestionSetting, SwitchPortCongestionSetting and
 * CongestionLog as the netlink family sees them (ctl.h), and the effective
 * settings each output engine runs with.
 *
 * Settings change under RTNL and are pushed to the engines under their
 * locks. Each output engine logs the packets it marks in its own share of
 * the log, under the lock it already holds; reading the log merges the
 * ports' shares.
 *
 * Credit starvation is not implemented: CongestionInfo says so, and
 * cc-set accepts its parameters only as zero.
 */

#include <linux/rtnetlink.h>

#include "engine.h"

static_assert(IBSW_CC_MASK_BYTES == IBSW_CC_MASK_LEN);

/**
 * ibsw_cc_switch_init() - congestion control of a new switch: off
 * @sw: the switch, before its ports exist
 */
void ibsw_cc_switch_init(struct ibsw_switch *sw)
{
	memset(&sw->cc, 0, sizeof(sw->cc));
	atomic64_set(&sw->cc_threshold_events, 0);
}

/* A valid port setting overrides the switch's; the victim bit is the switch's */
static void ibsw_cc_params_of(const struct ibsw_port *port,
			      struct ibsw_cc_params *p)
{
	const struct ibsw_cc_setting *s = &port->sw->cc;

	if (port->cc.valid) {
		p->threshold = port->cc.threshold;
		p->packet_size = port->cc.packet_size;
		p->marking_rate = port->cc.marking_rate;
	} else {
		p->threshold = s->threshold;
		p->packet_size = s->packet_size;
		p->marking_rate = s->marking_rate;
	}
	p->victim = ibsw_cc_mask_test(s->victim_mask, port->num);
	p->fill_compare = s->fill_compare;
}

/**
 * ibsw_cc_port_update() - push a port's effective settings to its engine
 * @port: the port
 *
 * Context: RTNL.
 */
void ibsw_cc_port_update(struct ibsw_port *port)
{
	struct ibsw_cc_params p;

	ASSERT_RTNL();
	ibsw_cc_params_of(port, &p);
	ibsw_engine_set_cc(port->out, &p);
}

int ibsw_cc_get(const struct ibsw_switch *sw, struct ibsw_cc_info *info)
{
	unsigned int i;

	ASSERT_RTNL();
	memset(info, 0, sizeof(*info));
	info->info = 0;		/* no credit starvation */
	info->sw = sw->cc;
	info->sw.set = 0;
	info->nr_ports = sw->nr_ports;
	for (i = 1; i <= sw->nr_ports; i++) {
		struct ibsw_cc_port_setting *ps = &info->port[i - 1];
		struct ibsw_port *port = sw->ports[i];

		*ps = port->cc;
		ps->port = i;
		ps->set = 0;
		ps->control_type = 0;
		ps->vls_congested = ibsw_engine_cc_state(port->out);
	}
	return 0;
}

/* Does a request apply the component @comp (an IBSW_CC_CONTROL_MAP_*)? */
static bool ibsw_cc_applies(const struct ibsw_cc_setting *req, u32 comp)
{
	return !(req->set & IBSW_CC_SET_CONTROL_MAP) ||
	       (req->control_map & comp);
}

/* The fields of @req that apply: given, and in the Control_Map if any */
static u32 ibsw_cc_fields(const struct ibsw_cc_setting *req)
{
	static const struct {
		u32	field;
		u32	comp;
	} map[] = {
		{ IBSW_CC_SET_VICTIM_MASK, IBSW_CC_CONTROL_MAP_VICTIM_MASK },
		{ IBSW_CC_SET_CREDIT_MASK, IBSW_CC_CONTROL_MAP_CREDIT_MASK },
		{ IBSW_CC_SET_THRESHOLD, IBSW_CC_CONTROL_MAP_THRESHOLD },
		{ IBSW_CC_SET_PACKET_SIZE, IBSW_CC_CONTROL_MAP_THRESHOLD },
		{ IBSW_CC_SET_CS_THRESHOLD, IBSW_CC_CONTROL_MAP_CS },
		{ IBSW_CC_SET_CS_RETURN_DELAY, IBSW_CC_CONTROL_MAP_CS },
		{ IBSW_CC_SET_MARKING_RATE, IBSW_CC_CONTROL_MAP_MARKING_RATE },
	};
	unsigned int i;
	u32 fields = 0;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if ((req->set & map[i].field) && ibsw_cc_applies(req, map[i].comp))
			fields |= map[i].field;
	return fields;
}

/* The Control_Map a get reports: the components the last set applied */
static u32 ibsw_cc_applied_map(u32 fields)
{
	u32 m = 0;

	if (fields & IBSW_CC_SET_VICTIM_MASK)
		m |= IBSW_CC_CONTROL_MAP_VICTIM_MASK;
	if (fields & IBSW_CC_SET_CREDIT_MASK)
		m |= IBSW_CC_CONTROL_MAP_CREDIT_MASK;
	if (fields & (IBSW_CC_SET_THRESHOLD | IBSW_CC_SET_PACKET_SIZE))
		m |= IBSW_CC_CONTROL_MAP_THRESHOLD;
	if (fields & (IBSW_CC_SET_CS_THRESHOLD | IBSW_CC_SET_CS_RETURN_DELAY))
		m |= IBSW_CC_CONTROL_MAP_CS;
	if (fields & IBSW_CC_SET_MARKING_RATE)
		m |= IBSW_CC_CONTROL_MAP_MARKING_RATE;
	return m;
}

static int ibsw_cc_check_switch(const struct ibsw_switch *sw,
				const struct ibsw_cc_setting *req, u32 fields,
				struct netlink_ext_ack *extack)
{
	int bad;

	if (fields & IBSW_CC_SET_VICTIM_MASK) {
		bad = ibsw_cc_mask_check(req->victim_mask, sw->nr_ports);
		if (bad >= 0) {
			NL_SET_ERR_MSG_FMT(extack,
					   "victim-mask names port %d: switch %s has ports 1 to %u",
					   bad, sw->name, sw->nr_ports);
			return -EINVAL;
		}
	}
	if ((fields & IBSW_CC_SET_CREDIT_MASK) &&
	    !ibsw_cc_mask_empty(req->credit_mask)) {
		NL_SET_ERR_MSG(extack,
			       "credit starvation is not supported: credit-mask must be zero");
		return -EOPNOTSUPP;
	}
	if ((fields & IBSW_CC_SET_THRESHOLD) &&
	    req->threshold > IBSW_CC_THRESHOLD_MAX) {
		NL_SET_ERR_MSG_FMT(extack, "threshold %u: want 0 to %u",
				   req->threshold, IBSW_CC_THRESHOLD_MAX);
		return -EINVAL;
	}
	if ((req->set & IBSW_CC_SET_FILL_COMPARE) &&
	    req->fill_compare > IBSW_CC_FILL_COMPARE_PER_INPUT) {
		NL_SET_ERR_MSG_FMT(extack, "fill-compare %u: want 0 to %u",
				   req->fill_compare,
				   IBSW_CC_FILL_COMPARE_PER_INPUT);
		return -EINVAL;
	}
	if ((fields & IBSW_CC_SET_CS_THRESHOLD) && req->cs_threshold) {
		NL_SET_ERR_MSG_FMT(extack,
				   "credit starvation is not supported: cs-threshold %u must be 0",
				   req->cs_threshold);
		return -EOPNOTSUPP;
	}
	if ((fields & IBSW_CC_SET_CS_RETURN_DELAY) && req->cs_return_delay) {
		NL_SET_ERR_MSG_FMT(extack,
				   "credit starvation is not supported: cs-return-delay %#x must be 0",
				   req->cs_return_delay);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int ibsw_cc_check_ports(const struct ibsw_switch *sw,
			       const struct ibsw_cc_port_setting *ports,
			       unsigned int nr, struct netlink_ext_ack *extack)
{
	DECLARE_BITMAP(seen, IBSW_MAX_PORTS + 1);
	unsigned int i;

	bitmap_zero(seen, IBSW_MAX_PORTS + 1);
	for (i = 0; i < nr; i++) {
		const struct ibsw_cc_port_setting *ps = &ports[i];

		if (ps->port < 1 || ps->port > sw->nr_ports) {
			NL_SET_ERR_MSG_FMT(extack,
					   "port-setting for port %u: switch %s has ports 1 to %u",
					   ps->port, sw->name, sw->nr_ports);
			return -EINVAL;
		}
		if (__test_and_set_bit(ps->port, seen)) {
			NL_SET_ERR_MSG_FMT(extack,
					   "port-setting for port %u given twice",
					   ps->port);
			return -EINVAL;
		}
		if ((ps->set & IBSW_CC_PORT_CONTROL_TYPE) && ps->control_type) {
			NL_SET_ERR_MSG_FMT(extack,
					   "port-setting for port %u: control-type %u (credit starvation) is not supported",
					   ps->port, ps->control_type);
			return -EOPNOTSUPP;
		}
		if ((ps->set & IBSW_CC_PORT_VALID) && ps->valid > 1) {
			NL_SET_ERR_MSG_FMT(extack,
					   "port-setting for port %u: valid %u: want 0 or 1",
					   ps->port, ps->valid);
			return -EINVAL;
		}
		if ((ps->set & IBSW_CC_PORT_THRESHOLD) &&
		    ps->threshold > IBSW_CC_THRESHOLD_MAX) {
			NL_SET_ERR_MSG_FMT(extack,
					   "port-setting for port %u: threshold %u: want 0 to %u",
					   ps->port, ps->threshold,
					   IBSW_CC_THRESHOLD_MAX);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * ibsw_cc_set() - change a switch's congestion control settings
 * @sw: the switch
 * @req: SwitchCongestionSetting fields, those of @req->set given; with
 *	%IBSW_CC_SET_CONTROL_MAP only the components of @req->control_map
 *	apply (the others are ignored, as the IBA's Control_Map says)
 * @ports: SwitchPortCongestionSetting elements to change
 * @nr: entries of @ports
 * @extack: why a request is refused
 *
 * All or nothing: everything is checked before anything changes.
 * Unsupported credit starvation parameters (non-zero) are refused with
 * -EOPNOTSUPP, other bad values with -EINVAL.
 *
 * Context: RTNL.
 * Return: 0 or a negative errno.
 */
int ibsw_cc_set(struct ibsw_switch *sw, const struct ibsw_cc_setting *req,
		const struct ibsw_cc_port_setting *ports, unsigned int nr,
		struct netlink_ext_ack *extack)
{
	struct ibsw_cc_setting *s = &sw->cc;
	u32 fields = ibsw_cc_fields(req);
	unsigned int i;
	int err;

	ASSERT_RTNL();
	err = ibsw_cc_check_switch(sw, req, fields, extack);
	if (err)
		return err;
	err = ibsw_cc_check_ports(sw, ports, nr, extack);
	if (err)
		return err;

	/* Nothing fails from here on */
	if (fields & IBSW_CC_SET_VICTIM_MASK)
		memcpy(s->victim_mask, req->victim_mask, sizeof(s->victim_mask));
	if (fields & IBSW_CC_SET_THRESHOLD)
		s->threshold = req->threshold;
	if (fields & IBSW_CC_SET_PACKET_SIZE)
		s->packet_size = req->packet_size;
	if (fields & IBSW_CC_SET_MARKING_RATE)
		s->marking_rate = req->marking_rate;
	if (req->set & IBSW_CC_SET_FILL_COMPARE)
		s->fill_compare = req->fill_compare;
	if (req->set & IBSW_CC_SET_CONTROL_MAP)
		s->control_map = req->control_map;
	else if (fields)
		s->control_map = ibsw_cc_applied_map(fields);
	for (i = 0; i < nr; i++) {
		const struct ibsw_cc_port_setting *ps = &ports[i];
		struct ibsw_cc_port_setting *pc = &sw->ports[ps->port]->cc;

		if (ps->set & IBSW_CC_PORT_VALID)
			pc->valid = ps->valid;
		if (ps->set & IBSW_CC_PORT_THRESHOLD)
			pc->threshold = ps->threshold;
		if (ps->set & IBSW_CC_PORT_PACKET_SIZE)
			pc->packet_size = ps->packet_size;
		if (ps->set & IBSW_CC_PORT_MARKING_RATE)
			pc->marking_rate = ps->marking_rate;
	}
	for (i = 1; i <= sw->nr_ports; i++)
		ibsw_cc_port_update(sw->ports[i]);
	ibsw_nl_notify_cc(sw);
	return 0;
}

void ibsw_cc_log_get(struct ibsw_switch *sw, struct ibsw_cc_log_info *info)
{
	struct ibsw_cc_event ev[IBSW_CC_LOG_EVENTS];
	struct ibsw_cc_event port_ev[IBSW_CC_LOG_EVENTS];
	unsigned int i, j, n = 0;

	memset(info, 0, sizeof(*info));
	for (i = 1; i <= sw->nr_ports; i++) {
		unsigned int nr;
		bool marked;
		u32 events;

		nr = ibsw_engine_cc_log_read(sw->ports[i]->out, port_ev,
					     &events, &marked);
		for (j = 0; j < nr; j++)
			ibsw_cc_recent_add(ev, &n, &port_ev[j]);
		info->events_counter += events;
		if (marked)
			ibsw_cc_mask_set(info->port_map, i);
	}
	info->threshold_events = atomic64_read(&sw->cc_threshold_events);
	info->current_timestamp =
		ibsw_cc_timestamp(ktime_get_ns(),
				  READ_ONCE(ibsw_fabric.time_scale));
	info->nr_events = n;
	for (i = 0; i < n; i++) {
		info->event[i].slid = ev[i].slid;
		info->event[i].dlid = ev[i].dlid;
		info->event[i].sl = ev[i].sl;
		info->event[i].timestamp = ev[i].timestamp;
		info->event[i].port = ev[i].port;
		info->event[i].vl = ev[i].vl;
	}
}

/**
 * ibsw_cc_log_clear() - empty a switch's CongestionLog
 * @sw: the switch
 *
 * The events, the events counter and the port map; threshold-events
 * counts on (it is a counter, not part of the log).
 *
 * Context: process context.
 */
void ibsw_cc_log_clear(struct ibsw_switch *sw)
{
	unsigned int i;

	for (i = 1; i <= sw->nr_ports; i++)
		ibsw_engine_cc_log_clear(sw->ports[i]->out);
}
