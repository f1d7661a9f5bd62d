// SPDX-License-Identifier: GPL-2.0
/*
 * The MAD agent of the MAD backend over the real thing: libibmad's rpc on
 * one umad port (a CA name and port, e.g. ibsw_mgmt0 port 1) for the PMA
 * and CC MADs, libibnetdisc's discovery from that port for the switch
 * table. LID routed: the switches must have LIDs from a subnet manager.
 */
#define _GNU_SOURCE
#include "backend_mad.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

struct umad_agent {
	struct ibmad_port *port;
	char ca[CONF_CA_NAME_MAX + 1];	/* "": libibumad's first CA */
	int portnum;
	unsigned int timeout_ms;
};

static void lid_portid(ib_portid_t *id, uint16_t lid)
{
	memset(id, 0, sizeof(*id));
	ib_portid_set(id, lid, 1, IB_DEFAULT_QP1_QKEY);
}

/* NULL from libibmad: an answer with a status, or none at all */
static int rpc_result(const void *res, unsigned int rstatus, unsigned int *status)
{
	*status = rstatus;
	if (res)
		return 0;
	return rstatus ? -EIO : -ETIMEDOUT;
}

static int u_pma_get(void *ctx, uint16_t lid, uint16_t attr, uint8_t port, uint8_t *data,
		     unsigned int *status)
{
	struct umad_agent *a = ctx;
	ib_rpc_t rpc = { 0 };
	ib_portid_t id;
	void *res;

	/* pma_query_via() without losing the status: same rpc, by hand */
	lid_portid(&id, lid);
	memset(data, 0, MAD_ATTR_LEN);
	mad_set_field(data, 0, IB_PC_PORT_SELECT_F, port);
	rpc.mgtclass = IB_PERFORMANCE_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = attr;
	rpc.attr.mod = 0;
	rpc.timeout = a->timeout_ms;
	rpc.datasz = IB_PC_DATA_SZ;
	rpc.dataoffs = IB_PC_DATA_OFFS;
	res = mad_rpc(a->port, &rpc, &id, data, data);
	return rpc_result(res, rpc.rstatus, status);
}

static int u_cc_get(void *ctx, uint16_t lid, uint16_t attr, uint32_t mod, uint64_t cc_key,
		    uint8_t *data, unsigned int *status)
{
	struct umad_agent *a = ctx;
	ib_portid_t id;
	int rstatus = 0;
	void *res;

	lid_portid(&id, lid);
	res = cc_query_status_via(data, &id, attr, mod, a->timeout_ms, &rstatus, a->port, cc_key);
	return rpc_result(res, rstatus, status);
}

static int u_cc_set(void *ctx, uint16_t lid, uint16_t attr, uint32_t mod, uint64_t cc_key,
		    uint8_t *data, unsigned int *status)
{
	struct umad_agent *a = ctx;
	ib_portid_t id;
	int rstatus = 0;
	void *res;

	lid_portid(&id, lid);
	/* payload and reply in the same buffer: the request is built first */
	res = cc_config_status_via(data, data, &id, attr, mod, a->timeout_ms, &rstatus, a->port,
				   cc_key);
	return rpc_result(res, rstatus, status);
}

static int u_discover(void *ctx, struct mad_fabric *t, char *msg, size_t len)
{
	struct umad_agent *a = ctx;
	ibnd_config_t cfg = { 0 };
	ibnd_fabric_t *f;
	int err;

	cfg.timeout_ms = a->timeout_ms;
	f = ibnd_discover_fabric(a->ca[0] ? a->ca : NULL, a->portnum, NULL, &cfg);
	if (!f) {
		snprintf(msg, len, "fabric discovery from %s port %d failed",
			 a->ca[0] ? a->ca : "the first CA", a->portnum);
		return -EIO;
	}
	err = mad_fabric_build(f, t, msg, len);
	ibnd_destroy_fabric(f);
	return err;
}

static void u_close(void *ctx)
{
	struct umad_agent *a = ctx;

	if (a->port)
		mad_rpc_close_port(a->port);
	free(a);
}

static const struct mad_agent_ops umad_ops = {
	.pma_get = u_pma_get,
	.cc_get = u_cc_get,
	.cc_set = u_cc_set,
	.discover = u_discover,
	.close = u_close,
};

/* The ibsw genl family for the time scale, if this namespace has it */
static struct backend *open_genl(void)
{
	struct backend *g = calloc(1, sizeof(*g));

	if (g && backend_genl_open(g)) {
		free(g);
		g = NULL;
	}
	return g;
}

int backend_mad_open(struct backend *b, const struct conf *conf)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_PERFORMANCE_CLASS, IB_CC_CLASS };
	struct mad_be_conf mc = {
		.cc_key = conf->cc_key,
		.timeout_ms = conf->mad_timeout_ms,
		.rediscover = conf->mad_rediscover,
		.time_scale = conf->time_scale,
	};
	struct umad_agent *a;

	memset(b, 0, sizeof(*b));
	a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(b->msg, sizeof(b->msg), "out of memory");
		return -ENOMEM;
	}
	snprintf(a->ca, sizeof(a->ca), "%s", conf->mad_ca);
	a->portnum = conf->mad_port;
	a->timeout_ms = conf->mad_timeout_ms;
	a->port = mad_rpc_open_port(a->ca[0] ? a->ca : NULL, a->portnum, classes,
				    ARRAY_SIZE(classes));
	if (!a->port) {
		/* libibumad has said why on stderr */
		snprintf(b->msg, sizeof(b->msg), "cannot open the umad port of %s port %d",
			 a->ca[0] ? a->ca : "the first CA", a->portnum);
		free(a);
		return -ENODEV;
	}
	mad_rpc_set_timeout(a->port, a->timeout_ms);
	return backend_mad_init(b, &mc, &umad_ops, a, conf->time_scale ? NULL : open_genl());
}
