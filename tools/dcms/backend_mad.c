// SPDX-License-Identifier: GPL-2.0
/*
 * PerfMgt and CC MADs as a dcms backend, over a MAD agent (backend_mad.h):
 * the switches of the last discovery, their counters from
 * PortCountersExtended and PortXmitConCtrl, their settings in
 * SwitchCongestionSetting and SwitchPortCongestionSetting; and its CA
 * ports' CACongestionSetting and CongestionControlTable, for the static
 * manager.
 *
 * A discovery costs some SMPs per port of the fabric, so a sweep does not
 * do one: the table is rebuilt only in switches() (once per sweep), after a
 * MAD to a switch failed since the last discovery (its LID may have
 * changed, it may be gone) or every mad_rediscover sweeps. A failed
 * discovery keeps the old table, so that restores still reach the switches,
 * and is tried again at the next switches().
 *
 * Units are those of the genl backend: ibsw's PMA reports the same
 * counters as netlink (Documentation/mads.md), PortXmitData in 32-bit
 * words and PortXmitWait and PortXmitTimeCong in ticks. The first two are
 * 64 bits on the wire; PortXmitTimeCong is 32 and saturates, as PMA
 * counters do (Documentation/dcms.md).
 */
#define _GNU_SOURCE
#include "backend_mad.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mad_be {
	const struct mad_agent_ops *ops;
	void *ctx;
	struct mad_be_conf conf;
	struct mad_fabric tab;
	bool stale;			/* a MAD to a switch failed since the last discovery */
	unsigned int sweeps;		/* switches() calls since the last discovery */
	unsigned int discoveries;
	struct backend *genl;		/* for the time scale, or NULL */
};

static __printf(2, 3) void set_msg(struct backend *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->msg, sizeof(b->msg), fmt, ap);
	va_end(ap);
}

static const char *attr_name(uint16_t attr)
{
	switch (attr) {
	case MAD_PC_EXT:
		return "PortCountersExtended";
	case MAD_XMIT_CON_CTRL:
		return "PortXmitConCtrl";
	case MAD_SW_CC:
		return "SwitchCongestionSetting";
	case MAD_SW_PORT_CC:
		return "SwitchPortCongestionSetting";
	case MAD_CA_CC:
		return "CACongestionSetting";
	case MAD_CCT:
		return "CongestionControlTable";
	default:
		return "attribute";
	}
}

/* Why a MAD failed: "MAD status 0x001c (...)", "no answer in 200 ms" */
static void mad_why(const struct mad_be *m, int err, unsigned int status, char *why,
		    size_t len)
{
	char st[64];

	if (err == -EIO) {
		mad_status_str(status, st, sizeof(st));
		snprintf(why, len, "MAD status %s", st);
	} else if (err == -ETIMEDOUT) {
		snprintf(why, len, "no answer in %u ms", m->conf.timeout_ms);
	} else {
		snprintf(why, len, "%s", strerror(-err));
	}
}

/*
 * The message of a failed MAD, as the genl backend's extack names the
 * switch: "switch S1 (LID 3): Get PortCountersExtended port 5: MAD status
 * 0x001c (...)". kind is "switch" or "hca"; what is "port 5", "block 0" or "".
 */
static int node_failed(struct backend *b, const char *kind, const char *name, uint16_t lid,
		       const char *method, uint16_t attr, const char *what, int err,
		       unsigned int status)
{
	const char *sep = *what ? " " : "";
	char why[96];

	mad_why(b->priv, err, status, why, sizeof(why));
	set_msg(b, "%s %s (LID %u): %s %s%s%s: %s", kind, name, lid, method, attr_name(attr),
		sep, what, why);
	return err;
}

static int mad_failed(struct backend *b, const struct mad_switch *sw, const char *method,
		      uint16_t attr, const char *what, int err, unsigned int status)
{
	struct mad_be *m = b->priv;

	/* its LID may have changed, it may be gone */
	m->stale = true;
	return node_failed(b, "switch", sw->name, sw->lid, method, attr, what, err, status);
}

static const struct mad_switch *find_switch(struct backend *b, const char *name)
{
	struct mad_be *m = b->priv;
	const struct mad_switch *sw = mad_fabric_find(&m->tab, name);

	if (!sw)
		set_msg(b, "no switch \"%s\" in the last discovery", name);
	return sw;
}

static int discover(struct backend *b)
{
	struct mad_be *m = b->priv;
	struct mad_fabric t = { 0 };
	int err;

	err = m->ops->discover(m->ctx, &t, b->msg, sizeof(b->msg));
	if (err) {
		m->stale = true;
		return err;
	}
	mad_fabric_free(&m->tab);
	m->tab = t;
	m->stale = false;
	m->sweeps = 0;
	m->discoveries++;
	return 0;
}

/* ---------------------------------------------------------------- ops */

static int mad_time_scale(struct backend *b, uint32_t *scale)
{
	struct mad_be *m = b->priv;
	int err;

	if (m->conf.time_scale) {
		*scale = m->conf.time_scale;
		return 0;
	}
	/* an ibsw fabric in this namespace knows; a real one runs at 1 */
	if (!m->genl) {
		*scale = 1;
		return 0;
	}
	err = m->genl->ops->time_scale(m->genl, scale);
	if (err)
		set_msg(b, "ibsw time scale: %s", m->genl->msg[0] ? m->genl->msg : strerror(-err));
	return err;
}

static int mad_switches(struct backend *b, struct be_name **names, size_t *n)
{
	struct mad_be *m = b->priv;
	size_t i;
	int err;

	b->msg[0] = '\0';
	if (m->stale || (m->conf.rediscover && m->sweeps >= m->conf.rediscover)) {
		err = discover(b);
		if (err)
			return err;
	}
	m->sweeps++;
	*names = calloc(m->tab.n ? m->tab.n : 1, sizeof(**names));
	if (!*names)
		return -ENOMEM;
	for (i = 0; i < m->tab.n; i++)
		snprintf((*names)[i].s, BE_NAME_LEN, "%s", m->tab.sw[i].name);
	*n = m->tab.n;
	return 0;
}

static int mad_read_ports(struct backend *b, const char *name,
			  struct dcms_port_sample **ports, size_t *n)
{
	struct mad_be *m = b->priv;
	const struct mad_switch *sw;
	struct dcms_port_sample *v;
	uint8_t data[MAD_ATTR_LEN];
	unsigned int p, status = 0;
	char what[16];
	int err;

	b->msg[0] = '\0';
	sw = find_switch(b, name);
	if (!sw)
		return -ENODEV;
	v = calloc(sw->nports ? sw->nports : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	/*
	 * Two Gets per cabled port; a port with nothing on it has no flow
	 * and no N(s, p): its counters are left 0 and it costs no MAD. The
	 * MADs go one at a time, so the fewer, the closer together in time
	 * the ports of a snapshot are read. The first failure ends the read
	 * (no 2N timeouts).
	 */
	for (p = 1; p <= sw->nports; p++) {
		struct dcms_port_sample *s = &v[p - 1];

		s->port = p;
		s->peer = sw->port[p].peer;
		memcpy(s->peer_switch, sw->port[p].peer_switch, sizeof(s->peer_switch));
		s->peer_port = sw->port[p].peer_port;
		if (s->peer == DCMS_PEER_NONE)
			continue;
		snprintf(what, sizeof(what), "port %u", p);
		err = m->ops->pma_get(m->ctx, sw->lid, MAD_PC_EXT, p, data, &status);
		if (err) {
			free(v);
			return mad_failed(b, sw, "Get", MAD_PC_EXT, what, err, status);
		}
		mad_pc_ext_decode(data, &s->d, &s->w);
		err = m->ops->pma_get(m->ctx, sw->lid, MAD_XMIT_CON_CTRL, p, data, &status);
		if (err) {
			free(v);
			return mad_failed(b, sw, "Get", MAD_XMIT_CON_CTRL, what, err, status);
		}
		s->c = mad_xmit_con_ctrl_decode(data);
	}
	*ports = v;
	*n = sw->nports;
	return 0;
}

static int get_block(struct backend *b, const struct mad_switch *sw, unsigned int block,
		     uint8_t *data)
{
	struct mad_be *m = b->priv;
	unsigned int status = 0;
	char what[16];
	int err;

	memset(data, 0, MAD_ATTR_LEN);
	err = m->ops->cc_get(m->ctx, sw->lid, MAD_SW_PORT_CC, block, m->conf.cc_key, data,
			     &status);
	if (err) {
		snprintf(what, sizeof(what), "block %u", block);
		return mad_failed(b, sw, "Get", MAD_SW_PORT_CC, what, err, status);
	}
	return 0;
}

static int mad_cc_get(struct backend *b, const char *name, struct be_switch_cc *cc)
{
	struct mad_be *m = b->priv;
	const struct mad_switch *sw;
	struct cc_sw_setting s;
	uint8_t data[MAD_ATTR_LEN];
	unsigned int block, e, status = 0;
	int err;

	b->msg[0] = '\0';
	memset(cc, 0, sizeof(*cc));
	sw = find_switch(b, name);
	if (!sw)
		return -ENODEV;
	memset(data, 0, sizeof(data));
	err = m->ops->cc_get(m->ctx, sw->lid, MAD_SW_CC, 0, m->conf.cc_key, data, &status);
	if (err)
		return mad_failed(b, sw, "Get", MAD_SW_CC, "", err, status);
	mad_sw_cc_decode(data, &s);
	cc->threshold = s.threshold;
	cc->packet_size = s.packet_size;
	cc->marking_rate = s.marking_rate;
	cc->nports = sw->nports;
	/* the blocks of ports 1..nports: block 0 holds port 0 too */
	for (block = 0; block <= sw->nports / MAD_SW_PORT_BLOCK; block++) {
		err = get_block(b, sw, block, data);
		if (err)
			return err;
		for (e = 0; e < MAD_SW_PORT_BLOCK; e++) {
			unsigned int port = block * MAD_SW_PORT_BLOCK + e;

			if (port >= 1 && port <= sw->nports)
				mad_sw_port_decode(data, e, &cc->port[port]);
		}
	}
	return 0;
}

static int mad_cc_set_port(struct backend *b, const char *name, unsigned int port,
			   const struct be_port_cc *pc)
{
	struct mad_be *m = b->priv;
	const struct mad_switch *sw;
	uint8_t data[MAD_ATTR_LEN];
	unsigned int block = port / MAD_SW_PORT_BLOCK, status = 0;
	char what[16];
	int err;

	b->msg[0] = '\0';
	sw = find_switch(b, name);
	if (!sw)
		return -ENODEV;
	if (port < 1 || port > sw->nports) {
		set_msg(b, "switch %s has no port %u (ports 1 to %u)", sw->name, port,
			sw->nports);
		return -EINVAL;
	}
	/* a Set writes the whole block: the other 31 elements as they are now */
	err = get_block(b, sw, block, data);
	if (err)
		return err;
	mad_sw_port_encode(data, port % MAD_SW_PORT_BLOCK, pc);
	err = m->ops->cc_set(m->ctx, sw->lid, MAD_SW_PORT_CC, block, m->conf.cc_key, data,
			     &status);
	if (err) {
		snprintf(what, sizeof(what), "block %u", block);
		return mad_failed(b, sw, "Set", MAD_SW_PORT_CC, what, err, status);
	}
	return 0;
}

static int mad_cc_set_switch(struct backend *b, const char *name,
			     const struct cc_sw_setting *s)
{
	struct mad_be *m = b->priv;
	const struct mad_switch *sw;
	struct cc_sw_setting cur;
	uint8_t data[MAD_ATTR_LEN];
	unsigned int status = 0;
	int err;

	b->msg[0] = '\0';
	sw = find_switch(b, name);
	if (!sw)
		return -ENODEV;
	if (!(s->set & ~CC_SW_CONTROL_MAP)) {
		/* as the genl cc-set: a Control_Map alone sets nothing */
		set_msg(b, "nothing to set: give a setting");
		return -EINVAL;
	}
	memset(data, 0, sizeof(data));
	err = m->ops->cc_get(m->ctx, sw->lid, MAD_SW_CC, 0, m->conf.cc_key, data, &status);
	if (err)
		return mad_failed(b, sw, "Get", MAD_SW_CC, "", err, status);
	mad_sw_cc_decode(data, &cur);
	mad_sw_cc_merge(&cur, s);
	mad_sw_cc_encode(data, &cur);
	err = m->ops->cc_set(m->ctx, sw->lid, MAD_SW_CC, 0, m->conf.cc_key, data, &status);
	if (err)
		return mad_failed(b, sw, "Set", MAD_SW_CC, "", err, status);
	return 0;
}

static int mad_cas(struct backend *b, struct be_ca **cas, size_t *n)
{
	struct mad_be *m = b->priv;
	size_t i;

	b->msg[0] = '\0';
	*cas = calloc(m->tab.nca ? m->tab.nca : 1, sizeof(**cas));
	if (!*cas)
		return -ENOMEM;
	for (i = 0; i < m->tab.nca; i++)
		(*cas)[i] = m->tab.ca[i].ca;
	*n = m->tab.nca;
	return 0;
}

/*
 * No CC agent: the port answered that it has none for this class, method
 * or attribute (MAD status 0x0004, 0x0008, 0x000c; the kernel's answer
 * where no agent registered) or did not answer, as OpenSM's
 * cc_unavailable_flag.
 */
static bool no_cc_agent(int err, unsigned int status)
{
	unsigned int code = (status >> 2) & 7;

	return err == -ETIMEDOUT || (err == -EIO && code >= 1 && code <= 3);
}

/*
 * As OpenSM: one CACongestionSetting Set, then one Set per CCT block. Only
 * the first tells whether there is an agent: a CCT Set failing after it is
 * the agent refusing.
 */
static int mad_cc_set_ca(struct backend *b, const struct be_ca *ca,
			 const struct cc_ca_setting *s)
{
	struct mad_be *m = b->priv;
	uint8_t data[MAD_ATTR_LEN];
	unsigned int block, status = 0;
	char what[16], why[96];
	int err;

	b->msg[0] = '\0';
	if (!ca->lid) {
		set_msg(b, "hca %s (LID 0): no LID, no subnet manager has assigned one",
			ca->name);
		return -ENXIO;
	}
	mad_ca_cc_encode(data, s);
	err = m->ops->cc_set(m->ctx, ca->lid, MAD_CA_CC, 0, m->conf.cc_key, data, &status);
	if (err && no_cc_agent(err, status)) {
		mad_why(m, err, status, why, sizeof(why));
		set_msg(b, "hca %s (LID %u): no congestion control agent (%s)", ca->name,
			ca->lid, why);
		return -EOPNOTSUPP;
	}
	if (err)
		return node_failed(b, "hca", ca->name, ca->lid, "Set", MAD_CA_CC, "", err,
				   status);
	for (block = 0; block < be_cct_blocks(s->cct_len); block++) {
		mad_cct_encode(data, s, block);
		err = m->ops->cc_set(m->ctx, ca->lid, MAD_CCT, block, m->conf.cc_key, data,
				     &status);
		if (err) {
			snprintf(what, sizeof(what), "block %u", block);
			return node_failed(b, "hca", ca->name, ca->lid, "Set", MAD_CCT, what, err,
					   status);
		}
	}
	return 0;
}

static void mad_close(struct backend *b)
{
	struct mad_be *m = b->priv;

	if (!m)
		return;
	if (m->genl) {
		m->genl->ops->close(m->genl);
		free(m->genl);
	}
	if (m->ops->close)
		m->ops->close(m->ctx);
	mad_fabric_free(&m->tab);
	free(m);
	b->priv = NULL;
}

static const struct backend_ops mad_ops = {
	.name = "mad",
	.time_scale = mad_time_scale,
	.switches = mad_switches,
	.read_ports = mad_read_ports,
	.cc_get = mad_cc_get,
	.cc_set_port = mad_cc_set_port,
	.cc_set_switch = mad_cc_set_switch,
	.cas = mad_cas,
	.cc_set_ca = mad_cc_set_ca,
	.close = mad_close,
};

int backend_mad_init(struct backend *b, const struct mad_be_conf *mc,
		     const struct mad_agent_ops *ops, void *ctx, struct backend *genl)
{
	struct mad_be *m;
	int err;

	memset(b, 0, sizeof(*b));
	m = calloc(1, sizeof(*m));
	if (!m) {
		if (genl) {
			genl->ops->close(genl);
			free(genl);
		}
		if (ops->close)
			ops->close(ctx);
		set_msg(b, "out of memory");
		return -ENOMEM;
	}
	m->ops = ops;
	m->ctx = ctx;
	m->conf = *mc;
	m->genl = genl;
	b->priv = m;
	b->ops = &mad_ops;
	err = discover(b);
	if (err) {
		mad_close(b);
		b->ops = NULL;
	}
	return err;
}

unsigned int backend_mad_discoveries(const struct backend *b)
{
	const struct mad_be *m = b->priv;

	return m ? m->discoveries : 0;
}
