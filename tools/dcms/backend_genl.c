// SPDX-License-Identifier: GPL-2.0
/*
 * The ibsw generic netlink family as a dcms backend
 * (Documentation/netlink/specs/ibsw.yaml): fabric-get for the time scale,
 * switch-get and port-get dumps for the switches, their ports' kind, peer
 * and counters, cc-get and cc-set for the congestion control settings.
 */
#define _GNU_SOURCE
#include "backend.h"
#include "genl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <uapi/linux/ibsw.h>

#define RECV_BUF_SIZE	(256 * 1024)

struct genl {
	struct ibsw_genl nl;
	char sbuf[4096];
};

static __printf(2, 3) void set_msg(struct backend *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->msg, sizeof(b->msg), fmt, ap);
	va_end(ap);
}

/* A request of the ibsw family, in the send buffer */
static struct nlmsghdr *msg_start(struct genl *g, uint8_t cmd, uint16_t flags)
{
	return ibsw_genl_msg_start(g->sbuf, g->nl.family, cmd, flags);
}

/* Send a request, pass each reply to cb; the extack message into b->msg */
static int xfer(struct backend *b, struct nlmsghdr *req, ibsw_genl_cb cb, void *data)
{
	struct genl *g = b->priv;
	int err;

	b->msg[0] = '\0';
	err = ibsw_genl_xfer(&g->nl, req, cb, data);
	if (g->nl.ext_msg[0])
		set_msg(b, "%s", g->nl.ext_msg);
	return err;
}

/* ---------------------------------------------------------------- ops */

static int scale_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IBSW_A_FABRIC_MAX + 1];

	ibsw_attr_parse_msg(nlh, IBSW_A_FABRIC_MAX, NULL, tb);
	if (tb[IBSW_A_FABRIC_TIME_SCALE])
		*(uint32_t *)data = ibsw_attr_uint(tb[IBSW_A_FABRIC_TIME_SCALE]);
	return 0;
}

static int genl_time_scale(struct backend *b, uint32_t *scale)
{
	struct genl *g = b->priv;
	int err;

	*scale = 0;
	err = xfer(b, msg_start(g, IBSW_CMD_FABRIC_GET, 0), scale_cb, scale);
	if (!err && !*scale)
		err = -EPROTO;
	return err;
}

struct names {
	struct be_name *v;
	size_t n, cap;
};

static int switch_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IBSW_A_SWITCH_MAX + 1];
	struct names *l = data;

	ibsw_attr_parse_msg(nlh, IBSW_A_SWITCH_MAX, NULL, tb);
	if (!tb[IBSW_A_SWITCH_NAME])
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct be_name *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	ibsw_attr_strcpy(l->v[l->n++].s, BE_NAME_LEN, tb[IBSW_A_SWITCH_NAME]);
	return 0;
}

static int genl_switches(struct backend *b, struct be_name **names, size_t *n)
{
	struct genl *g = b->priv;
	struct names l = { 0 };
	int err;

	err = xfer(b, msg_start(g, IBSW_CMD_SWITCH_GET, NLM_F_DUMP), switch_cb, &l);
	if (err) {
		free(l.v);
		return err;
	}
	*names = l.v;
	*n = l.n;
	return 0;
}

struct port_list {
	struct dcms_port_sample *v;
	size_t n, cap;
};

static int port_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IBSW_A_PORT_MAX + 1], *cnt[IBSW_A_COUNTERS_MAX + 1];
	struct port_list *l = data;
	struct dcms_port_sample *s;

	ibsw_attr_parse_msg(nlh, IBSW_A_PORT_MAX, NULL, tb);
	if (!tb[IBSW_A_PORT_PORT])
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct dcms_port_sample *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	s = &l->v[l->n++];
	memset(s, 0, sizeof(*s));
	s->port = ibsw_attr_uint(tb[IBSW_A_PORT_PORT]);
	switch (tb[IBSW_A_PORT_KIND] ? ibsw_attr_uint(tb[IBSW_A_PORT_KIND]) :
		IBSW_PORT_KIND_NONE) {
	case IBSW_PORT_KIND_HOST:
		s->peer = DCMS_PEER_CA;
		break;
	case IBSW_PORT_KIND_LINK:
		s->peer = DCMS_PEER_SWITCH;
		ibsw_attr_strcpy(s->peer_switch, sizeof(s->peer_switch),
				 tb[IBSW_A_PORT_PEER_SWITCH_NAME]);
		if (tb[IBSW_A_PORT_PEER_PORT])
			s->peer_port = ibsw_attr_uint(tb[IBSW_A_PORT_PEER_PORT]);
		break;
	default:
		s->peer = DCMS_PEER_NONE;
		break;
	}
	if (tb[IBSW_A_PORT_COUNTERS]) {
		ibsw_attr_parse_nest(tb[IBSW_A_PORT_COUNTERS], IBSW_A_COUNTERS_MAX, NULL, cnt);
		if (cnt[IBSW_A_COUNTERS_XMIT_WAIT])
			s->w = ibsw_attr_uint(cnt[IBSW_A_COUNTERS_XMIT_WAIT]);
		if (cnt[IBSW_A_COUNTERS_XMIT_DATA])
			s->d = ibsw_attr_uint(cnt[IBSW_A_COUNTERS_XMIT_DATA]);
		if (cnt[IBSW_A_COUNTERS_XMIT_TIME_CONG])
			s->c = ibsw_attr_uint(cnt[IBSW_A_COUNTERS_XMIT_TIME_CONG]);
	}
	return 0;
}

static int genl_read_ports(struct backend *b, const char *sw,
			   struct dcms_port_sample **ports, size_t *n)
{
	struct genl *g = b->priv;
	struct port_list l = { 0 };
	struct nlmsghdr *nlh;
	int err;

	nlh = msg_start(g, IBSW_CMD_PORT_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, IBSW_A_PORT_SWITCH_NAME, sw);
	err = xfer(b, nlh, port_cb, &l);
	if (err) {
		free(l.v);
		return err;
	}
	*ports = l.v;
	*n = l.n;
	return 0;
}

static int cc_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IBSW_A_CC_MAX + 1], *pt[IBSW_A_CC_PORT_MAX + 1];
	struct be_switch_cc *cc = data;
	size_t hdr = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr));
	const struct nlattr *a;

	ibsw_attr_parse_msg(nlh, IBSW_A_CC_MAX, NULL, tb);
	if (tb[IBSW_A_CC_THRESHOLD])
		cc->threshold = ibsw_attr_uint(tb[IBSW_A_CC_THRESHOLD]);
	if (tb[IBSW_A_CC_PACKET_SIZE])
		cc->packet_size = ibsw_attr_uint(tb[IBSW_A_CC_PACKET_SIZE]);
	if (tb[IBSW_A_CC_MARKING_RATE])
		cc->marking_rate = ibsw_attr_uint(tb[IBSW_A_CC_MARKING_RATE]);
	if (nlh->nlmsg_len < hdr)
		return 0;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		unsigned int port;

		if (mnl_attr_get_type(a) != IBSW_A_CC_PORT_SETTING)
			continue;
		ibsw_attr_parse_nest(a, IBSW_A_CC_PORT_MAX, NULL, pt);
		if (!pt[IBSW_A_CC_PORT_PORT])
			continue;
		port = ibsw_attr_uint(pt[IBSW_A_CC_PORT_PORT]);
		if (port < 1 || port > DCMS_PORTS_MAX)
			continue;
		if (port > cc->nports)
			cc->nports = port;
		if (pt[IBSW_A_CC_PORT_VALID])
			cc->port[port].valid = ibsw_attr_uint(pt[IBSW_A_CC_PORT_VALID]);
		if (pt[IBSW_A_CC_PORT_THRESHOLD])
			cc->port[port].threshold = ibsw_attr_uint(pt[IBSW_A_CC_PORT_THRESHOLD]);
		if (pt[IBSW_A_CC_PORT_PACKET_SIZE])
			cc->port[port].packet_size = ibsw_attr_uint(pt[IBSW_A_CC_PORT_PACKET_SIZE]);
		if (pt[IBSW_A_CC_PORT_MARKING_RATE])
			cc->port[port].marking_rate =
				ibsw_attr_uint(pt[IBSW_A_CC_PORT_MARKING_RATE]);
	}
	return 0;
}

static int genl_cc_get(struct backend *b, const char *sw, struct be_switch_cc *cc)
{
	struct genl *g = b->priv;
	struct nlmsghdr *nlh;

	memset(cc, 0, sizeof(*cc));
	nlh = msg_start(g, IBSW_CMD_CC_GET, 0);
	mnl_attr_put_strz(nlh, IBSW_A_CC_SWITCH_NAME, sw);
	return xfer(b, nlh, cc_cb, cc);
}

static int genl_cc_set_port(struct backend *b, const char *sw, unsigned int port,
			    const struct be_port_cc *pc)
{
	struct genl *g = b->priv;
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	nlh = msg_start(g, IBSW_CMD_CC_SET, 0);
	mnl_attr_put_strz(nlh, IBSW_A_CC_SWITCH_NAME, sw);
	nest = mnl_attr_nest_start(nlh, IBSW_A_CC_PORT_SETTING);
	mnl_attr_put_u32(nlh, IBSW_A_CC_PORT_PORT, port);
	mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_VALID, pc->valid);
	mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_THRESHOLD, pc->threshold);
	mnl_attr_put_u8(nlh, IBSW_A_CC_PORT_PACKET_SIZE, pc->packet_size);
	mnl_attr_put_u16(nlh, IBSW_A_CC_PORT_MARKING_RATE, pc->marking_rate);
	mnl_attr_nest_end(nlh, nest);
	return xfer(b, nlh, NULL, NULL);
}

static int genl_cc_set_switch(struct backend *b, const char *sw,
			      const struct cc_sw_setting *s)
{
	struct genl *g = b->priv;
	struct nlmsghdr *nlh;

	nlh = msg_start(g, IBSW_CMD_CC_SET, 0);
	mnl_attr_put_strz(nlh, IBSW_A_CC_SWITCH_NAME, sw);
	if (s->set & CC_SW_CONTROL_MAP)
		mnl_attr_put_u32(nlh, IBSW_A_CC_CONTROL_MAP, s->control_map);
	if (s->set & CC_SW_VICTIM_MASK)
		mnl_attr_put(nlh, IBSW_A_CC_VICTIM_MASK, CC_MASK_LEN, s->victim_mask);
	if (s->set & CC_SW_CREDIT_MASK)
		mnl_attr_put(nlh, IBSW_A_CC_CREDIT_MASK, CC_MASK_LEN, s->credit_mask);
	if (s->set & CC_SW_THRESHOLD)
		mnl_attr_put_u8(nlh, IBSW_A_CC_THRESHOLD, s->threshold);
	if (s->set & CC_SW_PACKET_SIZE)
		mnl_attr_put_u8(nlh, IBSW_A_CC_PACKET_SIZE, s->packet_size);
	if (s->set & CC_SW_CS_THRESHOLD)
		mnl_attr_put_u8(nlh, IBSW_A_CC_CS_THRESHOLD, s->cs_threshold);
	if (s->set & CC_SW_CS_RETURN_DELAY)
		mnl_attr_put_u16(nlh, IBSW_A_CC_CS_RETURN_DELAY, s->cs_return_delay);
	if (s->set & CC_SW_MARKING_RATE)
		mnl_attr_put_u16(nlh, IBSW_A_CC_MARKING_RATE, s->marking_rate);
	return xfer(b, nlh, NULL, NULL);
}

static void genl_close(struct backend *b)
{
	struct genl *g = b->priv;

	if (!g)
		return;
	ibsw_genl_close(&g->nl);
	free(g);
	b->priv = NULL;
}

static const struct backend_ops genl_ops = {
	.name = "ibsw-genl",
	.time_scale = genl_time_scale,
	.switches = genl_switches,
	.read_ports = genl_read_ports,
	.cc_get = genl_cc_get,
	.cc_set_port = genl_cc_set_port,
	.cc_set_switch = genl_cc_set_switch,
	.close = genl_close,
};

int backend_genl_open(struct backend *b)
{
	struct genl *g;
	int err;

	memset(b, 0, sizeof(*b));
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	err = ibsw_genl_open(&g->nl, RECV_BUF_SIZE);
	if (err == -ENOENT) {
		set_msg(b, "generic netlink family \"%s\" not found: is the ibsw module loaded?",
			IBSW_FAMILY_NAME);
	} else if (err) {
		set_msg(b, "cannot open the generic netlink family: %s", strerror(-err));
	} else {
		b->priv = g;
		b->ops = &genl_ops;
		return 0;
	}
	free(g);
	return err;
}
